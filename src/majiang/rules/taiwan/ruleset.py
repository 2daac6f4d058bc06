"""The ``taiwan`` rule set as the registry sees it (entry point ``majiang.rulesets: taiwan``).

Taiwan 16-tile (RULES.md §3): 144 tiles, 16-tile hands, 16 tiles held back, an added kong only with
the drawn tile, the dealer keeps the deal on a win or a draw, flower wins (八仙過海, 七搶一) end the
hand at once. Scorer and settlement ``"taiwan"``
(:class:`~majiang.rules.taiwan.engine_adapter.TaiwanEngineAdapter`), built from the rule set's own
options: the tai preset and the :class:`~majiang.rules.taiwan.TaiwanOptions` switches (reading
choices of RULES.md §3.5 included), and the stakes (base 30, 10 per tai, RULES.md §3.3).
"""

from __future__ import annotations

from typing import Any

from majiang.rules.base import Option, PatternInfo, RuleSetDef
from majiang.rules.taiwan.bots import TUNING
from majiang.rules.taiwan.cli import COMMAND

#: The rule set's switches: ``(name, default, label_zh, label_en, help, help_zh, source)`` (the labels in
#: simplified characters; RULES.md §3.2/§3.5 name the traditional forms).
_BOOL_OPTIONS: tuple[tuple[str, bool, str, str, str, str, str], ...] = (
    ("all_flowers_count", False, "见花见台", "Every flower counts",
     "Every flower tile earns 1 tai, not only the flowers of your own seat.",
     "每张花牌都加 1 台，不只是本门花。", "RULES.md §3.2 (花槓 then replaces only the seat flower)"),
    ("concealed_kong_breaks_menqing", False, "暗杠破门清", "A concealed kong breaks a concealed hand",
     "Any kong, even a concealed one, means the hand no longer counts as concealed.",
     "任何杠（包括暗杠）都算破了门清。", "the P2/P4 reading, RULES.md §3.2"),
    ("all_honours_add_all_pungs", True, "字一色计碰碰胡", "All honours also earns all pungs",
     "An all-honours hand also earns the all-pungs tai.", "字一色同时计碰碰胡。", "C1 default, RULES.md §3.2"),
    ("little_four_winds_keep_wind_tai", False, "小四喜计风台", "Little four winds keeps wind tai",
     "Little four winds still earns the round wind and seat wind tai.", "小四喜仍计圈风、门风台。",
     "RULES.md §3.2 non-stacking rule 1"),
    ("earthly_ready_excludes_concealed", False, "地听不计门清", "Earthly ready excludes a concealed hand",
     "Earthly ready no longer also earns the concealed-hand, no-claim and declared-ready tai, but still earns "
     "self-draw.", "地听不再计门清、不求和报听，但仍计自摸。", "P1, RULES.md §3.2"),
    ("prefer_triplet_on_discard", False, "放枪优先刻子", "Prefer the triplet reading on a discard",
     "On a discard win, the winning tile completes a triplet whenever it can.",
     "点炮和时，和牌张尽量算作组成刻子。", "C1, RULES.md §3.2 rule 6"),
    ("single_wait_with_half_begging", True, "半求计独听", "Single wait with half begging",
     "Half begging also earns the single-wait tai.", "半求同时计独听。", "RULES.md §3.5"),
    ("single_wait_counts_own_four", True, "独听计自持四张", "Own four copies count as a wait",
     "For the single wait, a tile you already hold four of still counts as a waiting tile.",
     "计独听时，手里已有四张的牌仍算作听的牌。", "RULES.md §3.5"),
    ("all_chows_honour_pair", False, "平胡可字对", "All chows with an honour pair",
     "An all-chows hand may have an honour tile pair.", "平胡可以用字牌作将。", "RULES.md §3.5"),
    ("all_chows_with_flowers", False, "平胡可有花", "All chows with flowers",
     "An all-chows hand may have flowers.", "有花牌也可以算平胡。", "RULES.md §3.5"),
    ("heavenly_ready_includes_declared", False, "天听含报听", "Heavenly ready includes declared ready",
     "Heavenly ready already includes declared ready, which is then not added.", "天听已包含报听，不再另计报听。",
     "RULES.md §3.5"),
    ("eight_half_pairs_single_wait", True, "八对半计独听", "Eight and a half pairs takes single wait",
     "Eight and a half pairs waiting on one tile also earns the single-wait tai.", "八对半只听一张时也计独听。",
     "RULES.md §3.5"),
    ("four_kongs", False, "四杠", "Four kongs", "The four kongs pattern is scored, worth 8 tai.",
     "计四杠（8 台）。", "the optional pattern tw.si_gang"),
)

