"""Bridge from the engine's scorer/settlement protocols to the wildcard rule sets (for later wiring).

The engine (:mod:`majiang.engine.ruleset`) asks a ``Scorer`` for ``score(ctx) -> ScoreResult`` and a
``Settlement`` for ``settle(win, players) -> list[int]``. :class:`WildRulesAdapter` is both, for one
of the rule sets of :data:`RULESETS`:

* ``score``: :meth:`WinContext.from_engine` → the package's ``score(ctx.hand, ...)`` → an engine
  ``ScoreResult(value, 0, patterns)`` with ``(pattern id, value, 1)`` triples;
* ``settle``: scores ``win.ctx`` again (a pure function) and returns the package ledger's deltas.

Facts the engine's context does not carry yet are read when present, else left empty:
``chow_feeds`` (W13 统包), ``wild_counts`` (W16 财神钱), ``kongs`` (W16 kong money),
``bonus_tiles`` (Shandong). Nothing here is imported by the rule sets themselves; the engine
module is imported only when a method runs.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from majiang.rules.wenzhou.common import OptionsError, WildResult, WinContext

RULESETS: dict[str, str] = {
    "wz13": "majiang.rules.wenzhou.w13",
    "wz16": "majiang.rules.wenzhou.w16",
    "seed000": "majiang.rules.seed000",
    "shandong": "majiang.rules.shandong",
}
"""Rule-set id → module exposing ``score(hand, ctx, options)`` and ``settle(result, ctx)``."""

_OPTIONAL_FACTS = ("chow_feeds", "wild_counts", "kongs", "bonus_tiles")


def rules_module(ruleset: str) -> ModuleType:
    """The module of ``ruleset`` (``wz13``, ``wz16``, ``seed000``, ``shandong``); raises
    :class:`OptionsError` for an unknown id."""
    try:
        return importlib.import_module(RULESETS[ruleset])
    except KeyError:
        raise OptionsError(f"unknown wildcard rule set {ruleset!r} (known: {', '.join(RULESETS)})") from None


def context_from_engine(ctx: Any) -> WinContext:
    """:meth:`WinContext.from_engine` plus the optional facts the engine context may carry."""
    extra = {k: getattr(ctx, k) for k in _OPTIONAL_FACTS if getattr(ctx, k, None) is not None}
    return WinContext.from_engine(ctx, **extra)


def score_engine(ruleset: str, ctx: Any, options: Any = None) -> WildResult:
    """Score an engine ``WinContext`` (its ``hand`` in the engine convention) under ``ruleset``."""
    return rules_module(ruleset).score(ctx.hand, context_from_engine(ctx), options)


@dataclass(frozen=True, slots=True)
class WildRulesAdapter:
    """An engine ``Scorer`` and ``Settlement`` for one wildcard rule set (module doc)."""

    ruleset: str
    options: Any = None

    def __post_init__(self) -> None:
        rules_module(self.ruleset)

    @property
    def name(self) -> str:
        return self.ruleset

    def score(self, ctx: Any):
        from majiang.engine.ruleset import ScoreResult

        r = score_engine(self.ruleset, ctx, self.options)
        return ScoreResult(r.value, 0, r.as_score_triples())

    def settle(self, win: Any, players: int) -> list[int]:
        r = score_engine(self.ruleset, win.ctx, self.options)
        deltas = rules_module(self.ruleset).settle(r).deltas
        if len(deltas) != players:
            raise OptionsError(f"{self.ruleset} settles {len(deltas)} players, the table has {players}")
        return deltas


def register_with_engine() -> tuple[str, ...]:
    """Register every rule set of :data:`RULESETS` as an engine scorer and settlement under its id
    (``RuleSet.with_options(scorer="wz13", settlement="wz13")``). Returns the ids registered."""
    from majiang.engine.ruleset import register_scorer, register_settlement

    for rid in RULESETS:
        register_scorer(rid, lambda rid=rid: WildRulesAdapter(rid))
        register_settlement(rid, lambda rid=rid: WildRulesAdapter(rid))
    return tuple(RULESETS)
