"""Botzone's Chinese Standard Mahjong protocol, both directions.

Source: the Botzone wiki page *Chinese-Standard-Mahjong* (request/response tables, scoring, the
duplicate format) and *Bot* (JSON and simple interaction, keep-running mode); the judge of
``ailab-pku/Chinese-Standard-Mahjong`` (read, not copied). Summary in ``docs/protocol.md``.

Requests (judge → bot), one line each; tiles ``W1``-``W9`` (characters), ``B1``-``B9`` (dots),
``T1``-``T9`` (bamboo), ``F1``-``F4`` (East South West North), ``J1``-``J3`` (Red Green White),
``H1``-``H8`` (flowers):

=====================================  ==========================================================
``0 id quan``                          your seat (0 = East = dealer) and the prevalent wind 0-3
``1 h0 h1 h2 h3 <13 tiles> <flowers>`` flower counts per seat, your 13 tiles, then every seat's
                                       flowers in seat order
``2 T``                                you drew ``T``
``3 p BUHUA H``                        seat ``p`` drew flower ``H`` and replaces it
``3 p DRAW``                           seat ``p`` drew
``3 p PLAY T``                         seat ``p`` discarded ``T``
``3 p PENG T``                         ``p`` punged the last discard and discarded ``T``
``3 p CHI M T``                        ``p`` chowed the last discard (chow middle ``M``), discarded ``T``
``3 p GANG``                           ``p`` declared a kong: concealed if ``p`` had just drawn,
                                       else of the last discard
``3 p BUGANG T``                       ``p`` added ``T`` to a melded pung
=====================================  ==========================================================

Responses (bot → judge): ``PASS``; after your draw ``PLAY T`` / ``GANG T`` (concealed kong) /
``BUGANG T`` / ``HU``; after another's discard ``PENG T`` / ``CHI M T`` (``T`` = the tile you then
discard) / ``GANG`` / ``HU``; after another's ``BUGANG``, ``HU`` robs the kong.

:class:`SeatState` follows one seat's requests and gives its legal responses
(:meth:`SeatState.legal_responses`), the same rule the local judge uses
(:mod:`majiang.protocols.judge`): the 8-fan minimum on the fan total the Botzone judge uses
(flowers included; RULES.md §6 leaves them out, but there are no flowers in the duplicate
format), the last-tile rule of the duplicate format (a discard made when the next drawer's wall
quarter is empty may only be won on; a kong needs a tile left in the konger's own quarter).

Input forms read by :func:`run_bot`: the one-line JSON (``{"requests": [...], "responses": [...],
"data", "globaldata", "time_limit"}`` → ``{"response": ...}``), the simple interaction (``n``, then
``2n-1`` lines alternating requests and past responses, then ``data`` and ``globaldata`` → the
response on the first output line), and keep-running (after the answer the bot prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and then reads one request per turn: a plain request line, a
JSON string, or a JSON object whose last request is taken).

Entry points: ``majiang bot --protocol botzone`` and, lighter to start for Botzone's
process-per-turn mode, ``python -m majiang.protocols.botzone`` (:func:`main`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from majiang.engine.actions import PASS, Action, ActionKind
from majiang.engine.match import Player, PlayerView
from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.tiles import BOTZONE_CODES, EAST, NUM_KINDS, TileParseError, botzone_tile, is_flower

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a bot prints after its answer to stay alive for the next request."""

QUARTER = 34
"""Tiles in one seat's wall quarter in the duplicate format (136 / 4)."""
DEALT = 13
FULL_WALL = 144
"""The classic (non-duplicate) Botzone wall: 136 tiles and 8 flowers."""


class BotzoneProtocolError(MajiangError):
    """A request, response or input that is not Botzone's protocol, or contradicts the game so far
    (names the request number and the bad token)."""


def tile_code(t: int) -> str:
    """Botzone's code of tile index ``t`` (``W1``..., ``H8``)."""
    return BOTZONE_CODES[t]


def parse_tile(tok: str, where: str = "") -> int:
    """A Botzone tile code to its index; :class:`BotzoneProtocolError` naming ``where``."""
    try:
        return botzone_tile(tok)
    except TileParseError:
        raise BotzoneProtocolError(f"{where}: {tok!r} is not a Botzone tile (W1-9, B1-9, T1-9, F1-4, J1-3, "
                                   "H1-8)") from None


def _suited(t: int) -> bool:
    return t < 27


