"""What a connection is sent: one seat's view of the table (or a spectator's), as JSON.

Everything here is built from :meth:`majiang.engine.Match.view` and the table's public state; a
seat gets its own concealed tiles and nothing of another seat's (no other concealed tile, no
concealed kong's face, no wall order); a spectator gets no concealed tile at all. Claim windows
do not tell who else may claim: a seat learns only whether *it* is awaited (others see ``"wait"``).

When a seat's concealed hand is ready (3n+1 tiles that a drawn tile completes), its own state, and
no one else's, carries its waits (:func:`seat_waits`): every tile that would complete the hand, with
the copies still unseen from that seat's view.
"""

from __future__ import annotations

from typing import Any

from majiang.analysis import waits as analysis_waits
from majiang.engine import Action, ActionKind, Match, PlayerView, RuleSet
from majiang.engine.actions import Phase
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.rules.base import EXCHANGE_DIRECTIONS, Exchange
from majiang.tiles import NUM_KINDS, WHITE, format_chinese
from majiang.web.explain import explain_win
from majiang.web.i18n import pattern_names
from majiang.web.i18n import texts as i18n_texts

KINDS = {k.value: k for k in ActionKind}


def action_json(a: Action, decision: Any = None) -> dict[str, Any]:
    out = {"kind": a.kind.value, "tile": a.tile, "low": a.low, "label": action_label(a, decision)}
    if a.kind is ActionKind.DECIDE and isinstance(decision, Exchange):  # 换三张: ``tile`` is the face passed
        out["exchange"] = True
    elif a.kind is ActionKind.DECIDE and decision is not None and a.tile is not None:  # 定缺 万 / Missing suit: characters
        zh, en = decision.label(a.tile)
        out["label_zh"], out["label_en"] = f"{decision.label_zh} {zh}", f"{decision.label_en}: {en}"
    return out


def action_label(a: Action, decision: Any = None) -> str:
    if a.kind is ActionKind.DECIDE:  # a rule set's pre-play decision (issue 30): 定缺 万 characters
        if decision is None or a.tile is None:
            return f"#{a.tile}"
        zh, en = decision.label(a.tile)
        return f"{decision.label_zh} {zh} {en}"
    names = {ActionKind.WIN: "和 Win", ActionKind.PUNG: "碰 Pung", ActionKind.CHOW: "吃 Chow",
             ActionKind.EXPOSED_KONG: "杠 Kong", ActionKind.CONCEALED_KONG: "暗杠 Kong",
             ActionKind.ADDED_KONG: "加杠 Kong", ActionKind.DISCARD: "打 Discard", ActionKind.PASS: "过 Pass"}
    base = names[a.kind]
    if a.kind is ActionKind.CHOW and a.low is not None:
        return f"{base} {format_chinese([a.low, a.low + 1, a.low + 2], sep='')}"
    if a.tile is not None and a.kind is not ActionKind.PASS:
        return f"{base} {format_chinese([a.tile])}"
    return base


def parse_action(msg: Any) -> Action:
    """An :class:`Action` from a client message; raises ``ValueError`` on anything malformed."""
    if not isinstance(msg, dict):
        raise ValueError("an action must be an object")
    kind = KINDS.get(msg.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        raise ValueError("unknown action kind")
    tile, low = msg.get("tile"), msg.get("low")
    for v in (tile, low):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 42):
            raise ValueError("a tile must be an integer 0-41")
    return Action(kind, tile, low)


def meld_json(m: Meld) -> dict[str, Any]:
    """A meld for the browser: ``tiles`` are the physical tiles drawn (a White where 白板 stands in
    for the wildcard's face, RULES.md §2.1), ``plays`` what they play when that differs."""
    out = {"kind": m.kind.value, "tiles": list(m.physical), "claimed": m.claimed, "offer": m.offer}
    if m.stand_in is not None:
        out["plays"] = list(m.tiles)
    return out


def public_melds(match: Match) -> tuple[list[list[dict]], list[int]]:
    """Every seat's melds as an outsider sees them (concealed kongs hidden, counted)."""
    t = match.table
    assert t is not None
    melds, hidden = [], []
    for s in range(4):
        ms = [m for m in t.melds[s] if m.kind is not MeldKind.CONCEALED_KONG]
        melds.append([meld_json(m) for m in ms])
        hidden.append(len(t.melds[s]) - len(ms))
    return melds, hidden


