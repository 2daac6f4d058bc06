"""The compact MCR hand notation of ``shared/data/mcr/gb_mahjong_cases.json``.

Grammar (one string, no spaces)::

    hand   := meld* tiles ( "|" flags ( "|" flowers )? )?
    meld   := "[" tiles ( "," digit )? "]"
    flags  := wind wind digit{0,4}      e.g. "EE1000"
    tiles  := compact tiles, suit letter after its digits ("123m", "55p", "7z"), honours also as
              letters E S W N (winds) C F P (中 发 白, i.e. Red Green White)

* A bracket of three tiles is a chow or a pung; the digit after the comma is, for a chow, which of
  its tiles was claimed (1-3, left to right), for a pung the player it was claimed from (1 = left
  上家, 2 = opposite 对家, 3 = right 下家). Omitted, it is 1.
* A bracket of four tiles is a kong: no digit or 0 = concealed (暗杠); 1-3 = exposed kong
  claimed from that player (明杠); 5-7 = added kong (加杠) whose pung came from player digit-4.
* The concealed tiles end with the winning tile.
* Flags: prevalent wind, seat wind (E S W N), then self-drawn, last-of-kind (和绝张), last tile of
  the wall (妙手回春 if self-drawn / 海底捞月 on a discard), kong-related (with self-drawn:
  杠上开花; on a discard: 抢杠和). Missing flags = East, East, discard, nothing special.
* Flowers: a number, or letters a-h one per flower tile.

Errors: :class:`~majiang.errors.TileParseError` for unknown characters or misplaced parts,
:class:`~majiang.errors.MeldError` for a bracket that is no meld, and
:class:`~majiang.rules.mcr.conditions.McrConditionError` for contradictory flags.
"""

from __future__ import annotations

import re

from majiang.errors import MeldError, TileParseError
from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.mcr.conditions import WinConditions

_HONOR_LETTERS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
_WIND_LETTERS = {"E": 0, "S": 1, "W": 2, "N": 3}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_HONOR_OUT = "ESWNPFC"


def parse_tiles(text: str, offset: int = 0) -> list[int]:
    """Tiles of the notation in written order (suit letter after digits; E S W N C F P honours).

    Raises :class:`TileParseError` on an unknown character, digits without a suit letter, a 0
    or a rank above 7 for ``z``.
    """
    out: list[int] = []
    digits: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if ch.isdigit():
            digits.append((int(ch), offset + i))
        elif ch in _SUIT_BASE:
            if not digits:
                raise TileParseError(f"suit letter {ch!r} without digits at {offset + i} in {text!r}",
                                     token=ch, position=offset + i, notation="mcr-case")
            for d, pos in digits:
                if d == 0 or (ch == "z" and d > 7):
                    raise TileParseError(f"no tile {d}{ch} (position {pos})", token=f"{d}{ch}", position=pos,
                                         notation="mcr-case")
                out.append(_SUIT_BASE[ch] + d - 1)
            digits = []
        elif ch in _HONOR_LETTERS:
            if digits:
                raise TileParseError(f"digits before {ch!r} at {offset + i} have no suit letter",
                                     token=ch, position=offset + i, notation="mcr-case")
            out.append(_HONOR_LETTERS[ch])
        else:
            raise TileParseError(f"unexpected character {ch!r} at {offset + i} in {text!r}", token=ch,
                                 position=offset + i, notation="mcr-case")
    if digits:
        raise TileParseError(f"digits at the end of {text!r} have no suit letter", token=text,
                             position=digits[0][1], notation="mcr-case")
    return out


def _meld(body: str, offer_text: str | None, pos: int) -> Meld:
    tiles = sorted(parse_tiles(body, pos + 1))
    offer = int(offer_text) if offer_text is not None else None
    if len(tiles) == 4:
        if len(set(tiles)) != 1:
            raise MeldError(f"[{body}] is not a kong: its tiles differ")
        if offer in (None, 0):
            return Meld(MeldKind.CONCEALED_KONG, tiles[0], 0)
        if offer in (1, 2, 3):
            return Meld(MeldKind.EXPOSED_KONG, tiles[0], offer, tiles[0])
        if offer in (5, 6, 7):
            return Meld(MeldKind.ADDED_KONG, tiles[0], offer - 4, tiles[0])
        raise MeldError(f"kong offer must be 0-3 or 5-7, got {offer} in [{body},{offer}]")
    if len(tiles) != 3:
        raise MeldError(f"[{body}] has {len(tiles)} tiles: a meld has 3 (chow, pung) or 4 (kong)")
    offer = 1 if offer is None else offer
    if len(set(tiles)) == 1:
        if offer not in (1, 2, 3):
            raise MeldError(f"pung offer must be 1-3 (the player it came from), got {offer} in [{body}]")
        return Meld(MeldKind.PUNG, tiles[0], offer, tiles[0])
    if tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2] or tiles[0] >= 27 or tiles[0] % 9 > 6:
        raise MeldError(f"[{body}] is neither a chow nor a pung")
    if offer not in (1, 2, 3):
        raise MeldError(f"chow offer must be 1-3 (which tile was claimed), got {offer} in [{body}]")
    return Meld(MeldKind.CHOW, tiles[0], 1, tiles[0] + offer - 1)


