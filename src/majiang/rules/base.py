"""What a rule set is, below the engine: the protocol every rule-set package fulfils (issue 12).

One rule set = one package. The package declares each of its rule sets once, as a
:class:`RuleSetDef`, and registers it under the entry-point group ``majiang.rulesets`` (see
``pyproject.toml`` and ``docs/rulesets.md``); :mod:`majiang.rules.registry` finds them. The engine
(:mod:`majiang.engine`) imports this module and the registry only: it knows no rule set by name.

A :class:`RuleSetDef` holds

* ``table`` -- the table parameters, i.e. values of :class:`majiang.engine.RuleSet` fields (tile set,
  hand size, wildcards, claims, wall, dealer, minimum, and the names of the scorer and settlement);
* ``shapes`` -- named :class:`~majiang.analysis.ShapeRules` the rule set adds (``table["shapes"]``
  names one of them or a generic one: ``standard``, ``mcr``, ``seven-pairs-orphans``);
* ``scorers`` / ``settlements`` -- factories by name, each called with the :class:`~majiang.engine.RuleSet`
  (so the rule set's options reach them) and returning a :class:`Scorer` / :class:`Settlement`;
* ``options`` -- its :class:`Option` list: rule options of its own (``target="rules"``, read by the
  scorer through ``RuleSet.rule_option(name)``) and the table options it offers
  (``target="table"``, a :class:`~majiang.engine.RuleSet` field; see :data:`TABLE_OPTIONS`);
* ``patterns`` -- its pattern catalogue, :class:`PatternInfo` ``(id, name_zh, name_en, points)``;
  ``id`` is what the record's ``hora.patterns`` hold.

The scoring protocol itself -- :class:`WinContext` (the facts of the table), :class:`ScoreResult`,
:class:`Scorer`, :class:`WinSettle`, :class:`Settlement` -- and the generic pieces
(:class:`FixedScorer`, :class:`CompetitionSettlement`, :class:`FlatSettlement`) live here too;
:mod:`majiang.engine.ruleset` re-exports them under their old names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol, runtime_checkable

from majiang.analysis import ShapeRules
from majiang.errors import MajiangError
from majiang.hand import Hand


class RuleSetError(MajiangError):
    """An unknown rule-set option, an unknown preset, or an option value out of range."""


# ----------------------------------------------------------------------------------------- scoring
@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything a scorer may need to value one win (facts of the table, not of a variant).

    Attributes:
        hand: the winner's :class:`~majiang.hand.Hand`: concealed tiles without the winning tile,
            declared melds (``offer`` relative to the winner), ``win_tile``, flowers set aside,
            ``wilds`` = wildcards among the concealed tiles (their faces removed from ``concealed``;
            a 白板 standing in for the wildcard's face is already written as that face).
        seat: the winner's seat (0-3, turn order).
        dealer: the dealer's seat (庄家).
        seat_wind: the winner's seat wind, a tile index 27-30 (门风; East = the dealer).
        prevalent_wind: the round's prevalent wind, 27-30 (圈风).
        self_drawn: True for a self-drawn win (自摸), False for a win on a discard or a robbed kong.
        discarder: the seat whose tile was won on (discard or robbed kong), ``None`` when self-drawn.
        kong_replacement: won on a replacement draw after a kong (杠上开花), also when the
            replacement chain passed through flowers; **not** set for a plain flower replacement
            (trap FLAG-02: MCR scores that as 自摸 only).
        flower_replacement: the winning tile was drawn as a flower replacement.
        robbing_kong: won on the tile of another player's added kong (抢杠和, trap FLAG-03).
        last_tile: self-drawn with the wall's last live tile (MCR 妙手回春), or won on the discard
            made after it (MCR 海底捞月).
        win_tile_seen: copies of the winning tile the winner can see besides the winning tile itself
            (own hand and melds, every river, every exposed meld); 3 means 和绝张 in MCR.
        first_turn: won before any claim (chow, pung, any kong) and before the winner's first discard:
            the dealer's self-draw on his initial hand (Taiwan 天胡), a non-dealer's self-draw on his
            first draw (地胡) or a non-dealer's win on a discard before his first draw (人胡).
        wild_face: the wildcard's face this hand (0-33) or ``None``.
        dealer_streak: the dealer's consecutive hands before this one (连庄 count, 0 on a new dealer).
        chow_feeds: one ``(feeder, eater)`` per chow claimed this hand (Wenzhou W13 统包). Optional:
            the table does not fill it yet (empty = no liability).
        wild_counts: wildcards held by each seat at the win (Wenzhou W16 财神钱), or ``None``
            (not filled by the table yet: no 财神钱).
        kongs: ``(seat, "exposed" | "concealed" | "added")`` per kong declared this hand (W16 kong
            money). Optional: not filled by the table yet.
        flower_win: ``None`` for a win on a tile; ``"eight"`` -- the winner completed all eight
            flowers (八仙過海, paid as a self-draw); ``"seven"`` -- the winner holds seven flowers and
            ``discarder`` drew the eighth (七搶一, the drawer pays alone). Only with
            ``RuleSet.flower_wins``; ``hand.win_tile`` is then ``None`` and ``first_turn`` False.
        declared_ready: the winner declared ready (報聽, ``RuleSet.declare_ready``) before this win.
        heavenly_ready: 天聽 -- declared with his own first discard before anyone called (chow, pung,
            any kong), and ready from the very start: the dealer, or a non-dealer whose declaring
            discard was the tile he had just drawn (his dealt hand was that ready hand).
        earthly_ready: 地聽 -- declared with his own first discard before anyone called, not 天聽
            (ready right after his own first discard, RULES.md §3.2).
        bao: the 宝牌 faces revealed so far this hand (``RuleSet.bao_pai``, RULES.md §3.4), one entry
            per revealed tile (a face may repeat); empty without the option.
        kong_discard: won on a discard made right after the discarder's kong replacement draw
            (Sichuan 杠上炮; issue 30).
        decided: per seat, the values of the rule set's pre-play decisions (:class:`Decision`) as a
            ``{name: value}`` mapping (Sichuan 定缺: ``{"dingque": "m"}``); empty without decisions.
        in_play: per seat, still in play at this win (``RuleSet.win_limit`` above 1: earlier winners
            have left); empty while every seat is in play.
    """

    hand: Hand
    seat: int
    dealer: int
    seat_wind: int
    prevalent_wind: int
    self_drawn: bool
    discarder: int | None = None
    kong_replacement: bool = False
    flower_replacement: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    win_tile_seen: int = 0
    first_turn: bool = False
    wild_face: int | None = None
    dealer_streak: int = 0
    chow_feeds: tuple[tuple[int, int], ...] = ()
    wild_counts: tuple[int, ...] | None = None
    kongs: tuple[tuple[int, str], ...] = ()
    flower_win: str | None = None
    declared_ready: bool = False
    heavenly_ready: bool = False
    earthly_ready: bool = False
    bao: tuple[int, ...] = ()
    kong_discard: bool = False
    decided: tuple[Mapping[str, Any], ...] = ()
    in_play: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The value of one win.

    Attributes:
        value: points of the hand's patterns that count toward the rule set's minimum
            (MCR fan without flowers; Taiwan tai; Wenzhou multiplier). A scorer answers ``-1`` for a
            hand its rule set does not accept although the table's shapes do (below every
            ``min_score``, so the win is not offered).
        bonus: points added only after the minimum is met (MCR: 1 per flower).
        patterns: ``(pattern id, points, times)`` triples, for records and display.
    """

    value: int
    bonus: int = 0
    patterns: tuple[tuple[str, int, int], ...] = ()

    @property
    def total(self) -> int:
        """``value + bonus``: what the settlement uses."""
        return self.value + self.bonus


@runtime_checkable
class Scorer(Protocol):
    """Values a win. ``score`` is called when a win is possible (to check the minimum) and again when
    it is declared; it must be a pure function of the context.

    A scorer may also offer ``quick_value(pre, win, melds, *, self_drawn, last_tile,
    kong_replacement, win_tile_seen, seat_wind, prevalent_wind) -> int | None``: the ``value`` of a
    wildcard-free, flower-free-in-value win given as plain numbers (see
    :meth:`majiang.rules.mcr.engine_adapter.McrScorer.quick_value`), or None when it cannot tell it
    cheaply. The batched RL core asks it before building a context; the engine never needs it. A
    scorer with ``quick_value`` may also offer ``quick_bonus(flowers) -> int``: the ``bonus``
    :meth:`score` would add for that many flowers set aside, so that the core can settle a win from
    the two numbers (with a context-free settlement, :class:`Settlement`), and
    ``quick_kernel() -> (cfunc, params) | None``: ``quick_value`` compiled, for the core's compiled
    loops (:mod:`majiang.rules.quick_kernel` gives the signature)."""

    name: str

    def score(self, ctx: WinContext) -> ScoreResult:  # pragma: no cover - protocol
        ...


@dataclass(frozen=True, slots=True)
class WinSettle:
    """One win to settle: who won, who fed it (``None`` when self-drawn), its score and context
    (``None`` only for a settlement that declares ``context_free``)."""

    winner: int
    discarder: int | None
    result: ScoreResult
    ctx: WinContext | None


@runtime_checkable
class Settlement(Protocol):
    """Turns one win into per-seat score changes (a zero-sum ledger; the engine checks the sum).

    A settlement whose ``settle`` reads nothing of the win but its winner, discarder and
    ``result.total`` may say so with a class attribute ``context_free = True``: the batched RL core
    then settles such wins without building a :class:`WinContext` (``ctx`` is None). A subclass
    that overrides ``settle`` inherits no such promise: it declares it again or goes the full way
    (:func:`declared_with`)."""

    name: str

    def settle(self, win: WinSettle, players: int) -> list[int]:  # pragma: no cover - protocol
        ...


def declared_with(obj: object, attr: str, method: str) -> bool:
    """Whether ``obj`` has ``attr`` (truthy) declared with the ``method`` it goes with: by the class
    that defines ``method`` or a subclass of it. A subclass that overrides ``method`` but inherits
    ``attr`` from above does not count (its ``settle`` may read the context a ``context_free``
    parent did not; its ``score`` may differ from a parent's ``quick_value``): it must declare the
    attribute again. Used before the batched RL core trusts a quick path (``Scorer.quick_value``,
    ``quick_bonus``; ``Settlement.context_free``)."""
    if not getattr(obj, attr, None):
        return False
    mro = type(obj).__mro__
    has = next((k for k in mro if attr in k.__dict__), None)
    runs = next((k for k in mro if method in k.__dict__), None)
    return has is not None and runs is not None and issubclass(has, runs)


@dataclass(frozen=True, slots=True)
class FixedScorer:
    """The default scorer until a variant's scorer lands: every legal win is worth ``value`` points
    plus ``per_flower`` per flower set aside.

    For MCR (``value=8``, ``per_flower=1``): the hand is taken to meet the 8-fan minimum exactly,
    flowers add 1 fan each after the minimum (RULES.md §9.6). It checks nothing but what the table
    already checked (the winning shape), so it is a stand-in, documented as such in records
    (scorer name ``"fixed"``).
    """

    value: int = 8
    per_flower: int = 1
    name: str = "fixed"

    def score(self, ctx: WinContext) -> ScoreResult:
        flowers = len(ctx.hand.flowers) * self.per_flower
        patterns: list[tuple[str, int, int]] = [("fixed", self.value, 1)]
        if flowers:
            patterns.append(("flower", self.per_flower, len(ctx.hand.flowers)))
        return ScoreResult(self.value, flowers, tuple(patterns))


@dataclass(frozen=True, slots=True)
class CompetitionSettlement:
    """MCR competition settlement (RULES.md §9.6): a discard win -- the discarder pays
    ``base + total``, each other loser pays ``base``; a self-drawn win -- each loser pays
    ``base + total``. A robbed kong is a discard win fed by the robbed player. ``base`` = 8."""

    base: int = 8
    name: str = "competition"
    context_free: ClassVar[bool] = True  # reads winner, discarder and result.total only

    def settle(self, win: WinSettle, players: int) -> list[int]:
        d = [0] * players
        total = win.result.total
        for s in range(players):
            if s == win.winner:
                continue
            pay = self.base + total if (win.discarder is None or s == win.discarder) else self.base
            d[s] -= pay
            d[win.winner] += pay
        return d


@dataclass(frozen=True, slots=True)
class FlatSettlement:
    """Placeholder settlement for flow-only presets: a self-drawn win is paid ``total`` by every
    other player; a discard win is paid ``total`` by the discarder alone (RULES.md §3.3 shape
    without the base and dealer terms)."""

    name: str = "flat"
    context_free: ClassVar[bool] = True  # reads winner, discarder and result.total only

    def settle(self, win: WinSettle, players: int) -> list[int]:
        d = [0] * players
        for s in range(players):
            if s != win.winner and (win.discarder is None or s == win.discarder):
                d[s] -= win.result.total
                d[win.winner] += win.result.total
        return d


# ----------------------------------------------------------------------------------------- options
OPTION_TYPES = ("bool", "int", "str")


@dataclass(frozen=True, slots=True)
class Option:
    """One option a rule set offers (what a rules form shows and a spec ``"NAME,option=value"`` sets).

    Attributes:
        name: the option's name in specs, records and forms (``all_flowers_count``).
        type: ``"bool"``, ``"int"`` or ``"str"``.
        default: the value when not set (for a table option: the rule set's table value).
        label_zh, label_en: short labels (Chinese, English), the words players read.
        help: one plain sentence in English for players: what it changes (no sources, no option ids).
        choices: the allowed values of a ``"str"`` option (or ``None``: any string).
        minimum, maximum: bounds of an ``"int"`` option (``None``: unbounded).
        nullable: ``None`` is allowed (``"int"`` options such as a cap).
        target: ``"rules"`` (read by the scorer/settlement, kept in ``RuleSet.rule_options``) or
            ``"table"`` (a :class:`~majiang.engine.RuleSet` field of that name).
        help_zh: the same sentence in Chinese (simplified characters).
        choice_names: ``((value, name_zh, name_en), ...)``: what players read for each choice.
        source: where the rule comes from, for developers (a RULES.md section, a library); never shown
            on a player page.
    """

    name: str
    type: str
    default: Any
    label_zh: str
    label_en: str
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    target: str = "rules"
    help_zh: str = ""
    choice_names: tuple[tuple[Any, str, str], ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise RuleSetError(f"option {self.name!r}: type must be one of {OPTION_TYPES}, got {self.type!r}")
        if self.target not in ("rules", "table"):
            raise RuleSetError(f"option {self.name!r}: target must be 'rules' or 'table', got {self.target!r}")
        if self.target == "rules":
            self.check(self.default)

    def check(self, value: Any) -> Any:
        """``value`` if it suits the option, else :class:`RuleSetError` naming the option and the value."""
        if value is None and self.nullable:
            return value
        ok = {"bool": lambda v: isinstance(v, bool),
              "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "str": lambda v: isinstance(v, str)}[self.type](value)
        if not ok:
            kind = {"bool": "a bool (true or false)", "int": "an int", "str": "a str"}[self.type]
            raise RuleSetError(f"rule option {self.name}={value!r}: expected {kind}{' or null' if self.nullable else ''}")
        if self.choices is not None and value not in self.choices:
            raise RuleSetError(f"rule option {self.name}={value!r}: choose one of {', '.join(map(str, self.choices))}")
        if self.type == "int" and ((self.minimum is not None and value < self.minimum)
                                   or (self.maximum is not None and value > self.maximum)):
            raise RuleSetError(f"rule option {self.name}={value!r}: must be in {self.minimum}..{self.maximum}")
        return value

    def with_default(self, default: Any) -> Option:
        """A copy with another default (a table option's default is the rule set's table value)."""
        return replace(self, default=default)

    def choice_name(self, value: Any, lang: str) -> str | None:
        """The players' name of choice ``value`` in ``lang`` (``"zh"``/``"en"``), or ``None`` when undeclared."""
        for v, zh, en in self.choice_names:
            if v == value:
                return zh if lang == "zh" else en
        return None

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON values: ``name, type, default, label_zh, label_en, help, help_zh, choices,
        choice_names`` (``{value: {"zh", "en"}}``), ``minimum, maximum, nullable, target, source``."""
        return {"name": self.name, "type": self.type, "default": self.default, "label_zh": self.label_zh,
                "label_en": self.label_en, "help": self.help,
                "choices": None if self.choices is None else list(self.choices),
                "minimum": self.minimum, "maximum": self.maximum, "nullable": self.nullable, "target": self.target,
                "help_zh": self.help_zh, "source": self.source,
                "choice_names": {str(v): {"zh": zh, "en": en} for v, zh, en in self.choice_names}}


def _t(name: str, type_: str, default: Any, zh: str, en: str, help_en: str, help_zh: str, **kw: Any) -> Option:
    return Option(name, type_, default, zh, en, help_en, target="table", help_zh=help_zh, **kw)


TABLE_OPTIONS: dict[str, Option] = {o.name: o for o in (
    _t("multiple_winners", "str", "head-bump", "一炮多响", "Several winners on one discard",
       "When several players can win on one discard, either only the first in turn after the discarder wins "
       "or all of them win.",
       "几家都能和同一张打出的牌时，只由放炮者之后的第一家和（截和），或者几家都和（一炮多响）。",
       choices=("head-bump", "all"), choice_names=(("head-bump", "截和", "Head bump"), ("all", "多家都和", "All winners")),
       source="RULES.md §1.4"),
    _t("rob_kong", "bool", True, "抢杠", "Robbing a kong",
       "Another player may win on the tile someone adds to a pung to make a kong.",
       "别人把一张牌加到碰上成杠时，可以抢这张牌和牌。"),
    _t("claim_last_discard", "bool", False, "河底吃碰", "Claims on the last discard",
       "The last discard of the hand may be chowed or punged, not only won on.",
       "最后一张打出的牌也可以吃、碰，而不只是和。"),
    _t("flowers", "bool", True, "花牌", "Flowers", "The eight flower tiles are played.", "牌里加入八张花牌。",
       source="RULES.md §1.1"),
    _t("flower_wins", "bool", False, "八仙过海/七抢一", "Flower wins",
       "A player who holds all eight flowers wins at once, and whoever draws the eighth flower while another "
       "player holds seven pays that player.",
       "集齐八张花即和（八仙过海）；别人已有七张花时，摸到第八张花的人要付给他（七抢一）。",
       source="RULES.md §3.2, §3.3"),
    _t("declare_ready", "bool", False, "报听", "Declared ready",
       "A player may declare ready, and the hand can then no longer be changed.",
       "可以报听，报听后手牌不能再换。", source="RULES.md §3.1"),
    _t("reserve", "int", 0, "留牌", "Tiles held back", "The hand is drawn when this many tiles are left in the wall.",
       "牌墙只剩这么多张时流局。", minimum=0, maximum=60),
    _t("dealer_keeps_on_win", "bool", False, "胡牌连庄", "Dealer keeps the deal on a win",
       "The dealer stays dealer after winning a hand.", "庄家和牌后继续坐庄。"),
    _t("dealer_keeps_on_draw", "bool", False, "流局连庄", "Dealer keeps the deal on a draw",
       "The dealer stays dealer after a drawn hand.", "流局时庄家继续坐庄。"),
    _t("max_dealer_streak", "int", None, "连庄上限", "Most extra dealer hands",
       "How many times in a row the dealer may keep the deal; leave it empty for no limit.",
       "庄家最多连庄几次；留空为不限。", minimum=0, nullable=True),
    _t("rounds", "int", 4, "圈数", "Rounds", "How many rounds of prevailing wind are played; 4 is a full match.",
       "打几圈；4 圈为完整一场。", minimum=1, maximum=16),
    _t("first_dealer", "str", "east", "首庄", "First dealer", "Who deals the first hand: the East seat, or the dice decide.",
       "第一局由谁坐庄：东家，或者掷骰子决定。", choices=("east", "dice"),
       choice_names=(("east", "东家坐庄", "East seat"), ("dice", "掷骰定庄", "By dice"))),
    _t("seat_draw", "bool", True, "抽座位", "Seats by lot", "Players draw lots for their seats at the start.",
       "开局时抽签决定座位。"),
    _t("min_score", "int", 8, "起胡", "Minimum to win", "A hand needs at least this value to win (8 fan in the official rules).",
       "和牌至少要有这么多番（国标为 8 番）。", minimum=0),
    _t("followed_penalty", "int", 0, "被跟", "Followed discard penalty",
       "Points a player pays each other player when the others follow his discard; 0 for none.",
       "被跟的玩家付给其他每家的分数；0 为不罚。", minimum=0, source="RULES.md §4.6 (Wenzhou)"),
    _t("wild_discard_penalty", "int", 0, "误打财神", "Wildcard discard penalty",
       "Points a player pays each other player for discarding a wildcard; 0 for none.",
       "打出财神时付给其他每家的分数；0 为不罚。", minimum=0, source="RULES.md §4.6"),
    _t("xianggong", "bool", False, "相公", "Wrong tile count",
       "A player with one tile too few or too many plays on but may not win.",
       "手牌多一张或少一张的玩家（相公）照样打下去，但不能和牌。", source="RULES.md §2.4"),
    _t("bao_pai", "bool", False, "宝牌加台", "Bao tiles",
       "A bao tile is turned up after the deal and one more after each kong, at most five, and each one in the "
       "winning hand adds 1 tai that does not count toward the minimum.",
       "发牌后翻一张宝牌，每次杠后再翻一张（最多五张）；和牌时手里每张宝牌加 1 台，但不算进起胡台数。",
       source="RULES.md §3.4"),
    _t("wild_next_face", "bool", False, "翻牌下一张为财神", "Wildcard is the next tile",
       "The wildcard is the tile after the turned-up one, not the turned-up tile itself.",
       "财神是翻出的那张牌的下一张，而不是翻出的牌本身。", source="RULES.md §4.2"),
    _t("wild_indicator_out", "bool", True, "财神牌不入墙", "Turned-up tile out of play",
       "The turned-up tile is put aside, so only three wildcards are left in play.",
       "翻出的那张牌不再使用，场上只剩三张财神。", source="RULES.md §4.2, §2.1 E"),
    _t("wild_discardable", "bool", True, "财神可以打出", "Wildcards may be discarded",
       "A wildcard may be discarded, though nobody can win on it; when off, wildcards cannot be discarded.",
       "可以打出财神（别人不能和这张）；关掉时不能打出财神。", source="RULES.md §4.2, §4.6"),
)}
"""Labelled :class:`~majiang.engine.RuleSet` fields a rule set may offer as options; defaults are
``RuleSet``'s (a test keeps them equal). A :class:`RuleSetDef` names the ones it offers in
``table_options``; :func:`majiang.rules.registry.describe` gives them with the rule set's table values
as defaults."""


@dataclass(frozen=True, slots=True)
class PatternInfo:
    """One pattern of a rule set's catalogue: ``id`` (as in the record's ``hora.patterns``), Chinese and
    English names, ``points`` (per occurrence, in the rule set's unit; ``None`` when it has no fixed
    value, e.g. a reason shown beside a tier)."""

    id: str
    name_zh: str
    name_en: str
    points: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name_zh": self.name_zh, "name_en": self.name_en, "points": self.points}


ScorerFactory = Callable[[Any], Scorer]
SettlementFactory = Callable[[Any], Settlement]
TypicalWin = Callable[..., float]
"""``(rules, dealer, concealed, pattern, dealer_streak, extra_tai, self_draw_share) -> points``: a
rule set's typical win, see :func:`majiang.players.valuation.typical_win`."""


@dataclass(frozen=True)
class BotTuning:
    """How the ``strong`` and ``efficiency`` bots play a rule set: its :attr:`RuleSetDef.bot_tuning`.

    The bots read it from the rule set whose ``scorers`` holds the table's scorer
    (:func:`majiang.rules.registry.bot_tuning`); a generic scorer (``fixed``, ...) gets these defaults.
    What each value was measured against is in docs/strong.md, "Per-rule-set tuning".

    Attributes:
        typical_win: score change of a typical win, in the rule set's points (MCR 36, Taiwan 100).
        typical_deal_in: extra loss of a typical deal-in, in the same points.
        defence: scale of the deal-in cost (0 = never defend).
        ron_rate: discard-win chances a go-around per live wait; ``None``: the bot's ``RON_RATE``.
        skip_value: points a chow or pung is worth more for each opponent's turn it skips.
        claim_needs_progress: a chow or pung must also lower the shanten.
        defend_within: no deal-in cost while the hand's lowest shanten is above this (``None``: always).
        risk_floor: each tile's risk less this many points, never below 0.
        claim_weights: ``(pung, chow)`` weights of a useful tile's claimable copies, ``()`` for off.
        fan_plans: value hands by the shortest path to a pattern reaching the minimum
            (:func:`majiang.players.valuation.mcr_plans`, MCR's eight fan).
        pattern_values: the patterns that pay more (``{"full-flush": 8, ...}``, in the unit
            :attr:`typical_value` reads them), for the ``patterns`` / ``menqing`` knobs; ``None``: none.
        typical_value: the rule set's typical win from its settlement (:data:`TypicalWin`), or ``None``
            (10 points).
        tai_option: the rule option giving the points of one 台 (``"per_tai"``), where the bot's
            ``value_honours`` and ``dealer_danger`` knobs apply; ``""``: they do not.
        danger_model: coefficients of the learned deal-in model
            (:data:`majiang.players.danger.FEATURES`), ``()`` for none.
    """

    typical_win: float = 10.0
    typical_deal_in: float = 5.0
    defence: float = 1.0
    ron_rate: float | None = None
    skip_value: float = 0.0
    claim_needs_progress: bool = False
    defend_within: int | None = None
    risk_floor: float = 0.0
    claim_weights: tuple[float, ...] = ()
    fan_plans: bool = False
    pattern_values: Mapping[str, float] | None = None
    typical_value: TypicalWin | None = None
    tai_option: str = ""
    danger_model: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if len(self.claim_weights) not in (0, 2):
            raise RuleSetError(f"claim_weights must be (pung, chow) or (), got {self.claim_weights!r}")


DEFAULT_TUNING = BotTuning()
"""The tuning of a rule set that declares none, and of generic scorers."""


@dataclass(frozen=True)
class ScoreCommand:
    """What ``majiang score`` calls for a rule set's hands: its :attr:`RuleSetDef.score_command`
    (:mod:`majiang.cli_score`; a rule set without one is scored through its scorer and settlement).

    Attributes:
        score: ``(rules, hand_text, options) -> result``: ``rules`` the
            :class:`~majiang.engine.RuleSet`, ``hand_text`` the command's HAND, ``options`` the parsed
            options (:data:`majiang.cli_score.OPTIONS`); returns the JSON object the command prints
            (``rules``, ``hand``, ``unit``, ``total``, ``fans``, ``shape``, ``deltas``, ...). Raises
            :class:`~majiang.errors.MajiangError` for a hand or an option it cannot take.
        note: ``result -> text`` added to the table's total line (e.g. the minimum), or ``None``.
    """

    score: Callable[[Any, str, Mapping[str, Any]], dict]
    note: Callable[[dict], str] | None = None


@dataclass(frozen=True)
class RuleSetDef:
    """One rule set as its package declares it (module doc).

    Attributes:
        name: the name specs, records, the command line and the web table use (``"taiwan"``).
        label_zh, label_en: display names.
        summary: one line in English: what it is and its source (RULES.md section or seed).
        table: :class:`~majiang.engine.RuleSet` field values (``scorer`` and ``settlement`` name
            entries of ``scorers`` / ``settlements`` or the engine's generic ones: ``fixed``,
            ``fixed1``, ``competition``, ``flat``).
        unit: what a win's value counts: ``"fan"``, ``"tai"``, ``"multiplier"``, ``"points"``.
        aliases: other names of the same rule set (``wenzhou13`` for ``wenzhou``).
        shapes: named :class:`ShapeRules` the rule set adds (``{"wenzhou13": ShapeRules(...)}``).
        scorers, settlements: factories by name, called with the :class:`~majiang.engine.RuleSet`.
        options: its own options (``target="rules"``).
        table_options: names of :data:`TABLE_OPTIONS` it offers (defaults: its ``table`` values).
        option_words: the rule set's own words for table options it offers, by option name:
            ``{"wild_next_face": {"label_zh": "翻牌下一张为百搭", "help_zh": "..."}}`` (any of ``label_zh,
            label_en, help, help_zh``), e.g. 百搭 where the shared label says 财神.
        patterns: the pattern catalogue, or a function returning it (built when first asked).
        bot_tuning: how the bots play it (:class:`BotTuning`).
        score_command: how ``majiang score`` scores its hands (:class:`ScoreCommand`); ``None``: through
            its scorer and settlement (:func:`majiang.cli_score.score_generic`).
        summary_zh, summary_en: one line for players: what kind of game it is (the lobby shows it
            under the rule set's name); ``""``: nothing is shown.
        headline_options: the two or three option names (of :meth:`all_options`) players choose most;
            the lobby's form shows them first and folds the rest under "More rules" (``()``: all folded).
    """

    name: str
    label_zh: str
    label_en: str
    summary: str
    table: Mapping[str, Any]
    unit: str = "points"
    aliases: tuple[str, ...] = ()
    shapes: Mapping[str, ShapeRules] = field(default_factory=dict)
    scorers: Mapping[str, ScorerFactory] = field(default_factory=dict)
    settlements: Mapping[str, SettlementFactory] = field(default_factory=dict)
    options: tuple[Option, ...] = ()
    table_options: tuple[str, ...] = ()
    option_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    patterns: tuple[PatternInfo, ...] | Callable[[], tuple[PatternInfo, ...]] = ()
    bot_tuning: BotTuning = DEFAULT_TUNING
    score_command: ScoreCommand | None = None
    # hooks of issue 30 (docs/rulesets.md "Hooks"): pre-play decisions and the legal-action filter
    decisions: tuple[Decision, ...] | Callable[[Any], tuple[Decision, ...]] = ()
    action_filter: ActionFilter | None = None
    # the lobby (issue 31): a line for players and the options shown first
    summary_zh: str = ""
    summary_en: str = ""
    headline_options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.bot_tuning, BotTuning):
            raise RuleSetError(f"rule set {self.name!r}: bot_tuning must be a BotTuning, "
                               f"got {type(self.bot_tuning).__name__}")
        if not isinstance(self.name, str) or not self.name or "," in self.name or "=" in self.name:
            raise RuleSetError(f"a rule set name is a non-empty string without ',' or '=', got {self.name!r}")
        for o in self.options:
            if o.target != "rules":
                raise RuleSetError(f"rule set {self.name!r}: option {o.name!r} belongs in table_options")
            if o.name in TABLE_OPTIONS or o.name in ("name", "rule_options"):
                raise RuleSetError(f"rule set {self.name!r}: option {o.name!r} clashes with a table option")
        for n in self.table_options:
            if n not in TABLE_OPTIONS:
                raise RuleSetError(f"rule set {self.name!r}: unknown table option {n!r}; known: "
                                   f"{', '.join(TABLE_OPTIONS)}")
        for dec in () if callable(self.decisions) else self.decisions:
            if not isinstance(dec, Decision):
                raise RuleSetError(f"rule set {self.name!r}: decisions must be Decision values, got {dec!r}")
        offered = {o.name for o in self.options} | set(self.table_options)
        for n in self.headline_options:
            if n not in offered:
                raise RuleSetError(f"rule set {self.name!r}: headline option {n!r} is not one of its options; "
                                   f"known: {', '.join(sorted(offered))}")

    def option(self, name: str) -> Option | None:
        """Its own option ``name`` (``target="rules"``), or ``None``."""
        for o in self.options:
            if o.name == name:
                return o
        return None

    def all_options(self) -> tuple[Option, ...]:
        """The table options it offers (with its table values as defaults), then its own options."""
        table = tuple(replace(TABLE_OPTIONS[n].with_default(self.table.get(n, TABLE_OPTIONS[n].default)),
                              **{k: v for k, v in self.option_words.get(n, {}).items()
                                 if k in ("label_zh", "label_en", "help", "help_zh")})
                      for n in self.table_options)
        return table + tuple(self.options)

    def pattern_catalogue(self) -> tuple[PatternInfo, ...]:
        """:attr:`patterns`, calling it first when it is a function."""
        p = self.patterns
        return tuple(p() if callable(p) else p)


