"""Playing with friends (issue 26): display names, private rooms with numbers and invite links, the
creator's seating, table chat (对谈) and quick start -- over HTTP and the table's WebSocket, on
SQLite and (with ``DATABASE_URL``) PostgreSQL."""

from __future__ import annotations

import html
import re
import threading
import time

import pytest
from fastapi.testclient import TestClient
from web_helpers import COOKIE, ScriptedClient, create_table, fill_bots, join, wait_for

from majiang.web import auth, room_chat


def signup(client, name: str, display: str | None = None, *, lang: str = "en", avatar: str = ""):
    """POST /signup; returns the response (the client's jar is cleared)."""
    client.cookies.clear()
    data = {"username": name, "password": "correct horse"}
    if display is not None:
        data["display_name"] = display
    if avatar:
        data["avatar"] = avatar
    r = client.post("/signup", data=data, headers={"accept-language": lang}, follow_redirects=False)
    client.cookies.clear()
    return r


def person(client, name: str, display: str | None = None) -> dict[str, str]:
    r = signup(client, name, display)
    assert r.status_code == 303, r.text
    return {"cookie": f"{COOKIE}={r.cookies.get(COOKIE)}"}


def error_of(r) -> str:
    m = re.search(r'<p class="error" id="error" role="alert">(.*?)</p>', r.text, re.S)
    return html.unescape(m.group(1)) if m else ""


def shown_name(client, headers) -> str:
    r = client.get("/", headers=headers)
    m = re.search(r'<span class="who">(?:<svg.*?</svg>)?(.*?)</span>', r.text, re.S)
    assert m, r.text[:500]
    return m.group(1)


# ---------------------------------------------------------------------------------------- names
def test_display_names_are_accepted_or_refused_by_the_rules(client):
    h = person(client, "zhang", "张三")
    assert shown_name(client, h) == "张三"
    assert shown_name(client, person(client, "lisifeng", "李四丰")) == "李四丰"
    # full-width Latin is stored NFKC-normalised: Ｌｉｓａ -> Lisa
    assert shown_name(client, person(client, "lisa1", "Ｌｉｓａ")) == "Lisa"
    # ... and "lisa" is the same name, ignoring case and width
    r = signup(client, "lisa2", "lisa")
    assert r.status_code == 400 and error_of(r) == "That display name is taken"
    r = signup(client, "lisa3", "LİSA")  # a dotted capital I is another letter, not a case of i: allowed
    assert r.status_code == 303
    # a space, a zero-width joiner, a Cyrillic а among Latin letters: refused, each with its reason
    r = signup(client, "wangwu", "王 五")
    assert r.status_code == 400 and error_of(r) == "A display name cannot hold spaces"
    r = signup(client, "wangwu", "王 五", lang="zh")
    assert r.status_code == 400 and error_of(r) == "昵称不能含有空格。"
    r = signup(client, "zwj", "Li\u200dsa")
    assert r.status_code == 400 and error_of(r) == "A display name cannot hold invisible or control characters"
    r = signup(client, "cyr", "Lis\u0430")  # the last letter is CYRILLIC SMALL LETTER A
    assert r.status_code == 400 and "look-alike" in error_of(r)
    r = signup(client, "cyr", "Lis\u0430", lang="zh")
    assert error_of(r) == "昵称不能混用外形相似的不同字母（拉丁、西里尔、希腊字母）。"
    r = signup(client, "short", "张")
    assert r.status_code == 400 and error_of(r) == "A display name is 2-12 characters"
    r = signup(client, "botlike", "电脑2")  # a bot's seat name
    assert r.status_code == 400 and error_of(r) == "That name is reserved for bots"
    # the form keeps what was typed
    assert 'value="王 五"' in signup(client, "wangwu", "王 五").text


