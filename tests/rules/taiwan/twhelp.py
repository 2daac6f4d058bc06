"""Shared helpers of the Taiwan tests (imported as a sibling module)."""

from __future__ import annotations

from majiang.hand import Hand
from majiang.rules.taiwan import TaiwanOptions, TaiwanResult, TaiwanWin, score

DEFAULT = TaiwanOptions()

# A plain hand worth 0 台: one chow melded (not 門清), a dragon pair (not 平胡), two-sided wait.
BASE = "[chi 123m] 456m789m234p77z67s"
BASE_WIN = "8s"


def win(**kw: object) -> TaiwanWin:
    """A TaiwanWin with test defaults: winner seat 1 (South), dealer 0, round East; a discard
    from seat 3 (seat 2 when seat 3 wins) unless self-drawn / 七搶一 / another discarder is given."""
    kw.setdefault("seat", 1)
    kw.setdefault("dealer", 0)
    if not kw.get("self_drawn") and kw.get("flower_drawer") is None:
        kw.setdefault("discarder", 2 if kw["seat"] == 3 else 3)
    return TaiwanWin(**kw)  # type: ignore[arg-type]


def sc(text: str, win_tile: str | None, flowers: str = "", options: TaiwanOptions = DEFAULT,
       **kw: object) -> TaiwanResult:
    """Score ``text`` + ``win_tile`` under :func:`win` (``**kw``) and ``options``."""
    return score(Hand.parse(text, win_tile=win_tile, flowers=flowers), win(**kw), options)


def ids(result: TaiwanResult) -> dict[str, int]:
    """``{id: tai}`` of the counted patterns."""
    return {pc.pattern.id: result.tai_of(pc.pattern.id) for pc in result.patterns}
