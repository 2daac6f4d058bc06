"""Waits shown when ready, and auto-win (听牌: "the system wins for me").

A scripted MCR hand (an arranged wall): the creator ("alice", player 0) deals, holds
1-9m 123p 5p 9s, discards 9s and is ready on 5p (清龙). The other three seats hold tiles that can
neither claim nor win on anything in play, and discard what they draw (东, 南, 西). The expected
waits are computed here independently of the server (win check by brute force over every tile
with :func:`majiang.analysis.is_winning`, never :func:`majiang.analysis.waits`).
"""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest

from majiang.engine import Match, RuleSet
from majiang.tiles import NUM_KINDS
from majiang.web.state import seat_waits
from web_helpers import EAST, FIVE_P, NINE_S, SOUTH, WEST, expected_waits, join, script, signup, wait_for

class Sock:
    """A WebSocket kept with every message it received."""

    def __init__(self, ws):
        self.ws, self.msgs = ws, []

    def recv(self) -> dict:
        m = self.ws.receive_json()
        self.msgs.append(m)
        return m

    def until(self, pred, limit: int = 400) -> dict:
        for _ in range(limit):
            m = self.recv()
            if m["type"] == "state" and pred(m):
                return m
        raise AssertionError("the expected state never came")

    def send(self, msg: dict) -> None:
        self.ws.send_json(msg)


def _live(m: dict) -> dict:
    return m.get("live") or {}


def _my_turn(m: dict) -> bool:
    return any(a["kind"] == "discard" for a in _live(m).get("legal") or [])


def _setup(client, monkeypatch, draws):
    script(monkeypatch, draws)
    users = [signup(client, n) for n in ("alice", "bob", "carol", "dave")]
    watcher = signup(client, "watcher")
    r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "60", "sit": "1"},
                    headers=users[0], follow_redirects=False)
    rid = r.headers["location"].rsplit("/", 1)[1]
    for p in (1, 2, 3):
        join(client, users[p], rid, p)
    room = client.app.state.lobby.get(rid)
    assert room.started and room.match.dealer == room.match.seat_of_player[0]
    return rid, room, users, watcher


def _open(stack: ExitStack, client, rid, headers) -> Sock:
    return Sock(stack.enter_context(client.websocket_connect(f"/ws/tables/{rid}", headers=headers or {})))


def _others_discard_in_turn(room, socks, upto: int | None = None):
    """Seats after the dealer discard their drawn tile, in turn order (``upto`` seats)."""
    d = room.match.dealer
    for k in range(3 if upto is None else upto):
        seat = (d + 1 + k) % 4
        sock = socks[room.match.player_at_seat[seat]]
        st = sock.until(_my_turn)
        sock.send({"type": "action", "action": {"kind": "discard", "tile": _live(st)["last_draw"], "low": None}})


def _check_every_message(socks: list[Sock], rules: RuleSet) -> int:
    """Each seat's messages carry its own waits (as its own hand shows them); a spectator's none."""
    ready = 0
    for sock in socks:
        for m in sock.msgs:
            if m["type"] != "state" or not m.get("live"):
                continue
            live = m["live"]
            assert "waits" in live and "auto_win" in live
            if m["seat"] is None:
                assert live["waits"] is None and live["auto_win"] is False and live["hand"] == []
            else:
                assert live["waits"] == expected_waits(live, rules), (m["seat"], live["hand"])
                ready += live["waits"] is not None
    return ready


def test_waits_shown_to_the_ready_seat_only(client, monkeypatch):
    rid, room, users, watcher = _setup(client, monkeypatch, [EAST, SOUTH, WEST, FIVE_P])
    rules = room.rules
    alice_seat = room.seat_of(room.places[0].user_id)
    with ExitStack() as stack:
        socks = [_open(stack, client, rid, h) for h in users]
        spectators = [_open(stack, client, rid, watcher), _open(stack, client, rid, None)]
        alice = socks[0]
        st = alice.until(_my_turn)
        assert len(_live(st)["hand"]) == 14 and _live(st)["waits"] is None   # not 3n+1: no waits yet
        alice.send({"type": "action", "action": {"kind": "discard", "tile": NINE_S, "low": None}})
        st = alice.until(lambda m: len(_live(m).get("hand", [])) == 13)
        # ready on 5p: one copy in her hand, none in sight, three unseen
        assert _live(st)["waits"] == {"tiles": [{"tile": FIVE_P, "unseen": 3}], "wildcard": False}
        assert _live(st)["waits"] == expected_waits(_live(st), rules)
        assert _live(st)["auto_win"] is False
        _others_discard_in_turn(room, socks)
        # she draws 5p: the win is offered and, without auto-win, the server waits for her click
        st = alice.until(lambda m: any(a["kind"] == "win" for a in _live(m).get("legal") or []))
        assert not room.finished and room.auto_wins == 0
        win = next(a for a in _live(st)["legal"] if a["kind"] == "win")
        alice.send({"type": "action", "action": {k: win[k] for k in ("kind", "tile", "low")}})
        for s in socks + spectators:
            s.until(lambda m: m["status"] == "finished" and m.get("game_id"))
    wins = [ev for ev in room.match.events if ev["type"] == "hora"]
    assert [(w["actor"], w["target"]) for w in wins] == [(alice_seat, alice_seat)]
    # every message: a seat's own waits only; none for the spectators
    ready = _check_every_message(socks + spectators, rules)
    assert ready >= 2  # alice saw her waits while the others played (one state per public change)
    for i in (1, 2, 3):
        assert all(_live(m).get("waits") is None for m in socks[i].msgs if m["type"] == "state")
    for s in spectators:
        assert all(m["seat"] is None and _live(m).get("waits") is None for m in s.msgs if m["type"] == "state")


