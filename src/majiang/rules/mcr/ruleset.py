"""The ``mcr`` rule set as the registry sees it (entry point ``majiang.rulesets: mcr``).

Chinese Official / MCR (RULES.md §6, §9.6; seed ``004_*``): 144 tiles with flowers, 13-tile hands,
no wildcards, every MCR shape, chow from the left player only, head-bump on several winners, no
reserve, the deal passes after every hand, 4 rounds (16 hands), 8-fan minimum without flowers.
Scorer ``"mcr"`` (:class:`~majiang.rules.mcr.engine_adapter.McrScorer`, the 81 fans; ``scorer="fixed"``
keeps the stand-in :class:`~majiang.rules.base.FixedScorer`); settlement ``"competition"``
(:class:`~majiang.rules.base.CompetitionSettlement`, RULES.md §9.6).

Own options: the readings of :class:`~majiang.rules.mcr.McrOptions` (defaults PyMahjongGB 1.4.0).
"""

from __future__ import annotations

from typing import Any

from majiang.rules.base import Option, PatternInfo, RuleSetDef
from majiang.rules.mcr.bots import TUNING
from majiang.rules.mcr.cli import COMMAND


def _scorer(rules: Any):
    from majiang.rules.mcr.conditions import McrOptions
    from majiang.rules.mcr.engine_adapter import McrScorer

    return McrScorer(McrOptions(knitted_straight_waits=rules.rule_option("knitted_straight_waits"),
                                melded_concealed_kong_pair=rules.rule_option("melded_concealed_kong_pair"),
                                fifth_copy_waits=rules.rule_option("fifth_copy_waits")))


def _patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.mcr.fans import FANS

    return tuple(PatternInfo(f.name_zh, f.name_zh, f.name_en, f.points) for f in FANS)


RULESET = RuleSetDef(
    name="mcr", label_zh="国标麻将", label_en="Chinese Official (MCR)", unit="fan",
    summary="Chinese Official: 81 fans with the 不计 exclusions, 8-fan minimum, flowers, competition "
            "settlement (seed 004, RULES.md §6, §9.6).",
    table=dict(flowers=True, hand_size=13, shapes="mcr", reserve=0, dealer_keeps_on_win=False,
               dealer_keeps_on_draw=False, rounds=4, first_dealer="east", min_score=8, scorer="mcr",
               settlement="competition", multiple_winners="head-bump"),
    scorers={"mcr": _scorer},
    options=(
        Option("knitted_straight_waits", "bool", True, "组合龙算边嵌钓", "Wait fans inside a knitted straight",
               "Edge, closed and single waits still score when the winning tile could fit the knitted straight.",
               help_zh="和牌张可以放进组合龙时，边张、嵌张、单钓仍然计番。",
               source="PyMahjongGB 1.4.0; off: the rule book's reading (RULES.md §6)"),
        Option("melded_concealed_kong_pair", "bool", True, "明暗杠", "Melded and concealed kong",
               "One melded and one concealed kong score 5 fan together, instead of 1 and 2 apart.",
               help_zh="一个明杠加一个暗杠合计明暗杠 5 番，而不是明杠 1 番加暗杠 2 番。", source="PyMahjongGB"),
        Option("fifth_copy_waits", "bool", True, "第五张算听", "Fifth copy counts as a wait",
               "A tile you already hold four of still counts as a wait for the single-wait fans.",
               help_zh="手里已有四张的牌，计边张、嵌张、单钓时仍算作听的牌。", source="PyMahjongGB"),
    ),
    table_options=("multiple_winners", "rob_kong", "flowers", "min_score", "rounds", "first_dealer", "seat_draw"),
    patterns=_patterns,
    bot_tuning=TUNING,
    score_command=COMMAND,
    summary_zh="国标麻将：十三张，81 种番型，8 番起和，带花牌；比赛通用的打法。",
    summary_en="Chinese Official: 13 tiles, 81 scoring patterns, 8 fan to win, with flowers; the tournament game.",
    headline_options=("multiple_winners", "min_score", "flowers"),
)