# ------------------------------------------------------------------------ hooks (issue 30): tile set
TILE_GROUPS: dict[str, range] = {"m": range(0, 9), "p": range(9, 18), "s": range(18, 27), "z": range(27, 34)}
"""The face groups of a tile set, by their letter in our compact notation: the three suits (万 m, 筒 p,
条 s) and the honours (字 z: winds and dragons)."""


@dataclass(frozen=True, slots=True)
class TileSet:
    """Which tiles a rule set plays with (``RuleSet.tiles`` and ``RuleSet.flowers``; issue 30).

    Attributes:
        groups: the face groups in play, letters of :data:`TILE_GROUPS` in the order ``m, p, s, z``
            (``"mpsz"``: the 136; Sichuan ``"mps"``: 108 tiles, no honours).
        flowers: the 8 flowers (tiles 34-41, one each) are in the set.
        copies: copies of each face (4 in every rule set we know).

    Absent faces simply never occur: count vectors, observation planes and action layouts stay 34 wide.
    Raises :class:`RuleSetError` for an unknown letter or an empty set.
    """

    groups: str = "mpsz"
    flowers: bool = True
    copies: int = 4

    def __post_init__(self) -> None:
        if not isinstance(self.groups, str) or not self.groups or any(g not in TILE_GROUPS for g in self.groups) \
                or len(set(self.groups)) != len(self.groups):
            raise RuleSetError(f"a tile set is a string of distinct groups among 'm', 'p', 's', 'z', got {self.groups!r}")

    @property
    def suits(self) -> str:
        """The suits in play (``"mps"``)."""
        return "".join(g for g in "mps" if g in self.groups)

    @property
    def honours(self) -> bool:
        """Winds and dragons are in play."""
        return "z" in self.groups

    @property
    def kinds(self) -> tuple[int, ...]:
        """The faces (0-33) in play, sorted."""
        return tuple(t for g in "mpsz" if g in self.groups for t in TILE_GROUPS[g])

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every physical tile, sorted: ``copies`` of each face, then the flowers once each."""
        return tuple(t for t in self.kinds for _ in range(self.copies)) + (tuple(range(34, 42)) if self.flowers else ())

    def has(self, t: int) -> bool:
        """Face or flower ``t`` is in the set."""
        if t >= 34:
            return self.flowers and t < 42
        return "mpsz"[t // 9 if t < 27 else 3] in self.groups


# ------------------------------------------------------------------ hooks (issue 30): decisions
@dataclass(frozen=True)
class Decision:
    """A choice a rule set asks of every seat after the deal, before the dealer's first turn (Sichuan
    定缺: each seat names the suit it will play out; issue 30, docs/rulesets.md "Hooks").

    The table offers each seat ``Action(ActionKind.DECIDE, i)`` for each index ``i`` of :attr:`values`
    that :attr:`offered` allows; nobody sees another seat's choice until every seat has chosen (then
    one ``decide`` event per seat is written, in turn order from the dealer). The choices are kept per
    seat (``HandTable.decided``, ``WinContext.decided``, :class:`SeatState`).

    Attributes:
        name: the decision's name in records and states (``"dingque"``).
        label_zh, label_en: what the page shows (``"定缺"``, ``"Missing suit"``).
        values: the values a seat may choose (``("m", "p", "s")``).
        value_labels: per value, ``(zh, en)`` labels (``("万", "characters")``...).
        default: ``default(counts) -> index`` -- the choice of a seat holding ``counts`` (34
            concealed-tile counts) when it does not choose itself: the bots' policy and a time-out's.
        offered: ``offered(counts) -> indices`` allowed to that seat (``None``: every value).
        in_turn: the seats choose one after the other from the dealer (still hidden until all have
            chosen) instead of all at once.
    """

    name: str
    label_zh: str
    label_en: str
    values: tuple[str, ...]
    default: Callable[[Any], int]
    value_labels: tuple[tuple[str, str], ...] = ()
    offered: Callable[[Any], tuple[int, ...]] | None = None
    in_turn: bool = False

    def __post_init__(self) -> None:
        if not self.values or len(self.values) > 34:
            raise RuleSetError(f"decision {self.name!r}: 1-34 values, got {len(self.values)}")
        if self.value_labels and len(self.value_labels) != len(self.values):
            raise RuleSetError(f"decision {self.name!r}: one (zh, en) label per value")

    def choices(self, counts: Any) -> tuple[int, ...]:
        """The indices offered to a seat holding ``counts``."""
        return tuple(range(len(self.values))) if self.offered is None else tuple(self.offered(counts))

    def label(self, i: int) -> tuple[str, str]:
        """``(zh, en)`` words of value ``i`` (:attr:`value_labels`, else the value itself twice)."""
        return self.value_labels[i] if self.value_labels else (self.values[i], self.values[i])


_FACE_NAMES = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
_FACE_ZH = tuple(f"{'一二三四五六七八九'[n]}{s}" for s in "万筒条" for n in range(9)) + \
    ("东", "南", "西", "北", "白", "发", "中")

EXCHANGE_DIRECTIONS = {1: ("下家", "next seat"), 2: ("对家", "opposite seat"), 3: ("上家", "previous seat")}
"""Where an :class:`Exchange` sends a seat's tiles: the seat ``offset`` places after it in turn
order (1: 下家, the next to play; 2: 对家; 3: 上家)."""


def exchange_offset(dice: tuple[int, ...]) -> int:
    """The exchange direction from the dice rolled once every seat has chosen (Sichuan 换三张: one of
    three directions at random, [MJSC] ``state_swap_tiles.go``): total mod 3 = 1 to the next seat
    (下家), 2 to the previous (上家), 0 across (对家). Two dice give 12 of 36 rolls to each."""
    return {1: 1, 2: 3, 0: 2}[sum(dice) % 3]


@dataclass(frozen=True)
class Exchange(Decision):
    """Tiles every seat passes to another after the deal, before the other decisions (Sichuan 换三张:
    three tiles of one suit, to the next seat, across or to the previous seat as the dice say;
    plugins/majiang-sichuan/RULES.md §3, docs/rulesets.md "Hooks").

    An exchange is a :class:`Decision` whose values are the 34 tile faces (``values[i]`` names face
    ``i``, ``"1m"``..``"7z"``), picked :attr:`count` times: each ``Action(ActionKind.DECIDE, face)``
    takes one tile out of the seat's hand (so the index is the tile, as in every other action). The
    table offers the faces the seat still holds -- with :attr:`same_suit`, only of the first pick's
    suit, and for the first pick only suits of which it holds at least :attr:`count`. Once every seat
    has picked, two dice pick the direction (:func:`exchange_offset`) and one ``exchange`` event per
    seat (``actor``, ``target``, ``pai``, ``dice``) moves the tiles; a seat sees only the tiles it
    gave and got. :attr:`Decision.default` is ``default(counts) -> faces``: the whole choice of a
    seat holding ``counts`` (the bots' and a time-out's), used pick by pick.

    Build one with :meth:`of`.
    """

    count: int = 3
    same_suit: bool = True

    @classmethod
    def of(cls, name: str, label_zh: str, label_en: str, default: Callable[[Any], tuple[int, ...]], *,
           count: int = 3, same_suit: bool = True) -> Exchange:
        """An exchange of ``count`` tiles (of one suit with ``same_suit``), bots choosing ``default``."""
        return cls(name, label_zh, label_en, _FACE_NAMES, default,  # type: ignore[arg-type]
                   tuple(zip(_FACE_ZH, _FACE_NAMES)), count=count, same_suit=same_suit)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.values != _FACE_NAMES:
            raise RuleSetError(f"exchange {self.name!r}: its values are the 34 faces; build it with Exchange.of")
        if not 1 <= self.count <= 13:
            raise RuleSetError(f"exchange {self.name!r}: count must be 1-13, got {self.count!r}")

    def next_default(self, counts: Any, picked: tuple[int, ...]) -> int:
        """The face a seat holding ``counts`` (without the ``picked`` ones) passes next when it does not
        choose: the next of :attr:`Decision.default`'s choice from the hand it had before picking that
        it may still pick, else the first it may."""
        offered = self.picks(counts, picked)
        held = list(counts)
        for t in picked:
            held[t] += 1
        plan = list(self.default(tuple(held)))
        for t in picked:
            if t in plan:
                plan.remove(t)
        return next((t for t in plan if t in offered), offered[0])

    def picks(self, counts: Any, picked: tuple[int, ...]) -> tuple[int, ...]:
        """The faces a seat holding ``counts`` (without the tiles it has ``picked`` so far) may pick next."""
        if len(picked) >= self.count:
            return ()
        if self.same_suit:
            if picked:
                s = picked[0] // 9
                return tuple(t for t in range(9 * s, 9 * s + 9) if counts[t]) if s < 3 else \
                    tuple(t for t in range(27, 34) if counts[t])
            groups = [range(0, 9), range(9, 18), range(18, 27), range(27, 34)]
            out = tuple(t for g in groups if sum(counts[t] for t in g) >= self.count for t in g if counts[t])
            if out:
                return out  # (a hand of 3k+1 tiles, k >= 3, always has such a suit)
        return tuple(t for t in range(34) if counts[t])


@dataclass(frozen=True, slots=True)
class SeatState:
    """What a legal-action filter reads about one seat (issue 30).

    Attributes:
        seat: the seat (0-3). phase: ``"turn"``, ``"claim"`` or ``"rob"``.
        concealed: its 34 concealed-tile counts (the drawn tile included in its turn).
        decided: its decisions' values (``{"dingque": "m"}``).
        claim_tile: the tile of an open claim/robbing window, else ``None``.
    """

    seat: int
    phase: str
    concealed: tuple[int, ...]
    decided: Mapping[str, Any]
    claim_tile: int | None = None


ActionFilter = Callable[[SeatState, list], list]
"""``action_filter(state, actions) -> actions``: keeps some of the legal actions the table computed
for a seat (never adds one; the order is kept). Sichuan: while a seat holds tiles of its declared
missing suit it may discard only those, and never pung or kong a tile of that suit."""


# ------------------------------------------------------------- hooks (issue 30): settlement
from majiang.rules.settlement import Ledger, Payment  # noqa: E402  (re-exported for rule-set packages)


@dataclass(frozen=True, slots=True)
class KongSettle:
    """A kong that stands (an added kong once nobody robbed it), for ``Settlement.settle_kong``.

    Attributes:
        seat: who declared it. kind: ``"exposed"`` (明杠 on a discard), ``"concealed"`` (暗杠) or
            ``"added"`` (加杠/巴杠). tile: its face. fed_by: the discarder of an exposed kong, else ``None``.
        in_play: per seat, still in play (not yet won and left, ``RuleSet.win_limit``).
    """

    seat: int
    kind: str
    tile: int
    fed_by: int | None
    in_play: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class WallEndSettle:
    """The table when the wall runs out, for ``Settlement.settle_wall_end`` (查花猪, 查大叫).

    Attributes:
        hands: per seat, a :class:`~majiang.hand.Hand` of its concealed tiles and melds (no winning tile).
        in_play: per seat, still in play. decided: per seat, its decisions' values.
        dealer, prevalent_wind: as in :class:`WinContext`; seat winds follow from the dealer.
        kongs: ``(seat, kind)`` per kong that stood this hand.
        payments: the payments made this hand outside the wins so far (kong money), in order.
    """

    hands: tuple[Hand, ...]
    in_play: tuple[bool, ...]
    decided: tuple[Mapping[str, Any], ...]
    dealer: int
    prevalent_wind: int
    kongs: tuple[tuple[int, str], ...] = ()
    payments: tuple[Payment, ...] = ()


# A Settlement may also define (both optional; the table calls them only where they exist):
#   settle_kong(kong: KongSettle, players: int) -> Ledger        -- at a kong that stands (刮风下雨)
#   settle_wall_end(end: WallEndSettle, players: int) -> Ledger  -- when the wall runs out (查花猪, 查大叫)
# The ledgers are written as "settle" events and added to the hand's deltas, like a win's.
