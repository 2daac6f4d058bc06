"""Settlement (RULES.md §3.3): the two worked examples exactly, every payment case, stakes, the
dealer terms, and a property test that every ledger is zero-sum."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from twhelp import BASE, BASE_WIN, sc, win

from majiang.hand import Hand
from majiang.rules.settlement import Ledger, SettlementError
from majiang.rules.taiwan import (
    Stakes,
    TaiwanOptions,
    TaiwanScoringError,
    TaiwanWin,
    payment_amount,
    score,
    settle,
)

CONCEALED_TWO_SIDED = "123m456m789m234p55p67s"  # + 8s: 5s/8s wait, no honours


def paid(ledger: Ledger) -> dict[int, int]:
    return {p.payer: p.amount for p in ledger.payments}


# ------------------------------------------------------------------------------ worked examples
def test_worked_example_1_non_dealer_self_draw_dealer_on_streak_1():
    """B (seat 1) self-draws a concealed hand with one seat flower: 門清 1 + 自摸 1 + 不求 1 + 正花 1
    = 4 台. Dealer A (seat 0) is on 連1 (D = 3). C, D pay 30 + 4×10 = 70; A pays 30 + 7×10 = 100;
    B receives 240."""
    r = sc(CONCEALED_TWO_SIDED, "8s", flowers="2f", seat=1, dealer=0, self_drawn=True, streak=1)
    assert r.counts() == {"tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1, "tw.zhenghua": 1}
    assert r.total_tai == 4
    ledger = settle(r, Stakes(base=30, per_tai=10))
    assert paid(ledger) == {0: 100, 2: 70, 3: 70}
    assert ledger.deltas == [-100, 240, -70, -70]


def test_worked_example_2_dealer_wins_two_tai_on_a_discard():
    """The dealer (no streak, D = 1) wins 2 台 on C's discard: C pays 30 + (2+1)×10 = 60."""
    r = sc("[chi 123m] 456m789m234p55p67s", "8s", seat=0, dealer=0, discarder=2)
    assert r.counts() == {"tw.pinghu": 1} and r.total_tai == 2
    ledger = settle(r)
    assert paid(ledger) == {2: 60}
    assert ledger.deltas == [60, 0, -60, 0]


# ------------------------------------------------------------------------------ payment cases
def test_self_draw_without_dealer_streak():
    r = sc(BASE, BASE_WIN, seat=2, dealer=0, self_drawn=True)  # 自摸 1
    assert paid(settle(r)) == {0: 30 + (1 + 1) * 10, 1: 40, 3: 40}


def test_dealer_self_draw_on_streak_2_everyone_pays_the_dealer_terms():
    r = sc(BASE, BASE_WIN, seat=0, dealer=0, self_drawn=True, streak=2)  # 1 台, D = 5
    assert paid(settle(r)) == {1: 30 + 6 * 10, 2: 90, 3: 90}


def test_discard_win_only_the_discarder_pays():
    r = sc(BASE, BASE_WIN, seat=1, dealer=0, discarder=3, last_discard=True)  # 河底撈魚 1
    assert paid(settle(r)) == {3: 30 + 10}


def test_discard_by_the_dealer_adds_the_dealer_terms():
    r = sc(BASE, BASE_WIN, seat=1, dealer=0, discarder=0, streak=3)  # 0 台, D = 7
    assert paid(settle(r)) == {0: 30 + 7 * 10}


def test_discard_between_non_dealers_has_no_dealer_terms():
    r = sc(BASE, BASE_WIN, seat=1, dealer=0, discarder=2, streak=3)
    assert paid(settle(r)) == {2: 30}


def test_robbing_a_kong_the_robbed_player_pays_alone():
    r = sc(BASE, BASE_WIN, seat=3, dealer=0, discarder=1, robbing_kong=True)  # 搶槓 1
    ledger = settle(r)
    assert paid(ledger) == {1: 40} and ledger.deltas == [0, -40, 0, 40]


def test_qiqiang_yi_the_drawer_of_the_eighth_flower_pays_alone():
    r = score(None, TaiwanWin(seat=2, dealer=0, flower_drawer=1, flowers=tuple(range(34, 41))))
    assert paid(settle(r)) == {1: 30 + 8 * 10}
    r = score(None, TaiwanWin(seat=2, dealer=0, flower_drawer=0, flowers=tuple(range(34, 41)), streak=1))
    assert paid(settle(r)) == {0: 30 + (8 + 3) * 10}


def test_baxian_guohai_is_paid_like_a_self_draw():
    r = score(None, TaiwanWin(seat=2, dealer=0, self_drawn=True, flowers=tuple(range(34, 42))))
    assert paid(settle(r)) == {0: 30 + 9 * 10, 1: 110, 3: 110}


