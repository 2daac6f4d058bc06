"""The tables a process knows and keeps (:class:`Lobby`): loading them from the database, the
leases that say which process runs each, and the upkeep (heartbeat, renewals, watchdog) that leaves
no table without a keeper."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from majiang.engine import RuleSet
from majiang.errors import MajiangError
from majiang.web.rooms import CLAIM_PAUSE, HAND_PAUSE, IDLE_OPEN, Room, RoomError

QUICK_WAIT = 20.0  # seconds a quick-start table waits for people before bots take the empty seats
from majiang.web.store import RoomNumberTaken, TableStore

log = logging.getLogger("majiang.web")


class Lobby:
    """The tables this process knows, backed by the database (:class:`TableStore`).

    Every unfinished table of the database is served by every process (loaded on first use);
    the one holding its lease runs it. ``max_tables`` counts unfinished tables only; a finished
    table frees its bots and engine at once and is forgotten from memory a minute later (its game
    is in the database).

    **Keepers.** Every ``UPKEEP`` seconds each process says it is alive (a heartbeat), renews its
    leases and acts as a watchdog: it takes every unfinished table whose lease is missing or lapsed
    (loading it if need be), stores a finished game nobody stored, deals a full table nobody dealt,
    so no table stays frozen while any process runs. With PostgreSQL the tables are shared among the
    live processes (those whose heartbeat is fresh): a process takes free tables only up to its
    share, ``ceil(unfinished / live processes)``, and beyond it only a table left free for
    ``GRACE`` seconds of its own watching (so a lapsed table is always taken by someone, first by a
    process under its share); a process over its share hands the extra tables to processes under
    theirs (it stops running them and gives up their leases); a new process announces itself and
    waits one upkeep before taking anything, so processes starting together see each other.
    """

    UPKEEP = 2.0  # seconds between upkeeps (heartbeat, lease renewal, watchdog)
    GRACE = 2 * UPKEEP  # a free table waits this long for a process under its share

    def __init__(self, *, bot_delay: float = 0.0, store: TableStore | None = None,
                 hand_pause: float = HAND_PAUSE, on_finish: Callable[[Room], Any] | None = None,
                 claim_pause: float = CLAIM_PAUSE, idle_open: float = IDLE_OPEN,
                 quick_wait: float = QUICK_WAIT) -> None:
        self.rooms: dict[str, Room] = {}
        self.quick_wait = quick_wait  # seconds a quick-start table waits for people before bots sit
        self.idle_open = idle_open  # seconds a table may stay unstarted before it is closed
        self._idle_checked = 0.0
        self.claim_pause = claim_pause
        self.bot_delay = bot_delay
        self.store = store
        self.hand_pause = hand_pause
        self.on_finish = on_finish
        self._task: asyncio.Task | None = None
        self._upkeeps = 0
        self._free_since: dict[str, float] = {}  # free tables -> when this process first saw them free
        self._renewed = 0.0  # monotonic time of the last renewal

    def _room(self, row: Any) -> Room:
        from majiang.engine import RuleSet as _RS

        rules = _RS.from_options(row.rules)
        return Room(row.id, row.creator_id, row.creator, rules, row.options_text, row.max_hands, row.turn_time,
                    self.bot_delay, self.hand_pause, store=self.store, on_finish=self.on_finish,
                    claim_pause=self.claim_pause, room=row.room or "", private=bool(row.private),
                    quick=bool(row.quick), quick_wait=self.quick_wait,
                    reserve_time=float(getattr(row, "reserve_time", 0.0) or 0.0))

    def create(self, *, creator_id: int, creator: str, rules: RuleSet, options_text: str,
               max_hands: int | None, turn_time: float, on_finish: Callable[[Room], Any] | None = None,
               private: bool = False, quick: bool = False, reserve_time: float = 0.0) -> Room:
        """Open a table. It gets a random 6-digit room number (``room``), unique among the unfinished
        tables of the database (drawn again on a clash); a ``private`` table is not listed, a
        ``quick`` one was opened by quick start (its empty seats get bots after a wait)."""
        rid = secrets.token_urlsafe(6)
        for _attempt in range(50):
            number = f"{100000 + secrets.randbelow(900000)}"
            if any(r.room == number and not r.finished for r in self.rooms.values()):
                continue
            room = Room(rid, creator_id, creator, rules, options_text, max_hands, turn_time, self.bot_delay,
                        self.hand_pause, store=self.store, on_finish=on_finish or self.on_finish,
                        claim_pause=self.claim_pause, room=number, private=private, quick=quick,
                        quick_wait=self.quick_wait, reserve_time=reserve_time)
            if self.store is None:
                break
            try:
                self.store.create(id=rid, creator_id=creator_id, creator=creator, ruleset=rules.name,
                                  rules=rules.to_options(), options_text=options_text, max_hands=max_hands,
                                  turn_time=turn_time, places=[p.to_json() for p in room.places], room=number,
                                  private=private, quick=quick, reserve_time=reserve_time)
            except RoomNumberTaken:
                continue
            self.store.acquire(rid)
            break
        else:  # pragma: no cover - 50 clashes in a row: the numbers are nearly all in use
            raise RoomError("no free room number; try later")
        room.leader = True
        self.rooms[rid] = room
        if quick:  # on time, not only at the next upkeep
            with contextlib.suppress(RuntimeError):  # no running loop (tools): the upkeep fills it
                asyncio.get_running_loop().call_later(self.quick_wait + 0.05, self.fill_quick)
        return room

    def fill_quick(self) -> int:
        """Seat bots (``efficiency``) in the empty places of every quick-start table this process
        runs whose wait (``quick_wait`` seconds from its opening) is over; returns how many tables."""
        now, n = time.time(), 0
        for r in list(self.rooms.values()):
            if r.quick and r.leader and not r.started and not r.stale and now >= r.created + r.quick_wait \
                    and any(pl.empty for pl in r.places) and any(pl.user_id is not None for pl in r.places):
                try:
                    r.fill_bots("efficiency")
                    n += 1
                except (MajiangError, ValueError) as e:
                    log.debug("table %s: quick fill refused: %s", r.id, e)
        return n

    def by_room(self, number: str) -> Room | None:
        """The unfinished table numbered ``number`` (6 digits), else ``None``."""
        if not (isinstance(number, str) and len(number) == 6 and number.isdigit()):
            return None
        for r in self.rooms.values():
            if r.room == number and not r.finished:
                return r
        if self.store is None:
            return None
        rid = self.store.table_of_room(number)
        return self.get(rid) if rid is not None else None

    def get(self, rid: str) -> Room | None:
        """The table ``rid``: from memory, else rebuilt from the database (``None`` if unknown)."""
        room = self.rooms.get(rid)
        if room is not None:
            return room
        if self.store is None or not isinstance(rid, str) or not 1 <= len(rid) <= 32:
            return None
        loaded = self.store.load(rid)
        if loaded is None:
            return None
        row, rows = loaded
        room = self._room(row)
        try:
            room.replay_rows(rows)
        except Exception:
            log.exception("table %s: its log cannot be replayed", rid)
            return None
        room.game_id = row.game_id if row.game_id and row.game_id > 0 else None
        room.created = row.created_at.timestamp() if row.created_at else time.time()
        self.rooms[rid] = room
        return room

    def open_tables(self, *, private: bool = False) -> list[Room]:
        """Unfinished tables, oldest first (every process's, from the database); private tables
        only when ``private`` is true (the lobby's list and ``/api/tables`` never show them)."""
        if self.store is not None:
            out = []
            for row in self.store.listing(private=private):
                r = self.get(row.id)
                if r is not None and not r.finished:
                    out.append(r)
            return out
        return sorted((r for r in self.rooms.values() if not r.finished and (private or not r.private)),
                      key=lambda r: r.created)

    def unfinished(self) -> int:
        if self.store is not None:
            return self.store.count_unfinished()
        return sum(1 for r in self.rooms.values() if not r.finished)

    # ------------------------------------------------------------------ leases and upkeep
    def held(self) -> int:
        """Unfinished tables this process runs (holds the lease of)."""
        return sum(1 for r in self.rooms.values() if r.leader and not r.finished)

    def share(self) -> tuple[int | None, set[str]]:
        """How many unfinished tables this process should run at most, ``ceil(unfinished / live
        processes)``, and the live processes; ``None`` (no limit) with SQLite, which one process serves."""
        if self.store is None or not self.store.postgres:
            return None, set()
        live = self.store.live_owners()
        return max(1, math.ceil(self.store.count_unfinished() / len(live))), live

    def take_leases(self, share: int | None = None) -> int:
        """Run every unfinished table whose lease is free (missing, lapsed or ours) and that needs a
        runner here: beyond this process's ``share`` only the tables free for ``GRACE`` seconds of
        this process's watching. Returns how many tables it took."""
        if self.store is None:
            for r in self.rooms.values():
                if r.started and not r.finished:
                    r.maybe_start()
            return 0
        if share is None and self.store.postgres:
            share, _live = self.share()
        held = self.held()
        now = time.monotonic()
        free_since, taken = {}, 0
        for rid in self.store.claimable_ids():
            known = self.rooms.get(rid)
            if known is not None and known.leader and (
                    known._task is not None or (not known.started and any(pl.empty for pl in known.places))):
                continue  # ours, and running (or waiting for people to sit down)
            since = free_since[rid] = self._free_since.get(rid, now)
            ours = known is not None and known.leader  # ours, but idle: a game to store, a table to deal
            if not ours and share is not None and held >= share and now - since < self.GRACE:
                continue  # at our share: a process under its share takes it (or we do, after GRACE)
            if now - self._renewed > self.UPKEEP:
                self.renew()  # loading many tables takes time: never let our own leases lapse meanwhile
            room = self.get(rid)
            if room is None:
                continue
            if not self.store.acquire(rid):
                continue
            free_since.pop(rid, None)
            if not room.leader:
                held += 1
                taken += 1
            room.leader = True
            room.catch_up()
            if room.stale:
                self.forget(room, retake=False)
                continue
            if room.finished and room.game_id is None and room.on_finish is not None:
                try:  # its runner died between the last action and storing the game
                    room.on_finish(room)
                except Exception:  # pragma: no cover - logged, retried at the next upkeep
                    log.exception("table %s: storing the finished game failed", rid)
            elif room.started and not room.finished:
                room.maybe_start()
            elif not room.started and not any(pl.empty for pl in room.places):
                with contextlib.suppress(MajiangError, ValueError):  # every seat taken, never dealt
                    room._start_new()
                room.maybe_start()
        self._free_since = free_since
        return taken

    def renew(self) -> None:
        """Say this process is alive, renew its leases, and stop running the tables whose lease it lost."""
        assert self.store is not None
        if self.store.postgres:  # SQLite serves one process: nobody to tell
            self.store.beat()
        mine = [rid for rid, r in self.rooms.items() if r.leader]
        held = self.store.renew(mine)
        self._renewed = time.monotonic()
        for rid in mine:
            if rid not in held:
                self._stop_running(self.rooms[rid])

    @staticmethod
    def _stop_running(r: Room) -> None:
        """Stop a table's loop (its task clears itself once cancelled; until then no new loop can
        start, so there is never two) and its leadership; the copy keeps following the log."""
        if r._task is not None:
            r._task.cancel()
        r.leader = False

    def hand_over(self, share: int | None, live: set[str]) -> int:
        """Hand the tables this process runs beyond its ``share`` to live processes under theirs
        (as many as they lack): stop running them and give up their leases; they take them at
        their next upkeep. Returns how many it handed over."""
        if self.store is None or share is None:
            return 0
        mine = [r for r in self.rooms.values() if r.leader and not r.finished and r.game_id is None]
        excess = len(mine) - share
        if excess <= 0 or len(live) < 2:
            return 0
        counts = self.store.lease_counts()
        lacking = sum(max(0, share - counts.get(o, 0)) for o in live if o != self.store.owner)
        give = min(excess, lacking)
        if give <= 0:
            return 0
        # tables waiting for people first (nothing runs there), then the newest
        mine.sort(key=lambda r: (r.started, -r.created))
        out = mine[:give]
        for r in out:
            self._stop_running(r)
        self.store.release([r.id for r in out])
        log.info("handed %d table(s) over to other processes (share %d of %d live)", len(out), share, len(live))
        return len(out)

    def upkeep(self) -> None:
        """Heartbeat and renew leases, give up tables lost, take free ones (the watchdog), hand
        extra ones over, forget finished tables."""
        now = time.time()
        if self.store is not None:
            self.renew()
            share, live = self.share()
            self.take_leases(share)
            self.hand_over(share, live)
        self._upkeeps += 1
        self.fill_quick()
        # unstarted tables past their idle time: checked every 30 s (more often for a short idle time)
        if self.store is not None and now - self._idle_checked >= min(30.0, self.idle_open / 2):
            self._idle_checked = now
            self.drop_stale_open(self.idle_open)
        for rid, r in list(self.rooms.items()):
            if r.stale:
                self.forget(r)
            elif r.finished and r._task is None and r.game_id is not None and now - r.finished_at > 60 and not r.conns:
                del self.rooms[rid]
                if self.store is not None:
                    self.store.release([rid])

    def drop_stale_open(self, older_than: float | None = None) -> int:
        """Close the tables never started within ``older_than`` seconds (default: ``idle_open``,
        ``--idle-table-minutes``): they are deleted from the database, and the pages of every such
        table this process shows are told it is gone (close code 4404) and stop reconnecting --
        those another process deleted too, so a page is never left on a table that no longer
        exists. Returns how many tables this call deleted."""
        assert self.store is not None
        n = self.store.drop_stale_open(self.idle_open if older_than is None else older_than)
        if n or any(not r.started for r in self.rooms.values()):
            known = set(self.store.unfinished_ids())
            for rid, r in list(self.rooms.items()):
                if not r.started and rid not in known:
                    for c in r.conns:
                        c.closing = 4404
                        c.push({"type": "gone", "message": "this table was closed: no game started in time"})
                    del self.rooms[rid]
        return n

    def forget(self, room: Room, *, retake: bool = True) -> None:
        """Drop a stale copy of a table (a log row it could not apply): its clock stops, its lease
        is given up, its connections are closed with 1012 (the page reconnects), and the table is
        rebuilt from its whole log (:meth:`get`) and run again at once (``retake``; else at the next
        upkeep or visit). Nothing acknowledged is lost: the log has it."""
        if room._task is not None:
            room._task.cancel()
            room._task = None
        room.leader = False
        for c in list(room.conns):
            c.closing = 1012
            c.push()
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if self.store is not None:
            self.store.release([room.id])
            if retake:
                self.take_leases()

    def heard(self, table_id: str, payload: str) -> None:
        """A notification from another process: catch the table (or every table) up."""
        rooms = list(self.rooms.values()) if table_id == "*" else [self.rooms.get(table_id)]
        for r in rooms:
            if r is None:
                continue
            if payload == "finished" and self.store is not None:
                if r.game_id is None:
                    r.game_id = self.store.game_id(r.id)
                    r.notify()
                continue
            seq_text, _, body = payload.partition(" ")
            if seq_text.isdigit():
                seq = int(seq_text)
                if seq <= r.seq:
                    continue  # our own append (or one already caught up): no query needed
                if seq == r.seq + 1 and body:
                    try:  # the next step, carried by the notification itself
                        r._apply(json.loads(body))
                        continue
                    except Exception:  # it may be half applied: rebuild the table from its log
                        log.exception("table %s: notified step %d not applied; the table will be rebuilt", r.id, seq)
                        r.stale = True
            if not r.stale:
                r.catch_up()  # each row caught up tells the connections
            if r.stale:
                self.forget(r)

    async def run_upkeep(self, every: float | None = None, *, first: float = 0.0) -> None:
        """Run :meth:`upkeep` every ``every`` seconds (``UPKEEP``), the first after ``first`` seconds."""
        every = self.UPKEEP if every is None else every
        if first:
            await asyncio.sleep(first)
        while True:
            try:
                self.upkeep()
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - logged and retried
                log.exception("lobby upkeep failed")
            await asyncio.sleep(every)

    def start(self) -> None:
        """Begin keeping tables. With SQLite (one process) every unfinished table is resumed at once.
        With PostgreSQL the process announces itself (a heartbeat) and takes tables at its first
        upkeep, one period later, when processes starting together see each other and share."""
        first = 0.0
        if self.store is not None and self.store.postgres:
            self.store.beat()
            first = self.UPKEEP
        else:
            self.take_leases()
        self._task = asyncio.get_running_loop().create_task(self.run_upkeep(first=first), name="lobby-upkeep")

    async def close(self) -> None:
        """Stop every table's loop and the upkeep; give up this process's leases (only rows it holds:
        :meth:`TableStore.release` never touches another process's) and its heartbeat."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for r in self.rooms.values():
            await r.close()
        if self.store is not None:
            self.store.release(list(self.rooms))
            if self.store.postgres:
                self.store.stop_beating()
