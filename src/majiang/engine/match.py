"""A match (一场/一將): seating, dealer rotation and streaks, rounds, running scores, and a driver.

:class:`Match` strings :class:`~majiang.engine.table.HandTable` hands together:

* **Seating** (RULES.md §3.1; SD1 "掷骰子来决定东南西北的坐位"): with ``rules.seat_draw`` the players
  are seated by lot (a shuffle from the match seed); ``seat_of_player[p]`` is player ``p``'s seat.
* **First dealer**: the East seat, or (``first_dealer="dice"``) two dice counted from East, East = 1.
* **Dealer rotation**: the dealer keeps the deal (连庄) on his win if ``dealer_keeps_on_win``, on a
  drawn hand if ``dealer_keeps_on_draw`` (RULES.md §3.1 Taiwan: both; §4.6 seed 003: win only; MCR:
  never), at most ``max_dealer_streak`` extra hands; otherwise the deal passes to the next seat.
* **Rounds**: the prevalent wind starts East; a round ends when the deal has passed round every seat
  once (continuations do not count, RULES.md §3.1 "圈"); ``rules.rounds`` rounds make the match.
* **Scores**: each hand's deltas are added to the running scores (always zero-sum).

Determinism: everything random comes from the match ``seed`` (:mod:`majiang.engine.wall`): seating
from ``("seating",)``, the hand ``k``'s dice and wall from ``("hand", k)``. Should two hands of one
match ever shuffle to the same wall, the later one is reshuffled from ``("hand", k, "again", i)``, so
no two hands of a match share a wall. ``walls=`` gives explicit walls instead (hand ``k`` uses
``walls[k]``; the match ends when they run out).

The match is driven through :meth:`Match.pending_seats`, :meth:`Match.legal_actions` and
:meth:`Match.apply`, or with :func:`run_match` and a list of players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from majiang.engine.actions import Action, ActionKind, IllegalActionError, Phase
from majiang.engine.ruleset import RuleSet, resolve
from majiang.errors import MajiangError
from majiang.hand import Meld
from majiang.tiles import EAST, NUM_KINDS

if TYPE_CHECKING:  # the table and the wall load with the first Match (a bot needs only PlayerView)
    from majiang.engine.table import HandResult, HandTable


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may see (bots and the terminal get only this; never another concealed tile).

    Attributes:
        seat: this seat (0-3). ``player``: the player sitting there.
        dealer, dealer_streak: the dealer's seat and his 连庄 count.
        prevalent_wind, seat_wind: wind tiles 27-30 (圈风, 门风).
        phase: ``"turn"``, ``"claim"``, ``"rob"`` or ``"end"``.
        hand: own concealed tiles, sorted. ``last_draw``: own last drawn tile (or ``None``).
        melds: per seat, its declared melds -- other seats' concealed kongs are left out and counted
            in ``hidden_kongs`` (their faces are not visible).
        flowers, rivers: per seat, flowers set aside and discards still lying in the river.
        wall_live: tiles still drawable before the hand is drawn.
        claim_tile, discarder: the tile in a claim/robbing window and who offered it.
        wild_face, indicator: the wildcard's face and its turned-up indicator (``None`` without).
        scores: running match scores by seat. ``hand_number``, ``round``: counters from 0.
        decided: per seat, the values of the rule set's pre-play decisions once every seat has
            chosen (``{"dingque": "m"}``); ``()`` for a rule set without decisions (issue 30).
        out: per seat, True once it has won and left the play (``RuleSet.win_limit`` above 1);
            ``()`` while every seat is in play.
    """

    seat: int
    player: int
    dealer: int
    dealer_streak: int
    prevalent_wind: int
    seat_wind: int
    phase: str
    hand: tuple[int, ...]
    last_draw: int | None
    melds: tuple[tuple[Meld, ...], ...]
    hidden_kongs: tuple[int, ...]
    flowers: tuple[tuple[int, ...], ...]
    rivers: tuple[tuple[int, ...], ...]
    wall_live: int
    claim_tile: int | None
    discarder: int | None
    wild_face: int | None
    indicator: int | None
    scores: tuple[int, ...]
    hand_number: int
    round: int
    decided: tuple = ()
    out: tuple[bool, ...] = ()

    def visible_counts(self) -> list[int]:
        """34-vector of tile copies this seat can see outside its concealed hand: every river, every
        visible meld, the indicator (the claim tile is in its discarder's river)."""
        c = [0] * NUM_KINDS
        for r in self.rivers:
            for t in r:
                c[t] += 1
        for ms in self.melds:
            for m in ms:
                for t in m.physical:  # physical faces: a White standing in a chow is a White
                    c[t] += 1
        if self.indicator is not None and self.indicator < NUM_KINDS:
            c[self.indicator] += 1
        return c


