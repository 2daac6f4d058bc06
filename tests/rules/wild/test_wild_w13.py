"""Wenzhou W13 (seed 003): every special hand in both columns, additivity, settlement, penalties.

Values from seed ``003_*`` and RULES.md §4.4, §4.6.
"""

from __future__ import annotations

import pytest
from wildhelp import H, discard, ids, self_draw

from majiang.errors import MajiangError, TileCountError
from majiang.hand import Hand
from majiang.rules.wenzhou import (
    ActionError,
    ContextError,
    NotWinningError,
    OptionsError,
    W13Options,
    WildCountError,
    WinContext,
    natural_hand,
    w13,
)
from majiang.tiles import WILD, tile

SEVEN_PAIRS = ("1133m5577p99s112z", "2z")  # mixed suits and honours: 七对子 only
FLUSH = ("123456789m234m5m", "5m")  # 清一色 with chows
ALL_PUNGS = ("111m222p333s444z5z", "5z")  # 大对子, mixed
PLAIN = ("123m456p789s234s5z", "5z")
BUDA = ("147m258p369s1234z", "5z")


def mult(hand_text, win, ctx, **opt):
    return w13.score(H(hand_text, win), ctx, W13Options(**opt) if opt else None)


# ------------------------------------------------------------------------- the seed's worked examples
def test_seed_example_dealer_second_hand_self_drawn_seven_pairs_each_pays_20():
    r = mult(*SEVEN_PAIRS, WinContext(seat=0, dealer=0, self_drawn=True, dealer_streak=1))
    assert r.multiplier == 4 and ids(r) == {"wz13.qiduizi"}
    assert w13.settle(r).deltas == [60, -20, -20, -20]


def test_seed_example_non_dealer_self_drawn_seven_pairs_dealer_pays_20():
    # SD3: "同样此时旁家七对子自摸庄家同样要支付20点"; the other non-dealers pay 1 x 4
    r = mult(*SEVEN_PAIRS, self_draw(seat=2, dealer=0, dealer_streak=1))
    assert w13.settle(r).deltas == [-20, -4, 28, -4]


def test_rules_example_flush_on_non_dealer_discard():
    # RULES.md §4.6: dealer 12, discarder D 4 + 1 = 5, the other non-dealer 4
    r = mult(*FLUSH, discard(seat=1, by=3, dealer=0))
    assert r.multiplier == 4 and ids(r) == {"wz13.qingyise"}
    assert w13.settle(r).deltas == [-12, 21, -4, -5]


def test_seed_example_caishenhui_plus_buda_is_8():
    # SD3: 财神会 + 不搭 = 4 + 4
    r = w13.score(H("147m258p3s1234z**", "*"), self_draw())
    assert r.shape == "buda" and ids(r) == {"wz13.buda", "wz13.caishenhui"} and r.multiplier == 8


# ------------------------------------------------------------------------------ plain wins
def test_plain_discard_is_1_and_plain_self_draw_is_2():
    assert mult(*PLAIN, discard()).multiplier == 1
    assert ids(mult(*PLAIN, discard())) == {"wz13.pinghu"}
    r = mult(*PLAIN, self_draw())
    assert r.multiplier == 2 and ids(r) == {"wz13.zimo"}


def test_specials_replace_the_basic_self_draw_by_default():
    assert mult(*SEVEN_PAIRS, self_draw()).multiplier == 4
    assert mult(*SEVEN_PAIRS, self_draw(), self_draw_bonus_with_specials=True).multiplier == 6


# ------------------------------------------------------------------------------ each special hand
@pytest.mark.parametrize("hand,pid,self_value,discard_value", [
    (FLUSH, "wz13.qingyise", 8, 4),
    (SEVEN_PAIRS, "wz13.qiduizi", 4, 2),
    (ALL_PUNGS, "wz13.daduizi", 4, 2),
    (BUDA, "wz13.buda", 4, 2),
])
def test_special_hand_columns(hand, pid, self_value, discard_value):
    rs = mult(*hand, self_draw())
    rd = mult(*hand, discard())
    assert ids(rs) == {pid} == ids(rd)
    assert (rs.multiplier, rd.multiplier) == (self_value, discard_value)


