"""The rule-set object the table reads instead of hard-coding a variant (DESIGN.md, RULES.md §8 "Suggested shape").

A :class:`RuleSet` is a frozen, validated value. The engine (:mod:`majiang.engine.table`) asks it
every question a variant answers differently: which tiles are in the set, how many a hand holds,
whether and how a wildcard is chosen, which winning shapes count, which claims exist, who wins when
several players claim one discard, how many tiles stay back at the wall's end, when the dealer keeps
the deal, how long a match lasts, what a win must be worth, and how a win is scored and settled.
The engine knows no variant by name.

Presets (:meth:`RuleSet.preset`; the names the command line takes):

* ``"mcr"`` -- Chinese Official / MCR (RULES.md §6, §9.6; seed ``004_*``): 144 tiles with flowers,
  13-tile hands, no wildcards, every MCR shape, chow from the left player only, head-bump on several
  winners, no reserve, the deal passes after every hand, 4 rounds (16 hands), 8-fan minimum without
  flowers. Scorer ``"mcr"``: the 81 fans through :class:`majiang.engine.scorers.McrScorer`
  (``majiang.rules.mcr``); ``scorer="fixed"`` keeps the stand-in :class:`FixedScorer` (every legal
  win 8 fan + 1 per flower). Settlement: :class:`CompetitionSettlement` (RULES.md §9.6).
* ``"taiwan"`` -- Taiwan 16-tile (RULES.md §3; seed ``001_*``): 144 tiles, 16-tile hands, 16 tiles
  held back, an added kong only with the drawn tile, the dealer keeps the deal on a win or a draw.
  Scorer and settlement ``"taiwan"`` (:mod:`majiang.rules.taiwan.engine_adapter`: the association tai
  table; base 30 + 10 per tai, dealer terms per payment). Flower wins on (``flower_wins``: 八仙過海,
  七搶一 end the hand at once).
* ``"wenzhou"`` (alias ``"wenzhou13"``) -- the seed-003 Wenzhou game W13, the primary Wenzhou profile
  (RULES.md §4.2-§4.4, §4.6, §9.4): 136 tiles, 13-tile hands, a 财神 chosen by dice from the tail (the
  indicator stays out of play: 3 live copies), 白板 stands for the 财神's face, 财神 neither
  discarded nor used in claims, shapes ``"wenzhou13"`` (七对子, 不搭, 财神会 = self-drawn with three
  财神), the dealer keeps the deal only by winning, 被跟 costs the followed player 1 point to each other
  player (``followed_penalty=1``, RULES.md §4.6). Scorer and settlement ``"wz13"``.
* ``"wenzhou-w16"`` -- Wenzhou 16-tile W16 (RULES.md §4.2, §4.3, §4.5): 136 tiles, 16-tile hands, the
  same 财神 flow, shapes ``"wenzhou16"`` (八对, three 财神 win), the dealer keeps by winning for at
  most four dealerships. Scorer and settlement ``"wz16"``.
* ``"seed000"`` -- the seed-000 百搭 profile (RULES.md §2, §9.1, §9.2): 136 tiles, 13-tile hands, 百搭
  by dice with 白板 standing in, shapes ``"seed000"`` (七对子, 十三幺, three 百搭 win outright).
  Scorer and settlement ``"seed000"`` (1 point a win: the seed gives no values). 相公 on
  (``xianggong``, RULES.md §2.4): a record with a wrong tile count replays with the player marked.
* ``"shandong"`` -- provisional Shandong (RULES.md §5, §9.5; seed ``001_*``): 13-tile hands with the
  8 flowers, standard shape only, 1 point a win, doubled self-drawn. Scorer and settlement
  ``"shandong"``.

The wildcard and Taiwan scorers answer ``value=-1`` for a hand their rule set does not accept (a
W13 三财神 hand without a shape won on a discard, a Taiwan hand under its minimum), so the table
does not offer that win.

Options are changed with :meth:`RuleSet.with_options`; an unknown option or a bad value raises
:class:`RuleSetError`. :meth:`RuleSet.to_options` / :meth:`RuleSet.from_options` round-trip the
rule set through plain JSON values (used by the record header, :mod:`majiang.records`).

Scoring plugs in through two small protocols, :class:`Scorer` and :class:`Settlement`, registered by
name (:func:`register_scorer`, :func:`register_settlement`) so a record can name them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from majiang.analysis import MCR_SHAPES, SEVEN_PAIRS_AND_ORPHANS, STANDARD, ShapeRules
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
    it is declared; it must be a pure function of the context."""

    name: str

    def score(self, ctx: WinContext) -> ScoreResult:  # pragma: no cover - protocol
        ...


