"""Quotas that hold whoever asks (issue 25, part 2): bot accounts count against their owner (at
most ``bots_per_user`` of them, and the tables they open count toward the owner's
``tables_per_user`` and ``tables_per_minute``); a table not started within
``idle_table_minutes`` is closed; table sockets are limited per session (or bot token) and per
client address, refused with 4429 and a reason."""

from __future__ import annotations

import contextlib

from fastapi.testclient import TestClient

from web_helpers import create_table, fill_bots, signup, until_closed, wait_for

NEW_TABLE = {"preset": "mcr", "max_hands": "1", "turn_time": "30"}


def _app(make_app, **kw):
    c = TestClient(make_app(**kw))
    c.headers["accept-language"] = "en"  # the English messages (Chinese is the default)
    return c


def _bot(client, owner, name) -> dict[str, str]:
    r = client.post("/account/bots", data={"name": name}, headers=owner)
    assert r.status_code == 201, r.text
    return {"authorization": f"Bearer {r.json()['token']}"}


def test_a_person_holds_at_most_bots_per_user_bot_accounts(make_app):
    with _app(make_app, bots_per_user=2) as client:
        alice = signup(client, "alice")
        _bot(client, alice, "a_one")
        _bot(client, alice, "a_two")
        r = client.post("/account/bots", data={"name": "a_three"}, headers=alice)
        assert r.status_code == 400 and "2 bot accounts" in r.json()["error"]
        assert [b["name"] for b in client.get("/account/bots", headers=alice).json()] == ["a_one", "a_two"]
        # deleting one frees its place; the deleted one is no longer listed nor seatable
        r = client.post("/account/bots/a_one/delete", headers=alice)
        assert r.status_code == 200 and r.json() == {"name": "a_one", "deleted": True, "revoked": 1}
        assert client.post("/account/bots/a_one/delete", headers=alice).status_code == 404
        _bot(client, alice, "a_three")
        assert [b["name"] for b in client.get("/account/bots", headers=alice).json()] == ["a_two", "a_three"]
        rid = create_table(client, alice, sit=False)
        r = client.post(f"/tables/{rid}/join", data={"place": "0", "bot_account": "a_one"}, headers=alice,
                        follow_redirects=False)
        assert r.status_code == 404
        # another person's quota is their own; nobody else can delete alice's bot
        bob = signup(client, "bob")
        assert client.post("/account/bots/a_two/delete", headers=bob).status_code == 404
        _bot(client, bob, "b_one")
        _bot(client, bob, "b_two")


def test_tables_opened_by_bot_accounts_count_toward_their_owner(make_app):
    with _app(make_app, max_tables=20, tables_per_user=3, tables_per_minute=50, bots_per_user=5) as client:
        alice = signup(client, "alice")
        bots = [_bot(client, alice, f"alice_bot{i}") for i in range(5)]
        create_table(client, alice, sit=False)
        create_table(client, bots[0], sit=False)  # a bot account opens tables with its token
        create_table(client, bots[1], sit=False)
        for who in (alice, *bots):  # three in all: alice and every one of her bots is refused now
            r = client.post("/tables", data=NEW_TABLE, headers=who, follow_redirects=False)
            assert r.status_code == 400 and "3 open tables" in r.text
        lobby = client.app.state.lobby
        assert lobby.unfinished() == 3
        # a second person can always open a table while the server has room
        bob = signup(client, "bob")
        for _ in range(3):
            create_table(client, bob, sit=False)
        assert lobby.unfinished() == 6
        # a deleted bot's unfinished table still counts (deleting is no way round the quota)
        assert client.post("/account/bots/alice_bot0/delete", headers=alice).status_code == 200
        r = client.post("/tables", data=NEW_TABLE, headers=alice, follow_redirects=False)
        assert r.status_code == 400 and "3 open tables" in r.text


def test_tables_per_minute_counts_the_owners_bots_too(make_app):
    with _app(make_app, tables_per_user=50, tables_per_minute=3) as client:
        alice = signup(client, "alice")
        b1, b2 = _bot(client, alice, "alice_b1"), _bot(client, alice, "alice_b2")
        create_table(client, alice, sit=False)
        create_table(client, b1, sit=False)
        create_table(client, b2, sit=False)
        r = client.post("/tables", data=NEW_TABLE, headers=b1, follow_redirects=False)
        assert r.status_code == 400 and "too fast" in r.text
        bob = signup(client, "bob")
        create_table(client, bob, sit=False)


