"""The ``majiang`` command: thin wrappers that parse arguments, call the layers and print.

Commands: ``analyze`` (win check, decompositions, waits, shanten, discard advice), ``botzone``
(check the real games of a Botzone log; the README's main job), ``testhu`` (the seed's function),
``score`` (score one winning hand under a rule set: MCR, Taiwan, Wenzhou W13/W16, seed 000, Shandong),
``simulate``, ``play``, ``replay``, ``dataset`` (training samples, :mod:`majiang.cli_dataset`).
Every command takes ``--json`` for machine-readable output. Bad input exits with status 2 and a
one-line error naming what is wrong.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from majiang.analysis import (
    ALL_SHAPES,
    MCR_SHAPES,
    SEVEN_PAIRS_AND_ORPHANS,
    STANDARD,
    ShapeRules,
    decompositions,
    discard_advice,
    is_winning,
    shanten,
    useful_tiles,
    waits,
)
from majiang.analysis.wildcards import split_wildcards
from majiang.errors import MajiangError
from majiang.tiles import (
    NUM_KINDS,
    WILD,
    format_chinese,
    format_compact,
    format_unicode,
    is_flower,
    parse_compact,
)

SHAPE_PRESETS: dict[str, ShapeRules] = {
    "all": ShapeRules(seven_pairs=True, thirteen_orphans=True, honors_and_knitted=True, knitted_straight=True),
    "standard": STANDARD,
    "mcr": MCR_SHAPES,
    "seed000": SEVEN_PAIRS_AND_ORPHANS,
}
del ALL_SHAPES


def _fmt(tiles: Sequence[int], style: str) -> str:
    if style == "unicode":
        return format_unicode(tiles)
    if style == "chinese":
        return format_chinese(tiles, sep=" ")
    return format_compact(tiles)


class _Fail(click.ClickException):
    exit_code = 2


@click.group()
@click.version_option(package_name="majiang")
def main() -> None:
    """majiang: Chinese mahjong rules — tiles, win check with wildcards, waits, shanten, real games."""


@main.command(short_help="Win check, waits, shanten and discard advice for a hand.")
@click.argument("hand")
@click.option("--wild", "wild_faces", multiple=True, metavar="TILE",
              help="A tile face (compact, e.g. 5z) whose copies are wildcards; repeatable. '*' in HAND is a wildcard too.")
@click.option("--white-stands-in", is_flag=True,
              help="White dragons play as the (single) wildcard face (seed 000, Wenzhou).")
@click.option("--shapes", type=click.Choice(sorted(SHAPE_PRESETS)), default="all", show_default=True,
              help="Winning shapes allowed: all special shapes, standard only, MCR, or the seed-000 profile.")
@click.option("--no-fifth", is_flag=True, help="A wildcard may not stand for a fifth copy of a face.")
@click.option("--tiles", "style", type=click.Choice(["chinese", "unicode", "compact"]), default="chinese",
              show_default=True, help="How plain output shows tiles.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def analyze(hand: str, wild_faces: tuple[str, ...], white_stands_in: bool, shapes: str, no_fifth: bool,
            style: str, as_json: bool) -> None:
    """Analyse HAND (compact notation, e.g. 123m456p789s11z*): win, waits, shanten, discard advice.

    3n+2 tiles: whether it wins and every decomposition (with what each wildcard plays); otherwise
    the discard advice (牌理): each discard with the shanten after it and the useful tiles with
    their unseen copies, best first. 3n+1 tiles: waits and shanten.
    """
    try:
        tiles = parse_compact(hand, allow_wild=True)
        faces = []
        for w in wild_faces:
            try:
                f = parse_compact(w)
            except MajiangError as e:
                raise MajiangError(f"--wild {w}: {e}") from None
            if len(f) != 1 or f[0] >= NUM_KINDS:
                raise MajiangError(f"--wild takes one tile face (e.g. 5p), got {w!r}")
            faces.append(f)
        wild_set = {f[0] for f in faces}
        for t in tiles:
            if is_flower(t):
                raise MajiangError(f"{format_compact([t])} is a flower: flowers are set aside, not held in HAND")
        rules = SHAPE_PRESETS[shapes]
        if no_fifth:
            rules = dataclasses.replace(rules, wild_fifth_copy=False)
        counts, wilds = split_wildcards(tiles, wild_set, white_stands_in)
        total = sum(counts) + wilds
        # copies of a wildcard face held as wildcards are still copies the player holds
        visible = [0] * NUM_KINDS
        for t in tiles:
            if t in wild_set:
                visible[t] += 1
        result: dict = {"hand": format_compact(sorted(t for t in tiles if t != WILD)) + "*" * sum(
            1 for t in tiles if t == WILD), "tiles": total, "wildcards": wilds}
        if total % 3 == 2:
            win = is_winning(counts, wilds, rules)
            result["winning"] = win
            result["shanten"] = shanten(counts, wilds, rules)
            if win:
                decs = decompositions(counts, wilds, rules)
                result["decompositions"] = [
                    {"shape": d.shape, "groups": [_group_json(g) for g in d.groups], "text": str(d)} for d in decs]
            else:
                advice = discard_advice(counts, wilds, rules, visible)
                result["advice"] = [
                    {"discard": format_compact([o.discard]), "shanten": o.shanten,
                     "useful": [{"tile": format_compact([t]), "unseen": n} for t, n in o.useful if t not in wild_set],
                     "unseen": sum(n for t, n in o.useful if t not in wild_set)} for o in advice]
        elif total % 3 == 1:
            w = waits(counts, wilds, rules, visible=visible, wild_in_play=bool(wild_set) or wilds > 0)
            s, useful = useful_tiles(counts, wilds, rules, visible)
            # drawing a wildcard face is drawing a wildcard: reported as wins_on_wildcard, not as a wait
            result["waits"] = [format_compact([t]) for t in w.tiles if t not in wild_set]
            result["exhausted_waits"] = [format_compact([t]) for t in w.exhausted if t not in wild_set]
            result["wins_on_wildcard"] = w.wildcard
            result["shanten"] = s
            result["useful"] = [{"tile": format_compact([t]), "unseen": n} for t, n in useful if t not in wild_set]
        else:
            raise MajiangError(f"{total} tiles: a hand has 3n+1 (waiting) or 3n+2 (complete) tiles")
    except MajiangError as e:
        raise _Fail(str(e)) from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    _print_analysis(result, style)


def _group_json(g) -> dict:
    return {"kind": g.kind, "tiles": format_compact(g.tiles), "wild_as": format_compact(g.wild), "wildcards": g.wilds}


def _print_analysis(r: dict, style: str) -> None:
    def show(compact: str) -> str:
        return _fmt(parse_compact(compact, allow_wild=True), style) if compact else ""

    wc = r["wildcards"]
    click.echo(f"hand: {show(r['hand'])}  ({r['tiles']} tiles, {wc} wildcard{'' if wc == 1 else 's'})")
    if "winning" in r:
        if r["winning"]:
            click.echo("winning hand (胡牌)")
            for d in r["decompositions"]:
                parts = []
                for g in d["groups"]:
                    if g["kind"].startswith("free"):
                        parts.append(f"[{'*' * g['wildcards']} any {'pair' if g['kind'] == 'free-pair' else 'set'}]")
                    else:
                        txt = show(g["tiles"])
                        if g["wild_as"]:
                            txt += f" (*={show(g['wild_as'])})"
                        parts.append(f"[{txt}]")
                click.echo(f"  {d['shape']}: " + " ".join(parts))
        else:
            click.echo(f"not a winning hand; shanten {r['shanten']}")
            click.echo("discard advice (牌理), best first:")
            for o in r["advice"]:
                useful = " ".join(f"{show(u['tile'])}×{u['unseen']}" for u in o["useful"])
                click.echo(f"  discard {show(o['discard'])}: shanten {o['shanten']}, {o['unseen']} useful tiles: "
                           f"{useful}")
    else:
        if r["waits"] or r["exhausted_waits"] or r["wins_on_wildcard"]:
            line = "waits (听牌): " + (" ".join(show(t) for t in r["waits"]) or "none left")
            if r["exhausted_waits"]:
                line += "; exhausted (all copies held): " + " ".join(show(t) for t in r["exhausted_waits"])
            if r["wins_on_wildcard"]:
                line += "; a drawn wildcard wins"
            click.echo(line)
            click.echo(f"shanten {r['shanten']}" + (" (ready)" if r["shanten"] == 0 else ""))
        else:
            click.echo(f"not ready; shanten {r['shanten']}")
        useful = " ".join(f"{show(u['tile'])}×{u['unseen']}" for u in r["useful"])
        click.echo(f"useful tiles: {useful}")


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every round and a summary.")
def botzone(file: Path | None, as_json: bool) -> None:
    """Check the real games of a Botzone log (FILE; default: the 16-round sample shipped with majiang).

    Rebuilds each winner's hand at Hu, checks it is a winning hand (MCR shapes) of the right size,
    scores it with the MCR fans and compares with the recorded Fan line (total, names, counts) and the
    Score line (plus 30 from each seat that faulted, 10 to each other seat, for the local judge's
    ``Player N Fault ...`` lines); prints one line per round and a summary. Exit status 1 if any
    recorded win fails.
    """
    from majiang.hand import Hand
    from majiang.records.botzone import BotzoneLogError, read_log, replay_hands, sample_path

    path = file or sample_path()
    try:
        rounds = read_log(path)
    except (MajiangError, OSError) as e:
        raise _Fail(str(e)) from None
    rows = []
    failures = 0
    for r in rounds:
        row: dict = {"match": r.match, "wind": r.wind}
        if r.faults:
            row["faults"] = [{"seat": f.seat, "kind": f.kind, "request": f.request, "answer": f.answer}
                             for f in r.faults]
        try:
            w = replay_hands(r)
        except BotzoneLogError as e:
            row.update(result="error", error=str(e))
            failures += 1
            rows.append(row)
            continue
        if w is None:
            row.update(result="drawn" if r.drawn else "unfinished")
            rows.append(row)
            continue
        hand: Hand = w.hand
        ok = True
        err = ""
        try:
            hand.check(sets=4)
            ok = is_winning(hand.full_counts(), 0, MCR_SHAPES)
        except MajiangError as e:
            ok, err = False, str(e)
        row.update(result="win", seat=w.seat, win_tile=format_compact([hand.win_tile]), self_drawn=w.self_drawn,
                   robbed_kong=w.robbed_kong, hand=str(hand), winning=ok, recorded_fan=r.fan_total,
                   recorded_fans=[f"{n}*{c}" for n, c in r.fans], scores=r.scores)
        if ok:
            fan_ok = _score_botzone_win(w, r, row)
            ok = fan_ok
        if not ok:
            failures += 1
        if err:
            row["error"] = err
        rows.append(row)
    wins = sum(1 for x in rows if x["result"] == "win")
    verified = sum(1 for x in rows if x["result"] == "win" and x["winning"])
    scored = sum(1 for x in rows if x.get("fan_match") and x.get("score_match"))
    summary = {"file": str(path), "rounds": len(rows), "wins": wins, "verified": verified,
               "scored": scored, "drawn": sum(1 for x in rows if x["result"] == "drawn"), "failures": failures}
    if as_json:
        click.echo(json.dumps({"rounds": rows, "summary": summary}, ensure_ascii=False))
    else:
        winds = "ESWN"
        for x in rows:
            head = f"{x['match']} {winds[x['wind']]}-round:"
            if x["result"] == "win":
                how = "self-drawn" if x["self_drawn"] else ("robbing the kong" if x["robbed_kong"] else "discard")
                mark = "winning hand" if x["winning"] else "NOT A WINNING HAND " + x.get("error", "")
                if x.get("fan_match") and x.get("score_match"):
                    same = "same fans and scores"
                elif "fan" not in x:
                    same = "not scored"
                else:
                    same = ("DIFFERENT FANS: ours " + "+".join(x["fans"]) if not x.get("fan_match")
                            else "DIFFERENT SCORES: recorded " + " ".join(map(str, x["scores"] or [])))
                click.echo(f"{head} seat {x['seat']} wins on {x['win_tile']} ({how}): {x['hand']} -> {mark}; "
                           f"recorded {x['recorded_fan']} fan, ours {x.get('fan', '-')} ({same})")
            elif x["result"] == "error":
                click.echo(f"{head} ERROR {x['error']}")
            else:
                click.echo(f"{head} {x['result']}")
        click.echo(f"{summary['rounds']} rounds: {wins} wins, {verified} verified winning hands, "
                   f"{scored} with the recorded fans and scores, {summary['drawn']} drawn, {failures} failures")
    if not rows:
        click.echo(f"{path}: no rounds found (is it a Botzone log? see FORMAT-en.txt)", err=True)
        sys.exit(1)
    if failures:
        sys.exit(1)


@main.command()
@click.option("--rules", default="mcr", show_default=True,
              help="Rule set: a preset (mcr, taiwan, wenzhou, wenzhou-w16, seed000, shandong; wenzhou13 = wenzhou) "
                   "or a spec such as 'mcr,multiple_winners=all'.")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="Matches to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run (same seed, same records).")
@click.option("--bots", default="efficiency", show_default=True,
              help="Bot names, one for all seats or four comma-separated (random, efficiency, strong, learned, "
                   "python:package.module:factory).")
@click.option("--records", "records_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write each match's JSON-lines record into this folder.")
@click.option("--max-hands", type=click.IntRange(min=1), help="Stop each match after this many hands.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the figures.")
def simulate(rules: str, games: int, seed: int, bots: str, records_dir: Path | None, max_hands: int | None,
             as_json: bool) -> None:
    """Bot-versus-bot matches: win rate per seat, draw rate, average score, average fan."""
    from rich.progress import Progress

    from majiang.players.simulate import describe
    from majiang.players.simulate import simulate as run

    try:
        with Progress(transient=True, disable=as_json or not sys.stderr.isatty()) as bar:
            task = bar.add_task("playing", total=games)
            stats = run(rules, games, seed, [b for b in bots.split(",") if b], records_dir, max_hands=max_hands,
                        progress=lambda n: bar.update(task, completed=n))
    except ValueError as e:
        raise _Fail(str(e)) from None
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
    else:
        click.echo(describe(stats))


@main.command()
@click.option("--rules", default="mcr", show_default=True, help="Rule set preset or spec (see simulate).")
@click.option("--seed", type=int, default=None, help="Seed of the match (default: random).")
@click.option("--bot", default="efficiency", show_default=True,
              help="The three opponents' bot (random, efficiency, strong, learned, python:package.module:factory).")
@click.option("--max-hands", type=click.IntRange(min=1), help="Stop after this many hands.")
def play(rules: str, seed: int | None, bot: str, max_hands: int | None) -> None:
    """Play in the terminal against three bots: your tiles sorted, the drawn tile apart, actions as keys."""
    import random as _random

    from majiang.players import play_terminal

    try:
        play_terminal(rules, seed if seed is not None else _random.randrange(2**31), bot=bot, max_hands=max_hands)
    except ValueError as e:
        raise _Fail(str(e)) from None
    except (EOFError, KeyboardInterrupt):
        click.echo("\nbye")


@main.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def replay(record: Path, as_json: bool) -> None:
    """Re-run RECORD (a JSON-lines game record) through the engine: every step legal, the same results."""
    from majiang.records.jsonl import read_record, record_lines, replay_file

    try:
        m = replay_file(record)
        original = record.read_text(encoding="utf-8").splitlines()
        same = record_lines(m) == [x for x in original if x.strip()]
    except (ValueError, OSError) as e:
        raise _Fail(str(e)) from None
    head, events = read_record(record.read_text(encoding="utf-8").splitlines())
    out = {"record": str(record), "events": len(events), "hands": len(m.results), "scores": list(m.scores),
           "identical": same}
    if as_json:
        click.echo(json.dumps(out))
    else:
        click.echo(f"{record}: {len(events)} events, {len(m.results)} hand{'' if len(m.results) == 1 else 's'} replayed, every step legal; "
                   f"final scores {' '.join(map(str, m.scores))}; record {'identical' if same else 'DIFFERS'}")
    if not same:
        sys.exit(1)


def _score_botzone_win(w, r, row: dict) -> bool:
    """Score a rebuilt Botzone win with the MCR scorer; compare fans (names, counts, total) and scores."""
    from majiang.rules.mcr import WinConditions, score, settle

    cond = WinConditions(self_drawn=w.self_drawn, kong_replacement=w.after_kong and w.self_drawn,
                         robbing_kong=w.robbed_kong, last_of_kind=w.last_of_kind, seat_wind=w.seat_wind,
                         prevalent_wind=w.prevalent_wind, last_wall_tile=w.last_wall_tile)
    try:
        res = score(w.hand, cond)
        settled = settle(res, w.seat, w.discarder)
    except MajiangError as e:
        row["error"] = f"scoring: {e}"
        return False
    ours = res.counts_zh()
    row["fan"] = res.total
    row["fans"] = [f"{n}*{c}" for n, c in ours.items()]
    row["fan_match"] = res.total == r.fan_total and ours == dict(r.fans)
    charged = r.fault_scores()  # the local judge's faults are charged on top of the win
    row["score_match"] = r.scores is not None and [a + b for a, b in zip(settled, charged)] == r.scores
    return row["fan_match"] and row["score_match"]


@main.command(short_help="The seed's TestHu on hex codes; prints true/false.")
@click.argument("codes")
@click.option("--baida", required=True, help="Hex code of the wildcard face, e.g. 0x40.")
def testhu(codes: str, baida: str) -> None:
    """The seed's TestHu on CODES (hex codes, sorted, e.g. "0x00 0x01 0x02 0x03 0x30"); prints true/false.

    Codes (seed 000): bamboo 0x01-0x09, dots 0x11-0x19, characters 0x21-0x29, East South West North
    0x30 0x40 0x50 0x60, 中 发 白 0x70 0x80 0x90, a wildcard 0x00.
    """
    from majiang.seed import TestHu

    pai = []
    for i, c in enumerate(codes.replace(",", " ").split()):
        try:
            pai.append(int(c, 16))
        except ValueError:
            raise _Fail(f"code {i} {c!r} is not a hex number (e.g. 0x01)") from None
    try:
        b = int(baida, 16)
    except ValueError:
        raise _Fail(f"--baida {baida!r} is not a hex number (e.g. 0x40)") from None
    try:
        result = TestHu(pai, len(pai), b)
    except ValueError as e:
        raise _Fail(str(e)) from None
    click.echo("true" if result else "false")


# ------------------------------------------------------------------------------------------ score
def __getattr__(name: str):
    """``SCORE_RULES``: majiang's own rule-set names and aliases (``majiang score --rules`` takes any rule
    set the ``majiang.rulesets`` entry points declare, with options: ``"taiwan,all_flowers_count=true"``)."""
    if name == "SCORE_RULES":
        from majiang.rules.registry import own_names

        return own_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_WIND_TEXT = {"e": 0, "east": 0, "东": 0, "東": 0, "1z": 0, "s": 1, "south": 1, "南": 1, "2z": 1,
              "w": 2, "west": 2, "西": 2, "3z": 2, "n": 3, "north": 3, "北": 3, "4z": 3}


def _wind(text: str | None, what: str) -> int | None:
    if text is None:
        return None
    w = _WIND_TEXT.get(text.strip().lower())
    if w is None:
        raise MajiangError(f"{what} {text!r} is not a wind: give E, S, W or N (or 1z-4z)")
    return w


def _seat_opt(v: int | None, what: str) -> int | None:
    if v is not None and not 0 <= v <= 3:
        raise MajiangError(f"{what} must be a seat 0-3, got {v}")
    return v


def _flower_arg(text: str | None) -> tuple[int | None, tuple[int, ...]]:
    """``--flowers``: a count (``2``) or flower tiles (``12f`` = 春 and 夏)."""
    if text is None or not text.strip():
        return None, ()
    txt = text.strip()
    if txt.isdigit():
        n = int(txt)
        if not 0 <= n <= 8:
            raise MajiangError(f"--flowers {txt}: there are 0-8 flowers")
        return n, ()
    try:
        fl = parse_compact(txt)
    except MajiangError as e:
        raise MajiangError(f"--flowers {txt!r}: {e}") from None
    if any(not 34 <= f < 42 for f in fl) or len(set(fl)) != len(fl):
        raise MajiangError(f"--flowers {txt!r}: give a number (0-8) or distinct flower tiles 1f-8f (e.g. 12f)")
    return len(fl), tuple(sorted(fl))


def _print_score(r: dict, note=None) -> None:
    """The pattern table and the total of a ``majiang score`` result; ``note``: the entry point's tail of
    the total line (:attr:`ScoreCommand.note <majiang.rules.base.ScoreCommand>`)."""
    click.echo(f"rules: {r['rules']}   hand: {r['hand']}   shape: {r['shape']}")
    unit = r["unit"]
    head = f"{'pattern':<40} {'名称':<10} {unit:>10} {'count':>5}"
    click.echo(head)
    click.echo("-" * len(head))
    for f in r["fans"]:
        click.echo(f"{f['name_en']:<40} {f['name_zh']:<10} {f['points']:>10} {f['count']:>5}")
    click.echo("-" * len(head))
    line = f"total: {r['total']} {unit}"
    if note is not None:
        line += note(r)
    click.echo(line)
    if r.get("deltas") is not None:
        click.echo("settlement by seat: " + " ".join(f"{d:+d}" for d in r["deltas"]))


@main.command()
@click.argument("hand")
@click.option("--rules", "rules_spec", default="mcr", show_default=True,
              help="Rule set and options, as for simulate: 'taiwan' or 'taiwan,all_flowers_count=true' (majiang "
                   "rules lists them; wenzhou = the seed-003 W13 profile, wenzhou13 the same).")
@click.option("--win-tile", help="The winning tile (e.g. 4p; '*' a drawn wildcard). MCR: overrides the "
                                 "string's last tile; other rule sets: required.")
@click.option("--self-drawn/--discard", "self_drawn", default=None,
              help="Self-drawn win or a win on a discard (MCR: overrides the string's flag; default: discard).")
@click.option("--seat", type=int, help="The winner's seat 0-3 (default 0).")
@click.option("--dealer", type=int, help="The dealer's seat 0-3 (default 0); the dealer sits East.")
@click.option("--discarder", type=int, help="Who fed a discard win (default: the player before the winner).")
@click.option("--seat-wind", help="MCR: the winner's seat wind E/S/W/N (default from --seat and --dealer, "
                                  "else the string).")
@click.option("--prevalent", help="The round's prevalent wind E/S/W/N (default East or the string's).")
@click.option("--flowers", help="Flowers: a number (MCR) or the flower tiles, e.g. 12f (Taiwan). The Wenzhou, "
                               "seed-000 and Shandong scorers give flowers no value, so they refuse it.")
@click.option("--wild", help="The wildcard's face (Wenzhou, seed 000): its copies in HAND are wild; '*' "
                             "in HAND is a wildcard too.")
@click.option("--white-stands-in/--no-white-stands-in", default=True, show_default=True,
              help="With --wild: 白板 plays as the wildcard's face.")
@click.option("--streak", type=click.IntRange(min=0), default=0, show_default=True,
              help="The dealer's consecutive hands before this one (连庄).")
@click.option("--kong-replacement", is_flag=True, help="Won on the replacement tile after a kong (杠上开花).")
@click.option("--flower-replacement", is_flag=True, help="Won on a flower replacement (Taiwan 槓上開花).")
@click.option("--robbing-kong", is_flag=True, help="Won on the tile of another player's added kong (抢杠).")
@click.option("--last-tile", is_flag=True,
              help="The last tile: self-drawn (MCR 妙手回春, Taiwan 海底撈月) or the last discard.")
@click.option("--last-of-kind", is_flag=True, help="MCR: the winning tile is the last of its kind (和绝张).")
@click.option("--first-turn", is_flag=True, help="Won in the first turn with no claim (天胡/地胡/人胡).")
@click.option("--base", type=click.IntRange(min=0), help="Taiwan: base (底); default the rule option base (30).")
@click.option("--per-tai", type=click.IntRange(min=0), help="Taiwan: per 台; default the rule option per_tai (10).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(hand: str, rules_spec: str, win_tile: str | None, self_drawn: bool | None, seat: int | None,
          dealer: int | None, discarder: int | None, seat_wind: str | None, prevalent: str | None,
          flowers: str | None, wild: str | None, white_stands_in: bool, streak: int, kong_replacement: bool,
          flower_replacement: bool, robbing_kong: bool, last_tile: bool, last_of_kind: bool, first_turn: bool,
          base: int | None, per_tai: int | None, as_json: bool) -> None:
    """Score one winning HAND: the pattern table (English and Chinese names, points, count) and the total.

    \b
    HAND: declared melds in brackets, then the concealed tiles, with the winning tile among them or
    left out; --win-tile names the winning tile. Tiles: 1-9 with m (characters), p (dots), s (bamboo);
    z: 1-4 East South West North, 5 White, 6 Green, 7 Red; * a wildcard.
      majiang score "[peng 666z] [chi 123m] 11m234p567s" --win-tile 7s --rules wenzhou
      majiang score "[kong-concealed 7777s] 123m456m789m 55p" --win-tile 5p --self-drawn
    Melds: [chi 123m] [peng 555p] [kong-exposed 5555p] [kong-concealed 7777s] [kong-added 3333p].

    \b
    MCR also reads the PyMahjongGB string, flags after '|' (prevalent and seat wind, self-drawn,
    last of its kind, last tile, kong-related; the options below override them):
      majiang score "[EEE,2][123m,1]WWWNN55pN|EE1000"
    """
    try:
        n, fl = _flower_arg(flowers)
        o = dict(win_tile=win_tile, self_drawn=self_drawn, seat=_seat_opt(seat, "--seat"),
                 dealer=_seat_opt(dealer, "--dealer"), discarder=_seat_opt(discarder, "--discarder"),
                 seat_wind=_wind(seat_wind, "--seat-wind"), prevalent=_wind(prevalent, "--prevalent"),
                 flower_count=n, flower_tiles=fl, wild=wild, white_stands_in=white_stands_in, streak=streak,
                 kong_replacement=kong_replacement, flower_replacement=flower_replacement,
                 robbing_kong=robbing_kong, last_tile=last_tile, last_of_kind=last_of_kind, first_turn=first_turn,
                 base=base, per_tai=per_tai, flowers=flowers)
        if robbing_kong and kong_replacement:
            raise MajiangError("--robbing-kong and --kong-replacement exclude each other")
        if self_drawn and discarder is not None:
            raise MajiangError("--self-drawn and --discarder exclude each other: a self-drawn win has no discarder")
        from majiang.cli_score import command_for
        from majiang.engine.ruleset import resolve

        rs = resolve(rules_spec)
        cmd = command_for(rs)  # the entry point the scorer's rule set declares (majiang.cli_score)
        result = cmd.score(rs, hand, o)
    except MajiangError as e:
        raise _Fail(f"--rules {rules_spec}: {e}") from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        _print_score(result, cmd.note)


from majiang.cli_rules import rules as _rules_command  # noqa: E402 - a command in its own module


def _register_serve() -> None:
    from majiang.web.cli import serve  # importing the command loads click only; the server loads on run

    main.add_command(serve)


_register_serve()
from majiang.protocols.cli import bot as _bot, tournament as _tournament  # noqa: E402 (issue 14)
main.add_command(_bot), main.add_command(_tournament)
main.add_command(_rules_command)  # majiang rules (issue 12, majiang.cli_rules)
from majiang.selfplay import selfplay as _selfplay  # noqa: E402 (issue 15)
main.add_command(_selfplay)
from majiang.cli_dataset import dataset as _dataset  # noqa: E402 (issue 28)
main.add_command(_dataset)


if __name__ == "__main__":  # pragma: no cover
    main()
