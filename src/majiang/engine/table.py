"""One hand at the table (一盘): dealing, flowers, draws and discards, claims, kongs, wins, draws.

:class:`HandTable` is a state machine over one live wall. Seats are 0-3 in turn order (counter-
clockwise: each seat's next player, 下家, is ``seat + 1``; the player on its left, 上家, is ``seat - 1``).
The seat wind of a seat is its distance from the dealer (dealer = East).

Flow (RULES.md §1.4, §3.1, §4.2; seeds 000, 001, 003):

1. **Deal** from the wall's front: 4 tiles at a time to each seat from the dealer until each holds
   ``hand_size``, then one more to the dealer (跳牌). With a wildcard by indicator, the dealer's dice
   count tiles from the tail; that tile is turned up and taken out of play. Flowers dealt are set
   aside and replaced from the tail, dealer first, then each seat in turn order, each until he holds
   no flower (per-player order, RULES.md §3.1).
2. **Turn** (:attr:`Phase.TURN`): the seat holding 3n+2 tiles wins by self-draw, declares a concealed
   or added kong, or discards. Right after a chow or pung only a discard is allowed.
3. **Claim window** (:attr:`Phase.CLAIM`): every other seat that has a claim answers (win, kong,
   pung, chow or pass). When all have answered: win > kong/pung > chow, ties by turn order from the
   discarder; several wins follow ``RuleSet.multiple_winners``. Nothing claimed: the next seat draws.
4. **Kongs**: an exposed kong (three in hand + the discard), a concealed kong (four in hand) or an
   added kong (a melded pung + a held fourth) is followed by a replacement draw from the tail. An
   added kong first opens a **robbing window** (:attr:`Phase.ROB`, 抢杠和); if robbed, the pung stays
   a pung (trap FLAG-03). Only discards and added-kong tiles are ever claimable (trap FLOW-03).
5. **Flowers** drawn are set aside and replaced from the tail, repeatedly. With
   ``rules.flower_wins`` (Taiwan, RULES.md §3.2, §3.3) a seat that sets aside its eighth flower wins
   at once (八仙過海, paid as a self-draw), and a seat that sets aside the eighth flower while another
   holds the other seven pays that seat alone (七搶一); both are ``hora`` events with a
   ``flower_win`` field (``"eight"`` / ``"seven"``) and the flower as ``pai``.
6. **Penalties** outside a win: with ``rules.followed_penalty`` (Wenzhou W13 被跟, RULES.md §4.6),
   when the three other seats in turn discard the face a seat has just discarded (no claim between),
   that seat pays each other seat at once: a ``penalty`` event (``name="followed"``, ``deltas``);
   :attr:`HandTable.penalties` holds them and they are added to the hand's result deltas.
7. **Declared ready** (報聽, ``rules.declare_ready``, RULES.md §3.1): in its turn a seat may declare
   ready with any discard that leaves its hand ready (``READY``: a ``reach`` event, then the
   ``dahai``). From then on the hand is frozen -- the simpler reading: in its turns only a self-drawn
   win or the discard of the tile just drawn (no kong of any kind), in claim windows only a win (no
   chow, pung or kong). :attr:`HandTable.ready` holds the declarations; the win context carries
   ``declared_ready`` and 天聽 / 地聽 (see :class:`~majiang.engine.ruleset.WinContext`).
8. **白板 standing in** (``rules.white_stand_in``, RULES.md §2.1, §4.2): a White plays the wildcard's
   face (:attr:`HandTable.white_face`) in claims as everywhere else -- a discarded White is chowed
   as that face by the next player, a held White supplies that face to a chow of a discarded
   neighbour (before a wildcard of the face, which only ``wild_claimable`` allows), Whites pung and
   kong. A chow action keeps the physical discard as ``tile`` and the natural lowest tile as
   ``low``; the meld plays the face (:attr:`~majiang.hand.Meld.tiles`, what scorers read) and keeps
   the White (:attr:`~majiang.hand.Meld.stand_in`, :attr:`~majiang.hand.Meld.physical`, what the
   census and the ``chi`` event show). When White is itself the wildcard nothing stands in.
9. **相公** (``rules.xianggong``, RULES.md §2.4, seed 000; for records of real play): a kong declared
   without its replacement draw (``apply(..., replacement=False)``) or a draw the rules do not give
   (:meth:`HandTable.extra_draw`) leaves a seat 小相公 (one short) or 大相公 (one too many), as
   :func:`majiang.hand.xianggong` classifies the count; :attr:`HandTable.xianggong` holds
   it. Such a seat is offered no win and a declared win raises
   :class:`~majiang.engine.actions.XiangGongError`; it may still kong; a 大相公's kongs are left out
   of every win context's ``kongs`` (void), a 小相公's count; no penalty. Without the option both
   are refused (:class:`~majiang.engine.actions.IllegalActionError`).
10. **Held windows** (:attr:`HandTable.hold_windows`, off by default; the web table turns it on
   while a person is seated, docs/server.md "One claim window for everyone"): every discard (and
   every added kong that may be robbed) opens a window even when no seat can claim, and no window
   resolves by itself, even once every seat asked has answered: the driver closes it with
   :meth:`HandTable.close_window` (:attr:`HandTable.window_closable` says when it may). The events
   and the outcome are those of the unheld table; only *when* the window resolves is the driver's,
   so a seat that cannot claim cannot tell from the table's pace whether another seat could.
11. **Hooks of a rule set** (issue 30, docs/rulesets.md "Hooks"): the tile set (``rules.tiles``);
   pre-play decisions (:attr:`Phase.DECIDE` after the deal: every seat answers each
   :class:`~majiang.rules.base.Decision`, hidden until all have, then one ``decide`` event per seat;
   an :class:`~majiang.rules.base.Exchange` (换三张) takes its tiles out pick by pick and, once all
   have picked, passes them as the exchange dice say, one ``exchange`` event per seat);
   a legal-action filter over the per-seat state they leave (:attr:`HandTable.decided`); with
   ``rules.win_limit`` above 1 (血战到底) a winner leaves the play (:attr:`HandTable.out`) and the
   next seat in play after him draws, each win settled when it happens, until ``win_limit`` seats have
   won or the wall runs out; a settlement's ``settle_kong`` (at each kong that stands) and
   ``settle_wall_end`` (when the wall runs out) write ``settle`` events whose deltas join the hand's.
12. **End**: a win, or an exhaustive draw (荒庄) when a draw is needed and only ``reserve`` tiles are
   left. No kong is declared when no replacement could be drawn; the discard after the last live
   tile may only be won on unless ``claim_last_discard``.

Every method that changes the table validates first: an illegal action raises
:class:`~majiang.engine.actions.IllegalActionError` and changes nothing. The table writes every
event (dicts, names from mjai where meanings match, see :mod:`majiang.records`) to ``events``.

Speed (self-play runs millions of steps; none of this changes what the table decides):

* **Win gate**: per seat, whether *any* tile could complete its 3k+1 concealed part, computed once
  each time that part changes (one win check with an extra wildcard, :meth:`HandTable._gate`); a
  draw carries it over. Only a seat whose gate is open gets the exact win check and, if the shape
  wins, the scorer (which may still refuse the win, e.g. under the MCR 8-fan minimum). So a discard
  needs no win check for a seat whose gate is already known to be closed (the usual case).
* **Legal actions** are generated already sorted and computed once per seat and state; the claim
  window decides most seats (no win, pung, kong or chow possible) without building a list.
* **Views**: the sorted hand, the melds as each seat sees them, flowers and rivers are kept as
  tuples and rebuilt only when they change; event tiles come from a precomputed table.

These caches assume the state changes only through :meth:`HandTable.apply`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from majiang.analysis import is_winning, waits
from majiang.analysis.wildcards import split_counts
from majiang.engine.actions import (
    CLAIM_PRIORITY,
    PASS,
    Action,
    ActionKind,
    IllegalActionError,
    Phase,
    XiangGongError,
    chow_consumed,
)
from majiang.engine.ruleset import RuleSet, Scorer, ScoreResult, WinContext, WinSettle
from majiang.errors import MajiangError, TileCountError
from majiang.hand import Hand, Meld, MeldKind, xianggong
from majiang.rules.base import Exchange, KongSettle, Ledger, Payment, SeatState, WallEndSettle, exchange_offset
from majiang.tiles import EAST, NUM_KINDS, NUM_TILES, WHITE, WILD, format_compact, from_counts, is_flower


_TILE_STR: tuple[str, ...] = tuple(format_compact([t]) for t in range(NUM_TILES))


def tile_str(t: int) -> str:
    """Compact text of one tile (``"5m"``, ``"7z"``, ``"1f"``), the tile form used in events."""
    if 0 <= t < NUM_TILES:
        return _TILE_STR[t]
    return format_compact([t])


_DISCARDS: tuple[Action, ...] = tuple(Action(ActionKind.DISCARD, t) for t in range(NUM_KINDS))
"""One shared discard action per tile kind (actions are immutable values)."""
_WINS: tuple[Action, ...] = tuple(Action(ActionKind.WIN, t) for t in range(NUM_TILES))
_CONCEALED_KONGS: tuple[Action, ...] = tuple(Action(ActionKind.CONCEALED_KONG, t) for t in range(NUM_TILES))
_ADDED_KONGS: tuple[Action, ...] = tuple(Action(ActionKind.ADDED_KONG, t) for t in range(NUM_TILES))
_EXPOSED_KONGS: tuple[Action, ...] = tuple(Action(ActionKind.EXPOSED_KONG, t) for t in range(NUM_TILES))
_PUNGS: tuple[Action, ...] = tuple(Action(ActionKind.PUNG, t) for t in range(NUM_TILES))
_READIES: tuple[Action, ...] = tuple(Action(ActionKind.READY, t) for t in range(NUM_TILES))
_CHOWS: dict[tuple[int, int], Action] = {(t, low): Action(ActionKind.CHOW, t, low)
                                         for t in range(NUM_KINDS) for low in range(NUM_KINDS)}
"""Shared actions of the other kinds too (the same values the table offered before; a learning
environment maps them to indices by identity, see :mod:`majiang.rl.actions`)."""
_DECIDES: tuple[Action, ...] = tuple(Action(ActionKind.DECIDE, i) for i in range(NUM_KINDS))
_AFTER: tuple[tuple[int, ...], ...] = tuple(tuple((o + i) % 4 for i in (1, 2, 3)) for o in range(4))
"""Per seat, the other seats in turn order after it (while every seat is in play)."""


@dataclass(frozen=True, slots=True)
class WinInfo:
    """One declared win: seat, fed by (``None`` when self-drawn), the winning tile, score, deltas."""

    winner: int
    discarder: int | None
    tile: int
    result: ScoreResult
    deltas: tuple[int, ...]
    ctx: WinContext


@dataclass(slots=True)
class HandResult:
    """How a hand ended: ``wins`` (empty for an exhaustive draw), the summed score ``deltas`` and,
    per seat, ``xianggong``: ``"short"`` (小相公), ``"long"`` (大相公) or ``None`` (``rules.xianggong``)."""

    wins: list[WinInfo] = field(default_factory=list)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    xianggong: tuple[str | None, ...] = (None, None, None, None)

    @property
    def drawn(self) -> bool:
        """True for an exhaustive draw (荒庄/流局)."""
        return not self.wins


class HandTable:
    """One hand (see the module doc).

    Args:
        rules: the :class:`~majiang.engine.ruleset.RuleSet`.
        wall: the live wall in draw order (front first); a permutation of ``rules.tile_set``
            (checked: a wrong multiset raises :class:`~majiang.errors.MajiangError`).
        dealer: the dealer's seat (0-3).
        prevalent_wind: the round's wind, a tile 27-30.
        dice: the dealer's dice for this hand (choose the wildcard indicator; informative otherwise).
        dealer_streak: consecutive hands the dealer has kept so far (连庄 count).
        emit: called with each event dict (events are also kept in :attr:`events`).
        scorer: a :class:`~majiang.engine.ruleset.Scorer` to use instead of the rule set's (the
            Botzone importer scores each round with the fan its log records).

    State (read it; change it only through :meth:`apply` -- the table caches what it derives from it):
        wall, head, tail: the wall list; ``wall[head:tail]`` is still in the wall (front = ``head``).
        live / remaining: drawable tiles before the hand is drawn / tiles left in the wall.
        concealed: per seat, a count vector (34) of the concealed tiles (wildcards included).
        melds: per seat, declared :class:`~majiang.hand.Meld` s (``offer`` relative to the owner);
            meld_from: per seat, the absolute seat that fed each meld (``None`` for a concealed kong).
        flowers: per seat, flowers set aside. rivers: per seat, discards still in the river
            (claimed tiles leave it). won_tiles: a tile won on a discard or robbed from a kong.
        indicator, wild_face: the wildcard's indicator (out of play) and face, or ``None``.
        phase, current: the :class:`~majiang.engine.actions.Phase` and the seat whose turn it is.
        last_draw: per seat, the tile it drew last (the dealer's extra tile at the start).
        claim_tile, discarder, kong_seat: the tile of an open window and who offered it.
        penalties: per seat, points moved this hand outside a win (被跟), included in ``result.deltas``.
        white_face: the face a White plays (白板代), or ``None`` (no stand-in, or White is the wildcard).
        xianggong: per seat, a :class:`~majiang.hand.XiangGong` (小相公/大相公) or ``None``.
        ready, ready_kind: per seat, declared ready (報聽, ``rules.declare_ready``) and ``"heavenly"``
            (天聽) / ``"earthly"`` (地聽) / ``None`` -- how the declaration qualified.
        result: a :class:`HandResult` once the hand is over. events: every event written.

    Raises :class:`~majiang.errors.MajiangError` for a wall that is not the rule set's tile set, a
    seat outside 0-3 or a prevalent wind that is not a wind tile.
    """

    def __init__(self, rules: RuleSet, wall: Sequence[int], dealer: int = 0, prevalent_wind: int = EAST,
                 dice: Sequence[int] = (1, 1), dealer_streak: int = 0,
                 emit: Callable[[dict], None] | None = None, scorer: Scorer | None = None,
                 exchange_dice: Sequence[int] | None = None) -> None:
        if sorted(wall) != list(rules.tile_set):
            raise MajiangError(f"the wall must hold exactly the rule set's {len(rules.tile_set)} tiles "
                               f"(got {len(wall)} tiles, or a wrong mix)")
        if not 0 <= dealer < 4:
            raise MajiangError(f"dealer must be a seat 0-3, got {dealer!r}")
        if not 27 <= prevalent_wind <= 30:
            raise MajiangError(f"prevalent wind must be a wind tile 27-30, got {prevalent_wind!r}")
        self.rules = rules
        self.shape_rules = rules.shape_rules
        self.scorer = scorer if scorer is not None else rules.scorer_object()
        self.settlement = rules.settlement_object()
        self.wall: list[int] = list(wall)
        self.head = 0
        self.tail = len(self.wall)
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.dice = tuple(dice)
        self.dealer_streak = dealer_streak
        self.events: list[dict] = []
        self._emit_fn = emit
        self.concealed: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.meld_from: list[list[int | None]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.rivers: list[list[int]] = [[] for _ in range(4)]
        self.won_tiles: list[int] = []
        self.indicator: int | None = None  # the indicator taken out of play
        self.bao: list[int] = []  # 宝牌 turned up (RuleSet.bao_pai), out of play
        self.indicator_in_wall: int | None = None  # or left in the wall, face up
        self.wild_face: int | None = rules.wild_tile if rules.wild_mode == "fixed" else None
        self.white_face: int | None = None  # the face a White plays (白板代), set with the wildcard
        self._set_white_face()
        self.phase = Phase.TURN
        self.current = dealer
        self.last_draw: list[int | None] = [None] * 4
        self.after_claim = False
        self.kong_chain = False
        self.flower_chain = False
        self.discards_made = [0] * 4
        self.any_claim = False
        self.ready = [False] * 4  # declared ready (報聽)
        self.ready_kind: list[str | None] = [None] * 4  # "heavenly" (天聽), "earthly" (地聽) or None
        self._run: list[tuple[int, int]] = []  # discards in turn order since the last claim (被跟)
        self.penalties = [0, 0, 0, 0]  # penalties outside a win this hand (被跟), added to the result
        self.xianggong: list = [None] * 4  # per seat, a XiangGong (小相公/大相公) or None (rules.xianggong)
        self._no_replacement: int | None = None  # a seat whose kong is recorded without its replacement
        self.claim_tile: int | None = None
        self.discarder: int | None = None
        self.kong_seat: int | None = None
        self.last_discard = False
        self.answers: dict[int, Action | None] = {}
        self.hold_windows = False  # held windows (flow point 10): set by the driver, e.g. Match(hold_windows=True)
        # issue 30 hooks (flow point 11): seats out of play, wins so far, decisions, kong/wall payments
        self.out = [False] * 4  # won and left the play (rules.win_limit > 1)
        self._after = _AFTER  # per seat, the seats in play after it in turn order
        self._wins: list[WinInfo] = []  # wins settled so far this hand (rules.win_limit > 1)
        self._win_total = [0, 0, 0, 0]
        self._play_on: int | None = None  # the seat to draw next after a win that did not end the hand
        self._kong_discard = False  # the last discard followed its discarder's kong replacement (杠上炮)
        self.decisions = rules.decisions
        self.decided: tuple[dict, ...] = tuple({} for _ in range(4)) if self.decisions else ()
        self._dec_k = 0
        # an Exchange (换三张): the dice that pick its direction (Match rolls them; else the hand's),
        # the faces each seat has picked so far, and per seat (gave, target, got, source) once done
        self.exchange_dice = tuple(exchange_dice) if exchange_dice is not None else self.dice
        self._picked: list[list[int]] = [[] for _ in range(4)]
        self.exchanged: list[tuple[tuple[int, ...], int, tuple[int, ...], int] | None] = [None] * 4
        s_ = self.settlement
        self._settle_kong = getattr(s_, "settle_kong", None)
        self._settle_wall_end = getattr(s_, "settle_wall_end", None)
        self.payments: list[Payment] = []  # payments outside a win (kong money, 查叫), in order
        self._stood_kongs: list[tuple[int, str]] = []
        self._filter = rules.action_filter
        if self._filter is not None:
            self._compute_legal = self._compute_legal_filtered  # type: ignore[method-assign]
        self.clear_caches()
        self.result: HandResult | None = None
        self._deal()

    # ------------------------------------------------------------------ small helpers
    @property
    def remaining(self) -> int:
        """Tiles still in the wall (live tiles plus the reserve)."""
        return self.tail - self.head

    @property
    def live(self) -> int:
        """Tiles that may still be drawn before the hand is drawn (``remaining - reserve``)."""
        return self.tail - self.head - self.rules.reserve

    @property
    def finished(self) -> bool:
        return self.phase is Phase.END

    def seat_wind(self, seat: int) -> int:
        """Seat wind tile (27-30): East for the dealer, then South, West, North in turn order."""
        return EAST + (seat - self.dealer) % 4

    def is_wild(self, t: int) -> bool:
        return self.wild_face is not None and t == self.wild_face

    def _set_white_face(self) -> None:
        wf = self.wild_face
        self.white_face = wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None

    def plays(self, t: int) -> int:
        """What physical tile ``t`` plays as a natural tile: the wildcard's face for a White standing in
        (``rules.white_stand_in``, RULES.md §2.1, §4.2), else ``t`` itself."""
        return self.white_face if (t == WHITE and self.white_face is not None) else t

    def _chow_uses(self, c: list[int], tile: int, low: int) -> tuple[int, ...] | None:
        """The physical tiles the chow ``low``.. on discard ``tile`` takes from counts ``c`` (a White
        playing the wildcard's face where needed), or ``None`` (:func:`~majiang.engine.actions.chow_consumed`)."""
        return chow_consumed(c, tile, low, white_face=self.white_face, wild_face=self.wild_face,
                             wild_claimable=self.rules.wild_claimable)

    def _emit(self, ev: dict) -> None:
        self.events.append(ev)
        if self._emit_fn is not None:
            self._emit_fn(ev)

    def hand_tiles(self, seat: int) -> list[int]:
        """The seat's concealed tiles, sorted."""
        return from_counts(self.concealed[seat])

    def hand_tuple(self, seat: int) -> tuple[int, ...]:
        """The seat's concealed tiles, sorted, as a tuple (cached until that hand changes)."""
        h = self._hand_t[seat]
        if h is None:
            out: list[int] = []
            for t, n in enumerate(self.concealed[seat]):
                if n:
                    if n == 1:
                        out.append(t)
                    else:
                        out.extend((t,) * n)
            h = self._hand_t[seat] = tuple(out)
        return h

    def melds_seen_by(self, seat: int) -> tuple[tuple[tuple[Meld, ...], ...], tuple[int, ...]]:
        """Every seat's melds as ``seat`` sees them -- other seats' concealed kongs left out -- and
        per seat the number of concealed kongs left out (cached until a meld changes)."""
        v = self._melds_seen[seat]
        if v is None:
            melds = []
            hidden = []
            for s in range(4):
                ms = self.melds[s]
                if s == seat:
                    melds.append(tuple(ms))
                    hidden.append(0)
                else:
                    melds.append(tuple(m for m in ms if m.kind is not MeldKind.CONCEALED_KONG))
                    hidden.append(len(ms) - len(melds[-1]))
            v = self._melds_seen[seat] = (tuple(melds), tuple(hidden))
        return v

    def public_tuples(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """``(flowers, rivers)`` as tuples of per-seat tuples (each cached until it changes)."""
        f = self._flowers_t
        if f is None:
            f = self._flowers_t = tuple(map(tuple, self.flowers))
        r = self._rivers_t
        if r is None:
            r = self._rivers_t = tuple(map(tuple, self.rivers))
        return f, r

    def clear_caches(self) -> None:
        """Forget everything derived from the state: legal actions, scores, win gates and the
        tuples views reuse. Called at the start, and by whoever sets the state from outside
        (:mod:`majiang.rl.batched` copies its arrays into a table before the engine scores a win)."""
        self._legal_cache: dict[int, list[Action]] = {}
        self._score_cache: dict[tuple, ScoreResult | None] = {}
        # Win gates (see _gate): per seat, {tile taken out of the hand or None: bool}; emptied
        # whenever that seat's concealed tiles change (_touch).
        self._gates: list[dict[int | None, bool]] = [{} for _ in range(4)]
        # What Match.view reuses, each reset where its source changes: per-seat sorted hand tuples
        # (_touch), the melds as each seat sees them (_melds_changed), flowers and rivers as tuples.
        self._hand_t: list[tuple[int, ...] | None] = [None] * 4
        self._melds_seen: list[tuple | None] = [None] * 4
        self._flowers_t: tuple | None = None
        self._rivers_t: tuple | None = None

    def _touch(self, seat: int) -> None:
        """``seat``'s concealed tiles changed: forget what was derived from them."""
        self._gates[seat].clear()
        self._hand_t[seat] = None

    def _melds_changed(self) -> None:
        self._melds_seen = [None] * 4

    # ------------------------------------------------------------------ deal
    def _take_front(self) -> int:
        t = self.wall[self.head]
        self.head += 1
        return t

    def _take_tail(self) -> int:
        self.tail -= 1
        return self.wall[self.tail]

    def _deal(self) -> None:
        order = [(self.dealer + i) % 4 for i in range(4)]
        dealt: list[list[int]] = [[] for _ in range(4)]
        n = 0
        size = self.rules.hand_size
        while n < size:
            k = min(4, size - n)
            for s in order:
                for _ in range(k):
                    dealt[s].append(self._take_front())
            n += k
        dealt[self.dealer].append(self._take_front())
        self._emit({"type": "start_kyoku", "bakaze": tile_str(self.prevalent_wind), "oya": self.dealer,
                    "honba": self.dealer_streak, "dice": list(self.dice),
                    "tehais": [[tile_str(t) for t in dealt[s]] for s in range(4)]})
        if self.rules.wild_mode == "indicator":
            self._choose_wild()
        if self.rules.bao_pai:
            self._reveal_bao()
        for s in range(4):
            for t in dealt[s]:
                if is_flower(t):
                    self.flowers[s].append(t)
                else:
                    self.concealed[s][t] += 1
        fw = self.rules.flower_wins
        self.last_draw[self.dealer] = dealt[self.dealer][-1]
        # flowers at the deal: dealer first, then in turn order, each until flower-free
        if fw:
            for s in order:
                if len(self.flowers[s]) == 8 and self._flower_win(s, self.flowers[s][-1]):
                    return
        for s in order:
            pending = [t for t in dealt[s] if is_flower(t)]
            while pending:
                for f in pending:
                    self._emit({"type": "flower", "actor": s, "pai": tile_str(f)})
                got = []
                for _ in pending:
                    if self.live <= 0:
                        self._exhaust()
                        return
                    t = self._take_tail()
                    self._emit({"type": "tsumo", "actor": s, "pai": tile_str(t), "replacement": True})
                    if is_flower(t):
                        self.flowers[s].append(t)
                        got.append(t)
                        if fw and self._flower_win(s, t):
                            return
                    else:
                        self.concealed[s][t] += 1
                        if s == self.dealer:
                            self.last_draw[s] = t
                pending = got
        self.phase = Phase.TURN
        self.current = self.dealer
        if self.decisions:
            self._open_decision(0)

    # ------------------------------------------------------------------ pre-play decisions (issue 30)
    def _open_decision(self, k: int) -> None:
        self._dec_k = k
        self.phase = Phase.DECIDE
        self.answers = {(self.dealer + i) % 4: None for i in range(4)}
        self._picked = [[] for _ in range(4)]
        self._legal_cache.clear()

    def _close_decision(self) -> None:
        """Every seat has chosen: keep and reveal the values (turn order from the dealer), or pass an
        exchange's tiles; then the next decision or the dealer's first turn."""
        dec = self.decisions[self._dec_k]
        if isinstance(dec, Exchange):
            self._pass_tiles(dec)
        else:
            for s, a in self.answers.items():
                assert a is not None and a.tile is not None
                v = dec.values[a.tile]
                self.decided[s][dec.name] = v
                self._emit({"type": "decide", "actor": s, "name": dec.name, "value": v})
        self.answers = {}
        self._legal_cache.clear()
        if self._dec_k + 1 < len(self.decisions):
            self._open_decision(self._dec_k + 1)
        else:
            self.phase = Phase.TURN
            self.current = self.dealer

    def _pass_tiles(self, dec: Exchange) -> None:
        """Move every seat's picked tiles to the seat the exchange dice name (one ``exchange`` event per
        seat, in turn order from the dealer). The dealer's drawn tile, if he passed it, becomes the
        highest tile he got."""
        off = exchange_offset(self.exchange_dice)
        order = list(self.answers)
        for s in order:
            r = (s + off) % 4
            gave = tuple(sorted(self._picked[s]))
            got = tuple(sorted(self._picked[(s - off) % 4]))
            self.exchanged[s] = (gave, r, got, (s - off) % 4)
            self._emit({"type": "exchange", "name": dec.name, "actor": s, "target": r,
                        "pai": [tile_str(t) for t in gave], "dice": list(self.exchange_dice)})
        for s in order:
            for t in self.exchanged[s][2]:  # type: ignore[index]
                self.concealed[s][t] += 1
            self._touch(s)
        d = self.dealer
        if self.last_draw[d] is not None and not self.concealed[d][self.last_draw[d]]:  # type: ignore[index]
            self.last_draw[d] = max(self.exchanged[d][2])  # type: ignore[index]
        self._picked = [[] for _ in range(4)]

    def exchange_picked(self, seat: int) -> tuple[int, ...]:
        """The faces ``seat`` has picked so far for the exchange being answered (换三张), sorted."""
        return tuple(sorted(self._picked[seat]))

    @property
    def decision(self):
        """The :class:`~majiang.rules.base.Decision` the seats are answering (:attr:`Phase.DECIDE`), else ``None``."""
        return self.decisions[self._dec_k] if self.phase is Phase.DECIDE else None

    def default_action(self, seat: int) -> Action | None:
        """The action taken for ``seat`` when it does not choose: in :attr:`Phase.DECIDE` the rule set's
        default policy (:attr:`~majiang.rules.base.Decision.default`: the bots' choice and a time-out's),
        else ``None``."""
        if self.phase is not Phase.DECIDE or not self._awaits(seat):
            return None
        dec = self.decisions[self._dec_k]
        counts = tuple(self.concealed[seat])
        if isinstance(dec, Exchange):
            return _DECIDES[dec.next_default(counts, tuple(self._picked[seat]))]
        i = dec.default(counts)
        offered = dec.choices(counts)
        return _DECIDES[i if i in offered else offered[0]]

    def _compute_legal_filtered(self, seat: int) -> list[Action]:
        """:meth:`_compute_legal` then the rule set's legal-action filter (the instance's
        ``_compute_legal`` when the rule set has one); a claim window left with a pass only asks nothing."""
        acts = HandTable._compute_legal(self, seat)
        phase = self.phase
        if phase is Phase.DECIDE or not acts:
            return acts
        st = SeatState(seat, phase.value, tuple(self.concealed[seat]), self.decided[seat] if self.decided else {},
                       None if phase is Phase.TURN else self.claim_tile)
        out = list(self._filter(st, acts))
        if phase is Phase.TURN:
            return out or acts  # a turn always has an action
        return [] if out == [PASS] else out

    # ------------------------------------------------------------------ payments outside a win (issue 30)
    def _ledger(self, name: str, actor: int | None, tile: int | None, led: Ledger) -> None:
        """Add a hook's ledger to the hand (a ``settle`` event; its deltas join the result's)."""
        if not led.payments:
            return
        d = led.deltas
        if sum(d) != 0:  # pragma: no cover - a Ledger is zero-sum by construction
            raise AssertionError(f"settlement {self.settlement.name!r} is not zero-sum: {d}")
        for i in range(4):
            self.penalties[i] += d[i]
        self.payments.extend(led.payments)
        ev: dict = {"type": "settle", "name": name}
        if actor is not None:
            ev["actor"] = actor
        if tile is not None:
            ev["pai"] = tile_str(tile)
        ev["payments"] = [[p.payer, p.payee, p.amount, p.reason] for p in led.payments]
        ev["deltas"] = d
        self._emit(ev)

    def _kong_stands(self, seat: int, kind: str, tile: int, fed_by: int | None) -> None:
        self._stood_kongs.append((seat, kind))
        f = self._settle_kong
        if f is not None:
            self._ledger("kong", seat, tile, f(KongSettle(seat, kind, tile, fed_by, tuple(not o for o in self.out)), 4))

    def _wall_end(self) -> None:
        f = self._settle_wall_end
        if f is None:
            return
        hands = tuple(Hand(tuple(from_counts(self.concealed[s])), tuple(self.melds[s]), None, tuple(self.flowers[s]))
                      for s in range(4))
        end = WallEndSettle(hands, tuple(not o for o in self.out), tuple(dict(d) for d in self.decided) or ({},) * 4,
                            self.dealer, self.prevalent_wind, tuple(self._stood_kongs), tuple(self.payments))
        self._ledger("wall-end", None, None, f(end, 4))

    def _choose_wild(self) -> None:
        """Wildcard by indicator (RULES.md §4.2): count the dice total from the tail, turn that tile up
        and take it out of play (three copies stay live), or leave it in the wall face up
        (``rules.wild_indicator_out=False``: four live, seed 000); its face, or the next face, is wild."""
        total = sum(self.dice)
        pos = self.tail - total
        while is_flower(self.wall[pos]):  # a flower cannot indicate: take the next tile toward the front
            pos -= 1
        if self.rules.wild_indicator_out:
            ind = self.wall.pop(pos)
            self.tail -= 1
            self.indicator = ind
        else:
            ind = self.wall[pos]
            self.indicator_in_wall = ind
        if self.rules.wild_next_face:
            self.wild_face = _next_face(ind)
        else:
            self.wild_face = ind
        self._set_white_face()
        ev = {"type": "wild", "indicator": tile_str(ind), "wild": tile_str(self.wild_face)}
        if not self.rules.wild_indicator_out:
            ev["in_wall"] = True  # the indicator stays in play: four live copies
        self._emit(ev)

    def _reveal_bao(self) -> None:
        """宝牌 (RULES.md §3.4, ``rules.bao_pai``): the tile at the wall's tail (a flower is passed over
        toward the front) is turned up and taken out of play; its face is a 宝牌. At most five; none
        once no live tile is left. Writes a ``bao`` event."""
        if len(self.bao) >= 5 or self.live <= 0:
            return
        pos = self.tail - 1
        while pos > self.head and is_flower(self.wall[pos]):
            pos -= 1
        if is_flower(self.wall[pos]):
            return
        t = self.wall.pop(pos)
        self.tail -= 1
        self.bao.append(t)
        self._emit({"type": "bao", "pai": tile_str(t)})

    # ------------------------------------------------------------------ draws
    def _draw(self, seat: int, from_tail: bool) -> bool:
        """Draw for ``seat`` (flowers set aside and replaced); False if the hand was drawn instead."""
        self.flower_chain = False
        while True:
            if self.live <= 0:
                self._exhaust()
                return False
            if from_tail:
                t = self._take_tail()
                self._emit({"type": "tsumo", "actor": seat, "pai": _TILE_STR[t], "replacement": True})
            else:
                t = self._take_front()
                self._emit({"type": "tsumo", "actor": seat, "pai": _TILE_STR[t]})
            if t >= NUM_KINDS:  # a flower
                self.flowers[seat].append(t)
                self._flowers_t = None
                self._emit({"type": "flower", "actor": seat, "pai": _TILE_STR[t]})
                if self.rules.flower_wins and self._flower_win(seat, t):
                    return False
                from_tail = True
                self.flower_chain = True
                continue
            # the gate of the hand before the draw is the gate of this hand less the drawn tile
            gates = self._gates[seat]
            pre = gates.get(None)
            self.concealed[seat][t] += 1
            h = self._hand_t[seat]
            self._touch(seat)  # clears gates
            if pre is not None:
                gates[t] = pre
            if h is not None:  # keep the sorted hand tuple up to date rather than rebuild it
                i = bisect_right(h, t)
                self._hand_t[seat] = h[:i] + (t,) + h[i:]
            self.last_draw[seat] = t
            self.current = seat
            self.phase = Phase.TURN
            self._legal_cache.clear()
            return True

    def _exhaust(self) -> None:
        if self._settle_wall_end is not None:
            self._wall_end()
        self.phase = Phase.END
        wins = self._wins
        total = [p + w for p, w in zip(self.penalties, self._win_total)] if wins else list(self.penalties)
        self.result = HandResult(list(wins), total, self._xianggong_states())
        self._legal_cache.clear()
        self._emit({"type": "ryukyoku", "reason": "exhaustive", "deltas": list(self.penalties)})

    # ------------------------------------------------------------------ flower wins, penalties
    def _flower_win(self, seat: int, t: int) -> bool:
        """``seat`` has just set aside flower ``t`` (``rules.flower_wins``): with all eight it wins
        (八仙過海, paid as a self-draw); if another seat holds the other seven, that seat wins and
        ``seat`` pays alone (七搶一). Scored by the rule set's scorer; a score below ``min_score``
        lets play go on. Returns True if the hand ended."""
        if len(self.flowers[seat]) == 8:
            winner, drawer, kind = seat, None, "eight"
        else:
            holder = next((h for h in range(4) if h != seat and len(self.flowers[h]) == 7), None)
            if holder is None:
                return False
            winner, drawer, kind = holder, seat, "seven"
        if self.xianggong[winner] is not None:  # a 相公 may not win (RULES.md §2.4)
            return False
        counts, wilds = self._win_counts(winner, None)
        hand = Hand(tuple(from_counts(counts)), tuple(self.melds[winner]), None, tuple(self.flowers[winner]), wilds)
        ctx = WinContext(
            hand=hand, seat=winner, dealer=self.dealer, seat_wind=self.seat_wind(winner),
            prevalent_wind=self.prevalent_wind, self_drawn=drawer is None, discarder=drawer,
            wild_face=self.wild_face, dealer_streak=self.dealer_streak, chow_feeds=self._chow_feeds(),
            wild_counts=self._wild_counts(), kongs=self._kongs(None), flower_win=kind)
        res = self.scorer.score(ctx)
        if res.value < self.rules.min_score:
            return False
        self._settle_wins([(winner, drawer, t, False, res, ctx)])
        return True

    def _note_discard(self, seat: int, t: int) -> None:
        """被跟 (``rules.followed_penalty``, RULES.md §4.6): track discards in turn order since the
        last claim; when B, C and D have followed A's face, A pays each other player at once."""
        run = self._run
        if run and run[0][1] == t and run[-1][0] == (seat - 1) % 4:
            run.append((seat, t))
        else:
            run[:] = [(seat, t)]
        if len(run) == 4:
            self._penalty("followed", run[0][0], t, self.rules.followed_penalty)
            run.clear()

    def _penalty(self, name: str, payer: int, t: int, points: int) -> None:
        """``payer`` pays each other seat ``points`` at once (被跟, 误打财神): a ``penalty`` event."""
        d = [points] * 4
        d[payer] = -3 * points
        for i in range(4):
            self.penalties[i] += d[i]
        self._emit({"type": "penalty", "name": name, "actor": payer, "pai": tile_str(t), "deltas": d})

    # ------------------------------------------------------------------ win check and scoring
    def _win_counts(self, seat: int, extra: int | None, less: int | None = None) -> tuple[list[int], int]:
        """The seat's concealed tiles (plus ``extra``, less ``less``) as natural counts and a number
        of wildcards, as the win check sees them."""
        c = list(self.concealed[seat])
        if extra is not None:
            c[extra] += 1
        if less is not None:
            c[less] -= 1
        return split_counts(c, self.wild_face, self.rules.white_stand_in)

    def _visible_copies(self, seat: int, t: int) -> int:
        n = self.concealed[seat][t]
        for s in range(4):
            n += self.rivers[s].count(t)
            for m in self.melds[s]:
                if m.kind is MeldKind.CONCEALED_KONG and s != seat:
                    continue
                n += m.physical.count(t)
        return n

    def _context(self, seat: int, tile: int, *, self_drawn: bool, discarder: int | None, robbing: bool) -> WinContext:
        extra = None if self_drawn else tile
        counts, wilds = self._win_counts(seat, extra)
        win_face = tile
        if self.is_wild(tile):
            win_t = WILD
            wilds -= 1
        else:
            if self.wild_face is not None and self.rules.white_stand_in and tile == WHITE and self.wild_face != WHITE:
                win_face = self.wild_face
            win_t = win_face
            counts[win_face] -= 1
        hand = Hand(tuple(from_counts(counts)), tuple(self.melds[seat]), win_t, tuple(self.flowers[seat]), wilds)
        seen = self._visible_copies(seat, tile) - 1  # the winning tile itself is in hand, river or meld
        last = (self.live == 0) if self_drawn else self.last_discard
        return WinContext(
            hand=hand, seat=seat, dealer=self.dealer, seat_wind=self.seat_wind(seat),
            prevalent_wind=self.prevalent_wind, self_drawn=self_drawn, discarder=discarder,
            kong_replacement=self_drawn and self.kong_chain, flower_replacement=self_drawn and self.flower_chain,
            robbing_kong=robbing, last_tile=last and not robbing, win_tile_seen=max(seen, 0),
            first_turn=(not self.any_claim and self.discards_made[seat] == 0),
            wild_face=self.wild_face, dealer_streak=self.dealer_streak,
            chow_feeds=self._chow_feeds(), wild_counts=self._wild_counts(),
            kongs=self._kongs(robbed=(discarder, tile) if robbing else None),
            declared_ready=self.ready[seat], heavenly_ready=self.ready_kind[seat] == "heavenly",
            earthly_ready=self.ready_kind[seat] == "earthly", bao=tuple(self.bao),
            kong_discard=not self_drawn and not robbing and self._kong_discard, decided=self.decided,
            in_play=tuple(not o for o in self.out) if self._wins else ())

    def _chow_feeds(self) -> tuple[tuple[int, int], ...]:
        """``(feeder, eater)`` for every chow claimed this hand (Wenzhou 统包, RULES.md §4.6)."""
        return tuple((f, s) for s in range(4) for m, f in zip(self.melds[s], self.meld_from[s])
                     if m.kind is MeldKind.CHOW and f is not None)

    def _wild_counts(self) -> tuple[int, ...] | None:
        """Wildcards each seat holds now (W16 财神钱), or ``None`` without a wildcard."""
        if self.wild_face is None:
            return None
        return tuple(self.concealed[s][self.wild_face] for s in range(4))

    def _kongs(self, robbed: tuple[int | None, int] | None) -> tuple[tuple[int, str], ...]:
        """``(seat, kind)`` per kong declared this hand; a kong being robbed does not count, nor do the
        kongs of a 大相公 (void, RULES.md §2.4; a 小相公's kongs count)."""
        kinds = {MeldKind.EXPOSED_KONG: "exposed", MeldKind.CONCEALED_KONG: "concealed",
                 MeldKind.ADDED_KONG: "added"}
        xg = self.xianggong
        return tuple((s, kinds[m.kind]) for s in range(4) if xg[s] is None or xg[s].kongs_count
                     for m in self.melds[s] if m.kind in kinds
                     and not (robbed is not None and s == robbed[0] and m.tile == robbed[1]
                              and m.kind is MeldKind.ADDED_KONG))

    def _gate(self, seat: int, less: int | None) -> bool:
        """False only if no tile can complete the seat's 3k+1 hand (its concealed tiles, less
        ``less`` after a draw): the hand with one more wildcard does not win. A wildcard stands for
        any tile, so a hand that wins with some tile also wins with a wildcard in its place; the
        converse need not hold, so a True gate is followed by the exact check. Cached per seat until
        its concealed tiles change; a draw keeps the gate of the hand before it."""
        g = self._gates[seat]
        v = g.get(less)
        if v is None:
            if self.xianggong[seat] is not None:  # 小相公/大相公 may not win (RULES.md §2.4)
                v = g[less] = False
            else:
                counts, wilds = self._win_counts(seat, None, less)
                v = g[less] = is_winning(counts, wilds + 1, self.shape_rules)
        return v

    def _score_win(self, seat: int, tile: int, *, self_drawn: bool, discarder: int | None,
                   robbing: bool) -> ScoreResult | None:
        """Score of a win if the shape wins and the score meets the minimum, else ``None``."""
        if not self._gate(seat, tile if self_drawn else None):
            return None
        counts, wilds = self._win_counts(seat, None if self_drawn else tile)
        if not is_winning(counts, wilds, self.shape_rules):
            return None
        key = (seat, tile, self_drawn, discarder, robbing, self.head, self.tail)
        if key in self._score_cache:
            return self._score_cache[key]
        ctx = self._context(seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing)
        res = self.scorer.score(ctx)
        out = res if res.value >= self.rules.min_score else None
        self._score_cache[key] = out
        return out

    # ------------------------------------------------------------------ legal actions
    def pending_seats(self) -> list[int]:
        """Seats whose decision the table awaits, in turn order from the discarder (claim windows)
        or the one seat to act (turn). Empty only when the hand is over or a held window waits for
        :meth:`close_window`."""
        if self.phase is Phase.TURN:
            return [self.current]
        if self.phase in (Phase.CLAIM, Phase.ROB):
            origin = self.discarder if self.phase is Phase.CLAIM else self.kong_seat
            assert origin is not None
            return [s for s in self._after[origin] if s in self.answers and self.answers[s] is None]
        if self.phase is Phase.DECIDE:
            waiting = [s for s, a in self.answers.items() if a is None]
            return waiting[:1] if self.decisions[self._dec_k].in_turn else waiting
        return []

    def _awaits(self, seat: int) -> bool:
        """True if the table awaits ``seat``'s decision (``seat in pending_seats()``)."""
        if self.phase is Phase.TURN:
            return seat == self.current
        if self.phase is Phase.DECIDE:
            return seat in self.pending_seats()
        return seat in self.answers and self.answers[seat] is None

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly the actions ``seat`` may take now (sorted by :attr:`Action.sort_key`: wins first,
        pass last); empty if the table does not await this seat. Computed once per seat and step."""
        if not self._awaits(seat):
            return []
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._compute_legal(seat)
        return list(cached)

    def _compute_legal(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``, generated in :attr:`Action.sort_key` order (kind in
        :class:`ActionKind` order, then tile, then chow low)."""
        r = self.rules
        c = self.concealed[seat]
        wf = self.wild_face
        acts: list[Action] = []
        if self.phase is Phase.DECIDE:
            dec = self.decisions[self._dec_k]
            if isinstance(dec, Exchange):
                return [_DECIDES[t] for t in dec.picks(c, tuple(self._picked[seat]))]
            return [_DECIDES[i] for i in dec.choices(tuple(c))]
        if self.phase is Phase.TURN:
            if self.ready[seat]:  # frozen (報聽): a self-drawn win or the drawn tile's discard
                lt = self.last_draw[seat]
                if lt is not None and self._gates[seat].get(lt) is not False and \
                        self._score_win(seat, lt, self_drawn=True, discarder=None, robbing=False):
                    acts.append(_WINS[lt])
                if lt is not None and c[lt]:
                    acts.append(_DISCARDS[lt])
                else:  # pragma: no cover - a declared seat always acts after a draw
                    acts.extend(map(_DISCARDS.__getitem__, dict.fromkeys(self.hand_tuple(seat))))
                return acts
            if not self.after_claim:
                lt = self.last_draw[seat]
                if lt is not None and self._gates[seat].get(lt) is not False and \
                        self._score_win(seat, lt, self_drawn=True, discarder=None, robbing=False):
                    acts.append(_WINS[lt])
                if self.live > 0:
                    if r.concealed_kong and 4 in c:
                        for t in range(NUM_KINDS):
                            if c[t] == 4 and (r.wild_claimable or t != wf):
                                acts.append(_CONCEALED_KONGS[t])
                    if r.added_kong and self.melds[seat]:
                        added = sorted(m.tile for m in self.melds[seat]
                                       if m.kind is MeldKind.PUNG and c[m.tile] >= 1 and (
                                           not r.added_kong_drawn_only or lt == m.tile))
                        acts.extend(map(_ADDED_KONGS.__getitem__, added))
            if wf is None or r.wild_discardable:
                discards = list(map(_DISCARDS.__getitem__, dict.fromkeys(self.hand_tuple(seat))))
            else:
                discards = [_DISCARDS[t] for t, n in enumerate(c) if n and t != wf]
                if not discards:  # a hand of wildcards only: the rule must give way
                    discards = [_DISCARDS[t] for t, n in enumerate(c) if n]
            acts.extend(discards)
            if r.declare_ready:
                acts.extend(_READIES[a.tile] for a in discards if self._ready_after(seat, a.tile))
            return acts
        tile = self.claim_tile
        assert tile is not None
        if self.phase is Phase.ROB:
            assert self.kong_seat is not None
            if self._score_win(seat, tile, self_drawn=False, discarder=self.kong_seat, robbing=True):
                acts.append(_WINS[tile])
            acts.append(PASS)
            return acts
        # claim window on a discard
        d = self.discarder
        assert d is not None
        gate = self._gates[seat].get(None)
        if gate is None:
            gate = self._gate(seat, None)
        wt = self.white_face
        lt = wt if (tile == WHITE and wt is not None) else tile  # what the discard plays (白板代)
        chow_seat = seat == self._after[d][0] and lt < 27 and r.chow
        if chow_seat:  # some neighbour is held (each chow needs one; a White may play it)
            k = lt % 9
            chow_seat = bool((k >= 1 and (c[lt - 1] or (lt - 1 == wt and c[WHITE])))
                             or (k <= 7 and (c[lt + 1] or (lt + 1 == wt and c[WHITE]))))
        if not gate and c[tile] < 2 and not chow_seat:
            return acts  # the common case: nothing to claim
        if gate and self._score_win(seat, tile, self_drawn=False, discarder=d, robbing=False):
            acts.append(_WINS[tile])
        if self.ready[seat]:  # frozen (報聽): only a win
            if acts:
                acts.append(PASS)
            return acts
        may_meld = (self.live > 0 or r.claim_last_discard) and (r.wild_claimable or tile != wf)
        if may_meld and len(self.melds[seat]) < r.sets:
            if r.exposed_kong and c[tile] == 3 and self.live > 0:
                acts.append(_EXPOSED_KONGS[tile])
            if r.pung and c[tile] >= 2:
                acts.append(_PUNGS[tile])
            if chow_seat:  # ``tile`` stays the physical discard; ``low`` is the chow's natural lowest tile
                base = lt - lt % 9
                for low in (lt - 2, lt - 1, lt):
                    if low < base or low + 2 >= base + 9:
                        continue
                    if self._chow_uses(c, tile, low) is not None:
                        acts.append(_CHOWS[tile, low])
        if acts:
            acts.append(PASS)
        return acts

    def _ready_after(self, seat: int, t: int | None) -> bool:
        """True if ``seat``'s hand less ``t`` is ready (waits on some tile still to be had)."""
        if t is None or not self._gate(seat, t):
            return False
        counts, wilds = self._win_counts(seat, None, t)
        w = waits(counts, wilds, self.shape_rules)
        return bool(w.tiles) or w.wildcard

    # ------------------------------------------------------------------ applying
    def apply(self, seat: int, action: Action, *, replacement: bool = True) -> None:
        """Apply ``seat``'s ``action``. Raises :class:`IllegalActionError` (table unchanged) if the
        table does not await ``seat`` or the action is not among :meth:`legal_actions`, and its
        subclass :class:`~majiang.engine.actions.XiangGongError` for a win by a 相公 seat.

        ``replacement=False`` (a kong only, and only with ``rules.xianggong``; records of real play):
        the kong is declared without its replacement draw, so the seat discards one tile short
        (小相公, RULES.md §2.4); see :meth:`extra_draw` for the other wrong count."""
        if self.phase is Phase.END:
            raise IllegalActionError(f"the hand is over; seat {seat} cannot {action}", seat=seat, action=action)
        if action.kind is ActionKind.WIN:
            self.check_may_win(seat, action)
        if not replacement:
            self._check_no_replacement(seat, action)
        legal = self._legal_cache.get(seat) if self._awaits(seat) else None
        if legal is None:
            legal = self.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} is not to act now (awaiting {self.pending_seats()})",
                                     seat=seat, action=action)
        for a in legal:  # the offered object itself (the usual case), else an equal one
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalActionError(f"seat {seat} cannot {action}; legal: {', '.join(map(str, legal))}",
                                         seat=seat, action=action)
        if not replacement:
            self._no_replacement = seat
        if self.phase is Phase.TURN:
            self._legal_cache.clear()
            self._apply_turn(seat, action)
        elif self.phase is Phase.DECIDE:
            dec = self.decisions[self._dec_k]
            if isinstance(dec, Exchange):  # one tile out of the hand; answered once all are picked
                t = action.tile
                assert t is not None
                self.concealed[seat][t] -= 1
                self._touch(seat)
                self._picked[seat].append(t)
                if len(self._picked[seat]) == dec.count:
                    self.answers[seat] = action
            else:
                self.answers[seat] = action
            self._legal_cache.clear()
            if all(a is not None for a in self.answers.values()):
                self._close_decision()
        else:
            # another seat's answer changes nothing the cached legal actions depend on
            self.answers[seat] = action
            if not self.hold_windows and all(a is not None for a in self.answers.values()):
                self._legal_cache.clear()
                if self.phase is Phase.CLAIM:
                    self._resolve_claims()
                else:
                    self._resolve_rob()

    # ------------------------------------------------------------------ 相公 (wrong tile counts)
    def check_may_win(self, seat: int, action: Action | None = None) -> None:
        """Raise :class:`~majiang.engine.actions.XiangGongError` if ``seat`` is 小相公 or 大相公: such a
        player may not win (RULES.md §2.4, seed 000). Nothing otherwise."""
        x = self.xianggong[seat]
        if x is None:
            return
        held, melds = sum(self.concealed[seat]), len(self.melds[seat])
        what = "one tile short" if x.state == "short" else "one tile too many"
        raise XiangGongError(
            f"seat {seat} is {x.name_zh} ({what}: {held} concealed tiles with {melds} meld(s)) and may not win "
            "(RULES.md §2.4, seed 000)", seat=seat, action=action, state=x.state, name_zh=x.name_zh)

    def _classify(self, seat: int, held: int, melds: int, in_turn: bool, what: str):
        """The seat's 相公 state for a count (:func:`majiang.hand.xianggong`); a count off by
        more than one is refused (:class:`IllegalActionError`)."""

        try:
            return xianggong(held, melds, sets=self.rules.sets, in_turn=in_turn)
        except TileCountError as e:
            raise IllegalActionError(f"seat {seat} {what}: {e}", seat=seat) from None

    def _check_no_replacement(self, seat: int, action: Action) -> None:
        """Validate a kong declared without its replacement draw (``apply(..., replacement=False)``)."""
        kind = action.kind
        lost = {ActionKind.CONCEALED_KONG: (4, 1), ActionKind.ADDED_KONG: (1, 0), ActionKind.EXPOSED_KONG: (3, 1)}
        if kind not in lost:
            raise IllegalActionError(f"only a kong has a replacement draw to leave out, not {action}",
                                     seat=seat, action=action)
        if not self.rules.xianggong:
            raise IllegalActionError(
                f"seat {seat} cannot {action} without the replacement draw: that leaves the hand one tile short "
                f"(小相公), which rule set {self.rules.name!r} does not accept (option xianggong, RULES.md §2.4)",
                seat=seat, action=action)
        n, m = lost[kind]
        self._classify(seat, sum(self.concealed[seat]) - n, len(self.melds[seat]) + m, True,
                       f"cannot {action} without the replacement draw")

    def _xianggong_states(self) -> tuple[str | None, ...]:
        return tuple(None if x is None else x.state for x in self.xianggong)

    def _kong_draw(self, seat: int) -> None:
        """The replacement draw after a kong -- or, when the record leaves it out (``replacement=False``),
        none: the seat discards one short and is marked (小相公, RULES.md §2.4)."""
        if self._no_replacement != seat:
            if self._draw(seat, True) and self.rules.bao_pai and self.phase is Phase.TURN:
                self._reveal_bao()  # one more 宝牌 with each kong's replacement draw (RULES.md §3.4)
            return
        self._no_replacement = None
        self.kong_chain = False
        self.last_draw[seat] = None
        self.current = seat
        self.phase = Phase.TURN
        self._mark(seat, in_turn=True)

    def _mark(self, seat: int, in_turn: bool) -> None:
        x = self._classify(seat, sum(self.concealed[seat]), len(self.melds[seat]), in_turn, "has a wrong count")
        self.xianggong[seat] = None if x.state == "ok" else x
        self._touch(seat)  # its win gates: a 相公 wins nothing
        self._legal_cache.clear()

    def extra_draw(self, seat: int, replacement: bool = False) -> None:
        """A draw the rules do not give (records of real play, ``rules.xianggong`` only): ``seat``, whose
        turn it is, draws one more tile from the front (``replacement``: from the tail) and will hold
        one tile too many (大相公, RULES.md §2.4) -- or, after a kong without its replacement, the
        right count again. The ``tsumo`` event is written as for any draw; the turn stays the seat's.
        Raises :class:`IllegalActionError` (table unchanged) when the rule set has no 相公, when it is
        not ``seat``'s turn, or when the count would be off by two."""
        if not self.rules.xianggong:
            raise IllegalActionError(
                f"seat {seat} cannot draw again before discarding: that leaves the hand one tile too many "
                f"(大相公), which rule set {self.rules.name!r} does not accept (option xianggong, RULES.md §2.4)",
                seat=seat)
        if self.phase is not Phase.TURN or self.current != seat:
            raise IllegalActionError(f"seat {seat} is not to act now (awaiting {self.pending_seats()})", seat=seat)
        if self.live <= 0:
            raise IllegalActionError(f"seat {seat} cannot draw again: no live tile is left", seat=seat)
        x = self._classify(seat, sum(self.concealed[seat]) + 1, len(self.melds[seat]), True, "cannot draw again")
        self.xianggong[seat] = None if x.state == "ok" else x  # marked before the draw: a flower drawn
        self._touch(seat)  # and replaced on the way wins nothing for a 相公 either
        self._legal_cache.clear()
        if self._draw(seat, replacement):
            self.after_claim = False  # a tile was drawn: the turn goes on as after a draw

    def _apply_turn(self, seat: int, a: Action) -> None:
        c = self.concealed[seat]
        k = a.kind
        assert a.tile is not None
        if k is ActionKind.WIN:
            self._finish([(seat, None, a.tile, False)])
            if self._play_on is not None:
                self._resume()
            return
        if k is ActionKind.READY:
            if not self.any_claim and self.discards_made[seat] == 0:
                heavenly = seat == self.dealer or a.tile == self.last_draw[seat]
                self.ready_kind[seat] = "heavenly" if heavenly else "earthly"
            self.ready[seat] = True
            self._emit({"type": "reach", "actor": seat, "pai": tile_str(a.tile)})
            k = ActionKind.DISCARD
        if k is ActionKind.DISCARD:
            t = a.tile
            c[t] -= 1
            h = self._hand_t[seat]
            self._touch(seat)
            if h is not None:
                i = h.index(t)
                self._hand_t[seat] = h[:i] + h[i + 1:]
            self.rivers[seat].append(t)
            self._rivers_t = None
            self.discards_made[seat] += 1
            self.after_claim = False
            self._kong_discard = self.kong_chain
            self.kong_chain = False
            self._emit({"type": "dahai", "actor": seat, "pai": tile_str(t)})
            if self.rules.followed_penalty:
                self._note_discard(seat, t)
            if self.rules.wild_discard_penalty and self.is_wild(t):
                self._penalty("wild-discard", seat, t, self.rules.wild_discard_penalty)
            self.claim_tile = t
            self.discarder = seat
            self.last_discard = self.live <= 0
            self._open_window(Phase.CLAIM, seat)
            if not self.answers and not self.hold_windows:
                self._next_turn()
            return
        if k is ActionKind.CONCEALED_KONG:
            t = a.tile
            c[t] -= 4
            self._touch(seat)
            self.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, t, 0))
            self._melds_changed()
            self.meld_from[seat].append(None)
            self.any_claim = True
            self._emit({"type": "ankan", "actor": seat, "consumed": [tile_str(t)] * 4})
            self._kong_stands(seat, "concealed", t, None)
            self.kong_chain = True
            self._kong_draw(seat)
            return
        if k is ActionKind.ADDED_KONG:
            t = a.tile
            c[t] -= 1
            self._touch(seat)
            i = next(i for i, m in enumerate(self.melds[seat]) if m.kind is MeldKind.PUNG and m.tile == t)
            old = self.melds[seat][i]
            self.melds[seat][i] = Meld(MeldKind.ADDED_KONG, t, old.offer, old.claimed)
            self._melds_changed()
            self.any_claim = True
            self._emit({"type": "kakan", "actor": seat, "pai": tile_str(t), "consumed": [tile_str(t)] * 3})
            self.claim_tile = t
            self.kong_seat = seat
            if self.rules.rob_kong:
                self._open_window(Phase.ROB, seat)
                if not self.answers and not self.hold_windows:
                    self._complete_added_kong()
            else:  # nothing can rob it: no window to hold
                self._complete_added_kong()
            return
        raise IllegalActionError(f"{a} is not a turn action", seat=seat, action=a)  # pragma: no cover

    @property
    def window_closable(self) -> bool:
        """True when a held window (flow point 10) is open and every seat asked has answered
        (perhaps none was asked): :meth:`close_window` may resolve it."""
        return (self.hold_windows and self.phase in (Phase.CLAIM, Phase.ROB)
                and all(a is not None for a in self.answers.values()))

    def close_window(self) -> None:
        """Resolve the held window now open (flow point 10), exactly as the unheld table resolves a
        window at its last answer: the claims by priority, or (nothing claimed, or nobody could
        claim) the next seat's draw or the added kong's replacement draw. Raises
        :class:`IllegalActionError` (table unchanged) when no held window is open or a seat asked
        has not answered yet."""
        if not self.hold_windows or self.phase not in (Phase.CLAIM, Phase.ROB):
            raise IllegalActionError("no held claim window is open to close")
        waiting = self.pending_seats()
        if waiting:
            raise IllegalActionError(f"the claim window still awaits seats {waiting}")
        self._legal_cache.clear()
        if self.phase is Phase.CLAIM:
            self._resolve_claims()
        else:
            self._resolve_rob()

    def _open_window(self, phase: Phase, origin: int) -> None:
        self.phase = phase
        self.answers = {}
        self._legal_cache.clear()
        tile = self.claim_tile
        assert tile is not None
        wt = self.white_face
        lt = wt if (tile == WHITE and wt is not None) else tile  # what the discard plays (白板代)
        k = lt % 9 if lt < 27 and self.rules.chow else -1  # -1: no chow on this tile
        after = self._after[origin]
        for s in after:
            if phase is Phase.CLAIM:
                c = self.concealed[s]
                if c[tile] < 2 and self._gates[s].get(None) is False and (
                        s != after[0] or k < 0 or not ((k >= 1 and (c[lt - 1] or (lt - 1 == wt and c[WHITE])))
                                                or (k <= 7 and (c[lt + 1] or (lt + 1 == wt and c[WHITE]))))):
                    continue  # the common case, decided without _compute_legal: no win, pung, kong or chow
            acts = self._compute_legal(s)
            if acts and acts != [PASS]:
                self.answers[s] = None
                self._legal_cache[s] = acts

    def _complete_added_kong(self) -> None:
        seat = self.kong_seat
        assert seat is not None
        self.answers = {}
        assert self.claim_tile is not None
        self._kong_stands(seat, "added", self.claim_tile, None)
        self.kong_chain = True
        self._kong_draw(seat)

    def _resolve_rob(self) -> None:
        seat = self.kong_seat
        assert seat is not None and self.claim_tile is not None
        order = [(seat + i) % 4 for i in range(1, 4)]
        winners = [s for s in order if (a := self.answers.get(s)) is not None and a.kind is ActionKind.WIN]
        if winners:
            if self.rules.multiple_winners == "head-bump":
                winners = winners[:1]
            t = self.claim_tile
            self._finish([(w, seat, t, True) for w in winners])  # scored as the table stood
            i = next(i for i, m in enumerate(self.melds[seat]) if m.kind is MeldKind.ADDED_KONG and m.tile == t)
            old = self.melds[seat][i]
            self.melds[seat][i] = Meld(MeldKind.PUNG, t, old.offer, old.claimed)  # the robbed kong stays a pung
            self._melds_changed()
            self.won_tiles.append(t)
            if self._play_on is not None:
                self._resume()
            return
        self._complete_added_kong()

    def _resolve_claims(self) -> None:
        d = self.discarder
        t = self.claim_tile
        assert d is not None and t is not None
        order = [(d + i) % 4 for i in range(1, 4)]
        claims = [(CLAIM_PRIORITY[a.kind], i, s, a) for i, s in enumerate(order)
                  if (a := self.answers.get(s)) is not None and a.kind is not ActionKind.PASS]
        self.answers = {}
        if not claims:
            self._next_turn()
            return
        claims.sort(key=lambda x: (x[0], x[1]))
        best = claims[0]
        if best[3].kind is ActionKind.WIN:
            winners = [s for p, _, s, _a in claims if p == 0]
            if self.rules.multiple_winners == "head-bump":
                winners = winners[:1]
            self._finish([(w, d, t, False) for w in winners])  # scored with the tile still in the river
            self.rivers[d].pop()
            self._rivers_t = None
            self.won_tiles.append(t)
            if self._play_on is not None:
                self._resume()
            return
        _, _, s, a = best
        if self._no_replacement is not None and (s != self._no_replacement or a.kind is not ActionKind.EXPOSED_KONG):
            self._no_replacement = None  # the kong recorded without replacement is not the claim taken
        c = self.concealed[s]
        self.rivers[d].pop()
        self._rivers_t = None
        self.any_claim = True
        self._run.clear()
        self._touch(s)
        self._melds_changed()
        offer = (s - d) % 4
        self.current = s
        self.phase = Phase.TURN
        self.kong_chain = False
        self.flower_chain = False
        self.last_draw[s] = None
        if a.kind is ActionKind.CHOW:
            assert a.low is not None
            lt = self.plays(t)
            stand = lt if lt != t else None  # the claimed discard is a White playing the face
            used = self._chow_uses(c, t, a.low)
            assert used is not None
            if WHITE in used:
                stand = self.white_face  # a White from the hand plays the face
            for x in used:
                c[x] -= 1
            self.melds[s].append(Meld(MeldKind.CHOW, a.low, 1, lt, stand))
            self.meld_from[s].append(d)
            self.after_claim = True
            self._emit({"type": "chi", "actor": s, "target": d, "pai": tile_str(t),
                        "consumed": [tile_str(x) for x in used]})
        elif a.kind is ActionKind.PUNG:
            c[t] -= 2
            self.melds[s].append(Meld(MeldKind.PUNG, t, offer, t))
            self.meld_from[s].append(d)
            self.after_claim = True
            self._emit({"type": "pon", "actor": s, "target": d, "pai": tile_str(t), "consumed": [tile_str(t)] * 2})
        else:  # exposed kong
            c[t] -= 3
            self.melds[s].append(Meld(MeldKind.EXPOSED_KONG, t, offer, t))
            self.meld_from[s].append(d)
            self.after_claim = False
            self._emit({"type": "daiminkan", "actor": s, "target": d, "pai": tile_str(t),
                        "consumed": [tile_str(t)] * 3})
            self._kong_stands(s, "exposed", t, d)
            self.kong_chain = True
            self._kong_draw(s)

    def _next_turn(self) -> None:
        d = self.discarder
        assert d is not None
        self.after_claim = False
        self.kong_chain = False
        self._draw(self._after[d][0], False)

    def _resume(self) -> None:
        """Play on after a win that did not end the hand (``rules.win_limit``): the next seat in play
        after the (last) winner draws."""
        s = self._play_on
        assert s is not None
        self._play_on = None
        self.answers = {}
        self.after_claim = False
        self.kong_chain = False
        self._legal_cache.clear()
        self._draw(s, False)

    def _finish(self, wins: list[tuple[int, int | None, int, bool]]) -> None:
        scored = []
        for seat, discarder, tile, robbing in wins:
            self_drawn = discarder is None
            res = self._score_win(seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing)
            assert res is not None, "a legal win always has a score"
            ctx = self._context(seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing)
            scored.append((seat, discarder, tile, robbing, res, ctx))
        self._settle_wins(scored)

    def _settle_wins(self, wins: list[tuple[int, int | None, int, bool, ScoreResult, WinContext]]) -> None:
        total = list(self.penalties)
        infos: list[WinInfo] = []
        for seat, discarder, tile, robbing, res, ctx in wins:
            deltas = self.settlement.settle(WinSettle(seat, discarder, res, ctx), 4)
            if sum(deltas) != 0:
                raise AssertionError(f"settlement {self.settlement.name!r} is not zero-sum: {deltas}")
            for i in range(4):
                total[i] += deltas[i]
            infos.append(WinInfo(seat, discarder, tile, res, tuple(deltas), ctx))
            ev = {"type": "hora", "actor": seat, "target": seat if discarder is None else discarder,
                  "pai": tile_str(tile), "robbing": robbing,
                  "hand": str(ctx.hand), "value": res.value, "bonus": res.bonus,
                  "patterns": [[n, v, k] for n, v, k in res.patterns], "deltas": list(deltas)}
            if ctx.flower_win is not None:
                ev["flower_win"] = ctx.flower_win
            if any(m.stand_in is not None for m in ctx.hand.melds):
                # the melds in physical form ([chi 5z23m]: a 白板 playing the wildcard's face), read back
                # by Hand.parse(ev["notation"], wild=...); written only then (older records lack it)
                ev["notation"] = ctx.hand.notation()
            self._emit(ev)
        if self.rules.win_limit > 1:  # 血战到底 (flow point 11): the winners leave; play on or end
            self._wins.extend(infos)
            for w in infos:
                self.out[w.winner] = True
                for i in range(4):
                    self._win_total[i] += w.deltas[i]
            self._legal_cache.clear()
            if sum(self.out) < self.rules.win_limit:
                self._after = tuple(tuple(s for s in ((o + i) % 4 for i in (1, 2, 3)) if not self.out[s])
                                    for o in range(4))
                self._play_on = self._after[infos[-1].winner][0]
                return
            infos = list(self._wins)
            total = [p + w for p, w in zip(self.penalties, self._win_total)]
        self.result = HandResult(infos, total, self._xianggong_states())
        self.phase = Phase.END
        self._legal_cache.clear()

    # ------------------------------------------------------------------ accounting
    def tile_census(self) -> list[int]:
        """Every physical tile by place: wall + hands + melds + rivers + flowers + won tiles +
        indicator, as a sorted list -- always equal to ``rules.tile_set`` (tests check it)."""
        out = list(self.wall[self.head:self.tail])
        for s in range(4):
            out += from_counts(self.concealed[s])
            for m in self.melds[s]:
                out += list(m.physical)  # a White standing in a chow is counted as the White it is
            out += self.rivers[s]
            out += self.flowers[s]
        out += self.won_tiles
        if self.indicator is not None:
            out.append(self.indicator)
        out += self.bao
        return sorted(out)


def _next_face(t: int) -> int:
    """The face after ``t`` in its group (9m → 1m, North → East, Red → White)."""
    if t < 27:
        base = t - t % 9
        return base + (t - base + 1) % 9
    if t < 31:
        return 27 + (t - 27 + 1) % 4
    return 31 + (t - 31 + 1) % 3
