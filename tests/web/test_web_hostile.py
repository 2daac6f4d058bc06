"""Hostile input, all of it (issue 25, part 5): ids past the columns' 32-bit range are 404 on
every database; JSON numbers the server cannot use (``NaN``, ``Infinity``, thousands of digits) and
frames near uvicorn's 1 MiB get ``{"type": "error"}`` with the socket kept open, on both table
sockets; behind ``--proxy-headers`` the client is the right-most ``X-Forwarded-For`` address that
is not a trusted proxy, for the log-in and sign-up throttles and the per-address socket limit."""

from __future__ import annotations

import contextlib

import pytest
from fastapi.testclient import TestClient

from majiang.web.guard import MAX_DB_ID, TrustedProxies, db_id, forwarded_client
from web_helpers import create_table, fill_bots, signup, wait_for

HUGE = "9" * 5000
HOSTILE = [
    '{"type": "action", "action": {"kind": "discard", "tile": ' + "1" * 5000 + '}}',
    '{"type": "state", "n": NaN}',
    '{"type": "state", "n": Infinity}',
    '{"type": "state", "n": -Infinity}',
    '{"type": "state", "n": 1e999}',
    '{"type": "state", "pad": "' + "x" * (1024 * 1024 - 100) + '"}',  # just under uvicorn's 1 MiB
    '{"type": "state", "pad": "' + "\u9ebb" * 30000 + '"}',  # 30,000 characters, 90,000 bytes
]


def test_ids_past_the_integer_columns_are_404(client):
    host = signup(client, "host")
    rid = create_table(client, host, max_hands=1, sit=False)
    fill_bots(client, host, rid)
    room = client.app.state.lobby.get(rid)
    assert wait_for(lambda: room.game_id is not None, 60)
    gid = room.game_id
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get(f"/games/{gid}/record").status_code == 200
    for bad in ("2147483648", "9223372036854775807", "9223372036854775808", "18446744073709551616",
                HUGE, "-1", "-2147483649", "0", "+1", f"{gid}.0", "1e3", "\u0661"):
        for path in (f"/games/{bad}", f"/games/{bad}/record"):
            r = client.get(path)
            assert r.status_code == 404, (path[:40], r.status_code)


def test_db_id_keeps_to_the_32_bit_range():
    assert db_id("1") == 1 and db_id(str(MAX_DB_ID)) == 2**31 - 1
    for bad in (str(MAX_DB_ID + 1), "0", "-5", "", " 1", "1 ", "0x10", "\u0661", HUGE):
        assert db_id(bad) is None, bad


def _until_error(ws, limit: int = 50) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg.get("type") == "error":
            return msg
    raise AssertionError("no error message")


def test_hostile_frames_get_an_error_and_the_table_socket_stays(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=60)
    fill_bots(client, alice, rid)
    with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
        assert ws.receive_json()["type"] == "state"
        for frame in HOSTILE:
            ws.send_text(frame)
            msg = _until_error(ws)
            assert msg["message"] and "Traceback" not in msg["message"], frame[:60]
        ws.send_json({"type": "state"})  # a valid message still works
        assert ws.receive_json()["type"] == "state"
        ws.send_text('{"type": "state", "n": 12345678901234567890}')  # a long but sane number is fine
        assert ws.receive_json()["type"] == "state"


def test_hostile_frames_on_the_json_lines_socket(client):
    import json

    alice = signup(client, "alice")
    token = client.post("/account/bots", data={"name": "jl_bot"}, headers=alice).json()["token"]
    rid = create_table(client, alice, max_hands=1, turn_time=60, sit=False)
    client.post(f"/tables/{rid}/join", data={"place": "0", "bot_account": "jl_bot"}, headers=alice)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    with client.websocket_connect(f"/ws/tables/{rid}/jsonl", headers={"authorization": f"Bearer {token}"}) as ws:
        while True:  # events, until the bot's first decision
            msg = json.loads(ws.receive_text())
            if msg.get("type") == "request":
                break
        for frame in HOSTILE + ['{"index": ' + "1" * 5000 + "}", '{"index": NaN}', '{"index": 1e999}']:
            ws.send_text(frame)
            err = _until_error(ws)
            assert err["message"], frame[:60]
        seq = room.seq
        ws.send_text(json.dumps({"index": 0}))  # a valid answer is still played
        assert wait_for(lambda: room.seq > seq, 10)


