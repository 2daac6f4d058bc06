"""The rule-set object the table reads instead of hard-coding a variant (DESIGN.md, RULES.md §8 "Suggested shape").

A :class:`RuleSet` is a frozen, validated value. The engine (:mod:`majiang.engine.table`) asks it
every question a variant answers differently: which tiles are in the set, how many a hand holds,
whether and how a wildcard is chosen, which winning shapes count, which claims exist, who wins when
several players claim one discard, how many tiles stay back at the wall's end, when the dealer keeps
the deal, how long a match lasts, what a win must be worth, and how a win is scored and settled.
The engine knows no variant by name.

Presets (:meth:`RuleSet.preset`; the names the command line takes) are the rule sets the
``majiang.rulesets`` entry points declare (:mod:`majiang.rules.registry`, ``docs/rulesets.md``): each
rule-set package gives its table values, shapes, scorer, settlement, options and patterns in one
:class:`~majiang.rules.base.RuleSetDef` (majiang's own: ``mcr``, ``taiwan``, ``wenzhou`` (alias
``wenzhou13``), ``wenzhou-w16``, ``seed000``, ``shandong``; see ``majiang rules``). This module
imports none of them: ``majiang.rules.base`` (the protocol) and ``majiang.rules.registry`` only.

The wildcard and Taiwan scorers answer ``value=-1`` for a hand their rule set does not accept (a
W13 三财神 hand without a shape won on a discard, a Taiwan hand under its minimum), so the table
does not offer that win.

Options are changed with :meth:`RuleSet.with_options` -- table fields, or the rule set's own options
(kept in :attr:`RuleSet.rule_options`, read with :meth:`RuleSet.rule_option`); an unknown option or
a bad value raises :class:`RuleSetError`. :meth:`RuleSet.to_options` / :meth:`RuleSet.from_options` round-trip the
rule set through plain JSON values (used by the record header, :mod:`majiang.records`).

Scoring plugs in through two small protocols, :class:`Scorer` and :class:`Settlement`, registered by
name (:func:`register_scorer`, :func:`register_settlement`) so a record can name them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from majiang.analysis import MCR_SHAPES, SEVEN_PAIRS_AND_ORPHANS, STANDARD, ShapeRules
from majiang.rules import registry
from majiang.rules.base import (
    CompetitionSettlement,
    FixedScorer,
    FlatSettlement,
    RuleSetError,
    Scorer,
    ScoreResult,
    Settlement,
    TileSet,
    WinContext,
    WinSettle,
)

__all__ = [
    "CompetitionSettlement", "FixedScorer", "FlatSettlement", "RuleSet", "RuleSetError", "ScoreResult", "Scorer",
    "Settlement", "WinContext", "WinSettle", "parse_spec", "register_scorer", "register_settlement", "resolve",
]


# ----------------------------------------------------------------------------------------- scoring
# The scoring protocol lives below the engine, in majiang.rules.base (issue 12); these names stay here.
_SCORERS: dict[str, Callable[[], Scorer]] = {
    "fixed": lambda: FixedScorer(8, 1),
    "fixed1": lambda: FixedScorer(1, 0, "fixed1"),
}
_SETTLEMENTS: dict[str, Callable[[], Settlement]] = {
    "competition": CompetitionSettlement,
    "flat": FlatSettlement,
}


def logged_value(name: str) -> int | None:
    """The value of a ``"logged:N"`` scorer name (every win worth ``N``, no flower bonus: the value
    a judge outside the engine gave the win, e.g. the Botzone judge's fan total in a record of its
    game), or ``None`` for any other name."""
    if isinstance(name, str) and name.startswith("logged:") and name[7:].isdigit():
        return int(name[7:])
    return None


def register_scorer(name: str, factory: Callable[[], Scorer]) -> None:
    """Make a scorer available by name (``RuleSet.with_options(scorer=name)``) without a rule-set
    package (a rule set declares its scorers in its :class:`~majiang.rules.base.RuleSetDef`, which
    win over a name registered here). Re-registering a name replaces it."""
    _SCORERS[name] = factory


def register_settlement(name: str, factory: Callable[[], Settlement]) -> None:
    """Make a settlement available by name (``RuleSet.with_options(settlement=name)``); see
    :func:`register_scorer`."""
    _SETTLEMENTS[name] = factory


# ----------------------------------------------------------------------------------------- options
WILD_MODES = ("none", "indicator", "fixed")
MULTI_WIN = ("head-bump", "all")
FIRST_DEALER = ("east", "dice")

_SHAPE_PRESETS: dict[str, ShapeRules] = {
    "standard": STANDARD,
    "mcr": MCR_SHAPES,
    "seven-pairs-orphans": SEVEN_PAIRS_AND_ORPHANS,
}
"""The generic shape switchboards; a rule set adds its own (``RuleSetDef.shapes``, e.g. ``wenzhou13``)."""


def _shape(name: str) -> ShapeRules | None:
    return _SHAPE_PRESETS.get(name) or registry.shape_rules(name)


def shape_names() -> tuple[str, ...]:
    """Every shape name a rule set may give: the generic ones and those rule sets add."""
    return tuple(_SHAPE_PRESETS) + registry.shape_names()


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
        scorer, settlement: names a rule set declares (``RuleSetDef.scorers`` / ``settlements``,
            built with this rule set) or the generic ones (:func:`register_scorer`,
            :func:`register_settlement`: ``fixed``, ``fixed1``, ``competition``, ``flat``); or
            ``logged:N`` (:func:`logged_value`: every win worth ``N``, as a judge outside the engine
            scored it -- the Botzone judge's records).
        tiles: the face groups in play (:class:`~majiang.rules.base.TileSet`): ``"mpsz"`` -- the 136
            (with ``flowers`` the 144); ``"mps"`` -- Sichuan's 108, no honours (issue 30).
        win_limit: wins that end the hand: 1 -- the first win (or simultaneous wins on one discard)
            ends it; 3 -- Sichuan 血战到底: each winner leaves the play (his hand shown), the others
            play on until this many have won or the wall is exhausted (issue 30, docs/rulesets.md).
        name: the rule set's name; the table fields define the table, and :attr:`rule_options` are
            read as the options of the rule set of that name.
        rule_options: ``(name, value)`` pairs of the rule set's own options (``RuleSetDef.options``)
            that differ from their defaults, sorted; written to a record header only when there is one.
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
    # issue 30 hooks (written to a record header only when not the default, so older headers keep their bytes)
    tiles: str = "mpsz"
    win_limit: int = 1
    rule_options: tuple[tuple[str, Any], ...] = ()
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
        if _shape(self.shapes) is None:
            if registry.find(self.name) is None and self.name not in ("custom", ""):  # a plug-in's record, say
                raise bad(f"this rule set is not installed (its shapes {self.shapes!r} are its own); known rule "
                          f"sets: {', '.join(registry.names())}; a plug-in's rule set is known once its package is "
                          "installed (docs/rulesets.md)")
            raise bad(f"shapes must be one of {shape_names()}, got {self.shapes!r}")
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
        try:
            TileSet(self.tiles, self.flowers)
        except RuleSetError as e:
            raise bad(f"tiles: {e}") from None
        if not (isinstance(self.win_limit, int) and not isinstance(self.win_limit, bool)
                and 1 <= self.win_limit < self.players):
            raise bad(f"win_limit must be 1-{self.players - 1}, got {self.win_limit!r}")
        if self.win_limit > 1 and self.flower_wins:
            raise bad("flower_wins (a flower win ends the hand) cannot go with win_limit above 1")
        if (self.scorer not in _SCORERS and registry.scorer_factory(self.scorer) is None
                and logged_value(self.scorer) is None):
            hint = "" if registry.find(self.name) is not None else (
                f" (is the package of rule set {self.name!r} installed? no majiang.rulesets entry point declares it)")
            raise bad(f"unknown scorer {self.scorer!r}; known: {sorted({*_SCORERS, *registry.scorer_names()})}{hint}")
        if self.settlement not in _SETTLEMENTS and registry.settlement_factory(self.settlement) is None:
            raise bad(f"unknown settlement {self.settlement!r}; known: "
                      f"{sorted({*_SETTLEMENTS, *registry.settlement_names()})}")
        object.__setattr__(self, "rule_options", self._normal_rule_options(self.rule_options))

    def _normal_rule_options(self, given: Any) -> tuple[tuple[str, Any], ...]:
        """``given`` (pairs or a mapping) checked against the rule set's own options, sorted, values equal
        to the default left out (so equal rules compare equal)."""
        items = dict(given.items() if isinstance(given, Mapping) else given)
        if not items:
            return ()
        d = registry.find(self.name)
        out = []
        for k, v in items.items():
            o = d.option(k) if d is not None else None
            if o is None:
                known = ", ".join(x.name for x in d.options) if d is not None and d.options else "none"
                raise RuleSetError(f"rule set {self.name!r}: unknown rule option {k!r}; its own options: {known}")
            if o.check(v) != o.default:
                out.append((k, v))
        return tuple(sorted(out))

    # ---------------------------------------------------------------- presets and options
    @classmethod
    def preset(cls, name: str, **options: Any) -> RuleSet:
        """A named rule set (:data:`PRESET_NAMES`: every rule set the ``majiang.rulesets`` entry points
        declare, :mod:`majiang.rules.registry`; or an alias of :data:`PRESET_ALIASES` such as
        ``"wenzhou13"`` = ``"wenzhou"``), optionally with changed options (table fields or the rule
        set's own options).

        Raises :class:`RuleSetError` for an unknown preset or option.
        """
        d = registry.get(name)
        rs = cls(name=name, **dict(d.table))
        return rs.with_options(**options) if options else rs

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with some options changed: :class:`RuleSet` fields, or the rule set's own options
        (``RuleSetDef.options``, kept in :attr:`rule_options`). An unknown option raises
        :class:`RuleSetError` naming both kinds."""
        known = self.option_names()
        table = {k: v for k, v in options.items() if k in known}
        own = {k: v for k, v in options.items() if k not in known}
        if own:
            d = registry.find(self.name)
            for k in own:
                if d is None or d.option(k) is None:
                    mine = sorted(o.name for o in d.options) if d is not None else []
                    raise RuleSetError(f"unknown rule option {k!r}; known options: {', '.join(sorted(known))}"
                                       + (f"; options of {d.name}: {', '.join(mine)}" if mine else ""))
            merged = dict(self.rule_options)
            merged.update(own)
            table["rule_options"] = tuple(merged.items())
        return dataclasses.replace(self, **table)

    def rule_option(self, name: str) -> Any:
        """The value of the rule set's own option ``name`` (its default when not set). Raises
        :class:`RuleSetError` for an option the rule set does not declare."""
        for k, v in self.rule_options:
            if k == name:
                return v
        d = registry.find(self.name)
        o = d.option(name) if d is not None else None
        if o is None:
            raise RuleSetError(f"rule set {self.name!r} has no rule option {name!r}")
        return o.default

    @property
    def live_wild_copies(self) -> int:
        """Copies of the wildcard face in play (RULES.md §1.3, §4.2): 0 without wildcards, 3 when the
        turned-up indicator shows the wild face itself and leaves play (Wenzhou), else 4 (the next face
        is wild, the indicator stays in the wall, or a fixed wildcard). The scorers reject a hand holding
        more."""
        if self.wild_mode == "none":
            return 0
        if self.wild_mode == "indicator" and self.wild_indicator_out and not self.wild_next_face:
            return 3
        return 4

    @property
    def definition(self) -> Any:
        """The :class:`~majiang.rules.base.RuleSetDef` named by :attr:`name`, or ``None`` (a hand-made rule set)."""
        return registry.find(self.name)

    @staticmethod
    def option_names() -> frozenset[str]:
        """Names of every option (the dataclass fields but the private cache)."""
        return frozenset(f.name for f in dataclasses.fields(RuleSet)
                         if not f.name.startswith("_") and f.name != "rule_options")

    def to_options(self) -> dict[str, Any]:
        """Every option as a JSON-friendly dict (the record header keeps it). ``xianggong`` is written
        only when on, so the header of a record made before that option existed comes out the same."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if not f.name.startswith("_")
               and f.name != "rule_options" and not (f.name in _WRITTEN_WHEN_ON and not getattr(self, f.name))
               and not (f.name in _WRITTEN_WHEN_NOT_DEFAULT and getattr(self, f.name) == f.default)}
        if self.rule_options:  # the rule set's own options, written only when one differs from its default
            out["rule_options"] = dict(self.rule_options)
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_options`; unknown keys raise :class:`RuleSetError`."""
        known = cls.option_names() | {"rule_options"}
        for k in options:
            if k not in known:
                raise RuleSetError(f"unknown rule option {k!r} in options")
        opts = dict(options)
        if "rule_options" in opts:
            ro = opts["rule_options"]
            if not isinstance(ro, Mapping):
                raise RuleSetError(f"rule_options must be an object, got {ro!r}")
            opts["rule_options"] = tuple(ro.items())
        return cls(**opts)

    # ---------------------------------------------------------------- derived values
    @property
    def shape_rules(self) -> ShapeRules:
        """The :class:`~majiang.analysis.ShapeRules` named by :attr:`shapes`."""
        r = _shape(self.shapes)
        assert r is not None  # checked on construction
        return r

    @property
    def sets(self) -> int:
        """Sets in a complete hand: 4 for 13-tile games, 5 for 16-tile games (RULES.md §1.2)."""
        return (self.hand_size - 1) // 3

    @property
    def tile_set(self) -> tuple[int, ...]:
        """Every physical tile of the set, sorted: 4 of each face of :attr:`tiles` (0-33; all 34 by
        default), plus flowers 34-41 once (:class:`~majiang.rules.base.TileSet`)."""
        key = "tile_set"
        ts = self._cache.get(key)
        if ts is None:
            ts = self._cache[key] = self.tile_set_value.tiles
        return ts

    @property
    def tile_set_value(self) -> TileSet:
        """The :class:`~majiang.rules.base.TileSet` (groups, flowers, copies) of this rule set."""
        return TileSet(self.tiles, self.flowers)

    @property
    def decisions(self) -> tuple[Any, ...]:
        """The rule set's pre-play :class:`~majiang.rules.base.Decision` s in the order they are asked
        (``()`` for most; Sichuan 换三张 when its option is on, then 定缺). A definition may declare them
        as a function of the rule set (its options), checked here."""
        v = self._cache.get("decisions")
        if v is None:
            from majiang.rules.base import Decision

            d = self.definition
            decs = d.decisions if d is not None else ()
            if callable(decs):
                decs = decs(self)
                for dec in decs:
                    if not isinstance(dec, Decision):
                        raise RuleSetError(f"rule set {self.name!r}: decisions must be Decision values, got {dec!r}")
            v = self._cache["decisions"] = tuple(decs)
        return v

    @property
    def has_exchange(self) -> bool:
        """True if a pre-play decision is an :class:`~majiang.rules.base.Exchange` (换三张)."""
        from majiang.rules.base import Exchange

        return any(isinstance(d, Exchange) for d in self.decisions)

    @property
    def action_filter(self) -> Any:
        """The rule set's legal-action filter (:data:`~majiang.rules.base.ActionFilter`) or ``None``."""
        if "action_filter" not in self._cache:
            d = self.definition
            self._cache["action_filter"] = d.action_filter if d is not None else None
        return self._cache["action_filter"]

    def scorer_object(self) -> Scorer:
        """The :class:`Scorer` named by :attr:`scorer` (cached per rule set)."""
        s = self._cache.get("scorer")
        if s is None:
            f = registry.scorer_factory(self.scorer)
            logged = logged_value(self.scorer)
            if f is None and logged is not None:
                s = FixedScorer(logged, 0, self.scorer)
            else:
                s = f(self) if f is not None else _SCORERS[self.scorer]()
            self._cache["scorer"] = s
        return s

    def settlement_object(self) -> Settlement:
        """The :class:`Settlement` named by :attr:`settlement` (cached per rule set)."""
        s = self._cache.get("settlement")
        if s is None:
            f = registry.settlement_factory(self.settlement)
            s = f(self) if f is not None else _SETTLEMENTS[self.settlement]()
            self._cache["settlement"] = s
        return s


_WRITTEN_WHEN_ON = frozenset({"xianggong", "bao_pai"})
"""Options left out of :meth:`RuleSet.to_options` while off (added after records were being kept)."""
_WRITTEN_WHEN_NOT_DEFAULT = frozenset({"tiles", "win_limit"})
"""Options left out of :meth:`RuleSet.to_options` at their default (issue 30 hooks)."""

def __getattr__(name: str) -> Any:
    """``PRESET_NAMES`` (the names of every rule set found, :func:`majiang.rules.registry.names`) and
    ``PRESET_ALIASES`` (alias → name), computed when first read so that importing the engine loads no
    rule-set package."""
    if name == "PRESET_NAMES":
        return registry.names()
    if name == "PRESET_ALIASES":
        return registry.aliases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
