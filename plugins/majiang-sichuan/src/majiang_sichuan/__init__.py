"""Sichuan 血战到底 (blood battle) for majiang, as a third party's plug-in (issue 30).

Installed like any distribution (``pip install ./plugins/majiang-sichuan``) and found through the
``majiang.rulesets`` entry point ``sichuan = "majiang_sichuan:RULESET"``. It imports only
``majiang.rules.base`` (the rule-set protocol and its hooks) and the public analysis API
(``majiang.analysis``, ``majiang.hand``). Every rule and its source: ``RULES.md`` beside this package.

* tiles ``"mps"``: 108, no honours, no flowers; no chow; several winners on one discard;
* 定缺 (:data:`DINGQUE`): each seat names a missing suit after the deal; :func:`action_filter` keeps
  a seat discarding that suit while it holds any, and refuses a pung or kong of it; a hand holding
  it, or holding all three suits, never wins (:class:`SichuanScorer` answers ``-1``);
* 血战到底: ``win_limit=3`` -- each winner leaves the play, the others go on;
* fan (番): :class:`SichuanScorer` -- value = the fan, capped by ``max_fan`` (default 3);
  a win is paid ``base * 2**fan`` (:class:`SichuanSettlement`), by the discarder alone or, self-drawn,
  by every other seat still in play (plus ``base`` each with 自摸加底);
* 刮风下雨 at a kong (:meth:`SichuanSettlement.settle_kong`) and 查花猪 / 查大叫 / 退税 when the wall
  runs out (:meth:`SichuanSettlement.settle_wall_end`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from majiang.analysis import ShapeRules, decompositions, waits
from majiang.hand import Hand
from majiang.rules.base import (
    Decision,
    Exchange,
    KongSettle,
    Ledger,
    Option,
    PatternInfo,
    Payment,
    RuleSetDef,
    ScoreResult,
    SeatState,
    WallEndSettle,
    WinContext,
    WinSettle,
)

SUITS = "mps"
"""The suits, in our compact notation: 万 m (characters), 筒 p (dots), 条 s (bamboo)."""

SHAPES = ShapeRules(seven_pairs=True)
"""Four sets and a pair, or seven pairs (four alike count as two pairs: 龙七对). RULES.md §2."""

PIG_FAN = 5
"""The fan a 花猪 pays when ``max_fan`` is ``None`` (no cap): that of 天胡, the table's highest (RULES.md §6)."""


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _suit(t: int) -> int:
    return t // 9


# ------------------------------------------------------------------------------------------ 定缺
def _fewest_suit(counts: Sequence[int]) -> int:
    """The bots' and a time-out's 定缺: the suit with the fewest tiles (ties: m before p before s)."""
    n = [sum(counts[9 * i:9 * i + 9]) for i in range(3)]
    return n.index(min(n))


DINGQUE = Decision("dingque", "定缺", "Missing suit", ("m", "p", "s"), _fewest_suit,
                   value_labels=(("万", "characters"), ("筒", "dots"), ("条", "bamboo")))
"""定缺 (RULES.md §3): all seats at once, hidden until all have chosen."""


# ------------------------------------------------------------------------------------------ 换三张
def _exchange_choice(counts: Sequence[int]) -> tuple[int, ...]:
    """The bots' and a time-out's 换三张 (RULES.md §3): three tiles of the suit with the fewest tiles
    among those holding at least three (ties: m before p before s), the least connected first -- a
    tile's worth is twice its copies plus its neighbours one and two apart (ties: the lower face)."""
    n = [sum(counts[9 * i:9 * i + 9]) for i in range(3)]
    suit = min((i for i in range(3) if n[i] >= 3), key=lambda i: (n[i], i))
    c = list(counts[9 * suit:9 * suit + 9])
    out = []
    for _ in range(3):
        def worth(r: int) -> tuple[int, int]:
            near = sum(c[r + d] for d in (-2, -1, 1, 2) if 0 <= r + d < 9)
            return 2 * c[r] + near, r

        r = min((r for r in range(9) if c[r]), key=worth)
        c[r] -= 1
        out.append(9 * suit + r)
    return tuple(out)


