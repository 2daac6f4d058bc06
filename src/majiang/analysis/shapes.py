"""Which winning shapes a rule set allows, and the special shapes themselves.

:class:`ShapeRules` is the switchboard the analysis functions take (RULES.md §1.3, §2, §9; issue 2):

* ``standard``: n sets (chows, pungs) + one pair; honours never form chows;
* ``seven_pairs`` (七对): 14 concealed tiles as seven pairs; ``quad_as_two_pairs`` lets four of a
  kind count as two pairs (MCR, Sichuan; trap HU-09);
* ``thirteen_orphans`` (十三幺): one of each terminal and honour plus a duplicate of one of them;
* ``honors_and_knitted`` (全不靠, which includes 七星不靠): 14 single tiles: honours plus tiles of
  one knitted arrangement (147/258/369, each in a different suit);
* ``knitted_straight`` (组合龙): the nine tiles of one knitted arrangement plus one set and a pair
  (the set may be a declared meld);
* ``unconnected`` (不搭, Wenzhou seed 003; RULES.md §4.3): 14 concealed tiles no two of which could
  make a set or a pair with any third tile: no face twice, honours all different, tiles of one suit
  at least three ranks apart (1-4-7, 2-5-8, 1-5-9...). Wildcards are free (they need not keep the
  spread; RULES.md §4.3 "wilds are free", as C8 does);
* ``eight_pairs`` (八对, Wenzhou W16; RULES.md §4.3): 17 concealed tiles as eight pairs plus one
  loose tile; four of a kind are two pairs; wildcards pair anything;
* ``wilds_win`` (0 = off): holding this many wildcards or more wins whatever the other tiles are
  (seed 000 and W16: 3; RULES.md §2.1, §4.3);
* ``wild_fifth_copy``: whether a wildcard may stand for a fifth copy of a face. Default ``True``:
  seed 000 lets a 百搭 "replace any tile"; ``False`` caps every face at four uses.

Special shapes only apply to a concealed part of 14 tiles (11 for the knitted straight with one
declared meld; 17 for eight pairs). Every special shape accepts wildcards filling any of its tiles
(trap WILD-C12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

from majiang.tiles import TERMINALS_AND_HONORS


@dataclass(frozen=True, slots=True)
class ShapeRules:
    """Winning shapes allowed and wildcard policy (see module doc)."""

    standard: bool = True
    seven_pairs: bool = False
    quad_as_two_pairs: bool = True
    thirteen_orphans: bool = False
    honors_and_knitted: bool = False
    knitted_straight: bool = False
    unconnected: bool = False
    eight_pairs: bool = False
    wilds_win: int = 0
    wild_fifth_copy: bool = True
    any_special: bool = field(init=False, repr=False, compare=False)
    """Whether any special shape is switched on (derived; read on the win check's hot path)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "any_special", bool(
            self.seven_pairs or self.thirteen_orphans or self.honors_and_knitted or self.knitted_straight
            or self.unconnected or self.eight_pairs or self.wilds_win > 0))


STANDARD = ShapeRules()
"""Standard shape only (the seed's ``TestHu``)."""
MCR_SHAPES = ShapeRules(seven_pairs=True, thirteen_orphans=True, honors_and_knitted=True, knitted_straight=True,
                        wild_fifth_copy=False)
"""Chinese Official (MCR): every special shape; no wildcards in MCR."""
ALL_SHAPES = MCR_SHAPES
SEVEN_PAIRS_AND_ORPHANS = ShapeRules(seven_pairs=True, thirteen_orphans=True)
"""Seed-000 profile and Wenzhou W13: 七对子 and 十三幺 allowed (RULES.md §9.1)."""

KNITTED_ARRANGEMENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + r for suit, start in zip(order, (0, 1, 2)) for r in (start, start + 3, start + 6)))
    for order in permutations(range(3))
)
"""The six knitted arrangements (147/258/369 spread over the three suits), each as 9 tile indices."""

_HONORS = tuple(range(27, 34))


def special_size_ok(total: int) -> bool:
    return total == 14


def seven_pairs_need(counts: Sequence[int], quad_as_two: bool = True) -> int:
    """Wildcards needed to make 14 tiles into seven pairs (large if impossible)."""
    singles = 0
    for n in counts:
        if n:
            if n == 1:
                singles += 1
            elif n == 3:
                if not quad_as_two:
                    return 99
                singles += 1
            elif n == 4 and not quad_as_two:
                return 99
    return singles


def thirteen_orphans_need(counts: Sequence[int]) -> int:
    """Wildcards needed for thirteen orphans from these naturals (99 if impossible)."""
    missing = 0
    dup = 0
    for t in TERMINALS_AND_HONORS:
        n = counts[t]
        if n == 0:
            missing += 1
        elif n == 2:
            dup += 1
        elif n > 2:
            return 99
    if dup > 1 or sum(counts) != sum(counts[t] for t in TERMINALS_AND_HONORS):
        return 99
    return missing + (0 if dup else 1)


def honors_and_knitted_need(counts: Sequence[int]) -> int:
    """Wildcards needed for 全不靠 (14 distinct tiles from honours + one knitted arrangement)."""
    total = sum(counts)
    if any(n > 1 for n in counts):
        return 99
    for arr in KNITTED_ARRANGEMENTS:
        inside = sum(counts[t] for t in arr) + sum(counts[t] for t in _HONORS)
        if inside == total:
            return 14 - total
    return 99


def knitted_straight_options(counts: Sequence[int]) -> list[tuple[tuple[int, ...], list[int], int]]:
    """For each knitted arrangement: (arrangement, counts left after taking its present tiles, wilds needed
    to fill its absent tiles)."""
    out = []
    for arr in KNITTED_ARRANGEMENTS:
        rest = list(counts)
        need = 0
        for t in arr:
            if rest[t]:
                rest[t] -= 1
            else:
                need += 1
        out.append((arr, rest, need))
    return out


def _spread(ranks: list[int]) -> bool:
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:]))


def unconnected_ok(counts: Sequence[int]) -> bool:
    """True if the natural tiles are pairwise unconnected (不搭): no face twice, suit tiles 3+ apart."""
    if any(n > 1 for n in counts):
        return False
    return all(_spread([i for i in range(9) if counts[base + i]]) for base in (0, 9, 18))


def unconnected_used(counts: Sequence[int]) -> int:
    """Most natural tiles a 不搭 hand can keep (for the shanten): distinct honours plus, per suit, the
    largest set of ranks pairwise 3+ apart (taken greedily from the lowest, which is optimal)."""
    used = sum(1 for t in range(27, 34) if counts[t])
    for base in (0, 9, 18):
        last = -9
        for i in range(9):
            if counts[base + i] and i - last >= 3:
                used += 1
                last = i
    return min(used, 14)


def eight_pairs_need(counts: Sequence[int]) -> int:
    """Wildcards to make 17 tiles eight pairs plus one loose tile: one per odd count beyond one."""
    odd = sum(n & 1 for n in counts)
    return max(odd - 1, 0)


def eight_pairs_used(counts: Sequence[int]) -> int:
    """Most naturals eight pairs plus a loose tile can keep (for the shanten)."""
    pairs = sum(n // 2 for n in counts)
    odd = sum(n & 1 for n in counts)
    p = min(pairs, 8)
    singles = odd + 2 * (pairs - p)  # pairs beyond eight can only give loose tiles
    return 2 * p + min(singles, 8 - p + 1)
