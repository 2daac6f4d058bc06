"""The fast scoring path (rules/mcr/fast.py) against the reference procedure it replaced.

``scoring._plain_arrangements`` keeps the original procedure (every decomposition from the analysis
layer, the fans.py detectors, ``fans.select``); ``score_arrangements`` uses the per-suit tables and the
table-driven families of fast.py. They must give the same arrangements under every option.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.rules.mcr import McrOptions
from majiang.rules.mcr import scoring
from majiang.rules.mcr.random_hands import random_winning_hands

OPTIONS = [McrOptions(), McrOptions(knitted_straight_waits=False), McrOptions(melded_concealed_kong_pair=False),
           McrOptions(fifth_copy_waits=True)]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "no-knitted-waits", "kong-pair-split", "fifth-copy-waits"])
def test_fast_path_equals_the_reference_procedure(options):
    n = 0
    for hand, cond in random_winning_hands(2500, 4242):
        fast = scoring.score_arrangements(hand, cond, options)
        plain = scoring._plain_arrangements(hand, cond, options)
        assert fast == plain, (str(hand), cond)
        n += 1
    assert n == 2500


def test_special_shapes_never_count_a_wait_fan():
    """The scorer skips the unique-wait test for 七对 / 十三幺 / 全不靠 arrangements (RULES.md §6):
    valid only while each of their shape fans excludes 单钓将 (the only wait fan such a shape can
    give) and every fan excluding a shape fan in such an arrangement excludes 单钓将 too (连七对
    over 七对). 一色双龙会 also excludes 七对 (its 1-2-3/7-8-9 pairs read as seven pairs) but needs
    chows, so it is never detected in a seven-pairs arrangement."""
    from majiang.rules.mcr import fans as F

    single = F.N["single_wait"]
    shape_fans = [F.N[k] for k in ("seven_pairs", "thirteen_orphans", "greater_honors_and_knitted_tiles",
                                   "lesser_honors_and_knitted_tiles")]
    for n in shape_fans:
        assert single in F.fan(n).excludes, F.fan(n).name_en
        for other in F.FANS:
            if n in other.excludes and other.number != F.N["pure_terminal_chows"]:
                assert single in other.excludes, (other.name_en, F.fan(n).name_en)


def test_result_is_immutable_and_builds_its_arrangement_when_read():
    from majiang.rules.mcr import parse_hand_string, score

    hand, cond = parse_hand_string("[123m,1][345m,1]678p56sWW7s")
    r = score(hand, cond)
    with pytest.raises(AttributeError):
        r.total = 99  # type: ignore[misc]
    units = r.arrangement
    assert r.arrangement == units and r.fans == score(hand, cond).fans
    # declared melds first: the two chows, then the concealed groups sorted (678p, 567s, WW)
    assert [u.tiles for u in units] == [(0, 1, 2), (2, 3, 4), (14, 15, 16), (22, 23, 24), (29, 29)]
    assert r == score(hand, cond) and hash(r) == hash(score(hand, cond))
    import copy
    import pickle

    for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert again == r and again.fans == r.fans and again.arrangement == units and again.total == r.total


@settings(max_examples=3000, deadline=None)
@given(st.sets(st.integers(0, 33), min_size=1, max_size=14), st.booleans())
def test_tile_set_table_is_keyed_by_all_it_depends_on(tiles, pairs_or_standard):
    """fast.tile_set_hits keeps its results per a key of subset predicates; any two tile sets
    with one key must have the same tile-set fans: compare with the computation itself."""
    from majiang.rules.mcr import fast as FP

    present = sum(1 << t for t in tiles)
    assert FP.tile_set_hits(present, pairs_or_standard) == FP._tile_set_hits_of(present, pairs_or_standard)


@settings(max_examples=1500, deadline=None)
@given(st.booleans(), st.lists(st.integers(0, 26), min_size=2, max_size=4))
def test_combination_hits_in_unit_order_equal_the_direct_count(pungs, tiles):
    """fast.combination_hits keeps the detections of each sorted set tuple and maps positions back
    to the unit order: the same (fan, positions) pairs as the direct enumeration over subsets."""
    from itertools import combinations

    from majiang.rules.mcr import fans as F
    from majiang.rules.mcr import fast as FP

    sets = tuple(t for t in tiles if pungs or t % 9 < 7)
    if len(sets) < 2:
        return
    direct = []
    pos = [(10 * pungs + p, t) for p, t in enumerate(sets)]
    fans_of = F._pung_fans if pungs else F._chow_fans
    for n in range(len(pos), 1, -1):
        for combo in combinations(pos, n):
            for f in fans_of([(t // 9, t % 9 + 1) for _, t in combo]):
                direct.append((FP.OKEY[f], tuple(i for i, _ in combo)))
    assert sorted(FP.combination_hits(sets, pungs)) == sorted(direct)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from([0, 9, 18, 27]), st.lists(st.integers(0, 8), max_size=14), st.booleans())
def test_suit_state_agrees_with_enumerating_the_splits(lo, faces, fifth):
    """fast._suit_state searches for one split and stops there; enumerating every split
    (fast._enum_suit) must agree, fifth copies in form only included."""
    from majiang.rules.mcr import fast as FP

    width = 7 if lo == 27 else 9
    part = [0] * width
    for f in faces:
        if part[f % width] < 4:
            part[f % width] += 1
    if fifth and 4 in part:
        part[part.index(4)] = 5
    part = tuple(part)
    splits: set = set()
    if sum(part) % 3 != 1:
        FP._enum_suit([0] * lo + list(part), lo, lo + width, lo < 27, True, [], splits)
    FP._SUIT_STATE.pop((lo, part), None)
    assert FP._suit_state(lo, part) == (any(not p for _, p in splits), any(p for _, p in splits))


@pytest.mark.parametrize("pungs", [False, True], ids=["chows", "pungs"])
def test_set_fans_table_holds_every_fan_forming_multiset(pungs):
    """fast._SET_FANS is built from the multisets that can form a fan (pairs; three or four sets
    of one suit; three sets of three suits): every multiset of two to four sets, in any order,
    must look up the fans that fans._chow_fans / fans._pung_fans give it."""
    from itertools import combinations_with_replacement

    from majiang.rules.mcr import fans as F
    from majiang.rules.mcr import fast as FP

    fans_of = F._pung_fans if pungs else F._chow_fans
    table = FP._set_fans(pungs)
    kinds = [t for t in range(27) if pungs or t % 9 < 7]
    formed = 0
    for n in (2, 3, 4):
        for combo in combinations_with_replacement(kinds, n):
            want = tuple(FP.OKEY[f] for f in fans_of([(t // 9, t % 9 + 1) for t in combo]))
            assert table.get(combo, ()) == want, combo
            assert table.get(combo[::-1], ()) == want, combo
            formed += bool(want)
    assert formed > 100 and formed * 2 < len(table)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from([0, 9, 18, 27]), st.lists(st.integers(0, 8), max_size=14))
def test_suit_splits_from_runs_equal_enumerating_the_whole_suit(lo, faces):
    """fast._suit_decomps combines the splits of the suit's runs (no chow crosses an empty face);
    enumerating the whole suit at once (fast._enum_suit) must give the same splits."""
    from majiang.rules.mcr import fast as FP

    width = 7 if lo == 27 else 9
    part = [0] * width
    for f in faces:
        if part[f % width] < 4:
            part[f % width] += 1
    part = tuple(part)
    splits: set = set()
    if sum(part) % 3 != 1:
        FP._enum_suit([0] * lo + list(part), lo, lo + width, lo < 27, True, [], splits)
    FP._SUIT_DECOMP.pop((lo, part), None)
    assert FP._suit_decomps(lo, part) == tuple(sorted(splits))


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from([0, 9, 18, 27]), st.lists(st.integers(0, 8), max_size=13))
def test_suit_adds_from_runs_equal_trying_every_tile(lo, faces):
    """fast._suit_adds reads the completing tiles from the part's runs; adding each tile to the
    whole suit and searching for a split (fast._completes) must give the same four lists."""
    from majiang.rules.mcr import fast as FP

    width = 7 if lo == 27 else 9
    part = [0] * width
    for f in faces:
        if part[f % width] < 4:
            part[f % width] += 1
    want: tuple[list[int], ...] = ([], [], [], [])
    for j in range(width):
        fifth = 2 if part[j] == 4 else 0
        c = list(part)
        c[j] += 1
        m = sum(c) % 3
        if m != 1 and FP._completes(c, 0, width, lo < 27, m == 2):
            want[fifth + (m == 2)].append(lo + j)
    FP._SUIT_ADDS.pop((lo, tuple(part)), None)
    FP._ADDS_BY_COUNTS.pop((lo < 27, tuple(part)), None)
    assert FP._suit_adds(lo, tuple(part)) == tuple(tuple(x) for x in want)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from([0, 9, 18, 27]), st.lists(st.integers(0, 8), max_size=14), st.integers(0, 8))
def test_suit_info_from_runs_equals_summarising_every_split(lo, faces, centre):
    """fast.suit_info merges the kept splits and summaries of the part's runs; enumerating the
    whole suit's splits (fast._enum_suit) and summarising each (fast._split_summary) must give the
    same splits and summaries. Half the faces gather near ``centre`` so that splits are common."""
    from majiang.rules.mcr import fast as FP

    width = 7 if lo == 27 else 9
    part = [0] * width
    for k, f in enumerate(faces):
        f = f % width if k % 2 else min(width - 1, max(0, centre + f % 3 - 1))
        if part[f] < 4:
            part[f] += 1
    part = tuple(part)
    splits: set = set()
    if sum(part) % 3 != 1:
        FP._enum_suit([0] * lo + list(part), lo, lo + width, lo < 27, True, [], splits)
    want = tuple(sorted(splits))
    FP._SUIT_INFO.pop((lo, part), None)
    info = FP.suit_info((lo, part))
    assert info[0] == want
    assert info[4] == tuple(FP._split_summary(lo, width, groups) for groups, _ in want)
