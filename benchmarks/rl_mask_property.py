"""The full mask property run (docs/rl.md, "Masks"): 10,000 random states per rule set.

    python benchmarks/rl_mask_property.py [--states 10000] [--seed 0] [--apply-every 5] [--batched] [RULES...]

``--batched`` walks the AEC environment's batched table (``mcr``, ``shandong``) instead of the
engine table.

For every state of random games (a claim-happy random policy, :mod:`majiang.rl.checks`): each
awaited seat's mask is non-empty and one to one with the engine's legal actions, every masked index
is accepted by the engine (applied to a copy of the match; at every 5th state by default, copies cost
most of the time), idle seats see ``pass`` only, and the
observation is finite. Prints one line per rule set (states, indices applied, games, action kinds
seen, seconds) and exits 1 on any failure. The CI test (``tests/rl/test_rl_masks.py``) runs the
same check on 300 states per rule set.
"""

from __future__ import annotations

import argparse
import sys
import time

from majiang.engine import PRESET_NAMES
from majiang.rl.checks import check_masks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="*", default=list(PRESET_NAMES) + ["taiwan,declare_ready=true"])
    ap.add_argument("--states", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batched", action="store_true",
                    help="walk the AEC environment's batched table (mcr, shandong) instead of the engine table")
    ap.add_argument("--apply-every", type=int, default=5,
                    help="apply every masked index at every k-th state (default 5; 1 = every state)")
    a = ap.parse_args()
    bad = 0
    for r in a.rules:
        t0 = time.perf_counter()
        rep = check_masks(r, a.states, seed=a.seed, apply_every=a.apply_every, batched=a.batched)
        kinds = " ".join(f"{k}={v}" for k, v in sorted(rep.kinds.items()))
        print(f"{r:28} {rep.states} states, {rep.applied} indices applied, {rep.games} games, "
              f"{len(rep.failures)} failures, {time.perf_counter() - t0:.0f} s; offered: {kinds}", flush=True)
        for f in rep.failures[:10]:
            print("   ", f)
        bad += len(rep.failures)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
