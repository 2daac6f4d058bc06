"""Compiled parts of the batched core's step (:mod:`majiang.rl.batched`).

The batched core steps ``n`` hands with numpy operations over row masks; on the common step (a
discard and the claim window it opens) most of its time went to the call overhead of many small
numpy operations. These loops do the same work row by row in compiled code (numba, as
:mod:`majiang.rl.kernels`):

* :func:`win_gates` -- the win gates of 3k+1 hands (which tile groups could complete the standard
  shape; whether a special shape might be one tile away), the same numbers as
  :func:`majiang.rl.batched.win_gates`;
* ``_claim_options`` and ``_open_windows`` -- who may claim each discard (exposed kong, pung,
  chow, and the seats whose win gate admits the tile), then the window's state once the engine has
  decided the gated wins, as ``BatchedCore._open_claims`` does with numpy;
* ``_masks`` -- the seat to act on each row and its legal-action mask, as ``BatchedCore.fill``;
* ``_discard_one``, ``_draws`` and ``_claims`` -- a discard, a draw from the wall (flowers set aside and
  replaced from the tail; a hand the win gate admits is then tested by the engine) and a
  chow, pung or exposed kong taken from a window (a win is left to the engine), as ``BatchedCore.step``,
  ``_draw`` and ``_resolve_claims``;
* ``_step`` -- the common step of every row in one call (the actions checked, a discard with its
  gate and window and the next draw, the answers in a window), built from the pieces above; what
  it leaves (other turn actions, windows to resolve, gated wins) it marks for the Python code;
* ``_follow_ups`` -- what ``_step`` left that compiled code can finish, row by row
  (``_follow_up``): a claim made (``_claims``) and an exposed kong's replacement, the flowers a
  draw set aside (marked for the core's lists), and, where the scorer offers a compiled quick value
  (:mod:`majiang.rules.quick_kernel`), the wins a discard or a draw offers to standard-shape hands
  (the claim window opened, the next draw made, ``turn_win`` set), as ``BatchedCore._after_compiled``
  would; the rest (special shapes, kongs, wins declared, robbing) is still Python's. The core's step
  and the learner's bots' loop (:mod:`majiang.rl.batched_learner`) both run it;
* ``_observe`` and ``_observe_botzone`` -- every row's ``majiang-v1`` (table planes, unseen counts,
  :func:`majiang.rl.kernels.analyse_rows`' loop, other hands) or ``botzone-v0`` in one call;
* the wildcard rule sets (``wenzhou``, ``wenzhou-w16``, ``seed000``, RULES.md §4.2; the sixth
  session): ``_step_wild`` -- their common step (a discard with its penalties, §4.6, the claim
  options of ``_wild_options`` with the White standing in, §2.1, the window, the next draw), with no
  win gates: ``_wild_complete`` tests each hand whole (the analysis kernel's shanten is -1, i.e.
  ``is_winning``; :func:`wild_candidates` for the numpy path), and ``_wild_rows`` -- the analysis
  planes of all rows (``kernels._wild``, the loop of ``kernels.analyse_wild_one``);
* ``_deal`` and ``_lay_out`` -- new hands: each wall shuffled by the engine's Mersenne Twister
  (``random.Random``'s, re-implemented and checked), broken and dealt, then laid out on the rows.

The numpy code stays in :mod:`majiang.rl.batched` as the reference and the path without numba;
tests/rl/test_rl_step_kernels.py compares the two step for step.
"""

from __future__ import annotations

import numpy as np

from majiang.rl import kernels
from majiang.rules import quick_kernel

_KERNELS = ("_win_test", "_quick_one", "_drawn", "_draw_next", "_window_quick", "_claim_made", "_follow_up",
            "_follow_scratch", "_follow_ups", "_acts_ok", "_stats", "_knitted_single", "_knitted_held", "_gate_one", "_options_one", "_window_one", "_discard_one", "_draw_one", "_step", "_observe", "_observe_botzone", "_win_gates", "_claim_options", "_open_windows", "_masks", "_draws", "_claims", "_cand_one", "_candidates", "_wild_complete", "_wild_candidates", "_wild_rows", "_wild_planes", "_wild_options", "_wild_draw", "_step_wild", "_mt_seed", "_mt_next", "_deal", "_lay_out")
_STATE: list[bool] = []


_address = _call_quick = None  # quick_kernel.address() and caller(), set before the loops compile


def available() -> bool:
    """True when these loops run compiled (numba present and not switched off by ``MAJIANG_NUMBA=0``,
    see :func:`majiang.rl.kernels.available`); the batched core uses its numpy code otherwise."""
    if not _STATE and kernels.available():
        globals()["_address"] = quick_kernel.address()
        globals()["_call_quick"] = quick_kernel.caller()
    return kernels.module_available(_STATE, globals(), _KERNELS, __file__, (quick_kernel.__file__,))


def _stats(c: np.ndarray, sbits: np.ndarray, hbits: np.ndarray, st: np.ndarray) -> None:
    """What the win tests read from counts ``c`` (34), into ``st``: total tiles, faces held an odd
    number of times, faces held twice or more, suited tiles other than terminals, then bits by
    group (0-2 the suits, 3 the honours): complete (sets, or sets and a pair), one tile short of
    complete, and holding 2 mod 3 tiles (the pair's group)."""
    for j in range(7):
        st[j] = 0
    for g in range(4):
        width = 7 if g == 3 else 9
        code = 0
        p = 1
        n = 0
        for f in range(width):
            x = np.int64(c[9 * g + f])
            code += x * p
            p *= 5
            n += x
            if x & 1:
                st[1] += 1
            if x > 1:
                st[2] += 1
            if g < 3 and f != 0 and f != 8:
                st[3] += x
        st[0] += n
        v = hbits[code] if g == 3 else sbits[code]
        if v & 1:
            st[4] |= 1 << g
        if (v >> 1) & 1:
            st[5] |= 1 << g
        if n % 3 == 2:
            st[6] |= 1 << g


def _knitted_single(c: np.ndarray, off_knitted: np.ndarray) -> bool:
    """Some knitted arrangement holds every suited tile of ``c`` (honours and knitted)."""
    for a in range(off_knitted.shape[1]):
        outside = 0
        for t in range(27):
            outside += c[t] * off_knitted[t, a]
        if outside == 0:
            return True
    return False


def _knitted_held(c: np.ndarray, knitted: np.ndarray, need: int) -> bool:
    """Some knitted arrangement has at least ``need`` of its nine tiles held in ``c``."""
    for a in range(knitted.shape[0]):
        held = 0
        for j in range(knitted.shape[1]):
            if c[knitted[a, j]] > 0:
                held += 1
        if held >= need:
            return True
    return False


def _gate_one(hand: np.ndarray, i: int, s: int, n_melds: np.ndarray, sbits: np.ndarray, hbits: np.ndarray,
              sev: int, orph: int, hk: int, knit: int, knitted: np.ndarray, off_knitted: np.ndarray,
              group_out: np.ndarray, special_out: np.ndarray) -> None:
    """The win gate of seat ``s``'s 3k+1 hand on row ``i`` (see :func:`win_gates`)."""
    c = hand[i, s]
    st = np.empty(7, dtype=np.int64)
    _stats(c, sbits, hbits, st)
    bad = 0
    for g in range(4):
        bad += 1 - ((st[4] >> g) & 1)
    bits = 0
    for g in range(4):  # one short here, every other group complete
        if (st[5] >> g) & 1 and bad == 1 - ((st[4] >> g) & 1):
            bits |= 1 << g
    group_out[i, s] = bits
    sp = False
    if st[0] == 13 and n_melds[i, s] == 0:
        sp = ((sev != 0 and st[1] == 1) or (orph != 0 and st[3] == 0)
              or (hk != 0 and st[2] == 0 and _knitted_single(c, off_knitted)))
    if knit != 0 and not sp:
        sp = _knitted_held(c, knitted, 8)
    special_out[i, s] = sp


def _win_gates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, n_melds: np.ndarray, sbits: np.ndarray,
               hbits: np.ndarray, sev: int, orph: int, hk: int, knit: int, knitted: np.ndarray,
               off_knitted: np.ndarray, group_out: np.ndarray, special_out: np.ndarray) -> None:
    for k in range(rows.shape[0]):
        _gate_one(hand, rows[k], seats[k], n_melds, sbits, hbits, sev, orph, hk, knit, knitted, off_knitted,
                  group_out, special_out)


