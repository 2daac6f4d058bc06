"""Self-play and evaluation at scale: the ``majiang selfplay`` command and :func:`run_selfplay`.

Games are cut into **chunks** of consecutive game numbers. Game ``g`` is the match seeded with
``derive_seed(seed, "game", g)`` and player ``p``'s bot with ``derive_seed(seed, "game", g, "bot", p)``
(the seeds of ``majiang simulate``), so a game's record depends on the master seed and its number
only -- not on the chunk, the worker, the executor or the order chunks finish in. The ``digest`` is the
SHA-256 of every game's record (the JSON-lines text, each ending in a newline) in game order:
equal for ``--executor process`` and ``ray`` and for any worker count.

Executors:

* ``process`` -- a :class:`concurrent.futures.ProcessPoolExecutor` with ``--workers`` processes; a
  chunk whose worker died (the pool breaks) is submitted again to a new pool (up to 3 times). The
  workers exit when the master is gone (killed with SIGKILL too: :func:`_exit_with_parent`).
* ``ray`` (``pip install -e '.[ray]'`` in a checkout; majiang is not on PyPI) --
  ``ray.init(num_cpus=workers)`` locally, or ``ray.init(address=...)`` to join a running cluster:
  ``--address host:6379`` (the GCS address ``ray start --head`` prints) or ``ray://host:10001``
  (Ray Client, ``ray[client]``); without ``--address`` the environment's ``RAY_ADDRESS`` (set on
  a cluster's nodes) is joined the same way. An address where nothing listens is refused at once.
  A cluster with token authentication (``ray start`` where ``~/.ray/auth_token`` exists) needs
  ``RAY_AUTH_MODE=token`` in the environment: Ray sends the token to an explicit address only then.
  ``--address`` alone implies ``--executor ray``; with ``--executor process`` it is an error. Chunk
  tasks carry ``max_retries=3``, so Ray reruns a chunk whose worker died.

Records and resuming: with ``--records DIR`` each game is written to ``DIR/game-000123.jsonl``
and the run's parameters to ``DIR/selfplay.json``. A later run with the same parameters and folder
reads the complete records already there (replaying each through the engine to recover its
figures) and plays only the missing games and those whose record was cut short; different
parameters are refused, and so is a complete record that does not replay (the error names the file;
it is left alone -- move it away to have that game played again).

With ``--json`` stdout carries the JSON object alone: during the run file descriptor 1 points at
stderr, so whatever else writes there (Ray's "worker died ... will be retried" lines) goes to stderr.

Aggregates (``--json``): ``games``, ``hands``, ``digest``, ``games_per_second`` (games played in
this run over ``seconds``, the time after the executor started -- the replay of resumed records
comes before and does not count either; ``startup_seconds`` is the set-up
before the first game: for processes the common tables built and frozen out of the garbage
collector (``gc.freeze``) before the pool forks, for Ray ``ray.init`` and its workers' start, each
importing majiang and building and freezing the tables first); ``seconds`` ends when the last
game's result arrives, so the executor's teardown (the pool's exit, ``ray.shutdown``: about 1.3 s on
2 cores) does not count either; and per bot name
(over every player slot it fills) ``games`` (seat-games: a bot in two seats of 192 games has 384),
``mean_score`` (final match score), ``ci95`` (half-width of the normal 95% interval of the mean,
1.96 s/sqrt(n), each seat-game taken as independent -- seats of one game are not; for a paired
comparison of bots use ``benchmarks/bench_strong.py``), ``win_rate`` and ``deal_in_rate`` (share
of hands it won / fed the winning tile, a robbed kong included), plus the same per player slot.
Without ``--max-hands`` each game is the whole match.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from majiang.engine import Match, derive_seed, resolve, run_match
from majiang.errors import MajiangError
from majiang.players import make_bot

MANIFEST = "selfplay.json"
EXECUTORS = ("process", "ray")


class _Fail(click.ClickException):
    exit_code = 2  # bad input, as every majiang command


class SelfplayError(MajiangError):
    """Bad self-play arguments, a records folder from another run or that cannot be made, a record
    that does not replay, a Ray cluster that cannot be joined, or ray missing."""


@dataclass(frozen=True)
class GameSummary:
    """One game: its number, record text, final score per player, hands, wins and deal-ins per player."""

    game: int
    record: str
    scores: tuple[int, ...]
    hands: int
    wins: tuple[int, ...]
    deal_ins: tuple[int, ...]


def _summarise(g: int, m: Match, record: str) -> GameSummary:
    wins = [0, 0, 0, 0]
    feeds = [0, 0, 0, 0]
    for res in m.results:
        fed = set()
        for w in res.wins:
            wins[m.player_at_seat[w.winner]] += 1
            if w.discarder is not None:
                fed.add(m.player_at_seat[w.discarder])
        for p in fed:
            feeds[p] += 1
    scores = tuple(m.scores[m.seat_of_player[p]] for p in range(4))
    return GameSummary(g, record, scores, len(m.results), tuple(wins), tuple(feeds))


def play_game(spec: str, seed: int, bots: Sequence[str], g: int, max_hands: int | None) -> GameSummary:
    """Play game ``g`` of a run (see the module doc)."""
    from majiang.records.jsonl import record_lines

    rs = resolve(spec)
    players = [make_bot(bots[p], rs, derive_seed(seed, "game", g, "bot", p)) for p in range(4)]
    m = Match(rs, seed=derive_seed(seed, "game", g), names=[f"{bots[p]}-{p}" for p in range(4)],
              max_hands=max_hands)
    run_match(m, players)
    return _summarise(g, m, "\n".join(record_lines(m)) + "\n")


def play_chunk(spec: str, seed: int, bots: Sequence[str], games: Sequence[int],
               max_hands: int | None) -> list[GameSummary]:
    """Play the games numbered ``games`` (one chunk)."""
    return [play_game(spec, seed, bots, g, max_hands) for g in games]


def _read_game(path: Path, g: int) -> GameSummary | None:
    """A complete record on disk, replayed for its figures; ``None`` if missing or cut short (a
    crash while writing: the game is played again). A complete record that does not replay raises
    :class:`SelfplayError` naming the file: it is left alone, not overwritten."""
    from majiang.records.jsonl import replay

    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if not lines or not text.endswith("\n") or '"type":"end_game"' not in lines[-1]:
        return None
    try:
        m = replay(lines)
    except (ValueError, KeyError, TypeError, IndexError) as e:  # RecordError and malformed events
        raise SelfplayError(f"{path}: {e} -- a complete record that does not replay (edited, or written by "
                            "another version); move it away to have that game played again") from None
    return _summarise(g, m, text)


def _ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    if n < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def aggregate(summaries: Sequence[GameSummary], bots: Sequence[str]) -> dict[str, Any]:
    """The figures of a run from its games in game order (see the module doc)."""
    h = hashlib.sha256()
    for s in summaries:
        h.update(s.record.encode("utf-8"))
    hands = sum(s.hands for s in summaries)

    def block(players: Sequence[int]) -> dict[str, Any]:
        xs = [float(s.scores[p]) for s in summaries for p in players]
        mean, ci = _ci(xs)
        hh = max(hands * len(players), 1)
        return {"games": len(xs), "mean_score": mean, "ci95": ci,
                "win_rate": sum(s.wins[p] for s in summaries for p in players) / hh,
                "deal_in_rate": sum(s.deal_ins[p] for s in summaries for p in players) / hh}

    by_bot = {}
    for name in dict.fromkeys(bots):
        by_bot[name] = block([p for p in range(4) if bots[p] == name])
    return {"games": len(summaries), "hands": hands, "digest": h.hexdigest(), "bots": by_bot,
            "players": [dict(bot=bots[p], **block([p])) for p in range(4)]}


def _chunks(todo: Sequence[int], size: int) -> list[list[int]]:
    return [list(todo[i:i + size]) for i in range(0, len(todo), size)]


def _context() -> Any:
    """``fork`` where the platform has it (Linux, macOS): workers start with the parent's imports and
    warm tables instead of importing and filling them again each; else the platform default."""
    import multiprocessing as mp

    return mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None


def _warm(spec: str) -> None:
    """Fill what every worker would otherwise build on its own before the pool forks: the common
    blocks of the analysis tables (about 0.3 s, :func:`~majiang.analysis.tables.build_blocks`), the
    rule set's scorer and the record writer. Costs the same for any worker count."""
    from majiang.analysis.tables import build_blocks
    from majiang.records import jsonl  # noqa: F401  (imported for the workers)

    # every block of up to 9 tiles (6,085, about 0.3 s) rather than the 982 of up to 7 that a single
    # game builds first: the rest would be filled by each worker on its own during its first games.
    # Measured on 2 cores, 192 MCR games, games/s with 2 workers over 1: process 1.85 -> 1.89, Ray
    # 1.83 -> 1.89.
    build_blocks(9)
    resolve(spec).scorer_object()


