"""One learning seat on the batched core: the other seats' bots (``random``, ``efficiency``) play all rows at once.

:class:`BatchedLearner` runs :class:`~majiang.rl.VectorEnv`'s learner mode on a
:class:`~majiang.rl.batched.BatchedCore`. After the learner's actions (one per row, every row
awaiting it) the core keeps stepping the rows whose awaited seat is a bot, the rows waiting for the
learner left unchanged (``BatchedCore.step(skip=True)``), until every row awaits the learner again
or its hand ended. The bots' masks come from the compiled mask loop alone (no observations). The
bots' turns, the steps and what a step leaves that compiled code can finish (claims made, flowers,
wins the scorer's compiled quick value tells: ``step_kernels._follow_ups``) run in one compiled loop
(:func:`_bot_loop`); Python sees a row only for the rest (a kong, a win declared, a hand ended, a
special shape, a decision the kernels leave).

* ``efficiency``: :class:`~majiang.rl.fast_bots.FastEfficiencyBot`'s choices from the row's
  arrays (the concealed counts; the tiles the seat sees: rivers, visible melds, its own concealed
  kongs, as ``PlayerView.visible_counts``), every bot row at once in two compiled loops
  (:func:`majiang.rl.kernels.efficiency_turns`, :func:`~majiang.rl.kernels.efficiency_claims`);
  its kongs on the turn too; the rare hands the kernels leave go through the bot's own methods
  (:meth:`BatchedLearner._efficiency`). The same choices as the bot at a table
  (tests/rl/test_rl_batched_learner.py).
* ``random``: the first win offered, else a uniform choice among the mask's indices, drawn from a
  counter-based hash of ``derive_seed(game_seed, "bot", seat)`` and the hand's step count -- not
  :class:`~majiang.players.RandomBot`'s ``random.Random`` stream (the same distribution and rule,
  other draws).

Rule sets without wildcards and with numba only (:attr:`BatchedCore.can_skip`); the rest use the
per-table path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from majiang.engine import derive_seed
from majiang.rl import batched as B
from majiang.rl.actions import (
    ADDED_KONG_BASE,
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    EXPOSED_KONG_BASE,
    PUNG_BASE,
    chow_of_index,
)
from majiang.rl import kernels, step_kernels
from majiang.rl.fast_bots import _ORPHAN_FIRST, FastEfficiencyBot, kernel_flags

BOTS = {"random": "random", "efficiency": "efficiency", "eff": "efficiency"}
"""Bot names the batched learner plays (lower-cased) → the bot."""

_M64 = (1 << 64) - 1
_CHOWS = [(i, *chow_of_index(i)) for i in range(CHOW_BASE, PUNG_BASE)]  # (index, played, low)
_CHOW_BY_LOW = sorted(_CHOWS, key=lambda x: (x[1], x[2]))  # the engine's order: tile, then low
_COLS = B._COL.tolist()
_TILES = B._TILES
_ORPHAN_KEY = np.array([_ORPHAN_FIRST[t] * 50 + t for t in B._TILES.tolist()], dtype=np.int64)  # by layout column
_KONG_BASES = np.array([CONCEALED_KONG_BASE, ADDED_KONG_BASE], dtype=np.int64)  # the kongs a turn may offer
_KONG_TAKES = np.array([4, 1], dtype=np.int64)  # and the tiles each takes from the hand
_NO_TABLES = (np.full((1, 12), -1, dtype=np.int8), np.full((1, 12), -1, dtype=np.int8))  # no efficiency bot: not read
_NO_DRAWS = (np.zeros((1, 12), dtype=np.int16), np.zeros((1, 12), dtype=np.int16))

def bot_names(opponents: object) -> list[str] | None:
    """The three opponents' bot names (next, opposite, previous seat by number) when every one is
    a name :class:`BatchedLearner` plays, else None."""
    if isinstance(opponents, str):
        opp: list = [opponents] * 3
    elif isinstance(opponents, Sequence) and len(opponents) == 3:
        opp = list(opponents)
    else:
        return None
    if not all(isinstance(o, str) and o.strip().lower() in BOTS for o in opp):
        return None
    return [BOTS[o.strip().lower()] for o in opp]


class _View:
    """What the bot's discard code reads of a ``PlayerView``: the visible counts, no wildcard."""

    __slots__ = ("_vis",)
    wild_face = None

    def __init__(self, vis: list[int]) -> None:
        self._vis = vis

    def visible_counts(self) -> list[int]:
        return list(self._vis)


