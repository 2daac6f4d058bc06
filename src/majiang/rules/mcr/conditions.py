"""How an MCR hand was won (:class:`WinConditions`) and the rule options (:class:`McrOptions`).

Sources: RULES.md §6 (MCR win flags, 8-fan minimum, flowers), §7 (妙手回春 vs 海底捞月 naming
trap), seed ``004_*`` (fan texts), trap cases FLAG-02 / FLAG-03 (``shared/data/cases/traps.json``).
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.errors import MajiangError


class McrConditionError(MajiangError):
    """Win conditions that contradict each other or the hand (e.g. robbing a kong on a self-draw)."""


WIND_NAMES = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class WinConditions:
    """The circumstances of an MCR win.

    Attributes:
        self_drawn: won on a tile the player drew (自摸); ``False`` = won on a discard or by robbing
            a kong.
        last_of_kind: the winning tile is the last of its kind, the other three being in sight
            (和绝张, 4 fan).
        last_wall_tile: the win involves the last tile of the wall: self-drawn → 妙手回春 (Last Tile
            Draw, 8); on a discard → 海底捞月 (Last Tile Claim, 8). RULES.md §6/§7: the opposite of the
            Taiwanese naming.
        kong_replacement: won on the replacement tile drawn after declaring a kong (杠上开花, 8).
            Requires ``self_drawn``. A flower replacement is *not* a kong replacement: it scores as
            自摸 only (RULES.md §6, trap FLAG-02).
        robbing_kong: won on the tile another player added to a melded pung (抢杠和, 8). Requires
            ``self_drawn=False``. Only an added kong can be robbed (trap FLAG-03), so the winner can
            hold no other copy of that tile.
        seat_wind: the winner's seat wind, 0-3 = East South West North (门风).
        prevalent_wind: the round wind, 0-3 = East South West North (圈风).
        flowers: number of flower tiles (花牌, 1 fan each, added after the 8-fan minimum, §6).

    Raises:
        McrConditionError: winds outside 0-3, a negative or > 8 flower count, ``robbing_kong`` with
            ``self_drawn``, ``kong_replacement`` without ``self_drawn``, or ``robbing_kong`` together
            with ``kong_replacement`` or ``last_wall_tile`` (no kong can be declared on the last tile).
    """

    self_drawn: bool = False
    last_of_kind: bool = False
    last_wall_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0

    def __post_init__(self) -> None:
        for name in ("seat_wind", "prevalent_wind"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 0 <= v <= 3:
                raise McrConditionError(f"{name} must be 0-3 (East South West North), got {v!r}")
        if not isinstance(self.flowers, int) or not 0 <= self.flowers <= 8:
            raise McrConditionError(f"flowers must be 0-8, got {self.flowers!r}")
        if self.robbing_kong and self.self_drawn:
            raise McrConditionError("robbing a kong (抢杠和) is a win on another player's tile: it cannot be self-drawn")
        if self.kong_replacement and not self.self_drawn:
            raise McrConditionError("a kong replacement win (杠上开花) is self-drawn; a win on an added kong tile "
                                    "is robbing_kong (抢杠和)")
        if self.robbing_kong and self.kong_replacement:
            raise McrConditionError("robbing_kong and kong_replacement exclude each other")
        if self.robbing_kong and self.last_wall_tile:
            raise McrConditionError("no kong can be declared (so none robbed) once the wall's last tile is drawn")


@dataclass(frozen=True, slots=True)
class McrOptions:
    """Rule options where MCR calculators or rule readings differ. Defaults follow PyMahjongGB 1.4.0.

    Attributes:
        knitted_straight_waits: ``True`` (default, PyMahjongGB 1.4.0): when the winning tile could
            sit either in the knitted straight (组合龙) or in the hand's other set or pair, the wait
            fans (边张 / 嵌张 / 单钓将) are judged from the other set. ``False`` (the reading of the
            rule-interpretation book 《国标麻将规则释义》, cases 290/305 of ``gb_mahjong_cases.json``):
            a winning tile that fits the knitted straight scores no wait fan.
        melded_concealed_kong_pair: ``True`` (default, PyMahjongGB): one melded kong plus one
            concealed kong score 明暗杠 (Concealed Kong and Melded Kong, 5). ``False``: they score
            明杠 1 + 暗杠 2 = 3 as two separate fans (the 1998 rule text, which has no such fan).
        minimum_fan: fans needed to win, flowers not counted (RULES.md §6, §9.6: 8).
        base_payment: the fixed part of the settlement each payer pays (RULES.md §9.6: 8).
        fifth_copy_waits: ``True`` (default, PyMahjongGB): a tile counts as a wait for the
            "unique wait" test of 边张/嵌张/单钓将 even when the hand already holds all four copies
            (the form alone decides). ``False``: such a tile, which cannot be drawn, is ignored, so a
            hand may become a unique wait.
    """

    knitted_straight_waits: bool = True
    melded_concealed_kong_pair: bool = True
    minimum_fan: int = 8
    base_payment: int = 8
    fifth_copy_waits: bool = True

    def __post_init__(self) -> None:
        if self.minimum_fan < 0 or self.base_payment < 0:
            raise MajiangError("minimum_fan and base_payment must be non-negative")
