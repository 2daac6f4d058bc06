"""No table without a keeper (issue 25): real ``majiang serve`` processes on one database.

* A second ``serve`` on the same port (and, with SQLite, on any port) exits at once with a clear
  message and a non-zero status, leaving every lease as it was: the game on the first server goes
  on to its end.
* (PostgreSQL) The process running a table is killed (SIGKILL): another takes the table within
  10 s and the game goes on to its end.
* (PostgreSQL) Two workers restarted on a database with ten unfinished tables share them: neither
  holds more than six.

Run against SQLite, and against PostgreSQL when ``DATABASE_URL`` points there.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from web_helpers import wait_for

EXE = str(Path(sys.executable).with_name("majiang"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cmd(db: str, port: int, *extra: str) -> list[str]:
    return [EXE, "serve", "--port", str(port), "--db", db, "--hand-pause", "0", "--log-level", "warning",
            "--tables-per-user", "20", "--tables-per-minute", "100", *extra]


def _env() -> dict[str, str]:
    return dict(os.environ, MAJIANG_SECRET_KEY="keepers-test-" + "k" * 40)


class Serve:
    """One ``majiang serve`` in a subprocess, its output in a file."""

    def __init__(self, db: str, port: int, tmp: Path, *extra: str) -> None:
        self.port = port
        self.out = tmp / f"serve-{port}-{time.monotonic_ns()}.log"
        self.file = open(self.out, "w")
        self.proc = subprocess.Popen(_cmd(db, port, *extra), env=_env(), stdout=self.file, stderr=subprocess.STDOUT)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def up(self) -> bool:
        try:
            return httpx.get(f"{self.base}/api/tables", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_up(self) -> None:
        assert wait_for(lambda: self.up() or self.proc.poll() is not None, 60, 0.1) and self.proc.poll() is None, \
            self.out.read_text()

    def stop(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                self.proc.kill()
                self.proc.wait(10)
        self.file.close()


class Db:
    """Reads the test database directly (leases, log, heartbeats)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url)

    def one(self, sql: str, **kw):
        with self.engine.connect() as c:
            return c.execute(text(sql), kw).first()

    def all(self, sql: str, **kw):
        with self.engine.connect() as c:
            return c.execute(text(sql), kw).all()

    def log_len(self, rid: str) -> int:
        return int(self.one("SELECT count(*) FROM table_log WHERE table_id = :t", t=rid)[0])

    def games(self, rid: str) -> int:
        return int(self.one("SELECT count(*) FROM games WHERE table_id = :t", t=rid)[0])

    def lease(self, rid: str) -> tuple[str, float] | None:
        row = self.one("SELECT owner, expires FROM table_leases WHERE table_id = :t", t=rid)
        return None if row is None else (row[0], float(row[1]))

    def live_leases(self) -> dict[str, int]:
        """Live leases of unfinished tables per owner."""
        rows = self.all("SELECT l.owner, count(*) FROM table_leases l JOIN live_tables t ON t.id = l.table_id "
                        "WHERE l.expires >= :now AND t.status != 'finished' GROUP BY l.owner", now=time.time())
        return {o: int(n) for o, n in rows}

    def close(self) -> None:
        self.engine.dispose()


def _signup(base: str, name: str) -> dict[str, str]:
    with httpx.Client(base_url=base, follow_redirects=False) as c:
        r = c.post("/signup", data={"username": name, "password": "a good password"})
        assert r.status_code == 303, r.text
        return {"Cookie": f"majiang_session={r.cookies['majiang_session']}"}


def _table(base: str, who: dict[str, str], *, max_hands: int, sit: bool, turn_time: int = 30) -> str:
    """A table with bots in every empty place (so it starts at once); its id."""
    with httpx.Client(base_url=base, follow_redirects=False, timeout=30) as c:
        data = {"preset": "mcr", "max_hands": str(max_hands), "turn_time": str(turn_time)}
        if sit:
            data["sit"] = "1"
        r = c.post("/tables", data=data, headers=who)
        assert r.status_code == 303, r.text
        rid = r.headers["location"].rsplit("/", 1)[1]
        assert c.post(f"/tables/{rid}/bots", data={"kind": "efficiency"}, headers=who).status_code == 303
        return rid


def _second_start(db: str, port: int) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(db, port), env=_env(), capture_output=True, text=True, timeout=90)


def test_a_second_start_changes_nothing(database_url, tmp_path):
    """A second ``serve`` on the same database and port exits non-zero, says the port is in use,
    leaves the lease as it was, and the bots' game on the first server plays on to its end. With
    SQLite a second ``serve`` on another port is refused too (SQLite serves one process)."""
    port = _free_port()
    first = Serve(database_url, port, tmp_path, "--bot-delay", "0.04")
    db = Db(database_url)
    try:
        first.wait_up()
        alice = _signup(first.base, "alice")
        rid = _table(first.base, alice, max_hands=3, sit=False)
        assert wait_for(lambda: db.log_len(rid) >= 10, 60, 0.1), "the bots' game did not get going"
        owner = db.lease(rid)[0]

        second = _second_start(database_url, port)
        said = second.stdout + second.stderr
        assert second.returncode != 0, said
        assert f"port {port} is in use: is another majiang serve running?" in said, said
        if database_url.startswith("sqlite"):
            other = _second_start(database_url, _free_port())
            said = other.stdout + other.stderr
            assert other.returncode != 0, said
            assert "is in use by another majiang serve" in said and f"(process {first.proc.pid})" in said, said

        # nothing changed hands, and the game had not ended yet: the test means something
        assert db.games(rid) == 0, "the game ended before the second start was tried; make it longer"
        lease = db.lease(rid)
        assert lease is not None and lease[0] == owner, (owner, lease)
        assert first.proc.poll() is None
        # the game goes on: a few upkeeps later (a server that lost its lease stops within one)
        # its log still grows and its lease is renewed; then it ends, stored once
        time.sleep(5.0)
        n = db.log_len(rid)
        assert wait_for(lambda: db.log_len(rid) >= n + 10 or db.games(rid) == 1, 30, 0.1), \
            "the game froze after the second start"
        lease = db.lease(rid)
        assert db.games(rid) == 1 or (lease is not None and lease[0] == owner and lease[1] > time.time()), lease
        assert wait_for(lambda: db.games(rid) == 1, 240, 0.25), "the game did not finish"
        assert first.up()
    finally:
        first.stop()
        db.close()