def _options_one(k: int, i: int, origin: np.ndarray, claim_tile: np.ndarray, hand: np.ndarray, head: np.ndarray,
                 tail: np.ndarray, reserve: int, n_melds: np.ndarray, sets: int, claim_last: int, ekong: int,
                 pung_ok: int, chow_ok: int, gate_group: np.ndarray, gate_special: np.ndarray,
                 group_of: np.ndarray, chow_pos: np.ndarray, kong: np.ndarray, pung: np.ndarray, chow: np.ndarray,
                 gated: np.ndarray) -> int:
    """Who may claim row ``i``'s discard (into row ``k`` of the outputs); returns the gated seats."""
    ngated = 0
    d = origin[i]
    t = claim_tile[i]
    live = tail[i] - head[i] - reserve > 0
    for j in range(3):
        s = (d + j + 1) % 4
        ct = hand[i, s, t]
        may = n_melds[i, s] < sets and (claim_last or live)
        kong[k, j] = ekong and ct == 3 and may and live
        pung[k, j] = pung_ok and ct >= 2 and may
        gd = ((gate_group[i, s] >> group_of[t]) & 1) > 0 or gate_special[i, s]
        gated[k, j] = gd
        if gd:
            ngated += 1
        if j == 0:
            if chow_ok and may:
                nm2 = hand[i, s, max(t - 2, 0)] > 0
                nm1 = hand[i, s, max(t - 1, 0)] > 0
                np1 = hand[i, s, min(t + 1, 33)] > 0
                np2 = hand[i, s, min(t + 2, 33)] > 0
                chow[k, 0] = chow_pos[t, 0] and nm2 and nm1
                chow[k, 1] = chow_pos[t, 1] and nm1 and np1
                chow[k, 2] = chow_pos[t, 2] and np1 and np2
            else:
                chow[k, 0] = False
                chow[k, 1] = False
                chow[k, 2] = False
    return ngated


def _claim_options(rows: np.ndarray, origin: np.ndarray, claim_tile: np.ndarray, hand: np.ndarray,
                   head: np.ndarray, tail: np.ndarray, reserve: int, n_melds: np.ndarray, sets: int,
                   claim_last: int, ekong: int, pung_ok: int, chow_ok: int, gate_group: np.ndarray,
                   gate_special: np.ndarray, group_of: np.ndarray, chow_pos: np.ndarray, kong: np.ndarray,
                   pung: np.ndarray, chow: np.ndarray, gated: np.ndarray) -> int:
    ngated = 0
    for k in range(rows.shape[0]):
        ngated += _options_one(k, rows[k], origin, claim_tile, hand, head, tail, reserve, n_melds, sets, claim_last,
                               ekong, pung_ok, chow_ok, gate_group, gate_special, group_of, chow_pos, kong, pung,
                               chow, gated)
    return ngated


def _window_one(k: int, i: int, origin: np.ndarray, win: np.ndarray, kong: np.ndarray, pung: np.ndarray,
                chow: np.ndarray, awaiting: np.ndarray, can_win: np.ndarray, can_pung: np.ndarray,
                can_kong: np.ndarray, chow3: np.ndarray, ans_kind: np.ndarray, phase: np.ndarray,
                kong_chain: np.ndarray, claim_phase: int) -> bool:
    """Row ``i``'s claim window from row ``k`` of the options; returns True if nobody may claim."""
    d = origin[i]
    anyone = False
    for s in range(4):
        awaiting[i, s] = False
        can_win[i, s] = False
        ans_kind[i, s] = -1
    for j in range(3):
        s = (d + j + 1) % 4
        aw = win[k, j] or kong[k, j] or pung[k, j]
        if j == 0:
            aw = aw or chow[k, 0] or chow[k, 1] or chow[k, 2]
        awaiting[i, s] = aw
        can_win[i, s] = win[k, j]
        can_pung[i, s] = pung[k, j]
        can_kong[i, s] = kong[k, j]
        if aw:
            anyone = True
    for j in range(3):
        chow3[i, j] = chow[k, j]
    if anyone:
        phase[i] = claim_phase
        return False
    kong_chain[i] = False
    return True


def _open_windows(rows: np.ndarray, origin: np.ndarray, win: np.ndarray, kong: np.ndarray, pung: np.ndarray,
                  chow: np.ndarray, awaiting: np.ndarray, can_win: np.ndarray, can_pung: np.ndarray,
                  can_kong: np.ndarray, chow3: np.ndarray, ans_kind: np.ndarray, phase: np.ndarray,
                  kong_chain: np.ndarray, claim_phase: int, none: np.ndarray) -> int:
    nnone = 0
    for k in range(rows.shape[0]):
        nb = _window_one(k, rows[k], origin, win, kong, pung, chow, awaiting, can_win, can_pung, can_kong, chow3,
                         ans_kind, phase, kong_chain, claim_phase)
        none[k] = nb
        if nb:
            nnone += 1
    return nnone


def _masks(phase: np.ndarray, cur: np.ndarray, origin: np.ndarray, awaiting: np.ndarray, hand: np.ndarray,
           after_claim: np.ndarray, head: np.ndarray, tail: np.ndarray, reserve: int, turn_win: np.ndarray,
           ckong_ok: int, akong_ok: int, drawn_only: int, pung: np.ndarray, last_draw: np.ndarray,
           claim_tile: np.ndarray, can_win: np.ndarray, can_pung: np.ndarray, can_kong: np.ndarray,
           chow3: np.ndarray, tiles: np.ndarray, col: np.ndarray, chow_idx: np.ndarray, bases: np.ndarray,
           turn_phase: int, claim_phase: int, rob_phase: int, seat: np.ndarray, mask: np.ndarray, wild: np.ndarray,
           wface: np.ndarray, wd_ok: int, wc_ok: int) -> None:
    """The seat to act on each row and its mask (``BatchedCore.fill``). With wildcards (``wild[i]`` the
    face, -1: none; RULES.md §4.2): a wildcard is discarded only if ``wd_ok`` or nothing else is held,
    konged only if ``wc_ok``; a chow on a discarded White is named by the face ``wface[i]`` it plays."""
    discard, ckong, akong, pung_b, ekong = bases[0], bases[1], bases[2], bases[3], bases[4]
    for i in range(phase.shape[0]):
        ph = phase[i]
        s = cur[i]
        if ph == turn_phase:
            seat[i] = s
            free = not after_claim[i]
            kf = free and tail[i] - head[i] - reserve > 0
            if turn_win[i] and free:
                mask[i, 1] = 1
            ld = last_draw[i, s]
            f = wild[i]
            keep_wild = False  # the wildcard face is not discarded while another tile is held
            if f >= 0 and not wd_ok:
                for t in range(34):
                    if t != f and hand[i, s, t] > 0:
                        keep_wild = True
                        break
            for j in range(34):
                t = tiles[j]
                h = hand[i, s, t]
                if h > 0:
                    if not (keep_wild and t == f):
                        mask[i, discard + j] = 1
                    if kf:
                        if ckong_ok and h == 4 and (wc_ok or t != f):
                            mask[i, ckong + j] = 1
                        if akong_ok and pung[i, s, t] and (not drawn_only or t == ld):
                            mask[i, akong + j] = 1
        elif ph == claim_phase or ph == rob_phase:
            o = origin[i]
            s = (o + 1) % 4
            for k in range(1, 4):
                if awaiting[i, (o + k) % 4]:
                    s = (o + k) % 4
                    break
            seat[i] = s
            t = claim_tile[i]
            mask[i, 0] = 1
            if can_win[i, s]:
                mask[i, 1] = 1
            if can_pung[i, s]:
                mask[i, pung_b + col[t]] = 1
            if can_kong[i, s]:
                mask[i, ekong + col[t]] = 1
            if ph == claim_phase and s == (o + 1) % 4:
                lt = wface[i] if (t == 31 and wface[i] >= 0) else t
                for j in range(3):
                    if chow3[i, j]:
                        mask[i, chow_idx[lt, j]] = 1
        else:
            seat[i] = s


def _observe(out: np.ndarray, me: np.ndarray, offs: np.ndarray, hand: np.ndarray, meld_vis: np.ndarray,
             ckong: np.ndarray, n_ckong: np.ndarray, river_cnt: np.ndarray, flower_n: np.ndarray,
             head: np.ndarray, tail: np.ndarray, reserve: int, total: int, last_draw: np.ndarray, ro: np.ndarray,
             phase: np.ndarray, prevalent: np.ndarray, dealer: np.ndarray, claim_tile: np.ndarray,
             origin: np.ndarray, vis: np.ndarray, unseen_first: int, analysis: int, s0: int, sev: int, quad2: int,
             orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray, isu: np.ndarray, ihu: np.ndarray,
             oracle_first: int,
             counts: np.ndarray, unseen: np.ndarray, turn: np.ndarray, skipped: np.ndarray) -> int:
    """``majiang-v1`` for seat ``me[i]`` of every row into ``out`` (zeros): the table planes
    (:func:`majiang.rl.kernels.table_planes`), the unseen counts, the analysis planes
    (``analysis``: :func:`majiang.rl.kernels.analyse_rows`, whose skipped rows are marked in
    ``skipped``; returns how many) and the other hands (``oracle_first`` >= 0). ``counts``,
    ``unseen`` (n, 34) int8 and ``turn`` (n,) int8 are scratch arrays, left holding the seat's counts
    and unseen counts."""
    n = out.shape[0]
    live = np.empty(n, dtype=np.int64)
    for i in range(n):
        live[i] = tail[i] - head[i] - reserve
    kernels._table_planes(out, me, offs, hand, meld_vis, ckong, n_ckong, river_cnt, flower_n, live, total, last_draw,
                          ro, phase, prevalent, dealer, claim_tile, origin)
    col = kernels._LAYOUT_COL
    for i in range(n):
        s = me[i]
        turn[i] = 1 if phase[i] == 0 else 0
        for t in range(34):
            c = hand[i, s, t]
            counts[i, t] = c if c <= 5 else 5
            u = 4 - c - vis[i, t] - ckong[i, s, t]
            if u < 0:
                u = 0
            unseen[i, t] = u
            for j in range(min(u, 4)):
                out[i, unseen_first + j, col[t]] = 1.0
        if oracle_first >= 0:
            for r in range(1, 4):
                a = (s + r) % 4
                for t in range(34):
                    c = hand[i, a, t]
                    for j in range(min(c, 4)):
                        out[i, oracle_first + 4 * (r - 1) + j, col[t]] = 1.0
    if analysis:
        return kernels._rows(counts, turn, unseen, out, s0, sev, quad2, orph, eight, wwin, su, hu, isu, ihu, skipped)
    return 0


