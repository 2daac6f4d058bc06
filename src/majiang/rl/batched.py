"""A batched core for :class:`~majiang.rl.VectorEnv`: ``n`` hands as numpy arrays, stepped together.

The per-table path (:class:`~majiang.rl.core.Table`) runs one engine per table; at about 150 steps a
hand it reaches a few thousand steps/s. This core keeps the ``n`` tables' state as arrays -- concealed
counts ``(n, 4, 34)``, the wall and its two pointers, rivers (tiles, counts, the latest in order),
melds (counts and a ``(n, 4, sets)`` record per slot), flowers, phase, seat to act, the open window --
and applies each step to every row with vectorised operations (rows in different phases are picked
out by row masks). Legal-action masks ``(n, 269)`` and the observations ``(n, C, 34)`` are built for
all rows at once, in the layout of :class:`~majiang.rl.observations.Encoder`.

What the engine still decides, per row:

* **Dealing** (:meth:`BatchedCore.deal`): the first hand of ``Match(rules, seed)`` -- the engine's
  seeds, dice and ``build_wall``, then the deal ``HandTable`` makes (RULES.md §3.1); with wildcards
  the engine's own deal (below).
* **Wins**: each 3k+1 hand keeps a win gate, as ``HandTable`` does (:func:`win_gates`: which tile
  groups could complete it, from per-suit look-up tables keyed by the suit's count code,
  :func:`suit_tables`). Gated seats get a vectorised shape test (:func:`shape_candidates`: the
  standard shape exactly, the special shapes by a necessary condition); only the hands that pass are
  scored: by the scorer's ``quick_value`` on numbers read from the arrays where it has one and can
  tell (``Scorer.quick_value``: MCR's compiled path, for its 8-fan minimum), else by the engine's own
  ``HandTable._score_win`` (the exact shape check and the rule set's scorer) on an engine
  ``HandTable`` brought up to date from the arrays; a win is settled by the engine's
  ``HandTable._finish``.
* **Flowers** drawn (a few rows a step) are replaced in Python; kongs' robbing windows are opened
  per row.

Supported set-ups (:func:`supports`): no 报听 or 宝牌; 13- or 16-tile hands; flower wins only without
a minimum score (a flower that may win stops the compiled draw, and the engine settles it:
``HandTable._flower_win``); without wildcards, shapes among standard / seven pairs / thirteen orphans
/ knitted (the ``mcr``, ``shandong`` and ``taiwan`` presets and their options); wildcards by
indicator with the shapes and penalties of ``wenzhou``, ``wenzhou-w16`` and ``seed000`` (below); one
hand per episode, self-play (or a learner against the bots ``random`` and ``efficiency`` without
wildcards: :mod:`majiang.rl.batched_learner`), no shaping. Other set-ups use the per-table path. A deal that itself
ends the hand (a flower win at the deal) is dealt again with :func:`majiang.rl.core.redeal_seed`, as
the per-table :class:`~majiang.rl.core.Table` does.

**Wildcards** (RULES.md §4.2; since 2026-12-04): ``wenzhou`` (W13), ``wenzhou-w16`` and ``seed000``
and their wildcard options (``wild_discardable``, ``wild_claimable``, ``white_stand_in``,
``wild_indicator_out``), 136 tiles, no knitted shapes.

* The deal is the engine's (``Match(rules, seed)``'s first hand, :meth:`_start_engine`): the
  indicator counted from the tail by the dice total and turned up (``HandTable._choose_wild``),
  taken out of the wall when ``wild_indicator_out`` (the wall then one tile shorter, the tail moved),
  else left in it face up (seed 000). Per row :attr:`wild` (the face), :attr:`white_face` (the face a
  White plays, 白板代, §2.1) and :attr:`indicator`; the indicator counts among the tiles every seat
  sees (the ``unseen`` planes, as ``PlayerView.visible_counts``), and the ``wild_face``,
  ``white_face`` and ``indicator`` planes are written.
* Masks as ``HandTable`` offers: a wildcard is not discarded while anything else is held (unless
  ``wild_discardable``), nor konged, punged or chowed (unless ``wild_claimable``; a discarded wildcard
  can still be won on); a discarded White plays the wildcard's face in chows (the chow index names
  the faces, as :func:`majiang.rl.actions.index_of`), and a held White supplies that face before a
  wildcard of it (``engine.actions.chow_consumed``); the meld keeps the White (``Meld.stand_in``).
* Wins: no gates -- every hand is tested whole, with the discard or after the draw, by an exact
  compiled test (``step_kernels.wild_candidates``: the analysis kernel's shanten is -1, which is
  ``is_winning`` on ``split_counts``: 不搭, 八对, seven pairs with a quad as two pairs, thirteen
  orphans, three wildcards, a wildcard as a fifth copy); without numba ``is_winning`` itself. The
  hands that pass go to the engine's ``_score_win`` as every other win.
* Penalties outside a win (RULES.md §4.6): 被跟 (``followed_penalty``: the run of one face in turn
  order since the last claim, ``HandTable._note_discard``) and 误打财神 (``wild_discard_penalty``: a
  wildcard discarded, i.e. a hand of wildcards only, or with ``wild_discardable``) accumulate in
  :attr:`penalties` and are paid with the hand's result (the engine's ``result.deltas`` includes them;
  an exhaustive draw pays them alone) -- no reward before the hand ends, as on the per-table path.
* 相公 (``seed000``'s ``xianggong``) arises only from records of real play (a kong without its
  replacement, an extra draw), never from the layout's actions: nothing to play.
* Compiled: the common step in its own loop (``step_kernels._step_wild``), the masks and the fused
  observation with the other set-ups' loops, the analysis planes of all rows in one loop
  (``step_kernels._wild_rows``, ``kernels.analyse_wild_one``'s); the numpy code (``_wild_jit`` off)
  is the reference and the path without numba.

The core agrees step for step with the per-table path (tests/rl/test_rl_batched.py compares
observations, masks, seats, rewards and final scores over many seeded games); a game's record is
rebuilt on request by replaying its actions on the engine (:meth:`BatchedCore.replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

import numpy as np

from majiang.analysis import is_winning
from majiang.analysis.shapes import KNITTED_ARRANGEMENTS
from majiang.engine import Match, RuleSet
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.rl.actions import (
    ACTION_SIZE,
    ADDED_KONG_BASE,
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    EXPOSED_KONG_BASE,
    LAYOUT_TILES,
    PUNG_BASE,
    ActionIndexError,
    chow_index,
    chow_of_index,
    describe_index,
)
from majiang.rl import kernels, step_kernels
from majiang.rl.observations import RIVER_ORDER_SLOTS, Encoder
from majiang.rules.base import ScoreResult, WinSettle, declared_with

# phases (rows)
TURN, CLAIM, ROB, END = 0, 1, 2, 3
# action kinds of a layout index
K_PASS, K_WIN, K_DISCARD, K_CHOW, K_PUNG, K_EKONG, K_CKONG, K_AKONG, K_READY = range(9)
# meld kinds in the arrays, and their engine MeldKind
M_CHOW, M_PUNG, M_EKONG, M_CKONG, M_AKONG = range(5)
_MELD_KINDS = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.EXPOSED_KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG)
_PRIORITY = {K_WIN: 0, K_EKONG: 1, K_PUNG: 1, K_CHOW: 2}  # engine.actions.CLAIM_PRIORITY
_PRIO = np.full(10, 9, dtype=np.int64)  # by answer kind + 1 (no answer: -1); a pass ranks last
for _k, _p in _PRIORITY.items():
    _PRIO[_k + 1] = _p

_TILES = np.array(LAYOUT_TILES, dtype=np.intp)  # layout column -> our tile
_COL = np.empty(34, dtype=np.intp)
_COL[_TILES] = np.arange(34)
_AR4 = np.arange(4, dtype=np.int16)  # compared with int16 counts: no casting
_REL = (np.arange(4)[:, None] + np.arange(4)[None, :]) % 4  # [seat, r]: the seat r places after
_P9 = 5 ** np.arange(9, dtype=np.int64)
_P7 = 5 ** np.arange(7, dtype=np.int64)


def _decode_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kind = np.zeros(ACTION_SIZE, dtype=np.int8)
    tile = np.full(ACTION_SIZE, -1, dtype=np.int64)
    low = np.full(ACTION_SIZE, -1, dtype=np.int64)
    kind[1] = K_WIN
    for base, k in ((DISCARD_BASE, K_DISCARD), (PUNG_BASE, K_PUNG), (EXPOSED_KONG_BASE, K_EKONG),
                    (CONCEALED_KONG_BASE, K_CKONG), (ADDED_KONG_BASE, K_AKONG), (235, K_READY)):
        kind[base:base + 34] = k
        tile[base:base + 34] = _TILES
    for i in range(CHOW_BASE, PUNG_BASE):
        played, lo = chow_of_index(i)
        kind[i], tile[i], low[i] = K_CHOW, played, lo
    return kind, tile, low


_KIND, _TILE, _LOW = _decode_tables()

# _CHOW_IDX[t, j]: the index of the chow low = t - 2 + j on discard t (-1 where there is none)
_CHOW_IDX = np.full((34, 3), -1, dtype=np.int64)
for _t in range(27):
    for _j in range(3):
        _lo = _t - 2 + _j
        if _lo >= _t - _t % 9 and _lo % 9 <= 6 and _lo // 9 == _t // 9:
            _CHOW_IDX[_t, _j] = chow_index(_t, _lo)

_MASK_BASES = np.array([DISCARD_BASE, CONCEALED_KONG_BASE, ADDED_KONG_BASE, PUNG_BASE, EXPOSED_KONG_BASE],
                       dtype=np.int64)
_SLOTS = np.arange(RIVER_ORDER_SLOTS)
_ARANGE3 = np.arange(3)
_MELD_OF_KIND = np.zeros(9, dtype=np.int64)  # claim answer kind -> meld kind
_MELD_OF_KIND[K_CHOW], _MELD_OF_KIND[K_PUNG], _MELD_OF_KIND[K_EKONG] = M_CHOW, M_PUNG, M_EKONG
_NEAR = np.clip(np.arange(34)[:, None] + np.arange(-2, 3)[None, :], 0, 33)  # [t, off + 2]: t + off, clipped
_123 = np.array([1, 2, 3])
_CHOW_POS = _CHOW_IDX >= 0  # [t, j]: a chow low = t - 2 + j exists on discard t
_NON_ORPHAN = np.array([t for t in range(27) if t % 9 not in (0, 8)], dtype=np.intp)
_KNITTED = np.array(KNITTED_ARRANGEMENTS, dtype=np.intp)  # (6, 9)
_OFF_KNITTED = np.ones((34, 6), dtype=np.int64)  # [t, k]: suited tile t is outside arrangement k
_OFF_KNITTED[27:] = 0
for _k, _arr in enumerate(KNITTED_ARRANGEMENTS):
    _OFF_KNITTED[list(_arr), _k] = 0

_WHITE = 31  # majiang.tiles.WHITE

_TABLES: tuple[np.ndarray, np.ndarray] | None = None


def suit_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(SUIT_OK, HONOR_OK, SUIT_SHORT, HONOR_SHORT)``: boolean look-up tables of the standard shape
    by group count code.

    A suit's nine counts ``c`` (each 0-4) have the code ``sum(c[i] * 5**i)`` (0 .. 5**9 - 1); the
    seven honours likewise (0 .. 5**7 - 1). ``SUIT_OK[code]`` is True when the tiles split into sets
    (chows and pungs) only -- for a count that is 0 mod 3 -- or into sets and one pair -- for a count
    that is 2 mod 3 (the count decides which, so one table holds both). Honours make pungs only.
    ``*_SHORT[code]``: one more tile of some face makes the group OK (the win gate of a 3k+1 hand).
    Built once by enumerating every multiset of at most five sets plus an optional pair (RULES.md §1.2, §1.4).
    """
    global _TABLES
    if _TABLES is None:
        sets = [np.eye(9, dtype=np.int64)[i:i + 3].sum(0) for i in range(7)] + [3 * np.eye(9, dtype=np.int64)[i]
                                                                                  for i in range(9)]
        vecs = [np.zeros(9, dtype=np.int64)]
        for k in range(1, 6):  # up to five sets in one suit: 16-tile hands (Taiwan, RULES.md §3.1)
            vecs += [v for v in (sum(sets[j] for j in combo)
                                 for combo in combinations_with_replacement(range(16), k)) if v.max() <= 4]
        base = np.array(vecs)
        pairs = np.vstack([np.zeros((1, 9), dtype=np.int64), 2 * np.eye(9, dtype=np.int64)])
        allv = (base[:, None, :] + pairs[None, :, :]).reshape(-1, 9)
        allv = allv[(allv <= 4).all(1)]
        suit = np.zeros(5 ** 9, dtype=bool)
        suit[allv @ _P9] = True
        hv = np.array([[3 * ((m >> i) & 1) for i in range(7)] for m in range(128)], dtype=np.int64)
        hp = np.vstack([np.zeros((1, 7), dtype=np.int64), 2 * np.eye(7, dtype=np.int64)])
        hall = (hv[:, None, :] + hp[None, :, :]).reshape(-1, 7)
        hall = hall[(hall <= 4).all(1)]
        honor = np.zeros(5 ** 7, dtype=bool)
        honor[hall @ _P7] = True

        def short(v: np.ndarray, p: np.ndarray) -> np.ndarray:
            out = np.zeros(5 ** len(p), dtype=bool)
            for i in range(len(p)):
                sub = v[v[:, i] >= 1]
                out[sub @ p - p[i]] = True
            return out

        _TABLES = (suit, honor, short(allv, _P9), short(hall, _P7))
        global _SUIT_BITS, _HONOR_BITS
        _SUIT_BITS = _TABLES[0].astype(np.uint8) | (_TABLES[2].astype(np.uint8) << 1)
        _HONOR_BITS = _TABLES[1].astype(np.uint8) | (_TABLES[3].astype(np.uint8) << 1)
    return _TABLES


_SUIT_BITS = np.zeros(0, dtype=np.uint8)  # bit 0: SUIT_OK, bit 1: SUIT_SHORT (one look-up for both)
_HONOR_BITS = np.zeros(0, dtype=np.uint8)


