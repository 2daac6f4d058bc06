"""The MCR scorer's compiled path (numba): a hand scored in one call.

:func:`score_hand` takes a hand as plain numbers and returns its best arrangement's counted fans,
total and concealed groups (or shape); :func:`majiang.rules.mcr.scoring.score` turns them into the
same :class:`~majiang.rules.mcr.scoring.McrResult` as its Python path. The procedure is the plain
definition of :mod:`majiang.rules.mcr.fans`, written over arrays:

1. check the hand (sizes, counts, conditions the hand's tiles make impossible); anything wrong
   goes back to the Python path (status :data:`PYTHON`), which raises the error it names;
2. enumerate every standard decomposition of the concealed part plus the winning tile (a pair, a
   choice of pungs, the rest as chows in the one way they go), each once, its sets sorted by tile,
   pung first;
3. per arrangement (declared melds in meld order, then the concealed groups sorted as
   ``(kind, tiles)``: chows, the pair, pungs) detect the fans of ``fans.detect`` with the units'
   indices as their sets, and select them as ``fans.select`` does (order by points, number and
   sets; 不计, excludes-same-sets, excludes-one, account-once by union-find);
4. add the special shapes where the tiles form them: 组合龙 (a whole knitted arrangement and a
   standard rest), 七对, 全不靠 / 七星不靠, 十三幺;
5. keep the highest total, ties to the arrangement first in ``scoring._tie_key`` order (the
   standard shape, 组合龙, 七对, 全不靠, 十三幺; within a shape more chows, then the sets sorted by
   tile, pung first).

The wait fans need a unique wait (trap MCR-01): the tiles completing the concealed part before the
win are counted from each tile group's code (sets only, sets and a pair, neither) and, where they
may (``scoring._special_possible``), the special shapes, with ``McrOptions.fifth_copy_waits`` as
the Python path reads it.

The functions are plain Python that numba compiles (``njit(cache=True)``, :func:`available`); the
Python definitions stay the reference, and ``tests/rules/test_mcr_compiled.py`` compares the two.
"""

from __future__ import annotations

import numpy as np

from majiang.rules.mcr import fans as F
from majiang.rules.mcr import fast as FP

_KERNELS = ("_suit_code", "_honor_code", "_group_code", "_completes", "_special_possible", "_knitted_possible",
            "_seven_pairs_with", "_orphans_with", "_honors_knitted_with", "_knitted_with",
            "_knitted_fans", "_special_fans", "_tile_set_fans", "_condition_fans", "_concealment_wait_select", "_enumerate",
            "_select", "_add", "_sorted_ranks", "_suit_spread", "_chow_fans", "_pung_fans", "_combos", "_arrangement", "_unique_wait",
            "score_hand")
_STATE: list[bool] = []

OK, PYTHON, NOT_WINNING = 0, 1, 2
"""Statuses of :func:`score_hand`: scored; left to the Python path (to refuse, or past the kernel's
limits); no winning shape at all."""

CHOW_MELD, PUNG_MELD, CONCEALED_KONG_MELD, MELDED_KONG_MELD = 0, 1, 2, 3
"""Meld kinds in the packed melds (8 bits a meld: kind << 6 | tile, the first meld lowest;
``scoring._pack_melds`` packs them)."""


# flags bits
SELF_DRAWN, LAST_WALL, KONG_REPLACEMENT, ROBBING, LAST_OF_KIND = 1, 2, 4, 8, 16
SEAT_SHIFT, PREVALENT_SHIFT = 5, 7
MCKP, FIFTH, KNITTED_WAITS = 1 << 9, 1 << 10, 1 << 11
"""``flags`` bits: the win conditions, the seat and prevalent winds (0-3, two bits each) and the
options ``melded_concealed_kong_pair``, ``fifth_copy_waits`` and ``knitted_straight_waits``
(``scoring._pack_flags`` packs them)."""

_NF = 83
_POINTS = np.array(FP.POINTS, dtype=np.int64)
_OKEY = np.array(FP.OKEY, dtype=np.int64)
_COMBINES = np.array([bool(x) for x in FP.COMBINES], dtype=np.bool_)
_EXCL = np.zeros((_NF, 2), dtype=np.int64)
"""The fans each fan excludes (不计) as two 64-bit masks: fan g is bit g % 64 of word g // 64."""
_SAME = np.zeros(_NF, dtype=np.bool_)
"""The fans that exclude :data:`_TARGET` on their own sets (箭刻, 圈风刻, ... and 幺九刻)."""
_ONE = np.zeros(_NF, dtype=np.bool_)
"""The fans that cancel one instance of :data:`_TARGET` (九莲宝灯)."""
_TARGET = F.N["pung_of_terminals_or_honors"]
for _f in F.FANS:
    for _g in _f.excludes:
        _EXCL[_f.number, _g >> 6] |= np.int64(1) << np.int64(_g & 63)
    # the data has one fan excluded on the same sets or by instances, 幺九刻, each at most once:
    # the selection keeps that fan's covered units and instances owed as two numbers
    assert set(_f.excludes_same_sets) <= {_TARGET} and set(_f.excludes_one) <= {(_TARGET, 1)}
    _SAME[_f.number] = bool(_f.excludes_same_sets)
    _ONE[_f.number] = bool(_f.excludes_one)
del _f
_BY_OKEY = np.array(sorted((f.number for f in F.FANS), key=lambda n: FP.OKEY[n]), dtype=np.int64)
"""Fan numbers in counting order (points descending, number ascending)."""

_N = F.N
BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES = (_N[k] for k in (
    "big_four_winds", "big_three_dragons", "all_green", "nine_gates"))
FOUR_KONGS, ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS = (_N[k] for k in (
    "four_kongs", "all_terminals", "little_four_winds", "little_three_dragons"))
ALL_HONORS, FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW = (_N[k] for k in (
    "all_honors", "four_concealed_pungs", "pure_terminal_chows", "quadruple_chow"))
FOUR_PURE_SHIFTED_PUNGS, FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS = (_N[k] for k in (
    "four_pure_shifted_pungs", "four_pure_shifted_chows", "three_kongs", "all_terminals_and_honors"))
ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS = (_N[k] for k in (
    "all_even_pungs", "full_flush", "pure_triple_chow", "pure_shifted_pungs"))
UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT = (_N[k] for k in (
    "upper_tiles", "middle_tiles", "lower_tiles", "pure_straight"))
THREE_SUITED_TERMINAL_CHOWS, PURE_SHIFTED_CHOWS, ALL_FIVES, TRIPLE_PUNG = (_N[k] for k in (
    "three_suited_terminal_chows", "pure_shifted_chows", "all_fives", "triple_pung"))
THREE_CONCEALED_PUNGS, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS = (_N[k] for k in (
    "three_concealed_pungs", "upper_four", "lower_four", "big_three_winds"))
MIXED_STRAIGHT, REVERSIBLE_TILES, MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS = (_N[k] for k in (
    "mixed_straight", "reversible_tiles", "mixed_triple_chow", "mixed_shifted_pungs"))
CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE = (_N[k] for k in (
    "chicken_hand", "last_tile_draw", "last_tile_claim", "out_with_replacement_tile"))
ROBBING_THE_KONG, ALL_PUNGS, HALF_FLUSH, MIXED_SHIFTED_CHOWS = (_N[k] for k in (
    "robbing_the_kong", "all_pungs", "half_flush", "mixed_shifted_chows"))
ALL_TYPES, MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS = (_N[k] for k in (
    "all_types", "melded_hand", "two_concealed_kongs", "two_dragon_pungs"))
OUTSIDE_HAND, FULLY_CONCEALED_HAND, TWO_MELDED_KONGS, LAST_TILE = (_N[k] for k in (
    "outside_hand", "fully_concealed_hand", "two_melded_kongs", "last_tile"))
DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND, CONCEALED_HAND = (_N[k] for k in (
    "dragon_pung", "prevalent_wind", "seat_wind", "concealed_hand"))