def _ray_task(spec: str, seed: int, bots: Sequence[str], games: Sequence[int], max_hands: int | None,
              warm: bool = False) -> list[GameSummary] | int:
    """A Ray task: :func:`play_chunk`, or with ``warm`` :func:`_warm` in the worker (then its tables
    frozen out of the collector) and its process id. One remote function for both, so each worker
    has loaded it during the warm-up and the first chunks start at once."""
    if not warm:
        return play_chunk(spec, seed, bots, games, max_hands)
    _warm(spec)
    gc.collect()
    gc.freeze()  # the worker's own process: its tables stay out of the collector's passes
    return os.getpid()


def _exit_with_parent(parent: int, interval: float = 0.5) -> None:
    """Pool initializer: end this worker process when its parent ``parent`` (a process id) is gone.

    A master killed with SIGKILL cannot shut its pool down, and its workers would otherwise wait for
    work forever. On Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (through ctypes) has the kernel kill
    the worker at once; everywhere a daemon thread also checks ``os.getppid()`` every ``interval``
    seconds and exits the worker (``os._exit``) once the parent changed. Nothing is lost: the
    records are written by the master."""
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass  # the watch thread below still works
    if os.getppid() != parent:  # the parent died before the worker was set up
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="majiang-parent-watch", daemon=True).start()


