"""Wenzhou W16 — the 16-tile 温州麻将 (MIL 温州 2024 reading): tiers, 财神钱, kong money.

Sources: RULES.md §4.1-§4.3, §4.5 (C1 ``wenzhou/rules.py`` is the MIL column the defaults follow;
C3, C5 alternatives are options). Profile id ``wz16``.

Winning readings (RULES.md §4.3): pair + 5 sets; 八对 (17 concealed tiles: eight pairs + one loose
tile, :func:`~majiang.rules.wenzhou.shapes.is_eight_pairs`); three 财神 win with any hand.

Multiplier (:func:`score`, RULES.md §4.5) — tiers, **the highest only**:

=============  ====  ==============================================================
tier           ×     reached by
=============  ====  ==============================================================
软和 soft       1     a 财神 stands for another tile and the win is on a discard
硬和 hard       2     self-draw; no 财神; every 财神 归位 (its own face); three 财神
                     without a winning shape
双翻 double     4     八对 self-drawn or natural (no 财神 or all 归位); three 财神
                     with a winning shape
辣子辣 ×8       8     option ``lazila`` (C3): three 财神 all 归位
=============  ====  ==============================================================

Option ``special_double`` adds C3's "特殊双翻" list to the ×4 tier (see :class:`W16Options`).

Settlement (:func:`settle`, MIL): all three others pay on any win, M × F when the dealer is the
winner or the payer (F = 2, 4, 6, 8 by the dealer's 1st-4th hand, staying 8), else M.
财神钱 (:func:`caishen_payments`): each player receives his 财神 count from every opponent and pays
theirs (0/0/1/2 → −3/−3/+1/+5). Kong money (:func:`kong_payments`): exposed 1, concealed 2, added 0
from each opponent, with the dealer factor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from majiang.analysis import STANDARD, Decomposition, decompositions
from majiang.hand import Hand, MeldKind
from majiang.rules.settlement import Ledger, Payment
from majiang.rules.wenzhou.common import (
    ContextError,
    NotWinningError,
    OptionsError,
    validate_wild_hand,
    Pattern,
    WildCountError,
    WildResult,
    WinContext,
    fixed_logical_tiles,
    free_groups,
    wilds_returned,
)
from majiang.rules.wenzhou.shapes import is_eight_pairs, is_natural_eight_pairs
from majiang.tiles import DRAGONS, is_honor, is_suited

RULESET = "wz16"

TIERS: dict[int, Pattern] = {
    1: Pattern("wz16.soft", "软和", "Soft win", 1),
    2: Pattern("wz16.hard", "硬和", "Hard win", 2),
    4: Pattern("wz16.double", "双翻", "Double", 4),
    8: Pattern("wz16.lazila", "辣子辣", "Three wilds home (×8)", 8),
}
"""The tier patterns (value = multiplier)."""

REASONS: dict[str, Pattern] = {p.id: p for p in (
    Pattern("wz16.wild_substitute", "财神代牌", "A wild stands for another tile", None),
    Pattern("wz16.self_drawn", "自摸", "Self-drawn", None),
    Pattern("wz16.natural", "财神归位或无财", "No wild, or every wild on its own face", None),
    Pattern("wz16.eight_pairs_soft", "带财八对", "Eight pairs with a wild substitute", None),
    Pattern("wz16.eight_pairs_self_drawn", "八对自摸", "Eight pairs, self-drawn", None),
    Pattern("wz16.eight_pairs_natural", "无财八对", "Eight pairs, natural", None),
    Pattern("wz16.three_wilds_shape", "三财神和牌型", "Three wilds with a winning shape", None),
    Pattern("wz16.three_wilds_no_shape", "三财神非和牌型", "Three wilds without a winning shape", None),
    Pattern("wz16.three_wilds_home", "三财神归位", "Three wilds on their own face", None),
    Pattern("wz16.robbing_kong", "抢杠", "Robbing a kong (counted hard)", None),
    Pattern("wz16.special_tianhu", "天胡", "Heavenly win (special double)", None),
    Pattern("wz16.special_dihu", "地胡", "Earthly win (special double)", None),
    Pattern("wz16.special_gangkai", "杠开", "Win on a kong replacement (special double)", None),
    Pattern("wz16.special_pengpenghu", "碰碰胡", "All pungs (special double)", None),
    Pattern("wz16.special_qingyise", "清一色", "Full flush (special double)", None),
    Pattern("wz16.special_hunyise", "混一色", "Half flush (special double)", None),
    Pattern("wz16.special_zhongfabai", "中发白", "All three dragons as pairs or pungs (special double)", None),
    Pattern("wz16.special_caishen_niudui", "财神牛对", "Two wilds as the pair (special double)", None),
    Pattern("wz16.special_shuang_caishen_guiwei", "双财神归位", "Two wilds on their own face (special double)",
            None),
)}
"""Why the tier was reached (value ``None``; the tier pattern carries the multiplier)."""

KONG_KINDS = ("exposed", "concealed", "added")


@dataclass(frozen=True, slots=True)
class W16Options:
    """Options of W16 (defaults: MIL 温州 2024 as in C1; RULES.md §4.5).

    Attributes:
        dealer_factor_schedule: F by the dealer's 1st, 2nd ... hand (MIL 2, 4, 6, 8; C3 1, 2, 3, 4,
            "进阶1" 2, 4, 6, 8, "进阶2" 2, 4, 8, 16); after the end F stays at the last value.
        soft_eight_pairs: multiplier of a 八对 won on a discard with a 财神 substitute (MIL 1; C5 2).
        three_wilds_no_shape / three_wilds_with_shape: 2 and 4 (MIL).
        lazila: ×8 when three 财神 all play their own face (C3 option; off).
        special_double: C3 "特殊双翻" (off): ×4 also for 天胡, 地胡, 杠开, 碰碰胡, 清一色, 混一色,
            中发白 (each dragon a pair or pung), 财神牛对 (two 财神 as the pair) and 双财神归位 (two
            财神, both on their own face). C3's 单张吊 and 全求神 need the wait, which the context
            does not carry: not implemented.
        robbing_kong_hard: a robbed-kong win is at least hard (C5; off).
        caishen_money: settle 财神钱 when ``ctx.wild_counts`` is given (on).
        winner_three_wilds_double: a winner with three 财神 collects 财神钱 double (C3; off).
        kong_money: settle kong money for ``ctx.kongs`` (on); ``kong_points`` = (exposed,
            concealed, added) = (1, 2, 0).
        live_wild_copies: 财神 in play (3).

    Raises:
        OptionsError: a value out of range.
    """

    dealer_factor_schedule: tuple[int, ...] = (2, 4, 6, 8)
    soft_eight_pairs: int = 1
    three_wilds_no_shape: int = 2
    three_wilds_with_shape: int = 4
    lazila: bool = False
    special_double: bool = False
    robbing_kong_hard: bool = False
    caishen_money: bool = True
    winner_three_wilds_double: bool = False
    kong_money: bool = True
    kong_points: tuple[int, int, int] = (1, 2, 0)
    live_wild_copies: int = 3

    def __post_init__(self) -> None:
        sched = tuple(self.dealer_factor_schedule)
        if not sched or any(not isinstance(f, int) or f <= 0 for f in sched):
            raise OptionsError(f"dealer_factor_schedule must be positive ints, got {self.dealer_factor_schedule!r}")
        object.__setattr__(self, "dealer_factor_schedule", sched)
        for name in ("soft_eight_pairs", "three_wilds_no_shape", "three_wilds_with_shape"):
            if getattr(self, name) not in (1, 2, 4, 8):
                raise OptionsError(f"{name} must be a tier 1, 2, 4 or 8, got {getattr(self, name)!r}")
        kp = tuple(self.kong_points)
        if len(kp) != 3 or any(not isinstance(p, int) or p < 0 for p in kp):
            raise OptionsError(f"kong_points must be three ints >= 0, got {self.kong_points!r}")
        object.__setattr__(self, "kong_points", kp)
        if self.live_wild_copies not in (3, 4):
            raise OptionsError(f"live_wild_copies must be 3 or 4, got {self.live_wild_copies!r}")


DEFAULT_OPTIONS = W16Options()


def _validate(hand: Hand, ctx: WinContext, opt: W16Options) -> None:
    validate_wild_hand(hand, ctx, 5, opt.live_wild_copies)
    if hand.total_wilds and ctx.wild_face is None:
        raise ContextError("a hand with 财神 needs ctx.wild_face to tell 归位 from substitution")


def score(hand: Hand, ctx: WinContext, options: W16Options | None = None) -> WildResult:
    """Score a W16 win: the highest tier reached (module doc; RULES.md §4.5).

    ``hand`` in the engine convention, 16-tile structure (``Hand.check(5)``); ``ctx.wild_face``
    needed when the hand holds a 财神. Returns a :class:`WildResult` with ``unit="multiplier"``;
    ``patterns`` = the tier (its value is the multiplier) and the reason (value ``None``).

    Raises:
        TileCountError: wrong size (小相公/大相公 included) or a fifth copy.
        WildCountError: more 财神 than ``live_wild_copies``.
        ContextError: a missing wild face, a win on a discarded 财神, 杠上开花 without a kong.
        NotWinningError: no winning reading.
    """
    opt = options or DEFAULT_OPTIONS
    _validate(hand, ctx, opt)
    counts, wilds = hand.full_counts(), hand.total_wilds
    face = ctx.wild_face
    sd = ctx.self_drawn
    cands: list[tuple[int, int, str, Decomposition | None, tuple[str, ...]]] = []
    decs = decompositions(counts, wilds, STANDARD)
    std_natural = next((d for d in decs if wilds_returned(d, face)), None)
    if decs:
        if sd:
            cands.append((2, 1, "standard", std_natural or decs[0], ("wz16.self_drawn",)))
        elif std_natural is not None:
            cands.append((2, 1, "standard", std_natural, ("wz16.natural",)))
        elif ctx.robbing_kong and opt.robbing_kong_hard:
            cands.append((2, 1, "standard", decs[0], ("wz16.robbing_kong",)))
        else:
            cands.append((1, 1, "standard", decs[0], ("wz16.wild_substitute",)))
    eight = not hand.melds and is_eight_pairs(counts, wilds)
    eight_natural = eight and is_natural_eight_pairs(counts, wilds, face)
    if eight:
        if sd:
            cands.append((4, 2, "eight-pairs", None, ("wz16.eight_pairs_self_drawn",)))
        elif eight_natural:
            cands.append((4, 2, "eight-pairs", None, ("wz16.eight_pairs_natural",)))
        else:
            m = max(opt.soft_eight_pairs, 2 if ctx.robbing_kong and opt.robbing_kong_hard else 1)
            cands.append((m, 2, "eight-pairs", None, ("wz16.eight_pairs_soft",)))
    if wilds >= 3:
        if opt.lazila and (std_natural is not None or eight_natural):
            cands.append((8, 3, "three-wilds", std_natural, ("wz16.three_wilds_home",)))
        elif decs or eight:
            cands.append((opt.three_wilds_with_shape, 3, "three-wilds", decs[0] if decs else None,
                          ("wz16.three_wilds_shape",)))
        else:
            cands.append((opt.three_wilds_no_shape, 3, "three-wilds", None, ("wz16.three_wilds_no_shape",)))
    if opt.special_double and (decs or eight or wilds >= 3):
        special = _special_double(hand, ctx, decs)
        if special:
            reason, shape, d = special
            if shape is None:
                shape = "standard" if decs else "eight-pairs" if eight else "three-wilds"
            cands.append((4, 0, shape, d, (reason,)))
    if not cands:
        raise NotWinningError(f"{hand} is not a winning W16 hand")
    mult, _, shape, d, reasons = max(cands, key=lambda c: (c[0], c[1]))
    pats = (TIERS[mult],) + tuple(REASONS[r] for r in reasons)
    return WildResult(RULESET, mult, "multiplier", pats, shape, d, ctx, opt)


def _special_double(hand: Hand, ctx: WinContext, decs: list[Decomposition]):
    """The first C3 特殊双翻 condition met: ``(reason id, shape or None, decomposition)`` or ``None``."""
    if ctx.heavenly:
        return "wz16.special_tianhu", None, decs[0] if decs else None
    if ctx.earthly:
        return "wz16.special_dihu", None, decs[0] if decs else None
    if ctx.kong_replacement and decs:
        return "wz16.special_gangkai", "standard", decs[0]
    melds_chow = any(m.kind is MeldKind.CHOW for m in hand.melds)
    for d in decs:
        tiles = fixed_logical_tiles(d, hand)
        fsets, fpairs = free_groups(d)
        suits = {t // 9 for t in tiles if is_suited(t)}
        honours = any(is_honor(t) for t in tiles)
        if not melds_chow and not any(g.kind == "chow" for g in d.groups):
            return "wz16.special_pengpenghu", "standard", d
        if len(suits) == 1 and not honours:
            return "wz16.special_qingyise", "standard", d
        if len(suits) == 1 and honours:
            return "wz16.special_hunyise", "standard", d
        shown = {g.tiles[0] for g in d.groups if g.kind in ("pung", "pair") and g.tiles[0] in DRAGONS}
        shown |= {m.tile for m in hand.melds if m.kind is not MeldKind.CHOW and m.tile in DRAGONS}
        if 3 - len(shown) <= fsets + fpairs:
            return "wz16.special_zhongfabai", "standard", d
        if fpairs:
            return "wz16.special_caishen_niudui", "standard", d
        if hand.total_wilds == 2 and wilds_returned(d, ctx.wild_face):
            return "wz16.special_shuang_caishen_guiwei", "standard", d
    return None


# ------------------------------------------------------------------------------------- settlement
def dealer_factor(dealer_streak: int, options: W16Options | None = None) -> int:
    """F for the dealer's (``dealer_streak`` + 1)-th hand in a row: 2, 4, 6, 8, then 8 (MIL)."""
    opt = options or DEFAULT_OPTIONS
    if not isinstance(dealer_streak, int) or dealer_streak < 0:
        raise ContextError(f"dealer_streak must be an int >= 0, got {dealer_streak!r}")
    sched = opt.dealer_factor_schedule
    return sched[min(dealer_streak, len(sched) - 1)]


