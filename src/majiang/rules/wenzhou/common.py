"""The interface shared by the wildcard rule sets (Wenzhou W13/W16, seed-000 百搭, Shandong).

Every package (:mod:`majiang.rules.wenzhou`, :mod:`majiang.rules.seed000`,
:mod:`majiang.rules.shandong`) exposes the same two pure functions::

    score(hand: Hand, ctx: WinContext, options=None) -> WildResult
    settle(result: WildResult, ctx: WinContext | None = None) -> Ledger

* ``hand`` is a :class:`~majiang.hand.Hand` in the engine's convention: ``concealed`` holds the
  natural tiles *without* the winning tile, ``wilds`` counts the wildcards among them (their faces
  removed), ``win_tile`` is the winning tile (:data:`~majiang.tiles.WILD` for a drawn wildcard),
  and a 白板 standing in for the wildcard's face is already written as that face (RULES.md §1.3).
  :func:`natural_hand` converts a hand written with physical faces.
* ``ctx`` is a :class:`WinContext`: the facts of the table (who won, dealer, self-draw, kong
  replacement, first turn, dealer streak, chows fed for 统包, 财神 counts, kongs ...).
  :meth:`WinContext.from_engine` builds it from :class:`majiang.engine.ruleset.WinContext`.
* :class:`WildResult` carries ``value`` (``multiplier`` for Wenzhou, ``points`` for seed 000 and
  Shandong), ``patterns`` — a tuple of :class:`Pattern` ``(id, name_zh, name_en, value)`` — the
  chosen ``shape`` and decomposition, and the context and options it was scored with, so
  ``settle(result)`` needs no second context.
* ``settle`` returns a zero-sum :class:`~majiang.rules.settlement.Ledger`.

This module is shared code living in the Wenzhou package for now (the brief keeps this work to three
packages); it belongs in a ``majiang.rules`` common module later.

Errors: :class:`WildRulesError` (base, a :class:`~majiang.errors.MajiangError`),
:class:`NotWinningError`, :class:`ContextError`, :class:`OptionsError`, :class:`WildChoiceError`,
:class:`WildCountError`, :class:`ActionError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from majiang.analysis import Decomposition
from majiang.analysis.decompose import FREE_PAIR, FREE_SET
from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.tiles import NUM_KINDS, WHITE, WILD, format_compact


class WildRulesError(MajiangError):
    """Base of the errors of the wildcard rule sets."""


class NotWinningError(WildRulesError):
    """The hand is not a complete hand under the rule set (no winning shape, no outright win)."""


class ContextError(WildRulesError):
    """Win facts that contradict each other or the hand (e.g. a self-draw with a discarder)."""


class OptionsError(WildRulesError):
    """A rule option with an unknown or out-of-range value."""


class WildChoiceError(WildRulesError):
    """The wildcard face cannot be chosen from this wall and dice total."""


class WildCountError(WildRulesError):
    """More wildcards than the rule set has live copies (e.g. four 财神 in Wenzhou, RULES.md §4.3)."""


class ActionError(WildRulesError):
    """An action the rule set forbids (e.g. discarding a 财神 when no penalty rule allows it)."""


class Pattern(NamedTuple):
    """One counted pattern: ``(id, name_zh, name_en, value)``.

    ``id`` includes the rule set (``wz13.qingyise``, ``seed000.da_sanyuan``; RULES.md §7);
    ``value`` is the pattern's multiplier or points, ``None`` when the rule set gives none (seed 000).
    """

    id: str
    name_zh: str
    name_en: str
    value: int | None


@dataclass(frozen=True, slots=True)
class WinContext:
    """The facts of one win (table facts, no variant logic). Seats are 0-3 in turn order.

    Attributes:
        seat: the winner.
        dealer: the dealer (庄家).
        self_drawn: the winner drew the winning tile (自摸, also 杠上开花 and 海底捞).
        discarder: whose discard was won on, or whose added kong was robbed; ``None`` if self-drawn.
        kong_replacement: won on the replacement tile after a kong (杠上开花 / 杠开).
        robbing_kong: won on the tile another player added to a pung (抢杠); ``discarder`` = robbed.
        last_tile: won with the wall's last tile (Shandong 海底捞).
        first_turn: won on the winner's first turn with no claim made before: the dealer on his
            initial 14 tiles (天胡) or a non-dealer on his first draw (地胡).
        wild_face: the wildcard's face this hand (0-33), ``None`` without wildcards.
        dealer_streak: hands the dealer has already kept in a row before this one (0 = his first
            hand as dealer); W13 base 3/5/7/9 and W16 dealer factor are read from it.
        players: number of players (4).
        chow_feeds: one ``(feeder, eater)`` entry per chow claimed this hand (W13 统包).
        wild_counts: 财神 held by each seat at the end of the hand (W16 财神钱), or ``None``.
        kongs: ``(seat, kind)`` per kong declared this hand, kind ``"exposed"``, ``"concealed"`` or
            ``"added"`` (W16 kong money).
        bonus_tiles: flowers and other bonus tiles set aside by the winner (Shandong; reported only).

    Raises:
        ContextError: a seat outside 0..players-1, a self-draw with a discarder, a discard win
            without one, the winner as discarder, robbing a kong on a self-draw, a kong replacement
            win that is not self-drawn, a negative streak, a bad kong kind or wild count list.
    """

    seat: int = 0
    dealer: int = 0
    self_drawn: bool = True
    discarder: int | None = None
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    wild_face: int | None = None
    dealer_streak: int = 0
    players: int = 4
    chow_feeds: tuple[tuple[int, int], ...] = ()
    wild_counts: tuple[int, ...] | None = None
    kongs: tuple[tuple[int, str], ...] = ()
    bonus_tiles: int = 0

    def __post_init__(self) -> None:
        if self.players != 4:
            raise ContextError(f"these rule sets are for 4 players, got {self.players}")
        for name in ("seat", "dealer"):
            _seat(getattr(self, name), name)
        if self.self_drawn:
            if self.discarder is not None:
                raise ContextError("a self-drawn win has no discarder")
            if self.robbing_kong:
                raise ContextError("robbing a kong (抢杠) is a win on another player's tile, not a self-draw")
        else:
            if self.discarder is None:
                raise ContextError("a win on a discard (or a robbed kong) needs the discarder's seat")
            _seat(self.discarder, "discarder")
            if self.discarder == self.seat:
                raise ContextError("the winner cannot win on his own discard")
            if self.kong_replacement:
                raise ContextError("a kong replacement win (杠上开花) is self-drawn")
        if self.wild_face is not None and not (isinstance(self.wild_face, int) and 0 <= self.wild_face < NUM_KINDS):
            raise ContextError(f"wild_face must be a tile kind 0-33, got {self.wild_face!r}")
        if not isinstance(self.dealer_streak, int) or self.dealer_streak < 0:
            raise ContextError(f"dealer_streak must be an int >= 0, got {self.dealer_streak!r}")
        object.__setattr__(self, "chow_feeds", tuple(tuple(p) for p in self.chow_feeds))
        for feeder, eater in self.chow_feeds:
            _seat(feeder, "chow feeder")
            _seat(eater, "chow eater")
            if eater != (feeder + 1) % self.players:
                raise ContextError(f"only the next player chows: seat {eater} cannot chow from seat {feeder}")
        if self.wild_counts is not None:
            wc = tuple(self.wild_counts)
            if len(wc) != self.players or any(not isinstance(n, int) or n < 0 for n in wc):
                raise ContextError(f"wild_counts needs one count >= 0 per seat, got {self.wild_counts!r}")
            object.__setattr__(self, "wild_counts", wc)
        object.__setattr__(self, "kongs", tuple(tuple(k) for k in self.kongs))
        for s, kind in self.kongs:
            _seat(s, "kong owner")
            if kind not in ("exposed", "concealed", "added"):
                raise ContextError(f"kong kind must be exposed, concealed or added, got {kind!r}")
        if not isinstance(self.bonus_tiles, int) or self.bonus_tiles < 0:
            raise ContextError(f"bonus_tiles must be >= 0, got {self.bonus_tiles!r}")

    @property
    def heavenly(self) -> bool:
        """天胡: the dealer complete on his initial hand."""
        return self.first_turn and self.self_drawn and self.seat == self.dealer

    @property
    def earthly(self) -> bool:
        """地胡: a non-dealer complete with his first draw."""
        return self.first_turn and self.self_drawn and self.seat != self.dealer

    @classmethod
    def from_engine(cls, ctx: Any, **extra: Any) -> WinContext:
        """Build from :class:`majiang.engine.ruleset.WinContext` (duck-typed: ``seat``, ``dealer``,
        ``self_drawn``, ``discarder``, ``kong_replacement``, ``robbing_kong``, ``last_tile``,
        ``first_turn``, ``wild_face``, ``dealer_streak``); settlement facts the engine context lacks
        (``chow_feeds``, ``wild_counts``, ``kongs``, ``bonus_tiles``) come as keywords."""
        fields = dict(seat=ctx.seat, dealer=ctx.dealer, self_drawn=ctx.self_drawn, discarder=ctx.discarder,
                      kong_replacement=ctx.kong_replacement, robbing_kong=ctx.robbing_kong,
                      last_tile=ctx.last_tile, first_turn=ctx.first_turn, wild_face=ctx.wild_face,
                      dealer_streak=ctx.dealer_streak)
        fields.update(extra)
        return cls(**fields)


def _seat(s: Any, what: str) -> None:
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3:
        raise ContextError(f"{what} must be a seat 0-3, got {s!r}")


@dataclass(frozen=True, slots=True)
class WildResult:
    """The score of one win in a wildcard rule set.

    Attributes:
        ruleset: ``"wz13"``, ``"wz16"``, ``"seed000"`` or ``"shandong"``.
        value: what the settlement multiplies or pays: the multiplier (Wenzhou) or the points
            (seed 000, Shandong).
        unit: ``"multiplier"`` or ``"points"``.
        patterns: the counted :class:`Pattern` values, in table order.
        shape: the winning reading: ``standard``, ``seven-pairs``, ``thirteen-orphans``, ``buda``,
            ``eight-pairs``, ``three-wilds`` (an outright win on three 财神/百搭, no shape needed).
        decomposition: the chosen decomposition of the concealed part (``None`` for ``buda`` and an
            outright wildcard win).
        ctx: the :class:`WinContext` scored.
        options: the rule options used.
    """

    ruleset: str
    value: int
    unit: str
    patterns: tuple[Pattern, ...]
    shape: str
    decomposition: Decomposition | None
    ctx: WinContext
    options: Any = field(default=None, compare=False)

    @property
    def multiplier(self) -> int:
        """``value`` (meaningful for Wenzhou)."""
        return self.value

    @property
    def points(self) -> int:
        """``value`` (meaningful for seed 000 and Shandong)."""
        return self.value

    @property
    def pattern_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.patterns)

    def as_score_triples(self) -> tuple[tuple[str, int, int], ...]:
        """``(id, value, 1)`` triples, the shape of the engine's ``ScoreResult.patterns``."""
        return tuple((p.id, p.value or 0, 1) for p in self.patterns)

    def __str__(self) -> str:
        pats = ", ".join(f"{p.name_zh} {p.value}" if p.value is not None else p.name_zh for p in self.patterns)
        return f"{self.ruleset} {self.shape}: {pats} -> {self.unit} {self.value}"


