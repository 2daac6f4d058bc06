"""Web table under load: scripted people and efficiency bots on loopback, against a real
``majiang serve``.

    python benchmarks/bench_web.py [--tables 10,100,200] [--seconds 30] [--think 1.0] [--bot-delay 0.6]
                                   [--db URL] [--workers N] [--soak SECONDS --soak-tables 50]
                                   [--cross N] [--async-commit]

For each table count ``N`` a fresh server starts (SQLite in a temporary folder unless ``--db``),
``N`` tables each seat one scripted person and three efficiency bots (full matches), and every person
answers each decision after ``--think`` seconds. The **latency** is the time from a person's
action leaving the client to the next state arriving back (the one that acknowledges it; a pass
that leaves a claim window open is acknowledged to that seat alone), over every action of the run;
printed as p50/p99 with the steps the server wrote (rows of the tables' logs: the people's, the
bots', the clocks'), the server's CPU use (% of one core, and milliseconds per step) and resident
memory (RSS) at the end. Every line carries the machine's load average (``/proc/loadavg``) at its
start and end: on a shared machine the wall-clock figures move with it, the CPU per step much less.

``--soak`` runs ``--soak-tables`` tables for that long (finished tables are replaced: soak tables
play two hands each, so tables finish and new ones take their place all along, the way an evening
of play turns tables over) and prints RSS and the load once a minute, then the spread of RSS from
minute 5 on (after the shared analysis tables and bot caches have filled).

``--cross N`` measures what a second process adds: two servers on one PostgreSQL (``--db``), ``N``
tables made on the first (which runs their clocks and bots), each person acting through the first
while a second socket of the same person watches through the second; it prints the time from the
acknowledgement on the first to the same state arriving from the second (the notification, the
step applied there, the state pushed). With ``--workers 2`` the load runs go through two processes
sharing the tables.

Peers: there is no other Chinese-mahjong web server to run beside ours; the figures are compared
with the goals of issue 25: p99 < 100 ms at 200 tables in one process, on PostgreSQL as on SQLite;
RSS within 5 % from minute 5 to minute 20 of a 20-minute soak at 50 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load() -> str:
    """The 1-minute load average of the machine (the first field of ``uptime``'s load)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def log_steps(db: str) -> int:
    """Rows in the tables' logs (``table_log``) of the database: the steps written."""
    from sqlalchemy import create_engine, text

    eng = create_engine(db)
    try:
        with eng.connect() as c:
            return int(c.execute(text("SELECT count(*) FROM table_log")).scalar() or 0)
    finally:
        eng.dispose()


def proc_stats(pid: int) -> tuple[float, float]:
    """(CPU seconds, RSS MiB) of a process and its children (Linux /proc)."""
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(x) for x in out]
    except OSError:
        pass
    cpu = rss = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    page = os.sysconf("SC_PAGE_SIZE")
    for p in pids:
        try:
            stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(stat[11]) + int(stat[12])) / tick
            rss += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * page / 2**20
        except (OSError, IndexError, ValueError):
            continue
    return cpu, rss


