"""MCR scoring speed: our :func:`majiang.rules.mcr.score` beside PyMahjongGB 1.4.0's
``MahjongFanCalculator`` on the same random winning hands, in one process.

    python benchmarks/bench_mcr.py [--hands N] [--seed S] [--passes P]

Hands come from :mod:`majiang.rules.mcr.random_hands` and are prepared before timing (our
``Hand`` + ``WinConditions``; the reference's keyword arguments). Ours is timed on each of its two
paths (``scoring.use_compiled(False)``: Python only; ``use_compiled(True)``: standard-shape hands
through the compiled kernel of :mod:`majiang.rules.mcr.compiled`, where numba is installed; by
default :func:`score` takes it after 2,000 hands): cold (the lazily built per-suit tables of
:mod:`majiang.rules.mcr.fast` are filled during that first pass, and the kernel compiled or loaded
from numba's cache), then warm (the best of P further passes over the same hands; the reference is
timed the same way, best of P), then once on as many hands never scored before (seed S+1 for the
Python path, S+2 for the compiled one), which shows how much of the warm figure comes from tables
that only repeated hands fill. Prints hands per second, the ratios ours /
reference (wall clock, and beside them CPU time of this process, which other jobs on a shared
machine disturb less), and how many results agree (fan multiset and total).
PyMahjongGB is a benchmark-only dependency (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from majiang.rules.mcr import fan, score
from majiang.rules.mcr.scoring import use_compiled
from majiang.rules.mcr.random_hands import pymahjonggb_args, random_winning_hands


def _best(fn, passes: int) -> tuple[float, float, object]:
    """Best (shortest) wall-clock and CPU time of ``passes`` runs of ``fn`` and the last result."""
    best = best_cpu = float("inf")
    out = None
    for _ in range(passes):
        t0 = time.perf_counter()
        c0 = time.process_time()
        out = fn()
        best_cpu = min(best_cpu, time.process_time() - c0)
        best = min(best, time.perf_counter() - t0)
    return best, best_cpu, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--passes", type=int, default=5, help="timed passes per figure; the best is shown")
    args = ap.parse_args()
    try:
        import MahjongGB
    except ImportError:
        MahjongGB = None  # noqa: N806

    hands = list(random_winning_hands(args.hands, args.seed))
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average %.2f %.2f %.2f" % os.getloadavg())
    print(f"hands: {len(hands)} (seed {args.seed}); best of {args.passes} passes")
    rows = []  # (label, warm time, warm CPU, unseen time, unseen CPU, unseen count)
    ours = None
    for label, on, unseen_seed in (("Python path", False, args.seed + 1), ("compiled path", True, args.seed + 2)):
        if on and not use_compiled(True):
            print("compiled path: numba not installed (or MAJIANG_NUMBA=0), not measured")
            continue
        use_compiled(on)
        t0 = time.perf_counter()
        for h, c in hands:  # the cold pass fills the tables (and compiles or loads the kernel)
            score(h, c)
        t_cold = time.perf_counter() - t0
        t_ours, c_ours, ours = _best(lambda: [score(h, c) for h, c in hands], args.passes)
        unseen = list(random_winning_hands(args.hands, unseen_seed))
        t0 = time.perf_counter()
        c0 = time.process_time()
        for h, c in unseen:
            score(h, c)
        c_unseen = time.process_time() - c0
        t_unseen = time.perf_counter() - t0
        name = f"score, {label}"
        print(f"{name:28} {len(hands) / t_cold:10.0f} hands/s  (cold: first pass, per-suit tables built"
              + (", kernel compiled or loaded)" if on else ")"))
        print(f"{name:28} {len(hands) / t_ours:10.0f} hands/s  (warm: later passes)")
        print(f"{name:28} {len(unseen) / t_unseen:10.0f} hands/s  (unseen: other hands, seed {unseen_seed}, one pass)")
        rows.append((label, t_ours, c_ours, t_unseen, c_unseen, len(unseen)))
    use_compiled(None)
    if MahjongGB is None:
        print("PyMahjongGB not installed: no comparison")
        return
    ref_args = [pymahjonggb_args(h, c) for h, c in hands]
    calc = MahjongGB.MahjongFanCalculator
    t_ref, c_ref, refs = _best(lambda: [calc(**a, verbose=True) for a in ref_args], args.passes)
    print(f"PyMahjongGB 1.4.0 (C++)      {len(hands) / t_ref:10.0f} hands/s")
    for label, t_ours, c_ours, t_unseen, c_unseen, n_unseen in rows:
        scale = n_unseen / len(hands)
        print(f"ratio warm / PyMahjongGB     {t_ref / t_ours:10.3f}  ({label}; < 1 = slower; CPU time "
              f"{c_ref / c_ours:.3f})")
        print(f"ratio unseen / PyMahjongGB   {t_ref * scale / t_unseen:10.3f}  ({label}; CPU time "
              f"{c_ref * scale / c_unseen:.3f})")
    agree = sum(1 for r, ref in zip(ours, refs)
                if Counter(r.counts_zh()) == Counter({fan(x[2]).name_zh: x[1] for x in ref})
                and r.total == sum(x[0] * x[1] for x in ref))
    print(f"agreement                    {agree}/{len(hands)}  (the last path measured)")


if __name__ == "__main__":
    main()
