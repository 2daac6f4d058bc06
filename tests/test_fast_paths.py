"""The fast paths of issue 14 (bot speed) give exactly what the previous code gave.

* the per-block dynamic programmes of :mod:`majiang.analysis.tables` (need and used-vectors), lazy
  and eager (:func:`~majiang.analysis.tables.build_blocks`), against the previous versions
  (``tests/reference_fast.py``) on every block of up to 7 tiles and on random larger blocks;
* a suit's used-vectors (folded from block ids) against the block-by-block fold;
* the efficiency bot's choices against the previous bot on random positions (turns and claims,
  with and without wildcards) and at every decision of whole games.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from majiang.analysis import tables as T
from majiang.engine import Action, ActionKind, Match, RuleSet, run_match
from majiang.players import EfficiencyBot
from majiang.tiles import NUM_KINDS

from reference_fast import ReferenceEfficiencyBot, ref_block_need, ref_block_used, ref_suit_used


def _all_blocks(max_tiles: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(pre: list[int], total: int) -> None:
        if pre and pre[-1]:
            out.append(tuple(pre))
        if len(pre) == 9:
            return
        for v in range(5):
            if total + v > max_tiles:
                break
            if v == 0 and (not pre or pre[-1] == 0):
                continue
            pre.append(v)
            rec(pre, total + v)
            pre.pop()

    rec([], 0)
    return out


def _random_blocks(n: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    out: set[tuple[int, ...]] = set()
    while len(out) < n:
        size = rng.randint(1, 9)
        b = [rng.randint(0, 4) for _ in range(size)]
        b[0] = b[0] or 1
        b[-1] = b[-1] or 1
        if sum(b) <= 14 and not any(b[i] == 0 == b[i + 1] for i in range(size - 1)):
            out.add(tuple(b))
    return sorted(out)


SMALL = _all_blocks(7)
LARGE = _random_blocks(250, 14)


def test_block_enumeration_counts():
    # 13 blocks of at most 3 tiles: 1 2 3 11 12 21 101 111 ... (checked by hand below)
    assert sorted(b for b in SMALL if sum(b) <= 2) == [(1,), (1, 0, 1), (1, 1), (2,)]
    assert len(_all_blocks(3)) == 13 and len(SMALL) == 982


def test_block_used_matches_reference():
    T.clear_caches()
    for b in SMALL + LARGE:
        assert T._block_used(b) == ref_block_used(b), b
    # mirror images share an entry: the second look-up of each pair is the first's vector
    T.clear_caches()
    for b in LARGE:
        assert T._block_used(b[::-1]) == ref_block_used(b[::-1]), b


def test_block_need_matches_reference():
    T.clear_caches()
    for b in SMALL + LARGE:
        for cap in (True, False):
            assert T._block_need(b, cap) == ref_block_need(b, cap), (b, cap)


def test_build_blocks_matches_reference():
    T.clear_caches()
    n = T.build_blocks(6)
    assert n == len(_all_blocks(6)) == 352
    for b in _all_blocks(6):
        assert T._BLOCK_USED[b] == ref_block_used(b), b
    T.clear_caches()
    assert T.build_blocks(7, deadline=0.0) < 982  # a deadline in the past stops it early


def test_suit_used_matches_reference():
    T.clear_caches()
    rng = random.Random(3)
    for _ in range(600):
        c = [0] * 9
        for _ in range(rng.randint(0, 14)):
            c[rng.randrange(9)] += 1
        c = tuple(min(x, 4) for x in c)
        assert T.VECTORS[T.suit_used(c)] == ref_suit_used(c), c


# ------------------------------------------------------------------------------------ the bot
def _deck() -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(4)]


def _random_view(base, rng: random.Random, phase: str, wild: int | None):
    deck = _deck()
    rng.shuffle(deck)
    size = rng.choice((14, 14, 14, 11, 8)) - (1 if phase == "claim" else 0)
    hand = tuple(sorted(deck[:size]))
    rest = deck[size:]
    rivers = tuple(tuple(rest[10 * i: 10 * i + rng.randint(0, 10)]) for i in range(4))
    claim = rest[45] if phase == "claim" else None
    return replace(base, hand=hand, phase=phase, rivers=rivers, claim_tile=claim,
                   discarder=(base.seat + 3) % 4 if phase == "claim" else None, wild_face=wild,
                   indicator=None, last_draw=hand[0] if phase == "turn" else None)


def _actions(view) -> list[Action]:
    counts = [0] * NUM_KINDS
    for t in view.hand:
        counts[t] += 1
    if view.phase == "turn":
        acts = [Action(ActionKind.DISCARD, t) for t in sorted(set(view.hand))]
        acts += [Action(ActionKind.CONCEALED_KONG, t) for t in range(NUM_KINDS) if counts[t] == 4]
        return acts
    t = view.claim_tile
    acts = [Action(ActionKind.PASS)]
    if counts[t] >= 2:
        acts.append(Action(ActionKind.PUNG, t))
    if counts[t] >= 3:
        acts.append(Action(ActionKind.EXPOSED_KONG, t))
    if t < 27:
        for low in range(max(t - 2, 9 * (t // 9)), min(t, 9 * (t // 9) + 6) + 1):
            if all(counts[x] for x in (low, low + 1, low + 2) if x != t):
                acts.append(Action(ActionKind.CHOW, t, low))
    return acts


@pytest.mark.parametrize("preset,wild", [("mcr", None), ("wenzhou13", 5), ("wenzhou13", 33)])
def test_efficiency_bot_same_choices_on_random_positions(preset, wild):
    rules = RuleSet.preset(preset)
    base = Match(rules, seed=1, max_hands=1)
    view0 = base.view(base.pending_seats()[0])
    new, ref = EfficiencyBot(rules), ReferenceEfficiencyBot(rules)
    rng = random.Random(hash((preset, wild)) & 0xFFFF)
    n = 300 if wild is None else 60
    for i in range(n):
        v = _random_view(view0, rng, "turn" if i % 3 else "claim", wild)
        acts = _actions(v)
        assert new.choose(v, acts) == ref.choose(v, acts), v.hand


class _Both:
    """Plays the fast bot and checks the reference bot makes the same choice."""

    def __init__(self, rules: RuleSet) -> None:
        self.new, self.ref = EfficiencyBot(rules), ReferenceEfficiencyBot(rules)
        self.decisions = 0

    def choose(self, view, actions):
        a = self.new.choose(view, actions)
        assert a == self.ref.choose(view, actions), (view, actions)
        self.decisions += 1
        return a


@pytest.mark.parametrize("preset", ["mcr", "wenzhou13", "taiwan"])
def test_efficiency_bot_same_choices_in_games(preset):
    rules = RuleSet.preset(preset)
    players = [_Both(rules) for _ in range(4)]
    m = Match(rules, seed=11, max_hands=4)
    run_match(m, players)
    assert m.finished and sum(p.decisions for p in players) > 80


@pytest.mark.parametrize("shapes", [
    dict(seven_pairs=True, quad_as_two_pairs=False),
    dict(thirteen_orphans=True),
    dict(seven_pairs=True, thirteen_orphans=True, honors_and_knitted=True, knitted_straight=True),
    dict(unconnected=True, seven_pairs=True),
    dict(eight_pairs=True),
])
def test_efficiency_bot_same_choices_under_other_shapes(shapes):
    from majiang.analysis import ShapeRules

    rules = RuleSet.preset("mcr")
    base = Match(rules, seed=1, max_hands=1)
    view0 = base.view(base.pending_seats()[0])
    new, ref = EfficiencyBot(rules), ReferenceEfficiencyBot(rules)
    new.shapes = ref.shapes = ShapeRules(**shapes)
    rng = random.Random(len(str(shapes)))
    for i in range(60):
        v = _random_view(view0, rng, "turn" if i % 3 else "claim", None)
        acts = _actions(v)
        assert new.choose(v, acts) == ref.choose(v, acts), v.hand


@pytest.fixture
def bounded_tables():
    """The suit-keyed tables bounded at 1,024 entries for one test, then back to the default."""
    T.limit_tables(1024)
    yield
    T.limit_tables(T.SUIT_CAP)


def _random_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    wall = [t for t in range(NUM_KINDS) for _ in range(4)]
    hands = []
    for i in range(n):
        rng.shuffle(wall)
        c = [0] * NUM_KINDS
        for t in wall[:(13, 14, 10, 16)[i % 4]]:
            c[t] += 1
        hands.append(c)
    return hands


def test_bounded_tables_give_the_same_answers(bounded_tables):
    """Tables bounded by ``limit_tables`` (the web server's memory bound) drop their older half
    when full and rebuild what they dropped: every answer stays that of unbounded tables, over
    enough hands to fill them many times."""
    from majiang.analysis import is_winning, shanten, waits
    from majiang.analysis.shapes import MCR_SHAPES

    hands = _random_hands(6000, 11)

    def answers() -> list:
        out = []
        for c in hands:
            ready_size = sum(c) % 3 == 1
            out.append((shanten(c, 0, MCR_SHAPES), waits(c).tiles if ready_size else is_winning(c)))
        return out

    bounded = answers()
    assert all(len(t) <= 1024 for t in (T.SUIT_INFO, T.USED, T.NEED_CAP, T.ADDS_CAP, T.WIN_SUIT))
    T.limit_tables(T.SUIT_CAP)
    T.clear_caches()
    assert answers() == bounded
    assert len(T.SUIT_INFO) > 1024  # the same hands did overflow the bound above


def test_a_full_table_keeps_its_newer_half():
    t = T.LazyTable(lambda k: k * 2, cap=8)
    for k in range(9):
        assert t[k] == 2 * k
    assert sorted(t) == [4, 5, 6, 7, 8]  # the older half (0-3) went when the ninth came
    with pytest.raises(ValueError, match="500"):
        T.limit_tables(500)


def test_win_check_reads_every_input_form_as_its_counts():
    """The win check's hot path reads the counts as bytes: lists, tuples, bytes, numpy arrays of
    any integer type and integral floats give the brute-force answer (tests/reference.py), and
    what bytes would misread (a 35th entry, a numpy ``int64`` buffer that is not 34 counts, 34
    one-byte counts in a 2-D array, a count outside 0-4 in a group the tables have already seen) is
    refused by name."""
    import numpy as np

    from majiang.analysis import MCR_SHAPES, is_winning
    from majiang.errors import TileCountError
    from reference import brute_win

    rng = random.Random(29)
    hands = _random_hands(400, 29)
    for c in hands:
        if sum(c) % 3 != 2:
            c[rng.choice([t for t in range(NUM_KINDS) if c[t] < 4])] += 1
            if sum(c) % 3 != 2:
                continue
        want = brute_win(c, 0)
        for form in (c, tuple(c), bytes(c), np.array(c), np.array(c, dtype=np.uint8), [float(x) for x in c]):
            assert is_winning(form) is want, (c, type(form))
    win = [0] * NUM_KINDS
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 27):
        win[t] += 1
    assert is_winning(win)  # its groups are in the tables now
    for bad, what in ((win + [0], "34 entries, got 35"), (win[:33], "34 entries, got 33"),
                      (np.array(win + [0]), "34 entries, got 35"), ([-1] + win[1:], "got -1"),
                      (np.array([win], dtype=np.uint8), "34 entries, got 1"),
                      (np.array(win, dtype=np.uint8).reshape(2, 17), "34 entries, got 2"),
                      (np.array(win, dtype=np.uint8).reshape(34, 1), "the count of 1m is array"),
                      ([5] + win[1:], "got 5"), (win[:27] + [3, 0, 0, 0, 0, 0, 0], "15 concealed tiles")):
        with pytest.raises(TileCountError, match=what):
            is_winning(bad)
        with pytest.raises(TileCountError, match=what):  # the special shapes' path after a miss too
            is_winning(bad, 0, MCR_SHAPES)