def next_dealer(dealer: int, dealer_streak: int, winner: int | None, *, max_streak: int = 3,
                keep_on_draw: bool = False, players: int = 4) -> tuple[int, int]:
    """``(dealer, dealer_streak)`` for the next hand (RULES.md §4.5): the dealer keeps the deal by
    winning, at most ``max_streak`` extra hands (MIL: 4 dealerships, factors 2-8); a drawn hand
    (``winner=None``) passes the deal unless ``keep_on_draw`` (C5 keeps it; C3 passes it)."""
    WinContext(seat=dealer, dealer=dealer)
    if winner is not None:
        WinContext(seat=winner, dealer=dealer)
    if not isinstance(dealer_streak, int) or dealer_streak < 0:
        raise ContextError(f"dealer_streak must be an int >= 0, got {dealer_streak!r}")
    keeps = winner == dealer or (winner is None and keep_on_draw)
    if keeps and dealer_streak < max_streak:
        return dealer, dealer_streak + 1
    return (dealer + 1) % players, 0


def _collect(owner: int, points: int, ctx: WinContext, factor: int, reason: str) -> list[Payment]:
    return [Payment(p, owner, points * (factor if ctx.dealer in (owner, p) else 1), reason)
            for p in range(ctx.players) if p != owner and points]