# ------------------------------------------------------------------------------------ hand helpers
def natural_hand(hand: Hand, wild_face: int, *, white_stands_in: bool = True) -> Hand:
    """Convert a hand written with *physical* faces to the engine convention (RULES.md §1.3).

    Copies of ``wild_face`` in the concealed part (and a ``win_tile`` of that face) become wildcards;
    with ``white_stands_in`` each 白板 plays the wildcard's face (unless White is itself the wildcard),
    in the concealed part, as the winning tile and in declared pungs/kongs. A chow holding a 白板 is
    written ``[chi 5z23m]`` (:meth:`~majiang.hand.Meld.notation`; ``Hand.parse(..., wild=face)``
    reads it as the chow 123m with ``stand_in`` = the face) and passes unchanged. Raises
    :class:`ContextError` for a declared meld that contains the wildcard face other than through a
    standing-in 白板 (a 财神 is never used in a call, RULES.md §4.2), a 白板 standing in for
    another face, and a bad face.
    """
    if not (isinstance(wild_face, int) and 0 <= wild_face < NUM_KINDS):
        raise ContextError(f"wild_face must be a tile kind 0-33, got {wild_face!r}")
    stand = white_stands_in and wild_face != WHITE

    def nat(t: int) -> int:
        return wild_face if (stand and t == WHITE) else t

    conc = []
    wilds = hand.wilds
    for t in hand.concealed:
        if t == wild_face:
            wilds += 1
        else:
            conc.append(nat(t))
    melds = []
    for m in hand.melds:
        if m.stand_in is not None and (m.stand_in != wild_face or not stand):
            raise ContextError(f"declared meld {m.notation()}: its 白板 plays {format_compact([m.stand_in])}, but "
                               + ("白板 stands in for no face here" if not stand else
                                  f"the wildcard's face is {format_compact([wild_face])}"))
        if wild_face in m.tiles and m.stand_in != wild_face:
            hint = (f"; a 白板 playing that face is written 5z: [chi 5z"
                    f"{format_compact([t for t in m.tiles if t != wild_face])}]"
                    if stand and m.kind is MeldKind.CHOW else "")
            raise ContextError(f"declared meld {m} uses the wildcard face {format_compact([wild_face])}: "
                               f"a wildcard is never used in a call{hint}")
        if stand and WHITE in m.tiles:  # a pung or kong of 白板 (a chow is written with the faces played)
            m = Meld(m.kind, wild_face, m.offer, None if m.claimed is None else wild_face)
        melds.append(m)
    wt = hand.win_tile
    if wt is not None and wt != WILD:
        wt = WILD if wt == wild_face else nat(wt)
    if wt == WILD:
        return Hand(tuple(conc), tuple(melds), WILD, hand.flowers, wilds)
    return Hand(tuple(conc), tuple(melds), wt, hand.flowers, wilds)