def test_all_honours_adds_all_pungs():
    # honours never chow: 字一色 in the standard shape is always 大对子 too (additive, SD3)
    r = mult("111z222z333z444z5z", "5z", self_draw())
    assert ids(r) == {"wz13.ziyise", "wz13.daduizi"} and r.multiplier == 12
    assert mult("111z222z333z444z5z", "5z", discard()).multiplier == 6


def test_all_honours_seven_pairs():
    r = mult("1122334455667z", "7z", discard())
    assert ids(r) == {"wz13.ziyise", "wz13.qiduizi"} and r.multiplier == 6


def test_all_honours_needs_a_shape_unless_exempt():
    with pytest.raises(NotWinningError):
        mult("1112223334567z", "7z", discard())
    r = mult("1112223334567z", "7z", discard(), all_honours_structure_exempt=True)
    assert r.shape == "all-honours" and ids(r) == {"wz13.ziyise"} and r.multiplier == 4


def test_flush_and_seven_pairs_add():
    r = mult("1133557799m224m", "4m", self_draw())
    assert ids(r) == {"wz13.qingyise", "wz13.qiduizi"} and r.multiplier == 12


def test_flush_all_pungs_prefers_the_pung_reading():
    # 111222333m: three pungs or three chows; the pung reading adds 大对子
    r = mult("111222333m444m5m", "5m", discard())
    assert ids(r) == {"wz13.qingyise", "wz13.daduizi"} and r.multiplier == 6


def test_declared_chow_breaks_all_pungs():
    r = mult("[chi 123s] 111m222p444z5z", "5z", discard())
    assert ids(r) == {"wz13.pinghu"}


def test_heavenly_win_8():
    r = mult(*PLAIN, WinContext(seat=0, dealer=0, self_drawn=True, first_turn=True))
    assert ids(r) == {"wz13.tianhu"} and r.multiplier == 8


def test_earthly_win_4():
    r = mult(*PLAIN, self_draw(seat=2, dealer=0, first_turn=True))
    assert ids(r) == {"wz13.dihu"} and r.multiplier == 4


def test_first_turn_discard_win_is_plain():
    assert ids(mult(*PLAIN, discard(first_turn=True))) == {"wz13.pinghu"}


def test_kong_replacement_4():
    r = mult("[kong-concealed 7777s] 123m456p234s5z", "5z", self_draw(kong_replacement=True))
    assert ids(r) == {"wz13.gangshang_kaihua"} and r.multiplier == 4


def test_kong_replacement_needs_a_kong():
    with pytest.raises(ContextError):
        mult(*PLAIN, self_draw(kong_replacement=True))


def test_caishenhui_three_wilds_with_a_shape():
    r = w13.score(H("123m456p789s55z**", "*"), self_draw())
    assert ids(r) == {"wz13.caishenhui"} and r.multiplier == 4 and r.shape == "standard"


def test_caishenhui_three_wilds_without_a_shape_wins_outright():
    r = w13.score(H("13m46p79s12345z**", "*"), self_draw())
    assert r.shape == "three-wilds" and ids(r) == {"wz13.caishenhui"} and r.multiplier == 4


def test_scattered_nines_with_three_wilds_are_buda_plus_caishenhui():
    r = w13.score(H("159m159p12345z**", "*"), self_draw())
    assert r.shape == "buda" and r.multiplier == 8


def test_three_wilds_on_a_discard_need_a_shape():
    with pytest.raises(NotWinningError):
        w13.score(H("13m46p79s1234z***", "7z"), discard())
    # with a shape: a plain discard win, 财神会 is self-draw only
    r = w13.score(H("123m456p789s1z***", "5z"), discard())
    assert ids(r) == {"wz13.pinghu"}


def test_caishenhui_wild_drawn_mode():
    opt = W13Options(caishenhui_mode="wild_drawn")
    r = w13.score(H("123m456p789s555z*", "*"), self_draw(), opt)  # holds one, draws another
    assert ids(r) == {"wz13.caishenhui"} and r.multiplier == 4
    r = w13.score(H("123m456p789s55z**", "5z"), self_draw(), opt)  # three held, natural tile drawn
    assert ids(r) == {"wz13.zimo"}
    r = w13.score(H("123m456p789s555z*", "*"), self_draw())  # default mode: two wilds are not 财神会
    assert ids(r) == {"wz13.zimo"}


