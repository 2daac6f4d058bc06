"""Durable tables: every table is a row (:class:`~majiang.web.db.LiveTable`) plus its log of accepted
changes (:class:`~majiang.web.db.TableLogRow`), and a lease that says which server process runs its
clock and bots.

The log is the record: a room (:mod:`majiang.web.rooms`) appends a change in its own transaction
*before* anyone is told of it, so whatever a player saw acknowledged survives a crash, a restart
or the loss of the process; on start-up (or when another process asks for a table it has not got)
the room is rebuilt by replaying its log through the engine. ``(table_id, seq)`` is the primary
key: when two processes race for the same step, the second one's insert fails with
:class:`LogConflict`, and it catches up from the log and tries again.

With PostgreSQL, every append also sends ``NOTIFY majiang_tables, '<table id> <seq> <row>'`` in the
same statement, so the other processes hear of it when (and only when) it is committed
(:class:`Listener`), and only while another process listens (a server alone sends none).
SQLite serves one process and needs neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from majiang.web.db import LiveTable, ServerHeartbeat, TableLease, TableLogRow

log = logging.getLogger("majiang.web")

CHANNEL = "majiang_tables"
#: a lease (and a heartbeat) lasts this long; the holder renews it every upkeep (2 s), so it survives
#: two missed renewals, and a table whose runner died is taken over within about 8 s
LEASE_SECONDS = 6.0
HEARTBEAT_KEEP = 3600.0  # heartbeats of processes gone for this long are deleted
LISTENER_NAME = "majiang-listen"
"""The ``application_name`` of every process's listening connection: a step is notified only while
another process's listener is connected (:func:`_pg_append`)."""


def _pg_append(status: bool, places: bool) -> str:
    """The step as one PostgreSQL statement (psycopg's ``%(name)s`` parameters): the log row, the
    table's new status and/or places when given, and the notification, in one round trip. A single
    statement is atomic, so it runs in autocommit, with no transaction around it; every
    data-modifying ``WITH`` part runs whether or not the final ``SELECT`` reads it, and a
    conflicting step fails the whole statement."""
    sets = ([("status", "%(st)s")] if status else []) + ([("places", "CAST(%(pl)s AS JSON)")] if places else [])
    upd = ""
    if sets:
        upd = (", upd AS (UPDATE live_tables SET " + ", ".join(f"{c} = {v}" for c, v in sets)
               + " WHERE id = %(t)s)")
    return ("WITH ins AS (INSERT INTO table_log (table_id, seq, row) VALUES (%(t)s, %(s)s, CAST(%(r)s AS JSON)) "
            "RETURNING seq)" + upd + " SELECT pg_notify(%(c)s, %(p)s) FROM ins WHERE " + _OTHERS_LISTEN)


_OTHERS_LISTEN = (f"EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
                  f"AND NOT (pid = ANY(%(mine)s)) "
                  f"AND (application_name = '{LISTENER_NAME}' OR query = 'LISTEN {CHANNEL}'))")
"""Whether a listening connection of another process is connected to this database: ours are named
:data:`LISTENER_NAME` (older servers' are known by their last statement, ``LISTEN``); this
process's own (its pids in ``mine``) does not count. A server alone on its database then sends no
notification, which its own listener would only wake up for and drop. No step is missed by a
process that starts meanwhile: its listener is visible here from the moment it connects, and before
it loads any table it waits, by a lock, for the steps that were already being written
(:meth:`Listener._barrier`)."""


_PG_APPEND = {(st, pl): _pg_append(st, pl) for st in (False, True) for pl in (False, True)}


_PG_APPEND_MANY = (
    "WITH v AS (SELECT * FROM unnest(CAST(%(t)s AS text[]), CAST(%(s)s AS integer[]), CAST(%(r)s AS text[]), "
    "CAST(%(p)s AS text[])) AS v(t, s, r, p)), "
    "ins AS (INSERT INTO table_log (table_id, seq, row) SELECT t, s, CAST(r AS JSON) FROM v "
    "ON CONFLICT DO NOTHING RETURNING table_id, seq) "
    "SELECT ins.table_id, ins.seq, CASE WHEN " + _OTHERS_LISTEN + " THEN pg_notify(%(c)s, v.p) END "
    "FROM ins JOIN v ON v.t = ins.table_id AND v.s = ins.seq")
