"""Tiles: the 34 kinds, the 8 flowers, count vectors, and every notation we read and write.

A tile is a plain ``int`` (fast, hashable, usable as an index):

======  ===========================================================
index   tiles
======  ===========================================================
0-8     characters 一万..九万 (``1m``..``9m``)
9-17    dots 一筒..九筒 (``1p``..``9p``)
18-26   bamboo 一条..九条 (``1s``..``9s``)
27-30   winds East South West North 东南西北 (``1z``..``4z``)
31-33   dragons White Green Red 白发中 (``5z`` ``6z`` ``7z``)
34-41   flowers 春夏秋冬梅兰竹菊 (``1f``..``8f``); bonus tiles, never in a set
42      ``WILD``: a wildcard (百搭/财神) in notations that write one (``*``, seed ``0x00``)
======  ===========================================================

Every notation comes as a ``parse_X``/``format_X`` pair; ``parse_X(format_X(tiles)) == tiles``
for every list the notation can express (order kept). Bad text raises
:class:`~majiang.errors.TileParseError` naming the token and its position.

Notations (RULES.md §1.1; issue 2):

* compact ``123m456p789s1234567z12f`` (``*`` = wildcard);
* Chinese names ``一万 五筒 九条 东 中 春`` (traditional forms and 索/饼/白板/红中... accepted);
* Unicode Mahjong Tiles block U+1F000-U+1F02B;
* Botzone codes ``W1 B5 T9 F1 J1 H1`` (W characters, B dots, T bamboo, F winds, J1-3 Red Green White,
  H1-8 flowers);
* the seed ``000_*`` hex codes (bamboo 0x01-0x09, dots 0x11-0x19, characters 0x21-0x29,
  winds 0x30-0x60, 中发白 0x70 0x80 0x90, wildcard 0x00).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from majiang.errors import TileParseError

NUM_KINDS = 34
"""Number of tile kinds that form sets (suits and honours)."""
NUM_TILES = 42
"""Kinds including the 8 flowers."""

CHARACTERS = range(0, 9)
DOTS = range(9, 18)
BAMBOO = range(18, 27)
WINDS = range(27, 31)
DRAGONS = range(31, 34)
HONORS = range(27, 34)
FLOWERS = range(34, 42)

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WILD = 42
"""Pseudo-tile for a wildcard written in a notation (``*`` compact, ``0x00`` seed)."""

TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The 13 kinds of thirteen orphans (十三幺)."""

SUIT_LETTERS = "mps"


def is_suited(t: int) -> bool:
    """True for characters, dots and bamboo (0-26)."""
    return 0 <= t < 27


def is_honor(t: int) -> bool:
    """True for winds and dragons (27-33)."""
    return 27 <= t < 34


def is_flower(t: int) -> bool:
    """True for the 8 flowers (34-41)."""
    return 34 <= t < 42


def is_terminal(t: int) -> bool:
    """True for a 1 or 9 of a suit."""
    return t < 27 and t % 9 in (0, 8)


