"""The learning environments' fast paths give exactly what the plain definitions give:

* :class:`~majiang.rl.observations.TableEncoder` (the table read directly, planes kept per seat) equals
  :meth:`Encoder.encode` of the seat's :class:`~majiang.engine.PlayerView`, for every preset, with
  seats observed in random order and at random moments;
* the hand analysis without wildcards (``_Fast``) equals the definitions through
  :func:`majiang.analysis.shanten` (the oracle): shanten of the hand, after each discard, and the
  draws that lower it (RULES.md §9, the shapes of the rule set less the knitted ones);
* the layout index of every action object the engine shares equals :func:`index_of`.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from majiang.analysis import shanten  # noqa: E402
from majiang.analysis.shapes import MCR_SHAPES, SEVEN_PAIRS_AND_ORPHANS, STANDARD  # noqa: E402
from majiang.engine import PRESET_NAMES, resolve  # noqa: E402
from majiang.engine import table as engine_table  # noqa: E402
from majiang.rl.actions import _BY_ID, index_of  # noqa: E402
from majiang.rl.core import Table  # noqa: E402
from majiang.rl.observations import _Fast  # noqa: E402


def _walk_compare(rules: str, steps: int, seed: int, oracle: bool = False) -> int:
    t = Table(rules, oracle=oracle)
    rng = random.Random(seed)
    checked = 0
    episode = 0
    while checked < steps:
        t.reset(seed=seed * 1000 + episode)
        episode += 1
        while not t.done and checked < steps:
            seats = [0, 1, 2, 3]
            rng.shuffle(seats)
            for s in seats[:rng.randint(1, 4)]:
                m = t.match
                hidden = [m.table.concealed[x] for x in range(4)] if oracle else None
                fast = t.observe(s)
                plain = t.encoder.encode(m.view(s), hidden)
                assert np.array_equal(fast, plain), (rules, s, m.view(s))
                checked += 1
            seat = t.to_act()
            t.step(seat, rng.choice(list(t.legal(seat))))
    return checked


@pytest.mark.parametrize("rules", list(PRESET_NAMES))
def test_table_encoder_equals_the_view_encoder(rules: str) -> None:
    assert _walk_compare(rules, 400, seed=3) >= 400


def test_table_encoder_oracle_planes() -> None:
    assert _walk_compare("wenzhou", 200, seed=5, oracle=True) >= 200


def test_observe_returns_a_copy() -> None:
    t = Table("mcr")
    t.reset(seed=1)
    s = t.to_act()
    a = t.observe(s)
    a[:] = 7.0
    b = t.observe(s)
    assert not np.array_equal(a, b)


def _hands(size_mod: int):
    """Count vectors of 34 tiles, at most 4 a face, of size 3k+size_mod (k = 1..5: up to the 16-tile
    rule sets' 17)."""
    def build(picks: list[int], k: int) -> list[int]:
        c = [0] * 34
        n = 0
        for t in picks:
            if c[t] < 4:
                c[t] += 1
                n += 1
                if n == 3 * k + size_mod:
                    return c
        return c
    return st.builds(build, st.lists(st.integers(0, 33), min_size=40, max_size=60), st.integers(1, 5)) \
        .filter(lambda c: sum(c) % 3 == size_mod)


def _analysis_shapes(shapes):
    return dataclasses.replace(shapes, honors_and_knitted=False, knitted_straight=False)


# every preset's analysis shapes that the fast path takes (wenzhou's 不搭 goes the general way), and two more
SHAPES = list(dict.fromkeys(
    [_analysis_shapes(resolve(p).shape_rules) for p in PRESET_NAMES
     if _Fast.usable(_analysis_shapes(resolve(p).shape_rules))]
    + [_analysis_shapes(MCR_SHAPES), SEVEN_PAIRS_AND_ORPHANS, STANDARD,
       dataclasses.replace(SEVEN_PAIRS_AND_ORPHANS, quad_as_two_pairs=False),
       dataclasses.replace(SEVEN_PAIRS_AND_ORPHANS, wilds_win=1)]))
IDS = [f"shapes{i}" for i in range(len(SHAPES))]


@pytest.mark.parametrize("shapes", SHAPES, ids=IDS)
@settings(max_examples=100, deadline=None)
@given(hand=_hands(2))
def test_turn_analysis_matches_shanten(shapes, hand: list[int]) -> None:
    fast = _Fast(shapes)
    now, disc, best, useful = fast.turn(list(hand))
    assert now == shanten(hand, 0, shapes)
    want = {}
    for r in range(34):
        if hand[r]:
            after = list(hand)
            after[r] -= 1
            want[r] = shanten(after, 0, shapes)
    assert disc == want
    assert best == min(want.values())
    for r, u in useful.items():
        assert want[r] == best
        after = list(hand)
        after[r] -= 1
        lower = {x for x in range(34) if after[x] < 4 and
                 shanten([after[i] + (i == x) for i in range(34)], 0, shapes) < best}
        assert set(u) == lower
    assert set(useful) == {r for r, v in want.items() if v == best}


@pytest.mark.parametrize("shapes", SHAPES, ids=IDS)
@settings(max_examples=100, deadline=None)
@given(hand=_hands(1))
def test_draw_analysis_matches_shanten(shapes, hand: list[int]) -> None:
    now, useful = _Fast(shapes).draws(list(hand))
    assert now == shanten(hand, 0, shapes)
    lower = {x for x in range(34) if hand[x] < 4 and
             shanten([hand[i] + (i == x) for i in range(34)], 0, shapes) < now}
    assert set(useful) == lower


def test_shared_actions_map_to_their_index() -> None:
    shared = [*engine_table._DISCARDS, *engine_table._WINS[:34], *engine_table._PUNGS[:34],
              *engine_table._EXPOSED_KONGS[:34], *engine_table._CONCEALED_KONGS[:34],
              *engine_table._ADDED_KONGS[:34], *engine_table._READIES[:34]]
    for a in shared:
        assert _BY_ID[id(a)] == index_of(a), a
    chows = [a for (t, low), a in engine_table._CHOWS.items() if t < 27 and low % 9 <= 6 and 0 <= t - low <= 2
             and low < 27]
    assert len(chows) == 63
    for a in chows:
        assert _BY_ID[id(a)] == index_of(a), a
    white_chows = [a for (t, low), a in engine_table._CHOWS.items() if t == 33]
    assert all(id(a) not in _BY_ID for a in white_chows)  # their index depends on the table's white_face
