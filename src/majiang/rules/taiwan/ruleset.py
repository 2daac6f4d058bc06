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

_BOOL_OPTIONS: tuple[tuple[str, bool, str, str, str], ...] = (
    ("all_flowers_count", False, "見花見台", "Every flower counts",
     "Every flower earns 1 tai, not only the seat flowers; 花槓 then replaces only the seat flower (RULES.md §3.2)."),
    ("concealed_kong_breaks_menqing", False, "暗槓破門清", "A concealed kong breaks a concealed hand (門清)",
     "The P2/P4 reading: any kong breaks the concealed hand (RULES.md §3.2)."),
    ("all_honours_add_all_pungs", True, "字一色計碰碰胡", "All honours also earns all pungs",
     "字一色 also earns 碰碰胡 (C1 default, RULES.md §3.2)."),
    ("little_four_winds_keep_wind_tai", False, "小四喜計風台", "Little four winds keeps wind tai",
     "小四喜 keeps 圈風/門風 (off: replaced, RULES.md §3.2 rule 1)."),
    ("earthly_ready_excludes_concealed", False, "地聽不計門清", "Earthly ready excludes concealed hand (門清)",
     "地聽 excludes 門清, 不求 and 報聽 but keeps 自摸 (P1, RULES.md §3.2)."),
    ("prefer_triplet_on_discard", False, "放槍優先刻子", "Prefer the triplet reading on a discard",
     "On a discard win, read the winning tile as completing a triplet when possible (C1, RULES.md §3.2 rule 6)."),
    ("single_wait_with_half_begging", True, "半求計獨聽", "Single wait with half begging",
     "獨聽 is added to 半求 (RULES.md §3.5)."),
    ("single_wait_counts_own_four", True, "獨聽計自持四張", "Own four copies count as a wait",
     "For 獨聽, a tile the hand holds all four of still counts as a wait (RULES.md §3.5)."),
    ("all_chows_honour_pair", False, "平胡可字對", "All chows with an honour pair",
     "平胡 allows an honour pair (RULES.md §3.5)."),
    ("all_chows_with_flowers", False, "平胡可有花", "All chows with flowers", "平胡 allows flowers (RULES.md §3.5)."),
    ("heavenly_ready_includes_declared", False, "天聽含報聽", "Heavenly ready includes declared ready",
     "天聽 includes 報聽, which is then not added (RULES.md §3.5)."),
    ("eight_half_pairs_single_wait", True, "八對半計獨聽", "Eight and a half pairs takes single wait",
     "A 八對半 waiting on one tile earns 獨聽 (RULES.md §3.5)."),
    ("four_kongs", False, "四槓", "Four kongs", "The optional pattern 四槓 (tw.si_gang, 8 tai) is scored."),
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

    return tuple(PatternInfo(p.id, p.zh, p.en, p.tai) for p in PATTERNS)


def _presets() -> tuple[str, ...]:
    from majiang.rules.taiwan.patterns import PRESETS

    return tuple(PRESETS)


RULESET = RuleSetDef(
    name="taiwan", label_zh="台灣十六張", label_en="Taiwan 16-tile", unit="tai",
    summary="Taiwan 16-tile: flowers, 八仙過海/七搶一, 台 table with presets and non-stacking rules, dealer "
            "streaks, base + 台 settlement (RULES.md §3).",
    table=dict(flowers=True, hand_size=16, shapes="standard", reserve=16, added_kong_drawn_only=True,
               dealer_keeps_on_win=True, dealer_keeps_on_draw=True, rounds=4, first_dealer="dice", min_score=0,
               scorer="taiwan", settlement="taiwan", multiple_winners="head-bump", flower_wins=True),
    scorers={"taiwan": _adapter}, settlements={"taiwan": _adapter},
    options=(
        Option("tai_preset", "str", "association", "台數表", "Tai table",
               "The tai values: association (RULES.md §3.2 defaults) or an app table from the Alt column.",
               choices=_presets()),
        Option("minimum_tai", "int", 0, "起胡台數", "Minimum tai", "Hands below it are no win (三台起胡 = 3).",
               minimum=0),
        Option("tai_cap", "int", None, "封頂", "Tai cap", "Cap on a hand's tai (16 or 24 in some tables); empty: none.",
               minimum=1, nullable=True),
        Option("eight_flowers_mode", "str", "standalone", "八仙過海計法", "Eight flowers mode",
               "standalone: 八仙過海 is the whole score; added: added to a complete hand.",
               choices=("standalone", "added")),
        *(Option(n, "bool", d, zh, en, h) for n, d, zh, en, h in _BOOL_OPTIONS),
        Option("base", "int", 30, "底", "Base", "Base of each payment (RULES.md §3.3).", minimum=0),
        Option("per_tai", "int", 10, "每台", "Per tai", "Value of one tai in a payment (RULES.md §3.3).", minimum=0),
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