def _run_process(job: tuple, chunks: list[list[int]], workers: int, done: Callable[[list[GameSummary]], None],
                 fn: Callable[..., list[GameSummary]] = play_chunk) -> float:
    """Run ``fn`` (:func:`play_chunk`) on every chunk; a pool broken by a dead worker is replaced and
    the chunks not yet done are submitted again. Returns the seconds the warm-up took (the tables
    built and frozen before the pool starts: set-up, as Ray's start-up, not game speed)."""
    t0 = time.perf_counter()
    _warm(job[0])
    # The tables every game reads (analysis blocks, scorer caches, imports) are long-lived: frozen out
    # of the garbage collector before the pool forks, the workers' full collections do not walk them
    # and their pages stay shared (CPython's advice for pre-fork servers). Measured on 2 cores, 384
    # MCR games: 2 workers 20.7 -> 24.1 games/s, 1 worker 11.5 -> 12.0.
    gc.collect()
    gc.freeze()
    startup = time.perf_counter() - t0
    try:
        _run_pool(job, chunks, workers, done, fn)
    finally:
        gc.unfreeze()
    return startup


def _run_pool(job: tuple, chunks: list[list[int]], workers: int, done: Callable[[list[GameSummary]], None],
              fn: Callable[..., list[GameSummary]]) -> None:
    pending = list(chunks)
    attempts = 0
    while pending:
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                                     initializer=_exit_with_parent, initargs=(os.getpid(),)) as pool:
                futs = {pool.submit(fn, *job[:3], c, job[3]): tuple(c) for c in pending}
                while futs:
                    finished, _ = wait(futs, return_when=FIRST_COMPLETED)
                    for f in finished:
                        c = futs.pop(f)
                        done(f.result())
                        pending.remove(list(c))
        except BrokenProcessPool:
            attempts += 1
            if attempts > 3:
                raise SelfplayError("worker processes keep dying; giving up") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once a Ray address (``host:port`` or ``ray://host:port``) where nothing listens:
    ``ray.init`` would keep retrying for minutes. ``auto`` and addresses without a port are left
    to Ray. Raises :class:`SelfplayError` naming the address."""
    import socket

    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise SelfplayError(f"could not connect to the Ray cluster at {address!r} ({e}); start it with "
                            "'ray start --head' there, or leave out --address for a local Ray") from None


def _auth_hint() -> str:
    """A hint for a failed join: Ray (2.5x on) starts clusters with token authentication where a token
    exists (``~/.ray/auth_token``), but a driver given an explicit address sends the token only with
    ``RAY_AUTH_MODE=token`` in its environment; without it the join fails after a few retries."""
    if os.environ.get("RAY_AUTH_MODE") is None and (Path.home() / ".ray" / "auth_token").exists():
        return ("; if the cluster uses token authentication (~/.ray/auth_token exists here), "
                "set RAY_AUTH_MODE=token")
    return ""


def _run_ray(job: tuple, chunks: list[list[int]], workers: int, address: str | None,
             done: Callable[[list[GameSummary]], None]) -> float:
    """Run the chunks as Ray tasks; returns the seconds ``ray.init`` and the workers' warm-up took.

    ``address`` (``--address``), else the environment's ``RAY_ADDRESS`` (unless ``local``), is a
    running cluster to join: checked for a listener first (:func:`_check_reachable`), then
    ``ray.init(address=...)``; without either a local Ray with ``num_cpus=workers``. Raises
    :class:`SelfplayError` naming the address and where it came from when it cannot be joined."""
    try:
        import ray
    except ImportError:
        raise SelfplayError("--executor ray needs ray: pip install -e '.[ray]' in a majiang checkout") from None
    started = False
    t0 = time.perf_counter()
    if not ray.is_initialized():
        # no address given on a cluster node (RAY_ADDRESS set, as `ray start` and job submission do):
        # join that cluster, as ray.init would -- it refuses num_cpus when it joins one
        env = os.environ.get("RAY_ADDRESS", "").strip()
        where = "--address"
        if not address and env and env != "local":
            address, where = env, "RAY_ADDRESS"
        if address:
            try:
                _check_reachable(address)
            except SelfplayError as e:
                hint = "; unset it for a local Ray" if where == "RAY_ADDRESS" else ""
                raise SelfplayError(f"{e} (from {where}{hint})") from None
            try:
                ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as e:  # unreachable, refused, bad address
                raise SelfplayError(f"could not connect to the Ray cluster at {address!r} (from {where}): {e}"
                                    f"{_auth_hint()}") from None
        else:
            ray.init(num_cpus=workers, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
        started = True
    try:
        # start the workers and let each import majiang and build the common tables before the
        # clock runs (as the process pool's workers inherit them): Ray's start-up, not game speed
        remote = ray.remote(max_retries=3)(_ray_task)
        ray.get([remote.remote(*job[:3], [], job[3], True) for _ in range(workers)])
        startup = time.perf_counter() - t0
        refs = [remote.remote(*job[:3], c, job[3]) for c in chunks]
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            for r in ready:
                done(ray.get(r))
    finally:
        if started:
            ray.shutdown()
    return startup


def run_selfplay(rules: str, games: int, bots: Sequence[str], *, workers: int = 1, executor: str = "process",
                 address: str | None = None, seed: int = 0, records: Path | None = None,
                 max_hands: int | None = None, chunk_size: int = 4,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` matches between ``bots`` (one name or four) and aggregate (module doc).

    ``progress(done, total)`` is called as games finish. Raises :class:`SelfplayError` for bad
    arguments, a records folder of another run, or ray missing; :class:`RuleSetError` for an
    unknown rule set or bot."""
    if games < 1:
        raise SelfplayError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise SelfplayError(f"workers must be at least 1, got {workers}")
    if chunk_size < 1:
        raise SelfplayError(f"chunk size must be at least 1, got {chunk_size}")
    if executor not in EXECUTORS:
        raise SelfplayError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    names = [b.strip() for b in bots if b.strip()]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise SelfplayError(f"give one bot name or four, got {len(names)}")
    rs = resolve(rules)
    for n in names:
        make_bot(n, rs)
    spec = rules
    params = {"rules": rs.to_options(), "seed": seed, "bots": names, "max_hands": max_hands}
    results: dict[int, GameSummary] = {}
    if records is not None:
        records = Path(records)
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SelfplayError(f"cannot create the records folder {records}: {e.strerror or e}") from None
        mf = records / MANIFEST
        if mf.exists():
            old = json.loads(mf.read_text(encoding="utf-8"))
            now = json.loads(json.dumps(params))
            differ = [k for k in params if old.get(k) != now[k]]
            if differ:
                what = "; ".join(f"{k} {old.get(k)!r} there, {now[k]!r} now" for k in differ)
                raise SelfplayError(f"{records} holds records of another run ({what}); use a new folder "
                                    "or the same settings")
        try:
            mf.write_text(json.dumps(params, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as e:
            raise SelfplayError(f"cannot write {mf}: {e.strerror or e}") from None
        for g in range(games):
            got = _read_game(records / f"game-{g:06d}.jsonl", g)
            if got is not None:
                results[g] = got
    resumed = len(results)
    todo = [g for g in range(games) if g not in results]
    t0 = time.perf_counter()
    if progress is not None:
        progress(len(results), games)

    last = [t0]  # when the last game of this run came back

    def done(chunk: list[GameSummary]) -> None:
        last[0] = time.perf_counter()
        for s in chunk:
            results[s.game] = s
            if records is not None:
                tmp = records / f"game-{s.game:06d}.jsonl.part"
                tmp.write_text(s.record, encoding="utf-8")
                tmp.replace(records / f"game-{s.game:06d}.jsonl")
        if progress is not None:
            progress(len(results), games)

    job = (spec, seed, names, max_hands)
    chunks = _chunks(todo, chunk_size)
    startup = 0.0
    if chunks:
        if executor == "ray":
            startup = _run_ray(job, chunks, workers, address, done)
        else:
            startup = _run_process(job, chunks, workers, done)
    # the games' time: from the end of the set-up to the last game's result, so neither the set-up
    # (Ray's start, the warm tables) nor the teardown (the pool's exit, ``ray.shutdown``, ~1.3 s) counts
    elapsed = last[0] - t0 - startup
    out = {"rules": spec, "seed": seed, "executor": executor, "workers": workers, "chunk_size": chunk_size}
    out.update(aggregate([results[g] for g in range(games)], names))
    played = games - resumed
    out.update({"resumed": resumed, "played": played, "seconds": elapsed, "startup_seconds": startup,
                "games_per_second": played / elapsed if elapsed > 0 and played else 0.0})
    return out


def describe(stats: dict[str, Any]) -> str:
    lines = [f"{stats['games']} game(s) ({stats['resumed']} resumed), {stats['hands']} hands, rules {stats['rules']}, "
             f"{stats['executor']} x{stats['workers']}, {stats['games_per_second']:.2f} games/s",
             f"digest {stats['digest']}"]
    for name, b in stats["bots"].items():
        lines.append(f"{name:>12}: {b['games']} games, mean score {b['mean_score']:+.2f} ± {b['ci95']:.2f}, "
                     f"win {100 * b['win_rate']:.1f}%, deal-in {100 * b['deal_in_rate']:.1f}%")
    return "\n".join(lines)


@contextlib.contextmanager
def _stdout_to_stderr(active: bool = True) -> Iterator[None]:
    """While active, file descriptor 1 (and ``sys.stdout``) point at stderr, so that whatever the run
    writes to stdout -- Ray's "worker died ... will be retried" lines from C++, a print in a worker
    forked meanwhile, a library's notice -- lands on stderr and ``--json`` prints its object alone.
    Restored (Python's buffer flushed first) on the way out. Without a file descriptor 1 or 2 only
    ``sys.stdout`` is redirected."""
    if not active:
        yield
        return
    saved = None
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        if saved is not None:
            os.close(saved)
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        try:
            sys.stdout.flush()  # Python-level writes of the run still buffered: to fd 1, i.e. stderr
        except (OSError, ValueError):
            pass
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


@click.command()
@click.option("--rules", default="mcr", show_default=True, help="Rule set preset or spec (see simulate).")
@click.option("--games", type=click.IntRange(min=1), default=16, show_default=True, help="Matches to play.")
@click.option("--bots", default="efficiency", show_default=True,
              help="Bot names, one for all seats or four comma-separated (random, efficiency, strong, learned, "
                   "python:package.module:factory).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes / Ray CPUs.")
@click.option("--executor", type=click.Choice(EXECUTORS), default="process", show_default=True)
@click.option("--address", default=None,
              help="A running Ray cluster: host:6379 (ray start --head) or ray://host:10001 (Ray Client); "
                   "implies --executor ray. Without it --executor ray joins RAY_ADDRESS if set.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed of the run.")
@click.option("--records", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of game records; a run with the same parameters resumes from it.")
@click.option("--max-hands", type=click.IntRange(min=1),
              help="Stop each match after this many hands (default: the whole match).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=4, show_default=True, help="Games per chunk.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the aggregates and the digest.")
def selfplay(rules: str, games: int, bots: str, workers: int, executor: str, address: str | None, seed: int,
             records: Path | None, max_hands: int | None, chunk_size: int, as_json: bool) -> None:
    """Bot self-play at scale: chunks of games on worker processes or Ray, aggregates and a digest."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    ctx = click.get_current_context()
    given = ctx.get_parameter_source("executor") not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)
    if address and given and executor != "ray":
        raise _Fail(f"--address {address} is a Ray cluster: use --executor ray (or leave --executor out), "
                    f"not --executor {executor}")
    if address:
        executor = "ray"
    t0 = time.perf_counter()
    try:
        with _stdout_to_stderr(as_json), Progress(TextColumn("selfplay"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), transient=True,
                      disable=as_json or not sys.stderr.isatty()) as bar:
            task = bar.add_task("selfplay", total=games, rate="")
            first: list[int] = []

            def progress(n: int, total: int) -> None:
                if not first:
                    first.append(n)
                dt = time.perf_counter() - t0
                rate = f"{(n - first[0]) / dt:.2f} games/s" if dt > 0 else ""
                bar.update(task, completed=n, rate=rate)

            stats = run_selfplay(rules, games, bots.split(","), workers=workers, executor=executor,
                                 address=address, seed=seed, records=records, max_hands=max_hands,
                                 chunk_size=chunk_size, progress=progress)
    except ValueError as e:
        raise _Fail(str(e)) from None
    click.echo(json.dumps(stats, ensure_ascii=False) if as_json else describe(stats))