def _observe_botzone(out: np.ndarray, me: np.ndarray, hand: np.ndarray, dealer: np.ndarray,
                     prevalent: np.ndarray) -> None:
    """``botzone-v0`` for seat ``me[i]`` of every row into ``out`` (zeros): the seat and prevalent
    winds, then the hand's counts as four planes (``BatchedCore._observe``)."""
    col = kernels._LAYOUT_COL
    for i in range(out.shape[0]):
        s = me[i]
        out[i, 0, col[27 + (s - dealer[i]) % 4]] = 1.0
        out[i, 1, col[prevalent[i]]] = 1.0
        for t in range(34):
            c = hand[i, s, t]
            for j in range(min(c, 4)):
                out[i, 2 + j, col[t]] = 1.0


def _discard_one(i: int, t: int, cur: np.ndarray, hand: np.ndarray, river: np.ndarray, river_len: np.ndarray,
                 river_cnt: np.ndarray, vis: np.ndarray, ro: np.ndarray, discards_made: np.ndarray,
                 after_claim: np.ndarray, kong_chain: np.ndarray, claim_tile: np.ndarray, origin: np.ndarray,
                 last_discard: np.ndarray, head: np.ndarray, tail: np.ndarray, reserve: int) -> int:
    """The seat to act on row ``i`` discards ``t``; returns the seat."""
    s = cur[i]
    hand[i, s, t] -= 1
    n = river_len[i, s]
    river[i, s, n] = t
    river_len[i, s] = n + 1
    river_cnt[i, s, t] += 1
    vis[i, t] += 1
    for j in range(ro.shape[2] - 1, 0, -1):
        ro[i, s, j] = ro[i, s, j - 1]
    ro[i, s, 0] = t
    discards_made[i, s] += 1
    after_claim[i] = False
    kong_chain[i] = False
    claim_tile[i] = t
    origin[i] = s
    last_discard[i] = tail[i] - head[i] - reserve <= 0
    return s


def _draw_one(i: int, s: int, tl: bool, wall: np.ndarray, head: np.ndarray, tail: np.ndarray, reserve: int,
              flower_chain: np.ndarray, phase: np.ndarray, done: np.ndarray, deltas: np.ndarray, hand: np.ndarray,
              last_draw: np.ndarray, cur: np.ndarray, after_claim: np.ndarray, turn_win: np.ndarray,
              gate_group: np.ndarray, gate_special: np.ndarray, group_of: np.ndarray, flower_tiles: np.ndarray,
              flower_n: np.ndarray, turn_phase: int, end_phase: int, fwin: int) -> int:
    """Seat ``s`` draws on row ``i`` (from the tail if ``tl``); returns the status of :func:`_draws`.
    With ``fwin`` (``rules.flower_wins``, Taiwan, RULES.md §3.2) the draw stops at a flower that may
    win -- the seat's eighth (八仙過海), or the eighth while another seat holds seven (七搶一) -- with
    status 7 and no replacement drawn: the caller asks the engine."""
    flower_chain[i] = False
    if tail[i] - head[i] - reserve <= 0:  # the wall is empty: an exhaustive draw
        phase[i] = end_phase
        done[i] = True
        for j in range(4):
            deltas[i, j] = 0.0
        return 2
    if tl:
        tail[i] -= 1
        t = wall[i, tail[i]]
    else:
        t = wall[i, head[i]]
        head[i] += 1
    st = 0
    if t >= 34:  # flowers are set aside and replaced from the tail
        st = 4
        flower_chain[i] = True
        while t >= 34:
            flower_tiles[i, s, flower_n[i, s]] = t
            flower_n[i, s] += 1
            if fwin:
                hit = flower_n[i, s] == 8
                for h in range(4):
                    if h != s and flower_n[i, h] == 7:
                        hit = True
                if hit:
                    return 7
            if tail[i] - head[i] - reserve <= 0:
                t = -1
                break
            tail[i] -= 1
            t = wall[i, tail[i]]
        if t < 0:
            phase[i] = end_phase
            done[i] = True
            for j in range(4):
                deltas[i, j] = 0.0
            return 6
    hand[i, s, t] += 1
    last_draw[i, s] = t
    cur[i] = s
    phase[i] = turn_phase
    after_claim[i] = False
    turn_win[i] = False
    # the win gate of the hand before the draw (a kong's replacement: test the hand whole)
    if tl or ((gate_group[i, s] >> group_of[t]) & 1) > 0 or gate_special[i, s]:
        st += 1
    return st


def _draws(rows: np.ndarray, seats: np.ndarray, from_tail: np.ndarray, wall: np.ndarray, head: np.ndarray,
           tail: np.ndarray, reserve: int, flower_chain: np.ndarray, phase: np.ndarray, done: np.ndarray,
           deltas: np.ndarray, hand: np.ndarray, last_draw: np.ndarray, cur: np.ndarray, after_claim: np.ndarray,
           turn_win: np.ndarray, gate_group: np.ndarray, gate_special: np.ndarray, group_of: np.ndarray,
           flower_tiles: np.ndarray, flower_n: np.ndarray, turn_phase: int, end_phase: int,
           status: np.ndarray, fwin: int) -> int:
    """Each row's draw (``BatchedCore._draw``). ``status[k]``: 0 drawn, 1 drawn and the win gate
    admits the hand (the caller tests it), 2 the wall ran out (an exhaustive draw), 3 a flower that
    may win was set aside (``fwin``, :func:`_draw_one`); plus 4 when flowers were set aside (the caller
    copies ``flower_tiles`` to its lists). Returns how many rows
    have a status other than 0."""
    busy = 0
    for k in range(rows.shape[0]):
        st = _draw_one(rows[k], seats[k], from_tail[k], wall, head, tail, reserve, flower_chain, phase, done, deltas,
                       hand, last_draw, cur, after_claim, turn_win, gate_group, gate_special, group_of,
                       flower_tiles, flower_n, turn_phase, end_phase, fwin)
        status[k] = st
        if st:
            busy += 1
    return busy


def _acts_ok(acts: np.ndarray, mask: np.ndarray, log: np.ndarray, log_n: np.ndarray, err: np.ndarray) -> bool:
    """Every row's index checked before any row steps: False with ``err`` = (1 outside the layout |
    2 not legal | 3 the log is full, row); rows skipped (-1) are not checked."""
    n = acts.shape[0]
    for i in range(n):
        if acts[i] == -1:  # a row left as it is (BatchedCore.step's ``skip``)
            continue
        if acts[i] < 0 or acts[i] >= mask.shape[1]:
            err[0] = 1
            err[1] = i
            return False
    for i in range(n):
        if acts[i] != -1 and mask[i, acts[i]] == 0:
            err[0] = 2
            err[1] = i
            return False
    for i in range(n):
        if acts[i] != -1 and log_n[i] >= log.shape[1]:  # a skipped row writes nothing
            err[0] = 3
            err[1] = i
            return False
    return True


