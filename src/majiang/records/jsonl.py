"""Our game record: JSON lines, one header then one event per line; writing, reading and replaying.

Line 1, the header::

    {"type":"header","format":"majiang-record","version":1,"rules":{...every RuleSet option...},
     "seed":7,"max_hands":null,"names":["P0","P1","P2","P3"],"walls":["1m5z...", ...]}

``walls`` holds each hand's live wall in draw order (front first) in compact notation (order kept,
e.g. ``"3m1z4p"``), so a record replays without the seed; the seed regenerates the same walls.

Then the events, in the order the table wrote them. Names follow mjai where the meaning matches;
tiles are **our compact notation** (``"5m"``, ``"7z"`` = Red, ``"1f"`` = a flower), not mjai's letters.

============  ===========================================================================
type          fields
============  ===========================================================================
start_game    names (by seat), seat_of_player, first_dealer
start_kyoku   hand (number in the match), bakaze (prevalent wind), oya (dealer), honba (dealer
              streak), dice, tehais (each seat's dealt tiles, flowers included, deal order)
wild          indicator, wild, [in_wall: true when the indicator stays in play (seed 000)] -- *ours*:
              the turned-up indicator and the wildcard face
flower        actor, pai -- *ours*: a flower set aside (补花); a ``tsumo`` with
              ``"replacement": true`` follows
tsumo         actor, pai, [replacement: true when drawn from the wall's tail]
dahai         actor, pai
reach         actor, pai -- declared ready (報聽, ``RuleSet.declare_ready``) with the discard ``pai``;
              the ``dahai`` of that tile follows (mjai's ``reach``, plus the tile)
chi/pon       actor, target (discarder), pai (claimed), consumed (tiles from the hand); physical
              tiles: a White standing in for the wildcard's face is written ``5z`` (RULES.md §4.2)
daiminkan     actor, target, pai, consumed (exposed kong from a discard)
ankan         actor, consumed (concealed kong)
kakan         actor, pai, consumed (added kong)
hora          actor, target (= actor when self-drawn), pai, robbing, hand, value, bonus,
              patterns [[id, points, times]], deltas, [flower_win: "eight" (八仙過海) or "seven"
              (七搶一, target = the drawer of the eighth flower); pai is then that flower],
              [notation: the hand with melds in physical form, ``[chi 5z23m]`` for a chow whose
              1m is a 白板 standing in; only when a meld has one; ``Hand.parse(notation, wild=...)``]
penalty       name ("followed": Wenzhou 被跟), actor (who pays), pai, deltas -- *ours*
fault         actor, kind (timeout, crash, illegal, wrong-win, garbage), request (the judge's request
              number, 1-based), answer, reason, deltas -- *ours*: a fault a tournament's judge
              charged (``Match.charge``); the deltas are in the running scores, not in the hand's deltas
decide        actor, name, value -- *ours*: a rule set's pre-play decision (Sichuan 定缺 ``dingque``:
              ``"m"``, ``"p"`` or ``"s"``), written for every seat once all have chosen (issue 30)
settle        name ("kong": at a kong that stands; "wall-end": when the wall runs out), [actor, pai],
              payments [[payer, payee, amount, reason]], deltas -- *ours*: a settlement hook's ledger
              (Sichuan 刮风下雨, 查花猪, 查大叫); with ``win_limit`` above 1 several ``hora`` follow each
              other in one hand, each settled when it happens
ryukyoku      reason ("exhaustive"), deltas
end_kyoku     deltas, scores -- the hand's total deltas and the running scores
end_game      scores
============  ===========================================================================

Serialisation is canonical (insertion order, no spaces, UTF-8), so the same match gives the same
bytes. :func:`replay` re-runs a record through the engine: every decision must be legal and every
event the engine writes must equal the recorded one.

相公 (RULES.md §2.4; rule sets with ``xianggong``, i.e. ``seed000``): a record of real play may show a
kong not followed by its replacement ``tsumo`` (小相公) or a ``tsumo`` for the seat whose turn it
already is (大相公). Replay applies them as such (``Match.apply(..., replacement=False)``,
``Match.extra_draw``) and the seat is marked; a ``hora`` by a marked seat is refused with an error
naming 小相公/大相公 (its cause a :class:`~majiang.engine.actions.XiangGongError`). Other rule sets
refuse such records, naming the 相公 and the option.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from majiang.engine.actions import PASS, Action, ActionKind, Phase, XiangGongError
from majiang.engine.match import Match
from majiang.engine.ruleset import RuleSet
from majiang.errors import MajiangError
from majiang.rules.base import Exchange
from majiang.tiles import WHITE, format_compact, parse_compact

FORMAT = "majiang-record"
VERSION = 1


class RecordError(MajiangError):
    """A record that cannot be read, or whose replay departs from it.

    Attributes:
        line: the 1-based line of the record concerned (0 if none).
    """

    def __init__(self, message: str, *, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


def dumps(obj: Any) -> str:
    """Canonical JSON for one record line."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def header(match: Match) -> dict:
    """The header of ``match``'s record (rules, seed, walls of every hand played so far)."""
    return {"type": "header", "format": FORMAT, "version": VERSION, "rules": match.rules.to_options(),
            "seed": match.seed, "max_hands": match.max_hands, "names": list(match.names),
            "walls": [format_compact(w) for w in match.walls_used]}