EXCHANGE = Exchange.of("huansanzhang", "换三张", "Exchange three", _exchange_choice, count=3, same_suit=True)
"""换三张 (RULES.md §3, option ``exchange``): three tiles of one suit, before 定缺."""


def _decisions(rules) -> tuple[Decision, ...]:
    """换三张 when the ``exchange`` option is on, then 定缺 (RULES.md §3)."""
    return (EXCHANGE, DINGQUE) if rules.rule_option("exchange") else (DINGQUE,)


_MELDS = frozenset({"pung", "exposed-kong", "concealed-kong", "added-kong"})


def action_filter(state: SeatState, actions: list) -> list:
    """定缺 (RULES.md §3): while the seat holds a tile of its missing suit it discards only such tiles;
    it never pungs or kongs a tile of that suit. Wins are left to the scorer (a hand holding the
    missing suit scores ``-1``, so it is never offered)."""
    miss = state.decided.get("dingque")
    if miss is None:
        return actions
    lo = 9 * SUITS.index(miss)
    hi = lo + 9
    holds = any(state.concealed[lo:hi])
    out = []
    for a in actions:
        k = a.kind.value
        if k in _MELDS and lo <= a.tile < hi:
            continue
        if k == "discard" and holds and not lo <= a.tile < hi:
            continue
        out.append(a)
    return out


# ---------------------------------------------------------------------------------------- scoring
def hand_patterns(hand: Hand) -> list[tuple[str, int, int]] | None:
    """The patterns of a complete hand by its tiles alone (RULES.md §4, table A), the decomposition
    worth the most fan; ``None`` when it is no Sichuan win (an honour, all three suits, no shape)."""
    concealed = list(hand.concealed) + ([hand.win_tile] if hand.win_tile is not None else [])
    every = concealed + [t for m in hand.melds for t in m.tiles]
    if any(t >= 27 for t in every):
        return None
    suits = {_suit(t) for t in every}
    if len(suits) == 3:  # 缺一门: a hand needs a missing suit (RULES.md §3)
        return None
    if len(concealed) % 3 != 2:
        return None
    decs = decompositions(_counts(concealed), 0, SHAPES)
    if not decs:
        return None
    roots = sum(1 for n in _counts(every) if n == 4)
    best: list[tuple[str, int, int]] | None = None
    for d in decs:
        pats: list[tuple[str, int, int]] = []
        r = roots
        if d.shape == "seven-pairs":
            if roots:
                pats.append(("sc.longqidui", 3, 1))
                r -= 1  # the four alike of 龙七对 is counted in it (RULES.md §4 A6)
            else:
                pats.append(("sc.qidui", 2, 1))
        else:
            sets = [g.tiles for g in d.groups] + [m.tiles for m in hand.melds]
            if all(g.kind != "chow" for g in d.groups):
                if all(t % 9 in (1, 4, 7) for t in every):
                    pats.append(("sc.jiangdui", 3, 1))
                elif len(hand.melds) == 4:
                    pats.append(("sc.jingoudiao", 2, 1))
                else:
                    pats.append(("sc.duiduihu", 1, 1))
            if all(any(t % 9 in (0, 8) for t in g) for g in sets):
                pats.append(("sc.daiyaojiu", 2, 1))
        if len(suits) == 1:
            pats.append(("sc.qingyise", 2, 1))
        if not pats:  # no hand pattern: the basic win (根 and the situations add to it)
            pats.append(("sc.pinghu", 0, 1))
        if r:
            pats.append(("sc.gen", 1, r))
        if best is None or sum(v * k for _, v, k in pats) > sum(v * k for _, v, k in best):
            best = pats
    return best


