"""The rules form of the lobby: each rule set's own options as labelled controls.

The options come from the rule set itself: :func:`majiang.rules.registry.describe` lists, for each
rule set, its options with their type, default, choices, range and Chinese and English labels (the
table options the rule set offers and its own scoring options). :func:`preset_fields` turns them into
controls: a ``bool`` a switch, a ``str`` with choices a choice, an ``int`` a number (left blank for
``None`` when nullable). A rule set the registry cannot describe falls back to the
:class:`~majiang.engine.ruleset.RuleSet` dataclass fields (:func:`ruleset_fields`), labelled from the
catalogues' ``opt.<name>`` entries.

The form posts ``opt.<preset>.<name>`` for the chosen preset's controls (every preset has its own
group; the page shows only the chosen one); :func:`options_text` turns those that differ from the
defaults into the ``key=value`` text the table keeps (``Room.options_text``) and
:func:`majiang.engine.parse_spec` reads. A form without them (or with the old free-text ``options``
field) works as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from majiang.engine import PRESET_NAMES, RuleSet
from majiang.engine import ruleset as _rs

#: RuleSet fields the form never offers: the preset's name and the seat count are fixed by the table.
FIXED = ("name", "players")


#: Chinese help of each option (the rule sets declare theirs in English: ``Option.help``), by name;
#: a rule set's own ``help_zh`` wins. Sources as in the English help (RULES.md sections).
HELP_ZH: dict[str, str] = {
"multiple_winners": "截和（head-bump）：按放炮者之后的顺序只由第一家和牌；all：所有要和的玩家都和（一炮多响）（RULES.md §1.4）。",
"rob_kong": "别人补杠（加杠）的那张牌可以抢杠和。",
"flowers": "牌里有 8 张花牌（RULES.md §1.1）。",
"min_score": "和牌至少要这么多分（国标 8 番起和）。",
"rounds": "打几圈（圈风）；4 = 完整一场。与开桌的“局数”先到者为准。",
"first_dealer": "首局庄家：east = 东家坐庄；dice = 掷骰定庄。",
"seat_draw": "开局时抽签定座位。",
"knitted_straight_waits": "和牌张可以放进组合龙时，边张/嵌张/单钓仍然计番（PyMahjongGB 1.4.0）；关：按规则书的理解（RULES.md §6）。",
"melded_concealed_kong_pair": "一个明杠加一个暗杠计“明暗杠” 5 番（PyMahjongGB）；关：明杠 1 + 暗杠 2。",
"fifth_copy_waits": "手里已有四张的牌，计边张/嵌张/单钓时仍算作听牌（PyMahjongGB）。",
"flower_wins": "集齐八张花即和（八仙过海）；摸到第八张花的人付给持七张花者（RULES.md §3.2、§3.3）。",
"declare_ready": "可以报听，报听后手牌不能再改（RULES.md §3.1）。",
"reserve": "流局时牌墙里留下的张数。",
"dealer_keeps_on_win": "庄家和牌后继续坐庄（连庄）。",
"dealer_keeps_on_draw": "流局时庄家继续坐庄（连庄）。",
"max_dealer_streak": "最多连庄几次；空 = 不限。",
"bao_pai": "发牌后翻一张宝牌，每次杠后补牌再翻一张（最多五张）；和牌时手里每张宝牌 1 台，不计入起胡台数（RULES.md §3.4）。",
"tai_preset": "台数表：association（协会规则，RULES.md §3.2 默认）或 Alt 栏里的某个 App 的台数表。",
"minimum_tai": "不到这个台数不能和（三台起胡 = 3）。",
"tai_cap": "一手牌的台数封顶（有的牌桌 16 或 24 台）；空 = 不封顶。",
"eight_flowers_mode": "standalone：八仙过海单独计分；added：加在和好的牌上。",
"all_flowers_count": "每张花都计 1 台，不只本门花；花杠只替换本门花（RULES.md §3.2）。",
"concealed_kong_breaks_menqing": "P2/P4 的理解：任何杠（包括暗杠）都破门清（RULES.md §3.2）。",
"all_honours_add_all_pungs": "字一色同时计碰碰胡（C1 默认，RULES.md §3.2）。",
"little_four_winds_keep_wind_tai": "小四喜仍计圈风/门风台（关：被替代，RULES.md §3.2 第 1 条）。",
"earthly_ready_excludes_concealed": "地听不再计门清、不求和报听，但仍计自摸（P1，RULES.md §3.2）。",
"prefer_triplet_on_discard": "点炮和时，和牌张尽量按组成刻子来算（C1，RULES.md §3.2 第 6 条）。",
"single_wait_with_half_begging": "半求同时计独听（RULES.md §3.5）。",
"single_wait_counts_own_four": "计独听时，手里已有四张的牌仍算作听牌（RULES.md §3.5）。",
"all_chows_honour_pair": "平胡可以用字牌作将（RULES.md §3.5）。",
"all_chows_with_flowers": "有花牌也可以算平胡（RULES.md §3.5）。",
"heavenly_ready_includes_declared": "天听包含报听，报听不再另计（RULES.md §3.5）。",
"eight_half_pairs_single_wait": "八对半只听一张时计独听（RULES.md §3.5）。",
"four_kongs": "计选用番种四杠（tw.si_gang，8 台）。",
"base": "每笔支付的底（RULES.md §3.3）。",
"per_tai": "每台在支付中值多少（RULES.md §3.3）。",
"wild_next_face": "翻出的指示牌的下一张牌为财神（RULES.md §4.2）。",
"xianggong": "牌谱里手牌多一张或少一张时，照样回放并标出相公的玩家（RULES.md §2.4）。",
"followed_penalty": "被跟的玩家付给其他每家的分数（温州，RULES.md §4.6）；0 = 不用。",
"wild_discard_penalty": "打出财神时付给其他每家的分数（RULES.md §4.6）；0 = 不用。",
"caishenhui_mode": "财神会：three_wilds = 手持三张财神自摸；wild_drawn = 摸到财神且手里另有财神（RULES.md §4.4）。",
"self_draw_bonus_with_specials": "特殊牌型也加自摸的 ×2（RULES.md §4.4）。",
"fanqiang_penalty": "犯枪：放炮者另付给和牌者的分（RULES.md §4.6）。",
"robbing_kong_liability": "被抢杠的玩家替所有输家付（RULES.md §4.6）。",
"tongbao": "统包：给下家喂了三次吃，由喂牌者替所有人付（RULES.md §4.6）。",
"soft_eight_pairs": "点炮和、用财神代替的八对的倍数（MIL 1；C5 2；RULES.md §4.5）。",
"lazila": "三张财神都当本身用时 ×8（C3 选项）。",
"special_double": "C3 的特殊加倍（RULES.md §4.5）。",
"robbing_kong_hard": "抢杠和至少算硬和（C5）。",
"caishen_money": "结算财神钱（RULES.md §4.5）。",
"kong_money": "结算杠钱（RULES.md §4.5）。",
"wild_indicator_out": "翻出的指示牌不再使用：场上只剩三张财神（RULES.md §4.2、§2.1 E）。",
"base_points": "每次和牌在番种分之前的底分。",
"structure_exempt": "清老头/混老头不需要成和牌型也能和（RULES.md §2.3）。",
"points": "一次和牌的分数（RULES.md §9.5）。",
"self_draw_multiplier": "自摸和的分数是这个倍数（RULES.md §9.5）。",
}
#: English help for options declared without one.
HELP_EN: dict[str, str] = {"dealer_keeps_on_win": "The dealer stays dealer after winning (连庄).",
              "dealer_keeps_on_draw": "The dealer stays dealer after a drawn hand (连庄)."}

@dataclass(frozen=True, slots=True)
class OptionField:
    """One control: ``name`` (the option), ``kind`` (``"bool"``, ``"choice"``, ``"int"``, ``"int?"`` = a
    number or blank for ``None``), ``default`` as the form writes it, ``choices`` (values as strings),
    ``lo``/``hi`` for numbers, labels ``label_zh``/``label_en`` (empty: use the catalogue), ``help``
    (English) and ``help_zh`` (Chinese; :meth:`help_in` falls back to the English)."""

    name: str
    kind: str
    default: str = ""
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    label_zh: str = ""
    label_en: str = ""
    help: str = ""
    help_zh: str = ""

    def help_in(self, lang: str) -> str:
        """The help in ``lang`` (``"zh"`` or ``"en"``): Chinese where known, else the English."""
        return (self.help_zh or self.help) if lang == "zh" else self.help

    def label(self, texts: Mapping[str, str], lang: str) -> str:
        own = self.label_zh if lang == "zh" else self.label_en
        return own or texts.get("opt." + self.name, self.name)


def form_value(v: Any) -> str:
    """A value as the form writes it: ``true``/``false``, the number, the text, blank for ``None``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return "" if v is None else str(v)