def test_signup_without_a_display_name_keeps_the_login_and_it_counts_as_taken(client):
    h = person(client, "alice")  # /signup with username/password only, as before
    assert shown_name(client, h) == "alice"
    r = signup(client, "bob", "ALICE")
    assert r.status_code == 400 and error_of(r) == "That display name is taken"
    # the login is still the login
    r = client.post("/login", data={"username": "alice", "password": "correct horse"}, follow_redirects=False)
    assert r.status_code == 303


def test_check_display_name_unit():
    assert auth.check_display_name("  José ") == "José"  # a combining accent after NFKC is one letter
    assert auth.check_display_name("阿尔·帕西诺") == "阿尔·帕西诺"
    assert auth.check_display_name("小明Tom") == "小明Tom"  # Han beside Latin: not look-alikes
    for bad in ("ab\u200b", "\u3164\u3164", "a\u0007b", "Ωmega", "_-", "x" * 13):
        with pytest.raises(auth.DisplayNameError):
            auth.check_display_name(bad)
    assert auth.display_key("Ｌｉｓａ") == auth.display_key("LISA") == "lisa"


# ---------------------------------------------------------------------------------------- rooms
def _state(client, rid, headers) -> dict:
    with client.websocket_connect(f"/ws/tables/{rid}", headers=headers) as ws:
        while True:
            m = ws.receive_json()
            if m["type"] == "state":
                return m