@dataclass(frozen=True, slots=True)
class WinSettle:
    """One win to settle: who won, who fed it (``None`` when self-drawn), its score and context."""

    winner: int
    discarder: int | None
    result: ScoreResult
    ctx: WinContext


@runtime_checkable
class Settlement(Protocol):
    """Turns one win into per-seat score changes (a zero-sum ledger; the engine checks the sum)."""

    name: str

    def settle(self, win: WinSettle, players: int) -> list[int]:  # pragma: no cover - protocol
        ...


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

    def settle(self, win: WinSettle, players: int) -> list[int]:
        d = [0] * players
        for s in range(players):
            if s != win.winner and (win.discarder is None or s == win.discarder):
                d[s] -= win.result.total
                d[win.winner] += win.result.total
        return d


_SCORERS: dict[str, Callable[[], Scorer]] = {
    "fixed": lambda: FixedScorer(8, 1),
    "fixed1": lambda: FixedScorer(1, 0, "fixed1"),
}
_SETTLEMENTS: dict[str, Callable[[], Settlement]] = {
    "competition": CompetitionSettlement,
    "flat": FlatSettlement,
}


def register_scorer(name: str, factory: Callable[[], Scorer]) -> None:
    """Make a scorer available by name (``RuleSet.with_options(scorer=name)``), e.g. the MCR
    scorer from ``majiang.rules.mcr``. Re-registering a name replaces it."""
    _SCORERS[name] = factory


def register_settlement(name: str, factory: Callable[[], Settlement]) -> None:
    """Make a settlement available by name (``RuleSet.with_options(settlement=name)``)."""
    _SETTLEMENTS[name] = factory


def _mcr_scorer() -> Scorer:
    from majiang.engine.scorers import McrScorer

    return McrScorer()


_SCORERS["mcr"] = _mcr_scorer  # the adapter imports majiang.rules.mcr when first used


def _taiwan_adapter() -> Any:
    from majiang.rules.taiwan.engine_adapter import TaiwanEngineAdapter

    return TaiwanEngineAdapter()


def _wild_adapter(rid: str) -> Callable[[], Any]:
    def make() -> Any:
        from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter

        return WildRulesAdapter(rid)

    return make


# The real scorers and settlements of the other rule sets, imported when first used: Taiwan
# (majiang.rules.taiwan.engine_adapter) and the wildcard rule sets (majiang.rules.wenzhou.engine_adapter).
_SCORERS["taiwan"] = _taiwan_adapter
_SETTLEMENTS["taiwan"] = _taiwan_adapter
for _rid in ("wz13", "wz16", "seed000", "shandong"):
    _SCORERS[_rid] = _wild_adapter(_rid)
    _SETTLEMENTS[_rid] = _wild_adapter(_rid)
del _rid


# ----------------------------------------------------------------------------------------- options
WILD_MODES = ("none", "indicator", "fixed")
MULTI_WIN = ("head-bump", "all")
FIRST_DEALER = ("east", "dice")

