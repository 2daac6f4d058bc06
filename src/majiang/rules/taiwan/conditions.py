"""How a Taiwan 16-tile hand was won: the frozen value :class:`TaiwanWin`.

Sources: RULES.md §3.1 (seats E S W N from the dealer, 報聽, flower replacement), §3.2 (the
situational patterns: 自摸, 搶槓, 槓上開花 incl. flower replacement, 海底撈月 = self-drawn last tile,
河底撈魚 = last discard, 天聽/地聽, 天胡/地胡/人胡, 八仙過海, 七搶一), §3.3 (who pays), §3.4 (宝牌),
§7 (naming traps).

Seats are absolute table positions 0-3 in turn order (the engine's seats); the seat wind follows
from the dealer: the dealer is East, the next seat in turn order South, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.errors import MajiangError
from majiang.tiles import EAST, NUM_KINDS, format_compact, is_flower


class TaiwanConditionError(MajiangError):
    """Win conditions that contradict each other (e.g. a self-draw with a discarder, 天胡 by a
    non-dealer, 河底撈魚 on a self-draw) or are out of range (seat 5, a non-flower in ``flowers``)."""


WIND_NAMES = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class TaiwanWin:
    """The circumstances of one Taiwan win.

    Attributes:
        seat: the winner's seat, 0-3.
        dealer: the dealer's seat, 0-3 (the dealer sits East).
        self_drawn: won on own draw (自摸; also kong/flower replacement, last tile, 天胡, 地胡 and
            八仙過海, which is paid like a self-draw, RULES.md §3.3).
        discarder: the seat whose tile won: the discarder, or for ``robbing_kong`` the player whose
            added kong was robbed. ``None`` for a self-draw or 七搶一.
        robbing_kong: 搶槓, won on the tile another player added to a pung (not self-drawn).
        kong_replacement: 槓上開花, self-drawn on the replacement tile after a kong **or a flower**
            (Taiwan counts both, RULES.md §7).
        last_tile: 海底撈月, self-drawn on the last live tile (Taiwan meaning, §7).
        last_discard: 河底撈魚, won on the final discard.
        round_wind: 0-3 = East South West North (圈風).
        streak: the dealer's current continuation count N (連莊), >= 0.
        flowers: the flowers held (indices 34-41), or ``None`` to take them from the hand.
        declared_ready: 報聽 was declared (needs the optional rule ``tw.baoting``).
        heavenly_ready / earthly_ready: 天聽 / 地聽.
        heavenly_win: 天胡, the dealer complete on the initial hand (self-drawn).
        earthly_win: 地胡, a non-dealer self-draws on his first draw, nobody has called.
        human_win: 人胡, a non-dealer wins on a discard in the first go-around before his first draw.
        flower_drawer: for 七搶一, the seat that drew the eighth flower (it pays alone); the winner
            then holds the other seven.
        bao_pai: 宝牌 faces (tile indices 0-33), one entry per indicator, so a face may repeat
            (RULES.md §3.4: at most 5). Needs the optional rule ``tw.baopai``.

    Raises:
        TaiwanConditionError: out-of-range seats/winds/streak; a self-draw with a discarder or a
            claimed win without one; the winner as discarder; 搶槓 or 河底撈魚 on a self-draw;
            槓上開花 or 海底撈月 without a self-draw; 搶槓 with 河底撈魚; 天胡 by a non-dealer, 地胡/人胡
            by the dealer; two of 天胡/地胡/人胡; both 天聽 and 地聽; bad flowers or 宝牌; 七搶一
            without exactly seven flowers or with a discarder.
    """

    seat: int = 0
    dealer: int = 0
    self_drawn: bool = False
    discarder: int | None = None
    robbing_kong: bool = False
    kong_replacement: bool = False
    last_tile: bool = False
    last_discard: bool = False
    round_wind: int = 0
    streak: int = 0
    flowers: tuple[int, ...] | None = None
    declared_ready: bool = False
    heavenly_ready: bool = False
    earthly_ready: bool = False
    heavenly_win: bool = False
    earthly_win: bool = False
    human_win: bool = False
    flower_drawer: int | None = None
    bao_pai: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        err = TaiwanConditionError
        for name in ("seat", "dealer", "round_wind"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3:
                raise err(f"{name} must be 0-3, got {v!r}")
        for name in ("discarder", "flower_drawer"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3):
                raise err(f"{name} must be None or a seat 0-3, got {v!r}")
            if v is not None and v == self.seat:
                raise err(f"{name} is the winner's own seat {v}")
        if not isinstance(self.streak, int) or self.streak < 0:
            raise err(f"streak (連莊 count) must be an int >= 0, got {self.streak!r}")
        if self.flowers is not None:
            fl = tuple(self.flowers)
            if any(not isinstance(f, int) or not is_flower(f) for f in fl) or len(set(fl)) != len(fl):
                raise err(f"flowers must be distinct flower tiles 34-41 (1f-8f), got {fl!r}")
            object.__setattr__(self, "flowers", tuple(sorted(fl)))
        bao = tuple(self.bao_pai)
        if len(bao) > 5 or any(not isinstance(t, int) or not 0 <= t < NUM_KINDS for t in bao):
            raise err(f"bao_pai must be at most 5 tile faces 0-33, got {bao!r}")
        object.__setattr__(self, "bao_pai", bao)

        if self.flower_drawer is not None:  # 七搶一
            if self.self_drawn or self.discarder is not None:
                raise err("七搶一 is won on another player's flower draw: no self-draw, no discarder")
            if self.flowers is None or len(self.flowers) != 7:
                raise err("七搶一 needs the seven flowers the winner holds in flowers=")
            if any((self.robbing_kong, self.kong_replacement, self.last_tile, self.last_discard)):
                raise err("七搶一 cannot combine with 搶槓, 槓上開花, 海底撈月 or 河底撈魚")
        elif self.self_drawn and self.discarder is not None:
            raise err(f"a self-draw has no discarder (got discarder={self.discarder})")
        elif not self.self_drawn and self.discarder is None:
            raise err("a win on another player's tile needs discarder= (the discarder, or the robbed player)")
        if self.robbing_kong and self.self_drawn:
            raise err("搶槓 is a win on another player's added tile: it cannot be self-drawn")
        if self.kong_replacement and not self.self_drawn:
            raise err("槓上開花 is self-drawn (a win on an added kong tile is robbing_kong, 搶槓)")
        if self.last_tile and not self.self_drawn:
            raise err("海底撈月 is a self-draw of the last tile; a win on the last discard is last_discard (河底撈魚)")
        if self.last_discard and (self.self_drawn or self.robbing_kong):
            raise err("河底撈魚 is a win on the final discard: not self-drawn, not a robbed kong")
        if sum((self.heavenly_win, self.earthly_win, self.human_win)) > 1:
            raise err("天胡, 地胡 and 人胡 exclude each other")
        if self.heavenly_win and (self.seat != self.dealer or not self.self_drawn):
            raise err("天胡 is the dealer's self-drawn initial hand")
        if self.earthly_win and (self.seat == self.dealer or not self.self_drawn):
            raise err("地胡 is a non-dealer's self-draw on his first draw")
        if self.human_win and (self.seat == self.dealer or self.self_drawn):
            raise err("人胡 is a non-dealer's win on a discard")
        if self.heavenly_ready and self.earthly_ready:
            raise err("天聽 and 地聽 exclude each other")

    # ---------------------------------------------------------------- derived values
    @property
    def seat_wind(self) -> int:
        """The winner's seat wind, 0-3 (East = the dealer)."""
        return (self.seat - self.dealer) % 4

    @property
    def seat_wind_tile(self) -> int:
        return EAST + self.seat_wind

    @property
    def round_wind_tile(self) -> int:
        return EAST + self.round_wind

    @property
    def winner_is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def flower_win(self) -> str | None:
        """``"tw.qiqiang_yi"`` (七搶一) or ``"tw.baxian_guohai"`` (八仙過海: 8 flowers, self-drawn),
        else ``None``."""
        if self.flower_drawer is not None:
            return "tw.qiqiang_yi"
        if self.flowers is not None and len(self.flowers) == 8 and self.self_drawn:
            return "tw.baxian_guohai"
        return None

    def payers(self) -> tuple[int, ...]:
        """Who pays (RULES.md §3.3): all three others on a self-draw (incl. 八仙過海); the discarder
        on a discard win; the robbed player on 搶槓; the eighth flower's drawer on 七搶一."""
        if self.flower_drawer is not None:
            return (self.flower_drawer,)
        if self.self_drawn:
            return tuple(s for s in range(4) if s != self.seat)
        assert self.discarder is not None
        return (self.discarder,)

    def __str__(self) -> str:
        how = "self-draw" if self.self_drawn else (
            f"七搶一 on seat {self.flower_drawer}" if self.flower_drawer is not None else f"on seat {self.discarder}")
        extra = [n for n in ("robbing_kong", "kong_replacement", "last_tile", "last_discard", "heavenly_win",
                             "earthly_win", "human_win", "heavenly_ready", "earthly_ready", "declared_ready")
                 if getattr(self, n)]
        s = f"seat {self.seat} ({WIND_NAMES[self.seat_wind]}), {how}, round {WIND_NAMES[self.round_wind]}"
        if self.streak:
            s += f", dealer streak {self.streak}"
        if extra:
            s += ", " + ", ".join(extra)
        if self.bao_pai:
            s += f", 宝牌 {format_compact(self.bao_pai)}"
        return s