def _registry_fields(preset: str) -> list[OptionField] | None:
    try:
        from majiang.rules import registry

        opts = registry.describe(preset)["options"]
    except Exception:  # noqa: BLE001 - no registry, or a rule set it cannot describe: introspect below
        return None
    out = []
    for o in opts:
        typ, choices = o.get("type"), o.get("choices")
        if choices:
            kind = "choice"
        elif typ == "bool":
            kind = "bool"
        elif typ == "int":
            kind = "int?" if o.get("nullable") else "int"
        else:
            continue  # a kind of option a form cannot offer: still settable in the free-text field
        out.append(OptionField(o["name"], kind, form_value(o.get("default")),
                               tuple(str(c) for c in choices or ()), o.get("minimum"), o.get("maximum"),
                               o.get("label_zh") or "", o.get("label_en") or "",
                               o.get("help") or HELP_EN.get(o["name"], ""),
                               o.get("help_zh") or HELP_ZH.get(o["name"], "")))
    return out


_KNOWN_CHOICES = {"wild_mode": _rs.WILD_MODES, "multiple_winners": _rs.MULTI_WIN, "first_dealer": _rs.FIRST_DEALER,
                  "hand_size": ("13", "16"), "dice": ("2", "3")}


def ruleset_fields(preset: str = "mcr") -> list[OptionField]:
    """Every option of :class:`RuleSet` but :data:`FIXED`, from the dataclass fields and types, with
    ``preset``'s defaults (the fallback when the registry cannot describe a rule set)."""
    base = RuleSet.preset(preset)
    names = RuleSet.option_names()
    out = []
    for f in dataclasses.fields(RuleSet):
        if f.name not in names or f.name in FIXED:
            continue
        typ = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        default = form_value(getattr(base, f.name))
        if f.name in _KNOWN_CHOICES:
            out.append(OptionField(f.name, "choice", default, tuple(str(c) for c in _KNOWN_CHOICES[f.name])))
        elif typ == "bool":
            out.append(OptionField(f.name, "bool", default))
        elif typ == "int":
            out.append(OptionField(f.name, "int", default, lo=0))
        elif typ in ("int | None", "Optional[int]"):
            out.append(OptionField(f.name, "int?", default, lo=0))
    return out


