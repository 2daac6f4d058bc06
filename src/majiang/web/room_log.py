"""A table's log and how a room follows it (:class:`RoomLog`, a part of :class:`majiang.web.rooms.Room`).

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
``chat``     a chat line; ``mute``, ``free_text``: chat settings; ``move``: the creator moves a person
             (:mod:`majiang.web.room_chat` gives their fields)
========== ==================================================================================

One process runs a table's clock and bots (the holder of its lease, :mod:`majiang.web.lobby`); any
process can accept a person's action for it: its append either succeeds (and all processes hear
of it) or conflicts, in which case the room catches up from the log and the action is judged again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from majiang.engine import Action, ActionKind, IllegalActionError, Match
from majiang.engine import Match as _EngineMatch
from majiang.engine.actions import Phase
from majiang.web.state import meld_json
from majiang.web.store import LogConflict

log = logging.getLogger("majiang.web")


SEATING = ("join", "leave", "bots", "move")  # rows that change the places (before the start)
CHAT = ("chat", "mute", "free_text")  # rows of the table's chat (majiang.web.room_chat)


class EndedHand:
    """A hand that has ended, as :func:`majiang.web.state.seat_state` reads a match: its own table
    (as it ended), the match's seating and scores, no decision pending. The room shows it during the
    hand-end pause instead of the next hand, which the match has already dealt."""

    def __init__(self, match: Any, table: Any, hand: int) -> None:
        self.table, self.rules, self.player_at_seat = table, match.rules, match.player_at_seat
        self.scores, self.hand_number, self.round = list(match.scores), hand, match.round

    def legal_actions(self, seat: int) -> list:
        return []

    def pending_seats(self) -> list[int]:
        return []

    def view(self, seat: int) -> Any:
        return _EngineMatch.view(self, seat)  # type: ignore[arg-type]


class RoomError(ValueError):
    """A change a room refuses (a taken seat, a started game, an unknown bot kind...)."""


def _action(a: list | tuple) -> Action:
    """An action from its row form ``[kind, tile, low]``."""
    kind, tile, low = a
    return Action(ActionKind(kind), tile, low)


def _row_action(a: Action) -> list:
    """An action's row form ``[kind, tile, low]``."""
    return [a.kind.value, a.tile, a.low]


class RoomLog:
    """Judging, writing and applying the rows of a :class:`~majiang.web.rooms.Room`'s log."""

    def commit(self, row: dict) -> None:
        """Judge ``row``, write it to the log, apply it. Raises (and changes nothing) when the row is
        refused; a conflict with another process is resolved by catching up and judging again."""
        for _attempt in range(5):  # a stale copy finds out by the conflict, catches up and judges again
            self._check(row)
            if self.store is None:
                self._apply(row)
                return
            status, places = self._table_row_change(row)
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

    async def commit_async(self, row: dict, *, if_seq: int | None = None) -> bool:
        """:meth:`commit` for the event loop: the table is held (its other rows wait) while its step
        is written, and the loop serves other tables meanwhile (on PostgreSQL the round trip is
        out; :meth:`~majiang.web.store.TableStore.append_async`). The row is judged when the table
        is free, and applied (and told) once it is durable, so nothing is shown before it is in the
        log. ``if_seq``: the row was decided on the table as it was at that step (a bot's move, a
        clock running out); if the table has moved on by the time it is free, nothing is written
        and False is returned. Raises as :meth:`commit` when the row is refused."""
        store = self.store
        async with self._write_lock:
            if if_seq is not None and self.seq != if_seq:
                return False
            if store is None:
                self.commit(row)
                return True
            for _attempt in range(5):
                self._check(row)
                status, places = self._table_row_change(row)
                seq = self.seq + 1
                written = store.queue_step(self.id, seq, row, status=status, places=places)
                try:
                    await asyncio.shield(written)
                except asyncio.CancelledError:
                    # the table's task stopped (its lease lost, the server stopping) while the step
                    # was out: it may be written all the same, and this copy then applies it, so it
                    # never lags its own process's step (whose notification it does not hear)
                    with contextlib.suppress(BaseException):
                        await written
                    if written.done() and not written.cancelled() and written.exception() is None \
                            and self.seq < seq:
                        self._apply(row)
                    raise
                except LogConflict:
                    self.catch_up()
                    if self.stale:
                        raise RoomError("the table is being reloaded; try again") from None
                    if if_seq is not None:
                        return False
                    continue
                # a row committed meanwhile by this process (chat, seating: :meth:`commit`) found
                # this one in the log and applied it on its way: it is not applied twice
                if self.seq < seq:
                    self._apply(row)
                return True
            raise RoomError("the table is busy; try again")

    def _table_row_change(self, row: dict) -> tuple[str | None, list[dict] | None]:
        """What writing ``row`` changes in the table's own row: its status (at the start), its places
        (a seating row)."""
        status = "playing" if row["kind"] == "start" else None
        places = [p.to_json() for p in self._places_after(row)] if row["kind"] in SEATING else None
        return status, places

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
        self._offered.clear()
        if self.pause is not None:
            self.pause["deadline"] = time.monotonic() + self.hand_pause
        m = self.match
        self._turn_from = None
        if m is not None and m.hold_windows and m.table is not None and m.table.phase in (Phase.CLAIM, Phase.ROB):
            self._window_opened = time.monotonic()  # a held window open at the restart gets its full time again


    def _check(self, row: dict) -> None:
        """Raise if ``row`` cannot be applied now (nothing is changed)."""
        k = row["kind"]
        m = self.match
        if k in CHAT:
            self._check_chat(row)
            return
        if k in SEATING:
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
        if k in CHAT:
            self._apply_chat(row)
            return
        if k in SEATING:
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
            self.drop_clock(seat, time.monotonic())
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
        self._offered.clear()
        self._ended = None
        if not m.finished and self.hand_pause > 0 and self.human_seats():
            self.pause = {"hand": hand, "deadline": time.monotonic() + self.hand_pause,
                          "waiting": set(self.human_seats())}
            if table is not None:
                self._ended = EndedHand(m, table, hand)
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
