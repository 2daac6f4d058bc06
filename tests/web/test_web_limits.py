"""Bounded resources and malformed input (issue 11): only unfinished tables count toward
``max_tables``; a user holds at most ``tables_per_user`` open tables; every malformed WebSocket
frame gets an error and the connection stays; ids that name nothing are 404."""

from __future__ import annotations

from fastapi.testclient import TestClient

from web_helpers import create_table, fill_bots, signup, wait_for


def test_finished_tables_do_not_count_toward_the_cap(make_app):
    with TestClient(make_app(max_tables=4, tables_per_user=4, tables_per_minute=20)) as client:
        client.headers["accept-language"] = "en"  # the English messages (Chinese is the default)
        host = signup(client, "host")
        for _ in range(8):  # eight one-hand bot tables in a row, under a cap of four
            rid = create_table(client, host, max_hands=1, sit=False)
            fill_bots(client, host, rid)
            room = client.app.state.lobby.get(rid)
            assert room.started
            assert wait_for(lambda: room.game_id is not None, 30)
            assert room.match.table is None and not room._bots  # the engine and bots are freed at once
        assert client.app.state.lobby.unfinished() == 0


def test_open_tables_per_user_and_the_server_cap(make_app):
    with TestClient(make_app(max_tables=8, tables_per_user=6, tables_per_minute=20)) as client:
        client.headers["accept-language"] = "en"  # the English messages (Chinese is the default)
        alice, bob = signup(client, "alice"), signup(client, "bob")
        for _ in range(6):
            create_table(client, alice, sit=False)
        r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"}, headers=alice,
                        follow_redirects=False)
        assert r.status_code == 400 and "open tables" in r.text  # alice's seventh is refused
        create_table(client, bob, sit=False)  # bob can still open one
        create_table(client, bob, sit=False)
        r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"}, headers=bob,
                        follow_redirects=False)
        assert r.status_code == 400 and "too many tables" in r.text  # the server's cap of eight


def test_table_creation_is_rate_limited_per_user(make_app):
    with TestClient(make_app(tables_per_user=50, tables_per_minute=3)) as client:
        client.headers["accept-language"] = "en"  # the English messages (Chinese is the default)
        alice = signup(client, "alice")
        for _ in range(3):
            create_table(client, alice, sit=False)
        r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"}, headers=alice,
                        follow_redirects=False)
        assert r.status_code == 400 and "too fast" in r.text


def test_every_malformed_frame_gets_an_error_and_the_connection_stays(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=60)
    fill_bots(client, alice, rid)
    bad = [
        b"\x00\x01binary",
        "not json at all",
        "[" * 999 + "]" * 999,
        '{"a":' * 50 + "1" + "}" * 50,
        "42",
        '{"type": 5}',
        '{"type": "action", "action": "discard 1m"}',
        '{"type": "action", "action": {"kind": "discard", "tile": [1]}}',
        '{"type": "teleport"}',
        '{"type": "state", "pad": "' + "x" * 70000 + '"}',
    ]
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        for frame in bad:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            while True:
                msg = ws.receive_json()
                if msg["type"] == "error":
                    break
            assert msg["message"], frame[:40]
        # still connected and served
        ws.send_json({"type": "state"})
        assert ws.receive_json()["type"] == "state"


def test_ids_that_name_nothing_are_404(client):
    for path in ("/games/99999999999999999999999", "/games/0", "/games/-3", "/games/abc",
                 "/games/99999999999999999999999/record", "/tables/nosuch", "/players/nobody"):
        assert client.get(path).status_code == 404, path


def test_a_table_never_started_is_dropped_and_its_page_told_it_is_gone(client):
    from starlette.websockets import WebSocketDisconnect

    alice = signup(client, "alice")
    rid = create_table(client, alice, sit=True)
    lobby = client.app.state.lobby
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        assert ws.receive_json()["status"] == "open"
        assert lobby.drop_stale_open(older_than=3600) == 0  # young tables stay
        assert lobby.drop_stale_open(older_than=-1) == 1
        try:
            while True:
                ws.receive_json()
        except WebSocketDisconnect as e:
            assert e.code == 4404
    assert lobby.get(rid) is None
    assert client.get(f"/tables/{rid}").status_code == 404
    with client.websocket_connect(f"/ws/tables/{rid}") as ws:
        assert ws.receive_json()["type"] == "gone"
