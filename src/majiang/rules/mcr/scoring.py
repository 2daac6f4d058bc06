"""MCR scoring: :func:`score` a winning hand, :func:`settle` the payments.

Procedure (RULES.md §6 and §8 "Suggested shape"; seed ``004_*`` for the fans):

1. validate the hand (:meth:`majiang.hand.Hand.check`, four sets) and the conditions;
2. enumerate every decomposition of the concealed part plus the winning tile (those of
   :func:`majiang.analysis.decompositions` with :data:`~majiang.analysis.MCR_SHAPES`, computed
   from per-suit tables in :mod:`.fast`), and add the declared melds to each: one *arrangement*
   per decomposition;
3. per arrangement detect the fans of :mod:`majiang.rules.mcr.fans` and keep those
   :func:`~majiang.rules.mcr.fans.select` counts (exclusions and account-once). The scorer uses
   the equivalent fast forms of :mod:`.fast` (the same detections as ``(order key, sets)`` pairs,
   :func:`.fast.select_counts`); the win-condition, kong and tile-set detections are made once
   per hand, and :class:`FanCount` / :class:`McrResult` objects only for the arrangements
   returned;
4. keep the arrangement with the highest total (the *highest-value* principle 就高不就低; on a tie
   the first in the order of ``_tie_key``, chosen to match PyMahjongGB 1.4.0), with 无番和 when
   nothing counts and 花牌 per flower.

A pung completed by a discarded winning tile (or a robbed kong tile) is a melded pung for the
concealed-pung fans, unless the winning tile can sit in another group of the same arrangement
(case 347: 777m + 789m on a discarded 7m keeps 777m concealed). The wait fans 边张 / 嵌张 / 单钓将
need a unique wait (独听, trap MCR-01: a hand waiting on two tiles scores none of them); which of
them is then read from where the winning tile sits in the arrangement.

Two paths compute this: the Python one above, and :mod:`.compiled` (numba), the same procedure over
arrays in one call, which :func:`score` starts on a worker thread after :data:`_COMPILED_AFTER`
hands in a process and takes once numba has it ready, or takes from :func:`use_compiled` (``True``)
on; it hands back to the Python path every hand to refuse, so the errors are the same. ``tests/rules/test_mcr_compiled.py`` keeps the two equal.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from majiang.analysis import MCR_SHAPES, decompositions, waits
from majiang.analysis.shapes import KNITTED_ARRANGEMENTS
from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.mcr import fans as F
from majiang.rules.mcr import fast as FP
from majiang.rules.mcr.conditions import McrConditionError, McrOptions, WinConditions
from majiang.rules.mcr.fans import (
    CHOW,
    KNIT,
    KNITTED_STRAIGHT,
    PAIR,
    PUNG,
    SEVEN_PAIRS,
    SINGLE,
    STANDARD_SHAPE,
    Context,
    Fan,
    Unit,
)
from majiang.rules.mcr.notation import parse_hand_string
from majiang.tiles import WILD, format_compact

__all__ = ["FanCount", "McrNotWinningError", "McrResult", "McrScoringError", "parse_hand_string", "score",
           "score_arrangements", "settle", "use_compiled"]


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


class McrResult(tuple):
    """The score of a winning hand: an immutable record (a tuple underneath, like a named tuple;
    equal when every attribute is equal).

    Attributes:
        fans: counted fans, most valuable first (花牌 last).
        total: all points, flowers included.
        flowers: the flower fans included in ``total``.
        shape: the shape of the chosen arrangement (``standard``, ``seven-pairs``, …).
        arrangement: its units (declared melds first).
        options: the options used (the settlement's base payment, the minimum).
        conditions: the win conditions scored (lets :func:`settle` check self-draw vs discarder).

    A result made by the scorer keeps the counts as numbers and the arrangement as the hand's melds
    and groups (from the compiled path, each packed in one int); ``fans`` and ``arrangement`` are
    made from them when read (shared
    :class:`FanCount` and :class:`~majiang.rules.mcr.fans.Unit` values), so that keeping many
    results costs little memory and garbage-collector time.
    """

    __slots__ = ()

    def __new__(cls, fans: tuple[FanCount, ...], total: int, flowers: int, shape: str,
                arrangement: tuple[Unit, ...], options: McrOptions, conditions: WinConditions | None = None
                ) -> McrResult:
        return tuple.__new__(cls, (tuple(fans), total, flowers, shape, tuple(arrangement), options, conditions,
                                   (), (), (), (), (), -1, False, False))

    total: int = property(itemgetter(1))  # type: ignore[assignment]
    flowers: int = property(itemgetter(2))  # type: ignore[assignment]
    shape: str = property(itemgetter(3))  # type: ignore[assignment]
    options: McrOptions = property(itemgetter(5))  # type: ignore[assignment]
    conditions: WinConditions | None = property(itemgetter(6))  # type: ignore[assignment]

    @property
    def fans(self) -> tuple[FanCount, ...]:
        f = self[0]
        if type(f) is int:  # the compiled path's packed fans
            f = _PACKED_FANS.get(f) or _unpack_fans(f)
        if type(f) is dict:  # {fan number: count} in counting order, flowers apart
            out = [_FC[n][c] for n, c in f.items()]
            flowers = self[2]
            if flowers:
                out.append(_FC[_FLOWER][flowers] if flowers < 16 else FanCount(F.fan(_FLOWER), flowers))
            return tuple(out)
        return f

    @property
    def arrangement(self) -> tuple[Unit, ...]:
        a = self[4]
        if a is None:  # the melds, the groups (per suit, or sorted in the first), the winning tile, self-drawn
            melds, g0, g1, g2, g3, win, self_drawn, per_suit = self[7:15]
            if type(g0) is int:  # the compiled path's packed groups
                g0 = _PACKED_GROUPS.get(g0) or _unpack_groups(g0)
            groups = tuple(sorted(g0 + g1 + g2 + g3)) if per_suit else g0
            return tuple(_units_of([_meld_unit_cached(m) for m in melds], groups, win, self_drawn))
        return a

    def __getnewargs__(self) -> tuple:
        return (self.fans, self.total, self.flowers, self.shape, self.arrangement, self.options, self.conditions)

    def _key(self) -> tuple:
        return self.__getnewargs__()

    def __eq__(self, other: object) -> bool:
        if type(other) is not McrResult:
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if type(other) is not McrResult:
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"McrResult(fans={self.fans!r}, total={self.total!r}, flowers={self.flowers!r}, "
                f"shape={self.shape!r}, arrangement={self.arrangement!r}, options={self.options!r}, "
                f"conditions={self.conditions!r})")

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
_NINE_GATES_T = tuple(_NINE_GATES)


_SHAPE_ORDER = {"standard": 0, "knitted-straight": 1, "seven-pairs": 2, "honors-and-knitted": 3,
                "thirteen-orphans": 4}
_SET_ORDER = {"pung": 0, "chow": 1}


def _tie_key(d: tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]) -> tuple:
    """Order of arrangements with equal totals (the first is kept); ``d`` = (shape, groups as
    ``(kind, tiles)``).

    Standard shape first; then the arrangement with more chows (so 一色三同顺 is preferred to an
    equal-valued 一色三节高 reading of the same tiles); then by the sets (pairs aside) sorted by
    lowest tile, a pung before a chow at the same tile. This reproduces PyMahjongGB 1.4.0's choice
    on all 88 ties with different fans found in 160,000 random hands. In 750,000 further random
    hands it missed twice, both times only in naming the wait fan of equal-valued arrangements
    (``[789s,3][678s,2]6678899s7s``: PyMahjongGB 66+789+789 with 边张, we 678+678+99 with 嵌张;
    ``[123m,3][234m,3]1122344m3m``: PyMahjongGB 234+234+11 with 嵌张, we 123+123+44 with 边张).
    The rule book only asks for the highest total (就高不就低), so either is a valid reading.
    """
    shape, groups = d
    sets = tuple(sorted((t[0], _SET_ORDER[k]) for k, t in groups if k in _SET_ORDER))
    chows = sum(1 for k, _ in groups if k == "chow")
    return (_SHAPE_ORDER.get(shape, 9), -chows, sets)


def _validate(hand: Hand, cond: WinConditions) -> tuple[int, list[int]]:
    """Check the hand and conditions; return the flower count and the counts of every tile the
    player holds or shows (melds included)."""
    if not isinstance(hand, Hand):
        raise MajiangError(f"score() takes a majiang.hand.Hand, got {type(hand).__name__}")
    if not isinstance(cond, WinConditions):
        raise MajiangError(f"score() takes WinConditions, got {type(cond).__name__}")
    win = hand.win_tile
    if win is None:
        raise McrNotWinningError("the hand has no winning tile (Hand.win_tile is None)")
    if hand.wilds or win == WILD:
        raise MajiangError("MCR has no wildcards")
    # Hand.check(sets=4), computed inline; on any fault Hand.check raises its own error
    allc = list(hand.counts)
    allc[win] += 1
    for m in hand.melds:
        t = m.tile
        kind = m.kind
        if kind is MeldKind.CHOW:
            allc[t] += 1
            allc[t + 1] += 1
            allc[t + 2] += 1
        else:
            allc[t] += 3 if kind is MeldKind.PUNG else 4
    if max(allc) > 4 or len(hand.melds) > 4 or len(hand.concealed) + 1 != 14 - 3 * len(hand.melds):
        hand.check(sets=4)
    if hand.flowers and cond.flowers and len(hand.flowers) != cond.flowers:
        raise McrConditionError(f"the hand lists {len(hand.flowers)} flowers but the conditions say {cond.flowers}")
    flowers = cond.flowers or len(hand.flowers)
    if cond.robbing_kong and allc[win] > 1:
        raise McrConditionError(f"robbing the kong of {format_compact([win])}: three copies are in the "
                                "robbed pung, so the winner cannot hold another")
    if cond.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise McrConditionError("a kong replacement win (杠上开花) needs a declared kong")
    if cond.last_of_kind and hand.counts[win]:
        raise McrConditionError(f"last of its kind (和绝张) on {format_compact([win])}: the winner holds another "
                                f"{format_compact([win])} concealed, so the other three copies cannot all be in sight")
    return flowers, allc


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

    ``conditions.last_of_kind`` (和绝张) is implied when the winner's own open melds show the other
    three copies (as PyMahjongGB 1.4.0 does).

    Raises:
        TileCountError: wrong tile count or a fifth copy (from :meth:`Hand.check`).
        McrNotWinningError: no winning tile, or the tiles do not form a winning shape.
        McrConditionError: conditions that the hand's own tiles make impossible, each named in the
            message: robbing a kong of a tile the winner holds or shows (the robbed pung and the
            added tile are all four copies); a kong replacement win (杠上开花) without a declared
            kong; last of its kind (和绝张) with another copy of the winning tile concealed; two
            different flower counts. Flags that contradict each other are refused by
            :class:`WinConditions` itself.
        MajiangError: wildcards, wrong argument types.
    """
    kernel = _COMPILED[0]
    if kernel is not None:
        r = _score_compiled(kernel, hand, conditions, options)
        if r is not None:
            return r
    elif _COMPILED[1] < _WAIT_AFTER:
        n = _COMPILED[1] = _COMPILED[1] + 1  # this call's own count (threads may repeat one, never skip one)
        if n == _COMPILED_AFTER:
            _compile_in_background()
        elif n == _WAIT_AFTER:
            _wait_for_start()
    flowers, evaluated = _evaluate(hand, conditions, options)
    best = evaluated[0]
    if len(evaluated) > 1:
        for e in evaluated:
            if e[0] > best[0]:
                best = e
    total, counted, shape, units, melds, g0, g1, g2, g3, win, self_drawn, per_suit = best  # _result, inline
    return _new_result(McrResult, (counted, total + flowers, flowers, shape, units if units is None else tuple(units),
                                   options, conditions, melds, g0, g1, g2, g3, win, self_drawn, per_suit))


_COMPILED_AFTER = 2000
"""Hands a process scores on the Python path before :func:`score` starts its compiled path
(:mod:`.compiled`, where numba is installed): a few calls never pay numba's start (about half a
second to load its cache, some 20 s to compile on a fresh installation); many calls gain. The
start runs on a worker thread (:func:`_compile_in_background`); a process still on the Python
path :data:`_WAIT_AFTER` hands in waits for it (a busy caller starves the thread of the GIL, an
event loop that waits for its clients does not)."""
_WAIT_AFTER = 10 * _COMPILED_AFTER
_COMPILED: list = [None, 0, 0]
"""The compiled ``score_hand`` once in use (else None), the hands scored before it, and the number
of :func:`use_compiled` calls (a background start made before the latest call does not switch)."""


def use_compiled(on: bool | None) -> bool:
    """Switch :func:`score`'s compiled path: ``True`` now (where numba is installed and
    ``MAJIANG_NUMBA`` is not 0; this call waits while numba compiles or loads it, and scores one
    hand with it), ``False`` never, ``None`` after :data:`_COMPILED_AFTER` hands (the default:
    started on a worker thread, the Python path serving until it is ready). Returns whether it is in
    use now. Either path gives the same results; the compiled one scores a hand of any shape in one
    call and hands back to the Python path only what must be refused (which the Python path names).
    :meth:`.engine_adapter.McrScorer.quick_value` uses the kernel wherever numba is there, whatever
    this switch says."""
    _COMPILED[2] += 1
    _COMPILED[0] = None
    _COMPILED[1] = _WAIT_AFTER if on is False else 0
    if on:
        kernel = _ready_kernel()
        _COMPILED[0] = kernel
        if kernel is None:
            _COMPILED[1] = _WAIT_AFTER
    return _COMPILED[0] is not None


def _ready_kernel():  # noqa: ANN202 - the compiled score_hand, or None
    """The compiled kernel, compiled (or loaded from numba's cache) by scoring one hand with it;
    None without numba."""
    from majiang.rules.mcr import compiled

    kernel = compiled.kernel()
    if kernel is not None:
        hand, cond = parse_hand_string(_WARM_HAND)
        _score_compiled(kernel, hand, cond, McrOptions())  # the compile (or cache load) happens here
    return kernel


_WARM_HAND = "123m456p789s123s5z5z"
"""The hand that makes numba compile the kernel (a plain win: the kernel's every step runs)."""


def _compile_in_background() -> None:
    """Start the compiled path on a daemon thread: numba compiles the kernel there (or loads its
    cache) and scores one hand with it, and only then does :func:`score` take it. Until then the
    Python path answers, so no caller waits for the compiler -- above all a web server, which
    scores on its event loop and would otherwise stop every table for the compile. A
    :func:`use_compiled` call in the meantime wins: the thread then leaves the switch alone. A fork
    waits for the thread (:func:`_wait_for_start`). Where no thread can start (the interpreter
    shutting down, a process out of threads) the Python path simply goes on."""
    calls = _COMPILED[2]

    def start() -> None:
        try:
            kernel = _ready_kernel()
        except Exception:  # noqa: BLE001 - a compiler failure leaves the Python path, said once
            _LOG.warning("the compiled MCR scorer could not start; scoring stays on the Python path", exc_info=True)
            return
        if kernel is not None and _COMPILED[2] == calls:
            _COMPILED[0] = kernel

    t = threading.Thread(target=start, name="majiang-mcr-compile", daemon=True)
    _STARTING.append(t)
    try:
        t.start()
    except RuntimeError:
        _STARTING.remove(t)


_STARTING: list[threading.Thread] = []
"""The background starts' threads."""
_LOG = logging.getLogger(__name__)
_FORK_WAIT = 300.0
"""The longest a fork waits for a background start (s): beyond it the fork goes on (a compile takes
about 20 s; a start stuck for good must not stop the process's forks with it)."""


def _wait_for_start(timeout: float | None = None) -> None:
    """Wait for the background starts still running (not from their own thread). Called
    :data:`_WAIT_AFTER` hands in, and before the process forks (for at most :data:`_FORK_WAIT`
    seconds): a child copies numba's compiler lock as the parent holds it, and would hang at its own
    first compile if the copy were taken mid-way."""
    for t in list(_STARTING):
        if t.is_alive() and t is not threading.current_thread():
            t.join(timeout)
        if t.ident is not None and not t.is_alive():
            _STARTING.remove(t)


def _before_fork() -> None:
    _wait_for_start(_FORK_WAIT)


# Fork hooks run newest first. Logging's hook takes logging's lock, which the compiler's thread needs
# (numba logs): logging is imported at the top, so its hook is older and runs after this one has waited.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork)


_PACKED_FANS: dict[int, dict[int, int]] = {}
_PACKED_GROUPS: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {}
_GROUP_OF_CODE = {1: lambda t: ("chow", (t, t + 1, t + 2)),
                  2: lambda t: ("pair", (t, t)) if t < 34 else ("knitted", KNITTED_ARRANGEMENTS[t - 34]),
                  3: lambda t: ("pung", (t, t, t))}


def _meld_code(kind: MeldKind) -> int:
    """A meld kind's code in :func:`.compiled.score_hand`'s packed melds (``compiled.CHOW_MELD`` ...;
    identity tests: an enum's hash is a Python-level call)."""
    return 0 if kind is _CHOW_KIND else 1 if kind is _PUNG_KIND else 2 if kind is _CONCEALED_KONG_KIND else 3


def _pack_melds(melds: Sequence[tuple[MeldKind, int]]) -> int:
    """:func:`.compiled.score_hand`'s ``melds`` argument from ``(kind, tile)`` pairs (8 bits a meld)."""
    packed = 0
    shift = 0
    for kind, tile in melds:
        packed |= (_meld_code(kind) << 6 | tile) << shift
        shift += 8
    return packed


def _pack_flags(self_drawn: bool, last_wall_tile: bool, kong_replacement: bool, robbing_kong: bool,
                last_of_kind: bool, seat_wind: int, prevalent_wind: int, options: McrOptions) -> int:
    """:func:`.compiled.score_hand`'s ``flags`` argument (the bits ``compiled.SELF_DRAWN`` ...): the win
    conditions, the winds 0-3, and the options the kernel reads."""
    return (self_drawn | last_wall_tile << 1 | kong_replacement << 2 | robbing_kong << 3 | last_of_kind << 4
            | seat_wind << 5 | prevalent_wind << 7 | options.melded_concealed_kong_pair << 9
            | options.fifth_copy_waits << 10 | options.knitted_straight_waits << 11)


def _score_compiled(kernel, hand: Hand, conditions: WinConditions, options: McrOptions) -> McrResult | None:  # noqa: ANN001
    """:func:`score` through :func:`.compiled.score_hand`, or None where the Python path must
    score the hand (anything to refuse or check, which it names)."""
    if type(hand) is not Hand or type(conditions) is not WinConditions or hand.wilds:
        return None
    win = hand.win_tile
    if win is None or not 0 <= win < 34:
        return None
    melds = hand.melds
    packed = 0
    shift = 0
    for m in melds:  # _pack_melds, over Meld objects
        packed |= (_meld_code(m.kind) << 6 | m.tile) << shift
        shift += 8
    flowers = conditions.flowers
    if hand.flowers:
        if flowers and len(hand.flowers) != flowers:
            return None
        flowers = len(hand.flowers)
    self_drawn = conditions.self_drawn
    flags = _pack_flags(self_drawn, conditions.last_wall_tile, conditions.kong_replacement, conditions.robbing_kong,
                       conditions.last_of_kind, conditions.seat_wind, conditions.prevalent_wind, options)
    status, total, f0, f1, f2, groups = kernel(bytes(hand._counts), win, packed, len(melds), flags)
    if status:
        return None
    if f1:
        f0 |= f1 << 55 | f2 << 110
    if groups < 0:  # a special shape: -(packed << 2) 组合龙, -1 七对, -2 十三幺, -3 全不靠
        code = -groups & 3
        if code == 0:
            return _new_result(McrResult, (f0, total + flowers, flowers, F.KNITTED_STRAIGHT, None, options,
                                           conditions, melds, -groups >> 2, (), (), (), win, self_drawn, False))
        full = list(hand._counts)  # the groups follow from the tiles
        full[win] += 1
        if code == 3:
            g = tuple(("single", (t,)) for t in range(34) if full[t])
            return _new_result(McrResult, (f0, total + flowers, flowers, F.HONORS_AND_KNITTED, None, options,
                                           conditions, melds, g, (), (), (), win, self_drawn, False))
        if code == 1:
            g = tuple(("pair", (t, t)) for t in range(34) for _ in range(full[t] // 2))
            return _new_result(McrResult, (f0, total + flowers, flowers, SEVEN_PAIRS, None, options, conditions,
                                           melds, g, (), (), (), win, self_drawn, False))
        pair = next(t for t in _ORPHAN_ORDER if full[t] == 2)  # the pair first, then the singles
        g = (("pair", (pair, pair)),) + tuple(("single", (t,)) for t in _ORPHAN_ORDER if t != pair)
        return _new_result(McrResult, (f0, total + flowers, flowers, F.THIRTEEN_ORPHANS, None, options, conditions,
                                       melds, g, (), (), (), win, self_drawn, False))
    return _new_result(McrResult, (f0, total + flowers, flowers, STANDARD_SHAPE, None, options, conditions,
                                   melds, groups, (), (), (), win, self_drawn, False))


def _unpack_fans(packed: int) -> dict[int, int]:
    """``{fan number: count}`` in counting order from the compiled path's packed fans (11 bits each,
    ``number << 4 | count``, the first lowest)."""
    out = {}
    word = packed
    while word:
        x = word & 2047
        out[x >> 4] = x & 15
        word >>= 11
    if len(_PACKED_FANS) > FP._CAP:
        _PACKED_FANS.clear()
    _PACKED_FANS[packed] = out
    return out


def _unpack_groups(groups: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The sorted ``(kind, tiles)`` groups from the compiled path's packed groups (8 bits each,
    ``kind << 6 | tile``, kind 1 chow, 2 pair (a tile from 34 up: the knitted straight of that
    arrangement), 3 pung, the first lowest)."""
    out = []
    word = groups
    while word:
        x = word & 255
        out.append(_GROUP_OF_CODE[x >> 6](x & 63))
        word >>= 8
    r = tuple(out)
    if len(_PACKED_GROUPS) > FP._CAP:
        _PACKED_GROUPS.clear()
    _PACKED_GROUPS[groups] = r
    return r


def score_arrangements(hand: Hand, conditions: WinConditions,
                       options: McrOptions = McrOptions()) -> list[McrResult]:
    """The score of every arrangement (decomposition plus declared melds) of a winning hand, in
    tie-break order (see :func:`_tie_key`). Same arguments and errors as :func:`score`."""
    flowers, evaluated = _evaluate(hand, conditions, options)
    return [_result(e, flowers, options, conditions) for e in evaluated]


_GROUP_UNITS: dict[tuple[str, tuple[int, ...]], tuple[Unit, ...]] = {}
"""A decomposition group → its units (immutable, shared): ``(concealed, melded)`` for a group,
the three :data:`KNIT` parts for a knitted straight."""


def _group_units(g: tuple[str, tuple[int, ...]]) -> tuple[Unit, ...]:
    r = _GROUP_UNITS.get(g)
    if r is None:
        kind, tiles = g
        if kind == "knitted":
            r = tuple(Unit(KNIT, tuple(t for t in tiles if t // 9 == s)) for s in range(3))
        else:
            kind = _GROUP_KIND[kind]
            r = (Unit(kind, tiles), Unit(kind, tiles, concealed=False))
        _GROUP_UNITS[g] = r
    return r


def _result(e: tuple, flowers: int, options: McrOptions, conditions: WinConditions) -> McrResult:
    total, counted, shape, units, melds, g0, g1, g2, g3, win, self_drawn, per_suit = e
    return _new_result(McrResult, (counted, total + flowers, flowers, shape, units if units is None else tuple(units),
                                   options, conditions, melds, g0, g1, g2, g3, win, self_drawn, per_suit))


_new_result = tuple.__new__
_FC = [[FanCount(f, c) for c in range(16)] if f is not None else [] for f in
       [next((x for x in F.FANS if x.number == n), None) for n in range(max(x.number for x in F.FANS) + 1)]]
"""The shared :class:`FanCount` of fan number ``n`` counted ``c`` times: ``_FC[n][c]``."""




_CHICKEN = F.N["chicken_hand"]
_FLOWER = F.N["flower_tiles"]
_MELD_UNIT: dict[tuple[MeldKind, int], Unit] = {}
_K = FP.K


def _meld_unit_cached(m: Meld) -> Unit:
    key = (m.kind, m.tile)
    r = _MELD_UNIT.get(key)
    if r is None:
        r = _MELD_UNIT[key] = _meld_unit(m)
    return r


_ORPHAN_COUNTS = itemgetter(0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_KNITTED_COUNTS = tuple(itemgetter(*arr) for arr in KNITTED_ARRANGEMENTS)


def _units_of(declared: list[Unit], groups, win: int, self_drawn: bool) -> list[Unit]:
    """The units of an arrangement: the declared melds' (``declared``), then the decomposition's
    groups; a pung completed by a discarded winning tile is melded unless the tile can sit in
    another (non-pung) group (case 347)."""
    units = list(declared)
    group_units = _GROUP_UNITS.get
    for g in groups:
        us = group_units(g) or _group_units(g)
        kind = g[0]
        if kind == "knitted":
            units.extend(us)
        elif kind == PUNG and not self_drawn and g[1][0] == win and not any(
                h is not g and h[0] != PUNG and win in h[1] for h in groups):
            units.append(us[1])
        else:
            units.append(us[0])
    return units


def _evaluate(hand: Hand, conditions: WinConditions, options: McrOptions) -> tuple[int, list[tuple]]:
    """Flowers, and per arrangement in tie-break order ``(total without flowers, {fan: count},
    shape, units or None, melds, groups (four per-suit tuples, or the sorted groups and three empty
    tuples), win, self-drawn, groups per suit)``: when the units are None,
    :attr:`McrResult.arrangement` builds them from the items after it.

    The checks of :func:`_validate` are made inline (it is called to raise the error); the
    detections shared by every arrangement (九莲宝灯, 四归一, kongs, win conditions, the tile-set
    fans) are made once, from tables shared by all hands (:func:`_base_hits`,
    :func:`.fast.tile_set_hits`)."""
    if type(hand) is not Hand or type(conditions) is not WinConditions or hand.wilds:
        _validate(hand, conditions)
    win = hand.win_tile
    if win is None or win == WILD:
        _validate(hand, conditions)
    pre = hand._counts  # Hand.counts (a tuple), read without the property on this hot path
    full = list(pre)
    full[win] += 1
    melds = hand.melds
    nmelds = len(melds)
    b = bytes(full)
    p0, p1, p2, p3 = b[0:9], b[9:18], b[18:27], b[27:34]
    infos = (_INFO_M.get(p0) or FP.suit_info_of(0, p0), _INFO_P.get(p1) or FP.suit_info_of(1, p1),
             _INFO_S.get(p2) or FP.suit_info_of(2, p2), _INFO_Z.get(p3) or FP.suit_info_of(3, p3))
    self_drawn = conditions.self_drawn

    # 和绝张 needs the other three copies in sight: a copy among the winner's concealed tiles is
    # not; three copies in the winner's own open melds are (the flag is implied, as PyMahjongGB).
    shown = 0
    i0, i1, i2, i3 = infos
    present = i0[1] | i1[1] | i2[1] | i3[1]
    tk_and = i0[9] & i1[9] & i2[9] & i3[9]  # fast.tile_set_key of the tiles present, from the parts'
    tk_or = i0[9] | i1[9] | i2[9] | i3[9]
    if melds:
        allc = list(full)  # every tile held or shown, kongs aside (四归一 counts outside kongs)
        decl_chows = []
        decl_pungs = []
        melded = hidden = open_melds = 0
        kong_tiles = []
        for m in melds:
            kind = m.kind
            t = m.tile
            if kind is _CHOW_KIND:
                decl_chows.append(t)
                allc[t] += 1
                allc[t + 1] += 1
                allc[t + 2] += 1
                present |= 7 << t
                k = _CHOW_TSK[t]
                tk_and &= k
                tk_or |= k
                open_melds += 1
                if t <= win <= t + 2:
                    shown += 1
            else:
                decl_pungs.append(t)
                present |= 1 << t
                k = _PUNG_TSK[t]
                tk_and &= k
                tk_or |= k
                if kind is _PUNG_KIND:
                    allc[t] += 3
                    open_melds += 1
                    if t == win:
                        shown += 3
                else:
                    kong_tiles.append(t)
                    if kind is _CONCEALED_KONG_KIND:
                        hidden += 1
                    else:
                        melded += 1
                        open_melds += 1
                        if t == win:
                            shown += 4
        held = bytes(allc)
        if len(hand.concealed) + 1 != 14 - 3 * nmelds or nmelds > 4 or held.translate(None, _UP_TO_4) or (
                kong_tiles and (any(allc[t] for t in kong_tiles) or len(set(kong_tiles)) != len(kong_tiles))):
            hand.check(sets=4)
            _validate(hand, conditions)
        # the declared sets' summary: of the chows and of the pungs, kept apart (fewer keys)
        if decl_pungs:
            dkey = tuple(decl_pungs)
            decl = _DECLARED_PUNGS.get(dkey) or _declared(_DECLARED_PUNGS, dkey, [], decl_pungs)
            if decl_chows:
                dkey = tuple(decl_chows)
                dc = _DECLARED_CHOWS.get(dkey) or _declared(_DECLARED_CHOWS, dkey, decl_chows, [])
                decl = (dc[0], decl[1], decl[2], decl[3], decl[4], decl[5], -1, dc[7] & decl[7])
        else:
            dkey = tuple(decl_chows)
            decl = _DECLARED_CHOWS.get(dkey) or _declared(_DECLARED_CHOWS, dkey, decl_chows, [])
    else:
        allc = full
        held = b
        melded = hidden = open_melds = 0
        if len(hand.concealed) != 13 or b.translate(None, _UP_TO_4):  # a count over 4
            hand.check(sets=4)
        decl = _NO_SETS
    flowers = conditions.flowers
    if hand.flowers:
        if flowers and len(hand.flowers) != flowers:
            raise McrConditionError(f"the hand lists {len(hand.flowers)} flowers but the conditions say {flowers}")
        flowers = len(hand.flowers)
    robbing = conditions.robbing_kong
    if robbing and allc[win] > 1:
        _validate(hand, conditions)
    if conditions.kong_replacement and not (melded or hidden):
        _validate(hand, conditions)
    if conditions.last_of_kind and pre[win]:
        _validate(hand, conditions)
    last_of_kind = conditions.last_of_kind or shown == 3
    nine_gates = False
    if not melds and win < 27:
        base = win - win % 9
        nine_gates = pre[base] == 3 and pre[base:base + 9] == _NINE_GATES_T  # 13 tiles (checked above)
    # the hand-level detections of a standard or seven-pairs arrangement, kept per what they depend
    # on: the win conditions and kongs (_fixed_hits, packed) and the tile-set key (fast.tile_set_key)
    hkey = (nine_gates | melded << 1 | hidden << 4 | open_melds << 7 | self_drawn << 10
            | conditions.last_wall_tile << 11 | conditions.kong_replacement << 12 | robbing << 13
            | last_of_kind << 14 | options.melded_concealed_kong_pair << 15)
    skey = hkey << 16 | (tk_and & ~_PRESENCE_BITS) | (tk_or & _PRESENCE_BITS)
    std_hits = _STD_HITS.get(skey)
    if std_hits is None:
        std_hits = _STD_HITS[skey] = _base_hits(hkey) + FP.tile_set_hits(present, True)
    if 4 in held:  # 四归一: four copies outside kongs
        std_hits += ((_TILE_HOG, ()),) * held.count(4)
    # the wait fans need a unique wait (独听); decided lazily, only if an arrangement places the
    # winning tile where a wait fan could come from
    unique: bool | None = None
    out = []

    # a special shape needs: no melds and seven pairs' even counts, all tiles different (全不靠)
    # or terminals and honours only (十三幺); or at most one meld and a whole knitted straight
    special = nmelds < 2 and bool((not nmelds and i0[2] & i1[2] & i2[2] & i3[2])
                                  or _KNIT_FULL[i0[3] << 6 | i1[3] << 3 | i2[3]])
    # standard arrangements: one per choice of a split in every suit, from the splits' summaries
    # (fast.summary_hits); the units are built only if the result's arrangement is read
    s0, s1, s2, s3 = i0[4], i1[4], i2[4], i3[4]
    if len(s0) == 1 and len(s1) == 1 and len(s2) == 1 and len(s3) == 1:
        x0, x1, x2, x3 = i0[0][0], i1[0][0], i2[0][0], i3[0][0]
        if x0[1] + x1[1] + x2[1] + x3[1] == 1:
            arrangements: Sequence = ((x0[0], x1[0], x2[0], x3[0], s0[0], s1[0], s2[0], s3[0]),)
        else:
            arrangements = ()
    else:
        arrangements = _split_choices(infos)
    if not arrangements and not special:
        raise McrNotWinningError(f"{hand} is not a winning MCR hand")
    if arrangements:
        ws = win // 9 if win < 27 else 3
        off = win - 9 * ws
        seat = conditions.seat_wind
        prevalent = conditions.prevalent_wind
        dc, dp, dw, dd, dh, dn, _, df = decl
        for g0, g1, g2, g3, a, b, c, d in arrangements:
            w = (a, b, c, d)[ws]
            concealed = hidden + a[5] + b[5] + c[5] + d[5]
            if not self_drawn and w[9] >> off & 1:
                concealed -= 1
            hits = FP.summary_hits(dc + a[0] + b[0] + c[0], dp + a[1] + b[1] + c[1], dw + d[2], dd + d[3],
                                   a[6] if a[6] >= 0 else b[6] if b[6] >= 0 else c[6] if c[6] >= 0 else d[6],
                                   df & a[7] & b[7] & c[7] & d[7], concealed, seat, prevalent)
            hits += dh
            hits += a[4]
            hits += b[4]
            hits += c[4]
            hits += d[4]
            hits += std_hits
            wait = w[8] >> 2 * off & 3
            if wait:
                if unique is None:
                    unique = _unique_standard_wait(hand, pre, win, ws, full, options, infos)
                if unique:
                    hits.append(_WAIT_KEYS[wait])
            counted, total = FP.select_counts(hits)
            out.append((total, counted, STANDARD_SHAPE, None, melds, g0, g1, g2, g3, win, self_drawn, True))
        if not special:
            return flowers, out

    # the special shapes (after the standard arrangements in tie-break order)
    decs = FP.special_decompositions_of(full, infos, nmelds)
    if not decs and not out:
        raise McrNotWinningError(f"{hand} is not a winning MCR hand")
    if len(decs) > 1:
        decs.sort(key=_tie_key)
    for shape, groups in decs:
        if shape == KNITTED_STRAIGHT:
            units = _units_of([_meld_unit_cached(m) for m in melds], groups, win, self_drawn)
            wait = _wait_fan(groups, win, options)
            if wait is not None:
                if unique is None:
                    unique = _unique_wait(hand, pre, win, options)
                if not unique:
                    wait = None
            hits = FP.knitted_hits(units, conditions.seat_wind, conditions.prevalent_wind)
            hits += _base_hits(hkey, allc) + FP.tile_set_hits(present, False)
            if wait is not None:
                hits.append((_WAIT_KEY[wait], ()))
        else:
            # 七对, 十三幺 and 全不靠 (and 连七对, which excludes 七对) exclude 单钓将, and nothing
            # excludes them: their wait never counts, so the unique-wait test is spared
            units = None
            hits = FP.special_hits(shape, full)
            hits += std_hits if shape == SEVEN_PAIRS else _base_hits(hkey, allc) + FP.tile_set_hits(present, False)
        counted, total = FP.select_counts(hits)
        out.append((total, counted, shape, units, melds, groups, (), (), (), win, self_drawn, False))
    return flowers, out


_CHOW_KIND, _PUNG_KIND, _CONCEALED_KONG_KIND = MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG
_DECLARED_CHOWS: dict[tuple[int, ...], tuple] = {}
""":func:`.fast.sets_summary` of declared chows by their first tiles (in meld order)."""
_DECLARED_PUNGS: dict[tuple[int, ...], tuple] = {}
""":func:`.fast.sets_summary` of declared pungs and kongs by their tiles (in meld order)."""


def _declared(table: dict, key: tuple[int, ...], chows: list[int], pungs: list[int]) -> tuple:
    if len(table) > FP._CAP:
        table.clear()
    r = table[key] = FP.sets_summary(chows, pungs)
    return r
_NO_SETS = FP.sets_summary([], [])
_UP_TO_4 = bytes(range(5))
"""Counts 0-4: deleting them from a count vector as bytes leaves something iff a count is over 4."""
_TILE_HOG = _K["tile_hog"]
_KNIT_FULL = FP.KNIT_FULL
_PRESENCE_BITS = FP._PRESENCE_BITS
_CHOW_TSK = [FP.tile_set_key(7 << t) if t < 27 and t % 9 < 7 else 0 for t in range(34)]
_PUNG_TSK = [FP.tile_set_key(1 << t) for t in range(34)]
""":func:`.fast.tile_set_key` of a declared chow's / pung's tiles by its first tile."""
_POINTS = FP.POINTS


def _split_choices(infos: tuple) -> list[tuple]:
    """The standard arrangements of a concealed part whose suits split in more than one way:
    ``(groups of each suit…, summary of each suit…)`` (8 items) per choice of one split per suit with exactly one
    pair among them, in the order of :func:`_tie_key`. That key is read from the summaries: the
    number of chows, and the sets as ``(first tile, 0 pung / 1 chow)``, sorted, which is the
    concatenation of the suits' own sorted lists (a suit's tiles all precede the next suit's).
    Two choices with one key hold the same sets and so the same pair: no further order is needed."""
    found = []
    p0s, p1s, p2s, p3s = infos[0][0], infos[1][0], infos[2][0], infos[3][0]
    for i0, a in enumerate(infos[0][4]):
        p0 = p0s[i0][1]
        for i1, b in enumerate(infos[1][4]):
            p1 = p1s[i1][1]
            if p0 and p1:
                continue
            for i2, c in enumerate(infos[2][4]):
                p2 = p2s[i2][1]
                if p2 and (p0 or p1):
                    continue
                for i3, d in enumerate(infos[3][4]):
                    if p0 + p1 + p2 + p3s[i3][1] != 1:
                        continue
                    key = (-len(a[0]) - len(b[0]) - len(c[0]), a[10] + b[10] + c[10] + d[10])
                    found.append((key, p0s[i0][0], p1s[i1][0], p2s[i2][0], p3s[i3][0], a, b, c, d))
    found.sort(key=itemgetter(0))
    return [x[1:] for x in found]


_WAIT_KEY = {"edge": _K["edge_wait"], "closed": _K["closed_wait"], "single": _K["single_wait"]}
_WAIT_KEYS = (None, (_K["edge_wait"], ()), (_K["closed_wait"], ()), (_K["single_wait"], ()))
"""Wait detections by the wait codes of :func:`.fast._split_summary` (index 0: none)."""
_CHOW_FLAGS = FP._CHOW_FLAGS
_PUNG_FLAGS = FP._PUNG_FLAGS


def _base_hits(hkey: int, allc: list[int] | None = None) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:func:`_fixed_hits` of the packed key ``hkey`` (see ``_evaluate``); with ``allc`` (every
    tile held or shown, kongs aside) 四归一 once per tile held four times."""
    hits = _FIXED_HITS.get(hkey)
    if hits is None:
        hits = _FIXED_HITS[hkey] = _fixed_hits(
            bool(hkey & 1), hkey >> 1 & 7, hkey >> 4 & 7, hkey >> 7 & 7, bool(hkey >> 10 & 1), bool(hkey >> 11 & 1),
            bool(hkey >> 12 & 1), bool(hkey >> 13 & 1), bool(hkey >> 14 & 1), bool(hkey >> 15 & 1))
    if allc is not None and 4 in allc:
        hits += ((_TILE_HOG, ()),) * allc.count(4)
    return hits


_STD_HITS: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {}
"""Hand-level detections of a standard or seven-pairs arrangement (四归一 aside) by packed key."""
_FIXED_HITS: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {}


def _fixed_hits(nine_gates: bool, melded: int, hidden: int, open_melds: int, self_drawn: bool, last_wall_tile: bool,
                kong_replacement: bool, robbing_kong: bool, last_of_kind: bool, melded_concealed_kong_pair: bool
                ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """九莲宝灯, kong fans and win-condition fans (detectors ``set_structure``,
    ``concealed_pungs_and_kongs`` and ``win_conditions``), the wait fan aside."""
    hits = []
    if nine_gates:
        hits.append(_K["nine_gates"])
    kongs = melded + hidden
    if kongs == 4:
        hits.append(_K["four_kongs"])
    elif kongs == 3:
        hits.append(_K["three_kongs"])
    elif kongs == 2:
        if hidden == 2:
            hits.append(_K["two_concealed_kongs"])
        elif melded == 2:
            hits.append(_K["two_melded_kongs"])
        elif melded_concealed_kong_pair:
            hits.append(_K["melded_and_concealed_kong"])
        else:
            hits.append(_K["melded_kong"])
            hits.append(_K["concealed_kong"])
    elif kongs == 1:
        hits.append(_K["melded_kong"] if melded else _K["concealed_kong"])
    if self_drawn:
        hits.append(_K["self_drawn"])
    if last_wall_tile:
        hits.append(_K["last_tile_draw"] if self_drawn else _K["last_tile_claim"])
    if kong_replacement:
        hits.append(_K["out_with_replacement_tile"])
    if robbing_kong:
        hits.append(_K["robbing_the_kong"])
    if last_of_kind:
        hits.append(_K["last_tile"])
    if open_melds == 0:
        hits.append(_K["fully_concealed_hand"] if self_drawn else _K["concealed_hand"])
    elif open_melds == 4 and not self_drawn:
        hits.append(_K["melded_hand"])
    return tuple((k, ()) for k in hits)


_ORPHANS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_ORPHAN_ORDER = tuple(sorted(_ORPHANS))


def _special_near(infos: tuple, melds: int) -> bool:
    """A necessary condition for a special shape one tile away from ``full`` minus the winning
    tile, from ``full``'s parts (:func:`.fast.suit_info`): that shape and ``full`` differ in two
    tiles at most, so 七对 needs at most two tiles held an odd number of times, 十三幺 at most one
    tile that is not an orphan, 全不靠 at most one copy beyond the first, and a knitted straight
    (one meld allowed) at least two tiles of each of its three triples."""
    i0, i1, i2, i3 = infos
    if not melds and (i0[5] + i1[5] + i2[5] + i3[5] <= 2 or i0[6] + i1[6] + i2[6] <= 1
                      or i0[7] + i1[7] + i2[7] + i3[7] <= 1):
        return True
    return FP.KNIT_FULL[i0[8] << 6 | i1[8] << 3 | i2[8]]


def _special_possible(pre: list[int], melds: int) -> bool:
    """Cheap necessary condition for a special shape (七对, 十三幺, 全不靠, 组合龙) one tile away."""
    if melds >= 2:
        return False
    for arr in _KNITTED_COUNTS:
        if arr(pre).count(0) <= 1:  # 8 of the 9 tiles: 组合龙 (also with one meld) or 全不靠
            return True
    if melds:
        return False
    if max(pre) <= 1:
        suited = sum(pre[:27])
        if any(sum(arr(pre)) == suited for arr in _KNITTED_COUNTS):
            return True  # 全不靠 / 七星不靠: the suited tiles within one knitted arrangement
    pairs = pre.count(2) + pre.count(3) + 2 * pre.count(4)
    return pairs >= 6 or sum(_ORPHAN_COUNTS(pre)) == sum(pre)


def _unique_standard_wait(hand: Hand, pre: list[int], win: int, ws: int, full: list[int], options: McrOptions,
                          infos: tuple) -> bool:
    """:func:`_unique_wait` for a hand whose whole (``pre`` plus ``win``) is a standard shape,
    from the per-suit tables: every suit but the winning tile's (``ws``) is complete as it is, so
    a second wait can only be another tile of that suit, or a tile of the suit holding the pair
    when the winning tile's suit is complete with a pair without it (双碰: 55m 77p). Then, when
    :func:`_special_possible`, the tiles that could complete a special shape are tried
    (:func:`_special_candidates`, :func:`.fast.special_win`). ``full``: ``pre`` plus ``win``."""
    nmelds = len(hand.melds)
    if nmelds == 4:
        return True  # a lone tile waits on itself only
    lo = 9 * ws
    hi = lo + 9 if ws < 3 else 34
    pk = (lo, tuple(pre[lo:hi]))
    adds = _SUIT_ADDS.get(pk) or FP._suit_adds(*pk)
    fifth = options.fifth_copy_waits
    if sum(full[lo:hi]) % 3 == 2:  # the winning tile's suit holds the pair
        cands = adds[1] + adds[3] if fifth else adds[1]
    else:
        cands = adds[0] + adds[2] if fifth else adds[0]
        state = _SUIT_STATE.get(pk) or FP._suit_state(*pk)
        if state[1]:  # complete with a pair without the winning tile: the other pair may take it
            for klo, khi in FP._BOUNDS:
                if sum(full[klo:khi]) % 3 == 2:
                    k = (klo, tuple(full[klo:khi]))
                    other = _SUIT_ADDS.get(k) or FP._suit_adds(*k)
                    cands += other[0] + other[2] if fifth else other[0]
    for t in cands:
        if t != win:
            if fifth:
                return False
            if pre[t] + _seen_in_melds(hand, t) < 4:
                return False
    if nmelds >= 2 or not _special_near(infos, nmelds) or not _special_possible(pre, nmelds):
        return True
    # only the winning tile completes a standard shape: is another tile completing a special one?
    c = list(pre)
    for t in sorted(_special_candidates(pre, nmelds)):
        if t == win or pre[t] >= 4:  # a special shape never holds a fifth copy
            continue
        if not fifth and pre[t] + _seen_in_melds(hand, t) >= 4:
            continue
        c[t] += 1
        ok = FP.special_win(c, nmelds)
        c[t] -= 1
        if ok:
            return False
    return True


def _seen_in_melds(hand: Hand, t: int) -> int:
    """Copies of ``t`` in the player's declared melds."""
    seen = 0
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            if m.tile <= t <= m.tile + 2:
                seen += 1
        elif m.tile == t:
            seen += 3 if m.kind is MeldKind.PUNG else 4
    return seen


_SUIT_ADDS = FP._SUIT_ADDS
_INFO_M, _INFO_P, _INFO_S, _INFO_Z = FP.SUIT_INFO_BY_BYTES
_SUIT_STATE = FP._SUIT_STATE


def _unique_wait(hand: Hand, pre: list[int], win: int, options: McrOptions) -> bool:
    """Whether ``win`` is the only tile completing the concealed part ``pre`` (RULES.md §6,
    trap MCR-01), as :func:`majiang.analysis.waits` with all MCR shapes answers it: with the option
    ``fifth_copy_waits`` every tile completing the form counts (``Waits.formal``), without it only
    tiles with a copy out of the player's sight (``Waits.tiles``). The standard-shape waits come from
    the per-suit tables of :mod:`.fast`; special shapes are only tried when
    :func:`_special_possible`, on the few tiles that could complete one
    (:func:`.fast.special_win`)."""
    fifth = options.fifth_copy_waits
    visible = [0] * 34  # tiles in the player's melds (only looked at without fifth_copy_waits)
    if not fifth:
        for m in hand.melds:
            if m.kind is MeldKind.CHOW:
                t = m.tile
                visible[t] += 1
                visible[t + 1] += 1
                visible[t + 2] += 1
            else:
                visible[m.tile] += 3 if m.kind is MeldKind.PUNG else 4
    quick = max(pre) < 4
    std = FP.standard_waits(pre, formal=not quick)
    count = 0
    for t in std:
        if fifth or pre[t] + visible[t] < 4:
            if quick and t != win:
                return False
            count += 1
    if quick:
        # no second standard wait; only a special shape could still give one
        if not _special_possible(pre, len(hand.melds)):
            return True
    elif count > 1:
        return False
    c = list(pre)
    nmelds = len(hand.melds)
    for t in sorted(_special_candidates(pre, nmelds)):
        # a special shape never holds a fifth copy
        if t in std or pre[t] >= 4 or not (fifth or pre[t] + visible[t] < 4):
            continue
        c[t] += 1
        ok = FP.special_win(c, nmelds)
        c[t] -= 1
        if ok:
            count += 1
            if count > 1:
                return False
    return count == 1


def _special_candidates(pre: list[int], melds: int) -> set[int]:
    """Tiles that could complete a special shape with ``pre`` (a superset): the odd tile of six
    pairs; the terminals and honours for 十三幺; for 全不靠 the absent honours and absent tiles of
    a knitted arrangement holding every suited tile; for a knitted straight its missing tile, or
    once it is complete, tiles next to the other tiles."""
    out: set[int] = set()
    if melds >= 2:
        return out
    if not melds:
        odd = [t for t in range(34) if pre[t] % 2]
        if len(odd) == 1:
            out.add(odd[0])
        if sum(_ORPHAN_COUNTS(pre)) == sum(pre):
            out.update(_ORPHANS)
        if max(pre) <= 1:
            suited = [t for t in range(27) if pre[t]]
            for arr in KNITTED_ARRANGEMENTS:
                if all(t in arr for t in suited):
                    out.update(t for t in arr if not pre[t])
                    out.update(t for t in range(27, 34) if not pre[t])
    for arr in KNITTED_ARRANGEMENTS:
        missing = [t for t in arr if not pre[t]]
        if not missing:
            rest = list(pre)
            for t in arr:
                rest[t] -= 1
            for t, n in enumerate(rest):
                if n:
                    if t >= 27:
                        out.add(t)
                    else:
                        base = t - t % 9
                        out.update(x for x in range(t - 2, t + 3) if base <= x < base + 9)
        elif len(missing) == 1:
            out.add(missing[0])
    return out


def _plain_arrangements(hand: Hand, conditions: WinConditions, options: McrOptions = McrOptions()
                        ) -> list[McrResult]:
    """:func:`score_arrangements` by the plain procedure, for tests of the fast paths: the
    decompositions of :func:`majiang.analysis.decompositions`, the detectors of
    :mod:`majiang.rules.mcr.fans` with :func:`~majiang.rules.mcr.fans.select` per arrangement, and
    the unique wait from :func:`majiang.analysis.waits` (all MCR shapes). Same results, slower."""
    flowers, _ = _validate(hand, conditions)
    win = hand.win_tile
    assert win is not None
    decs = [(d.shape, tuple((g.kind, g.tiles) for g in d.groups))
            for d in decompositions(hand.full_counts(), 0, MCR_SHAPES)]
    if not decs:
        raise McrNotWinningError(f"{hand} is not a winning MCR hand")
    decs.sort(key=_tie_key)
    pre = list(hand.counts)
    shown = sum(m.tiles.count(win) for m in hand.melds if m.kind is not MeldKind.CONCEALED_KONG)
    last_of_kind = conditions.last_of_kind or shown == 3
    nine_gates = False
    if not hand.melds and win < 27:
        base = win - win % 9
        nine_gates = pre[base:base + 9] == _NINE_GATES and sum(pre) == 13
    if options.fifth_copy_waits:
        unique = len(waits(pre, 0, MCR_SHAPES).formal) == 1
    else:
        visible = [0] * 34
        for m in hand.melds:
            for t in m.tiles:
                visible[t] += 1
        unique = len(waits(pre, 0, MCR_SHAPES, visible=visible).tiles) == 1
    out = []
    for shape, groups in decs:
        units = [_meld_unit(m) for m in hand.melds]
        for kind, tiles in groups:
            if kind == "knitted":
                units.extend(Unit(KNIT, tuple(t for t in tiles if t // 9 == s)) for s in range(3))
                continue
            concealed = True
            if kind == "pung" and not conditions.self_drawn and tiles[0] == win:
                concealed = any(h[0] != "pung" and win in h[1] for h in groups)
            units.append(Unit(_GROUP_KIND[kind], tiles, concealed=concealed))
        wait = _wait_fan(groups, win, options) if unique else None
        ctx = Context(shape, tuple(units), win, conditions.self_drawn, last_of_kind, conditions.last_wall_tile,
                      conditions.kong_replacement, conditions.robbing_kong, conditions.seat_wind,
                      conditions.prevalent_wind, wait, nine_gates, options.melded_concealed_kong_pair)
        counted: dict[int, int] = {}
        for h in F.select(F.detect(ctx)):
            counted[h.fan] = counted.get(h.fan, 0) + 1
        total = sum(F.fan(n).points * c for n, c in counted.items())
        if not counted:
            counted = {_CHICKEN: 1}
            total = F.fan(_CHICKEN).points
        out.append(_result((total, counted, shape, units, (), (), (), (), (), -1, False, False), flowers, options,
                           conditions))
    return out


def _wait_fan(groups, win: int, options: McrOptions) -> str | None:
    """边张 / 嵌张 / 单钓将 from where a uniquely-waited winning tile sits (``edge``, ``closed``,
    ``single``, or None): in the middle of a chow = closed; the 3 of 123 or the 7 of 789 = edge;
    in the pair = single. With ``knitted_straight_waits`` False a tile that fits the knitted
    straight scores none (McrOptions). ``groups``: the decomposition's ``(kind, tiles)``."""
    edge = closed = single = False
    for kind, tiles in groups:
        if win not in tiles:
            continue
        if kind == "chow":
            r = tiles[0] % 9
            if win == tiles[1]:
                closed = True
            elif (win == tiles[2] and r == 0) or (win == tiles[0] and r == 6):
                edge = True
        elif kind == "pair":
            single = True
        elif kind == "knitted" and not options.knitted_straight_waits:
            return None
    return "edge" if edge else "closed" if closed else "single" if single else None


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
