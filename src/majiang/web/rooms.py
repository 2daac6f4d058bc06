"""Tables in the lobby and the game loop of each.

A :class:`Room` holds four places (a user, a bot, or empty). When all four are taken the creator's
rules start a :class:`~majiang.engine.Match`; the match seats the players by its own draw, so a
place ``p`` (player ``p``) sits at ``match.seat_of_player[p]``.

**The log is the state.** Every change at a table is a *row* appended to its log in the database
(:class:`~majiang.web.store.TableStore`) before anyone is told of it; the room's state is what
replaying its rows in order gives, so a restarted server (or another process) rebuilds the table
exactly. The kinds of row:

========== ==================================================================================
``join``     ``place``, ``user_id``, ``name``: a user takes an empty place (before the start)
``leave``    ``place``: a user gives a place up (before the start)
``bots``     ``kind``: every empty place gets a bot of that kind
``start``    ``seed``, ``walls``, ``claim_pause``: the match is dealt (the match seed; explicit walls,
             if any; the seconds of its claim windows, 0 = windows not held)
``act``      ``seat``, ``action`` ``[kind, tile, low]``, ``by`` (``user``/``bot``/``clock``/``auto``)
``close``    ``hand``: the held claim window now open is resolved (its time is up, all answered)
``continue`` ``seat``, ``hand``: a person pressed "continue" at the end of hand ``hand``
``next``     ``hand``: the hand-end pause of ``hand`` ran out
``autoplay`` ``seat``: the seat ran out of time and is played by the server (托管)
``back``     ``seat``: the person took the seat back from 托管
``auto_win`` ``seat``, ``on``, ``hand``: "win for me" switched on or off
========== ==================================================================================

**A clock per decision.** Each decision a person is offered (a turn, a claim window) has its own
deadline, ``turn_time`` seconds from the moment it is offered, dropped when the seat acts or is no
longer awaited; only that seat is told its ``time_left``. Out of time, the server plays the seat's
safe default (:func:`auto_action`) and marks it 托管 (auto-play): its later decisions are played at
once until the person acts or sends ``back``. A hand's end is a pause: no seat is offered anything
until every seated person has pressed "continue" or ``hand_pause`` seconds have passed. After a
restart every clock starts afresh.

**One claim window for everyone.** While a person is seated, every discard (and every added kong
that may be robbed) opens a claim window of ``claim_pause`` seconds, whether any seat can claim
or none (:attr:`majiang.engine.Match.hold_windows`): every seat that cannot claim is sent the same
state (``phase`` ``"wait"``, the tile on offer) and, ``claim_pause`` later, the window's outcome,
whoever could have claimed. A seat that can claim sees its own offer; every answer is told to the
answering seat only (the others' version does not move); bots answer at once but privately, and
the window closes (a ``close`` row) when its time is up and every seat asked has answered. A bot's
turn right after a window comes ``bot_delay`` after the discard that opened it, so the window
costs a table of bots no time. Tables of bots only do not hold their windows.

One process runs a table's clock and bots (the holder of its lease, see :class:`Lobby`); any
process can accept a person's action for it: its append either succeeds (and all processes hear
of it) or conflicts, in which case the room catches up from the log and the action is judged again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from majiang.engine import PASS, Action, ActionKind, IllegalActionError, Match, RuleSet
from majiang.engine import Match as _EngineMatch
from majiang.engine.actions import Phase
from majiang.errors import MajiangError
from majiang.players import make_bot
from majiang.web.state import hand_results, meld_json, seat_state, seat_waits
from majiang.web.store import LogConflict, TableStore

log = logging.getLogger("majiang.web")

BOT_KINDS = ("efficiency", "strong", "random", "learned")  # no python: bots: a form never names code to import
HAND_PAUSE = 15.0
CLAIM_PAUSE = 0.5  # seconds every claim window stays open while a person is seated (docs/server.md)
IDLE_OPEN = 10 * 60.0  # a table nobody started within ten minutes is closed (--idle-table-minutes)


class RoomError(ValueError):
    """A change a room refuses (a taken seat, a started game, an unknown bot kind...)."""


@dataclass
class Place:
    """One of the four places: a user (``user_id``), a bot (``bot`` = kind) or empty."""

    user_id: int | None = None
    name: str = ""
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.bot is None

    def to_json(self) -> dict:
        return {"user_id": self.user_id, "name": self.name, "bot": self.bot}


@dataclass
class Conn:
    """One WebSocket: its sender sends the outbox, then the newest state, whenever ``event`` is set
    (states are coalesced: a slow client gets the latest, in order)."""

    user_id: int | None
    event: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: list[dict] = field(default_factory=list)
    closing: int | None = None  # a close code to send (the table is gone, the server stops)
    close_reason: str = ""  # the close frame's reason text (4401: "session ended"...)
    #: what the socket was opened with: ("session", digest), ("token", digest), or None (anonymous);
    #: the socket is closed when it ends (majiang.web.guard)
    cred: tuple[str, str] | None = None
    address: str = ""  # the client's address, for the per-address socket limit

    def push(self, msg: dict | None = None) -> None:
        if msg is not None:
            self.outbox.append(msg)
        self.event.set()


@dataclass
class Room:
    id: str
    creator_id: int
    creator: str
    rules: RuleSet
    options_text: str
    max_hands: int | None
    turn_time: float
    bot_delay: float = 0.0
    hand_pause: float = HAND_PAUSE
    store: TableStore | None = None
    #: seconds each claim window is held open while a person is seated (0: not held); before the
    #: deal the server's setting, from the deal on the value in the log's ``start`` row
    claim_pause: float = 0.0
    places: list[Place] = field(default_factory=lambda: [Place() for _ in range(4)])
    match: Match | None = None
    seed: int = 0
    conns: list[Conn] = field(default_factory=list)
    deadlines: dict[int, float] = field(default_factory=dict)
    version: int = 0
    seq: int = 0
    game_id: int | None = None
    on_finish: Callable[[Room], Any] | None = None
    leader: bool = False
    bot_threads: bool = True  # bots think on worker threads (False: inline, for tests and tools)
    auto_play: set[int] = field(default_factory=set)
    auto_win: dict[int, int] = field(default_factory=dict)  # seat -> the hand number it was switched on in
    pause: dict | None = None  # {"hand": k, "deadline": monotonic, "waiting": set of seats}
    hand_ends: dict[int, dict] = field(default_factory=dict)  # hand -> {"hands": [...], "melds": [...]}
    timeouts: int = 0
    auto_wins: int = 0
    created: float = field(default_factory=time.time)
    finished_at: float = 0.0
    _bots: dict[int, Any] = field(default_factory=dict)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task | None = None
    _results: list[dict] = field(default_factory=list)
    _results_n: int = -1
    _replaying: bool = False
    #: set when a row of the log could not be applied here: the copy in memory no longer follows
    #: the log, so the lobby forgets it and the next visit rebuilds it from the log
    stale: bool = False
    _private: int | None = None  # set while applying a row only its own seat may hear of
    _window_opened: float | None = None  # monotonic time the held window now open (or last) opened
    _turn_from: float | None = None  # a bot's turn right after a held window counts its delay from here

    # ------------------------------------------------------------------ places
    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def finished(self) -> bool:
        return self.match is not None and self.match.finished

    @property
    def status(self) -> str:
        return "finished" if self.finished else "playing" if self.started else "open"

    def place_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for p, pl in enumerate(self.places):
            if pl.user_id == user_id:
                return p
        return None

    def seat_of(self, user_id: int | None) -> int | None:
        """The table seat (0-3, turn order) of a user, once the match has started."""
        p = self.place_of(user_id)
        if p is None or self.match is None:
            return None
        return self.match.seat_of_player[p]

    def is_human(self, seat: int) -> bool:
        m = self.match
        return m is not None and self.places[m.player_at_seat[seat]].user_id is not None

    def human_seats(self) -> list[int]:
        m = self.match
        return [] if m is None else [s for s in range(4) if self.is_human(s)]

    def join(self, place: int, user_id: int, name: str) -> None:
        if self.started:
            raise RoomError("the game has started")
        if not 0 <= place < 4:
            raise RoomError("no such seat")
        if self.place_of(user_id) is not None:
            raise RoomError("you already sit at this table")
        if not self.places[place].empty:
            raise RoomError("that seat is taken")
        self.commit({"kind": "join", "place": place, "user_id": user_id, "name": name})

    def leave(self, user_id: int) -> None:
        p = self.place_of(user_id)
        if p is not None and not self.started:
            self.commit({"kind": "leave", "place": p})

    def fill_bots(self, kind: str = "efficiency") -> None:
        if kind not in BOT_KINDS:
            raise RoomError(f"bot kind must be one of {BOT_KINDS}")
        if self.started:
            raise RoomError("the game has started")
        self.commit({"kind": "bots", "bot": kind})

    def names_by_seat(self) -> list[str]:
        if self.match is None:
            return [pl.name for pl in self.places]
        return [self.places[self.match.player_at_seat[s]].name for s in range(4)]

    # ------------------------------------------------------------------ the log
    def commit(self, row: dict) -> None:
        """Judge ``row``, write it to the log, apply it. Raises (and changes nothing) when the row is
        refused; a conflict with another process is resolved by catching up and judging again."""
        for _attempt in range(5):  # a stale copy finds out by the conflict, catches up and judges again
            self._check(row)
            if self.store is None:
                self._apply(row)
                return
            status = "playing" if row["kind"] == "start" else None
            places = None
            if row["kind"] in ("join", "leave", "bots"):
                places = [p.to_json() for p in self._places_after(row)]
            try:
                self.store.append(self.id, self.seq + 1, row, status=status, places=places)
            except LogConflict:
                self.catch_up()
                if self.stale:
                    raise RoomError("the table is being reloaded; try again") from None
                continue
            self._apply(row)
            return
        raise RoomError("the table is busy; try again")

    def catch_up(self) -> bool:
        """Apply the rows other processes wrote since ours; True if there were any."""
        if self.store is None:
            return False
        if self.stale:
            return False
        rows = self.store.rows_after(self.id, self.seq)
        for r in rows:
            at = self.seq + 1
            try:
                self._apply(r)
            except Exception:  # a row this copy cannot apply (it may be half applied): never skip it
                log.exception("table %s: log row %d cannot be applied; the table will be rebuilt", self.id, at)
                self.stale = True
                break
        return bool(rows)

    def replay_rows(self, rows: list[dict]) -> None:
        """Rebuild the room from its whole log (a new process, a restart)."""
        self._replaying = True
        try:
            for r in rows:
                self._apply(r)
        finally:
            self._replaying = False
        self.deadlines.clear()
        if self.pause is not None:
            self.pause["deadline"] = time.monotonic() + self.hand_pause
        m = self.match
        self._turn_from = None
        if m is not None and m.hold_windows and m.table is not None and m.table.phase in (Phase.CLAIM, Phase.ROB):
            self._window_opened = time.monotonic()  # a held window open at the restart gets its full time again

    def _places_after(self, row: dict) -> list[Place]:
        places = [Place(p.user_id, p.name, p.bot) for p in self.places]
        k = row["kind"]
        if k == "join":
            places[row["place"]] = Place(user_id=row["user_id"], name=row["name"])
        elif k == "leave":
            places[row["place"]] = Place()
        elif k == "bots":
            n = 0
            for p, pl in enumerate(places):
                if pl.empty:
                    n += 1
                    places[p] = Place(bot=row["bot"], name=f"{row['bot']}-bot-{n}")
        return places

    def _check(self, row: dict) -> None:
        """Raise if ``row`` cannot be applied now (nothing is changed)."""
        k = row["kind"]
        m = self.match
        if k in ("join", "leave", "bots"):
            if self.started:
                raise RoomError("the game has started")
            if k == "join" and not self.places[row["place"]].empty:
                raise RoomError("that seat is taken")
            return
        if k == "start":
            if self.started or any(pl.empty for pl in self.places):
                raise RoomError("the table cannot start")
            return
        if m is None or m.finished:
            raise IllegalActionError("the game is not in play")
        if k == "act":
            if self.pause is not None:
                raise IllegalActionError("the hand is over: press continue for the next one")
            seat = row["seat"]
            a = _action(row["action"])
            legal = m.legal_actions(seat)
            if not legal:
                raise IllegalActionError(f"seat {seat} is not to act now", seat=seat, action=a)
            if a not in legal:
                raise IllegalActionError(f"seat {seat} cannot {a}; legal: {', '.join(map(str, legal))}",
                                         seat=seat, action=a)
            if a.kind is ActionKind.WIN and m.table is not None:
                m.table.check_may_win(seat, a)
        elif k == "close":
            if self.pause is not None or not m.window_closable:
                raise RoomError("no claim window to close")
        elif k == "continue":
            if self.pause is None or self.pause["hand"] != row["hand"]:
                raise RoomError("no hand end to continue from")
        elif k == "next":
            if self.pause is None or self.pause["hand"] != row["hand"]:
                raise RoomError("no hand end to close")

    def _apply(self, row: dict) -> None:
        """Apply one row (already judged, or read from the log) and tell the connections."""
        k = row["kind"]
        self.seq += 1
        self._private = None
        if k in ("join", "leave", "bots"):
            self.places = self._places_after(row)
            self._after_change()
            if not self._replaying and not any(pl.empty for pl in self.places) and self.leader:
                self._start_new()
            return
        if k == "start":
            self._deal(row)
            self._after_change()
            if self.leader and not self._replaying:
                with contextlib.suppress(RuntimeError):  # no running loop: started by the lobby later
                    self.maybe_start()
            return
        m = self.match
        assert m is not None
        if k == "act":
            seat = row["seat"]
            a = _action(row["action"])
            t = m.table
            window = t.phase in (Phase.CLAIM, Phase.ROB) if t is not None else False
            before_hand = m.hand_number
            m.apply(seat, a)
            self.deadlines.pop(seat, None)
            self._turn_from = None
            if not window and m.hold_windows and m.table is t and t is not None \
                    and t.phase in (Phase.CLAIM, Phase.ROB):  # a held window opens: its time starts
                self._window_opened = time.monotonic()
            by = row.get("by", "user")
            if by == "user":
                self.auto_play.discard(seat)
            if window and m.table is t and t is not None and t.phase in (Phase.CLAIM, Phase.ROB) \
                    and seat in t.answers:
                self._private = seat  # an answer that leaves the window open
            if m.hand_number != before_hand or m.finished:
                self._hand_over(t, before_hand)
        elif k == "close":
            t = m.table
            before_hand = m.hand_number
            m.close_window()
            self._turn_from = self._window_opened
            if m.hand_number != before_hand or m.finished:
                self._hand_over(t, before_hand)
        elif k == "continue":
            assert self.pause is not None
            self.pause["waiting"].discard(row["seat"])
            if not self.pause["waiting"]:
                self.pause = None
        elif k == "next":
            self.pause = None
        elif k == "autoplay":
            self.auto_play.add(row["seat"])
        elif k == "back":
            self.auto_play.discard(row["seat"])
        elif k == "auto_win":
            if row["on"]:
                self.auto_win[row["seat"]] = row["hand"]
            else:
                self.auto_win.pop(row["seat"], None)
        self._after_change()

    def _hand_over(self, table: Any, hand: int) -> None:
        """Keep what the hand that just ended showed (every hand revealed), and open the pause."""
        m = self.match
        assert m is not None
        if table is not None:
            self.hand_ends[hand] = {
                "hands": [list(table.hand_tuple(s)) for s in range(4)],
                "melds": [[meld_json(x) for x in table.melds[s]] for s in range(4)],
            }
        self.deadlines.clear()
        if not m.finished and self.hand_pause > 0 and self.human_seats():
            self.pause = {"hand": hand, "deadline": time.monotonic() + self.hand_pause,
                          "waiting": set(self.human_seats())}
        if m.finished:
            self.finished_at = time.time()
            self._bots.clear()

    def _deal(self, row: dict) -> None:
        names = [pl.name for pl in self.places]
        walls = row.get("walls")
        self.seed = row.get("room_seed", row["seed"])
        self.claim_pause = float(row.get("claim_pause") or 0.0)
        self.match = _EngineMatch(self.rules, seed=row["seed"], walls=walls, names=names, max_hands=self.max_hands,
                                  hold_windows=self.claim_pause > 0)

    def _start_new(self) -> None:
        """All four places are taken: deal (the match seed drawn here, written to the log)."""
        seed = secrets.randbelow(2**62)
        probe = Match(self.rules, seed=seed, names=[pl.name for pl in self.places], max_hands=self.max_hands)
        people = any(pl.user_id is not None for pl in self.places)
        self.commit({"kind": "start", "seed": probe.seed, "room_seed": seed, "walls": probe.explicit_walls,
                     "claim_pause": self.claim_pause if people else 0.0})

    def _after_change(self) -> None:
        """Clocks for the decisions now offered, then tell the connections."""
        if self.match is not None and not self.match.finished and not self._replaying:
            self._sync_clocks(time.monotonic())
        self._changed()

    def _changed(self) -> None:
        if self._private is None:
            self.version += 1
        self._wake.set()
        if not self._replaying:
            self.notify(self._private)

    # ------------------------------------------------------------------ the table's clock and bots
    def maybe_start(self) -> bool:
        """Start the room's loop (this process holds the lease) if the match is on."""
        if self.match is None or self.match.finished or self._task is not None:
            return False
        self.leader = True
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        return True

    def _sync_clocks(self, now: float) -> None:
        """One deadline per pending decision of a person (not in 托管); none during a pause."""
        m = self.match
        assert m is not None
        pending = set(m.pending_seats()) if self.pause is None else set()
        for s in list(self.deadlines):
            if s not in pending:
                del self.deadlines[s]
        for s in pending:
            if s not in self.deadlines and self.is_human(s) and s not in self.auto_play:
                self.deadlines[s] = now + self.turn_time

    async def _run(self) -> None:
        m = self.match
        assert m is not None
        try:
            while not m.finished:
                now = time.monotonic()
                self._sync_clocks(now)
                if self.pause is not None:
                    if now >= self.pause["deadline"]:
                        self._try({"kind": "next", "hand": self.pause["hand"]})
                        continue
                    await self._sleep(self.pause["deadline"] - now)
                    continue
                pending = m.pending_seats()
                if self._auto_wins(pending):
                    continue
                # seats in 托管 are played at once
                auto = [s for s in pending if self.is_human(s) and s in self.auto_play]
                if auto:
                    for s in auto:
                        if s in m.pending_seats() and self.pause is None:
                            self._try({"kind": "act", "seat": s, "action": _row_action(auto_action(m, s)),
                                       "by": "auto"})
                    continue
                due = [s for s in pending if s in self.deadlines and self.deadlines[s] <= now]
                if due:
                    for s in due:
                        if s in m.pending_seats() and self.pause is None:
                            self.timeouts += 1
                            if self._try({"kind": "act", "seat": s, "action": _row_action(auto_action(m, s)),
                                          "by": "clock"}):
                                self._try({"kind": "autoplay", "seat": s})
                    continue
                if not pending and m.window_closable:  # a held window: closed when its time is up
                    due = (self._window_opened if self._window_opened is not None else now) + self.claim_pause
                    if now >= due:
                        self._try({"kind": "close", "hand": m.hand_number})
                        continue
                    await self._sleep(due - now)
                    continue
                humans = [s for s in pending if self.is_human(s)]
                bots = [s for s in pending if not self.is_human(s)]
                held = m.hold_windows and m.table is not None and m.table.phase in (Phase.CLAIM, Phase.ROB)
                if bots and held:  # bots answer a held window at once; only its owner hears of it
                    for s in bots:
                        if s in m.pending_seats() and self.pause is None and not m.finished:
                            await self._bot_move(s)
                    continue
                if bots and not humans:  # bots' claims wait for every person in the window
                    version = self.seq
                    delay = self.bot_delay
                    if self._turn_from is not None:  # right after a held window: its time counts
                        delay = max(0.0, self._turn_from + self.bot_delay - now)
                    if delay:
                        await asyncio.sleep(delay)
                        if self.seq != version:
                            continue
                    for s in bots:
                        if s in m.pending_seats() and self.pause is None and not m.finished:
                            await self._bot_move(s)
                    if not delay:
                        await asyncio.sleep(0)  # let connections and other tables run
                    continue
                if not self.deadlines:  # pragma: no cover - nothing to wait for
                    await self._sleep(1.0)
                    continue
                await self._sleep(min(self.deadlines.values()) - now)
            self.deadlines.clear()
            self._bots.clear()
            if self.finished_at == 0.0:
                self.finished_at = time.time()
            if self.on_finish is not None and self.game_id is None:
                try:
                    r = self.on_finish(self)
                    if asyncio.iscoroutine(r):
                        await r
                except Exception:
                    log.exception("table %s: storing the finished game failed", self.id)
            self.notify()
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, the table is then abandoned
            log.exception("table %s crashed", self.id)
        finally:
            self._task = None

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), max(0.0, seconds))

    def _try(self, row: dict) -> bool:
        """Commit a row of the server's own (clock, bots); False if it no longer applies."""
        try:
            self.commit(row)
            return True
        except (MajiangError, ValueError) as e:
            log.debug("table %s: %s refused: %s", self.id, row.get("kind"), e)
            return False

    def _auto_wins(self, pending: list[int]) -> bool:
        """Declare the win for every pending seat with auto-win on that is offered one."""
        m = self.match
        assert m is not None
        done = False
        for s in pending:
            if not self.auto_win_on(s) or s not in m.pending_seats():
                continue
            win = next((a for a in m.legal_actions(s) if a.kind is ActionKind.WIN), None)
            if win is not None and self._try({"kind": "act", "seat": s, "action": _row_action(win), "by": "auto"}):
                self.auto_wins += 1
                done = True
        return done

    async def _bot_move(self, seat: int) -> None:
        """A bot's move. The bot thinks on a worker thread (the event loop keeps serving people
        meanwhile); its answer is played only if the table has not moved on in between. Should a
        bot fail or offer something illegal, the server's default move is played instead (the table
        never stalls)."""
        m = self.match
        assert m is not None
        p = m.player_at_seat[seat]
        bot = self._bots.get(p)
        if bot is None:
            bot = self._bots[p] = make_bot(self.places[p].bot or "efficiency", self.rules, self.seed + p)
        seq = self.seq
        view, legal = m.view(seat), m.legal_actions(seat)
        try:
            a = await asyncio.to_thread(bot.choose, view, legal) if self.bot_threads else bot.choose(view, legal)
        except Exception:
            log.exception("table %s: bot at seat %d failed; playing the default move", self.id, seat)
            a = None
        if self.seq != seq or m.finished or self.pause is not None or seat not in m.pending_seats():
            return  # the table moved on while it thought: the loop asks again
        if a is not None and self._try({"kind": "act", "seat": seat, "action": _row_action(a), "by": "bot"}):
            return
        if seat in m.pending_seats():
            self._try({"kind": "act", "seat": seat, "action": _row_action(auto_action(m, seat)), "by": "auto"})

    # ------------------------------------------------------------------ people's actions
    def act(self, user_id: int | None, action: Action) -> None:
        """Apply a user's action for his own seat. Raises ``PermissionError`` for a spectator and
        :class:`IllegalActionError` (nothing changed) for anything the engine refuses."""
        m = self.match
        if m is None or m.finished:
            raise IllegalActionError("the game is not in play")
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        self.commit({"kind": "act", "seat": seat, "action": _row_action(action), "by": "user"})

    def press_continue(self, user_id: int | None) -> None:
        """The person at ``user_id``'s seat is ready for the next hand."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        if self.pause is None or seat not in self.pause["waiting"]:
            return
        self.commit({"kind": "continue", "seat": seat, "hand": self.pause["hand"]})

    def take_back(self, user_id: int | None) -> None:
        """End 托管 for the user's seat."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        if seat in self.auto_play:
            self.commit({"kind": "back", "seat": seat})

    def auto_win_on(self, seat: int) -> bool:
        """Whether auto-win is on for ``seat`` in the hand now in play."""
        m = self.match
        return m is not None and not m.finished and self.auto_win.get(seat) == m.hand_number

    def set_auto_win(self, user_id: int | None, on: bool) -> None:
        """Switch auto-win on (only once the user's hand is ready) or off for his own seat.
        Raises ``PermissionError`` for a spectator, ``ValueError`` when not ready."""
        m = self.match
        if m is None or m.finished or m.table is None:
            raise IllegalActionError("the game is not in play")
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        if on and not self.auto_win_on(seat) and seat_waits(m.view(seat), self.rules) is None:
            raise RoomError("auto-win can be switched on once your hand is ready (听牌)")
        self.commit({"kind": "auto_win", "seat": seat, "on": bool(on), "hand": m.hand_number})

    # ------------------------------------------------------------------ connections
    def state_for(self, user_id: int | None) -> dict[str, Any]:
        seat = self.seat_of(user_id)
        m = self.match
        out: dict[str, Any] = {
            "type": "state", "table": self.id, "version": self.version, "status": self.status,
            "seat": seat, "place": self.place_of(user_id), "names": self.names_by_seat(),
            "bots": [None] * 4, "rules": self.rules.name, "max_hands": self.max_hands,
            "turn_time": self.turn_time, "game_id": self.game_id, "pause": None,
        }
        if m is None:
            out["places"] = [{"name": pl.name, "bot": pl.bot, "empty": pl.empty} for pl in self.places]
            return out
        out["bots"] = [self.places[m.player_at_seat[s]].bot for s in range(4)]
        out["scores"] = list(m.scores)
        if self._results_n != len(m.events):
            self._results = hand_results(m.events, self.rules)
            for r in self._results:
                end = self.hand_ends.get(r.get("hand"))
                if end is not None:
                    r.update(end)
            self._results_n = len(m.events)
        out["results"] = self._results
        now = time.monotonic()
        if self.pause is not None:
            out["pause"] = {"hand": self.pause["hand"], "time_left": max(0.0, round(self.pause["deadline"] - now, 1)),
                            "waiting": sorted(self.pause["waiting"])}
        own = {seat: self.deadlines[seat]} if seat is not None and seat in self.deadlines else {}
        live = seat_state(m, seat, deadlines=own, now=now, auto_win=seat is not None and self.auto_win_on(seat))
        if live:
            if self.pause is not None:
                live["legal"] = []
                live["time_left"] = None
            live["auto_play"] = seat is not None and seat in self.auto_play
        out["live"] = live
        return out

    def notify(self, only_seat: int | None = None) -> None:
        """Tell every connection (or only those of ``only_seat``'s user) that the state changed."""
        if only_seat is not None and self.match is not None:
            uid = self.places[self.match.player_at_seat[only_seat]].user_id
            for c in self.conns:
                if c.user_id is not None and c.user_id == uid:
                    c.event.set()
            return
        for c in self.conns:
            c.event.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        self._task = None
        self.leader = False