def record_lines(match: Match) -> list[str]:
    """The record of ``match`` as lines (without newlines): header, then every event."""
    return [dumps(header(match))] + [dumps(e) for e in match.events]


def write_record(match: Match, path: str | Path) -> Path:
    """Write ``match``'s record to ``path`` (UTF-8, one line each, final newline)."""
    p = Path(path)
    p.write_text("\n".join(record_lines(match)) + "\n", encoding="utf-8")
    return p


def read_record(lines: Iterable[str]) -> tuple[dict, list[dict]]:
    """Parse record lines into (header, events). Raises :class:`RecordError` on bad JSON or header."""
    out: list[dict] = []
    for i, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise RecordError(f"line {i}: not JSON ({e.msg})", line=i) from e
    if not out or out[0].get("type") != "header" or out[0].get("format") != FORMAT:
        raise RecordError("the first line is not a majiang-record header", line=1)
    if out[0].get("version") != VERSION:
        raise RecordError(f"record version {out[0].get('version')!r} is not {VERSION}", line=1)
    return out[0], out[1:]


ADDED_FIELDS: dict[str, frozenset[str]] = {"hora": frozenset({"notation"})}
"""Fields added to an event type after records were being kept: a recorded event without them still
matches (``hora.notation``: the hand with melds in physical form, ``[chi 5z23m]``)."""


def _same_but_added(ev: dict, rec: dict) -> bool:
    """``ev`` equals the recorded ``rec`` once the fields ``rec`` lacks of :data:`ADDED_FIELDS` are dropped."""
    extra = ADDED_FIELDS.get(ev.get("type", ""), frozenset()) & (ev.keys() - rec.keys())
    return bool(extra) and {k: v for k, v in ev.items() if k not in extra} == rec


_DECISIONS = {"dahai", "reach", "chi", "pon", "daiminkan", "ankan", "kakan", "hora"}
_KONGS = {"ankan", "kakan", "daiminkan"}


def action_of(ev: dict, white_face: int | None = None) -> Action:
    """The action of a recorded decision (or of the JSON-lines protocol's ``{"type": "none"}``, a
    pass); ``white_face``: the face a White plays at this table (a chow's lowest tile is read with
    each White as that face). Raises :class:`RecordError` for an event that is not a decision."""
    t = ev.get("type")
    pai = parse_compact(ev["pai"])[0] if ev.get("pai") is not None else None
    if t == "none":
        return PASS
    if t == "dahai":
        return Action(ActionKind.DISCARD, pai)
    if t == "reach":
        return Action(ActionKind.READY, pai)
    if t == "hora":
        return Action(ActionKind.WIN, pai)
    if t == "pon":
        return Action(ActionKind.PUNG, pai)
    if t == "daiminkan":
        return Action(ActionKind.EXPOSED_KONG, pai)
    if t == "chi":
        assert pai is not None
        used = [parse_compact(x)[0] for x in ev["consumed"]]
        nat = [white_face if (x == WHITE and white_face is not None) else x for x in used + [pai]]
        return Action(ActionKind.CHOW, pai, min(nat))
    if t == "ankan":
        return Action(ActionKind.CONCEALED_KONG, parse_compact(ev["consumed"][0])[0])
    if t == "kakan":
        return Action(ActionKind.ADDED_KONG, pai)
    raise RecordError(f"event {t!r} is not a decision")


