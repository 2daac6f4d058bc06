"""A table's clock, its claim windows and its bots (:class:`RoomClock`, a part of
:class:`majiang.web.rooms.Room`): the loop the holder of the table's lease runs.

**A clock per decision.** Each decision a person is offered (a turn, a claim window) has its own
deadline, ``turn_time`` seconds from the moment it is offered, dropped when the seat acts or is no
longer awaited; only that seat is told its ``time_left``. **A time bank** (``reserve_time`` > 0):
each person also has ``reserve_time`` seconds per hand, used once a decision's ``turn_time`` is
spent (``live.reserve_left``); the time used beyond ``turn_time`` is taken from it in whole seconds,
and the clock plays for the seat when both are spent (after a :data:`GRACE` for the network). Out of time, the server plays the seat's
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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from majiang.engine import PASS, Action, ActionKind, Match
from majiang.engine.actions import Phase
from majiang.errors import MajiangError
from majiang.players import make_bot
from majiang.web.room_log import _row_action

log = logging.getLogger("majiang.web")

#: seconds past a seat's time (base + reserve) before the clock plays for it, on tables with a
#: time bank: an answer sent in time still counts when the network delays it a little
GRACE = 0.5


class RoomClock:
    """The game loop of a :class:`~majiang.web.rooms.Room`: clocks, pauses, held windows, bots."""

    def maybe_start(self) -> bool:
        """Start the room's loop (this process holds the lease) if the match is on."""
        if self.match is None or self.match.finished or self._task is not None:
            return False
        self.leader = True
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        return True

    def _sync_clocks(self, now: float) -> None:
        """One deadline per pending decision of a person (not in 托管); none during a pause. With a
        time bank the deadline is ``turn_time`` plus the seat's reserve left in this hand."""
        m = self.match
        assert m is not None
        if self._reserve_hand != m.hand_number:  # a new hand: every reserve is full again
            self._reserve_hand = m.hand_number
            self._reserve = {s: self.reserve_time for s in range(4)}
        pending = set(m.pending_seats()) if self.pause is None else set()
        for s in list(self.deadlines):
            if s not in pending:
                self.drop_clock(s, now)
        for s in pending:
            if s not in self.deadlines and self.is_human(s) and s not in self.auto_play:
                self._offered[s] = now
                self.deadlines[s] = now + self.turn_time + self._reserve.get(s, 0.0)

    def drop_clock(self, seat: int, now: float) -> None:
        """The seat's decision is over (it acted, or is no longer awaited): its clock stops and the
        time it used beyond ``turn_time`` is taken from its reserve, in whole seconds (rounded: an
        overrun of 1.3 s costs 1 s, of 1.6 s 2 s)."""
        self.deadlines.pop(seat, None)
        t0 = self._offered.pop(seat, None)
        if t0 is None or self.reserve_time <= 0:
            return
        over = now - t0 - self.turn_time
        if over > 0:
            self._reserve[seat] = max(0.0, self._reserve.get(seat, 0.0) - int(over + 0.5))

    def reserve_left(self, seat: int, now: float) -> float:
        """The seat's reserve seconds left now (counting down while its base time is used up)."""
        left = self._reserve.get(seat, self.reserve_time) if self._reserve_hand is not None else self.reserve_time
        t0 = self._offered.get(seat)
        if t0 is not None and seat in self.deadlines:
            left -= max(0.0, now - t0 - self.turn_time)
        return max(0.0, round(left, 1))

    def _grace(self) -> float:
        """With a time bank, the clock plays for a seat :data:`GRACE` seconds after its time is up
        (what the network may add to an answer sent in time); without one, at once (as ever)."""
        return GRACE if self.reserve_time > 0 else 0.0

    async def _run(self) -> None:
        m = self.match
        assert m is not None
        try:
            while not m.finished:
                now = time.monotonic()
                self._sync_clocks(now)
                if self.pause is not None:
                    if now >= self.pause["deadline"]:
                        await self._try_async({"kind": "next", "hand": self.pause["hand"]}, self.seq)
                        continue
                    await self._sleep(self.pause["deadline"] - now)
                    continue
                pending = m.pending_seats()
                if await self._auto_wins(pending):
                    continue
                # seats in 托管 are played at once
                auto = [s for s in pending if self.is_human(s) and s in self.auto_play]
                if auto:
                    for s in auto:
                        if s in m.pending_seats() and self.pause is None:
                            await self._try_async({"kind": "act", "seat": s, "action": _row_action(auto_action(m, s)),
                                                   "by": "auto"}, self.seq)
                    continue
                due = [s for s in pending if s in self.deadlines and self.deadlines[s] + self._grace() <= now]
                if due:
                    for s in due:
                        if s in m.pending_seats() and self.pause is None:
                            self.timeouts += 1
                            if await self._try_async({"kind": "act", "seat": s,
                                                      "action": _row_action(auto_action(m, s)), "by": "clock"},
                                                     self.seq):
                                await self._try_async({"kind": "autoplay", "seat": s})
                    continue
                if not pending and m.window_closable:  # a held window: closed when its time is up
                    due = (self._window_opened if self._window_opened is not None else now) + self.claim_pause
                    if now >= due:
                        await self._try_async({"kind": "close", "hand": m.hand_number}, self.seq)
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
                await self._sleep(min(self.deadlines.values()) + self._grace() - now)
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

    async def _try_async(self, row: dict, if_seq: int | None = None) -> bool:
        """Commit a row of the server's own (clock, bots); False if it no longer applies. ``if_seq``
        is the step it was decided at: nothing is written if the table moved on while it waited to
        write (:meth:`commit_async`)."""
        try:
            return await self.commit_async(row, if_seq=if_seq)
        except (MajiangError, ValueError) as e:
            log.debug("table %s: %s refused: %s", self.id, row.get("kind"), e)
            return False

    async def _auto_wins(self, pending: list[int]) -> bool:
        """Declare the win for every pending seat with auto-win on that is offered one."""
        m = self.match
        assert m is not None
        done = False
        for s in pending:
            if not self.auto_win_on(s) or s not in m.pending_seats():
                continue
            win = next((a for a in m.legal_actions(s) if a.kind is ActionKind.WIN), None)
            if win is not None and await self._try_async({"kind": "act", "seat": s, "action": _row_action(win),
                                                          "by": "auto"}, self.seq):
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
        if legal and legal[0].kind is ActionKind.DECIDE:  # pre-play decision: the rule set's default policy
            await self._try_async({"kind": "act", "seat": seat, "action": _row_action(auto_action(m, seat)),
                                   "by": "bot"}, seq)
            return
        try:
            a = await asyncio.to_thread(bot.choose, view, legal) if self.bot_threads else bot.choose(view, legal)
        except Exception:
            log.exception("table %s: bot at seat %d failed; playing the default move", self.id, seat)
            a = None
        if self.seq != seq or m.finished or self.pause is not None or seat not in m.pending_seats():
            return  # the table moved on while it thought: the loop asks again
        if a is not None and await self._try_async({"kind": "act", "seat": seat, "action": _row_action(a),
                                                    "by": "bot"}, seq):
            return
        if self.seq == seq and seat in m.pending_seats():
            await self._try_async({"kind": "act", "seat": seat, "action": _row_action(auto_action(m, seat)),
                                   "by": "auto"}, seq)


def auto_action(m: Match, seat: int) -> Action:
    """What the server plays for a seat out of time: discard the drawn tile (else the first offered
    discard), pass in a claim window (else the first offered action)."""
    d = m.default_action(seat)  # a rule set's pre-play decision (定缺): its default policy
    if d is not None:
        return d
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