def _action(a: list | tuple) -> Action:
    kind, tile, low = a
    return Action(ActionKind(kind), tile, low)


def _row_action(a: Action) -> list:
    return [a.kind.value, a.tile, a.low]


def auto_action(m: Match, seat: int) -> Action:
    """What the server plays for a seat out of time: discard the drawn tile (else the first offered
    discard), pass in a claim window (else the first offered action)."""
    acts = m.legal_actions(seat)
    if PASS in acts:
        return PASS
    discards = [a for a in acts if a.kind is ActionKind.DISCARD]
    last = m.view(seat).last_draw
    for a in discards:
        if a.tile == last:
            return a
    if discards:
        return discards[-1]
    return acts[0]


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
                 claim_pause: float = CLAIM_PAUSE, idle_open: float = IDLE_OPEN) -> None:
        self.rooms: dict[str, Room] = {}
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
                    claim_pause=self.claim_pause)

    def create(self, *, creator_id: int, creator: str, rules: RuleSet, options_text: str,
               max_hands: int | None, turn_time: float, on_finish: Callable[[Room], Any] | None = None) -> Room:
        rid = secrets.token_urlsafe(6)
        room = Room(rid, creator_id, creator, rules, options_text, max_hands, turn_time, self.bot_delay,
                    self.hand_pause, store=self.store, on_finish=on_finish or self.on_finish,
                    claim_pause=self.claim_pause)
        room.leader = True
        if self.store is not None:
            self.store.create(id=rid, creator_id=creator_id, creator=creator, ruleset=rules.name,
                              rules=rules.to_options(), options_text=options_text, max_hands=max_hands,
                              turn_time=turn_time, places=[p.to_json() for p in room.places])
            self.store.acquire(rid)
        self.rooms[rid] = room
        return room

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

    def open_tables(self) -> list[Room]:
        """Unfinished tables, oldest first (every process's, from the database)."""
        if self.store is not None:
            out = []
            for row in self.store.listing():
                r = self.get(row.id)
                if r is not None and not r.finished:
                    out.append(r)
            return out
        return sorted((r for r in self.rooms.values() if not r.finished), key=lambda r: r.created)

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
