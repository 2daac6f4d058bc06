"""Playing over WebSockets: a full hand between four scripted clients, illegal actions, what each
connection may see, reconnecting, and the server playing for a seat out of time."""

from __future__ import annotations

import json

from majiang.records.jsonl import replay
from majiang.web.db import Game
from web_helpers import ScriptedClient, create_table, expected_waits, fill_bots, join, signup, wait_for

LIVE_KEYS = {"phase", "dealer", "dealer_streak", "prevalent_wind", "hand", "last_draw", "hand_counts", "melds",
             "hidden_kongs", "flowers", "rivers", "wall_live", "claim_tile", "discarder", "wild_face", "indicator",
             "hand_number", "round", "turn", "legal", "time_left", "waits", "auto_win", "auto_play", "dice", "bao",
             "decided", "out", "reserve_left",  # issue 30: revealed pre-play decisions, seats that have won and left
             "exchange"}  # issue 30: the seat's own 换三张 (None without one), tested in test_web_sichuan_browser.py


def _game(client, gid):
    with client.app.state.db() as db:
        g = db.get(Game, gid)
        return g, list(g.seats)


def test_full_hand_four_scripted_clients(client):
    users = [signup(client, f"player{i}") for i in range(4)]
    rid = create_table(client, users[0], max_hands=1)
    for p in (1, 2, 3):
        join(client, users[p], rid, p)
    room = client.app.state.lobby.get(rid)
    assert room.started
    bots = [ScriptedClient(client, rid, h) for h in users]
    for b in bots:
        b.start()
    for b in bots:
        assert b.done.wait(60), "the hand did not finish"
        assert b.exc is None, b.exc
    assert room.finished and room.game_id
    final = bots[0].messages[-1]
    assert final["status"] == "finished"
    assert len(final["results"]) == 1 and sum(final["results"][0]["deltas"]) == 0
    assert sum(final["scores"]) == 0
    # every seat played and each client saw its own seat
    seats = {b.messages[-1]["seat"] for b in bots}
    assert seats == {0, 1, 2, 3}
    assert all(b.acted > 0 for b in bots)
    g, gseats = _game(client, room.game_id)
    assert [s.score for s in gseats] == final["scores"]
    m = replay(g.record.splitlines())
    assert m.scores == final["scores"]


def test_illegal_and_out_of_turn_actions_change_nothing(client):
    alice = signup(client, "alice")
    mallory = signup(client, "mallory")
    rid = create_table(client, alice, max_hands=1, turn_time=60)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    m = room.match
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        msg = ws.receive_json()
        # wait until alice is awaited (bots act at once, the game waits for her)
        while not msg["live"].get("legal"):
            msg = ws.receive_json()
        seat = msg["seat"]
        before = (len(m.events), m.view(seat), room.version)
        hand = msg["live"]["hand"]
        missing = next(t for t in range(34) if t not in hand)
        bad = [
            {"kind": "discard", "tile": missing, "low": None},       # a tile she does not hold
            {"kind": "chow", "tile": 27, "low": 27},                   # winds never make a chow
            {"kind": "win", "tile": None, "low": None} if not any(a["kind"] == "win" for a in msg["live"]["legal"])
            else {"kind": "discard", "tile": 99, "low": None},
            {"kind": "explode", "tile": 1, "low": None},               # no such kind
            {"kind": "discard", "tile": "1m", "low": None},            # not an int
            {"kind": "discard", "tile": True, "low": None},
        ]
        for a in bad:
            ws.send_json({"type": "action", "action": a})
            err = ws.receive_json()
            assert err["type"] == "error", err
            st = ws.receive_json()
            assert st["type"] == "state" and st["version"] == msg["version"]
            assert st["live"]["hand"] == hand
        ws.send_text("not json")
        assert ws.receive_json()["type"] == "error"
        ws.receive_json()
        ws.send_json({"type": "nonsense"})
        assert ws.receive_json()["type"] == "error"
        ws.receive_json()
        assert (len(m.events), m.view(seat), room.version) == before
        # someone without a seat cannot act for any seat
        with client.websocket_connect(f"/ws/tables/{rid}", headers=mallory) as ws2:
            st = ws2.receive_json()
            assert st["seat"] is None and st["live"]["legal"] == [] and st["live"]["hand"] == []
            for a in msg["live"]["legal"]:
                ws2.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
                err = ws2.receive_json()
                assert err["type"] == "error" and "no seat" in err["message"]
                ws2.receive_json()
        assert (len(m.events), m.view(seat), room.version) == before
        # the legal action still works
        a = msg["live"]["legal"][0]
        ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
        assert wait_for(lambda: room.version > before[2], 5)


