"""Tables in the lobby: a :class:`Room` and the connections watching it.

A room is assembled from three parts, one concern each:

* :mod:`majiang.web.room_seats` -- places, seats and the people's requests (:class:`Seating`);
* :mod:`majiang.web.room_log` -- the log that is the table's state, how rows are judged, written and
  applied (:class:`RoomLog`);
* :mod:`majiang.web.room_clock` -- the clock per decision, the held claim windows and the bots, run
  by the process holding the table's lease (:class:`RoomClock`).

This module adds what a connection sees (:meth:`Room.state_for`) and who is told of a change;
:mod:`majiang.web.lobby` keeps the tables of a process and their leases.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from majiang.engine import Match, RuleSet
from majiang.web.room_chat import ChatError, RoomChat
from majiang.web.room_clock import RoomClock, auto_action
from majiang.web.room_log import RoomError, RoomLog
from majiang.web.room_seats import BOT_KINDS, Place, Seating
from majiang.web.state import hand_results, seat_state
from majiang.web.store import TableStore

HAND_PAUSE = 15.0
CLAIM_PAUSE = 0.5  # seconds every claim window stays open while a person is seated (docs/server.md)
IDLE_OPEN = 10 * 60.0  # a table nobody started within ten minutes is closed (--idle-table-minutes)

__all__ = ["BOT_KINDS", "ChatError", "CLAIM_PAUSE", "HAND_PAUSE", "IDLE_OPEN", "Conn", "Place", "Room", "RoomError", "auto_action"]


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
    lang: str = "zh"  # the page's language (quick phrases are sent in it)
    protocol: str = "page"  # "page" (the table page's socket) or "jsonl" (the bot protocol: no chat)

    def push(self, msg: dict | None = None) -> None:
        if msg is not None:
            self.outbox.append(msg)
        self.event.set()


@dataclass
class Room(Seating, RoomLog, RoomClock, RoomChat):
    """One table: its places, its match and its connections (the parts' docstrings say the rest)."""

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
    #: the time bank: seconds each person may use, per hand, beyond ``turn_time`` (0: none)
    reserve_time: float = 0.0
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
    #: held while a row of this table is being written (:meth:`RoomLog.commit_async`)
    _write_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _task: asyncio.Task | None = None
    _results: list[dict] = field(default_factory=list)
    _results_n: int = -1
    _results_key: tuple = ()
    _replaying: bool = False
    #: set when a row of the log could not be applied here: the copy in memory no longer follows
    #: the log, so the lobby forgets it and the next visit rebuilds it from the log
    stale: bool = False
    _private: int | None = None  # set while applying a row only its own seat may hear of
    _window_opened: float | None = None  # monotonic time the held window now open (or last) opened
    _turn_from: float | None = None  # a bot's turn right after a held window counts its delay from here
    room: str = ""  # the 6-digit room number (invite link /r/<room>)
    private: bool = False  # not listed in the lobby: joined by number or link only
    quick: bool = False  # opened by quick start: empty seats get bots quick_wait seconds after it opened
    quick_wait: float = 20.0
    chat: list[dict] = field(default_factory=list)  # every chat line (majiang.web.room_chat)
    muted: dict[int, set[int]] = field(default_factory=dict)  # user -> the users they muted
    free_text: bool = True  # the creator may switch free text off (quick phrases stay)
    _chat_hits: dict[int, Any] = field(default_factory=dict)  # user -> times of their recent lines
    _offered: dict[int, float] = field(default_factory=dict)  # seat -> monotonic time its decision was offered
    _reserve: dict[int, float] = field(default_factory=dict)  # seat -> reserve seconds left in this hand
    _reserve_hand: int | None = None  # the hand the reserves above belong to
    #: the hand that just ended, shown (its table as it ended) until the pause after it is over:
    #: no seat sees the next hand's tiles before every person has continued (room_log._hand_over)
    _ended: Any = None
    # ------------------------------------------------------------------ connections
    def state_for(self, user_id: int | None) -> dict[str, Any]:
        seat = self.seat_of(user_id)
        m = self.match
        out: dict[str, Any] = {
            "type": "state", "table": self.id, "version": self.version, "status": self.status,
            "seat": seat, "place": self.place_of(user_id), "names": self.names_by_seat(),
            "bots": [None] * 4, "rules": self.rules.name, "max_hands": self.max_hands,
            "turn_time": self.turn_time, "reserve_time": self.reserve_time, "game_id": self.game_id, "pause": None,
            "room": self.room, "private": self.private, "creator": user_id is not None and user_id == self.creator_id,
            "avatars": self.avatars_by_seat(), "chat": self.chat_state(user_id),
        }
        if m is None:
            out["places"] = [{"name": pl.name, "bot": pl.bot, "empty": pl.empty} for pl in self.places]
            if self.quick:
                out["quick_left"] = max(0.0, round(self.created + self.quick_wait - time.time(), 1))
            return out
        out["bots"] = [self.places[m.player_at_seat[s]].bot for s in range(4)]
        out["scores"] = list(m.scores)
        out["results"] = self._hand_results(m)
        now = time.monotonic()
        if self.pause is not None:
            out["pause"] = {"hand": self.pause["hand"], "time_left": max(0.0, round(self.pause["deadline"] - now, 1)),
                            "waiting": sorted(self.pause["waiting"])}
        own = {seat: self.deadlines[seat]} if seat is not None and seat in self.deadlines else {}
        if self.pause is not None and self._ended is not None:
            # the hand-end pause: the ended hand stays on the table, the next one is not shown yet
            live = seat_state(self._ended, seat, deadlines={}, now=now)
        else:
            live = seat_state(m, seat, deadlines=own, now=now, auto_win=seat is not None and self.auto_win_on(seat))
        if live:
            if self.pause is not None:
                live["legal"] = []
                live["time_left"] = None
            live["auto_play"] = seat is not None and seat in self.auto_play
            live["reserve_left"] = self.reserve_left(seat, now) if seat is not None and self.reserve_time > 0 else None
        out["live"] = live
        return out

    def _hand_results(self, m: Match) -> list[dict]:
        """The ended hands' summaries (:func:`hand_results` with each hand's ``hand_ends``), worked
        out again only when a hand has ended since (or the match or ``hand_ends`` changed): a state
        is built at every step, and reading the whole log each time cost a long match's late steps
        more and more."""
        events = m.events
        n = len(events)
        key = (id(m), len(self.hand_ends))
        if self._results_n != n or self._results_key != key:
            if self._results_key != key or n < self._results_n or any(
                    ev.get("type") == "end_kyoku" for ev in events[max(self._results_n, 0):n]):
                self._results = hand_results(events, self.rules)
                for r in self._results:
                    end = self.hand_ends.get(r.get("hand"))
                    if end is not None:
                        r.update(end)
            self._results_n = n
            self._results_key = key
        return self._results

    def avatars_by_seat(self) -> list[str]:
        """Each seat's avatar id (in the order of ``names``), "" for none."""
        if self.match is None:
            return [pl.avatar for pl in self.places]
        return [self.places[self.match.player_at_seat[s]].avatar for s in range(4)]

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


def __getattr__(name: str) -> Any:
    if name == "Lobby":  # the lobby lives in its own module (it imports this one)
        from majiang.web.lobby import Lobby

        return Lobby
    raise AttributeError(name)
