"""The batch calls (majiang.analysis.batch): the compiled loop and the Python path give the same numbers
as each other and as the single calls, on random hands of every shape set (issue 29)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from majiang.analysis import (  # noqa: E402
    MCR_SHAPES, SEVEN_PAIRS_AND_ORPHANS, STANDARD, ShapeRules, is_winning, is_winning_many, shanten, shanten_many,
    waits, waits_many,
)
from majiang.analysis.batch import _many  # noqa: E402
from majiang.analysis.samples import random_sets  # noqa: E402
from majiang.analysis.shapes import KNITTED_ARRANGEMENTS  # noqa: E402
from majiang.errors import TileCountError  # noqa: E402
from majiang.engine import RuleSet  # noqa: E402
from majiang.rules import registry  # noqa: E402

SHAPE_SETS = {
    "standard": STANDARD,
    "mcr": MCR_SHAPES,
    "seven-pairs-orphans": SEVEN_PAIRS_AND_ORPHANS,
    "seven-pairs-no-quad": ShapeRules(seven_pairs=True, quad_as_two_pairs=False, wild_fifth_copy=False),
    "wenzhou-like": ShapeRules(seven_pairs=True, thirteen_orphans=True, unconnected=True, eight_pairs=True,
                               wilds_win=3),
    "knitted-with-wilds": ShapeRules(honors_and_knitted=True, knitted_straight=True),
    **{f"ruleset:{n}": RuleSet.preset(n).shape_rules for n in registry.names()},
}


def _counts(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _special(rng: random.Random) -> list[int]:
    """A 14-tile hand near a special shape: seven pairs, thirteen orphans, honours and knitted, or a
    knitted straight with a set and a pair."""
    k = rng.randrange(4)
    if k == 0:
        faces = rng.sample(range(34), 7)
        tiles = faces + faces
    elif k == 1:
        orph = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        tiles = orph + [rng.choice(orph)]
    elif k == 2:
        arr = list(rng.choice(KNITTED_ARRANGEMENTS))
        tiles = rng.sample(arr + list(range(27, 34)), 14)
    else:
        arr = list(rng.choice(KNITTED_ARRANGEMENTS))
        rest = random_sets(rng, 1)
        tiles = arr + [t for t, n in enumerate(rest) for _ in range(n)]
    return tiles


def _hands(rng: random.Random, n: int, wilds_max: int, tail: int):
    """``n`` hands (tiles lists) with ``tail`` = 2 (3k+2) or 1 (3k+1), and their wildcards: complete
    ones, one tile off, near special shapes, random draws from a wall; some tiles then made wild."""
    wall = [t for t in range(34) for _ in range(4)]
    rows, ws = [], []
    while len(rows) < n:
        kind = rng.randrange(4)
        sets = rng.choice((0, 1, 2, 3, 4, 4, 4, 5))
        if kind == 0 or kind == 1:
            c = random_sets(rng, sets)
            tiles = [t for t, k in enumerate(c) for _ in range(k)]
            if kind == 1:
                tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        elif kind == 2:
            tiles = _special(rng)
        else:
            rng.shuffle(wall)
            tiles = wall[:3 * sets + 2]
        rng.shuffle(tiles)
        if tail == 1:
            tiles = tiles[1:]
        w = min(rng.randrange(wilds_max + 1), len(tiles))
        c = _counts(tiles[w:])
        if max(c) > 4:
            continue
        rows.append(c)
        ws.append(w)
    return np.array(rows, dtype=np.int8), np.array(ws, dtype=np.int64)


@pytest.mark.parametrize("name", sorted(SHAPE_SETS))
def test_compiled_and_python_paths_agree_with_the_single_calls(name):
    rules = SHAPE_SETS[name]
    rng = random.Random(sum(map(ord, name)))
    wmax = 0 if name == "mcr" else 3
    c2, w2 = _hands(rng, 400, wmax, 2)
    c1, w1 = _hands(rng, 300, wmax, 1)
    for counts, wilds in ((c2, w2), (c1, w1)):
        single = [shanten(r, w, rules) for r, w in zip(counts.tolist(), wilds.tolist())]
        for compiled in (None, False):
            got = _many(0, counts, wilds, rules, compiled)
            assert got.dtype == np.int8 and got.tolist() == single, (name, compiled)
    wins = [is_winning(r, w, rules) for r, w in zip(c2.tolist(), w2.tolist())]
    assert any(wins) and not all(wins)
    for compiled in (None, False):
        assert _many(1, c2, w2, rules, compiled).tolist() == wins
    want = np.zeros((len(c1), 34), dtype=bool)
    for i, (r, w) in enumerate(zip(c1.tolist(), w1.tolist())):
        want[i, list(waits(r, w, rules).tiles)] = True
    assert want.any()
    for compiled in (None, False):
        got = _many(2, c1, w1, rules, compiled)
        assert got.dtype == bool and (got == want).all(), (name, compiled)


def test_public_calls_take_uint8_lists_and_one_wildcard_number():
    # RULES.md §1.2: 123m 456m 789m 123p + 55s wins; without the 5s pair's second tile it waits on 5s.
    win = _counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 22, 22])
    ready = _counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 22])
    assert is_winning_many(np.array([win], dtype=np.uint8)).tolist() == [True]
    assert shanten_many([win, ready], 0).tolist() == [-1, 0]
    got = waits_many(np.array([ready], dtype=np.uint8))
    assert got.shape == (1, 34) and np.flatnonzero(got[0]).tolist() == [22]
    # one wildcard for every row, or one per row
    assert is_winning_many(np.array([ready], dtype=np.int8), 1).tolist() == [True]
    assert is_winning_many(np.array([ready], dtype=np.int8), np.array([1])).tolist() == [True]
    assert shanten_many(np.zeros((0, 34), dtype=np.int8)).shape == (0,)


@pytest.mark.parametrize("counts, wilds, match", [
    (np.zeros((2, 33), dtype=np.int8), 0, r"\(n, 34\)"),
    (np.full((1, 34), 5, dtype=np.int8), 0, "row 0: 5 copies"),
    (np.zeros((1, 34), dtype=np.float32), 2, "integers"),
    (np.zeros((1, 34), dtype=np.int8), -1, "negative"),
    (np.zeros((2, 34), dtype=np.int8), np.array([2]), r"shape \(2,\)"),
    (np.zeros((1, 34), dtype=np.int8), 1, "row 0: 1 concealed tiles: expected 3k\\+2"),
])
def test_bad_input_is_a_value_error_naming_it(counts, wilds, match):
    with pytest.raises(TileCountError, match=match) as e:
        is_winning_many(counts, wilds)
    assert isinstance(e.value, ValueError)


def test_waits_many_wants_3k_plus_1():
    with pytest.raises(TileCountError, match="3k\\+1"):
        waits_many(np.array([_counts([0, 0])], dtype=np.int8))
    with pytest.raises(TileCountError, match="3k\\+1 or 3k\\+2"):
        shanten_many(np.array([_counts([0, 0, 0])], dtype=np.int8))
