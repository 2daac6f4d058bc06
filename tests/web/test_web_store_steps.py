"""What one step of a table's log costs the database, and who hears of it.

On PostgreSQL a step is one statement on the store's held connection (the log row, the table row
when it changes, and the notification), and nothing else; the process that wrote it does not hand
its own notification to its event loop. On SQLite a step is one short transaction. The counts are
properties of the code, not timings, so they hold on a loaded machine too.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlalchemy import event, select, text

from majiang.web.db import LiveTable, TableLogRow, make_engine, migrate, session_factory
from majiang.web.store import Listener, LogConflict, TableStore

ROW = {"kind": "act", "seat": 2, "action": ["discard", 23, None], "by": "bot"}


def _store(url: str) -> TableStore:
    engine = make_engine(url)
    migrate(engine)
    return TableStore(session_factory(engine), postgres=url.startswith("postgresql"))


def _new_table(store: TableStore, tid: str) -> None:
    store.create(id=tid, creator_id=1, creator="alice", ruleset="mcr", rules={}, options_text="",
                 max_hands=None, turn_time=30.0, places=[{"user_id": None, "name": "", "bot": None}] * 4)


class _Counting:
    """Counts the statements a psycopg connection is asked to run (its ``execute``)."""

    def __init__(self, raw):
        self.raw, self.n = raw, 0

    def execute(self, *a, **k):
        self.n += 1
        return self.raw.execute(*a, **k)


def _postgres_only(url: str) -> None:
    if not url.startswith("postgresql"):
        pytest.skip("PostgreSQL only (DATABASE_URL)")


def test_a_step_on_postgresql_is_one_statement_on_the_held_connection(database_url):
    _postgres_only(database_url)
    store = _store(database_url)
    try:
        _new_table(store, "t1")
        store.append("t1", 1, ROW)  # opens the step connection
        other: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a, **k: other.append(a[2]))
        counting = store._step_raw = _Counting(store._step_raw)
        for seq in range(2, 12):
            store.append("t1", seq, ROW)
        # the rare steps that change the table's row too are still one statement
        places = [{"user_id": 1, "name": "alice", "bot": None}] + [{"user_id": None, "name": "", "bot": None}] * 3
        store.append("t1", 12, {"kind": "join", "place": 0, "user_id": 1, "name": "alice"}, places=places)
        store.append("t1", 13, {"kind": "start", "seed": 1}, status="playing")
        assert counting.n == 12
        assert other == []  # no pool checkout, no other statement
        with pytest.raises(LogConflict):
            store.append("t1", 13, ROW, status="finished")
        assert counting.n == 13
        t, rows = store.load("t1")
        assert len(rows) == 13 and rows[-1] == {"kind": "start", "seed": 1}
        assert t.status == "playing" and t.places == places  # the conflicting step changed nothing
    finally:
        store.close()
        store.engine.dispose()


def test_a_lost_step_connection_is_replaced_and_its_pid_forgotten(database_url):
    _postgres_only(database_url)
    store = _store(database_url)
    try:
        _new_table(store, "t1")
        store.append("t1", 1, ROW)
        pid = store._step_pid
        assert store.own_pids == {pid}
        with store.engine.connect() as c:
            c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            c.commit()
        time.sleep(0.2)
        with pytest.raises(Exception):  # noqa: B017 - whatever psycopg raises for a lost connection
            store.append("t1", 2, ROW)
        assert store.own_pids == set()  # its notifications (if it committed) are heard again
        store.append("t1", 2, ROW)  # a new connection
        assert store._step_pid != pid and store.own_pids == {store._step_pid}
        with store.Session() as db:
            assert db.scalars(select(TableLogRow.seq).where(TableLogRow.table_id == "t1")).all() == [1, 2]
    finally:
        store.close()
        store.engine.dispose()


def test_the_listener_drops_only_its_own_processes_notifications(database_url):
    _postgres_only(database_url)
    mine, theirs = _store(database_url), _store(database_url)  # two processes' stores
    loop = asyncio.new_event_loop()
    heard: list[tuple[str, str]] = []
    listener = Listener(database_url, lambda t, p: heard.append((t, p)), loop, skip_pids=mine.own_pids)
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        listener.start()
        time.sleep(0.5)  # LISTEN is in place
        _new_table(theirs, "t1")
        mine.append("t1", 1, ROW)
        theirs.append("t1", 2, ROW)
        mine.append("t1", 3, ROW)
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(p.startswith("2 ") for _, p in heard):
            time.sleep(0.05)
        time.sleep(0.3)
        steps = [p.split(" ")[0] for t, p in heard if t == "t1"]
        assert steps == ["0", "2"]  # the other process's: the new table, its step
        assert listener.skipped == 2
        assert heard[-1][1].split(" ", 1)[1] == '{"kind":"act","seat":2,"action":["discard",23,null],"by":"bot"}'
    finally:
        listener.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        for s in (mine, theirs):
            s.close()
            s.engine.dispose()


def test_a_step_on_sqlite_is_one_short_transaction(database_url):
    if database_url.startswith("postgresql"):
        pytest.skip("SQLite only")
    store = _store(database_url)
    _new_table(store, "t1")
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a, **k: statements.append(a[2]))
    store.append("t1", 1, ROW)
    assert len(statements) == 1 and statements[0].startswith("INSERT INTO table_log")
    store.append("t1", 2, {"kind": "start", "seed": 1}, status="playing")
    assert len(statements) == 3
    with pytest.raises(LogConflict):
        store.append("t1", 2, ROW, status="finished")
    with store.Session() as db:
        assert db.get(LiveTable, "t1").status == "playing"
    store.engine.dispose()


def test_async_commit_is_asked_for_on_the_step_connection_only(database_url):
    _postgres_only(database_url)
    for flag, want in ((False, "on"), (True, "off")):
        engine = make_engine(database_url)
        migrate(engine)
        store = TableStore(session_factory(engine), postgres=True, async_commit=flag)
        try:
            _new_table(store, f"t{int(flag)}")
            store.append(f"t{int(flag)}", 1, ROW)
            assert store._step_raw.execute("SHOW synchronous_commit").fetchone()[0] == want
            with engine.connect() as c:  # every other connection commits as configured
                assert c.execute(text("SHOW synchronous_commit")).scalar() == "on"
        finally:
            store.close()
            engine.dispose()


def test_async_commit_is_refused_on_sqlite(tmp_path):
    from click.testing import CliRunner

    from majiang.web.cli import serve

    res = CliRunner().invoke(serve, ["--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--async-commit"])
    assert res.exit_code != 0 and "--async-commit is for PostgreSQL" in res.output


def test_listener_start_returns_once_listen_is_in_place(database_url):
    """A notification committed right after ``start`` returns is heard (the lobby loads its tables
    after ``start``: a step committed in between must reach it)."""
    _postgres_only(database_url)
    store = _store(database_url)
    loop = asyncio.new_event_loop()
    heard: list[str] = []
    listener = Listener(database_url, lambda t, p: heard.append(t), loop)
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        listener.start()
        _new_table(store, "t9")  # its notification comes from a pooled connection
        end = time.monotonic() + 5
        while time.monotonic() < end and "t9" not in heard:
            time.sleep(0.02)
        assert "t9" in heard
    finally:
        listener.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        store.engine.dispose()
