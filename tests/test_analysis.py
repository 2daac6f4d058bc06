"""Win check, decompositions, waits and shanten against the slow references of tests/reference.py.

Thousands of random hands with 0-8 wildcards and 2-17 tiles (seeded, so every run checks the same
hands; hypothesis adds shrinking searches on top).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.analysis import (
    MCR_SHAPES,
    STANDARD,
    ShapeRules,
    decompositions,
    is_winning,
    shanten,
    shanten_standard,
    waits,
)
from majiang.analysis.samples import random_sets
from majiang.errors import TileCountError
from reference import brute_win, exchange_shanten, identity_win, special_win

NOFIFTH = ShapeRules(wild_fifth_copy=False)
SPECIAL = ShapeRules(standard=False, seven_pairs=True, thirteen_orphans=True, honors_and_knitted=True)


def random_hand(rng: random.Random, size: int, wilds: int, spread: int = 34) -> list[int]:
    """A random concealed part: `size` tiles in all, `wilds` of them wildcards, faces from a window."""
    lo = rng.randrange(0, 34 - spread + 1)
    wall = [t for t in range(lo, lo + spread) for _ in range(4)]
    rng.shuffle(wall)
    c = [0] * 34
    for t in wall[: size - wilds]:
        c[t] += 1
    return c


def near_winning(rng: random.Random, sets: int, wilds: int) -> list[int]:
    """A winning-ish hand: random sets and a pair, then some tiles turned into wildcards or changed."""
    while True:
        c = random_sets(rng, sets, chow_p=0.5)
        if max(c) <= 4:
            break
    tiles = [t for t, n in enumerate(c) for _ in range(n)]
    rng.shuffle(tiles)
    for _ in range(min(wilds, len(tiles))):
        tiles.pop()
    if rng.random() < 0.5 and tiles:
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    out = [0] * 34
    for t in tiles:
        out[t] += 1
    if max(out) > 4:
        return near_winning(rng, sets, wilds)
    return out


CASES = []
_rng = random.Random(20261129)
for _ in range(2500):
    n = _rng.randrange(0, 6)
    w = _rng.choice([0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8])
    w = min(w, 3 * n + 2)
    if _rng.random() < 0.6:
        CASES.append((near_winning(_rng, n, w), w))
    else:
        CASES.append((random_hand(_rng, 3 * n + 2, w, _rng.choice([9, 12, 18, 34])), w))


@pytest.mark.parametrize("fifth", [True, False])
def test_win_check_matches_brute_force(fifth):
    rules = STANDARD if fifth else NOFIFTH
    wins = 0
    for c, w in CASES:
        expected = brute_win(c, w, fifth)
        assert is_winning(c, w, rules) == expected, (c, w)
        wins += expected
    assert 300 < wins < len(CASES) - 300  # the sample holds plenty of both answers


def test_identity_route_agrees_for_few_wildcards():
    for c, w in CASES:
        if w <= 2 and sum(c) + w <= 14:
            assert brute_win(c, w) == identity_win(c, w), (c, w)


def test_special_shapes_match_definition():
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        w = rng.choice([0, 0, 1, 2, 3])
        kind = rng.random()
        if kind < 0.3:  # around seven pairs
            faces = rng.sample(range(34), 7)
            tiles = [t for f in faces for t in (f, f)]
        elif kind < 0.6:  # around thirteen orphans
            tiles = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, rng.choice([0, 8, 27, 33])]
        else:  # around honours and knitted
            arr = rng.choice([(0, 3, 6, 10, 13, 16, 20, 23, 26), (1, 4, 7, 11, 14, 17, 18, 21, 24)])
            tiles = list(arr) + list(range(27, 34))
            rng.shuffle(tiles)
            tiles = tiles[:14]
        rng.shuffle(tiles)
        for _ in range(rng.randrange(3)):
            tiles[rng.randrange(14)] = rng.randrange(34)
        tiles = tiles[: 14 - w]
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        if max(c) > 4:
            continue
        expected = special_win(c, w)
        assert is_winning(c, w, SPECIAL) == bool(expected), (c, w, expected)
        shapes = {d.shape for d in decompositions(c, w, SPECIAL)}
        assert shapes == expected, (c, w)
        checked += 1
    assert checked > 2500


def test_decompositions_are_exactly_the_winning_hands():
    for c, w in CASES[:800]:
        decs = decompositions(c, w, NOFIFTH)
        assert bool(decs) == is_winning(c, w, NOFIFTH)
        for d in decs:
            # every decomposition uses exactly the naturals and the wildcards
            used = [0] * 34
            wild = 0
            for g in d.groups:
                wild += g.wilds
                rest = list(g.tiles)
                for x in g.wild:
                    rest.remove(x)
                for t in rest:
                    used[t] += 1
            assert used == c and wild == w
            assert sum(1 for g in d.groups if g.kind in ("pair", "free-pair")) == 1


@pytest.mark.parametrize("fifth", [True, False])
def test_waits_match_brute_force(fifth):
    rules = STANDARD if fifth else NOFIFTH
    rng = random.Random(99 + fifth)
    seen_waits = 0
    for _ in range(700):
        n = rng.randrange(0, 6)
        w = rng.choice([0, 0, 0, 1, 2, 3])
        c = near_winning(rng, n, w + 1)  # one tile short of complete
        if sum(c) + w != 3 * n + 1:
            continue
        res = waits(c, w, rules)
        formal = set()
        for t in range(34):
            cc = list(c)
            cc[t] += 1
            if brute_win(cc, w, fifth) or (cc[t] > 4 and brute_win(cc, w, True)):
                formal.add(t)
        real = {t for t in formal if c[t] < 4}
        assert set(res.tiles) == real, (c, w)
        assert set(res.exhausted) == formal - real, (c, w)
        seen_waits += bool(real)
    assert seen_waits > 100


def test_shanten_matches_exchange_definition():
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        size = rng.choice([1, 2, 4, 5, 7, 8])
        w = rng.choice([0, 0, 1, 2])
        if w >= size:
            continue
        c = random_hand(rng, size, w, rng.choice([9, 34]))
        # the win predicate inside the search is the table check, itself checked against brute_win above
        expected = exchange_shanten(c, w, lambda cc, ww: is_winning(cc, ww, NOFIFTH))
        assert shanten_standard(c, w) == expected, (c, w)
        checked += 1
    assert checked > 200


def test_shanten_seven_pairs_and_specials_on_small_examples():
    from majiang.tiles import parse_compact, to_counts
    c = to_counts(parse_compact("1122m3344p55s1234z"))  # 5 pairs + 4 singles: 1 away
    assert shanten(c, 0, MCR_SHAPES) == 1
    c = to_counts(parse_compact("19m19p19s1234567z"))  # thirteen orphans, ready
    assert shanten(c, 0, MCR_SHAPES) == 0
    assert waits(c, 0, MCR_SHAPES).tiles == (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def test_bad_sizes_raise():
    with pytest.raises(TileCountError):
        is_winning([0] * 34, 1)
    with pytest.raises(TileCountError):
        waits([1] + [0] * 33, 1)
    with pytest.raises(TileCountError):
        shanten([3] + [0] * 33, 0)
    with pytest.raises(TileCountError):
        is_winning([5] + [0] * 32 + [0], 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=0, max_size=11), st.integers(0, 5))
def test_win_property_any_hand(tiles, w):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    if max(c, default=0) > 4 or (sum(c) + w) % 3 != 2:
        return
    assert is_winning(c, w) == brute_win(c, w)


def test_shanten_consistent_with_win_and_waits_on_large_hands():
    """Where the exhaustive search is too slow (11-17 tiles, 0-8 wildcards), check the definition's edges:
    -1 iff winning; 0 for a 3k+1 part iff some drawable tile wins; 0 for 3k+2 iff some discard leaves
    it ready."""
    rng = random.Random(11)
    seen = {-1: 0, 0: 0, 1: 0}
    for _ in range(400):
        n = rng.choice([3, 4, 5])
        w = rng.choice([0, 0, 1, 2, 3, 5, 8])
        w = min(w, 3 * n)
        c = near_winning(rng, n, w)
        if rng.random() < 0.5 and sum(c):  # make it 3k+1
            t = rng.choice([t for t in range(34) if c[t]])
            c[t] -= 1
        total = sum(c) + w
        s = shanten(c, w, NOFIFTH)
        if total % 3 == 2:
            assert (s == -1) == is_winning(c, w, NOFIFTH), (c, w)
            if s >= 0:
                ready = any(waits([x - (i == t) for i, x in enumerate(c)], w, NOFIFTH).tiles
                            for t in range(34) if c[t])
                assert (s == 0) == ready, (c, w, s)
        else:
            assert (s == 0) == bool(waits(c, w, NOFIFTH).tiles), (c, w, s)
        seen[min(s, 1)] = seen.get(min(s, 1), 0) + 1
    assert seen[-1] > 20 and seen[0] > 50 and seen[1] > 20


def test_split_wildcards():
    from majiang.analysis import split_wildcards
    from majiang.tiles import WILD, parse_compact
    tiles = parse_compact("123m55z6p6p") + [WILD]
    counts, w = split_wildcards(tiles, {14})  # 6p is the wildcard face
    assert w == 3 and counts[31] == 2 and counts[14] == 0
    counts, w = split_wildcards(tiles, {14}, white_stands_in=True)  # White plays 6p
    assert w == 3 and counts[31] == 0 and counts[14] == 2
    counts, w = split_wildcards(tiles, {31}, white_stands_in=True)  # White itself is wild
    assert w == 3 and counts[31] == 0 and counts[14] == 2


@pytest.mark.parametrize("hand, face, white, named", [
    ("5555555555555p", "5p", False, "13 copies of 5p"),  # a wildcard face is still a printed tile
    ("55555p123m456s78s", "5p", False, "5 copies of 5p"),
    ("123m456p789s55555z", "5p", True, "5 copies of 5z"),  # Whites standing in: five printed Whites
    ("123m456p789s5555z5p", "5p", True, None),  # four Whites play 5p beside one wild 5p: fine
    ("123m456p789s5555z6p", "6p", True, None),
])
def test_split_wildcards_counts_printed_copies(hand, face, white, named):
    """Trap kind 'wildcard accounting' (data/cases/traps.json): the four-copy limit holds for the
    printed faces, wildcard faces and Whites included (RULES.md §1.3), not only for natural tiles."""
    from majiang.analysis import split_wildcards
    from majiang.tiles import parse_compact
    tiles = parse_compact(hand)
    wf = parse_compact(face)[0]
    if named is None:
        split_wildcards(tiles, {wf}, white_stands_in=white)
    else:
        with pytest.raises(TileCountError, match=named):
            split_wildcards(tiles, {wf}, white_stands_in=white)


UNCONNECTED = ShapeRules(standard=False, unconnected=True)
EIGHT = ShapeRules(standard=False, eight_pairs=True)


def test_unconnected_shape():
    from majiang.tiles import parse_compact, to_counts
    c = to_counts(parse_compact("147m258p3s1234567z"))  # 14 tiles, all unconnected
    assert sum(c) == 14 and is_winning(c, 0, UNCONNECTED)
    assert {d.shape for d in decompositions(c, 0, UNCONNECTED)} == {"unconnected"}
    bad = to_counts(parse_compact("146m258p3s1234567z"))  # 4m and 6m are two apart: 456m possible
    assert not is_winning(bad, 0, UNCONNECTED)
    c2 = to_counts(parse_compact("15m258p3s1234567z"))  # 13 naturals + a free wildcard
    assert is_winning(c2, 1, UNCONNECTED)
    assert shanten(bad, 0, UNCONNECTED) == 0


def test_eight_pairs_shape():
    from majiang.tiles import parse_compact, to_counts
    c = to_counts(parse_compact("1122m3344p5566s1122z7z"))  # 8 pairs + a loose tile
    assert sum(c) == 17 and is_winning(c, 0, EIGHT) and not is_winning(c, 0, STANDARD)
    quad = to_counts(parse_compact("1111m3344p5566s1122z7z"))  # four of a kind = two pairs
    assert is_winning(quad, 0, EIGHT)
    two_loose = to_counts(parse_compact("1122m3344p5566s112z67z"))
    assert not is_winning(two_loose, 0, EIGHT)
    one_short = to_counts(parse_compact("1122m3344p5566s112z67z"))
    one_short[33] -= 1  # 16 naturals + a wildcard pairs the odd one
    assert is_winning(one_short, 1, EIGHT)
    d = decompositions(c, 0, EIGHT)
    assert [x.shape for x in d] == ["eight-pairs"] and sum(g.kind == "pair" for g in d[0].groups) == 8
    assert shanten(two_loose, 0, EIGHT) == 0


def test_wildcard_count_wins_outright():
    rules = ShapeRules(wilds_win=3)
    c = [0] * 34
    for t in (0, 10, 20, 27, 28, 29, 30, 31, 32, 33, 4):
        c[t] += 1
    assert is_winning(c, 3, rules) and not is_winning(c, 3, STANDARD)
    assert shanten(c, 3, rules) == -1
    c[4] -= 1
    assert shanten(c, 3, rules) == 0 and waits(c, 3, rules).tiles == tuple(range(34))


def test_new_shapes_agree_with_the_wenzhou_predicates():
    """The rules layer kept its own predicates (written separately); both must agree."""
    from majiang.rules.wenzhou import shapes as wz
    rng = random.Random(17)
    for _ in range(2000):
        w = rng.choice([0, 0, 1, 2])
        if rng.random() < 0.5:
            faces = rng.sample(range(34), 14 - w)
            c = [0] * 34
            for t in faces:
                c[t] += 1
            assert is_winning(c, w, UNCONNECTED) == wz.is_buda(c, w), (c, w)
        else:
            c = near_winning(rng, 5, w)
            if sum(c) + w != 17:
                continue
            assert is_winning(c, w, EIGHT) == wz.is_eight_pairs(c, w), (c, w)


def test_split_counts_matches_split_wildcards():
    from majiang.analysis.wildcards import split_counts, split_wildcards
    rng = random.Random(3)
    for _ in range(300):
        tiles = [rng.randrange(34) for _ in range(13)]
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        if max(c) > 4:
            continue
        face = rng.randrange(34)
        for stand_in in (False, True):
            assert split_counts(list(c), face, stand_in) == split_wildcards(tiles, {face}, stand_in)


def _near_special(rng: random.Random, kind: str) -> list[int]:
    """A complete special shape's tiles (14, or 17 for eight pairs, 11 for a knitted straight with
    one meld declared), as a face list."""
    from majiang.analysis.shapes import KNITTED_ARRANGEMENTS
    orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    if kind == "seven_pairs":
        return [t for t in rng.sample(range(34), 7) for _ in range(2)]
    if kind == "eight_pairs":
        return [t for t in rng.sample(range(34), 8) for _ in range(2)] + [rng.randrange(34)]
    if kind == "orphans":
        return orphans + [rng.choice(orphans)]
    knit = list(rng.choice(KNITTED_ARRANGEMENTS))
    if kind == "honors_knitted":
        return rng.sample(knit + list(range(27, 34)), 14)
    if kind == "unconnected":
        faces = [b + r for b in (0, 9, 18) for r in rng.choice([(0, 3, 6), (0, 4, 8), (1, 4, 7), (2, 5, 8), (0, 3, 7)])]
        return rng.sample(faces + list(range(27, 34)), 14)
    rest = rng.choice([[t, t + 1, t + 2] for t in range(7)] + [[t] * 3 for t in range(34)])
    pair = [rng.randrange(34)] * 2
    tiles = knit + (rest + pair if kind == "knitted_14" else pair)
    return tiles


SPECIAL_RULES = {
    "seven_pairs": [MCR_SHAPES, SPECIAL, ShapeRules(seven_pairs=True, quad_as_two_pairs=False)],
    "orphans": [MCR_SHAPES, SPECIAL],
    "honors_knitted": [MCR_SHAPES, SPECIAL],
    "knitted_14": [MCR_SHAPES, ShapeRules(knitted_straight=True, wild_fifth_copy=False)],
    "knitted_11": [MCR_SHAPES],
    "eight_pairs": [ShapeRules(eight_pairs=True), ShapeRules(eight_pairs=True, seven_pairs=True)],
    "unconnected": [ShapeRules(unconnected=True), ShapeRules(unconnected=True, wilds_win=4)],
}


@pytest.mark.parametrize("kind", sorted(SPECIAL_RULES))
def test_special_waits_are_the_tiles_that_win(kind):
    """waits() skips the per-tile special checks when the hand is not ready for a special shape;
    its waits must still be exactly the tiles (with a copy left) whose draw wins, with the special
    shapes and wildcards, on hands one or two tiles from a special shape."""
    rng = random.Random(kind)
    ready = 0
    for i in range(400):
        tiles = _near_special(rng, kind)
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        rng.shuffle(tiles)
        tiles.pop()  # one short
        if i % 3 == 0:  # and often one tile changed: mostly not ready any more
            tiles[0] = rng.randrange(34)
        w = rng.choice([0, 0, 0, 1, 2]) if kind not in ("knitted_11",) else 0
        c = [0] * 34
        for t in tiles[w:]:
            c[t] += 1
        if max(c) > 4:
            continue
        for rules in SPECIAL_RULES[kind]:
            expected = {t for t in range(34) if c[t] < 4 and is_winning([x + (j == t) for j, x in enumerate(c)], w, rules)}
            got = waits(c, w, rules)
            assert set(got.tiles) | {t for t in got.exhausted if c[t] < 4} == expected, (kind, c, w, rules)
            ready += bool(expected)
    assert ready > 100