def replay(record: Iterable[str], *, from_seed: bool = False, partial: bool = False,
           on_decision: Callable[[Match, int, Action], None] | None = None) -> Match:
    """Re-run a record through the engine and check it step by step.

    Every recorded decision (``dahai``, ``reach`` (with its ``dahai``), ``chi``, ``pon``, ``daiminkan``, ``ankan``, ``kakan``,
    ``hora``) is applied as the matching action -- which must be legal -- and every other seat in a
    claim window passes. A kong without its replacement draw and a draw out of turn are 相公 (module
    doc). After each step the events the engine writes must equal the recorded ones;
    at the end the whole record must have been consumed. ``from_seed``: rebuild the walls from the
    seed instead of reading them from the header (checks that the seed determines the game).
    ``partial``: the record of a game still in progress (``record_lines`` of a live match) is
    complete where it stops: the match is returned at that point, seats still to act, instead of
    the :class:`RecordError` a truncated file gets. ``on_decision(match, seat, action)`` is called
    before each decision is applied (every seat's answer in a claim window, passes included), the
    match still before it (:mod:`majiang.rl.dataset` takes its samples there).

    Returns the replayed :class:`~majiang.engine.match.Match`. Raises :class:`RecordError` on the
    first departure (naming the record line) and
    :class:`~majiang.engine.actions.IllegalActionError` for an illegal recorded decision.
    """
    lines = list(record)
    h, events = read_record(lines)
    rules = RuleSet.from_options(h["rules"])
    walls = None if from_seed else [parse_compact(w) for w in h["walls"]]
    m = Match(rules, seed=h["seed"], walls=walls, names=h.get("names"), max_hands=h.get("max_hands"))
    if on_decision is not None:
        apply = m.apply

        def hooked(seat: int, action: Action, **kw: Any) -> None:
            on_decision(m, seat, action)
            apply(seat, action, **kw)

        m.apply = hooked  # type: ignore[method-assign]
    j = 0  # next recorded event to match

    def check_new(start: int) -> None:
        nonlocal j
        for ev in m.events[start:]:
            if j >= len(events):
                raise RecordError(f"the record ends early (after line {j + 1}): the game goes on with {dumps(ev)}",
                                  line=j + 2)
            if ev != events[j] and not _same_but_added(ev, events[j]):
                rec = events[j]
                if rec.get("type") == "hora" and m.table is not None and rec.get("actor") in (0, 1, 2, 3):
                    refuse_xianggong_win(m.table, rec["actor"], action_of(rec), j + 2)
                raise RecordError(f"line {j + 2}: recorded {dumps(events[j])}, engine wrote {dumps(ev)}",
                                  line=j + 2)
            j += 1

    def without_replacement(k: int) -> bool:
        """The recorded kong ``events[k]`` is not followed by its replacement draw (小相公)."""
        if events[k].get("type") not in _KONGS:
            return False
        k1 = k + 1
        while k1 < len(events) and events[k1].get("type") == "settle":  # kong money comes first (issue 30)
            k1 += 1
        if k1 >= len(events):
            return False
        nxt = events[k1]
        if nxt.get("type") == "tsumo" and nxt.get("actor") == events[k].get("actor") and nxt.get("replacement"):
            return False
        return not (events[k].get("type") == "kakan" and nxt.get("type") == "hora")  # robbed: no draw due

    def refuse_xianggong_win(table: Any, seat: int, action: Action, line: int) -> None:
        if action.kind is ActionKind.WIN:
            try:
                table.check_may_win(seat, action)
            except XiangGongError as e:
                raise RecordError(f"line {line}: {e}", line=line) from e

    check_new(0)
    while not m.finished:
        start = len(m.events)
        seats = m.pending_seats()
        t = m.table
        assert t is not None
        if j >= len(events):
            if partial:
                return m
            who = f"seat {seats[0]} is" if len(seats) == 1 else f"seats {', '.join(map(str, seats))} are"
            raise RecordError(f"the record ends after line {len(events) + 1} before the match is over: {who} "
                              "still to act (a truncated file?)", line=len(events) + 1)
        ev = events[j]
        if ev.get("type") == "fault":  # a judge's charge: no decision, the deltas as recorded
            fields = {k: v for k, v in ev.items() if k not in ("type", "actor", "deltas")}
            try:
                m.charge(ev.get("actor"), ev.get("deltas", []), **fields)
            except MajiangError as e:
                raise RecordError(f"line {j + 2}: {e}", line=j + 2) from None
            check_new(start)
            continue
        if t.phase is Phase.DECIDE and isinstance(t.decision, Exchange):  # 换三张: each seat's recorded tiles
            dec = t.decision
            passed: dict[int, list[int]] = {}
            at: dict[int, int] = {}  # the record line of each seat's exchange
            k = j
            while k < len(events) and events[k].get("type") == "exchange" and events[k].get("name") == dec.name:
                at[events[k].get("actor")] = k + 2
                pai = events[k].get("pai")
                try:
                    if not isinstance(pai, list) or not all(isinstance(x, str) for x in pai):
                        raise MajiangError("pai is not a list of tiles")
                    passed[events[k].get("actor")] = parse_compact("".join(pai))
                except MajiangError:
                    raise RecordError(f"line {k + 2}: not tiles: {dumps(events[k])}", line=k + 2) from None
                k += 1
            while t.decision is dec and m.table is t:
                s = m.pending_seats()[0]
                line = at.get(s, j + 2)
                if not passed.get(s):
                    got = f"{dumps(events[line - 2])}" if s in at else "no exchange of that seat"
                    raise RecordError(f"line {line}: seat {s} is to pass {dec.count} tiles ({dec.name}), the record "
                                      f"has {got}", line=line)
                tile = passed[s].pop(0)
                legal = [a.tile for a in m.legal_actions(s) if a.tile is not None]
                if tile not in legal:
                    raise RecordError(f"line {line}: seat {s} cannot pass {format_compact([tile])} ({dec.name}); "
                                      f"it may pass {format_compact(legal)}", line=line)
                try:
                    m.apply(s, Action(ActionKind.DECIDE, tile))
                except MajiangError as e:
                    raise RecordError(f"line {line}: {e}", line=line) from None
            check_new(start)
            continue
        if t.phase is Phase.DECIDE:  # a rule set's pre-play decision (issue 30): the recorded values
            dec = t.decision
            chosen_v: dict[int, Any] = {}
            k = j
            while k < len(events) and events[k].get("type") == "decide" and events[k].get("name") == dec.name:
                chosen_v[events[k].get("actor")] = events[k].get("value")
                k += 1
            while t.decision is dec and m.table is t:
                s = m.pending_seats()[0]
                if s not in chosen_v or chosen_v[s] not in dec.values:
                    raise RecordError(f"line {j + 2}: seat {s} is to decide {dec.name}, the record has {dumps(ev)}",
                                      line=j + 2)
                try:
                    m.apply(s, Action(ActionKind.DECIDE, dec.values.index(chosen_v[s])))
                except MajiangError as e:
                    raise RecordError(f"line {j + 2}: {e}", line=j + 2) from None
            check_new(start)
            continue
        if t.phase is Phase.TURN:
            seat = seats[0]
            if ev.get("type") == "tsumo" and ev.get("actor") == seat:  # a draw the rules do not give: 大相公
                try:
                    m.extra_draw(seat, bool(ev.get("replacement")))
                except MajiangError as e:
                    raise RecordError(f"line {j + 2}: {e}", line=j + 2) from None
                check_new(start)
                continue
            if ev.get("type") == "hora" and ev.get("actor") in (0, 1, 2, 3):  # a 相公 wins nothing
                refuse_xianggong_win(t, ev["actor"], action_of(ev, t.white_face), j + 2)
            if ev.get("type") not in _DECISIONS or ev.get("actor") != seat:
                raise RecordError(f"line {j + 2}: seat {seat} is to act, the record has {dumps(ev)}", line=j + 2)
            a = action_of(ev, t.white_face)
            try:
                m.apply(seat, a, replacement=not without_replacement(j))
            except MajiangError as e:
                raise RecordError(f"line {j + 2}: {e}", line=j + 2) from None
        else:
            chosen: dict[int, Action] = {}
            short: set[int] = set()  # seats whose recorded kong lacks its replacement draw
            k = j
            while k < len(events) and events[k].get("type") in _DECISIONS - {"dahai", "reach", "ankan", "kakan"}:
                e = events[k]
                if e.get("type") == "hora" or not chosen:
                    chosen.setdefault(e["actor"], action_of(e, t.white_face))
                    if without_replacement(k):
                        short.add(e["actor"])
                if e.get("type") != "hora":
                    break
                k += 1
            for s, a in chosen.items():
                refuse_xianggong_win(t, s, a, j + 2)
            try:
                for s in seats:
                    m.apply(s, chosen.get(s, PASS), replacement=s not in short)
            except MajiangError as e:
                raise RecordError(f"line {j + 2}: {e}", line=j + 2) from None
            for s in chosen:
                if s not in seats:
                    raise RecordError(f"line {j + 2}: seat {s} claims, but the table offered it nothing", line=j + 2)
        check_new(start)
    if j != len(events):
        raise RecordError(f"the replay ended with {len(events) - j} recorded events left", line=j + 2)
    return m


def replay_file(path: str | Path, **kw: Any) -> Match:
    """:func:`replay` a record file."""
    return replay(Path(path).read_text(encoding="utf-8").splitlines(), **kw)


def walls_of(header_: dict) -> list[list[int]]:
    """The walls of a record header as tile lists."""
    return [parse_compact(w) for w in header_["walls"]]


def same_bytes(a: Sequence[str], b: Sequence[str]) -> bool:
    """True if two records are line-for-line identical."""
    return list(a) == list(b)
