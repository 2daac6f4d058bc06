"""The 81 fans of Chinese Official mahjong (MCR, 国标麻将) as data, their detectors, and the
combination principles as one explicit selection procedure.

Sources: seed ``004_*`` (the fan list with values and 不计 texts, Chinese), RULES.md §6 (checked
against the standard list: 12 value levels, 81 fans), the official English fan names of the MCR
rules (Chinese Official Mahjong rules, 2006 English edition), and the cases of
``shared/data/mcr/gb_mahjong_cases.json`` / ``shared/data/cases/traps.json`` where the seed's
exclusion texts are incomplete or differ from the rule book (noted per fan below). Chinese names
are spelled as PyMahjongGB 1.4.0 spells them, except its three "独听・" wait fans, for which the
classic names 边张 / 嵌张 / 单钓将 are used (the PyMahjongGB spellings and 坎张 are aliases).

Data
----
:data:`FANS` lists every fan as a :class:`Fan`: number 1-81 in the official order (plus 82, 明暗杠,
the PyMahjongGB extra for one melded plus one concealed kong, see
:attr:`~majiang.rules.mcr.conditions.McrOptions.melded_concealed_kong_pair`), a stable key
(``mcr.…``, RULES.md §7), English and Chinese names, points, and three kinds of exclusion:

* ``excludes``: fans not counted at all when this fan counts (不计, the *non-repeat* principle
  不重复原则: a fan implied by a bigger one is not counted again);
* ``excludes_same_sets``: fans not counted *on the same sets* (箭刻, 圈风刻, 门风刻 and the wind
  and dragon fans cover the 幺九刻 of their own pungs only);
* ``excludes_one``: a number of instances of a fan not counted (九莲宝灯 covers one 幺九刻).

Principles
----------
:func:`select` turns the raw detections of one arrangement into the counted fans, in the order
(points descending, fan number ascending), accepting a detection unless an accepted fan excludes it
(by the three data kinds above) or it breaks the *account-once* principle (套算一次原则). Fans marked
``combines`` are made by combining two to four sets (chow fans 一般高 … 一色四同顺, pung fans 双同刻
… 一色四节高); account-once says a set already combined may be combined with a new set only once.
Here: such a fan is accepted only if its sets lie in pairwise different groups of the sets combined
so far (a union-find over the sets), so with k chows at most k-1 chow fans count (trap MCR-15, cases
259/288/312). The *non-separation* principle (不拆移原则: sets are not split or moved to make a
fan) is given by working on one decomposition at a time; *non-identical* (不得相同原则) is covered
by the same union-find (the same two sets are never combined twice). Ties between equal fans
(e.g. 一般高 vs 喜相逢 with four chows) go to the lower fan number, as PyMahjongGB 1.4.0 reports them.

The detectors and :func:`select` are the definition; the scorer runs equivalent fast forms of them
(:mod:`majiang.rules.mcr.fast`), which must be kept in step with any change made here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations

from majiang.errors import MajiangError

# unit kinds of a scored arrangement
CHOW, PUNG, PAIR, KNIT, SINGLE = "chow", "pung", "pair", "knit", "single"

STANDARD_SHAPE = "standard"
SEVEN_PAIRS = "seven-pairs"
THIRTEEN_ORPHANS = "thirteen-orphans"
HONORS_AND_KNITTED = "honors-and-knitted"
KNITTED_STRAIGHT = "knitted-straight"


@dataclass(frozen=True, slots=True)
class Fan:
    """One MCR fan (番种).

    Attributes:
        number: 1-81 in the official order (88-point fans first); 82 = 明暗杠 (PyMahjongGB extra).
        key: stable identifier including the ruleset, e.g. ``"mcr.pure_double_chow"`` (RULES.md §7).
        name_en: official English name, e.g. ``"Pure Double Chow"``.
        name_zh: Chinese name as PyMahjongGB 1.4.0 spells it, e.g. ``"一般高"``.
        points: value of one instance (88, 64, 48, 32, 24, 16, 12, 8, 6, 5, 4, 2, 1).
        excludes: numbers of the fans not counted when this one counts (不计).
        excludes_same_sets: numbers of fans not counted on the sets this one uses.
        excludes_one: ``(number, n)`` pairs: n instances of that fan not counted.
        combines: made by combining sets; subject to the account-once principle.
        aliases_zh: other Chinese spellings (older or newer calculators, the rule book).
    """

    number: int
    key: str
    name_en: str
    name_zh: str
    points: int
    excludes: frozenset[int] = frozenset()
    excludes_same_sets: frozenset[int] = frozenset()
    excludes_one: tuple[tuple[int, int], ...] = ()
    combines: bool = False
    aliases_zh: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name_en} ({self.name_zh}) {self.points}"


# number, key, English, Chinese, points, excludes (Chinese names), flags
# flags: "C" = combines; "S:<names>" = excludes_same_sets; "O:<name>" = excludes one instance;
# "A:<aliases>" = Chinese aliases.
_TABLE: tuple[tuple[int, str, str, str, int, str, str], ...] = (
    # ---- 88
    (1, "big_four_winds", "Big Four Winds", "大四喜", 88, "圈风刻 门风刻 三风刻 碰碰和 幺九刻", ""),
    (2, "big_three_dragons", "Big Three Dragons", "大三元", 88, "双箭刻 箭刻", "S:幺九刻"),
    (3, "all_green", "All Green", "绿一色", 88, "混一色", ""),
    (4, "nine_gates", "Nine Gates", "九莲宝灯", 88, "清一色 不求人 门前清 无字", "O:幺九刻"),
    # 四杠: the seed omits 碰碰和; PyMahjongGB drops it (cases 321-323).
    (5, "four_kongs", "Four Kongs", "四杠", 88, "碰碰和 三杠 双明杠 明杠 双暗杠 暗杠 明暗杠 单钓将", ""),
    (6, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88, "清一色 不求人 门前清 无字 单钓将 七对", ""),
    (7, "thirteen_orphans", "Thirteen Orphans", "十三幺", 88, "五门齐 不求人 门前清 单钓将 混幺九 全带幺", ""),
    # ---- 64
    # 清幺九: the seed also lists 同刻; PyMahjongGB (case 214) keeps 三同刻 and drops 双同刻 only.
    (8, "all_terminals", "All Terminals", "清幺九", 64, "碰碰和 双同刻 无字 混幺九 全带幺 幺九刻", ""),
    # 小四喜 / 小三元: the seed's 缺一门 / 三暗刻 exclusions are not in the rule book (cases 206, 210).
    (9, "little_four_winds", "Little Four Winds", "小四喜", 64, "三风刻", "S:幺九刻"),
    (10, "little_three_dragons", "Little Three Dragons", "小三元", 64, "箭刻 双箭刻", "S:幺九刻"),
    (11, "all_honors", "All Honors", "字一色", 64, "碰碰和 混幺九 全带幺 幺九刻", ""),
    # 四暗刻: PyMahjongGB keeps 单钓将 (case 324), unlike the seed.
    (12, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64, "门前清 碰碰和 三暗刻 双暗刻 不求人", ""),
    (13, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64, "平和 七对 清一色 一般高 老少副 无字", ""),
    # ---- 48
    (14, "quadruple_chow", "Quadruple Chow", "一色四同顺", 48, "一色三同顺 一色三节高 一般高 四归一", "C"),
    (15, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48, "一色三同顺 一色三节高 碰碰和", "C"),
    # ---- 32
    (16, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", 32, "一色三步高 连六 老少副", "C"),
    (17, "three_kongs", "Three Kongs", "三杠", 32, "双明杠 明杠 双暗杠 暗杠 明暗杠", ""),
    (18, "all_terminals_and_honors", "All Terminals and Honors", "混幺九", 32, "碰碰和 幺九刻 全带幺", ""),
    # ---- 24
    (19, "seven_pairs", "Seven Pairs", "七对", 24, "不求人 门前清 单钓将", ""),
    (20, "greater_honors_and_knitted_tiles", "Greater Honors and Knitted Tiles", "七星不靠", 24,
     "五门齐 不求人 门前清 单钓将 全不靠", ""),
    (21, "all_even_pungs", "All Even Pungs", "全双刻", 24, "碰碰和 断幺 无字", ""),
    (22, "full_flush", "Full Flush", "清一色", 24, "无字 缺一门", ""),
    (23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24, "一色三节高 一般高", "C"),
    (24, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24, "一色三同顺", "C"),
    (25, "upper_tiles", "Upper Tiles", "全大", 24, "大于五 无字", ""),
    (26, "middle_tiles", "Middle Tiles", "全中", 24, "断幺 无字", ""),
    (27, "lower_tiles", "Lower Tiles", "全小", 24, "小于五 无字", ""),
    # ---- 16
    (28, "pure_straight", "Pure Straight", "清龙", 16, "连六 老少副", "C"),
    (29, "three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", 16, "喜相逢 老少副 无字 平和", ""),
    (30, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16, "", "C"),
    (31, "all_fives", "All Fives", "全带五", 16, "断幺 无字", ""),
    (32, "triple_pung", "Triple Pung", "三同刻", 16, "双同刻", "C"),
    (33, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16, "双暗刻", ""),
    # ---- 12
    (34, "lesser_honors_and_knitted_tiles", "Lesser Honors and Knitted Tiles", "全不靠", 12,
     "五门齐 不求人 门前清 单钓将", ""),
    (35, "knitted_straight", "Knitted Straight", "组合龙", 12, "", ""),
    (36, "upper_four", "Upper Four", "大于五", 12, "无字", ""),
    (37, "lower_four", "Lower Four", "小于五", 12, "无字", ""),
    # 三风刻: the seed's 缺一门 exclusion is not in the rule book (case 207).
    (38, "big_three_winds", "Big Three Winds", "三风刻", 12, "", "S:幺九刻"),
    # ---- 8
    (39, "mixed_straight", "Mixed Straight", "花龙", 8, "", "C"),
    (40, "reversible_tiles", "Reversible Tiles", "推不倒", 8, "缺一门", ""),
    (41, "mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8, "喜相逢", "C"),
    (42, "mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8, "", "C"),
    (43, "chicken_hand", "Chicken Hand", "无番和", 8, "", ""),
    (44, "last_tile_draw", "Last Tile Draw", "妙手回春", 8, "自摸", ""),
    (45, "last_tile_claim", "Last Tile Claim", "海底捞月", 8, "", ""),
    (46, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8, "自摸", ""),
    (47, "robbing_the_kong", "Robbing the Kong", "抢杠和", 8, "和绝张", ""),
    # ---- 6
    (48, "all_pungs", "All Pungs", "碰碰和", 6, "", ""),
    (49, "half_flush", "Half Flush", "混一色", 6, "缺一门", ""),
    (50, "mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6, "", "C"),
    (51, "all_types", "All Types", "五门齐", 6, "", ""),
    (52, "melded_hand", "Melded Hand", "全求人", 6, "单钓将", ""),
    (53, "two_concealed_kongs", "Two Concealed Kongs", "双暗杠", 6, "双暗刻 暗杠", ""),
    (54, "two_dragon_pungs", "Two Dragon Pungs", "双箭刻", 6, "箭刻", "S:幺九刻"),
    # ---- 4
    (55, "outside_hand", "Outside Hand", "全带幺", 4, "", ""),
    (56, "fully_concealed_hand", "Fully Concealed Hand", "不求人", 4, "自摸 门前清", ""),
    (57, "two_melded_kongs", "Two Melded Kongs", "双明杠", 4, "明杠", ""),
    (58, "last_tile", "Last Tile", "和绝张", 4, "", ""),
    # ---- 2
    (59, "dragon_pung", "Dragon Pung", "箭刻", 2, "", "S:幺九刻"),
    (60, "prevalent_wind", "Prevalent Wind", "圈风刻", 2, "", "S:幺九刻"),
    (61, "seat_wind", "Seat Wind", "门风刻", 2, "", "S:幺九刻"),
    (62, "concealed_hand", "Concealed Hand", "门前清", 2, "", ""),
    (63, "all_chows", "All Chows", "平和", 2, "无字", ""),
    (64, "tile_hog", "Tile Hog", "四归一", 2, "", ""),
    (65, "double_pung", "Double Pung", "双同刻", 2, "", "C"),
    (66, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2, "", ""),
    (67, "concealed_kong", "Concealed Kong", "暗杠", 2, "", ""),
    (68, "all_simples", "All Simples", "断幺", 2, "无字", ""),
    # ---- 1
    (69, "pure_double_chow", "Pure Double Chow", "一般高", 1, "", "C"),
    (70, "mixed_double_chow", "Mixed Double Chow", "喜相逢", 1, "", "C"),
    (71, "short_straight", "Short Straight", "连六", 1, "", "C"),
    (72, "two_terminal_chows", "Two Terminal Chows", "老少副", 1, "", "C"),
    (73, "pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1, "", ""),
    (74, "melded_kong", "Melded Kong", "明杠", 1, "", ""),
    (75, "one_voided_suit", "One Voided Suit", "缺一门", 1, "", ""),
    (76, "no_honors", "No Honors", "无字", 1, "", ""),
    (77, "edge_wait", "Edge Wait", "边张", 1, "嵌张 单钓将", "A:独听・边张"),
    (78, "closed_wait", "Closed Wait", "嵌张", 1, "边张 单钓将", "A:独听・嵌张 坎张"),
    (79, "single_wait", "Single Wait", "单钓将", 1, "边张 嵌张", "A:独听・单钓 单钓"),
    (80, "self_drawn", "Self-Drawn", "自摸", 1, "", ""),
    (81, "flower_tiles", "Flower Tiles", "花牌", 1, "", ""),
    # ---- PyMahjongGB extra (option McrOptions.melded_concealed_kong_pair)
    (82, "melded_and_concealed_kong", "Concealed Kong and Melded Kong", "明暗杠", 5, "明杠 暗杠", ""),
)


def _build() -> tuple[Fan, ...]:
    by_zh = {row[3]: row[0] for row in _TABLE}
    fans = []
    for number, key, en, zh, points, excl, flags in _TABLE:
        same: set[int] = set()
        one: list[tuple[int, int]] = []
        aliases: tuple[str, ...] = ()
        combines = False
        for flag in flags.split(";") if flags else ():
            if flag == "C":
                combines = True
            elif flag.startswith("S:"):
                same.update(by_zh[n] for n in flag[2:].split())
            elif flag.startswith("O:"):
                one.append((by_zh[flag[2:]], 1))
            elif flag.startswith("A:"):
                aliases = tuple(flag[2:].split())
        fans.append(Fan(number, "mcr." + key, en, zh, points, frozenset(by_zh[n] for n in excl.split()),
                        frozenset(same), tuple(one), combines, aliases))
    return tuple(fans)


FANS: tuple[Fan, ...] = _build()
"""All fans, index = number - 1 (81 official fans plus 明暗杠 as number 82)."""

OFFICIAL_FANS: tuple[Fan, ...] = FANS[:81]
"""The 81 official fans."""

_BY_NUMBER = {f.number: f for f in FANS}
_BY_NAME: dict[str, Fan] = {}
for _f in FANS:
    for _n in (_f.name_zh, _f.name_en, _f.name_en.lower(), _f.key, *_f.aliases_zh):
        _BY_NAME[_n] = _f


def fan(name: str | int) -> Fan:
    """Look a fan up by number, Chinese name (or alias such as 坎张 / 独听・嵌张), English name or key.

    Raises :class:`~majiang.errors.MajiangError` for an unknown name.
    """
    if isinstance(name, int):
        if name in _BY_NUMBER:
            return _BY_NUMBER[name]
        raise MajiangError(f"no MCR fan number {name} (1-82)")
    f = _BY_NAME.get(name) or _BY_NAME.get(name.strip().lower())
    if f is None:
        raise MajiangError(f"unknown MCR fan name {name!r}")
    return f


# fan numbers used by the detectors (named for readability)
N = {f.key[4:]: f.number for f in FANS}


# ------------------------------------------------------------------------------------------------
# the scored arrangement


@dataclass(frozen=True, slots=True)
class Unit:
    """One set, pair or single of a scored arrangement.

    Attributes:
        kind: ``chow``, ``pung`` (kongs included), ``pair``, ``knit`` (one 147/258/369 part of a
            knitted straight, three tiles of one suit) or ``single`` (a tile of 十三幺 / 全不靠).
        tiles: the tiles (4 for a kong).
        declared: a declared meld (concealed kongs included).
        concealed: counts as concealed (暗刻 for pungs; every concealed-part group).
        kong: ``None``, ``"melded"`` (exposed or added kong) or ``"concealed"``.
    """

    kind: str
    tiles: tuple[int, ...]
    declared: bool = False
    concealed: bool = True
    kong: str | None = None

    @property
    def tile(self) -> int:
        """The first (lowest) tile."""
        return self.tiles[0]


@dataclass(slots=True)
class Context:
    """Everything a detector looks at: one arrangement of the whole hand plus the win conditions.

    Attributes:
        shape: ``standard``, ``seven-pairs``, ``thirteen-orphans``, ``honors-and-knitted`` or
            ``knitted-straight``.
        units: the sets, pair(s) and singles, declared melds first.
        win_tile: the winning tile (0-33).
        self_drawn, last_of_kind, last_wall_tile, kong_replacement, robbing_kong, seat_wind,
            prevalent_wind: the :class:`~majiang.rules.mcr.conditions.WinConditions`.
        wait: ``"edge"``, ``"closed"``, ``"single"`` or ``None``: the wait fan this arrangement
            gives (decided by the scorer: unique wait and where the winning tile sits).
        nine_gates: the concealed part before the win is 1112345678999 of one suit, no melds.
        melded_concealed_kong_pair: the option of that name.
    """

    shape: str
    units: tuple[Unit, ...]
    win_tile: int
    self_drawn: bool = False
    last_of_kind: bool = False
    last_wall_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    wait: str | None = None
    nine_gates: bool = False
    melded_concealed_kong_pair: bool = True
    counts: list[int] = field(default_factory=list)
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    pairs: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        c = [0] * 34
        for u in self.units:
            for t in u.tiles:
                c[t] += 1
        self.counts = c
        self.chows = tuple(i for i, u in enumerate(self.units) if u.kind == CHOW)
        self.pungs = tuple(i for i, u in enumerate(self.units) if u.kind == PUNG)
        self.pairs = tuple(i for i, u in enumerate(self.units) if u.kind == PAIR)

    @property
    def open_melds(self) -> int:
        """Declared melds other than concealed kongs."""
        return sum(1 for u in self.units if u.declared and u.kong != "concealed")


@dataclass(frozen=True, slots=True, order=True)
class Hit:
    """A detected fan instance: fan number and the indices of the units it uses (may be empty)."""

    fan: int
    sets: tuple[int, ...] = ()


Detector = Callable[[Context], Iterable[Hit]]
DETECTORS: list[Detector] = []


def detector(fn: Detector) -> Detector:
    """Register a detector (a function ``Context -> Iterable[Hit]``)."""
    DETECTORS.append(fn)
    return fn


# ------------------------------------------------------------------------------------------------
# tile helpers

def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1 if t < 27 else 0


def _is_terminal_or_honor(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 s, 发
REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))  # 1234589p 245689s 白


def _present(ctx: Context) -> list[int]:
    return [t for t in range(34) if ctx.counts[t]]


# ------------------------------------------------------------------------------------------------
# detectors: honour pungs (winds and dragons), 幺九刻


@detector
def honor_pungs(ctx: Context) -> Iterator[Hit]:
    """大四喜 小四喜 三风刻 大三元 小三元 双箭刻 箭刻 圈风刻 门风刻 幺九刻 (seed 004)."""
    units = ctx.units
    winds = tuple(i for i in ctx.pungs if 27 <= units[i].tile <= 30)
    dragons = tuple(i for i in ctx.pungs if units[i].tile >= 31)
    pair = units[ctx.pairs[0]].tile if len(ctx.pairs) == 1 else None
    if len(winds) == 4:
        yield Hit(N["big_four_winds"], winds)
    if len(winds) == 3:
        if pair is not None and 27 <= pair <= 30:
            yield Hit(N["little_four_winds"], winds)
        yield Hit(N["big_three_winds"], winds)
    if len(dragons) == 3:
        yield Hit(N["big_three_dragons"], dragons)
    if len(dragons) == 2:
        if pair is not None and pair >= 31:
            yield Hit(N["little_three_dragons"], dragons)
        yield Hit(N["two_dragon_pungs"], dragons)
    for i in dragons:
        yield Hit(N["dragon_pung"], (i,))
    for i in winds:
        if units[i].tile == 27 + ctx.prevalent_wind:
            yield Hit(N["prevalent_wind"], (i,))
        if units[i].tile == 27 + ctx.seat_wind:
            yield Hit(N["seat_wind"], (i,))
    for i in ctx.pungs:
        if _is_terminal_or_honor(units[i].tile):
            yield Hit(N["pung_of_terminals_or_honors"], (i,))


# ------------------------------------------------------------------------------------------------
# detectors: special shapes


@detector
def special_shapes(ctx: Context) -> Iterator[Hit]:
    """十三幺 七对 连七对 七星不靠 全不靠 组合龙 (seed 004)."""
    if ctx.shape == THIRTEEN_ORPHANS:
        yield Hit(N["thirteen_orphans"])
    elif ctx.shape == SEVEN_PAIRS:
        yield Hit(N["seven_pairs"])
        tiles = sorted({u.tile for u in ctx.units})
        if (len(tiles) == 7 and tiles[0] < 27 and _suit(tiles[0]) == _suit(tiles[-1])
                and tiles[-1] - tiles[0] == 6):
            yield Hit(N["seven_shifted_pairs"])
    elif ctx.shape == HONORS_AND_KNITTED:
        honors = sum(1 for t in range(27, 34) if ctx.counts[t])
        yield Hit(N["greater_honors_and_knitted_tiles"] if honors == 7 else N["lesser_honors_and_knitted_tiles"])
        if honors == 5:  # 9 suited tiles: the whole knitted straight is there
            yield Hit(N["knitted_straight"])
    elif ctx.shape == KNITTED_STRAIGHT:
        yield Hit(N["knitted_straight"])


# ------------------------------------------------------------------------------------------------
# detectors: fans over the set of tiles


@detector
def tile_set_fans(ctx: Context) -> Iterator[Hit]:
    """绿一色 清幺九 混幺九 字一色 清一色 混一色 五门齐 缺一门 无字 断幺 推不倒 全大 全中 全小
    大于五 小于五 (seed 004)."""
    present = _present(ctx)
    suits = {_suit(t) for t in present if t < 27}
    winds = any(27 <= t <= 30 for t in present)
    dragons = any(t >= 31 for t in present)
    honors = winds or dragons
    ranks = {_rank(t) for t in present if t < 27}
    pairs_or_standard = ctx.shape in (STANDARD_SHAPE, SEVEN_PAIRS)
    if all(t in GREEN for t in present):
        yield Hit(N["all_green"])
    if all(t in REVERSIBLE for t in present):
        yield Hit(N["reversible_tiles"])
    if pairs_or_standard and all(_is_terminal_or_honor(t) for t in present):
        if not honors:
            yield Hit(N["all_terminals"])
        elif suits:
            yield Hit(N["all_terminals_and_honors"])
    if not suits:
        yield Hit(N["all_honors"])
    if len(suits) == 1:
        yield Hit(N["half_flush"] if honors else N["full_flush"])
    if len(suits) == 3 and winds and dragons:
        yield Hit(N["all_types"])
    if len(suits) == 2:
        yield Hit(N["one_voided_suit"])
    if not honors:
        yield Hit(N["no_honors"])
        if ranks <= {7, 8, 9}:
            yield Hit(N["upper_tiles"])
        elif ranks <= {4, 5, 6}:
            yield Hit(N["middle_tiles"])
        elif ranks <= {1, 2, 3}:
            yield Hit(N["lower_tiles"])
        if ranks <= {6, 7, 8, 9}:
            yield Hit(N["upper_four"])
        elif ranks <= {1, 2, 3, 4}:
            yield Hit(N["lower_four"])
        if not ranks & {1, 9}:
            yield Hit(N["all_simples"])


# ------------------------------------------------------------------------------------------------
# detectors: structure of the sets


@detector
def set_structure(ctx: Context) -> Iterator[Hit]:
    """碰碰和 平和 全带幺 全带五 全双刻 一色双龙会 三色双龙会 九莲宝灯 四归一 (seed 004)."""
    units = ctx.units
    if ctx.nine_gates:
        yield Hit(N["nine_gates"])
    if ctx.shape == STANDARD_SHAPE:
        sets = [u for u in units if u.kind != PAIR]
        pair = units[ctx.pairs[0]]
        if all(u.kind == PUNG for u in sets):
            yield Hit(N["all_pungs"])
            if all(t < 27 and _rank(t) % 2 == 0 for u in units for t in u.tiles):
                yield Hit(N["all_even_pungs"])
        if all(any(_is_terminal_or_honor(t) for t in u.tiles) for u in units):
            yield Hit(N["outside_hand"])
        if all(any(t < 27 and _rank(t) == 5 for t in u.tiles) for u in units):
            yield Hit(N["all_fives"])
        if len(ctx.chows) == 4 and pair.tile < 27 and _rank(pair.tile) == 5:
            by_suit: dict[int, list[int]] = {}
            for i in ctx.chows:
                by_suit.setdefault(_suit(units[i].tile), []).append(_rank(units[i].tile))
            shapes = sorted(sorted(v) for v in by_suit.values())
            ps = _suit(pair.tile)
            if shapes == [[1, 1, 7, 7]] and ps in by_suit:
                yield Hit(N["pure_terminal_chows"])
            if shapes == [[1, 7], [1, 7]] and ps not in by_suit:
                yield Hit(N["three_suited_terminal_chows"])
    if ctx.shape in (STANDARD_SHAPE, KNITTED_STRAIGHT):
        pair = units[ctx.pairs[0]]
        if pair.tile < 27 and all(u.kind in (CHOW, KNIT, PAIR) for u in units):
            yield Hit(N["all_chows"])
    if ctx.shape in (STANDARD_SHAPE, KNITTED_STRAIGHT, SEVEN_PAIRS):
        c = [0] * 34
        for u in units:
            if u.kong is None:
                for t in u.tiles:
                    c[t] += 1
        for t in range(34):
            if c[t] == 4:
                yield Hit(N["tile_hog"])


# ------------------------------------------------------------------------------------------------
# detectors: combinations of chows and of pungs (account-once applies to these)


def _chow_fans(ranks_suits: list[tuple[int, int]]) -> list[int]:
    """Fans formed by exactly these chows ((suit, start rank) each), most valuable first."""
    n = len(ranks_suits)
    suits = [s for s, _ in ranks_suits]
    ranks = sorted(r for _, r in ranks_suits)
    one_suit = len(set(suits)) == 1
    all_suits = len(set(suits)) == n
    out = []
    if n == 4 and one_suit:
        if len(set(ranks)) == 1:
            out.append(N["quadruple_chow"])
        elif ranks[1] - ranks[0] in (1, 2) and ranks[1] - ranks[0] == ranks[2] - ranks[1] == ranks[3] - ranks[2]:
            out.append(N["four_pure_shifted_chows"])
    elif n == 3:
        if one_suit:
            if ranks == [1, 4, 7]:
                out.append(N["pure_straight"])
            if len(set(ranks)) == 1:
                out.append(N["pure_triple_chow"])
            elif ranks[1] - ranks[0] in (1, 2) and ranks[1] - ranks[0] == ranks[2] - ranks[1]:
                out.append(N["pure_shifted_chows"])
        elif all_suits:
            if ranks == [1, 4, 7]:
                out.append(N["mixed_straight"])
            if len(set(ranks)) == 1:
                out.append(N["mixed_triple_chow"])
            elif ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
                out.append(N["mixed_shifted_chows"])
    elif n == 2:
        if one_suit:
            if ranks[0] == ranks[1]:
                out.append(N["pure_double_chow"])
            elif ranks[1] - ranks[0] == 3:
                out.append(N["short_straight"])
            elif ranks == [1, 7]:
                out.append(N["two_terminal_chows"])
        elif ranks[0] == ranks[1]:
            out.append(N["mixed_double_chow"])
    return out


def _pung_fans(ranks_suits: list[tuple[int, int]]) -> list[int]:
    """Fans formed by exactly these suited pungs ((suit, rank) each)."""
    n = len(ranks_suits)
    suits = [s for s, _ in ranks_suits]
    ranks = sorted(r for _, r in ranks_suits)
    one_suit = len(set(suits)) == 1
    all_suits = len(set(suits)) == n
    consecutive = all(ranks[i + 1] - ranks[i] == 1 for i in range(n - 1))
    out = []
    if n == 4 and one_suit and consecutive:
        out.append(N["four_pure_shifted_pungs"])
    elif n == 3:
        if one_suit and consecutive:
            out.append(N["pure_shifted_pungs"])
        elif all_suits and consecutive:
            out.append(N["mixed_shifted_pungs"])
        elif all_suits and len(set(ranks)) == 1:
            out.append(N["triple_pung"])
    elif n == 2 and not one_suit and ranks[0] == ranks[1]:
        out.append(N["double_pung"])
    return out


@detector
def combinations_of_sets(ctx: Context) -> Iterator[Hit]:
    """Chow fans (一色四同顺 一色四步高 清龙 花龙 一色三同顺 一色三步高 三色三同顺 三色三步高 一般高
    喜相逢 连六 老少副) and pung fans (一色四节高 一色三节高 三色三节高 三同刻 双同刻), every instance
    with its sets; :func:`select` applies account-once."""
    units = ctx.units
    for group, fans_of in ((ctx.chows, _chow_fans),
                           (tuple(i for i in ctx.pungs if units[i].tile < 27), _pung_fans)):
        for n in range(min(4, len(group)), 1, -1):
            for combo in combinations(group, n):
                for f in fans_of([(_suit(units[i].tile), _rank(units[i].tile)) for i in combo]):
                    yield Hit(f, combo)


# ------------------------------------------------------------------------------------------------
# detectors: concealed pungs, kongs


@detector
def concealed_pungs_and_kongs(ctx: Context) -> Iterator[Hit]:
    """双暗刻 三暗刻 四暗刻; 明杠 暗杠 双明杠 双暗杠 明暗杠 三杠 四杠 (seed 004)."""
    units = ctx.units
    concealed = sum(1 for i in ctx.pungs if units[i].concealed)
    if concealed == 4:
        yield Hit(N["four_concealed_pungs"])
    elif concealed == 3:
        yield Hit(N["three_concealed_pungs"])
    elif concealed == 2:
        yield Hit(N["two_concealed_pungs"])
    melded = sum(1 for u in units if u.kong == "melded")
    hidden = sum(1 for u in units if u.kong == "concealed")
    kongs = melded + hidden
    if kongs == 4:
        yield Hit(N["four_kongs"])
    elif kongs == 3:
        yield Hit(N["three_kongs"])
    elif kongs == 2:
        if hidden == 2:
            yield Hit(N["two_concealed_kongs"])
        elif melded == 2:
            yield Hit(N["two_melded_kongs"])
        elif ctx.melded_concealed_kong_pair:
            yield Hit(N["melded_and_concealed_kong"])
        else:
            yield Hit(N["melded_kong"])
            yield Hit(N["concealed_kong"])
    elif kongs == 1:
        yield Hit(N["melded_kong"] if melded else N["concealed_kong"])


# ------------------------------------------------------------------------------------------------
# detectors: how the hand was won


@detector
def win_conditions(ctx: Context) -> Iterator[Hit]:
    """自摸 妙手回春 海底捞月 杠上开花 抢杠和 和绝张 门前清 不求人 全求人 边张 嵌张 单钓将
    (seed 004; RULES.md §6/§7 for 妙手回春 vs 海底捞月)."""
    if ctx.self_drawn:
        yield Hit(N["self_drawn"])
    if ctx.last_wall_tile:
        yield Hit(N["last_tile_draw"] if ctx.self_drawn else N["last_tile_claim"])
    if ctx.kong_replacement:
        yield Hit(N["out_with_replacement_tile"])
    if ctx.robbing_kong:
        yield Hit(N["robbing_the_kong"])
    if ctx.last_of_kind:
        yield Hit(N["last_tile"])
    open_melds = ctx.open_melds
    if open_melds == 0:
        yield Hit(N["fully_concealed_hand"] if ctx.self_drawn else N["concealed_hand"])
    elif open_melds == 4 and not ctx.self_drawn:
        yield Hit(N["melded_hand"])
    if ctx.wait == "edge":
        yield Hit(N["edge_wait"])
    elif ctx.wait == "closed":
        yield Hit(N["closed_wait"])
    elif ctx.wait == "single":
        yield Hit(N["single_wait"])


# ------------------------------------------------------------------------------------------------
# selection: exclusions and the account-once principle


def select(hits: Iterable[Hit]) -> list[Hit]:
    """The counted fans among ``hits`` (one arrangement's detections), by the module's principles.

    Detections are taken in (points descending, fan number ascending) order. One is dropped when
    a fan already counted excludes it (``excludes``), excludes it on one of its sets
    (``excludes_same_sets``), still owes an instance to ``excludes_one``, or (for ``combines``
    fans) when its sets are not in pairwise different combined groups (account-once). Returns the
    counted hits in that order. 无番和 and 花牌 are not handled here (see the scorer).
    """
    ordered = sorted(hits, key=lambda h: (-_BY_NUMBER[h.fan].points, h.fan, h.sets))
    excluded: set[int] = set()
    covered: dict[int, set[int]] = {}
    owed: Counter[int] = Counter()
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent.get(i, i) != i:
            i = parent[i]
        return i

    out = []
    for h in ordered:
        f = _BY_NUMBER[h.fan]
        if h.fan in excluded:
            continue
        if h.sets and h.fan in covered and covered[h.fan].intersection(h.sets):
            continue
        if owed[h.fan]:
            owed[h.fan] -= 1
            continue
        if f.combines:
            roots = [root(i) for i in h.sets]
            if len(set(roots)) < len(roots):
                continue
            for r in roots[1:]:
                parent[r] = roots[0]
        out.append(h)
        excluded |= f.excludes
        for g in f.excludes_same_sets:
            covered.setdefault(g, set()).update(h.sets)
        for g, n in f.excludes_one:
            owed[g] += n
    return out


def detect(ctx: Context) -> list[Hit]:
    """Run every registered detector on ``ctx`` (raw detections, before :func:`select`)."""
    out: list[Hit] = []
    for d in DETECTORS:
        out.extend(d(ctx))
    return out