def _random_pick(rows: np.ndarray, seats: np.ndarray, mask: np.ndarray, keys: np.ndarray, log_n: np.ndarray,
                 acts: np.ndarray) -> None:
    """The random bots' choices on ``rows`` (compiled): the win if offered, else the ``k``-th legal
    index, ``k`` uniform from splitmix64 of the seat's key and the hand's step count."""
    for q in range(rows.shape[0]):
        i = rows[q]
        if mask[i, 1]:
            acts[i] = 1
            continue
        x = keys[i, seats[q]] ^ (np.uint64(log_n[i]) * np.uint64(0x9E3779B97F4A7C15))
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
        cnt = 0
        for j in range(mask.shape[1]):
            cnt += mask[i, j]
        k = np.int64(np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0) * cnt)
        for j in range(mask.shape[1]):
            if mask[i, j]:
                if k == 0:
                    acts[i] = j
                    break
                k -= 1


HELD_STEPPED, HELD_DECIDE, HELD_LOG = 1, 2, 3
"""Why :func:`_bot_loop` left a row to Python: stepped with work left (``status``) or its hand
ended; its bot's decision needs the bot's own code; its action log is full (Python grows it)."""


def _hold_left(rows: np.ndarray, left: np.ndarray, hold: np.ndarray, step_acts: np.ndarray,
               tally: np.ndarray) -> None:
    """After an efficiency kernel on ``rows``: the rows it left (``left[q]``) held for the bot's own
    code and not stepped; the others counted as the kernel's decisions."""
    for q in range(rows.shape[0]):
        if left[q]:
            hold[rows[q]] = HELD_DECIDE
            step_acts[rows[q]] = -1
        else:
            tally[0] += 1


