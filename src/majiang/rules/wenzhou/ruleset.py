"""The ``wenzhou`` (W13, alias ``wenzhou13``) and ``wenzhou-w16`` rule sets as the registry sees them
(entry point ``majiang.rulesets: wenzhou``).

* ``wenzhou`` -- the seed-003 game W13, the primary Wenzhou profile (RULES.md §4.2-§4.4, §4.6, §9.4):
  136 tiles, 13-tile hands, a 财神 chosen by dice from the tail (the indicator stays out of play: 3
  live copies), 白板 stands for the 财神's face, 财神 neither discarded nor used in claims, shapes
  ``"wenzhou13"`` (七对子, 不搭, 财神会 = self-drawn with three 财神; 财神会 is a self-draw the shapes
  cannot express, so the scorer refuses it on a discard), the dealer keeps the deal only by winning,
  被跟 costs the followed player 1 point to each other player. Scorer and settlement ``"wz13"``.
* ``wenzhou-w16`` -- the 16-tile game W16 (RULES.md §4.2, §4.3, §4.5): the same 财神 flow, shapes
  ``"wenzhou16"`` (八对, three 财神 win), the dealer keeps by winning for at most four dealerships.
  Scorer and settlement ``"wz16"``.
"""

from __future__ import annotations

from typing import Any

from majiang.analysis import ShapeRules
from majiang.rules.base import Option, PatternInfo, RuleSetDef
from majiang.rules.wenzhou.bots import W13_TUNING, W16_TUNING
from majiang.rules.wenzhou.cli import COMMAND, W16_COMMAND

WILD_TABLE = dict(wild_mode="indicator", white_stand_in=True, wild_discardable=False, wild_claimable=False)
"""The 财神 table values Wenzhou and seed 000 share (RULES.md §4.2)."""

WILD_TABLE_OPTIONS = ("multiple_winners", "rob_kong", "dealer_keeps_on_win", "dealer_keeps_on_draw",
                      "max_dealer_streak", "rounds", "first_dealer", "seat_draw", "wild_next_face", "xianggong")


def _w13(rules: Any):
    from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter
    from majiang.rules.wenzhou.w13 import W13Options

    names = ("caishenhui_mode", "self_draw_bonus_with_specials", "fanqiang_penalty", "robbing_kong_liability",
             "tongbao")
    return WildRulesAdapter("wz13", W13Options(thirteen_orphans=False, live_wild_copies=rules.live_wild_copies, **{n: rules.rule_option(n) for n in names}))


def _w16(rules: Any):
    from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter
    from majiang.rules.wenzhou.w16 import W16Options

    names = ("soft_eight_pairs", "lazila", "special_double", "robbing_kong_hard", "caishen_money", "kong_money")
    return WildRulesAdapter("wz16", W16Options(live_wild_copies=rules.live_wild_copies, **{n: rules.rule_option(n) for n in names}))


def _w13_patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.wenzhou.w13 import PLAIN_DISCARD, PLAIN_SELF_DRAW, TABLE

    rows = [PatternInfo(p.id, p.name_zh, p.name_en, p.value) for p in (PLAIN_DISCARD, PLAIN_SELF_DRAW)]
    rows += [PatternInfo(d.id, d.name_zh, d.name_en, d.self_drawn if d.self_drawn is not None else d.discard)
             for d in TABLE.values()]
    return tuple(rows)


def _w16_patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.wenzhou.w16 import REASONS, TIERS

    return tuple(PatternInfo(p.id, p.name_zh, p.name_en, p.value) for p in (*TIERS.values(), *REASONS.values()))


