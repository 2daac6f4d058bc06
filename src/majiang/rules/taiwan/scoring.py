"""Scoring a Taiwan 16-tile win: :func:`score` → :class:`TaiwanResult`.

Sources: RULES.md §3.1 (winning shape 5 sets + 1 pair; 八對半 optional; minimum tai), §3.2 (the tai
table and non-stacking rules; rule 6: score every decomposition and keep the best), §3.4 (宝牌, not
counted toward the minimum), trap TW-01 (17 tiles win) and TW-03 (flower wins bypass the shape check).

How a hand is scored
--------------------
1. Flower wins first (trap TW-03). 七搶一 (``win.flower_drawer``) is always the whole score.
   八仙過海 (eight flowers, self-drawn) is the whole score in the default standalone mode; with
   ``eight_flowers_mode="added"`` it is added to the patterns of a complete hand, if there is one.
2. Otherwise the hand must be complete: 5 sets + pair counting declared melds (``Hand.check(sets=5)``),
   or with ``tw.ba_duiban`` enabled seven pairs + one triplet, all concealed.
3. Every *reading* is scored: one decomposition of the concealed tiles (plus the winning tile) and
   one choice of the group the winning tile completed (on a win from another player's tile, a triplet
   it completed is not concealed). Detectors run, the exclusion table removes non-stacking patterns,
   values come from the options (preset + overrides), and the best reading is kept.
4. 宝牌 tai (when enabled) are added; they do not count toward ``minimum_tai``.

The dealer terms 莊家 / 連莊 are **not** in the result: they depend on the payer and are added per
payment by :func:`majiang.rules.taiwan.settlement.settle` (RULES.md §3.3).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import NamedTuple

from majiang.analysis import STANDARD, decompositions, is_winning, waits
from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.taiwan.conditions import TaiwanWin
from majiang.rules.taiwan.options import TaiwanOptions
from majiang.rules.taiwan.patterns import (
    BY_ID,
    CHOW,
    PAIR,
    PATTERNS,
    PUNG,
    Context,
    Hit,
    Pattern,
    Unit,
    apply_exclusions,
    detect,
    exclusions_for,
)
from majiang.tiles import NUM_KINDS, WILD

__all__ = ["PatternCount", "TaiwanNotWinningError", "TaiwanResult", "TaiwanScoringError", "can_win", "is_complete",
           "score"]

SETS = 5
"""Sets of a 16-tile hand (RULES.md §1.2)."""
STANDARD_SHAPE, EIGHT_HALF_PAIRS, FLOWERS = "standard", "eight-half-pairs", "flowers"
_ORDER = {p.id: i for i, p in enumerate(PATTERNS)}


class TaiwanNotWinningError(MajiangError):
    """The hand is not a complete Taiwan hand (no 5 sets + pair, nor an enabled 八對半) and no
    flower win applies."""


class TaiwanScoringError(MajiangError):
    """A scoring request that cannot be honoured: no winning tile, wildcards (Taiwan has none),
    flowers given twice and different, 報聽 or 宝牌 used while that option is off, settling a hand
    under the minimum."""


class PatternCount(NamedTuple):
    """A counted pattern and how many times it counts (e.g. 三元牌 × 2)."""

    pattern: Pattern
    count: int


@dataclass(frozen=True)
class TaiwanResult:
    """The score of one Taiwan win.

    Attributes:
        total_tai: the hand's 台: every counted pattern (宝牌 included), after ``options.tai_cap``;
            without the per-payment dealer terms (those are added by the settlement, §3.3).
        patterns: the counted patterns in table order, each ``(pattern, count)``; its tai are
            ``options.tai(pattern.id) × count`` (see :meth:`tai_of`).
        bao_tai: the 宝牌 tai inside ``total_tai`` (0 unless 宝牌 mode is on, §3.4).
        uncapped_tai: ``total_tai`` before the cap.
        flower_win: ``"tw.baxian_guohai"`` / ``"tw.qiqiang_yi"`` for a flower win, else ``None``.
        shape: ``standard``, ``eight-half-pairs`` or ``flowers`` (a flower win without a hand).
        units: the sets and pair(s) of the chosen reading (empty for a standalone flower win).
        win: the win conditions scored.
        options: the options used.
    """

    total_tai: int
    patterns: tuple[PatternCount, ...]
    bao_tai: int
    uncapped_tai: int
    flower_win: str | None
    shape: str
    units: tuple[Unit, ...]
    win: TaiwanWin
    options: TaiwanOptions

    @property
    def minimum_tai(self) -> int:
        return self.options.minimum_tai

    @property
    def tai_for_minimum(self) -> int:
        """The tai that count toward the minimum: all but 宝牌 (RULES.md §3.4)."""
        return min(self.uncapped_tai - self.bao_tai, self.total_tai)

    @property
    def meets_minimum(self) -> bool:
        """Whether this is a valid win under ``options.minimum_tai`` (三台起胡 on the platform)."""
        return self.tai_for_minimum >= self.options.minimum_tai

    def tai_of(self, pid: str) -> int:
        """The tai pattern ``pid`` contributes (0 if it is not counted)."""
        return sum(self.options.tai(pc.pattern.id) * pc.count for pc in self.patterns if pc.pattern.id == pid)

    def counts(self) -> dict[str, int]:
        """``{pattern id: count}`` of the counted patterns."""
        return {pc.pattern.id: pc.count for pc in self.patterns}

    def ids(self) -> set[str]:
        return {pc.pattern.id for pc in self.patterns}

    def __str__(self) -> str:
        parts = []
        for pc in self.patterns:
            times = f"×{pc.count}" if pc.count > 1 else ""
            parts.append(f"{pc.pattern.zh}{times} {self.options.tai(pc.pattern.id) * pc.count}")
        return (", ".join(parts) or "no pattern") + f" = {self.total_tai} 台"

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary (for records and the web table)."""
        return {
            "total_tai": self.total_tai,
            "uncapped_tai": self.uncapped_tai,
            "bao_tai": self.bao_tai,
            "meets_minimum": self.meets_minimum,
            "flower_win": self.flower_win,
            "shape": self.shape,
            "patterns": [{"id": pc.pattern.id, "zh": pc.pattern.zh, "en": pc.pattern.en, "count": pc.count,
                          "tai": self.options.tai(pc.pattern.id) * pc.count} for pc in self.patterns],
        }


