"""The ``bot`` and ``tournament`` commands (registered in :mod:`majiang.cli`)."""

from __future__ import annotations

import json
import sys

import click

from majiang.errors import MajiangError


@click.command()
@click.option("--protocol", type=click.Choice(["botzone", "jsonl"]), default="botzone", show_default=True,
              help="Botzone's Chinese Standard Mahjong protocol, or our JSON-lines protocol.")
@click.option("--bot", "bot_name", default="efficiency", show_default=True,
              help="The majiang bot to play (efficiency, random, strong, learned, python:package.module:factory).")
@click.option("--simple", is_flag=True, help="Botzone: read the simple interaction instead of the one-line JSON.")
@click.option("--no-keep-running", is_flag=True, help="Botzone: answer one turn and exit (no keep-running line).")
@click.option("--rules", default="mcr", show_default=True, help="jsonl: the rule set the bot plays (preset or spec).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of a random bot.")
@click.option("--warm-up", type=float, default=1.0, show_default=True,
              help="Botzone, keep-running: seconds spent in the first turn building analysis tables.")
def bot(protocol: str, bot_name: str, simple: bool, no_keep_running: bool, rules: str, seed: int,
        warm_up: float) -> None:
    """Play a majiang bot over standard input/output.

    Botzone: upload a script that runs `majiang bot --protocol botzone` (keep-running by default;
    add --simple for the simple interaction). jsonl: events and requests one JSON object a line,
    one action object answered per request (docs/protocol.md). Bad input: a one-line error on
    stderr and exit status 2.
    """
    from majiang.engine.ruleset import RuleSet, resolve
    from majiang.players import make_bot

    try:
        rs = RuleSet.preset("mcr") if protocol == "botzone" else resolve(rules)
        player = make_bot(bot_name, rs, seed)
        if protocol == "botzone":
            from majiang.protocols.botzone import run_bot

            run_bot(player, simple=simple, keep_running=not no_keep_running, warm=warm_up)
        else:
            from majiang.protocols.jsonl import run_bot as run_jsonl

            run_jsonl(player, rs)
    except MajiangError as e:
        click.echo(f"majiang bot: {e}", err=True)
        sys.exit(2)
    except BrokenPipeError:  # the judge went away
        sys.exit(0)


@click.command()
@click.option("--protocol", type=click.Choice(["botzone", "jsonl"]), default="botzone", show_default=True,
              help="botzone: Botzone's rules under the local judge; jsonl: our engine under --rules.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="[NAME=]COMMAND",
              help="A built-in bot (efficiency, strong, random, learned, python:package.module:factory) or a shell command starting an external bot, "
                   "optionally NAME=...; repeat: four for --format duplicate, four or more for random.")
@click.option("--walls", type=click.IntRange(min=1), default=1, show_default=True,
              help="Walls to play (duplicate: 24 games each).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the walls and seatings.")
@click.option("--format", "fmt", type=click.Choice(["duplicate", "random"]), default="duplicate", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes playing games.")
@click.option("--records", type=click.Path(file_okay=False), help="Write each game's log and record into this folder.")
@click.option("--rules", default="mcr", show_default=True, help="jsonl: the rule set (preset or spec).")
@click.option("--time-limit", type=float, default=1.0, show_default=True,
              help="Seconds per request for external bots, times the language factor (Python 6, Java 3, ...; "
                   "from the command's first word or its program's #! line).")
@click.option("--bot-time", "bot_times", multiple=True, metavar="NAME=SECONDS|LANGUAGE",
              help="One external bot's limit per request in seconds, or its language (python, cpp, java, js, "
                   "csharp) whose factor multiplies --time-limit; repeat per bot.")
@click.option("--simple", is_flag=True, help="Botzone: external bots get the simple interaction.")
@click.option("--resume", is_flag=True, help="Continue the tournament whose records are in --records (same "
                                              "settings): play only the games not yet finished.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the results.")
def tournament(protocol: str, bots: tuple[str, ...], walls: int, seed: int, fmt: str, workers: int,
               records: str | None, rules: str, time_limit: float, bot_times: tuple[str, ...], simple: bool,
               resume: bool, as_json: bool) -> None:
    """A tournament between bots: duplicate (every wall in all 24 seatings) or random seatings.

    Per bot: score, mean with a 95% interval, ranking points, wins, faults, time; per pair of bots
    the paired difference by wall (docs/bots.md). SIGTERM stops every worker and bot."""
    from rich.progress import Progress

    from majiang.tournament import describe, run_tournament

    try:
        with Progress(transient=True, disable=as_json or not sys.stderr.isatty(),
                      console=None) as bar:
            task = bar.add_task("games", total=None)
            res = run_tournament(protocol, bots, walls=walls, seed=seed, fmt=fmt, workers=workers, records=records,
                                 rules=rules, time_limit=time_limit, simple=simple, bot_times=bot_times,
                                 resume=resume, progress=lambda k, n: bar.update(task, completed=k, total=n))
    except MajiangError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo("majiang tournament: stopped; every worker and bot was stopped"
                   + (" (--resume continues it)" if records else ""), err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(res, ensure_ascii=False))
    else:
        click.echo(describe(res))
