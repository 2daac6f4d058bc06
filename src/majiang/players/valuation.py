"""Hand valuation for the ``strong`` bot: what a win is worth under the rule set, and how far a hand is
from a win the rule set accepts.

Two tools, both pure functions of one seat's view (no hidden tile):

* :class:`WinValuer` -- the exact value of a ready hand: for each wait, the rule set's own scorer
  (``RuleSet.scorer_object()``: MCR fan, Taiwan 台, Wenzhou multiplier) and settlement
  (``RuleSet.settlement_object()``) turn the hypothetical win into this seat's score change, for a
  self-draw and for a win on a discard. A wait the scorer values below ``RuleSet.min_score`` (an MCR
  hand under 8 fan, RULES.md §6) is worth nothing: the table would not offer that win.
* :func:`mcr_plans` -- MCR fan potential of a hand that is not ready yet: for a few scoring patterns
  that reach the 8-fan minimum on their own or nearly (清一色 Full Flush 24, 混一色 Half Flush 6,
  七对 Seven Pairs 24, 碰碰和 All Pungs 6, 清龙 Pure Straight 16, 花龙 Mixed Straight 8, 三色三同顺
  Mixed Triple Chow 8; fan values from RULES.md §6 / ``majiang.rules.mcr.fans``), a distance in
  tiles and the pattern's fan. The bot prefers discards that keep a short path to 8 fan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from majiang.analysis import ShapeRules, is_winning, waits
from majiang.analysis.wildcards import split_counts
from majiang.engine.match import PlayerView
from majiang.engine.ruleset import RuleSet
from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.base import ScoreResult, WinContext, WinSettle
from majiang.rules.registry import bot_tuning
from majiang.tiles import NUM_KINDS, WHITE, WILD, from_counts


@dataclass(frozen=True, slots=True)
class WaitValue:
    """One wait of a ready hand: ``tile`` (a face), ``live`` copies this seat cannot see, the scorer's
    value (``None``: no win the table would offer) and this seat's score change for a self-draw and
    for a discard win (``0.0`` where no such win)."""

    tile: int
    live: int
    value_self: int | None
    value_discard: int | None
    gain_self: float
    gain_discard: float


class WinValuer:
    """Values hypothetical wins of one seat with the rule set's scorer and settlement (see module doc).

    Args:
        rules: the rule set (its scorer, settlement, shapes and ``min_score``).
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.scorer = rules.scorer_object()
        self.settlement = rules.settlement_object()
        self.shapes: ShapeRules = rules.shape_rules
        self._cache: dict[tuple, tuple[int | None, float]] = {}

    def _white_face(self, view: PlayerView) -> int | None:
        wf = view.wild_face
        return wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None

    def physical(self, view: PlayerView, face: int) -> int | None:
        """The physical tile that plays ``face`` (a White where it stands in for the wildcard's face),
        or ``None`` when no physical tile plays it (White itself while Whites stand in)."""
        wf = self._white_face(view)
        if wf is not None:
            if face == wf:
                return WHITE
            if face == WHITE:
                return None
        return face

    def win(self, view: PlayerView, counts13: Sequence[int], tile: int, *, self_drawn: bool,
            discarder: int | None, melds: Sequence[Meld] | None = None) -> tuple[int | None, float]:
        """``(scorer value or None, this seat's score change)`` if this seat, holding the physical
        concealed ``counts13`` (3k+1) and ``melds`` (default: its declared melds), won on physical
        ``tile``. ``None`` / ``0.0`` when the shape does not win or the value is under the minimum."""
        seat = view.seat
        ms = tuple(view.melds[seat]) if melds is None else tuple(melds)
        key = (tuple(counts13), ms, tile, self_drawn, discarder, seat, view.dealer, view.dealer_streak,
               view.prevalent_wind, len(view.flowers[seat]), view.wild_face)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        c = list(counts13)
        c[tile] += 1
        if c[tile] > 4:  # a fifth copy: no such win
            return (None, 0.0)
        nat, wilds = split_counts(c, view.wild_face, self.rules.white_stand_in)
        out: tuple[int | None, float] = (None, 0.0)
        if is_winning(nat, wilds, self.shapes):
            if view.wild_face is not None and tile == view.wild_face:
                win_t = WILD
                wilds -= 1
            else:
                wf = self._white_face(view)
                face = wf if (wf is not None and tile == WHITE) else tile
                win_t = face
                nat[face] -= 1
            hand = Hand(tuple(from_counts(nat)), ms, win_t, tuple(view.flowers[seat]), wilds)
            vis = view.visible_counts()
            seen = max(0, vis[tile] + counts13[tile] + sum(m.physical.count(tile) for m in ms
                                                          if m.kind is MeldKind.CONCEALED_KONG))
            ctx = WinContext(hand=hand, seat=seat, dealer=view.dealer, seat_wind=view.seat_wind,
                             prevalent_wind=view.prevalent_wind, self_drawn=self_drawn, discarder=discarder,
                             win_tile_seen=min(seen, 3), wild_face=view.wild_face,
                             dealer_streak=view.dealer_streak)
            try:
                res: ScoreResult = self.scorer.score(ctx)
            except (ValueError, KeyError, IndexError):  # a hand the scorer cannot read: no value
                res = ScoreResult(-1)
            if res.value >= self.rules.min_score:
                try:
                    d = self.settlement.settle(WinSettle(seat, discarder, res, ctx), 4)
                    gain = float(d[seat])
                except (ValueError, KeyError, IndexError, AttributeError, TypeError):
                    gain = float(max(res.total, 1))
                out = (res.value, gain)
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[key] = out
        return out

    def wait_values(self, view: PlayerView, counts13: Sequence[int], visible: Sequence[int],
                    melds: Sequence[Meld] | None = None) -> list[WaitValue]:
        """Every wait of the ready 3k+1 hand ``counts13`` (physical counts) with its live copies and
        value; empty if the hand is not ready. ``visible``: :meth:`PlayerView.visible_counts`."""
        c = list(counts13)
        nat, wilds = split_counts(list(c), view.wild_face, self.rules.white_stand_in)
        try:
            w = waits(nat, wilds, self.shapes)
        except ValueError:
            return []
        out = []
        # a discard win: the discarder's seat changes the settlement only through the dealer; take the
        # next seat that is not the dealer (or the dealer if all are).
        opp = next((s for s in ((view.seat + i) % 4 for i in (1, 2, 3)) if s != view.dealer), (view.seat + 1) % 4)
        for face in w.formal:
            p = self.physical(view, face)
            if p is None or c[p] >= 4:
                continue
            live = max(0, 4 - c[p] - visible[p])
            vs, gs = self.win(view, c, p, self_drawn=True, discarder=None, melds=melds)
            vd, gd = self.win(view, c, p, self_drawn=False, discarder=opp, melds=melds)
            out.append(WaitValue(face, live, vs, vd, gs, gd))
        return out