def test_kong_replacement_and_last_tile_are_self_draws():
    r = sc(BASE, BASE_WIN, seat=1, self_drawn=True, kong_replacement=True)
    assert set(paid(settle(r))) == {0, 2, 3}
    r = sc(BASE, BASE_WIN, seat=1, self_drawn=True, last_tile=True)
    assert set(paid(settle(r))) == {0, 2, 3}


def test_other_stakes():
    r = sc(BASE, BASE_WIN, seat=1, dealer=0, discarder=0)  # 0 台 + D 1
    assert paid(settle(r, Stakes(base=100, per_tai=20))) == {0: 120}
    assert payment_amount(r, 0, Stakes(5, 1)) == 6


def test_dealer_terms_follow_the_pattern_table():
    opts = TaiwanOptions(overrides={"tw.lianzhuang": 1})  # P1-style 連莊 1 per continuation only
    r = score(Hand.parse(BASE, win_tile=BASE_WIN), win(seat=1, dealer=0, discarder=0, streak=2), opts)
    assert paid(settle(r)) == {0: 30 + (0 + 1 + 2) * 10}
    assert opts.dealer_tai(2) == 3 and TaiwanOptions().dealer_tai(2) == 5


def test_settling_below_the_minimum_raises():
    r = sc(BASE, BASE_WIN, options=TaiwanOptions(minimum_tai=1))
    with pytest.raises(TaiwanScoringError):
        settle(r)


def test_bad_stakes():
    with pytest.raises(SettlementError):
        Stakes(base=-1)


def test_two_winners_on_one_discard_add_up():
    a = settle(sc(BASE, BASE_WIN, seat=1, dealer=0, discarder=3))
    b = settle(sc(BASE, BASE_WIN, seat=2, dealer=0, discarder=3))
    assert (a + b).deltas == [0, 30, 30, -60]


# ------------------------------------------------------------------------------ zero-sum property
HAND = Hand.parse("123m456m789m234p77z67s", win_tile="8s")


@st.composite
def wins(draw: st.DrawFn) -> tuple[TaiwanWin, Stakes]:
    seat = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    streak = draw(st.integers(0, 8))
    others = [s for s in range(4) if s != seat]
    kind = draw(st.sampled_from(["self", "discard", "rob", "seven", "eight"]))
    flowers = tuple(sorted(draw(st.sets(st.integers(34, 41), max_size=6))))
    kw: dict[str, object] = {"seat": seat, "dealer": dealer, "streak": streak, "round_wind": draw(st.integers(0, 3))}
    if kind == "self":
        kw.update(self_drawn=True, flowers=flowers, last_tile=draw(st.booleans()))
    elif kind == "discard":
        kw.update(discarder=draw(st.sampled_from(others)), flowers=flowers, last_discard=draw(st.booleans()))
    elif kind == "rob":
        kw.update(discarder=draw(st.sampled_from(others)), robbing_kong=True, flowers=flowers)
    elif kind == "seven":
        kw.update(flower_drawer=draw(st.sampled_from(others)), flowers=tuple(range(34, 41)))
    else:
        kw.update(self_drawn=True, flowers=tuple(range(34, 42)))
    stakes = Stakes(draw(st.integers(0, 200)), draw(st.integers(0, 50)))
    return TaiwanWin(**kw), stakes  # type: ignore[arg-type]


@given(wins())
def test_settlement_is_zero_sum(case):
    w, stakes = case
    r = score(HAND, w)
    ledger = settle(r, stakes)
    d = ledger.deltas
    assert sum(d) == 0
    assert d[w.seat] == sum(p.amount for p in ledger.payments) >= 0
    assert all(p.payee == w.seat for p in ledger.payments)
    assert {p.payer for p in ledger.payments} == set(w.payers())
    for p in ledger.payments:
        dealer_in = w.dealer in (w.seat, p.payer)
        assert p.amount == stakes.base + (r.total_tai + (1 + 2 * w.streak if dealer_in else 0)) * stakes.per_tai


# ------------------------------------------------------------------------------ several winners
def test_discard_winners_head_bump_and_all():
    from majiang.rules.taiwan import discard_winners
    assert discard_winners(2, [1, 0]) == (0,)          # after seat 2 come 3, 0, 1
    assert discard_winners(2, [1, 0], mode="all") == (0, 1)
    assert discard_winners(0, [3, 1]) == (1,)
    assert discard_winners(0, []) == ()
    for bad in [(0, [0]), (0, [1, 1]), (4, [1]), (0, [5])]:
        with pytest.raises(SettlementError):
            discard_winners(*bad)
    with pytest.raises(SettlementError):
        discard_winners(0, [1], mode="everyone")
