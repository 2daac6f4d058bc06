"""Hands: declared melds (chow, pung, kongs), the concealed tiles, the winning tile, flowers.

A :class:`Hand` is a value: concealed tiles (sorted tuple of tile indices, see
:mod:`majiang.tiles`), declared melds, an optional winning tile (not part of ``concealed``)
and flowers. :meth:`Hand.check` validates the tile count and names the fault:

* a fifth copy of a tile (``TileCountError(kind="fifth-copy")``);
* 小相公, one tile short (``kind="short"``) and 大相公, one tile too many (``kind="long"``),
  the seed ``000_*`` names for a hand whose size is off by one (RULES.md §2.4);
* any other size (``kind="size"``).

A kong counts as one set of three for the structure: with ``k`` melds the concealed part of
a complete hand has ``3(n-k)+2`` tiles, n = 4 in 13-tile games and 5 in 16-tile games
(RULES.md §1.2).

Text form (used by tests and the command line; the trap notation of ``shared/data``)::

    [chi 123m] [peng 555p] [kong-exposed 5555p] [kong-concealed 7777s] [kong-added 3333p] 11m234p 5p

i.e. bracketed melds, then the concealed tiles in compact notation; :meth:`Hand.parse` takes the
winning tile separately.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from majiang.errors import MeldError, TileCountError, TileParseError
from majiang.tiles import NUM_KINDS, WHITE, WILD, format_compact, is_flower, is_suited, parse_compact


class MeldKind(Enum):
    """The five kinds of declared meld."""

    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    EXPOSED_KONG = "exposed-kong"  # 明杠 from a discard
    CONCEALED_KONG = "concealed-kong"  # 暗杠
    ADDED_KONG = "added-kong"  # 加杠 / 补杠: a melded pung plus the self-drawn fourth tile

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.EXPOSED_KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG)


_TEXT_KIND = {
    "chi": MeldKind.CHOW, "chow": MeldKind.CHOW, "peng": MeldKind.PUNG, "pung": MeldKind.PUNG,
    "pon": MeldKind.PUNG, "kong-exposed": MeldKind.EXPOSED_KONG, "kong-concealed": MeldKind.CONCEALED_KONG,
    "kong-added": MeldKind.ADDED_KONG, "exposed-kong": MeldKind.EXPOSED_KONG,
    "concealed-kong": MeldKind.CONCEALED_KONG, "added-kong": MeldKind.ADDED_KONG,
}
_KIND_TEXT = {MeldKind.CHOW: "chi", MeldKind.PUNG: "peng", MeldKind.EXPOSED_KONG: "kong-exposed",
              MeldKind.CONCEALED_KONG: "kong-concealed", MeldKind.ADDED_KONG: "kong-added"}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld.

    Attributes:
        kind: the :class:`MeldKind`.
        tile: the lowest tile of a chow; the tile of a pung or kong.
        offer: who supplied the claimed tile, relative to the owner: 0 = nobody (concealed
            kong), 1 = the player on the left (上家), 2 = opposite (对家), 3 = on the right (下家).
            A chow is always offered by the left player.
        claimed: the tile taken from the discard (for a chow, which of its three tiles);
            ``None`` for a concealed kong.
        stand_in: for a chow only, the one tile of the chow that a physical 白板 plays (White standing
            in for the wildcard's face, RULES.md §2.1, §4.2), else ``None``. ``tiles`` are what the
            tiles play (the scorers read them); :attr:`physical` holds White in that place (the tile
            census). When ``claimed == stand_in`` the White was the discard claimed.
    """

    kind: MeldKind
    tile: int
    offer: int = 1
    claimed: int | None = None
    stand_in: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.tile < NUM_KINDS:
            raise MeldError(f"a meld cannot be made of tile {self.tile!r}")
        if self.kind is MeldKind.CHOW:
            if not is_suited(self.tile) or self.tile % 9 > 6:
                raise MeldError(f"no chow starts at {format_compact([self.tile])}: a chow is three consecutive "
                                "tiles of one suit")
            if self.claimed is not None and self.claimed not in self.tiles:
                raise MeldError(f"claimed tile {format_compact([self.claimed])} is not in the chow "
                                f"{format_compact(self.tiles)}")
        elif self.claimed is not None and self.claimed != self.tile:
            raise MeldError(f"claimed tile {format_compact([self.claimed])} is not in the meld "
                            f"{format_compact(self.tiles)}")
        if self.stand_in is not None and (self.kind is not MeldKind.CHOW or self.stand_in not in self.tiles):
            raise MeldError(f"a White stands in only for one tile of a chow, not for {self.stand_in!r} in a "
                            f"{self.kind.value} {format_compact(self.tiles)}")
        if not 0 <= self.offer <= 3:
            raise MeldError(f"offer must be 0-3 (relative seat), got {self.offer}")
        if self.kind is MeldKind.CONCEALED_KONG and self.offer != 0:
            object.__setattr__(self, "offer", 0)
        if self.kind is not MeldKind.CONCEALED_KONG and self.offer == 0:
            raise MeldError(f"a {self.kind.value} is claimed from another player: offer must be 1-3")

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles of the meld (4 for a kong)."""
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind.is_kong else 3)

    @property
    def physical(self) -> tuple[int, ...]:
        """The physical tiles of the meld: :attr:`tiles` with White (5z) where a 白板 stands in."""
        if self.stand_in is None:
            return self.tiles
        return tuple(WHITE if t == self.stand_in else t for t in self.tiles)

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong is a concealed meld."""
        return self.kind is MeldKind.CONCEALED_KONG

    def __str__(self) -> str:
        return f"[{_KIND_TEXT[self.kind]} {format_compact(self.tiles)}]"

    def notation(self) -> str:
        """The meld in its *physical* form: like ``str(meld)`` but a 白板 standing in is written as
        ``5z`` in its place, e.g. ``[chi 5z23m]`` for the chow 123m whose 1m is a White
        (:attr:`stand_in`). :func:`parse_meld` reads it back given the wildcard's face."""
        if self.stand_in is None:
            return str(self)
        rest = list(self.tiles)
        rest.remove(self.stand_in)
        return f"[{_KIND_TEXT[self.kind]} 5z{format_compact(rest)}]"


