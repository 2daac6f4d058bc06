"""Slow, obviously-correct references for the hand analysis (test-only).

* :func:`brute_win`: backtracking over every group that can hold the lowest natural tile, wildcards
  paying for missing tiles; independent of the lookup tables under test.
* :func:`identity_win`: tries every identity for each wildcard (used for 0-2 wildcards) and checks
  the resulting natural hand by plain recursion: a third, different route.
* :func:`exchange_shanten`: the definition of shanten — the fewest tiles to exchange for real draws
  (a face never more than 4 times) before the hand wins — by exhaustive search (small hands).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

TERMS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = []
for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
    KNITTED.append(frozenset(9 * s + r for s, st in zip(order, (0, 1, 2)) for r in (st, st + 3, st + 6)))


def _groups_with(i: int):
    """Every set/pair (as tuple of faces) whose lowest natural could be face i."""
    out = [((i, i, i), False), ((i, i), True)]
    if i < 27:
        r = i % 9
        for s in (i - 2, i - 1, i):
            if s >= i - r and s % 9 <= 6 and s // 9 == i // 9 and s >= 0:
                out.append(((s, s + 1, s + 2), False))
    return out


def brute_win(counts, wilds: int, fifth: bool = True) -> bool:
    """Standard shape: all naturals in sets + one pair; wilds fill anything; usage <= 4 unless fifth."""
    total = sum(counts) + wilds
    if total % 3 != 2:
        return False

    @lru_cache(maxsize=None)
    def rec(c: tuple, w: int, pair: bool, usage: tuple) -> bool:
        try:
            i = next(k for k, n in enumerate(c) if n)
        except StopIteration:
            if pair:
                return w % 3 == 0
            return w >= 2 and (w - 2) % 3 == 0
        for faces, is_pair in _groups_with(i):
            if is_pair and pair:
                continue
            cc = list(c)
            uu = list(usage)
            need = 0
            for f in faces:
                if cc[f] > 0:
                    cc[f] -= 1
                else:
                    need += 1
                    uu[f] += 1
            if need > w:
                continue
            if not fifth and any(u > 4 for u in uu):
                continue
            if rec(tuple(cc), w - need, pair or is_pair, tuple(uu)):
                return True
        return False

    return rec(tuple(counts), wilds, False, tuple(counts))


def _natural_win(c: list) -> bool:
    def sets_only(c):
        try:
            i = next(k for k, n in enumerate(c) if n)
        except StopIteration:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
            ok = sets_only(c)
            c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
            return ok
        return False

    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def identity_win(counts, wilds: int, fifth: bool = True) -> bool:
    """Standard shape by trying every identity of every wildcard (fine for 0-2 wildcards)."""
    if (sum(counts) + wilds) % 3 != 2:
        return False
    for ids in combinations_with_replacement(range(34), wilds):
        c = list(counts)
        for t in ids:
            c[t] += 1
        if not fifth and any(n > 4 for n in c):
            continue
        if _natural_win(c):
            return True
    return False


def special_win(counts, wilds: int, quad_as_two: bool = True) -> set[str]:
    """Special shapes (14 tiles) that the hand completes, by definition."""
    out = set()
    if sum(counts) + wilds != 14:
        return out
    # seven pairs: every face's count + the wilds given to it is even, at most 4 (2 if no quads)
    odd = sum(1 for n in counts if n % 2)
    if odd <= wilds and (quad_as_two or all(n <= 2 for n in counts)):
        out.add("seven-pairs")
    # thirteen orphans
    if all(counts[t] <= 2 for t in TERMS) and sum(counts[t] for t in TERMS) == sum(counts):
        if sum(1 for t in TERMS if counts[t] == 2) <= 1:
            out.add("thirteen-orphans")
    # honours and knitted
    if all(n <= 1 for n in counts):
        for k in KNITTED:
            if all(counts[t] == 0 or t in k or t >= 27 for t in range(34)):
                out.add("honors-and-knitted")
                break
    return out


def exchange_shanten(counts, wilds: int, win) -> int:
    """Shanten by definition: fewest naturals to swap for real draws (<= 4 per face) until ``win``."""
    total = sum(counts) + wilds
    complete = total % 3 == 2
    if complete and win(counts, wilds):
        return -1
    nat = [t for t, n in enumerate(counts) for _ in range(n)]
    from itertools import combinations
    for k in range(0, len(nat) + 1):
        add = k if complete else k + 1
        if complete and k == 0:
            continue
        for rem in set(combinations(nat, k)):
            c = list(counts)
            for t in rem:
                c[t] -= 1
            for extra in combinations_with_replacement(range(34), add):
                cc = list(c)
                for t in extra:
                    cc[t] += 1
                if any(n > 4 for n in cc):
                    continue
                if win(cc, wilds):
                    return k - 1 if complete else k
    return 99