def validate_wild_hand(hand: Hand, ctx: WinContext, sets: int, live_wild_copies: int) -> None:
    """Checks every 财神 rule set makes of a winning hand (RULES.md §4.2): a winning tile, the size
    (``sets`` = 4 or 5), at most ``live_wild_copies`` 财神, no win on another player's 财神, a kong
    before a kong-replacement win. Raises :class:`ContextError` / :class:`WildCountError`."""
    if hand.win_tile is None:
        raise ContextError("the hand has no winning tile (win_tile=None)")
    hand.check(sets)
    if hand.total_wilds > live_wild_copies:
        raise WildCountError(f"{hand.total_wilds} 财神 in one hand: only {live_wild_copies} copies are in play")
    if hand.win_tile == WILD and not ctx.self_drawn:
        raise ContextError("a 财神 is never discarded or added to a kong, so no win is made on another "
                           "player's 财神 (RULES.md §4.2)")
    if ctx.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise ContextError("a kong replacement win (杠上开花) needs a declared kong in the winner's hand")


def winning_counts(hand: Hand) -> tuple[list[int], int]:
    """``(counts34, wilds)`` of the concealed part with the winning tile (a drawn wildcard counted)."""
    if hand.win_tile is None:
        raise ContextError("the hand has no winning tile (win_tile=None)")
    return hand.full_counts(), hand.total_wilds


