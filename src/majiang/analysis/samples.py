"""Random sample hands for tests and benchmarks (not used by the analysis itself).

:func:`random_sets` draws the tiles of a hand that is complete by construction: random chows and
pungs plus a pair, as a count vector over the 34 kinds. A face may come out five times or more; the
caller decides what to do then (draw again, or keep it for a fifth-copy test). MCR hands with melds,
flags and special shapes come from :mod:`majiang.rules.mcr.random_hands`.
"""

from __future__ import annotations

import random


def random_sets(rng: random.Random, sets: int = 4, chow_p: float = 0.6) -> list[int]:
    """Counts (34) of ``sets`` random sets (a chow with probability ``chow_p``, else a pung of any
    kind) and one pair of any kind; ``3 * sets + 2`` tiles. The draws from ``rng`` are, per set, one
    ``random()`` then the set's tile(s), then the pair's kind."""
    c = [0] * 34
    for _ in range(sets):
        if rng.random() < chow_p:
            s = rng.randrange(3) * 9 + rng.randrange(7)
            c[s] += 1
            c[s + 1] += 1
            c[s + 2] += 1
        else:
            c[rng.randrange(34)] += 3
    c[rng.randrange(34)] += 2
    return c