def _step(acts: np.ndarray, mask: np.ndarray, seat: np.ndarray, kind_of: np.ndarray, tile_of: np.ndarray,
          low_of: np.ndarray, consts: np.ndarray, log: np.ndarray, log_n: np.ndarray, phase: np.ndarray,
          cur: np.ndarray, hand: np.ndarray, river: np.ndarray, river_len: np.ndarray, river_cnt: np.ndarray,
          vis: np.ndarray, ro: np.ndarray, discards_made: np.ndarray, flags: np.ndarray, claim_tile: np.ndarray,
          origin: np.ndarray, head: np.ndarray, tail: np.ndarray, n_melds: np.ndarray, gate_group: np.ndarray,
          gate_special: np.ndarray, sbits: np.ndarray, hbits: np.ndarray, knitted: np.ndarray,
          off_knitted: np.ndarray, group_of: np.ndarray, chow_pos: np.ndarray, awaiting: np.ndarray,
          can_win: np.ndarray, can_pung: np.ndarray, can_kong: np.ndarray, chow3: np.ndarray, ans_kind: np.ndarray,
          ans_low: np.ndarray, wall: np.ndarray, deltas: np.ndarray, last_draw: np.ndarray, turn_win: np.ndarray,
          flower_tiles: np.ndarray, flower_n: np.ndarray, status: np.ndarray, err: np.ndarray) -> int:
    """The common step of every row (``BatchedCore.step``): checks every action against ``mask``
    first (``err`` = (1 index outside the layout | 2 not legal | 3 the log is full, row); nothing
    changes then, returns -1); a discard, its win gate, its claim window and the next draw when nobody
    may claim; an answer in a window, and the next draw when every seat passed. ``status[i]`` tells the
    caller what is left: 1 a turn action other than a discard, 2 a window to resolve, 4 a window where
    a seat's hand may win on the discard (its gate and the shape test of :func:`candidates` admit it:
    the scorer decides), plus 8 times the status of the draw made here (:func:`_draws`, its 1 only
    where the shape test admits the drawn hand too). Returns how many rows have a status other
    than 0.

    ``consts``: K_PASS, K_DISCARD, TURN, CLAIM, END, reserve, sets, claim_last_discard, exposed_kong,
    pung, chow, seven_pairs, thirteen_orphans, honors_and_knitted, knitted_straight, flower_wins. ``flags``: the
    core's per-table flags (after_claim, kong_chain, flower_chain, any_claim, last_discard, done)."""
    k_pass, k_discard, turn_phase, claim_phase, end_phase = consts[0], consts[1], consts[2], consts[3], consts[4]
    reserve, sets, claim_last, ekong, pung_ok, chow_ok = consts[5], consts[6], consts[7], consts[8], consts[9], consts[10]
    sev, orph, hk, knit = consts[11], consts[12], consts[13], consts[14]
    after_claim, kong_chain, flower_chain, last_discard, done = flags[0], flags[1], flags[2], flags[4], flags[5]
    n = acts.shape[0]
    if not _acts_ok(acts, mask, log, log_n, err):
        return -1
    kong = np.zeros((1, 3), dtype=np.bool_)
    pung = np.zeros((1, 3), dtype=np.bool_)
    chow = np.zeros((1, 3), dtype=np.bool_)
    gated = np.zeros((1, 3), dtype=np.bool_)
    win = np.zeros((1, 3), dtype=np.bool_)  # never set here: a window with a possible win is the caller's
    c = np.zeros(34, dtype=np.int64)
    cst = np.empty(7, dtype=np.int64)
    busy = 0
    for i in range(n):
        a = acts[i]
        if a == -1:  # skipped: unchanged
            done[i] = False
            status[i] = 0
            continue
        s = seat[i]
        log[i, log_n[i]] = s * 1000 + a
        log_n[i] += 1
        k = kind_of[a]
        done[i] = False
        st = 0
        draw_seat = -1
        if phase[i] == turn_phase:
            if k == k_discard:
                ds = _discard_one(i, tile_of[a], cur, hand, river, river_len, river_cnt, vis, ro, discards_made,
                                  after_claim, kong_chain, claim_tile, origin, last_discard, head, tail, reserve)
                _gate_one(hand, i, ds, n_melds, sbits, hbits, sev, orph, hk, knit, knitted, off_knitted, gate_group,
                          gate_special)
                may_win = False
                if _options_one(0, i, origin, claim_tile, hand, head, tail, reserve, n_melds, sets, claim_last, ekong,
                                pung_ok, chow_ok, gate_group, gate_special, group_of, chow_pos, kong, pung, chow,
                                gated):  # a seat's gate admits the discard: the shape test
                    for j in range(3):
                        if gated[0, j] and _cand_one(hand, i, (ds + j + 1) % 4, tile_of[a], c, cst, sbits, hbits,
                                                     sev, orph, hk, knit, knitted, off_knitted) != 0:
                            may_win = True
                if may_win:
                    st = 4  # a hand the discard may complete: the caller asks the scorer or the engine
                elif _window_one(0, i, origin, win, kong, pung, chow, awaiting, can_win, can_pung, can_kong, chow3,
                                 ans_kind, phase, kong_chain, claim_phase):
                    draw_seat = (origin[i] + 1) % 4
            else:
                st = 1
        else:  # an answer in a claim or robbing window
            ans_kind[i, s] = k
            ans_low[i, s] = low_of[a]
            awaiting[i, s] = False
            if not (awaiting[i, 0] or awaiting[i, 1] or awaiting[i, 2] or awaiting[i, 3]):
                allpass = phase[i] == claim_phase
                for q in range(4):
                    if ans_kind[i, q] > k_pass:
                        allpass = False
                if allpass:
                    after_claim[i] = False
                    kong_chain[i] = False
                    draw_seat = (origin[i] + 1) % 4
                else:
                    st = 2
        if draw_seat >= 0:
            dst = _draw_one(i, draw_seat, False, wall, head, tail, reserve, flower_chain, phase, done, deltas,
                            hand, last_draw, cur, after_claim, turn_win, gate_group, gate_special, group_of,
                            flower_tiles, flower_n, turn_phase, end_phase, consts[15])
            if dst & 3 == 1 and _cand_one(hand, i, draw_seat, -1, c, cst, sbits, hbits, sev, orph, hk, knit,
                                          knitted, off_knitted) == 0:
                dst -= 1  # the gate admitted the draw, the shape test does not: no win to offer
            st += 8 * dst
        status[i] = st
        if st:
            busy += 1
    return busy


def _claims(rows: np.ndarray, origin: np.ndarray, claim_tile: np.ndarray, ans_kind: np.ndarray,
            ans_low: np.ndarray, prio: np.ndarray, k_win: int, k_chow: int, k_pung: int, k_ekong: int,
            meld_of_kind: np.ndarray, river: np.ndarray, river_len: np.ndarray, river_cnt: np.ndarray,
            vis: np.ndarray, ro: np.ndarray, any_claim: np.ndarray, cur: np.ndarray, phase: np.ndarray,
            kong_chain: np.ndarray, flower_chain: np.ndarray, last_draw: np.ndarray, turn_win: np.ndarray,
            hand: np.ndarray, meld_vis: np.ndarray, pung: np.ndarray, after_claim: np.ndarray,
            meld_kind: np.ndarray, meld_tile: np.ndarray, meld_offer: np.ndarray, meld_claimed: np.ndarray,
            meld_from: np.ndarray, n_melds: np.ndarray, turn_phase: int, result: np.ndarray, wface: np.ndarray,
            meld_stand: np.ndarray, run_len: np.ndarray) -> None:
    """Claim windows on ``rows`` whose every awaited seat answered, some with a claim
    (``BatchedCore._resolve_claims``): ``result[k]`` = (1 a win: the engine settles it | 0 a meld made |
    2 an exposed kong made: a replacement to draw, the seat). A chow on a discarded White plays the
    face ``wface[i]`` (白板代, RULES.md §2.1; -1: no stand-in) and a held White supplies that face
    (``engine.actions.chow_consumed``): the physical tiles move, the meld records the face claimed
    and the White's face in ``meld_stand``. A claim ends the run 被跟 follows (``run_len``)."""
    for k in range(rows.shape[0]):
        i = rows[k]
        d = origin[i]
        t = claim_tile[i]
        best = 1 << 30
        s = -1
        kind = -1
        for j in range(3):
            o = (d + j + 1) % 4
            key = prio[ans_kind[i, o] + 1] * 3 + j
            if key < best:
                best = key
                s = o
                kind = ans_kind[i, o]
        if kind == k_win:  # settled by the engine
            result[k, 0] = 1
            continue
        result[k, 0] = 0
        result[k, 1] = s
        low = ans_low[i, s]
        # the claimed tile leaves the discarder's river
        n = river_len[i, d] - 1
        river_len[i, d] = n
        river_cnt[i, d, t] -= 1
        vis[i, t] -= 1
        for j in range(ro.shape[2]):
            x = n - 1 - j
            ro[i, d, j] = river[i, d, x] if x >= 0 else -1
        any_claim[i] = True
        cur[i] = s
        phase[i] = turn_phase
        kong_chain[i] = False
        flower_chain[i] = False
        last_draw[i, s] = -1
        turn_win[i] = False
        run_len[i] = 0
        wt = wface[i]
        lt = wt if (t == 31 and wt >= 0) else t
        stand = -1
        if kind == k_chow:
            if lt != t:
                stand = lt
            white_held = hand[i, s, 31] > 0
            for x in range(low, low + 3):
                if x == lt:
                    continue
                y = x
                if x == wt and white_held:
                    y = 31
                    stand = wt
                hand[i, s, y] -= 1
                meld_vis[i, s, y] += 1
                vis[i, y] += 1
            meld_vis[i, s, t] += 1
            vis[i, t] += 1
        elif kind == k_pung:
            hand[i, s, t] -= 2
            meld_vis[i, s, t] += 3
            vis[i, t] += 3
            pung[i, s, t] = True
        elif kind == k_ekong:
            hand[i, s, t] -= 3
            meld_vis[i, s, t] += 4
            vis[i, t] += 4
            kong_chain[i] = True
            result[k, 0] = 2  # draws a replacement from the tail
        after_claim[i] = kind != k_ekong
        j = n_melds[i, s]
        meld_kind[i, s, j] = meld_of_kind[kind]
        meld_tile[i, s, j] = low if kind == k_chow else t
        meld_offer[i, s, j] = 1 if kind == k_chow else (s - d) % 4
        meld_claimed[i, s, j] = lt if kind == k_chow else t
        meld_stand[i, s, j] = stand
        meld_from[i, s, j] = d
        n_melds[i, s] = j + 1


def _win_test(hand: np.ndarray, i: int, s: int, extra: int, c: np.ndarray, st: np.ndarray, sargs: tuple,
              consts: np.ndarray) -> int:
    """:func:`_cand_one` with the step's arguments (``sargs``, ``consts``)."""
    return _cand_one(hand, i, s, extra, c, st, sargs[18], sargs[19], consts[11], consts[12], consts[13], consts[14],
                     sargs[20], sargs[21])


