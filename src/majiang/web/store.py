"""Durable tables: every table is a row (:class:`~majiang.web.db.LiveTable`) plus its log of accepted
changes (:class:`~majiang.web.db.TableLogRow`), and a lease that says which server process runs its
clock and bots.

The log is the record: a room (:mod:`majiang.web.rooms`) appends a change in its own transaction
*before* anyone is told of it, so whatever a player saw acknowledged survives a crash, a restart
or the loss of the process; on start-up (or when another process asks for a table it has not got)
the room is rebuilt by replaying its log through the engine. ``(table_id, seq)`` is the primary
key: when two processes race for the same step, the second one's insert fails with
:class:`LogConflict`, and it catches up from the log and tries again.

With PostgreSQL, every append also sends ``NOTIFY majiang_tables, '<table id> <seq>'`` in the same
transaction, so the other processes hear of it when (and only when) it is committed
(:class:`Listener`). SQLite serves one process and needs neither.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from majiang.web.db import LiveTable, ServerHeartbeat, TableLease, TableLogRow

log = logging.getLogger("majiang.web")

CHANNEL = "majiang_tables"
#: a lease (and a heartbeat) lasts this long; the holder renews it every upkeep (2 s), so it survives
#: two missed renewals, and a table whose runner died is taken over within about 8 s
LEASE_SECONDS = 6.0
HEARTBEAT_KEEP = 3600.0  # heartbeats of processes gone for this long are deleted


_PG_APPEND = text("WITH ins AS (INSERT INTO table_log (table_id, seq, row) VALUES (:t, :s, CAST(:r AS JSON)) "
                  "RETURNING seq) SELECT pg_notify(:c, :p) FROM ins")


def _payload(table_id: str, seq: int, body: str) -> str:
    """``'<table id> <seq> <row as JSON>'`` (the row left out when too long for a notification), so
    the other processes apply the step without reading it back."""
    out = f"{table_id} {seq} {body}"
    return out if len(out.encode()) < 7800 else f"{table_id} {seq}"


class LogConflict(Exception):
    """Another process wrote this step of the table's log first."""


class TableStore:
    """The database side of the tables (see the module doc). ``owner`` names this process in leases."""

    def __init__(self, Session: sessionmaker, *, postgres: bool) -> None:
        self.Session = Session
        self.engine = Session.kw["bind"]
        self.postgres = postgres
        self.owner = f"{uuid.uuid4().hex[:12]}"
        self.started = time.time()

    # ------------------------------------------------------------------ tables
    def create(self, *, id: str, creator_id: int, creator: str, ruleset: str, rules: dict, options_text: str,
               max_hands: int | None, turn_time: float, places: list[dict]) -> None:
        with self.Session() as db:
            db.add(LiveTable(id=id, creator_id=creator_id, creator=creator, ruleset=ruleset, rules=rules,
                             options_text=options_text, max_hands=max_hands, turn_time=turn_time, status="open",
                             places=places))
            db.commit()
        self._notify_new(id)

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
        """Write step ``seq`` of the log (and the table's new status/places) in one transaction;
        :class:`LogConflict` when that step exists already."""
        values: dict[str, Any] = {}
        if status is not None:
            values["status"] = status
        if places is not None:
            values["places"] = places
        try:
            if self.postgres and not values:
                # the common case on PostgreSQL: the step and its notification in one statement,
                # one round trip in autocommit (a single statement is atomic)
                body = json.dumps(row, separators=(",", ":"))
                with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                    conn.execute(_PG_APPEND, {"t": table_id, "s": seq, "r": body, "c": CHANNEL,
                                              "p": _payload(table_id, seq, body)})
                return
            with self.engine.begin() as conn:  # Core statements: one short transaction per step
                conn.execute(insert(TableLogRow), {"table_id": table_id, "seq": seq, "row": row})
                if values:
                    conn.execute(update(LiveTable).where(LiveTable.id == table_id).values(**values))
                if self.postgres:
                    conn.execute(text("SELECT pg_notify(:c, :p)"),
                                 {"c": CHANNEL, "p": _payload(table_id, seq, json.dumps(row, separators=(",", ":")))})
        except IntegrityError:
            raise LogConflict(f"table {table_id}: step {seq} was written by another process") from None

    def unfinished_ids(self) -> list[str]:
        with self.Session() as db:
            return list(db.scalars(select(LiveTable.id).where(LiveTable.status != "finished")
                                   .order_by(LiveTable.created_at)).all())

    def listing(self) -> list[LiveTable]:
        """Tables not finished, oldest first (the lobby's list, across every process)."""
        with self.Session() as db:
            rows = db.scalars(select(LiveTable).where(LiveTable.status != "finished")
                              .order_by(LiveTable.created_at)).all()
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
    after a lost connection (and then reports every table as changed with ``'*'``)."""

    def __init__(self, url: str, callback: Callable[[str, str], None], loop: Any) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.callback = callback
        self.loop = loop
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="majiang-listen", daemon=True)
        self._conn: Any = None

    def start(self) -> None:
        self._thread.start()

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
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    self._conn = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        self.loop.call_soon_threadsafe(self.callback, "*", "")
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            tid, _, payload = n.payload.partition(" ")
                            self.loop.call_soon_threadsafe(self.callback, tid, payload)
            except Exception as e:
                if self._stop.is_set():
                    return
                log.warning("LISTEN connection lost (%s); reconnecting", e)
                time.sleep(1.0)
