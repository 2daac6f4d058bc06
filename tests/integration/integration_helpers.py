"""Helpers shared by the integration tests (imported by module name; not a conftest)."""

from __future__ import annotations

from collections.abc import Callable

from majiang.engine import PASS, Action, Match, Phase
from majiang.tiles import parse_compact


def tiles(text: str) -> list[int]:
    """Tiles of compact notation (``"123m5z"``)."""
    return list(parse_compact(text))


def tile(text: str) -> int:
    """One tile of compact notation (``"5z"``)."""
    (t,) = parse_compact(text)
    return t


def play_out(m: Match, turn_action: Callable[[Match, int], Action]) -> Match:
    """Finish ``m``: every claim window is passed; on a turn, ``turn_action(m, seat)`` decides."""
    while not m.finished:
        t = m.table
        assert t is not None
        if t.phase is not Phase.TURN:
            for s in t.pending_seats():
                m.apply(s, PASS)
            continue
        m.apply(t.current, turn_action(m, t.current))
    return m
