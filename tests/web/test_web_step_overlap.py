"""A table's step is written without holding the event loop (issue 25, "PostgreSQL at the speed of
SQLite"): the loop serves other tables while a step's round trip is out, each table writes one step
at a time and shows it only once it is durable, and a row decided on a table that has since moved on
is not written. Run on SQLite and, with ``DATABASE_URL``, on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from majiang.engine import RuleSet
from majiang.web.rooms import Room
from majiang.web.store import LogConflict, TableStore
from web_helpers import table_store

EMPTY = [{"user_id": None, "name": "", "bot": None}] * 4


def _room(store: TableStore, tid: str) -> Room:
    store.create(id=tid, creator_id=1, creator="alice", ruleset="mcr", rules={}, options_text="",
                 max_hands=1, turn_time=30.0, places=EMPTY)
    return Room(tid, 1, "alice", RuleSet.preset("mcr"), "", 1, 30.0, store=store, hand_pause=0.0)


def _close(store: TableStore) -> None:
    store.close()
    store.engine.dispose()


def _held_room(store: TableStore) -> tuple[Room, asyncio.Event, asyncio.Event]:
    """Table t1, whose steps are durable at once (``written`` is set) but back at the table only
    once ``release`` is set."""
    written, release = asyncio.Event(), asyncio.Event()
    plain = store.queue_step

    def held(*a, **k):
        inner = plain(*a, **k)

        async def wait() -> None:
            await inner
            written.set()  # durable...
            await release.wait()  # ...and not yet back at the table

        return asyncio.ensure_future(wait())

    store.queue_step = held
    return _room(store, "t1"), written, release


def _alice_joins(room: Room) -> asyncio.Task:
    return asyncio.create_task(room.commit_async({"kind": "join", "place": 0, "user_id": 1, "name": "alice"}))


def test_a_step_out_when_its_table_stops_is_applied_all_the_same(database_url):
    """A table's task cancelled while its step is out (its lease lost, the server stopping): the
    step is written all the same, and the copy in memory applies it, never lagging its own log."""
    store = table_store(database_url)
    try:
        room, written, release = _held_room(store)

        async def main() -> bool:
            task = _alice_joins(room)
            await written.wait()
            task.cancel()
            await asyncio.sleep(0.01)
            assert room.seq == 0  # not yet back
            release.set()
            try:
                await task
            except asyncio.CancelledError:
                cancelled = True
            else:
                cancelled = False
            await store.aclose()
            return cancelled

        assert asyncio.run(main()) is True
        assert room.seq == 1 and room.places[0].user_id == 1
        assert [r["user_id"] for r in store.load("t1")[1]] == [1]
    finally:
        _close(store)


def test_a_row_found_in_the_log_while_its_write_returns_is_applied_once(database_url):
    """A row this process commits the plain way (a seat taken, a chat line) while another row of the
    same table is durable but not yet applied finds that row in the log and applies it; the
    returning write must not apply it again (the table would be one step ahead of its log)."""
    store = table_store(database_url)
    try:
        room, written, release = _held_room(store)

        async def main() -> bool:
            first = _alice_joins(room)
            await written.wait()
            room.join(1, 2, "bob")  # conflicts on step 1, catches alice's row up, writes step 2
            assert room.seq == 2
            release.set()
            try:
                return await first
            finally:
                await store.aclose()

        assert asyncio.run(main()) is True
        assert room.seq == 2
        assert [p.user_id for p in room.places] == [1, 2, None, None]
        _t, rows = store.load("t1")
        assert [(r["kind"], r["user_id"]) for r in rows] == [("join", 1), ("join", 2)]
    finally:
        _close(store)


def test_a_row_decided_before_the_table_moved_on_is_not_written(database_url):
    store = table_store(database_url)
    try:
        room = _room(store, "t1")
        room.join(0, 1, "alice")

        async def main() -> tuple[bool, bool]:
            stale = await room.commit_async({"kind": "join", "place": 1, "user_id": 2, "name": "bob"}, if_seq=0)
            fresh = await room.commit_async({"kind": "join", "place": 2, "user_id": 3, "name": "carol"}, if_seq=1)
            await store.aclose()
            return stale, fresh

        assert asyncio.run(main()) == (False, True)
        _t, rows = store.load("t1")
        assert [r["user_id"] for r in rows] == [1, 3]
        assert [p.user_id for p in room.places] == [1, None, 3, None]
    finally:
        _close(store)


def test_steps_wait_for_postgresql_off_the_loop_and_go_together(database_url):
    """PostgreSQL: while one step waits on the database (here for another process's uncommitted
    write of the same step) the loop keeps running; the steps queued meanwhile go in one statement;
    the step the other process committed is a conflict for its table alone."""
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only (DATABASE_URL): a SQLite step is written in the process")
    store = table_store(database_url)
    try:
        tables = [f"t{k}" for k in range(1, 10)]
        for t in tables:
            _room(store, t)
        other = store.engine.connect()  # another process, in the middle of writing t1's step 1
        other.execute(text("INSERT INTO table_log (table_id, seq, row) VALUES ('t1', 1, :r)"),
                      {"r": '{"kind": "bots", "bot": "random"}'})
        row = {"kind": "bots", "bot": "efficiency"}

        async def main() -> tuple[list, int, int]:
            await store._async_conn()
            statements = 0
            plain = store._aconn.execute

            async def counting(*a, **k):
                nonlocal statements
                statements += 1
                return await plain(*a, **k)

            store._aconn.execute = counting
            ticks = 0

            async def ticker() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await asyncio.sleep(0.01)

            tick = asyncio.create_task(ticker())
            first = asyncio.create_task(store.append_async("t1", 1, row))
            await asyncio.sleep(0.05)  # t1's step is out, waiting for the other writer
            rest = [asyncio.create_task(store.append_async(t, 1, row)) for t in tables[1:]]
            await asyncio.sleep(0.5)
            other.commit()  # the other process's step lands first
            results = await asyncio.gather(first, *rest, return_exceptions=True)
            tick.cancel()
            await store.aclose()
            return results, ticks, statements

        results, ticks, statements = asyncio.run(main())
        assert isinstance(results[0], LogConflict)
        assert results[1:] == [None] * 8
        assert statements == 2  # t1's alone, then the eight queued meanwhile together
        assert ticks >= 40, ticks  # the loop ran all along (100 ticks a second when free)
        assert store.load("t1")[1] == [{"kind": "bots", "bot": "random"}]
        assert all(store.load(t)[1] == [row] for t in tables[1:])
        assert not store.own_pids - {store._step_pid}  # the writer's pid left with its connection
        other.close()
    finally:
        _close(store)


def test_the_check_before_each_action_reads_the_database_off_the_loop(database_url):
    """Before each action a socket sends, its session or token is checked in the database
    (:class:`majiang.web.auth.CredentialCheck`): a live one passes, a revoked or unknown one does not,
    an anonymous socket has nothing to check; on PostgreSQL the checks asked together share one
    query on the checker's own connection."""
    from majiang.web.auth import CredentialCheck
    from majiang.web.db import ApiToken, User, UserSession

    store = table_store(database_url)
    Session = store.Session
    try:
        with Session() as db:
            db.add(User(id=1, username="alice", password_hash="x"))
            db.flush()
            db.add_all([UserSession(id="s-live", user_id=1), UserSession(id="s-gone", user_id=1, revoked=True),
                        ApiToken(id="t-live", user_id=1), ApiToken(id="t-gone", user_id=1, revoked=True)])
            db.commit()
        check = CredentialCheck(Session, database_url)
        asked = [("session", "s-live"), ("session", "s-gone"), ("token", "t-live"), ("token", "t-gone"),
                 ("session", "t-live"), ("session", "nobody"), None]

        async def main() -> tuple[list[bool], int]:
            queries = 0
            if check.url is not None:
                import psycopg

                conn = check._conn = await psycopg.AsyncConnection.connect(check.url, autocommit=True)
                plain = conn.execute

                async def counting(*a, **k):
                    nonlocal queries
                    queries += 1
                    return await plain(*a, **k)

                conn.execute = counting
            out = await asyncio.gather(*(check.live(c) for c in asked))
            await check.aclose()
            return list(out), queries

        results, queries = asyncio.run(main())
        assert results == [True, False, True, False, False, False, True]
        if check.url is not None:
            assert queries == 1  # six checks asked at once, one round trip
    finally:
        _close(store)
