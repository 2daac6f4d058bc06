"""The ``majiang-v1`` hand-analysis planes per observation: the compiled kernels against the Python path.

    python benchmarks/bench_rl_analysis.py [--rules wenzhou,wenzhou-w16,seed000] [--steps 4000] [--seed 1]

Needs the ``rl`` extra. For each rule set, plays ``--steps`` steps of :func:`majiang.rl.env` (random
masked actions from a seeded generator, new hands as episodes end) twice: once as it stands (the
compiled kernels of :mod:`majiang.rl.kernels`, wildcard hands through ``analyse_wild_one``) and once
with the encoder held to its Python path (``Encoder._analyse`` through ``_Fast`` and
``majiang.analysis.shanten``), timing every call of ``Encoder._analyse`` in CPU time (the timer's own
cost, well under a microsecond, included). Prints the number of analysed observations, how many held
a wildcard, and the mean time of one. A short untimed game first loads (or compiles) the kernels.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import majiang.rl as rl
from majiang.rl import observations


def run(rules: str, steps: int, python: bool, seed: int) -> tuple[float, int, int]:
    """Plays ``steps`` steps of ``rules``; returns (CPU seconds in ``_analyse``, calls, calls whose hand held a
    wildcard). ``python``: the encoder's kernels turned off."""
    e = rl.env(rules)
    enc = e.unwrapped.table.encoder
    if python:
        enc._kernel = False
        enc._wkernel = False
    plain = observations.Encoder._analyse
    acc = [0.0, 0, 0]

    def timed(self, out, phase, wf, counts, unseen):  # noqa: ANN001 - Encoder._analyse's arguments
        t0 = time.process_time()
        plain(self, out, phase, wf, counts, unseen)
        acc[0] += time.process_time() - t0
        acc[1] += 1
        acc[2] += wf is not None and counts[wf] > 0

    enc._analyse = timed.__get__(enc)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    n = 0
    while n < steps:
        if not e.agents:
            e.reset()
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return acc[0], acc[1], acc[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="wenzhou,wenzhou-w16,seed000", help="comma-separated rule sets")
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"{'rules':14}{'path':8}{'analyses':>10}{'with wildcards':>16}{'us each':>10}")
    for rules in a.rules.split(","):
        run(rules, 300, False, a.seed + 1)
        mean = {}
        for python in (False, True):
            t, calls, wild = run(rules, a.steps, python, a.seed)
            mean[python] = t / max(calls, 1) * 1e6
            print(f"{rules:14}{'python' if python else 'kernel':8}{calls:10d}{wild:16d}{mean[python]:10.1f}")
        print(f"{'':14}python / kernel: {mean[True] / mean[False]:.1f}x")


if __name__ == "__main__":
    main()