ALL_CHOWS, TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS = (_N[k] for k in (
    "all_chows", "tile_hog", "double_pung", "two_concealed_pungs"))
CONCEALED_KONG, ALL_SIMPLES, PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW = (_N[k] for k in (
    "concealed_kong", "all_simples", "pure_double_chow", "mixed_double_chow"))
SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG = (_N[k] for k in (
    "short_straight", "two_terminal_chows", "pung_of_terminals_or_honors", "melded_kong"))
ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT = (_N[k] for k in (
    "one_voided_suit", "no_honors", "edge_wait", "closed_wait"))
SINGLE_WAIT, SELF_DRAWN_FAN, MELDED_AND_CONCEALED_KONG = (_N[k] for k in (
    "single_wait", "self_drawn", "melded_and_concealed_kong"))
SEVEN_PAIRS_FAN, SEVEN_SHIFTED_PAIRS, THIRTEEN_ORPHANS = (_N[k] for k in (
    "seven_pairs", "seven_shifted_pairs", "thirteen_orphans"))
KNITTED_STRAIGHT, LESSER_HONORS_KNITTED, GREATER_HONORS_KNITTED = (_N[k] for k in (
    "knitted_straight", "lesser_honors_and_knitted_tiles", "greater_honors_and_knitted_tiles"))


def _mask(tiles) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


_GREEN_M = _mask(F.GREEN)
_REVERSIBLE_M = _mask(F.REVERSIBLE)
_TOH_M = _mask(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
_SUIT_M = (_mask(range(0, 9)), _mask(range(9, 18)), _mask(range(18, 27)))
_SUIT_M0, _SUIT_M1, _SUIT_M2 = _SUIT_M
_WIND_M = _mask(range(27, 31))
_DRAGON_M = _mask(range(31, 34))


def _ranks(rs) -> int:
    return _mask(t for t in range(27) if t % 9 + 1 in rs)


_R789, _R456, _R123 = _ranks({7, 8, 9}), _ranks({4, 5, 6}), _ranks({1, 2, 3})
_R6789, _R1234, _R19 = _ranks({6, 7, 8, 9}), _ranks({1, 2, 3, 4}), _ranks({1, 9})
_KNITTED = np.array(FP.sh.KNITTED_ARRANGEMENTS, dtype=np.int64)
_ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)

# the scratch of one call: one array, each helper working in its own slices (numba allocates an
# array on the heap; a hand scored with dozens of small arrays spent most of its time there)
_FULL = 0
_PRE = 34
_ALLC = 68
_MK = 102
_MT = 106
_KIND = 110
_TILE = 115
_CONC = 120
_KONG = 125
_PACKS = 130
_COUNTED = 133
_BEST = 216
_PAIRS = 299
_OUT = 363
_HF = 619
_HS = 683
_HM = 747
_ONE_U = 811
_WINDS = 815
_DRAGONS = 819
_CHOWS = 823
_SPUNGS = 828
_CNT = 833
_ORDER = 839
_KEYS = 903
_PARENT = 1216
_ROOTS = 1232
_RS = 1236
_IDX = 1240
_FL = 1244
_SEL = 1248
_R = 1252
_W = 1256
_VIS = 1267
_CODES = 1301
_CAND = 1305
_EW = 1313
_PUNG = 1349
_ROW = 1383
_KOUT = 1387
_BUF = 1451


def kernel():  # noqa: ANN201 - the compiled score_hand, or None
    """The compiled :func:`score_hand` where numba is there (:func:`available`), else None."""
    return score_hand if available() else None


def available() -> bool:
    """True when :func:`score_hand` runs compiled (numba there, ``MAJIANG_NUMBA`` not 0; see
    :func:`majiang.rl.kernels.available`)."""
    from majiang.rl import kernels

    return kernels.module_available(_STATE, globals(), _KERNELS, __file__)


_MCR_MELD = (CHOW_MELD, PUNG_MELD, MELDED_KONG_MELD, CONCEALED_KONG_MELD, MELDED_KONG_MELD)
"""The packed melds' kinds here by the code :mod:`majiang.rules.quick_kernel` gives them (its ``MELD_ORDER``)."""


def _quick(pre, win, melds, n_melds, cond, params):  # noqa: ANN001, ANN202 - the cfunc of quick_cfunc
    """``McrScorer.quick_value`` of :mod:`majiang.rules.quick_kernel`'s arguments (``params``: the
    options' flags bits): the total of :func:`score_hand`, -1 where ``quick_value`` gives None."""
    if win < 0 or win >= 34 or n_melds < 0 or n_melds > 4:
        return -1
    c = _carray(pre, (34,), np.uint8)
    packed = 0
    for j in range(n_melds):
        code = (melds >> (9 * j)) & 511  # quick_kernel.MELD_BITS a meld
        if code >> 6 > 4:
            return -1
        packed |= (_MCR_MELD[code >> 6] << 6 | (code & 63)) << (8 * j)
    self_drawn = cond & 1
    if cond & 4 and not self_drawn:  # a kong replacement is self-drawn (quick_value: None)
        return -1
    flags = (self_drawn * SELF_DRAWN | (cond >> 1 & 1) * LAST_WALL | (cond >> 2 & 1) * KONG_REPLACEMENT
             | ((cond >> 6) & 3) << SEAT_SHIFT | ((cond >> 8) & 3) << PREVALENT_SHIFT | params)
    if (cond >> 3) & 7 >= 3 and c[win] == 0:  # 和绝张: the other three copies in sight, none held
        flags |= LAST_OF_KIND
    r = score_hand(c, win, packed, n_melds, flags)
    return r[1] if r[0] == OK else -1


_QUICK: list = []
_carray = None  # numba.carray once quick_cfunc compiles _quick


def quick_cfunc():  # noqa: ANN201 - a numba cfunc, or None
    """:func:`_quick` as a cfunc of :func:`majiang.rules.quick_kernel.signature` (compiled once,
    then cached), or None without numba (:func:`available`)."""
    if not _QUICK:
        if not available():
            return None
        import numba

        from majiang.rules import quick_kernel

        globals()["_carray"] = numba.carray  # read by _quick's compiled body
        _QUICK.append(numba.cfunc(quick_kernel.signature(), cache=True)(_quick))
    return _QUICK[0]


# ------------------------------------------------------------------------------------ tile groups

def _suit_code(c: np.ndarray, lo: int, buf: np.ndarray) -> int:
    """The group code of the nine counts ``c[lo:lo + 9]`` (counts up to 5): 1 if they form sets
    only (none held counts), 3 if sets and one pair, 100 if neither."""
    n = 0
    for i in range(lo, lo + 9):
        n += c[i]
    r = n % 3
    if r == 1:
        return 100
    w = buf[_W:_W + 11]
    if r == 0:
        for i in range(9):
            w[i] = c[lo + i]
        w[9] = 0
        w[10] = 0
        for i in range(9):
            x = w[i]
            k = x % 3
            if k:
                if w[i + 1] < k or w[i + 2] < k:
                    return 100
                w[i + 1] -= k
                w[i + 2] -= k
        if w[9] or w[10]:
            return 100
        return 1
    for p in range(9):
        if c[lo + p] < 2:
            continue
        for i in range(9):
            w[i] = c[lo + i]
        w[9] = 0
        w[10] = 0
        w[p] -= 2
        ok = True
        for i in range(9):
            x = w[i]
            k = x % 3
            if k:
                if w[i + 1] < k or w[i + 2] < k:
                    ok = False
                    break
                w[i + 1] -= k
                w[i + 2] -= k
        if ok and w[9] == 0 and w[10] == 0:
            return 3
    return 100


def _honor_code(c: np.ndarray) -> int:
    """The group code of the honours (pungs only: every count 0 or 3, one 2 or 5 for the pair)."""
    pairs = 0
    for t in range(27, 34):
        x = c[t]
        if x == 2 or x == 5:
            pairs += 1
        elif x != 0 and x != 3:
            return 100
    if pairs == 0:
        return 1
    if pairs == 1:
        return 3
    return 100