def _quick_one(qargs: tuple, i: int, s: int, t: int, self_drawn: bool, last_tile: bool, kong_repl: bool,
               hand: np.ndarray, vis: np.ndarray, ckong: np.ndarray, n_melds: np.ndarray, buf: np.ndarray) -> int:
    """The scorer's compiled quick value (:mod:`majiang.rules.quick_kernel`) of seat ``s`` of row
    ``i`` winning on ``t`` (held if ``self_drawn``), as ``BatchedCore._quick`` tells it to
    ``quick_value``; -1 where it cannot tell. ``buf``: 34 uint8, scratch."""
    qk, params, meld_kind, meld_tile, dealer, prevalent = qargs[0], qargs[1], qargs[3], qargs[4], qargs[5], qargs[6]
    own = hand[i, s, t]
    for x in range(34):
        buf[x] = hand[i, s, x]
    if self_drawn:
        buf[t] -= 1
    seen = np.int64(own) + vis[i, t] + ckong[i, s, t] - 1
    seen = min(max(seen, 0), 7)
    nm = n_melds[i, s]
    packed = np.int64(0)
    for j in range(nm):
        packed |= (np.int64(meld_kind[i, s, j]) << 6 | meld_tile[i, s, j]) << (quick_kernel.MELD_BITS * j)
    cond = (np.int64(self_drawn) | np.int64(last_tile) << 1 | np.int64(kong_repl) << 2 | seen << 3
            | ((s - dealer[i] + 4) % 4) << 6 | (prevalent[i] - 27) << 8)
    return _call_quick(qk, _address(buf), t, packed, nm, cond, params)


def _drawn(i: int, dst: int, quick_on: bool, qargs: tuple, sargs: tuple, consts: np.ndarray, c: np.ndarray,
           st: np.ndarray, buf: np.ndarray, dirty: np.ndarray) -> int:
    """After a draw of status ``dst`` on row ``i`` (``_draw_one``): flowers set aside
    marked in ``dirty`` (Python copies them to its lists), and with ``quick_on`` a hand the win
    gate admits (1) tested: ``turn_win`` from the quick value where it is a standard win, as
    ``BatchedCore._drawn_win`` sets it. Returns the status left for Python (``BatchedCore.
    _after_compiled``'s ``status >> 3``): 0 where nothing is left; a flower that may win (3), a
    wall run out (2) are Python's."""
    if dst & 4:
        dirty[i] = 1
        if dst & 3 < 2:
            dst &= 3
    if dst != 1 or not quick_on:
        return dst
    cur, hand, vis, flags = sargs[2], sargs[3], sargs[7], sargs[10]
    head, tail, n_melds = sargs[13], sargs[14], sargs[15]
    last_draw, turn_win = sargs[33], sargs[34]
    s = cur[i]
    w = _win_test(hand, i, s, -1, c, st, sargs, consts)
    if w == 0:  # the gate admitted it, the shape test does not
        return 0
    if w == 2:
        return 1
    v = _quick_one(qargs, i, s, last_draw[i, s], True, tail[i] - head[i] - consts[5] == 0, flags[1, i] != 0,
                   hand, vis, qargs[7], n_melds, buf)
    if v < 0:
        return 1
    turn_win[i] = v >= qargs[2]
    return 0


def _draw_next(i: int, s: int, from_tail: bool, quick_on: bool, qargs: tuple, sargs: tuple, consts: np.ndarray,
               c: np.ndarray, st: np.ndarray, buf: np.ndarray, dirty: np.ndarray) -> int:
    """Seat ``s`` draws on row ``i`` (``_draw_one``), then :func:`_drawn`; returns the status it
    leaves plus ``8 * (s + 1)`` where one is left: the drawing seat (an exposed kong's replacement is
    not the discarder's next seat's draw), which ``BatchedCore._after_compiled`` reads."""
    flags = sargs[10]
    dst = _draw_one(i, s, from_tail, sargs[31], sargs[13], sargs[14], consts[5], flags[2], sargs[1],
                    flags[5], sargs[32], sargs[3], sargs[33], sargs[2], flags[0], sargs[34], sargs[16],
                    sargs[17], sargs[22], sargs[35], sargs[36], consts[2], consts[4], consts[15])
    r = _drawn(i, dst, quick_on, qargs, sargs, consts, c, st, buf, dirty)
    return r + 8 * (s + 1) if r != 0 else 0


def _window_quick(i: int, qargs: tuple, sargs: tuple, consts: np.ndarray, opts: tuple, c: np.ndarray,
                  st: np.ndarray, buf: np.ndarray, dirty: np.ndarray) -> int:
    """Row ``i``'s discard that a seat's hand may win on (``_step``'s status 4): each such hand's win
    from the quick value (standard wins only), then the claim window, and the next seat's draw
    where nobody may claim -- ``BatchedCore._open_claims_jit`` and its queued draw, in compiled
    code. Returns -1 (nothing changed: Python decides) where a hand is a special shape's candidate
    or the quick value cannot tell, else the status :func:`_drawn` leaves of the draw made (0 also
    where a window opened)."""
    phase, hand, vis, flags, claim_tile, origin, head, tail = (sargs[1], sargs[3], sargs[7], sargs[10], sargs[11],
                                                              sargs[12], sargs[13], sargs[14])
    n_melds, gate_group, gate_special, group_of, chow_pos = sargs[15], sargs[16], sargs[17], sargs[22], sargs[23]
    kong, pung, chow, gated, win = opts
    _options_one(0, i, origin, claim_tile, hand, head, tail, consts[5], n_melds, consts[6], consts[7], consts[8],
                 consts[9], consts[10], gate_group, gate_special, group_of, chow_pos, kong, pung, chow, gated)
    t = claim_tile[i]
    for j in range(3):
        win[0, j] = False
    for j in range(3):
        if gated[0, j]:
            s = (origin[i] + j + 1) % 4
            w = _win_test(hand, i, s, t, c, st, sargs, consts)
            if w == 2:
                return -1
            if w == 1:
                v = _quick_one(qargs, i, s, t, False, flags[4, i] != 0, False, hand, vis, qargs[7], n_melds, buf)
                if v < 0:
                    return -1
                win[0, j] = v >= qargs[2]
    if not _window_one(0, i, origin, win, kong, pung, chow, sargs[24], sargs[25], sargs[26], sargs[27], sargs[28],
                       sargs[29], phase, flags[1], consts[3]):
        return 0
    return _draw_next(i, (origin[i] + 1) % 4, False, True, qargs, sargs, consts, c, st, buf, dirty)


def _claim_made(i: int, quick_on: bool, qargs: tuple, cargs: tuple, sargs: tuple, consts: np.ndarray,
                rbuf: np.ndarray, res: np.ndarray, c: np.ndarray, st: np.ndarray, buf: np.ndarray,
                dirty: np.ndarray) -> int:
    """Row ``i``'s claim window every awaited seat answered, some with a claim (``_step``'s status 2
    in the claim phase): the meld made (``_claims``, as ``BatchedCore._resolve_claims``),
    an exposed kong's replacement drawn (:func:`_draw_next`). Returns 2 for a win (nothing changed:
    the engine settles it), else the draw's status left for Python times 8."""
    flags = sargs[10]
    rbuf[0] = i
    _claims(rbuf, sargs[12], sargs[11], sargs[29], sargs[30], cargs[0], cargs[1], cargs[2], cargs[3], cargs[4],
            cargs[5], sargs[4], sargs[5], sargs[6], sargs[7], sargs[8], flags[3], sargs[2], sargs[1], flags[1],
            flags[2], sargs[33], sargs[34], sargs[3], cargs[6], cargs[7], flags[0], cargs[8], cargs[9], cargs[10],
            cargs[11], cargs[12], sargs[15], consts[2], res, cargs[13], cargs[14], cargs[15])
    if res[0, 0] == 1:
        return 2
    if res[0, 0] == 0:
        return 0
    return 8 * _draw_next(i, res[0, 1], True, quick_on, qargs, sargs, consts, c, st, buf, dirty)


def _follow_up(i: int, status: int, quick_on: bool, qargs: tuple, cargs: tuple, sargs: tuple, consts: np.ndarray,
               scratch: tuple, dirty: np.ndarray) -> int:
    """What a step left on row ``i`` (``status``, ``_step``'s), done here where compiled code can:
    a claim made (2, :func:`_claim_made`), a draw's flowers and a complete drawn hand (8 times the
    draw's status, :func:`_drawn`) and, with ``quick_on``, a discard some hand may win on (4,
    :func:`_window_quick`). Returns the status left for Python (``BatchedCore._after_compiled``)."""
    opts, c, st, buf, rbuf, res = scratch
    if status == 2:
        if sargs[1][i] != consts[3]:  # a robbing window: Python's
            return status
        return _claim_made(i, quick_on, qargs, cargs, sargs, consts, rbuf, res, c, st, buf, dirty)
    if status == 4:
        if not quick_on:
            return status
        r = _window_quick(i, qargs, sargs, consts, opts, c, st, buf, dirty)
        return status if r < 0 else 8 * r
    if status & 7 == 0:
        return 8 * _drawn(i, status >> 3, quick_on, qargs, sargs, consts, c, st, buf, dirty)
    return status


