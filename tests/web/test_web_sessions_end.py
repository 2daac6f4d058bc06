"""Sessions end everywhere (issue 25, part 4): logging out, revoking a session, revoking a bot's
tokens or deleting the bot account closes every open table socket of that session or token within a
second (close code 4401 with the reason), on this process at once and on any other at its next
check of the database; a socket is never more trusted than its session -- one that acts after its
session ended is refused and closed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from majiang.web import auth
from web_helpers import COOKIE, create_table, fill_bots, signup, until_closed


def _app(make_app, **kw):
    c = TestClient(make_app(**kw))
    c.headers["accept-language"] = "en"
    return c


def _login(client, name, password="correct horse") -> dict[str, str]:
    client.cookies.clear()
    r = client.post("/login", data={"username": name, "password": password}, follow_redirects=False)
    assert r.status_code == 303
    cookie = r.cookies.get(COOKIE) or client.cookies.get(COOKIE)
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={cookie}"}


def _table(client, owner) -> str:
    rid = create_table(client, owner, max_hands=1, turn_time=60)
    fill_bots(client, owner, rid)
    return rid


def test_logging_out_closes_that_sessions_sockets_and_no_other(make_app):
    with _app(make_app) as client:
        alice = signup(client, "alice")
        other = _login(client, "alice")  # the same person in another browser
        rid = _table(client, alice)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws, \
                client.websocket_connect(f"/ws/tables/{rid}", headers=other) as ws2:
            assert ws.receive_json()["seat"] is not None
            assert ws2.receive_json()["seat"] is not None
            client.post("/logout", headers=alice, follow_redirects=False)
            msgs, code, reason, waited = until_closed(ws, timeout=3)
            assert code == 4401 and reason == "session ended" and waited < 1.0
            assert msgs[-1] == {"type": "error", "message": "session ended: log in again"}
            ws2.send_json({"type": "state"})  # the other session's socket is still served
            assert ws2.receive_json()["type"] == "state"
        assert len(client.app.state.sockets.conns) == 0


def test_revoking_a_session_closes_its_sockets(make_app):
    with _app(make_app) as client:
        alice = signup(client, "alice")
        laptop = _login(client, "alice")
        rid = _table(client, alice)
        sessions = client.get("/account/sessions", headers=laptop).json()
        first = next(s["id"] for s in sessions if not s["current"])
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            assert ws.receive_json()["type"] == "state"
            r = client.post(f"/account/sessions/{first}/revoke", headers=laptop, follow_redirects=False)
            assert r.status_code == 303
            _msgs, code, reason, waited = until_closed(ws, timeout=3)
            assert (code, reason) == (4401, "session ended") and waited < 1.0


def test_a_session_revoked_elsewhere_closes_within_a_second(make_app):
    """Another process revokes the session: only the database knows. The periodic check (every
    ``session_check`` seconds) finds it."""
    with _app(make_app, session_check=0.5) as client:
        alice = signup(client, "alice")
        rid = _table(client, alice)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            assert ws.receive_json()["type"] == "state"
            sid = client.get("/account/sessions", headers=alice).json()[0]["id"]
            assert auth.revoke_session_id(client.app.state.db, 1, sid)  # straight in the database
            _msgs, code, reason, waited = until_closed(ws, timeout=3)
            assert (code, reason) == (4401, "session ended") and waited < 1.2


def test_a_socket_whose_session_ended_cannot_act(make_app):
    """Revoked in the database between two checks (the check is made slow here): the next action is
    refused against the database, and the socket closed."""
    with _app(make_app, session_check=60) as client:
        alice = signup(client, "alice")
        rid = _table(client, alice)
        room = client.app.state.lobby.get(rid)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            st = ws.receive_json()
            while not (st.get("live") or {}).get("legal"):  # until alice has a decision to make
                st = ws.receive_json()
            sid = client.get("/account/sessions", headers=alice).json()[0]["id"]
            assert auth.revoke_session_id(client.app.state.db, 1, sid)
            a = st["live"]["legal"][0]
            ws.send_json({"type": "action", "action": {k: a.get(k) for k in ("kind", "tile", "low")}})
            msgs, code, reason, _ = until_closed(ws, timeout=3)
            assert (code, reason) == (4401, "session ended")
            assert {"type": "error", "message": "session ended: log in again"} in msgs
        rows = client.app.state.store.rows_after(rid, 0)
        assert [r for r in rows if r["kind"] == "act" and r.get("by") == "user"] == []  # nothing written for it
        assert room.seat_of(1) in room.match.pending_seats()  # her decision still waits


def test_revoking_or_renewing_a_bot_token_and_deleting_the_bot_close_its_sockets(make_app):
    with _app(make_app) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=1, turn_time=60, sit=False)

        def bot(name: str) -> dict[str, str]:
            token = client.post("/account/bots", data={"name": name}, headers=alice).json()["token"]
            return {"authorization": f"Bearer {token}"}

        cases = [("b_revoke", "revoke", "token revoked"), ("b_renew", "token", "token revoked"),
                 ("b_delete", "delete", "bot account deleted")]
        heads = {name: bot(name) for name, _, _ in cases}
        for place, (name, _, _) in enumerate(cases):
            r = client.post(f"/tables/{rid}/join", data={"place": str(place), "bot_account": name},
                            headers=alice, follow_redirects=False)
            assert r.status_code == 303
        for name, route, why in cases:
            with client.websocket_connect(f"/ws/tables/{rid}", headers=heads[name]) as ws, \
                    client.websocket_connect(f"/ws/tables/{rid}/jsonl", headers=heads[name]) as jl:
                assert ws.receive_json()["type"] == "state"
                assert client.post(f"/account/bots/{name}/{route}", headers=alice).status_code == 200
                for sock in (ws, jl):
                    msgs, code, reason, waited = until_closed(sock, timeout=3)
                    assert (code, reason) == (4401, why) and waited < 1.0, (name, code, reason)
                    assert msgs[-1] == {"type": "error", "message": f"{why}: log in again"}


def test_a_token_revoked_elsewhere_closes_its_socket(make_app):
    with _app(make_app, session_check=0.5) as client:
        alice = signup(client, "alice")
        r = client.post("/account/bots", data={"name": "far_bot"}, headers=alice).json()
        rid = create_table(client, alice, sit=False)
        with client.websocket_connect(f"/ws/tables/{rid}", headers={"authorization": f"Bearer {r['token']}"}) as ws:
            assert ws.receive_json()["type"] == "state"
            assert auth.revoke_tokens(client.app.state.db, r["id"]) == 1  # straight in the database
            _msgs, code, reason, waited = until_closed(ws, timeout=3)
            assert (code, reason) == (4401, "token revoked") and waited < 1.2