@dataclass(frozen=True)
class SichuanScorer:
    """Values a win in fan (RULES.md §4). ``value`` = the fan, at most ``max_fan`` (``None``: no cap);
    ``-1`` for a hand that is no Sichuan win (three suits, the declared missing suit, an honour).

    Attributes:
        max_fan: the cap (封顶; default 3). self_drawn: ``"base"`` (自摸加底, paid by the settlement),
            ``"fan"`` (自摸加番: +1 fan) or ``"none"``. heaven_earth: 天胡/地胡 count (5 fan).
    """

    max_fan: int | None = 3
    self_drawn: str = "base"
    heaven_earth: bool = True
    name: str = "sichuan"

    def score(self, ctx: WinContext) -> ScoreResult:
        hand = ctx.hand
        miss = ctx.decided[ctx.seat].get("dingque") if ctx.decided else None
        if miss is not None:
            s = SUITS.index(miss)
            every = list(hand.concealed) + [t for m in hand.melds for t in m.tiles]
            if hand.win_tile is not None:
                every.append(hand.win_tile)
            if any(_suit(t) == s for t in every if t < 27):
                return ScoreResult(-1, 0, ())
        pats = hand_patterns(hand)
        if pats is None:
            return ScoreResult(-1, 0, ())
        if ctx.self_drawn and ctx.kong_replacement:
            pats.append(("sc.gangshanghua", 1, 1))
        if ctx.kong_discard:
            pats.append(("sc.gangshangpao", 1, 1))
        if ctx.robbing_kong:
            pats.append(("sc.qiangganghu", 1, 1))
        if ctx.last_tile:
            pats.append(("sc.haidi", 1, 1))
        if self.heaven_earth and ctx.first_turn and ctx.self_drawn:
            pats.append(("sc.tianhu", 5, 1) if ctx.seat == ctx.dealer else ("sc.dihu", 5, 1))
        if ctx.self_drawn and self.self_drawn == "fan":
            pats.append(("sc.zimo", 1, 1))
        fan = sum(v * k for _, v, k in pats)
        if self.max_fan is not None:
            fan = min(fan, self.max_fan)
        return ScoreResult(fan, 0, tuple(pats))


