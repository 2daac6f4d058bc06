"""Shanten against PyMahjongGB 1.4.0 (the reference MCR calculator) on random 13-tile hands.

Known difference: PyMahjongGB counts a wait on a fifth copy of a tile the hand already holds four
times (567m9999s333444z: it says ready on 9s). We do not: no such tile can be drawn (trap SHT-02,
WAIT-02). For hands holding a four-of-a-kind we check ours is equal or exactly one higher.
"""

import random

import pytest

from majiang.analysis import MCR_SHAPES, shanten, shanten_standard
from majiang.analysis.samples import random_sets
from majiang.tiles import BOTZONE_CODES

gb = pytest.importorskip("MahjongGB")
pytestmark = pytest.mark.oracle


def _hands(n, seed):
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(n):
        rng.shuffle(wall)
        yield sorted(wall[:13])


def test_shanten_matches_pymahjonggb():
    for hand in _hands(5000, 1):
        c = [0] * 34
        for t in hand:
            c[t] += 1
        codes = tuple(BOTZONE_CODES[t] for t in hand)
        ours, theirs = shanten(c, 0, MCR_SHAPES), gb.MahjongShanten(pack=(), hand=codes)
        assert ours == theirs or (4 in c and ours == theirs + 1), codes


def test_regular_shanten_matches_pymahjonggb():
    for hand in _hands(3000, 2):
        c = [0] * 34
        for t in hand:
            c[t] += 1
        codes = tuple(BOTZONE_CODES[t] for t in hand)
        s, _useful = gb.RegularShanten(codes)
        assert shanten_standard(c) == s or (4 in c and shanten_standard(c) == s + 1), codes


def test_tenpai_hands_shanten_matches_pymahjonggb():
    # hands one tile from a win exercise the low end of the range
    rng = random.Random(3)
    checked = 0
    while checked < 1500:
        c = random_sets(rng)
        tiles = [t for t, n in enumerate(c) for _ in range(n)]
        tiles.remove(rng.choice(tiles))
        if rng.random() < 0.5:
            tiles[rng.randrange(13)] = rng.randrange(34)
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        if max(c) > 4:
            continue
        codes = tuple(BOTZONE_CODES[t] for t in sorted(tiles))
        ours, theirs = shanten(c, 0, MCR_SHAPES), gb.MahjongShanten(pack=(), hand=codes)
        if 4 in c:
            assert ours in (theirs, theirs + 1), codes
        else:
            assert ours == theirs, codes
        checked += 1


def test_fifth_copy_reading():
    from majiang.tiles import parse_compact, to_counts
    c = to_counts(parse_compact("567m9999s333444z"))
    assert gb.MahjongShanten(pack=(), hand=("W5", "W6", "W7", "T9", "T9", "T9", "T9", "F3", "F3", "F3", "F4", "F4",
                                             "F4")) == 0
    assert shanten(c, 0, MCR_SHAPES) == 1  # ours: the only wait would be a fifth 9s
