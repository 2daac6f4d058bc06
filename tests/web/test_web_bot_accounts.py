"""Bots at the web table (issue 14, item 5): a person makes a bot account with an API token (shown
once, stored hashed, revocable), seats it, and the bot plays over the table's WebSocket with the
same messages as the page, under the same validation and clock."""

from __future__ import annotations

import hashlib

from majiang.records.jsonl import replay
from majiang.web.db import ApiToken, Game
from web_helpers import ScriptedClient, create_table, fill_bots, signup, wait_for


def test_a_bot_account_plays_a_hand_with_its_token(client):
    alice = signup(client, "alice")
    r = client.post("/account/bots", data={"name": "alices_bot"}, headers=alice)
    assert r.status_code == 201
    token = r.json()["token"]
    # stored as a hash only
    with client.app.state.db() as db:
        rows = db.query(ApiToken).all()
        assert [t.id for t in rows] == [hashlib.sha256(token.encode()).hexdigest()]
    assert client.get("/account/bots", headers=alice).json() == [{"name": "alices_bot", "id": r.json()["id"]}]
    # a bot account cannot log in with a password
    r2 = client.post("/login", data={"username": "alices_bot", "password": "!bot-account: tokens only"},
                     follow_redirects=False)
    assert r2.status_code == 401
    rid = create_table(client, alice, max_hands=1)
    r3 = client.post(f"/tables/{rid}/join", data={"place": "1", "bot_account": "alices_bot"}, headers=alice,
                     follow_redirects=False)
    assert r3.status_code == 303
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    assert room.started and room.places[1].name == "alices_bot"
    bot = ScriptedClient(client, rid, {"authorization": f"Bearer {token}"})
    person = ScriptedClient(client, rid, alice)
    bot.start()
    person.start()
    for c in (bot, person):
        assert c.done.wait(60) and c.exc is None, c.exc
    assert bot.acted > 0 and room.timeouts == 0
    assert bot.messages[-1]["seat"] == room.match.seat_of_player[1]
    with client.app.state.db() as db:
        g = db.get(Game, room.game_id)
        assert any(s.name == "alices_bot" and not s.is_bot for s in g.seats)
        assert sum(replay(g.record.splitlines()).scores) == 0


def test_a_revoked_token_is_no_one_and_another_persons_bot_cannot_be_seated(client):
    alice, bob = signup(client, "alice"), signup(client, "bob")
    token = client.post("/account/bots", data={"name": "alices_bot"}, headers=alice).json()["token"]
    rid = create_table(client, bob, max_hands=1)
    r = client.post(f"/tables/{rid}/join", data={"place": "1", "bot_account": "alices_bot"}, headers=bob,
                    follow_redirects=False)
    assert r.status_code == 404  # not bob's bot
    assert client.post("/account/bots/alices_bot/revoke", headers=alice).json()["revoked"] == 1
    with client.websocket_connect(f"/ws/tables/{rid}", headers={"authorization": f"Bearer {token}"}) as ws:
        st = ws.receive_json()
        assert st["seat"] is None and st["place"] is None
        ws.send_json({"type": "action", "action": {"kind": "pass"}})
        assert ws.receive_json()["type"] == "error"
    # a new token works again, and the old one stays dead
    new = client.post("/account/bots/alices_bot/token", headers=alice).json()["token"]
    assert new != token
    with client.app.state.db() as db:
        live = [t for t in db.query(ApiToken).all() if not t.revoked]
        assert [t.id for t in live] == [hashlib.sha256(new.encode()).hexdigest()]


def test_a_bot_plays_through_the_json_lines_protocol_over_the_websocket(client):
    """The same bot account, speaking docs/protocol.md's JSON lines over /ws/tables/{id}/jsonl:
    events as its seat may see them, a request with possible_actions at each decision, end_game."""
    import json as _json

    alice = signup(client, "alice")
    token = client.post("/account/bots", data={"name": "jl_bot"}, headers=alice).json()["token"]
    rid = create_table(client, alice, max_hands=1, sit=False)
    client.post(f"/tables/{rid}/join", data={"place": "0", "bot_account": "jl_bot"}, headers=alice)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    seat = room.match.seat_of_player[0]
    requests = answered = 0
    types = set()
    with client.websocket_connect(f"/ws/tables/{rid}/jsonl", headers={"authorization": f"Bearer {token}"}) as ws:
        while True:
            msg = _json.loads(ws.receive_text())
            types.add(msg["type"])
            if msg["type"] == "end_game":
                break
            if msg["type"] == "start_kyoku":  # only its own dealt tiles are shown
                assert all(t == "?" for i, h in enumerate(msg["tehais"]) if i != seat for t in h)
            if msg["type"] == "tsumo" and msg["actor"] != seat:
                assert msg["pai"] == "?"
            if msg["type"] == "request":
                requests += 1
                assert msg["seat"] == seat and msg["possible_actions"]
                offered = msg["possible_actions"]
                choice = next((o for o in offered if o["type"] in ("hora", "none")), offered[-1])
                ws.send_text(_json.dumps(choice))
                answered += 1
            assert msg["type"] != "error", msg
    assert requests > 0 and answered == requests and {"start_kyoku", "dahai"} <= types
    assert wait_for(lambda: room.game_id is not None, 10) and room.timeouts == 0
