"""The learner environment's speed with the two implementations of the ``"efficiency"`` opponents.

    python benchmarks/bench_fast_efficiency.py [--steps 4000] [--repeats 3] [--rules mcr,wenzhou]

:class:`majiang.rl.SingleAgentEnv` (``opponents="efficiency"``) with masked random learner actions
(numpy, counted in the time), learner steps per second of process CPU time, for each rule set:
``before`` makes the opponents with :func:`majiang.players.make_bot` (:class:`~majiang.players.EfficiencyBot`,
its Python discard scan), ``after`` with :func:`majiang.rl.fast_bots.make_opponent`
(:class:`~majiang.rl.fast_bots.FastEfficiencyBot`, the discard from the compiled analysis kernel; the
environments' default where numba is available). One process, the two alternated after a warm-up of
each; the median of ``--repeats`` runs of ``--steps`` steps. Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import majiang.rl.single as single
from majiang.players import make_bot
from majiang.rl import SingleAgentEnv
from majiang.rl.fast_bots import make_opponent

VARIANTS = {"before": make_bot, "after": make_opponent}


def learner_steps_per_second(rules: str, steps: int, seed: int = 0) -> float:
    """Learner steps per CPU second over ``steps`` steps of ``SingleAgentEnv(rules)`` (episodes reset
    with seeds ``seed``, ``seed + 1``, ...), with the opponents ``single.make_opponent`` makes."""
    env = SingleAgentEnv(rules)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    n = episodes = 0
    t0 = time.process_time()
    while n < steps:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, term, trunc, _ = env.step(a)
        n += 1
        if term or trunc:
            episodes += 1
            obs, _ = env.reset(seed=seed + episodes)
    return n / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rules", default="mcr,wenzhou")
    args = ap.parse_args()
    original = single.make_opponent
    try:
        for rules in args.rules.split(","):
            runs: dict[str, list[float]] = {k: [] for k in VARIANTS}
            for maker in VARIANTS.values():  # warm-up: numba's cache, the tables
                single.make_opponent = maker
                learner_steps_per_second(rules, 300, seed=99)
            for rep in range(args.repeats):
                for name, maker in VARIANTS.items():
                    single.make_opponent = maker
                    runs[name].append(learner_steps_per_second(rules, args.steps, seed=rep))
            b, a = statistics.median(runs["before"]), statistics.median(runs["after"])
            print(f"{rules}: before {b:,.0f} learner steps/s, after {a:,.0f} (x{a / b:.2f}); "
                  f"runs {[round(x) for x in runs['before']]} / {[round(x) for x in runs['after']]}", flush=True)
    finally:
        single.make_opponent = original


if __name__ == "__main__":
    main()