# ------------------------------------------------------------------------------------- settlement
@dataclass(frozen=True)
class SichuanSettlement:
    """Zero-sum payments (RULES.md §5, §6): a win ``base * 2**fan`` (self-drawn: from every other
    seat still in play, ``+ base`` each with 自摸加底); 刮风下雨 at a kong; 查花猪, 查大叫 and 退税
    when the wall runs out."""

    scorer: SichuanScorer = field(default_factory=SichuanScorer)
    base: int = 1
    refund_kongs: bool = True
    name: str = "sichuan"

    def win_amount(self, fan: int, self_drawn: bool) -> int:
        """What one payer pays for a win of ``fan`` (RULES.md §5)."""
        return self.base * 2 ** fan + (self.base if self_drawn and self.scorer.self_drawn == "base" else 0)

    def settle(self, win: WinSettle, players: int) -> list[int]:
        in_play = win.ctx.in_play or (True,) * players
        amount = self.win_amount(win.result.value, win.discarder is None)
        payers = [win.discarder] if win.discarder is not None else \
            [s for s in range(players) if s != win.winner and in_play[s]]
        d = [0] * players
        for s in payers:
            d[s] -= amount
            d[win.winner] += amount
        return d

    def settle_kong(self, kong: KongSettle, players: int) -> Ledger:
        """刮风下雨 (RULES.md §5): an exposed kong -- the discarder pays 2 base; an added kong (巴杠) --
        every other seat in play pays 1 base (刮风); a concealed kong -- 2 base each (下雨)."""
        others = [s for s in range(players) if s != kong.seat and kong.in_play[s]]
        if kong.kind == "exposed" and kong.fed_by is not None:
            pays = [Payment(kong.fed_by, kong.seat, 2 * self.base, "guafeng")]
        elif kong.kind == "added":
            pays = [Payment(s, kong.seat, self.base, "guafeng") for s in others]
        else:
            pays = [Payment(s, kong.seat, 2 * self.base, "xiayu") for s in others]
        return Ledger.of(pays, players)

    def is_pig(self, hand: Hand, decided: dict) -> bool:
        """花猪: a hand still holding its declared missing suit, or all three suits (RULES.md §6)."""
        every = list(hand.concealed) + [t for m in hand.melds for t in m.tiles]
        miss = decided.get("dingque")
        if miss is not None and any(_suit(t) == SUITS.index(miss) for t in every):
            return True
        return len({_suit(t) for t in every}) == 3

    def ready_fan(self, end: WallEndSettle, seat: int) -> int | None:
        """The most fan the seat's hand could win with one more tile (as a discard win, no situation
        fan), or ``None`` when it is not ready (RULES.md §6 查大叫)."""
        hand = end.hands[seat]
        best = None
        w = waits(_counts(hand.concealed), 0, SHAPES)
        for t in w.tiles:
            if t >= 27:
                continue
            ctx = WinContext(hand=Hand(hand.concealed, hand.melds, t), seat=seat, dealer=end.dealer,
                             seat_wind=27 + (seat - end.dealer) % 4, prevalent_wind=end.prevalent_wind,
                             self_drawn=False, discarder=None, decided=end.decided)
            v = self.scorer.score(ctx).value
            if v >= 0 and (best is None or v > best):
                best = v
        return best

    def settle_wall_end(self, end: WallEndSettle, players: int) -> Ledger:
        """查花猪, 查大叫, 退税 among the seats still in play (RULES.md §6)."""
        live = [s for s in range(players) if end.in_play[s]]
        pays: list[Payment] = []
        if len(live) < 2:
            return Ledger.of(pays, players)
        pig = {s: self.is_pig(end.hands[s], end.decided[s]) for s in live}
        fan = {s: (None if pig[s] else self.ready_fan(end, s)) for s in live}
        top = self.base * 2 ** (self.scorer.max_fan if self.scorer.max_fan is not None else PIG_FAN)
        for s in live:
            if pig[s]:
                pays += [Payment(s, o, top, "huazhu") for o in live if o != s and not pig[o]]
        for s in live:
            if not pig[s] and fan[s] is None:
                pays += [Payment(s, o, self.base * 2 ** f, "dajiao") for o in live if (f := fan[o]) is not None]
        if self.refund_kongs:
            for s in live:
                if fan[s] is None:
                    pays += [Payment(s, p.payer, p.amount, "tuishui") for p in end.payments
                             if p.payee == s and p.reason in ("guafeng", "xiayu")]
        return Ledger.of(pays, players)


# ------------------------------------------------------------------------------------ declaration
def _scorer(rules) -> SichuanScorer:
    return SichuanScorer(rules.rule_option("max_fan"), rules.rule_option("self_drawn"),
                         rules.rule_option("heaven_earth"))


def _settlement(rules) -> SichuanSettlement:
    return SichuanSettlement(_scorer(rules), rules.rule_option("base"), rules.rule_option("refund_kongs"))