"""Steps of several tables (none changing its table's row) as one statement: arrays of table ids,
steps, rows and notification payloads; it returns the steps written (one another process wrote
first is skipped, and so is its notification) and notifies each written step while another
process listens (:data:`_OTHERS_LISTEN`)."""


def _settle(fut: Any, error: BaseException | None) -> None:
    """Resolve a queued step's future (unless its table stopped waiting for it)."""
    if not fut.done():
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)


def _payload(table_id: str, seq: int, body: str) -> str:
    """``'<table id> <seq> <row as JSON>'`` (the row left out when too long for a notification), so
    the other processes apply the step without reading it back."""
    out = f"{table_id} {seq} {body}"
    return out if len(out.encode()) < 7800 else f"{table_id} {seq}"


class RoomNumberTaken(Exception):
    """Another unfinished table has this room number (a new one is drawn)."""


class LogConflict(Exception):
    """Another process wrote this step of the table's log first."""


class TableStore:
    """The database side of the tables (see the module doc). ``owner`` names this process in leases.

    ``async_commit`` (PostgreSQL, ``majiang serve --async-commit``): the steps are committed with
    ``synchronous_commit = off`` on the step connection, so a step returns without waiting for
    PostgreSQL to flush its write-ahead log to disk. A crash of majiang still loses nothing; a crash
    of PostgreSQL or of its machine can lose the steps of the last moments (up to three times
    ``wal_writer_delay``, 0.6 s by default), which players may already have seen. Off by default:
    an acknowledged step is then on disk."""

    def __init__(self, Session: sessionmaker, *, postgres: bool, async_commit: bool = False) -> None:
        self.Session = Session
        self.engine = Session.kw["bind"]
        self.postgres = postgres
        self.async_commit = async_commit and postgres
        self.owner = f"{uuid.uuid4().hex[:12]}"
        self.started = time.time()
        #: PostgreSQL: the connection the steps are written on, held for the life of the store (see
        #: :meth:`append`); its backend's pid is in :attr:`own_pids`
        self._step_conn: Connection | None = None
        self._step_raw: Any = None
        self._step_pid = 0
        self._step_lock = threading.Lock()
        #: backend pids of this process's step connections and listening connection: the
        #: :class:`Listener` drops the notifications they sent, and a step is notified only if a
        #: listener not among them is connected. Whatever such a backend sent came from this
        #: process (the steps it applied before anyone heard of them, or a new or finished table
        #: of its own sent while the connection was still in the pool), so this process need not
        #: hear it.
        self.own_pids: set[int] = set()
        #: PostgreSQL: the steps waiting for :meth:`queue_step`'s writer task (each with the
        #: future its table awaits), the task while it runs, and its asyncio connection
        self._queue: list[tuple[dict[str, Any], Any]] = []
        self._writing: Any = None
        self._aconn: Any = None
        self._aconn_pid = 0

    # ------------------------------------------------------------------ tables
    def create(self, *, id: str, creator_id: int, creator: str, ruleset: str, rules: dict, options_text: str,
               max_hands: int | None, turn_time: float, places: list[dict], room: str | None = None,
               private: bool = False, quick: bool = False, reserve_time: float = 0.0) -> None:
        """Write a new table's row. :class:`RoomNumberTaken` when ``room`` is the number of another
        unfinished table (the partial unique index ``ix_live_tables_room_open``): draw another."""
        with self.Session() as db:
            db.add(LiveTable(id=id, creator_id=creator_id, creator=creator, ruleset=ruleset, rules=rules,
                             options_text=options_text, max_hands=max_hands, turn_time=turn_time,
                             reserve_time=reserve_time, status="open",
                             places=places, room=room, private=private, quick=quick))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                raise RoomNumberTaken(f"room number {room} is in use") from None
        self._notify_new(id)

    def table_of_room(self, room: str) -> str | None:
        """The id of the unfinished table numbered ``room``, else ``None``."""
        with self.Session() as db:
            return db.scalar(select(LiveTable.id).where(LiveTable.room == room, LiveTable.status != "finished"))

    def quick_tables(self, ruleset: str) -> list[str]:
        """Ids of the open (not started) public quick-start tables of ``ruleset``, oldest first."""
        with self.Session() as db:
            return list(db.scalars(select(LiveTable.id).where(
                LiveTable.status == "open", LiveTable.quick.is_(True), LiveTable.private.is_(False),
                LiveTable.ruleset == ruleset).order_by(LiveTable.created_at)).all())

    def load(self, table_id: str) -> tuple[LiveTable, list[dict]] | None:
        """The table's row and its whole log (rows in ``seq`` order), or ``None``."""
        with self.Session() as db:
            t = db.get(LiveTable, table_id)
            if t is None:
                return None
            rows = db.scalars(select(TableLogRow.row).where(TableLogRow.table_id == table_id)
                              .order_by(TableLogRow.seq)).all()
            db.expunge(t)
            return t, list(rows)

    def rows_after(self, table_id: str, seq: int) -> list[dict]:
        with self.Session() as db:
            return list(db.scalars(select(TableLogRow.row).where(TableLogRow.table_id == table_id,
                                                                 TableLogRow.seq > seq)
                                   .order_by(TableLogRow.seq)).all())

    def append(self, table_id: str, seq: int, row: dict, *, status: str | None = None,
               places: list[dict] | None = None) -> None:
        """Write step ``seq`` of the log (and the table's new status/places) atomically;
        :class:`LogConflict` when that step exists already. It returns once the step is committed.

        On PostgreSQL a step is one statement in one round trip (the row, the table's row when it
        changes, and ``NOTIFY``: :func:`_pg_append`) on a connection this store holds, instead of
        a pool checkout, an isolation-level switch and a reset per step; on SQLite it is one short
        transaction."""
        try:
            if self.postgres:
                body = json.dumps(row, separators=(",", ":"))
                params: dict[str, Any] = {"t": table_id, "s": seq, "r": body, "c": CHANNEL,
                                          "p": _payload(table_id, seq, body), "mine": list(self.own_pids)}
                if status is not None:
                    params["st"] = status
                if places is not None:
                    params["pl"] = json.dumps(places, separators=(",", ":"))
                self._step_execute(_PG_APPEND[status is not None, places is not None], params)
                return
            self._sqlite_step(table_id, seq, json.dumps(row, separators=(",", ":")), status,
                              None if places is None else json.dumps(places, separators=(",", ":")))
        except IntegrityError:
            raise LogConflict(f"table {table_id}: step {seq} was written by another process") from None

    async def append_async(self, table_id: str, seq: int, row: dict, *, status: str | None = None,
                           places: list[dict] | None = None) -> None:
        """:meth:`append` without holding the event loop while PostgreSQL commits the step, and with
        the steps that arrive meanwhile committed together (:meth:`queue_step`, awaited)."""
        await self.queue_step(table_id, seq, row, status=status, places=places)

    def queue_step(self, table_id: str, seq: int, row: dict, *, status: str | None = None,
                   places: list[dict] | None = None) -> asyncio.Future:
        """Queue step ``seq`` of the log (as :meth:`append`) and return a future that is done when it
        is committed (its exception :class:`LogConflict` when that step exists already). One writer
        task empties the queue, a whole queue in one statement (:data:`_PG_APPEND_MANY`) on its own
        asyncio connection, while the loop serves the tables. Each table still writes one step at a
        time (:meth:`majiang.web.room_log.RoomLog.commit_async` holds it until its step is durable),
        so the steps of one batch are of different tables; a step another process wrote first is a
        conflict for that step alone. The write goes on if the future's awaiter is cancelled. On
        SQLite the step is written at once by :meth:`append` (in the process, nothing to overlap)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if not self.postgres:
            try:
                self.append(table_id, seq, row, status=status, places=places)
            except Exception as e:
                fut.set_exception(e)
            else:
                fut.set_result(None)
            return fut
        body = json.dumps(row, separators=(",", ":"))
        item: dict[str, Any] = {"t": table_id, "s": seq, "r": body, "c": CHANNEL,
                                "p": _payload(table_id, seq, body)}
        if status is not None:
            item["st"] = status
        if places is not None:
            item["pl"] = json.dumps(places, separators=(",", ":"))
        self._queue.append((item, fut))
        if self._writing is None:
            self._writing = loop.create_task(self._write_queue(), name="majiang-steps")
        return fut

    #: at most this many steps in one statement of :meth:`append_async`
    BATCH = 256

    async def _write_queue(self) -> None:
        """Write the queued steps, a batch per statement, until the queue is empty."""
        try:
            while self._queue:
                batch, self._queue = self._queue[:self.BATCH], self._queue[self.BATCH:]
                try:
                    conn = await self._async_conn()
                    plain = [(i, f) for i, f in batch if "st" not in i and "pl" not in i]
                    if plain:
                        cur = await conn.execute(_PG_APPEND_MANY, {
                            "t": [i["t"] for i, _ in plain], "s": [i["s"] for i, _ in plain],
                            "r": [i["r"] for i, _ in plain], "p": [i["p"] for i, _ in plain],
                            "c": CHANNEL, "mine": list(self.own_pids)})
                        done = {(r[0], r[1]) for r in await cur.fetchall()}
                        for i, f in plain:
                            _settle(f, None if (i["t"], i["s"]) in done else LogConflict(
                                f"table {i['t']}: step {i['s']} was written by another process"))
                    for i, f in batch:  # a seat or the start: the table's row changes too (rare)
                        if "st" in i or "pl" in i:
                            try:
                                await conn.execute(_PG_APPEND["st" in i, "pl" in i], dict(i, mine=list(self.own_pids)))
                            except Exception as e:
                                if getattr(e, "sqlstate", None) != "23505":
                                    raise
                                _settle(f, LogConflict(f"table {i['t']}: step {i['s']} was written by "
                                                       "another process"))
                            else:
                                _settle(f, None)
                except Exception as e:  # the steps may or may not be committed: see _step_execute
                    await self._drop_async_conn()
                    for _i, f in batch:
                        _settle(f, e)
        finally:
            self._writing = None

    async def _async_conn(self) -> Any:
        if self._aconn is None:
            import psycopg

            url = self.engine.url.render_as_string(hide_password=False)
            conn = await psycopg.AsyncConnection.connect(url.replace("postgresql+psycopg://", "postgresql://", 1),
                                                         autocommit=True)
            if self.async_commit:
                await conn.execute("SET synchronous_commit = off")
            self._aconn, self._aconn_pid = conn, conn.info.backend_pid
            self.own_pids.add(self._aconn_pid)
        return self._aconn

    async def _drop_async_conn(self) -> None:
        """Give the writer's connection up (after an error, never reused; at shutdown): its pid
        leaves :attr:`own_pids`, so the notifications it may have sent are heard again."""
        conn, self._aconn = self._aconn, None
        if conn is None:
            return
        self.own_pids.discard(self._aconn_pid)
        with contextlib.suppress(Exception):
            await conn.close()

    async def aclose(self) -> None:
        """Close the writer's connection, once the steps queued are written (at shutdown)."""
        if self._writing is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._writing)
        await self._drop_async_conn()

    def _sqlite_step(self, table_id: str, seq: int, body: str, status: str | None, places: str | None) -> None:
        """SQLite: the step as one short transaction on the held step connection, through the
        sqlite3 module directly (the same statements through SQLAlchemy Core, a transaction and two
        compiled statements per step, were a quarter of the event loop's time at 200 tables). The
        JSON columns hold the same text the ORM writes and reads."""
        with self._step_lock:
            if self._step_conn is None:
                conn = self.engine.connect()
                self._step_raw = conn.connection.driver_connection
                self._step_conn = conn
            raw = self._step_raw
            try:
                raw.execute("INSERT INTO table_log (table_id, seq, row) VALUES (?, ?, ?)", (table_id, seq, body))
                if status is not None:
                    raw.execute("UPDATE live_tables SET status = ? WHERE id = ?", (status, table_id))
                if places is not None:
                    raw.execute("UPDATE live_tables SET places = ? WHERE id = ?", (places, table_id))
                raw.commit()
            except sqlite3.IntegrityError:
                raw.rollback()
                raise LogConflict(f"table {table_id}: step {seq} was written by another process") from None
            except Exception:
                with contextlib.suppress(Exception):
                    raw.rollback()
                self._close_step_conn()
                raise

    def _step_execute(self, statement: str, params: dict[str, Any]) -> None:
        """Run one autocommit statement on the held step connection: a connection of the engine's
        pool, checked out once (on first use, and again after an error: a connection that failed
        is given up, never reused) and driven through psycopg directly, which costs less than
        half the client CPU of a Core statement. A lock makes it safe from any thread; the steps
        come from the event loop's thread."""
        with self._step_lock:
            if self._step_conn is None:
                conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                self._step_raw = conn.connection.driver_connection
                if self.async_commit:
                    self._step_raw.execute("SET synchronous_commit = off")
                self._step_pid = self._step_raw.info.backend_pid
                self.own_pids.add(self._step_pid)
                self._step_conn = conn
            try:
                self._step_raw.execute(statement, params)
            except Exception as e:
                if getattr(e, "sqlstate", None) == "23505":  # unique_violation: the step exists
                    raise LogConflict(f"table {params['t']}: step {params['s']} was written by "
                                      "another process") from None
                # the step may or may not be committed: the connection is given up, and the
                # notifications its backend sent are heard again (a committed step is then caught
                # up from the log)
                self._close_step_conn()
                raise

    def _close_step_conn(self) -> None:
        conn, self._step_conn, self._step_raw = self._step_conn, None, None
        if conn is None:
            return
        self.own_pids.discard(self._step_pid)
        with contextlib.suppress(Exception):
            conn.invalidate()  # closed, not given back to the pool in an unknown state
        with contextlib.suppress(Exception):
            conn.close()

    def close(self) -> None:
        """Close the held step connection (before the engine is disposed)."""
        with self._step_lock:
            self._close_step_conn()

    def unfinished_ids(self) -> list[str]:
        with self.Session() as db:
            return list(db.scalars(select(LiveTable.id).where(LiveTable.status != "finished")
                                   .order_by(LiveTable.created_at)).all())

    def listing(self, *, private: bool = False) -> list[LiveTable]:
        """Tables not finished, oldest first (the lobby's list, across every process); private
        tables only when ``private`` is true."""
        with self.Session() as db:
            q = select(LiveTable).where(LiveTable.status != "finished")
            if not private:
                q = q.where(LiveTable.private.is_(False))
            rows = db.scalars(q.order_by(LiveTable.created_at)).all()
            for r in rows:
                db.expunge(r)
            return list(rows)

    def count_unfinished(self, creator_id: int | None = None) -> int:
        with self.Session() as db:
            q = select(func.count()).select_from(LiveTable).where(LiveTable.status != "finished")
            if creator_id is not None:
                q = q.where(LiveTable.creator_id == creator_id)
            return int(db.scalar(q) or 0)

    def created_since(self, creator_id: int, since: float) -> int:
        import datetime as dt

        cutoff = dt.datetime.fromtimestamp(since, dt.timezone.utc).replace(tzinfo=None)
        with self.Session() as db:
            return int(db.scalar(select(func.count()).select_from(LiveTable)
                                 .where(LiveTable.creator_id == creator_id, LiveTable.created_at >= cutoff)) or 0)

    def _owned(self, owner_id: int) -> Any:
        """The creator ids that count as ``owner_id``'s: the person and every bot account they own
        (deleted ones included: their unfinished tables still stand)."""
        from majiang.web.db import User

        return select(User.id).where((User.id == owner_id) | (User.owner_id == owner_id))

    def count_unfinished_owned(self, owner_id: int) -> int:
        """Unfinished tables created by ``owner_id`` or by any of their bot accounts."""
        with self.Session() as db:
            return int(db.scalar(select(func.count()).select_from(LiveTable)
                                 .where(LiveTable.status != "finished",
                                        LiveTable.creator_id.in_(self._owned(owner_id)))) or 0)

    def created_since_owned(self, owner_id: int, since: float) -> int:
        """Tables created since ``since`` (epoch seconds) by ``owner_id`` or their bot accounts."""
        import datetime as dt

        cutoff = dt.datetime.fromtimestamp(since, dt.timezone.utc).replace(tzinfo=None)
        with self.Session() as db:
            return int(db.scalar(select(func.count()).select_from(LiveTable)
                                 .where(LiveTable.creator_id.in_(self._owned(owner_id)),
                                        LiveTable.created_at >= cutoff)) or 0)

    def drop_stale_open(self, older_than: float) -> int:
        """Delete tables never started and older than ``older_than`` seconds."""
        import datetime as dt

        cutoff = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None) - dt.timedelta(seconds=older_than)
        with self.Session() as db:
            ids = list(db.scalars(select(LiveTable.id).where(LiveTable.status == "open",
                                                            LiveTable.created_at < cutoff)).all())
            if ids:  # a table that started meanwhile is kept (the status is checked again)
                still = select(LiveTable.id).where(LiveTable.id.in_(ids), LiveTable.status == "open")
                db.execute(delete(TableLogRow).where(TableLogRow.table_id.in_(still)))
                n = db.execute(delete(LiveTable).where(LiveTable.id.in_(ids), LiveTable.status == "open")).rowcount
                db.commit()
                return int(n)
            return 0

    # ------------------------------------------------------------------ finishing
    def finish(self, table_id: str, store_game: Callable[[Any], int]) -> int | None:
        """Mark the table finished and store its game, once: ``store_game(db)`` adds the game in the
        same transaction and returns its id. ``None`` if another process did it already (its id
        is then read back)."""
        with self.Session() as db:
            res = db.execute(update(LiveTable).where(LiveTable.id == table_id, LiveTable.game_id.is_(None))
                             .values(status="finished", game_id=-1))
            if res.rowcount != 1:
                db.rollback()
                return None
            gid = store_game(db)
            db.execute(update(LiveTable).where(LiveTable.id == table_id).values(game_id=gid))
            if self.postgres:
                db.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id} finished"})
            db.commit()
            return gid

    def game_id(self, table_id: str) -> int | None:
        with self.Session() as db:
            gid = db.scalar(select(LiveTable.game_id).where(LiveTable.id == table_id))
            return gid if gid is not None and gid > 0 else None

    # ------------------------------------------------------------------ leases
    def acquire(self, table_id: str, *, seconds: float = LEASE_SECONDS) -> bool:
        """Take or renew the lease of a table; ``False`` while another process holds a live one.
        With SQLite there is only this process: a lease left by a process that died is taken at once."""
        now = time.time()
        with self.Session() as db:
            cond = (TableLease.owner == self.owner) | (TableLease.expires < now)
            if not self.postgres:
                cond = TableLease.table_id == table_id
            res = db.execute(update(TableLease).where(TableLease.table_id == table_id, cond)
                             .values(owner=self.owner, expires=now + seconds))
            if res.rowcount == 1:
                db.commit()
                return True
            if db.get(TableLease, table_id) is not None:
                db.rollback()
                return False
            db.add(TableLease(table_id=table_id, owner=self.owner, expires=now + seconds))
            try:
                db.commit()
                return True
            except IntegrityError:
                db.rollback()
                return False

    def renew(self, table_ids: Iterable[str], *, seconds: float = LEASE_SECONDS) -> set[str]:
        """Renew this process's leases; returns the ids whose lease it still holds."""
        ids = list(table_ids)
        if not ids:
            return set()
        now = time.time()
        with self.Session() as db:
            db.execute(update(TableLease).where(TableLease.table_id.in_(ids), TableLease.owner == self.owner)
                       .values(expires=now + seconds))
            held = set(db.scalars(select(TableLease.table_id).where(TableLease.table_id.in_(ids),
                                                                    TableLease.owner == self.owner)).all())
            db.commit()
            return held

    def release(self, table_ids: Iterable[str]) -> None:
        """Give up this process's leases of these tables (another process's lease is never touched)."""
        ids = list(table_ids)
        if not ids:
            return
        with self.Session() as db:
            db.execute(delete(TableLease).where(TableLease.table_id.in_(ids), TableLease.owner == self.owner))
            db.commit()

    def claimable_ids(self) -> list[str]:
        """Unfinished tables, oldest first, whose lease this process holds or may take: none, a
        lapsed one, or its own. With SQLite (one process) every unfinished table."""
        if not self.postgres:
            return self.unfinished_ids()
        now = time.time()
        with self.Session() as db:
            q = (select(LiveTable.id).outerjoin(TableLease, TableLease.table_id == LiveTable.id)
                 .where(LiveTable.status != "finished",
                        TableLease.table_id.is_(None) | (TableLease.expires < now) | (TableLease.owner == self.owner))
                 .order_by(LiveTable.created_at))
            return list(db.scalars(q).all())

    def lease_counts(self) -> dict[str, int]:
        """Live leases of unfinished tables per owner (process)."""
        now = time.time()
        with self.Session() as db:
            q = (select(TableLease.owner, func.count()).join(LiveTable, LiveTable.id == TableLease.table_id)
                 .where(TableLease.expires >= now, LiveTable.status != "finished").group_by(TableLease.owner))
            return {o: int(n) for o, n in db.execute(q).all()}

    # ------------------------------------------------------------------ heartbeats
    def beat(self) -> None:
        """Say this process is alive (``server_heartbeats``); heartbeats long gone are deleted."""
        import os
        import socket

        now = time.time()
        with self.Session() as db:
            res = db.execute(update(ServerHeartbeat).where(ServerHeartbeat.owner == self.owner).values(seen=now))
            if res.rowcount != 1:
                db.add(ServerHeartbeat(owner=self.owner, seen=now, started=self.started, pid=os.getpid(),
                                       host=socket.gethostname()[:255]))
            db.execute(delete(ServerHeartbeat).where(ServerHeartbeat.seen < now - HEARTBEAT_KEEP))
            db.commit()

    def live_owners(self) -> set[str]:
        """The processes seen within a lease's length (this one always counts)."""
        cutoff = time.time() - LEASE_SECONDS
        with self.Session() as db:
            owners = set(db.scalars(select(ServerHeartbeat.owner).where(ServerHeartbeat.seen >= cutoff)).all())
        return owners | {self.owner}

    def stop_beating(self) -> None:
        """This process stops (gracefully): its heartbeat goes, so the others share the tables at once."""
        with self.Session() as db:
            db.execute(delete(ServerHeartbeat).where(ServerHeartbeat.owner == self.owner))
            db.commit()

    def _notify_new(self, table_id: str) -> None:
        if not self.postgres:
            return
        with self.Session() as db:
            db.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id} 0"})
            db.commit()