# ------------------------------------------------------------------------------------ helpers
def _flowers(hand: Hand | None, win: TaiwanWin) -> tuple[int, ...]:
    from_hand = tuple(sorted(hand.flowers)) if hand is not None else ()
    if win.flowers is None:
        if len(set(from_hand)) != len(from_hand):
            raise TaiwanScoringError(f"the hand lists a flower twice: {from_hand}")
        return from_hand
    if from_hand and from_hand != win.flowers:
        raise TaiwanScoringError(f"flowers given twice and different: hand {from_hand}, win {win.flowers}")
    return win.flowers


def _meld_unit(m: Meld) -> Unit:
    if m.kind is MeldKind.CHOW:
        return Unit(CHOW, m.tile, concealed=False, claimed=True)
    if m.kind is MeldKind.CONCEALED_KONG:
        return Unit(PUNG, m.tile, concealed=True, claimed=False, kong=True)
    return Unit(PUNG, m.tile, concealed=False, claimed=True, kong=m.kind.is_kong)


def _eight_half_pairs(counts: list[int]) -> list[tuple[Unit, ...]] | None:
    """The 八對半 reading of 17 concealed tiles (7 pairs + 1 triplet), or ``None``."""
    if sum(counts) != 17 or any(n not in (0, 2, 3, 4) for n in counts) or sum(1 for n in counts if n == 3) != 1:
        return None
    units: list[Unit] = []
    for t, n in enumerate(counts):
        if n == 3:
            units.append(Unit(PUNG, t, concealed=True))
        else:
            units.extend([Unit(PAIR, t, concealed=True)] * (n // 2))
    return [tuple(units)]


def _wait_kinds(hand: Hand, options: TaiwanOptions) -> int:
    """Tile kinds that complete the hand before the win (RULES.md §3.2 獨聽), those exhausted by the
    hand's own four copies included unless ``options.single_wait_counts_own_four`` is off (§3.5)."""
    visible = [0] * NUM_KINDS
    for m in hand.melds:
        for t in m.tiles:
            visible[t] += 1
    w = waits(list(hand.counts), 0, STANDARD, visible=visible)
    # formal: also a tile whose four copies the hand holds or shows (RULES.md §3.5)
    kinds = set(w.formal if options.single_wait_counts_own_four else w.tiles)
    if "tw.ba_duiban" in options.enabled and not hand.melds:
        c = list(hand.counts)
        for t in range(NUM_KINDS):
            c[t] += 1
            if _eight_half_pairs(c):
                kinds.add(t)
            c[t] -= 1
    return len(kinds)


def _readings(hand: Hand, win: TaiwanWin, options: TaiwanOptions) -> list[tuple[str, tuple[Unit, ...], int]]:
    """Every (shape, units, win_index) reading of a complete hand."""
    w = hand.win_tile
    assert w is not None
    full = hand.full_counts()
    melds = tuple(_meld_unit(m) for m in hand.melds)
    concealed_win = win.self_drawn
    candidates: list[tuple[str, tuple[Unit, ...]]] = []
    for d in decompositions(full, 0, STANDARD):
        units = []
        for g in d.groups:
            if g.kind == "chow":
                units.append(Unit(CHOW, g.tiles[0], concealed=True))
            elif g.kind == "pung":
                units.append(Unit(PUNG, g.tiles[0], concealed=True))
            elif g.kind == "pair":
                units.append(Unit(PAIR, g.tiles[0], concealed=True))
            else:  # pragma: no cover - no wildcards in Taiwan
                raise TaiwanScoringError(f"unexpected group {g} in a Taiwan hand")
        candidates.append((STANDARD_SHAPE, tuple(units)))
    if "tw.ba_duiban" in options.enabled and not hand.melds:
        for units in _eight_half_pairs(full) or ():
            candidates.append((EIGHT_HALF_PAIRS, units))
    out = []
    for shape, units in candidates:
        seen = set()
        for i, u in enumerate(units):
            covers = u.tile == w if u.kind != CHOW else u.tile <= w <= u.tile + 2
            if not covers or (u.kind, u.tile) in seen:
                continue
            seen.add((u.kind, u.tile))
            us = list(units)
            if u.kind == PUNG and not concealed_win:
                us[i] = Unit(PUNG, u.tile, concealed=False)
            out.append((shape, melds + tuple(us), len(melds) + i))
    return out


def _tally(hits: list[Hit], options: TaiwanOptions) -> tuple[list[PatternCount], int, int]:
    """(patterns in table order, tai without 宝牌, 宝牌 tai) of the kept hits."""
    cnt: Counter[str] = Counter()
    for h in hits:
        cnt[h.id] += h.count
    pats = []
    tai = bao = 0
    for pid in sorted(cnt, key=_ORDER.__getitem__):
        value = options.tai(pid)
        if value == 0 or cnt[pid] == 0:
            continue
        pats.append(PatternCount(BY_ID[pid], cnt[pid]))
        if pid == "tw.baopai":
            bao += value * cnt[pid]
        else:
            tai += value * cnt[pid]
    return pats, tai, bao


def _check_options(win: TaiwanWin, options: TaiwanOptions) -> None:
    if win.declared_ready and "tw.baoting" not in options.enabled:
        raise TaiwanScoringError("報聽 (declared_ready) needs the optional rule: enabled={'tw.baoting'}")
    if win.bao_pai and not options.bao_pai:
        raise TaiwanScoringError("宝牌 faces given but 宝牌 mode is off: enabled={'tw.baopai'} "
                                 "(or TaiwanOptions.platform())")


def _result(pats: list[PatternCount], tai: int, bao: int, flower_win: str | None, shape: str,
            units: tuple[Unit, ...], win: TaiwanWin, options: TaiwanOptions) -> TaiwanResult:
    uncapped = tai + bao
    total = uncapped if options.tai_cap is None else min(uncapped, options.tai_cap)
    return TaiwanResult(total, tuple(pats), bao, uncapped, flower_win, shape, units, win, options)


# ------------------------------------------------------------------------------------ public
def score(hand: Hand | None, win: TaiwanWin, options: TaiwanOptions = TaiwanOptions()) -> TaiwanResult:
    """Score a Taiwan 16-tile win (RULES.md §3.2, §3.4).

    Args:
        hand: the winner's hand with ``win_tile`` set (the drawn or claimed tile, not in
            ``concealed``); 17 tiles counting each declared meld as 3. May be ``None`` for a flower
            win (七搶一, standalone 八仙過海).
        win: the circumstances (:class:`~majiang.rules.taiwan.conditions.TaiwanWin`).
        options: house rules (:class:`~majiang.rules.taiwan.options.TaiwanOptions`).

    Returns:
        :class:`TaiwanResult` of the best reading. A result below ``options.minimum_tai`` is still
        returned (``meets_minimum`` is ``False``); the settlement refuses it.

    Raises:
        TaiwanNotWinningError: the hand is not complete and no flower win applies.
        TaiwanScoringError: no hand or winning tile for a normal win, wildcards in the hand, flowers
            given twice and different, 報聽/宝牌 used while off.
        majiang.errors.TileCountError: a hand of the wrong size or with a fifth copy
            (``Hand.check(sets=5)``).
    """
    _check_options(win, options)
    flowers = _flowers(hand, win)
    if win.flowers is None:  # the result carries the flowers actually scored
        win = replace(win, flowers=flowers)
    rows = exclusions_for(options)
    fw = win.flower_win
    if fw is not None and options.is_on(fw):
        standalone = fw == "tw.qiqiang_yi" or options.eight_flowers_mode == "standalone"
        if standalone or hand is None or hand.win_tile is None:
            pats, tai, bao = _tally(apply_exclusions(_flower_hits(fw), rows), options)
            return _result(pats, tai, bao, fw, FLOWERS, (), win, options)
    if fw == "tw.qiqiang_yi":
        raise TaiwanNotWinningError("七搶一 is switched off (tai 0) and the winner has no complete hand")
    if hand is None or hand.win_tile is None:
        raise TaiwanScoringError("a normal win needs a hand with win_tile set")
    if hand.wilds or hand.win_tile == WILD:
        raise TaiwanScoringError("Taiwan 16-tile mahjong has no wildcards")
    hand.check(sets=SETS)
    readings = _readings(hand, win, options)
    if not readings:
        raise TaiwanNotWinningError(f"{hand} is not a complete Taiwan hand (5 sets + pair"
                                    + (", or 八對半)" if "tw.ba_duiban" in options.enabled else ")"))
    if options.prefer_triplet_on_discard and not win.self_drawn:
        triplet = [r for r in readings if r[1][r[2]].kind == PUNG]
        readings = triplet or readings
    wait_kinds = _wait_kinds(hand, options)
    counts = tuple(hand.all_tiles_counts())
    best: tuple[tuple[int, int], list[PatternCount], int, int, str, tuple[Unit, ...]] | None = None
    for shape, units, wi in readings:
        ctx = Context(units, wi, hand.win_tile, shape, counts, flowers, wait_kinds, win.seat_wind_tile,
                      win.round_wind_tile, win, options)
        hits = detect(ctx)  # includes 八仙過海 in "added" mode
        pats, tai, bao = _tally(apply_exclusions(hits, rows), options)
        key = (tai, len(pats))  # most tai, then most patterns, then the first reading
        if best is None or key > best[0]:
            best = (key, pats, tai, bao, shape, units)
    assert best is not None
    _, pats, tai, bao, shape, units = best
    return _result(pats, tai, bao, fw if any(p.pattern.id == fw for p in pats) else None, shape, units, win,
                   options)


def _flower_hits(fw: str) -> list[Hit]:
    return [Hit(fw)]


def can_win(hand: Hand | None, win: TaiwanWin, options: TaiwanOptions = TaiwanOptions()) -> bool:
    """Whether ``hand`` wins under ``win`` and ``options``: a complete hand (or a flower win) that
    meets ``options.minimum_tai`` (宝牌 not counted). Bad input still raises (see :func:`score`)."""
    try:
        return score(hand, win, options).meets_minimum
    except TaiwanNotWinningError:
        return False


def is_complete(hand: Hand, options: TaiwanOptions = TaiwanOptions()) -> bool:
    """Shape only: 5 sets + pair (or an enabled 八對半) from ``hand``'s concealed tiles, melds and
    ``win_tile``. No tai, no minimum. Raises ``TileCountError`` on a bad size."""
    if hand.win_tile is None:
        raise TaiwanScoringError("is_complete needs a hand with win_tile set")
    hand.check(sets=SETS)
    full = hand.full_counts()
    if is_winning(full, 0, STANDARD):
        return True
    return "tw.ba_duiban" in options.enabled and not hand.melds and _eight_half_pairs(full) is not None