class ServerProc:
    def __init__(self, db: str, workers: int, bot_delay: float, max_tables: int, async_commit: bool = False) -> None:
        self.port = free_port()
        exe = Path(sys.executable).with_name("majiang")
        cmd = [str(exe), "serve", "--port", str(self.port), "--db", db, "--bot-delay", str(bot_delay),
               "--max-tables", str(max_tables), "--tables-per-user", str(max_tables),
               "--ws-per-session", str(max_tables * 4), "--ws-per-address", str(max_tables * 8),  # one bencher
               "--tables-per-minute", str(max_tables * 10), "--hand-pause", "0", "--log-level", "warning",
               "--workers", str(workers)] + (["--async-commit"] if async_commit else [])
        env = dict(os.environ, MAJIANG_SECRET_KEY="bench-" + "k" * 40)
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if httpx.get(self.base + "/api/tables", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def make_tables(base: str, n: int, cookie: str, hands: int = 0) -> list[str]:
    rids = []
    with httpx.Client(base_url=base, follow_redirects=False, headers={"Cookie": cookie}, timeout=30) as c:
        for _ in range(n):
            r = c.post("/tables", data={"preset": "mcr", "max_hands": str(hands), "turn_time": "60", "sit": "1"})
            if r.status_code != 303:
                raise SystemExit(f"creating a table failed: {r.status_code} {r.text[:200]}")
            rid = r.headers["location"].rsplit("/", 1)[1]
            c.post(f"/tables/{rid}/bots", data={"kind": "efficiency"})
            rids.append(rid)
    return rids


def signup(base: str) -> str:
    with httpx.Client(base_url=base, follow_redirects=False) as c:
        r = c.post("/signup", data={"username": "bencher", "password": "bench password"})
        return f"majiang_session={r.cookies['majiang_session']}"


def choose(live: dict) -> dict | None:
    legal = live.get("legal") or []
    if not legal:
        return None
    for kind in ("win", "pass"):
        for a in legal:
            if a["kind"] == kind:
                return a
    for a in legal:
        if a["kind"] == "discard" and a["tile"] == live.get("last_draw"):
            return a
    ds = [a for a in legal if a["kind"] == "discard"]
    return ds[-1] if ds else legal[0]


async def person(ws_url: str, cookie: str, think: float, until: float, lat: list[float]) -> None:
    try:
        async with connect(ws_url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
            acted_on = None
            sent_at = None
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                msg = json.loads(raw)
                if msg.get("type") != "state":
                    continue
                if sent_at is not None:  # the acknowledgement: the first state after the action
                    lat.append(time.monotonic() - sent_at)
                    sent_at = None
                if msg["status"] == "finished":
                    return
                live = msg.get("live") or {}
                if msg.get("pause"):
                    await ws.send(json.dumps({"type": "continue"}))
                    continue
                if live.get("legal") and msg["version"] != acted_on and sent_at is None:
                    a = choose(live)
                    await asyncio.sleep(think)
                    acted_on = msg["version"]
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "action",
                                              "action": {k: a[k] for k in ("kind", "tile", "low")}}))
    except Exception:
        return


def ws_base(base: str) -> str:
    return base.replace("http://", "ws://")


def quantile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else float("nan")


async def run_load(srv: ServerProc, db: str, n: int, seconds: float, think: float) -> dict:
    cookie = signup(srv.base)
    rids = make_tables(srv.base, n, cookie)
    lat: list[float] = []
    steps0 = log_steps(db)
    cpu0, _ = proc_stats(srv.proc.pid)
    load0 = load()
    t0 = time.monotonic()
    until = t0 + seconds
    await asyncio.gather(*(person(f"{ws_base(srv.base)}/ws/tables/{r}", cookie, think, until, lat) for r in rids))
    wall = time.monotonic() - t0
    cpu1, rss = proc_stats(srv.proc.pid)
    steps = log_steps(db) - steps0
    return {"tables": n, "actions": len(lat), "p50_ms": quantile(lat, 0.50), "p99_ms": quantile(lat, 0.99),
            "steps": steps, "cpu_pct": 100 * (cpu1 - cpu0) / wall,
            "cpu_ms_step": 1000 * (cpu1 - cpu0) / steps if steps else float("nan"), "rss_mib": rss,
            "load": f"{load0}-{load()}"}