_SHAPE_PRESETS: dict[str, ShapeRules] = {
    "standard": STANDARD,
    "mcr": MCR_SHAPES,
    "seven-pairs-orphans": SEVEN_PAIRS_AND_ORPHANS,
    # Wenzhou W13 (seed 003, RULES.md §4.3): 七对子, 不搭, and three 财神 (财神会). 十三幺 is not a
    # W13 shape. 财神会 is a self-draw: the engine's shapes cannot say "self-draw only", so the
    # three-wild outright reading is on here and the W13 scorer refuses it on a discard (value -1,
    # below every min_score), which keeps the win from being offered.
    "wenzhou13": ShapeRules(seven_pairs=True, unconnected=True, wilds_win=3),
    # Wenzhou W16 (RULES.md §4.3): 八对 (17 concealed tiles) and three 财神 win whatever the rest.
    "wenzhou16": ShapeRules(eight_pairs=True, wilds_win=3),
    # Seed 000 profile (RULES.md §2.1, §9.1): 七对子, 十三幺, three or four 百搭 win outright.
    "seed000": ShapeRules(seven_pairs=True, thirteen_orphans=True, wilds_win=3),
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A variant's table rules (see the module doc for presets). All fields are plain values.

    Tile set and hands:
        flowers: the 8 flowers (春夏秋冬梅兰竹菊, tiles 34-41) are in the set; they are set aside
            when dealt or drawn and replaced from the wall's tail (RULES.md §1.1, §3.1).
        hand_size: 13 or 16 tiles held between turns (RULES.md §1.2); the dealer takes one more.
        players: seats at the table (4).

    Wildcards (RULES.md §1.3, §4.2):
        wild_mode: ``"none"``; ``"indicator"`` -- after the deal the dealer rolls ``dice`` and the
            tile that many from the tail is turned up and taken out of play; its face
            (``wild_next_face=False``) or the next face is wild; ``"fixed"`` -- ``wild_tile`` is wild.
        wild_tile: the wild face for ``"fixed"`` (0-33).
        wild_next_face: with ``"indicator"``, the face after the indicator is wild (C5 reading).
        wild_indicator_out: with ``"indicator"``, the turned-up tile leaves play, so three copies of
            the wildcard are live (Wenzhou, RULES.md §4.2); ``False`` leaves it in the wall, face up,
            so all four are live (seed 000, RULES.md §2.1 E: "3 or 4 wilds").
        white_stand_in: 白板 plays as the wild's natural face (and is not wild).
        wild_discardable: wildcards may be discarded (and then claimed only for a win).
        wild_claimable: wildcards may be used from the hand to chow, pung or kong.

    Shapes and claims (RULES.md §1.4):
        shapes: name of the winning-shape switchboard: ``"standard"``, ``"mcr"``,
            ``"seven-pairs-orphans"``, ``"wenzhou13"`` (七对子 + 不搭 + three wilds), ``"wenzhou16"``
            (八对 + three wilds), ``"seed000"`` (七对子 + 十三幺 + three wilds) (see
            :mod:`majiang.analysis.shapes`).
        chow, pung, exposed_kong, concealed_kong, added_kong: whether each claim/declaration exists.
            A chow is only ever claimed from the player on the left (上家).
        added_kong_drawn_only: an added kong (补杠) only with the tile just drawn, not with a copy
            held from earlier (Taiwan, SD1 "若是自己摸进相同的牌"; MCR/Botzone allow a held copy).
        rob_kong: another player may win on the tile of an added kong (抢杠和).
        claim_last_discard: the discard after the last live tile may be chowed or punged
            (False: it may only be won on).
        multiple_winners: ``"head-bump"`` -- only the first winner in turn order from the discarder
            (截和); ``"all"`` -- every player who declares wins.
        flower_wins: flower wins end the hand at once (Taiwan, RULES.md §3.2, §3.3): a player who
            completes all eight flowers wins (八仙過海, paid as a self-draw); a player who draws the
            eighth flower while another holds the other seven pays that player alone (七搶一). The
            deal's own flowers count only for 八仙過海 (all eight dealt to, or replaced into, one
            hand); 七搶一 needs the eighth flower to be drawn as a replacement or in play.
        declare_ready: 報聽 (RULES.md §3.1, optional, off in every preset): a player may declare
            ready with a discard that leaves the hand ready (``ActionKind.READY``, a ``reach`` event
            before the ``dahai``); the hand is then frozen -- later turns only win by self-draw or
            discard the drawn tile (no kong), and claim windows offer only a win. The win context
            carries ``declared_ready``, ``heavenly_ready`` and ``earthly_ready``.
        followed_penalty: 被跟 (Wenzhou W13, RULES.md §4.6): when A's discard is followed by the
            same face from B, C and D in turn (no claim between), A pays each other player this
            many points at once (a ``"penalty"`` event); 0 = off.
        wild_discard_penalty: 误打财神 (Wenzhou W13, RULES.md §4.6): where ``wild_discardable`` allows
            discarding a wildcard at all, the discarder pays each other player this many points at
            once (a ``"penalty"`` event, ``name="wild-discard"``); 0 = off. Nobody wins on a
            discarded wildcard (RULES.md §4.2).
        xianggong: 相公 (RULES.md §2.4, seed 000; on in ``seed000`` only): a record whose tile count goes
            wrong -- a kong with no replacement draw before the discard (小相公, one short) or an extra
            draw (大相公, one too many) -- replays, the player is marked, may not win, and his kongs
            still count (小相公) or are void (大相公: left out of the win context's ``kongs``, so no kong
            money); no extra penalty. Off: such a record is refused as corrupt.
        bao_pai: 宝牌加台 (RULES.md §3.4, seed 001 platform extra; off in every preset): after the deal
            the tile at the wall's tail is turned up and taken out of play, its face a 宝牌; one more
            after each kong's replacement draw, at most five (a ``"bao"`` event each). Each copy of a
            宝牌 face held at a win is 1 tai for the Taiwan scorer, given as the score's ``bonus`` so
            that it never counts toward ``min_score`` (三台起胡: ``min_score=3``).

    Wall and match:
        reserve: tiles left in the wall when the hand is drawn (MCR 0; Taiwan 16).
        dice: dice rolled to break the wall and to choose the wildcard (2 or 3).
        dealer_keeps_on_win / dealer_keeps_on_draw: the dealer keeps the deal (连庄) when he wins /
            when the hand is drawn; otherwise the deal passes to the next seat.
        max_dealer_streak: the most consecutive extra hands a dealer may keep (``None`` = no limit).
        rounds: prevalent winds played (4 = E, S, W, N: a full match); a round ends when the deal
            has passed round every seat once.
        first_dealer: ``"east"`` (the East seat deals first) or ``"dice"`` (two dice counted from East).
        seat_draw: players are seated by lot at the start of a match (else player i sits at seat i).

    Value:
        min_score: a win needs :attr:`ScoreResult.value` at least this (MCR 8, flowers excluded).
        scorer, settlement: registered names (:func:`register_scorer`, :func:`register_settlement`).
        name: the preset's name (informative; the options define the rules).
    """

    name: str = "mcr"
    flowers: bool = True
    hand_size: int = 13
    players: int = 4
    wild_mode: str = "none"
    wild_tile: int | None = None
    wild_next_face: bool = False
    wild_indicator_out: bool = True
    white_stand_in: bool = False
    wild_discardable: bool = True
    wild_claimable: bool = True
    shapes: str = "mcr"
    chow: bool = True
    pung: bool = True
    exposed_kong: bool = True
    concealed_kong: bool = True
    added_kong: bool = True
    added_kong_drawn_only: bool = False
    rob_kong: bool = True
    claim_last_discard: bool = False
    multiple_winners: str = "head-bump"
    flower_wins: bool = False
    declare_ready: bool = False
    followed_penalty: int = 0
    wild_discard_penalty: int = 0
    xianggong: bool = False
    bao_pai: bool = False
    reserve: int = 0
    dice: int = 2
    dealer_keeps_on_win: bool = False
    dealer_keeps_on_draw: bool = False
    max_dealer_streak: int | None = None
    rounds: int = 4
    first_dealer: str = "east"
    seat_draw: bool = True
    min_score: int = 8
    scorer: str = "fixed"
    settlement: str = "competition"
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        def bad(msg: str) -> RuleSetError:
            return RuleSetError(f"rule set {self.name!r}: {msg}")

        for f in dataclasses.fields(self):
            if f.type in ("bool", bool) and not isinstance(getattr(self, f.name), bool):
                raise bad(f"{f.name} must be true or false, got {getattr(self, f.name)!r}")
        if not isinstance(self.name, str):
            raise bad(f"name must be a string, got {self.name!r}")
        if self.hand_size not in (13, 16):
            raise bad(f"hand_size must be 13 or 16, got {self.hand_size!r}")
        if self.players != 4:
            raise bad(f"only 4-player tables are supported, got players={self.players!r}")
        if self.wild_mode not in WILD_MODES:
            raise bad(f"wild_mode must be one of {WILD_MODES}, got {self.wild_mode!r}")
        if self.wild_mode == "fixed" and not (isinstance(self.wild_tile, int) and 0 <= self.wild_tile < 34):
            raise bad(f"wild_mode 'fixed' needs wild_tile 0-33, got {self.wild_tile!r}")
        if self.shapes not in _SHAPE_PRESETS:
            raise bad(f"shapes must be one of {tuple(_SHAPE_PRESETS)}, got {self.shapes!r}")
        if self.multiple_winners not in MULTI_WIN:
            raise bad(f"multiple_winners must be one of {MULTI_WIN}, got {self.multiple_winners!r}")
        if self.first_dealer not in FIRST_DEALER:
            raise bad(f"first_dealer must be one of {FIRST_DEALER}, got {self.first_dealer!r}")
        if not (isinstance(self.reserve, int) and 0 <= self.reserve <= 60):
            raise bad(f"reserve must be 0-60 tiles, got {self.reserve!r}")
        if self.dice not in (2, 3):
            raise bad(f"dice must be 2 or 3, got {self.dice!r}")
        if not (isinstance(self.rounds, int) and 1 <= self.rounds <= 16):
            raise bad(f"rounds must be 1-16, got {self.rounds!r}")
        if self.max_dealer_streak is not None and not (isinstance(self.max_dealer_streak, int)
                                                       and self.max_dealer_streak >= 0):
            raise bad(f"max_dealer_streak must be None or >= 0, got {self.max_dealer_streak!r}")
        if not isinstance(self.min_score, int) or self.min_score < 0:
            raise bad(f"min_score must be an int >= 0, got {self.min_score!r}")
        if self.declare_ready and self.wild_mode != "none" and not self.wild_discardable:
            raise bad("declare_ready needs a rule set without wildcards, or one that lets them be discarded: a "
                      "declared hand must discard what it draws")
        for name in ("followed_penalty", "wild_discard_penalty"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise bad(f"{name} must be an int >= 0, got {v!r}")
        if self.scorer not in _SCORERS:
            raise bad(f"unknown scorer {self.scorer!r}; known: {sorted(_SCORERS)}")
        if self.settlement not in _SETTLEMENTS:
            raise bad(f"unknown settlement {self.settlement!r}; known: {sorted(_SETTLEMENTS)}")

    # ---------------------------------------------------------------- presets and options
    @classmethod
    def preset(cls, name: str, **options: Any) -> RuleSet:
        """A named preset (:data:`PRESET_NAMES`, or an alias of :data:`PRESET_ALIASES` such as
        ``"wenzhou13"`` = ``"wenzhou"``), optionally with changed options.

        Raises :class:`RuleSetError` for an unknown preset or option.
        """
        canonical = PRESET_ALIASES.get(name, name)
        base = _PRESETS.get(canonical)
        if base is None:
            known = ", ".join(list(_PRESETS) + [f"{a} (= {c})" for a, c in PRESET_ALIASES.items()])
            raise RuleSetError(f"unknown rule set {name!r}; known: {known}")
        rs = cls(name=name, **base)
        return rs.with_options(**options) if options else rs

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with some options changed; an unknown option raises :class:`RuleSetError`."""
        known = self.option_names()
        for k in options:
            if k not in known:
                raise RuleSetError(f"unknown rule option {k!r}; known options: {', '.join(sorted(known))}")
        return dataclasses.replace(self, **options)

    @staticmethod
    def option_names() -> frozenset[str]:
        """Names of every option (the dataclass fields but the private cache)."""
        return frozenset(f.name for f in dataclasses.fields(RuleSet) if not f.name.startswith("_"))

    def to_options(self) -> dict[str, Any]:
        """Every option as a JSON-friendly dict (the record header keeps it). ``xianggong`` is written
        only when on, so the header of a record made before that option existed comes out the same."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if not f.name.startswith("_")
                and not (f.name in _WRITTEN_WHEN_ON and not getattr(self, f.name))}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_options`; unknown keys raise :class:`RuleSetError`."""
        known = cls.option_names()
        for k in options:
            if k not in known:
                raise RuleSetError(f"unknown rule option {k!r} in options")
        return cls(**dict(options))

    # ---------------------------------------------------------------- derived values
    @property
    def shape_rules(self) -> ShapeRules:
        """The :class:`~majiang.analysis.ShapeRules` named by :attr:`shapes`."""
        return _SHAPE_PRESETS[self.shapes]

    @property
    def sets(self) -> int:
        """Sets in a complete hand: 4 for 13-tile games, 5 for 16-tile games (RULES.md §1.2)."""
        return (self.hand_size - 1) // 3

    @property
    def tile_set(self) -> tuple[int, ...]:
        """Every physical tile of the set, sorted: 4 of each of 0-33, plus flowers 34-41 once."""
        key = "tile_set"
        ts = self._cache.get(key)
        if ts is None:
            ts = tuple(t for t in range(34) for _ in range(4)) + (tuple(range(34, 42)) if self.flowers else ())
            self._cache[key] = ts
        return ts

    def scorer_object(self) -> Scorer:
        """The :class:`Scorer` named by :attr:`scorer` (cached per rule set)."""
        s = self._cache.get("scorer")
        if s is None:
            s = _SCORERS[self.scorer]()
            self._cache["scorer"] = s
        return s

    def settlement_object(self) -> Settlement:
        """The :class:`Settlement` named by :attr:`settlement` (cached per rule set)."""
        s = self._cache.get("settlement")
        if s is None:
            s = _SETTLEMENTS[self.settlement]()
            self._cache["settlement"] = s
        return s


