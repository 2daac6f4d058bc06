"""Helpers for the wildcard rule-set tests (Wenzhou W13/W16, seed 000, Shandong)."""

from __future__ import annotations

from majiang.hand import Hand
from majiang.rules.wenzhou import WinContext


def H(text: str, win: str) -> Hand:
    """A hand in the engine convention: ``*`` = a wildcard, ``win`` the winning tile (``*`` drawn wild)."""
    return Hand.parse(text, win_tile=win)


def self_draw(seat: int = 1, dealer: int = 0, **kw) -> WinContext:
    return WinContext(seat=seat, dealer=dealer, self_drawn=True, **kw)


def discard(seat: int = 1, by: int = 2, dealer: int = 0, **kw) -> WinContext:
    return WinContext(seat=seat, dealer=dealer, self_drawn=False, discarder=by, **kw)


def ids(result) -> set[str]:
    return {p.id for p in result.patterns}
