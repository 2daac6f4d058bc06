"""Wenzhou W16 (RULES.md §4.5, MIL 温州 2024 via C1): tiers, 八对, three 财神, money."""

from __future__ import annotations

import pytest
from wildhelp import H, discard, ids, self_draw

from majiang.errors import TileCountError
from majiang.hand import Hand
from majiang.rules.wenzhou import (
    ContextError,
    NotWinningError,
    OptionsError,
    W16Options,
    WildCountError,
    WinContext,
    natural_hand,
    w13,
    w16,
)
from majiang.tiles import tile

EAST = tile("1z")
NATURAL = ("123m456m789m123p456p7s", "7s")  # 16 + 1, no 财神
SUBST = ("123m456m789m123p4p77s*", "5p")  # the 财神 must play 3p or 6p
HOME = ("123m456m789m123p4p77s*", "6p")  # with 财神 = 5p it plays 5p (归位)
EIGHT = ("1133m5577p1199s1122z", "3z")  # eight pairs + the loose 3z


def test_natural_standard_discard_is_hard():
    r = w16.score(H(*NATURAL), discard())
    assert r.multiplier == 2 and ids(r) == {"wz16.hard", "wz16.natural"}


def test_wild_substitute_on_discard_is_soft():
    r = w16.score(H(*SUBST), discard(wild_face=EAST))
    assert r.multiplier == 1 and ids(r) == {"wz16.soft", "wz16.wild_substitute"}


def test_self_draw_is_hard_even_with_a_substitute():
    r = w16.score(H(*SUBST), self_draw(wild_face=EAST))
    assert r.multiplier == 2 and "wz16.self_drawn" in ids(r)


def test_wild_returned_to_its_face_is_hard_on_discard():
    r = w16.score(H(*HOME), discard(wild_face=tile("5p")))
    assert r.multiplier == 2 and "wz16.natural" in ids(r)
    assert r.decomposition.wild_as == (tile("5p"),)
    # the same tiles with another 财神 face: the wild plays 5p for somebody else -> soft
    assert w16.score(H(*HOME), discard(wild_face=EAST)).multiplier == 1


def test_white_stands_in_and_wild_returns_home_physical_hand():
    # 财神 = 5p; the physical hand holds one 5p (a 财神) and a 白板 playing 5p; the pair is
    # 白板 + 财神 as 5p (归位), so the discard win is hard
    phys = Hand.parse("123m456m789m123p77s5z5p", win_tile="7s")
    h = natural_hand(phys, tile("5p"))
    assert h.wilds == 1 and h.concealed.count(tile("5p")) == 1
    r = w16.score(h, discard(wild_face=tile("5p")))
    assert r.multiplier == 2 and r.decomposition.wild_as == (tile("5p"),)


def test_eight_pairs_natural_discard_is_double():
    r = w16.score(H(*EIGHT), discard())
    assert r.shape == "eight-pairs" and r.multiplier == 4 and "wz16.eight_pairs_natural" in ids(r)


def test_eight_pairs_self_drawn_with_substitute_is_double():
    r = w16.score(H("1133m5577p1199s112z*", "7z"), self_draw(wild_face=EAST))
    assert r.multiplier == 4 and "wz16.eight_pairs_self_drawn" in ids(r)


def test_eight_pairs_with_substitute_on_discard_is_soft():
    r = w16.score(H("1133m5577p1199s112z*", "7z"), discard(wild_face=EAST))
    assert r.multiplier == 1 and "wz16.eight_pairs_soft" in ids(r)
    r = w16.score(H("1133m5577p1199s112z*", "7z"), discard(wild_face=EAST), W16Options(soft_eight_pairs=2))
    assert r.multiplier == 2


def test_eight_pairs_with_wild_home_is_natural():
    # 财神 = South (2z): the wild pairs the lone 2z as itself
    r = w16.score(H("1133m5577p1199s112z*", "7z"), discard(wild_face=tile("2z")))
    assert r.multiplier == 4 and "wz16.eight_pairs_natural" in ids(r)


def test_four_of_a_kind_are_two_pairs_and_triplet_gives_pair_and_loose_tile():
    assert w16.score(H("1111m5577p1199s1122z", "3z"), discard()).multiplier == 4
    assert w16.score(H("1113m5577p1199s1122z", "3m"), discard()).shape == "eight-pairs"


def test_eight_pairs_is_concealed_only():
    with pytest.raises(NotWinningError):
        w16.score(H("[peng 444s] 1133m5577p99s112z", "2z"), discard())


def test_three_wilds_with_shape_double():
    r = w16.score(H("123m456m789m123p4p***", "7s"), discard(wild_face=EAST))
    assert r.multiplier == 4 and "wz16.three_wilds_shape" in ids(r)


def test_three_wilds_without_shape_hard():
    r = w16.score(H("159m159p159s1234z***", "7z"), discard(wild_face=EAST))
    assert r.shape == "three-wilds" and r.multiplier == 2 and "wz16.three_wilds_no_shape" in ids(r)


def test_lazila_option_three_wilds_home():
    h = H("123m456m789m123p7s***", "7s")  # the 财神 (= 5z) can be a pung of itself
    assert w16.score(h, discard(wild_face=tile("5z"))).multiplier == 4
    r = w16.score(h, discard(wild_face=tile("5z")), W16Options(lazila=True))
    assert r.multiplier == 8 and ids(r) == {"wz16.lazila", "wz16.three_wilds_home"}


def test_robbing_kong_hard_option():
    ctx = discard(wild_face=EAST, robbing_kong=True)
    assert w16.score(H(*SUBST), ctx).multiplier == 1
    assert w16.score(H(*SUBST), ctx, W16Options(robbing_kong_hard=True)).multiplier == 2


