"""Bridge from the engine's scorer/settlement protocols to the wildcard rule sets.

The engine (:mod:`majiang.engine.ruleset`) asks a ``Scorer`` for ``score(ctx) -> ScoreResult`` and a
``Settlement`` for ``settle(win, players) -> list[int]``. :class:`WildRulesAdapter` is both, for one
of the rule sets of :data:`RULESETS`:

* ``score``: :meth:`WinContext.from_engine` → the package's ``score(ctx.hand, ...)`` → an engine
  ``ScoreResult(value, 0, patterns)`` with ``(pattern id, value, 1)`` triples;
* ``settle``: scores ``win.ctx`` again (a pure function) and returns the package ledger's deltas.

Facts the engine's context may carry are read when present, else left empty:
``chow_feeds`` (W13 统包), ``wild_counts`` (W16 财神钱), ``kongs`` (W16 kong money);
``bonus_tiles`` (Shandong) is the number of flowers in the winner's hand. The protocol comes from
:mod:`majiang.rules.base`; the rule-set declarations (``ruleset.py`` of each package) build the
adapter with the rule set's options.

What the table hands over, and what the adapter does with it:

* the engine writes a claimed pung or kong of 白板 with its physical face; when 白板 stands in for
  the wildcard's face (Wenzhou, seed 000) the adapter rewrites such melds as the wildcard's face
  (as :func:`~majiang.rules.wenzhou.common.natural_hand` does), so flushes are judged on what the
  tiles play; a chow with a 白板 already plays the face (``Meld.tiles``; the White is in
  ``Meld.physical``) and passes unchanged;
* a hand the rule set does not accept (:class:`NotWinningError`, e.g. a three-财神 hand without a
  shape won on a discard: W13 财神会 is a self-draw) scores ``value=-1``, below every
  ``RuleSet.min_score``, so the table does not offer the win (see :data:`REJECTED`);
* default options per rule set (:data:`ENGINE_OPTIONS`): W13 without 十三幺 (RULES.md §4.3 lists
  standard, 七对子, 不搭 and 财神会 only, matching the engine's ``"wenzhou13"`` shapes).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from majiang.rules.base import ScoreResult
from majiang.rules.wenzhou.common import NotWinningError, OptionsError, WildResult, WinContext
from majiang.tiles import WILD

RULESETS: dict[str, str] = {
    "wz13": "majiang.rules.wenzhou.w13",
    "wz16": "majiang.rules.wenzhou.w16",
    "seed000": "majiang.rules.seed000",
    "shandong": "majiang.rules.shandong",
}
"""Rule-set id → module exposing ``score(hand, ctx, options)`` and ``settle(result, ctx)``."""

_OPTIONAL_FACTS = ("chow_feeds", "wild_counts", "kongs", "bonus_tiles")

REJECTED = -1
"""``ScoreResult.value`` of a hand the rule set does not accept: below any ``min_score`` (>= 0)."""


def _engine_options(ruleset: str) -> Any:
    if ruleset == "wz13":
        from majiang.rules.wenzhou.w13 import W13Options

        return W13Options(thirteen_orphans=False)
    return None


ENGINE_OPTIONS: dict[str, Any] = {}
"""Rule-set id → options used when an adapter is built without options (filled on first use)."""


def engine_options(ruleset: str) -> Any:
    """The options :class:`WildRulesAdapter` uses for ``ruleset`` by default (``None`` = the
    package's defaults; W13: ``W13Options(thirteen_orphans=False)``)."""
    if ruleset not in ENGINE_OPTIONS:
        ENGINE_OPTIONS[ruleset] = _engine_options(ruleset)
    return ENGINE_OPTIONS[ruleset]


def engine_hand(ctx: Any) -> Any:
    """The engine context's hand with claimed 白板 pungs/kongs written as the wildcard's face when
    a wildcard is in play (白板 stands in for it in every wildcard preset; the table keeps melds with
    physical faces). Other hands unchanged."""
    from majiang.hand import Hand, Meld, MeldKind
    from majiang.tiles import WHITE

    hand = ctx.hand
    wf = getattr(ctx, "wild_face", None)
    if wf is None or wf == WHITE:
        return hand

    def white_set(m: Meld) -> bool:
        return m.tile == WHITE and m.kind is not MeldKind.CHOW

    if not any(white_set(m) for m in hand.melds):
        return hand
    melds = tuple(Meld(m.kind, wf, m.offer, None if m.claimed is None else wf) if white_set(m) else m
                  for m in hand.melds)
    return Hand(hand.concealed, melds, hand.win_tile, hand.flowers, hand.wilds)


def rules_module(ruleset: str) -> ModuleType:
    """The module of ``ruleset`` (``wz13``, ``wz16``, ``seed000``, ``shandong``); raises
    :class:`OptionsError` for an unknown id."""
    try:
        return importlib.import_module(RULESETS[ruleset])
    except KeyError:
        raise OptionsError(f"unknown wildcard rule set {ruleset!r} (known: {', '.join(RULESETS)})") from None


def context_from_engine(ctx: Any) -> WinContext:
    """:meth:`WinContext.from_engine` plus the optional facts the engine context may carry
    (``bonus_tiles`` defaults to the flowers in the winner's hand)."""
    extra = {k: getattr(ctx, k) for k in _OPTIONAL_FACTS if getattr(ctx, k, None) is not None}
    if "bonus_tiles" not in extra and getattr(ctx, "hand", None) is not None:
        extra["bonus_tiles"] = len(ctx.hand.flowers)
    if not extra.get("chow_feeds"):
        extra.pop("chow_feeds", None)
    if not extra.get("kongs"):
        extra.pop("kongs", None)
    return WinContext.from_engine(ctx, **extra)


def score_engine(ruleset: str, ctx: Any, options: Any = None) -> WildResult:
    """Score an engine ``WinContext`` (its ``hand`` in the engine convention) under ``ruleset``
    (``options`` ``None``: :func:`engine_options`)."""
    if options is None:
        options = engine_options(ruleset)
    return rules_module(ruleset).score(engine_hand(ctx), context_from_engine(ctx), options)


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

    def score(self, ctx: Any) -> ScoreResult:
        """The engine ``ScoreResult``: the rule set's value and ``(id, value, 1)`` triples; a hand
        the rule set does not accept scores :data:`REJECTED` (the table then offers no win)."""
        if ctx.hand.win_tile == WILD and not ctx.self_drawn:
            return ScoreResult(REJECTED, 0, ())  # nobody wins on a discarded 财神 (RULES.md §4.2)
        try:
            r = score_engine(self.ruleset, ctx, self.options)
        except NotWinningError:
            return ScoreResult(REJECTED, 0, ())
        return ScoreResult(r.value, 0, r.as_score_triples())

    def settle(self, win: Any, players: int) -> list[int]:
        r = score_engine(self.ruleset, win.ctx, self.options)
        deltas = rules_module(self.ruleset).settle(r).deltas
        if len(deltas) != players:
            raise OptionsError(f"{self.ruleset} settles {len(deltas)} players, the table has {players}")
        return deltas


def register_with_engine() -> tuple[str, ...]:
    """Register every rule set of :data:`RULESETS` as an engine scorer and settlement under its id
    (``RuleSet.with_options(scorer="wz13", settlement="wz13")``) under the old no-argument protocol.
    Not needed: the rule-set packages declare them (``ruleset.py``). Returns the ids registered."""
    from majiang.engine.ruleset import register_scorer, register_settlement  # noqa: PLC0415 - legacy helper

    for rid in RULESETS:
        register_scorer(rid, lambda rid=rid: WildRulesAdapter(rid))
        register_settlement(rid, lambda rid=rid: WildRulesAdapter(rid))
    return tuple(RULESETS)
