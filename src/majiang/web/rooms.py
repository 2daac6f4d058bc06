"""Tables in the lobby and the game loop of each (in process, on the server's event loop).

A :class:`Room` holds four places (a user, a bot, or empty). When all four are taken the creator's
rules start a :class:`~majiang.engine.Match`; the match seats the players by its own draw, so a
place ``p`` (player ``p``) sits at ``match.seat_of_player[p]``.

The room's task drives the match: bots answer at once (or after ``bot_delay``), a human seat has
``turn_time`` seconds from the moment it is awaited; when that runs out the server plays for it
(discard the drawn tile, else the first offered discard; pass in a claim window), so the game never
stalls. Every action goes through :meth:`Match.apply`: an illegal one raises
:class:`~majiang.engine.IllegalActionError` and changes nothing. After every change each
connection is sent its own seat's state (:mod:`majiang.web.state`).

Auto-win (听牌, "the system wins for me"): a seated player whose hand is ready may switch it on
(:meth:`Room.set_auto_win`); for the rest of that hand, whenever a win is among the seat's legal
actions (self-drawn, on a discard, robbing a kong) the server declares it at once, without waiting
for the click. It is off again at the next hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from majiang.engine import PASS, Action, ActionKind, IllegalActionError, Match, RuleSet
from majiang.players import make_bot
from majiang.web.state import hand_results, seat_state, seat_waits

log = logging.getLogger("majiang.web")

BOT_KINDS = ("efficiency", "random")


@dataclass
class Place:
    """One of the four places: a user (``user_id``), a bot (``bot`` = kind) or empty."""

    user_id: int | None = None
    name: str = ""
    bot: str | None = None
    player: Any = None

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.bot is None


@dataclass
class Conn:
    """One WebSocket: its sender sends the outbox, then the newest state, whenever ``event`` is set
    (states are coalesced: a slow client gets the latest, in order)."""

    user_id: int | None
    event: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: list[dict] = field(default_factory=list)

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
    places: list[Place] = field(default_factory=lambda: [Place() for _ in range(4)])
    match: Match | None = None
    seed: int = 0
    conns: list[Conn] = field(default_factory=list)
    deadlines: dict[int, float] = field(default_factory=dict)
    version: int = 0
    game_id: int | None = None
    on_finish: Callable[[Room], Any] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task | None = None
    _results: list[dict] = field(default_factory=list)
    _results_n: int = -1
    timeouts: int = 0
    auto_win: dict[int, int] = field(default_factory=dict)  # seat -> the hand number it was switched on in
    auto_wins: int = 0
    created: float = field(default_factory=time.time)
    finished_at: float = 0.0

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

    def join(self, place: int, user_id: int, name: str) -> None:
        if self.started:
            raise ValueError("the game has started")
        if not 0 <= place < 4:
            raise ValueError("no such seat")
        if self.place_of(user_id) is not None:
            raise ValueError("you already sit at this table")
        if not self.places[place].empty:
            raise ValueError("that seat is taken")
        self.places[place] = Place(user_id=user_id, name=name)

    def leave(self, user_id: int) -> None:
        p = self.place_of(user_id)
        if p is not None and not self.started:
            self.places[p] = Place()

    def fill_bots(self, kind: str = "efficiency") -> None:
        if kind not in BOT_KINDS:
            raise ValueError(f"bot kind must be one of {BOT_KINDS}")
        if self.started:
            raise ValueError("the game has started")
        n = 0
        for p, pl in enumerate(self.places):
            if pl.empty:
                n += 1
                self.places[p] = Place(bot=kind, name=f"{kind}-bot-{n}")

    def names_by_seat(self) -> list[str]:
        if self.match is None:
            return [pl.name for pl in self.places]
        return [self.places[self.match.player_at_seat[s]].name for s in range(4)]

    # ------------------------------------------------------------------ start and loop
    def maybe_start(self) -> bool:
        if self.started or any(pl.empty for pl in self.places):
            return False
        self.seed = secrets.randbelow(2**62)
        self.match = Match(self.rules, seed=self.seed, names=[pl.name for pl in self.places],
                           max_hands=self.max_hands)
        for p, pl in enumerate(self.places):
            if pl.bot is not None:
                pl.player = _bot(pl.bot, self.rules, self.seed + p)
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        return True

    async def _run(self) -> None:
        m = self.match
        assert m is not None
        try:
            while not m.finished:
                pending = m.pending_seats()
                if self._auto_wins(pending):
                    self._changed()
                    continue
                bots = [s for s in pending if self.places[m.player_at_seat[s]].bot is not None]
                if bots:
                    if self.bot_delay:
                        await asyncio.sleep(self.bot_delay)
                    for s in bots:
                        if s in m.pending_seats():
                            self._bot_move(s)
                    self._changed()
                    if not self.bot_delay:
                        await asyncio.sleep(0)  # let connections and other tables run
                    continue
                now = time.monotonic()
                for s in list(self.deadlines):
                    if s not in pending:
                        del self.deadlines[s]
                fresh = False
                for s in pending:
                    if s not in self.deadlines:
                        self.deadlines[s] = now + self.turn_time
                        fresh = True
                if fresh:
                    self.notify()
                due = [s for s in pending if self.deadlines[s] <= now]
                if due:
                    for s in due:
                        if s in m.pending_seats():
                            self.timeouts += 1
                            m.apply(s, auto_action(m, s))
                    self._changed()
                    continue
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), min(self.deadlines[s] for s in pending) - now)
            self.deadlines.clear()
            self.finished_at = time.time()
            if self.on_finish is not None:
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

    def _auto_wins(self, pending: list[int]) -> bool:
        """Declare the win for every pending seat with auto-win on that is offered one."""
        m = self.match
        assert m is not None
        done = False
        for s in pending:
            if not self.auto_win_on(s) or s not in m.pending_seats():
                continue
            win = next((a for a in m.legal_actions(s) if a.kind is ActionKind.WIN), None)
            if win is not None:
                m.apply(s, win)
                self.auto_wins += 1
                done = True
        return done

    def _bot_move(self, seat: int) -> None:
        """A bot's move; should a bot fail or offer something illegal, the server's default move
        is played instead (the table never stalls)."""
        m = self.match
        assert m is not None
        pl = self.places[m.player_at_seat[seat]]
        try:
            m.apply(seat, pl.player.choose(m.view(seat), m.legal_actions(seat)))
            return
        except Exception:
            log.exception("table %s: bot at seat %d failed; playing the default move", self.id, seat)
        m.apply(seat, auto_action(m, seat))

    def _changed(self) -> None:
        self.version += 1
        self._wake.set()
        self.notify()

    # ------------------------------------------------------------------ human actions
    def act(self, user_id: int | None, action: Action) -> None:
        """Apply a user's action for his own seat. Raises ``PermissionError`` for a spectator and
        :class:`IllegalActionError` (nothing changed) for anything the engine refuses."""
        m = self.match
        if m is None or m.finished:
            raise IllegalActionError("the game is not in play")
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        m.apply(seat, action)
        self._changed()

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
        if not on:
            self.auto_win.pop(seat, None)
        else:
            if not self.auto_win_on(seat) and seat_waits(m.view(seat), self.rules) is None:
                raise ValueError("auto-win can be switched on once your hand is ready (听牌)")
            self.auto_win[seat] = m.hand_number
        self._changed()

    # ------------------------------------------------------------------ connections
    def state_for(self, user_id: int | None) -> dict[str, Any]:
        seat = self.seat_of(user_id)
        m = self.match
        out: dict[str, Any] = {
            "type": "state", "table": self.id, "version": self.version, "status": self.status,
            "seat": seat, "place": self.place_of(user_id), "names": self.names_by_seat(),
            "bots": [None] * 4, "rules": self.rules.name, "max_hands": self.max_hands,
            "turn_time": self.turn_time, "game_id": self.game_id,
        }
        if m is None:
            out["places"] = [{"name": pl.name, "bot": pl.bot, "empty": pl.empty} for pl in self.places]
            return out
        out["bots"] = [self.places[m.player_at_seat[s]].bot for s in range(4)]
        out["scores"] = list(m.scores)
        if self._results_n != len(m.events):
            self._results = hand_results(m.events, self.rules)
            self._results_n = len(m.events)
        out["results"] = self._results
        out["live"] = seat_state(m, seat, deadlines=self.deadlines, now=time.monotonic(),
                                 auto_win=seat is not None and self.auto_win_on(seat))
        return out

    def notify(self) -> None:
        """Tell every connection that the state changed."""
        for c in self.conns:
            c.event.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


def _bot(kind: str, rules: RuleSet, seed: int) -> Any:
    return make_bot(kind, rules, seed)


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
    """Every table of this server process."""

    def __init__(self, *, bot_delay: float = 0.0) -> None:
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay

    def create(self, *, creator_id: int, creator: str, rules: RuleSet, options_text: str,
               max_hands: int | None, turn_time: float, on_finish: Callable[[Room], Any] | None = None) -> Room:
        self.prune()
        rid = secrets.token_urlsafe(6)
        room = Room(rid, creator_id, creator, rules, options_text, max_hands, turn_time, self.bot_delay,
                    on_finish=on_finish)
        self.rooms[rid] = room
        return room

    def prune(self, *, finished_after: float = 600.0, open_after: float = 6 * 3600.0) -> None:
        """Forget tables finished (and stored) a while ago, and tables left open too long."""
        now = time.time()
        for rid, r in list(self.rooms.items()):
            if (r.finished and r.game_id is not None and now - r.finished_at > finished_after) or \
                    (not r.started and now - r.created > open_after):
                del self.rooms[rid]

    def get(self, rid: str) -> Room | None:
        return self.rooms.get(rid)

    def open_tables(self) -> list[Room]:
        return sorted((r for r in self.rooms.values() if not r.finished), key=lambda r: r.created)

    async def close(self) -> None:
        for r in self.rooms.values():
            await r.close()