def seat_waits(view: PlayerView, rules: RuleSet) -> dict[str, Any] | None:
    """The waits of ``view``'s seat when its concealed hand (3n+1 tiles) is ready, else ``None``.

    ``{"tiles": [{"tile": t, "unseen": n}, ...], "wildcard": bool}``: each *physical* tile whose
    draw (or claim) completes the hand, sorted -- a wildcard's face when a wildcard completes it, 白板
    when it stands in for a wait on the wildcard's face -- with its copies not in sight of this seat
    (4 less its own concealed copies, every river, the melds it sees, the indicator). A wait whose
    every copy the seat itself holds is left out (nothing is left to win on); ``None`` when no wait
    remains. The shape is the rule set's (:attr:`RuleSet.shape_rules`); a minimum score (MCR's 8
    points) is not checked here: the table offers the win only when the hand reaches it.
    """
    hand = view.hand
    if len(hand) % 3 != 1:
        return None
    counts = [0] * NUM_KINDS
    for t in hand:
        if t < NUM_KINDS:
            counts[t] += 1
    wf = view.wild_face
    stand_in = wf is not None and rules.white_stand_in and wf != WHITE
    natural, wilds = list(counts), 0
    if wf is not None:
        wilds, natural[wf] = natural[wf], 0
        if stand_in:
            natural[wf] += natural[WHITE]
            natural[WHITE] = 0
    try:
        w = analysis_waits(natural, wilds, rules.shape_rules, wild_in_play=wf is not None)
    except MajiangError:
        return None
    if not w:
        return None
    live = set(w.tiles)
    visible = view.visible_counts()
    out = []
    for t in range(NUM_KINDS):
        if t == wf:
            ok = w.wildcard
        elif stand_in and t == WHITE:
            ok = wf in live
        else:
            ok = t in live
        if ok:
            out.append({"tile": t, "unseen": max(0, 4 - counts[t] - visible[t])})
    return {"tiles": out, "wildcard": w.wildcard} if out else None


def seat_state(match: Match, seat: int | None, *, deadlines: dict[int, float], now: float,
               auto_win: bool = False) -> dict[str, Any]:
    """The live part of the state for ``seat`` (``None`` = spectator). Empty dict once finished.
    ``time_left`` is the seconds left for the seat's own pending decision (``deadlines[seat]``, a
    monotonic time), ``None`` when it has none.
    ``waits`` (:func:`seat_waits`) and ``auto_win`` are the seat's own: ``None``/``False`` for a
    spectator."""
    t = match.table
    if t is None:
        return {}
    counts = [sum(t.concealed[s]) for s in range(4)]
    if seat is None:
        v = match.view(0)
        melds, hidden = public_melds(match)
        hand: list[int] = []
        last_draw = None
        legal: list[dict] = []
        waits = None
        auto_win = False
    else:
        v = match.view(seat)
        melds = [[meld_json(m) for m in ms] for ms in v.melds]
        hidden = list(v.hidden_kongs)
        hand = list(v.hand)
        last_draw = v.last_draw if (v.phase == "turn" and t.current == seat and len(hand) % 3 == 2) else None
        dec = t.decision
        legal = [action_json(a, dec) for a in sorted(match.legal_actions(seat), key=lambda a: a.sort_key)]
        waits = seat_waits(v, match.rules)
    turn = t.current if t.phase is Phase.TURN else None
    phase = v.phase
    if phase in ("claim", "rob") and not legal:
        # a seat not asked (or a spectator) must not learn that someone else may claim
        phase = "wait"
    # the clock of the seat's own pending decision only (another seat's clock says nothing useful
    # and, in a claim window, would tell that someone else may claim)
    left = deadlines.get(seat) if seat is not None else None
    return {
        "phase": phase, "dealer": v.dealer, "dealer_streak": v.dealer_streak,
        "prevalent_wind": v.prevalent_wind, "hand": hand, "last_draw": last_draw, "hand_counts": counts,
        "melds": melds, "hidden_kongs": hidden, "flowers": [list(f) for f in v.flowers],
        "rivers": [list(r) for r in v.rivers], "wall_live": v.wall_live, "claim_tile": v.claim_tile,
        "discarder": v.discarder, "wild_face": v.wild_face, "indicator": v.indicator,
        "hand_number": v.hand_number, "round": v.round, "turn": turn, "legal": legal,
        "time_left": None if left is None else max(0.0, round(left - now, 1)),
        "waits": waits, "auto_win": bool(auto_win), "dice": list(getattr(t, "dice", ()) or ()),
        "bao": list(getattr(t, "bao", ()) or ()),
        # issue 30: the pre-play decisions once revealed ({"dingque": "m"} per seat), the seats that
        # have won and left the play (血战到底); empty for rule sets without them
        "decided": [dict(d) for d in v.decided], "out": list(v.out),
        "exchange": exchange_json(t, seat),
    }