#: Players' names of the tai tables (:data:`~majiang.rules.taiwan.patterns.PRESETS`), ``(value, zh, en)``.
_PRESET_NAMES: tuple[tuple[str, str, str], ...] = (
    ("association", "协会台数（标准）", "Association (standard)"),
    ("c1_values", "开源麻将台数", "Open Mahjong table"),
    ("star31", "明星三缺一台数", "Star 31 table"),
    ("shenlaiye", "神来也台数", "Shenlaiye table"),
    ("p3", "网络平台台数", "Online platform table"),
    ("cap16", "16 台封顶桌", "16-tai cap table"),
    ("c2_16mj", "16mj 台数", "16mj table"),
)


def _options(rules: Any):
    from majiang.rules.taiwan.options import TaiwanOptions

    kw = {name: rules.rule_option(name) for name, *_ in _BOOL_OPTIONS if name != "four_kongs"}
    enabled = frozenset({"tw.si_gang"}) if rules.rule_option("four_kongs") else frozenset()
    return TaiwanOptions(preset=rules.rule_option("tai_preset"), enabled=enabled,
                         minimum_tai=rules.rule_option("minimum_tai"), tai_cap=rules.rule_option("tai_cap"),
                         eight_flowers_mode=rules.rule_option("eight_flowers_mode"), **kw)


def _adapter(rules: Any):
    from majiang.rules.taiwan.engine_adapter import TaiwanEngineAdapter
    from majiang.rules.taiwan.settlement import Stakes

    return TaiwanEngineAdapter(options=_options(rules),
                               stakes=Stakes(rules.rule_option("base"), rules.rule_option("per_tai")))


def _patterns() -> tuple[PatternInfo, ...]:
    from majiang.rules.taiwan.patterns import PATTERNS

    return tuple(PatternInfo(p.id, p.zh_hans, p.en, p.tai) for p in PATTERNS)  # zh pages: simplified


def _presets() -> tuple[str, ...]:
    from majiang.rules.taiwan.patterns import PRESETS

    return tuple(PRESETS)


RULESET = RuleSetDef(
    name="taiwan", label_zh="台湾十六张", label_en="Taiwan 16-tile", unit="tai",
    summary="Taiwan 16-tile: flowers, 八仙過海/七搶一, 台 table with presets and non-stacking rules, dealer "
            "streaks, base + 台 settlement (RULES.md §3).",
    table=dict(flowers=True, hand_size=16, shapes="standard", reserve=16, added_kong_drawn_only=True,
               dealer_keeps_on_win=True, dealer_keeps_on_draw=True, rounds=4, first_dealer="dice", min_score=0,
               scorer="taiwan", settlement="taiwan", multiple_winners="head-bump", flower_wins=True),
    scorers={"taiwan": _adapter}, settlements={"taiwan": _adapter},
    options=(
        Option("tai_preset", "str", "association", "台数表", "Tai table", "Which table of tai values is played.",
               choices=_presets(), help_zh="用哪一套台数表。",
               choice_names=tuple(c for c in _PRESET_NAMES if c[0] in _presets()),
               source="association: RULES.md §3.2 defaults; the others: its Alt column"),
        Option("minimum_tai", "int", 0, "起胡台数", "Minimum tai",
               "A hand needs at least this many tai to win (3 for a three-tai table).", minimum=0,
               help_zh="不到这个台数不能和（三台起胡为 3）。"),
        Option("tai_cap", "int", None, "封顶", "Tai cap",
               "The most tai one hand can score; leave it empty for no cap.", minimum=1, nullable=True,
               help_zh="一手牌最多计几台；留空为不封顶。"),
        Option("eight_flowers_mode", "str", "standalone", "八仙过海计法", "Eight flowers scoring",
               "Whether eight flowers score on their own or are added to a complete hand.",
               choices=("standalone", "added"), help_zh="八仙过海是单独计分，还是加在和好的牌上。",
               choice_names=(("standalone", "单独计分", "On their own"), ("added", "加在和牌上", "Added to the hand"))),
        *(Option(n, "bool", d, zh, en, h, help_zh=hz, source=src) for n, d, zh, en, h, hz, src in _BOOL_OPTIONS),
        Option("base", "int", 30, "底", "Base", "The base amount of every payment.", minimum=0,
               help_zh="每笔支付的底。", source="RULES.md §3.3"),
        Option("per_tai", "int", 10, "每台", "Per tai", "What one tai adds to a payment.", minimum=0,
               help_zh="每台在支付中值多少。", source="RULES.md §3.3"),
    ),
    table_options=("multiple_winners", "rob_kong", "flower_wins", "declare_ready", "reserve",
                   "dealer_keeps_on_win", "dealer_keeps_on_draw", "max_dealer_streak", "rounds", "first_dealer",
                   "seat_draw", "bao_pai"),
    patterns=_patterns,
    bot_tuning=TUNING,
    score_command=COMMAND,
    summary_zh="台湾十六张：手牌十六张，八张花，按台计分，连庄加台；可加宝牌。",
    summary_en="Taiwan 16-tile: sixteen-tile hands, eight flowers, scored in tai, extra tai for a dealer on a streak.",
    headline_options=("bao_pai", "minimum_tai", "tai_cap"),
)
