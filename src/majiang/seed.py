"""The seed's ``TestHu`` (seed ``000_*``; RULES.md §2.1), a thin adapter over :mod:`majiang.analysis`.

``bool TestHu(const char pai[], int count, char baida)``:

* ``pai``: ``count`` tile codes sorted ascending — bamboo 0x01-0x09, dots 0x11-0x19, characters
  0x21-0x29, East South West North 0x30 0x40 0x50 0x60, 中 发 白 0x70 0x80 0x90; each copy of the
  wildcard (百搭) face is passed as 0x00;
* ``count`` = 3n+2, 0 ≤ n ≤ 5 (2..17); declared melds are not passed;
* ``baida``: the code of the face chosen as wildcard. White (0x90) plays as that face and arrives
  already converted to its code, so 0x90 appears only when White itself is the wildcard (RULES.md
  §2.1 ambiguity B: then a 0x90 that still appears is an ordinary White);
* true iff the tiles form one pair plus n sets (chows, pungs), wildcards standing for any tile
  (also their own face, 归位); three or four wildcards win outright. Special shapes (七对子,
  十三幺) are not part of ``TestHu`` (RULES.md §9.1).

Inputs outside this contract raise :class:`~majiang.errors.SeedContractError` naming the fault.
"""

from __future__ import annotations

from collections.abc import Sequence

from majiang.analysis.shapes import STANDARD
from majiang.analysis.win import win_need
from majiang.errors import SeedContractError, TileParseError
from majiang.tiles import NUM_KINDS, WHITE, WILD, from_seed_code, to_seed_code


def TestHu(pai: Sequence[int], count: int, baida: int) -> bool:  # noqa: N802 - the seed's name
    """The seed's win check: see the module doc. Returns ``True`` for a winning hand."""
    if not isinstance(count, int) or isinstance(count, bool):
        raise SeedContractError(f"count must be an int, got {count!r}")
    if count < 2 or count > 17 or count % 3 != 2:
        raise SeedContractError(f"count {count} is not 3n+2 with 0 <= n <= 5 (2, 5, 8, 11, 14 or 17)")
    if len(pai) < count:
        raise SeedContractError(f"pai holds {len(pai)} tiles, count says {count}")
    try:
        wild_face = from_seed_code(baida)
    except TileParseError:
        raise SeedContractError(f"baida 0x{baida:02x} is not a tile code" if isinstance(baida, int)
                                else f"baida {baida!r} is not a tile code") from None
    if wild_face == WILD:
        raise SeedContractError("baida must name a tile face, not 0x00")
    tiles = list(pai[:count])
    counts = [0] * NUM_KINDS
    wilds = 0
    prev = -1
    for i, code in enumerate(tiles):
        if not isinstance(code, int) or code < 0:
            raise SeedContractError(f"pai[{i}] = {code!r} is not a non-negative tile code")
        if code < prev:
            raise SeedContractError(f"pai is not sorted ascending: pai[{i}] = 0x{code:02x} after 0x{prev:02x}")
        prev = code
        try:
            t = from_seed_code(code, i)
        except TileParseError:
            raise SeedContractError(f"pai[{i}] = 0x{code:02x} is not a tile code") from None
        if t == WILD:
            wilds += 1
            continue
        if t == WHITE and wild_face != WHITE:
            raise SeedContractError(f"pai[{i}] = 0x90 (White) while 0x{baida:02x} is the wildcard: White should "
                                    f"arrive converted to 0x{baida:02x}")
        counts[t] += 1
        if counts[t] > 4:
            raise SeedContractError(f"more than four tiles 0x{to_seed_code(t):02x} in pai")
    if wilds > 4:
        raise SeedContractError(f"{wilds} wildcards (0x00): the wildcard face has only four copies")
    if wilds >= 3:
        return True
    return win_need(counts, wilds, STANDARD) <= wilds
