"""Hypothesis properties of the wildcard rule sets: every settlement is zero-sum; liabilities
(统包, 抢杠) move who pays, never what the winner receives; scoring is deterministic."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majiang.hand import Hand
from majiang.rules import seed000, shandong
from majiang.rules.wenzhou import W13Options, W16Options, WinContext, w13, w16
from majiang.tiles import WILD

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@st.composite
def winning_hand(draw, sets: int, max_wilds: int):
    """A complete hand built from ``sets`` random sets and a pair, with up to ``max_wilds`` tiles
    turned into wildcards; returns (hand, self_drawn_required)."""
    tiles: list[int] = []
    for _ in range(sets):
        if draw(st.booleans()):
            t = draw(st.integers(0, 33))
            tiles += [t] * 3
        else:
            s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            tiles += [9 * s + r + i for i in range(3)]
    tiles += [draw(st.integers(0, 33))] * 2
    assume(all(tiles.count(t) <= 4 for t in set(tiles)))
    order = draw(st.permutations(range(len(tiles))))
    k = draw(st.integers(0, max_wilds))
    wild_idx = set(order[:k])
    phys = [WILD if i in wild_idx else t for i, t in enumerate(tiles)]
    win_i = draw(st.integers(0, len(phys) - 1))
    win = phys[win_i]
    rest = phys[:win_i] + phys[win_i + 1:]
    hand = Hand(tuple(t for t in rest if t != WILD), (), win, (), sum(1 for t in rest if t == WILD))
    return hand


@st.composite
def context(draw, hand: Hand, *, w16_facts: bool = False):
    seat = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    self_drawn = hand.win_tile == WILD or draw(st.booleans())
    discarder = None if self_drawn else draw(st.sampled_from([s for s in range(4) if s != seat]))
    robbing = (not self_drawn) and draw(st.booleans())
    feeds = tuple(draw(st.lists(st.sampled_from([(a, (a + 1) % 4) for a in range(4)]), max_size=6)))
    extra = {}
    if w16_facts:
        counts = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda c: sum(c) <= 3))
        extra = dict(wild_counts=tuple(counts),
                     kongs=tuple(draw(st.lists(st.tuples(st.integers(0, 3),
                                                         st.sampled_from(["exposed", "concealed", "added"])),
                                               max_size=3))))
    return WinContext(seat=seat, dealer=dealer, self_drawn=self_drawn, discarder=discarder, robbing_kong=robbing,
                      first_turn=self_drawn and draw(st.booleans()), wild_face=draw(st.integers(0, 33)),
                      dealer_streak=draw(st.integers(0, 6)), chow_feeds=feeds, **extra)


def _check_win_ledger(ledger, winner):
    d = ledger.deltas
    assert sum(d) == 0
    assert d[winner] > 0
    assert all(p.amount >= 0 and p.payer != p.payee for p in ledger.payments)


@SETTINGS
@given(st.data())
def test_w13_settlement_zero_sum_and_liability_moves_payers_only(data):
    hand = data.draw(winning_hand(4, 3))
    ctx = data.draw(context(hand))
    r = w13.score(hand, ctx)
    assert r.multiplier >= 1 and r == w13.score(hand, ctx)
    led = w13.settle(r)
    _check_win_ledger(led, ctx.seat)
    plain = w13.score(hand, ctx, W13Options(tongbao=False, robbing_kong_liability=False))
    assert w13.settle(plain).deltas[ctx.seat] == led.deltas[ctx.seat]


@SETTINGS
@given(st.data())
def test_w16_settlement_zero_sum(data):
    hand = data.draw(winning_hand(5, 3))
    ctx = data.draw(context(hand, w16_facts=True))
    r = w16.score(hand, ctx)
    assert r.multiplier in (1, 2, 4)
    assert sum(w16.settle(r).deltas) == 0
    special = w16.score(hand, ctx, W16Options(special_double=True, lazila=True))
    assert special.multiplier in (1, 2, 4, 8) and special.multiplier >= r.multiplier
    assert sum(w16.settle(special).deltas) == 0
    bare = WinContext(seat=ctx.seat, dealer=ctx.dealer, self_drawn=ctx.self_drawn, discarder=ctx.discarder,
                      wild_face=ctx.wild_face, dealer_streak=ctx.dealer_streak)
    _check_win_ledger(w16.settle(w16.score(hand, bare)), ctx.seat)


@SETTINGS
@given(st.data())
def test_seed000_settlement_zero_sum(data):
    sets = data.draw(st.sampled_from([4, 5]))
    hand = data.draw(winning_hand(sets, 4))
    ctx = data.draw(context(hand))
    r = seed000.score(hand, ctx, seed000.Seed000Options(sets=sets))
    _check_win_ledger(seed000.settle(r), ctx.seat)


@SETTINGS
@given(st.data())
def test_shandong_settlement_zero_sum(data):
    hand = data.draw(winning_hand(4, 0))
    ctx = data.draw(context(hand))
    ctx = WinContext(seat=ctx.seat, dealer=ctx.dealer, self_drawn=ctx.self_drawn, discarder=ctx.discarder,
                     last_tile=data.draw(st.booleans()))
    r = shandong.score(hand, ctx)
    assert r.points == (2 if ctx.self_drawn else 1)
    _check_win_ledger(shandong.settle(r), ctx.seat)


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 3))
def test_penalties_zero_sum(seat, _):
    assert sum(w13.penalty_followed(seat).deltas) == 0
    opt = W13Options(allow_wild_discard_with_penalty=True)
    assert sum(w13.penalty_wild_discard(seat, opt).deltas) == 0