def preset_fields(preset: str) -> list[OptionField]:
    """The controls of ``preset``: its own option list (registry), else the RuleSet fields."""
    got = _registry_fields(preset)
    return got if got else ruleset_fields(preset)


def all_preset_fields() -> dict[str, list[OptionField]]:
    return {p: preset_fields(p) for p in PRESET_NAMES}


def options_text(preset: str, form: Mapping[str, Any], free_text: str = "") -> str:
    """The ``key=value`` text of the form's ``opt.<preset>.<name>`` fields that differ from their
    defaults, after ``free_text`` (the old free-text field, still accepted; an option written there
    wins). A switch not posted is off only when the form says it carried the switches
    (``opt._form=1``): an unchecked checkbox is not sent. An unknown preset gives ``free_text`` back
    unchanged (the caller reports it)."""
    if preset not in PRESET_NAMES or form.get("opt._form") is None:
        return free_text
    parts = [p for p in (s.strip() for s in free_text.split(",")) if p]
    given = {p.partition("=")[0].strip() for p in parts}
    for f in preset_fields(preset):
        if f.name in given:
            continue
        key = f"opt.{preset}.{f.name}"
        if f.kind == "bool":
            val = "true" if form.get(key) not in (None, "", "false", "0") else "false"
        else:
            raw = form.get(key)
            if raw is None:
                continue
            val = str(raw).strip()
        if val == f.default:
            continue
        if f.kind == "int?" and val == "":
            val = "null"
        parts.append(f"{f.name}={val}")
    return ",".join(parts)