def _bot_loop(learner: int, eff_seat: np.ndarray, eff_ok: bool, live: np.ndarray, acts: np.ndarray,
              hold: np.ndarray, mask: np.ndarray, seat: np.ndarray, mpre: tuple,
              mpost: tuple, kind_of: np.ndarray, tile_of: np.ndarray, low_of: np.ndarray, consts: np.ndarray,
              log: np.ndarray, sargs: tuple, rob_phase: int, vis: np.ndarray, ckong: np.ndarray, tmid: tuple,
              claim_tile: np.ndarray, cmid: tuple, keys: np.ndarray, tally: np.ndarray, quick_on: bool,
              qargs: tuple, cargs: tuple, dirty: np.ndarray) -> int:
    """The bots' turns on every ``live`` row in one compiled loop: the masks
    (``step_kernels._masks``), the bots' choices (the efficiency kernels, :func:`_random_pick`) and
    the common step (``step_kernels._step``, the other rows skipped), again and again, until every
    row awaits the ``learner`` or is held for Python: ``hold[i]`` = :data:`HELD_STEPPED` (the step
    left work in ``status`` or ended the hand: ``status`` and ``done`` are as one
    :meth:`BatchedCore.step` leaves them), :data:`HELD_DECIDE` (``acts[i]`` to be chosen by the bot's
    own code), :data:`HELD_LOG`. ``acts[i]``: the last index chosen on row ``i``. ``tally``: efficiency
    decisions made here and left to Python, and the steps' follow-ups done here, added to. What a
    step leaves is done here where compiled code can (``step_kernels._follow_up``): claims made,
    draws' flowers (the rows marked in ``dirty``: Python copies them to its lists), and with
    ``quick_on`` the wins a step leaves to the scorer (a discard or a draw a hand may win on) where
    the scorer's compiled quick value tells them (``qargs``: the cfunc's address, its params, the
    minimum, the meld kinds and tiles, dealer, prevalent wind and concealed kongs' arrays;
    ``cargs``: the arrays ``step_kernels._claims`` reads beside the step's). Returns the number of
    rows held, or -1 if the step refused the batch (nothing changed)."""
    n = live.shape[0]
    log_n, phase, hand, flags, status = sargs[0], sargs[1], sargs[3], sargs[10], sargs[-2]
    turn_phase, claim_phase = consts[2], consts[3]
    done = flags[5]
    step_acts = np.empty(n, dtype=np.int64)
    held_st = np.zeros(n, dtype=np.int64)
    held_done = np.zeros(n, dtype=np.bool_)
    rr = np.empty(n, dtype=np.int64)
    rs = np.empty(n, dtype=np.int64)
    tr = np.empty(n, dtype=np.int64)
    ts = np.empty(n, dtype=np.int64)
    cr = np.empty(n, dtype=np.int64)
    cs = np.empty(n, dtype=np.int64)
    left = np.zeros(n, dtype=np.uint8)
    cap = log.shape[1]
    scratch = step_kernels._follow_scratch()
    while True:
        mask[:, :] = 0
        step_kernels._masks(*mpre, seat, mask, *mpost)
        nr = nt = nc = 0
        active = False
        for i in range(n):
            step_acts[i] = -1
            if not live[i] or hold[i] != 0:
                continue
            s = seat[i]
            if s == learner:
                continue
            if log_n[i] >= cap:
                hold[i] = HELD_LOG
                continue
            active = True
            step_acts[i] = 0  # decided below, or held
            if not eff_seat[s]:
                rr[nr] = i
                rs[nr] = s
                nr += 1
            elif not eff_ok:  # the kernels do not take the rule set's shapes: the bot's own code
                hold[i] = HELD_DECIDE
                step_acts[i] = -1
            elif mask[i, 1]:
                acts[i] = 1
                tally[0] += 1
            elif phase[i] == rob_phase:
                acts[i] = 0
                tally[0] += 1
            elif phase[i] == turn_phase:
                tr[nt] = i
                ts[nt] = s
                nt += 1
            elif phase[i] == claim_phase:
                cr[nc] = i
                cs[nc] = s
                nc += 1
            else:
                hold[i] = HELD_DECIDE
                step_acts[i] = -1
        if not active:
            break
        if nr:
            _random_pick(rr[:nr], rs[:nr], mask, keys, log_n, acts)
        if nt:
            left[:nt] = 0
            kernels._efficiency_turns(hand, vis, ckong, tr[:nt], ts[:nt], mask, *tmid, acts, left[:nt])
            _hold_left(tr[:nt], left, hold, step_acts, tally)
        if nc:
            left[:nc] = 0
            kernels._efficiency_claims(hand, cr[:nc], cs[:nc], mask, claim_tile, *cmid, acts, left[:nc])
            _hold_left(cr[:nc], left, hold, step_acts, tally)
        for i in range(n):
            if step_acts[i] == 0:
                step_acts[i] = acts[i]
        if step_kernels._step(step_acts, mask, seat, kind_of, tile_of, low_of, consts, log, *sargs) < 0:
            return -1
        for i in range(n):
            if step_acts[i] >= 0 and status[i] != 0 and not done[i]:
                before = status[i]
                status[i] = step_kernels._follow_up(i, before, quick_on, qargs, cargs, sargs, consts, scratch, dirty)
                if status[i] != before:
                    tally[2] += 1
            if step_acts[i] >= 0 and (status[i] != 0 or done[i]):
                hold[i] = HELD_STEPPED
                held_st[i] = status[i]
                held_done[i] = done[i]
    held = 0
    for i in range(n):
        if hold[i] == HELD_DECIDE:
            tally[1] += 1
        if hold[i] != 0:
            held += 1
        if hold[i] == HELD_STEPPED:
            status[i] = held_st[i]
            done[i] = held_done[i]
        else:
            status[i] = 0
            done[i] = False
    return held


