"""How the bots play MCR: the rule set's :class:`~majiang.rules.base.BotTuning` (docs/strong.md,
"Per-rule-set tuning")."""

from __future__ import annotations

from majiang.rules.base import BotTuning

TUNING = BotTuning(typical_win=36.0, typical_deal_in=16.0, fan_plans=True)
"""MCR: a typical win 8×3 + ~12 fan; the discarder pays 8 + ~12 fan, less the 8 paid anyway half the
time. Hands are valued by their shortest path to an 8-fan pattern."""
