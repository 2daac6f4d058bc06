"""The ``seed000`` rule set as the registry sees it (entry point ``majiang.rulesets: seed000``).

The seed-000 百搭 profile (RULES.md §2, §9.1, §9.2): 136 tiles, 13-tile hands, 百搭 by dice with 白板
standing in, shapes ``"seed000"`` (七对子, 十三幺, three 百搭 win outright), all four 百搭 live (the
indicator stays in the wall, §2.1 E). Scorer and settlement ``"seed000"`` (1 point a win: the seed
gives no values). 相公 on (``xianggong``, §2.4).
"""

from __future__ import annotations

from typing import Any

from majiang.analysis import ShapeRules
from majiang.rules.wenzhou.cli import SEED000_COMMAND
from majiang.rules.base import Option, PatternInfo, RuleSetDef
from majiang.rules.wenzhou.ruleset import WILD_TABLE, WILD_TABLE_OPTIONS


def _adapter(rules: Any):
    from majiang.rules.seed000.profile import Seed000Options
    from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter

    return WildRulesAdapter("seed000", Seed000Options(base_points=rules.rule_option("base_points"),
                                                      live_wild_copies=rules.live_wild_copies,
                                                      structure_exempt=rules.rule_option("structure_exempt")))


def _patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.seed000.profile import NAMES

    return tuple(PatternInfo(pid, zh, en, None) for pid, (zh, en) in NAMES.items())


RULESET = RuleSetDef(
    name="seed000", label_zh="百搭（种子000）", label_en="Seed-000 百搭 profile", unit="points",
    summary="The seed-000 百搭 profile: White stands in, 3 or 4 百搭 win, 七对子, 十三幺, the seed's named hands "
            "(seed 000, RULES.md §2).",
    table=dict(flowers=False, hand_size=13, shapes="seed000", reserve=0, **WILD_TABLE, wild_indicator_out=False,
               dealer_keeps_on_win=True, dealer_keeps_on_draw=False, rounds=4, first_dealer="dice", min_score=0,
               scorer="seed000", settlement="seed000", multiple_winners="head-bump", xianggong=True),
    shapes={"seed000": ShapeRules(seven_pairs=True, thirteen_orphans=True, wilds_win=3)},
    scorers={"seed000": _adapter}, settlements={"seed000": _adapter},
    options=(
        Option("base_points", "int", 1, "底分", "Base points", "Points every win is worth before its patterns.",
               minimum=0, help_zh="每次和牌在牌型分之前的底分。"),
        Option("structure_exempt", "bool", False, "清/混老头不需成型", "Terminal hands need no shape",
               "All-terminals hands win without the usual four sets and a pair.",
               help_zh="清老头、混老头不需要成和牌型也能和。", source="RULES.md §2.3"),
    ),
    table_options=WILD_TABLE_OPTIONS + ("wild_indicator_out",),
    # the seed calls the wildcard 百搭 (Wenzhou's word 财神 is the shared labels')
    option_words={
        "wild_next_face": {"label_zh": "翻牌下一张为百搭", "help_zh": "百搭是翻出的那张牌的下一张，而不是翻出的牌本身。"},
        "wild_indicator_out": {"label_zh": "百搭牌不入墙", "help_zh": "翻出的那张牌不再使用，场上只剩三张百搭。"},
        "wild_discardable": {"label_zh": "百搭可以打出", "help_zh": "可以打出百搭（别人不能和这张）；关掉时不能打出百搭。"},
        "wild_discard_penalty": {"label_zh": "误打百搭", "help_zh": "打出百搭时付给其他每家的分数；0 为不罚。"},
    },
    patterns=_patterns,
    score_command=SEED000_COMMAND,
    summary_zh="百搭麻将：白板当百搭，三张或四张百搭即可和，七对子、十三幺都算。",
    summary_en="Wildcard game (百搭): White dragons are wild, three or four wilds win, seven pairs and thirteen orphans count.",
    headline_options=("base_points", "wild_indicator_out"),
)