def _group_code(c: np.ndarray, g: int, buf: np.ndarray) -> int:
    if g == 3:
        return _honor_code(c)
    return _suit_code(c, 9 * g, buf)


def _completes(pre: np.ndarray, codes: np.ndarray, t: int, buf: np.ndarray) -> bool:
    """Whether ``pre`` plus tile ``t`` is a standard shape (``codes``: ``pre``'s group codes)."""
    g = t // 9 if t < 27 else 3
    rest = codes[0] + codes[1] + codes[2] + codes[3] - codes[g]
    if rest != 3 and rest != 5:
        return False
    pre[t] += 1
    k = _group_code(pre, g, buf)
    pre[t] -= 1
    return rest + k == 6


def _knitted_possible(pre: np.ndarray, melds: int) -> bool:
    """The knitted shapes' part of :func:`_special_possible`: 组合龙 (eight of a knitted arrangement's
    nine tiles held; one meld allowed) or 全不靠 / 七星不靠 (no tile twice, the suited tiles within
    one knitted arrangement) one tile away."""
    if melds >= 2:
        return False
    for a in range(6):
        zeros = 0
        for j in range(9):
            if pre[_KNITTED[a, j]] == 0:
                zeros += 1
        if zeros <= 1:
            return True
    if melds:
        return False
    mx = 0
    suited = 0
    for t in range(34):
        if pre[t] > mx:
            mx = pre[t]
        if t < 27:
            suited += pre[t]
    if mx <= 1:
        for a in range(6):
            s = 0
            for j in range(9):
                s += pre[_KNITTED[a, j]]
            if s == suited:
                return True
    return False


def _seven_pairs_with(c: np.ndarray, t: int) -> bool:
    """Whether the 13 tiles ``c`` (no melds) plus ``t`` are seven pairs (four of a kind as two)."""
    if c[t] >= 4:
        return False
    for x in range(34):
        if (c[x] + (x == t)) % 2:
            return False
    return True


def _orphans_with(c: np.ndarray, t: int) -> bool:
    """Whether the 13 tiles ``c`` (no melds) plus ``t`` are thirteen orphans."""
    total = 0
    for x in range(34):
        total += c[x]
    n = 0
    for j in range(13):
        x = _ORPHANS[j]
        k = c[x] + (x == t)
        if k == 0:
            return False
        n += k
    return n == total + 1


def _honors_knitted_with(c: np.ndarray, t: int) -> bool:
    """Whether the tiles ``c`` (no melds) plus ``t`` (-1: none) are 14 different tiles, the suited
    ones within one knitted arrangement (全不靠, 七星不靠)."""
    total = 0
    suited = 0
    for x in range(34):
        k = c[x] + (x == t)
        if k > 1:
            return False
        total += k
        if x < 27:
            suited += k
    if total != 14:
        return False
    for a in range(6):
        s = 0
        for j in range(9):
            x = _KNITTED[a, j]
            s += c[x] + (x == t)
        if s == suited:
            return True
    return False


def _knitted_with(c: np.ndarray, t: int, buf: np.ndarray) -> bool:
    """Whether the concealed tiles ``c`` plus ``t`` hold a whole knitted arrangement and a standard
    rest (组合龙 plus the sets and the pair), ``t`` not a fifth copy."""
    if c[t] >= 4:
        return False
    c[t] += 1
    ok = False
    for a in range(6):
        whole = True
        for j in range(9):
            if c[_KNITTED[a, j]] == 0:
                whole = False
        if whole:
            for j in range(9):
                c[_KNITTED[a, j]] -= 1
            codes = 0
            for g in range(4):
                codes += _group_code(c, g, buf)
            for j in range(9):
                c[_KNITTED[a, j]] += 1
            if codes == 6:
                ok = True
                break
    c[t] -= 1
    return ok


def _special_possible(pre: np.ndarray, melds: int) -> bool:
    """``scoring._special_possible``: a cheap necessary condition for a special shape (七对, 十三幺,
    全不靠, 组合龙) one tile away from ``pre``."""
    if _knitted_possible(pre, melds):
        return True
    if melds:
        return False
    total = 0
    pairs = 0
    for t in range(34):
        x = pre[t]
        total += x
        if x == 2 or x == 3:
            pairs += 1
        elif x == 4:
            pairs += 2
    orphans = 0
    for j in range(13):
        orphans += pre[_ORPHANS[j]]
    return pairs >= 6 or orphans == total


# ------------------------------------------------------------------------------ decompositions

def _enumerate(c: np.ndarray, need: int, out: np.ndarray, nout: int, buf: np.ndarray) -> int:
    """Every way to split the counts ``c`` into ``need`` sets, each written to a row of ``out`` from
    row ``nout`` (codes ``tile * 2 + (0 pung, 1 chow)``, sorted); returns the next free row (a count
    past the rows says the caller must give up). A split is a choice of pungs among the tiles held
    three times or more, the rest then splitting into chows in one way only (from the lowest tile
    up), so each split comes once; no recursion (numba's cache does not keep recursive functions)."""
    cand = buf[_CAND:_CAND + 8]
    nc = 0
    for i in range(34):
        if c[i] >= 3:
            cand[nc] = i
            nc += 1
            if nc == 8:
                return out.shape[0] + 1
    w = buf[_EW:_EW + 36]
    pung = buf[_PUNG:_PUNG + 34]
    row = buf[_ROW:_ROW + 4]
    for sub in range(1 << nc):
        for i in range(34):
            w[i] = c[i]
            pung[i] = 0
        w[34] = 0
        w[35] = 0
        for j in range(nc):
            if sub >> j & 1:
                w[cand[j]] -= 3
                pung[cand[j]] = 1
        n = 0
        ok = True
        for i in range(34):
            if pung[i]:
                if n == need:
                    ok = False
                    break
                row[n] = 2 * i
                n += 1
            k = w[i]
            if k:
                if i >= 27 or i % 9 > 6 or w[i + 1] < k or w[i + 2] < k or n + k > need:
                    ok = False
                    break
                w[i + 1] -= k
                w[i + 2] -= k
                for q in range(k):
                    row[n] = 2 * i + 1
                    n += 1
        if ok and n == need:
            if nout < out.shape[0]:
                for j in range(need):
                    out[nout, j] = row[j]
            nout += 1
    return nout


# ---------------------------------------------------------------------------------- selection

def _select(hf: np.ndarray, hs: np.ndarray, hm: np.ndarray, nh: int, counted: np.ndarray, buf: np.ndarray) -> int:
    """``fans.select`` on ``nh`` detections (fan numbers ``hf``, sort keys of their unit tuples
    ``hs``, unit bit masks ``hm``): the counted instances added to ``counted`` (by fan number);
    returns the points."""
    order = buf[_ORDER:_ORDER + 64]
    keys = buf[_KEYS:_KEYS + 64]
    for k in range(nh):
        keys[k] = _OKEY[hf[k]] * 65536 + hs[k]
        order[k] = k
    for a in range(1, nh):  # insertion sort: a few dozen detections
        x = order[a]
        kx = keys[x]
        b = a - 1
        while b >= 0 and keys[order[b]] > kx:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = x
    ex0 = 0
    ex1 = 0
    covered = 0  # units of the target fan covered by a fan counted on them
    owed = 0  # instances of the target fan cancelled
    parent = buf[_PARENT:_PARENT + 16]
    for u in range(16):
        parent[u] = u
    roots = buf[_ROOTS:_ROOTS + 4]
    total = 0
    for k in range(nh):
        h = order[k]
        f = hf[h]
        m = hm[h]
        if (ex0 >> f if f < 64 else ex1 >> (f - 64)) & 1:
            continue
        if f == _TARGET:
            if m and covered & m:
                continue
            if owed:
                owed -= 1
                continue
        if _COMBINES[f]:
            nr = 0
            clash = False
            for u in range(16):
                if m >> u & 1:
                    r = u
                    while parent[r] != r:
                        r = parent[r]
                    for j in range(nr):
                        if roots[j] == r:
                            clash = True
                    roots[nr] = r
                    nr += 1
            if clash:
                continue
            for j in range(1, nr):
                parent[roots[j]] = roots[0]
        counted[f] += 1
        total += _POINTS[f]
        ex0 |= _EXCL[f, 0]
        ex1 |= _EXCL[f, 1]
        if _SAME[f]:
            covered |= m
        if _ONE[f]:
            owed += 1
    return total