def caishen_payments(wild_counts: Sequence[int], *, winner: int | None = None,
                     options: W16Options | None = None) -> Ledger:
    """财神钱 (RULES.md §4.5, MIL): every player receives his 财神 count from each opponent and pays
    theirs — net 3·n_i − Σ others (0/0/1/2 → −3/−3/+1/+5). With ``winner_three_wilds_double`` a
    winner holding three counts double (C3).

    Raises :class:`WildCountError` for more 财神 in all than ``live_wild_copies`` and
    :class:`ContextError` for a malformed list."""
    opt = options or DEFAULT_OPTIONS
    wc = list(wild_counts)
    if len(wc) != 4 or any(not isinstance(n, int) or n < 0 for n in wc):
        raise ContextError(f"wild_counts needs four counts >= 0, got {wild_counts!r}")
    if sum(wc) > opt.live_wild_copies:
        raise WildCountError(f"{sum(wc)} 财神 held in all: only {opt.live_wild_copies} are in play")
    eff = list(wc)
    if winner is not None and opt.winner_three_wilds_double and wc[winner] >= 3:
        eff[winner] *= 2
    pays = [Payment(j, i, eff[i], "wz16.caishen_money 财神钱")
            for i in range(4) for j in range(4) if i != j and eff[i]]
    return Ledger.of(pays)


