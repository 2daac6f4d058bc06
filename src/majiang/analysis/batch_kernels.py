"""The compiled loops behind :mod:`majiang.analysis.batch` (numba; imported only when numba is there).

Each row is worked out as :func:`majiang.analysis.shanten` works it out, through the group
used-vectors of :mod:`majiang.rl.kernels` (``_nat_shanten``, ``_sx``: the standard shape, seven
pairs, thirteen orphans, eight pairs, 不搭, ``wilds_win``, a wildcard as a fifth copy) plus the two
knitted shapes here (:func:`_knit`, as ``win._specials``). A win is a shanten of -1; a wait of a
3k+1 hand is a tile held fewer than four times whose draw makes it -1 (``Waits.tiles``).

Rows the loops do not take are marked in ``skip`` and left to the Python path: more than
:data:`majiang.rl.kernels.MAX_TILES` tiles, or a knitted shape with wildcards that may stand for a
fifth copy (``win._special_need`` then solves the rest without the four-copy cap).
"""

from __future__ import annotations

import numpy as np

from majiang.analysis.shapes import KNITTED_ARRANGEMENTS
from majiang.rl import kernels

_KERNELS = ("_knit", "_finish", "_group", "_std_win", "_std_waits", "_batch")
_STATE: list[bool] = []
_ARR = np.array(KNITTED_ARRANGEMENTS, dtype=np.int64)  # (6, 9)

SHANTEN, WINS, WAITS = 0, 1, 2
"""What :func:`run` computes per row."""


def available() -> bool:
    """True when the loops run compiled (numba there, ``MAJIANG_NUMBA`` not 0; see
    :func:`majiang.rl.kernels.available`)."""
    return kernels.module_available(_STATE, globals(), _KERNELS, __file__)


