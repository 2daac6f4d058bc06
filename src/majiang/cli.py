"""The ``majiang`` command: thin wrappers that parse arguments, call the layers and print.

Commands: ``analyze`` (win check, decompositions, waits, shanten, discard advice), ``botzone``
(check the real games of a Botzone log; the README's main job), ``testhu`` (the seed's function).
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


@main.command()
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
        faces = [parse_compact(w) for w in wild_faces]
        for w, f in zip(wild_faces, faces):
            if len(f) != 1 or f[0] >= NUM_KINDS:
                raise MajiangError(f"--wild takes one tile face, got {w!r}")
        wild_set = {f[0] for f in faces}
        rules = SHAPE_PRESETS[shapes]
        if no_fifth:
            rules = dataclasses.replace(rules, wild_fifth_copy=False)
        counts, wilds = split_wildcards(tiles, wild_set, white_stands_in)
        total = sum(counts) + wilds
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
                visible = None
                advice = discard_advice(counts, wilds, rules, visible)
                result["advice"] = [
                    {"discard": format_compact([o.discard]), "shanten": o.shanten,
                     "useful": [{"tile": format_compact([t]), "unseen": n} for t, n in o.useful],
                     "unseen": o.unseen} for o in advice]
        elif total % 3 == 1:
            w = waits(counts, wilds, rules, wild_in_play=bool(wild_set) or wilds > 0)
            s, useful = useful_tiles(counts, wilds, rules)
            result["waits"] = [format_compact([t]) for t in w.tiles]
            result["exhausted_waits"] = [format_compact([t]) for t in w.exhausted]
            result["wins_on_wildcard"] = w.wildcard
            result["shanten"] = s
            result["useful"] = [{"tile": format_compact([t]), "unseen": n} for t, n in useful]
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

    click.echo(f"hand: {show(r['hand'])}  ({r['tiles']} tiles, {r['wildcards']} wildcards)")
    if "winning" in r:
        if r["winning"]:
            click.echo("winning hand (胡牌)")
            for d in r["decompositions"]:
                parts = []
                for g in d["groups"]:
                    if g["kind"].startswith("free"):
                        parts.append("*" * g["wildcards"])
                    else:
                        txt = show(g["tiles"])
                        if g["wild_as"]:
                            txt += f"(*={show(g['wild_as'])})"
                        parts.append(txt)
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
    Score line; prints one line per round and a summary. Exit status 1 if any recorded win fails.
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
                click.echo(f"{head} seat {x['seat']} wins on {x['win_tile']} ({how}): {x['hand']} -> {mark}; "
                           f"recorded {x['recorded_fan']} fan, ours {x.get('fan', '-')} "
                           f"({'same fans and scores' if x.get('fan_match') and x.get('score_match') else 'DIFFERENT'})")
            elif x["result"] == "error":
                click.echo(f"{head} ERROR {x['error']}")
            else:
                click.echo(f"{head} {x['result']}")
        click.echo(f"{summary['rounds']} rounds: {wins} wins, {verified} verified winning hands, "
                   f"{scored} with the recorded fans and scores, {summary['drawn']} drawn, {failures} failures")
    if failures:
        sys.exit(1)


@main.command()
@click.option("--rules", default="mcr", show_default=True,
              help="Rule set: a preset (mcr, taiwan, wenzhou13) or a spec such as 'mcr,multiple_winners=all'.")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="Matches to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run (same seed, same records).")
@click.option("--bots", default="random", show_default=True,
              help="Bot names, one for all seats or four comma-separated (random, efficiency).")
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
@click.option("--bot", default="efficiency", show_default=True, help="The three opponents' bot.")
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
        click.echo(f"{record}: {len(events)} events, {len(m.results)} hands replayed, every step legal; "
                   f"final scores {' '.join(map(str, m.scores))}; record {'identical' if same else 'DIFFERS'}")
    if not same:
        sys.exit(1)


def _score_botzone_win(w, r, row: dict) -> bool:
    """Score a rebuilt Botzone win with the MCR scorer; compare fans (names, counts, total) and scores."""
    from majiang.rules.mcr import WinConditions, score, settle

    cond = WinConditions(self_drawn=w.self_drawn, kong_replacement=w.after_kong and w.self_drawn,
                         robbing_kong=w.robbed_kong, last_of_kind=w.last_of_kind, seat_wind=w.seat_wind,
                         prevalent_wind=w.prevalent_wind)
    try:
        res = score(w.hand, cond)
    except MajiangError as e:
        row["error"] = f"scoring: {e}"
        return False
    ours = res.counts_zh()
    row["fan"] = res.total
    row["fans"] = [f"{n}*{c}" for n, c in ours.items()]
    row["fan_match"] = res.total == r.fan_total and ours == dict(r.fans)
    row["score_match"] = r.scores is not None and settle(res, w.seat, w.discarder) == r.scores
    return row["fan_match"] and row["score_match"]


@main.command()
@click.argument("codes")
@click.option("--baida", required=True, help="Hex code of the wildcard face, e.g. 0x40.")
def testhu(codes: str, baida: str) -> None:
    """The seed's TestHu on CODES (hex codes, e.g. "0x00 0x01 0x02 0x03 0x30"); prints true/false."""
    from majiang.seed import TestHu

    try:
        pai = [int(c, 16) for c in codes.replace(",", " ").split()]
        result = TestHu(pai, len(pai), int(baida, 16))
    except ValueError as e:
        raise _Fail(str(e)) from None
    click.echo("true" if result else "false")


if __name__ == "__main__":  # pragma: no cover
    main()