def suit_of(t: int) -> str:
    """The compact suit letter: ``m``, ``p``, ``s``, ``z`` (honours) or ``f`` (flowers)."""
    if t < 27:
        return SUIT_LETTERS[t // 9]
    if t < 34:
        return "z"
    if t < 42:
        return "f"
    raise ValueError(f"not a tile index: {t}")


def rank_of(t: int) -> int:
    """The number written in compact notation: 1-9 for suits, 1-7 honours, 1-8 flowers."""
    if t < 27:
        return t % 9 + 1
    if t < 34:
        return t - 26
    return t - 33


def tile(text: str) -> int:
    """One tile from compact notation, e.g. ``tile("5z") == WHITE``."""
    tiles = parse_compact(text)
    if len(tiles) != 1:
        raise TileParseError(f"expected one tile, got {len(tiles)} in {text!r}", token=text, position=0,
                             notation="compact")
    return tiles[0]


def to_counts(tiles: Iterable[int]) -> list[int]:
    """Count vector of length 34 (flowers and wildcards are not counted: raise)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if not 0 <= t < NUM_KINDS:
            raise TileParseError(f"tile {t!r} has no place in a count vector of 34 kinds", token=str(t),
                                 notation="counts")
        c[t] += 1
    return c


def from_counts(counts: Sequence[int]) -> list[int]:
    """Sorted tile list from a count vector."""
    return [t for t, n in enumerate(counts) for _ in range(n)]


# --------------------------------------------------------------------- compact notation
_COMPACT_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_COMPACT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}


def parse_compact(text: str, *, allow_wild: bool = False) -> list[int]:
    """Parse ``123m456p789s1234567z1f`` (order kept; spaces ignored).

    ``*`` is a wildcard (:data:`WILD`) when ``allow_wild``. Raises :class:`TileParseError`
    naming the bad character and its position (a ``0``, an ``8z``, digits without a suit
    letter, an unknown character).
    """
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
        elif ch in _COMPACT_MAX:
            if not pending:
                raise TileParseError(f"suit letter {ch!r} at position {pos} has no digits before it",
                                     token=ch, position=pos, notation="compact")
            for d, dpos in pending:
                if not 1 <= d <= _COMPACT_MAX[ch]:
                    raise TileParseError(f"no tile {d}{ch} (at position {dpos}): {ch} tiles are 1-{_COMPACT_MAX[ch]}",
                                         token=f"{d}{ch}", position=dpos, notation="compact")
                out.append(_COMPACT_BASE[ch] + d - 1)
            pending.clear()
        elif ch == "*" and allow_wild:
            if pending:
                d, dpos = pending[0]
                raise TileParseError(f"digits at position {dpos} have no suit letter", token=str(d),
                                     position=dpos, notation="compact")
            out.append(WILD)
        else:
            raise TileParseError(f"unexpected character {ch!r} at position {pos} in compact notation",
                                 token=ch, position=pos, notation="compact")
    if pending:
        d, dpos = pending[0]
        raise TileParseError(f"digits from position {dpos} have no suit letter (m, p, s, z or f)",
                             token="".join(str(x) for x, _ in pending), position=dpos, notation="compact")
    return out


def format_compact(tiles: Iterable[int]) -> str:
    """Write tiles in compact notation, grouping runs of one suit: ``[0,1,2,27]`` → ``123m1z``.

    Order is kept; pass ``sorted(tiles)`` for the canonical form. :data:`WILD` is ``*``.
    """
    parts: list[str] = []
    run_suit = ""
    for t in tiles:
        if t == WILD:
            if run_suit:
                parts.append(run_suit)
                run_suit = ""
            parts.append("*")
            continue
        s = suit_of(t)
        if run_suit and s != run_suit:
            parts.append(run_suit)
        run_suit = s
        parts.append(str(rank_of(t)))
    if run_suit:
        parts.append(run_suit)
    return "".join(parts)


# --------------------------------------------------------------------- Chinese names
_CN_DIGITS = "一二三四五六七八九"
_CN_HONORS = ["东", "南", "西", "北", "白", "发", "中"]
_CN_FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"]
CHINESE_NAMES: tuple[str, ...] = tuple(
    [d + "万" for d in _CN_DIGITS] + [d + "筒" for d in _CN_DIGITS] + [d + "条" for d in _CN_DIGITS]
    + _CN_HONORS + _CN_FLOWERS
)
"""Canonical Chinese name of each tile index 0-41."""

_CN_ALIASES: dict[str, int] = {name: i for i, name in enumerate(CHINESE_NAMES)}
for _i, _d in enumerate(_CN_DIGITS):
    for _suffix, _base in (("萬", 0), ("饼", 9), ("餅", 9), ("條", 18), ("索", 18)):
        _CN_ALIASES[_d + _suffix] = _base + _i
_CN_ALIASES["幺鸡"] = 18
_CN_ALIASES["么鸡"] = 18
for _alias, _t in {"東": EAST, "東風": EAST, "东风": EAST, "南风": SOUTH, "南風": SOUTH, "西风": WEST,
                   "西風": WEST, "北风": NORTH, "北風": NORTH, "白板": WHITE, "發": GREEN, "发财": GREEN,
                   "發財": GREEN, "红中": RED, "紅中": RED, "蘭": 39, "松": 38, "百搭": WILD, "财神": WILD,
                   "財神": WILD}.items():
    _CN_ALIASES[_alias] = _t
_CN_MAXLEN = max(len(k) for k in _CN_ALIASES)


def parse_chinese(text: str, *, allow_wild: bool = False) -> list[int]:
    """Parse Chinese tile names, e.g. ``"一万 五筒 九条 东 中 春"`` (separators optional).

    Accepts traditional and colloquial forms (萬 餅 索 條 東 發 白板 红中 幺鸡, 松 for 梅 as in
    Taiwan, SD1); ``百搭``/``财神`` is a wildcard when ``allow_wild``. Separators: spaces,
    commas, 、 and ，. Raises :class:`TileParseError` with the position of the first text
    that is no tile name.
    """
    out: list[int] = []
    pos = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace() or ch in ",，、;；":
            pos += 1
            continue
        match = None
        for length in range(min(_CN_MAXLEN, n - pos), 0, -1):
            t = _CN_ALIASES.get(text[pos:pos + length])
            if t is not None:
                match = (t, length)
                break
        if match is None:
            raise TileParseError(f"no tile name at position {pos}: {text[pos:pos + 3]!r}", token=text[pos:pos + 2],
                                 position=pos, notation="chinese")
        t, length = match
        if t == WILD and not allow_wild:
            raise TileParseError(f"wildcard {text[pos:pos + length]!r} at position {pos} is not allowed here",
                                 token=text[pos:pos + length], position=pos, notation="chinese")
        out.append(t)
        pos += length
    return out


def format_chinese(tiles: Iterable[int], sep: str = " ") -> str:
    """Canonical Chinese names joined by ``sep`` (``WILD`` is 百搭)."""
    return sep.join("百搭" if t == WILD else CHINESE_NAMES[t] for t in tiles)


# --------------------------------------------------------------------- Unicode
def _unicode_table() -> tuple[str, ...]:
    cps = ([0x1F007 + i for i in range(9)]  # characters
           + [0x1F019 + i for i in range(9)]  # dots
           + [0x1F010 + i for i in range(9)]  # bamboo
           + [0x1F000, 0x1F001, 0x1F002, 0x1F003]  # E S W N
           + [0x1F006, 0x1F005, 0x1F004]  # white green red
           + [0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025])  # seasons, plants
    return tuple(chr(c) for c in cps)


UNICODE_TILES: tuple[str, ...] = _unicode_table()
"""The Unicode character (U+1F000 block) of each tile index 0-41."""
_UNICODE_INDEX = {ch: i for i, ch in enumerate(UNICODE_TILES)}
_UNICODE_JOKER = "\U0001F02A"  # MAHJONG TILE JOKER


def parse_unicode(text: str, *, allow_wild: bool = False) -> list[int]:
    """Parse Unicode mahjong tiles (U+1F000-U+1F029; U+1F02A JOKER is a wildcard when ``allow_wild``).

    Whitespace and variation selectors (U+FE0E/U+FE0F) are ignored.
    """
    out: list[int] = []
    for pos, ch in enumerate(text):
        if ch.isspace() or ch in "\ufe0e\ufe0f":
            continue
        t = _UNICODE_INDEX.get(ch)
        if t is None:
            if ch == _UNICODE_JOKER and allow_wild:
                out.append(WILD)
                continue
            raise TileParseError(f"character U+{ord(ch):04X} at position {pos} is not a mahjong tile",
                                 token=ch, position=pos, notation="unicode")
        out.append(t)
    return out


def format_unicode(tiles: Iterable[int], sep: str = "") -> str:
    """Unicode tile characters joined by ``sep``."""
    return sep.join(_UNICODE_JOKER if t == WILD else UNICODE_TILES[t] for t in tiles)


# --------------------------------------------------------------------- Botzone codes
BOTZONE_CODES: tuple[str, ...] = tuple(
    [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"] + [f"H{i}" for i in range(1, 9)]
)
"""Botzone code of each tile index 0-41 (J1 Red, J2 Green, J3 White)."""
_BOTZONE_INDEX = {c: i for i, c in enumerate(BOTZONE_CODES)}


def botzone_tile(code: str, position: int = 0) -> int:
    """One Botzone code to a tile index; raises :class:`TileParseError`."""
    t = _BOTZONE_INDEX.get(code)
    if t is None:
        raise TileParseError(f"unknown Botzone tile code {code!r} (token {position})", token=code,
                             position=position, notation="botzone")
    return t


def parse_botzone(text: str) -> list[int]:
    """Parse whitespace-separated Botzone codes ``W1 B5 T9 F1 J1 H1``; position = token index."""
    return [botzone_tile(tok, i) for i, tok in enumerate(text.split())]


def format_botzone(tiles: Iterable[int]) -> str:
    """Botzone codes separated by spaces."""
    out = []
    for t in tiles:
        if not 0 <= t < NUM_TILES:
            raise TileParseError(f"tile {t!r} has no Botzone code", token=str(t), notation="botzone")
        out.append(BOTZONE_CODES[t])
    return " ".join(out)


# --------------------------------------------------------------------- seed 000 hex codes
def to_seed_code(t: int) -> int:
    """Seed ``000_*`` code of a tile: bamboo 0x01-0x09, dots 0x11-0x19, characters 0x21-0x29,
    winds 0x30-0x60, 中 0x70 发 0x80 白 0x90, :data:`WILD` 0x00. Flowers have no code."""
    if t == WILD:
        return 0x00
    if 18 <= t < 27:
        return 0x01 + (t - 18)
    if 9 <= t < 18:
        return 0x11 + (t - 9)
    if 0 <= t < 9:
        return 0x21 + t
    if 27 <= t < 31:
        return 0x30 + 0x10 * (t - 27)
    if t == RED:
        return 0x70
    if t == GREEN:
        return 0x80
    if t == WHITE:
        return 0x90
    raise TileParseError(f"tile {t!r} has no seed code (flowers are not in seed 000)", token=str(t),
                         notation="seed")


_SEED_INDEX = {to_seed_code(t): t for t in range(NUM_KINDS)}
_SEED_INDEX[0x00] = WILD


def from_seed_code(code: int, position: int = 0) -> int:
    """Tile index of a seed code (0x00 → :data:`WILD`); raises :class:`TileParseError`."""
    t = _SEED_INDEX.get(code) if isinstance(code, int) else None
    if t is None:
        raise TileParseError(f"unknown seed tile code {code!r} at index {position}", token=repr(code),
                             position=position, notation="seed")
    return t


_SEED_TOKEN = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,2}")


def parse_seed(text: str) -> list[int]:
    """Parse seed hex codes such as ``"0x00, 0x01 0x02"`` (``0x`` optional; commas or spaces)."""
    out = []
    for i, tok in enumerate(t for t in re.split(r"[\s,]+", text.strip()) if t):
        if not _SEED_TOKEN.fullmatch(tok):
            raise TileParseError(f"not a hex code: {tok!r} (token {i})", token=tok, position=i, notation="seed")
        out.append(from_seed_code(int(tok, 16), i))
    return out


def format_seed(tiles: Iterable[int]) -> str:
    """Seed hex codes like ``0x01 0x30``."""
    return " ".join(f"0x{to_seed_code(t):02x}" for t in tiles)


NOTATIONS = {
    "compact": (parse_compact, format_compact),
    "chinese": (parse_chinese, format_chinese),
    "unicode": (parse_unicode, format_unicode),
    "botzone": (parse_botzone, format_botzone),
    "seed": (parse_seed, format_seed),
}
"""Notation name → (parse, format)."""
