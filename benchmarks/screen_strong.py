"""Screening ``strong`` variants: each variant (keyword arguments of :class:`StrongBot`, as JSON) plays
the duplicate games of ``bench_strong.py`` (two ``strong`` and two ``efficiency`` seats, every wall in
six seatings, one hand a game) against ``efficiency``, and every variant after the first is compared
with the first **paired by wall** (the same walls and seatings), which cancels most of the luck of
the deal. Use it to screen ideas on seeds other than the one the README's figure is read from.

Usage: ``python benchmarks/screen_strong.py RULES WALLS SEED '{}' '{"defence": 0.25}' ...`` (one
process; about 30 games/s in Taiwan and Wenzhou, fewer in MCR). Prints per variant the mean
strong - efficiency per hand with its 95% half-width, the self-drawn wins, discard wins and
deal-ins of each side, the time per ``strong`` decision, then each variant minus the first with its
95% interval.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_strong as B  # noqa: E402

import majiang.players as P  # noqa: E402
from majiang.players.strong import StrongBot  # noqa: E402
from majiang.tournament import GameSpec, play_one  # noqa: E402


def run(rules: str, walls: int, seed: int, kw: dict) -> tuple[list[float], dict, list[float]]:
    """Per wall, (strong - efficiency) per hand; counts of wins and deal-ins; strong's decision times."""
    orig = P.make_bot

    def make(name, rules_, seed_=0):
        return StrongBot(rules_, **kw) if name == "strong" else orig(name, rules_, seed_)

    P.make_bot = make
    try:
        diff = [0.0] * walls
        parts = {w: {"self-drawn": 0, "discard-win": 0, "deal-in": 0} for w in ("strong", "efficiency")}
        times: list[float] = []
        for k in range(walls):
            for j, seating in enumerate(B.SEATINGS):
                r = play_one(GameSpec("jsonl", B.BOTS, rules, seed, 6 * k + j, k, seating, None, None, False))
                for s in range(4):
                    st = r["seating"][s] < 2
                    diff[k] += (r["scores"][s] if st else -r["scores"][s]) / (2 * len(B.SEATINGS))
                    if st:
                        times += r["times"][s]
                if r["winner"] is not None:
                    w = "strong" if r["seating"][r["winner"]] < 2 else "efficiency"
                    if r["discarder"] is None:
                        parts[w]["self-drawn"] += 1
                    else:
                        parts[w]["discard-win"] += 1
                        parts["strong" if r["seating"][r["discarder"]] < 2 else "efficiency"]["deal-in"] += 1
    finally:
        P.make_bot = orig
    return diff, parts, times


def _ci(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, 1.96 * sd / math.sqrt(len(xs))


def main() -> None:
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rules, walls, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kws = [json.loads(x) for x in sys.argv[4:]]
    diffs = []
    for kw in kws:
        t0 = time.perf_counter()
        d, parts, ts = run(rules, walls, seed, kw)
        m, h = _ci(d)
        ms = sorted(ts)
        print(f"{rules} seed {seed} {walls} walls {kw}: strong - efficiency {m:+.3f} ±{h:.3f}  {parts}  "
              f"({time.perf_counter() - t0:.0f} s, {1000 * sum(ts) / len(ts):.2f} ms/decision, "
              f"p99 {1000 * ms[int(0.99 * (len(ms) - 1))]:.1f})", flush=True)
        diffs.append(d)
    for kw, d in zip(kws[1:], diffs[1:]):
        m, h = _ci([b - a for a, b in zip(diffs[0], d)])
        print(f"  {kw} - {kws[0]}: {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]", flush=True)


if __name__ == "__main__":
    main()
