"""Wenzhou winning shapes the analysis layer does not have yet: 不搭 and 八对.

Both are small predicates over ``(counts34, wilds)`` — the natural tiles of the concealed part with
the winning tile, and the number of wildcards (RULES.md §1.3 natural identities: a 白板 standing in
is counted as the 财神's face). They are meant to move to :mod:`majiang.analysis.shapes` later.

* **不搭** (W13 only, RULES.md §4.3, SD3): 14 concealed tiles of which no two could make a set or a
  pair with any third tile ("任意两张间加入任意一张牌都不能形成111，123"): no face twice, honours all
  different, suit tiles of one suit at least 3 ranks apart (1-4-7, 2-5-8, 1-5-9 ...). Wildcards:
  ``wild_mode="free"`` (default; C8 ignores the 财神 in this test) exempts them; ``"fill"`` makes
  each wildcard play a further tile that keeps the hand 不搭.
* **八对** (W16, RULES.md §4.3; C1, C3): 17 concealed tiles as eight pairs plus one loose tile; four
  of a kind are two pairs, three of a kind a pair and the loose tile; wildcards pair anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from majiang.errors import TileCountError
from majiang.rules.wenzhou.common import OptionsError
from majiang.tiles import NUM_KINDS

BUDA_SIZE = 14
EIGHT_PAIRS_SIZE = 17


def _check(counts: Sequence[int], wilds: int) -> int:
    if len(counts) != NUM_KINDS:
        raise TileCountError(f"a count vector has 34 entries, got {len(counts)}", kind="size", count=len(counts))
    if not isinstance(wilds, int) or wilds < 0:
        raise TileCountError(f"the number of wildcards must be >= 0, got {wilds!r}", kind="size")
    for t, n in enumerate(counts):
        if not isinstance(n, int) or n < 0:
            raise TileCountError(f"count {n!r} of tile {t} is not >= 0", kind="size", tile=t)
    return sum(counts) + wilds


@lru_cache(maxsize=None)
def _spread_sets() -> tuple[frozenset[int], ...]:
    """Every set of ranks 0-8 whose members are pairwise at least 3 apart."""
    out = []
    for k in range(0, 4):
        for combo in combinations(range(9), k):
            if all(b - a >= 3 for a, b in zip(combo, combo[1:])):
                out.append(frozenset(combo))
    return tuple(out)


def _suit_room(ranks: frozenset[int]) -> int:
    """How many more ranks a spread suit holding ``ranks`` can take (-1 if ``ranks`` is not spread)."""
    best = -1
    for s in _spread_sets():
        if ranks <= s:
            best = max(best, len(s) - len(ranks))
    return best


def buda_room(counts: Sequence[int]) -> int:
    """How many wildcards could join these naturals as further 不搭 tiles; -1 if the naturals are
    not 不搭 themselves (a face twice, or two tiles of one suit less than 3 apart)."""
    if any(n > 1 for n in counts):
        return -1
    room = 0
    for base in (0, 9, 18):
        r = _suit_room(frozenset(i for i in range(9) if counts[base + i]))
        if r < 0:
            return -1
        room += r
    return room + sum(1 for t in range(27, 34) if not counts[t])


def is_buda(counts: Sequence[int], wilds: int = 0, *, wild_mode: str = "free") -> bool:
    """不搭 (see module doc): 14 tiles, naturals pairwise unconnected; wildcards exempt (``"free"``)
    or each placed as another unconnected tile (``"fill"``).

    Raises :class:`~majiang.errors.TileCountError` for a malformed count vector and
    :class:`~majiang.rules.wenzhou.common.OptionsError` for a bad mode.
    """
    if wild_mode not in ("free", "fill"):
        raise OptionsError(f"wild_mode must be 'free' or 'fill', got {wild_mode!r}")
    if _check(counts, wilds) != BUDA_SIZE:
        return False
    room = buda_room(counts)
    if room < 0:
        return False
    return wild_mode == "free" or room >= wilds


def eight_pairs_need(counts: Sequence[int]) -> int:
    """Wildcards needed to make these naturals plus wildcards (17 in all) into 八对: one per odd
    count beyond the one loose tile (``max(odd faces - 1, 0)``)."""
    odd = sum(1 for n in counts if n % 2)
    return max(odd - 1, 0)


def is_eight_pairs(counts: Sequence[int], wilds: int = 0) -> bool:
    """八对: 17 concealed tiles as eight pairs + one loose tile, wildcards free (module doc)."""
    if _check(counts, wilds) != EIGHT_PAIRS_SIZE:
        return False
    return eight_pairs_need(counts) <= wilds


def is_natural_eight_pairs(counts: Sequence[int], wilds: int, wild_face: int | None) -> bool:
    """八对 with every wildcard on its own face (归位) — the "natural" 八对 of W16 (RULES.md §4.5):
    true if the naturals alone form it (no wildcard), or with every wildcard added to ``wild_face``."""
    if _check(counts, wilds) != EIGHT_PAIRS_SIZE:
        return False
    if wilds == 0:
        return eight_pairs_need(counts) == 0
    if wild_face is None:
        return False
    c = list(counts)
    c[wild_face] += wilds
    return sum(1 for n in c if n % 2) == 1
