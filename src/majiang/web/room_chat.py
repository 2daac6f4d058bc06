"""Table chat (对谈) and the creator's seating powers (:class:`RoomChat`, a part of
:class:`majiang.web.rooms.Room`).

Players talk to players, spectators to spectators: a player's line never reaches a spectator and a
spectator's line never reaches a player (no coaching during a hand). A line is a quick phrase
(快捷语, an id of :data:`PHRASES`, shown in each reader's language) or free text (1-60 characters,
no control or invisible characters; the pages show it as text, never as markup). Each person may
say at most :data:`CHAT_LIMIT` lines in :data:`CHAT_WINDOW` seconds at a table (the next is refused
with a reason); a player may mute another player for the table (the muted one's lines stop reaching
him); the table's creator may switch free text off (quick phrases stay). Bots never chat.

Every line, mute and switch is a row of the table's log (:mod:`majiang.web.room_log`), so a line is
never lost once acknowledged, every process hears it, and the finished game keeps the lines for its
replay (``games.chat``, docs/server.md "Table chat"). The rows:

============= ==================================================================================
``chat``        ``user_id``, ``name``, ``seat`` (index into the state's ``names``, or null for a
                spectator), ``audience`` (``players``/``spectators``), ``text`` or ``phrase``,
                ``at`` (events of the match so far: the replay step it was said at), ``hand`` (the
                match's hand number, from 0; null before the deal), ``t`` (epoch seconds)
``mute``        ``by``, ``user_id``, ``on``: ``by`` stops (or starts again) hearing ``user_id``
``free_text``   ``on``: the creator allows free text, or quick phrases only
``move``        ``from``, ``to``: the creator moves the person at place ``from`` to place ``to``
              (swapping with whoever sits there), before the start
============= ==================================================================================
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import Any

from majiang.web.room_log import RoomError

#: the quick phrases, by id; their texts are the catalogues' ``phrase.<id>`` (Chinese, English)
PHRASES = ("hi", "hurry", "nice", "sorry", "thanks", "wait", "lucky", "again", "good_game", "oops", "close",
           "bye")
MAX_CHAT = 60  # characters of a free-text line
CHAT_LIMIT = 10  # lines per person ...
CHAT_WINDOW = 10.0  # ... in this many seconds
HISTORY = 50  # lines a page is sent when it connects


class ChatError(RoomError):
    """A chat line, mute or switch refused (the message says why)."""


def clean_text(raw: Any) -> str:
    """A free-text line as said: stripped, NFC; raises :class:`ChatError` when empty, over
    :data:`MAX_CHAT` characters, or holding control or invisible characters."""
    if not isinstance(raw, str):
        raise ChatError("a chat line is text")
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise ChatError("a chat line cannot be empty")
    if len(text) > MAX_CHAT:
        raise ChatError(f"a chat line is at most {MAX_CHAT} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") for ch in text):
        raise ChatError("a chat line cannot hold control or invisible characters")
    return text


class RoomChat:
    """Chat lines, mutes, the free-text switch and the creator's seat moves of a Room."""

    # ------------------------------------------------------------------ requests
    def speaker_seat(self, user_id: int | None) -> int | None:
        """Where a user sits as the state's ``names`` index (the place before the deal, the seat
        after), or ``None`` for a spectator."""
        p = self.place_of(user_id)
        if p is None:
            return None
        return p if self.match is None else self.match.seat_of_player[p]

    def say(self, user_id: int | None, name: str, *, text: Any = None, phrase: Any = None,
            now: float | None = None) -> None:
        """A person's chat line (``text`` or a quick ``phrase`` id). Raises :class:`ChatError` for a
        line refused: nobody logged in, the game over, an unknown phrase, bad or switched-off free
        text, more than :data:`CHAT_LIMIT` lines in :data:`CHAT_WINDOW` seconds."""
        if user_id is None:
            raise ChatError("log in to chat")
        if self.finished:
            raise ChatError("the game is over")
        row: dict[str, Any] = {"kind": "chat", "user_id": user_id, "name": name}
        if phrase is not None:
            if phrase not in PHRASES:
                raise ChatError("unknown quick phrase")
            row["phrase"] = phrase
        else:
            if not self.free_text:
                raise ChatError("free text is off at this table; use the quick phrases")
            row["text"] = clean_text(text)
        now = time.monotonic() if now is None else now
        hits = self._chat_hits.setdefault(user_id, deque())
        while hits and hits[0] <= now - CHAT_WINDOW:
            hits.popleft()
        if len(hits) >= CHAT_LIMIT:
            wait = max(1, round(hits[0] + CHAT_WINDOW - now))
            raise ChatError(f"too many chat lines; wait {wait} s")
        seat = self.speaker_seat(user_id)
        m = self.match
        row.update(seat=seat, audience="players" if seat is not None else "spectators",
                   at=len(m.events) if m is not None else 0, hand=m.hand_number if m is not None else None,
                   t=round(time.time(), 3))
        self.commit(row)
        hits.append(now)

    def mute(self, user_id: int | None, seat: Any, on: bool) -> None:
        """A player stops (``on``) or starts again hearing the player at ``seat`` (an index into the
        state's ``names``)."""
        if self.place_of(user_id) is None:
            raise ChatError("only players can mute a player")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise ChatError("no such seat")
        p = seat if self.match is None else self.match.player_at_seat[seat]
        target = self.places[p].user_id
        if target is None:
            raise ChatError("nobody to mute there")
        if target == user_id:
            raise ChatError("you cannot mute yourself")
        self.commit({"kind": "mute", "by": user_id, "user_id": target, "on": bool(on)})

    def set_free_text(self, user_id: int | None, on: bool) -> None:
        """The creator allows free text (``on``) or quick phrases only."""
        if user_id != self.creator_id:
            raise ChatError("only the table's creator can switch free text")
        self.commit({"kind": "free_text", "on": bool(on)})

    def move(self, user_id: int | None, src: int, dst: int) -> None:
        """The creator moves the person at place ``src`` to place ``dst`` (swapping), before the start."""
        if user_id != self.creator_id:
            raise RoomError("only the table's creator can move people")
        if self.started:
            raise RoomError("the game has started")
        if not (0 <= src < 4 and 0 <= dst < 4) or src == dst:
            raise RoomError("no such seat")
        if self.places[src].empty:
            raise RoomError("nobody sits there")
        self.commit({"kind": "move", "from": src, "to": dst})

    def remove(self, user_id: int | None, place: int) -> None:
        """The creator removes whoever sits at ``place`` (a person or a bot), before the start."""
        if user_id != self.creator_id:
            raise RoomError("only the table's creator can remove people")
        if self.started:
            raise RoomError("the game has started")
        if not 0 <= place < 4:
            raise RoomError("no such seat")
        if self.places[place].empty:
            raise RoomError("nobody sits there")
        self.commit({"kind": "leave", "place": place, "by": "creator"})

    # ------------------------------------------------------------------ the rows
    def _check_chat(self, row: dict) -> None:
        if row["kind"] == "move" and self.started:
            raise RoomError("the game has started")

    def _apply_chat(self, row: dict) -> None:
        """Apply a chat, mute or free-text row (the log's ``seq`` is already counted)."""
        k = row["kind"]
        if k == "chat":
            line = {key: row.get(key) for key in ("user_id", "name", "seat", "audience", "text", "phrase", "at",
                                                 "hand", "t") if key in row}
            self.chat.append(line)
            if not self._replaying:
                self._deliver(line)
            return  # nothing else changed: no new state is sent
        if k == "mute":
            muted = self.muted.setdefault(row["by"], set())
            if row["on"]:
                muted.add(row["user_id"])
            else:
                muted.discard(row["user_id"])
        elif k == "free_text":
            self.free_text = bool(row["on"])
        self._changed()

    # ------------------------------------------------------------------ who hears what
    def hears(self, user_id: int | None, line: dict) -> bool:
        """Whether ``user_id`` (a player or a spectator) is shown ``line``: players hear players
        (but not the ones they muted), spectators hear spectators."""
        player = user_id is not None and self.place_of(user_id) is not None
        if line.get("audience") != ("players" if player else "spectators"):
            return False
        return line.get("user_id") not in self.muted.get(user_id, ()) if user_id is not None else True

    def chat_message(self, line: dict, lang: str, *, history: bool = False) -> dict:
        """The WebSocket message of a line, in ``lang`` for a quick phrase."""
        from majiang.web import i18n

        out = {"type": "chat", "seat": line.get("seat"), "name": line.get("name", ""),
               "text": line.get("text") if "text" in line else i18n.t(lang, "phrase." + line["phrase"]),
               "audience": line.get("audience"), "at": line.get("at", 0), "t": line.get("t")}
        if "phrase" in line:
            out["phrase"] = line["phrase"]
        if history:
            out["history"] = True
        return out

    def _deliver(self, line: dict) -> None:
        for c in self.conns:
            if getattr(c, "protocol", "page") == "page" and self.hears(c.user_id, line):
                c.push(self.chat_message(line, getattr(c, "lang", "zh")))

    def chat_history(self, user_id: int | None, lang: str) -> list[dict]:
        """The last :data:`HISTORY` lines ``user_id`` may see, as messages (for a page connecting)."""
        lines = [ln for ln in self.chat if self.hears(user_id, ln)][-HISTORY:]
        return [self.chat_message(ln, lang, history=True) for ln in lines]

    def chat_record(self) -> list[dict]:
        """Every line of the table (both audiences), for the stored game and its replay: ``seat``,
        ``name``, ``audience``, ``text`` or ``phrase``, ``at``, ``hand``, ``t`` (no user ids)."""
        return [{k: v for k, v in ln.items() if k != "user_id"} for ln in self.chat]

    def chat_state(self, user_id: int | None) -> dict:
        """The state's ``chat`` entry: free text on or off, the seats the viewer muted, and whether
        the viewer may speak (logged in) and to whom."""
        muted = self.muted.get(user_id, set()) if user_id is not None else set()
        names_users = self._users_by_index()
        return {"free_text": self.free_text,
                "muted": [i for i, u in enumerate(names_users) if u is not None and u in muted],
                "audience": "players" if self.place_of(user_id) is not None else "spectators"}

    def _users_by_index(self) -> list[int | None]:
        if self.match is None:
            return [pl.user_id for pl in self.places]
        return [self.places[self.match.player_at_seat[s]].user_id for s in range(4)]
