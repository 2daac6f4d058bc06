"""Helpers shared by the integration tests (imported by module name; not a conftest)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from majiang.engine import PASS, Action, ActionKind, Match, Phase
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


def random_step(m: Match, rng: random.Random) -> tuple[Any, int, list[Action], Action]:
    """The next step of random play: ``(table, seat, legal actions, chosen)``, a win always taken
    (the caller applies it, after its own checks)."""
    t = m.table
    s = m.pending_seats()[0]
    acts = m.legal_actions(s)
    return t, s, acts, acts[0] if acts[0].kind is ActionKind.WIN else rng.choice(acts)
