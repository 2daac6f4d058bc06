"""Web table under load: scripted people and efficiency bots on loopback, against a real
``majiang serve``.

    python benchmarks/bench_web.py [--tables 10,100,200] [--seconds 30] [--think 1.0] [--bot-delay 0.6]
                                   [--db URL] [--workers N] [--soak SECONDS --soak-tables 50]

For each table count ``N`` a fresh server starts (SQLite in a temporary folder unless ``--db``),
``N`` tables each seat one scripted person and three efficiency bots (full matches), and every person
answers each decision after ``--think`` seconds. The **latency** is the time from a person's
action leaving the client to the next state arriving back (the one that acknowledges it; a pass
that leaves a claim window open is acknowledged to that seat alone), over every action of the run; printed as p50/p99 with the server's CPU use (% of one core)
and resident memory (RSS) at the end. ``--soak`` runs ``--soak-tables`` tables for that long
(finished tables are replaced) and prints RSS once a minute, after a one-minute warm-up, to show it
stays flat (soak tables play two hands each, so tables finish and new ones take their place all
along, the way an evening of play turns tables over). With ``--db postgresql+psycopg://...`` and ``--workers 2`` the same runs go through
two processes sharing the tables.

Peers: there is no other Chinese-mahjong web server to run beside ours; the figures are compared
with the goals of issue 11 (p99 < 100 ms at 200 tables in one process; RSS flat within 10 % over ten
minutes at 50 tables; two processes carry 1.6x the tables of one at the same p99).
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
    def __init__(self, db: str, workers: int, bot_delay: float, max_tables: int) -> None:
        self.port = free_port()
        exe = Path(sys.executable).with_name("majiang")
        cmd = [str(exe), "serve", "--port", str(self.port), "--db", db, "--bot-delay", str(bot_delay),
               "--max-tables", str(max_tables), "--tables-per-user", str(max_tables),
               "--ws-per-session", str(max_tables * 4), "--ws-per-address", str(max_tables * 8),  # one bencher
               "--tables-per-minute", str(max_tables * 10), "--hand-pause", "0", "--log-level", "warning",
               "--workers", str(workers)]
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


async def run_load(srv: ServerProc, n: int, seconds: float, think: float) -> dict:
    cookie = signup(srv.base)
    rids = make_tables(srv.base, n, cookie)
    lat: list[float] = []
    cpu0, _ = proc_stats(srv.proc.pid)
    t0 = time.monotonic()
    until = t0 + seconds
    await asyncio.gather(*(person(f"{ws_base(srv.base)}/ws/tables/{r}", cookie, think, until, lat) for r in rids))
    wall = time.monotonic() - t0
    cpu1, rss = proc_stats(srv.proc.pid)
    lat.sort()
    q = (lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000) if lat else (lambda p: float("nan"))
    return {"tables": n, "actions": len(lat), "p50_ms": q(0.50), "p99_ms": q(0.99),
            "cpu_pct": 100 * (cpu1 - cpu0) / wall, "rss_mib": rss}


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
            print(f"  soak t={samples[-1][0]:5.0f}s RSS {samples[-1][1]:7.1f} MiB", flush=True)

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
    args = ap.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x]
    print(f"majiang serve, {args.workers} process(es), {'PostgreSQL' if args.db and 'postgres' in args.db else 'SQLite'}, "
          f"bots wait {args.bot_delay}s, people think {args.think}s, {args.seconds:.0f}s per run")
    print(f"{'tables':>6} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU %':>7} {'RSS MiB':>8}")
    for n in counts:
        with tempfile.TemporaryDirectory() as d:
            db = args.db or f"sqlite:///{d}/bench.sqlite3"
            if args.db:
                _empty(args.db)
            srv = ServerProc(db, args.workers, args.bot_delay, max(n, args.soak_tables) * 2)
            try:
                r = asyncio.run(run_load(srv, n, args.seconds, args.think))
            finally:
                srv.stop()
        print(f"{r['tables']:>6} {r['actions']:>8} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['cpu_pct']:>7.0f} "
              f"{r['rss_mib']:>8.1f}", flush=True)
    if args.soak:
        with tempfile.TemporaryDirectory() as d:
            db = args.db or f"sqlite:///{d}/bench.sqlite3"
            if args.db:
                _empty(args.db)
            srv = ServerProc(db, args.workers, args.bot_delay, args.soak_tables * 4)
            try:
                samples = asyncio.run(soak(srv, args.soak_tables, args.soak, args.think))
            finally:
                srv.stop()
        after = [r for t, r in samples if t > 90] or [r for _, r in samples]
        if after:
            print(f"soak: {args.soak_tables} tables, RSS after warm-up {min(after):.1f}-{max(after):.1f} MiB "
                  f"({100 * (max(after) - min(after)) / min(after):.1f}% spread)")


def _empty(url: str) -> None:
    from sqlalchemy import MetaData, create_engine

    eng = create_engine(url)
    md = MetaData()
    md.reflect(eng)
    md.drop_all(eng)
    eng.dispose()


if __name__ == "__main__":
    main()