def test_robbing_kong_4_and_robbed_player_pays_for_all():
    r = mult(*PLAIN, discard(seat=1, by=3, dealer=0, robbing_kong=True))
    assert ids(r) == {"wz13.qianggang"} and r.multiplier == 4
    # amounts: dealer 3 x 4 = 12, seat 2: 4, seat 3: 4 -> all paid by seat 3; no 犯枪 by default
    assert w13.settle(r).deltas == [0, 20, 0, -20]
    opt = W13Options(fanqiang_on_robbed_kong=True)
    r2 = w13.score(H(*PLAIN), discard(seat=1, by=3, robbing_kong=True), opt)
    assert w13.settle(r2).deltas == [0, 21, 0, -21]


def test_robbing_kong_adds_to_special_hands():
    r = mult(*FLUSH, discard(robbing_kong=True))
    assert ids(r) == {"wz13.qingyise", "wz13.qianggang"} and r.multiplier == 8


# ------------------------------------------------------------------------------ wildcards
def test_wild_stands_for_another_tile_in_a_flush():
    r = mult("123456789m234m*", "5m", discard())
    assert ids(r) == {"wz13.qingyise"} and r.multiplier == 4
    assert set(r.decomposition.wild_as) <= {tile("2m"), tile("5m"), tile("8m")}


def test_white_stands_in_and_wild_completes_flush():
    # 财神 = 5m; physical: one 5m (a 财神) and one 白板 (plays 5m)
    phys = Hand.parse("12345m6789m111m5z", win_tile="9m")
    h = natural_hand(phys, tile("5m"))
    assert h.wilds == 1 and h.concealed.count(tile("5m")) == 1 and tile("5z") not in h.concealed
    r = w13.score(h, discard(wild_face=tile("5m")))
    assert ids(r) == {"wz13.qingyise"} and r.multiplier == 4


def test_white_as_wild_face_breaks_flush():
    # 财神 = 5p: the two 白板 play 5p, so the pair is 5p and the hand is no longer one suit
    h = natural_hand(Hand.parse("123m456m789m555m5z", win_tile="5z"), tile("5p"))
    assert h.full_counts()[tile("5p")] == 2 and h.wilds == 0
    r = w13.score(h, discard(wild_face=tile("5p")))
    assert ids(r) == {"wz13.pinghu"}


def test_white_pairs_with_a_drawn_wild_returned_to_its_face():
    # 财神 = 5p drawn; the 白板 plays 5p; the pair is 5p (白板) + 5p (财神 归位)
    h = natural_hand(Hand.parse("123m456m789m111s5z", win_tile="5p"), tile("5p"))
    assert h.win_tile == WILD and h.total_wilds == 1
    r = w13.score(h, self_draw(wild_face=tile("5p")))
    assert ids(r) == {"wz13.zimo"} and r.multiplier == 2
    assert r.decomposition.wild_as == (tile("5p"),)


def test_wild_returned_to_its_own_face_still_counts_flush():
    # 财神 = 9m, drawn, plays 9m (归位) in 789m
    h = natural_hand(Hand.parse("123m456m123m78m55m", win_tile="9m"), tile("9m"))
    assert h.total_wilds == 1
    r = w13.score(h, self_draw(wild_face=tile("9m")))
    assert ids(r) == {"wz13.qingyise"} and r.multiplier == 8


def test_buda_wild_modes():
    assert ids(w13.score(H("147m258p36s1234z*", "5z"), discard())) == {"wz13.buda"}
    # 37m 37p 37s and all seven honours leave no unconnected place for a wildcard
    h = H("37m37p37s123456z*", "7z")
    assert ids(w13.score(h, discard())) == {"wz13.buda"}  # "free": the wildcard is exempt (C8)
    with pytest.raises(NotWinningError):
        w13.score(h, discard(), W13Options(buda_wild_mode="fill"))
    assert ids(w13.score(H("147m258p36s1234z*", "5z"), discard(), W13Options(buda_wild_mode="fill"))) \
        == {"wz13.buda"}


def test_buda_is_concealed_only_and_rejects_near_tiles():
    with pytest.raises(NotWinningError):
        mult("146m258p369s1234z", "5z", discard())  # 4m and 6m are two apart


# ------------------------------------------------------------------------------ settlement
@pytest.mark.parametrize("streak,base", [(0, 3), (1, 5), (2, 7), (3, 9), (4, 9), (9, 9)])
def test_dealer_base_schedule(streak, base):
    assert w13.dealer_base(streak) == base