_WRITTEN_WHEN_ON = frozenset({"xianggong", "bao_pai"})
"""Options left out of :meth:`RuleSet.to_options` while off (added after records were being kept)."""

_WILD_TABLE = dict(wild_mode="indicator", white_stand_in=True, wild_discardable=False, wild_claimable=False)

_PRESETS: dict[str, dict[str, Any]] = {
    # RULES.md §6, §9.6: the 81 fans, 8-fan minimum without flowers, competition settlement.
    "mcr": dict(flowers=True, hand_size=13, shapes="mcr", reserve=0, dealer_keeps_on_win=False,
                dealer_keeps_on_draw=False, rounds=4, first_dealer="east", min_score=8, scorer="mcr",
                settlement="competition", multiple_winners="head-bump"),
    # RULES.md §3: 144 tiles, 16-tile hands, 16 held back, dealer keeps on a win or a draw, tai table.
    "taiwan": dict(flowers=True, hand_size=16, shapes="standard", reserve=16, added_kong_drawn_only=True,
                   dealer_keeps_on_win=True,
                   dealer_keeps_on_draw=True, rounds=4, first_dealer="dice", min_score=0, scorer="taiwan",
                   settlement="taiwan", multiple_winners="head-bump", flower_wins=True),
    # RULES.md §4.2-§4.4, §4.6, §9.4 (seed 003, W13): 136 tiles, 13-tile hands, 财神 by dice from the
    # tail (the indicator stays out: 3 live copies), 白板 stands in, 财神 never discarded or claimed,
    # 七对子 / 不搭 / 财神会, one winner, dealer keeps only by winning.
    "wenzhou": dict(flowers=False, hand_size=13, shapes="wenzhou13", reserve=0, **_WILD_TABLE,
                    dealer_keeps_on_win=True, dealer_keeps_on_draw=False, rounds=4, first_dealer="dice",
                    min_score=0, scorer="wz13", settlement="wz13", multiple_winners="head-bump",
                    followed_penalty=1, wild_discard_penalty=1),
    # RULES.md §4.2, §4.3, §4.5 (W16, MIL 2024): 136 tiles, 16-tile hands, 3 live 财神, 八对 and the
    # three-财神 win, dealer keeps by winning for at most 4 dealerships (factors 2, 4, 6, 8).
    "wenzhou-w16": dict(flowers=False, hand_size=16, shapes="wenzhou16", reserve=0, **_WILD_TABLE,
                        dealer_keeps_on_win=True, dealer_keeps_on_draw=False, max_dealer_streak=3, rounds=4,
                        first_dealer="dice", min_score=0, scorer="wz16", settlement="wz16",
                        multiple_winners="head-bump"),
    # RULES.md §2.1, §9.1, §9.2 (seed 000): 百搭 by dice as in Wenzhou (SD0), 白板 stands in, 七对子,
    # 十三幺, three 百搭 win outright; points = 1 per win (the seed gives no values). All four copies are
    # live (§2.1 E): the turned-up tile stays in the wall.
    "seed000": dict(flowers=False, hand_size=13, shapes="seed000", reserve=0, **_WILD_TABLE, wild_indicator_out=False,
                    dealer_keeps_on_win=True, dealer_keeps_on_draw=False, rounds=4, first_dealer="dice",
                    min_score=0, scorer="seed000", settlement="seed000", multiple_winners="head-bump",
                    xianggong=True),
    # RULES.md §5, §9.5 (seed 001), provisional: 13-tile hands with the 8 flowers, standard shape,
    # 1 point a win, doubled self-drawn. The two 白砣 are not in the tile set (no tile index for them).
    "shandong": dict(flowers=True, hand_size=13, shapes="standard", reserve=0, dealer_keeps_on_win=True,
                     dealer_keeps_on_draw=False, rounds=4, first_dealer="dice", min_score=0, scorer="shandong",
                     settlement="shandong", multiple_winners="head-bump"),
}
PRESET_NAMES: tuple[str, ...] = tuple(_PRESETS)
"""Names accepted by :meth:`RuleSet.preset` (plus the aliases of :data:`PRESET_ALIASES`)."""
PRESET_ALIASES: dict[str, str] = {"wenzhou13": "wenzhou"}
"""Other names of presets: ``wenzhou13`` is the seed-003 W13 profile, ``wenzhou``."""


def parse_spec(spec: str) -> RuleSet:
    """A rule set from a one-line spec: a preset name, then optional ``,option=value`` pairs, e.g.
    ``"mcr,scorer=mcr"`` or ``"mcr, flowers=false, multiple_winners=all"``. Values are JSON
    (``true``, ``false``, ``null``, numbers) or bare strings. Raises :class:`RuleSetError`."""
    import json

    parts = [p.strip() for p in spec.split(",")]
    name, opts = parts[0], {}
    for p in parts[1:]:
        if not p:
            continue
        key, eq, raw = p.partition("=")
        if not eq:
            raise RuleSetError(f"rule option {p!r} must be written key=value")
        try:
            val = json.loads(raw.strip())
        except json.JSONDecodeError:
            val = raw.strip()
        opts[key.strip()] = val
    return RuleSet.preset(name, **opts)


def resolve(rules: str | RuleSet | None) -> RuleSet:
    """A :class:`RuleSet` from a rule set, a preset name or spec (:func:`parse_spec`, e.g.
    ``"mcr,scorer=mcr"``), or ``None`` (MCR)."""
    if rules is None:
        return RuleSet.preset("mcr")
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return parse_spec(rules)
    raise RuleSetError(f"cannot make a rule set from {rules!r}")