_PHASE_NAME = {p: p.value for p in Phase}


class Player(Protocol):
    """Anything that picks one of the offered actions from a :class:`PlayerView`."""

    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:  # pragma: no cover
        ...


class Match:
    """A whole match (see the module doc).

    Args:
        rules: a :class:`RuleSet` or a preset name (``"mcr"``).
        seed: the match seed (any int).
        walls: explicit walls, one per hand, each in draw order (front first).
        names: player names for the record (default ``"P0"``..``"P3"``).
        max_hands: stop after this many hands (``None``: the full match by the rules).
        hold_windows: every hand's table holds its claim windows open until :meth:`close_window`
            (:attr:`HandTable.hold_windows`; the web table's one claim window for everyone).

    Raises :class:`~majiang.errors.MajiangError` on a bad wall or argument.
    """

    def __init__(self, rules: RuleSet | str = "mcr", seed: int = 0, walls: Sequence[Sequence[int]] | None = None,
                 names: Sequence[str] | None = None, max_hands: int | None = None,
                 hold_windows: bool = False) -> None:
        self.rules = resolve(rules)
        self.hold_windows = bool(hold_windows)
        self.seed = int(seed)
        self.explicit_walls = [list(w) for w in walls] if walls is not None else None
        self.max_hands = max_hands
        self.names = list(names) if names is not None else [f"P{i}" for i in range(4)]
        if len(self.names) != 4:
            raise MajiangError(f"a match needs 4 player names, got {len(self.names)}")
        self.events: list[dict] = []
        self.walls_used: list[list[int]] = []
        self._wall_keys: set[tuple[int, ...]] = set()
        self.scores = [0, 0, 0, 0]
        self.results: list[HandResult] = []
        from majiang.engine.wall import rng_for, roll_dice

        rng = rng_for(self.seed, "seating")
        perm = [0, 1, 2, 3]
        if self.rules.seat_draw:
            rng.shuffle(perm)
        self.seat_of_player = perm
        self.player_at_seat = [perm.index(s) for s in range(4)]
        if self.rules.first_dealer == "dice":
            self.dealer = (sum(roll_dice(rng, 2)) - 1) % 4
        else:
            self.dealer = 0
        self.round = 0
        self.round_start_dealer = self.dealer
        self.streak = 0
        self.hand_number = 0
        self.finished = False
        self.table: HandTable | None = None
        self.events.append({"type": "start_game", "names": [self.names[p] for p in self.player_at_seat],
                            "seat_of_player": list(self.seat_of_player), "first_dealer": self.dealer})
        self._start_hand()

    # ------------------------------------------------------------------ hands
    def _wall_for(self, k: int, dice_total: int) -> list[int] | None:
        if self.explicit_walls is not None:
            return self.explicit_walls[k] if k < len(self.explicit_walls) else None
        from majiang.engine.wall import build_wall, rng_for

        wall = build_wall(self.rules, rng_for(self.seed, "hand", k, "wall"), self.dealer, dice_total)
        i = 0
        while tuple(wall) in self._wall_keys:  # never two hands on one wall
            i += 1
            wall = build_wall(self.rules, rng_for(self.seed, "hand", k, "again", i), self.dealer, dice_total)
        return wall

    def _start_hand(self) -> None:
        k = self.hand_number
        if self.max_hands is not None and k >= self.max_hands:
            self._end_match()
            return
        from majiang.engine.table import HandTable
        from majiang.engine.wall import rng_for, roll_dice

        dice = roll_dice(rng_for(self.seed, "hand", k, "dice"), self.rules.dice)
        wall = self._wall_for(k, sum(dice))
        if wall is None:
            self._end_match()
            return
        self._wall_keys.add(tuple(wall))
        self.walls_used.append(list(wall))
        start = len(self.events)
        # an exchange (换三张) rolls its own dice once every seat has chosen: a stream of its own, so
        # rule sets without one draw exactly what they drew before
        xd = roll_dice(rng_for(self.seed, "hand", k, "exchange"), 2) if self.rules.has_exchange else None
        self.table = HandTable(self.rules, wall, self.dealer, EAST + self.round % 4, dice, self.streak,
                               emit=self.events.append, exchange_dice=xd)
        self.table.hold_windows = self.hold_windows
        self.events[start]["hand"] = k  # tag start_kyoku with the hand's number in the match
        self._settle_if_over()

    def _settle_if_over(self) -> None:
        t = self.table
        if t is None or not t.finished:
            return
        res = t.result
        assert res is not None
        self.results.append(res)
        for i in range(4):
            self.scores[i] += res.deltas[i]
        self.events.append({"type": "end_kyoku", "deltas": list(res.deltas), "scores": list(self.scores)})
        dealer_won = any(w.winner == self.dealer for w in res.wins)
        keep = (res.drawn and self.rules.dealer_keeps_on_draw) or (dealer_won and self.rules.dealer_keeps_on_win)
        if keep and (self.rules.max_dealer_streak is None or self.streak < self.rules.max_dealer_streak):
            self.streak += 1
        else:
            self.streak = 0
            self.dealer = (self.dealer + 1) % 4
            if self.dealer == self.round_start_dealer:
                self.round += 1
        self.hand_number += 1
        if self.round >= self.rules.rounds:
            self._end_match()
        else:
            self._start_hand()

    def _end_match(self) -> None:
        self.finished = True
        self.table = None
        self.events.append({"type": "end_game", "scores": list(self.scores)})

    # ------------------------------------------------------------------ driving
    def pending_seats(self) -> list[int]:
        """Seats whose decision is awaited (empty once the match is over)."""
        return [] if self.table is None else self.table.pending_seats()

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (empty if not awaited)."""
        return [] if self.table is None else self.table.legal_actions(seat)

    def apply(self, seat: int, action: Action, *, replacement: bool = True) -> None:
        """Apply an action; hands and the match advance automatically. Raises
        :class:`IllegalActionError` (state unchanged) for an illegal action or seat.
        ``replacement=False``: a kong without its replacement draw (小相公; records only, see
        :meth:`HandTable.apply`)."""
        if self.table is None:
            raise IllegalActionError("the match is over", seat=seat, action=action)
        self.table.apply(seat, action, replacement=replacement)
        if self.table.phase is Phase.END:
            self._settle_if_over()

    @property
    def window_closable(self) -> bool:
        """True when a held claim window is open and every seat asked has answered
        (:attr:`HandTable.window_closable`)."""
        return self.table is not None and self.table.window_closable

    def close_window(self) -> None:
        """Resolve the held claim window now open (:meth:`HandTable.close_window`); hands and the
        match advance as after :meth:`apply`. Raises :class:`IllegalActionError` (state unchanged)
        when there is none to close or a seat asked has not answered."""
        if self.table is None:
            raise IllegalActionError("the match is over")
        self.table.close_window()
        if self.table.phase is Phase.END:
            self._settle_if_over()

    def default_action(self, seat: int) -> Action | None:
        """The action taken for ``seat`` when it does not choose (:meth:`HandTable.default_action`: a
        pre-play decision's default policy), or ``None``."""
        return None if self.table is None else self.table.default_action(seat)

    def extra_draw(self, seat: int, replacement: bool = False) -> None:
        """A draw the rules do not give (大相公; records only, see :meth:`HandTable.extra_draw`)."""
        if self.table is None:
            raise IllegalActionError("the match is over", seat=seat)
        self.table.extra_draw(seat, replacement)
        if self.table.phase is Phase.END:
            self._settle_if_over()

    def charge(self, seat: int, deltas: Sequence[int], **fields: Any) -> dict:
        """Record a fault charged by a judge outside the rules (a bot's timeout, crash or illegal
        answer in a tournament: ``majiang.protocols.judge``) and add ``deltas`` (per seat, zero-sum)
        to the running scores; the hand goes on. Writes the event ``{"type": "fault", "actor": seat,
        **fields, "deltas": [...]}`` (``fields``: ``kind``, ``request``, ``answer``, ``reason``) and
        returns it. Raises :class:`~majiang.errors.MajiangError` for a bad seat, deltas that are not
        four ints summing to zero, or a match already over."""
        if self.finished:
            raise MajiangError("the match is over: no fault to charge")
        if seat not in (0, 1, 2, 3):
            raise MajiangError(f"a fault's seat is 0-3, got {seat!r}")
        d = list(deltas)
        if len(d) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) for x in d) or sum(d) != 0:
            raise MajiangError(f"a fault's deltas are four ints summing to 0, got {deltas!r}")
        ev = {"type": "fault", "actor": seat, **fields, "deltas": d}
        for i in range(4):
            self.scores[i] += d[i]
        self.events.append(ev)
        return ev

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now (see :class:`PlayerView`). A snapshot: its tuples are shared
        with the table's caches but never change."""
        t = self.table
        if t is None:
            raise MajiangError("the match is over: no table to view")
        melds, hidden = t.melds_seen_by(seat)
        flowers, rivers = t.public_tuples()
        phase = t.phase
        if phase is Phase.CLAIM:
            claim_tile, discarder = t.claim_tile, t.discarder
        elif phase is Phase.ROB:
            claim_tile, discarder = t.claim_tile, t.kong_seat
        else:
            claim_tile = discarder = None
        return PlayerView(seat, self.player_at_seat[seat], t.dealer, t.dealer_streak, t.prevalent_wind,
                          EAST + (seat - t.dealer) % 4, _PHASE_NAME[phase], t.hand_tuple(seat), t.last_draw[seat],
                          melds, hidden, flowers, rivers, t.tail - t.head - self.rules.reserve, claim_tile,
                          discarder, t.wild_face, t.indicator if t.indicator is not None else t.indicator_in_wall,
                          tuple(self.scores), self.hand_number, self.round,
                          tuple(dict(d) for d in t.decided) if t.decided else (),
                          tuple(t.out) if t._wins else ())


def run_match(match: Match, players: Sequence[Player]) -> Match:
    """Drive ``match`` to its end; ``players[p]`` decides for player ``p`` (wherever seated).

    Each awaited seat is asked in turn (the lowest pending seat first); answers in a claim window
    are collected before the table resolves them, so a player never sees another's answer. A
    pre-play decision (:attr:`Phase.DECIDE`) goes to a player with a true ``decides`` attribute;
    any other player gets the rule set's default policy (:meth:`Match.default_action`).
    """
    if len(players) != 4:
        raise MajiangError(f"a match needs 4 players, got {len(players)}")
    while not match.finished:
        seats = match.pending_seats()
        if not seats:  # pragma: no cover - the table never stalls
            raise AssertionError("no seat to act in an unfinished match")
        s = seats[0]
        acts = match.legal_actions(s)
        p = players[match.player_at_seat[s]]
        if acts[0].kind is ActionKind.DECIDE and not getattr(p, "decides", False):
            a = match.default_action(s)
            assert a is not None
        else:
            a = p.choose(match.view(s), acts)
        match.apply(s, a)
    return match

