"""Seating at a table and the people's own requests (:class:`Seating`, a part of
:class:`majiang.web.rooms.Room`).

A room has four places, each a user, a bot or empty (:class:`Place`); once all four are taken the
match seats the players by its own draw, so a place ``p`` sits at ``match.seat_of_player[p]``. A
person acts only for his own seat: an action, "continue" at a hand's end, taking the seat back from
托管, switching "win for me" (auto-win) on or off. Every request becomes a row of the table's log
(:mod:`majiang.web.room_log`).
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.engine import Action, IllegalActionError
from majiang.web.room_log import RoomError, _row_action
from majiang.web.state import seat_waits

BOT_KINDS = ("efficiency", "strong", "random", "learned")  # no python: bots: a form never names code to import


@dataclass
class Place:
    """One of the four places: a user (``user_id``), a bot (``bot`` = kind) or empty."""

    user_id: int | None = None
    name: str = ""
    bot: str | None = None
    avatar: str = ""  # the person's avatar (majiang.web.avatars), "" for none or a bot

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.bot is None

    def to_json(self) -> dict:
        return {"user_id": self.user_id, "name": self.name, "bot": self.bot, "avatar": self.avatar}


class Seating:
    """Places, seats and the people's requests of a :class:`~majiang.web.rooms.Room`."""

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

    def join(self, place: int, user_id: int, name: str, avatar: str = "") -> None:
        if self.started:
            raise RoomError("the game has started")
        if not 0 <= place < 4:
            raise RoomError("no such seat")
        if self.place_of(user_id) is not None:
            raise RoomError("you already sit at this table")
        if not self.places[place].empty:
            raise RoomError("that seat is taken")
        row = {"kind": "join", "place": place, "user_id": user_id, "name": name}
        if avatar:
            row["avatar"] = avatar
        self.commit(row)

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

    def _places_after(self, row: dict) -> list[Place]:
        places = [Place(p.user_id, p.name, p.bot, p.avatar) for p in self.places]
        k = row["kind"]
        if k == "join":
            places[row["place"]] = Place(user_id=row["user_id"], name=row["name"], avatar=row.get("avatar", ""))
        elif k == "move":
            places[row["from"]], places[row["to"]] = places[row["to"]], places[row["from"]]
        elif k == "leave":
            places[row["place"]] = Place()
        elif k == "bots":
            n = 0
            for p, pl in enumerate(places):
                if pl.empty:
                    n += 1
                    places[p] = Place(bot=row["bot"], name=f"{row['bot']}-bot-{n}")
        return places

    # ------------------------------------------------------------------ people's requests
    def act(self, user_id: int | None, action: Action) -> None:
        """Apply a user's action for his own seat. Raises ``PermissionError`` for a spectator and
        :class:`IllegalActionError` (nothing changed) for anything the engine refuses."""
        self.commit(self._act_row(user_id, action))

    async def act_async(self, user_id: int | None, action: Action) -> None:
        """:meth:`act` from the event loop (a socket's message): the table is held while the step
        is written and other tables are served meanwhile (:meth:`commit_async`)."""
        await self.commit_async(self._act_row(user_id, action))

    def _act_row(self, user_id: int | None, action: Action) -> dict:
        m = self.match
        if m is None or m.finished:
            raise IllegalActionError("the game is not in play")
        seat = self.seat_of(user_id)
        if seat is None:
            raise PermissionError("you have no seat at this table")
        return {"kind": "act", "seat": seat, "action": _row_action(action), "by": "user"}

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