_MELD_RE = re.compile(r"\[\s*([a-zA-Z-]+)\s+([0-9mpsz]+)\s*(?:,\s*(\d))?\s*\]")


def parse_meld(text: str, wild: int | None = None) -> Meld:
    """Parse ``[chi 123m]``, ``[peng 555p]``, ``[kong-concealed 7777s]``... (optional ``,offer``).

    A chow may hold one 白板 standing in for the wildcard's face (RULES.md §2.1, §4.2):
    ``[chi 5z23m]`` with ``wild`` = 1m (tile 0) is the chow 123m whose 1m is a physical White
    (``Meld(CHOW, 0, stand_in=0)``). Raises :class:`~majiang.errors.MeldError` when a chow holds a
    White but ``wild`` is not given, is White itself, or does not complete the chow with the other
    two tiles, and for a chow with two Whites.
    """
    m = _MELD_RE.fullmatch(text.strip())
    if not m:
        raise TileParseError(f"not a meld: {text!r} (expected e.g. [chi 123m] or [peng 555z])", token=text,
                             position=0, notation="meld")
    kind = _TEXT_KIND.get(m.group(1).lower())
    if kind is None:
        raise TileParseError(f"unknown meld kind {m.group(1)!r} in {text!r}", token=m.group(1), position=1,
                             notation="meld")
    tiles = parse_compact(m.group(2))
    offer = int(m.group(3)) if m.group(3) else (0 if kind is MeldKind.CONCEALED_KONG else 1)
    want = 4 if kind.is_kong else 3
    if len(tiles) != want:
        raise MeldError(f"a {kind.value} has {want} tiles, {text!r} has {len(tiles)}")
    tiles.sort()
    stand_in = None
    if kind is MeldKind.CHOW and WHITE in tiles:
        if tiles.count(WHITE) > 1:
            raise MeldError(f"{text.strip()}: a chow holds at most one 白板 standing in for the wildcard's face")
        if wild is None:
            raise MeldError(f"{text.strip()}: a 白板 in a chow stands in for the wildcard's face; give that face "
                            "(Hand.parse(..., wild='1m'), --wild 1m)")
        if wild == WHITE or not 0 <= wild < NUM_KINDS:
            raise MeldError(f"{text.strip()}: with the wildcard face {format_compact([wild]) if 0 <= wild < NUM_KINDS else wild!r} "
                            "no 白板 stands in for it")
        tiles = sorted([wild] + [t for t in tiles if t != WHITE])
        stand_in = wild
        if tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2] or not is_suited(tiles[0]):
            raise MeldError(f"{text.strip()}: the 白板 plays the wildcard face {format_compact([wild])}, which makes "
                            f"{format_compact(tiles)}, not a chow")
    if kind is MeldKind.CHOW:
        if tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2] or not is_suited(tiles[0]) or tiles[0] // 9 != tiles[2] // 9:
            raise MeldError(f"{format_compact(tiles)} is not a chow")
    elif len(set(tiles)) != 1:
        raise MeldError(f"{format_compact(tiles)} is not a {kind.value}: its tiles differ")
    return Meld(kind, tiles[0], offer, stand_in=stand_in)


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's hand.

    Attributes:
        concealed: concealed tiles, sorted (without the winning tile).
        melds: declared melds.
        win_tile: the winning tile (drawn or claimed), or ``None`` for a hand not yet complete.
        flowers: flower tiles set aside (indices 34-41).
        wilds: number of wildcard tiles among the concealed tiles (not listed in ``concealed``).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    flowers: tuple[int, ...] = ()
    wilds: int = 0
    _counts: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        conc = tuple(sorted(self.concealed))
        for t in conc:
            if not 0 <= t < NUM_KINDS:
                raise TileParseError(f"tile {t!r} cannot be a concealed tile (flowers go to flowers=)",
                                     token=str(t), notation="hand")
        for f in self.flowers:
            if not is_flower(f):
                raise TileParseError(f"tile {f!r} is not a flower", token=str(f), notation="hand")
        object.__setattr__(self, "concealed", conc)
        object.__setattr__(self, "melds", tuple(self.melds))
        c = [0] * NUM_KINDS
        for t in conc:
            c[t] += 1
        object.__setattr__(self, "_counts", tuple(c))

    @classmethod
    def parse(cls, text: str, win_tile: str | int | None = None, flowers: int | str = "",
              wild: str | int | None = None) -> Hand:
        """Parse ``"[peng 555z] 123m456p..."``; ``*`` in the concealed part is a wildcard.

        ``win_tile`` is compact text (``"3m"``, ``"*"`` for a drawn wildcard) or a tile index.
        ``wild``: the wildcard's face (compact text or tile index), needed only to read a chow holding
        a 白板 that stands in for it, ``[chi 5z23m]`` (:func:`parse_meld`); the concealed tiles are
        kept as written (:func:`majiang.rules.wenzhou.natural_hand` turns copies of the face into
        wildcards).
        """
        wf: int | None
        if isinstance(wild, str):
            w = parse_compact(wild)
            if len(w) != 1 or not 0 <= w[0] < NUM_KINDS:
                raise TileParseError(f"the wildcard face must be one tile, got {wild!r}", token=wild, position=0,
                                     notation="compact")
            wf = w[0]
        else:
            wf = wild
        if win_tile is None and "+" in text:  # the printed form "... + 5m" (str(hand), notation())
            text, _, win_text = text.rpartition("+")
            win_tile = win_text.strip()
        melds = [parse_meld(m.group(0), wf) for m in re.finditer(r"\[[^\]]*\]", text)]
        rest = re.sub(r"\[[^\]]*\]", " ", text)
        if "[" in rest or "]" in rest:
            raise TileParseError(f"unbalanced brackets in {text!r}", token=text, position=text.find("["),
                                 notation="hand")
        tiles = parse_compact(rest, allow_wild=True)
        wilds = tiles.count(WILD)
        conc = [t for t in tiles if t != WILD]
        fl = tuple(parse_compact(flowers)) if isinstance(flowers, str) else ()
        wt: int | None
        if isinstance(win_tile, str):
            w = parse_compact(win_tile, allow_wild=True)
            if len(w) != 1:
                raise TileParseError(f"the winning tile must be one tile, got {win_tile!r}", token=win_tile,
                                     position=0, notation="compact")
            wt = w[0]
        else:
            wt = win_tile
        if wt == WILD:  # a drawn wildcard: it joins the wildcards
            return cls(tuple(conc), tuple(melds), WILD, fl, wilds)
        return cls(tuple(conc), tuple(melds), wt, fl, wilds)

    @property
    def counts(self) -> tuple[int, ...]:
        """Count vector (34) of the concealed tiles, without the winning tile."""
        return self._counts

    def full_counts(self) -> list[int]:
        """Count vector (34) of concealed tiles plus the winning tile (wildcards not included)."""
        c = list(self._counts)
        if self.win_tile is not None and self.win_tile != WILD:
            c[self.win_tile] += 1
        return c

    @property
    def total_wilds(self) -> int:
        """Wildcards in the concealed part, including a drawn wildcard winning tile."""
        return self.wilds + (1 if self.win_tile == WILD else 0)

    def all_tiles_counts(self) -> list[int]:
        """Every physical tile the player shows or holds (melds included), for the four-copy check."""
        c = self.full_counts()
        for m in self.melds:
            for t in m.tiles:
                c[t] += 1
        return c

    def check(self, sets: int = 4) -> None:
        """Validate the count: ``sets`` = 4 (13-tile games) or 5 (16-tile games).

        With a winning tile the concealed part plus it must be 3(sets - melds) + 2 tiles; without,
        3(sets - melds) + 1. Raises :class:`~majiang.errors.TileCountError` naming the fault
        (fifth copy; 小相公 one short; 大相公 one too many; other sizes).
        """
        for t, n in enumerate(self.all_tiles_counts()):
            if n > 4:
                raise TileCountError(f"{n} copies of {format_compact([t])}: there are only four of each tile",
                                     kind="fifth-copy", tile=t, count=n)
        if len(self.melds) > sets:
            raise TileCountError(f"{len(self.melds)} melds declared, a hand has at most {sets} sets",
                                 kind="size", count=len(self.melds))
        have = len(self.concealed) + self.wilds + (1 if self.win_tile is not None else 0)
        want = 3 * (sets - len(self.melds)) + (2 if self.win_tile is not None else 1)
        if have == want:
            return
        effective = have + 3 * len(self.melds)
        if have == want - 1:
            raise TileCountError(f"小相公 (one tile short): {effective} tiles counting each meld as 3, "
                                 f"{effective + 1} needed", kind="short", count=effective)
        if have == want + 1:
            raise TileCountError(f"大相公 (one tile too many): {effective} tiles counting each meld as 3, "
                                 f"{effective - 1} needed", kind="long", count=effective)
        raise TileCountError(f"wrong tile count: {effective} tiles counting each meld as 3, {want - have + effective} "
                             "needed", kind="size", count=effective)

    def notation(self) -> str:
        """The hand in the text form with melds in their physical form (:meth:`Meld.notation`):
        ``Hand.parse(h.notation(), wild=face)`` gives ``h`` back."""
        parts = [m.notation() for m in self.melds]
        parts.append(format_compact(self.concealed) + "*" * self.wilds)
        s = " ".join(p for p in parts if p)
        if self.win_tile is not None:
            s += " + " + format_compact([self.win_tile])
        return s

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        parts.append(format_compact(self.concealed) + "*" * self.wilds)
        s = " ".join(p for p in parts if p)
        if self.win_tile is not None:
            s += " + " + format_compact([self.win_tile])
        return s