def _follow_scratch() -> tuple:
    """The scratch arrays of :func:`_follow_up` (written before read)."""
    opts = (np.zeros((1, 3), dtype=np.bool_), np.zeros((1, 3), dtype=np.bool_), np.zeros((1, 3), dtype=np.bool_),
            np.zeros((1, 3), dtype=np.bool_), np.zeros((1, 3), dtype=np.bool_))  # kong, pung, chow, gated, win
    return (opts, np.zeros(34, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(34, dtype=np.uint8),
            np.zeros(1, dtype=np.int64), np.zeros((1, 2), dtype=np.int64))


def _follow_ups(acts: np.ndarray, quick_on: bool, qargs: tuple, cargs: tuple, sargs: tuple, consts: np.ndarray,
                dirty: np.ndarray) -> int:
    """:func:`_follow_up` on every row :func:`_step` stepped (``acts[i] >= 0``) and left a status,
    the hand not ended; returns how many rows have a status left (Python's) or ended."""
    status, done = sargs[-2], sargs[10][5]
    scratch = _follow_scratch()
    busy = 0
    for i in range(acts.shape[0]):
        if acts[i] >= 0 and status[i] != 0 and not done[i]:
            status[i] = _follow_up(i, status[i], quick_on, qargs, cargs, sargs, consts, scratch, dirty)
        if acts[i] >= 0 and (status[i] != 0 or done[i]):
            busy += 1
    return busy


def _cand_one(hand: np.ndarray, i: int, s: int, extra: int, c: np.ndarray, st: np.ndarray, sbits: np.ndarray,
              hbits: np.ndarray, sev: int, orph: int, hk: int, knit: int, knitted: np.ndarray,
              off_knitted: np.ndarray) -> int:
    """Whether seat ``s``'s 3k+2 hand on row ``i`` (plus tile ``extra`` where not -1) may win (see
    :func:`candidates`): 1 a standard win (exact: every group complete, one pair), 2 a special
    shape's candidate only (a necessary test: the engine's exact test decides), 0 neither. ``c``
    (34) and ``st`` (7) are scratch."""
    for t in range(34):
        c[t] = hand[i, s, t]
    if extra >= 0:
        c[extra] += 1
    _stats(c, sbits, hbits, st)
    pairs = 0
    for g in range(4):
        pairs += (st[6] >> g) & 1
    if st[4] == 15 and pairs == 1:
        return 1
    cand = False
    if st[0] == 14:
        cand = ((sev != 0 and st[1] == 0) or (orph != 0 and st[3] == 0)
                or (hk != 0 and st[2] == 0 and _knitted_single(c, off_knitted)))
    if knit != 0 and not cand:
        cand = _knitted_held(c, knitted, 9)
    return 2 if cand else 0


def _candidates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, extra: np.ndarray, sbits: np.ndarray,
                hbits: np.ndarray, sev: int, orph: int, hk: int, knit: int, knitted: np.ndarray,
                off_knitted: np.ndarray, out: np.ndarray) -> int:
    c = np.zeros(34, dtype=np.int64)
    st = np.empty(7, dtype=np.int64)
    found = 0
    for k in range(rows.shape[0]):
        cand = _cand_one(hand, rows[k], seats[k], extra[k], c, st, sbits, hbits, sev, orph, hk, knit, knitted,
                         off_knitted)
        out[k] = cand != 0
        if cand != 0:
            found += 1
    return found


def candidates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, extra: np.ndarray | None, shapes,
               tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """``(m,)`` bool: the 3k+2 hands ``hand[rows[k], seats[k]]`` (plus tile ``extra[k]`` where it is
    not -1) that may win under ``shapes``, as :func:`majiang.rl.batched.shape_candidates` decides
    (the standard shape exactly, the special shapes by a necessary condition)."""
    sbits, hbits, knitted, off = tables
    out = np.empty(rows.size, dtype=bool)
    if extra is None:
        extra = np.full(rows.size, -1, dtype=np.int64)
    _candidates(hand, rows, seats, extra, sbits, hbits, int(shapes.seven_pairs), int(shapes.thirteen_orphans),
                int(shapes.honors_and_knitted), int(shapes.knitted_straight), knitted, off, out)
    return out


def _wild_complete(hand: np.ndarray, i: int, s: int, extra: int, f: int, white: int, sev: int, quad2: int, orph: int,
                   eight: int, wwin: int, unc: int, fifth: int, su: np.ndarray, hu: np.ndarray, nf: np.ndarray,
                   nat: np.ndarray, keys: np.ndarray, W: np.ndarray, st: np.ndarray) -> bool:
    """Whether seat ``s``'s 3k+2 hand on row ``i`` (plus ``extra`` where not -1), read with wildcard face
    ``f`` (-1: none) and the White standing in when ``white``, is complete: its shanten
    (:func:`majiang.rl.kernels._sx`, ``majiang.analysis.shanten`` exactly, the fifth-copy check
    included) is -1 -- ``is_winning`` on the hand's naturals and wildcards. ``nat``, ``keys``, ``W``,
    ``st``: scratch arrays."""
    total = 0
    for t in range(34):
        nat[t] = hand[i, s, t]
    if extra >= 0:
        nat[extra] += 1
    for t in range(34):
        total += nat[t]
    w = 0
    if f >= 0:
        w = nat[f]
        nat[f] = 0
        if white != 0 and f != 31:
            nat[f] += nat[31]
            nat[31] = 0
    v = kernels._nat_shanten(nat, total, w, keys, W, st, sev, quad2, orph, eight, wwin, unc, fifth, True, -1,
                             su, hu, nf)
    return v < 0


def _wild_candidates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, extra: np.ndarray, wf: np.ndarray,
                     white: int, sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int,
                     su: np.ndarray, hu: np.ndarray, nf: np.ndarray, out: np.ndarray) -> int:
    """``out[k]``: :func:`_wild_complete` of ``hand[rows[k], seats[k]]`` plus ``extra[k]``, with the
    wildcard face ``wf[rows[k]]``. Returns how many are complete."""
    nat = np.zeros(34, dtype=np.int64)
    keys = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    found = 0
    for k in range(rows.shape[0]):
        i = rows[k]
        ok = _wild_complete(hand, i, seats[k], extra[k], wf[i], white, sev, quad2, orph, eight, wwin, unc, fifth,
                            su, hu, nf, nat, keys, W, st)
        out[k] = ok
        if ok:
            found += 1
    return found


def _wild_planes(out: np.ndarray, wild: np.ndarray, wface: np.ndarray, indicator: np.ndarray, p_wild: int,
                 p_white: int, p_ind: int) -> None:
    """The one-hot planes ``p_wild`` (the wildcard's face), ``p_white`` (the face a White plays) and
    ``p_ind`` (the indicator) of every row (``BatchedCore._observe_wild``; -1: none)."""
    col = kernels._LAYOUT_COL
    for i in range(out.shape[0]):
        if wild[i] >= 0:
            out[i, p_wild, col[wild[i]]] = 1.0
        if wface[i] >= 0:
            out[i, p_white, col[wface[i]]] = 1.0
        if indicator[i] >= 0:
            out[i, p_ind, col[indicator[i]]] = 1.0


def _wild_rows(counts: np.ndarray, turn: np.ndarray, unseen: np.ndarray, out: np.ndarray, s0: int, wf: np.ndarray,
               white: int, sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int,
               su: np.ndarray, hu: np.ndarray, nf: np.ndarray, skipped: np.ndarray) -> int:
    """The analysis planes of every row's hand with its wildcard face ``wf[i]``: the loop of
    :func:`majiang.rl.kernels.analyse_wild_one` (``kernels._wild``) over the rows; a row it leaves
    is marked in ``skipped`` (the caller's Python path). Returns how many were left."""
    left = 0
    for i in range(counts.shape[0]):
        if kernels._wild(counts[i], unseen[i], turn[i], out[i], s0, wf[i], white, sev, quad2, orph, eight, wwin, unc,
                         fifth, su, hu, nf) != 0:
            skipped[i] = 1
            left += 1
    return left


def _wild_options(i: int, origin: np.ndarray, claim_tile: np.ndarray, hand: np.ndarray, head: np.ndarray,
                  tail: np.ndarray, reserve: int, n_melds: np.ndarray, sets: int, claim_last: int, ekong: int,
                  pung_ok: int, chow_ok: int, chow_pos: np.ndarray, wf: int, wt: int, wc_ok: int, kong: np.ndarray,
                  pung: np.ndarray, chow: np.ndarray) -> None:
    """Who may claim row ``i``'s discard under wildcards (``BatchedCore._open_claims``' wildcard
    branch): a wildcard discarded is not melded (unless ``wc_ok``); a discarded White plays the face
    ``wt``; each other tile of a chow comes from the hand, a White playing ``wt`` or a natural (a
    wildcard only with ``wc_ok``)."""
    d = origin[i]
    t = claim_tile[i]
    live = tail[i] - head[i] - reserve > 0
    lt = wt if (t == 31 and wt >= 0) else t
    for j in range(3):
        s = (d + j + 1) % 4
        ct = hand[i, s, t]
        may = n_melds[i, s] < sets and (claim_last or live) and (wc_ok or t != wf)
        kong[0, j] = ekong and ct == 3 and may and live
        pung[0, j] = pung_ok and ct >= 2 and may
        if j == 0:
            for q in range(3):
                chow[0, q] = False
            if chow_ok and may and lt < 27:
                nb = np.zeros(5, dtype=np.bool_)
                for q in range(5):
                    x = lt - 2 + q
                    if x < 0 or x > 33:
                        continue
                    nb[q] = (hand[i, s, x] > 0 and (wc_ok or x != wf)) or (x == wt and hand[i, s, 31] > 0)
                chow[0, 0] = chow_pos[lt, 0] and nb[0] and nb[1]
                chow[0, 1] = chow_pos[lt, 1] and nb[1] and nb[3]
                chow[0, 2] = chow_pos[lt, 2] and nb[3] and nb[4]