# ---------------------------------------------------------------------------------------- MCR plans
_SUITS = (range(0, 9), range(9, 18), range(18, 27))


def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def mcr_plans(counts: Sequence[int], melds: Sequence[Meld], shanten_now: int, sets: int = 4) -> list[tuple[str, int, int]]:
    """MCR scoring patterns still open to a hand, as ``(pattern, distance, fan)``.

    ``counts``: the concealed natural counts (3k+1 or 3k+2 tiles); ``melds``: declared melds;
    ``shanten_now``: the hand's shanten. The distance is a lower-bound style estimate in tiles to
    change (at least ``shanten_now``): e.g. 混一色 in a suit needs every tile of the other two suits
    replaced, so its distance is ``max(shanten, tiles of other suits)``. A pattern a declared meld
    rules out is left out. ``sets``: sets of a complete hand (4; 5 for 16-tile hands). Fan values: 清一色 Full Flush 24, 七对 Seven Pairs 24, 清龙 Pure Straight
    16, 花龙 Mixed Straight 8, 三色三同顺 Mixed Triple Chow 8, 混一色 Half Flush 6, 碰碰和 All Pungs 6
    (RULES.md §6; the MCR fan table in ``majiang.rules.mcr.fans``).
    """
    s = shanten_now
    out: list[tuple[str, int, int]] = []
    per_suit = [sum(counts[t] for t in r) for r in _SUITS]
    honors = sum(counts[27:34])
    meld_suits = [_suit(m.tile) for m in melds]
    total = sum(per_suit) + honors
    for x in range(3):
        if all(ms == x for ms in meld_suits):
            out.append(("full-flush", max(s, total - per_suit[x]), 24))
        if all(ms in (x, 3) for ms in meld_suits):
            out.append(("half-flush", max(s, total - per_suit[x] - honors), 6))
    if not melds:
        pairs = sum(1 for c in counts if c >= 2) + sum(1 for c in counts if c == 4)
        out.append(("seven-pairs", max(s, 6 - min(pairs, 7)), 24))
    if not any(m.kind is MeldKind.CHOW for m in melds):
        need_sets = sets - len(melds)
        trips = sum(1 for c in counts if c >= 3)
        pairs = sum(1 for c in counts if c == 2)
        t = min(trips, need_sets)
        r = need_sets - t
        use_pairs = min(pairs, r)
        tiles = use_pairs + 2 * (r - use_pairs)
        tiles += 0 if pairs > use_pairs else 1  # the eyes
        out.append(("all-pungs", max(s, tiles - 1), 6))
    chow_starts = {m.tile for m in melds if m.kind is MeldKind.CHOW}
    free = sets - len(melds)
    # straights / triple chows over the concealed tiles plus chow melds
    def missing(seqs: Sequence[int]) -> int | None:
        miss = 0
        used = 0
        for lo in seqs:
            if lo in chow_starts:
                continue
            used += 1
            miss += sum(1 for k in range(3) if counts[lo + k] == 0)
        return miss if used <= free else None

    for x in range(3):
        b = 9 * x
        m = missing((b, b + 3, b + 6))
        if m is not None:
            out.append(("pure-straight", max(s, m), 16))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        m = missing((9 * perm[0], 9 * perm[1] + 3, 9 * perm[2] + 6))
        if m is not None:
            out.append(("mixed-straight", max(s, m), 8))
    for n in range(7):
        m = missing((n, 9 + n, 18 + n))
        if m is not None:
            out.append(("mixed-triple-chow", max(s, m), 8))
    return out


