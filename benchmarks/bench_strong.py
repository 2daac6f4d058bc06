"""Duplicate self-play: ``strong`` against ``efficiency`` (issue 15 item 3), or any bot ``--a`` against
any ``--b`` (``--a learned --b efficiency``, issue 28; names as ``majiang simulate --bots``).

Two ``strong`` and two ``efficiency`` seats play every wall in all six distinct seatings of
S S E E (the duplicate idea of ``majiang tournament --format duplicate``, without the 18 seatings
that only swap two identical deterministic bots), one hand per game, through
:func:`majiang.tournament.play_one` (the jsonl tournament's game: dealer at seat 0, wall ``k`` from
the seed). Per rule set it prints:

* mean score per hand and seat of each bot with a 95% confidence interval (1.96 standard errors
  over every seat-hand);
* the paired difference strong - efficiency per wall (the mean over its six games of strong's two
  seats minus efficiency's two seats, halved), its mean and 95% CI over walls -- the figure the goal
  is read from (ahead with 95% confidence = the CI's lower end above 0);
* win and deal-in rates and ms per decision (mean, max) for both bots;
* where the score comes from (``--breakdown``): per bot, self-drawn and discard wins a seat-hand with
  their mean score change, deal-ins with their mean score change, and the share of drawn hands.

Usage: ``python benchmarks/bench_strong.py [--walls N] [--rules mcr,wenzhou,taiwan] [--seed S]
[--workers K] [--a strong] [--b efficiency] [--json]``. The JSON keys are the two bots' names; ``diff``
is ``a - b``. ``uptime``'s load is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor

from majiang.tournament import BotSpec, GameSpec, play_one

SEATINGS = [(0, 1, 2, 3), (0, 2, 1, 3), (0, 2, 3, 1), (2, 0, 1, 3), (2, 0, 3, 1), (2, 3, 0, 1)]
"""Bot index per seat; bots 0, 1 = strong, 2, 3 = efficiency: the six ways to seat S S E E."""
BOTS = (BotSpec("strong", builtin="strong"), BotSpec("strong#2", builtin="strong"),
        BotSpec("efficiency", builtin="efficiency"), BotSpec("efficiency#2", builtin="efficiency"))


def bots(a: str, b: str) -> tuple[BotSpec, ...]:
    """Seats 0, 1 = bot ``a``; 2, 3 = bot ``b``."""
    if a == b:
        raise SystemExit(f"--a and --b must differ, both {a!r}")
    return (BotSpec(a, builtin=a), BotSpec(f"{a}#2", builtin=a), BotSpec(b, builtin=b), BotSpec(f"{b}#2", builtin=b))


def _ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n) if n > 1 else 0.0


def run(rules: str, walls: int, seed: int, workers: int, a: str = "strong", b: str = "efficiency") -> dict:
    specs = bots(a, b)
    games = [GameSpec("jsonl", specs, rules, seed, i, k, SEATINGS[j], None, None, False)
             for i, (k, j) in enumerate((k, j) for k in range(walls) for j in range(len(SEATINGS)))]
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(play_one, games, chunksize=8))
    else:
        results = [play_one(g) for g in games]
    secs = time.perf_counter() - t0
    per: dict[str, list[float]] = {a: [], b: []}
    wins = {a: 0, b: 0}
    deal = {a: 0, b: 0}
    parts = {w: {"self_drawn": [], "discard": [], "deal_in": []} for w in per}
    drawn = 0
    times: dict[str, list[float]] = {a: [], b: []}
    diff_by_wall = [0.0] * walls
    for g, r in zip(games, results):
        for s in range(4):
            who = a if r["seating"][s] < 2 else b
            per[who].append(r["scores"][s])
            times[who] += r["times"][s]
            diff_by_wall[g.wall] += (r["scores"][s] if who == a else -r["scores"][s]) / (2 * len(SEATINGS))
        if r["winner"] is None:
            drawn += 1
        else:
            w = a if r["seating"][r["winner"]] < 2 else b
            wins[w] += 1
            if r["discarder"] is not None:
                d = a if r["seating"][r["discarder"]] < 2 else b
                deal[d] += 1
                parts[w]["discard"].append(r["scores"][r["winner"]])
                parts[d]["deal_in"].append(r["scores"][r["discarder"]])
            else:
                parts[w]["self_drawn"].append(r["scores"][r["winner"]])
    out = {"rules": rules, "a": a, "b": b, "walls": walls, "games": len(games), "seconds": round(secs, 1),
           "drawn_rate": round(drawn / len(games), 4)}
    for who in per:
        m, h = _ci(per[who])
        ts = times[who]
        out[who] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)],
                    "win_rate": round(wins[who] / (2 * len(games)), 4),
                    "deal_in_rate": round(deal[who] / (2 * len(games)), 4),
                    "ms_per_decision": round(1000 * sum(ts) / len(ts), 3),
                    "ms_p99": round(1000 * sorted(ts)[int(0.99 * (len(ts) - 1))], 2), "ms_max": round(1000 * max(ts), 2),
                    "breakdown": {k: {"rate": round(len(v) / (2 * len(games)), 4),
                                      "mean": round(sum(v) / len(v), 2) if v else 0.0} for k, v in parts[who].items()}}
    m, h = _ci(diff_by_wall)
    out["diff"] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)], "ahead_95": m - h > 0}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--walls", type=int, default=200)
    ap.add_argument("--rules", default="mcr,wenzhou,taiwan")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--breakdown", action="store_true", help="print where the score comes from")
    ap.add_argument("--a", default="strong", help="the bot measured (seats of two)")
    ap.add_argument("--b", default="efficiency", help="the bot it is measured against")
    a = ap.parse_args()
    import os

    load = os.getloadavg()
    rows = [run(r, a.walls, a.seed, a.workers, a.a, a.b) for r in a.rules.split(",")]
    if a.json:
        print(json.dumps({"load": [round(x, 2) for x in load], "rows": rows} if a.a != "strong" or a.b != "efficiency"
                         else rows, indent=1))
        return
    print(f"{a.a} vs {a.b}, duplicate A A B B ({len(SEATINGS)} seatings a wall), one hand a game, seed {a.seed}; "
          f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    print(f"{'rules':<8} {'walls':>5} {'bot':<10} {'mean/hand':>9} {'95% CI':>18} {'win':>6} {'deal-in':>7} "
          f"{'ms/dec':>7} {'ms p99':>7} {'ms max':>7}")
    for r in rows:
        for who in (a.a, a.b):
            b = r[who]
            lo, hi = b["ci95"]
            print(f"{r['rules']:<8} {r['walls']:>5} {who:<10} {b['mean']:>9.2f} {f'[{lo:.2f}, {hi:.2f}]':>18} "
                  f"{b['win_rate']:>6.3f} {b['deal_in_rate']:>7.3f} {b['ms_per_decision']:>7.2f} {b['ms_p99']:>7.1f} {b['ms_max']:>7.1f}")
        d = r["diff"]
        lo, hi = d["ci95"]
        print(f"{r['rules']:<8} {'':>5} {'diff A-B':<10} {d['mean']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>18}  "
              f"{'ahead (95%)' if d['ahead_95'] else 'behind (95%)' if hi < 0 else 'NOT ahead at 95%'}  ({r['seconds']} s)")
        if a.breakdown:
            for who in (a.a, a.b):
                b = r[who]["breakdown"]
                print(f"{'':<8} {'':>5} {who:<10} " + "  ".join(
                    f"{k.replace('_', '-')} {v['rate']:.3f} × {v['mean']:+.1f}" for k, v in b.items())
                    + f"  (drawn hands {r['drawn_rate']:.3f})")


if __name__ == "__main__":
    main()