# ------------------------------------------------------------------------------------ state
@dataclass
class SeatState:
    """What one seat knows after the requests it has seen (and its own responses).

    Attributes:
        seat: this seat (0 = East, the dealer); ``quan``: prevalent wind 0-3.
        mode: ``"duplicate"`` (136 tiles, each seat draws from its own 34-tile quarter; Botzone's
            contests) or ``"classic"`` (144 tiles with flowers, one wall). ``None`` until known:
            a seat switches to classic when it sees a flower, else it plays duplicate.
        hand: own concealed tiles (34 counts). ``melds``: every seat's visible melds (others'
            concealed kongs are counted in ``hidden_kongs``). ``flowers``: per seat.
        rivers: discards still lying in each seat's river. ``shown``: copies of each tile in
            sight (Botzone's count for 和绝张: unclaimed discards, exposed melds).
        draws: tiles each seat has drawn (flowers included) -- the quarter sizes in duplicate.
        request: the last request (split); ``turn``: requests seen.
    """

    seat: int = -1
    quan: int = -1
    mode: str | None = None
    hand: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    hidden_kongs: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    flowers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    rivers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    shown: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    deal_flowers: int = 0
    request: list[str] = field(default_factory=list)
    turn: int = 0
    last_draw: int | None = None
    last_discard: tuple[int, int] | None = None  # (seat, tile) still claimable
    pending_shown: int | None = None  # a discard not yet known to be unclaimed
    drew: int | None = None  # seat whose draw was the last event (for 3 p GANG)
    kong_draw: bool = False  # own last draw was a kong replacement
    kong_pending: list[bool] = field(default_factory=lambda: [False] * 4)
    my_kong_tile: int | None = None  # the tile of own pending concealed kong (from own response)

    # -------------------------------------------------------------- feeding
    def _fail(self, msg: str) -> BotzoneProtocolError:
        return BotzoneProtocolError(f"request {self.turn} ({' '.join(self.request)!r}): {msg}")

    def _take(self, t: int, n: int = 1) -> None:
        if self.hand[t] < n:
            raise self._fail(f"seat {self.seat} does not hold {n} x {tile_code(t)}")
        self.hand[t] -= n

    def _settle_pending(self) -> None:
        if self.pending_shown is not None:
            self.shown[self.pending_shown] += 1
            self.pending_shown = None
        self.last_discard = None

    def _discard(self, p: int, t: int) -> None:
        if p == self.seat:
            self._take(t)
        self.rivers[p].append(t)
        self.last_discard = (p, t)
        self.pending_shown = t

    def _claimed(self) -> tuple[int, int]:
        if self.last_discard is None:
            raise self._fail("a claim with no discard to claim")
        p, t = self.last_discard
        if self.rivers[p] and self.rivers[p][-1] == t:
            self.rivers[p].pop()
        self.pending_shown = None
        self.last_discard = None
        return p, t

    def feed(self, line: str, response: str | None = None) -> None:
        """Apply one request (and, for past turns, this seat's response to it). Raises
        :class:`BotzoneProtocolError` on a request that is malformed or impossible here."""
        parts = line.split()
        self.turn += 1
        self.request = parts
        try:
            self._feed(parts)
        except (IndexError, ValueError) as e:
            if isinstance(e, BotzoneProtocolError):
                raise
            raise self._fail(f"cannot read it ({e})") from None
        if response is not None:
            self.note_response(response)

    def note_response(self, response: str) -> None:
        """Remember what this seat answered to the current request (only a concealed kong's tile
        is not repeated by a later request)."""
        r = response.split()
        if r and r[0] == "GANG" and len(r) == 2 and self.request[:1] == ["2"]:
            self.my_kong_tile = parse_tile(r[1], "response")

    def _feed(self, p: list[str]) -> None:
        kind = p[0] if p else ""
        if kind == "0":
            if len(p) != 3:
                raise self._fail("request 0 is '0 id quan'")
            self.seat, self.quan = int(p[1]), int(p[2])
            if not (0 <= self.seat <= 3 and 0 <= self.quan <= 3):
                raise self._fail("seat and quan must be 0-3")
            return
        if self.seat < 0:
            raise self._fail("the first request must be '0 id quan'")
        if kind == "1":
            counts = [int(x) for x in p[1:5]]
            if len(counts) != 4 or min(counts) < 0 or len(p) != 5 + DEALT + sum(counts):
                raise self._fail("request 1 is '1 h0 h1 h2 h3' + 13 tiles + h0+h1+h2+h3 flowers")
            for i, tok in enumerate(p[5:5 + DEALT]):
                t = parse_tile(tok, f"request {self.turn} tile {i + 1}")
                if is_flower(t):
                    raise self._fail(f"a flower {tok} among the 13 dealt tiles")
                self.hand[t] += 1
            if max(self.hand) > 4:
                raise self._fail("more than four copies of a tile in the deal")
            rest = [parse_tile(x, f"request {self.turn}") for x in p[5 + DEALT:]]
            k = 0
            for s in range(4):
                self.flowers[s] = rest[k:k + counts[s]]
                k += counts[s]
            if any(not is_flower(f) for f in rest):
                raise self._fail("only flowers may follow the 13 dealt tiles")
            self.deal_flowers = sum(counts)
            if self.deal_flowers:
                self.mode = "classic"
            return
        if kind == "2":
            if len(p) != 2:
                raise self._fail("request 2 is '2 T'")
            t = parse_tile(p[1], f"request {self.turn}")
            if is_flower(t):
                raise self._fail("a drawn flower comes as '3 p BUHUA H', never as '2 H'")
            self._settle_pending()
            self.hand[t] += 1
            if self.hand[t] > 4:
                raise self._fail(f"a fifth {p[1]}")
            self.draws[self.seat] += 1
            self.last_draw = t
            self.kong_draw = self.kong_pending[self.seat]
            self.kong_pending = [False] * 4
            self.drew = self.seat
            return
        if kind != "3" or len(p) < 3:
            raise self._fail("a request starts with 0, 1, 2 or 3")
        who = int(p[1])
        if not 0 <= who <= 3:
            raise self._fail(f"seat {who} is not 0-3")
        verb = p[2]
        if verb == "DRAW":
            self._settle_pending()
            self.draws[who] += 1
            self.drew = who
            self.kong_pending[who] = False
        elif verb == "BUHUA":
            t = parse_tile(p[3], f"request {self.turn}")
            if not is_flower(t):
                raise self._fail(f"BUHUA of {p[3]}, not a flower")
            self._settle_pending()
            self.mode = "classic"
            self.flowers[who].append(t)
            self.draws[who] += 1
        elif verb == "PLAY":
            t = parse_tile(p[3], f"request {self.turn}")
            self._discard(who, t)
            self.drew = None
        elif verb == "PENG":
            t = parse_tile(p[3], f"request {self.turn}")
            giver, c = self._claimed()
            if who == self.seat:
                self._take(c, 2)
            self.melds[who].append(Meld(MeldKind.PUNG, c, (who - giver) % 4, c))
            self.shown[c] += 3
            self._discard(who, t)
            self.drew = None
        elif verb == "CHI":
            mid = parse_tile(p[3], f"request {self.turn}")
            t = parse_tile(p[4], f"request {self.turn}")
            giver, c = self._claimed()
            if not (_suited(mid) and mid % 9 not in (0, 8) and abs(mid - c) <= 1):
                raise self._fail(f"no chow with middle {p[3]} takes {tile_code(c)}")
            for x in (mid - 1, mid, mid + 1):
                if who == self.seat and x != c:
                    self._take(x)
                self.shown[x] += 1
            self.melds[who].append(Meld(MeldKind.CHOW, mid - 1, 1, c))
            self._discard(who, t)
            self.drew = None
        elif verb == "GANG":
            if self.drew == who:  # concealed kong after a draw
                if who == self.seat:
                    t = self.my_kong_tile
                    if t is None:
                        raise self._fail("own concealed kong, but no 'GANG T' response was given")
                    self._take(t, 4)
                    self.melds[who].append(Meld(MeldKind.CONCEALED_KONG, t, 0))
                else:
                    self.hidden_kongs[who] += 1
            else:
                giver, c = self._claimed()
                if who == self.seat:
                    self._take(c, 3)
                self.melds[who].append(Meld(MeldKind.EXPOSED_KONG, c, (who - giver) % 4, c))
                self.shown[c] += 4
            self.my_kong_tile = None
            self.kong_pending[who] = True
            self.drew = None
        elif verb == "BUGANG":
            t = parse_tile(p[3], f"request {self.turn}")
            for i, m in enumerate(self.melds[who]):
                if m.kind is MeldKind.PUNG and m.tile == t:
                    self.melds[who][i] = Meld(MeldKind.ADDED_KONG, t, m.offer, t)
                    break
            else:
                raise self._fail(f"BUGANG {p[3]} without a melded pung of it")
            if who == self.seat:
                self._take(t)
            self.shown[t] = 4
            self.kong_pending[who] = True
            self.drew = None
        else:
            raise self._fail(f"unknown request verb {verb!r}")

    # -------------------------------------------------------------- the wall
    def _mode(self) -> str:
        return self.mode or "duplicate"

    def quarter_left(self, s: int) -> int:
        """Tiles left in seat ``s``'s wall quarter (duplicate format)."""
        return QUARTER - DEALT - self.draws[s]

    def wall_left(self) -> int:
        """Classic format: tiles left in the one wall."""
        return FULL_WALL - 4 * DEALT - self.deal_flowers - sum(self.draws)

    def is_last_after(self, s: int) -> bool:
        """The next draw after seat ``s``'s (the seat after ``s`` draws) cannot happen: a discard
        now is the last one (海底), a self-drawn win now the last draw (妙手回春)."""
        if self._mode() == "duplicate":
            return self.quarter_left((s + 1) % 4) <= 0
        return self.wall_left() <= 0

    def can_replace(self, s: int) -> bool:
        """Seat ``s`` could draw a kong replacement."""
        return self.quarter_left(s) > 0 if self._mode() == "duplicate" else self.wall_left() > 0

    # -------------------------------------------------------------- legality
    def win_fan(self, win: int, *, self_drawn: bool, robbing: bool = False, last: bool = False) -> int | None:
        """The Botzone fan total (flowers included) of winning on ``win`` now, or ``None`` if the
        tiles do not win. ``self_drawn``: ``win`` is already in :attr:`hand`."""
        r = self.win_result(win, self_drawn=self_drawn, robbing=robbing, last=last)
        return None if r is None else r.total

    def win_result(self, win: int, *, self_drawn: bool, robbing: bool = False, last: bool = False) -> Any:
        """The MCR scoring (:class:`majiang.rules.mcr.McrResult`) of winning on ``win`` now, or
        ``None`` if the tiles do not win. Flags as the Botzone judge sets them: 和绝张 when three
        copies are in sight, 杠上开花 on the replacement draw after any own kong, 妙手回春/海底捞月
        when the next draw cannot happen (:meth:`is_last_after`), 抢杠和 on a robbed added kong."""
        from majiang.rules.mcr import WinConditions, score

        conc = list(self.hand)
        if self_drawn:
            conc[win] -= 1
        full = list(conc)
        full[win] += 1
        if sum(full) + 3 * len(self.melds[self.seat]) != 14:
            return None
        if not _could_win(full):
            return None
        tiles = [t for t in range(NUM_KINDS) for _ in range(conc[t])]
        hand = Hand(tuple(tiles), tuple(self.melds[self.seat]), win, tuple(self.flowers[self.seat]))
        try:
            cond = WinConditions(self_drawn=self_drawn, last_of_kind=self.shown[win] >= 3,
                                 last_wall_tile=last and not robbing,
                                 kong_replacement=self_drawn and self.kong_draw, robbing_kong=robbing,
                                 seat_wind=self.seat, prevalent_wind=self.quan)
            return score(hand, cond)
        except MajiangError:
            return None

    def legal_responses(self) -> list[str]:
        """Every response this seat may give to the current request, ``PASS`` first when allowed.

        A win is listed only at 8 fan or more (the Botzone judge's count, flowers included)."""
        p = self.request
        if not p or p[0] in ("0", "1"):
            return ["PASS"]
        if p[0] == "2":
            return self._turn_responses()
        who, verb = int(p[1]), p[2]
        if who == self.seat or verb in ("DRAW", "BUHUA", "GANG"):
            return ["PASS"]
        if verb == "BUGANG":
            fan = self.win_fan(parse_tile(p[3]), self_drawn=False, robbing=True)
            return ["PASS", "HU"] if fan is not None and fan >= 8 else ["PASS"]
        # a discard by another seat: PLAY, PENG, CHI
        assert self.last_discard is not None
        giver, t = self.last_discard
        last = self.is_last_after(giver)
        out = ["PASS"]
        fan = self.win_fan(t, self_drawn=False, last=last)
        if fan is not None and fan >= 8:
            out.append("HU")
        if last:
            return out
        h = self.hand
        if h[t] >= 2:
            h[t] -= 2
            out += [f"PENG {tile_code(x)}" for x in range(NUM_KINDS) if h[x]]
            h[t] += 2
        if h[t] >= 3 and self.can_replace(self.seat):
            out.append("GANG")
        if (giver + 1) % 4 == self.seat and _suited(t):
            for mid in (t - 1, t, t + 1):
                if not (_suited(mid) and mid // 9 == t // 9 and mid % 9 not in (0, 8)):
                    continue
                need = [x for x in (mid - 1, mid, mid + 1) if x != t]
                if all(h[x] for x in need):
                    for x in need:
                        h[x] -= 1
                    out += [f"CHI {tile_code(mid)} {tile_code(x)}" for x in range(NUM_KINDS) if h[x]]
                    for x in need:
                        h[x] += 1
        return out

    def _turn_responses(self) -> list[str]:
        h = self.hand
        out = []
        assert self.last_draw is not None
        fan = self.win_fan(self.last_draw, self_drawn=True, last=self.is_last_after(self.seat))
        if fan is not None and fan >= 8:
            out.append("HU")
        out += [f"PLAY {tile_code(x)}" for x in range(NUM_KINDS) if h[x]]
        if self.can_replace(self.seat):
            out += [f"GANG {tile_code(x)}" for x in range(NUM_KINDS) if h[x] == 4]
            pungs = {m.tile for m in self.melds[self.seat] if m.kind is MeldKind.PUNG}
            out += [f"BUGANG {tile_code(x)}" for x in sorted(pungs) if h[x]]
        return out

    # -------------------------------------------------------------- engine view
    def view(self, phase: str, claim: tuple[int, int] | None = None) -> PlayerView:
        """An engine :class:`~majiang.engine.match.PlayerView` of this seat (for majiang's bots).
        Dealer = seat 0; seat winds from the seat; ``wall_live`` = own quarter (duplicate) or the
        wall (classic)."""
        hand = tuple(t for t in range(NUM_KINDS) for _ in range(self.hand[t]))
        live = self.quarter_left(self.seat) if self._mode() == "duplicate" else self.wall_left()
        return PlayerView(self.seat, self.seat, 0, 0, EAST + self.quan, EAST + self.seat, phase, hand,
                          self.last_draw if phase == "turn" else None,
                          tuple(tuple(m) for m in self.melds), tuple(self.hidden_kongs),
                          tuple(tuple(f) for f in self.flowers), tuple(tuple(r) for r in self.rivers),
                          max(live, 0), claim[1] if claim else None, claim[0] if claim else None, None, None,
                          (0, 0, 0, 0), 0, self.quan)


def _could_win(full: Sequence[int]) -> bool:
    key = tuple(full)
    r = _WINS.get(key)
    if r is None:
        from majiang.analysis import MCR_SHAPES, is_winning

        try:
            r = is_winning(full, 0, MCR_SHAPES)
        except MajiangError:
            r = False
        if len(_WINS) > 100_000:
            _WINS.clear()
        _WINS[key] = r
    return r


_WINS: dict[tuple[int, ...], bool] = {}
"""34 counts → whether they form an MCR winning shape (every seat checks every discard; in the
duplicate format the same hands come back in each of a wall's 24 seatings)."""


# ------------------------------------------------------------------------------------ responses
def response_action(resp: str, state: SeatState) -> tuple[Action, Action | None]:
    """An engine action for a Botzone response in ``state`` (and the discard that follows a PENG or CHI)."""
    r = resp.split()
    verb = r[0] if r else ""
    if verb == "PASS":
        return PASS, None
    if verb == "HU":
        t = state.last_draw if state.request[:1] == ["2"] else (
            parse_tile(state.request[3]) if state.request[2] == "BUGANG"
            else state.last_discard[1])  # type: ignore[index]
        return Action(ActionKind.WIN, t), None
    if verb == "PLAY":
        return Action(ActionKind.DISCARD, parse_tile(r[1])), None
    if verb == "GANG" and len(r) == 2:
        return Action(ActionKind.CONCEALED_KONG, parse_tile(r[1])), None
    if verb == "BUGANG":
        return Action(ActionKind.ADDED_KONG, parse_tile(r[1])), None
    assert state.last_discard is not None
    c = state.last_discard[1]
    if verb == "GANG":
        return Action(ActionKind.EXPOSED_KONG, c), None
    if verb == "PENG":
        return Action(ActionKind.PUNG, c), Action(ActionKind.DISCARD, parse_tile(r[1]))
    if verb == "CHI":
        return Action(ActionKind.CHOW, c, parse_tile(r[1]) - 1), Action(ActionKind.DISCARD, parse_tile(r[2]))
    raise BotzoneProtocolError(f"unknown response {resp!r}")


class EngineBotAdapter:
    """Plays a majiang bot (any :class:`~majiang.engine.match.Player`) as a Botzone seat.

    The bot sees an engine view of the seat's knowledge and the legal responses as engine actions;
    a pung or chow is answered in one response with the discard the bot then chooses from the
    hand after the claim (Botzone's ``PENG T`` / ``CHI M T``)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def respond(self, state: SeatState, legal: Sequence[str] | None = None) -> str:
        """The bot's answer in ``state`` (``legal``: its legal responses, if already known)."""
        legal = list(legal) if legal is not None else state.legal_responses()
        if legal == ["PASS"]:
            return "PASS"
        by_action: dict[Action, list[str]] = {}
        for resp in legal:
            a, _ = response_action(resp, state)
            by_action.setdefault(a, []).append(resp)
        actions = sorted(by_action, key=lambda a: a.sort_key)
        turn = state.request[0] == "2"
        claim = None if turn else ((int(state.request[1]), parse_tile(state.request[3])) if state.request[2] == "BUGANG"
                                   else state.last_discard)
        choice = self.player.choose(state.view("turn" if turn else ("rob" if claim and state.request[2] == "BUGANG"
                                                                     else "claim"), claim), actions)
        options = by_action.get(choice)
        if options is None:
            raise BotzoneProtocolError(f"the bot chose {choice}, not among the legal actions")
        if len(options) == 1:
            return options[0]
        # a pung or chow: ask for the discard after the claim
        after = SeatState(**{k: _copy(v) for k, v in state.__dict__.items()})
        assert choice.tile is not None
        if choice.kind is ActionKind.PUNG:
            after.hand[choice.tile] -= 2
            after.melds[state.seat].append(Meld(MeldKind.PUNG, choice.tile, 1, choice.tile))
        else:
            assert choice.low is not None
            for x in (choice.low, choice.low + 1, choice.low + 2):
                if x != choice.tile:
                    after.hand[x] -= 1
            after.melds[state.seat].append(Meld(MeldKind.CHOW, choice.low, 1, choice.tile))
        discards = {parse_tile(o.split()[-1]): o for o in options}
        acts = [Action(ActionKind.DISCARD, t) for t in sorted(discards)]
        after.last_draw = None
        d = self.player.choose(after.view("turn"), acts)
        if d.tile not in discards:
            raise BotzoneProtocolError(f"the bot chose {d} after its claim, not a legal discard")
        return discards[d.tile]


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


# ------------------------------------------------------------------------------------ input forms
@dataclass
class Turn:
    """One turn's input: every request so far, the bot's past responses, data and globaldata."""

    requests: list[str]
    responses: list[str]
    data: str = ""
    globaldata: str = ""
    time_limit: Any = None


def parse_json_input(text: str) -> Turn:
    """The one-line JSON form. Raises :class:`BotzoneProtocolError` when it is not that form or
    ``len(responses) != len(requests) - 1``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise BotzoneProtocolError(f"input is not JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("requests"), list):
        raise BotzoneProtocolError("JSON input needs a 'requests' list")
    reqs = obj["requests"]
    resps = obj.get("responses", [])
    if not isinstance(resps, list) or not all(isinstance(x, str) for x in reqs + resps):
        raise BotzoneProtocolError("'requests' and 'responses' must be lists of strings")
    if len(resps) != len(reqs) - 1:
        raise BotzoneProtocolError(f"{len(reqs)} requests need {len(reqs) - 1} responses, got {len(resps)}")
    return Turn(reqs, resps, str(obj.get("data", "") or ""), str(obj.get("globaldata", "") or ""),
                obj.get("time_limit"))


def parse_simple_input(lines: Sequence[str]) -> Turn:
    """The simple interaction form: ``n``, ``2n-1`` request/response lines, data, globaldata."""
    if not lines:
        raise BotzoneProtocolError("empty input: the simple interaction starts with the turn number n")
    try:
        n = int(lines[0].strip())
    except ValueError:
        raise BotzoneProtocolError(f"the first line must be the turn number, got {lines[0][:40]!r}") from None
    if n < 1 or len(lines) < 2 * n:
        raise BotzoneProtocolError(f"turn {n} needs {2 * n - 1} request/response lines, got {len(lines) - 1}")
    body = [x.rstrip("\r\n") for x in lines[1:2 * n]]
    rest = lines[2 * n:]
    return Turn(body[0::2], body[1::2], rest[0].rstrip("\n") if rest else "", "".join(rest[1:]))


def format_output(response: str, *, simple: bool, debug: str | None = None, data: str | None = None) -> str:
    """One turn's output (without the keep-running line)."""
    if simple:
        return "\n".join([response, debug or "", data or "", ""])
    out: dict[str, str] = {"response": response}
    if debug:
        out["debug"] = debug
    if data:
        out["data"] = data
    return json.dumps(out, ensure_ascii=False)


def replay_state(requests: Sequence[str], responses: Sequence[str], mode: str | None = None) -> SeatState:
    """A :class:`SeatState` after the given requests and this seat's past responses."""
    st = SeatState(mode=mode)
    for i, req in enumerate(requests):
        st.feed(req, responses[i] if i < len(responses) else None)
    return st


def _one_request(line: str) -> str:
    """One keep-running request: a plain line, a JSON string, or a JSON object whose ``requests``
    is the request or a list ending with it (Botzone's forms vary by game; all are accepted)."""
    s = line.strip()
    if s[:1] not in ("{", '"'):
        return s
    try:
        obj = json.loads(s)
    except json.JSONDecodeError as e:
        raise BotzoneProtocolError(f"keep-running input is not JSON ({e.msg}): {s[:40]!r}") from None
    if isinstance(obj, str):
        return obj
    reqs = obj.get("requests") if isinstance(obj, dict) else None
    if isinstance(reqs, list) and reqs and isinstance(reqs[-1], str):
        return reqs[-1]
    if isinstance(reqs, str):
        return reqs
    raise BotzoneProtocolError(f"keep-running input has no request: {s[:40]!r}")


def warm_up(player: Player, seconds: float) -> int:
    """Spend up to ``seconds`` building the analysis tables a shanten-based bot will use.

    The hand-analysis tables (:mod:`majiang.analysis.tables`) are built lazily, a suit pattern at a
    time, so a fresh process answers its first decisions slowly. A keep-running bot calls this in its
    first turn (Botzone doubles the first turn's time limit): first every suit block of up to 7
    tiles (:func:`~majiang.analysis.tables.build_blocks`, about 0.1 s), then shanten of random
    13-tile parts under the bot's own shapes (``player.shapes``; bots without them are not warmed)
    for the rest of the time. Returns the number of random hands evaluated."""
    import random
    import time

    from majiang.analysis import shanten
    from majiang.analysis.tables import build_blocks

    shapes = getattr(player, "shapes", None)
    if shapes is None or seconds <= 0:
        return 0
    end = time.perf_counter() + seconds
    build_blocks(7, deadline=end)
    rng = random.Random(20260101)
    deck = [t for t in range(NUM_KINDS) for _ in range(4)]
    n = 0
    while time.perf_counter() < end:
        c = [0] * NUM_KINDS
        for t in rng.sample(deck, 14):
            c[t] += 1
        for t in range(NUM_KINDS):
            if c[t]:
                c[t] -= 1
                shanten(c, 0, shapes)
                c[t] += 1
        n += 1
    return n


def run_bot(player: Player, stdin: IO[str] | None = None, stdout: IO[str] | None = None, *,
            simple: bool = False, keep_running: bool = True, mode: str | None = None,
            on_answer: Callable[[float], None] | None = None, warm: float = 1.0) -> int:
    """Play ``player`` as a Botzone bot over ``stdin``/``stdout``.

    The first turn comes in the JSON form (or the simple form with ``simple``); the answer is printed,
    then with ``keep_running`` the keep-running line, and each further line of input is one
    request. Returns 0 at end of input. Raises :class:`BotzoneProtocolError` on bad input (the
    command prints it on stderr and exits 2). ``warm``: seconds of :func:`warm_up` in the first
    turn of a keep-running game (only when the input is turn 1, whose time limit is doubled).
    """
    import time

    fin = stdin or sys.stdin
    out = stdout or sys.stdout
    adapter = EngineBotAdapter(player)
    if simple:
        first = fin.readline()
        if not first.strip():
            raise BotzoneProtocolError("empty input: the simple interaction starts with the turn number n")
        try:
            n = int(first.strip())
        except ValueError:
            raise BotzoneProtocolError(f"the first line must be the turn number, got {first.strip()[:40]!r}") from None
        lines = [first] + [fin.readline() for _ in range(max(2 * n - 1, 0))]
        # data and globaldata follow; they are not awaited (a judge may keep the pipe open, and this
        # bot keeps no data): with keep-running the request loop below skips them (blank, or not
        # starting with 0-3)
        turn = parse_simple_input(lines)
    else:
        first = fin.readline()
        if not first.strip():
            raise BotzoneProtocolError("empty input: expected one line of JSON")
        turn = parse_json_input(first)
    t0 = time.perf_counter()
    state = replay_state(turn.requests, turn.responses, mode)
    if keep_running and len(turn.requests) == 1:
        warm_up(player, warm)
    answer = adapter.respond(state)
    out.write(format_output(answer, simple=simple) + "\n")
    if on_answer:
        on_answer(time.perf_counter() - t0)
    if not keep_running:
        out.flush()
        return 0
    out.write(KEEP_RUNNING + "\n")
    out.flush()
    state.note_response(answer)
    for line in fin:
        if not line.strip():
            continue
        if simple and line.split()[0] not in ("0", "1", "2", "3"):
            continue  # the first turn's data/globaldata lines, never a request
        t0 = time.perf_counter()
        state.feed(_one_request(line))
        answer = adapter.respond(state)
        state.note_response(answer)
        out.write(format_output(answer, simple=simple) + "\n" + KEEP_RUNNING + "\n")
        out.flush()
        if on_answer:
            on_answer(time.perf_counter() - t0)
    return 0


def requests_from_log(rnd: Any, seat: int) -> Iterable[tuple[str, str | None]]:
    """The requests a seat received in a Botzone log round (:class:`majiang.records.botzone.Round`)
    and the response the log shows it gave: ``(request, response)`` pairs. The response is
    ``"PASS"`` where the seat could only pass or did not claim, and a *prefix* (``"PENG"``,
    ``"CHI W8"``) for a claim the log lists as ignored (its discard is not recorded). Used to feed
    recorded games to a bot turn by turn."""
    yield f"0 {seat} {rnd.wind}", "PASS"
    yield "1 0 0 0 0 " + " ".join(tile_code(t) for t in rnd.deals[seat]), "PASS"
    acts = list(rnd.actions)

    def claim_after(k: int, discarder: int) -> str:
        """This seat's answer to the discard whose request ends at action ``k``."""
        if k + 1 >= len(acts):
            return "PASS"
        x = acts[k + 1]
        if x.seat == discarder or x.verb not in ("Peng", "Chi", "Gang", "Hu"):
            return "PASS"
        if x.seat == seat:
            if x.verb in ("Hu", "Gang"):
                return x.verb.upper()
            play = tile_code(acts[k + 2].tile)
            return f"PENG {play}" if x.verb == "Peng" else f"CHI {tile_code(x.tile)} {play}"
        for p, verb, t in x.ignored:
            if p == seat:
                v = verb.upper()
                return v if v in ("HU", "GANG", "PENG") else f"CHI {tile_code(t)}"
        return "PASS"

    i = 0
    while i < len(acts):
        a = acts[i]
        code = tile_code(a.tile)
        if a.verb == "Draw":
            if a.seat == seat:
                nxt = acts[i + 1] if i + 1 < len(acts) else None
                resp = None
                if nxt is not None and nxt.seat == seat:
                    resp = {"Play": f"PLAY {tile_code(nxt.tile)}", "AnGang": f"GANG {tile_code(nxt.tile)}",
                            "BuGang": f"BUGANG {tile_code(nxt.tile)}", "Hu": "HU"}.get(nxt.verb)
                yield f"2 {code}", resp
            else:
                yield f"3 {a.seat} DRAW", "PASS"
        elif a.verb == "Play":
            yield f"3 {a.seat} PLAY {code}", claim_after(i, a.seat) if a.seat != seat else "PASS"
        elif a.verb in ("Peng", "Chi"):
            i += 1
            play = tile_code(acts[i].tile)
            req = f"3 {a.seat} PENG {play}" if a.verb == "Peng" else f"3 {a.seat} CHI {code} {play}"
            yield req, claim_after(i, a.seat) if a.seat != seat else "PASS"
        elif a.verb in ("Gang", "AnGang"):
            yield f"3 {a.seat} GANG", "PASS"
        elif a.verb == "BuGang":
            yield f"3 {a.seat} BUGANG {code}", claim_after(i, a.seat) if a.seat != seat else "PASS"
        elif a.verb == "Hu":
            return
        else:
            raise BotzoneProtocolError(f"log line {a.line}: unknown action {a.verb}")
        i += 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m majiang.protocols.botzone [--bot NAME] [--simple] [--no-keep-running]
    [--warm-up SECONDS]``: the
    same as ``majiang bot --protocol botzone`` with a lighter start (no command-line framework),
    for Botzone's process-per-turn mode. Bad input: a one-line error on stderr, exit status 2."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m majiang.protocols.botzone")
    ap.add_argument("--bot", default="efficiency")
    ap.add_argument("--simple", action="store_true")
    ap.add_argument("--no-keep-running", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warm-up", type=float, default=1.0)
    a = ap.parse_args(argv)
    from majiang.engine.ruleset import RuleSet
    from majiang.players.simulate import make_bot

    try:
        return run_bot(make_bot(a.bot, RuleSet.preset("mcr"), a.seed), simple=a.simple,
                       keep_running=not a.no_keep_running, warm=a.warm_up)
    except MajiangError as e:
        print(f"majiang bot: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover - exercised through subprocesses
    sys.exit(main())
