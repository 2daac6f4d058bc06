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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majiang.engine.actions import PASS, Action, ActionKind, IllegalActionError, Phase, XiangGongError
    from majiang.engine.match import Match, Player, PlayerView, run_match
    from majiang.engine.ruleset import (
        PRESET_ALIASES,
        PRESET_NAMES,
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

# The names load on first use (PEP 562): a bot process that needs only actions and views does not
# import the table, the wall and the scorers' machinery at start-up.
_WHERE = {
    **dict.fromkeys(("PASS", "Action", "ActionKind", "IllegalActionError", "Phase", "XiangGongError"), "actions"),
    **dict.fromkeys(("Match", "Player", "PlayerView", "run_match"), "match"),
    **dict.fromkeys(("PRESET_ALIASES", "PRESET_NAMES", "CompetitionSettlement", "FixedScorer", "FlatSettlement",
                     "RuleSet", "RuleSetError", "Scorer", "ScoreResult", "Settlement", "WinContext", "WinSettle",
                     "parse_spec", "register_scorer", "register_settlement", "resolve"), "ruleset"),
    **dict.fromkeys(("HandResult", "HandTable", "WinInfo"), "table"),
    **dict.fromkeys(("arrange_wall", "deal_order", "derive_seed"), "wall"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'majiang.engine' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"majiang.engine.{where}"), name)
    if name not in ("PRESET_NAMES", "PRESET_ALIASES"):  # those are read from the rule-set registry each time
        globals()[name] = value
    return value


__all__ = [
    "PASS", "PRESET_ALIASES", "PRESET_NAMES", "Action", "ActionKind", "CompetitionSettlement", "FixedScorer", "FlatSettlement",
    "HandResult", "HandTable", "IllegalActionError", "Match", "Phase", "Player", "PlayerView", "RuleSet",
    "RuleSetError", "ScoreResult", "Scorer", "Settlement", "WinContext", "WinInfo", "WinSettle",
    "arrange_wall", "deal_order", "derive_seed", "parse_spec", "register_scorer", "register_settlement", "resolve",
    "run_match", "XiangGongError",
]