def _add(hf: np.ndarray, hs: np.ndarray, hm: np.ndarray, nh: int, f: int, units: np.ndarray, nu: int) -> int:
    """Append a detection of fan ``f`` on the ``nu`` units ``units`` (indices, ascending)."""
    key = 0
    mask = 0
    for j in range(4):
        key <<= 4
        if j < nu:
            key |= units[j] + 1
            mask |= 1 << units[j]
    hf[nh] = f
    hs[nh] = key
    hm[nh] = mask
    return nh + 1


def _sorted_ranks(rs: np.ndarray, n: int, buf: np.ndarray) -> np.ndarray:
    """The ranks of ``rs`` (``suit * 16 + rank``), ascending."""
    r = buf[_R:_R + 4]
    for j in range(n):
        x = rs[j] & 15
        b = j - 1
        while b >= 0 and r[b] > x:
            r[b + 1] = r[b]
            b -= 1
        r[b + 1] = x
    return r


def _suit_spread(rs: np.ndarray, n: int) -> tuple:
    """Whether the ``n`` sets ``rs`` (``suit * 16 + rank``) are all of one suit, and all of different
    suits."""
    one_suit = True
    all_suits = True
    for a in range(n):
        for b in range(a + 1, n):
            if rs[a] >> 4 == rs[b] >> 4:
                all_suits = False
            else:
                one_suit = False
    return one_suit, all_suits


def _chow_fans(rs: np.ndarray, n: int, out: np.ndarray, buf: np.ndarray) -> int:
    """``fans._chow_fans`` of ``n`` chows given as ``suit * 16 + rank``: the fans into ``out``."""
    one_suit, all_suits = _suit_spread(rs, n)
    r = _sorted_ranks(rs, n, buf)
    k = 0
    if n == 4:
        if one_suit:
            if r[0] == r[3]:
                out[k] = QUADRUPLE_CHOW
                k += 1
            else:
                d = r[1] - r[0]
                if (d == 1 or d == 2) and r[2] - r[1] == d and r[3] - r[2] == d:
                    out[k] = FOUR_PURE_SHIFTED_CHOWS
                    k += 1
    elif n == 3:
        straight = r[0] == 1 and r[1] == 4 and r[2] == 7
        if one_suit:
            if straight:
                out[k] = PURE_STRAIGHT
                k += 1
            if r[0] == r[2]:
                out[k] = PURE_TRIPLE_CHOW
                k += 1
            else:
                d = r[1] - r[0]
                if (d == 1 or d == 2) and r[2] - r[1] == d:
                    out[k] = PURE_SHIFTED_CHOWS
                    k += 1
        elif all_suits:
            if straight:
                out[k] = MIXED_STRAIGHT
                k += 1
            if r[0] == r[2]:
                out[k] = MIXED_TRIPLE_CHOW
                k += 1
            elif r[1] - r[0] == 1 and r[2] - r[1] == 1:
                out[k] = MIXED_SHIFTED_CHOWS
                k += 1
    elif n == 2:
        if one_suit:
            if r[0] == r[1]:
                out[k] = PURE_DOUBLE_CHOW
                k += 1
            elif r[1] - r[0] == 3:
                out[k] = SHORT_STRAIGHT
                k += 1
            elif r[0] == 1 and r[1] == 7:
                out[k] = TWO_TERMINAL_CHOWS
                k += 1
        elif r[0] == r[1]:
            out[k] = MIXED_DOUBLE_CHOW
            k += 1
    return k


def _pung_fans(rs: np.ndarray, n: int, out: np.ndarray, buf: np.ndarray) -> int:
    """``fans._pung_fans`` of ``n`` suited pungs given as ``suit * 16 + rank``."""
    one_suit, all_suits = _suit_spread(rs, n)
    r = _sorted_ranks(rs, n, buf)
    consecutive = True
    for j in range(n - 1):
        if r[j + 1] - r[j] != 1:
            consecutive = False
    k = 0
    if n == 4:
        if one_suit and consecutive:
            out[k] = FOUR_PURE_SHIFTED_PUNGS
            k += 1
    elif n == 3:
        if one_suit and consecutive:
            out[k] = PURE_SHIFTED_PUNGS
            k += 1
        elif all_suits and consecutive:
            out[k] = MIXED_SHIFTED_PUNGS
            k += 1
        elif all_suits and r[0] == r[2]:
            out[k] = TRIPLE_PUNG
            k += 1
    elif n == 2:
        if not one_suit and r[0] == r[1]:
            out[k] = DOUBLE_PUNG
            k += 1
    return k


