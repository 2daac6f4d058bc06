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
from web_helpers import table_store

ROW = {"kind": "act", "seat": 2, "action": ["discard", 23, None], "by": "bot"}


def _store(url: str) -> TableStore:
    return table_store(url)


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


def _loop_thread():
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    return loop, runner


def _wait(cond, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not cond():
        time.sleep(0.02)
    time.sleep(0.2)  # and whatever else was on its way


def test_steps_are_notified_only_while_another_process_listens(database_url):
    """A process alone on the database sends no notification for its steps (its own listener
    would only drop them); once another process listens, it does, and its own listener drops them
    on its thread. A connection that listens without being a server's listener sees what is sent."""
    _postgres_only(database_url)
    import psycopg

    mine, theirs = _store(database_url), _store(database_url)  # two processes' stores
    loop, runner = _loop_thread()
    heard_mine: list[tuple[str, str]] = []
    heard_theirs: list[tuple[str, str]] = []
    l_mine = Listener(database_url, lambda t, p: heard_mine.append((t, p)), loop, skip_pids=mine.own_pids)
    l_theirs = Listener(database_url, lambda t, p: heard_theirs.append((t, p)), loop, skip_pids=theirs.own_pids)
    bystander = psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True, application_name="bystander")
    sent: list[str] = []

    def drain() -> None:
        sent.extend(n.payload.split(" ")[1] for n in bystander.notifies(timeout=0.5))

    try:
        bystander.execute("LISTEN majiang_tables")
        bystander.execute("SELECT 1")  # its last statement is no LISTEN: it counts as no server
        l_mine.start()
        _new_table(theirs, "t1")  # a new table is always announced
        mine.append("t1", 1, ROW)  # no other server listens: not sent
        theirs.append("t1", 2, ROW)  # mine listens: sent
        _wait(lambda: any(p.startswith("2 ") for _, p in heard_mine))
        drain()
        assert sent == ["0", "2"]
        assert [p.split(" ")[0] for _, p in heard_mine] == ["0", "2"]
        assert heard_mine[-1][1].split(" ", 1)[1] == '{"kind":"act","seat":2,"action":["discard",23,null],"by":"bot"}'
        assert l_mine.skipped == 0
        l_theirs.start()  # now another process listens: mine's steps are sent
        mine.append("t1", 3, ROW)
        _wait(lambda: any(p.startswith("3 ") for _, p in heard_theirs))
        drain()
        assert sent == ["0", "2", "3"]
        assert [p.split(" ")[0] for _, p in heard_theirs] == ["3"]
        assert l_mine.skipped == 1 and [p.split(" ")[0] for _, p in heard_mine] == ["0", "2"]
        l_theirs.stop()
        _wait(lambda: False, 0.5)
        mine.append("t1", 4, ROW)  # alone again once the other's listener is gone
        drain()
        assert sent == ["0", "2", "3"]
    finally:
        bystander.close()
        for lis in (l_mine, l_theirs):
            lis.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        for st in (mine, theirs):
            st.close()
            st.engine.dispose()


def test_a_step_on_sqlite_is_one_short_transaction(database_url):
    if database_url.startswith("postgresql"):
        pytest.skip("SQLite only")
    store = _store(database_url)
    _new_table(store, "t1")
    store.append("t1", 1, ROW)
    statements: list[str] = []  # what SQLite itself runs on the held step connection
    store._step_raw.set_trace_callback(statements.append)
    store.append("t1", 2, {"kind": "start", "seed": 1}, status="playing")
    assert [x.split()[0] for x in statements] == ["BEGIN", "INSERT", "UPDATE", "COMMIT"], statements
    with pytest.raises(LogConflict):
        store.append("t1", 2, ROW, status="finished")
    with store.Session() as db:
        assert db.get(LiveTable, "t1").status == "playing"
        assert [r.row for r in db.scalars(select(TableLogRow).order_by(TableLogRow.seq))] == [
            ROW, {"kind": "start", "seed": 1}]
    store.append("t1", 3, ROW)  # the connection goes on after a conflict
    store.close()
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


def test_a_new_listener_waits_for_the_steps_being_written(database_url):
    """A step that found no other listener sends no notification: a process starting meanwhile
    must see it in the log, so its listener's start waits until the steps being written are
    committed, and only then does the process load any table."""
    _postgres_only(database_url)
    import psycopg

    store = _store(database_url)
    _new_table(store, "t1")
    writer = psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True)
    loop, runner = _loop_thread()
    listener = Listener(database_url, lambda t, p: None, loop)
    try:
        writer.execute("BEGIN")
        writer.execute("INSERT INTO table_log (table_id, seq, row) VALUES ('t1', 1, '{}')")  # in flight
        starting = threading.Thread(target=listener.start, kwargs={"wait": 20.0})
        starting.start()
        time.sleep(1.0)
        assert starting.is_alive() and not listener._listening.is_set()
        writer.execute("COMMIT")
        starting.join(10)
        assert not starting.is_alive() and listener._listening.is_set()
    finally:
        writer.close()
        listener.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        store.engine.dispose()
