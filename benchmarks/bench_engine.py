"""Engine speed: hands and matches per second with random and efficiency bots, record replay speed.

    python benchmarks/bench_engine.py [--hands N] [--seed S] [--rules SPEC]

Figures (one process, our engine only: no peer engine is installed for comparison):

* random bots: hands per second, and decisions per second (every legal-action query + apply);
* efficiency bots: hands per second (dominated by shanten; the bot memoises it);
* replay: hands per second re-run from their JSON-lines records (every step checked);
* ratio random/efficiency, i.e. what the bot's thinking costs.
"""

from __future__ import annotations

import argparse
import time

from majiang.engine import Match, run_match
from majiang.engine.ruleset import resolve
from majiang.players import EfficiencyBot, RandomBot
from majiang.records.jsonl import record_lines, replay


def _bench(rules_spec: str, hands: int, seed: int, bot: str) -> tuple[float, int, list[list[str]]]:
    rules = resolve(rules_spec)
    done = 0
    decisions = 0
    records = []
    t0 = time.perf_counter()
    g = 0
    while done < hands:
        m = Match(rules, seed=seed + g, max_hands=min(4, hands - done))
        players = [RandomBot(seed + g * 4 + p) if bot == "random" else EfficiencyBot(rules) for p in range(4)]
        run_match(m, players)
        done += len(m.results)
        decisions += sum(1 for e in m.events if e["type"] in ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan",
                                                               "hora"))
        records.append(record_lines(m))
        g += 1
    return time.perf_counter() - t0, decisions, records


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="mcr")
    a = ap.parse_args()
    rt, rdec, recs = _bench(a.rules, a.hands, a.seed, "random")
    et, _, _ = _bench(a.rules, max(4, a.hands // 4), a.seed, "efficiency")
    t0 = time.perf_counter()
    for r in recs:
        replay(r)
    pt = time.perf_counter() - t0
    eh = max(4, a.hands // 4)
    print(f"rules {a.rules}")
    print(f"random bots      {a.hands / rt:8.1f} hands/s   {rdec / rt:9.0f} decisions/s")
    print(f"efficiency bots  {eh / et:8.1f} hands/s")
    print(f"replay           {a.hands / pt:8.1f} hands/s")
    print(f"ratio random/efficiency: {(a.hands / rt) / (eh / et):.1f}x")


if __name__ == "__main__":
    main()