def test_a_private_table_is_joined_by_number_and_link_only(client):
    alice, bob, carol = person(client, "alice", "阿丽"), person(client, "bob", "小波"), person(client, "carol")
    r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "30", "sit": "1",
                                     "private": "1"}, headers=alice, follow_redirects=False)
    assert r.status_code == 303 and re.fullmatch(r"/tables/[\w-]+", r.headers["location"])
    rid = r.headers["location"].rsplit("/", 1)[1]
    st = _state(client, rid, alice)
    room = st["room"]
    assert re.fullmatch(r"\d{6}", room) and st["private"] is True and st["creator"] is True
    assert st["names"][0] == "阿丽"
    # not listed: neither in the lobby's page nor in /api/tables, for anyone
    assert all(t["id"] != rid for t in client.get("/api/tables").json())
    lobby = client.get("/", headers=carol).text
    assert rid not in lobby and room not in lobby
    # a public table is listed, with its number
    pub = create_table(client, carol)
    listed = {t["id"]: t for t in client.get("/api/tables").json()}
    assert pub in listed and re.fullmatch(r"\d{6}", listed[pub]["room"]) and listed[pub]["room"] != room
    # the table page shows the number big and the invite link
    page = client.get(f"/tables/{rid}", headers=alice).text
    assert f'id="room-number-big">{room}<' in page and f'href="/r/{room}"' in page
    # the invite link and the lobby's join-by-number form lead to the table
    r = client.get(f"/r/{room}", headers=bob, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{rid}"
    r = client.get("/r", params={"room": room[:3] + " " + room[3:]}, headers=bob, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{rid}"
    r = client.get("/r/000000" if room != "000000" else "/r/999999", headers=bob, follow_redirects=False)
    assert r.status_code == 404 and error_of(r) == "No table has that room number"
    r = client.get("/r", params={"room": "12ab"}, headers=bob)
    assert r.status_code == 400 and error_of(r) == "A room number is 6 digits"
    join(client, bob, rid, 1)
    assert _state(client, rid, bob)["names"][:2] == ["阿丽", "小波"]
    # only the creator removes and moves people
    r = client.post(f"/tables/{rid}/remove", data={"place": "0"}, headers=bob, follow_redirects=False)
    assert r.status_code == 400 and error_of(r) == "Only the table's creator can remove people"
    r = client.post(f"/tables/{rid}/remove", data={"place": "1"}, headers=alice, follow_redirects=False)
    assert r.status_code == 303
    assert _state(client, rid, alice)["places"][1]["empty"] is True
    join(client, bob, rid, 3)
    r = client.post(f"/tables/{rid}/move", data={"place": "3", "to": "1"}, headers=alice, follow_redirects=False)
    assert r.status_code == 303
    places = _state(client, rid, alice)["places"]
    assert [p["name"] for p in places] == ["阿丽", "小波", "", ""]
    # moving onto a person swaps the two
    r = client.post(f"/tables/{rid}/move", data={"place": "0", "to": "1"}, headers=alice, follow_redirects=False)
    assert r.status_code == 303
    assert [p["name"] for p in _state(client, rid, alice)["places"]][:2] == ["小波", "阿丽"]


def test_room_numbers_are_unique_among_unfinished_tables(client):
    from majiang.web.store import RoomNumberTaken

    store = client.app.state.store
    kw = dict(creator_id=1, creator="x", ruleset="mcr", rules={}, options_text="", max_hands=None, turn_time=30.0,
              places=[])
    store.create(id="t-one", room="123456", **kw)
    with pytest.raises(RoomNumberTaken):
        store.create(id="t-two", room="123456", **kw)
    assert store.table_of_room("123456") == "t-one"
    from sqlalchemy import update

    from majiang.web.db import LiveTable

    with client.app.state.db() as db:  # a finished table's number is free again
        db.execute(update(LiveTable).where(LiveTable.id == "t-one").values(status="finished"))
        db.commit()
    store.create(id="t-two", room="123456", **kw)
    assert store.table_of_room("123456") == "t-two"


# ---------------------------------------------------------------------------------------- chat
OPEN_READERS: list = []


@pytest.fixture(autouse=True)
def _close_readers():
    """Every Reader's socket is closed at the end of its test, passed or failed (an open one would
    hold the app's shutdown)."""
    yield
    while OPEN_READERS:
        OPEN_READERS.pop().stop()


class Reader(threading.Thread):
    """A table socket whose messages are collected on a thread; ``send`` from the test's thread."""

    def __init__(self, client, rid, headers):
        super().__init__(daemon=True)
        OPEN_READERS.append(self)
        self.client, self.rid, self.headers = client, rid, headers
        self.messages: list[dict] = []
        self.ready = threading.Event()
        self.stopping = False
        self.ws = None

    def run(self):
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.rid}", headers=self.headers) as ws:
                self.ws = ws
                self.ready.set()
                while not self.stopping:
                    self.messages.append(ws.receive_json())
        except Exception:
            pass

    def stop(self):
        """Close the socket from the reading thread: ask for a state, which wakes the reading up."""
        if self.is_alive() and self.ws is not None:
            self.stopping = True
            try:
                self.ws.send_json({"type": "state"})
            except Exception:
                pass
            self.join(10)

    def start_reading(self):
        self.start()
        assert self.ready.wait(10)
        assert wait_for(lambda: any(m["type"] == "state" for m in self.messages), 10)
        return self

    def send(self, msg):
        self.ws.send_json(msg)

    def chat(self):
        return [m for m in self.messages if m["type"] == "chat"]

    def texts(self):
        return [m["text"] for m in self.chat()]

    def errors(self):
        return [m["message"] for m in self.messages if m["type"] == "error"]


def test_chat_players_and_spectators_hear_their_own_side(client):
    alice, bob, carol, dave = (person(client, n, d) for n, d in
                               (("alice", "阿丽"), ("bob", "小波"), ("carol", "观众甲"), ("dave", "观众乙")))
    rid = create_table(client, alice, max_hands=1)
    join(client, bob, rid, 1)
    ra, rb, rc, rd = (Reader(client, rid, h).start_reading() for h in (alice, bob, carol, dave))
    ra.send({"type": "chat", "text": "你好，<script>alert(1)</script>"})
    rb.send({"type": "chat", "phrase": "hurry"})
    rc.send({"type": "chat", "text": "spectators only"})
    assert wait_for(lambda: len(ra.chat()) == 2 and len(rb.chat()) == 2 and len(rc.chat()) == 1 and len(rd.chat()) == 1)
    time.sleep(0.2)
    # players hear the players (the markup is passed on as text, the page shows it as text)
    assert ra.texts() == rb.texts() == ["你好，<script>alert(1)</script>", "Hurry up, please"]
    line = rb.chat()[0]
    assert line["seat"] == 0 and line["name"] == "阿丽" and line["audience"] == "players"
    assert rb.chat()[1]["phrase"] == "hurry" and rb.chat()[1]["seat"] == 1
    # spectators hear the spectators only
    assert rc.texts() == rd.texts() == ["spectators only"]
    assert rd.chat()[0]["seat"] is None and rd.chat()[0]["audience"] == "spectators"
    # a quick phrase is sent in each page's language
    zh = Reader(client, rid, {**bob, "accept-language": "zh"}).start_reading()
    assert wait_for(lambda: len(zh.chat()) == 2)
    assert zh.texts()[1] == "快点吧，等得花都谢了" and all(m.get("history") for m in zh.chat())
    # bob mutes alice: her lines stop reaching him (and still reach her)
    rb.send({"type": "mute", "seat": 0, "on": True})
    assert wait_for(lambda: any(m["type"] == "state" and m["chat"]["muted"] == [0] for m in rb.messages))
    ra.send({"type": "chat", "text": "can you hear me"})
    assert wait_for(lambda: "can you hear me" in ra.texts())
    time.sleep(0.3)
    assert "can you hear me" not in rb.texts() and "can you hear me" not in rc.texts()
    # the creator switches free text off: quick phrases stay
    rb.send({"type": "free_text", "on": False})
    assert wait_for(lambda: any("free text" in e for e in rb.errors()))
    assert rb.errors()[-1] == "only the table's creator can switch free text"
    ra.send({"type": "free_text", "on": False})
    assert wait_for(lambda: any(m["type"] == "state" and m["chat"]["free_text"] is False for m in rb.messages))
    rb.send({"type": "chat", "text": "hello?"})
    assert wait_for(lambda: "free text is off at this table; use the quick phrases" in rb.errors())
    rb.send({"type": "chat", "phrase": "sorry"})
    assert wait_for(lambda: "Sorry" in ra.texts())
    # bad lines are refused with a reason
    ra.send({"type": "free_text", "on": True})
    for msg, why in (({"text": "x" * 61}, "a chat line is at most 60 characters"),
                     ({"text": "   "}, "a chat line cannot be empty"),
                     ({"text": "a\u200bb"}, "a chat line cannot hold control or invisible characters"),
                     ({"phrase": "nope"}, "unknown quick phrase")):
        ra.send({"type": "chat", **msg})
        assert wait_for(lambda: why in ra.errors()), (why, ra.errors())


def test_chat_is_rate_limited_per_person(client):
    alice = person(client, "alice")
    rid = create_table(client, alice)
    ra = Reader(client, rid, alice).start_reading()
    for i in range(room_chat.CHAT_LIMIT + 1):
        ra.send({"type": "chat", "text": f"line {i}"})
    assert wait_for(lambda: len(ra.chat()) == room_chat.CHAT_LIMIT and ra.errors())
    time.sleep(0.2)
    assert ra.texts() == [f"line {i}" for i in range(room_chat.CHAT_LIMIT)]
    assert re.fullmatch(r"too many chat lines; wait \d+ s", ra.errors()[0])


def test_chat_lines_are_kept_in_the_log_and_in_the_games_replay(client):
    alice, bob, carol = person(client, "alice", "阿丽"), person(client, "bob", "小波"), person(client, "carol")
    rid = create_table(client, alice, max_hands=1)
    join(client, bob, rid, 1)
    ra, rc = Reader(client, rid, alice).start_reading(), Reader(client, rid, carol).start_reading()
    ra.send({"type": "chat", "text": "开始吧"})
    rc.send({"type": "chat", "phrase": "nice"})
    assert wait_for(lambda: ra.texts() == ["开始吧"] and rc.texts() == ["Well played!"])
    # the lines are rows of the table's log: a rebuilt table has them
    rows = client.app.state.store.load(rid)[1]
    assert [r.get("text", r.get("phrase")) for r in rows if r["kind"] == "chat"] == ["开始吧", "nice"]
    ra.stop()
    rc.stop()
    players = [ScriptedClient(client, rid, h) for h in (alice, bob)]
    for p in players:
        p.start()
    fill_bots(client, alice, rid)
    # a line during the game (bob's second page) reaches the other player's socket
    assert wait_for(lambda: any(m["type"] == "state" and m["status"] == "playing" for m in players[0].messages))
    with client.websocket_connect(f"/ws/tables/{rid}", headers=bob) as ws:
        ws.send_json({"type": "chat", "phrase": "lucky"})
        while ws.receive_json().get("phrase") != "lucky":
            pass
    for p in players:
        assert p.done.wait(60) and p.exc is None, p.exc
    assert any(m["type"] == "chat" and m.get("phrase") == "lucky" for m in players[0].messages)
    gid = players[0].messages[-1]["game_id"]
    lines = client.get(f"/games/{gid}/chat").json()
    assert [(ln["name"], ln["text"], ln["audience"]) for ln in lines] == [
        ("阿丽", "开始吧", "players"), ("carol", "Well played!", "spectators"), ("小波", "What luck!", "players")]
    assert lines[0]["at"] == 0 and lines[0]["hand"] is None and lines[2]["at"] > 0 and lines[2]["hand"] == 0
    # the replay page shows them (as text)
    page = client.get(f"/games/{gid}").text
    assert 'id="game-chat"' in page and "开始吧" in page and "What luck!" in page
    # the record's events the step "at" counts are the replay's
    record = re.search(r'<script id="record" type="application/json">(.*?)</script>', page, re.S).group(1)
    import json
    rec = json.loads(record)
    assert len(rec["chat"]) == 3 and lines[2]["at"] <= len(rec["events"])


# ---------------------------------------------------------------------------------------- quick start
def test_quick_start_seats_people_together_and_fills_with_bots(make_app):
    with TestClient(make_app(quick_wait=1.5)) as client:
        client.headers["accept-language"] = "en"
        alice, bob, carol = person(client, "alice"), person(client, "bob"), person(client, "carol")
        t0 = time.monotonic()
        r1 = client.post("/quick", data={"preset": "mcr"}, headers=alice, follow_redirects=False)
        r2 = client.post("/quick", data={"preset": "mcr"}, headers=bob, follow_redirects=False)
        assert r1.status_code == r2.status_code == 303
        assert r1.headers["location"] == r2.headers["location"]  # the same table
        rid = r1.headers["location"].rsplit("/", 1)[1]
        # pressing again while waiting leads back to the same table
        assert client.post("/quick", data={"preset": "mcr"}, headers=alice,
                           follow_redirects=False).headers["location"] == f"/tables/{rid}"
        st = _state(client, rid, alice)
        assert 0 < st["quick_left"] <= 1.5 and st["places"][0]["name"] == "alice"
        # one person alone in another rule set gets a table of their own
        r3 = client.post("/quick", data={"preset": "taiwan"}, headers=carol, follow_redirects=False)
        rid3 = r3.headers["location"].rsplit("/", 1)[1]
        assert rid3 != rid

        def started(table):
            return any(t["id"] == table and t["status"] == "playing" for t in client.get("/api/tables").json())

        assert wait_for(lambda: started(rid) and started(rid3), 15)
        waited = time.monotonic() - t0
        assert waited >= 1.0  # not before the wait (a second person could still come)
        tables = {t["id"]: t for t in client.get("/api/tables").json()}
        assert tables[rid]["quick"] is True
        assert tables[rid]["names"].count("alice") == 1 and sum("-bot-" in n for n in tables[rid]["names"]) == 2
        assert sum("-bot-" in n for n in tables[rid3]["names"]) == 3
        r = client.post("/quick", data={"preset": "nope"}, headers=alice, follow_redirects=False)
        assert r.status_code == 400