def _wild_draw(i: int, s: int, wall: np.ndarray, head: np.ndarray, tail: np.ndarray, reserve: int,
               flower_chain: np.ndarray, phase: np.ndarray, done: np.ndarray, deltas: np.ndarray,
               penalties: np.ndarray, hand: np.ndarray, last_draw: np.ndarray, cur: np.ndarray,
               after_claim: np.ndarray, turn_win: np.ndarray, turn_phase: int, end_phase: int, wf: np.ndarray,
               white: int, sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int,
               su: np.ndarray, hu: np.ndarray, nf: np.ndarray, nat: np.ndarray, keys: np.ndarray, W: np.ndarray,
               st: np.ndarray) -> int:
    """Seat ``s`` draws from the front on row ``i`` (a wildcard rule set: no flowers); returns 0 drawn,
    1 drawn and the hand is complete (the engine decides the self-drawn win), 2 the wall ran out (an
    exhaustive draw: the penalties outside a win are the hand's deltas)."""
    flower_chain[i] = False
    if tail[i] - head[i] - reserve <= 0:
        phase[i] = end_phase
        done[i] = True
        for j in range(4):
            deltas[i, j] = penalties[i, j]
        return 2
    t = wall[i, head[i]]
    head[i] += 1
    hand[i, s, t] += 1
    last_draw[i, s] = t
    cur[i] = s
    phase[i] = turn_phase
    after_claim[i] = False
    turn_win[i] = False
    if _wild_complete(hand, i, s, -1, wf[i], white, sev, quad2, orph, eight, wwin, unc, fifth, su, hu, nf, nat, keys,
                      W, st):
        return 1
    return 0


def _step_wild(acts: np.ndarray, mask: np.ndarray, seat: np.ndarray, kind_of: np.ndarray, tile_of: np.ndarray,
               low_of: np.ndarray, consts: np.ndarray, wconsts: np.ndarray, log: np.ndarray, log_n: np.ndarray,
               phase: np.ndarray, cur: np.ndarray, hand: np.ndarray, river: np.ndarray, river_len: np.ndarray,
               river_cnt: np.ndarray, vis: np.ndarray, ro: np.ndarray, discards_made: np.ndarray, flags: np.ndarray,
               claim_tile: np.ndarray, origin: np.ndarray, head: np.ndarray, tail: np.ndarray, n_melds: np.ndarray,
               chow_pos: np.ndarray, awaiting: np.ndarray, can_win: np.ndarray, can_pung: np.ndarray,
               can_kong: np.ndarray, chow3: np.ndarray, ans_kind: np.ndarray, ans_low: np.ndarray, wall: np.ndarray,
               deltas: np.ndarray, last_draw: np.ndarray, turn_win: np.ndarray, wf: np.ndarray, wface: np.ndarray,
               penalties: np.ndarray, run_first: np.ndarray, run_tile: np.ndarray, run_len: np.ndarray,
               su: np.ndarray, hu: np.ndarray, nf: np.ndarray, status: np.ndarray, err: np.ndarray) -> int:
    """:func:`_step` for the wildcard rule sets (``BatchedCore._step_compiled_wild``): the same checks
    and statuses, with the wildcard rules -- a discard's penalties (被跟, 误打财神, RULES.md §4.6), the
    claim options of :func:`_wild_options`, and no win gates: each seat's hand with the discard, and
    each drawn hand, is tested whole (:func:`_wild_complete`); status 4 marks a discard some seat may
    win on (the caller opens that window), a draw's status 1 a complete hand.

    ``consts`` as :func:`_step`; ``wconsts``: White stand-in, wild_claimable, followed_penalty,
    wild_discard_penalty, then the seven :func:`majiang.rl.kernels.wild_flags`."""
    k_pass, k_discard, turn_phase, claim_phase, end_phase = consts[0], consts[1], consts[2], consts[3], consts[4]
    reserve, sets, claim_last, ekong, pung_ok, chow_ok = consts[5], consts[6], consts[7], consts[8], consts[9], consts[10]
    white, wc_ok, fpen, wpen = wconsts[0], wconsts[1], wconsts[2], wconsts[3]
    sev, quad2, orph, eight, wwin, unc, fifth = (wconsts[4], wconsts[5], wconsts[6], wconsts[7], wconsts[8],
                                                 wconsts[9], wconsts[10])
    after_claim, kong_chain, flower_chain, last_discard, done = flags[0], flags[1], flags[2], flags[4], flags[5]
    n = acts.shape[0]
    if not _acts_ok(acts, mask, log, log_n, err):
        return -1
    kong = np.zeros((1, 3), dtype=np.bool_)
    pung = np.zeros((1, 3), dtype=np.bool_)
    chow = np.zeros((1, 3), dtype=np.bool_)
    win = np.zeros((1, 3), dtype=np.bool_)
    nat = np.zeros(34, dtype=np.int64)
    keys = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    busy = 0
    for i in range(n):
        a = acts[i]
        s = seat[i]
        log[i, log_n[i]] = s * 1000 + a
        log_n[i] += 1
        k = kind_of[a]
        done[i] = False
        sti = 0
        draw_seat = -1
        if phase[i] == turn_phase:
            if k == k_discard:
                t = tile_of[a]
                ds = _discard_one(i, t, cur, hand, river, river_len, river_cnt, vis, ro, discards_made, after_claim,
                                  kong_chain, claim_tile, origin, last_discard, head, tail, reserve)
                if fpen != 0:  # 被跟: the run of one face in turn order since the last claim
                    m = run_len[i]
                    if m > 0 and run_tile[i] == t and (run_first[i] + m - 1) % 4 == (ds + 3) % 4:
                        m += 1
                    else:
                        m = 1
                        run_first[i] = ds
                    run_tile[i] = t
                    if m == 4:
                        p = run_first[i]
                        for q in range(4):
                            penalties[i, q] += fpen
                        penalties[i, p] -= 4 * fpen
                        m = 0
                    run_len[i] = m
                if wpen != 0 and t == wf[i]:  # 误打财神
                    for q in range(4):
                        penalties[i, q] += wpen
                    penalties[i, ds] -= 4 * wpen
                anywin = False
                for j in range(3):
                    if _wild_complete(hand, i, (ds + j + 1) % 4, t, wf[i], white, sev, quad2, orph, eight, wwin, unc,
                                      fifth, su, hu, nf, nat, keys, W, st):
                        anywin = True
                        break
                if anywin:
                    sti = 4  # the caller opens the window (the engine decides the wins)
                else:
                    _wild_options(i, origin, claim_tile, hand, head, tail, reserve, n_melds, sets, claim_last, ekong,
                                  pung_ok, chow_ok, chow_pos, wf[i], wface[i], wc_ok, kong, pung, chow)
                    if _window_one(0, i, origin, win, kong, pung, chow, awaiting, can_win, can_pung, can_kong, chow3,
                                   ans_kind, phase, kong_chain, claim_phase):
                        draw_seat = (origin[i] + 1) % 4
            else:
                sti = 1
        else:  # an answer in a claim or robbing window
            ans_kind[i, s] = k
            ans_low[i, s] = low_of[a]
            awaiting[i, s] = False
            if not (awaiting[i, 0] or awaiting[i, 1] or awaiting[i, 2] or awaiting[i, 3]):
                allpass = phase[i] == claim_phase
                for q in range(4):
                    if ans_kind[i, q] > k_pass:
                        allpass = False
                if allpass:
                    after_claim[i] = False
                    kong_chain[i] = False
                    draw_seat = (origin[i] + 1) % 4
                else:
                    sti = 2
        if draw_seat >= 0:
            sti += 8 * _wild_draw(i, draw_seat, wall, head, tail, reserve, flower_chain, phase, done, deltas,
                                  penalties, hand, last_draw, cur, after_claim, turn_win, turn_phase, end_phase, wf,
                                  white, sev, quad2, orph, eight, wwin, unc, fifth, su, hu, nf, nat, keys, W, st)
        status[i] = sti
        if sti:
            busy += 1
    return busy


def wild_candidates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, extra: np.ndarray | None,
                    wild: np.ndarray, white: bool, flags: tuple) -> np.ndarray:
    """``(m,)`` bool: the 3k+2 hands ``hand[rows[k], seats[k]]`` (plus ``extra[k]`` where not -1) that
    make a winning shape with their wildcards (the wildcard face ``wild[row]``, RULES.md §4.2), exactly
    as ``majiang.analysis.is_winning`` decides on ``split_counts`` -- ``flags``:
    :func:`majiang.rl.kernels.wild_flags` of the rule set's shapes. The engine's scorer decides the
    win itself."""
    su, hu = kernels._Tables.get()
    nf = kernels._Tables.free()
    out = np.empty(rows.size, dtype=bool)
    if extra is None:
        extra = np.full(rows.size, -1, dtype=np.int64)
    _wild_candidates(hand, rows, seats, extra, wild, int(white), *flags, su, hu, nf, out)
    return out