def test_dealer_base_without_cap_raises():
    with pytest.raises(ContextError):
        w13.dealer_base(4, W13Options(base_cap=False))


def test_dealer_discard_win_everyone_pays_and_fanqiang():
    r = mult(*PLAIN, discard(seat=0, by=2, dealer=0))
    assert w13.settle(r).deltas == [10, -3, -4, -3]


def test_non_dealer_discard_win_by_dealer():
    r = mult(*PLAIN, discard(seat=1, by=0, dealer=0, dealer_streak=2))
    assert w13.settle(r).deltas == [-8, 10, -1, -1]


def test_tongbao_feeder_pays_for_everyone_when_eater_wins():
    feeds = ((1, 2),) * 3
    r = mult(*PLAIN, self_draw(seat=2, dealer=0, chow_feeds=feeds))
    # amounts: dealer 3 x 2 = 6, seat 1: 2, seat 3: 2 -> all paid by seat 1
    assert w13.settle(r).deltas == [0, -10, 10, 0]
    assert w13.tongbao_liable(r.ctx) == 1


def test_tongbao_eater_pays_when_feeder_wins():
    r = mult(*PLAIN, discard(seat=1, by=3, dealer=0, chow_feeds=((1, 2),) * 3))
    # amounts: dealer 3, seat 2: 1, seat 3: 1 -> paid by seat 2; seat 3 keeps his 犯枪 point
    assert w13.settle(r).deltas == [0, 6, -5, -1]


def test_tongbao_needs_three_chows_and_can_be_off():
    r = mult(*PLAIN, self_draw(seat=2, dealer=0, chow_feeds=((1, 2),) * 2))
    assert w13.settle(r).deltas == [-6, -2, 10, -2]
    r = w13.score(H(*PLAIN), self_draw(seat=2, chow_feeds=((1, 2),) * 3), W13Options(tongbao=False))
    assert w13.settle(r).deltas == [-6, -2, 10, -2]


def test_chow_only_from_left_player():
    with pytest.raises(ContextError):
        self_draw(chow_feeds=((1, 3),))


def test_followed_penalty():
    assert w13.is_followed([(0, 5), (1, 5), (2, 5), (3, 5)])
    assert not w13.is_followed([(0, 5), (1, 5), (2, 6), (3, 5)])
    assert w13.penalty_followed(2).deltas == [1, 1, -3, 1]
    with pytest.raises(ContextError):
        w13.is_followed([(0, 5), (1, 5), (1, 5), (3, 5)])


def test_wild_discard_refused_by_default_and_penalised_when_allowed():
    with pytest.raises(ActionError):
        w13.penalty_wild_discard(1)
    opt = W13Options(allow_wild_discard_with_penalty=True)
    assert w13.penalty_wild_discard(1, opt).deltas == [1, -3, 1, 1]


# ------------------------------------------------------------------------------ bad input
def test_bad_options():
    with pytest.raises(OptionsError):
        W13Options(caishenhui_mode="both")
    with pytest.raises(OptionsError):
        W13Options(dealer_base_schedule=())
    with pytest.raises(MajiangError):
        W13Options(fanqiang_penalty=-1)


def test_bad_hands_and_contexts():
    with pytest.raises(TileCountError):
        w13.score(H("123m456p789s5z", "5z"), self_draw())  # 小相公
    with pytest.raises(WildCountError):
        w13.score(H("123m456p789s1z***", "*"), self_draw())  # four 财神
    with pytest.raises(ContextError):
        w13.score(H("123m456p789s555z*", "*"), discard())  # a discarded 财神
    with pytest.raises(ContextError):
        WinContext(seat=1, self_drawn=True, discarder=2)
    with pytest.raises(ContextError):
        WinContext(seat=1, self_drawn=False, discarder=1)
    with pytest.raises(NotWinningError):
        mult("123m456p789s2345z", "7z", discard())


def test_next_dealer_only_a_dealer_win_keeps_the_deal():
    assert w13.next_dealer(0, 0, 0) == (0, 1)
    assert w13.next_dealer(0, 3, 0) == (0, 4)  # base stays 9 from here on
    assert w13.next_dealer(0, 2, 1) == (1, 0)
    assert w13.next_dealer(3, 1, None) == (0, 0)  # a drawn hand passes the deal (SD3, §9.4)
    with pytest.raises(ContextError):
        w13.next_dealer(4, 0, 0)
