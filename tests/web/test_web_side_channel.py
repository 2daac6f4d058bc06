"""No side channel in claim windows (issue 11): an answer that leaves a claim window open changes
nothing any other seat is sent (not even the version), and bots answer only after every person in
the window has, so a seat that cannot claim cannot tell whether someone else could."""

from __future__ import annotations

from majiang.engine import PASS, RuleSet
from majiang.web.rooms import Room


def _room(seed_users: int) -> Room:
    room = Room("t", 1, "u1", RuleSet.preset("mcr"), "", 1, 30.0, store=None, hand_pause=0.0)
    room.leader = True
    for p in range(4):
        room.join(p, p + 1, f"user{p}")
    return room


def test_an_open_window_answer_is_told_to_its_seat_only():
    checked = 0
    for n in range(40):
        room = _room(n)
        m = room.match
        users = {m.seat_of_player[p]: p + 1 for p in range(4)}
        steps = 0
        while not m.finished and steps < 400:
            steps += 1
            pending = m.pending_seats()
            t = m.table
            if t is not None and t.phase.name in ("CLAIM", "ROB") and len(pending) >= 2:
                first, rest = pending[0], pending[1:]
                others = [s for s in range(4) if s != first]
                before = {s: room.state_for(users[s]) for s in others}
                v = room.version
                room.act(users[first], PASS)
                after = {s: room.state_for(users[s]) for s in others}
                assert room.version == v  # the public version does not move
                for s in others:
                    a, b = dict(before[s]), dict(after[s])
                    a["live"] = {k: x for k, x in a["live"].items() if k != "time_left"}
                    b["live"] = {k: x for k, x in b["live"].items() if k != "time_left"}
                    assert a == b, s  # nothing another seat is sent has changed
                assert rest == m.pending_seats()
                checked += 1
                continue
            s = pending[0]
            legal = m.legal_actions(s)
            a = PASS if PASS in legal else next(x for x in legal if x.kind.value == "discard")
            room.act(users[s], a)
        if checked >= 20:
            break
    assert checked >= 20, checked


def test_a_seat_that_cannot_claim_sees_no_claim_phase():
    room = _room(0)
    m = room.match
    users = {m.seat_of_player[p]: p + 1 for p in range(4)}
    seen_wait = 0
    for _ in range(300):
        if m.finished:
            break
        pending = m.pending_seats()
        for s in range(4):
            st = room.state_for(users[s])
            if s not in pending:
                assert st["live"]["phase"] in ("turn", "wait") and st["live"]["legal"] == []
                assert st["live"]["time_left"] is None
                seen_wait += st["live"]["phase"] == "wait"
        s = pending[0]
        legal = m.legal_actions(s)
        a = PASS if PASS in legal else next(x for x in legal if x.kind.value == "discard")
        room.act(users[s], a)
    assert seen_wait > 0
