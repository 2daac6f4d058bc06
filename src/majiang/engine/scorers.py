"""Bridges from the table's :class:`~majiang.engine.ruleset.WinContext` to the rule sets' scorers.

The engine never scores a hand itself: a rule set names a scorer (``RuleSet.scorer``) and the
registry in :mod:`majiang.engine.ruleset` builds it. This module holds the small adapters that turn
the table's facts into a scoring package's own input. They import their package lazily, so the
engine runs (with the default :class:`~majiang.engine.ruleset.FixedScorer`) even where a scoring
package is absent.

* :class:`McrScorer` (registered as ``"mcr"``, the ``mcr`` preset's scorer) -- Chinese Official
  scoring from :mod:`majiang.rules.mcr` (RULES.md §6): the 81 fans, value = fans without flowers
  (checked against the 8-fan minimum), bonus = 1 per flower.

The other rule sets' adapters live with their packages and are registered lazily by
:mod:`majiang.engine.ruleset` under the names the presets use:

* ``"taiwan"`` (scorer and settlement) -- :class:`majiang.rules.taiwan.engine_adapter.TaiwanEngineAdapter`;
* ``"wz13"``, ``"wz16"``, ``"seed000"``, ``"shandong"`` (scorer and settlement) --
  :class:`majiang.rules.wenzhou.engine_adapter.WildRulesAdapter`.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.engine.ruleset import ScoreResult, WinContext


@dataclass(frozen=True, slots=True)
class McrScorer:
    """Adapter to :func:`majiang.rules.mcr.score`.

    Mapping (WinContext → ``WinConditions``): ``self_drawn``; ``last_of_kind`` (和绝张) when the
    winner can see the other three copies (``win_tile_seen >= 3``); ``last_wall_tile`` (妙手回春 /
    海底捞月) from ``last_tile``; ``kong_replacement`` (杠上开花, never for a plain flower
    replacement, trap FLAG-02); ``robbing_kong`` (抢杠和); winds as 0-3 (seat wind from the dealer,
    prevalent wind from the round). Flowers travel in ``hand.flowers``.

    Patterns are ``(Chinese fan name, points per instance, count)``. Scoring errors of the MCR
    package (a hand it does not accept) propagate: they are bugs to see, not wins to drop.
    """

    name: str = "mcr"

    def score(self, ctx: WinContext) -> ScoreResult:
        from majiang.rules.mcr import WinConditions, score

        win = ctx.hand.win_tile
        own = ctx.hand.counts[win] if win is not None and 0 <= win < 34 else 0
        cond = WinConditions(self_drawn=ctx.self_drawn, last_of_kind=ctx.win_tile_seen >= 3 and not own,
                             last_wall_tile=ctx.last_tile, kong_replacement=ctx.kong_replacement,
                             robbing_kong=ctx.robbing_kong, seat_wind=ctx.seat_wind - 27,
                             prevalent_wind=ctx.prevalent_wind - 27)
        r = score(ctx.hand, cond)
        return ScoreResult(r.fan_total, r.flowers,
                           tuple((fc.fan.name_zh, fc.fan.points, fc.count) for fc in r.fans))


def mcr_available() -> bool:
    """True if :mod:`majiang.rules.mcr` can be imported and offers ``score``."""
    try:
        from majiang.rules import mcr
    except Exception:  # noqa: BLE001 - absent or broken package
        return False
    return callable(getattr(mcr, "score", None))
