"""Helpers for the engine tests: scripted driving of a hand, snapshots."""

from __future__ import annotations

from majiang.engine import PASS, Action, ActionKind, HandTable, Phase
from majiang.tiles import parse_compact


def tiles(text: str) -> list[int]:
    return parse_compact(text)


def tile(text: str) -> int:
    (t,) = parse_compact(text)
    return t


def pass_windows(t: HandTable) -> None:
    """Every seat asked in the current claim/robbing window passes."""
    while t.phase in (Phase.CLAIM, Phase.ROB):
        for s in t.pending_seats():
            t.apply(s, PASS)


def turn(t: HandTable, seat: int, action: Action) -> None:
    """Pass open windows until it is ``seat``'s turn, then act."""
    pass_windows(t)
    assert t.phase is Phase.TURN and t.current == seat, (t.phase, t.current, seat)
    t.apply(seat, action)


def claim(t: HandTable, seat: int, action: Action) -> None:
    """In the open window, every other asked seat passes and ``seat`` takes ``action``."""
    assert t.phase in (Phase.CLAIM, Phase.ROB)
    assert seat in t.pending_seats(), (seat, t.pending_seats())
    for s in t.pending_seats():
        if s != seat:
            t.apply(s, PASS)
    t.apply(seat, action)


def tsumogiri_until_end(t: HandTable, max_steps: int = 10_000) -> None:
    """Everyone passes every claim and discards the tile just drawn (the dealer his extra tile)."""
    for _ in range(max_steps):
        if t.finished:
            return
        pass_windows(t)
        if t.finished:
            return
        s = t.current
        d = t.last_draw[s]
        t.apply(s, Action(ActionKind.DISCARD, d))
    raise AssertionError("hand did not end")


def discard(text: str) -> Action:
    return Action(ActionKind.DISCARD, tile(text))


def snapshot(t: HandTable) -> tuple:
    """Everything observable about a table, to check an illegal action changed nothing."""
    return (t.phase, t.current, t.head, t.tail, [list(c) for c in t.concealed], [list(m) for m in t.melds],
            [list(f) for f in t.flowers], [list(r) for r in t.rivers], dict(t.answers), len(t.events),
            t.claim_tile, t.discarder, tuple(t.pending_seats()))


def tsumogiri(t: HandTable, seat: int) -> None:
    """Pass open windows until ``seat``'s turn, then discard the tile it just drew."""
    pass_windows(t)
    assert t.phase is Phase.TURN and t.current == seat, (t.phase, t.current, seat)
    t.apply(seat, Action(ActionKind.DISCARD, t.last_draw[seat]))