# One float32 product gives what the win test reads from a count row (float32 holds these integers
# exactly): columns 0-2 the suits' count codes, 3 the honours' code, 4-6 the suits' tile counts, 7 the
# honours' count, 8 the tiles outside thirteen orphans, 9-14 the suited tiles outside each knitted
# arrangement.
_W = np.zeros((34, 15), dtype=np.float32)
for _g in range(3):
    _W[9 * _g:9 * _g + 9, _g] = _P9
    _W[9 * _g:9 * _g + 9, 4 + _g] = 1
_W[27:, 3] = _P7
_W[27:, 7] = 1
_W[_NON_ORPHAN, 8] = 1
_W[:, 9:15] = _OFF_KNITTED
_KN_IN = np.zeros((34, 6), dtype=np.float32)  # [t, k]: tile t is in knitted arrangement k
for _k, _arr in enumerate(KNITTED_ARRANGEMENTS):
    _KN_IN[list(_arr), _k] = 1


def standard_wins(x: np.ndarray, m: np.ndarray | None = None) -> np.ndarray:
    """``(m,)`` bool: each row of concealed counts ``x`` (``(m, 34)``, 3k+2 tiles) makes the standard
    shape (k sets and one pair). Vectorised through :func:`suit_tables`; ``m`` is ``x @ _W`` if the
    caller has it."""
    suit, honor = suit_tables()[:2]
    if m is None:
        m = x.astype(np.float32) @ _W
    c = m[:, :4].astype(np.int64)
    ok = suit[c[:, 0]] & suit[c[:, 1]] & suit[c[:, 2]] & honor[c[:, 3]]
    pairs = (np.fmod(m[:, 4:8], 3) == 2).sum(1)
    return ok & (pairs == 1)


def shape_candidates(x: np.ndarray, shapes) -> np.ndarray:
    """``(m,)`` bool: rows of concealed counts (3k+2 tiles) that may win under ``shapes`` (a
    :class:`~majiang.analysis.ShapeRules` without wildcards): the standard shape exactly, the special
    shapes by a necessary condition -- seven pairs: 14 tiles, every count even; thirteen orphans: 14
    tiles, none outside the orphans; honours and knitted: 14 single tiles, the suited ones within one
    knitted arrangement; knitted straight: some arrangement's nine tiles all held. The engine's exact
    check decides the candidates."""
    xf = x.astype(np.float32)
    m = xf @ _W
    cand = standard_wins(x, m)
    if shapes.seven_pairs or shapes.thirteen_orphans or shapes.honors_and_knitted:
        n14 = m[:, 4:8].sum(1) == 14
        if np.count_nonzero(n14):
            if shapes.seven_pairs:
                cand |= n14 & ~(x & 1).any(1)
            if shapes.thirteen_orphans:
                cand |= n14 & (m[:, 8] == 0)
            if shapes.honors_and_knitted:
                cand |= n14 & ~(x > 1).any(1) & (m[:, 9:15] == 0).any(1)
    if shapes.knitted_straight:
        cand |= ((x > 0).astype(np.float32) @ _KN_IN == 9).any(1)
    return cand


def win_gates(x: np.ndarray, melds: np.ndarray, shapes) -> tuple[np.ndarray, np.ndarray]:
    """The win gates of 3k+1 concealed hands ``x`` (``(m, 34)``; ``melds``: each hand's meld count):
    ``(groups, special)``. A tile of group ``g`` (0-2 the suits, 3 the honours) can complete the
    standard shape only if every other group is complete (sets, or sets and a pair) and ``g`` is one
    tile short: ``groups`` has bit ``g`` set for each such group (two bits for a wait on two pairs).
    ``special``: a special shape might be one tile away (seven pairs:
    one odd count; thirteen orphans: no other tile; honours and knitted: single tiles within one
    arrangement; knitted straight: eight of an arrangement's nine). Necessary conditions only: the
    win test (:func:`shape_candidates`, then the engine) decides."""
    suit_tables()
    m = x.astype(np.float32) @ _W
    c = m[:, :4].astype(np.int64)
    v = np.empty((len(x), 4), dtype=np.uint8)
    v[:, :3] = _SUIT_BITS[c[:, :3]]
    v[:, 3] = _HONOR_BITS[c[:, 3]]
    bad = 1 - (v & 1)
    others_ok = (bad.sum(1, dtype=np.uint8)[:, None] == bad)
    group = ((v >> 1) & others_ok) @ _BITS4
    special = np.zeros(len(x), dtype=bool)
    if shapes.seven_pairs or shapes.thirteen_orphans or shapes.honors_and_knitted:
        n13 = (m[:, 4:8].sum(1) == 13) & (melds == 0)
        if np.count_nonzero(n13):
            if shapes.seven_pairs:
                special |= n13 & ((x & 1).sum(1) == 1)
            if shapes.thirteen_orphans:
                special |= n13 & (m[:, 8] == 0)
            if shapes.honors_and_knitted:
                special |= n13 & ~(x > 1).any(1) & (m[:, 9:15] == 0).any(1)
    if shapes.knitted_straight:
        special |= ((x > 0).astype(np.float32) @ _KN_IN >= 8).any(1)
    return group, special


