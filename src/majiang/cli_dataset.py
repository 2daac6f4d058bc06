"""``majiang dataset``: training samples from records, Botzone logs or fresh self-play
(:mod:`majiang.rl.dataset`; docs/learned.md). Needs numpy (a core dependency)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from majiang.errors import MajiangError


@click.command("dataset")
@click.option("--from", "source", type=click.Choice(["records", "botzone", "selfplay"]), required=True,
              help="records: our JSON-lines records (files or folders); botzone: Botzone logs (none given: the "
                   "shipped sample); selfplay: fresh games between --bots.")
@click.option("--obs", "observation", type=click.Choice(["majiang-v1", "botzone-v0"]), default="majiang-v1",
              show_default=True, help="Observation encoding (docs/rl.md).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the shards and manifest.json (must not hold a dataset already).")
@click.option("--rules", default="mcr", show_default=True, help="selfplay: rule set preset or spec.")
@click.option("--bots", default="strong", show_default=True,
              help="selfplay: one bot name for all seats or four comma-separated (random, efficiency, strong, "
                   "learned, python:pkg.mod:factory).")
@click.option("--games", type=click.IntRange(min=1), default=4, show_default=True, help="selfplay: matches.")
@click.option("--max-hands", type=click.IntRange(min=1), help="selfplay: stop each match after this many hands.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="selfplay: seed of the run (game g as in `majiang selfplay`).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="selfplay: processes.")
@click.option("--executor", type=click.Choice(["process", "ray"]), default="process", show_default=True,
              help="selfplay: worker processes, or Ray (pip install 'majiang[ray]').")
@click.option("--format", "fmt", type=click.Choice(["npz", "parquet"]), default="npz", show_default=True,
              help="Shard format (parquet needs pyarrow).")
@click.option("--shard-size", type=click.IntRange(min=1), default=4096, show_default=True, help="Samples per shard.")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as one JSON object.")
@click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))
def dataset(source: str, observation: str, out: Path, rules: str, bots: str, games: int, max_hands: int | None,
            seed: int, workers: int, executor: str, fmt: str, shard_size: int, as_json: bool,
            inputs: tuple[Path, ...]) -> None:
    """Write training samples (observation, action mask, action, seat, score change, game id, step) as
    shards with a manifest. INPUTS: record files/folders (--from records) or Botzone logs (--from botzone).

    \b
    majiang dataset --from botzone --out data/bz
    majiang dataset --from records --out data/rec records/
    majiang dataset --from selfplay --bots strong --games 8 --workers 2 --out data/strong
    """
    from majiang.rl.dataset import build

    if source == "selfplay" and inputs:
        click.echo("majiang dataset: --from selfplay takes no INPUTS", err=True)
        sys.exit(2)
    try:
        m = build(source, out, inputs=inputs, rules=rules, observation=observation,
                  bots=[b for b in bots.split(",") if b.strip()], games=games, seed=seed, workers=workers,
                  executor=executor, max_hands=max_hands, fmt=fmt, shard_size=shard_size)
    except MajiangError as e:
        click.echo(f"majiang dataset: {e}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(m, ensure_ascii=False))
    else:
        click.echo(f"{m['samples']} samples from {m['games']} games ({m['source']}, {m['rules_name']}, "
                   f"{m['observation']} {tuple(m['shape'])}) in {len(m['shards'])} shard(s) under {out}")