def kong_payments(ctx: WinContext, options: W16Options | None = None) -> Ledger:
    """Kong money for every kong in ``ctx.kongs`` (RULES.md §4.5, MIL): exposed 1, concealed 2,
    added 0 from each opponent, × F when the dealer is the owner or the payer. Usable on a drawn
    hand too (pass a :class:`WinContext` with the dealer and streak)."""
    opt = options or DEFAULT_OPTIONS
    factor = dealer_factor(ctx.dealer_streak, opt)
    pays: list[Payment] = []
    for owner, kind in ctx.kongs:
        pts = opt.kong_points[KONG_KINDS.index(kind)]
        pays.extend(_collect(owner, pts, ctx, factor, f"wz16.kong_money {kind}"))
    return Ledger.of(pays)


def settle(result: WildResult, ctx: WinContext | None = None) -> Ledger:
    """The payments of a W16 hand (module doc): the win (every opponent pays M, × F between dealer
    and winner), plus 财神钱 when ``ctx.wild_counts`` is given and kong money for ``ctx.kongs``
    (each switchable). Returns a zero-sum :class:`Ledger`.

    Raises:
        ContextError: ``result`` is not a W16 result; WildCountError: ``wild_counts`` holds more
            财神 than are in play.
    """
    if result.ruleset != RULESET:
        raise ContextError(f"a {result.ruleset} result cannot be settled by W16")
    ctx = ctx or result.ctx
    opt: W16Options = result.options or DEFAULT_OPTIONS
    factor = dealer_factor(ctx.dealer_streak, opt)
    led = Ledger.of(_collect(ctx.seat, result.value, ctx, factor, "wz16.win"))
    if opt.caishen_money and ctx.wild_counts is not None:
        led = led + caishen_payments(ctx.wild_counts, winner=ctx.seat, options=opt)
    if opt.kong_money and ctx.kongs:
        led = led + kong_payments(ctx, opt)
    return led