def _postgres_only(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (DATABASE_URL)")


def test_a_lapsed_table_is_taken_within_ten_seconds(database_url, tmp_path):
    """Two servers on one PostgreSQL; the one running a bots' game is killed (SIGKILL): the other
    holds the table's lease within 10 s and the game ends, stored once."""
    _postgres_only(database_url)
    a = Serve(database_url, _free_port(), tmp_path, "--bot-delay", "0.05")
    b = Serve(database_url, _free_port(), tmp_path, "--bot-delay", "0.05")
    db = Db(database_url)
    try:
        a.wait_up()
        b.wait_up()
        alice = _signup(a.base, "alice")
        rid = _table(a.base, alice, max_hands=2, sit=False)  # created on A: A runs it
        assert wait_for(lambda: db.log_len(rid) >= 10, 60, 0.1), "the bots' game did not get going"
        owner = db.lease(rid)[0]
        pid = db.one("SELECT pid FROM server_heartbeats WHERE owner = :o", o=owner)[0]
        assert pid == a.proc.pid
        killed = time.monotonic()
        a.stop(signal.SIGKILL)
        n = db.log_len(rid)

        def taken() -> bool:
            lease = db.lease(rid)
            return lease is not None and lease[0] != owner and lease[1] > time.time()

        assert wait_for(taken, 12, 0.1) and time.monotonic() - killed <= 10.0, \
            f"no other process took the table within 10 s (lease {db.lease(rid)}, {time.monotonic() - killed:.1f} s)"
        new_owner = db.lease(rid)[0]
        assert db.one("SELECT pid FROM server_heartbeats WHERE owner = :o", o=new_owner)[0] == b.proc.pid
        assert wait_for(lambda: db.log_len(rid) > n + 5 or db.games(rid) == 1, 30, 0.1), "the game did not go on"
        assert wait_for(lambda: db.games(rid) == 1, 240, 0.25), "the game did not finish on the other process"
    finally:
        a.stop()
        b.stop()
        db.close()


def test_two_workers_restarted_share_ten_tables(database_url, tmp_path):
    """Ten unfinished tables (a person who does not act, and bots); the server stops and comes back
    as two workers (``--workers 2``): every table is held again and neither worker holds more
    than six, then or a few seconds later. A third server then joins and is handed its share."""
    _postgres_only(database_url)
    port = _free_port()
    one = Serve(database_url, port, tmp_path, "--bot-delay", "0")
    db = Db(database_url)
    two = third = None
    try:
        one.wait_up()
        people = [_signup(one.base, f"player{i}") for i in range(2)]
        rids = [_table(one.base, people[i % 2], max_hands=1, sit=True, turn_time=600) for i in range(10)]
        assert db.live_leases() == {db.lease(rids[0])[0]: 10}
        one.stop(signal.SIGTERM)
        assert db.all("SELECT * FROM table_leases") == []  # a graceful stop gives its leases up
        assert int(db.one("SELECT count(*) FROM live_tables WHERE status != 'finished'")[0]) == 10

        two = Serve(database_url, port, tmp_path, "--workers", "2", "--bot-delay", "0")
        two.wait_up()
        seen: list[dict[str, int]] = []

        def shared() -> bool:
            counts = db.live_leases()
            seen.append(counts)
            return sum(counts.values()) == 10 and len(counts) == 2 and max(counts.values()) <= 6

        assert wait_for(shared, 60, 0.25), f"the tables were not shared: {seen[-5:]}"
        time.sleep(2 * 2.0 + 1)  # two upkeeps later it still holds
        counts = db.live_leases()
        assert sum(counts.values()) == 10 and max(counts.values()) <= 6, counts
        owners = {r[0] for r in db.all("SELECT owner FROM server_heartbeats")}
        assert set(counts) <= owners

        # a third process joins: the two hand a table each over (share ceil(10 / 3) = 4)
        third = Serve(database_url, _free_port(), tmp_path, "--bot-delay", "0")
        third.wait_up()
        joined = db.one("SELECT owner FROM server_heartbeats WHERE pid = :p", p=third.proc.pid)[0]

        def spread() -> bool:
            counts = db.live_leases()
            seen.append(counts)
            return sum(counts.values()) == 10 and max(counts.values()) <= 4 and counts.get(joined, 0) >= 2

        assert wait_for(spread, 30, 0.25), f"the tables were not handed over: {seen[-5:]}"
    finally:
        one.stop()
        if third is not None:
            third.stop(signal.SIGTERM)
        if two is not None:
            two.stop(signal.SIGTERM)
        db.close()
