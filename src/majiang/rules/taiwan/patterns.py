"""The 台 patterns of Taiwan 16-tile mahjong (台灣十六張) as data, one small detector each, the
non-stacking rules as an explicit exclusion table, and the named value presets.

Sources: RULES.md §3.2 (the tai table: definitions, **default** values, "Alt" values), §3.4 (宝牌,
seed ``001_*`` platform extra), §7 (naming traps: Taiwan 海底撈月 is the self-drawn last tile,
河底撈魚 the last discard; 槓上開花 includes a flower replacement), §9 item 3 (association defaults,
app tables as presets; seat flowers by their printed number 1-4).

Data
----
:data:`PATTERNS` lists every pattern as a :class:`Pattern`: a stable id (``tw.…``, RULES.md §7),
the Chinese and English names, the default 台, whether it counts per occurrence (``each``), whether
it is an optional rule that must be switched on (``optional``) and whether it is a per-payment
dealer term rather than a hand pattern (``per_payment``: 莊家 and 連莊, used by the settlement, §3.3).

Detectors
---------
Each hand pattern has a detector ``(ctx: Context) -> list[Hit]``: an empty list when the pattern
does not show, else one :class:`Hit` per occurrence (or one hit with ``count``). A hit may carry a
``key`` (the flower group of 正花 / 花槓) so that an exclusion can remove only the hits of the same
key. Detectors look at one *reading* of the hand (:class:`Context`): one decomposition of the
concealed tiles plus which group the winning tile completed; the scorer tries every reading and keeps
the best (RULES.md §3.2 non-stacking rule 6).

Non-stacking
------------
:data:`EXCLUSIONS` is the table of RULES.md §3.2 non-stacking rules 1-5: when the ``winner`` pattern
is detected, the ``loser`` hits are dropped (all of them, or with ``same_key`` only those of the
same key). Exclusions are evaluated against the *detected* set, so the order of the table does not
matter. :func:`exclusions_for` adds the rows that depend on options (八仙過海 standalone, 字一色
without 碰碰胡).

Presets
-------
:data:`PRESETS` maps a preset name to a sparse dict of ``id → 台`` overrides, built from the "Alt"
column of RULES.md §3.2 (C1 ``open_mahjong_unity`` presets, C2 ``16mj``, P3, "16-tai cap" tables).
Per-table overrides (``TaiwanOptions.overrides``) are applied on top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from majiang.errors import MajiangError
from majiang.tiles import DRAGONS, HONORS, WINDS, is_honor

if TYPE_CHECKING:  # pragma: no cover
    from majiang.rules.taiwan.conditions import TaiwanWin
    from majiang.rules.taiwan.options import TaiwanOptions


class UnknownPatternError(MajiangError, KeyError):
    """A pattern id that is not in :data:`PATTERNS` (e.g. a typo in an override table)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One row of the tai table (RULES.md §3.2).

    Attributes:
        id: stable id, ``tw.`` + pinyin (e.g. ``tw.zimo``).
        zh: the Chinese name in traditional characters, as Taiwan writes it (kept for a zh-TW page);
            :attr:`zh_hans` is the simplified name the Chinese pages show.
        en: an English name.
        tai: the default 台 (per occurrence when ``each``).
        each: counted once per occurrence (三元牌 per dragon triplet, 正花 per flower, 花槓 per
            group, 宝牌 per copy, 連莊 per continuation).
        optional: an optional rule, scored only when listed in ``TaiwanOptions.enabled``.
        per_payment: a dealer term added per payment by the settlement (莊家, 連莊), never part of
            the hand's tai.
        group: the table section (``1``, ``2``, ``4-5``, ``8``, ``16+``, ``flower``, ``platform``).
        note: a short definition in our own words.
    """

    id: str
    zh: str
    en: str
    tai: int
    each: bool = False
    optional: bool = False
    per_payment: bool = False
    group: str = ""
    note: str = ""

    def __str__(self) -> str:
        return f"{self.zh} {self.en}"

    @property
    def zh_hans(self) -> str:
        """The name in simplified characters (:data:`NAMES_ZH_HANS`; the same as :attr:`zh` where they agree)."""
        return NAMES_ZH_HANS.get(self.id, self.zh)


#: Simplified names of the patterns whose traditional :attr:`Pattern.zh` differs (what zh pages show).
NAMES_ZH_HANS: dict[str, str] = {
    "tw.zhuangjia": "庄家",
    "tw.lianzhuang": "连庄拉庄",
    "tw.menqing": "门清",
    "tw.quanfeng": "圈风",
    "tw.menfeng": "门风",
    "tw.duting": "独听",
    "tw.qianggang": "抢杠",
    "tw.gangshang_kaihua": "杠上开花",
    "tw.haidi_laoyue": "海底捞月",
    "tw.hedi_laoyu": "河底捞鱼",
    "tw.baoting": "报听",
    "tw.huagang": "花杠",
    "tw.diting": "地听",
    "tw.baxian_guohai": "八仙过海",
    "tw.qiqiang_yi": "七抢一",
    "tw.tianting": "天听",
    "tw.si_gang": "四杠",
    "tw.ba_duiban": "八对半",
}

P = Pattern
PATTERNS: tuple[Pattern, ...] = (
    # ---- 1 tai (RULES.md §3.2 "1 tai") --------------------------------------------------------
    P("tw.zhuangjia", "莊家", "Dealer", 1, per_payment=True, group="1",
      note="dealer is the winner or this payer: +1 on that payment"),
    P("tw.lianzhuang", "連莊拉莊", "Dealer streak", 2, each=True, per_payment=True, group="1",
      note="per continuation N of the dealer, on payments involving the dealer (連N拉N)"),
    P("tw.menqing", "門清", "Concealed hand", 1, group="1",
      note="no chow, pung or exposed/added kong (a concealed kong is allowed)"),
    P("tw.zimo", "自摸", "Self-draw", 1, group="1", note="won on own draw"),
    P("tw.buqiu", "不求", "Concealed self-draw bonus", 1, group="1",
      note="門清 and 自摸 together earn one more: 門清自摸 = 3"),
    P("tw.quanfeng", "圈風", "Round wind", 1, group="1", note="triplet/kong of the round wind"),
    P("tw.menfeng", "門風", "Seat wind", 1, group="1", note="triplet/kong of own seat wind (E = dealer)"),
    P("tw.sanyuanpai", "三元牌", "Dragon triplet", 1, each=True, group="1",
      note="each triplet/kong of 中, 發 or 白"),
    P("tw.zhenghua", "正花", "Seat flower", 1, each=True, group="1",
      note="each flower whose number matches the seat (E=1, S=2, W=3, N=4)"),
    P("tw.duting", "獨聽", "Single wait", 1, group="1",
      note="the hand waits on exactly one tile kind (edge, closed or pair wait)"),
    P("tw.qianggang", "搶槓", "Robbing a kong", 1, group="1", note="won on the tile added to a pung"),
    P("tw.gangshang_kaihua", "槓上開花", "Win on a replacement tile", 1, group="1",
      note="self-drawn on the replacement after a kong or a flower"),
    P("tw.haidi_laoyue", "海底撈月", "Last tile self-draw", 1, group="1",
      note="self-drawn on the last live tile (MCR calls this 妙手回春)"),
    P("tw.hedi_laoyu", "河底撈魚", "Last discard", 1, group="1", note="won on the final discard"),
    P("tw.banqiu", "半求", "Half begging", 1, group="1",
      note="all five sets claimed, single wait on the pair, self-drawn"),
    P("tw.baoting", "報聽", "Declared ready", 1, optional=True, group="1",
      note="declared ready and then won (optional rule)"),
    # ---- 2 tai ---------------------------------------------------------------------------------
    P("tw.pinghu", "平胡", "All chows", 2, group="2",
      note="5 chows + pair, discard win, no honours, no flowers, two-sided wait"),
    P("tw.quanqiu", "全求", "Full begging", 2, group="2",
      note="all five sets claimed, single wait on the pair, won on a discard"),
    P("tw.huagang", "花槓", "Flower kong", 2, each=True, group="2",
      note="all four flowers of one group (seasons or plants)"),
    P("tw.san_anke", "三暗刻", "Three concealed triplets", 2, group="2",
      note="3 concealed triplets/kongs; a triplet completed by a discard is not concealed"),
    # ---- 4-5 tai -------------------------------------------------------------------------------
    P("tw.pengpenghu", "碰碰胡", "All triplets", 4, group="4-5", note="5 triplets/kongs + pair"),
    P("tw.hunyise", "混一色", "Half flush", 4, group="4-5", note="one suit plus honours"),
    P("tw.xiao_sanyuan", "小三元", "Little three dragons", 4, group="4-5",
      note="2 dragon triplets + a dragon pair"),
    P("tw.diting", "地聽", "Earthly ready", 4, group="4-5",
      note="ready right after own first discard, nobody called, hand then frozen"),
    P("tw.si_anke", "四暗刻", "Four concealed triplets", 5, group="4-5"),
    # ---- 8 tai ---------------------------------------------------------------------------------
    P("tw.wu_anke", "五暗刻", "Five concealed triplets", 8, group="8"),
    P("tw.da_sanyuan", "大三元", "Big three dragons", 8, group="8", note="3 dragon triplets"),
    P("tw.xiao_sixi", "小四喜", "Little four winds", 8, group="8", note="3 wind triplets + a wind pair"),
    P("tw.qingyise", "清一色", "Full flush", 8, group="8", note="one suit only"),
    P("tw.ziyise", "字一色", "All honours", 8, group="8", note="honours only"),
    P("tw.baxian_guohai", "八仙過海", "Eight immortals", 8, group="flower",
      note="holding all 8 flowers: immediate win, paid like a self-draw"),
    P("tw.qiqiang_yi", "七搶一", "Seven robs one", 8, group="flower",
      note="holding 7 flowers when another player draws the 8th: the drawer pays alone"),
    P("tw.tianting", "天聽", "Heavenly ready", 8, group="8",
      note="ready from the very start, nobody called, hand then frozen"),
    P("tw.renhu", "人胡", "Human win", 16, group="8",
      note="non-dealer wins on a discard in the first go-around before his own first draw"),
    P("tw.si_gang", "四槓", "Four kongs", 8, optional=True, group="8", note="four kongs (optional)"),
    P("tw.ba_duiban", "八對半", "Eight and a half pairs", 8, optional=True, group="8",
      note="7 pairs + 1 triplet, all concealed (optional shape)"),
    # ---- 16 tai and more -----------------------------------------------------------------------
    P("tw.da_sixi", "大四喜", "Big four winds", 16, group="16+", note="4 wind triplets"),
    P("tw.dihu", "地胡", "Earthly win", 16, group="16+",
      note="non-dealer self-draws on his first draw, nobody has called"),
    P("tw.tianhu", "天胡", "Heavenly win", 24, group="16+",
      note="dealer complete on the initial hand (after flower replacement)"),
    # ---- platform extra (RULES.md §3.4, seed 001) ---------------------------------------------
    P("tw.baopai", "宝牌", "Treasure tile", 1, each=True, optional=True, group="platform",
      note="each copy of a 宝牌 face in the winning hand; not counted toward the minimum"),
)
del P

BY_ID: dict[str, Pattern] = {p.id: p for p in PATTERNS}


def pattern(pid: str) -> Pattern:
    """The :class:`Pattern` with id ``pid``; raises :class:`UnknownPatternError` naming it."""
    try:
        return BY_ID[pid]
    except KeyError:
        raise UnknownPatternError(f"no Taiwan pattern {pid!r} (ids look like 'tw.zimo')") from None


FLOWER_WIN_IDS = ("tw.baxian_guohai", "tw.qiqiang_yi")
"""Flower wins: immediate, no hand shape needed (trap TW-03)."""


# ------------------------------------------------------------------------------------ exclusions
@dataclass(frozen=True, slots=True)
class Exclusion:
    """When ``winner`` is detected, ``loser`` hits are not counted (only those with the winner's key
    when ``same_key``). ``rule`` cites the non-stacking rule of RULES.md §3.2."""

    winner: str
    loser: str
    rule: str
    same_key: bool = False


_X = Exclusion
EXCLUSIONS: tuple[Exclusion, ...] = (
    # rule 1: dragon / wind limit hands replace the single triplet tai
    _X("tw.da_sanyuan", "tw.sanyuanpai", "§3.2 non-stacking 1"),
    _X("tw.xiao_sanyuan", "tw.sanyuanpai", "§3.2 non-stacking 1"),
    _X("tw.da_sanyuan", "tw.xiao_sanyuan", "§3.2 non-stacking 1"),
    _X("tw.da_sixi", "tw.quanfeng", "§3.2 non-stacking 1"),
    _X("tw.da_sixi", "tw.menfeng", "§3.2 non-stacking 1"),
    _X("tw.xiao_sixi", "tw.quanfeng", "§3.2 non-stacking 1"),
    _X("tw.xiao_sixi", "tw.menfeng", "§3.2 non-stacking 1"),
    _X("tw.da_sixi", "tw.xiao_sixi", "§3.2 non-stacking 1"),
    # rule 2: a flower kong replaces the seat-flower tai of its own group (only the seat flower: under
    # 見花見台 the group's other flowers keep their tai, their hits carry the key group + "+")
    _X("tw.huagang", "tw.zhenghua", "§3.2 non-stacking 2", same_key=True),
    # rule 3: concealed triplets, flushes
    _X("tw.si_anke", "tw.san_anke", "§3.2 non-stacking 3"),
    _X("tw.wu_anke", "tw.si_anke", "§3.2 non-stacking 3"),
    _X("tw.wu_anke", "tw.san_anke", "§3.2 non-stacking 3"),
    _X("tw.qingyise", "tw.hunyise", "§3.2 non-stacking 3"),
    # rule 4: 全求 excludes 獨聽; 天胡 excludes 門清, 不求, 獨聽, 槓上開花 (keeps 自摸)
    _X("tw.quanqiu", "tw.duting", "§3.2 non-stacking 4"),
    _X("tw.tianhu", "tw.menqing", "§3.2 non-stacking 4"),
    _X("tw.tianhu", "tw.buqiu", "§3.2 non-stacking 4"),
    _X("tw.tianhu", "tw.duting", "§3.2 non-stacking 4"),
    _X("tw.tianhu", "tw.gangshang_kaihua", "§3.2 non-stacking 4"),
    # rule 5: 天聽 / 地聽 are not added to 天胡 / 地胡 / 人胡
    *(_X(w, r, "§3.2 non-stacking 5") for w in ("tw.tianhu", "tw.dihu", "tw.renhu")
      for r in ("tw.tianting", "tw.diting")),
)

EXCLUSIONS_EIGHT_FLOWERS_ADDED: tuple[Exclusion, ...] = (
    _X("tw.baxian_guohai", "tw.huagang", "§3.2 non-stacking 2 (八仙過海 covers the flowers)"),
    _X("tw.baxian_guohai", "tw.zhenghua", "§3.2 non-stacking 2 (八仙過海 covers the flowers)"),
)
"""With ``eight_flowers_mode="added"`` 八仙過海 is added to a complete hand but still replaces the
flower tai (花槓, 正花). In the default standalone mode it replaces everything (rule 2): the scorer
does not look at the hand at all."""

EXCLUSION_ALL_HONOURS_NO_ALL_PUNGS = _X("tw.ziyise", "tw.pengpenghu",
                                         "§3.2 字一色 note (C1 all_honors_add_all_pungs=False)")

EXCLUSIONS_EARTHLY_READY_P1: tuple[Exclusion, ...] = tuple(
    _X("tw.diting", loser, "§3.2 地聽 note (P1: excludes 門清/不求, keeps 自摸)")
    for loser in ("tw.menqing", "tw.buqiu", "tw.baoting"))
"""Rows added by ``options.earthly_ready_excludes_concealed``."""

LITTLE_FOUR_WINDS_WIND_ROWS = (("tw.xiao_sixi", "tw.quanfeng"), ("tw.xiao_sixi", "tw.menfeng"))
"""Rows removed by ``options.little_four_winds_keep_wind_tai``."""
del _X


EXCLUSION_HALF_BEGGING_SINGLE_WAIT = Exclusion("tw.banqiu", "tw.duting",
                                               "RULES.md §3.5 (single_wait_with_half_begging=False)")
EXCLUSION_HEAVENLY_READY_DECLARED = Exclusion("tw.tianting", "tw.baoting",
                                              "RULES.md §3.5 (heavenly_ready_includes_declared=True)")
EXCLUSION_EIGHT_HALF_PAIRS_SINGLE_WAIT = Exclusion("tw.ba_duiban", "tw.duting",
                                                   "RULES.md §3.5 (eight_half_pairs_single_wait=False)")


def exclusions_for(options: TaiwanOptions) -> tuple[Exclusion, ...]:
    """The exclusion table in force under ``options`` (base table plus/minus option-dependent rows)."""
    rows = EXCLUSIONS
    if not options.single_wait_with_half_begging:
        rows += (EXCLUSION_HALF_BEGGING_SINGLE_WAIT,)
    if options.heavenly_ready_includes_declared:
        rows += (EXCLUSION_HEAVENLY_READY_DECLARED,)
    if not options.eight_half_pairs_single_wait:
        rows += (EXCLUSION_EIGHT_HALF_PAIRS_SINGLE_WAIT,)
    if options.little_four_winds_keep_wind_tai:
        rows = tuple(x for x in rows if (x.winner, x.loser) not in LITTLE_FOUR_WINDS_WIND_ROWS)
    if options.eight_flowers_mode == "added":
        rows += EXCLUSIONS_EIGHT_FLOWERS_ADDED
    if not options.all_honours_add_all_pungs:
        rows += (EXCLUSION_ALL_HONOURS_NO_ALL_PUNGS,)
    if options.earthly_ready_excludes_concealed:
        rows += EXCLUSIONS_EARTHLY_READY_P1
    return rows


# -------------------------------------------------------------------------------------- presets
PRESETS: dict[str, dict[str, int]] = {
    # RULES.md §9 item 3: the association-style defaults of §3.2 (no overrides).
    "association": {},
    # The tai values of C1's (open_mahjong_unity) default table, as RULES.md §3.2 "Alt" reports them --
    # values only: C1's other defaults (半求 and 河底撈魚 off, its 平胡 and flower rules) are not
    # applied, so the name does not claim to be C1's default (RULES.md §3.5).
    "c1_values": {"tw.huagang": 1, "tw.diting": 8, "tw.ziyise": 16, "tw.tianting": 16},
    # C1 presets `star31` and `shenlaiye`: RULES.md cites star31 for the defaults of 花槓 2, 地聽 4,
    # 字一色 8, 天聽 8, 人胡 16; shenlaiye differs in 天聽 16 and 人胡 8.
    "star31": {},
    "shenlaiye": {"tw.tianting": 16, "tw.renhu": 8},
    # P3 (gaming-site table): 人胡 8.
    "p3": {"tw.renhu": 8},
    # "16-tai cap" tables (P6): 天胡 16.
    "cap16": {"tw.tianhu": 16},
    # C2 (simonchih/16mj): 半求 2, 八仙過海 16 (its 混一色/小三元 = 1 look like defects, not copied).
    "c2_16mj": {"tw.banqiu": 2, "tw.baxian_guohai": 16},
}
"""Named value presets (sparse ``id → 台``), from the Alt column of RULES.md §3.2."""


# ---------------------------------------------------------------------------------- the reading
CHOW, PUNG, PAIR = "chow", "pung", "pair"


@dataclass(frozen=True, slots=True)
class Unit:
    """One set or pair of a reading.

    Attributes:
        kind: ``chow``, ``pung`` (a kong is a pung with ``kong``) or ``pair``.
        tile: the lowest tile of a chow; the tile of a pung or pair.
        concealed: formed from drawn tiles only (concealed kongs, pungs of the concealed part not
            completed by another player's tile).
        claimed: a declared meld built with another player's tile (chow, pung, exposed or added kong).
        kong: a kong (4 tiles).
    """

    kind: str
    tile: int
    concealed: bool
    claimed: bool = False
    kong: bool = False


@dataclass(frozen=True, slots=True)
class Context:
    """One reading of a winning hand: what the detectors see.

    Attributes:
        units: declared melds first, then the sets and pair(s) of one decomposition of the concealed
            part (empty for a flower win).
        win_index: index in ``units`` of the unit the winning tile completed (``None`` for a flower
            win).
        win_tile: the winning tile (``None`` for a flower win).
        shape: ``standard``, ``eight-half-pairs`` or ``flowers`` (a flower win, no hand).
        counts: count vector (34) of every tile of the hand: melds (kongs as 4), concealed tiles and
            the winning tile.
        flowers: the flowers held (indices 34-41).
        wait_kinds: number of tile kinds that completed the hand before the win (exhausted ones
            included, RULES.md §3.2 獨聽); 0 when unknown (flower wins).
        seat_wind: the winner's seat wind tile (27-30; East = the dealer).
        round_wind: the round wind tile (27-30).
        win: the win conditions.
        options: the rule options.
    """

    units: tuple[Unit, ...]
    win_index: int | None
    win_tile: int | None
    shape: str
    counts: tuple[int, ...]
    flowers: tuple[int, ...]
    wait_kinds: int
    seat_wind: int
    round_wind: int
    win: TaiwanWin
    options: TaiwanOptions

    @property
    def sets(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.kind != PAIR)

    @property
    def pairs(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.kind == PAIR)

    @property
    def pungs(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.kind == PUNG)

    @property
    def win_unit(self) -> Unit | None:
        return None if self.win_index is None else self.units[self.win_index]

    @property
    def standard(self) -> bool:
        return self.shape == "standard"

    @property
    def tiles_present(self) -> tuple[int, ...]:
        return tuple(t for t, n in enumerate(self.counts) if n)


@dataclass(frozen=True, slots=True)
class Hit:
    """A detection: ``count`` occurrences of pattern ``id`` (``key`` e.g. a flower group)."""

    id: str
    count: int = 1
    key: str = ""


Detector = Callable[[Context], list[Hit]]
DETECTORS: dict[str, Detector] = {}


def detector(pid: str) -> Callable[[Detector], Detector]:
    """Register ``fn`` as the detector of pattern ``pid`` (which must be in the table)."""
    pattern(pid)

    def deco(fn: Detector) -> Detector:
        DETECTORS[pid] = fn
        return fn

    return deco


def _hit(pid: str, ok: bool, count: int = 1) -> list[Hit]:
    return [Hit(pid, count)] if ok and count > 0 else []


def _pung_of(ctx: Context, tile: int) -> bool:
    return any(u.tile == tile for u in ctx.pungs)


def _five_claimed_sets(ctx: Context) -> bool:
    """All five sets are declared melds claimed from others (全求 / 半求)."""
    sets = ctx.sets
    return ctx.standard and len(sets) == 5 and all(u.claimed for u in sets)


def _suits_present(ctx: Context) -> set[int]:
    return {t // 9 for t in ctx.tiles_present if t < 27}


SEASONS, PLANTS = "seasons", "plants"


def _flower_group(f: int) -> str:
    return SEASONS if f < 38 else PLANTS


# ------------------------------------------------------------------------ detectors: 1 tai
@detector("tw.menqing")
def menqing(ctx: Context) -> list[Hit]:
    """門清: no chow, pung or exposed/added kong; a concealed kong is allowed unless
    ``options.concealed_kong_breaks_menqing`` (the P2/P4 reading)."""
    if ctx.shape == "flowers":
        return []
    if any(u.claimed for u in ctx.units):
        return []
    if ctx.options.concealed_kong_breaks_menqing and any(u.kong for u in ctx.units):
        return []
    return [Hit("tw.menqing")]


@detector("tw.zimo")
def zimo(ctx: Context) -> list[Hit]:
    """自摸: won on own draw (incl. kong/flower replacement, last tile, 天胡, 地胡)."""
    return _hit("tw.zimo", ctx.win.self_drawn and ctx.shape != "flowers")


@detector("tw.buqiu")
def buqiu(ctx: Context) -> list[Hit]:
    """不求: 門清 and 自摸 together (one extra tai)."""
    return _hit("tw.buqiu", bool(menqing(ctx)) and bool(zimo(ctx)))


@detector("tw.quanfeng")
def quanfeng(ctx: Context) -> list[Hit]:
    """圈風: a triplet/kong of the round wind."""
    return _hit("tw.quanfeng", _pung_of(ctx, ctx.round_wind))


@detector("tw.menfeng")
def menfeng(ctx: Context) -> list[Hit]:
    """門風: a triplet/kong of the winner's seat wind (the dealer sits East)."""
    return _hit("tw.menfeng", _pung_of(ctx, ctx.seat_wind))


@detector("tw.sanyuanpai")
def sanyuanpai(ctx: Context) -> list[Hit]:
    """三元牌: one hit per dragon triplet/kong."""
    return _hit("tw.sanyuanpai", True, sum(1 for u in ctx.pungs if u.tile in DRAGONS))


@detector("tw.zhenghua")
def zhenghua(ctx: Context) -> list[Hit]:
    """正花: each flower numbered like the seat (E=1 … N=4; 春/梅 for East); with
    ``options.all_flowers_count`` (見花見台) every flower. ``key`` = its group for the seat flower
    (the one 花槓 replaces, §3.2 non-stacking 2) and ``group + "+"`` for another flower counted by
    見花見台, which 花槓 does not replace: flower tai never drop when a flower is added."""
    seat = ctx.seat_wind - WINDS[0]
    own = {34 + seat, 38 + seat}
    return [Hit("tw.zhenghua", 1, _flower_group(f) if f in own else _flower_group(f) + "+")
            for f in sorted(ctx.flowers) if ctx.options.all_flowers_count or f in own]


@detector("tw.duting")
def duting(ctx: Context) -> list[Hit]:
    """獨聽: the hand before the win waited on exactly one tile kind (counting kinds whose copies
    are all in the player's own hand: a wait made unique by dead tiles does not count)."""
    return _hit("tw.duting", ctx.wait_kinds == 1)


@detector("tw.qianggang")
def qianggang(ctx: Context) -> list[Hit]:
    """搶槓: won on the tile another player added to a pung."""
    return _hit("tw.qianggang", ctx.win.robbing_kong)


@detector("tw.gangshang_kaihua")
def gangshang_kaihua(ctx: Context) -> list[Hit]:
    """槓上開花: self-drawn on a replacement tile after a kong or a flower (RULES.md §7)."""
    return _hit("tw.gangshang_kaihua", ctx.win.kong_replacement)


@detector("tw.haidi_laoyue")
def haidi_laoyue(ctx: Context) -> list[Hit]:
    """海底撈月: self-drawn on the last live tile (Taiwan meaning, RULES.md §7)."""
    return _hit("tw.haidi_laoyue", ctx.win.last_tile)


@detector("tw.hedi_laoyu")
def hedi_laoyu(ctx: Context) -> list[Hit]:
    """河底撈魚: won on the final discard."""
    return _hit("tw.hedi_laoyu", ctx.win.last_discard)


@detector("tw.banqiu")
def banqiu(ctx: Context) -> list[Hit]:
    """半求: all five sets claimed from others, pair wait, self-drawn."""
    return _hit("tw.banqiu", _five_claimed_sets(ctx) and ctx.win.self_drawn)


@detector("tw.baoting")
def baoting(ctx: Context) -> list[Hit]:
    """報聽: declared ready, then won (optional rule)."""
    return _hit("tw.baoting", ctx.win.declared_ready)


# ------------------------------------------------------------------------ detectors: 2 tai
@detector("tw.pinghu")
def pinghu(ctx: Context) -> list[Hit]:
    """平胡: five chows + pair, not self-drawn, no honour anywhere, no flower, and the winning tile
    completed a two-sided wait (``options.all_chows_honour_pair`` / ``all_chows_with_flowers``: the
    looser readings, RULES.md §3.5) (an edge, closed or pair wait does not qualify)."""
    if not ctx.standard or ctx.win.self_drawn or (ctx.flowers and not ctx.options.all_chows_with_flowers):
        return []
    if len(ctx.sets) != 5 or any(u.kind != CHOW for u in ctx.sets):
        return []
    if any(is_honor(u.tile) for u in ctx.pairs) and not ctx.options.all_chows_honour_pair:
        return []
    w = ctx.win_unit
    if w is None or w.kind != CHOW:
        return []
    low, rank = w.tile, w.tile % 9
    two_sided = (ctx.win_tile == low and rank != 6) or (ctx.win_tile == low + 2 and rank != 0)
    return _hit("tw.pinghu", two_sided)


@detector("tw.quanqiu")
def quanqiu(ctx: Context) -> list[Hit]:
    """全求: all five sets claimed from others, pair wait, won on another player's tile."""
    return _hit("tw.quanqiu", _five_claimed_sets(ctx) and not ctx.win.self_drawn)


@detector("tw.huagang")
def huagang(ctx: Context) -> list[Hit]:
    """花槓: one hit per complete flower group (春夏秋冬 or 梅蘭竹菊), ``key`` = the group."""
    fl = set(ctx.flowers)
    out = []
    if all(f in fl for f in range(34, 38)):
        out.append(Hit("tw.huagang", 1, SEASONS))
    if all(f in fl for f in range(38, 42)):
        out.append(Hit("tw.huagang", 1, PLANTS))
    return out


def concealed_triplets(ctx: Context) -> int:
    """Concealed triplets and kongs of the reading (RULES.md §3.2 三暗刻)."""
    return sum(1 for u in ctx.pungs if u.concealed)


@detector("tw.san_anke")
def san_anke(ctx: Context) -> list[Hit]:
    """三暗刻: at least 3 concealed triplets (四/五暗刻 replace it through the exclusion table)."""
    return _hit("tw.san_anke", concealed_triplets(ctx) >= 3)


# ------------------------------------------------------------------------ detectors: 4-5 tai
@detector("tw.pengpenghu")
def pengpenghu(ctx: Context) -> list[Hit]:
    """碰碰胡: five triplets/kongs + pair."""
    return _hit("tw.pengpenghu", ctx.standard and len(ctx.pungs) == 5)


@detector("tw.hunyise")
def hunyise(ctx: Context) -> list[Hit]:
    """混一色: one suit and at least one honour."""
    present = ctx.tiles_present
    return _hit("tw.hunyise", bool(present) and len(_suits_present(ctx)) == 1 and any(is_honor(t) for t in present))


@detector("tw.xiao_sanyuan")
def xiao_sanyuan(ctx: Context) -> list[Hit]:
    """小三元: two dragon triplets and a dragon pair."""
    pungs = sum(1 for u in ctx.pungs if u.tile in DRAGONS)
    pair = any(u.tile in DRAGONS for u in ctx.pairs)
    return _hit("tw.xiao_sanyuan", ctx.standard and pungs == 2 and pair)


@detector("tw.diting")
def diting(ctx: Context) -> list[Hit]:
    """地聽: ready right after the first discard (a condition flag)."""
    return _hit("tw.diting", ctx.win.earthly_ready)


@detector("tw.si_anke")
def si_anke(ctx: Context) -> list[Hit]:
    """四暗刻: at least 4 concealed triplets."""
    return _hit("tw.si_anke", concealed_triplets(ctx) >= 4)


# ------------------------------------------------------------------------ detectors: 8 tai
@detector("tw.wu_anke")
def wu_anke(ctx: Context) -> list[Hit]:
    """五暗刻: 5 concealed triplets."""
    return _hit("tw.wu_anke", concealed_triplets(ctx) >= 5)


@detector("tw.da_sanyuan")
def da_sanyuan(ctx: Context) -> list[Hit]:
    """大三元: three dragon triplets/kongs."""
    return _hit("tw.da_sanyuan", sum(1 for u in ctx.pungs if u.tile in DRAGONS) == 3)


@detector("tw.xiao_sixi")
def xiao_sixi(ctx: Context) -> list[Hit]:
    """小四喜: three wind triplets and a wind pair."""
    pungs = sum(1 for u in ctx.pungs if u.tile in WINDS)
    pair = any(u.tile in WINDS for u in ctx.pairs)
    return _hit("tw.xiao_sixi", ctx.standard and pungs == 3 and pair)


@detector("tw.qingyise")
def qingyise(ctx: Context) -> list[Hit]:
    """清一色: one suit, no honours."""
    present = ctx.tiles_present
    return _hit("tw.qingyise", bool(present) and len(_suits_present(ctx)) == 1
                and not any(is_honor(t) for t in present))


@detector("tw.ziyise")
def ziyise(ctx: Context) -> list[Hit]:
    """字一色: honours only."""
    present = ctx.tiles_present
    return _hit("tw.ziyise", bool(present) and all(t in HONORS for t in present))


@detector("tw.baxian_guohai")
def baxian_guohai(ctx: Context) -> list[Hit]:
    """八仙過海: all eight flowers held, won as a self-draw (``win.flower_win``). Reached here only
    in ``eight_flowers_mode="added"``; standalone flower wins are scored without a hand."""
    return _hit("tw.baxian_guohai", ctx.win.flower_win == "tw.baxian_guohai")


@detector("tw.qiqiang_yi")
def qiqiang_yi(ctx: Context) -> list[Hit]:
    """七搶一: seven flowers held, another player drew the eighth (``win.flower_drawer`` set)."""
    return _hit("tw.qiqiang_yi", ctx.win.flower_win == "tw.qiqiang_yi")


@detector("tw.tianting")
def tianting(ctx: Context) -> list[Hit]:
    """天聽: ready from the very start (a condition flag)."""
    return _hit("tw.tianting", ctx.win.heavenly_ready)


@detector("tw.renhu")
def renhu(ctx: Context) -> list[Hit]:
    """人胡: non-dealer's discard win in the first go-around (a condition flag)."""
    return _hit("tw.renhu", ctx.win.human_win)


@detector("tw.si_gang")
def si_gang(ctx: Context) -> list[Hit]:
    """四槓: four (or more) kongs (optional)."""
    return _hit("tw.si_gang", sum(1 for u in ctx.units if u.kong) >= 4)


@detector("tw.ba_duiban")
def ba_duiban(ctx: Context) -> list[Hit]:
    """八對半: the hand read as seven pairs + one triplet (optional shape)."""
    return _hit("tw.ba_duiban", ctx.shape == "eight-half-pairs")


# ------------------------------------------------------------------------ detectors: 16+ tai
@detector("tw.da_sixi")
def da_sixi(ctx: Context) -> list[Hit]:
    """大四喜: four wind triplets/kongs."""
    return _hit("tw.da_sixi", sum(1 for u in ctx.pungs if u.tile in WINDS) == 4)


@detector("tw.dihu")
def dihu(ctx: Context) -> list[Hit]:
    """地胡: non-dealer self-draw on the first draw (a condition flag)."""
    return _hit("tw.dihu", ctx.win.earthly_win)


@detector("tw.tianhu")
def tianhu(ctx: Context) -> list[Hit]:
    """天胡: dealer complete on the initial hand (a condition flag)."""
    return _hit("tw.tianhu", ctx.win.heavenly_win)


@detector("tw.baopai")
def baopai(ctx: Context) -> list[Hit]:
    """宝牌 (RULES.md §3.4): for each 宝牌 face listed (a face may be listed more than once, one per
    indicator), one hit per copy of that face in the hand (melds included)."""
    n = sum(ctx.counts[f] for f in ctx.win.bao_pai)
    return _hit("tw.baopai", True, n)


def detect(ctx: Context) -> list[Hit]:
    """Every raw detection of one reading (patterns that are on only, ``options.is_on``: an optional
    pattern not enabled, or one set to 0 台, is not detected, so it excludes nothing either; before
    exclusions)."""
    out: list[Hit] = []
    for pid, fn in DETECTORS.items():
        if not ctx.options.is_on(pid):
            continue
        out.extend(fn(ctx))
    return out


def apply_exclusions(hits: list[Hit], rows: tuple[Exclusion, ...] = EXCLUSIONS) -> list[Hit]:
    """Drop the hits excluded by ``rows`` (evaluated against the detected set: order-independent)."""
    detected: dict[str, set[str]] = {}
    for h in hits:
        detected.setdefault(h.id, set()).add(h.key)
    kept = []
    for h in hits:
        dropped = False
        for x in rows:
            if x.loser == h.id and x.winner in detected and (not x.same_key or h.key in detected[x.winner]):
                dropped = True
                break
        if not dropped:
            kept.append(h)
    return kept


_missing = [p.id for p in PATTERNS if not p.per_payment and p.id not in DETECTORS]
assert not _missing, f"patterns without a detector: {_missing}"
del _missing
