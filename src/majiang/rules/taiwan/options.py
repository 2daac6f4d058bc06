"""House-rule options of Taiwan 16-tile scoring (:class:`TaiwanOptions`).

Sources: RULES.md §3.1 (minimum tai, 報聽, 八對半 switches), §3.2 (values, Alt column, option notes:
門清 and concealed kongs, 見花見台, 八仙過海 mode, 字一色 + 碰碰胡), §3.3 (tai cap), §3.4 (宝牌 and
三台起胡, the seed-001 platform profile), §9 item 3 (association defaults, app tables as presets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from majiang.errors import MajiangError
from majiang.rules.taiwan.patterns import BY_ID, PRESETS, Pattern, pattern

EIGHT_FLOWERS_MODES = ("standalone", "added")


class TaiTable(dict[str, int]):
    """A read-only, hashable, picklable ``{pattern id: 台}`` (the stored form of ``overrides``)."""

    def _readonly(self, *args: object, **kw: object) -> None:
        raise TypeError("TaiwanOptions.overrides is read-only; build new options instead")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]
    __ior__ = _readonly  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self) -> tuple[type, tuple[dict[str, int]]]:
        return (TaiTable, (dict(self),))


class TaiwanOptionError(MajiangError):
    """Options that cannot be used: an unknown preset or pattern id, a negative value, an optional
    pattern that does not exist, an unknown mode."""


@dataclass(frozen=True)
class TaiwanOptions:
    """Rule options for scoring (and the dealer terms of the settlement).

    Attributes:
        preset: a name from :data:`~majiang.rules.taiwan.patterns.PRESETS` (default
            ``"association"``, the RULES.md §3.2 defaults).
        overrides: per-table ``{pattern id: 台}`` applied over the preset; 0 switches a pattern off.
        enabled: optional patterns switched on: ``tw.baoting`` (報聽), ``tw.si_gang`` (四槓),
            ``tw.ba_duiban`` (八對半, also allows that shape), ``tw.baopai`` (宝牌, §3.4).
        minimum_tai: hands below this (宝牌 tai not counted) are not valid wins (§3.1: default 0;
            platform 3 = 三台起胡).
        tai_cap: optional cap on the hand's tai (16 or 24 in some tables); ``None`` = no cap. The
            per-payment dealer terms are added after the cap.
        eight_flowers_mode: ``"standalone"`` (default: 八仙過海 is the whole score, the hand is not
            looked at) or ``"added"`` (added to a complete hand's patterns, C1 ``eight_flowers_mode``).
        all_flowers_count: 見花見台: every flower earns 1 (instead of seat flowers only).
        concealed_kong_breaks_menqing: the P2/P4 reading (any kong breaks 門清); default ``False``.
        all_honours_add_all_pungs: 字一色 also earns 碰碰胡 (default ``True``, C1).
        little_four_winds_keep_wind_tai: 小四喜 keeps 圈風/門風 (C1 option; default ``False``, they
            are replaced, §3.2 non-stacking rule 1).
        earthly_ready_excludes_concealed: 地聽 excludes 門清, 不求 and 報聽 but keeps 自摸 (the P1
            reading, §3.2 地聽 note; default ``False``).
        prefer_triplet_on_discard: on a win from another player's tile, read the winning tile as
            completing a triplet whenever some decomposition allows it, even if another reading scores
            more (C1 option named in §3.2 non-stacking rule 6; default ``False``: best reading).

    Reading choices (RULES.md §3.5; each default is the reading the scorer has always used):
        single_wait_with_half_begging: 獨聽 is added to 半求 (default ``True``: §3.2 non-stacking rule
            4 names only 全求 as excluding 獨聽); ``False``: 半求 excludes 獨聽 like 全求.
        single_wait_counts_own_four: for 獨聽 a tile whose four copies the hand itself holds or shows
            still counts as a wait (default ``True``: the form decides, and §3.2 says a wait made
            unique by dead tiles is no 獨聽); ``False``: such a tile is no wait, so the other one may
            be a 獨聽.
        all_chows_honour_pair: 平胡 allows an honour pair (default ``False``: "no honours anywhere",
            P1, C2); ``True``: the looser reading.
        all_chows_with_flowers: 平胡 allows flowers (default ``False``: "no flowers", P1, P2, C2).
        heavenly_ready_includes_declared: 天聽 includes 報聽, so 報聽 is not added to it (default
            ``False``: both are counted, §3.2 lists them as separate patterns).
        eight_half_pairs_single_wait: a 八對半 reading may take 獨聽 (default ``True``: the wait
            rule of §3.2 looks only at the wait).

    Raises:
        TaiwanOptionError: on an unknown preset, unknown pattern id, negative 台, a non-optional id
            in ``enabled``, a negative minimum or cap, an unknown flower mode.
    """

    preset: str = "association"
    overrides: Mapping[str, int] = field(default_factory=dict)
    enabled: frozenset[str] = frozenset()
    minimum_tai: int = 0
    tai_cap: int | None = None
    eight_flowers_mode: str = "standalone"
    all_flowers_count: bool = False
    concealed_kong_breaks_menqing: bool = False
    all_honours_add_all_pungs: bool = True
    little_four_winds_keep_wind_tai: bool = False
    earthly_ready_excludes_concealed: bool = False
    prefer_triplet_on_discard: bool = False
    single_wait_with_half_begging: bool = True
    single_wait_counts_own_four: bool = True
    all_chows_honour_pair: bool = False
    all_chows_with_flowers: bool = False
    heavenly_ready_includes_declared: bool = False
    eight_half_pairs_single_wait: bool = True

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise TaiwanOptionError(f"unknown Taiwan preset {self.preset!r}; known: {', '.join(PRESETS)}")
        ov = dict(self.overrides)
        for pid, v in ov.items():
            if pid not in BY_ID:
                raise TaiwanOptionError(f"override for unknown pattern {pid!r} (ids look like 'tw.zimo')")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise TaiwanOptionError(f"override {pid} = {v!r}: a tai value is an int >= 0")
        object.__setattr__(self, "overrides", TaiTable(ov))
        en = frozenset(self.enabled)
        for pid in en:
            if pid not in BY_ID:
                raise TaiwanOptionError(f"cannot enable unknown pattern {pid!r}")
            if not BY_ID[pid].optional:
                raise TaiwanOptionError(f"{pid} is not an optional pattern (it is always scored; set its "
                                        "override to 0 to switch it off)")
        object.__setattr__(self, "enabled", en)
        if not isinstance(self.minimum_tai, int) or self.minimum_tai < 0:
            raise TaiwanOptionError(f"minimum_tai must be an int >= 0, got {self.minimum_tai!r}")
        if self.tai_cap is not None and (not isinstance(self.tai_cap, int) or self.tai_cap < 1):
            raise TaiwanOptionError(f"tai_cap must be None or an int >= 1, got {self.tai_cap!r}")
        if self.eight_flowers_mode not in EIGHT_FLOWERS_MODES:
            raise TaiwanOptionError(f"eight_flowers_mode must be one of {EIGHT_FLOWERS_MODES}, "
                                    f"got {self.eight_flowers_mode!r}")

    @classmethod
    def platform(cls, **kw: object) -> TaiwanOptions:
        """The seed-001 platform profile (RULES.md §3.1, §3.4): 宝牌 on, 三台起胡 (minimum 3,
        宝牌 not counted). Extra keyword options are passed through."""
        enabled = frozenset(kw.pop("enabled", frozenset())) | {"tw.baopai"}  # type: ignore[arg-type]
        kw.setdefault("minimum_tai", 3)
        return cls(enabled=enabled, **kw)  # type: ignore[arg-type]

    @property
    def bao_pai(self) -> bool:
        """宝牌 mode is on (RULES.md §3.4)."""
        return "tw.baopai" in self.enabled

    def is_on(self, pid: str) -> bool:
        """Whether pattern ``pid`` is scored: optional ones must be enabled, and a value of 0 is off."""
        p = pattern(pid)
        return (not p.optional or pid in self.enabled) and self.tai(pid) > 0

    def tai(self, pid: str) -> int:
        """The 台 of pattern ``pid`` (per occurrence): override > preset > default.

        Raises :class:`~majiang.rules.taiwan.patterns.UnknownPatternError` on an unknown id."""
        p: Pattern = pattern(pid)
        if pid in self.overrides:
            return self.overrides[pid]
        return PRESETS[self.preset].get(pid, p.tai)

    def dealer_tai(self, streak: int) -> int:
        """D of RULES.md §3.3 for a payment involving the dealer: 莊家 + 連莊 × streak (1 + 2N)."""
        if streak < 0:
            raise TaiwanOptionError(f"dealer streak must be >= 0, got {streak}")
        return self.tai("tw.zhuangjia") + self.tai("tw.lianzhuang") * streak
