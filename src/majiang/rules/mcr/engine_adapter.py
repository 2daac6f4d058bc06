"""Bridge from the table's :class:`~majiang.rules.base.WinContext` to MCR scoring (RULES.md §6).

:class:`McrScorer` is the scorer ``"mcr"`` of the ``mcr`` rule set (:mod:`majiang.rules.mcr.ruleset`):
the 81 fans, value = fans without flowers (checked against the 8-fan minimum), bonus = 1 per flower.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from majiang.hand import MeldKind
from majiang.rules.base import ScoreResult, WinContext
from majiang.rules.mcr.conditions import McrOptions, WinConditions
from majiang.rules.mcr.scoring import _pack_flags, _pack_melds, score


@dataclass(frozen=True, slots=True)
class McrScorer:
    """Adapter to :func:`majiang.rules.mcr.score`.

    Mapping (WinContext → ``WinConditions``): ``self_drawn``; ``last_of_kind`` (和绝张) when the
    winner can see the other three copies (``win_tile_seen >= 3``) and holds no other copy concealed
    (then they are not all in sight, and the MCR scorer refuses the flag); ``last_wall_tile`` (妙手回春
    / 海底捞月) from ``last_tile``; ``kong_replacement`` (杠上开花, never for a plain flower replacement,
    trap FLAG-02); ``robbing_kong`` (抢杠和); winds as 0-3 (seat wind from the dealer, prevalent wind
    from the round). Flowers travel in ``hand.flowers``. ``options``: the rule set's readings
    (:class:`~majiang.rules.mcr.McrOptions`).

    Patterns are ``(Chinese fan name, points per instance, count)``. Scoring errors of the MCR
    package (a hand it does not accept) propagate: they are bugs to see, not wins to drop.
    """

    options: McrOptions = field(default_factory=McrOptions)
    name: str = "mcr"

    def quick_value(self, pre: bytes, win: int, melds: Sequence[tuple[MeldKind, int]], *, self_drawn: bool,
                    last_tile: bool, kong_replacement: bool, win_tile_seen: int, seat_wind: int,
                    prevalent_wind: int) -> int | None:
        """The ``value`` :meth:`score` would give a wildcard-free win told in plain numbers, where the
        compiled path (:mod:`majiang.rules.mcr.compiled`) can score it; None otherwise (anything
        the scorer must check or refuse, no numba), and the caller scores the whole context.

        ``pre``: the winner's concealed counts without the winning tile (34 bytes); ``melds``: the
        declared melds as ``(kind, tile)``; the flags as in :class:`~majiang.rules.base.WinContext`
        (a robbed kong is never told here); winds as tiles (27-30). Anything else -- ``pre`` not 34
        bytes, a tile or wind out of range, more than four melds, a kong replacement not self-drawn
        -- is None too, left to :meth:`score`, which checks the context. For the batched RL core
        (``majiang.rl.batched``), which asks whether a win meets the minimum far more often than it
        scores one. The kernel is used wherever numba is there (``scoring.use_compiled`` aside)."""
        kernel = _kernel()
        if (kernel is None or type(pre) is not bytes or len(pre) != 34 or not 0 <= win < 34 or len(melds) > 4
                or not 27 <= seat_wind <= 30 or not 27 <= prevalent_wind <= 30 or (kong_replacement and not self_drawn)):
            return None
        if any(not 0 <= tile < 34 for _, tile in melds):
            return None
        flags = _pack_flags(self_drawn, last_tile, kong_replacement, False, win_tile_seen >= 3 and not pre[win],
                                    seat_wind - 27, prevalent_wind - 27, self.options)
        status, total, _, _, _, _ = kernel(pre, win, _pack_melds(melds), len(melds), flags)
        return total if status == 0 else None

    def quick_kernel(self):  # noqa: ANN201 - (numba cfunc, int) or None
        """:meth:`quick_value` compiled (:mod:`majiang.rules.quick_kernel`): the cfunc and this
        scorer's options as its ``params``; None without numba."""
        from majiang.rules.mcr import compiled

        cf = compiled.quick_cfunc()
        if cf is None:
            return None
        return cf, _pack_flags(False, False, False, False, False, 0, 0, self.options)

    def quick_bonus(self, flowers: int) -> int:
        """The ``bonus`` :meth:`score` adds to a win's value for ``flowers`` flowers set aside: one
        point each (RULES.md §9.6); with :meth:`quick_value` the whole :class:`ScoreResult` total."""
        return flowers

    def score(self, ctx: WinContext) -> ScoreResult:
        win = ctx.hand.win_tile
        own = ctx.hand.counts[win] if win is not None and 0 <= win < 34 else 0
        cond = WinConditions(self_drawn=ctx.self_drawn, last_of_kind=ctx.win_tile_seen >= 3 and not own,
                             last_wall_tile=ctx.last_tile, kong_replacement=ctx.kong_replacement,
                             robbing_kong=ctx.robbing_kong, seat_wind=ctx.seat_wind - 27,
                             prevalent_wind=ctx.prevalent_wind - 27)
        r = score(ctx.hand, cond, self.options)
        return ScoreResult(r.fan_total, r.flowers,
                           tuple((fc.fan.name_zh, fc.fan.points, fc.count) for fc in r.fans))


_KERNEL: list = []


def _kernel():  # noqa: ANN202 - the compiled score_hand, or None without numba
    if not _KERNEL:  # imported here: numpy and numba stay out of a plain import of the scorer
        from majiang.rules.mcr import compiled

        _KERNEL.append(compiled.kernel())
    return _KERNEL[0]


def mcr_available() -> bool:
    """True if :mod:`majiang.rules.mcr` can be imported and offers ``score`` (it always can here)."""
    try:
        from majiang.rules import mcr
    except Exception:  # noqa: BLE001 - absent or broken package
        return False
    return callable(getattr(mcr, "score", None))
