"""Bot protocol and tournament speed (issue 14), each figure beside its target as a ratio.

    python benchmarks/bench_bot.py [--requests N] [--turns N] [--walls N] [--workers K]
    python benchmarks/bench_bot.py --property 1000     # the 1,000-game property run

Figures:

* **keep-running**: ``majiang bot --protocol botzone`` (efficiency bot) started once, then fed one
  request per line; latency from writing a request to reading the keep-running line, p50 / p99
  (target: p99 under 5 ms). The requests are those seat 0 received in judge games of four
  efficiency bots, so the (deterministic) bot under test answers as in those games and the stream
  stays consistent. Also the bot's own time per request in-process (no pipes, no scheduling), from
  empty analysis tables, without and with the first-turn warm-up, in wall-clock and in the
  thread's CPU time (on a shared, loaded machine the wall clock includes waiting for a core).
* **process per turn**: the JSON form, a fresh ``python -m majiang.cli bot --no-keep-running`` (and
  the lighter ``python -m majiang.protocols.botzone --no-keep-running``) per turn with the whole
  history, start-up included (target: under 300 ms); wall clock and the child's CPU time; with
  ``.pyc`` files (as an installed package has them) and without (every start compiles the sources).
* **tournament**: a duplicate tournament of four built-in bots in-process (games per second per
  core, target at least 20; after one warm-up wall, as the analysis tables are built lazily), and
  with ``--workers`` processes (scaling; each worker builds its own tables); also games per CPU
  second (the workers' CPU included), which stays flat as workers are added when they scale.
* ``--property N``: N games of random external-style bots (subprocesses: the example bots of
  ``docs/examples``, half Botzone under the judge, half JSON lines under Wenzhou/Taiwan/MCR) --
  every game ends, zero-sum, every record replays. Prints the time taken.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from majiang.engine.ruleset import RuleSet
from majiang.players import make_bot
from majiang.protocols.botzone import KEEP_RUNNING
from majiang.protocols.judge import EnginePlayer, play_game, shuffled_wall
from majiang.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


class _Recorder(EnginePlayer):
    def __init__(self, *a):
        super().__init__(*a)
        self.log: list[tuple[str, str]] = []

    def ask(self, request: str) -> str:
        ans = super().ask(request)
        self.log.append((request, ans))
        return ans

    def answer_state(self, state, legal):  # the judge feeds in-process players its own state
        ans = super().answer_state(state, legal)
        self.log.append((" ".join(state.request), ans))
        return ans


def request_streams(games: int) -> list[list[tuple[str, str]]]:
    rs = RuleSet.preset("mcr")
    out = []
    for g in range(games):
        rec = _Recorder("eff", make_bot("efficiency", rs))
        players = [rec] + [EnginePlayer(f"e{s}", make_bot("efficiency", rs)) for s in (1, 2, 3)]
        play_game(players, shuffled_wall(random.Random(g)), g % 4)
        out.append(rec.log)
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_keep_running(n: int) -> dict:
    lat: list[float] = []
    for stream in request_streams(max(1, n // 150 + 1)):
        p = subprocess.Popen([sys.executable, "-m", "majiang.cli", "bot"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)
        assert p.stdin and p.stdout
        p.stdin.write(json.dumps({"requests": [stream[0][0]], "responses": []}) + "\n")
        p.stdin.flush()
        first = True
        for req, want in stream:
            t0 = time.perf_counter()
            if not first:
                p.stdin.write(req + "\n")
                p.stdin.flush()
            line = p.stdout.readline()
            assert p.stdout.readline().strip() == KEEP_RUNNING
            dt = time.perf_counter() - t0
            got = json.loads(line)["response"]
            assert got == want, (req, got, want)
            if not first:
                lat.append(dt)
            first = False
        p.stdin.close()
        p.wait()
        if len(lat) >= n:
            break
    return {"requests": len(lat), "p50_ms": 1000 * pct(lat, 0.5), "p99_ms": 1000 * pct(lat, 0.99),
            "max_ms": 1000 * max(lat)}


def bench_compute(n: int, warm: float) -> dict:
    """The same keep-running loop in this process over in-memory streams: the bot's own time per
    request (tables emptied before each game, ``warm`` seconds of warm-up in the first turn), no pipes."""
    import io

    from majiang.analysis.tables import clear_caches
    from majiang.protocols.botzone import run_bot

    from majiang.players import efficiency

    streams = request_streams(max(1, n // 150 + 1))
    lat: list[float] = []
    cpu: list[float] = []
    for stream in streams:
        clear_caches()  # each game a fresh bot process
        efficiency._USEFUL_MEMO.clear()
        text = json.dumps({"requests": [stream[0][0]], "responses": []}) + "\n"
        text += "".join(r + "\n" for r, _ in stream[1:])
        ts: list[float] = []
        cs: list[float] = []
        last = [time.thread_time()]

        def on_answer(dt: float) -> None:
            ts.append(dt)
            now = time.thread_time()  # this thread's CPU time: the load of other processes left out
            cs.append(now - last[0])
            last[0] = now

        run_bot(make_bot("efficiency", RuleSet.preset("mcr")), io.StringIO(text), io.StringIO(), warm=warm,
                on_answer=on_answer)
        lat += ts[1:]
        cpu += cs[1:]
        if len(lat) >= n:
            break
    return {"requests": len(lat), "p50_ms": 1000 * pct(lat, 0.5), "p99_ms": 1000 * pct(lat, 0.99),
            "max_ms": 1000 * max(lat), "cpu_p99_ms": 1000 * pct(cpu, 0.99), "cpu_max_ms": 1000 * max(cpu)}


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bench_per_turn(turns: int, module: str = "majiang.cli", bytecode: bool = True) -> dict:
    """``bytecode``: the bot process reads ``.pyc`` files (written to a private cache by a first
    run, as an installed package has them); else it runs a copy of majiang without them, so every
    start compiles majiang's sources (the standard library keeps its own). CPU = the child's user +
    system time (unaffected by other load)."""
    import shutil

    stream = request_streams(1)[0]
    idx = [i for i, (r, _) in enumerate(stream) if r.startswith("2 ")][:turns]
    env = dict(os.environ)
    tmp = tempfile.mkdtemp(prefix="majiang-bench-")
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = tmp
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
        shutil.copytree(ROOT / "src" / "majiang", Path(tmp) / "majiang", ignore=shutil.ignore_patterns("__pycache__"))
        env["PYTHONPATH"] = tmp
    cmd = [sys.executable, "-m", module] + (["bot"] if module == "majiang.cli" else []) + ["--no-keep-running"]
    if bytecode:  # one run first, to write the .pyc files
        subprocess.run(cmd, input=json.dumps({"requests": ["0 0 0"], "responses": []}) + "\n", capture_output=True,
                       text=True, env=env)
    times = []
    cpus = []
    for i in idx:
        reqs = [r for r, _ in stream[:i + 1]]
        resps = [a for _, a in stream[:i]]
        c0 = _children_cpu()
        t0 = time.perf_counter()
        out = subprocess.run(cmd, input=json.dumps({"requests": reqs, "responses": resps}) + "\n",
                             capture_output=True, text=True, check=True, env=env)
        times.append(time.perf_counter() - t0)
        cpus.append(_children_cpu() - c0)
        assert json.loads(out.stdout.splitlines()[0])["response"] == stream[i][1]
    shutil.rmtree(tmp, ignore_errors=True)
    return {"turns": len(times), "mean_ms": 1000 * statistics.mean(times), "max_ms": 1000 * max(times),
            "cpu_mean_ms": 1000 * statistics.mean(cpus), "cpu_max_ms": 1000 * max(cpus)}


def bench_tournament(walls: int, workers: int) -> dict:
    bots = ["efficiency", "random", "efficiency", "random"]
    run_tournament("botzone", bots, walls=1, seed=99)  # warm the analysis tables (built lazily)
    c0 = time.process_time()
    res1 = run_tournament("botzone", bots, walls=walls, seed=1)
    cpu1 = time.process_time() - c0
    out = {"games": res1["games"], "seconds_1": res1["seconds"], "games_per_s_1": res1["games"] / res1["seconds"],
           "games_per_cpu_s_1": res1["games"] / cpu1}
    if workers > 1:
        c0 = time.process_time() + _children_cpu()
        resk = run_tournament("botzone", bots, walls=walls, seed=1, workers=workers)
        cpuk = time.process_time() + _children_cpu() - c0  # the workers' CPU counts once they have exited
        out.update(seconds_k=resk["seconds"], games_per_s_k=resk["games"] / resk["seconds"], workers=workers,
                   games_per_cpu_s_k=resk["games"] / cpuk)
        assert [b["score"] for b in resk["bots"]] == [b["score"] for b in res1["bots"]]  # same games
    return out


def property_run(games: int) -> dict:
    from majiang.records.jsonl import replay_file

    bz = f"{sys.executable} {EXAMPLES / 'botzone_random.py'}"
    jl = f"{sys.executable} {EXAMPLES / 'jsonl_random.py'}"
    t0 = time.perf_counter()
    played = 0
    with tempfile.TemporaryDirectory() as d:
        half = games // 2
        r = run_tournament("botzone", [f"a={bz}", f"b={bz}", "random", f"c={bz}"], walls=half, seed=7, fmt="random",
                           records=Path(d) / "bz", time_limit=10.0, workers=min(2, os.cpu_count() or 1))
        assert sum(b["score"] for b in r["bots"]) == 0 and r["games"] == half
        assert not any(b["illegal"] or b["timeouts"] or b["crashes"] for b in r["bots"]), r
        played += r["games"]
        for rules in ("wenzhou", "taiwan", "mcr"):
            k = (games - half) // 3 + (1 if rules == "mcr" else 0) * ((games - half) % 3)
            r = run_tournament("jsonl", [f"a={jl}", f"b={jl}", "random", f"c={jl}"], walls=k, seed=7,
                               fmt="random", rules=rules, records=Path(d) / rules, time_limit=10.0,
                               workers=min(2, os.cpu_count() or 1))
            assert sum(b["score"] for b in r["bots"]) == 0 and r["games"] == k
            assert not any(b["illegal"] or b["timeouts"] or b["crashes"] for b in r["bots"]), r
            played += r["games"]
        n = 0
        for p in Path(d).rglob("*.jsonl"):
            replay_file(p)
            n += 1
        assert n == played
    return {"games": played, "records_replayed": n, "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=600)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--walls", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--property", type=int, default=0, help="run the N-game property run instead")
    a = ap.parse_args()
    if a.property:
        r = property_run(a.property)
        print(f"property run: {r['games']} games of subprocess bots (both protocols) ended cleanly, zero-sum; "
              f"{r['records_replayed']} records replayed; {r['seconds']:.1f} s")
        return
    k = bench_keep_running(a.requests)
    print(f"keep-running, efficiency bot: {k['requests']} requests, p50 {k['p50_ms']:.2f} ms, p99 {k['p99_ms']:.2f} ms "
          f"(target 5 ms: {k['p99_ms'] / 5:.2f}x), max {k['max_ms']:.1f} ms")
    for warm in (0.0, 1.0):
        c = bench_compute(a.requests, warm)
        print(f"  the bot's own time per request (in-process, fresh tables, warm-up {warm:.0f} s): p50 "
              f"{c['p50_ms']:.2f} ms, p99 {c['p99_ms']:.2f} ms (target 5 ms: {c['p99_ms'] / 5:.2f}x), "
              f"max {c['max_ms']:.1f} ms; CPU time p99 {c['cpu_p99_ms']:.2f} ms, max {c['cpu_max_ms']:.1f} ms")
    for module, bytecode in [(m, b) for b in (True, False) for m in ("majiang.cli", "majiang.protocols.botzone")]:
        t = bench_per_turn(a.turns, module, bytecode)
        how = ".pyc files" if bytecode else "no .pyc files: sources compiled at each start"
        print(f"process per turn (JSON form, start-up included, {how}), python -m {module}: mean {t['mean_ms']:.0f} ms, "
              f"max {t['max_ms']:.0f} ms over {t['turns']} turns (target 300 ms: {t['mean_ms'] / 300:.2f}x); "
              f"CPU time mean {t['cpu_mean_ms']:.0f} ms, max {t['cpu_max_ms']:.0f} ms")
    b = bench_tournament(a.walls, a.workers)
    line = (f"duplicate tournament, 4 built-in bots, {b['games']} games: {b['games_per_s_1']:.1f} games/s on 1 core "
            f"(target 20: {b['games_per_s_1'] / 20:.2f}x), {b['games_per_cpu_s_1']:.1f} games per CPU second")
    if "games_per_s_k" in b:
        line += (f"; {b['games_per_s_k']:.1f} games/s with {b['workers']} workers "
                 f"({b['games_per_s_k'] / b['games_per_s_1']:.2f}x), {b['games_per_cpu_s_k']:.1f} games per CPU "
                 f"second")
    print(line)
    print(f"(machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          "wall-clock figures include waiting for a core, CPU figures do not)")


if __name__ == "__main__":
    main()
