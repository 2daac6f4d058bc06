"""Durable tables (issue 11): a real ``majiang serve`` is killed (SIGKILL) or stopped (SIGTERM) in
the middle of a hand and started again on the same database; the two people at the table
reconnect by themselves, the game goes on from the last acknowledged action, ends, and is stored
once with a record that replays. Runs against SQLite, and against PostgreSQL when ``DATABASE_URL``
points there (as in CI's second run)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from majiang.records.jsonl import replay
from web_helpers import choose, wait_for

pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``majiang serve`` in a subprocess."""

    def __init__(self, db: str, port: int, tmp: Path) -> None:
        self.db, self.port, self.tmp = db, port, tmp
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        exe = Path(sys.executable).with_name("majiang")
        cmd = [str(exe), "serve", "--port", str(self.port), "--db", self.db, "--bot-delay", "0.02", "--claim-pause", "0.05",
               "--hand-pause", "0", "--log-level", "warning"]
        env = dict(os.environ, MAJIANG_SECRET_KEY="restart-test-" + "k" * 40)
        self.log = open(self.tmp / f"server-{time.monotonic_ns()}.log", "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        assert wait_for(self._up, 30), (self.tmp / "server.log").read_text() if (self.tmp / "server.log").exists() else ""

    def _up(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/api/tables", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self, sig: int) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        rc = self.proc.wait(20)
        self.log.close()
        return rc


class Person(threading.Thread):
    """One seat over a WebSocket that reconnects by itself (with backoff) when the server goes away,
    and plays until the game is stored."""

    def __init__(self, port: int, rid: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{port}/ws/tables/{rid}"
        self.cookie = cookie
        self.states: list[dict] = []
        self.connects = 0
        self.close_codes: list[int | None] = []
        self.acted = 0
        self.final: dict | None = None
        self.exc: BaseException | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        backoff = 0.1
        end = time.monotonic() + 120
        try:
            while not self.stop.is_set() and time.monotonic() < end:
                try:
                    with connect(self.url, additional_headers={"Cookie": self.cookie}, open_timeout=3) as ws:
                        self.connects += 1
                        backoff = 0.1
                        acted_on = None
                        while True:
                            msg = json.loads(ws.recv(timeout=30))
                            if msg["type"] == "gone":
                                raise AssertionError("the table was reported gone")
                            if msg["type"] != "state":
                                continue
                            self.states.append(msg)
                            if msg["status"] == "finished" and msg.get("game_id"):
                                self.final = msg
                                return
                            live = msg.get("live") or {}
                            if msg["status"] == "playing" and live.get("legal") and msg["version"] != acted_on:
                                a = choose(live)
                                acted_on = msg["version"]
                                time.sleep(0.01)
                                ws.send(json.dumps({"type": "action",
                                                    "action": {k: a[k] for k in ("kind", "tile", "low")}}))
                                self.acted += 1
                except ConnectionClosed as e:
                    self.close_codes.append(e.rcvd.code if e.rcvd is not None else None)
                except (OSError, InvalidStatus, TimeoutError):
                    pass
                time.sleep(backoff)
                backoff = min(2.0, backoff * 2)
        except BaseException as e:  # pragma: no cover - reported by the test
            self.exc = e


def _kept(old: list[int], new: list[int], melds: list[list[dict]]) -> bool:
    """A river seen before the stop is still there after it: the same discards in order, except
    that the last may since have been claimed (it then leaves the river for a meld)."""
    if new[:len(old)] == old:
        return True
    return bool(old) and new[:len(old) - 1] == old[:-1] and \
        any(m.get("claimed") == old[-1] for ms in melds for m in ms)


def _games_stored(database_url: str, rid: str) -> int:
    from sqlalchemy import create_engine, text

    eng = create_engine(database_url)
    with eng.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM games WHERE table_id = :t"), {"t": rid}).scalar()
    eng.dispose()
    return int(n)


def _signup(base: str, name: str) -> str:
    with httpx.Client(base_url=base, follow_redirects=False) as c:
        r = c.post("/signup", data={"username": name, "password": "a good password"})
        assert r.status_code == 303, r.text
        return f"majiang_session={r.cookies['majiang_session']}"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_restart_loses_nothing(database_url, tmp_path, sig):
    port = _free_port()
    server = Server(database_url, port, tmp_path)
    server.start()
    base = f"http://127.0.0.1:{port}"
    try:
        alice, bob = _signup(base, "alice"), _signup(base, "bob")
        with httpx.Client(base_url=base, follow_redirects=False) as c:
            # three hands: a bot may end a hand before the people have acted six times
            r = c.post("/tables", data={"preset": "mcr", "max_hands": "3", "turn_time": "30", "sit": "1"},
                       headers={"Cookie": alice})
            rid = r.headers["location"].rsplit("/", 1)[1]
            assert c.post(f"/tables/{rid}/join", data={"place": "1"}, headers={"Cookie": bob}).status_code == 303
            assert c.post(f"/tables/{rid}/bots", data={"kind": "efficiency"},
                          headers={"Cookie": alice}).status_code == 303
        people = [Person(port, rid, alice), Person(port, rid, bob)]
        for p in people:
            p.start()
        assert wait_for(lambda: sum(p.acted for p in people) >= 6, 60), \
            ("the game did not get going", [p.acted for p in people], [len(p.states) for p in people])
        assert not any(p.final for p in people)
        rc = server.stop(sig)
        seen = [p.states[-1] for p in people]
        if sig == signal.SIGTERM:
            # a graceful stop (uvicorn re-raises the signal after its shutdown, hence -15)
            assert rc in (0, -signal.SIGTERM)
        # the table survives the restart: listed, and the game goes on from where it was
        server.start()
        tables = httpx.get(f"{base}/api/tables").json()
        assert rid in [t["id"] for t in tables] or all(p.final for p in people)
        for p in people:
            p.join(120)
            assert p.exc is None, p.exc
            assert p.final is not None, "the game did not finish after the restart"
            assert p.connects >= 2  # reconnected by itself
        if sig == signal.SIGTERM:
            assert any(1012 in p.close_codes for p in people), [p.close_codes for p in people]
        # every discard acknowledged before the stop is still there after it
        for p, before in zip(people, seen):
            after = next(s for s in p.states[p.states.index(before) + 1:] if s.get("live")) \
                if p.states.index(before) + 1 < len(p.states) else p.final
            if after.get("live") and before.get("live") and \
                    after["live"]["hand_number"] == before["live"]["hand_number"]:
                assert after["live"]["wall_live"] <= before["live"]["wall_live"]  # no draw undone
                for s in range(4):
                    assert _kept(before["live"]["rivers"][s], after["live"]["rivers"][s], after["live"]["melds"])
        gid = people[0].final["game_id"]
        assert people[1].final["game_id"] == gid
        record = httpx.get(f"{base}/games/{gid}/record").text
        m = replay(record.splitlines())
        assert m.scores == people[0].final["scores"] and sum(m.scores) == 0
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop(signal.SIGKILL)
    assert _games_stored(database_url, rid) == 1


def test_an_unknown_table_is_reported_gone(client):
    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        assert ws.receive_json() == {"type": "gone", "message": "no such table"}


def test_two_processes_share_a_table_and_survive_the_loss_of_its_runner(database_url, tmp_path):
    """Two servers on one PostgreSQL: a person on each at the same table; the process holding the
    table's lease is killed; the other takes the table over and the game ends, stored once."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (DATABASE_URL)")
    pa, pb = _free_port(), _free_port()
    a, b = Server(database_url, pa, tmp_path), Server(database_url, pb, tmp_path)
    a.start()
    b.start()
    try:
        alice = _signup(f"http://127.0.0.1:{pa}", "alice")
        bob = _signup(f"http://127.0.0.1:{pb}", "bob")  # signed up on the other process
        with httpx.Client(follow_redirects=False) as c:
            r = c.post(f"http://127.0.0.1:{pa}/tables", headers={"Cookie": alice},
                       data={"preset": "mcr", "max_hands": "1", "turn_time": "30", "sit": "1"})
            rid = r.headers["location"].rsplit("/", 1)[1]
            # the table page and the seat work on the other process too
            assert c.get(f"http://127.0.0.1:{pb}/tables/{rid}", headers={"Cookie": bob}).status_code == 200
            assert c.post(f"http://127.0.0.1:{pb}/tables/{rid}/join", data={"place": "1"},
                          headers={"Cookie": bob}).status_code == 303
            assert c.post(f"http://127.0.0.1:{pa}/tables/{rid}/bots", data={"kind": "efficiency"},
                          headers={"Cookie": alice}).status_code == 303
        # alice plays through A, bob through B; after A dies, alice's client reconnects to B
        people = [Person(pa, rid, alice), Person(pb, rid, bob)]
        people[0].fallback = f"ws://127.0.0.1:{pb}/ws/tables/{rid}"
        for p in people:
            p.start()
        assert wait_for(lambda: sum(p.acted for p in people) >= 6, 60), "the game did not get going"
        a.stop(signal.SIGKILL)
        people[0].url = people[0].fallback
        for p in people:
            p.join(120)
            assert p.exc is None, p.exc
            assert p.final is not None, "the game did not finish on the other process"
        gid = people[0].final["game_id"]
        record = httpx.get(f"http://127.0.0.1:{pb}/games/{gid}/record").text
        m = replay(record.splitlines())
        assert sum(m.scores) == 0 and m.scores == people[1].final["scores"]
    finally:
        for s in (a, b):
            if s.proc is not None and s.proc.poll() is None:
                s.stop(signal.SIGKILL)
    assert _games_stored(database_url, rid) == 1
