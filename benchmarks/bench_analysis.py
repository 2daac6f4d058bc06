"""Hand-analysis speed: ours beside the peers, on the same prepared hands, in one process.

    python benchmarks/bench_analysis.py [--hands N] [--seed S]

Peers (benchmark-only dependencies, ``pip install -e '.[bench]'``): the ``mahjong`` package
(``Agari.is_agari``, ``Shanten.calculate_shanten``) and PyMahjongGB (``MahjongShanten``,
``RegularShanten``). Prints hands per second for each and the ratio ours / peer.

The batch rows time one call of :func:`majiang.analysis.is_winning_many` (and ``shanten_many``,
``waits_many``) on all the hands as one ``(n, 34)`` int8 array, and give hands per second: the
per-hand figure beside the peers' single calls (numba compiles the loop before timing; without numba
the batch rows are left out).

Hands are prepared before timing (count vectors for us and ``mahjong``, Botzone code tuples for
PyMahjongGB). Each of our figures is given twice: *cold* (our lazily built tables emptied first, so
the pass pays for building them) and *warm* (the best of three more passes over the same hands);
peers are timed as the best of three passes too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

from majiang.analysis import (
    MCR_SHAPES, ShapeRules, is_winning, is_winning_many, shanten, shanten_many, shanten_standard, waits, waits_many,
)
from majiang.analysis.samples import random_sets
from majiang.analysis.tables import clear_caches
from majiang.tiles import BOTZONE_CODES

JAPANESE_SHAPES = ShapeRules(seven_pairs=True, thirteen_orphans=True, wild_fifth_copy=False)


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def complete_hand(rng: random.Random) -> list[int]:
    while True:
        c = random_sets(rng)
        if max(c) <= 4:
            return [t for t, n in enumerate(c) for _ in range(n)]


def prepare(n: int, seed: int) -> dict[str, list]:
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    win14, random13, tenpai13, wild14 = [], [], [], []
    for i in range(n):
        h = complete_hand(rng)
        if i % 2:  # half of them one tile off
            h[rng.randrange(14)] = rng.randrange(34)
            if max(_counts(h)) > 4:
                h = complete_hand(rng)
        win14.append(_counts(h))
        rng.shuffle(wall)
        random13.append(_counts(wall[:13]))
        t = complete_hand(rng)
        t.remove(rng.choice(t))
        tenpai13.append(_counts(t))
        w = rng.randrange(1, 5)
        h = complete_hand(rng)
        rng.shuffle(h)
        if i % 2:
            h[rng.randrange(14)] = rng.randrange(34)
        c = _counts(h[w:])
        if max(c) > 4:
            c = _counts(complete_hand(rng)[w:])
        wild14.append((c, w))
    codes = lambda cs: [tuple(BOTZONE_CODES[t] for t, k in enumerate(c) for _ in range(k)) for c in cs]  # noqa: E731
    return {"win14": win14, "random13": random13, "tenpai13": tenpai13, "wild14": wild14,
            "random13_codes": codes(random13), "tenpai13_codes": codes(tenpai13)}


def _once(fn: Callable, data: list, star: bool) -> float:
    t = time.perf_counter()
    if star:
        for d in data:
            fn(*d)
    else:
        for d in data:
            fn(d)
    return len(data) / (time.perf_counter() - t)


def rate(fn: Callable, data: list, star: bool = False, repeat: int = 3) -> float:
    """Best of ``repeat`` passes (as timeit does: the least disturbed run)."""
    return max(_once(fn, data, star) for _ in range(repeat))


def ours(fn: Callable, data: list, star: bool = False) -> tuple[float, float]:
    clear_caches()
    cold = _once(fn, data, star)
    warm = rate(fn, data, star)
    return cold, warm


def batch(fn: Callable, data: list, *args) -> tuple[float, float] | None:
    """``(first, best of three)`` hands per second of one batch call on all of ``data``; None without numba."""
    import numpy as np

    from majiang.analysis import batch_kernels

    if not batch_kernels.available():
        return None
    a = np.array(data, dtype=np.int8)
    fn(a[:1], *args)  # numba compiles (or loads its cache) here, not in the timed call
    times = []
    for _ in range(4):
        t = time.perf_counter()
        fn(a, *args)
        times.append(time.perf_counter() - t)
    return len(a) / times[0], len(a) / min(times[1:])


def load() -> str:
    """The machine's load averages (``uptime``), printed beside the figures."""
    import os

    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
        import MahjongGB as gb
    except ImportError as e:  # pragma: no cover
        print(f"peers missing ({e}); install with: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    d = prepare(args.hands, args.seed)
    agari, sh = Agari(), Shanten()
    rows = []

    def row(name: str, ours_rates: tuple[float, float], peer_name: str, peer: float | None) -> None:
        rows.append((name, ours_rates, peer_name, peer))

    peer = rate(agari.is_agari, d["win14"])
    row("win check, 14 tiles, no wildcard", ours(is_winning, d["win14"]), "mahjong Agari.is_agari", peer)
    many = batch(is_winning_many, d["win14"])
    if many:
        row("win check, 14 tiles, batch per hand", many, "mahjong Agari.is_agari", peer)
    row("win check, 14 tiles, 1-4 wildcards", ours(is_winning, d["wild14"], star=True), "(no peer has wildcards)",
        None)
    row("shanten, random 13 (std+7p+13o)", ours(lambda c: shanten(c, 0, JAPANESE_SHAPES), d["random13"]),
        "mahjong Shanten.calculate_shanten", rate(sh.calculate_shanten, d["random13"]))
    peer = rate(lambda h: gb.MahjongShanten(pack=(), hand=h), d["random13_codes"])
    row("shanten, random 13 (all MCR shapes)", ours(lambda c: shanten(c, 0, MCR_SHAPES), d["random13"]),
        "PyMahjongGB MahjongShanten", peer)
    many = batch(shanten_many, d["random13"], 0, MCR_SHAPES)
    if many:
        row("shanten, all MCR shapes, batch/hand", many, "PyMahjongGB MahjongShanten", peer)
    row("shanten, random 13 (standard)", ours(shanten_standard, d["random13"]), "PyMahjongGB RegularShanten",
        rate(gb.RegularShanten, d["random13_codes"]))
    peer_random = rate(gb.RegularShanten, d["random13_codes"])
    peer_ready = rate(gb.RegularShanten, d["tenpai13_codes"])
    row("waits, random 13 (standard)", ours(waits, d["random13"]), "PyMahjongGB RegularShanten", peer_random)
    row("waits, ready 13 (standard)", ours(waits, d["tenpai13"]), "PyMahjongGB RegularShanten", peer_ready)
    # the peer's waits with every MCR shape: its five per-shape calls, the useful tiles of those ready
    shapes = (gb.RegularShanten, gb.SevenPairsShanten, gb.ThirteenOrphansShanten, gb.HonorsAndKnittedTilesShanten,
              gb.KnittedStraightShanten)

    def peer_mcr_waits(h: tuple) -> set:
        out: set = set()
        for f in shapes:
            s, useful = f(hand=h)
            if s == 0:
                out.update(useful)
        return out

    row("waits, random 13 (all MCR shapes)", ours(lambda c: waits(c, 0, MCR_SHAPES), d["random13"]),
        "PyMahjongGB, its 5 shapes' calls", rate(peer_mcr_waits, d["random13_codes"]))
    for name, key, peer in (("random", "random13", peer_random), ("ready", "tenpai13", peer_ready)):
        many = batch(waits_many, d[key])
        if many:
            row(f"waits, {name} 13, batch per hand", many, "PyMahjongGB RegularShanten", peer)
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {load()}")
    print(f"{args.hands} prepared hands per row, seed {args.seed}; hands/second (cold = tables empty at start; "
          f"batch rows: the first call)")
    print(f"{'task':38} {'ours cold':>11} {'ours warm':>11}  {'peer':34} {'peer':>11} {'warm ratio':>10}")
    for name, (cold, warm), peer_name, peer in rows:
        ratio = f"{warm / peer:9.2f}x" if peer else "        -"
        peer_s = f"{peer:11,.0f}" if peer else "          -"
        print(f"{name:38} {cold:11,.0f} {warm:11,.0f}  {peer_name:34} {peer_s} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
