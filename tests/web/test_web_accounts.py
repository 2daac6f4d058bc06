"""Accounts: sign-up, log-in, hashed passwords, the log-in rate limit, sessions and input checks."""

from __future__ import annotations

from sqlalchemy import select

from majiang.web.db import User
from web_helpers import COOKIE, create_table, signup


def test_signup_login_logout(client):
    h = signup(client, "alice", "a good password")
    r = client.get("/", headers=h)
    assert r.status_code == 200 and "alice" in r.text and "Create a table" in r.text
    with client.app.state.db() as db:
        u = db.scalar(select(User).where(User.username == "alice"))
    assert u.password_hash.startswith("$argon2id$") and "a good password" not in u.password_hash
    # duplicate name (case-insensitive), bad names and short passwords are refused
    for name, pw in (("ALICE", "another password"), ("a", "long enough pw"), ("bad name!", "long enough pw"),
                     ("random-bot-1", "long enough pw"), ("bob", "short")):
        client.cookies.clear()
        r = client.post("/signup", data={"username": name, "password": pw}, follow_redirects=False)
        assert r.status_code == 400, (name, r.status_code)
    client.cookies.clear()
    r = client.post("/login", data={"username": "alice", "password": "wrong password"}, follow_redirects=False)
    assert r.status_code == 401 and COOKIE not in r.cookies
    r = client.post("/login", data={"username": "nobody", "password": "wrong password"}, follow_redirects=False)
    assert r.status_code == 401
    r = client.post("/login", data={"username": "alice", "password": "a good password"}, follow_redirects=False)
    assert r.status_code == 303 and client.cookies.get(COOKIE)
    assert "Log out" in client.get("/").text
    client.post("/logout", follow_redirects=False)
    assert "Log out" not in client.get("/").text


def test_login_throttle_slows_a_guesser_and_never_locks_the_owner_out(make_app):
    import time

    from fastapi.testclient import TestClient

    with TestClient(make_app(login_attempts=5, login_window=60, proxy_headers=True,
                             forwarded_allow_ips="testclient")) as client:  # the test client is the proxy
        signup(client, "alice", "a good password")
        client.cookies.clear()
        guesser = {"x-forwarded-for": "198.51.100.7"}
        owner = {"x-forwarded-for": "203.0.113.9"}
        throttle = client.app.state.login_limit
        codes, delays = [], []
        for i in range(7):
            delays.append(throttle.delay("alice"))
            codes.append(client.post("/login", data={"username": "alice", "password": f"guess {i}"},
                                     headers=guesser, follow_redirects=False).status_code)
        # five wrong passwords from one address, then that address is refused
        assert codes == [401] * 5 + [429, 429]
        # the account's delay grows after the third failure (0.25 s, then doubling)
        assert delays[:3] == [0.0, 0.0, 0.0] and delays[3] == 0.25 and delays[4] == 0.5
        # the owner, from another address, still gets in (after the account's delay)
        t0 = time.monotonic()
        r = client.post("/login", data={"username": "alice", "password": "a good password"}, headers=owner,
                        follow_redirects=False)
        assert r.status_code == 303 and time.monotonic() - t0 >= throttle.delay("alice")
        # the success clears the account's count
        assert throttle.delay("alice") == 0.0


def test_logout_revokes_the_session_cookie(client):
    h = signup(client, "alice", "a good password")
    assert "alice" in client.get("/", headers=h).text
    sessions = client.get("/account/sessions", headers=h).json()
    assert len(sessions) == 1 and sessions[0]["current"]
    client.post("/logout", headers=h, follow_redirects=False)
    # the same cookie, replayed after logout, is no one
    r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"}, headers=h,
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert client.get("/account/sessions", headers=h, follow_redirects=False).status_code == 303


def test_a_session_can_be_revoked_from_another(client):
    h1 = signup(client, "alice", "a good password")
    client.cookies.clear()
    r = client.post("/login", data={"username": "alice", "password": "a good password"}, follow_redirects=False)
    h2 = {"cookie": f"{COOKIE}={r.cookies.get(COOKIE) or client.cookies.get(COOKIE)}"}
    client.cookies.clear()
    listed = client.get("/account/sessions", headers=h2).json()
    assert len(listed) == 2
    other = next(s for s in listed if not s["current"])
    assert client.post(f"/account/sessions/{other['id']}/revoke", headers=h2,
                       follow_redirects=False).status_code == 303
    assert client.get("/account/sessions", headers=h1, follow_redirects=False).status_code == 303
    assert len(client.get("/account/sessions", headers=h2).json()) == 1


def test_tampered_cookie_is_ignored(client):
    h = signup(client, "alice")
    value = h["cookie"].split("=", 1)[1]
    forged = {"cookie": f"{COOKIE}={value[:-4]}AAAA"}
    assert "Log out" not in client.get("/", headers=forged).text
    r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"}, headers=forged,
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"


def test_cross_origin_post_refused(client):
    h = signup(client, "alice")
    r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30"},
                    headers={**h, "origin": "https://evil.example"}, follow_redirects=False)
    assert r.status_code == 403


def test_create_table_validates_inputs(client):
    h = signup(client, "alice")
    for data in ({"preset": "nope", "max_hands": "1", "turn_time": "30"},
                 {"preset": "mcr", "options": "flowers=maybe", "max_hands": "1", "turn_time": "30"},
                 {"preset": "mcr", "options": "no_such_option=1", "max_hands": "1", "turn_time": "30"},
                 {"preset": "mcr", "options": "name=taiwan", "max_hands": "1", "turn_time": "30"},
                 {"preset": "mcr", "max_hands": "-1", "turn_time": "30"},
                 {"preset": "mcr", "max_hands": "x", "turn_time": "30"},
                 {"preset": "mcr", "max_hands": "1", "turn_time": "100000"}):
        r = client.post("/tables", data=data, headers=h, follow_redirects=False)
        assert r.status_code == 400, data
    rid = create_table(client, h, preset="taiwan", options="dealer_keeps_on_win=false, flowers=false", max_hands=2)
    room = client.app.state.lobby.get(rid)
    assert room.rules.name == "taiwan" and room.rules.dealer_keeps_on_win is False and room.rules.flowers is False
    r = client.get(f"/tables/{rid}", headers=h)
    assert r.status_code == 200 and "Fill empty seats with bots" in r.text
    # only the creator may fill the seats with bots; nobody sits twice
    other = signup(client, "bob")
    r = client.post(f"/tables/{rid}/bots", data={"kind": "random"}, headers=other, follow_redirects=False)
    assert r.status_code == 403
    r = client.post(f"/tables/{rid}/join", data={"place": "2"}, headers=h, follow_redirects=False)
    assert r.status_code == 400
    r = client.post(f"/tables/{rid}/join", data={"place": "0"}, headers=other, follow_redirects=False)
    assert r.status_code == 400
    r = client.post(f"/tables/{rid}/join", data={"place": "9"}, headers=other, follow_redirects=False)
    assert r.status_code == 400


def test_cross_origin_websocket_refused(client):
    import pytest
    from starlette.websockets import WebSocketDisconnect

    h = signup(client, "alice")
    rid = create_table(client, h, max_hands=1)
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/tables/{rid}", headers={**h, "origin": "https://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{rid}", headers=h) as ws:
        assert ws.receive_json()["status"] == "open"