_KERNELS = ("_random_pick", "_hold_left", "_bot_loop")
_STATE: list[bool] = []


def available() -> bool:
    """True when the compiled bots' loop is there (numba)."""
    return step_kernels.available() and kernels.module_available(_STATE, globals(), _KERNELS, __file__,
                                                                 (step_kernels.__file__,))


class BatchedLearner:
    """The bots of ``core``'s rows (see the module doc). ``names``: three bot names (seats other
    than ``seat`` in number order)."""

    def __init__(self, core: B.BatchedCore, names: list[str], seat: int) -> None:
        self.core = core
        self.seat = seat
        others = [s for s in range(4) if s != seat]
        self.kind = ["" for _ in range(4)]
        for s, nm in zip(others, names):
            self.kind[s] = nm
        self._eff_seat = np.array([k == "efficiency" for k in self.kind])
        self.bot = FastEfficiencyBot(core.rules) if "efficiency" in names else None
        self._plain = kernel_flags(self.bot.shapes)[0] if self.bot is not None else None
        self.keys = np.zeros((core.n, 4), dtype=np.uint64)  # the random bots' per-row keys
        self._tally = np.zeros(3, dtype=np.int64)
        self.fused = available()
        """Whether :meth:`advance` runs the bots' turns in one compiled loop (see there); the tests
        switch it off to watch each decision (:meth:`_choose`)."""
        mid = tuple(int(x) for x in self._plain) if self._plain is not None else (0, 0, 0, 0, 0)
        tables = kernels._Tables.get() if self.bot is not None else _NO_TABLES  # the 24 MB only where used
        draws = kernels._Tables.draws() if self.bot is not None else _NO_DRAWS
        self._tmid = (DISCARD_BASE, _KONG_BASES, _KONG_TAKES, _TILES, _ORPHAN_KEY, *mid, *tables, *draws)
        self._cmid = (B._COL, EXPOSED_KONG_BASE, PUNG_BASE, B._CHOW_IDX, *mid, *tables)
        self._quick_on = self.fused and core._qfunc is not None
        """Whether the loop decides wins by the scorer's compiled quick value (``BatchedCore._qargs``)."""

    @property
    def decided(self) -> list[int]:
        """Efficiency decisions made from the kernels, and by the bot's own code (the rare hands they leave)."""
        return [int(self._tally[0]), int(self._tally[1])]

    @property
    def followed(self) -> int:
        """The steps' follow-ups :func:`_bot_loop` did itself (claims made, flowers, wins the quick value decides)."""
        return int(self._tally[2])

    def new_hands(self, rows: Iterable[int]) -> None:
        """Rows just dealt: the random bots' keys from their game seeds."""
        gs = self.core.game_seed
        for i in rows:
            g = int(gs[i])
            for s in range(4):
                self.keys[i, s] = derive_seed(g, "bot", s) & _M64

    def advance(self, live: np.ndarray, rewards: np.ndarray, counted: np.ndarray,
                ended: Callable[[np.ndarray], None]) -> None:
        """Step the bots on the ``live`` rows (bool) until each awaits the learner. The learner's
        rewards are added to ``rewards`` on the ``counted`` rows; rows whose hand ends are passed to
        ``ended`` (bool), which deals them a new hand (and may uncount them): they play on.

        With :attr:`fused` (the default) the bots' turns run in :func:`_bot_loop` and Python sees a
        row only where the step leaves it work (a discard or a draw a hand may win on, a kong, a
        won or ended hand, a decision for the bot's own code, a full log); otherwise one Python
        round a step of every row
        (:meth:`_advance_stepwise`). Both play the same games: rows are independent."""
        if not self.fused:
            self._advance_stepwise(live, rewards, counted, ended)
            return
        core = self.core
        n = core.n
        acts = np.zeros(n, dtype=np.int64)
        hold = np.zeros(n, dtype=np.int8)
        mask = np.zeros((n, B.ACTION_SIZE), dtype=np.int8)
        seat = np.zeros(n, dtype=np.int64)
        mpre, mpost = core.mask_args()
        sargs = core.step_args()
        qargs, cargs, dirty = core._qargs, core._cargs, core._dirty
        while True:
            hold.fill(0)
            held = _bot_loop(self.seat, self._eff_seat, self._plain is not None, live, acts, hold, mask, seat,
                             mpre, mpost, B._KIND, B._TILE, B._LOW, core._consts, core._log, sargs, B.ROB,
                             core.vis, core.ckong, self._tmid, core.claim_tile, self._cmid, self.keys, self._tally,
                             self._quick_on, qargs, cargs, dirty)
            core.mask, core.seat = mask, seat
            core.sync_flowers()  # flowers set aside in the loop: the lists the engine reads
            if held == 0:
                return
            if held < 0:  # not expected: the loop steps legal indices only, with room in the log
                raise B.MajiangError("the bots' compiled loop refused its own step")
            stepped = hold == HELD_STEPPED
            if stepped.any():  # the follow-ups one core step would run, then the ends
                core._after_compiled(acts, core._status)
                self._settle(core._rewards(), stepped, rewards, counted, ended)
            if (hold == HELD_LOG).any():
                core._log = np.concatenate([core._log, np.zeros_like(core._log)], axis=1)
            decide = hold == HELD_DECIDE
            if decide.any():  # the bot's own code (hands the kernels leave)
                mine = np.full(n, -1, dtype=np.int64)
                for i in np.flatnonzero(decide).tolist():
                    mine[i] = self._efficiency(i, int(seat[i]))
                self._settle(core.step(mine, skip=True), decide, rewards, counted, ended)

    def _settle(self, r: np.ndarray, rows: np.ndarray, rewards: np.ndarray, counted: np.ndarray,
                ended: Callable[[np.ndarray], None]) -> None:
        """The learner's share of the step's rewards ``r`` on the counted ``rows`` (bool), then the
        rows whose hand ended to ``ended``."""
        c = rows & counted
        rewards[c] += r[c, self.seat]
        d = self.core.done & rows
        if d.any():
            ended(d)

    def _advance_stepwise(self, live: np.ndarray, rewards: np.ndarray, counted: np.ndarray,
                          ended: Callable[[np.ndarray], None]) -> None:
        """:meth:`advance` one Python round a step of every bot row (masks, :meth:`_choose`, the core's step)."""
        core = self.core
        n = core.n
        acts = np.empty(n, dtype=np.int64)
        while True:
            core.fill_masks()
            bots = live & (core.seat != self.seat)
            if not bots.any():
                return
            acts.fill(-1)
            rows = bots.nonzero()[0]
            self._choose(rows, acts)
            r = core.step(acts, skip=True)
            c = rows[counted[rows]]
            rewards[c] += r[c, self.seat]
            d = core.done & bots
            if d.any():
                ended(d)

    def _choose(self, rows: np.ndarray, acts: np.ndarray) -> None:
        core = self.core
        seats = core.seat[rows]
        eff = self._eff_seat[seats]
        rr = rows[~eff]
        if rr.size:  # random: the first win, else a uniform masked choice
            _random_pick(rr, seats[~eff], core.mask, self.keys, core._log_n, acts)
        er = rows[eff]
        if er.size:
            left = self._efficiency_rows(er, seats[eff], acts) if self._plain is not None else er
            self._tally[0] += er.size - left.size
            self._tally[1] += left.size
            for i in left.tolist():
                acts[i] = self._efficiency(i, int(core.seat[i]))

    def _efficiency_rows(self, rows: np.ndarray, seats: np.ndarray, acts: np.ndarray) -> np.ndarray:
        """The efficiency bots' choices from the analysis kernel, for all ``rows`` at once: wins,
        turn discards and claims as :class:`FastEfficiencyBot` makes them. Returns the rows left to
        :meth:`_efficiency` (hands the kernel leaves alone, no kernel candidate)."""
        core = self.core
        win = core.mask[rows, 1] != 0
        acts[rows[win]] = 1
        ph = core.phase[rows]
        rob = (ph == B.ROB) & ~win
        acts[rows[rob]] = 0
        left = [rows[:0]]
        turn = (ph == B.TURN) & ~win
        if turn.any():
            left.append(self._turns(rows[turn], seats[turn], acts))
        claim = (ph == B.CLAIM) & ~win
        if claim.any():
            left.append(self._claims(rows[claim], seats[claim], acts))
        return np.concatenate(left)

    def _turns(self, rows: np.ndarray, seats: np.ndarray, acts: np.ndarray) -> np.ndarray:
        """Turn decisions (:meth:`EfficiencyBot.choose`'s kong rule, then
        :meth:`FastEfficiencyBot.kernel_discards` and its tie-break) of ``rows``, in one compiled loop
        (:func:`majiang.rl.kernels.efficiency_turns`); returns the rows left to the bot's own code."""
        core = self.core
        return kernels.efficiency_turns(core.hand, core.vis, core.ckong, rows, seats, core.mask, DISCARD_BASE,
                                        _KONG_BASES, _KONG_TAKES, _TILES, _ORPHAN_KEY, self._plain, acts)

    def _claims(self, rows: np.ndarray, seats: np.ndarray, acts: np.ndarray) -> np.ndarray:
        """Claim answers (:meth:`EfficiencyBot.choose`) of ``rows`` in one compiled loop
        (:func:`majiang.rl.kernels.efficiency_claims`): the hand's shanten now, each offered claim's
        after it (after the best discard for a pung or chow), the first strictly lower; returns the
        rows left."""
        core = self.core
        return kernels.efficiency_claims(core.hand, rows, seats, core.mask, core.claim_tile, B._COL, EXPOSED_KONG_BASE,
                                         PUNG_BASE, B._CHOW_IDX, self._plain, acts)

    def _efficiency(self, i: int, s: int) -> int:
        """:meth:`EfficiencyBot.choose` on row ``i``'s seat ``s`` (the index it picks)."""
        core = self.core
        m = core.mask[i]
        if m[1]:
            return 1
        ph = int(core.phase[i])
        if ph == B.ROB:
            return 0
        bot = self.bot
        assert bot is not None
        counts = core.hand[i, s].tolist()
        view = _View((core.vis[i] + core.ckong[i, s]).tolist())
        cols = _COLS
        if ph == B.TURN:
            allowed = [t for t in range(34) if m[DISCARD_BASE + cols[t]]]
            best, tile = bot._best_discard(counts, view, allowed)
            for base, take in ((CONCEALED_KONG_BASE, 4), (ADDED_KONG_BASE, 1)):
                for t in range(34):
                    if m[base + cols[t]]:
                        c = list(counts)
                        c[t] -= take
                        if bot._shanten(c, view) <= best:
                            return base + cols[t]
            return DISCARD_BASE + cols[tile]
        t = int(core.claim_tile[i])
        best_i, best_s = 0, bot._shanten(counts, view)
        cands = []
        if m[EXPOSED_KONG_BASE + cols[t]]:
            cands.append((EXPOSED_KONG_BASE + cols[t], (t, t, t), False))
        if m[PUNG_BASE + cols[t]]:
            cands.append((PUNG_BASE + cols[t], (t, t), True))
        for idx, played, low in _CHOW_BY_LOW:
            if m[idx]:
                cands.append((idx, tuple(x for x in range(low, low + 3) if x != played), True))
        for idx, used, discard in cands:
            c = list(counts)
            for x in used:
                c[x] -= 1
            if discard:
                allowed = [x for x in range(34) if c[x]]
                if not allowed:
                    continue
                sh = min(x for x, _ in bot._discard_shanten(c, view, allowed))
            else:
                sh = bot._shanten(c, view)
            if sh < best_s:
                best_i, best_s = idx, sh
        return best_i


__all__ = ["BOTS", "BatchedLearner", "bot_names"]
