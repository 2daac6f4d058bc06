"""Bridge from the engine's scorer/settlement protocols to Taiwan 16-tile scoring (RULES.md §3).

The engine (:mod:`majiang.engine.ruleset`) asks a ``Scorer`` for ``score(ctx) -> ScoreResult`` and a
``Settlement`` for ``settle(win, players) -> list[int]``. :class:`TaiwanEngineAdapter` is both:

* ``score``: :func:`win_from_engine` → :func:`majiang.rules.taiwan.score` → an engine
  ``ScoreResult(total_tai, 0, patterns)`` with ``(pattern id, tai, count)`` triples. The dealer terms
  (莊家, 連莊) are per payment, so they are not in the value (RULES.md §3.3); a hand below
  ``TaiwanOptions.minimum_tai`` or not complete scores ``value=-1`` so the table offers no win.
* ``settle``: scores ``win.ctx`` again (a pure function) and returns
  :func:`majiang.rules.taiwan.settle`'s ledger deltas with the adapter's :class:`Stakes`.

Mapping of the engine's :class:`~majiang.engine.ruleset.WinContext` to :class:`TaiwanWin`:

=====================================  ===================================================
engine                                 TaiwanWin
=====================================  ===================================================
seat, dealer, discarder                seat, dealer, discarder (the robbed player for 搶槓)
self_drawn                             self_drawn
robbing_kong                           robbing_kong (搶槓)
kong_replacement or flower_replacement kong_replacement (槓上開花 includes a flower replacement
                                       in Taiwan, RULES.md §3.2, §7)
last_tile, self-drawn                  last_tile (海底撈月)
last_tile, on a discard                last_discard (河底撈魚)
prevalent_wind (27-30)                 round_wind (0-3)
dealer_streak                          streak (連莊 count)
hand.flowers                           flowers (正花, 花槓, 八仙過海)
first_turn, self-drawn, dealer         heavenly_win (天胡)
first_turn, self-drawn, non-dealer     earthly_win (地胡)
first_turn, on a discard, non-dealer   human_win (人胡: before his own first turn, nobody called)
flower_win "eight"                     self-drawn 八仙過海 (scored with hand=None)
flower_win "seven", discarder          flower_drawer = discarder (七搶一: the drawer pays alone)
declared_ready                         declared_ready (報聽; the adapter scores it with the
                                       optional rule ``tw.baoting`` enabled, since the table
                                       only declares under ``RuleSet.declare_ready``)
heavenly_ready / earthly_ready         heavenly_ready (天聽) / earthly_ready (地聽)
=====================================  ===================================================

Not mapped (the engine has no such facts): 宝牌.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from majiang.rules.base import ScoreResult
from majiang.rules.taiwan.conditions import TaiwanWin
from majiang.rules.taiwan.options import TaiwanOptions
from majiang.rules.taiwan.scoring import TaiwanNotWinningError, TaiwanResult, score
from majiang.rules.taiwan.settlement import Stakes, settle

__all__ = ["REJECTED", "TaiwanEngineAdapter", "register_with_engine", "win_from_engine"]

REJECTED = -1
"""``ScoreResult.value`` of a hand that is no valid Taiwan win: below any ``RuleSet.min_score``."""


def win_from_engine(ctx: Any) -> TaiwanWin:
    """The :class:`TaiwanWin` of an engine ``WinContext`` (module doc table)."""
    fw = getattr(ctx, "flower_win", None)
    if fw is not None:  # 八仙過海 (paid as a self-draw) or 七搶一 (the eighth flower's drawer pays)
        seven = fw == "seven"
        return TaiwanWin(seat=ctx.seat, dealer=ctx.dealer, self_drawn=not seven, discarder=None,
                         round_wind=ctx.prevalent_wind - 27, streak=ctx.dealer_streak,
                         flowers=tuple(ctx.hand.flowers), flower_drawer=ctx.discarder if seven else None)
    sd = bool(ctx.self_drawn)
    first = bool(ctx.first_turn)
    dealer_wins = ctx.seat == ctx.dealer
    return TaiwanWin(
        seat=ctx.seat, dealer=ctx.dealer, self_drawn=sd, discarder=None if sd else ctx.discarder,
        robbing_kong=bool(ctx.robbing_kong),
        kong_replacement=sd and bool(ctx.kong_replacement or getattr(ctx, "flower_replacement", False)),
        last_tile=sd and bool(ctx.last_tile),
        last_discard=(not sd) and bool(ctx.last_tile) and not ctx.robbing_kong,
        round_wind=ctx.prevalent_wind - 27, streak=ctx.dealer_streak,
        flowers=tuple(ctx.hand.flowers),
        heavenly_win=first and sd and dealer_wins,
        earthly_win=first and sd and not dealer_wins,
        human_win=first and not sd and not dealer_wins and not ctx.robbing_kong,
        declared_ready=bool(getattr(ctx, "declared_ready", False)),
        heavenly_ready=bool(getattr(ctx, "heavenly_ready", False)),
        earthly_ready=bool(getattr(ctx, "earthly_ready", False)),
    )


@dataclass(frozen=True)
class TaiwanEngineAdapter:
    """An engine ``Scorer`` and ``Settlement`` for Taiwan 16-tile (module doc).

    Attributes:
        options: the house rules (:class:`TaiwanOptions`, default the association table).
        stakes: base and per-tai of the settlement (default 30 / 10, RULES.md §3.3 examples).
    """

    options: TaiwanOptions = field(default_factory=TaiwanOptions)
    stakes: Stakes = field(default_factory=Stakes)
    name: str = "taiwan"

    def result(self, ctx: Any) -> TaiwanResult:
        """The full :class:`TaiwanResult` of an engine context (raises like :func:`score`). A flower
        win (``ctx.flower_win``) is scored without the hand (``score(None, ...)``) unless
        ``eight_flowers_mode="added"`` and the hand is complete (it never is: the table scores a
        flower win the moment the flower is set aside)."""
        if getattr(ctx, "flower_win", None) is not None:
            return score(None, win_from_engine(ctx), self.options)
        return score(ctx.hand, win_from_engine(ctx), self._options_for(ctx))

    def _options_for(self, ctx: Any) -> TaiwanOptions:
        """The options to score ``ctx`` with: a declared ready (only ever set by the table under
        ``RuleSet.declare_ready``) needs the optional rule ``tw.baoting``, so it is enabled then."""
        o = self.options
        if getattr(ctx, "declared_ready", False) and "tw.baoting" not in o.enabled:
            o = replace(o, enabled=o.enabled | {"tw.baoting"})
        return o

    def score(self, ctx: Any) -> ScoreResult:
        try:
            r = self.result(ctx)
        except TaiwanNotWinningError:
            return ScoreResult(REJECTED, 0, ())
        if not r.meets_minimum:
            return ScoreResult(REJECTED, 0, ())
        opts = self._options_for(ctx)
        return ScoreResult(r.total_tai, 0, tuple((pc.pattern.id, opts.tai(pc.pattern.id), pc.count)
                                                 for pc in r.patterns))

    def settle(self, win: Any, players: int) -> list[int]:
        deltas = settle(self.result(win.ctx), self.stakes).deltas
        if len(deltas) != players:
            raise ValueError(f"Taiwan settles {len(deltas)} players, the table has {players}")
        return deltas


def register_with_engine() -> tuple[str, ...]:
    """Register the adapter as the engine scorer and settlement ``"taiwan"`` under the old no-argument
    protocol (:func:`majiang.engine.register_scorer`). Not needed: the ``taiwan`` rule set
    (:mod:`majiang.rules.taiwan.ruleset`) declares them, built with the rule set's options."""
    from majiang.engine.ruleset import register_scorer, register_settlement  # noqa: PLC0415 - legacy helper

    register_scorer("taiwan", TaiwanEngineAdapter)
    register_settlement("taiwan", TaiwanEngineAdapter)
    return ("taiwan",)