# ------------------------------------------------------------------------------------- dealing
# The engine shuffles each wall with Python's random.Random (Mersenne Twister MT19937, seeded from the
# 64-bit seed of majiang.engine.wall.derive_seed); the batched core deals many hands a step, so the
# same generator runs here compiled: the seeding from an integer key and the shuffle as
# random.Random.shuffle draws its indices (getrandbits of the index's bit length, redrawn until below
# the bound). tests/rl/test_rl_step_kernels.py checks the walls against random.Random's.
_MT_N = 624
_MT_M = 397


def _mt_seed(key: np.ndarray, nkey: int, mt: np.ndarray) -> None:
    """State ``mt`` (624 uint32) for the integer whose 32-bit words (least significant first) are
    ``key[:nkey]``: the standard initialisation by an array, as random.Random(int) seeds."""
    mt[0] = np.uint32(19650218)
    for i in range(1, _MT_N):
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32((np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i))
                          & np.uint64(0xFFFFFFFF))
    i = 1
    j = 0
    k = _MT_N if _MT_N > nkey else nkey
    while k > 0:
        prev = np.uint64(mt[i - 1])
        v = (np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)) & np.uint64(0xFFFFFFFF)))
        mt[i] = np.uint32((v + np.uint64(key[j]) + np.uint64(j)) & np.uint64(0xFFFFFFFF))
        i += 1
        j += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
        k -= 1
    k = _MT_N - 1
    while k > 0:
        prev = np.uint64(mt[i - 1])
        v = (np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)) & np.uint64(0xFFFFFFFF)))
        mt[i] = np.uint32((v - np.uint64(i)) & np.uint64(0xFFFFFFFF))
        i += 1
        if i >= _MT_N:
            mt[0] = mt[_MT_N - 1]
            i = 1
        k -= 1
    mt[0] = np.uint32(0x80000000)


def _mt_next(mt: np.ndarray, pos: np.ndarray) -> np.uint32:
    """The next 32-bit output (``pos[0]``: the index in the state; 624 regenerates it)."""
    if pos[0] >= _MT_N:
        upper = np.uint32(0x80000000)
        lower = np.uint32(0x7FFFFFFF)
        for kk in range(_MT_N):
            y = (mt[kk] & upper) | (mt[(kk + 1) % _MT_N] & lower)
            v = mt[(kk + _MT_M) % _MT_N] ^ (y >> np.uint32(1))
            if y & np.uint32(1):
                v ^= np.uint32(0x9908B0DF)
            mt[kk] = v
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


def _deal(keys: np.ndarray, nkeys: np.ndarray, dealers: np.ndarray, dice_totals: np.ndarray,
          tile_set: np.ndarray, hand_size: int, reserve: int, walls: np.ndarray, concealed: np.ndarray,
          flowers: np.ndarray, flower_n: np.ndarray, heads: np.ndarray, tails: np.ndarray,
          lasts: np.ndarray) -> int:
    """Shuffle, break and deal each row's wall as ``BatchedCore.deal`` (``build_wall`` with the wall's
    seed, then the deal and the flowers replaced from the tail). Returns -1, or a row whose wall ran
    out during the replacements (never with 144 tiles)."""
    n = tile_set.shape[0]
    mt = np.zeros(_MT_N, dtype=np.uint32)
    pos = np.zeros(1, dtype=np.int64)
    ring = np.zeros(n, dtype=np.int64)
    per_wall = n // 4
    stacks = per_wall // 2
    for r in range(keys.shape[0]):
        _mt_seed(keys[r], nkeys[r], mt)
        pos[0] = _MT_N
        for i in range(n):
            ring[i] = tile_set[i]
        for i in range(n - 1, 0, -1):  # random.Random.shuffle: j = randbelow(i + 1)
            bound = i + 1
            bits = 0  # bound.bit_length()
            b = bound
            while b > 0:
                bits += 1
                b >>= 1
            while True:
                j = np.int64(_mt_next(mt, pos) >> np.uint32(32 - bits))
                if j < bound:
                    break
            x = ring[i]
            ring[i] = ring[j]
            ring[j] = x
        owner = (dealers[r] + dice_totals[r] - 1) % 4  # majiang.engine.wall.break_wall
        offset = (owner * per_wall + 2 * (stacks - dice_totals[r] % (stacks if stacks else 1))) % n
        for i in range(n):
            walls[r, i] = ring[(offset + i) % n]
        for s in range(4):
            flower_n[r, s] = 0
            for t in range(34):
                concealed[r, s, t] = 0
        head = 0
        got = 0
        d = dealers[r]
        while got < hand_size:
            k = hand_size - got
            if k > 4:
                k = 4
            for q in range(4):
                s = (d + q) % 4
                for _ in range(k):
                    t = walls[r, head]
                    head += 1
                    if t >= 34:
                        flowers[r, s, flower_n[r, s]] = t
                        flower_n[r, s] += 1
                    else:
                        concealed[r, s, t] += 1
            got += k
        t = walls[r, head]
        head += 1
        last = t
        if t >= 34:
            flowers[r, d, flower_n[r, d]] = t
            flower_n[r, d] += 1
        else:
            concealed[r, d, t] += 1
        tail = n
        for q in range(4):  # each seat's flowers replaced from the tail, dealer first, until none
            s = (d + q) % 4
            pending = flower_n[r, s]
            while pending > 0:
                new = 0
                for _ in range(pending):
                    if tail - head - reserve <= 0:
                        return r
                    tail -= 1
                    t = walls[r, tail]
                    if t >= 34:
                        flowers[r, s, flower_n[r, s]] = t
                        flower_n[r, s] += 1
                        new += 1
                    else:
                        concealed[r, s, t] += 1
                        if s == d:
                            last = t
                pending = new
        heads[r] = head
        tails[r] = tail
        lasts[r] = last
    return -1


def _lay_out(rows: np.ndarray, dealers: np.ndarray, walls: np.ndarray, heads: np.ndarray, tails: np.ndarray,
             concealed: np.ndarray, flower_n_new: np.ndarray, lasts: np.ndarray, turn_phase: int,
             wall: np.ndarray, head: np.ndarray, tail: np.ndarray, hand: np.ndarray, flower_n: np.ndarray,
             last_draw: np.ndarray, log_n: np.ndarray, phase: np.ndarray, cur: np.ndarray, dealer: np.ndarray,
             prevalent: np.ndarray, flags: np.ndarray, seat_flags: np.ndarray, pung: np.ndarray,
             seat_counts: np.ndarray, tile_counts: np.ndarray, vis: np.ndarray, deltas: np.ndarray,
             ro: np.ndarray) -> None:
    """A new hand's state on each of ``rows`` (the numpy ``BatchedCore._start``): ``flags`` (k, n)
    and ``seat_flags`` (k, n, 4) bool, ``seat_counts`` (k, n, 4) int64 and ``tile_counts``
    (k, n, 4, 34) int16 stacks of the arrays a new hand clears."""
    for k in range(rows.shape[0]):
        i = rows[k]
        d = dealers[k]
        for x in range(walls.shape[1]):
            wall[i, x] = walls[k, x]
        head[i] = heads[k]
        tail[i] = tails[k]
        for s in range(4):
            for t in range(34):
                hand[i, s, t] = concealed[k, s, t]
                pung[i, s, t] = False
                for a in range(tile_counts.shape[0]):
                    tile_counts[a, i, s, t] = 0
            flower_n[i, s] = flower_n_new[k, s]
            last_draw[i, s] = -1
            for a in range(seat_flags.shape[0]):
                seat_flags[a, i, s] = False
            for a in range(seat_counts.shape[0]):
                seat_counts[a, i, s] = 0
            deltas[i, s] = 0.0
            for j in range(ro.shape[2]):
                ro[i, s, j] = -1
        last_draw[i, d] = lasts[k]
        log_n[i] = 0
        phase[i] = turn_phase
        cur[i] = d
        dealer[i] = d
        prevalent[i] = 27  # East: the first hand of a match
        for a in range(flags.shape[0]):
            flags[a, i] = False
        for t in range(34):
            vis[i, t] = 0


def win_gates(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, n_melds: np.ndarray, shapes,
              group_out: np.ndarray, special_out: np.ndarray, tables: tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                            np.ndarray]) -> None:
    """Write the win gates of the 3k+1 hands ``hand[rows[k], seats[k]]`` into ``group_out`` and
    ``special_out`` at ``[rows[k], seats[k]]`` (see :func:`majiang.rl.batched.win_gates` for their
    meaning; ``shapes`` a :class:`~majiang.analysis.ShapeRules`; ``tables``: ``(suit bits, honour
    bits, knitted arrangements (6, 9), suited tiles outside each arrangement (34, 6))``)."""
    sbits, hbits, knitted, off = tables
    _win_gates(hand, rows, seats, n_melds, sbits, hbits, int(shapes.seven_pairs), int(shapes.thirteen_orphans),
               int(shapes.honors_and_knitted), int(shapes.knitted_straight), knitted, off, group_out, special_out)


__all__ = ["available", "candidates", "win_gates"]
