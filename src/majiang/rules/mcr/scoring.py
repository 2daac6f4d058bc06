"""MCR scoring: :func:`score` a winning hand, :func:`settle` the payments.

Procedure (RULES.md §6 and §8 "Suggested shape"; seed ``004_*`` for the fans):

1. validate the hand (:meth:`majiang.hand.Hand.check`, four sets) and the conditions;
2. enumerate every decomposition of the concealed part plus the winning tile
   (:func:`majiang.analysis.decompositions` with :data:`~majiang.analysis.MCR_SHAPES`), and add the
   declared melds to each: one *arrangement* per decomposition;
3. per arrangement run the detectors of :mod:`majiang.rules.mcr.fans` and keep the fans
   :func:`~majiang.rules.mcr.fans.select` counts (exclusions and account-once);
4. keep the arrangement with the highest total (the *highest-value* principle 就高不就低; on a tie
   the first in the order of ``_tie_key``, chosen to match PyMahjongGB 1.4.0), with 无番和 when
   nothing counts and 花牌 per flower.

A pung completed by a discarded winning tile (or a robbed kong tile) is a melded pung for the
concealed-pung fans, unless the winning tile can sit in another group of the same arrangement
(case 347: 777m + 789m on a discarded 7m keeps 777m concealed). The wait fans 边张 / 嵌张 / 单钓将
need a unique wait (独听, trap MCR-01: a hand waiting on two tiles scores none of them); which of
them is then read from where the winning tile sits in the arrangement.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.analysis import MCR_SHAPES, STANDARD, decompositions, is_winning, waits
from majiang.analysis.shapes import KNITTED_ARRANGEMENTS
from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.mcr import fans as F
from majiang.rules.mcr.conditions import McrConditionError, McrOptions, WinConditions
from majiang.rules.mcr.fans import CHOW, KNIT, PAIR, PUNG, SINGLE, Context, Fan, Unit
from majiang.rules.mcr.notation import parse_hand_string
from majiang.tiles import WILD, format_compact

__all__ = ["FanCount", "McrNotWinningError", "McrResult", "McrScoringError", "parse_hand_string", "score",
           "score_arrangements", "settle"]


class McrNotWinningError(MajiangError):
    """The hand is not a complete MCR hand (no decomposition into a winning shape)."""


class McrScoringError(MajiangError):
    """A scoring request that cannot be honoured (e.g. settling a hand under the 8-fan minimum)."""


@dataclass(frozen=True, slots=True)
class FanCount:
    """A counted fan and how many times it counts (e.g. 幺九刻 ×3). ``points`` = fan points × count."""

    fan: Fan
    count: int

    @property
    def points(self) -> int:
        return self.fan.points * self.count

    def __str__(self) -> str:
        times = f"×{self.count}" if self.count > 1 else ""
        return f"{self.fan.name_en} ({self.fan.name_zh}){times} {self.points}"


@dataclass(frozen=True, slots=True)
class McrResult:
    """The score of a winning hand.

    Attributes:
        fans: counted fans, most valuable first (花牌 last).
        total: all points, flowers included.
        flowers: the flower fans included in ``total``.
        shape: the shape of the chosen arrangement (``standard``, ``seven-pairs``, …).
        arrangement: its units (declared melds first).
        options: the options used (the settlement's base payment, the minimum).
        conditions: the win conditions scored (lets :func:`settle` check self-draw vs discarder).
    """

    fans: tuple[FanCount, ...]
    total: int
    flowers: int
    shape: str
    arrangement: tuple[Unit, ...]
    options: McrOptions
    conditions: WinConditions | None = None

    @property
    def fan_total(self) -> int:
        """Points without flowers (the figure the 8-fan minimum is checked on, RULES.md §6)."""
        return self.total - self.flowers

    @property
    def is_valid_win(self) -> bool:
        """At least ``options.minimum_fan`` (8) points not counting flowers (RULES.md §6, §9.6)."""
        return self.fan_total >= self.options.minimum_fan

    def counts_zh(self) -> dict[str, int]:
        """``{Chinese name: count}``, the shape of PyMahjongGB's output and of the cases file."""
        return {fc.fan.name_zh: fc.count for fc in self.fans}

    def __str__(self) -> str:
        return ", ".join(str(fc) for fc in self.fans) + f" = {self.total}"


def _meld_unit(m: Meld) -> Unit:
    if m.kind is MeldKind.CHOW:
        return Unit(CHOW, m.tiles, declared=True, concealed=False)
    if m.kind is MeldKind.PUNG:
        return Unit(PUNG, m.tiles, declared=True, concealed=False)
    if m.kind is MeldKind.CONCEALED_KONG:
        return Unit(PUNG, m.tiles, declared=True, concealed=True, kong="concealed")
    return Unit(PUNG, m.tiles, declared=True, concealed=False, kong="melded")


_GROUP_KIND = {"chow": CHOW, "pung": PUNG, "pair": PAIR, "single": SINGLE}
_NINE_GATES = [3, 1, 1, 1, 1, 1, 1, 1, 3]


_SHAPE_ORDER = {"standard": 0, "knitted-straight": 1, "seven-pairs": 2, "honors-and-knitted": 3,
                "thirteen-orphans": 4}
_SET_ORDER = {"pung": 0, "chow": 1}


def _tie_key(d) -> tuple:
    """Order of arrangements with equal totals (the first is kept).

    Standard shape first; then the arrangement with more chows (so 一色三同顺 is preferred to an
    equal-valued 一色三节高 reading of the same tiles); then by the sets (pairs aside) sorted by
    lowest tile, a pung before a chow at the same tile. This reproduces PyMahjongGB 1.4.0's choice
    on all 88 ties with different fans found in 160,000 random hands. In 750,000 further random
    hands it missed twice, both times only in naming the wait fan of equal-valued arrangements
    (``[789s,3][678s,2]6678899s7s``: PyMahjongGB 66+789+789 with 边张, we 678+678+99 with 嵌张;
    ``[123m,3][234m,3]1122344m3m``: PyMahjongGB 234+234+11 with 嵌张, we 123+123+44 with 边张).
    The rule book only asks for the highest total (就高不就低), so either is a valid reading.
    """
    sets = tuple(sorted((g.tiles[0], _SET_ORDER[g.kind]) for g in d.groups if g.kind in _SET_ORDER))
    chows = sum(1 for g in d.groups if g.kind == "chow")
    return (_SHAPE_ORDER.get(d.shape, 9), -chows, sets)


def _validate(hand: Hand, cond: WinConditions) -> int:
    if not isinstance(hand, Hand):
        raise MajiangError(f"score() takes a majiang.hand.Hand, got {type(hand).__name__}")
    if not isinstance(cond, WinConditions):
        raise MajiangError(f"score() takes WinConditions, got {type(cond).__name__}")
    if hand.win_tile is None:
        raise McrNotWinningError("the hand has no winning tile (Hand.win_tile is None)")
    if hand.wilds or hand.win_tile == WILD:
        raise MajiangError("MCR has no wildcards")
    hand.check(sets=4)
    if hand.flowers and cond.flowers and len(hand.flowers) != cond.flowers:
        raise McrConditionError(f"the hand lists {len(hand.flowers)} flowers but the conditions say {cond.flowers}")
    flowers = cond.flowers or len(hand.flowers)
    if cond.robbing_kong and hand.all_tiles_counts()[hand.win_tile] > 1:
        raise McrConditionError(f"robbing the kong of {format_compact([hand.win_tile])}: three copies are in the "
                                "robbed pung, so the winner cannot hold another")
    if cond.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise McrConditionError("a kong replacement win (杠上开花) needs a declared kong")
    return flowers


def score(hand: Hand, conditions: WinConditions, options: McrOptions = McrOptions()) -> McrResult:
    """Score an MCR winning hand (RULES.md §6; fans of seed 004).

    Args:
        hand: 14 tiles as declared melds (kongs count as sets), concealed tiles and ``win_tile``
            (not included in ``concealed``); ``hand.flowers`` may list the flower tiles instead of
            ``conditions.flowers``.
        conditions: how the hand was won (:class:`WinConditions`).
        options: rule options (:class:`McrOptions`).

    Returns:
        :class:`McrResult` of the highest-scoring arrangement (就高不就低); check ``is_valid_win``
        for the 8-fan minimum. Among arrangements of equal total the first of
        :func:`score_arrangements` is kept.

    ``conditions.last_of_kind`` (和绝张) is ignored when the concealed part holds another copy of
    the winning tile (the other three copies cannot all be in sight), and implied when the
    winner's own open melds show the other three copies (as PyMahjongGB 1.4.0 does).

    Raises:
        TileCountError: wrong tile count or a fifth copy (from :meth:`Hand.check`).
        McrNotWinningError: no winning tile, or the tiles do not form a winning shape.
        McrConditionError: conditions that contradict the hand (robbing a kong of a tile the
            winner holds; a kong replacement win without a kong; two flower counts).
        MajiangError: wildcards, wrong argument types.
    """
    best: McrResult | None = None
    for r in score_arrangements(hand, conditions, options):
        if best is None or r.total > best.total:
            best = r
    assert best is not None
    return best


def score_arrangements(hand: Hand, conditions: WinConditions,
                       options: McrOptions = McrOptions()) -> list[McrResult]:
    """The score of every arrangement (decomposition plus declared melds) of a winning hand, in
    tie-break order (see :func:`_tie_key`). Same arguments and errors as :func:`score`."""
    flowers = _validate(hand, conditions)
    win = hand.win_tile
    assert win is not None
    full = hand.full_counts()
    decs = decompositions(full, 0, MCR_SHAPES)
    if not decs:
        raise McrNotWinningError(f"{hand} is not a winning MCR hand")
    decs.sort(key=_tie_key)
    declared = tuple(_meld_unit(m) for m in hand.melds)

    pre = list(hand.counts)
    # the wait fans need a unique wait (独听); decided lazily, only if an arrangement places the
    # winning tile where a wait fan could come from
    unique: list[bool] = []

    def unique_wait() -> bool:
        if not unique:
            unique.append(_unique_wait(hand, pre, win, options))
        return unique[0]

    # 和绝张 needs the other three copies in sight: a copy among the winner's concealed tiles is
    # not; three copies in the winner's own open melds are (the flag is implied, as PyMahjongGB).
    shown = sum(m.tiles.count(win) for m in hand.melds if m.kind is not MeldKind.CONCEALED_KONG)
    last_of_kind = (conditions.last_of_kind and pre[win] == 0) or shown == 3
    nine_gates = False
    if not hand.melds and win < 27:
        base = win - win % 9
        nine_gates = pre[base:base + 9] == _NINE_GATES and sum(pre) == 13

    out = []
    for d in decs:
        groups = d.groups
        units: list[Unit] = list(declared)
        for g in groups:
            if g.kind == "knitted":
                for s in range(3):
                    part = tuple(t for t in g.tiles if t // 9 == s)
                    units.append(Unit(KNIT, part))
                continue
            kind = _GROUP_KIND[g.kind]
            concealed = True
            if kind == PUNG and not conditions.self_drawn and g.tiles[0] == win:
                concealed = any(h is not g and h.kind != "pung" and win in h.tiles for h in groups)
            units.append(Unit(kind, g.tiles, concealed=concealed))
        wait = _wait_fan(groups, win, options)
        if wait is not None and not unique_wait():
            wait = None
        ctx = Context(d.shape, tuple(units), win, conditions.self_drawn, last_of_kind,
                      conditions.last_wall_tile, conditions.kong_replacement, conditions.robbing_kong,
                      conditions.seat_wind, conditions.prevalent_wind, wait, nine_gates,
                      options.melded_concealed_kong_pair)
        hits = F.select(F.detect(ctx))
        total = sum(F.fan(h.fan).points for h in hits)
        counted: dict[int, int] = {}
        for h in hits:
            counted[h.fan] = counted.get(h.fan, 0) + 1
        if not counted:
            counted[F.N["chicken_hand"]] = 1
            total = F.fan(F.N["chicken_hand"]).points
        if flowers:
            counted[F.N["flower_tiles"]] = flowers
        fan_counts = tuple(FanCount(F.fan(n), c) for n, c in counted.items())
        out.append(McrResult(fan_counts, total + flowers, flowers, ctx.shape, ctx.units, options, conditions))
    return out


def _neighbours(pre: list[int]) -> list[int]:
    """Tiles that could complete a standard shape: same-suit tiles within two ranks of a held
    suited tile, and held honours."""
    out = set()
    for t, n in enumerate(pre):
        if not n:
            continue
        if t >= 27:
            out.add(t)
            continue
        base = t - t % 9
        for d in (-2, -1, 0, 1, 2):
            if base <= t + d < base + 9:
                out.add(t + d)
    return sorted(out)


_ORPHANS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


def _special_possible(pre: list[int], melds: int) -> bool:
    """Cheap necessary condition for a special shape (七对, 十三幺, 全不靠, 组合龙) one tile away."""
    if melds >= 2:
        return False
    present = [t for t in range(34) if pre[t]]
    knitted = max(sum(1 for t in arr if pre[t]) for arr in KNITTED_ARRANGEMENTS)
    if knitted >= 8:  # 组合龙 (also with one meld) or 全不靠
        return True
    if melds:
        return False
    if all(pre[t] == 1 for t in present) and any(
            all(t >= 27 or t in arr for t in present) for arr in KNITTED_ARRANGEMENTS):
        return True  # 全不靠 / 七星不靠
    pairs = sum(n // 2 for n in pre)
    return pairs >= 6 or all(t in _ORPHANS for t in present)


def _unique_wait(hand: Hand, pre: list[int], win: int, options: McrOptions) -> bool:
    """Whether ``win`` is the only tile completing the concealed part ``pre`` (RULES.md §6,
    trap MCR-01). A quick standard-shape scan finds a second wait in most hands; the exact answer
    comes from :func:`majiang.analysis.waits` (all MCR shapes), where the option
    ``fifth_copy_waits`` decides whether a tile the player holds four times counts."""
    visible = [0] * 34
    for m in hand.melds:
        for t in m.tiles:
            visible[t] += 1
    if max(pre) < 4:
        for t in _neighbours(pre):
            if t == win or (not options.fifth_copy_waits and pre[t] + visible[t] >= 4):
                continue
            pre[t] += 1
            other = is_winning(pre, 0, STANDARD)
            pre[t] -= 1
            if other:
                return False
        # no second standard wait; only a special shape could still give one
        if not _special_possible(pre, len(hand.melds)):
            return True
    if options.fifth_copy_waits:
        found = waits(pre, 0, MCR_SHAPES).formal
    else:
        found = waits(pre, 0, MCR_SHAPES, visible=visible).tiles
    return len(found) == 1


def _wait_fan(groups, win: int, options: McrOptions) -> str | None:
    """边张 / 嵌张 / 单钓将 from where a uniquely-waited winning tile sits (``edge``, ``closed``,
    ``single``, or None): in the middle of a chow = closed; the 3 of 123 or the 7 of 789 = edge;
    in the pair = single. With ``knitted_straight_waits`` False a tile that fits the knitted
    straight scores none (McrOptions)."""
    found = set()
    for g in groups:
        if win not in g.tiles:
            continue
        if g.kind == "chow":
            r = g.tiles[0] % 9
            if win == g.tiles[1]:
                found.add("closed")
            elif (win == g.tiles[2] and r == 0) or (win == g.tiles[0] and r == 6):
                found.add("edge")
        elif g.kind == "pair":
            found.add("single")
        elif g.kind == "knitted" and not options.knitted_straight_waits:
            return None
    for w in ("edge", "closed", "single"):
        if w in found:
            return w
    return None


def settle(result: McrResult, winner: int, discarder: int | None = None) -> list[int]:
    """Zero-sum payments of one won hand for seats 0-3 (RULES.md §9.6, competition convention).

    Discard win: the discarder pays ``base + total`` (base = ``options.base_payment`` = 8), the
    other two pay ``base``; self-draw (``discarder`` None): each of the three pays ``base + total``.
    ``total`` includes flowers. Returns the four score changes (winner positive).

    Raises:
        McrScoringError: the hand is under the 8-fan minimum (``result.is_valid_win`` False), or
            ``discarder`` contradicts the scored conditions (a discarder for a self-drawn win, none
            for a discard win).
        MajiangError: seats outside 0-3, or the discarder is the winner.
    """
    if not isinstance(winner, int) or not 0 <= winner <= 3:
        raise MajiangError(f"winner must be a seat 0-3, got {winner!r}")
    if discarder is not None and (not isinstance(discarder, int) or not 0 <= discarder <= 3):
        raise MajiangError(f"discarder must be a seat 0-3 or None, got {discarder!r}")
    if discarder == winner:
        raise MajiangError("the winner cannot be the discarder (use discarder=None for a self-draw)")
    if result.conditions is not None and result.conditions.self_drawn != (discarder is None):
        raise McrScoringError("the hand was scored as self-drawn: no discarder" if result.conditions.self_drawn
                              else "the hand was scored as won on a discard (or robbed kong): name the discarder")
    if not result.is_valid_win:
        raise McrScoringError(f"{result.fan_total} fan (without flowers) is under the {result.options.minimum_fan}-fan "
                              "minimum: not a valid win")
    base, fan_value = result.options.base_payment, result.total
    pay = [0] * 4
    for seat in range(4):
        if seat == winner:
            continue
        owed = base + fan_value if discarder is None or seat == discarder else base
        pay[seat] -= owed
        pay[winner] += owed
    return pay
