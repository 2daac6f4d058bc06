"""The bots' per-rule-set tuning, read from the rule sets (:class:`~majiang.rules.base.BotTuning`).

A bot asks :func:`tuning` for its table's tuning: the rule set that declares the table's scorer says
how its bots play (:func:`majiang.rules.registry.bot_tuning`), so a rule set installed as a plug-in
tunes the bots that play it. :class:`PerScorer` keeps the old per-scorer tables
(``strong.DEFENCE``, ``strong.RON_RATES``, ``danger.LEARNED``, ...) readable: each is a view of one
tuning field over the rule sets found, by scorer name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from majiang.engine.ruleset import RuleSet
from majiang.rules import registry
from majiang.rules.base import DEFAULT_TUNING, BotTuning


def tuning(rules: RuleSet) -> BotTuning:
    """How the bots play a table under ``rules``: the tuning of the rule set declaring its scorer."""
    return registry.bot_tuning(rules.scorer)


class PerScorer(Mapping[str, Any]):
    """``{scorer name: value}`` of one :class:`BotTuning` field, for the scorers whose rule set sets it to
    something other than the default; ``make`` turns a tuning into the value (default: the field's)."""

    def __init__(self, field: str, make: Callable[[BotTuning], Any] | None = None) -> None:
        self.field = field
        self.make = make

    def _data(self) -> dict[str, Any]:
        default = getattr(DEFAULT_TUNING, self.field)
        out: dict[str, Any] = {}
        for d in registry.rulesets().values():
            t = d.bot_tuning
            if getattr(t, self.field) != default:
                for sc in d.scorers:
                    out.setdefault(sc, self.make(t) if self.make else getattr(t, self.field))
        return out

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return f"PerScorer({self.field!r}: {self._data()!r})"