# ---------------------------------------------------------------------------------- settlement
@pytest.mark.parametrize("streak,factor", [(0, 2), (1, 4), (2, 6), (3, 8), (7, 8)])
def test_dealer_factor(streak, factor):
    assert w16.dealer_factor(streak) == factor


def test_dealer_wins_hard_each_pays_m_times_factor():
    r = w16.score(H(*NATURAL), discard(seat=0, by=2, dealer=0))
    assert w16.settle(r).deltas == [12, -4, -4, -4]


def test_non_dealer_wins_soft_dealer_pays_factor():
    r = w16.score(H(*SUBST), discard(seat=1, by=2, dealer=0, dealer_streak=1, wild_face=EAST))
    assert w16.settle(r).deltas == [-4, 6, -1, -1]


def test_caishen_money_example():
    assert w16.caishen_payments([0, 0, 1, 2]).deltas == [-3, -3, 1, 5]
    with pytest.raises(WildCountError):
        w16.caishen_payments([0, 2, 1, 2])


def test_caishen_money_winner_with_three_doubles_option():
    opt = W16Options(winner_three_wilds_double=True)
    assert w16.caishen_payments([3, 0, 0, 0], winner=0, options=opt).deltas == [18, -6, -6, -6]
    assert w16.caishen_payments([3, 0, 0, 0], winner=0).deltas == [9, -3, -3, -3]


def test_kong_money():
    ctx = WinContext(seat=1, dealer=0, kongs=((1, "concealed"), (2, "exposed"), (3, "added")))
    # concealed by seat 1: dealer 2 x 2, others 2 -> +8; exposed by seat 2: dealer 2, others 1 -> +4
    assert w16.kong_payments(ctx).deltas == [-4 - 2, 8 - 1, -2 + 4, -2 - 1]


def test_settle_adds_caishen_and_kong_money():
    ctx = discard(seat=1, by=2, dealer=0, wild_face=EAST, wild_counts=(0, 1, 0, 0), kongs=((3, "exposed"),))
    r = w16.score(H(*SUBST), ctx)
    win = [-2, 4, -1, -1]
    cai = [-1, 3, -1, -1]
    kong = [-2, -1, -1, 4]
    assert w16.settle(r).deltas == [a + b + c for a, b, c in zip(win, cai, kong)]
    off = w16.score(H(*SUBST), ctx, W16Options(caishen_money=False, kong_money=False))
    assert w16.settle(off).deltas == win


# ---------------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(TileCountError):
        w16.score(H("123m456p789s234s5z", "5z"), discard())  # a 13-tile hand
    with pytest.raises(ContextError):
        w16.score(H(*SUBST), discard())  # 财神 without a face
    with pytest.raises(WildCountError):
        w16.score(H("123m456m789m123p4p***", "*"), self_draw(wild_face=EAST))
    with pytest.raises(OptionsError):
        W16Options(soft_eight_pairs=3)
    with pytest.raises(OptionsError):
        W16Options(dealer_factor_schedule=(0,))
    with pytest.raises(ContextError):
        w16.settle(w13.score(H("123m456p789s234s5z", "5z"), discard()))
    with pytest.raises(NotWinningError):
        w16.score(H("123m456m789m123p4p79s1z", "2z"), discard())


def test_next_dealer_at_most_four_dealerships():
    assert w16.next_dealer(0, 0, 0) == (0, 1)
    assert w16.next_dealer(0, 3, 0) == (1, 0)  # MIL: factor 8 is the last
    assert w16.next_dealer(2, 1, None) == (3, 0)
    assert w16.next_dealer(2, 1, None, keep_on_draw=True) == (2, 2)
    assert w16.next_dealer(2, 1, 0) == (3, 0)


SPECIAL = W16Options(special_double=True)


@pytest.mark.parametrize("text,win,kw,reason", [
    ("111m222p333s444z555z7z", "7z", {}, "wz16.special_pengpenghu"),
    ("123m456m789m123m45m77m", "6m", {}, "wz16.special_qingyise"),
    ("123m456m789m123m45m77z", "6m", {}, "wz16.special_hunyise"),
    ("123m456p789s55z66z777z", "5z", {}, "wz16.special_zhongfabai"),
    ("123m456p789s123s456s*", "*", {}, None),  # self-drawn with a 财神 pair: ×2 anyway, 牛对 ×4
])
def test_special_double_option(text, win, kw, reason):
    h = H(text, win)
    ctx = discard(wild_face=EAST, **kw) if win != "*" else self_draw(wild_face=EAST)
    assert w16.score(h, ctx).multiplier <= 2
    r = w16.score(h, ctx, SPECIAL)
    assert r.multiplier == 4
    if reason:
        assert reason in ids(r)
    else:
        assert "wz16.special_caishen_niudui" in ids(r)


def test_special_double_events():
    h = H(*NATURAL)
    assert "wz16.special_tianhu" in ids(w16.score(h, self_draw(seat=0, dealer=0, first_turn=True), SPECIAL))
    assert "wz16.special_dihu" in ids(w16.score(h, self_draw(seat=1, dealer=0, first_turn=True), SPECIAL))
    kong = H("[kong-concealed 9999s] 123m456m789m123p7s", "7s")
    assert "wz16.special_gangkai" in ids(w16.score(kong, self_draw(kong_replacement=True), SPECIAL))
    # 财神 = 5p: 4p(5p)6p and 55p(5p), both 财神 on their own face
    two_home = H("123m456m789m46p55p7s**", "7s")
    r = w16.score(two_home, discard(wild_face=tile("5p")), SPECIAL)
    assert "wz16.special_shuang_caishen_guiwei" in ids(r) and r.multiplier == 4
    assert w16.score(H(*NATURAL), discard(), SPECIAL).multiplier == 2
