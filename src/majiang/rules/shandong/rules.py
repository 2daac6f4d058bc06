"""Shandong provisional rules: the tile-set description, win types, scoring and settlement.

See the package doc (RULES.md §5, §9.5; seed ``001_*``). Everything here is provisional.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.analysis import STANDARD, decompositions
from majiang.hand import Hand
from majiang.rules.settlement import Ledger, Payment
from majiang.rules.wenzhou.common import (
    ContextError,
    NotWinningError,
    OptionsError,
    Pattern,
    WildCountError,
    WildResult,
    WinContext,
)

RULESET_ID = "shandong"


@dataclass(frozen=True, slots=True)
class ShandongRuleSet:
    """The provisional Shandong table rules as data (RULES.md §5, seed 001).

    Attributes mirror the seed: 146 tiles = 108 suited + 28 honours + 8 flowers + 2 白砣; the 10
    bonus tiles are set aside and replaced; 13-tile hands (4 sets + pair); chow from the left player
    only, pung and kong from anyone; two dice rolls choose where the deal starts; three tiles per
    stack (墩). ``provisional`` is ``True`` until the product owner defines the game.
    """

    suited_tiles: int = 108
    honour_tiles: int = 28
    flowers: int = 8
    baituo: int = 2
    hand_size: int = 13
    sets: int = 4
    chow: bool = True
    pung: bool = True
    kong: bool = True
    dice_rolls: int = 2
    tiles_per_stack: int = 3
    wildcards: bool = False
    provisional: bool = True

    @property
    def total_tiles(self) -> int:
        """146 by default."""
        return self.suited_tiles + self.honour_tiles + self.flowers + self.baituo

    @property
    def bonus_tiles(self) -> int:
        """Tiles set aside and replaced (8 flowers + 2 白砣 = 10)."""
        return self.flowers + self.baituo


RULESET = ShandongRuleSet()

WIN_TYPES: dict[str, Pattern] = {p.id: p for p in (
    Pattern("sd.dianpao", "点炮", "Win on a discard", 1),
    Pattern("sd.tiliu", "提溜", "Self-draw", 2),
    Pattern("sd.gangkai", "杠开", "Win on a kong replacement", 2),
    Pattern("sd.haidilao", "海底捞", "Win on the last tile", 2),
)}
"""The four win types of seed 001 with their default points (1; doubled when self-drawn)."""


@dataclass(frozen=True, slots=True)
class ShandongOptions:
    """Provisional options: ``points`` per win (1) and ``self_draw_multiplier`` (2).

    Raises :class:`OptionsError` for values below 1."""

    points: int = 1
    self_draw_multiplier: int = 2

    def __post_init__(self) -> None:
        for name in ("points", "self_draw_multiplier"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise OptionsError(f"{name} must be an int >= 1, got {v!r}")


DEFAULT_OPTIONS = ShandongOptions()


def win_type(ctx: WinContext) -> str:
    """The seed-001 win type id: 杠开 (kong replacement) > 海底捞 (self-drawn last tile) > 提溜
    (self-draw) > 点炮 (discard; also a robbed kong or the last discard)."""
    if ctx.self_drawn:
        if ctx.kong_replacement:
            return "sd.gangkai"
        if ctx.last_tile:
            return "sd.haidilao"
        return "sd.tiliu"
    return "sd.dianpao"


def score(hand: Hand, ctx: WinContext, options: ShandongOptions | None = None) -> WildResult:
    """Score a Shandong win: ``points`` (1), × ``self_draw_multiplier`` (2) when self-drawn.

    ``hand``: 13-tile structure, no wildcards; standard shape only (pair + 4 sets, seed 001).

    Raises:
        TileCountError: wrong size or a fifth copy.
        WildCountError: the hand holds wildcards (Shandong has none).
        ContextError: no winning tile; 杠开 without a declared kong.
        NotWinningError: not pair + 4 sets.
    """
    opt = options or DEFAULT_OPTIONS
    if hand.win_tile is None:
        raise ContextError("the hand has no winning tile (win_tile=None)")
    if hand.total_wilds:
        raise WildCountError("Shandong (seed 001) has no wildcards")
    hand.check(RULESET.sets)
    if ctx.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise ContextError("杠开 needs a declared kong in the winner's hand")
    decs = decompositions(hand.full_counts(), 0, STANDARD)
    if not decs:
        raise NotWinningError(f"{hand} is not one pair plus four sets")
    wt = WIN_TYPES[win_type(ctx)]
    pts = opt.points * (opt.self_draw_multiplier if ctx.self_drawn else 1)
    return WildResult(RULESET_ID, pts, "points", (wt._replace(value=pts),), "standard", decs[0], ctx, opt)


def settle(result: WildResult, ctx: WinContext | None = None) -> Ledger:
    """Provisional Shandong settlement: the discarder (or robbed player) pays a discard win; every
    other player pays a self-drawn win its points. Zero-sum :class:`Ledger`.

    Raises :class:`ContextError` for a result of another rule set."""
    if result.ruleset != RULESET_ID:
        raise ContextError(f"a {result.ruleset} result cannot be settled by Shandong")
    ctx = ctx or result.ctx
    payers = [s for s in range(ctx.players) if s != ctx.seat] if ctx.self_drawn else [ctx.discarder]
    return Ledger.of([Payment(p, ctx.seat, result.value, "shandong.win") for p in payers], ctx.players)
