"""Replay Botzone Chinese Standard Mahjong logs through the engine (``data/botzone/sample16.txt``).

The log reader is :mod:`majiang.records.botzone` (``parse_log``); this module drives the table.

Each round of a log (``Match <id>``, ``Wind w``, four ``Player n Deal ...`` lines, then one action a
line, ending with ``Fan``/``Score`` or ``Huang``/``Score``) is replayed through the engine's
:class:`~majiang.engine.table.HandTable`:

* The log gives every draw, so the importer builds an explicit wall from it: the dealt tiles in the
  engine's deal order (4-4-4-1 from the dealer, the dealer's extra tile = player 0's first draw),
  then every ordinary draw in order, the tiles nobody saw, and the kong replacement draws at the
  tail (a replacement is the ``Draw`` right after a ``Gang``/``AnGang``/``BuGang``). Botzone plays
  without flowers: rules ``mcr`` with ``flowers=False`` (136 tiles).
* Botzone gives each player his own part of the wall, so a drawn round ends before a shared wall
  would; for those rounds the importer sets ``reserve`` to the number of unseen tiles, so the
  exhaustive draw comes exactly where the log has ``Huang``.
* Winds (trap in ``data/README.md``): seat wind = the player index (0 East = dealer, 1 South, ...),
  prevalent wind = the ``Wind`` value (0 East .. 3 North), not the format file's wording.
* A self-drawn ``Hu XX``: ``XX`` is not the drawn tile; the winning tile is the preceding draw.
* ``Chi XX`` names the chow's **middle** tile. ``Ignore Player n ...`` parts are claims that lost;
  the importer applies them too (they must be legal), and every other seat the table asks passes.

Every action must be among the table's legal actions (else :class:`~majiang.engine.actions.IllegalActionError`).
By default each win is scored with the fan total the log records (``LoggedScorer``), so the engine's
settlement (:class:`~majiang.engine.ruleset.CompetitionSettlement`) must reproduce the log's
``Score`` line; pass ``scorer=`` to score with a real MCR scorer instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from majiang.engine.actions import PASS, Action, ActionKind, IllegalActionError, Phase
from majiang.engine.ruleset import RuleSet, Scorer, ScoreResult, WinContext
from majiang.engine.table import HandTable
from majiang.records.botzone import Action as LogAction
from majiang.records.botzone import BotzoneLogError, Round, parse_log, sample_path
from majiang.tiles import EAST

__all__ = ["LoggedScorer", "RoundReport", "import_log", "parse_log", "replay_round", "round_wall", "sample_path"]


def round_wall(rnd: Round) -> tuple[list[int], int]:
    """The explicit wall (136 tiles, draw order) for a round, and the reserve that ends a drawn round
    where the log does (see the module doc)."""
    front: list[int] = []
    tail: list[int] = []
    replacement = False
    for a in rnd.actions:
        if a.verb == "Draw":
            (tail if replacement else front).append(a.tile)
            replacement = False
        elif a.verb in ("Gang", "AnGang", "BuGang"):
            replacement = True
    if not front:
        raise BotzoneLogError(f"round {rnd.match} (line {rnd.line}): no draw at all")
    if any(len(d) != 13 for d in rnd.deals):
        raise BotzoneLogError(f"round {rnd.match} (line {rnd.line}): each deal must be 13 tiles")
    deal_slots: list[int] = []
    taken = [0, 0, 0, 0]
    for k in (4, 4, 4, 1):  # the engine deals 4-4-4-1 from the dealer (player 0)
        for p in range(4):
            deal_slots += rnd.deals[p][taken[p]:taken[p] + k]
            taken[p] += k
    deal_slots.append(front[0])  # the dealer's 14th tile = his first logged draw
    used = Counter(deal_slots) + Counter(front[1:]) + Counter(tail)
    rest: list[int] = []
    for t in range(34):
        n = 4 - used[t]
        if n < 0:
            raise BotzoneLogError(f"round {rnd.match} (line {rnd.line}): more than four of tile {t}")
        rest += [t] * n
    wall = deal_slots + front[1:] + rest + tail[::-1]
    return wall, (len(rest) if rnd.drawn else 0)


@dataclass(frozen=True, slots=True)
class LoggedScorer:
    """Scores every win with one fixed fan total (the one the log records); no bonus."""

    fan: int
    name: str = "botzone-logged"

    def score(self, ctx: WinContext) -> ScoreResult:
        return ScoreResult(self.fan, 0, (("logged", self.fan, 1),))


@dataclass(slots=True)
class RoundReport:
    """What importing one round found: the table at its end, the winner (``None`` for a draw),
    whether it was self-drawn, the engine's deltas and the log's score line."""

    match_id: str
    wind: int
    table: HandTable
    winner: int | None
    self_drawn: bool
    deltas: list[int]
    logged_score: list[int] | None
    logged_fan: int | None

    @property
    def score_matches(self) -> bool:
        """The engine's settlement reproduces the log's ``Score`` line."""
        return self.logged_score is not None and self.deltas == self.logged_score


_CLAIM_VERB = {"Chi": ActionKind.CHOW, "Peng": ActionKind.PUNG, "Gang": ActionKind.EXPOSED_KONG, "Hu": ActionKind.WIN}


def _claim_action(verb: str, tile: int, claimed: int) -> Action:
    kind = _CLAIM_VERB.get(verb)
    if kind is None:
        raise BotzoneLogError(f"{verb!r} is not a claim")
    if kind is ActionKind.CHOW:
        return Action(kind, claimed, tile - 1)  # Botzone names the chow's middle tile
    return Action(kind, claimed)


def replay_round(rnd: Round, rules: RuleSet | None = None, scorer: Scorer | None = None,
                 on_decision: Callable[[HandTable, int, Action], None] | None = None) -> RoundReport:
    """Replay one round through a :class:`HandTable`; every action must be legal and every draw must
    be the logged tile. Raises :class:`BotzoneLogError` or :class:`IllegalActionError`.

    ``on_decision(table, seat, action)`` is called before each action the table is given (every
    seat's answer in a claim window too, passes included), the table still before it -- the hook
    :mod:`majiang.rl.dataset` takes its samples from."""
    wall, reserve = round_wall(rnd)
    base = rules if rules is not None else RuleSet.preset("mcr", flowers=False, seat_draw=False)
    rs = base.with_options(reserve=reserve)
    if scorer is None and rnd.fan_total is not None:
        scorer = LoggedScorer(rnd.fan_total)
    t = HandTable(rs, wall, dealer=0, prevalent_wind=EAST + rnd.wind, dice=(1, 1), scorer=scorer)
    if on_decision is not None:
        apply = t.apply

        def hooked(seat: int, action: Action, **kw) -> None:
            on_decision(t, seat, action)
            apply(seat, action, **kw)

        t.apply = hooked  # type: ignore[method-assign]

    def fail(a: LogAction, msg: str) -> BotzoneLogError:
        return BotzoneLogError(f"round {rnd.match} line {a.line}: {msg}")

    first_draw = True
    for a in rnd.actions:
        if t.finished:
            raise fail(a, "the hand is already over")
        if a.verb == "Draw":
            if first_draw and a.seat == 0:
                first_draw = False  # the dealer's 14th tile was dealt
                continue
            if t.phase is Phase.CLAIM or t.phase is Phase.ROB:
                for s in t.pending_seats():
                    t.apply(s, PASS)
            last = next((e for e in reversed(t.events) if e["type"] == "tsumo"), None)
            if t.phase is not Phase.TURN or t.current != a.seat or last is None or last["actor"] != a.seat:
                raise fail(a, f"player {a.seat} should draw, the table is at {t.phase.value} of seat {t.current}")
            if t.last_draw[a.seat] != a.tile:
                raise fail(a, f"the table drew {t.last_draw[a.seat]}, the log {a.tile}")
            continue
        if t.phase is Phase.TURN:
            if a.seat != t.current:
                raise fail(a, f"player {a.seat} acts in seat {t.current}'s turn")
            if a.verb == "Play":
                t.apply(a.seat, Action(ActionKind.DISCARD, a.tile))
            elif a.verb == "AnGang":
                t.apply(a.seat, Action(ActionKind.CONCEALED_KONG, a.tile))
            elif a.verb == "BuGang":
                t.apply(a.seat, Action(ActionKind.ADDED_KONG, a.tile))
            elif a.verb == "Hu":
                t.apply(a.seat, Action(ActionKind.WIN, t.last_draw[a.seat]))  # not the logged tile
            else:
                raise fail(a, f"{a.verb} in a turn")
            continue
        # a claim or robbing window
        claimed = t.claim_tile
        assert claimed is not None
        answers = {a.seat: _claim_action(a.verb, a.tile, claimed)}
        for p, v, tl in a.ignored:
            answers[p] = _claim_action(v, tl, claimed)
        pending = t.pending_seats()
        for p in answers:
            if p not in pending:
                raise IllegalActionError(f"round {rnd.match} line {a.line}: player {p} may not claim "
                                         f"(table offers claims to {pending})", seat=p, action=answers[p])
        for s in pending:
            t.apply(s, answers.get(s, PASS))
        if a.verb in ("Chi", "Peng", "Gang", "Hu") and not t.finished and t.current != a.seat:
            raise fail(a, f"player {a.seat}'s {a.verb} did not take the tile")
    if not t.finished and (t.phase is Phase.CLAIM or t.phase is Phase.ROB):
        for s in t.pending_seats():
            t.apply(s, PASS)
    if not t.finished:
        raise BotzoneLogError(f"round {rnd.match} (line {rnd.line}): the log ends but the hand goes on")
    res = t.result
    assert res is not None
    if rnd.drawn != res.drawn:
        raise BotzoneLogError(f"round {rnd.match}: log says {'Huang' if rnd.drawn else 'Hu'}, the table "
                              f"{'drew' if res.drawn else 'saw a win'}")
    winner = res.wins[0].winner if res.wins else None
    return RoundReport(rnd.match, rnd.wind, t, winner, bool(res.wins and res.wins[0].discarder is None),
                       list(res.deltas), rnd.scores, rnd.fan_total)


def import_log(path_or_text: str | Path, rules: RuleSet | None = None,
               scorer: Scorer | None = None) -> list[RoundReport]:
    """Parse and replay every round of a Botzone log (a path, or the text itself)."""
    p = Path(path_or_text) if not str(path_or_text).lstrip().startswith("Match") else None
    text = p.read_text(encoding="utf-8") if p is not None else str(path_or_text)
    return [replay_round(r, rules, scorer) for r in parse_log(text)]


