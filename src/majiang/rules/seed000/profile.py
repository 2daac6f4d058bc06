"""The seed-000 百搭 profile: win readings, the seed's named hands, 相公, provisional settlement.

Sources: seed ``000_*`` (SD0) and RULES.md §2.1-§2.4, §9.1, §9.2. Profile id ``seed000``.

Wildcards (RULES.md §2.1): every copy of the chosen face is a 百搭 standing for any tile (also its
own face, 归位); 白板 plays as that face (not wild) unless White is itself the 百搭. The face is chosen
by dice like Wenzhou (SD0 "百搭规则参考温州麻将"): :func:`~majiang.rules.wenzhou.choose_wild_face`;
all four copies are live (``live_wild_copies=4``, §2.1 E).

Winning readings (:func:`score`; RULES.md §9.1): pair + sets (13- or 16-tile, ``sets`` 4 or 5),
七对子, 十三幺, and three or four 百搭 win outright whatever the rest.

Named hands (RULES.md §2.3) — reported by name; the seed gives **no values**, so every
:class:`~majiang.rules.wenzhou.common.Pattern` value is ``None`` unless ``Seed000Options.values``
supplies a table (id → points):

=======================================  ====================================================
id                                       definition (seed)
=======================================  ====================================================
``seed000.qiduizi`` 七对子                 seven pairs
``seed000.guoshi_wushuang`` 国士无双        十三幺: 1 and 9 of each suit, 7 honours, + a duplicate
``seed000.da_sanyuan`` 大三元              a pung (坎) each of 中 发 白
``seed000.xiao_sanyuan`` 小三元            two dragon pungs, the third dragon the pair
``seed000.da_sixi`` 大四喜                 a pung of each wind
``seed000.xiao_sixi`` 小四喜               three wind pungs, the fourth wind the pair
``seed_qinglaotou_258s_green`` 清老头      every tile 2/5/8 of bamboo or 发 (not the Japanese 清老頭)
``seed_hunlaotou_258s_honours`` 混老头     every tile 2/5/8 of bamboo or an honour
``seed000.jiulian_baodeng`` 九莲宝灯        1112345678999 of one suit + one more of it, concealed
``seed000.baida_outright`` 三/四百搭        three or four 百搭: an outright win
=======================================  ====================================================

The 清老头 needs wildcards or 七对子 (four of a kind = two pairs) — with natural tiles it is no
standard hand (RULES.md §2.3 notes); ``structure_exempt`` lets it (and 混老头) win without a shape.

Points: ``base_points`` (1) + the supplied values. Between readings the one with the most points,
then the most named hands, then the conventionally rarer hands (a tie-break only) is kept. Settlement (:func:`settle`) is provisional — the
seed has none: a self-draw is paid ``points`` by every other player, a discard win by the discarder.
相公 (RULES.md §2.4): :func:`xianggong`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product

from majiang.analysis import Decomposition, ShapeRules, decompositions
from majiang.analysis.decompose import FREE_PAIR, FREE_SET
from majiang.errors import TileCountError
from majiang.hand import Hand, MeldKind, XiangGong
from majiang.hand import xianggong as _hand_xianggong
from majiang.rules.settlement import Ledger, Payment
from majiang.rules.wenzhou.common import (
    ContextError,
    NotWinningError,
    OptionsError,
    Pattern,
    WildCountError,
    WildResult,
    WinContext,
    meld_tiles,
)
from majiang.tiles import DRAGONS, HONORS, WINDS

RULESET = "seed000"

NAMES: dict[str, tuple[str, str]] = {
    "seed000.qiduizi": ("七对子", "Seven pairs"),
    "seed000.guoshi_wushuang": ("国士无双", "Thirteen orphans (十三幺)"),
    "seed000.da_sanyuan": ("大三元", "Big three dragons"),
    "seed000.xiao_sanyuan": ("小三元", "Little three dragons"),
    "seed000.da_sixi": ("大四喜", "Big four winds"),
    "seed000.xiao_sixi": ("小四喜", "Little four winds"),
    "seed_qinglaotou_258s_green": ("清老头", "Seed 清老头: 2/5/8 bamboo and green dragon only"),
    "seed_hunlaotou_258s_honours": ("混老头", "Seed 混老头: 2/5/8 bamboo and honours only"),
    "seed000.jiulian_baodeng": ("九莲宝灯", "Nine gates"),
    "seed000.baida_outright": ("三百搭/四百搭", "Three or four wildcards (outright win)"),
}
"""Pattern id → (Chinese, English), in report order."""

BAMBOO_258 = frozenset({19, 22, 25})
QINGLAOTOU_TILES = BAMBOO_258 | {32}
HUNLAOTOU_TILES = BAMBOO_258 | frozenset(HONORS)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Seed000Options:
    """Options of the seed-000 profile (RULES.md §2, §9.1, §9.2).

    Attributes:
        sets: 4 (13-tile hands) or 5 (16-tile hands); the seed covers both.
        seven_pairs / thirteen_orphans: special shapes on (§9.1); ``quad_as_two_pairs`` (on) lets
            four of a kind be two of the seven pairs (the 清老头 route of §2.3).
        outright_wilds: this many 百搭 or more win outright (3).
        live_wild_copies: 百搭 copies in play (4).
        values: optional value table ``{pattern id: points}``; ids not in it report ``None``.
        base_points: points of every win before pattern values (1).
        structure_exempt: 清老头/混老头 win without a shape (将将胡-like; off).

    Raises:
        OptionsError: a bad value or an unknown pattern id in ``values``.
    """

    sets: int = 4
    seven_pairs: bool = True
    thirteen_orphans: bool = True
    quad_as_two_pairs: bool = True
    outright_wilds: int = 3
    live_wild_copies: int = 4
    values: tuple[tuple[str, int], ...] = ()
    base_points: int = 1
    structure_exempt: bool = False

    def __post_init__(self) -> None:
        if self.sets not in (4, 5):
            raise OptionsError(f"sets must be 4 (13-tile) or 5 (16-tile), got {self.sets!r}")
        if self.outright_wilds not in (3, 4, 5):
            raise OptionsError(f"outright_wilds must be 3 or 4 (5 = never), got {self.outright_wilds!r}")
        if self.live_wild_copies not in (3, 4):
            raise OptionsError(f"live_wild_copies must be 3 or 4, got {self.live_wild_copies!r}")
        vals = self.values.items() if isinstance(self.values, Mapping) else self.values
        vals = tuple(sorted((str(k), v) for k, v in vals))
        for k, v in vals:
            if k not in NAMES:
                raise OptionsError(f"unknown seed-000 pattern id {k!r} in values (known: {', '.join(NAMES)})")
            if not isinstance(v, int) or v < 0:
                raise OptionsError(f"value of {k} must be an int >= 0, got {v!r}")
        object.__setattr__(self, "values", vals)
        if not isinstance(self.base_points, int) or self.base_points < 0:
            raise OptionsError(f"base_points must be an int >= 0, got {self.base_points!r}")

    def value_of(self, pid: str) -> int | None:
        return dict(self.values).get(pid)


DEFAULT_OPTIONS = Seed000Options()


def _pattern(pid: str, opt: Seed000Options) -> Pattern:
    zh, en = NAMES[pid]
    return Pattern(pid, zh, en, opt.value_of(pid))


_FREE_SET_CHOICES = tuple([("pung", (t, t, t)) for t in range(34)]
                          + [("chow", (t, t + 1, t + 2)) for t in range(27) if t % 9 <= 6])
_FREE_PAIR_CHOICES = tuple(("pair", (t, t)) for t in range(34))


def _concrete(d: Decomposition, hand: Hand):
    """Every concrete group list of ``d`` (free wildcard groups given each possible identity),
    declared melds included, as ``(kind, tiles)`` tuples."""
    base = [("pung" if m.kind is not MeldKind.CHOW else "chow", m.tiles[:3]) for m in hand.melds]
    fixed = [(g.kind, g.tiles) for g in d.groups if g.kind not in (FREE_SET, FREE_PAIR)]
    frees = [_FREE_SET_CHOICES if g.kind == FREE_SET else _FREE_PAIR_CHOICES
             for g in d.groups if g.kind in (FREE_SET, FREE_PAIR)]
    if len(frees) > 2:  # not reachable with four 百搭; keep the cost bounded
        frees = frees[:2]
    for choice in product(*frees):
        yield base + fixed + list(choice)


def _named(groups, shape: str) -> list[str]:
    tiles = [t for _, ts in groups for t in ts]
    pungs = {ts[0] for k, ts in groups if k == "pung"}
    pairs = [ts[0] for k, ts in groups if k == "pair"]
    ids = []
    if shape == "standard" and len(pairs) == 1:
        p = pairs[0]
        if set(DRAGONS) <= pungs:
            ids.append("seed000.da_sanyuan")
        elif len(pungs & set(DRAGONS)) == 2 and p in DRAGONS and p not in pungs:
            ids.append("seed000.xiao_sanyuan")
        if set(WINDS) <= pungs:
            ids.append("seed000.da_sixi")
        elif len(pungs & set(WINDS)) == 3 and p in WINDS and p not in pungs:
            ids.append("seed000.xiao_sixi")
    if shape in ("standard", "seven-pairs"):
        if all(t in QINGLAOTOU_TILES for t in tiles):
            ids.append("seed_qinglaotou_258s_green")
        elif all(t in HUNLAOTOU_TILES for t in tiles):
            ids.append("seed_hunlaotou_258s_honours")
    return ids


def is_nine_gates(counts, wilds: int) -> bool:
    """九莲宝灯 over a concealed 14-tile part: the naturals lie in one suit within 1112345678999 plus
    one more tile of that suit, the wildcards fill the rest."""
    if sum(counts) + wilds != 14:
        return False
    suits = {t // 9 for t, n in enumerate(counts) if n}
    if len(suits) != 1 or next(iter(suits)) > 2:
        return False
    base = 9 * next(iter(suits))
    excess = sum(max(0, counts[base + r] - _NINE_GATES[r]) for r in range(9))
    return excess <= 1


def _validate(hand: Hand, opt: Seed000Options) -> None:
    if hand.win_tile is None:
        raise ContextError("the hand has no winning tile (win_tile=None)")
    hand.check(opt.sets)
    if hand.total_wilds > opt.live_wild_copies:
        raise WildCountError(f"{hand.total_wilds} 百搭 in one hand: only {opt.live_wild_copies} copies are in play")


def score(hand: Hand, ctx: WinContext, options: Seed000Options | None = None) -> WildResult:
    """Score a seed-000 win: its readings and named hands (module doc; RULES.md §2, §9.1-§9.2).

    Returns a :class:`WildResult` with ``unit="points"``: ``base_points`` plus the supplied values of
    the patterns found (the reading with the most points, then the most patterns, is kept).

    Raises:
        TileCountError: wrong size (小相公/大相公 included: see :func:`xianggong`) or a fifth copy.
        WildCountError: more 百搭 than ``live_wild_copies``.
        ContextError: no winning tile.
        NotWinningError: no winning reading.
    """
    opt = options or DEFAULT_OPTIONS
    _validate(hand, opt)
    counts, wilds = hand.full_counts(), hand.total_wilds
    rules = ShapeRules(standard=True, seven_pairs=opt.seven_pairs, quad_as_two_pairs=opt.quad_as_two_pairs,
                       thirteen_orphans=opt.thirteen_orphans)
    candidates: list[tuple[str, Decomposition | None, list[str]]] = []
    nine = not hand.melds and is_nine_gates(counts, wilds)
    for d in decompositions(counts, wilds, rules):
        best_ids: list[str] | None = None
        for groups in _concrete(d, hand):
            ids = _named(groups, d.shape)
            if best_ids is None or _rank(ids, opt) > _rank(best_ids, opt):
                best_ids = ids
        ids = list(best_ids or [])
        if d.shape == "seven-pairs":
            ids.insert(0, "seed000.qiduizi")
        if d.shape == "thirteen-orphans":
            ids.insert(0, "seed000.guoshi_wushuang")
        if d.shape == "standard" and nine:
            ids.append("seed000.jiulian_baodeng")
        candidates.append((d.shape, d, ids))
    if wilds >= opt.outright_wilds:  # a fact of the hand: reported with whatever reading is kept
        for c in candidates:
            c[2].append("seed000.baida_outright")
        candidates.append(("three-wilds", None, ["seed000.baida_outright"]))
    if opt.structure_exempt:
        nat = meld_tiles(hand) + [t for t, n in enumerate(counts) for _ in range(n)]
        if all(t in QINGLAOTOU_TILES for t in nat):
            candidates.append(("structure-exempt", None, ["seed_qinglaotou_258s_green"]))
        elif all(t in HUNLAOTOU_TILES for t in nat):
            candidates.append(("structure-exempt", None, ["seed_hunlaotou_258s_honours"]))
    if not candidates:
        raise NotWinningError(f"{hand} is not a winning seed-000 hand")
    shape, d, ids = max(candidates, key=lambda c: _rank(c[2], opt))
    order = list(NAMES)
    pats = tuple(_pattern(i, opt) for i in sorted(set(ids), key=order.index))
    points = opt.base_points + sum(p.value or 0 for p in pats)
    return WildResult(RULESET, points, "points", pats, shape, d, ctx, opt)


_TIE_BREAK = {"seed000.guoshi_wushuang": 88, "seed000.jiulian_baodeng": 88, "seed000.da_sanyuan": 88,
              "seed000.da_sixi": 88, "seed000.xiao_sanyuan": 64, "seed000.xiao_sixi": 64,
              "seed_qinglaotou_258s_green": 64, "seed_hunlaotou_258s_honours": 32, "seed000.qiduizi": 24}
"""Order between readings with equal supplied value and equal pattern count only (conventional MCR
rank; the seed's 2-5-8 hands placed by their rarity). Never reported as a value."""


def _rank(ids: list[str], opt: Seed000Options) -> tuple[int, int, int]:
    return (sum(opt.value_of(i) or 0 for i in ids), len(ids), sum(_TIE_BREAK.get(i, 0) for i in ids))


def settle(result: WildResult, ctx: WinContext | None = None) -> Ledger:
    """Provisional seed-000 settlement (the seed has none): a self-draw is paid ``points`` by every
    other player, a discard win by the discarder alone. Zero-sum :class:`Ledger`.

    Raises :class:`ContextError` for a result of another rule set."""
    if result.ruleset != RULESET:
        raise ContextError(f"a {result.ruleset} result cannot be settled by seed 000")
    ctx = ctx or result.ctx
    payers = [s for s in range(ctx.players) if s != ctx.seat] if ctx.self_drawn else [ctx.discarder]
    return Ledger.of([Payment(p, ctx.seat, result.value, "seed000.win") for p in payers if result.value],
                     ctx.players)


# ------------------------------------------------------------------------------------------ 相公
def xianggong(held: int, melds: int, *, sets: int = 4, in_turn: bool = False) -> XiangGong:
    """Classify a tile count (RULES.md §2.4): :func:`majiang.hand.xianggong` (the table uses that
    one), with :class:`OptionsError` for ``sets`` other than 4 or 5."""
    if sets not in (4, 5):
        raise OptionsError(f"sets must be 4 or 5, got {sets!r}")
    return _hand_xianggong(held, melds, sets=sets, in_turn=in_turn)


def xianggong_of(hand: Hand, *, sets: int = 4, in_turn: bool | None = None) -> XiangGong:
    """:func:`xianggong` of a :class:`Hand` (``in_turn`` defaults to "has a winning/drawn tile")."""
    held = len(hand.concealed) + hand.wilds + (1 if hand.win_tile is not None else 0)
    if in_turn is None:
        in_turn = hand.win_tile is not None
    return xianggong(held, len(hand.melds), sets=sets, in_turn=in_turn)