def _combos(group: np.ndarray, ng: int, kind_pung: bool, units: np.ndarray, hf: np.ndarray, hs: np.ndarray,
            hm: np.ndarray, nh: int, buf: np.ndarray) -> int:
    """``fans.combinations_of_sets`` over the ``ng`` units ``group`` (chows, or suited pungs): each
    combination of four, three, then two (``itertools.combinations`` order) and its fans."""
    rs = buf[_RS:_RS + 4]
    idx = buf[_IDX:_IDX + 4]
    fl = buf[_FL:_FL + 4]
    sel = buf[_SEL:_SEL + 4]
    top = 4 if ng >= 4 else ng
    for n in range(top, 1, -1):
        for j in range(n):
            idx[j] = j
        while True:
            for j in range(n):
                u = group[idx[j]]
                sel[j] = u
                t = units[u]
                rs[j] = (t // 9) * 16 + t % 9 + 1
            k = _pung_fans(rs, n, fl, buf) if kind_pung else _chow_fans(rs, n, fl, buf)
            for j in range(k):
                nh = _add(hf, hs, hm, nh, fl[j], sel, n)
            # next combination
            j = n - 1
            while j >= 0 and idx[j] == ng - n + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for q in range(j + 1, n):
                idx[q] = idx[q - 1] + 1
    return nh


# ----------------------------------------------------------------------------- one arrangement

def _concealment_wait_select(flags: int, open_melds: int, wait: int, hf: np.ndarray, hs: np.ndarray, hm: np.ndarray,
                             nh: int, one: np.ndarray, counted: np.ndarray, buf: np.ndarray) -> int:
    """The last detections of an arrangement -- 不求人 / 门前清 / 全求人 from the ``open_melds`` (a
    four-meld hand is only ever standard), the wait fan ``wait`` (0 none, 1 边张, 2 嵌张, 3 单钓将) --
    then the selection, 无番和 when nothing counts; returns the points."""
    self_drawn = flags & SELF_DRAWN != 0
    if open_melds == 0:
        nh = _add(hf, hs, hm, nh, FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND, one, 0)
    elif open_melds == 4 and not self_drawn:
        nh = _add(hf, hs, hm, nh, MELDED_HAND, one, 0)
    if wait == 1:
        nh = _add(hf, hs, hm, nh, EDGE_WAIT, one, 0)
    elif wait == 2:
        nh = _add(hf, hs, hm, nh, CLOSED_WAIT, one, 0)
    elif wait == 3:
        nh = _add(hf, hs, hm, nh, SINGLE_WAIT, one, 0)
    total = _select(hf, hs, hm, nh, counted, buf)
    if total == 0:
        counted[CHICKEN_HAND] = 1
        total = _POINTS[CHICKEN_HAND]
    return total


def _tile_set_fans(present: int, pairs_or_standard: bool, hf: np.ndarray, hs: np.ndarray, hm: np.ndarray, nh: int,
                   one: np.ndarray) -> int:
    """``fans.tile_set_fans`` of the tiles ``present`` (a bit mask): the detections appended."""
    m0 = present & _SUIT_M0 != 0
    m1 = present & _SUIT_M1 != 0
    m2 = present & _SUIT_M2 != 0
    nsuits = m0 + m1 + m2
    wind_p = present & _WIND_M != 0
    dragon_p = present & _DRAGON_M != 0
    honors = wind_p or dragon_p
    if present & ~_GREEN_M == 0:
        nh = _add(hf, hs, hm, nh, ALL_GREEN, one, 0)
    if present & ~_REVERSIBLE_M == 0:
        nh = _add(hf, hs, hm, nh, REVERSIBLE_TILES, one, 0)
    if pairs_or_standard and present & ~_TOH_M == 0:
        if not honors:
            nh = _add(hf, hs, hm, nh, ALL_TERMINALS, one, 0)
        elif nsuits:
            nh = _add(hf, hs, hm, nh, ALL_TERMINALS_AND_HONORS, one, 0)
    if nsuits == 0:
        nh = _add(hf, hs, hm, nh, ALL_HONORS, one, 0)
    if nsuits == 1:
        nh = _add(hf, hs, hm, nh, HALF_FLUSH if honors else FULL_FLUSH, one, 0)
    if nsuits == 3 and wind_p and dragon_p:
        nh = _add(hf, hs, hm, nh, ALL_TYPES, one, 0)
    if nsuits == 2:
        nh = _add(hf, hs, hm, nh, ONE_VOIDED_SUIT, one, 0)
    if not honors:
        nh = _add(hf, hs, hm, nh, NO_HONORS, one, 0)
        if present & ~_R789 == 0:
            nh = _add(hf, hs, hm, nh, UPPER_TILES, one, 0)
        elif present & ~_R456 == 0:
            nh = _add(hf, hs, hm, nh, MIDDLE_TILES, one, 0)
        elif present & ~_R123 == 0:
            nh = _add(hf, hs, hm, nh, LOWER_TILES, one, 0)
        if present & ~_R6789 == 0:
            nh = _add(hf, hs, hm, nh, UPPER_FOUR, one, 0)
        elif present & ~_R1234 == 0:
            nh = _add(hf, hs, hm, nh, LOWER_FOUR, one, 0)
        if present & _R19 == 0:
            nh = _add(hf, hs, hm, nh, ALL_SIMPLES, one, 0)
    return nh


def _condition_fans(flags: int, hf: np.ndarray, hs: np.ndarray, hm: np.ndarray, nh: int, one: np.ndarray) -> int:
    """The win-condition fans of ``fans.win_conditions`` but the concealed-hand and wait fans."""
    self_drawn = flags & SELF_DRAWN != 0
    if self_drawn:
        nh = _add(hf, hs, hm, nh, SELF_DRAWN_FAN, one, 0)
    if flags & LAST_WALL:
        nh = _add(hf, hs, hm, nh, LAST_TILE_DRAW if self_drawn else LAST_TILE_CLAIM, one, 0)
    if flags & KONG_REPLACEMENT:
        nh = _add(hf, hs, hm, nh, OUT_WITH_REPLACEMENT_TILE, one, 0)
    if flags & ROBBING:
        nh = _add(hf, hs, hm, nh, ROBBING_THE_KONG, one, 0)
    if flags & LAST_OF_KIND:
        nh = _add(hf, hs, hm, nh, LAST_TILE, one, 0)
    return nh



def _arrangement(kind: np.ndarray, tile: np.ndarray, conc: np.ndarray, kong: np.ndarray, nu: int,
                 present: int, flags: int, wait: int, hogs: int, nine_gates: bool, open_melds: int,
                 counted: np.ndarray, buf: np.ndarray) -> int:
    """Detect and select the fans of one standard arrangement (``nu`` = 5 units: ``kind`` 0 chow,
    1 pung, 2 pair; first ``tile``; concealed ``conc``; ``kong`` 0 none, 1 melded, 2 concealed),
    ``present``: the hand's tiles as a bit mask; ``wait``: 0 none, 1 edge, 2 closed, 3 single;
    ``hogs``: 四归一 instances. Counted fans into ``counted``; returns the points."""
    hf = buf[_HF:_HF + 64]
    hs = buf[_HS:_HS + 64]
    hm = buf[_HM:_HM + 64]
    one = buf[_ONE_U:_ONE_U + 4]
    nh = 0
    seat = 27 + (flags >> SEAT_SHIFT & 3)
    prevalent = 27 + (flags >> PREVALENT_SHIFT & 3)
    pair = -1
    winds = buf[_WINDS:_WINDS + 4]
    dragons = buf[_DRAGONS:_DRAGONS + 4]
    chows = buf[_CHOWS:_CHOWS + 5]
    spungs = buf[_SPUNGS:_SPUNGS + 5]
    nw = nd = nc = nsp = 0
    concealed_pungs = 0
    melded_kongs = hidden_kongs = 0
    for u in range(nu):
        k = kind[u]
        t = tile[u]
        if k == 2:
            pair = t
        elif k == 0:
            chows[nc] = u
            nc += 1
        else:
            if t >= 31:
                dragons[nd] = u
                nd += 1
            elif t >= 27:
                winds[nw] = u
                nw += 1
            else:
                spungs[nsp] = u
                nsp += 1
            if conc[u]:
                concealed_pungs += 1
            if kong[u] == 1:
                melded_kongs += 1
            elif kong[u] == 2:
                hidden_kongs += 1
    # honour pungs
    if nw == 4:
        nh = _add(hf, hs, hm, nh, BIG_FOUR_WINDS, winds, 4)
    if nw == 3:
        if 27 <= pair <= 30:
            nh = _add(hf, hs, hm, nh, LITTLE_FOUR_WINDS, winds, 3)
        nh = _add(hf, hs, hm, nh, BIG_THREE_WINDS, winds, 3)
    if nd == 3:
        nh = _add(hf, hs, hm, nh, BIG_THREE_DRAGONS, dragons, 3)
    if nd == 2:
        if pair >= 31:
            nh = _add(hf, hs, hm, nh, LITTLE_THREE_DRAGONS, dragons, 2)
        nh = _add(hf, hs, hm, nh, TWO_DRAGON_PUNGS, dragons, 2)
    for j in range(nd):
        one[0] = dragons[j]
        nh = _add(hf, hs, hm, nh, DRAGON_PUNG, one, 1)
    for j in range(nw):
        one[0] = winds[j]
        if tile[winds[j]] == prevalent:
            nh = _add(hf, hs, hm, nh, PREVALENT_WIND, one, 1)
        if tile[winds[j]] == seat:
            nh = _add(hf, hs, hm, nh, SEAT_WIND, one, 1)
    for u in range(nu):
        if kind[u] == 1:
            t = tile[u]
            if t >= 27 or t % 9 == 0 or t % 9 == 8:
                one[0] = u
                nh = _add(hf, hs, hm, nh, PUNG_OF_TERMINALS_OR_HONORS, one, 1)
    nh = _tile_set_fans(present, True, hf, hs, hm, nh, one)
    # the structure of the sets
    if nine_gates:
        nh = _add(hf, hs, hm, nh, NINE_GATES, one, 0)
    if nc == 0:
        nh = _add(hf, hs, hm, nh, ALL_PUNGS, one, 0)
        even = True
        for u in range(nu):
            t = tile[u]
            if t >= 27 or t % 9 % 2 == 0:  # an even rank (t % 9 + 1) is an odd t % 9
                even = False
        if even:
            nh = _add(hf, hs, hm, nh, ALL_EVEN_PUNGS, one, 0)
    outside = True
    fives = True
    for u in range(nu):
        t = tile[u]
        if kind[u] == 0:
            r = t % 9
            if not (r == 0 or r == 6):
                outside = False
            if not (2 <= r <= 4):
                fives = False
        else:
            if not (t >= 27 or t % 9 == 0 or t % 9 == 8):
                outside = False
            if not (t < 27 and t % 9 == 4):
                fives = False
    if outside:
        nh = _add(hf, hs, hm, nh, OUTSIDE_HAND, one, 0)
    if fives:
        nh = _add(hf, hs, hm, nh, ALL_FIVES, one, 0)
    if nc == 4 and pair < 27 and pair % 9 == 4:
        ps = pair // 9
        # 一色双龙会: 123 123 789 789 of the pair's suit; 三色双龙会: 123 789 in each of the other two
        cnt = buf[_CNT:_CNT + 6]  # per suit: chows at 1, chows at 7
        cnt[:] = 0
        other = False
        for j in range(nc):
            t = tile[chows[j]]
            r = t % 9
            if r == 0:
                cnt[2 * (t // 9)] += 1
            elif r == 6:
                cnt[2 * (t // 9) + 1] += 1
            else:
                other = True
        if not other:
            if cnt[2 * ps] == 2 and cnt[2 * ps + 1] == 2:
                nh = _add(hf, hs, hm, nh, PURE_TERMINAL_CHOWS, one, 0)
            if cnt[2 * ps] == 0 and cnt[2 * ps + 1] == 0:
                good = True
                for s in range(3):
                    if s != ps and (cnt[2 * s] != 1 or cnt[2 * s + 1] != 1):
                        good = False
                if good:
                    nh = _add(hf, hs, hm, nh, THREE_SUITED_TERMINAL_CHOWS, one, 0)
    if nc == 4 and pair < 27:
        nh = _add(hf, hs, hm, nh, ALL_CHOWS, one, 0)
    for j in range(hogs):
        nh = _add(hf, hs, hm, nh, TILE_HOG, one, 0)
    # combinations of sets
    if nc >= 2:
        nh = _combos(chows, nc, False, tile, hf, hs, hm, nh, buf)
    if nsp >= 2:
        nh = _combos(spungs, nsp, True, tile, hf, hs, hm, nh, buf)
    # concealed pungs and kongs
    if concealed_pungs == 4:
        nh = _add(hf, hs, hm, nh, FOUR_CONCEALED_PUNGS, one, 0)
    elif concealed_pungs == 3:
        nh = _add(hf, hs, hm, nh, THREE_CONCEALED_PUNGS, one, 0)
    elif concealed_pungs == 2:
        nh = _add(hf, hs, hm, nh, TWO_CONCEALED_PUNGS, one, 0)
    kongs = melded_kongs + hidden_kongs
    if kongs == 4:
        nh = _add(hf, hs, hm, nh, FOUR_KONGS, one, 0)
    elif kongs == 3:
        nh = _add(hf, hs, hm, nh, THREE_KONGS, one, 0)
    elif kongs == 2:
        if hidden_kongs == 2:
            nh = _add(hf, hs, hm, nh, TWO_CONCEALED_KONGS, one, 0)
        elif melded_kongs == 2:
            nh = _add(hf, hs, hm, nh, TWO_MELDED_KONGS, one, 0)
        elif flags & MCKP:
            nh = _add(hf, hs, hm, nh, MELDED_AND_CONCEALED_KONG, one, 0)
        else:
            nh = _add(hf, hs, hm, nh, MELDED_KONG, one, 0)
            nh = _add(hf, hs, hm, nh, CONCEALED_KONG, one, 0)
    elif kongs == 1:
        nh = _add(hf, hs, hm, nh, MELDED_KONG if melded_kongs else CONCEALED_KONG, one, 0)
    # how the hand was won
    nh = _condition_fans(flags, hf, hs, hm, nh, one)
    return _concealment_wait_select(flags, open_melds, wait, hf, hs, hm, nh, one, counted, buf)


def _knitted_fans(set_kind: int, set_tile: int, melded: int, hidden: int, pair: int, present: int, flags: int,
                  wait: int, hogs: int, open_melds: int, counted: np.ndarray, buf: np.ndarray) -> int:
    """The fans of a knitted-straight arrangement (组合龙, one set -- ``set_kind`` 0 chow, 1 pung,
    concealed or the declared meld -- and the pair), as ``fast.knitted_hits`` and the hand-level
    detections give them (the set's honour-pung fans, 平和, kongs, 四归一, the tile set, the win
    conditions, the wait fan ``wait``), selected; returns the points."""
    hf = buf[_HF:_HF + 64]
    hs = buf[_HS:_HS + 64]
    hm = buf[_HM:_HM + 64]
    one = buf[_ONE_U:_ONE_U + 4]
    nh = 0
    nh = _add(hf, hs, hm, nh, KNITTED_STRAIGHT, one, 0)
    one[0] = 0  # the set's unit (the only set: its index tells nothing else apart)
    if set_kind == 1:
        t = set_tile
        if t >= 31:
            nh = _add(hf, hs, hm, nh, DRAGON_PUNG, one, 1)
        elif t >= 27:
            if t == 27 + (flags >> PREVALENT_SHIFT & 3):
                nh = _add(hf, hs, hm, nh, PREVALENT_WIND, one, 1)
            if t == 27 + (flags >> SEAT_SHIFT & 3):
                nh = _add(hf, hs, hm, nh, SEAT_WIND, one, 1)
        if t >= 27 or t % 9 == 0 or t % 9 == 8:
            nh = _add(hf, hs, hm, nh, PUNG_OF_TERMINALS_OR_HONORS, one, 1)
    elif pair < 27:
        nh = _add(hf, hs, hm, nh, ALL_CHOWS, one, 0)
    for j in range(hogs):
        nh = _add(hf, hs, hm, nh, TILE_HOG, one, 0)
    if melded + hidden == 1:
        nh = _add(hf, hs, hm, nh, MELDED_KONG if melded else CONCEALED_KONG, one, 0)
    nh = _tile_set_fans(present, False, hf, hs, hm, nh, one)
    nh = _condition_fans(flags, hf, hs, hm, nh, one)
    return _concealment_wait_select(flags, open_melds, wait, hf, hs, hm, nh, one, counted, buf)


def _special_fans(sp: int, present: int, full: np.ndarray, flags: int, counted: np.ndarray, buf: np.ndarray) -> int:
    """The fans of a seven-pairs (``sp`` 0), thirteen-orphans (1) or honours-and-knitted (2, 全不靠 /
    七星不靠) arrangement of the 14 concealed tiles ``full`` (no melds), as ``fans.detect`` finds them
    (no sets; no wait fan: these shapes exclude 单钓将, the only one they could give), selected;
    returns the points."""
    hf = buf[_HF:_HF + 64]
    hs = buf[_HS:_HS + 64]
    hm = buf[_HM:_HM + 64]
    one = buf[_ONE_U:_ONE_U + 4]
    nh = 0
    if sp == 0:
        nh = _add(hf, hs, hm, nh, SEVEN_PAIRS_FAN, one, 0)
        lo = -1
        hi = -1
        kinds = 0
        for t in range(34):
            if full[t]:
                if lo < 0:
                    lo = t
                hi = t
                kinds += 1
        if kinds == 7 and lo < 27 and lo // 9 == hi // 9 and hi - lo == 6:
            nh = _add(hf, hs, hm, nh, SEVEN_SHIFTED_PAIRS, one, 0)
        for t in range(34):
            if full[t] == 4:
                nh = _add(hf, hs, hm, nh, TILE_HOG, one, 0)
    elif sp == 1:
        nh = _add(hf, hs, hm, nh, THIRTEEN_ORPHANS, one, 0)
    else:
        honors = 0
        for t in range(27, 34):
            honors += full[t] > 0
        nh = _add(hf, hs, hm, nh, GREATER_HONORS_KNITTED if honors == 7 else LESSER_HONORS_KNITTED, one, 0)
        if honors == 5:  # nine suited tiles: the whole knitted straight
            nh = _add(hf, hs, hm, nh, KNITTED_STRAIGHT, one, 0)
    nh = _tile_set_fans(present, sp == 0, hf, hs, hm, nh, one)
    nh = _condition_fans(flags, hf, hs, hm, nh, one)
    return _concealment_wait_select(flags, 0, 0, hf, hs, hm, nh, one, counted, buf)


# ------------------------------------------------------------------------------------- the hand

def score_hand(pre: bytes, win: int, melds: int, nmelds: int, flags: int) -> tuple:
    """Score a hand whose concealed part before the win is ``pre`` (34 counts as bytes), won on
    ``win``, with ``nmelds`` declared melds packed in ``melds`` (8 bits each: kind << 6 | tile, kinds
    :data:`CHOW_MELD` ...) and the conditions and options in ``flags``.

    Returns ``(status, total, fans0, fans1, fans2, groups)``: with status :data:`OK` the best
    arrangement's points (flowers aside), its counted fans in counting order packed 11 bits each
    (``number << 4 | count``, five to an int, zero-ended) and its concealed groups in sorted order
    packed 8 bits each (``kind << 6 | tile``, kind 1 chow, 2 pair, 3 pung, the first group lowest),
    or for a special shape: -1 seven pairs, -2 thirteen orphans, -3 honours and knitted (their
    groups follow from the tiles), ``-(packed << 2)`` a knitted straight (the groups packed as above,
    the knitted straight as a pair code whose tile is 34 plus its arrangement in
    ``shapes.KNITTED_ARRANGEMENTS``). :data:`PYTHON`: the Python path must refuse the hand (or
    score it, past the kernel's limits); :data:`NOT_WINNING`: no arrangement."""
    buf = np.empty(_BUF, dtype=np.int64)
    full = buf[_FULL:_FULL + 34]
    n = 0
    for t in range(34):
        full[t] = pre[t]
        n += pre[t]
    if win < 0 or win >= 34 or nmelds > 4 or n + 1 != 14 - 3 * nmelds:
        return (PYTHON, 0, 0, 0, 0, 0)
    pre_c = buf[_PRE:_PRE + 34]
    pre_c[:] = full
    full[win] += 1
    allc = buf[_ALLC:_ALLC + 34]
    allc[:] = full
    present = 0
    for t in range(34):
        if full[t]:
            present |= 1 << t
    open_melds = 0
    melded = hidden = 0
    shown = 0
    mk = buf[_MK:_MK + 4]
    mt = buf[_MT:_MT + 4]
    for j in range(nmelds):
        code = melds >> (8 * j) & 255
        k = code >> 6
        t = code & 63
        mk[j] = k
        mt[j] = t
        if t >= 34:
            return (PYTHON, 0, 0, 0, 0, 0)
        if k == CHOW_MELD:
            if t >= 27 or t % 9 > 6:
                return (PYTHON, 0, 0, 0, 0, 0)
            allc[t] += 1
            allc[t + 1] += 1
            allc[t + 2] += 1
            present |= 7 << t
            open_melds += 1
            if t <= win <= t + 2:
                shown += 1
        else:
            present |= 1 << t
            if k == PUNG_MELD:
                allc[t] += 3
                open_melds += 1
                if t == win:
                    shown += 3
            elif k == CONCEALED_KONG_MELD:
                hidden += 1
            else:
                melded += 1
                open_melds += 1
                if t == win:
                    shown += 4
    for t in range(34):
        if allc[t] > 4:
            return (PYTHON, 0, 0, 0, 0, 0)
    for j in range(nmelds):
        if mk[j] >= CONCEALED_KONG_MELD:
            if allc[mt[j]]:
                return (PYTHON, 0, 0, 0, 0, 0)
            for q in range(j):
                if mk[q] >= CONCEALED_KONG_MELD and mt[q] == mt[j]:
                    return (PYTHON, 0, 0, 0, 0, 0)
    self_drawn = flags & SELF_DRAWN != 0
    if flags & ROBBING and allc[win] > 1:
        return (PYTHON, 0, 0, 0, 0, 0)
    if flags & KONG_REPLACEMENT and melded + hidden == 0:
        return (PYTHON, 0, 0, 0, 0, 0)
    if flags & LAST_OF_KIND and pre_c[win]:
        return (PYTHON, 0, 0, 0, 0, 0)
    special = _special_possible(pre_c, nmelds)  # a special shape may complete the hand or wait on a tile
    knit = special and _knitted_possible(pre_c, nmelds)
    if shown == 3:
        flags |= LAST_OF_KIND
    hogs = 0
    for t in range(34):
        if allc[t] == 4:
            hogs += 1
    nine_gates = False
    if nmelds == 0 and win < 27:
        base = win - win % 9
        nine_gates = pre_c[base] == 3 and pre_c[base + 8] == 3
        for j in range(1, 8):
            if pre_c[base + j] != 1:
                nine_gates = False
    # the decompositions: a pair, then the sets
    need = 4 - nmelds
    out = buf[_OUT:_OUT + 256].reshape((64, 4))
    pairs = buf[_PAIRS:_PAIRS + 64]
    nd = 0
    for p in range(34):
        if full[p] >= 2:
            full[p] -= 2
            before = nd
            nd = _enumerate(full, need, out, nd, buf)
            full[p] += 2
            if nd > 64:
                return (PYTHON, 0, 0, 0, 0, 0)
            for q in range(before, nd):
                pairs[q] = p
    seven = special and _seven_pairs_with(pre_c, win)
    orphans = special and _orphans_with(pre_c, win)
    honors_knitted = knit and nmelds == 0 and _honors_knitted_with(full, -1)
    # 组合龙: a whole knitted arrangement, then the rest's decompositions (a pair and 1 - melds sets)
    kout = buf[_KOUT:_KOUT + 64].reshape((16, 4))  # per row: arrangement, pair, set code or -1
    nk = 0
    if knit:
        for a in range(6):
            whole = True
            for j in range(9):
                if full[_KNITTED[a, j]] == 0:
                    whole = False
            if not whole:
                continue
            for j in range(9):
                full[_KNITTED[a, j]] -= 1
            for p in range(34):
                if full[p] >= 2:
                    full[p] -= 2
                    before = nd
                    got = _enumerate(full, 1 - nmelds, out, nd, buf)
                    full[p] += 2
                    for q in range(before, min(got, out.shape[0])):
                        if nk < 16:
                            kout[nk, 0] = a
                            kout[nk, 1] = p
                            kout[nk, 2] = out[q, 0] if nmelds == 0 else -1
                        nk += 1
            for j in range(9):
                full[_KNITTED[a, j]] += 1
            if nk > 16:
                return (PYTHON, 0, 0, 0, 0, 0)
    if nd == 0 and nk == 0 and not seven and not orphans and not honors_knitted:
        return (NOT_WINNING, 0, 0, 0, 0, 0)
    # the unique wait, worked out when an arrangement places the winning tile for a wait fan
    unique = -1
    kind = buf[_KIND:_KIND + 5]
    tile = buf[_TILE:_TILE + 5]
    conc = buf[_CONC:_CONC + 5]
    kong = buf[_KONG:_KONG + 5]
    counted = buf[_COUNTED:_COUNTED + _NF]
    best_counted = buf[_BEST:_BEST + _NF]
    best_total = -1
    best = -1
    best_chows = 0
    for a in range(nd):
        p = pairs[a]
        # units: the declared melds, then the concealed groups sorted as (kind name, tiles):
        # chows, the pair, pungs
        u = 0
        for j in range(nmelds):
            k = mk[j]
            tile[u] = mt[j]
            if k == CHOW_MELD:
                kind[u] = 0
                conc[u] = 0
                kong[u] = 0
            else:
                kind[u] = 1
                conc[u] = k == CONCEALED_KONG_MELD
                kong[u] = 0 if k == PUNG_MELD else 2 if k == CONCEALED_KONG_MELD else 1
            u += 1
        chows_n = 0
        for j in range(need):
            if out[a, j] & 1:
                kind[u] = 0
                tile[u] = out[a, j] >> 1
                conc[u] = 1
                kong[u] = 0
                u += 1
                chows_n += 1
        kind[u] = 2
        tile[u] = p
        conc[u] = 1
        kong[u] = 0
        u += 1
        for j in range(need):
            if not out[a, j] & 1:
                t = out[a, j] >> 1
                kind[u] = 1
                tile[u] = t
                kong[u] = 0
                c = 1
                if not self_drawn and t == win:  # completed by the discard: melded, unless the
                    c = 0                        # winning tile can sit in another group
                    if p == win:
                        c = 1
                    for q in range(need):
                        s = out[a, q]
                        if s & 1 and (s >> 1) <= win <= (s >> 1) + 2:
                            c = 1
                conc[u] = c
                u += 1
        # where the winning tile sits: 边张 / 嵌张 / 单钓将 (the first of them that applies)
        wait = 0
        edge = closed = False
        for j in range(need):
            s = out[a, j]
            if s & 1:
                t = s >> 1
                if t <= win <= t + 2:
                    if win == t + 1:
                        closed = True
                    elif (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
                        edge = True
        if edge:
            wait = 1
        elif closed:
            wait = 2
        elif p == win:
            wait = 3
        if wait:
            if unique < 0:
                unique = _unique_wait(pre_c, win, mk, mt, nmelds, flags, special, buf)
            if unique == 0:
                wait = 0
        counted[:] = 0
        total = _arrangement(kind, tile, conc, kong, 5, present, flags, wait, hogs, nine_gates, open_melds,
                             counted, buf)
        better = total > best_total
        if total == best_total:  # _tie_key: more chows, then the sets by tile (pung first)
            if chows_n != best_chows:
                better = chows_n > best_chows
            else:
                for j in range(need):
                    if out[a, j] != out[best, j]:
                        better = out[a, j] < out[best, j]
                        break
        if better:
            best_total = total
            best = a
            best_chows = chows_n
            best_counted[:] = counted
    # the special shapes after the standard ones, in scoring._tie_key's order: 组合龙, 七对, 全不靠,
    # 十三幺; each replaces the best so far only with more points (the first of equals stays)
    shape = 0  # the best arrangement's: 0 standard, 1 组合龙 (row best_k), -1 七对, -2 十三幺, -3 全不靠
    best_k = -1
    for q in range(nk):
        a = kout[q, 0]
        p = kout[q, 1]
        sc = kout[q, 2]
        in_knit = False
        for j in range(9):
            if _KNITTED[a, j] == win:
                in_knit = True
        if nmelds == 1:  # the set is the declared meld
            k = mk[0]
            set_kind = 0 if k == CHOW_MELD else 1
            set_tile = mt[0]
        else:
            set_kind = 0 if sc & 1 else 1
            set_tile = sc >> 1
        # where the winning tile sits (scoring._wait_fan over the sorted groups: the chow, the
        # knitted straight, the pair)
        wait = 0
        if nmelds == 0 and set_kind == 0 and set_tile <= win <= set_tile + 2:
            if win == set_tile + 1:
                wait = 2
            elif (win == set_tile + 2 and set_tile % 9 == 0) or (win == set_tile and set_tile % 9 == 6):
                wait = 1
        if in_knit and not flags & KNITTED_WAITS:
            wait = 0
        elif wait == 0 and p == win:
            wait = 3
        if wait:
            if unique < 0:
                unique = _unique_wait(pre_c, win, mk, mt, nmelds, flags, special, buf)
            if unique == 0:
                wait = 0
        counted[:] = 0
        total = _knitted_fans(set_kind, set_tile, melded, hidden, p, present, flags, wait, hogs, open_melds,
                              counted, buf)
        better = total > best_total
        if total == best_total and shape == 1:  # _tie_key: a concealed chow first, then by set
            chows_n = nmelds == 0 and set_kind == 0
            best_chows = nmelds == 0 and kout[best_k, 2] & 1 == 1
            if chows_n != best_chows:
                better = chows_n
            elif nmelds == 0:
                better = sc < kout[best_k, 2]
        if better:
            best_total = total
            best_counted[:] = counted
            shape = 1
            best_k = q
    for sp in (0, 2, 1):
        if (seven if sp == 0 else orphans if sp == 1 else honors_knitted):
            counted[:] = 0
            total = _special_fans(sp, present, full, flags, counted, buf)
            if total > best_total:
                best_total = total
                best_counted[:] = counted
                shape = -1 - sp if sp < 2 else -3
    # pack the fans in counting order (points descending, number ascending)
    packs = buf[_PACKS:_PACKS + 3]
    packs[:] = 0
    nf = 0
    for q in range(_BY_OKEY.shape[0]):
        f = _BY_OKEY[q]
        c = best_counted[f]
        if c:
            if nf >= 15 or c > 15:
                return (PYTHON, 0, 0, 0, 0, 0)
            packs[nf // 5] |= (f << 4 | c) << (11 * (nf % 5))
            nf += 1
    if shape < 0:
        return (OK, best_total, packs[0], packs[1], packs[2], shape)
    if shape == 1:  # sorted groups: the concealed chow, the knitted straight (a pair code, tile 34 +
        # its arrangement), the pair, the concealed pung; returned as -(packed << 2)
        a = kout[best_k, 0]
        sc = kout[best_k, 2]
        groups = 0
        g = 0
        if nmelds == 0 and sc & 1:
            groups |= (1 << 6 | sc >> 1) << (8 * g)
            g += 1
        groups |= (2 << 6 | (34 + a)) << (8 * g)
        g += 1
        groups |= (2 << 6 | kout[best_k, 1]) << (8 * g)
        g += 1
        if nmelds == 0 and not sc & 1:
            groups |= (3 << 6 | sc >> 1) << (8 * g)
        return (OK, best_total, packs[0], packs[1], packs[2], -(groups << 2))
    # pack the concealed groups as sorted (kind name, tiles): chows, the pair, pungs
    groups = 0
    g = 0
    for j in range(need):
        s = out[best, j]
        if s & 1:
            groups |= (1 << 6 | s >> 1) << (8 * g)
            g += 1
    groups |= (2 << 6 | pairs[best]) << (8 * g)
    g += 1
    for j in range(need):
        s = out[best, j]
        if not s & 1:
            groups |= (3 << 6 | s >> 1) << (8 * g)
            g += 1
    return (OK, best_total, packs[0], packs[1], packs[2], groups)


def _unique_wait(pre: np.ndarray, win: int, mk: np.ndarray, mt: np.ndarray, nmelds: int, flags: int,
                 special: bool, buf: np.ndarray) -> int:
    """1 if ``win`` is the only tile completing ``pre``, as ``scoring._unique_wait`` counts: in a
    standard shape, or with ``special`` in a special shape too (seven pairs, thirteen orphans,
    全不靠, 组合龙; never with a fifth copy); with ``fifth_copy_waits`` every tile completing the
    form, without it only tiles with a copy out of the player's hand and melds."""
    fifth = flags & FIFTH != 0
    visible = buf[_VIS:_VIS + 34]
    visible[:] = 0
    if not fifth:
        for j in range(nmelds):
            t = mt[j]
            if mk[j] == CHOW_MELD:
                visible[t] += 1
                visible[t + 1] += 1
                visible[t + 2] += 1
            elif mk[j] == PUNG_MELD:
                visible[t] += 3
            else:
                visible[t] += 4
    codes = buf[_CODES:_CODES + 4]
    for g in range(4):
        codes[g] = _group_code(pre, g, buf)
    count = 0
    for t in range(34):
        if pre[t] >= 5 or (t >= 27 and pre[t] == 0 and not special):
            continue
        if t < 27 and not pre[t] and not special:  # a standard shape takes a tile next to one held
            r = t % 9
            if not ((r > 0 and pre[t - 1]) or (r > 1 and pre[t - 2]) or (r < 8 and pre[t + 1])
                    or (r < 7 and pre[t + 2])):
                continue
        if not fifth and pre[t] + visible[t] >= 4:
            continue
        if _completes(pre, codes, t, buf) or (special and (
                _seven_pairs_with(pre, t) or _orphans_with(pre, t)
                or (nmelds == 0 and pre[t] == 0 and _honors_knitted_with(pre, t)) or _knitted_with(pre, t, buf))):
            count += 1
            if count > 1:
                return 0
    return 1 if count == 1 else 0
