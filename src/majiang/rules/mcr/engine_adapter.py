"""Bridge from the table's :class:`~majiang.rules.base.WinContext` to MCR scoring (RULES.md §6).

:class:`McrScorer` is the scorer ``"mcr"`` of the ``mcr`` rule set (:mod:`majiang.rules.mcr.ruleset`):
the 81 fans, value = fans without flowers (checked against the 8-fan minimum), bonus = 1 per flower.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from majiang.rules.base import ScoreResult, WinContext
from majiang.rules.mcr.conditions import McrOptions, WinConditions
from majiang.rules.mcr.scoring import score


@dataclass(frozen=True, slots=True)
class McrScorer:
    """Adapter to :func:`majiang.rules.mcr.score`.

    Mapping (WinContext → ``WinConditions``): ``self_drawn``; ``last_of_kind`` (和绝张) when the
    winner can see the other three copies (``win_tile_seen >= 3``) and holds no other copy concealed
    (then they are not all in sight, and the MCR scorer refuses the flag); ``last_wall_tile`` (妙手回春
    / 海底捞月) from ``last_tile``; ``kong_replacement`` (杠上开花, never for a plain flower replacement,
    trap FLAG-02); ``robbing_kong`` (抢杠和); winds as 0-3 (seat wind from the dealer, prevalent wind
    from the round). Flowers travel in ``hand.flowers``. ``options``: the rule set's readings
    (:class:`~majiang.rules.mcr.McrOptions`).

    Patterns are ``(Chinese fan name, points per instance, count)``. Scoring errors of the MCR
    package (a hand it does not accept) propagate: they are bugs to see, not wins to drop.
    """

    options: McrOptions = field(default_factory=McrOptions)
    name: str = "mcr"

    def score(self, ctx: WinContext) -> ScoreResult:
        win = ctx.hand.win_tile
        own = ctx.hand.counts[win] if win is not None and 0 <= win < 34 else 0
        cond = WinConditions(self_drawn=ctx.self_drawn, last_of_kind=ctx.win_tile_seen >= 3 and not own,
                             last_wall_tile=ctx.last_tile, kong_replacement=ctx.kong_replacement,
                             robbing_kong=ctx.robbing_kong, seat_wind=ctx.seat_wind - 27,
                             prevalent_wind=ctx.prevalent_wind - 27)
        r = score(ctx.hand, cond, self.options)
        return ScoreResult(r.fan_total, r.flowers,
                           tuple((fc.fan.name_zh, fc.fan.points, fc.count) for fc in r.fans))


def mcr_available() -> bool:
    """True if :mod:`majiang.rules.mcr` can be imported and offers ``score`` (it always can here)."""
    try:
        from majiang.rules import mcr
    except Exception:  # noqa: BLE001 - absent or broken package
        return False
    return callable(getattr(mcr, "score", None))