async def watcher(ws_url: str, cookie: str, until: float, seen: dict[int, float]) -> None:
    """A second socket of the person: the time each table version first arrives."""
    try:
        async with connect(ws_url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                msg = json.loads(raw)
                if msg.get("type") == "state":
                    seen.setdefault(msg["version"], time.monotonic())
                    if msg["status"] == "finished":
                        return
    except Exception:
        return


async def actor(ws_url: str, cookie: str, think: float, until: float,
                acks: dict[int, tuple[float, float]]) -> None:
    """:func:`person`, noting for each version that acknowledges an action when the action left and
    when the version arrived."""
    try:
        async with connect(ws_url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
            acted_on = None
            waiting = False
            sent_at = 0.0
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                msg = json.loads(raw)
                if msg.get("type") != "state":
                    continue
                if waiting:  # a pass that leaves a claim window open keeps the version: not counted
                    if msg["version"] != acted_on:
                        acks.setdefault(msg["version"], (sent_at, time.monotonic()))
                    waiting = False
                if msg["status"] == "finished":
                    return
                live = msg.get("live") or {}
                if msg.get("pause"):
                    await ws.send(json.dumps({"type": "continue"}))
                    continue
                if live.get("legal") and msg["version"] != acted_on and not waiting:
                    a = choose(live)
                    await asyncio.sleep(think)
                    acted_on = msg["version"]
                    waiting = True
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "action",
                                              "action": {k: a[k] for k in ("kind", "tile", "low")}}))
    except Exception:
        return


async def run_cross(a: ServerProc, b: ServerProc, db: str, n: int, seconds: float, think: float) -> dict:
    cookie = signup(a.base)
    rids = make_tables(a.base, n, cookie)
    steps0 = log_steps(db)
    cpu_a0, cpu_b0 = proc_stats(a.proc.pid)[0], proc_stats(b.proc.pid)[0]
    until = time.monotonic() + seconds
    acks: list[dict[int, tuple[float, float]]] = [{} for _ in rids]
    seen: list[dict[int, float]] = [{} for _ in rids]
    load0 = load()
    await asyncio.gather(*(actor(f"{ws_base(a.base)}/ws/tables/{r}", cookie, think, until, acks[i])
                           for i, r in enumerate(rids)),
                         *(watcher(f"{ws_base(b.base)}/ws/tables/{r}", cookie, until, seen[i])
                           for i, r in enumerate(rids)))
    steps = log_steps(db) - steps0
    cpu_a, cpu_b = proc_stats(a.proc.pid)[0] - cpu_a0, proc_stats(b.proc.pid)[0] - cpu_b0
    both = [(sent, ack, seen[i][v]) for i in range(len(rids)) for v, (sent, ack) in acks[i].items() if v in seen[i]]
    on_a = [ack - sent for sent, ack, _ in both]
    on_b = [b - sent for sent, _, b in both]
    return {"tables": n, "pairs": len(both), "a": (quantile(on_a, 0.5), quantile(on_a, 0.99)),
            "b": (quantile(on_b, 0.5), quantile(on_b, 0.99)),
            "extra": (quantile([b - a for a, b in zip(on_a, on_b)], 0.5),
                      quantile([b - a for a, b in zip(on_a, on_b)], 0.99)),
            "steps": steps, "cpu_a": 1000 * cpu_a / max(1, steps), "cpu_b": 1000 * cpu_b / max(1, steps),
            "load": f"{load0}-{load()}"}