@pytest.mark.parametrize("how", ["self-drawn", "discard"])
def test_auto_win_declares_the_win_at_once(client, monkeypatch, how):
    # self-drawn: alice draws 5p herself; discard: the next seat draws 5p and throws it
    draws = [EAST, SOUTH, WEST, FIVE_P] if how == "self-drawn" else [FIVE_P, SOUTH, WEST, EAST]
    rid, room, users, watcher = _setup(client, monkeypatch, draws)
    alice_seat = room.seat_of(room.places[0].user_id)
    with ExitStack() as stack:
        socks = [_open(stack, client, rid, h) for h in users]
        spectator = _open(stack, client, rid, watcher)
        alice = socks[0]
        alice.until(_my_turn)
        # not ready yet (14 tiles): auto-win is refused; a spectator can never switch it
        alice.send({"type": "auto_win", "on": True})
        err = alice.recv()
        assert err["type"] == "error" and "ready" in err["message"]
        spectator.send({"type": "auto_win", "on": True})
        while (err := spectator.recv())["type"] != "error":
            pass
        assert "no seat" in err["message"]
        alice.send({"type": "action", "action": {"kind": "discard", "tile": NINE_S, "low": None}})
        alice.until(lambda m: _live(m).get("waits") is not None)
        alice.send({"type": "auto_win", "on": True})
        alice.until(lambda m: _live(m).get("auto_win") is True)
        assert room.auto_win_on(alice_seat)
        # the others never see it, nor her waits
        _others_discard_in_turn(room, socks, upto=3 if how == "self-drawn" else 1)
        assert wait_for(lambda: room.finished and room.game_id is not None, 10), "no automatic win"
        for s in socks + [spectator]:
            s.until(lambda m: m["status"] == "finished" and m.get("game_id"))
    assert room.auto_wins == 1
    wins = [ev for ev in room.match.events if ev["type"] == "hora"]
    assert len(wins) == 1 and wins[0]["actor"] == alice_seat and wins[0]["pai"] == "5p"
    if how == "self-drawn":
        assert wins[0]["target"] == alice_seat
    else:
        assert wins[0]["target"] == (alice_seat + 1) % 4
    # alice never sent a win: the server declared it
    for i in (1, 2, 3):
        assert all(_live(m).get("auto_win") is False and _live(m).get("waits") is None
                   for m in socks[i].msgs if m["type"] == "state" and m.get("live"))
    _check_every_message(socks + [spectator], room.rules)


def test_auto_win_can_be_switched_off(client, monkeypatch):
    rid, room, users, _ = _setup(client, monkeypatch, [EAST, SOUTH, WEST, FIVE_P])
    with ExitStack() as stack:
        socks = [_open(stack, client, rid, h) for h in users]
        alice = socks[0]
        alice.until(_my_turn)
        alice.send({"type": "action", "action": {"kind": "discard", "tile": NINE_S, "low": None}})
        alice.until(lambda m: _live(m).get("waits") is not None)
        alice.send({"type": "auto_win", "on": True})
        alice.until(lambda m: _live(m).get("auto_win") is True)
        alice.send({"type": "auto_win", "on": False})
        alice.until(lambda m: _live(m).get("auto_win") is False)
        _others_discard_in_turn(room, socks)
        alice.until(lambda m: any(a["kind"] == "win" for a in _live(m).get("legal") or []))
        assert not room.finished and room.auto_wins == 0


def _random_ready_hand(rng: random.Random, size: int) -> list[int]:
    """A complete hand of ``size`` + 1 tiles (sets and a pair) less one tile: ready by construction."""
    while True:
        counts = [0] * NUM_KINDS
        tiles: list[int] = []
        ok = True
        for _ in range((size - 1) // 3):
            if rng.random() < 0.5:
                suit, n = rng.randrange(3), rng.randrange(7)
                grp = [9 * suit + n + i for i in range(3)]
            else:
                grp = [rng.randrange(NUM_KINDS)] * 3
            tiles += grp
        tiles += [rng.randrange(NUM_KINDS)] * 2
        for t in tiles:
            counts[t] += 1
            ok = ok and counts[t] <= 4
        if ok:
            tiles.remove(rng.choice(tiles))
            return sorted(tiles)


@pytest.mark.parametrize("preset", ["mcr", "wenzhou", "seed000", "wenzhou-w16"])
def test_seat_waits_matches_a_brute_force_check(preset):
    """:func:`seat_waits` against the brute-force win check, with wildcards and the White stand-in."""
    import dataclasses

    rules = RuleSet.preset(preset)
    rng = random.Random(7)
    m = Match(rules, seed=3)
    base = m.view(0)
    checked = ready = 0
    for i in range(300):
        hand = _random_ready_hand(rng, rules.hand_size) if i % 3 else sorted(
            rng.sample(range(NUM_KINDS), 4) * 3 + [rng.randrange(NUM_KINDS)])[:rules.hand_size]
        wf = rng.choice([None, rng.randrange(NUM_KINDS), 31]) if rules.wild_mode != "none" else None
        view = dataclasses.replace(base, hand=tuple(hand), wild_face=wf, indicator=None)
        live = {"hand": list(hand), "wild_face": wf, "indicator": None,
                "rivers": [list(r) for r in view.rivers],
                "melds": [[{"tiles": list(x.tiles)} for x in ms] for ms in view.melds]}
        got = seat_waits(view, rules)
        assert got == expected_waits(live, rules), (preset, hand, wf)
        checked += 1
        ready += got is not None
    assert checked == 300 and ready > 100