def test_the_client_is_the_rightmost_untrusted_forwarded_address():
    local = TrustedProxies("127.0.0.1")
    assert forwarded_client("127.0.0.1", ["203.0.113.9, 198.51.100.7"], local) == "198.51.100.7"
    assert forwarded_client("127.0.0.1", ["1.1.1.1", "198.51.100.7"], local) == "198.51.100.7"  # two headers
    assert forwarded_client("198.51.100.50", ["203.0.113.9"], local) == "198.51.100.50"  # not our proxy
    assert forwarded_client("127.0.0.1", [], local) == "127.0.0.1"
    chain = TrustedProxies("127.0.0.1, 10.0.0.0/8")
    assert forwarded_client("127.0.0.1", ["6.6.6.6, 198.51.100.7:4321, 10.1.2.3"], chain) == "198.51.100.7"
    assert forwarded_client("127.0.0.1", ["10.0.0.1, 10.0.0.2"], chain) == "10.0.0.1"  # all proxies
    assert forwarded_client("10.0.0.5", ["[2001:db8::1]:80"], chain) == "2001:db8::1"
    everyone = TrustedProxies("*")
    assert forwarded_client("192.0.2.1", ["198.51.100.7, 203.0.113.1"], everyone) == "198.51.100.7"


def _login_codes(client, xffs: list[str]) -> list[int]:
    return [client.post("/login", data={"username": "alice", "password": f"wrong {i}"},
                        headers={"x-forwarded-for": x}, follow_redirects=False).status_code
            for i, x in enumerate(xffs)]


def test_a_forged_forwarded_for_entry_does_not_escape_the_login_throttle(make_app):
    kw = dict(login_attempts=3, login_window=60, proxy_headers=True, forwarded_allow_ips="testclient")
    with TestClient(make_app(**kw)) as client:
        signup(client, "alice", "a good password")
        client.cookies.clear()
        forged = [f"203.0.113.{i}, 198.51.100.7" for i in range(5)]  # the client writes the left part
        assert _login_codes(client, forged) == [401, 401, 401, 429, 429]
        assert _login_codes(client, ["203.0.113.1, 198.51.100.8"]) == [401]  # another real address
        # the session list shows the real address too
        ok = client.post("/login", data={"username": "alice", "password": "a good password"},
                         headers={"x-forwarded-for": "6.6.6.6, 198.51.100.9"}, follow_redirects=False)
        assert ok.status_code == 303
        assert client.get("/account/sessions").json()[0]["address"] == "198.51.100.9"


@pytest.mark.parametrize("trust", ["127.0.0.1", None])
def test_forwarded_for_from_an_untrusted_peer_is_ignored(make_app, trust):
    """With the default trust list (127.0.0.1) the test client ("testclient") is no proxy of ours:
    its X-Forwarded-For is the client's own claim and changes nothing. Without --proxy-headers
    the header is never read."""
    kw = dict(login_attempts=2, login_window=60)
    kw.update(proxy_headers=True, forwarded_allow_ips=trust) if trust else kw.update(proxy_headers=False)
    with TestClient(make_app(**kw)) as client:
        signup(client, "alice", "a good password")
        client.cookies.clear()
        assert _login_codes(client, ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) == [401, 401, 429]


def test_signups_and_sockets_count_by_the_real_address(make_app):
    from starlette.websockets import WebSocketDisconnect

    kw = dict(login_attempts=2, login_window=60, proxy_headers=True, forwarded_allow_ips="testclient",
              ws_per_address=2)
    with TestClient(make_app(**kw)) as client:
        codes = [client.post("/signup", data={"username": f"user{i}", "password": "correct horse"},
                             headers={"x-forwarded-for": f"203.0.113.{i}, 198.51.100.7"},
                             follow_redirects=False).status_code for i in range(3)]
        assert codes == [303, 303, 429]
        client.cookies.clear()
        host = signup(client, "host_x")
        rid = create_table(client, host, sit=False)
        with contextlib.ExitStack() as stack:
            for i in range(2):
                ws = stack.enter_context(client.websocket_connect(
                    f"/ws/tables/{rid}", headers={"x-forwarded-for": f"203.0.113.{i}, 198.51.100.7"}))
                assert ws.receive_json()["type"] == "state"
            with client.websocket_connect(f"/ws/tables/{rid}",
                                          headers={"x-forwarded-for": "203.0.113.77, 198.51.100.7"}) as ws:
                assert "from your address" in ws.receive_json()["message"]
                with pytest.raises(WebSocketDisconnect) as e:
                    ws.receive_json()
                assert e.value.code == 4429
            with client.websocket_connect(f"/ws/tables/{rid}", headers={"x-forwarded-for": "198.51.100.8"}) as ws:
                assert ws.receive_json()["type"] == "state"  # another address is counted apart
