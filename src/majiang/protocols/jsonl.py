"""Our JSON-lines bot protocol, for every rule set (``--protocol jsonl``).

One JSON object per line, UTF-8. The host (``majiang tournament``, or any program using
:class:`JsonlSession`) sends the bot the events of our game record
(:mod:`majiang.records.jsonl`: mjai's names where the meaning matches -- ``start_kyoku``, ``tsumo``,
``dahai``, ``chi``, ``pon``, ``daiminkan``, ``ankan``, ``kakan``, ``reach`` (報聽), ``hora``,
``ryukyoku`` -- plus ours: ``flower``, ``wild`` (the wildcard and its indicator; a White standing in
is written ``5z`` in ``consumed``), ``penalty``), as that seat may see them: other seats' dealt
tiles and draws are ``"?"``, the tiles of another seat's concealed kong too. Tiles are our compact
notation (``"5m"``, ``"1z"`` East ... ``"7z"`` Red, ``"1f"`` a flower).

At each decision the host sends a request::

    {"type":"request","seat":2,"phase":"claim","view":{...},"possible_actions":[{...},...]}

``view`` is the seat's whole :class:`~majiang.engine.match.PlayerView` (hand, melds, rivers,
flowers, wall count, wildcard, scores...; :func:`view_json`), so a bot needs to track nothing;
``possible_actions`` lists every legal action as the object the bot may answer (mjai's forms:
``{"type":"dahai","actor":2,"pai":"5m"}``, ``{"type":"chi","actor":2,"target":1,"pai":"3m",
"consumed":["4m","5m"]}``, ``{"type":"pon",...}``, ``{"type":"daiminkan",...}``, ``{"type":"ankan",
"actor":2,"consumed":[...]}``, ``{"type":"kakan","actor":2,"pai":"5m"}``, ``{"type":"reach",
"actor":2,"pai":"5m"}`` (declare ready with that discard), ``{"type":"hora","actor":2,"target":1,
"pai":"5m"}``, ``{"type":"none"}`` (pass)). The bot answers one line: one of those objects (the
fields ``type``, ``pai`` and ``consumed`` must match one offered), or ``{"index": i}``. The game
ends with ``{"type":"end_game","scores":[...]}``. Examples for Wenzhou and Taiwan:
``docs/protocol.md``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from majiang.engine.actions import Action, ActionKind, chow_consumed
from majiang.engine.match import Match, Player, PlayerView
from majiang.engine.ruleset import RuleSet
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.records.jsonl import action_of
from majiang.tiles import NUM_KINDS, WHITE, format_compact, parse_compact

HIDDEN = "?"


class JsonlProtocolError(MajiangError):
    """A message that is not our JSON-lines protocol, or an answer not among the possible actions."""


def _t(t: int | None) -> str | None:
    return None if t is None else format_compact([t])


def _p(s: Any, what: str = "tile") -> int:
    try:
        ts = parse_compact(str(s))
    except MajiangError:
        raise JsonlProtocolError(f"{what}: {s!r} is not a tile in compact notation") from None
    if len(ts) != 1:
        raise JsonlProtocolError(f"{what}: {s!r} is not one tile")
    return ts[0]


# ------------------------------------------------------------------------------ events
def rules_json(rules: RuleSet) -> dict:
    """What ``start_game`` tells a bot of the rule set: ``name``, ``options`` (every option, as in
    the record header's ``rules``), ``hand_size`` (13 or 16), ``minimum`` (the least value a win
    needs, ``min_score``) and ``unit`` (what a win's value counts: ``fan``, ``tai``,
    ``multiplier`` or ``points``, from the rule set's declaration)."""
    from majiang.rules import registry

    d = registry.find(rules.name)
    return {"name": rules.name, "options": rules.to_options(), "hand_size": rules.hand_size,
            "minimum": rules.min_score, "unit": d.unit if d is not None else "points"}


def seat_event(ev: dict, seat: int, rules: RuleSet | None = None) -> dict:
    """An event of our record as ``seat`` may see it (others' dealt tiles, draws, concealed kongs
    and the tiles of an exchange it neither gave nor got hidden); with ``rules``, ``start_game`` carries them (:func:`rules_json`)."""
    t = ev.get("type")
    if t == "start_game" and rules is not None:
        return {**ev, "rules": rules_json(rules)}
    if t == "start_kyoku":
        ev = dict(ev)
        ev["tehais"] = [h if i == seat else [HIDDEN] * len(h) for i, h in enumerate(ev["tehais"])]
        return ev
    if t == "tsumo" and ev.get("actor") != seat:
        ev = dict(ev)
        ev["pai"] = HIDDEN
        return ev
    if t == "ankan" and ev.get("actor") != seat:
        ev = dict(ev)
        ev["consumed"] = [HIDDEN] * len(ev.get("consumed", []))
        return ev
    if t == "exchange" and seat not in (ev.get("actor"), ev.get("target")):  # 换三张: giver and taker only
        ev = dict(ev)
        ev["pai"] = [HIDDEN] * len(ev.get("pai", []))
        return ev
    return ev


def _meld_json(m: Meld) -> dict:
    out: dict[str, Any] = {"kind": m.kind.value, "tile": _t(m.tile), "offer": m.offer,
                           "tiles": [_t(x) for x in m.physical]}
    if m.claimed is not None:
        out["claimed"] = _t(m.claimed)
    if m.stand_in is not None:
        out["stand_in"] = _t(m.stand_in)
    return out


def view_json(v: PlayerView) -> dict:
    """A :class:`PlayerView` as JSON (tiles in compact notation; winds as tiles ``1z``-``4z``)."""
    return {"seat": v.seat, "player": v.player, "dealer": v.dealer, "dealer_streak": v.dealer_streak,
            "prevalent_wind": _t(v.prevalent_wind), "seat_wind": _t(v.seat_wind), "phase": v.phase,
            "hand": [_t(x) for x in v.hand], "last_draw": _t(v.last_draw),
            "melds": [[_meld_json(m) for m in ms] for ms in v.melds], "hidden_kongs": list(v.hidden_kongs),
            "flowers": [[_t(x) for x in f] for f in v.flowers], "rivers": [[_t(x) for x in r] for r in v.rivers],
            "wall_live": v.wall_live, "claim_tile": _t(v.claim_tile), "discarder": v.discarder,
            "wild_face": _t(v.wild_face), "indicator": _t(v.indicator), "scores": list(v.scores),
            "hand_number": v.hand_number, "round": v.round}


def view_from_json(d: dict) -> PlayerView:
    """The inverse of :func:`view_json`."""
    def opt(x: Any) -> int | None:
        return None if x is None else _p(x)

    melds = tuple(tuple(Meld(MeldKind(m["kind"]), _p(m["tile"]), m["offer"], opt(m.get("claimed")),
                             opt(m.get("stand_in"))) for m in ms) for ms in d["melds"])
    return PlayerView(d["seat"], d["player"], d["dealer"], d["dealer_streak"], _p(d["prevalent_wind"]),
                      _p(d["seat_wind"]), d["phase"], tuple(_p(x) for x in d["hand"]), opt(d["last_draw"]), melds,
                      tuple(d["hidden_kongs"]), tuple(tuple(_p(x) for x in f) for f in d["flowers"]),
                      tuple(tuple(_p(x) for x in r) for r in d["rivers"]), d["wall_live"], opt(d["claim_tile"]),
                      d["discarder"], opt(d["wild_face"]), opt(d["indicator"]), tuple(d["scores"]),
                      d["hand_number"], d["round"])


# ------------------------------------------------------------------------------ actions
def action_json(a: Action, view: PlayerView, rules: RuleSet) -> dict:
    """The protocol object of an engine action for the seat of ``view``."""
    s = view.seat
    k = a.kind
    if k is ActionKind.PASS:
        return {"type": "none"}
    if k is ActionKind.DISCARD:
        return {"type": "dahai", "actor": s, "pai": _t(a.tile)}
    if k is ActionKind.READY:
        return {"type": "reach", "actor": s, "pai": _t(a.tile)}
    if k is ActionKind.WIN:
        target = s if view.phase == "turn" else view.discarder
        return {"type": "hora", "actor": s, "target": target, "pai": _t(a.tile)}
    if k is ActionKind.CONCEALED_KONG:
        return {"type": "ankan", "actor": s, "consumed": [_t(a.tile)] * 4}
    if k is ActionKind.ADDED_KONG:
        return {"type": "kakan", "actor": s, "pai": _t(a.tile)}
    if k is ActionKind.PUNG:
        return {"type": "pon", "actor": s, "target": view.discarder, "pai": _t(a.tile),
                "consumed": _consumed(view, a, 2, rules)}
    if k is ActionKind.EXPOSED_KONG:
        return {"type": "daiminkan", "actor": s, "target": view.discarder, "pai": _t(a.tile),
                "consumed": _consumed(view, a, 3, rules)}
    assert a.low is not None and a.tile is not None
    counts = [0] * NUM_KINDS
    for t in view.hand:
        counts[t] += 1
    wf = view.wild_face
    white_face = wf if (rules.white_stand_in and wf is not None and wf != WHITE) else None
    used = chow_consumed(counts, a.tile, a.low, white_face=white_face, wild_face=wf,
                         wild_claimable=rules.wild_claimable) or ()
    return {"type": "chi", "actor": s, "target": view.discarder, "pai": _t(a.tile),
            "consumed": [_t(x) for x in used]}


def _consumed(view: PlayerView, a: Action, n: int, rules: RuleSet) -> list[str | None]:
    """Tiles a pung/kong takes from the hand: copies of the tile, a White where it stands in."""
    tile = a.tile
    assert tile is not None
    wf = view.wild_face
    white_face = wf if (rules.white_stand_in and wf is not None and wf != WHITE) else None
    face = white_face if (tile == WHITE and white_face is not None) else tile
    out = []
    hand = list(view.hand)
    for _ in range(n):
        if face in hand and face != wf:
            hand.remove(face)
            out.append(face)
        elif white_face is not None and face == white_face and WHITE in hand:
            hand.remove(WHITE)
            out.append(WHITE)
        else:
            out.append(face)
    return [_t(x) for x in out]


def _key(obj: dict) -> tuple:
    c = obj.get("consumed")
    return (obj.get("type"), obj.get("pai"), tuple(sorted(c)) if isinstance(c, list) else None)


def match_answer(answer: Any, offered: Sequence[dict]) -> int:
    """Index of the offered action a bot's answer names. Raises :class:`JsonlProtocolError`."""
    if not isinstance(answer, dict):
        raise JsonlProtocolError(f"an answer is one JSON object, got {answer!r:.60}")
    if "index" in answer and "type" not in answer:
        i = answer["index"]
        if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(offered):
            return i
        raise JsonlProtocolError(f"index {i!r} is not 0-{len(offered) - 1}")
    if answer.get("type") == "pass":
        answer = {"type": "none"}
    k = _key(answer)
    for i, o in enumerate(offered):
        if _key(o) == k:
            return i
    if answer.get("type") in ("chi", "pon", "daiminkan", "ankan") and "consumed" not in answer:
        same = [i for i, o in enumerate(offered) if (o.get("type"), o.get("pai")) == (answer.get("type"),
                                                                                      answer.get("pai"))]
        if len(same) == 1:
            return same[0]
    raise JsonlProtocolError(f"{json.dumps(answer, ensure_ascii=False)[:80]} is not among the possible actions")


def request_json(match: Match, seat: int, actions: Sequence[Action]) -> tuple[dict, list[dict]]:
    """The request for ``seat`` now, and the offered objects in the order of ``actions``."""
    v = match.view(seat)
    offered = [action_json(a, v, match.rules) for a in actions]
    return {"type": "request", "seat": seat, "phase": v.phase, "view": view_json(v),
            "possible_actions": offered}, offered


# ------------------------------------------------------------------------------ a bot over stdio
def run_bot(player: Player, rules: RuleSet, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Play ``player`` over our JSON-lines protocol: read events and requests, answer each request
    with one action object. Ends at ``end_game`` or end of input. Raises
    :class:`JsonlProtocolError` on bad input."""
    fin = stdin or sys.stdin
    out = stdout or sys.stdout
    for no, line in enumerate(fin, 1):
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            raise JsonlProtocolError(f"line {no}: not JSON ({e.msg})") from None
        if not isinstance(msg, dict):
            raise JsonlProtocolError(f"line {no}: a message is a JSON object")
        if not isinstance(msg.get("type"), str):
            raise JsonlProtocolError(f"line {no}: a message needs a 'type' (an event, 'request' or 'end_game')")
        if msg.get("type") == "end_game":
            return 0
        if msg.get("type") != "request":
            continue
        offered = msg.get("possible_actions")
        if not isinstance(offered, list) or not offered:
            raise JsonlProtocolError(f"line {no}: a request needs a non-empty 'possible_actions' list")
        try:
            view = view_from_json(msg["view"])
        except (KeyError, TypeError, ValueError) as e:
            raise JsonlProtocolError(f"line {no}: bad 'view' ({e})") from None
        wf = view.wild_face
        white_face = wf if (rules.white_stand_in and wf is not None and wf != WHITE) else None
        try:
            actions = [action_of(o, white_face) for o in offered]
        except (MajiangError, KeyError, TypeError, IndexError, AttributeError) as e:
            raise JsonlProtocolError(f"line {no}: a possible action is not one ({e})") from None
        choice = player.choose(view, actions)
        out.write(json.dumps(offered[actions.index(choice)], ensure_ascii=False) + "\n")
        out.flush()
    return 0