_BITS4 = np.array([1, 2, 4, 8], dtype=np.uint8)
_GROUP = np.array([t // 9 if t < 27 else 3 for t in range(34)], dtype=np.int64)


def unsupported(rules: RuleSet, *, hands: int | None = 1, shaping: object = None, opponents: object = None,
                observation: str = "majiang-v1") -> list[str]:
    """What keeps :class:`BatchedCore` from playing this set-up exactly (empty: it can; see the
    module doc), each reason in a few words."""
    sh = rules.shape_rules
    wild = rules.wild_mode == "indicator"
    why = [text for bad, text in (
        (rules.wild_mode not in ("none", "indicator"), f"wildcards ({rules.wild_mode})"),
        (wild and len(rules.tile_set) != 136, "wildcards with flowers"),
        (wild and (sh.honors_and_knitted or sh.knitted_straight), "wildcards with the knitted shapes"),
        (rules.declare_ready, "报听 (declare_ready)"),
        (rules.flower_wins and (rules.min_score > 0 or rules.xianggong), "flower wins with a minimum score"),
        (rules.followed_penalty != 0 and not wild, "被跟 penalty"),
        (rules.wild_discard_penalty != 0 and not wild, "误打财神 penalty"),
        (rules.xianggong and not wild, "相公 (xianggong)"),
        (rules.bao_pai, "宝牌"),
        (rules.white_stand_in and not wild, "White stand-in (白板代)"),
        (rules.hand_size not in (13, 16), f"{rules.hand_size}-tile hands"),
        (rules.players != 4, f"{rules.players} players"),
        (not sh.standard, "no standard shape"),
        (sh.unconnected and not wild, "不搭 shape"),
        (sh.eight_pairs and not wild, "八对 shape"),
        (sh.wilds_win != 0 and not wild, "a win on wildcards alone"),
        (hands != 1, f"hands={hands} (one hand per episode only)"),
        (shaping is not None, "shaping"),
        (opponents is not None and not _learner_ok(rules, opponents),
         "opponents other than the bots random and efficiency, or with wildcards or without numba"),
        (observation not in ("majiang-v1", "botzone-v0"), f"observation {observation!r}"),
        # a rule set's own hooks (issue 30): the engine plays them
        (rules.tiles != "mpsz", f"tile set {rules.tiles!r}"),
        (rules.win_limit != 1, "play on after a win (win_limit)"),
        (bool(rules.decisions) or rules.action_filter is not None, "pre-play decisions or an action filter"),
        (any(hasattr(rules.settlement_object(), h) for h in ("settle_kong", "settle_wall_end")),
         "payments at a kong or at the wall's end"),
    ) if bad]
    return why


def _learner_ok(rules: RuleSet, opponents: object) -> bool:
    """Whether :class:`~majiang.rl.batched_learner.BatchedLearner` plays these opponents."""
    from majiang.rl.batched_learner import bot_names

    return bot_names(opponents) is not None and rules.wild_mode == "none" and step_kernels.available()


def supports(rules: RuleSet, *, hands: int | None = 1, shaping: object = None, opponents: object = None,
             observation: str = "majiang-v1") -> bool:
    """Whether :class:`BatchedCore` plays this set-up exactly (see the module doc and :func:`unsupported`)."""
    return not unsupported(rules, hands=hands, shaping=shaping, opponents=opponents, observation=observation)


_DEAL_CHECKED: list[bool] = []


def _compiled_deal_ok(core: "BatchedCore") -> bool:
    """Whether the compiled deal gives the engine's walls on this Python: checked once per process on
    a few seeds against :meth:`BatchedCore.deal` (``random.Random``); the engine's deal is used otherwise."""
    if not _DEAL_CHECKED:
        from majiang.engine.wall import derive_seed

        ok = True
        for seed in (0, 1, 2026, derive_seed(7, "table", 3)):
            ref = core.deal(seed)
            walls = np.empty((1, core.total_tiles), dtype=np.int64)
            ws = derive_seed(seed, "hand", 0, "wall")
            keys = np.array([[ws & 0xFFFFFFFF, ws >> 32]], dtype=np.uint32)
            out = [np.empty((1, 4, 34), dtype=np.int64), np.zeros((1, 4, 8), dtype=np.int64),
                   np.empty((1, 4), dtype=np.int64), np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64),
                   np.empty(1, dtype=np.int64)]
            step_kernels._deal(keys, np.array([2 if ws >> 32 else 1]), np.array([ref[0]]), np.array([sum(ref[1])]),
                               core._tile_set, core.rules.hand_size, core.reserve, walls, *out)
            ok = ok and walls[0].tolist() == ref[2] and out[0][0].tolist() == ref[5] and int(out[3][0]) == ref[3] \
                and int(out[4][0]) == ref[4]
        _DEAL_CHECKED.append(ok)
    return _DEAL_CHECKED[0]


class BatchedCore:
    """``n`` hands of one rule set as arrays (see the module doc).

    Args:
        n: tables. rules: a supported :class:`~majiang.engine.RuleSet` (:func:`supports`).
        encoder: the :class:`~majiang.rl.observations.Encoder` whose layout the observations follow.
        reward_scale: settlement deltas are divided by this.

    The seat to act on each row is :attr:`seat` (the first awaited seat in turn order from the
    discarder in a claim window, as :meth:`majiang.rl.core.Table.to_act`). After :meth:`step`,
    :attr:`done` marks the rows whose hand ended and :attr:`deltas` holds their settlement.
    """

    def __init__(self, n: int, rules: RuleSet, encoder: Encoder, reward_scale: float = 1.0) -> None:
        if not supports(rules, observation=encoder.name):
            raise MajiangError(f"rule set {rules.name!r} with observation {encoder.name!r} is not supported by "
                               "the batched core (majiang.rl.batched.supports)")
        suit_tables()
        self.n = n
        self.rules = rules
        self.encoder = encoder
        self.reward_scale = float(reward_scale)
        self.reserve = rules.reserve
        self.sets = rules.sets
        self.total_tiles = len(rules.tile_set)
        sh = rules.shape_rules
        self._shapes = sh
        z = np.zeros
        # wildcards by indicator (RULES.md §4.2): per row the wildcard face, the face a White plays
        # (白板代, §2.1) and the indicator turned up (-1: none); penalties outside a win (被跟 and
        # 误打财神, §4.6) and the run of discards 被跟 follows
        self._wild_on = rules.wild_mode == "indicator"
        # the scorer's cheap value of a win told in numbers (Scorer.quick_value), if it has one
        # (declared by the class whose score it stands for: rules.base.declared_with)
        scorer = rules.scorer_object()
        quick = not self._wild_on and declared_with(scorer, "quick_value", "score")
        self._quick_value = scorer.quick_value if quick else None
        # and a win settled from that value, where the scorer tells its flowers' bonus and the
        # settlement reads nothing else (Settlement.context_free); one winner a hand (no 血战)
        settlement = rules.settlement_object()
        self._quick_settle = (settlement if quick and rules.win_limit == 1
                              and declared_with(settlement, "context_free", "settle")
                              and declared_with(scorer, "quick_bonus", "score") else None)
        self._quick_bonus = getattr(scorer, "quick_bonus", None)
        self.wild = np.full(n, -1, dtype=np.int64)
        self.white_face = np.full(n, -1, dtype=np.int64)
        self.indicator = np.full(n, -1, dtype=np.int64)
        self.penalties = z((n, 4), dtype=np.int64)
        self.run_first = z(n, dtype=np.int64)
        self.run_tile = z(n, dtype=np.int64)
        self.run_len = z(n, dtype=np.int64)
        self.hand = z((n, 4, 34), dtype=np.int16)
        self.wall = z((n, self.total_tiles), dtype=np.int16)
        self.head = z(n, dtype=np.int64)
        self.tail = z(n, dtype=np.int64)
        self.phase = z(n, dtype=np.int8)
        self.cur = z(n, dtype=np.int64)
        self.dealer = z(n, dtype=np.int64)
        self.prevalent = z(n, dtype=np.int64)
        # the arrays a new hand clears, kept as rows of a few stacks (one compiled loop clears them):
        # per table flags, per seat flags, per seat counts, per seat tile counts
        self._flags = z((6, n), dtype=bool)
        self._seat_flags = z((2, n, 4), dtype=bool)
        self._seat_counts = z((5, n, 4), dtype=np.int64)
        self._tile_counts = z((3, n, 4, 34), dtype=np.int16)
        self.after_claim, self.kong_chain, self.flower_chain, self.any_claim, self.last_discard, self.done = \
            self._flags
        self.awaiting, self.gate_special = self._seat_flags
        self.discards_made, self.gate_group, self.n_melds, self.n_ckong, self.river_len = self._seat_counts
        self.meld_vis, self.ckong, self.river_cnt = self._tile_counts  # meld_vis: melds others see (physical
        # tiles); ckong: concealed kongs (only their owner sees them)
        self.last_draw = z((n, 4), dtype=np.int64)
        self.claim_tile = z(n, dtype=np.int64)
        self.origin = z(n, dtype=np.int64)  # the discarder (claim window) or the kong's seat (robbing)
        self.ans_kind = z((n, 4), dtype=np.int64)
        self.ans_low = z((n, 4), dtype=np.int64)
        self.can_win = z((n, 4), dtype=bool)
        self.can_pung = z((n, 4), dtype=bool)
        self.can_kong = z((n, 4), dtype=bool)
        self.chow3 = z((n, 3), dtype=bool)  # the next seat's chows low = t-2, t-1, t
        self.turn_win = z(n, dtype=bool)
        self.pung = z((n, 4, 34), dtype=bool)
        self.river = z((n, 4, 96), dtype=np.int64)  # a seat's discards still in its river (far fewer)
        self.vis = z((n, 34), dtype=np.int16)  # copies every seat sees: rivers and melds (not concealed kongs)
        self.ro = np.full((n, 4, RIVER_ORDER_SLOTS), -1, dtype=np.int64)  # latest discards, newest first
        if encoder.name == "majiang-v1":  # flat offset of each river-order cell's plane, per row and slot
            c0 = encoder.offsets["river_order"][0]
            self._ro_base = (np.arange(n)[:, None, None] * encoder.planes * 34
                             + (c0 + RIVER_ORDER_SLOTS * _AR4[None, :, None]
                                + np.arange(RIVER_ORDER_SLOTS)[None, None, :]) * 34)
        self.flower_n = z((n, 4), dtype=np.int64)
        self.flower_tiles = z((n, 4, 8), dtype=np.int64)  # each seat's flowers in order (the compiled draw)
        self.deltas = z((n, 4), dtype=np.float64)
        self.seat = z(n, dtype=np.int64)
        self.mask = z((n, ACTION_SIZE), dtype=np.int8)
        # per row, in Python: the engine HandTable of the hand (built on the first win check; scoring
        # and settlement), its wall and dice, and the melds (engine Meld objects), their feeders and the
        # flowers, which that table reads
        self.tables: list = [None] * n
        self.walls: list[list[int]] = [[] for _ in range(n)]
        self.dice: list[tuple[int, ...]] = [()] * n
        slots = max(4, rules.sets)
        # melds per seat and slot (n, 4, sets): kind (_MELD_KINDS), tile, offer, claimed tile and the seat
        # that fed it (-1: none); built into engine Melds for the scorer
        self.meld_kind = z((n, 4, slots), dtype=np.int64)
        self.meld_tile = z((n, 4, slots), dtype=np.int64)
        self.meld_offer = z((n, 4, slots), dtype=np.int64)
        self.meld_claimed = z((n, 4, slots), dtype=np.int64)
        self.meld_from = z((n, 4, slots), dtype=np.int64)
        self.meld_stand = np.full((n, 4, slots), -1, dtype=np.int64)  # a chow's face a White plays (-1: none)
        self.flowers: list[list[list[int]]] = [[[], [], [], []] for _ in range(n)]
        self.game_seed: list[int | None] = [None] * n
        self._log = np.zeros((n, 512), dtype=np.int32)  # seat * 1000 + index of each step this hand
        self._log_n = np.zeros(n, dtype=np.int64)
        self._rows = np.arange(n)
        self._R = self._rows[:, None]
        self._rowbase = self._rows * encoder.planes * 34
        self._rows_c = self._rows * encoder.planes
        self._draw_q: list[tuple[int, int, bool]] = []
        self._draws: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        # majiang-v1's count planes in compiled code when numba is there (the same numbers)
        self._jit = encoder.name == "majiang-v1" and kernels.available()
        # the common step's engine work (win gates, claim windows) in compiled loops, the same state
        self._jit_step = step_kernels.available() and not self._wild_on
        self._wild_jit = False
        if self._wild_on:  # the wildcard win test (step_kernels.wild_candidates; is_winning without numba)
            self._wflags = kernels.wild_flags(sh)
            self._wkern = step_kernels.available()
            # the common step of the wildcard rule sets in its own compiled loop (step_kernels._step_wild)
            self._wild_jit = self._wkern
            self._wild_an: tuple | bool | None = None  # _analyse_wild's arguments, once decided
            self._wconsts = np.array([int(rules.white_stand_in), int(rules.wild_claimable), rules.followed_penalty,
                                      rules.wild_discard_penalty, *self._wflags], dtype=np.int64)
        self._gate_tables = (_SUIT_BITS, _HONOR_BITS, _KNITTED.astype(np.int64), _OFF_KNITTED)
        self._tile_set = np.array(rules.tile_set, dtype=np.int64)
        self._status = np.zeros(n, dtype=np.int64)
        self._jit_obs: bool | None = None  # majiang-v1 in one compiled loop (decided on the first fill)
        self._obs_args: tuple | None = None
        self._step_args: tuple | None = None
        self._skipped = np.zeros(n, dtype=np.uint8)
        self._counts8 = np.zeros((n, 34), dtype=np.int8)
        self._unseen8 = np.zeros((n, 34), dtype=np.int8)
        self._turn8 = np.zeros(n, dtype=np.int8)
        self._no_tables = np.zeros((1, 12), dtype=np.int8)
        self._err = np.zeros(2, dtype=np.int64)
        self._consts = np.array([K_PASS, K_DISCARD, TURN, CLAIM, END, self.reserve, self.sets,
                                 int(rules.claim_last_discard), int(rules.exposed_kong), int(rules.pung), int(rules.chow),
                                 int(sh.seven_pairs), int(sh.thirteen_orphans), int(sh.honors_and_knitted),
                                 int(sh.knitted_straight), int(rules.flower_wins)], dtype=np.int64)
        # what the compiled step leaves that compiled code can finish (step_kernels._follow_ups): claims
        # made, flowers set aside, and the wins the scorer's compiled quick value tells
        # (rules.quick_kernel; declared with the score it stands for, as quick_value)
        qk = (scorer.quick_kernel() if self._jit_step and self._quick_value is not None
              and declared_with(scorer, "quick_kernel", "score") else None)
        self._qfunc = qk[0] if qk is not None else None  # kept alive: the compiled loops call its address
        self._qargs = (int(qk[0].address) if qk is not None else 0, int(qk[1]) if qk is not None else 0,
                       rules.min_score, self.meld_kind, self.meld_tile, self.dealer, self.prevalent, self.ckong)
        self._cargs = (_PRIO, K_WIN, K_CHOW, K_PUNG, K_EKONG, _MELD_OF_KIND, self.meld_vis, self.pung, self.meld_kind,
                       self.meld_tile, self.meld_offer, self.meld_claimed, self.meld_from, self.white_face,
                       self.meld_stand, self.run_len)
        self._dirty = np.zeros(n, dtype=np.uint8)  # rows whose flowers compiled code set aside
        if encoder.name == "majiang-v1":
            self._offs = np.array([encoder.offsets[k][0] for k in kernels.TABLE_PLANES], dtype=np.int64)

    # ------------------------------------------------------------------ episodes
    def reset_rows(self, rows: Sequence[int], seeds: Sequence[int]) -> None:
        """Deal each row ``rows[k]`` the first hand of ``Match(rules, seed=seeds[k])`` (:meth:`deal`)."""
        rows, seeds = list(rows), [int(x) for x in seeds]
        if self._wild_on:
            self._start_engine(rows, [Match(self.rules, seed=s, max_hands=1) for s in seeds], seeds)
        elif self._jit_step and _compiled_deal_ok(self):
            self._start_compiled(rows, seeds)
        else:
            self._start(rows, [self.deal(seed) for seed in seeds], seeds)
        if self.rules.flower_wins:  # a deal that ends the hand (a flower win) is dealt again, as Table.reset
            again = [i for i in rows if self._deal_may_end(self.flower_n[i]) and self._deal_ends(i)]
            if again:
                from majiang.rl.core import redeal_seed

                self.reset_rows(again, [redeal_seed(self.game_seed[i]) for i in again])

    @staticmethod
    def _deal_may_end(flower_n: np.ndarray) -> bool:
        """A deal with these flower counts per seat might have ended in a flower win (a seat holds
        seven or eight): the engine decides (:meth:`_deal_ends`)."""
        return bool(flower_n.max() >= 7)

    def _deal_ends(self, i: int) -> bool:
        """Whether row ``i``'s deal ends its hand (a flower win on the deal, RULES.md §3.2), as the
        engine deals it."""
        return Match(self.rules, seed=self.game_seed[i], max_hands=1).finished

    def reset_row(self, i: int, game_seed: int) -> None:
        """:meth:`reset_rows` for one row."""
        self.reset_rows([i], [game_seed])

    def _dealer_dice(self, seed: int) -> tuple[int, tuple[int, ...]]:
        """The first hand's dealer and dice of ``Match(rules, seed=seed)`` (the engine's seeds)."""
        from majiang.engine.wall import rng_for, roll_dice

        r = self.rules
        dealer = 0
        if r.first_dealer == "dice":
            rng = rng_for(seed, "seating")
            if r.seat_draw:
                rng.shuffle([0, 1, 2, 3])
            dealer = (sum(roll_dice(rng, 2)) - 1) % 4
        return dealer, roll_dice(rng_for(seed, "hand", 0, "dice"), r.dice)

    def deal(self, seed: int):
        """The first hand of ``Match(rules, seed=seed)``: its dealer, dice and wall from the engine's
        seeds (:mod:`majiang.engine.wall`), dealt as ``HandTable`` deals (RULES.md §3.1: four tiles
        at a time from the dealer, the dealer's extra tile, then each seat's flowers set aside and
        replaced from the tail, dealer first, each until flower-free). Returns ``(dealer, dice, wall,
        head, tail, concealed, flowers, dealer's last draw)``; tests compare it with the engine's deal.
        Not for wildcards (no indicator here): their rows are dealt by the engine (:meth:`_start_engine`)."""
        from majiang.engine.wall import build_wall, rng_for

        r = self.rules
        dealer, dice = self._dealer_dice(seed)
        wall = build_wall(r, rng_for(seed, "hand", 0, "wall"), dealer, sum(dice))
        order = [(dealer + k) % 4 for k in range(4)]
        dealt: list[list[int]] = [[], [], [], []]
        head = 0
        got = 0
        size = r.hand_size
        while got < size:
            k = min(4, size - got)
            for s in order:
                dealt[s] += wall[head:head + k]
                head += k
            got += k
        dealt[dealer].append(wall[head])
        head += 1
        tail = len(wall)
        concealed = [[0] * 34 for _ in range(4)]
        flowers: list[list[int]] = [[], [], [], []]
        for s in range(4):
            for t in dealt[s]:
                if t >= 34:
                    flowers[s].append(t)
                else:
                    concealed[s][t] += 1
        last = dealt[dealer][-1]
        for s in order:
            pending = [t for t in dealt[s] if t >= 34]
            while pending:
                new = []
                for _ in pending:
                    if tail - head - r.reserve <= 0:  # pragma: no cover - never with 144 tiles
                        raise AssertionError("the wall ran out at the deal")
                    tail -= 1
                    t = wall[tail]
                    if t >= 34:
                        flowers[s].append(t)
                        new.append(t)
                    else:
                        concealed[s][t] += 1
                        if s == dealer:
                            last = t
                pending = new
        return dealer, dice, wall, head, tail, concealed, flowers, last

    def load(self, i: int, m: Match, game_seed: int | None = None) -> None:
        """Start row ``i`` from the first hand of engine match ``m`` just dealt (e.g. one built on an
        explicit wall, ``Match(rules, walls=[wall], max_hands=1)``, for scenario tests; such a row's
        :meth:`replay` needs ``game_seed``)."""
        t = m.table
        if t is None or t.finished:
            raise MajiangError("the match's first hand ended at the deal (a flower win): nothing to play")
        if self._wild_on:
            self._start_engine([i], [m], [game_seed], keep=False)  # the caller's match: not kept
            return
        self._start([i], [(t.dealer, t.dice, list(t.wall), t.head, t.tail, [list(c) for c in t.concealed],
                           [list(f) for f in t.flowers], t.last_draw[t.dealer])], [game_seed])

    def _start_engine(self, rows: list[int], matches: list, seeds: list, keep: bool = True) -> None:
        """Lay out new hands from engine matches just dealt: the wildcard rule sets, whose deal turns
        up the indicator (``HandTable._choose_wild``, RULES.md §4.2: counted from the tail by the dice
        total, out of play when ``wild_indicator_out``) -- the wall, the hands, the wildcard face and
        the indicator as the engine dealt them; the wall before the indicator left it is kept for
        :meth:`_sync`, and with ``keep`` (matches made here) the tables themselves, which
        :meth:`_sync` copies."""
        from majiang.tiles import WHITE

        deals = []
        for i, m in zip(rows, matches):
            t = m.table
            if t is None or t.finished:  # pragma: no cover - no flowers with wildcards (unsupported)
                raise MajiangError("the match's first hand ended at the deal: nothing to play")
            deals.append((t.dealer, t.dice, list(t.wall), t.head, t.tail, [list(c) for c in t.concealed],
                          [list(f) for f in t.flowers], t.last_draw[t.dealer]))
            wf = -1 if t.wild_face is None else int(t.wild_face)
            self.wild[i] = wf
            self.white_face[i] = -1 if t.white_face is None else int(t.white_face)
            ind = t.indicator if t.indicator is not None else t.indicator_in_wall
            self.indicator[i] = -1 if ind is None else int(ind)
            assert t.white_face is None or (wf >= 0 and wf != WHITE)
        # the walls as built (HandTable deals them again in _sync), the tables just dealt (_sync's copies)
        self._start(rows, deals, seeds, [list(m.walls_used[0]) for m in matches],
                    [m.table for m in matches] if keep else None)

    def _start_compiled(self, rows: list[int], seeds: list[int]) -> None:
        """:meth:`reset_rows` with the deal and the lay-out in compiled loops
        (:mod:`majiang.rl.step_kernels`: the walls shuffled by the same Mersenne Twister as the engine's
        ``random.Random``); the dealer and dice come from the engine's seeds as in :meth:`deal`."""
        from majiang.engine.wall import derive_seed

        r = self.rules
        m = len(rows)
        keys = np.zeros((m, 2), dtype=np.uint32)
        nkeys = np.ones(m, dtype=np.int64)
        dealers = np.zeros(m, dtype=np.int64)
        totals = np.zeros(m, dtype=np.int64)
        for k, (i, seed) in enumerate(zip(rows, seeds)):
            dealer, dice = self._dealer_dice(seed)
            ws = derive_seed(seed, "hand", 0, "wall")  # 64 bits: random.Random's key is its 32-bit words
            keys[k, 0] = ws & 0xFFFFFFFF
            keys[k, 1] = ws >> 32
            nkeys[k] = 2 if ws >> 32 else 1
            dealers[k] = dealer
            totals[k] = sum(dice)
            self.tables[i] = None
            self.walls[i] = None  # read from self.wall when an engine table is built (_sync)
            self.dice[i] = tuple(dice)
            self.game_seed[i] = seed
        walls = np.empty((m, self.total_tiles), dtype=np.int64)
        conc = np.empty((m, 4, 34), dtype=np.int64)
        fl = np.zeros((m, 4, 8), dtype=np.int64)
        fn = np.empty((m, 4), dtype=np.int64)
        heads = np.empty(m, dtype=np.int64)
        tails = np.empty(m, dtype=np.int64)
        lasts = np.empty(m, dtype=np.int64)
        if step_kernels._deal(keys, nkeys, dealers, totals, self._tile_set, r.hand_size, self.reserve, walls, conc,
                              fl, fn, heads, tails, lasts) >= 0:  # pragma: no cover - never with 144 tiles
            raise AssertionError("the wall ran out at the deal")
        fll, fnl = fl.tolist(), fn.tolist()
        for k, i in enumerate(rows):
            self.flowers[i] = [fll[k][s][:fnl[k][s]] for s in range(4)]
        self.flower_tiles[rows] = fl
        self._lay_out(np.asarray(rows, dtype=np.int64), dealers, walls, heads, tails, conc, fn, lasts)

    def _lay_out(self, r: np.ndarray, dl: np.ndarray, walls: np.ndarray, heads: np.ndarray, tails: np.ndarray,
                 conc: np.ndarray, fn: np.ndarray, lasts: np.ndarray) -> None:
        """The compiled lay-out of new hands (``step_kernels._lay_out``), then the win gates."""
        step_kernels._lay_out(r, dl, walls, heads, tails, conc, fn, lasts, TURN, self.wall, self.head, self.tail,
                              self.hand, self.flower_n, self.last_draw, self._log_n, self.phase, self.cur,
                              self.dealer, self.prevalent, self._flags, self._seat_flags, self.pung,
                              self._seat_counts, self._tile_counts, self.vis, self.deltas, self.ro)
        rr = np.repeat(r, 3)
        ss = ((dl[:, None] + _123) % 4).reshape(-1)
        self._set_gates(rr, ss)
        self._turn_wins(r, np.ones(r.size, dtype=bool))

    def _start(self, rows: list[int], deals: list, seeds: list, built: list | None = None,
               tables: list | None = None) -> None:
        """Lay out new hands on ``rows``: ``deals[k]`` as :meth:`deal` returns it (``built[k]``: the
        wall before the deal took the indicator out, when it did; ``tables[k]``: the engine table that
        dealt it, not played on)."""
        for k, ((dealer, dice, wall, head, tail, concealed, flowers, last), seed) in enumerate(zip(deals, seeds)):
            i = rows[k]
            self.tables[i] = None if tables is None else tables[k]
            self.walls[i] = wall if built is None else built[k]
            self.dice[i] = tuple(dice)
            self.flowers[i] = flowers
            self.game_seed[i] = seed
            self.flower_tiles[i] = 0
            for s, f in enumerate(flowers):
                self.flower_tiles[i, s, :len(f)] = f
        r = np.asarray(rows, dtype=np.int64)
        dl = np.array([x[0] for x in deals], dtype=np.int64)
        if all(len(x[2]) == self.total_tiles for x in deals):
            self.wall[r, :self.total_tiles] = [x[2] for x in deals]
        else:  # the indicator taken out of the wall: one tile fewer (the tail moved with it)
            for i, x in zip(rows, deals):
                self.wall[i, :len(x[2])] = x[2]
        self.head[r] = [x[3] for x in deals]
        self.tail[r] = [x[4] for x in deals]
        self.hand[r] = [x[5] for x in deals]
        self.flower_n[r] = [[len(f) for f in x[6]] for x in deals]
        self.last_draw[r] = -1
        self.last_draw[r, dl] = [-1 if x[7] is None else x[7] for x in deals]
        self._log_n[r] = 0
        self.phase[r] = TURN
        self.cur[r] = dl
        self.dealer[r] = dl
        self.prevalent[r] = 27  # East: the first hand of a match
        for a in (self.after_claim, self.kong_chain, self.flower_chain, self.any_claim, self.last_discard,
                  self.awaiting, self.gate_special, self.pung, self.done):
            a[r] = False
        for a in (self.discards_made, self.gate_group, self.meld_vis, self.ckong, self.n_melds, self.n_ckong,
                  self.river_len, self.river_cnt, self.vis, self.deltas, self.penalties, self.run_len):
            a[r] = 0
        self.ro[r] = -1
        if self._wild_on:  # the indicator is seen by every seat (PlayerView.visible_counts)
            ind = self.indicator[r]
            self.vis[r[ind >= 0], ind[ind >= 0]] += 1
        # the other seats' win gates, the dealer's self-drawn win
        rr = np.repeat(r, 3)
        ss = ((dl[:, None] + _123) % 4).reshape(-1)
        self._set_gates(rr, ss)
        self._turn_wins(r, np.ones(r.size, dtype=bool))

    @property
    def actions(self) -> list[list[tuple[int, int]]]:
        """Per row, ``(seat, index)`` of every step of the current hand."""
        return [[(int(x) // 1000, int(x) % 1000) for x in self._log[i, :self._log_n[i]]] for i in range(self.n)]

    def replay(self, i: int):
        """The engine :class:`~majiang.engine.Match` of row ``i``'s current episode, rebuilt by replaying
        its actions (its ``events`` are the game's record)."""
        from majiang.rl.core import Table

        t = Table(self.rules, self.encoder.name, hands=1)
        t.reset(self.game_seed[i])
        for x in self._log[i, :self._log_n[i]].tolist():
            t.step(x // 1000, x % 1000)
        return t.match

    # ------------------------------------------------------------------ engine sync (rare events)
    def _sync(self, i: int):
        """An engine HandTable of row ``i``'s hand brought up to date with the arrays (before scoring).
        A fresh copy each time of the table the hand's wall dealt (dealt once a hand, kept in
        :attr:`tables` and never played on), every part of the state the engine reads set from the
        arrays and its caches and events new (``HandTable.clear_caches``), so nothing derived from
        an earlier state outlives it."""
        import copy

        from majiang.engine.table import HandTable

        fresh = self.tables[i]
        if fresh is None:
            wall = self.walls[i]
            if wall is None:
                wall = self.walls[i] = self.wall[i, :self.total_tiles].tolist()
            fresh = self.tables[i] = HandTable(self.rules, wall, int(self.dealer[i]), int(self.prevalent[i]),
                                               self.dice[i], 0)
        t = copy.copy(fresh)
        t.events = []
        t._emit_fn = None
        t.penalties = self.penalties[i].tolist()
        nm = self.n_melds[i].tolist()
        kinds, tiles, offers = self.meld_kind[i].tolist(), self.meld_tile[i].tolist(), self.meld_offer[i].tolist()
        claimed, feeders = self.meld_claimed[i].tolist(), self.meld_from[i].tolist()
        stand = self.meld_stand[i].tolist()
        t.melds = [[Meld(_MELD_KINDS[kinds[s][j]], tiles[s][j], offers[s][j],
                         None if claimed[s][j] < 0 else claimed[s][j], None if stand[s][j] < 0 else stand[s][j])
                    for j in range(nm[s])] for s in range(4)]
        t.meld_from = [[None if feeders[s][j] < 0 else feeders[s][j] for j in range(nm[s])] for s in range(4)]
        t.flowers = self.flowers[i]
        t.concealed = self.hand[i].tolist()
        rl = self.river_len[i]
        t.rivers = [self.river[i, s, :rl[s]].tolist() for s in range(4)]
        t.head, t.tail = int(self.head[i]), int(self.tail[i])
        t.current = int(self.cur[i])
        t.after_claim = bool(self.after_claim[i])
        t.kong_chain = bool(self.kong_chain[i])
        t.flower_chain = bool(self.flower_chain[i])
        t.any_claim = bool(self.any_claim[i])
        t.discards_made = self.discards_made[i].tolist()
        t.last_draw = [None if x < 0 else x for x in self.last_draw[i].tolist()]
        t.last_discard = bool(self.last_discard[i])
        t.clear_caches()
        return t

    def _quick_win(self, i: int, seat: int, tile: int, self_drawn: bool) -> bool | None:
        """Whether ``seat`` of row ``i`` may win on ``tile`` (a complete shape: the candidates' test
        passed), from the scorer's ``quick_value`` (:class:`~majiang.rules.base.Scorer`) on the
        arrays -- the same numbers the engine's ``HandTable._context`` reads from :meth:`_sync`'s
        table: the concealed tiles without the winning one, the declared melds, the last tile
        (the live wall is empty on a draw, ``last_discard`` on a discard), a kong replacement, the
        copies of the tile in sight (rivers, every meld but the others' concealed kongs, the hand)
        and the winds. None where the scorer has no such method or cannot tell (the caller asks the
        engine). Not for robbing a kong (rare: the engine decides). As the engine does, the hand is
        first checked under the rule set's own shapes (``is_winning``): the scorer may know more shapes."""
        if self._quick_value is None:
            return None
        v = self._quick(i, seat, tile, self_drawn, True)
        return v if v is None or v is False else v >= self.rules.min_score

    def _quick(self, i: int, seat: int, tile: int, self_drawn: bool, check_shape: bool) -> int | None | bool:
        """The scorer's ``quick_value`` of row ``i``'s ``seat`` winning on ``tile`` (:meth:`_quick_win`
        says what it reads); False where ``check_shape`` and the hand is no winning shape."""
        c = self.hand[i, seat].tolist()
        own = c[tile]
        if self_drawn:
            full = c
            c = list(c)
            c[tile] -= 1
        else:
            full = list(c)
            full[tile] += 1
        if check_shape and not is_winning(full, 0, self.rules.shape_rules):  # the engine's exact shape test
            return False                               # first (the candidates' test of special shapes is not)
        # in sight: the hand, the rivers and every exposed meld (vis), the seat's own concealed kongs
        seen = own + int(self.vis[i, tile]) + int(self.ckong[i, seat, tile])
        kinds, tiles = self.meld_kind[i, seat].tolist(), self.meld_tile[i, seat].tolist()
        melds = [(_MELD_KINDS[kinds[j]], tiles[j]) for j in range(int(self.n_melds[i, seat]))]
        last = (self.tail[i] - self.head[i] - self.reserve == 0) if self_drawn else self.last_discard[i]
        return self._quick_value(bytes(c), tile, melds, self_drawn=self_drawn, last_tile=bool(last),
                                 kong_replacement=self_drawn and bool(self.kong_chain[i]),
                                 win_tile_seen=max(seen - 1, 0), seat_wind=27 + (seat - int(self.dealer[i])) % 4,
                                 prevalent_wind=int(self.prevalent[i]))

    def _drawn_win(self, i: int, seat: int, tile: int) -> bool:
        """Whether ``seat`` of row ``i`` may win on the tile it drew (a complete shape): the quick
        value (:meth:`_quick_win`), else the engine on a synced table."""
        q = self._quick_win(i, seat, tile, True)
        if q is None:
            q = self._sync(i)._score_win(seat, tile, self_drawn=True, discarder=None, robbing=False) is not None
        return q

    def _candidates(self, x: np.ndarray) -> np.ndarray:
        """:func:`shape_candidates` under this rule set's shapes."""
        return shape_candidates(x, self._shapes)

    def _wild_candidates(self, rows: np.ndarray, seats: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
        """The wildcard rule sets' win test (no gates: every hand is tested): ``(m,)`` bool, the 3k+2
        hands ``hand[rows[k], seats[k]]`` (plus ``extra[k]`` where not -1) that make a winning shape
        with their wildcards (RULES.md §4.2; a White plays the wildcard's face, §2.1) -- exactly
        ``is_winning`` on ``split_counts``, compiled (``step_kernels.wild_candidates``: the analysis
        kernel's shanten is -1) or in Python; the engine's ``_score_win`` then scores it."""
        if self._wkern:
            return step_kernels.wild_candidates(self.hand, rows, seats, extra, self.wild, self.rules.white_stand_in,
                                                self._wflags)
        from majiang.analysis import is_winning_many

        x = self.hand[rows, seats].astype(np.int8)
        k = np.arange(rows.size)
        if extra is not None:
            on = extra >= 0
            x[k[on], extra[on]] += 1
        # split_counts on every row: copies of the wildcard face are wildcards, a White plays that face
        wf = self.wild[rows].astype(np.intp)
        has = wf >= 0
        w = np.zeros(rows.size, dtype=np.int64)
        w[has] = x[k[has], wf[has]]
        x[k[has], wf[has]] = 0
        if self.rules.white_stand_in:
            sw = has & (wf != _WHITE)
            x[k[sw], wf[sw]] += x[k[sw], _WHITE]
            x[k[sw], _WHITE] = 0
        return is_winning_many(x, w, self._shapes)

    def _set_gates(self, rows: np.ndarray, seats: np.ndarray) -> None:
        """Recompute the win gates of ``seats`` on ``rows`` (their hands hold 3k+1 tiles now)."""
        if self._wild_on:  # no gates with wildcards: every hand is tested (_wild_candidates)
            return
        if rows.size and self._jit_step:
            step_kernels.win_gates(self.hand, rows, seats, self.n_melds, self._shapes, self.gate_group,
                                   self.gate_special, self._gate_tables)
        elif rows.size:
            g, sp = win_gates(self.hand[rows, seats], self.n_melds[rows, seats], self._shapes)
            self.gate_group[rows, seats] = g
            self.gate_special[rows, seats] = sp

    def _turn_wins(self, rows: np.ndarray, full: np.ndarray) -> None:
        """Whether the seat to act on ``rows`` (in its turn, after a draw) may win by self-draw. Rows
        not ``full`` drew onto the hand whose win gate is known; ``full`` rows (a new hand, a kong's
        replacement) are tested whole."""
        if rows.size == 0:
            return
        s = self.cur[rows]
        ld = self.last_draw[rows, s]
        if self._wild_on:
            maybe = (ld >= 0) & ~self.after_claim[rows]
        else:
            maybe = full | ((self.gate_group[rows, s] >> _GROUP[ld]) & 1 > 0) | self.gate_special[rows, s]
            maybe &= (ld >= 0) & ~self.after_claim[rows]
        ok = np.zeros(rows.size, dtype=bool)
        if np.count_nonzero(maybe):
            k0 = maybe.nonzero()[0]
            if self._wild_on:
                cand = self._wild_candidates(rows[k0], s[k0], None)
            elif self._jit_step:
                cand = step_kernels.candidates(self.hand, rows[k0], s[k0], None, self._shapes, self._gate_tables)
            else:
                cand = self._candidates(self.hand[rows[k0], s[k0]])
            for k in k0[cand].tolist():
                i = int(rows[k])
                seat = int(s[k])
                ok[k] = self._drawn_win(i, seat, int(ld[k]))
        self.turn_win[rows] = ok

    def _finish(self, i: int, wins: list[tuple[int, int | None, int, bool]]) -> None:
        """End row ``i``'s hand on ``wins`` (``(winner, discarder or None, tile, robbing)`` each) and
        keep its deltas: settled here from the quick values (:meth:`_settle_quick`) where it can, else by
        the engine's ``HandTable._finish`` on a synced table (the same numbers: the tests compare them)."""
        d = self._settle_quick(i, wins) if self._quick_settle is not None else None
        if d is None:
            t = self._sync(i)
            t._finish(wins)
            d = t.result.deltas
        self.deltas[i] = d
        self.phase[i] = END
        self.done[i] = True

    def _settle_quick(self, i: int, wins: list[tuple[int, int | None, int, bool]]) -> list[int] | None:
        """Row ``i``'s deltas for ``wins`` as ``HandTable._settle_wins`` makes them (the penalties
        that stand, plus each win's settlement), each win valued by the scorer's ``quick_value`` and
        ``quick_bonus`` (the winner's flowers) and settled by the context-free settlement; None
        where any win is a robbed kong or has no quick value (the engine settles those)."""
        total = self.penalties[i].tolist()
        for seat, discarder, tile, robbing in wins:
            if robbing:
                return None
            v = self._quick(i, seat, tile, discarder is None, False)
            if v is None or v < self.rules.min_score:  # the engine decides (a declared win meets it)
                return None
            res = ScoreResult(v, self._quick_bonus(len(self.flowers[i][seat])))  # type: ignore[misc]
            deltas = self._quick_settle.settle(WinSettle(seat, discarder, res, None), 4)  # type: ignore[union-attr]
            for k in range(4):
                total[k] += deltas[k]
        return total

    def _flower_may_win(self, i: int, s: int) -> bool:
        """Seat ``s`` of row ``i`` has just set aside a flower that may end the hand (RULES.md §3.2):
        its eighth (八仙過海), or the eighth while another seat holds seven (七搶一)."""
        fn = self.flower_n[i]
        return bool(fn[s] == 8 or any(fn[h] == 7 for h in range(4) if h != s))

    def _flower_win(self, i: int, s: int) -> None:
        """The flower win of :meth:`_flower_may_win`, scored and settled by the engine
        (``HandTable._flower_win``); the core supports flower wins only where every one stands (no
        minimum score, no 相公: :func:`unsupported`)."""
        t = self._sync(i)
        if not t._flower_win(s, self.flowers[i][s][-1]):  # pragma: no cover - excluded by unsupported()
            raise AssertionError("a flower win the engine did not declare")
        self.deltas[i] = t.result.deltas
        self.phase[i] = END
        self.done[i] = True

    def _exhaust(self, rows: np.ndarray) -> None:
        self.phase[rows] = END
        self.done[rows] = True
        self.deltas[rows] = self.penalties[rows]  # penalties outside a win (被跟, 误打财神) stand; else zero

    # ------------------------------------------------------------------ draws and windows
    def _draw(self, rows: np.ndarray, seats: np.ndarray, tail: np.ndarray) -> None:
        """Draw for ``seats`` on ``rows`` (from the tail where ``tail``); flowers are set aside and
        replaced from the tail (the few rows that draw one, in Python); an empty wall ends the hand
        (exhaustive draw)."""
        if self._jit_step:
            status = np.empty(rows.size, dtype=np.int64)
            if not step_kernels._draws(rows, seats, tail, self.wall, self.head, self.tail, self.reserve,
                                       self.flower_chain, self.phase, self.done, self.deltas, self.hand,
                                       self.last_draw, self.cur, self.after_claim, self.turn_win, self.gate_group,
                                       self.gate_special, _GROUP, self.flower_tiles, self.flower_n, TURN, END,
                                       status, int(self.rules.flower_wins)):
                return
            for k in (status >= 4).nonzero()[0].tolist():  # flowers set aside: the lists the engine reads
                i, s = int(rows[k]), int(seats[k])
                self.flowers[i][s] = self.flower_tiles[i, s, :self.flower_n[i, s]].tolist()
            for k in ((status & 3) == 3).nonzero()[0].tolist():
                self._flower_win(int(rows[k]), int(seats[k]))
            test = ((status & 3) == 1).nonzero()[0]
            if test.size:  # the win gate admits the draw: the shape test, then the engine
                r, s = rows[test], seats[test]
                cand = step_kernels.candidates(self.hand, r, s, None, self._shapes, self._gate_tables)
                ld = self.last_draw[r, s]
                for k in cand.nonzero()[0].tolist():
                    i, seat = int(r[k]), int(s[k])
                    self.turn_win[i] = self._drawn_win(i, seat, int(ld[k]))
            return
        self._draw_numpy(rows, seats, tail)

    def _draw_numpy(self, rows: np.ndarray, seats: np.ndarray, tail: np.ndarray) -> None:
        """:meth:`_draw` with numpy (the reference, the path without numba, and a flower's draw)."""
        self.flower_chain[rows] = False
        res = self.reserve
        ex = self.tail[rows] - self.head[rows] - res <= 0
        if np.count_nonzero(ex):
            self._exhaust(rows[ex])
            keep = ~ex
            rows, seats, tail = rows[keep], seats[keep], tail[keep]
            if not rows.size:
                return
        full = tail  # a kong's replacement: the hand before it has no win gate
        pos = np.where(tail, self.tail[rows] - 1, self.head[rows])
        t = self.wall[rows, pos].astype(np.int64)
        self.head[rows] += ~tail
        self.tail[rows] -= tail
        fl = t >= 34
        if np.count_nonzero(fl):
            for k in fl.nonzero()[0].tolist():
                i, s, x = int(rows[k]), int(seats[k]), int(t[k])
                self.flower_chain[i] = True
                while x >= 34:
                    self.flowers[i][s].append(x)
                    self.flower_tiles[i, s, self.flower_n[i, s]] = x
                    self.flower_n[i, s] += 1
                    if self.rules.flower_wins and self._flower_may_win(i, s):
                        self._flower_win(i, s)
                        x = -2
                        break
                    if self.tail[i] - self.head[i] - res <= 0:
                        x = -1
                        break
                    self.tail[i] -= 1
                    x = int(self.wall[i, self.tail[i]])
                t[k] = x
            ok = t >= 0
            if np.count_nonzero(ok) != ok.size:
                self._exhaust(rows[t == -1])
                rows, seats, t, full = rows[ok], seats[ok], t[ok], full[ok]
                if not rows.size:
                    return
        self.hand[rows, seats, t] += 1
        self.last_draw[rows, seats] = t
        self.cur[rows] = seats
        self.phase[rows] = TURN
        self.after_claim[rows] = False
        self._turn_wins(rows, full)

    def _open_claims(self, rows: np.ndarray) -> None:
        """A discard (``claim_tile`` by ``origin``) on ``rows``: which seats may claim it; rows where
        none may go on to the next seat's draw."""
        if rows.size == 0:
            return
        if self._jit_step:
            self._open_claims_jit(rows)
            return
        r = self.rules
        d = self.origin[rows]
        t = self.claim_tile[rows]
        S = (d[:, None] + _123) % 4
        R = rows[:, None]
        ct = self.hand[R, S, t[:, None]]  # (m, 3) copies of the discard held
        live = (self.tail[rows] - self.head[rows] - self.reserve) > 0
        may = self.n_melds[R, S] < self.sets
        if not r.claim_last_discard:
            may &= live[:, None]
        lt = t
        if self._wild_on:  # a wildcard discarded is claimed only for a win (unless wild_claimable)
            wf, wt = self.wild[rows], self.white_face[rows]
            if not r.wild_claimable:
                may &= (t != wf)[:, None]
            lt = np.where((t == _WHITE) & (wt >= 0), wt, t)  # what the discard plays (白板代, RULES.md §2.1)
        kong = (ct == 3) & may & live[:, None] if r.exposed_kong else np.zeros_like(may)
        pung = (ct >= 2) & may if r.pung else np.zeros_like(may)
        if r.chow and self._wild_on:  # the next seat: each other tile of the chow from the hand
            near = _NEAR[lt]  # (m, 5) faces lt-2..lt+2
            held = self.hand[R, S[:, :1], near]
            nb = (held > 0) if r.wild_claimable else (held > 0) & (near != wf[:, None])
            nb |= (near == wt[:, None]) & (self.hand[rows, S[:, 0], _WHITE] > 0)[:, None]  # a White plays it
            chow = _CHOW_POS[lt] & may[:, :1]
            chow[:, 0] &= nb[:, 0] & nb[:, 1]
            chow[:, 1] &= nb[:, 1] & nb[:, 3]
            chow[:, 2] &= nb[:, 3] & nb[:, 4]
        elif r.chow:  # the next seat: the discard's neighbours t-2..t+2 held
            nb = self.hand[R, S[:, :1], _NEAR[t]] > 0  # (m, 5)
            chow = _CHOW_POS[t] & may[:, :1]
            chow[:, 0] &= nb[:, 0] & nb[:, 1]
            chow[:, 1] &= nb[:, 1] & nb[:, 3]
            chow[:, 2] &= nb[:, 3] & nb[:, 4]
        else:
            chow = np.zeros((rows.size, 3), dtype=bool)
        win = np.zeros((rows.size, 3), dtype=bool)
        if self._wild_on:  # every seat tested (no gates)
            ga, gb = np.repeat(np.arange(rows.size), 3), np.tile(np.arange(3), rows.size)
            cand = self._wild_candidates(rows[ga], S[ga, gb], t[ga])
            ga, gb = ga[cand], gb[cand]
        else:
            gated = ((self.gate_group[R, S] >> _GROUP[t][:, None]) & 1 > 0) | self.gate_special[R, S]
            ga, gb = np.nonzero(gated)
        if ga.size and not self._wild_on:
            x = self.hand[rows[ga], S[ga, gb]]
            x[np.arange(ga.size), t[ga]] += 1
            cand = self._candidates(x)
            ga, gb = ga[cand], gb[cand]
        synced = -1
        for a, b in zip(ga.tolist(), gb.tolist()):
            i = int(rows[a])
            q = self._quick_win(i, int(S[a, b]), int(t[a]), False)
            if q is None:
                if synced != i:
                    tb = self._sync(i)
                    tb.claim_tile, tb.discarder = int(t[a]), int(d[a])
                    synced = i
                q = tb._score_win(int(S[a, b]), int(t[a]), self_drawn=False, discarder=int(d[a]),
                                  robbing=False) is not None
            win[a, b] = q
        aw = win | kong | pung
        aw[:, 0] |= chow.any(1)
        self.awaiting[rows] = False
        self.awaiting[R, S] = aw
        self.can_win[rows] = False
        self.can_win[R, S] = win
        self.can_pung[R, S] = pung
        self.can_kong[R, S] = kong
        self.chow3[rows] = chow
        self.ans_kind[rows] = -1
        none = ~aw.any(1)
        self.phase[rows[~none]] = CLAIM
        if np.count_nonzero(none):
            nr = rows[none]
            self.kong_chain[nr] = False
            self._draws.append((nr, (d[none] + 1) % 4, np.zeros(nr.size, dtype=bool)))

    def _open_claims_jit(self, rows: np.ndarray) -> None:
        """:meth:`_open_claims` with the compiled loops of :mod:`majiang.rl.step_kernels` (the same
        state afterwards); the gated wins go to the scorer's quick value, else the engine."""
        r = self.rules
        m = rows.size
        kong = np.empty((m, 3), dtype=bool)
        pung = np.empty((m, 3), dtype=bool)
        chow = np.empty((m, 3), dtype=bool)
        gated = np.empty((m, 3), dtype=bool)
        win = np.zeros((m, 3), dtype=bool)
        ngated = step_kernels._claim_options(
            rows, self.origin, self.claim_tile, self.hand, self.head, self.tail, self.reserve, self.n_melds,
            self.sets, int(r.claim_last_discard), int(r.exposed_kong), int(r.pung), int(r.chow), self.gate_group,
            self.gate_special, _GROUP, _CHOW_POS, kong, pung, chow, gated)
        if ngated:
            ga, gb = np.nonzero(gated)
            d = self.origin[rows[ga]]
            t = self.claim_tile[rows[ga]]
            S = (d + 1 + gb) % 4
            cand = step_kernels.candidates(self.hand, rows[ga], S, t, self._shapes, self._gate_tables)
            synced = -1
            for k in cand.nonzero()[0].tolist():
                a, b = int(ga[k]), int(gb[k])
                i = int(rows[a])
                q = self._quick_win(i, int(S[k]), int(t[k]), False)
                if q is None:
                    if synced != i:
                        tb = self._sync(i)
                        tb.claim_tile, tb.discarder = int(t[k]), int(d[k])
                        synced = i
                    q = tb._score_win(int(S[k]), int(t[k]), self_drawn=False, discarder=int(d[k]),
                                      robbing=False) is not None
                win[a, b] = q
        none = np.empty(m, dtype=bool)
        if step_kernels._open_windows(rows, self.origin, win, kong, pung, chow, self.awaiting, self.can_win,
                                      self.can_pung, self.can_kong, self.chow3, self.ans_kind, self.phase,
                                      self.kong_chain, CLAIM, none):
            nr = rows[none]
            self._draws.append((nr, (self.origin[nr] + 1) % 4, np.zeros(nr.size, dtype=bool)))

    # ------------------------------------------------------------------ rare per-row actions
    def _add_meld(self, r, s, kind, tile, offer, claimed, feeder, stand=-1) -> None:
        j = self.n_melds[r, s]
        self.meld_stand[r, s, j] = stand
        self.meld_kind[r, s, j] = kind
        self.meld_tile[r, s, j] = tile
        self.meld_offer[r, s, j] = offer
        self.meld_claimed[r, s, j] = claimed
        self.meld_from[r, s, j] = feeder
        self.n_melds[r, s] = j + 1

    def _turn_rare(self, i: int, s: int, kind: int, t: int) -> None:
        if kind == K_WIN:
            self._finish(i, [(s, None, int(self.last_draw[i, s]), False)])
            return
        if kind == K_CKONG:
            self.hand[i, s, t] -= 4
            self.ckong[i, s, t] += 4
            self._add_meld(i, s, M_CKONG, t, 0, -1, -1)
            self.n_ckong[i, s] += 1
            self.any_claim[i] = True
            self.kong_chain[i] = True
            self._draw_q.append((i, s, True))
            return
        if kind == K_AKONG:
            self.hand[i, s, t] -= 1
            self.meld_vis[i, s, t] += 1
            self.vis[i, t] += 1
            self.pung[i, s, t] = False
            j = int(((self.meld_kind[i, s] == M_PUNG) & (self.meld_tile[i, s] == t)
                                   & (np.arange(self.meld_kind.shape[2]) < self.n_melds[i, s])).nonzero()[0][0])
            self.meld_kind[i, s, j] = M_AKONG  # offer and claimed tile stay the pung's
            self.any_claim[i] = True
            self.claim_tile[i] = t
            self.origin[i] = s
            self.awaiting[i] = False
            self.can_win[i] = False
            self.ans_kind[i] = -1
            if self.rules.rob_kong:
                others = [(s + k) % 4 for k in (1, 2, 3)]
                if self._wild_on:
                    cand = self._wild_candidates(np.full(3, i), np.array(others), np.full(3, t))
                else:
                    x = self.hand[i, others].copy()
                    x[:, t] += 1
                    cand = self._candidates(x)
                if np.count_nonzero(cand):
                    tb = self._sync(i)
                    tb.claim_tile, tb.kong_seat = t, s
                    for k in cand.nonzero()[0]:
                        o = others[k]
                        if tb._score_win(o, t, self_drawn=False, discarder=s, robbing=True) is not None:
                            self.can_win[i, o] = self.awaiting[i, o] = True
            if np.count_nonzero(self.awaiting[i]):
                self.phase[i] = ROB
                self.can_pung[i] = self.can_kong[i] = False
                self.chow3[i] = False
            else:
                self.kong_chain[i] = True
                self._draw_q.append((i, s, True))
            return
        raise ActionIndexError(f"action kind {kind} is not supported by the batched core")  # pragma: no cover

    def _resolve_claims(self, rows: np.ndarray) -> None:
        """Claim windows on ``rows`` whose every awaited seat answered, some with a claim: win > kong
        = pung > chow, ties by turn order from the discarder (``engine.actions.CLAIM_PRIORITY``)."""
        if self._jit_step or self._wild_jit:
            res = np.empty((rows.size, 2), dtype=np.int64)
            step_kernels._claims(rows, self.origin, self.claim_tile, self.ans_kind, self.ans_low, _PRIO, K_WIN,
                                 K_CHOW, K_PUNG, K_EKONG, _MELD_OF_KIND, self.river, self.river_len, self.river_cnt,
                                 self.vis, self.ro, self.any_claim, self.cur, self.phase, self.kong_chain,
                                 self.flower_chain, self.last_draw, self.turn_win, self.hand, self.meld_vis,
                                 self.pung, self.after_claim, self.meld_kind, self.meld_tile, self.meld_offer,
                                 self.meld_claimed, self.meld_from, self.n_melds, TURN, res, self.white_face,
                                 self.meld_stand, self.run_len)
            for a in (res[:, 0] == 1).nonzero()[0].tolist():  # wins: settled by the engine
                i = int(rows[a])
                d = int(self.origin[i])
                winners = [(d + c) % 4 for c in (1, 2, 3) if self.ans_kind[i, (d + c) % 4] == K_WIN]
                if self.rules.multiple_winners == "head-bump":
                    winners = winners[:1]
                self._finish(i, [(w, d, int(self.claim_tile[i]), False) for w in winners])
            ko = (res[:, 0] == 2).nonzero()[0]
            if ko.size:
                self._draws.append((rows[ko], res[ko, 1], np.ones(ko.size, dtype=bool)))
            return
        d = self.origin[rows]
        t = self.claim_tile[rows]
        O = (d[:, None] + np.array([1, 2, 3])) % 4
        K = self.ans_kind[rows[:, None], O]
        key = _PRIO[K + 1] * 3 + np.arange(3)[None, :]
        j = key.argmin(1)
        m = np.arange(rows.size)
        s = O[m, j]
        k = K[m, j]
        win = k == K_WIN
        for a in win.nonzero()[0].tolist():  # wins: settled by the engine
            i = int(rows[a])
            winners = [int(O[a, c]) for c in range(3) if K[a, c] == K_WIN]
            if self.rules.multiple_winners == "head-bump":
                winners = winners[:1]
            self._finish(i, [(w, int(d[a]), int(t[a]), False) for w in winners])
        meld = ~win
        if not np.count_nonzero(meld):
            return
        r, d, t, s, k = rows[meld], d[meld], t[meld], s[meld], k[meld]
        low = self.ans_low[r, s]
        # the claimed tile leaves the discarder's river
        ln = self.river_len[r, d] - 1
        self.river_len[r, d] = ln
        self.river_cnt[r, d, t] -= 1
        self.vis[r, t] -= 1
        idx = ln[:, None] - 1 - _SLOTS[None, :]
        self.ro[r, d] = np.where(idx >= 0, self.river[r[:, None], d[:, None], np.maximum(idx, 0)], -1)
        self.any_claim[r] = True
        self.cur[r] = s
        self.phase[r] = TURN
        self.kong_chain[r] = False
        self.flower_chain[r] = False
        self.last_draw[r, s] = -1
        self.turn_win[r] = False
        self.run_len[r] = 0  # a claim ends the run 被跟 follows
        ch = k == K_CHOW
        claimed, stand = t, -1
        if self._wild_on and np.count_nonzero(ch):
            claimed, stand = t.copy(), np.full(r.size, -1, dtype=np.int64)
            for a in ch.nonzero()[0].tolist():
                claimed[a], stand[a] = self._wild_chow(int(r[a]), int(s[a]), int(t[a]), int(low[a]))
        elif np.count_nonzero(ch):
            rc, sc, tc, lc = r[ch], s[ch], t[ch], low[ch]
            r3, s3 = np.repeat(rc, 3), np.repeat(sc, 3)
            x3 = (lc[:, None] + _ARANGE3).reshape(-1)
            self.meld_vis[r3, s3, x3] += 1
            self.vis[r3, x3] += 1
            self.hand[r3, s3, x3] -= (x3 != np.repeat(tc, 3))
        pu = k == K_PUNG
        if np.count_nonzero(pu):
            self.hand[r[pu], s[pu], t[pu]] -= 2
            self.meld_vis[r[pu], s[pu], t[pu]] += 3
            self.vis[r[pu], t[pu]] += 3
            self.pung[r[pu], s[pu], t[pu]] = True
        ko = k == K_EKONG
        if np.count_nonzero(ko):
            self.hand[r[ko], s[ko], t[ko]] -= 3
            self.meld_vis[r[ko], s[ko], t[ko]] += 4
            self.vis[r[ko], t[ko]] += 4
            self.kong_chain[r[ko]] = True
            self._draws.append((r[ko], s[ko], np.ones(int(ko.sum()), dtype=bool)))
        self.after_claim[r] = ~ko
        self._add_meld(r, s, _MELD_OF_KIND[k], np.where(ch, low, t), np.where(ch, 1, (s - d) % 4), claimed, d, stand)

    def _wild_chow(self, i: int, s: int, t: int, low: int) -> tuple[int, int]:
        """Seat ``s`` of row ``i`` chows ``low``.. on the discard ``t`` under wildcards: the discarded
        White plays the wildcard's face, and a held White supplies that face before a wildcard of it
        (白板代, RULES.md §2.1, §4.2; ``engine.actions.chow_consumed``). Moves the physical tiles and
        returns the meld's ``(claimed face, face a White stands in for or -1)``, as ``HandTable``
        records the chow."""
        wt = int(self.white_face[i])
        lt = wt if (t == _WHITE and wt >= 0) else t
        c = self.hand[i, s]
        white_held = int(c[_WHITE])
        used = []
        for x in (low, low + 1, low + 2):
            if x == lt:
                continue
            used.append(_WHITE if (x == wt and white_held) else x)
        stand = lt if lt != t else -1
        if _WHITE in used:
            stand = wt
        for x in used:
            self.hand[i, s, x] -= 1
            self.meld_vis[i, s, x] += 1
            self.vis[i, x] += 1
        self.meld_vis[i, s, t] += 1
        self.vis[i, t] += 1
        return lt, stand

    def _resolve_rob(self, i: int) -> None:
        s = int(self.origin[i])
        t = int(self.claim_tile[i])
        winners = [(s + k) % 4 for k in (1, 2, 3) if self.ans_kind[i, (s + k) % 4] == K_WIN]
        if winners:
            if self.rules.multiple_winners == "head-bump":
                winners = winners[:1]
            self._finish(i, [(w, s, t, True) for w in winners])
            return
        self.kong_chain[i] = True
        self._draw_q.append((i, s, True))

    def _penalty(self, rows: np.ndarray, payer: np.ndarray, points: int) -> None:
        """``payer`` pays each other seat ``points`` at once on ``rows`` (``HandTable._penalty``); the
        sums are paid with the hand's result (no reward before the hand ends, as on the engine path)."""
        self.penalties[rows] += points
        self.penalties[rows, payer] -= 4 * points

    def _discard_penalties(self, rows: np.ndarray, seats: np.ndarray, t: np.ndarray) -> None:
        """The penalties a discard may set off (RULES.md §4.6): 被跟 (``followed_penalty``) -- the run of
        discards in turn order of one face since the last claim; when the three other seats have
        followed a seat's face, that seat pays (``HandTable._note_discard``) -- and 误打财神
        (``wild_discard_penalty``): a wildcard discarded, which happens only when the hand holds
        nothing else (``wild_discardable`` off)."""
        r = self.rules
        if r.followed_penalty:
            n = self.run_len[rows]
            go = (n > 0) & (self.run_tile[rows] == t) & ((self.run_first[rows] + n - 1) % 4 == (seats - 1) % 4)
            n = np.where(go, n + 1, 1)
            first = np.where(go, self.run_first[rows], seats)
            full = n == 4
            if np.count_nonzero(full):
                self._penalty(rows[full], first[full], r.followed_penalty)
                n[full] = 0
            self.run_len[rows] = n
            self.run_first[rows] = first
            self.run_tile[rows] = t
        if r.wild_discard_penalty:
            w = t == self.wild[rows]
            if np.count_nonzero(w):
                self._penalty(rows[w], seats[w], r.wild_discard_penalty)

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray, skip: bool = False) -> np.ndarray:
        """Apply one layout index per row for :attr:`seat`. Every index is checked against
        :attr:`mask` first (an illegal one raises :class:`~majiang.rl.actions.ActionIndexError`
        naming the row, and no row changes). Returns rewards ``(n, 4)``; rows whose hand ended are
        marked in :attr:`done`, their settlement in :attr:`deltas` (call :meth:`reset_row` next).
        ``skip``: an index -1 leaves its row unchanged (the learner's rows while the bots play;
        compiled step only, :attr:`can_skip`)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        n = self.n
        if acts.shape[0] != n:
            raise ActionIndexError(f"need {n} actions, got {acts.shape[0]}")
        if skip:
            if not self.can_skip:
                raise MajiangError("skipping rows needs the compiled step (no wildcards, numba)")
        elif (acts == -1).any():
            i = int((acts == -1).nonzero()[0][0])
            raise ActionIndexError(f"table {i}: action index -1 outside 0-{ACTION_SIZE - 1}")
        if self._jit_step:
            return self._step_compiled(acts)
        if self._wild_jit:
            return self._step_compiled_wild(acts)
        if np.count_nonzero((acts < 0) | (acts >= ACTION_SIZE)):
            i = int(((acts < 0) | (acts >= ACTION_SIZE)).nonzero()[0][0])
            raise ActionIndexError(f"table {i}: action index {int(acts[i])} outside 0-{ACTION_SIZE - 1}")
        bad = self.mask[self._rows, acts] == 0
        if np.count_nonzero(bad):
            i = int(bad.nonzero()[0][0])
            a = int(acts[i])
            legal = self.mask[i].nonzero()[0]
            raise ActionIndexError(f"table {i}: seat {int(self.seat[i])} cannot {describe_index(a)} (index {a}) now; "
                                   "legal: " + ", ".join(f"{x} {describe_index(int(x))}" for x in legal))
        seat = self.seat
        if self._log_n.max() >= self._log.shape[1]:
            self._log = np.concatenate([self._log, np.zeros_like(self._log)], axis=1)
        self._log[self._rows, self._log_n] = seat * 1000 + acts
        self._log_n += 1
        kind = _KIND[acts]
        tile = _TILE[acts]
        self.done[:] = False
        ph = self.phase.copy()
        turn = ph == TURN
        # the hot path: discards
        dr = (turn & (kind == K_DISCARD)).nonzero()[0]
        if dr.size:
            s = self.cur[dr]
            t = tile[dr]
            self.hand[dr, s, t] -= 1
            ln = self.river_len[dr, s]
            self.river[dr, s, ln] = t
            self.river_len[dr, s] = ln + 1
            self.river_cnt[dr, s, t] += 1
            self.vis[dr, t] += 1
            self.ro[dr, s, 1:] = self.ro[dr, s, :-1]
            self.ro[dr, s, 0] = t
            self.discards_made[dr, s] += 1
            self.after_claim[dr] = False
            self.kong_chain[dr] = False
            self.claim_tile[dr] = t
            self.origin[dr] = s
            self.last_discard[dr] = (self.tail[dr] - self.head[dr] - self.reserve) <= 0
            self._set_gates(dr, s)
            if self._wild_on:
                self._discard_penalties(dr, s, t)
        # answers in claim and robbing windows
        wr = (~turn).nonzero()[0]
        resolve: list[int] = []
        self._draws = []
        if wr.size:
            s = seat[wr]
            self.ans_kind[wr, s] = kind[wr]
            self.ans_low[wr, s] = _LOW[acts[wr]]
            self.awaiting[wr, s] = False
            complete = ~self.awaiting[wr].any(1)
            cw = wr[complete]
            if cw.size:
                allpass = (self.ans_kind[cw] <= K_PASS).all(1) & (ph[cw] == CLAIM)
                resolve = cw[~allpass].tolist()
                pr = cw[allpass]
                if pr.size:
                    self.after_claim[pr] = False
                    self.kong_chain[pr] = False
                    self._draws.append((pr, (self.origin[pr] + 1) % 4, np.zeros(pr.size, dtype=bool)))
        self._draw_q = []
        for i in (turn & (kind != K_DISCARD)).nonzero()[0].tolist():
            self._turn_rare(i, int(self.cur[i]), int(kind[i]), int(tile[i]))
        if resolve:
            rr = np.array(resolve, dtype=np.int64)
            rc = rr[ph[rr] == CLAIM]
            if rc.size:
                self._resolve_claims(rc)
            for i in rr[ph[rr] == ROB].tolist():
                self._resolve_rob(i)
        if dr.size:
            self._open_claims(dr)
        if self._draw_q:
            q = np.array(self._draw_q, dtype=np.int64)
            self._draws.append((q[:, 0], q[:, 1], q[:, 2].astype(bool)))
        if self._draws:  # one draw for every row that draws this step
            if len(self._draws) == 1:
                self._draw(*self._draws[0])
            else:
                self._draw(*(np.concatenate(z) for z in zip(*self._draws)))
        rewards = np.zeros((n, 4), dtype=np.float64)
        if np.count_nonzero(self.done):
            rewards[self.done] = self.deltas[self.done] / self.reward_scale
        return rewards

    def _step_compiled(self, acts: np.ndarray) -> np.ndarray:
        """:meth:`step` with the common step in one compiled loop (``step_kernels._step``); what it
        leaves (turn actions other than discards, windows to resolve, gated wins, the win test and
        flowers of its draws) goes through the same code as the numpy path."""
        status, err = self._status, self._err
        while True:
            args = self.step_args()
            busy = step_kernels._step(acts, self.mask, self.seat, _KIND, _TILE, _LOW, self._consts, self._log, *args)
            if busy >= 0:
                break
            self._refused(acts, err)
        if busy:
            busy = self.follow_ups(acts)
        if busy:
            self._after_compiled(acts, status)
        return self._rewards()

    def follow_ups(self, acts: np.ndarray) -> int:
        """What ``step_kernels._step`` left on the rows it stepped with ``acts``, done in compiled code
        where it can (``step_kernels._follow_ups``: claims made, flowers set aside, wins the scorer's
        compiled quick value tells); returns how many rows still have work for
        :meth:`_after_compiled` or ended."""
        busy = step_kernels._follow_ups(acts, self._qfunc is not None, self._qargs, self._cargs, self.step_args(),
                                        self._consts, self._dirty)
        self.sync_flowers()
        return busy

    def sync_flowers(self) -> None:
        """Copy the flowers compiled code set aside (rows marked in ``_dirty``) to the lists the engine reads."""
        d = self._dirty
        if d.any():
            for i in np.flatnonzero(d).tolist():
                self.flowers[i] = [self.flower_tiles[i, s, :self.flower_n[i, s]].tolist() for s in range(4)]
            d.fill(0)

    def step_args(self) -> tuple:
        """The state arrays ``step_kernels._step`` reads and writes after its first eight arguments
        (``acts, mask, seat, kinds, tiles, lows, consts, log``): made once (the arrays are never
        rebound), ending with the status and error arrays."""
        args = self._step_args
        if args is None:
            args = self._step_args = (
                self._log_n, self.phase, self.cur, self.hand, self.river, self.river_len, self.river_cnt,
                self.vis, self.ro, self.discards_made, self._flags, self.claim_tile, self.origin, self.head,
                self.tail, self.n_melds, self.gate_group, self.gate_special, *self._gate_tables, _GROUP,
                _CHOW_POS, self.awaiting, self.can_win, self.can_pung, self.can_kong, self.chow3, self.ans_kind,
                self.ans_low, self.wall, self.deltas, self.last_draw, self.turn_win, self.flower_tiles,
                self.flower_n, self._status, self._err)
        return args

    def mask_args(self) -> tuple[tuple, tuple]:
        """``step_kernels._masks``' arguments before and after its ``seat, mask`` pair."""
        r = self.rules
        return ((self.phase, self.cur, self.origin, self.awaiting, self.hand, self.after_claim, self.head,
                 self.tail, self.reserve, self.turn_win, int(r.concealed_kong), int(r.added_kong),
                 int(r.added_kong_drawn_only), self.pung, self.last_draw, self.claim_tile,
                 self.can_win, self.can_pung, self.can_kong, self.chow3, _TILES, _COL, _CHOW_IDX,
                 _MASK_BASES, TURN, CLAIM, ROB),
                (self.wild, self.white_face, int(r.wild_discardable), int(r.wild_claimable)))

    def _rewards(self) -> np.ndarray:
        """``(n, 4)`` rewards of a step: the settlement of the rows whose hand ended, scaled."""
        rewards = np.zeros((self.n, 4), dtype=np.float64)
        if np.count_nonzero(self.done):
            rewards[self.done] = self.deltas[self.done] / self.reward_scale
        return rewards

    def _refused(self, acts: np.ndarray, err: np.ndarray) -> None:
        """A compiled step refused the batch (``err`` = kind, row): an illegal index raises
        :class:`~majiang.rl.actions.ActionIndexError` naming the row; a full log is doubled (the caller
        steps again)."""
        i = int(err[1])
        a = int(acts[i])
        if err[0] == 1:
            raise ActionIndexError(f"table {i}: action index {a} outside 0-{ACTION_SIZE - 1}")
        if err[0] == 2:
            legal = self.mask[i].nonzero()[0]
            raise ActionIndexError(f"table {i}: seat {int(self.seat[i])} cannot {describe_index(a)} (index {a}) "
                                   "now; legal: " + ", ".join(f"{x} {describe_index(int(x))}" for x in legal))
        self._log = np.concatenate([self._log, np.zeros_like(self._log)], axis=1)  # the log is full: grow it

    def _step_compiled_wild(self, acts: np.ndarray) -> np.ndarray:
        """:meth:`step` for the wildcard rule sets with the common step in one compiled loop
        (``step_kernels._step_wild``: a discard with its penalties and its claim window, or the window's
        answers, and the next draw, each hand tested whole for a win); what it leaves goes through the
        numpy path's code (:meth:`_after_compiled_wild`)."""
        status, err = self._status, self._err
        while True:
            args = self._step_args
            if args is None:  # the state arrays the loop reads and writes (never rebound) but the log
                args = self._step_args = (
                    self.phase, self.cur, self.hand, self.river, self.river_len, self.river_cnt, self.vis, self.ro,
                    self.discards_made, self._flags, self.claim_tile, self.origin, self.head, self.tail, self.n_melds,
                    _CHOW_POS, self.awaiting, self.can_win, self.can_pung, self.can_kong, self.chow3, self.ans_kind,
                    self.ans_low, self.wall, self.deltas, self.last_draw, self.turn_win, self.wild, self.white_face,
                    self.penalties, self.run_first, self.run_tile, self.run_len, *kernels._Tables.get(),
                    kernels._Tables.free(), status, err)
            busy = step_kernels._step_wild(acts, self.mask, self.seat, _KIND, _TILE, _LOW, self._consts, self._wconsts,
                                           self._log, self._log_n, *args)
            if busy >= 0:
                break
            self._refused(acts, err)
        if busy:
            self._after_compiled_wild(acts, status)
        return self._rewards()

    def _after_compiled_wild(self, acts: np.ndarray, status: np.ndarray) -> None:
        """The rows :meth:`_step_compiled_wild`'s loop left work on: other turn actions, windows to
        resolve, discards some seat may win on (the window opened here), complete drawn hands (the
        engine decides the self-drawn win)."""
        self._left_over(acts, status)
        for i in (((status >> 3) & 3) == 1).nonzero()[0].tolist():  # a complete hand drawn
            seat = int(self.cur[i])
            self.turn_win[i] = self._sync(i)._score_win(seat, int(self.last_draw[i, seat]), self_drawn=True,
                                                        discarder=None, robbing=False) is not None
        self._queued_draws()

    def _left_over(self, acts: np.ndarray, status: np.ndarray) -> None:
        """The work a compiled step left on its rows (``status`` bits 1, 2, 4): turn actions other
        than a discard, windows to resolve, discards whose window the engine opens."""
        self._draws = []
        self._draw_q = []
        for i in ((status & 1) != 0).nonzero()[0].tolist():
            self._turn_rare(i, int(self.cur[i]), int(_KIND[acts[i]]), int(_TILE[acts[i]]))
        rr = ((status & 2) != 0).nonzero()[0]
        if rr.size:
            rc = rr[self.phase[rr] == CLAIM]
            if rc.size:
                self._resolve_claims(rc)
            for i in rr[self.phase[rr] == ROB].tolist():
                self._resolve_rob(i)
        gr = ((status & 4) != 0).nonzero()[0]
        if gr.size:
            self._open_claims(gr)

    def _queued_draws(self) -> None:
        """One draw for every row that queued one (kongs' replacements, windows everyone passed)."""
        if self._draw_q:
            q = np.array(self._draw_q, dtype=np.int64)
            self._draws.append((q[:, 0], q[:, 1], q[:, 2].astype(bool)))
        if self._draws:
            if len(self._draws) == 1:
                self._draw(*self._draws[0])
            else:
                self._draw(*(np.concatenate(z) for z in zip(*self._draws)))

    def _after_compiled(self, acts: np.ndarray, status: np.ndarray) -> None:
        """The rows :meth:`_step_compiled`'s loop left work on (see ``step_kernels._step``)."""
        self._left_over(acts, status)
        ds = (status >> 3) & 7
        for i in ((ds & 4) != 0).nonzero()[0].tolist():  # flowers set aside by the draw: the engine's lists
            s = self._drawer(i, int(status[i]))
            self.flowers[i][s] = self.flower_tiles[i, s, :self.flower_n[i, s]].tolist()
        for i in ((ds & 3) == 3).nonzero()[0].tolist():  # a flower that may win (flower_wins)
            self._flower_win(i, self._drawer(i, int(status[i])))
        test = ((ds & 3) == 1).nonzero()[0]
        if test.size:  # the win gate admits the draw: the shape test, then the engine
            s = self.cur[test]
            cand = step_kernels.candidates(self.hand, test, s, None, self._shapes, self._gate_tables)
            for k in cand.nonzero()[0].tolist():
                i, seat = int(test[k]), int(s[k])
                self.turn_win[i] = self._drawn_win(i, seat, int(self.last_draw[i, seat]))
        self._queued_draws()

    def _drawer(self, i: int, st: int) -> int:
        """The seat whose draw left status ``st`` on row ``i``: told by the compiled follow-ups
        (``st >> 6``, the seat plus one: an exposed kong's replacement), else the discarder's next
        seat (the step's own draw after a discard)."""
        k = st >> 6
        return k - 1 if k else (int(self.origin[i]) + 1) % 4

    @property
    def can_skip(self) -> bool:
        """Whether :meth:`step` may leave rows unchanged (``skip``): the compiled step of the rule
        sets without wildcards."""
        return self._jit_step

    # ------------------------------------------------------------------ masks and observations
    def fill_masks(self) -> None:
        """:meth:`fill` without the observations: :attr:`seat` and :attr:`mask` of every live row
        (compiled step only, :attr:`can_skip`)."""
        n = self.n
        mask = np.zeros((n, ACTION_SIZE), dtype=np.int8)
        self.seat = self._compiled_masks(np.zeros(n, dtype=np.int64), mask)
        self.mask = mask

    def _compiled_masks(self, seat: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The compiled mask loop: fills ``seat`` (the seat to act per row) and ``mask``; returns ``seat``."""
        pre, post = self.mask_args()
        step_kernels._masks(*pre, seat, mask, *post)
        return seat

    def fill(self) -> tuple[np.ndarray, np.ndarray]:
        """Compute :attr:`seat` (the seat to act on each live row) and return new arrays: the
        observations ``(n, C, 34)`` float32 and the masks ``(n, 269)`` int8 of those seats (the core
        keeps its own copy of the masks to check the next actions)."""
        n = self.n
        obs = np.zeros((n, *self.encoder.shape), dtype=np.float32)
        mask = np.zeros((n, ACTION_SIZE), dtype=np.int8)
        ph = self.phase
        if self._jit_step or self._wild_jit:  # the masks and the fused observation in compiled loops
            seat = self._compiled_masks(np.empty(n, dtype=np.int64), mask)
            self.seat = seat
            if self._jit_obs is None:
                self._jit_obs = self._jit and (not self.encoder.analysis or self._wild_on
                                               or bool(self.encoder._kernel_flags()))
            if self._jit_obs:
                self._observe_compiled(obs, seat)
            elif self.encoder.name == "botzone-v0":
                step_kernels._observe_botzone(obs, seat, self.hand, self.dealer, self.prevalent)
            else:
                self._observe(obs, seat, self._rows, ((ph == CLAIM) | (ph == ROB)).nonzero()[0])
            self.mask = mask.copy()
            return obs, mask
        seat = self.cur.copy()
        win_rows = ((ph == CLAIM) | (ph == ROB)).nonzero()[0]
        if win_rows.size:
            o = self.origin[win_rows]
            S = (o[:, None] + np.array([1, 2, 3])) % 4
            aw = self.awaiting[win_rows[:, None], S]
            seat[win_rows] = S[np.arange(win_rows.size), aw.argmax(1)]
        self.seat = seat
        rows = self._rows
        tr = (ph == TURN).nonzero()[0]
        if tr.size:
            s = seat[tr]
            h = self.hand[tr, s][:, _TILES]  # layout order
            held = h > 0
            free = ~self.after_claim[tr]
            live = (self.tail[tr] - self.head[tr] - self.reserve) > 0
            mask[tr, 1] = self.turn_win[tr] & free
            kf = (free & live)[:, None]
            if self._wild_on:  # wildcards (RULES.md §4.2): not discarded (unless nothing else is held), not konged
                notw = _TILES[None, :] != self.wild[tr][:, None]
                if not self.rules.wild_discardable:
                    held = np.where((held & notw).any(1)[:, None], held & notw, held)
                if not self.rules.wild_claimable:
                    kf = kf & notw
            mask[tr, DISCARD_BASE:DISCARD_BASE + 34] = held
            if self.rules.concealed_kong:
                mask[tr, CONCEALED_KONG_BASE:CONCEALED_KONG_BASE + 34] = (h == 4) & kf
            if self.rules.added_kong:
                p = self.pung[tr, s][:, _TILES] & (h >= 1) & kf
                if self.rules.added_kong_drawn_only:
                    ld = self.last_draw[tr, s]
                    p &= (_TILES[None, :] == ld[:, None])
                mask[tr, ADDED_KONG_BASE:ADDED_KONG_BASE + 34] = p
        if win_rows.size:  # claim and robbing windows: pass, win, pung, kong, chows -- one scatter
            s = seat[win_rows]
            t = self.claim_tile[win_rows]
            base = win_rows * ACTION_SIZE
            col = _COL[t]
            parts = [base, base[self.can_win[win_rows, s]] + 1]
            cp = self.can_pung[win_rows, s]
            parts.append((base + PUNG_BASE + col)[cp])
            ck = self.can_kong[win_rows, s]
            parts.append((base + EXPOSED_KONG_BASE + col)[ck])
            nxt = (s == (self.origin[win_rows] + 1) % 4) & (ph[win_rows] == CLAIM)
            a, b = np.nonzero(self.chow3[win_rows] & nxt[:, None])
            if self._wild_on:  # a discarded White chowed as the face it plays: the index names the faces
                wt = self.white_face[win_rows]
                t = np.where((t == _WHITE) & (wt >= 0), wt, t)
            parts.append(base[a] + _CHOW_IDX[t[a], b])
            mask.reshape(-1)[np.concatenate(parts)] = 1
        self._observe(obs, seat, rows, win_rows)
        self.mask = mask.copy()
        return obs, mask

    def _observe_compiled(self, out: np.ndarray, me: np.ndarray) -> None:
        """:meth:`_observe` for ``majiang-v1`` in one compiled loop (``step_kernels._observe``); a row
        the analysis kernel leaves (:func:`majiang.rl.kernels.analyse_rows`) gets the Python analysis."""
        enc = self.encoder
        args = self._obs_args
        if args is None:  # the state arrays and constants the loop reads (never rebound)
            o = enc.offsets
            if enc.analysis and not self._wild_on:
                flags = enc._kernel_flags()
                su, hu = kernels._Tables.get()
                isu, ihu = kernels._Tables.draws()
            else:
                flags = (0, 0, 0, 0, 0)
                su = hu = self._no_tables
                isu = ihu = np.zeros((1, 12), dtype=np.int16)
            args = self._obs_args = (
                self._offs, self.hand, self.meld_vis, self.ckong, self.n_ckong, self.river_cnt, self.flower_n,
                self.head, self.tail, self.reserve, self.total_tiles, self.last_draw, self.ro, self.phase,
                self.prevalent, self.dealer, self.claim_tile, self.origin, self.vis, o["unseen"][0],
                int(enc.analysis and not self._wild_on),
                o["shanten"][0], *flags, su, hu, isu, ihu, o["oracle_hands"][0] if enc.oracle else -1, self._counts8,
                self._unseen8, self._turn8, self._skipped)
        skipped = self._skipped
        if step_kernels._observe(out, me, *args):
            phases = ("turn", "claim", "rob", "end")
            for i in skipped.nonzero()[0].tolist():
                enc._analyse(out[i], phases[self.phase[i]], None, self._counts8[i].tolist(),
                             self._unseen8[i].tolist())
            skipped.fill(0)
        if self._wild_on:  # the wildcard planes, then each hand's analysis read with its wildcard face
            self._observe_wild(out)
            if enc.analysis:
                self._analyse_wild(out, self._counts8, self._unseen8, self._turn8)

    def _observe(self, out: np.ndarray, me: np.ndarray, rows: np.ndarray, win: np.ndarray) -> None:
        """Write each row's observation for seat ``me`` into ``out`` (zeros), as
        :meth:`majiang.rl.observations.Encoder.encode` lays it out; ``win``: the rows in a claim or
        robbing window. With numba, ``majiang-v1``'s planes are written by compiled loops
        (:func:`majiang.rl.kernels.table_planes`, ``thermo_rows``); :meth:`_observe_numpy` writes the
        same numbers otherwise (a test compares the two)."""
        enc = self.encoder
        counts = self.hand[rows, me]  # (n, 34) our order
        if enc.name == "botzone-v0":
            sw = (me - self.dealer) % 4  # the seat wind, 0 = East
            rowbase = self._rowbase
            out.reshape(-1)[np.concatenate([rowbase + _COL[27 + sw], rowbase + 34 + _COL[self.prevalent]])] = 1.0
            out[:, 2:6] = counts[:, None, _TILES] > _AR4[None, :, None]
            return
        o = enc.offsets
        ph = self.phase
        if self._jit:
            kernels.table_planes(out, me, self._offs, self.hand, self.meld_vis, self.ckong, self.n_ckong,
                                 self.river_cnt, self.flower_n, self.tail - self.head - self.reserve,
                                 self.total_tiles, self.last_draw, self.ro, ph, self.prevalent, self.dealer,
                                 self.claim_tile, self.origin)
            unseen = 4 - counts - self.vis
            if np.count_nonzero(self.n_ckong):
                unseen -= self.ckong[rows, me]
            np.maximum(unseen, 0, out=unseen)
            kernels.thermo_rows(out, o["unseen"][0], unseen)
        else:
            unseen = self._observe_numpy(out, me, rows, win, counts)
        if self._wild_on:
            self._observe_wild(out)
        if enc.analysis and self._wild_on:  # each row's hand read with its wildcard face
            self._analyse_wild(out, counts, unseen, (ph == TURN).astype(np.int64))
        elif enc.analysis:
            flags = enc._kernel_flags()
            if flags:  # all rows in compiled code (majiang.rl.kernels); the Python path for any it skips
                todo = (kernels.analyse_rows(counts, ph == TURN, unseen, out, o["shanten"][0], flags)).nonzero()[0]
            else:
                todo = range(self.n)
            phases = ("turn", "claim", "rob", "end")
            for i in todo:
                enc._analyse(out[i], phases[ph[i]], None, counts[i].tolist(), unseen[i].tolist())
        if enc.oracle:
            q0 = o["oracle_hands"][0]
            oh = self.hand[self._R, _REL[me][:, 1:]]  # (n, 3, 34)
            if self._jit:
                kernels.thermo_rows(out, q0, oh)
            else:
                out[:, q0:q0 + 12] = (oh[:, :, None, _TILES] > _AR4[None, None, :, None]).reshape(self.n, 12, 34)

    def _analyse_wild(self, out: np.ndarray, counts: np.ndarray, unseen: np.ndarray, turn: np.ndarray) -> None:
        """The analysis planes of the wildcard rule sets: every row's hand (``counts``, ``unseen``: the
        seat's counts) read with its wildcard face, as ``Encoder._analyse`` reads it -- all rows in one
        compiled loop (``step_kernels._wild_rows``, the loop of ``kernels.analyse_wild_one``), else
        (no numba, or a row the kernel leaves) the encoder's own per row."""
        enc = self.encoder
        todo = range(self.n)
        args = self._wild_an
        if args is None:  # the constants of the compiled loop (False: the encoder's path)
            wflags = enc._wild_flags() if self._wkern else False
            args = self._wild_an = (enc.offsets["shanten"][0], self.wild, int(self.rules.white_stand_in), *wflags,
                                    *kernels._Tables.get(), kernels._Tables.free(),
                                    np.zeros(self.n, dtype=np.uint8)) if wflags else False
        if args and (self.wild >= 0).all():
            skipped = args[-1]
            if step_kernels._wild_rows(counts, turn, unseen, out, *args):
                todo = skipped.nonzero()[0].tolist()
                skipped.fill(0)
            else:
                todo = ()
        if len(todo):
            phases = ("turn", "claim", "rob", "end")
            ph = self.phase
            wl = self.wild.tolist()
            cl, ul = counts.tolist(), unseen.tolist()
            for i in todo:
                enc._analyse(out[i], phases[ph[i]], None if wl[i] < 0 else wl[i], cl[i], ul[i])

    def _observe_wild(self, out: np.ndarray) -> None:
        """The wildcard planes of ``majiang-v1`` (RULES.md §4.2, §2.1): the wildcard's face, the face a
        White plays (白板代) and the indicator turned up, one-hot (``Encoder.encode``); the indicator
        is counted among the tiles every seat sees (in :attr:`vis` from the deal)."""
        o = self.encoder.offsets
        if self._wkern:
            step_kernels._wild_planes(out, self.wild, self.white_face, self.indicator, o["wild_face"][0],
                                      o["white_face"][0], o["indicator"][0])
            return
        flat = out.reshape(-1)
        rb = self._rowbase
        parts = []
        for name, v in (("wild_face", self.wild), ("white_face", self.white_face), ("indicator", self.indicator)):
            k = v >= 0
            parts.append(rb[k] + o[name][0] * 34 + _COL[v[k]])
        flat[np.concatenate(parts)] = 1.0

    def _observe_numpy(self, out: np.ndarray, me: np.ndarray, rows: np.ndarray, win: np.ndarray,
                       counts: np.ndarray) -> np.ndarray:
        """:meth:`_observe`'s table planes (all but the analysis and oracle planes) in numpy; returns
        the unseen counts ``(n, 34)``."""
        n = self.n
        o = self.encoder.offsets
        ar = _AR4
        flat = out.reshape(-1)
        planes = out.reshape(-1, 34)
        rowbase = self._rowbase
        sw = (me - self.dealer) % 4  # the seat wind, 0 = East
        rel = _REL[me]  # (n, 4) absolute seat of relative seat r
        R = self._R
        out[:, 0:4] = counts[:, None, _TILES] > ar[None, :, None]
        mv = self.meld_vis[R, rel]  # (n, 4, 34)
        any_ck = np.count_nonzero(self.n_ckong) > 0
        if any_ck:
            own_ck = self.ckong[rows, me]
            mv[:, 0] += own_ck
        m0 = o["melds"][0]
        out[:, m0:m0 + 16] = (mv[:, :, None, _TILES] > ar[None, None, :, None]).reshape(n, 16, 34)
        if any_ck:
            hk = self.n_ckong[R, rel].astype(np.float32)
            hk[:, 0] = 0.0
            h0 = o["hidden_kongs"][0]
            out[:, h0:h0 + 4] = (hk / 4.0)[:, :, None]
        rc = self.river_cnt[R, rel]
        r0 = o["rivers"][0]
        out[:, r0:r0 + 16] = (rc[:, :, None, _TILES] > ar[None, None, :, None]).reshape(n, 16, 34)
        f0 = o["flowers"][0]
        out[:, f0:f0 + 4] = (self.flower_n[R, rel] / 8.0)[:, :, None]
        live = self.tail - self.head - self.reserve
        out[:, o["wall"][0]] = (live / self.total_tiles)[:, None]
        # one-hot cells, all at once
        ld = self.last_draw[rows, me]
        has = ld >= 0
        ro = self.ro[R, rel]  # (n, 4, 8) latest discards, -1 past the river's start
        ph = self.phase
        flat[np.concatenate([
            rowbase[has] + o["last_draw"][0] * 34 + _COL[ld[has]],
            (self._ro_base + _COL[ro])[ro >= 0],
            rowbase + o["prevalent_wind"][0] * 34 + _COL[self.prevalent],
            rowbase + o["seat_wind"][0] * 34 + _COL[27 + sw],
            rowbase[win] + o["claim_tile"][0] * 34 + _COL[self.claim_tile[win]],
        ])] = 1.0
        # whole planes of ones
        C = out.shape[1]
        rows_c = self._rows_c
        if np.count_nonzero(ph == END):  # only when the core is driven without resets (never by VectorEnv)
            live_rows = (ph < END).nonzero()[0]
            phase_rows = live_rows * C + o["phase"][0] + ph[live_rows]
        else:
            phase_rows = rows_c + o["phase"][0] + ph
        planes[np.concatenate([
            rows_c + o["dealer"][0] + (-sw) % 4,
            phase_rows,
            win * C + o["offered_by"][0] + (self.origin[win] - me[win]) % 4,
        ])] = 1.0
        unseen = 4 - counts - self.vis
        if any_ck:
            unseen -= own_ck
        np.maximum(unseen, 0, out=unseen)
        u0 = o["unseen"][0]
        out[:, u0:u0 + 4] = unseen[:, None, _TILES] > ar[None, :, None]
        return unseen

__all__ = ["BatchedCore", "shape_candidates", "standard_wins", "suit_tables", "supports", "unsupported",
           "win_gates"]