def meld_tiles(hand: Hand) -> list[int]:
    """Every tile of the declared melds."""
    return [t for m in hand.melds for t in m.tiles]


def fixed_logical_tiles(d: Decomposition | None, hand: Hand) -> list[int]:
    """Logical tiles of the fixed groups of ``d`` plus the declared melds (free wildcard groups,
    whose identity the scorer may choose, are left out). With ``d=None`` the natural tiles."""
    if d is None:
        return meld_tiles(hand) + [t for t, n in enumerate(hand.full_counts()) for _ in range(n)]
    return meld_tiles(hand) + [t for g in d.groups if g.kind not in (FREE_SET, FREE_PAIR) for t in g.tiles]


def free_groups(d: Decomposition | None) -> tuple[int, int]:
    """``(free sets, free pairs)`` of ``d``: groups of wildcards only."""
    if d is None:
        return 0, 0
    return (sum(1 for g in d.groups if g.kind == FREE_SET), sum(1 for g in d.groups if g.kind == FREE_PAIR))


def wilds_returned(d: Decomposition, wild_face: int | None) -> bool:
    """True if every wildcard of ``d`` plays its own face (归位) or there is none (RULES.md §1.3,
    §4.5). Free wildcard groups may always be read as the face (a pung or pair of the 财神 face)."""
    if not d.wild_as:
        return True
    return wild_face is not None and all(t == wild_face for t in d.wild_as)


