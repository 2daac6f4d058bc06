"""Wenzhou W13 — the seed-003 财神 game (13 tiles): multipliers, settlement, penalties.

Sources: seed ``003_*`` (SD3) and RULES.md §4.1-§4.4, §4.6, §9.4. The project's primary Wenzhou
profile (id ``wz13``).

Scoring (:func:`score`, RULES.md §4.4): the special hands of the SD3 table **add up**, each from the
self-drawn or the discard column; a hand with none is a plain win, ×1 on a discard (平胡) and ×2
self-drawn (自摸). The special hands replace the basic ×1/×2 (default of the §4.4 ambiguity).

=========  ====  =======  ==========================================================
pattern    self  discard  definition
=========  ====  =======  ==========================================================
清一色      8     4        every tile (melds included) of one suit
字一色      8     4        every tile an honour; needs a winning shape
七对子      4     2        seven pairs (four of a kind = two pairs, option)
大对子      4     2        no sequence: pungs/kongs and the pair
不搭        4     2        :func:`~majiang.rules.wenzhou.shapes.is_buda`
天胡        8     –        the dealer complete on his initial 14 tiles
地胡        4     –        a non-dealer complete with his first draw
杠上开花    4     –        won on the replacement tile after a kong
财神会      4     –        self-draw while holding three 财神 (``caishenhui_mode``)
抢杠        –     4        won on the tile of another player's added kong
=========  ====  =======  ==========================================================

Winning readings: the standard shape (pair + 4 sets), 七对子, 十三幺 (the engine preset allows it;
no value of its own), 不搭, and — on a self-draw with three 财神 — the outright 财神会 win needing no
shape (RULES.md §4.3, SD0 "3 or 4 wilds win"). Every reading of every decomposition is scored and
the highest total kept (wildcards choose their tiles in the winner's favour).

Settlement (:func:`settle`, RULES.md §4.6): base B = 3, 5, 7, 9 by the dealer's consecutive hands
(``dealer_streak`` 0, 1, 2, 3, staying 9); dealer wins → each non-dealer pays B×M; non-dealer wins
→ the dealer pays B×M and each other non-dealer M. Every loser pays on a discard win too; the
discarder adds the 犯枪 point. 抢杠: the robbed player pays every loser's amount; 统包: when A has
fed three chows to his next player B and A or B wins, the other pays every loser's amount once.
Penalties outside a win: :func:`penalty_followed` (被跟), :func:`penalty_wild_discard` (误打财神).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from majiang.analysis import Decomposition, ShapeRules, decompositions
from majiang.hand import Hand, MeldKind
from majiang.rules.settlement import Ledger, Payment
from majiang.rules.wenzhou.common import (
    ActionError,
    ContextError,
    NotWinningError,
    OptionsError,
    validate_wild_hand,
    Pattern,
    WildResult,
    WinContext,
    fixed_logical_tiles,
)
from majiang.rules.wenzhou.shapes import is_buda
from majiang.tiles import WILD, is_honor, is_suited

RULESET = "wz13"


@dataclass(frozen=True, slots=True)
class PatternDef:
    """A row of the SD3 special-hand table: ids, names and the (self-draw, discard) multipliers."""

    id: str
    name_zh: str
    name_en: str
    self_drawn: int | None
    discard: int | None

    def counted(self, self_drawn: bool) -> Pattern | None:
        v = self.self_drawn if self_drawn else self.discard
        return None if v is None else Pattern(self.id, self.name_zh, self.name_en, v)


TABLE: dict[str, PatternDef] = {d.id: d for d in (
    PatternDef("wz13.qingyise", "清一色", "Full flush", 8, 4),
    PatternDef("wz13.ziyise", "字一色", "All honours", 8, 4),
    PatternDef("wz13.qiduizi", "七对子", "Seven pairs", 4, 2),
    PatternDef("wz13.daduizi", "大对子", "All pungs", 4, 2),
    PatternDef("wz13.buda", "不搭", "Unconnected tiles", 4, 2),
    PatternDef("wz13.tianhu", "天胡", "Heavenly win", 8, None),
    PatternDef("wz13.dihu", "地胡", "Earthly win", 4, None),
    PatternDef("wz13.gangshang_kaihua", "杠上开花", "Win on a kong replacement", 4, None),
    PatternDef("wz13.caishenhui", "财神会", "Caishen meeting (three wilds)", 4, None),
    PatternDef("wz13.qianggang", "抢杠", "Robbing a kong", None, 4),
)}
"""The SD3 special hands (RULES.md §4.4), in table order."""

PLAIN_DISCARD = Pattern("wz13.pinghu", "平胡", "Plain win on a discard", 1)
PLAIN_SELF_DRAW = Pattern("wz13.zimo", "自摸", "Plain self-draw", 2)


@dataclass(frozen=True, slots=True)
class W13Options:
    """Rule options of W13 (defaults: RULES.md §4, §9.4).

    Attributes:
        caishenhui_mode: ``"three_wilds"`` (default: self-draw while holding three 财神) or
            ``"wild_drawn"`` (the self-drawn winning tile is a 财神 and another is held).
        three_wilds_outright: a self-draw holding three 财神 wins whatever the other tiles (财神会
            without a shape; SD0, RULES.md §4.3).
        dealer_base_schedule: base B by the dealer's consecutive hands (3, 5, 7, 9).
        base_cap: after the schedule's end the base stays at its last value (default); ``False``
            raises :class:`ContextError`.
        seven_pairs / quad_as_two_pairs / thirteen_orphans: shapes allowed (十三幺 has no value).
        buda_wild_mode: ``"free"`` (wildcards exempt from the 不搭 test, C8) or ``"fill"``.
        all_honours_structure_exempt: an all-honour hand wins as 字一色 without a shape (C8).
        self_draw_bonus_with_specials: add the plain self-draw ×2 to special hands too (off).
        fanqiang_penalty: the 犯枪 point the discarder adds for the winner.
        fanqiang_on_robbed_kong: the robbed player also pays 犯枪 (off: he already pays for all).
        robbing_kong_liability: the robbed player pays for every loser (抢杠).
        tongbao: 统包 liability; ``tongbao_chows`` chows fed to the next player trigger it.
        followed_penalty: 被跟 points per other player.
        allow_wild_discard_with_penalty: discarding a 财神 is allowed at ``wild_discard_penalty``
            points to each other player (误打财神); off = the action is refused.
        live_wild_copies: 财神 copies in play (3: the indicator stays in the wall).

    Raises:
        OptionsError: an unknown mode or a value out of range.
    """

    caishenhui_mode: str = "three_wilds"
    three_wilds_outright: bool = True
    dealer_base_schedule: tuple[int, ...] = (3, 5, 7, 9)
    base_cap: bool = True
    seven_pairs: bool = True
    quad_as_two_pairs: bool = True
    thirteen_orphans: bool = True
    buda_wild_mode: str = "free"
    all_honours_structure_exempt: bool = False
    self_draw_bonus_with_specials: bool = False
    fanqiang_penalty: int = 1
    fanqiang_on_robbed_kong: bool = False
    robbing_kong_liability: bool = True
    tongbao: bool = True
    tongbao_chows: int = 3
    followed_penalty: int = 1
    allow_wild_discard_with_penalty: bool = False
    wild_discard_penalty: int = 1
    live_wild_copies: int = 3

    def __post_init__(self) -> None:
        if self.caishenhui_mode not in ("three_wilds", "wild_drawn"):
            raise OptionsError(f"caishenhui_mode must be 'three_wilds' or 'wild_drawn', got {self.caishenhui_mode!r}")
        if self.buda_wild_mode not in ("free", "fill"):
            raise OptionsError(f"buda_wild_mode must be 'free' or 'fill', got {self.buda_wild_mode!r}")
        sched = tuple(self.dealer_base_schedule)
        if not sched or any(not isinstance(b, int) or b <= 0 for b in sched):
            raise OptionsError(f"dealer_base_schedule must be positive ints, got {self.dealer_base_schedule!r}")
        object.__setattr__(self, "dealer_base_schedule", sched)
        for name in ("fanqiang_penalty", "followed_penalty", "wild_discard_penalty"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise OptionsError(f"{name} must be an int >= 0, got {v!r}")
        if not isinstance(self.tongbao_chows, int) or not 1 <= self.tongbao_chows <= 4:
            raise OptionsError(f"tongbao_chows must be 1-4, got {self.tongbao_chows!r}")
        if self.live_wild_copies not in (3, 4):
            raise OptionsError(f"live_wild_copies must be 3 or 4, got {self.live_wild_copies!r}")


DEFAULT_OPTIONS = W13Options()


# ---------------------------------------------------------------------------------------- scoring
def _validate(hand: Hand, ctx: WinContext, opt: W13Options) -> None:
    validate_wild_hand(hand, ctx, 4, opt.live_wild_copies)
    if ctx.first_turn and ctx.self_drawn and hand.melds and any(m.kind is not MeldKind.CONCEALED_KONG
                                                                  for m in hand.melds):
        raise ContextError("天胡/地胡 (first_turn) exclude claimed melds")


def _flush_flags(tiles: Sequence[int]) -> tuple[bool, bool]:
    """(清一色, 字一色) of the logical tiles (free wildcard groups follow the rest)."""
    if not tiles:
        return False, False
    suited = all(is_suited(t) for t in tiles)
    one_suit = suited and len({t // 9 for t in tiles}) == 1
    return one_suit, all(is_honor(t) for t in tiles)


def _readings(hand: Hand, ctx: WinContext, opt: W13Options) -> list[tuple[str, Decomposition | None]]:
    counts, wilds = hand.full_counts(), hand.total_wilds
    rules = ShapeRules(standard=True, seven_pairs=opt.seven_pairs, quad_as_two_pairs=opt.quad_as_two_pairs,
                       thirteen_orphans=opt.thirteen_orphans)
    out: list[tuple[str, Decomposition | None]] = [(d.shape, d) for d in decompositions(counts, wilds, rules)]
    if not hand.melds and is_buda(counts, wilds, wild_mode=opt.buda_wild_mode):
        out.append(("buda", None))
    if opt.three_wilds_outright and ctx.self_drawn and wilds >= 3:
        out.append(("three-wilds", None))
    if opt.all_honours_structure_exempt and all(is_honor(t) for t in fixed_logical_tiles(None, hand)):
        out.append(("all-honours", None))
    return out


def _caishenhui(hand: Hand, ctx: WinContext, opt: W13Options) -> bool:
    if not ctx.self_drawn:
        return False
    if opt.caishenhui_mode == "three_wilds":
        return hand.total_wilds >= 3
    return hand.win_tile == WILD and hand.total_wilds >= 2


def _patterns(shape: str, d: Decomposition | None, hand: Hand, ctx: WinContext, opt: W13Options) -> list[Pattern]:
    sd = ctx.self_drawn
    ids: list[str] = []
    if shape in ("standard", "seven-pairs", "thirteen-orphans", "all-honours"):
        qys, zys = _flush_flags(fixed_logical_tiles(d, hand))
        if qys:
            ids.append("wz13.qingyise")
        if zys:
            ids.append("wz13.ziyise")
    if shape == "seven-pairs":
        ids.append("wz13.qiduizi")
    if shape == "standard" and d is not None and not any(g.kind == "chow" for g in d.groups) \
            and not any(m.kind is MeldKind.CHOW for m in hand.melds):
        ids.append("wz13.daduizi")
    if shape == "buda":
        ids.append("wz13.buda")
    if ctx.heavenly:
        ids.append("wz13.tianhu")
    if ctx.earthly:
        ids.append("wz13.dihu")
    if ctx.kong_replacement:
        ids.append("wz13.gangshang_kaihua")
    if _caishenhui(hand, ctx, opt):
        ids.append("wz13.caishenhui")
    if ctx.robbing_kong:
        ids.append("wz13.qianggang")
    pats = [p for p in (TABLE[i].counted(sd) for i in TABLE if i in ids) if p is not None]
    if not pats:
        return [PLAIN_SELF_DRAW if sd else PLAIN_DISCARD]
    if sd and opt.self_draw_bonus_with_specials:
        pats.append(PLAIN_SELF_DRAW)
    return pats


def score(hand: Hand, ctx: WinContext, options: W13Options | None = None) -> WildResult:
    """Score a W13 win: the additive multiplier M and its patterns (module doc; RULES.md §4.4).

    ``hand`` in the engine convention (:mod:`~majiang.rules.wenzhou.common`): 13-tile structure
    (``Hand.check(4)``), ``win_tile`` set (``WILD`` for a drawn 财神). Returns a
    :class:`WildResult` with ``unit="multiplier"``.

    Raises:
        TileCountError: wrong tile count (小相公/大相公 included) or a fifth copy.
        WildCountError: more 财神 than ``options.live_wild_copies``.
        ContextError: facts that contradict the hand (a win on a discarded 财神, 杠上开花 without a
            kong, a first-turn win with claimed melds).
        NotWinningError: no winning reading.
    """
    opt = options or DEFAULT_OPTIONS
    _validate(hand, ctx, opt)
    best: tuple[int, list[Pattern], str, Decomposition | None] | None = None
    for shape, d in _readings(hand, ctx, opt):
        pats = _patterns(shape, d, hand, ctx, opt)
        total = sum(p.value for p in pats)
        if best is None or total > best[0]:
            best = (total, pats, shape, d)
    if best is None:
        raise NotWinningError(f"{hand} is not a winning W13 hand")
    total, pats, shape, d = best
    return WildResult(RULESET, total, "multiplier", tuple(pats), shape, d, ctx, opt)


# ------------------------------------------------------------------------------------- settlement
def dealer_base(dealer_streak: int, options: W13Options | None = None) -> int:
    """Base B (底) for the dealer's ``dealer_streak``-th consecutive hand after his first (0 → 3,
    1 → 5, 2 → 7, 3 → 9, then 9; RULES.md §4.6, SD3 "第一局：底为3点 第二局：底为5点")."""
    opt = options or DEFAULT_OPTIONS
    if not isinstance(dealer_streak, int) or dealer_streak < 0:
        raise ContextError(f"dealer_streak must be an int >= 0, got {dealer_streak!r}")
    sched = opt.dealer_base_schedule
    if dealer_streak >= len(sched) and not opt.base_cap:
        raise ContextError(f"dealer streak {dealer_streak} is beyond the base schedule {sched}")
    return sched[min(dealer_streak, len(sched) - 1)]


def next_dealer(dealer: int, dealer_streak: int, winner: int | None, players: int = 4) -> tuple[int, int]:
    """``(dealer, dealer_streak)`` for the next hand (SD3 "只要庄家不胡牌，庄家不连庄", RULES.md §4.6,
    §9.4): the dealer keeps the deal only by winning (streak + 1); a win by another player or a drawn
    hand (``winner=None``) passes the deal to the next seat in turn order with streak 0."""
    WinContext(seat=dealer, dealer=dealer)  # seat checks
    if winner is not None:
        WinContext(seat=winner, dealer=dealer)
    if not isinstance(dealer_streak, int) or dealer_streak < 0:
        raise ContextError(f"dealer_streak must be an int >= 0, got {dealer_streak!r}")
    if winner == dealer:
        return dealer, dealer_streak + 1
    return (dealer + 1) % players, 0


def tongbao_liable(ctx: WinContext, options: W13Options | None = None) -> int | None:
    """The seat liable under 统包 for this win, or ``None`` (RULES.md §4.6, SD3).

    A fed ``tongbao_chows`` (3) chows to his next player B (``ctx.chow_feeds``); if B wins, A pays
    for everyone, and if A wins, B does. When the winner is in two such pairs, the pair where he
    was fed is taken.
    """
    opt = options or DEFAULT_OPTIONS
    if not opt.tongbao:
        return None
    fed = Counter(ctx.chow_feeds)
    pairs = [p for p, n in fed.items() if n >= opt.tongbao_chows]
    for feeder, eater in sorted(pairs):
        if eater == ctx.seat:
            return feeder
    for feeder, eater in sorted(pairs):
        if feeder == ctx.seat:
            return eater
    return None


def settle(result: WildResult, ctx: WinContext | None = None) -> Ledger:
    """The payments of a W13 win (module doc; RULES.md §4.6).

    ``ctx`` defaults to the context scored. Payments: ``amount`` = B×M between the dealer and the
    winner, M between two non-dealers; each loser pays on a discard win too; the discarder adds
    ``fanqiang_penalty`` (犯枪); with 抢杠 the robbed player, with 统包 the liable player, pays every
    loser's amount. Returns a zero-sum :class:`Ledger`.

    Raises:
        ContextError: ``result`` is not a W13 result.
    """
    if result.ruleset != RULESET:
        raise ContextError(f"a {result.ruleset} result cannot be settled by W13")
    ctx = ctx or result.ctx
    opt: W13Options = result.options or DEFAULT_OPTIONS
    base = dealer_base(ctx.dealer_streak, opt)
    m = result.value
    winner = ctx.seat
    liable = None
    why = ""
    if ctx.robbing_kong and opt.robbing_kong_liability:
        liable, why = ctx.discarder, "抢杠"
    else:
        liable = tongbao_liable(ctx, opt)
        why = "统包"
    pays: list[Payment] = []
    for payer in range(ctx.players):
        if payer == winner:
            continue
        amount = base * m if ctx.dealer in (winner, payer) else m
        if liable is not None and payer != liable:
            pays.append(Payment(liable, winner, amount, f"wz13.win ({why}: pays for seat {payer})"))
        else:
            pays.append(Payment(payer, winner, amount, "wz13.win"))
    if not ctx.self_drawn and opt.fanqiang_penalty and (not ctx.robbing_kong or opt.fanqiang_on_robbed_kong):
        pays.append(Payment(ctx.discarder, winner, opt.fanqiang_penalty, "wz13.fanqiang 犯枪"))
    return Ledger.of(pays, ctx.players)


# -------------------------------------------------------------------------------------- penalties
def is_followed(discards: Sequence[tuple[int, int]]) -> bool:
    """被跟 test: ``discards`` = four consecutive ``(seat, tile)`` discards with no claim between, by
    four different seats; true if B, C and D all discard A's face (RULES.md §4.6, SD3)."""
    if len(discards) != 4:
        raise ContextError(f"被跟 is judged on four consecutive discards, got {len(discards)}")
    seats = [s for s, _ in discards]
    if len(set(seats)) != 4:
        raise ContextError(f"被跟 needs one discard from each of the four seats, got seats {seats}")
    first = discards[0][1]
    return all(t == first for _, t in discards[1:])


def penalty_followed(seat: int, options: W13Options | None = None, players: int = 4) -> Ledger:
    """被跟: the player who was followed (A) pays each other player ``followed_penalty`` (1)."""
    opt = options or DEFAULT_OPTIONS
    WinContext(seat=seat)  # seat check
    return Ledger.of([Payment(seat, s, opt.followed_penalty, "wz13.beigen 被跟")
                      for s in range(players) if s != seat and opt.followed_penalty], players)


def penalty_wild_discard(seat: int, options: W13Options | None = None, players: int = 4) -> Ledger:
    """误打财神: the discarder pays each other player ``wild_discard_penalty`` (1).

    Raises :class:`ActionError` unless ``allow_wild_discard_with_penalty`` (default: the engine
    refuses the discard, RULES.md §4.2)."""
    opt = options or DEFAULT_OPTIONS
    if not opt.allow_wild_discard_with_penalty:
        raise ActionError("a 财神 may not be discarded (allow_wild_discard_with_penalty is off)")
    WinContext(seat=seat)
    return Ledger.of([Payment(seat, s, opt.wild_discard_penalty, "wz13.wuda_caishen 误打财神")
                      for s in range(players) if s != seat and opt.wild_discard_penalty], players)
