"""Large differential run of our MCR scorer against PyMahjongGB 1.4.0 (see
``tests/rules/test_mcr_oracle.py`` for what is compared and which inputs are excluded).

    python benchmarks/mcr_differential.py N [--seed S] [--show K]

Prints the number of hands that differ (fan multiset or total), grouped by the fans involved,
with up to K examples per group in the cases notation. Exit status 1 if any differ.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import MahjongGB

from majiang.rules.mcr import fan, format_hand_string, score
from majiang.rules.mcr.random_hands import pymahjonggb_args, random_winning_hands


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=3)
    args = ap.parse_args()
    groups: Counter[tuple[str, ...]] = Counter()
    t0 = time.perf_counter()
    for hand, cond in random_winning_hands(args.n, args.seed):
        ours = score(hand, cond)
        ref = MahjongGB.MahjongFanCalculator(**pymahjonggb_args(hand, cond), verbose=True)
        theirs = Counter({fan(x[2]).name_zh: x[1] for x in ref})
        total = sum(x[0] * x[1] for x in ref)
        mine = Counter(ours.counts_zh())
        if mine != theirs or ours.total != total:
            key = tuple(sorted(set(mine - theirs) | set(theirs - mine))) or ("total",)
            groups[key] += 1
            if groups[key] <= args.show:
                print(f"{format_hand_string(hand, cond)}: ours {dict(mine - theirs)} = {ours.total}, "
                      f"PyMahjongGB {dict(theirs - mine)} = {total}")
    bad = sum(groups.values())
    print(f"{args.n - bad}/{args.n} agree ({100 * (args.n - bad) / args.n:.3f}%), "
          f"{time.perf_counter() - t0:.1f} s")
    for key, n in groups.most_common():
        print(f"  {n:6d}  {' '.join(key)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
