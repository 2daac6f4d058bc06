"""The table: rule sets, the wall, one hand, a match, and what a seat may see.

Public names:

* :class:`RuleSet` (``RuleSet.preset("mcr")``; presets :data:`PRESET_NAMES` = mcr, taiwan, wenzhou,
  wenzhou-w16, seed000, shandong, aliases :data:`PRESET_ALIASES`), :class:`Scorer`, :class:`Settlement`,
  :class:`WinContext`, :class:`ScoreResult`, :func:`register_scorer`, :func:`register_settlement`;
* :class:`Action`, :class:`ActionKind`, :class:`Phase`, :class:`IllegalActionError`, :class:`XiangGongError`;
* :class:`HandTable` (one hand), :class:`Match` (a match), :class:`PlayerView`, :func:`run_match`;
* :func:`arrange_wall` (explicit walls for scenarios), :func:`derive_seed`, :func:`parse_spec`
  (``"mcr,scorer=mcr"``).

Layering (DESIGN.md): the engine imports tiles, hand and analysis, and of the rules layer only the
protocol (:mod:`majiang.rules.base`) and the registry (:mod:`majiang.rules.registry`); rule sets plug in
through the ``majiang.rulesets`` entry points; records and players sit on top of it.
"""

from majiang.engine.actions import PASS, Action, ActionKind, IllegalActionError, Phase, XiangGongError
from majiang.engine.match import Match, Player, PlayerView, run_match
from majiang.engine.ruleset import (
    CompetitionSettlement,
    FixedScorer,
    FlatSettlement,
    RuleSet,
    RuleSetError,
    Scorer,
    ScoreResult,
    Settlement,
    WinContext,
    WinSettle,
    parse_spec,
    register_scorer,
    register_settlement,
    resolve,
)
from majiang.engine.table import HandResult, HandTable, WinInfo
from majiang.engine.wall import arrange_wall, deal_order, derive_seed

__all__ = [
    "PASS", "PRESET_ALIASES", "PRESET_NAMES", "Action", "ActionKind", "CompetitionSettlement", "FixedScorer", "FlatSettlement",
    "HandResult", "HandTable", "IllegalActionError", "Match", "Phase", "Player", "PlayerView", "RuleSet",
    "RuleSetError", "ScoreResult", "Scorer", "Settlement", "WinContext", "WinInfo", "WinSettle",
    "arrange_wall", "deal_order", "derive_seed", "parse_spec", "register_scorer", "register_settlement", "resolve",
    "run_match", "XiangGongError",
]


def __getattr__(name: str):
    """``PRESET_NAMES`` / ``PRESET_ALIASES``, read from the rule-set registry when first used."""
    if name in ("PRESET_NAMES", "PRESET_ALIASES"):
        from majiang.engine import ruleset

        return getattr(ruleset, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