# ------------------------------------------------------------------- typical wins
SELF_DRAW_SHARE = 0.2
"""Share of wins that are self-drawn (``benchmarks/bench_strong.py``: Taiwan 19%, Wenzhou 27%)."""
TAIWAN_EXTRA_TAI = 1
"""台 a Taiwan win earns besides 門清/自摸/不求, the dealer and its pattern (flowers, winds, dragons, 獨聽)."""


def __getattr__(name: str) -> Any:
    """The pattern tables' old names here (they are the rule sets' own now, each in its ``bots`` module
    and its :class:`~majiang.rules.base.BotTuning`'s ``pattern_values``)."""
    if name == "TAIWAN_PATTERN_TAI":
        from majiang.rules.taiwan.bots import PATTERN_TAI

        return PATTERN_TAI
    if name == "W13_PATTERN_FACTOR":
        from majiang.rules.wenzhou.bots import PATTERN_FACTOR

        return PATTERN_FACTOR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def typical_win(rules: RuleSet, dealer: bool, concealed: bool = True, pattern: str | None = None,
                dealer_streak: int = 0, self_draw_share: float = SELF_DRAW_SHARE,
                extra_tai: int = TAIWAN_EXTRA_TAI) -> float:
    """Score change of a typical win of a hand not yet ready, in the rule set's points, mixing
    self-draws (:data:`SELF_DRAW_SHARE`) and discard wins: the rule set's own model
    (:attr:`BotTuning.typical_value <majiang.rules.base.BotTuning>`, e.g. Taiwan's 底 + 台 settlement
    with the pattern's 台 and ``extra_tai`` more, Wenzhou W13's base × multiplier), 10 where it has
    none. ``concealed``: no claimed meld (Taiwan's 門清 and 不求); ``pattern``: a key of the rule set's
    ``pattern_values``. Raises :class:`ValueError` for a ``self_draw_share`` outside [0, 1].
    """
    if not 0.0 <= self_draw_share <= 1.0:
        raise ValueError(f"self_draw_share must be in [0, 1], got {self_draw_share!r}")
    model = bot_tuning(rules.scorer).typical_value
    if model is None:
        return 10.0
    return model(rules, dealer, concealed, pattern, dealer_streak, extra_tai, self_draw_share)


def counts_of(tiles: Sequence[int]) -> list[int]:
    """34-vector of counts (flowers ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c