# ------------------------------------------------------------------------------ 相公 (RULES.md §2.4)
@dataclass(frozen=True, slots=True)
class XiangGong:
    """A player's 相公 state (RULES.md §2.4, SD0).

    Attributes:
        state: ``"ok"``, ``"short"`` (小相公, one tile short) or ``"long"`` (大相公, one too many).
        may_win: a win may be declared (only ``"ok"``).
        may_kong: kongs may still be declared (SD0: the 小相公 may; the 大相公's kongs are void, so
            the engine may let him declare them but they count for nothing).
        kongs_count: his kongs score (``False`` only for 大相公).
        name_zh: 正常 / 小相公 / 大相公.
    """

    state: str
    may_win: bool
    may_kong: bool
    kongs_count: bool
    name_zh: str


def xianggong(held: int, melds: int, *, sets: int = 4, in_turn: bool = False) -> XiangGong:
    """Classify a tile count (RULES.md §2.4).

    ``held``: concealed tiles including wildcards; ``melds``: declared melds (a kong counts as one);
    ``in_turn``: the player has drawn and not yet discarded (3k+2 expected, else 3k+1);
    ``sets``: 4 (13-tile) or 5 (16-tile). Raises :class:`~majiang.errors.TileCountError`
    (``kind="size"``) for a count off by more than one or a bad ``sets``. The engine's table and
    :func:`majiang.rules.seed000.xianggong` use it.
    """
    if sets not in (4, 5):
        raise TileCountError(f"sets must be 4 or 5, got {sets!r}", kind="size", count=sets)
    if not isinstance(melds, int) or not 0 <= melds <= sets:
        raise TileCountError(f"{melds!r} declared melds: 0-{sets} expected", kind="size", count=melds)
    want = 3 * (sets - melds) + (2 if in_turn else 1)
    if held == want:
        return XiangGong("ok", True, True, True, "正常")
    if held == want - 1:
        return XiangGong("short", False, True, True, "小相公")
    if held == want + 1:
        return XiangGong("long", False, True, False, "大相公")
    raise TileCountError(f"{held} concealed tiles with {melds} melds: {want} expected (more than one off is "
                         "no 相公, it is a broken hand)", kind="size", count=held)