async def soak(srv: ServerProc, n: int, seconds: float, think: float) -> list[tuple[float, float]]:
    cookie = signup(srv.base)
    t0 = time.monotonic()
    samples: list[tuple[float, float]] = []
    lat: list[float] = []

    async def table_loop() -> None:
        while time.monotonic() - t0 < seconds:
            rid = (await asyncio.to_thread(make_tables, srv.base, 1, cookie, 2))[0]
            await person(f"{ws_base(srv.base)}/ws/tables/{rid}", cookie, think, t0 + seconds, lat)

    async def sampler() -> None:
        while time.monotonic() - t0 < seconds:
            await asyncio.sleep(60)
            samples.append((time.monotonic() - t0, proc_stats(srv.proc.pid)[1]))
            print(f"  soak minute {round(samples[-1][0] / 60):3d} (t={samples[-1][0]:5.0f}s) RSS {samples[-1][1]:7.1f} MiB"
                  f"  load {load()}  latency p99 so far {quantile(lat, 0.99):.0f} ms ({len(lat)} actions)", flush=True)

    await asyncio.gather(sampler(), *(table_loop() for _ in range(n)))
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="10,100,200")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--bot-delay", type=float, default=0.6)
    ap.add_argument("--db", default=None)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--soak", type=float, default=0.0)
    ap.add_argument("--soak-tables", type=int, default=50)
    ap.add_argument("--async-commit", action="store_true", help="serve --async-commit (PostgreSQL)")
    ap.add_argument("--cross", type=int, default=0, help="tables for the cross-process measurement (PostgreSQL)")
    args = ap.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x]
    print(f"majiang serve, {args.workers} process(es), {'PostgreSQL' if args.db and 'postgres' in args.db else 'SQLite'}"
          f"{' (--async-commit)' if args.async_commit else ''}, "
          f"bots wait {args.bot_delay}s, people think {args.think}s, {args.seconds:.0f}s per run; "
          f"{os.cpu_count()} cores, load {load()}", flush=True)
    if counts:
        print(f"{'tables':>6} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'steps':>7} {'CPU %':>7} {'CPU ms/step':>11} "
              f"{'RSS MiB':>8}  load", flush=True)
    for n in counts:
        with tempfile.TemporaryDirectory() as d:
            db = args.db or f"sqlite:///{d}/bench.sqlite3"
            if args.db:
                _empty(args.db)
            srv = ServerProc(db, args.workers, args.bot_delay, max(n, args.soak_tables) * 2, args.async_commit)
            try:
                r = asyncio.run(run_load(srv, db, n, args.seconds, args.think))
            finally:
                srv.stop()
        print(f"{r['tables']:>6} {r['actions']:>8} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['steps']:>7} "
              f"{r['cpu_pct']:>7.0f} {r['cpu_ms_step']:>11.2f} {r['rss_mib']:>8.1f}  {r['load']}", flush=True)
    if args.cross:
        if not (args.db or "").startswith("postgresql"):
            raise SystemExit("--cross needs --db postgresql+psycopg://...")
        _empty(args.db)
        a = ServerProc(args.db, 1, args.bot_delay, args.cross * 2, args.async_commit)
        b = ServerProc(args.db, 1, args.bot_delay, args.cross * 2, args.async_commit)
        try:
            r = asyncio.run(run_cross(a, b, args.db, args.cross, args.seconds, args.think))
        finally:
            a.stop()
            b.stop()
        print(f"cross-process: {r['tables']} tables, {r['pairs']} actions on A whose state B pushed too; from the "
              f"action to its state: on A p50 {r['a'][0]:.1f} / p99 {r['a'][1]:.1f} ms, from B p50 {r['b'][0]:.1f} / "
              f"p99 {r['b'][1]:.1f} ms (B later than A by p50 {r['extra'][0]:.1f} / p99 {r['extra'][1]:.1f} ms); "
              f"{r['steps']} steps, server CPU per step: A (writes them, runs the bots) {r['cpu_a']:.2f} ms, "
              f"B (follows them) {r['cpu_b']:.2f} ms; load {r['load']}", flush=True)
    if args.soak:
        with tempfile.TemporaryDirectory() as d:
            db = args.db or f"sqlite:///{d}/bench.sqlite3"
            if args.db:
                _empty(args.db)
            srv = ServerProc(db, args.workers, args.bot_delay, args.soak_tables * 4, args.async_commit)
            try:
                samples = asyncio.run(soak(srv, args.soak_tables, args.soak, args.think))
            finally:
                srv.stop()
        after = [r for t, r in samples if t > 290] if args.soak >= 360 else [r for t, r in samples if t > 90]
        after = after or [r for _, r in samples]
        if after:
            print(f"soak: {args.soak_tables} tables, RSS {'from minute 5' if args.soak >= 360 else 'after warm-up'} "
                  f"{min(after):.1f}-{max(after):.1f} MiB ({100 * (max(after) - min(after)) / min(after):.1f}% spread); "
                  f"load {load()}", flush=True)


def _empty(url: str) -> None:
    from sqlalchemy import MetaData, create_engine

    eng = create_engine(url)
    md = MetaData()
    md.reflect(eng)
    md.drop_all(eng)
    eng.dispose()


if __name__ == "__main__":
    main()