class Listener:
    """PostgreSQL ``LISTEN majiang_tables`` on a thread of its own: each notification
    ``'<table id> <seq> [<row>]'`` is handed to ``callback(table_id, payload)`` on the event loop. Reconnects
    after a lost connection (and then reports every table as changed with ``'*'``).

    Notifications sent by a backend in ``skip_pids`` (this process's own step connection,
    :attr:`TableStore.own_pids`) are dropped on the listening thread: this process applied those
    steps itself, so handing them to the event loop would only cost it a callback per step. The
    listening connection's own pid joins ``skip_pids`` while it is connected, so this process's
    steps do not count it as another process listening (``_OTHERS_LISTEN``)."""

    def __init__(self, url: str, callback: Callable[[str, str], None], loop: Any,
                 skip_pids: set[int] | None = None) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.callback = callback
        self.loop = loop
        self.skip_pids = skip_pids if skip_pids is not None else set()
        self.heard = 0  # notifications handed to the event loop
        self.skipped = 0  # own notifications dropped
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="majiang-listen", daemon=True)
        self._conn: Any = None
        self._listening = threading.Event()

    def start(self, wait: float = 10.0) -> None:
        """Start listening, and return once ``LISTEN`` is in place (or ``wait`` seconds have
        passed): the tables this process loads afterwards then miss no step committed later."""
        self._thread.start()
        self._listening.wait(wait)

    def stop(self) -> None:
        self._stop.set()
        c = self._conn
        if c is not None:
            try:
                c.close()
            except Exception:  # pragma: no cover - closing a broken connection
                pass

    def _run(self) -> None:
        import psycopg

        first = True
        pid = 0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, application_name=LISTENER_NAME) as conn:
                    self._conn = conn
                    pid = conn.info.backend_pid
                    self.skip_pids.add(pid)
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._barrier(conn)
                    self._listening.set()
                    if not first:
                        self.loop.call_soon_threadsafe(self.callback, "*", "")
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            if n.pid in self.skip_pids:
                                self.skipped += 1
                                continue
                            self.heard += 1
                            tid, _, payload = n.payload.partition(" ")
                            self.loop.call_soon_threadsafe(self.callback, tid, payload)
            except Exception as e:
                if self._stop.is_set():
                    return
                log.warning("LISTEN connection lost (%s); reconnecting", e)
                time.sleep(1.0)
            finally:
                if pid:
                    self.skip_pids.discard(pid)
                    pid = 0

    @staticmethod
    def _barrier(conn: Any) -> None:
        """Wait for the steps other processes were writing when this listener connected: they may
        have found no other listener and sent no notification, so they must be committed before
        this process reads any table. ``SHARE`` mode waits for every open insert into the log and
        holds new ones back only for this one short transaction."""
        import psycopg

        try:
            with conn.transaction():
                conn.execute("LOCK TABLE table_log IN SHARE MODE")
        except psycopg.errors.UndefinedTable:  # no schema yet: no step either
            pass
