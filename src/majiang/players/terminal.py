"""A terminal game: one human (player 0) against three bots, drawn with ``rich``.

Keep-it-simple loop: before each of the human's decisions the table is printed (every seat's river,
melds and flowers; the human's hand and drawn tile; wall count, winds, scores) with the legal actions
numbered. The human types a number, a tile in compact notation to discard it (``5m``), Enter for
the default (discard the drawn tile in a turn, pass in a claim window), or ``q`` to stop.
What the others did since the last prompt is printed as a short log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from majiang.engine.actions import PASS, Action, ActionKind
from majiang.engine.match import Match, PlayerView
from majiang.engine.ruleset import resolve
from majiang.engine.wall import derive_seed
from majiang.errors import MajiangError
from majiang.protocols.jsonl import seat_event
from majiang.rules.base import Decision, Exchange
from majiang.tiles import CHINESE_NAMES, format_compact, parse_compact

_WIND_NAMES = {27: "East", 28: "South", 29: "West", 30: "North"}
_REL = {0: "You", 1: "Right (下家)", 2: "Opposite (对家)", 3: "Left (上家)"}


def _tiles(ts: Sequence[int]) -> str:
    return format_compact(sorted(ts)) if ts else "-"


def _wind_text(tile: str) -> str:
    """``1z`` → ``East`` (a record's compact wind tile)."""
    try:
        (k,) = parse_compact(tile)
    except (ValueError, TypeError):
        return str(tile)
    return _WIND_NAMES.get(k, str(tile))


def _event_text(ev: dict, me: int) -> str | None:
    t = ev.get("type")
    who = _REL.get((ev.get("actor", 0) - me) % 4, "?") if "actor" in ev else ""

    def verb(plain: str, third: str) -> str:  # "You discard", "Left (上家) discards"
        return plain if who == "You" else third

    if t == "dahai":
        return f"{who} {verb('discard', 'discards')} {ev['pai']}"
    if t in ("chi", "pon", "daiminkan"):
        plain = {"chi": "chow", "pon": "pung", "daiminkan": "kong"}[t]
        return f"{who} {verb(plain, plain + 's')} {ev['pai']}"
    if t == "ankan":
        return f"{who} {verb('declare', 'declares')} a concealed kong"
    if t == "kakan":
        return f"{who} {verb('add', 'adds')} {ev['pai']} to a pung (kong)"
    if t == "flower":
        return f"{who} {verb('set', 'sets')} aside flower {ev['pai']}"
    if t == "reach":
        return f"{who} {verb('declare', 'declares')} ready (報聽)"
    if t == "hora":
        how = "self-drawn" if ev["target"] == ev["actor"] else f"on {_REL[(ev['target'] - me) % 4]}'s tile"
        return (f"[bold]{who} {verb('WIN', 'WINS')} {how} with {ev['pai']}: {escape(ev['hand'])}  "
                f"({ev['value']}+{ev['bonus']})[/bold]")
    if t == "exchange":  # 换三张: the tiles are shown to the giver and the taker only
        to = _REL.get((ev["target"] - me) % 4, "?")
        tiles = "".join(ev["pai"]) if "?" not in ev["pai"] else f"{len(ev['pai'])} tiles"
        dice = "+".join(map(str, ev.get("dice", ())))
        return f"{who} {verb('pass', 'passes')} {tiles} to {to} (换三张, dice {dice})"
    if t == "decide":
        return f"{who} {verb('choose', 'chooses')} {ev['name']} {ev['value']}"
    if t == "ryukyoku":
        return "[bold]Exhaustive draw (荒庄)[/bold]"
    if t == "end_kyoku":
        return f"hand over: deltas {ev['deltas']} -> scores {ev['scores']}"
    if t == "start_kyoku":
        dealer = _REL.get((ev["oya"] - me) % 4, "?") if isinstance(ev.get("oya"), int) else "?"
        return f"--- hand {ev.get('hand', 0) + 1}: prevalent wind {_wind_text(ev['bakaze'])}, dealer: {dealer} ---"
    if t == "end_game":
        return f"[bold]Match over. Scores by seat: {ev['scores']}[/bold]"
    return None


def _show(console: Console, view: PlayerView, actions: Sequence[Action]) -> None:
    me = view.seat
    tab = Table(title=f"Hand {view.hand_number + 1} - prevalent {_WIND_NAMES[view.prevalent_wind]}, "
                      f"you are {_WIND_NAMES[view.seat_wind]}, wall {view.wall_live}", show_lines=False)
    tab.add_column("seat")
    tab.add_column("score", justify="right")
    tab.add_column("melds")
    tab.add_column("flowers")
    tab.add_column("river")
    for i in range(4):
        s = (me + i) % 4
        melds = escape(" ".join(str(m) for m in view.melds[s]) + (" [concealed kong]" * view.hidden_kongs[s]))
        name = _REL[i] + (" *dealer*" if s == view.dealer else "")
        tab.add_row(name, str(view.scores[s]), melds or "-", _tiles(view.flowers[s]),
                    format_compact(view.rivers[s]) if view.rivers[s] else "-")
    console.print(tab)
    hand = list(view.hand)
    drawn = view.last_draw if view.phase == "turn" and view.last_draw in hand else None
    if drawn is not None:
        hand.remove(drawn)
    line = f"Your hand: [bold]{_tiles(hand)}[/bold]"
    if drawn is not None:
        line += f"  drew [bold green]{format_compact([drawn])}[/bold green] ({CHINESE_NAMES[drawn]})"
    if view.claim_tile is not None:
        line += f"   on the table: [bold yellow]{format_compact([view.claim_tile])}[/bold yellow]"
    if view.wild_face is not None:
        line += f"   wildcard {format_compact([view.wild_face])}"
    console.print(line)
    if not (actions and actions[0].kind is ActionKind.DECIDE):  # a decision's choices are named below
        console.print("  ".join(f"[cyan]{i}[/cyan]:{escape(str(a))}" for i, a in enumerate(actions)))


def _parse_choice(text: str, view: PlayerView, actions: Sequence[Action]) -> Action | None:
    text = text.strip()
    if text == "":
        if view.phase == "turn":
            for a in actions:
                if a.kind is ActionKind.DISCARD and a.tile == view.last_draw:
                    return a
            return next(a for a in actions if a.kind is ActionKind.DISCARD)
        return PASS if PASS in actions else actions[0]
    if text.isdigit():
        i = int(text)
        return actions[i] if 0 <= i < len(actions) else None
    try:
        ts = parse_compact(text)
    except MajiangError:
        return None
    if len(ts) == 1:
        a = Action(ActionKind.DISCARD, ts[0])
        return a if a in actions else None
    return None


def _parse_decision(text: str, dec: Decision, actions: Sequence[Action], default: Action | None) -> Action | None:
    """A pre-play decision typed in: a number, a value's name (定缺: ``m``, ``万``), a tile for an
    exchange (``5m``), or Enter for the rule set's default (what a bot would choose)."""
    text = text.strip()
    if text == "":
        return default
    if text.isdigit():
        i = int(text)
        return actions[i] if 0 <= i < len(actions) else None
    for a in actions:
        i = a.tile
        if i is not None and (text == dec.values[i] or text in dec.label(i)):
            return a
    return None


def play_terminal(rules: str, seed: int, *, bot: str = "efficiency", max_hands: int | None = None,
                  console: Console | None = None, input_fn: Callable[[str], str] | None = None) -> Match:
    """Play one match in the terminal: you are player 0, three bots (``bot``) the others.

    Args:
        rules: a preset name (``"mcr"``).
        seed: the match seed (seating, walls; the bots' seeds derive from it).
        bot: ``"efficiency"`` (default) or ``"random"``.
        max_hands: stop after this many hands.
        console, input_fn: injectable for tests (defaults: a ``rich`` console and its ``input``).

    Returns the finished (or abandoned, after ``q``) :class:`~majiang.engine.match.Match`.
    """
    from majiang.players.simulate import make_bot

    rs = resolve(rules)
    con = console or Console()
    ask = input_fn or (lambda prompt: con.input(prompt))
    m = Match(rs, seed=seed, names=["you", f"{bot}-1", f"{bot}-2", f"{bot}-3"], max_hands=max_hands)
    bots = {p: make_bot(bot, rs, derive_seed(seed, "terminal-bot", p)) for p in (1, 2, 3)}
    shown = 0
    me = m.seat_of_player[0]
    con.print(f"You sit at seat {me}. Rules: {rs.name}. Type a number, a tile (e.g. 5m), Enter, or q.")
    while not m.finished:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        p = m.player_at_seat[s]
        if p != 0:
            decide = acts[0].kind is ActionKind.DECIDE  # a pre-play decision (定缺): the rule set's default
            m.apply(s, m.default_action(s) if decide else bots[p].choose(m.view(s), acts))
            continue
        for ev in m.events[shown:]:
            txt = _event_text(seat_event(ev, me), me)
            if txt:
                con.print(txt)
        shown = len(m.events)
        view = m.view(s)
        _show(con, view, acts)
        dec = m.table.decision if m.table is not None and acts[0].kind is ActionKind.DECIDE else None
        if dec is not None:  # name each choice (定缺: 0 万 characters, 1 筒 dots, 2 条 bamboo)
            what = f"{dec.label_zh} {dec.label_en}"
            if isinstance(dec, Exchange):  # 换三张: which pick of how many, and of one suit
                n = len(m.table.exchange_picked(s)) + 1
                what += f" -- pick {n} of {dec.count}" + (", all of one suit" if dec.same_suit else "")
            con.print(f"{what}: " + "  ".join(
                f"[cyan]{i}[/cyan]:{' '.join(dec.label(a.tile))}" for i, a in enumerate(acts)))
            con.print("Type a number, " + ("a tile (e.g. 5m)" if isinstance(dec, Exchange) else "a value (e.g. "
                      f"{dec.values[acts[0].tile]})") + ", or Enter for the usual choice.")
        while True:
            raw = ask("> ")
            if raw.strip().lower() in ("q", "quit", "exit"):
                con.print("Bye.")
                return m
            choice = _parse_decision(raw, dec, acts, m.default_action(s)) if dec is not None else \
                _parse_choice(raw, view, acts)
            if choice is not None:
                break
            con.print("[red]Not one of the choices; type its number" +
                      (" or one of the values shown.[/red]" if dec is not None else " or a tile you may discard.[/red]"))
        m.apply(s, choice)
    for ev in m.events[shown:]:
        txt = _event_text(seat_event(ev, me), me)
        if txt:
            con.print(txt)
    return m
