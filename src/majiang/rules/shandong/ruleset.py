"""The ``shandong`` rule set as the registry sees it (entry point ``majiang.rulesets: shandong``).

Provisional Shandong (RULES.md §5, §9.5; seed ``001_*``): 13-tile hands with the 8 flowers, standard
shape only, 1 point a win, doubled self-drawn. Scorer and settlement ``"shandong"``.
"""

from __future__ import annotations

from typing import Any

from majiang.rules.wenzhou.cli import COMMAND
from majiang.rules.base import Option, PatternInfo, RuleSetDef


def _adapter(rules: Any):
    from majiang.rules.shandong.rules import ShandongOptions
    from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter

    return WildRulesAdapter("shandong", ShandongOptions(points=rules.rule_option("points"),
                                                        self_draw_multiplier=rules.rule_option("self_draw_multiplier")))


def _patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.shandong.rules import WIN_TYPES

    return tuple(PatternInfo(p.id, p.name_zh, p.name_en, p.value) for p in WIN_TYPES.values())


RULESET = RuleSetDef(
    name="shandong", label_zh="山东麻将（暂定）", label_en="Shandong (provisional)", unit="points",
    summary="Provisional 13-tile game with flowers; the seed gives no scoring (seed 001, RULES.md §5, §9.5).",
    table=dict(flowers=True, hand_size=13, shapes="standard", reserve=0, dealer_keeps_on_win=True,
               dealer_keeps_on_draw=False, rounds=4, first_dealer="dice", min_score=0, scorer="shandong",
               settlement="shandong", multiple_winners="head-bump"),
    scorers={"shandong": _adapter}, settlements={"shandong": _adapter},
    options=(
        Option("points", "int", 1, "每胡分", "Points a win", "How many points one win is worth.", minimum=1,
               help_zh="每次和牌的分数。", source="RULES.md §9.5"),
        Option("self_draw_multiplier", "int", 2, "自摸倍数", "Self-draw multiplier",
               "A self-drawn win is worth this many times the points.", minimum=1,
               help_zh="自摸和的分数是这个倍数。", source="RULES.md §9.5"),
    ),
    table_options=("multiple_winners", "rob_kong", "dealer_keeps_on_win", "rounds", "first_dealer", "seat_draw"),
    patterns=_patterns,
    score_command=COMMAND,
    summary_zh="山东麻将：十三张带花的简单打法，每次和牌计固定分，自摸加倍（暂定）。",
    summary_en="Shandong: a simple 13-tile game with flowers, a fixed score a win, doubled on a self-draw (provisional).",
    headline_options=("points", "self_draw_multiplier", "dealer_keeps_on_win"),
)