W13 = RuleSetDef(
    name="wenzhou", aliases=("wenzhou13",), label_zh="温州麻将（十三张）", label_en="Wenzhou 财神 (13 tiles)",
    unit="multiplier",
    summary="Wenzhou 财神, the seed-003 profile: special hands and additive multipliers, base 3/5/7/9, 犯枪, "
            "被跟, 统包, 抢杠, 误打财神 (seed 003, RULES.md §4.4, §4.6).",
    table=dict(flowers=False, hand_size=13, shapes="wenzhou13", reserve=0, **WILD_TABLE, dealer_keeps_on_win=True,
               dealer_keeps_on_draw=False, rounds=4, first_dealer="dice", min_score=0, scorer="wz13",
               settlement="wz13", multiple_winners="head-bump", followed_penalty=1, wild_discard_penalty=1),
    shapes={"wenzhou13": ShapeRules(seven_pairs=True, unconnected=True, wilds_win=3)},
    scorers={"wz13": _w13}, settlements={"wz13": _w13},
    options=(
        Option("caishenhui_mode", "str", "three_wilds", "财神会", "Wildcard meeting",
               "Which hand counts as the wildcard meeting.", choices=("three_wilds", "wild_drawn"),
               help_zh="怎样才算财神会。",
               choice_names=(("three_wilds", "自摸时手握三张财神", "Self-draw holding three wildcards"),
                             ("wild_drawn", "摸到财神且手里另有财神", "Drawing a wildcard while holding another")),
               source="RULES.md §4.4"),
        Option("self_draw_bonus_with_specials", "bool", False, "特殊牌型自摸加倍", "Self-draw doubles special hands",
               "Special hands are doubled on a self-draw too.", help_zh="特殊牌型自摸也加倍。", source="RULES.md §4.4"),
        Option("fanqiang_penalty", "int", 1, "犯枪", "Discarder's extra point",
               "The extra points the discarder pays the winner.", minimum=0,
               help_zh="放炮者另付给和牌者的分。", source="RULES.md §4.6"),
        Option("robbing_kong_liability", "bool", True, "抢杠包赔", "Robbed player pays for all",
               "A player whose kong is robbed pays for every loser.", help_zh="被抢杠的玩家替所有输家付。",
               source="RULES.md §4.6"),
        Option("tongbao", "bool", True, "统包", "Feeder pays for all",
               "A player who lets the next player chow three times pays for everyone.",
               help_zh="给下家喂了三次吃的玩家替所有人付。", source="RULES.md §4.6"),
    ),
    table_options=WILD_TABLE_OPTIONS + ("followed_penalty", "wild_discardable", "wild_discard_penalty"),
    patterns=_w13_patterns,
    bot_tuning=W13_TUNING,
    score_command=COMMAND,
    summary_zh="温州十三张：翻牌定财神（百搭），七对、乱风等特殊牌型，按倍数计分。",
    summary_en="Wenzhou 13-tile: a flipped tile makes the wildcard (财神), special hands, wins scored by multipliers.",
    headline_options=("wild_discardable", "followed_penalty", "fanqiang_penalty"),
)

W16 = RuleSetDef(
    name="wenzhou-w16", label_zh="温州麻将（十六张）", label_en="Wenzhou 16-tile", unit="multiplier",
    summary="Wenzhou 16-tile: 八对, three 财神 win, soft/hard/double tiers, 财神 and kong money (RULES.md §4.5).",
    table=dict(flowers=False, hand_size=16, shapes="wenzhou16", reserve=0, **WILD_TABLE, dealer_keeps_on_win=True,
               dealer_keeps_on_draw=False, max_dealer_streak=3, rounds=4, first_dealer="dice", min_score=0,
               scorer="wz16", settlement="wz16", multiple_winners="head-bump"),
    shapes={"wenzhou16": ShapeRules(eight_pairs=True, wilds_win=3)},
    scorers={"wz16": _w16}, settlements={"wz16": _w16},
    options=(
        Option("soft_eight_pairs", "int", 1, "带财八对", "Soft eight pairs",
               "The multiplier of eight pairs won on a discard with a wildcard standing in.", minimum=1,
               help_zh="点炮和、带财神的八对算几倍。", source="MIL 1; C5 2; RULES.md §4.5"),
        Option("lazila", "bool", False, "辣子辣", "Three wilds at home ×8",
               "Three wildcards all played as their own tile multiply the hand by 8.",
               help_zh="三张财神都当本身用时算 8 倍。", source="C3 option"),
        Option("special_double", "bool", False, "特殊双翻", "Special doubles", "Some special hands score double.",
               help_zh="部分特殊牌型翻倍。", source="C3's special doubles (RULES.md §4.5)"),
        Option("robbing_kong_hard", "bool", False, "抢杠算硬", "Robbing a kong is hard",
               "A win by robbing a kong counts at least as a hard win.", help_zh="抢杠和至少算硬和。", source="C5"),
        Option("caishen_money", "bool", True, "财神钱", "Wildcard money", "Wildcards held are paid for after each hand.",
               help_zh="每手牌结束后结算财神钱。", source="RULES.md §4.5"),
        Option("kong_money", "bool", True, "杠钱", "Kong money", "Kongs are paid for after each hand.",
               help_zh="每手牌结束后结算杠钱。", source="RULES.md §4.5"),
    ),
    table_options=WILD_TABLE_OPTIONS,
    patterns=_w16_patterns,
    bot_tuning=W16_TUNING,
    score_command=W16_COMMAND,
    summary_zh="温州十六张：财神百搭，八对，软胡硬胡分档，另有财神钱和杠钱。",
    summary_en="Wenzhou 16-tile: wildcards (财神), eight pairs, soft and hard wins, money for wildcards and kongs.",
    headline_options=("caishen_money", "kong_money", "max_dealer_streak"),
)

RULESETS = (W13, W16)