def test_nobody_receives_another_seats_concealed_tiles(client, monkeypatch):
    """Every state sent is checked against the table at the moment it is built: a seat's own
    concealed tiles and nothing of anyone else's; a spectator gets none."""
    from majiang.web import rooms

    sent: list[tuple[int | None, dict, list[tuple[int, ...]], list[list]]] = []
    orig = rooms.Room.state_for

    def spy(self, user_id):
        st = orig(self, user_id)
        t = self.match.table if self.match is not None else None
        if t is not None:
            sent.append((self.seat_of(user_id), st, [t.hand_tuple(s) for s in range(4)],
                         [list(t.melds[s]) for s in range(4)]))
        return st

    monkeypatch.setattr(rooms.Room, "state_for", spy)
    users = [signup(client, f"seat{i}") for i in range(3)]
    watcher = signup(client, "watcher")
    rid = create_table(client, users[0], max_hands=1)
    rules = client.app.state.lobby.get(rid).rules
    join(client, users[1], rid, 1)
    join(client, users[2], rid, 2)
    fill_bots(client, users[0], rid, "random")
    clients = [ScriptedClient(client, rid, h) for h in users]
    clients.append(ScriptedClient(client, rid, watcher, act=False))
    clients.append(ScriptedClient(client, rid, None, act=False))  # not logged in
    for c in clients:
        c.start()
    for c in clients:
        assert c.done.wait(60)
        assert c.exc is None, c.exc
    assert len(sent) > 50
    for seat, st, hands, melds in sent:
        live = st["live"]
        assert set(live) == LIVE_KEYS
        # the room's number, whether it is private, whether the viewer created it, the seats' avatars
        # and the viewer's own chat settings (issue 26) tell nobody anything of another seat's hand
        assert set(st) <= {"type", "table", "version", "status", "seat", "place", "names", "bots", "rules",
                           "max_hands", "turn_time", "reserve_time", "game_id", "scores", "results", "live", "pause",
                           "room", "private", "creator", "avatars", "chat"}
        assert set(st["chat"]) == {"free_text", "muted", "audience"}
        text = json.dumps(st)
        for word in ("wall\"", "tehais", "concealed\"", "seed"):
            assert word not in text
        assert live["hand_counts"] == [len(h) for h in hands]
        if not live["legal"]:
            assert live["phase"] in ("turn", "wait", "end")  # nobody learns of another seat's claim
        if seat is None:
            assert live["hand"] == [] and live["last_draw"] is None and live["legal"] == []
            assert live["waits"] is None and live["auto_win"] is False
        else:
            assert tuple(live["hand"]) == hands[seat]
            assert live["waits"] == expected_waits(live, rules)  # its own hand's waits, nobody else's
        for s in range(4):
            shown = [mm["kind"] for mm in live["melds"][s]]
            if s != seat:
                assert "concealed-kong" not in shown
                assert len(shown) + live["hidden_kongs"][s] == len(melds[s])
    # what the clients received is what was built
    for c in clients:
        for msg in c.messages:
            if msg["type"] == "state" and msg.get("live"):
                if msg["seat"] is None:
                    assert msg["live"]["hand"] == []


def test_reconnect_to_the_same_seat_mid_hand(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=60)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        st = ws.receive_json()
        while not st["live"]["legal"]:
            st = ws.receive_json()
        a = st["live"]["legal"][-1]
        ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
        st = ws.receive_json()
        while not st["live"]["legal"]:
            st = ws.receive_json()
    # the socket is gone; the game waits for her (time limit 60 s)
    v = room.version
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        st2 = ws.receive_json()
        assert st2["seat"] == st["seat"] and st2["version"] == v
        assert st2["live"]["hand"] == st["live"]["hand"]
        assert st2["live"]["legal"] == st["live"]["legal"]
        assert st2["results"] == st["results"] and st2["scores"] == st["scores"]
        a = st2["live"]["legal"][-1]
        ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
        assert wait_for(lambda: room.version > v, 5)
    assert room.timeouts == 0


def test_timeout_plays_for_the_seat_and_the_game_finishes(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=0.05)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    # nobody connects: the server must play alice's seat until the hand is over
    assert wait_for(lambda: room.finished and room.game_id is not None, 30)
    assert room.timeouts > 0
    g, seats = _game(client, room.game_id)
    seat = room.seat_of(room.places[0].user_id)
    assert any(f'"type":"dahai","actor":{seat},' in line for line in g.record.splitlines())
    assert sum(s.score for s in seats) == 0


def test_a_failing_bot_does_not_stall_the_table(client, monkeypatch):
    from majiang.players import RandomBot

    def broken(self, view, actions):
        raise RuntimeError("bot bug")

    monkeypatch.setattr(RandomBot, "choose", broken)
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=0.05, sit=False)
    fill_bots(client, alice, rid, "random")
    room = client.app.state.lobby.get(rid)
    assert wait_for(lambda: room.game_id is not None, 30)
    assert sum(room.match.scores) == 0