def test_a_table_not_started_within_its_idle_time_is_closed(make_app):
    # 0.01 minutes = 0.6 s; the upkeep (every 2 s) checks at each round for so short an idle time
    with _app(make_app, idle_table_minutes=0.01) as client:
        alice = signup(client, "alice")
        idle = create_table(client, alice, sit=True)
        started = create_table(client, alice, sit=True, max_hands=1, turn_time=60)
        fill_bots(client, alice, started)
        lobby = client.app.state.lobby
        assert lobby.get(started).started
        with client.websocket_connect(f"/ws/tables/{idle}", headers=alice) as ws:
            assert ws.receive_json()["status"] == "open"
            msgs, code, _reason, waited = until_closed(ws, timeout=8)
        assert code == 4404, (msgs, code)
        assert msgs[-1]["type"] == "gone" and waited < 6
        assert lobby.get(idle) is None and client.get(f"/tables/{idle}").status_code == 404
        assert [r["id"] for r in client.get("/api/tables").json()] == [started]  # a started table stays


def test_the_ninth_socket_of_one_session_is_refused_with_a_reason(make_app):
    from starlette.websockets import WebSocketDisconnect

    with _app(make_app, ws_per_session=8) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        rid = create_table(client, alice, sit=True)
        sockets = client.app.state.sockets
        with contextlib.ExitStack() as stack:
            for _ in range(8):
                ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{rid}", headers=alice))
                assert ws.receive_json()["type"] == "state"
            with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
                err = ws.receive_json()
                assert err["type"] == "error" and "too many connections for this session" in err["message"]
                try:
                    ws.receive_json()
                    raise AssertionError("the ninth socket stayed open")
                except WebSocketDisconnect as e:
                    assert e.code == 4429 and "at most 8" in e.reason
            # another session is counted apart
            with client.websocket_connect(f"/ws/tables/{rid}", headers=bob) as ws:
                assert ws.receive_json()["type"] == "state"
            assert len(sockets.conns) == 8
        # closing them frees their places
        assert wait_for(lambda: len(sockets.conns) == 0, 5)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            assert ws.receive_json()["type"] == "state"


def test_sockets_per_address_are_limited_anonymous_ones_included(make_app):
    from starlette.websockets import WebSocketDisconnect

    with _app(make_app, ws_per_address=3, ws_per_session=8) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, sit=True)
        with contextlib.ExitStack() as stack:
            for h in ({}, {}, alice):  # two spectators without a session and alice: one address
                ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{rid}", headers=h))
                assert ws.receive_json()["type"] == "state"
            for h in ({}, alice):
                with client.websocket_connect(f"/ws/tables/{rid}", headers=h) as ws:
                    assert "from your address" in ws.receive_json()["message"]
                    try:
                        ws.receive_json()
                        raise AssertionError("a fourth socket from one address stayed open")
                    except WebSocketDisconnect as e:
                        assert e.code == 4429 and "at most 3" in e.reason


def test_every_limit_is_a_serve_flag_that_reaches_the_settings(monkeypatch, database_url):
    """``majiang serve``'s flags land in :class:`Settings`; uvicorn's own proxy-header handling is
    off (the app applies --forwarded-allow-ips itself, once)."""
    import uvicorn
    from click.testing import CliRunner

    from majiang.cli import main
    from majiang.web import app as web_app

    monkeypatch.setenv("MAJIANG_SECRET_KEY", "test-secret-key-" + "x" * 32)  # no key file written
    seen: dict = {}
    real = web_app.create_app
    monkeypatch.setattr(web_app, "create_app", lambda s: seen.setdefault("settings", s) and real(s))
    class Server:  # serve binds its own socket, then hands it to uvicorn's Server: record, serve nothing
        started = True

        def __init__(self, config):
            seen["uvicorn"] = {"proxy_headers": config.proxy_headers}

        def run(self, sockets=None):
            for sock in sockets or ():
                sock.close()

    monkeypatch.setattr(uvicorn, "Server", Server)
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    r = CliRunner().invoke(main, ["serve", "--db", database_url, "--port", str(port),
                                  "--bots-per-user", "2", "--idle-table-minutes", "3",
                                  "--ws-per-session", "4", "--ws-per-address", "9", "--proxy-headers",
                                  "--forwarded-allow-ips", "10.0.0.0/8,127.0.0.1", "--analysis-cache", "4096"])
    assert r.exit_code == 0, r.output
    s = seen["settings"]
    from majiang.analysis import tables

    assert s.analysis_cache == 4096 and tables.SUIT_INFO.cap == tables.USED.cap == 4096  # applied by create_app
    tables.limit_tables(tables.SUIT_CAP)
    assert (s.bots_per_user, s.idle_table_minutes, s.ws_per_session, s.ws_per_address) == (2, 3.0, 4, 9)
    assert s.proxy_headers and s.forwarded_allow_ips == "10.0.0.0/8,127.0.0.1"
    assert seen["uvicorn"]["proxy_headers"] is False
    out = CliRunner().invoke(main, ["serve", "--help"]).output
    for flag in ("--bots-per-user", "--idle-table-minutes", "--ws-per-session", "--ws-per-address",
                 "--forwarded-allow-ips", "--analysis-cache"):
        assert flag in out