# ------------------------------------------------------------------------------ choosing the wild
NEXT_FACE_NOTE = ("suits cycle 1-9 then 1 within the suit; winds E S W N E; dragons 白 发 中 白")


def next_face(t: int) -> int:
    """The face after ``t`` for the "next face" indicator reading (C5; RULES.md §4.2):
    suits 9 → 1 within the suit, winds E → S → W → N → E, dragons 白 → 发 → 中 → 白."""
    if not 0 <= t < NUM_KINDS:
        raise WildChoiceError(f"{t!r} is not a tile kind that can indicate a wildcard")
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    if t < 31:
        return 27 + (t - 27 + 1) % 4
    return 31 + (t - 31 + 1) % 3


@dataclass(frozen=True, slots=True)
class WildChoice:
    """The outcome of choosing the wildcard: ``face`` (0-33), the indicator tile and its wall index."""

    face: int
    indicator: int
    index: int


def choose_wild_face(wall: Sequence[int], dice_total: int, *, next_face_mode: bool = False) -> WildChoice:
    """Choose the wildcard from the wall after the deal (RULES.md §4.2, SD3; seed 000 follows
    Wenzhou, SD0 "百搭规则参考温州麻将").

    ``wall``: the live wall, ``wall[0]`` the next tile to draw, ``wall[-1]`` the tail (海底).
    ``dice_total``: the dealer's roll, 1..len(wall). The ``dice_total``-th tile counted from the tail
    (``wall[-dice_total]``) is turned up; its face is the wildcard, or the next face with
    ``next_face_mode`` (C5 reading, :func:`next_face`). Whether the indicator stays out of play
    (Wenzhou: 3 live copies) or is drawn later (seed 000: 4 live copies) is the engine's business.

    Raises :class:`WildChoiceError` for a roll outside the wall or a flower as the indicator.
    """
    if not isinstance(dice_total, int) or isinstance(dice_total, bool) or not 1 <= dice_total <= len(wall):
        raise WildChoiceError(f"dice total {dice_total!r} does not point into a wall of {len(wall)} tiles")
    index = len(wall) - dice_total
    ind = wall[index]
    if not (isinstance(ind, int) and 0 <= ind < NUM_KINDS):
        raise WildChoiceError(f"the indicator at wall index {index} is {ind!r}, not one of the 34 tile kinds "
                              "(a flower cannot choose a wildcard)")
    return WildChoice(next_face(ind) if next_face_mode else ind, ind, index)