PATTERNS = (
    PatternInfo("sc.pinghu", "平胡", "Basic win", 0),
    PatternInfo("sc.duiduihu", "对对胡", "All pungs", 1),
    PatternInfo("sc.qingyise", "清一色", "Full flush", 2),
    PatternInfo("sc.qidui", "七对", "Seven pairs", 2),
    PatternInfo("sc.longqidui", "龙七对", "Dragon seven pairs", 3),
    PatternInfo("sc.jingoudiao", "金钩钓", "Golden hook (single wait, four melds)", 2),
    PatternInfo("sc.daiyaojiu", "带幺九", "Terminals in every set", 2),
    PatternInfo("sc.jiangdui", "将对", "All pungs of 2, 5, 8", 3),
    PatternInfo("sc.gen", "根", "Root (four alike)", 1),
    PatternInfo("sc.gangshanghua", "杠上花", "Win on a kong's replacement", 1),
    PatternInfo("sc.gangshangpao", "杠上炮", "Win on a discard after a kong", 1),
    PatternInfo("sc.qiangganghu", "抢杠胡", "Robbing a kong", 1),
    PatternInfo("sc.haidi", "海底", "Last tile", 1),
    PatternInfo("sc.tianhu", "天胡", "Heavenly hand", 5),
    PatternInfo("sc.dihu", "地胡", "Earthly hand", 5),
    PatternInfo("sc.zimo", "自摸", "Self-drawn (自摸加番)", 1),
)

RULESET = RuleSetDef(
    name="sichuan", label_zh="四川血战到底", label_en="Sichuan blood battle", unit="fan",
    summary="Sichuan 血战到底: 108 tiles, no chow, 定缺, play on until three have won; fan doubled, "
            "capped; 刮风下雨, 查花猪, 查大叫 (majiang_sichuan RULES.md).",
    table=dict(tiles="mps", flowers=False, hand_size=13, shapes="sichuan", chow=False, rob_kong=True,
               multiple_winners="all", reserve=0, win_limit=3, dealer_keeps_on_win=False,
               dealer_keeps_on_draw=False, rounds=1, first_dealer="east", seat_draw=True, min_score=0,
               scorer="sichuan", settlement="sichuan"),
    shapes={"sichuan": SHAPES},
    scorers={"sichuan": _scorer},
    settlements={"sichuan": _settlement},
    options=(
        Option("max_fan", "int", 3, "封顶番数", "Fan cap", "The most fan one win counts; empty for no cap.", source="RULES.md §4",
               minimum=0, maximum=13, nullable=True, help_zh="一次和牌最多算几番；留空为不封顶。"),
        Option("self_drawn", "str", "base", "自摸", "Self-drawn bonus",
               "What a self-drawn win adds: one base more from each payer, one fan more, or nothing.",
               source="RULES.md §5",
               choices=("base", "fan", "none"), help_zh="自摸时的奖励：每家多付一个底分、多算一番，或不加。",
               choice_names=(("base", "自摸加底", "one base more"), ("fan", "自摸加番", "one fan more"),
                             ("none", "不加", "nothing more"))),
        Option("heaven_earth", "bool", True, "天地胡", "Heavenly/earthly hand", "A heavenly or earthly hand counts 5 fan.", source="RULES.md §4",
               help_zh="天胡、地胡算 5 番。"),
        Option("base", "int", 1, "底分", "Base", "What each payer pays for a win of 0 fan.", source="RULES.md §5", minimum=1,
               help_zh="平胡（0 番）一家付的分数。"),
        Option("refund_kongs", "bool", True, "退税", "Kong money refunded",
               "When the wall runs out, a player not ready pays back his kong money.", source="RULES.md §6",
               help_zh="荒庄时没听牌的玩家退还杠钱。"),
        Option("exchange", "bool", False, "换三张", "Exchange three",
               "Before choosing the missing suit, each player passes three tiles of one suit; the dice say to whom.",
               source="RULES.md §3",
               help_zh="定缺之前每家选三张同花色的牌交给别家，交给谁由骰子决定。"),
    ),
    table_options=("rounds",),
    patterns=PATTERNS,
    decisions=_decisions,
    summary_zh="四川血战到底：108 张无字牌，定缺，不能吃，一家和了其余继续，直到三家和或牌摸完；刮风下雨，查花猪、查大叫。",
    summary_en="Sichuan blood battle: 108 tiles, no honours, void a suit, no chow; play on until three have won; "
               "kong money, flower-pig and not-ready checks.",
    headline_options=("max_fan", "exchange"),
    action_filter=action_filter,
)