def exchange_json(t: Any, seat: int | None) -> dict[str, Any] | None:
    """The seat's own exchange (换三张), ``None`` without one or for a spectator: while the seats
    pick, ``{"name_zh", "name_en", "count", "picked": [faces]}``; once passed, also ``gave``, ``to``,
    ``got``, ``from`` (seats), ``direction_zh``/``direction_en`` and the exchange's ``dice``. Never another seat's tiles
    beyond those it passed to this seat."""
    if seat is None or not getattr(t, "decisions", ()):
        return None
    ex = next((d for d in t.decisions if isinstance(d, Exchange)), None)
    if ex is None:
        return None
    out: dict[str, Any] = {"name_zh": ex.label_zh, "name_en": ex.label_en, "count": ex.count,
                           "picked": list(t.exchange_picked(seat))}
    done = t.exchanged[seat]
    if done is not None:
        gave, to, got, frm = done
        zh, en = EXCHANGE_DIRECTIONS[(to - seat) % 4]
        out.update(gave=list(gave), to=to, got=list(got), **{"from": frm}, direction_zh=zh, direction_en=en,
                   dice=list(t.exchange_dice))
    return out


def pattern_json(pid: str, points: int, count: int) -> dict[str, Any]:
    """One recorded pattern ``[id, points, count]`` as the page shows it: ``{"id", "name_zh",
    "name_en", "points", "count"}``, the names from the rule set's own package
    (:func:`majiang.web.i18n.pattern_names`)."""
    zh, en = pattern_names(pid)
    return {"id": pid, "name_zh": zh, "name_en": en, "points": points, "count": count}


def penalty_json(ev: dict) -> dict[str, Any]:
    """A ``penalty`` event (被跟, 误打财神) with its names from the catalogues."""
    name = ev.get("name", "")
    key = "penalty." + name
    zh, en = (i18n_texts("zh").get(key, name), i18n_texts("en").get(key, name))
    return {"name": name, "name_zh": zh, "name_en": en, "actor": ev.get("actor"), "pai": ev.get("pai"),
            "deltas": ev.get("deltas")}


def hand_results(events: list[dict], rules: RuleSet | None = None) -> list[dict]:
    """End-of-hand summaries from the match events: wins (hand shown, patterns as objects
    :func:`pattern_json`, deltas, the settlement line by line :func:`majiang.web.explain.explain_win`
    when ``rules`` is given), penalties, draws, the hand's dealer, deltas and the running scores.
    Public once the hand is over."""
    out: list[dict] = []
    cur: dict | None = None
    for ev in events:
        typ = ev.get("type")
        if typ == "start_kyoku":
            cur = {"hand": ev.get("hand"), "wins": [], "drawn": False, "penalties": [],
                   "dealer": ev.get("oya"), "dealer_streak": ev.get("honba", 0)}
        elif cur is None:
            continue
        elif typ == "hora":
            w = {k: ev[k] for k in ("actor", "target", "pai", "robbing", "hand", "value", "bonus", "deltas")}
            w["patterns"] = [pattern_json(n, v, k) for n, v, k in ev["patterns"]]
            if ev.get("flower_win"):
                w["flower_win"] = ev["flower_win"]
            if rules is not None:
                w["settlement"] = explain_win(rules, ev, cur["dealer"], cur["dealer_streak"] or 0)
            cur["wins"].append(w)
        elif typ == "penalty":
            cur["penalties"].append(penalty_json(ev))
        elif typ == "ryukyoku":
            cur["drawn"] = True
        elif typ == "end_kyoku":
            cur["deltas"] = ev["deltas"]
            cur["scores"] = ev["scores"]
            out.append(cur)
            cur = None
    return out


def replay_hands(events: list[dict], results: list[dict]) -> list[dict]:
    """The replay page's list of hands: per ``start_kyoku`` its number (from 1), the event index it
    starts at, the prevalent wind (0-3 = 东南西北), the dealer's seat, and the result (``results``
    from :func:`hand_results`, in the same order): the winners ``[(seat, value + bonus), ...]``,
    whether it was drawn, the deltas."""
    out: list[dict] = []
    for i, ev in enumerate(events):
        if ev.get("type") != "start_kyoku":
            continue
        k = len(out)
        wind = ev.get("bakaze") or "1z"
        r = results[k] if k < len(results) else None
        out.append({"n": k + 1, "start": i, "wind": int(wind[0]) - 1 if wind[:1].isdigit() else 0,
                    "dealer": ev.get("oya"), "streak": ev.get("honba", 0),
                    "wins": [(w["actor"], int(w["value"]) + int(w.get("bonus") or 0)) for w in r["wins"]] if r else [],
                    "drawn": bool(r and r["drawn"] and not r["wins"]), "deltas": r.get("deltas") if r else None})
    return out


def competition_places(scores: list[int]) -> list[int]:
    """Each seat's place by score, standard competition ranking ("1224"): a tie shares the better
    place and the next place is skipped, e.g. ``[160, -50, -50, -60]`` -> ``[1, 2, 2, 4]``. The
    hand-end dialog (``places`` in static_dialogs.js) and the stored games (replay, records) both rank
    this way."""
    return [1 + sum(1 for o in scores if o > s) for s in scores]