_MELD = re.compile(r"\[([^\],\[]*)(?:,(\d))?\]")


def parse_hand_string(text: str) -> tuple[Hand, WinConditions]:
    """Parse the ``hand_string`` notation (module doc) into a :class:`~majiang.hand.Hand` (winning
    tile separate, flowers not listed) and :class:`~majiang.rules.mcr.conditions.WinConditions`.

    Example: ``parse_hand_string("[EEE,2][123m,1]WWWNN55pN|EE1000")``. The tile count is not
    checked here (:func:`~majiang.rules.mcr.scoring.score` does). Raises ``TileParseError``,
    ``MeldError`` or ``McrConditionError`` (module doc).
    """
    if not isinstance(text, str) or not text.strip():
        raise TileParseError("empty hand string", token=str(text), position=0, notation="mcr-case")
    text = text.strip()
    parts = text.split("|")
    if len(parts) > 3:
        raise TileParseError(f"at most two '|' in {text!r}", token=text, position=0, notation="mcr-case")
    body = parts[0]
    melds: list[Meld] = []
    pos = 0
    for m in _MELD.finditer(body):
        if m.start() != pos:
            break
        melds.append(_meld(m.group(1), m.group(2), m.start()))
        pos = m.end()
    rest = body[pos:]
    if "[" in rest or "]" in rest:
        at = pos + max(rest.find("["), rest.find("]"))
        raise TileParseError(f"malformed or misplaced meld bracket at {at} in {text!r}", token=rest, position=at,
                             notation="mcr-case")
    tiles = parse_tiles(rest, pos)
    if not tiles:
        raise TileParseError(f"no concealed tiles (the winning tile comes last) in {text!r}", token=text,
                             position=pos, notation="mcr-case")
    win = tiles.pop()
    cond: dict[str, object] = {}
    if len(parts) >= 2:
        flags = parts[1]
        if not re.fullmatch(r"[ESWN]{2}[01]{0,4}", flags):
            raise TileParseError(f"flags {flags!r}: expected two winds (E S W N) and up to four 0/1 digits",
                                 token=flags, position=len(body) + 1, notation="mcr-case")
        bits = [c == "1" for c in flags[2:].ljust(4, "0")]
        self_drawn, last_kind, last_wall, kong = bits
        cond = dict(prevalent_wind=_WIND_LETTERS[flags[0]], seat_wind=_WIND_LETTERS[flags[1]],
                    self_drawn=self_drawn, last_of_kind=last_kind, last_wall_tile=last_wall,
                    kong_replacement=kong and self_drawn, robbing_kong=kong and not self_drawn)
    if len(parts) == 3:
        fl = parts[2]
        if fl.isdigit():
            cond["flowers"] = int(fl)
        elif fl == "" or re.fullmatch(r"[a-h]+", fl):
            if len(set(fl)) != len(fl):
                raise TileParseError(f"flower letters repeat in {fl!r}", token=fl, position=0, notation="mcr-case")
            cond["flowers"] = len(fl)
        else:
            raise TileParseError(f"flowers {fl!r}: a number or letters a-h", token=fl, position=0,
                                 notation="mcr-case")
    return Hand(tuple(tiles), tuple(melds), win), WinConditions(**cond)  # type: ignore[arg-type]


def format_hand_string(hand: Hand, conditions: WinConditions) -> str:
    """The notation of a hand and its conditions (inverse of :func:`parse_hand_string`, honours as letters)."""
    def grp(ts: list[int]) -> str:
        # merge runs of one suit: "1m2m3m" -> "123m"
        s = ""
        for t in ts:
            s += _HONOR_OUT[t - 27] if t >= 27 else str(t % 9 + 1) + "mps"[t // 9]
        return re.sub(r"(\d)([mps])(?=(\d)\2)", r"\1", s)

    parts = []
    for m in hand.melds:
        if m.kind is MeldKind.CONCEALED_KONG:
            parts.append(f"[{grp(list(m.tiles))}]")
        elif m.kind is MeldKind.CHOW:
            claimed = m.claimed if m.claimed is not None else m.tile
            parts.append(f"[{grp(list(m.tiles))},{claimed - m.tile + 1}]")
        elif m.kind is MeldKind.ADDED_KONG:
            parts.append(f"[{grp(list(m.tiles))},{m.offer + 4}]")
        else:
            parts.append(f"[{grp(list(m.tiles))},{m.offer}]")
    assert hand.win_tile is not None
    parts.append(grp(list(hand.concealed)) + grp([hand.win_tile]))
    c = conditions
    flags = "ESWN"[c.prevalent_wind] + "ESWN"[c.seat_wind] + "".join(
        "1" if b else "0" for b in (c.self_drawn, c.last_of_kind, c.last_wall_tile,
                                    c.kong_replacement or c.robbing_kong))
    s = "".join(parts) + "|" + flags
    if c.flowers:
        s += f"|{c.flowers}"
    return s