def _knit(nat: np.ndarray, total: int, w: int, hk: int, ks: int, arr: np.ndarray, rest: np.ndarray,
          keys: np.ndarray, W: np.ndarray, su: np.ndarray, hu: np.ndarray) -> int:
    """The knitted shapes' shanten (全不靠 ``hk``, 组合龙 ``ks``) of naturals ``nat`` and ``w``
    wildcards, ``total`` tiles: ``win._specials``' numbers (99 where neither applies). ``rest``,
    ``keys``, ``W``: scratch."""
    best = 99
    small = total == 13 or total == 14
    if not small and not (ks and (total == 10 or total == 11)):
        return best
    top = 3 * (total // 3) + 1 - w
    kmax = 0
    for a in range(6):
        k = 0
        for j in range(9):
            if nat[arr[a, j]] > 0:
                k += 1
        if k > kmax:
            kmax = k
    if hk and small:
        used = kmax
        for t in range(27, 34):
            if nat[t] > 0:
                used += 1
        if used > 14:
            used = 14
        v = top - used
        best = v if v > -1 else -1
    if ks:
        n = total // 3 - 3
        for a in range(6):
            for t in range(34):
                rest[t] = nat[t]
            k = 0
            for j in range(9):
                t = arr[a, j]
                if rest[t] > 0:
                    rest[t] -= 1
                    k += 1
            if top - k - (3 * n + 2) >= best:  # the rest fully used cannot beat best
                continue
            kernels._load_all(rest, keys, W, su, hu)
            kernels._setup(W, n)
            used = 3 * n + 1 - kernels._std(W, kernels._V + 3, W, kernels._O + 3, n)
            v = top - k - used
            if v < -1:
                v = -1
            if v < best:
                best = v
    return best


def _finish(s: int, nat: np.ndarray, total: int, w: int, hk: int, ks: int, fifth: int, arr: np.ndarray,
            rest: np.ndarray, keys: np.ndarray, W: np.ndarray, su: np.ndarray, hu: np.ndarray, nf: np.ndarray) -> int:
    """``shanten``'s last steps after :func:`majiang.rl.kernels._sx` (called without its fix): the
    knitted shapes, then a 3k+2 hand at 0 that wins with a wildcard as a fifth copy is -1."""
    if s > -1 and (hk or ks):
        v = _knit(nat, total, w, hk, ks, arr, rest, keys, W, su, hu)
        if v < s:
            s = v
    if s == 0 and w > 0 and total % 3 == 2 and fifth and kernels._winfree(nat, w, nf, kernels._P5):
        s = -1
    return s


def _group(nat: np.ndarray, g: int) -> tuple[int, int]:
    """Group ``g``'s code (base 5) and tile count."""
    key = 0
    cnt = 0
    lo = 27 if g == 3 else 9 * g
    for f in range(7 if g == 3 else 9):
        c = nat[lo + f]
        key += c * kernels._P5[lo + f]
        cnt += c
    return key, cnt


def _std_win(nat: np.ndarray, su: np.ndarray, hu: np.ndarray) -> bool:
    """Whether naturals ``nat`` (no wildcard) make the standard shape: every group's tiles are sets,
    one group's sets and the pair -- its used-vector covers all of them (the win check's fast path)."""
    pairs = 0
    for g in range(4):
        key, cnt = _group(nat, g)
        r = cnt % 3
        if r == 1:
            return False
        if r == 2:
            pairs += 1
            if pairs > 1:
                return False
        tab = hu if g == 3 else su
        if tab[key, 0] < 0:
            kernels._fill(g, key, su, hu)
        if tab[key, 2 * (cnt // 3) + (1 if r == 2 else 0)] != cnt:
            return False
    return pairs == 1


def _std_waits(nat: np.ndarray, su: np.ndarray, hu: np.ndarray, out: np.ndarray, i: int) -> None:
    """``out[i, t] = 1`` for each tile ``t`` held fewer than four times whose draw makes naturals ``nat``
    (3k+1, no wildcard) the standard shape: only a group whose draw leaves every other group complete
    and one pair in all is tried, each of its faces by one look-up."""
    keys = np.zeros(4, dtype=np.int64)
    cnts = np.zeros(4, dtype=np.int64)
    done = np.zeros(4, dtype=np.int64)  # 1: the group's tiles are sets, or sets and the pair
    pairs = 0
    bad = 0
    for g in range(4):
        key, cnt = _group(nat, g)
        keys[g] = key
        cnts[g] = cnt
        r = cnt % 3
        if r == 2:
            pairs += 1
        if r != 1:
            tab = hu if g == 3 else su
            if tab[key, 0] < 0:
                kernels._fill(g, key, su, hu)
            if tab[key, 2 * (cnt // 3) + (1 if r == 2 else 0)] == cnt:
                done[g] = 1
        if done[g] == 0:
            bad += 1
    for g in range(4):
        if bad - (1 - done[g]) > 0:
            continue
        cnt = cnts[g] + 1
        r = cnt % 3
        if r == 1 or pairs - (1 if cnts[g] % 3 == 2 else 0) + (1 if r == 2 else 0) != 1:
            continue
        col = 2 * (cnt // 3) + (1 if r == 2 else 0)
        lo = 27 if g == 3 else 9 * g
        tab = hu if g == 3 else su
        for f in range(7 if g == 3 else 9):
            if nat[lo + f] >= 4:
                continue
            key = keys[g] + kernels._P5[lo + f]
            if tab[key, 0] < 0:
                kernels._fill(g, key, su, hu)
            if tab[key, col] == cnt:
                out[i, lo + f] = 1


def _batch(counts: np.ndarray, wilds: np.ndarray, mode: int, sev: int, quad2: int, orph: int, eight: int, wwin: int,
           unc: int, fifth: int, hk: int, ks: int, su: np.ndarray, hu: np.ndarray, nf: np.ndarray,
           out: np.ndarray, skip: np.ndarray) -> int:
    """Row ``i`` of ``counts`` (``(n, 34)``, checked by the caller) with ``wilds[i]`` wildcards:
    ``out[i, 0]`` = its shanten (``mode`` :data:`SHANTEN`), whether it wins (:data:`WINS`, 0/1), or
    ``out[i, t]`` = whether drawing ``t`` wins (:data:`WAITS`). Rows left to the Python path get
    ``skip[i] = 1``; returns how many."""
    arr = _ARR
    nat = np.zeros(34, dtype=np.int64)
    rest = np.zeros(34, dtype=np.int64)
    keys = np.zeros(4, dtype=np.int64)
    keys2 = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    W2 = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    skipped = 0
    knitted = hk + ks > 0
    special = sev + orph + eight + unc + wwin + hk + ks > 0
    for i in range(counts.shape[0]):
        w = np.int64(wilds[i])
        total = w
        for t in range(34):
            nat[t] = counts[i, t]
            total += nat[t]
        if total + (1 if mode == WAITS else 0) > kernels.MAX_TILES or (knitted and fifth and w > 0):
            skip[i] = 1
            skipped += 1
            continue
        if mode == WINS and w == 0:
            if _std_win(nat, su, hu):
                out[i, 0] = 1
                continue
            if not special:
                out[i, 0] = 0
                continue
        if mode != WAITS:
            s = kernels._nat_shanten(nat, total, w, keys, W, st, sev, quad2, orph, eight, wwin, unc, fifth, False,
                                     0 if mode == WINS else -1, su, hu, nf)
            s = _finish(s, nat, total, w, hk, ks, fifth, arr, rest, keys2, W2, su, hu, nf)
            if mode == WINS:
                out[i, 0] = 1 if s < 0 else 0
            else:
                out[i, 0] = s
            continue
        if w == 0 and not special:
            _std_waits(nat, su, hu, out, i)
            continue
        kernels._nat_shanten(nat, total, w, keys, W, st, sev, quad2, orph, eight, wwin, unc, fifth, False, 0,
                             su, hu, nf)
        for t in range(34):
            c = nat[t]
            if c >= 4:
                continue
            g = kernels._GROUP[t]
            key = keys[g] + kernels._P5[t]
            kernels._change(st, c, 1, kernels._ORPHAN[t])
            nat[t] = c + 1
            if g == 3:
                if hu[key, 0] < 0:
                    kernels._fill(3, key, su, hu)
                s = kernels._sx(hu, key, W, kernels._O + 3, total + 1, w, nat, st, sev, quad2, orph, eight, wwin,
                                unc, fifth, False, 0, nf, kernels._P5)
            else:
                if su[key, 0] < 0:
                    kernels._fill(g, key, su, hu)
                s = kernels._sx(su, key, W, kernels._O + g, total + 1, w, nat, st, sev, quad2, orph, eight, wwin,
                                unc, fifth, False, 0, nf, kernels._P5)
            s = _finish(s, nat, total + 1, w, hk, ks, fifth, arr, rest, keys2, W2, su, hu, nf)
            nat[t] = c
            kernels._change(st, c + 1, -1, kernels._ORPHAN[t])
            out[i, t] = 1 if s < 0 else 0
    return skipped


def run(counts: np.ndarray, wilds: np.ndarray, mode: int, rules, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` (``(n, 34)`` for :data:`WAITS`, else ``(n, 1)``; int8) for the rows of ``counts``
    (``(n, 34)`` int8/uint8, 0-4; ``wilds`` ``(n,)`` int64) under ``rules`` (a :class:`~majiang.analysis.ShapeRules` with the standard shape); returns
    the ``(n,)`` uint8 marks of the rows left to the Python path. Call :func:`available` first."""
    su, hu = kernels._Tables.get()
    nf = kernels._Tables.free()
    skip = np.zeros(counts.shape[0], dtype=np.uint8)
    _batch(counts, wilds, mode, int(rules.seven_pairs), int(rules.quad_as_two_pairs), int(rules.thirteen_orphans),
           int(rules.eight_pairs), int(rules.wilds_win), int(rules.unconnected), int(rules.wild_fifth_copy),
           int(rules.honors_and_knitted), int(rules.knitted_straight), su, hu, nf, out, skip)
    return skip
