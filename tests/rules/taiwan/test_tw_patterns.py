"""One hand that shows each 台 pattern of RULES.md §3.2 and one that nearly does but must not.

Values are the RULES.md §3.2 defaults. Hands are written as ``[melds] concealed`` + winning tile;
the winner is seat 1 (South) unless said otherwise, dealer seat 0, round East (see ``twhelp``).
"""

from __future__ import annotations

import pytest
from twhelp import BASE, BASE_WIN, ids, sc

from majiang.rules.taiwan import PATTERNS, TaiwanOptions, pattern
from majiang.rules.taiwan.patterns import DETECTORS


def test_base_hand_scores_nothing():
    r = sc(BASE, BASE_WIN)
    assert r.total_tai == 0 and r.patterns == ()


def test_trap_tw01_seventeen_tiles_win():
    """TW-01: 123m456m789m123p456p77s + 1 tile = 5 sets + pair (16 in hand + 1)."""
    r = sc("123m456m789m123p456p7s", "7s")
    assert r.shape == "standard" and len(r.units) == 6


def test_every_pattern_has_data_and_a_detector():
    for p in PATTERNS:
        assert p.id.startswith("tw.") and p.zh and p.en and p.tai > 0
        assert p.per_payment or p.id in DETECTORS
    assert len({p.id for p in PATTERNS}) == len(PATTERNS)


@pytest.mark.parametrize("pid,tai", [
    ("tw.zhuangjia", 1), ("tw.lianzhuang", 2), ("tw.menqing", 1), ("tw.zimo", 1), ("tw.buqiu", 1),
    ("tw.quanfeng", 1), ("tw.menfeng", 1), ("tw.sanyuanpai", 1), ("tw.zhenghua", 1), ("tw.duting", 1),
    ("tw.qianggang", 1), ("tw.gangshang_kaihua", 1), ("tw.haidi_laoyue", 1), ("tw.hedi_laoyu", 1),
    ("tw.banqiu", 1), ("tw.baoting", 1), ("tw.pinghu", 2), ("tw.quanqiu", 2), ("tw.huagang", 2),
    ("tw.san_anke", 2), ("tw.pengpenghu", 4), ("tw.hunyise", 4), ("tw.xiao_sanyuan", 4), ("tw.diting", 4),
    ("tw.si_anke", 5), ("tw.wu_anke", 8), ("tw.da_sanyuan", 8), ("tw.xiao_sixi", 8), ("tw.qingyise", 8),
    ("tw.ziyise", 8), ("tw.baxian_guohai", 8), ("tw.qiqiang_yi", 8), ("tw.tianting", 8), ("tw.renhu", 16),
    ("tw.si_gang", 8), ("tw.ba_duiban", 8), ("tw.da_sixi", 16), ("tw.dihu", 16), ("tw.tianhu", 24),
    ("tw.baopai", 1),
])
def test_default_values_rules_3_2(pid, tai):
    assert pattern(pid).tai == tai
    assert TaiwanOptions().tai(pid) == tai


# ------------------------------------------------------------------------------ 1 tai
def test_menqing():
    assert ids(sc("123m456m789m234p77z67s", "8s")) == {"tw.menqing": 1}
    assert ids(sc(BASE, BASE_WIN)) == {}  # a chow breaks it


def test_menqing_allows_concealed_kong_but_not_added_kong():
    assert ids(sc("[kong-concealed 1111m] 456m789m234p77z67s", "8s")) == {"tw.menqing": 1}
    assert ids(sc("[kong-added 1111m] 456m789m234p77z67s", "8s")) == {}
    assert ids(sc("[kong-exposed 1111m] 456m789m234p77z67s", "8s")) == {}


def test_menqing_option_any_kong_breaks_it():
    opts = TaiwanOptions(concealed_kong_breaks_menqing=True)
    assert ids(sc("[kong-concealed 1111m] 456m789m234p77z67s", "8s", options=opts)) == {}


def test_zimo():
    assert ids(sc(BASE, BASE_WIN, self_drawn=True)) == {"tw.zimo": 1}
    assert ids(sc(BASE, BASE_WIN)) == {}


def test_buqiu_concealed_self_draw_totals_three():
    r = sc("123m456m789m234p77z67s", "8s", self_drawn=True)
    assert ids(r) == {"tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1} and r.total_tai == 3
    assert "tw.buqiu" not in ids(sc(BASE, BASE_WIN, self_drawn=True))  # not concealed


WIND_HAND = "[chi 123m] 456m789m222z55p67s"  # a South triplet


def test_quanfeng_round_wind():
    assert ids(sc(WIND_HAND, "8s", seat=2, round_wind=1)) == {"tw.quanfeng": 1}
    assert ids(sc(WIND_HAND, "8s", seat=2, round_wind=0)) == {}


def test_menfeng_seat_wind():
    assert ids(sc(WIND_HAND, "8s", seat=1, round_wind=0)) == {"tw.menfeng": 1}
    assert ids(sc(WIND_HAND, "8s", seat=3, round_wind=0)) == {}


def test_round_and_seat_wind_on_one_tile_give_two():
    assert ids(sc(WIND_HAND, "8s", seat=1, round_wind=1)) == {"tw.quanfeng": 1, "tw.menfeng": 1}


def test_seat_wind_follows_the_dealer():
    # seat 3 with the dealer at seat 2 sits South
    assert ids(sc(WIND_HAND, "8s", seat=3, dealer=2, discarder=0)) == {"tw.menfeng": 1}


def test_sanyuanpai_each_dragon_triplet():
    assert ids(sc("[chi 123m] 456m789m555z11p67s", "8s")) == {"tw.sanyuanpai": 1}
    assert ids(sc("[chi 123m] 456m555z666z11p67s", "8s")) == {"tw.sanyuanpai": 2}
    assert ids(sc(BASE, BASE_WIN)) == {}  # a dragon pair is not a triplet


def test_zhenghua_seat_flowers_by_printed_number():
    # seat 1 = South: 夏 (2f) and 蘭 (6f)
    assert ids(sc(BASE, BASE_WIN, flowers="26f")) == {"tw.zhenghua": 2}
    assert ids(sc(BASE, BASE_WIN, flowers="1357f")) == {}


def test_zhenghua_all_flowers_option():
    opts = TaiwanOptions(all_flowers_count=True)
    assert ids(sc(BASE, BASE_WIN, flowers="13f", options=opts)) == {"tw.zhenghua": 2}


@pytest.mark.parametrize("text,w", [
    ("[chi 123m] 456m789m234p77z12s", "3s"),  # edge 邊張
    ("[chi 123m] 456m789m234p77z13s", "2s"),  # closed 中洞
    ("[chi 123m] 456m789m234p678s7z", "7z"),  # pair 單吊
])
def test_duting_single_wait(text, w):
    assert ids(sc(text, w)) == {"tw.duting": 1}


def test_duting_not_for_two_sided_or_two_pair_waits():
    assert ids(sc(BASE, BASE_WIN)) == {}
    assert "tw.duting" not in ids(sc("[peng 111m] [peng 999p] [peng 222s] 456s88m33p", "3p"))


def test_duting_not_when_wait_unique_only_because_tiles_are_dead():
    """RULES §3.2: the 1s of 23s is dead (all four in the player's kong): still a two-sided wait."""
    assert ids(sc("[kong-exposed 1111s] [chi 123m] 456m789m77z23s", "4s")) == {}


def test_qianggang():
    assert ids(sc(BASE, BASE_WIN, robbing_kong=True, discarder=2)) == {"tw.qianggang": 1}
    assert ids(sc(BASE, BASE_WIN, discarder=2)) == {}


def test_gangshang_kaihua_incl_flower_replacement():
    r = sc(BASE, BASE_WIN, self_drawn=True, kong_replacement=True)
    assert ids(r) == {"tw.zimo": 1, "tw.gangshang_kaihua": 1}
    assert ids(sc(BASE, BASE_WIN, self_drawn=True)) == {"tw.zimo": 1}


def test_haidi_laoyue_is_the_self_drawn_last_tile():
    """RULES §7 naming trap: Taiwan 海底撈月 = self-draw of the last tile."""
    assert ids(sc(BASE, BASE_WIN, self_drawn=True, last_tile=True)) == {"tw.zimo": 1, "tw.haidi_laoyue": 1}
    assert ids(sc(BASE, BASE_WIN, last_discard=True)) == {"tw.hedi_laoyu": 1}


def test_hedi_laoyu_is_the_last_discard():
    assert ids(sc(BASE, BASE_WIN, last_discard=True)) == {"tw.hedi_laoyu": 1}
    assert ids(sc(BASE, BASE_WIN)) == {}


ALL_MELDED = "[chi 123m] [chi 456m] [peng 999p] [chi 234s] [kong-exposed 7777s] 5z"


def test_banqiu_all_claimed_self_drawn():
    r = sc(ALL_MELDED, "5z", self_drawn=True)
    assert ids(r) == {"tw.zimo": 1, "tw.banqiu": 1, "tw.duting": 1}


def test_banqiu_not_with_a_concealed_kong():
    r = sc("[chi 123m] [chi 456m] [peng 999p] [chi 234s] [kong-concealed 7777s] 5z", "5z", self_drawn=True)
    assert "tw.banqiu" not in ids(r)


def test_baoting_optional():
    opts = TaiwanOptions(enabled=frozenset({"tw.baoting"}))
    assert ids(sc(BASE, BASE_WIN, options=opts, declared_ready=True)) == {"tw.baoting": 1}
    assert ids(sc(BASE, BASE_WIN, options=opts)) == {}


# ------------------------------------------------------------------------------ 2 tai
PINGHU = "[chi 123m] 456m789m234p55p67s"


def test_pinghu():
    assert ids(sc(PINGHU, "8s")) == {"tw.pinghu": 2}
    assert ids(sc("123m456m789m234p55p67s", "8s")) == {"tw.menqing": 1, "tw.pinghu": 2}


@pytest.mark.parametrize("text,w,kw", [
    (PINGHU, "8s", {"self_drawn": True}),                      # self-drawn
    (PINGHU, "8s", {"flowers": "1f"}),                         # a flower (not a seat flower)
    ("[chi 123m] 456m789m234p77z67s", "8s", {}),               # honour pair
    ("[chi 123m] 456m789m234p55p12s", "3s", {}),               # edge wait
    ("[chi 123m] 456m789m234p55p13s", "2s", {}),               # closed wait
    ("[chi 123m] 456m789m234p678s5p", "5p", {}),               # pair wait
    ("[chi 123m] 456m789m222p55p67s", "8s", {}),               # a triplet
])
def test_pinghu_near_misses(text, w, kw):
    assert "tw.pinghu" not in ids(sc(text, w, **kw))


def test_quanqiu_all_claimed_discard_excludes_duting():
    assert ids(sc(ALL_MELDED, "5z")) == {"tw.quanqiu": 2}
    assert "tw.quanqiu" not in ids(sc(ALL_MELDED, "5z", self_drawn=True))


def test_huagang():
    # seasons complete; 夏 is also South's seat flower but the kong replaces it; 蘭 still counts
    assert ids(sc(BASE, BASE_WIN, flowers="12346f")) == {"tw.huagang": 2, "tw.zhenghua": 1}
    assert ids(sc(BASE, BASE_WIN, flowers="1235f")) == {"tw.zhenghua": 1}


def test_huagang_both_groups():
    # all eight on a discard win (八仙過海 is a self-drawn immediate win): two flower kongs
    assert ids(sc(BASE, BASE_WIN, flowers="12345678f")) == {"tw.huagang": 4}


def test_san_anke_self_drawn():
    r = sc("[chi 789p] 111m222m33m456s55z", "3m", self_drawn=True)
    assert ids(r)["tw.san_anke"] == 2


def test_san_anke_not_when_third_triplet_is_completed_by_a_discard():
    assert "tw.san_anke" not in ids(sc("[chi 789p] 111m222m33m456s55z", "3m"))


# ------------------------------------------------------------------------------ 4-5 tai
def test_pengpenghu():
    assert ids(sc("[peng 111m] [peng 999p] [peng 222s] 555s88m33p", "3p")) == {"tw.pengpenghu": 4}
    assert ids(sc("[peng 111m] [peng 999p] [peng 222s] 456s88m33p", "3p")) == {}


def test_hunyise():
    assert ids(sc("[chi 123m] 456m789m234m77z67m", "8m")) == {"tw.hunyise": 4}
    assert "tw.hunyise" not in ids(sc(BASE, BASE_WIN))  # two suits + honours


def test_xiao_sanyuan():
    assert ids(sc("[chi 123m] 456m555z666z77z67s", "8s")) == {"tw.xiao_sanyuan": 4}
    assert ids(sc("[chi 123m] 456m555z666z11p67s", "8s")) == {"tw.sanyuanpai": 2}  # pair not a dragon


def test_diting():
    assert ids(sc(BASE, BASE_WIN, earthly_ready=True)) == {"tw.diting": 4}
    assert ids(sc(BASE, BASE_WIN)) == {}


def test_si_anke():
    r = sc("[chi 123m] 111p222p333s444s5z", "5z", self_drawn=True)
    assert ids(r) == {"tw.zimo": 1, "tw.duting": 1, "tw.si_anke": 5}


def test_si_anke_not_when_fourth_triplet_is_completed_by_a_discard():
    r = sc("[chi 123m] 111p222p333s44s55z", "4s")
    assert ids(r) == {"tw.san_anke": 2}


# ------------------------------------------------------------------------------ 8 tai
def test_wu_anke():
    r = sc("111p222p333s444s777m5z", "5z", self_drawn=True)
    assert ids(r) == {"tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1, "tw.duting": 1, "tw.pengpenghu": 4,
                      "tw.wu_anke": 8}


def test_wu_anke_near_miss_discard_on_the_fifth_triplet():
    r = sc("111p222p333s444s77m55z", "7m")
    assert "tw.wu_anke" not in ids(r) and ids(r)["tw.si_anke"] == 5


def test_da_sanyuan():
    # three concealed dragon triplets: 大三元 + 三暗刻
    assert ids(sc("[chi 123m] 555z666z777z11p67s", "8s")) == {"tw.da_sanyuan": 8, "tw.san_anke": 2}
    assert ids(sc("[chi 123m] [peng 555z] 666z777z11p67s", "8s")) == {"tw.da_sanyuan": 8}
    assert "tw.da_sanyuan" not in ids(sc("[chi 123m] 456m555z666z77z67s", "8s"))


def test_xiao_sixi():
    r = sc("[chi 123m] [peng 111z] 222z333z44z67s", "8s")
    assert ids(r) == {"tw.xiao_sixi": 8}
    assert "tw.xiao_sixi" not in ids(sc("[chi 123m] 111z222z456s44z67s", "8s"))


def test_qingyise():
    r = sc("[chi 123m] 456m789m234m55m67m", "8m")
    assert ids(r) == {"tw.qingyise": 8, "tw.pinghu": 2}
    assert "tw.qingyise" not in ids(sc("[chi 123m] 456m789m234m77z67m", "8m"))


def test_ziyise_also_earns_pengpenghu_by_default():
    r = sc("[peng 111z] 222z333z555z66z77z", "7z", seat=3)
    assert {"tw.ziyise", "tw.pengpenghu"} <= set(ids(r)) and ids(r)["tw.ziyise"] == 8
    assert "tw.ziyise" not in ids(sc("[chi 123m] 111z222z333z44z67s", "8s"))


def test_baxian_guohai():
    from twhelp import win

    from majiang.rules.taiwan import score
    r = score(None, win(self_drawn=True, flowers=tuple(range(34, 42))))
    assert ids(r) == {"tw.baxian_guohai": 8} and r.flower_win == "tw.baxian_guohai"


def test_baxian_needs_all_eight():
    r = sc(BASE, BASE_WIN, flowers="1234567f", self_drawn=True)
    assert r.flower_win is None and "tw.baxian_guohai" not in ids(r)


def test_qiqiang_yi():
    from twhelp import win

    from majiang.rules.taiwan import score
    r = score(None, win(flower_drawer=2, flowers=tuple(range(34, 41))))
    assert ids(r) == {"tw.qiqiang_yi": 8} and r.flower_win == "tw.qiqiang_yi"


def test_tianting():
    assert ids(sc(BASE, BASE_WIN, heavenly_ready=True)) == {"tw.tianting": 8}
    assert ids(sc(BASE, BASE_WIN, earthly_ready=True)) == {"tw.diting": 4}


def test_renhu():
    r = sc("123m456m789m234p77z67s", "8s", human_win=True, discarder=0)
    assert ids(r) == {"tw.menqing": 1, "tw.renhu": 16}
    assert "tw.renhu" not in ids(sc("123m456m789m234p77z67s", "8s", discarder=0))


def test_si_gang_optional():
    text = "[kong-exposed 1111m] [kong-exposed 2222p] [kong-exposed 3333s] [kong-added 4444s] 789m5z"
    opts = TaiwanOptions(enabled=frozenset({"tw.si_gang"}))
    assert ids(sc(text, "5z", options=opts)) == {"tw.si_gang": 8, "tw.duting": 1}
    assert ids(sc(text, "5z")) == {"tw.duting": 1}  # off by default
    three = "[kong-exposed 1111m] [kong-exposed 2222p] [kong-exposed 3333s] [peng 444s] 789m5z"
    assert "tw.si_gang" not in ids(sc(three, "5z", options=opts))


def test_ba_duiban_optional():
    opts = TaiwanOptions(enabled=frozenset({"tw.ba_duiban"}))
    r = sc("11m22m33p44p55s66s77z88s", "8s", options=opts)
    assert r.shape == "eight-half-pairs"
    assert ids(r) == {"tw.menqing": 1, "tw.ba_duiban": 8}


def test_ba_duiban_near_miss_with_a_meld():
    opts = TaiwanOptions(enabled=frozenset({"tw.ba_duiban"}))
    from majiang.rules.taiwan import TaiwanNotWinningError
    with pytest.raises(TaiwanNotWinningError):
        sc("[peng 888s] 11m22m33p44p55s66s7z", "7z", options=opts)


# ------------------------------------------------------------------------------ 16+ tai
def test_da_sixi():
    r = sc("[peng 111z] [peng 222z] [peng 333z] [peng 444z] 123m5s", "5s")
    assert ids(r) == {"tw.da_sixi": 16, "tw.duting": 1}
    assert "tw.da_sixi" not in ids(sc("[chi 123m] 111z222z333z44z67s", "8s"))


def test_dihu():
    r = sc("123m456m789m234p77z67s", "8s", self_drawn=True, earthly_win=True)
    assert ids(r)["tw.dihu"] == 16 and "tw.zimo" in ids(r)
    assert "tw.dihu" not in ids(sc("123m456m789m234p77z67s", "8s", self_drawn=True))


def test_tianhu():
    r = sc("123m456m789m234p77z67s", "8s", seat=0, self_drawn=True, heavenly_win=True)
    assert ids(r) == {"tw.tianhu": 24, "tw.zimo": 1}
    assert "tw.tianhu" not in ids(sc("123m456m789m234p77z67s", "8s", seat=0, self_drawn=True))


# ------------------------------------------------------------------------------ 宝牌 (§3.4)
def test_baopai_seed_example():
    """RULES §3.4: 宝牌 五万 plus two 白板 indicators; one 五万 and three 白 held → 1 + 2×3 = 7."""
    opts = TaiwanOptions.platform()
    r = sc("[peng 555z] 345m123p456p11s23s", "4s", options=opts, bao_pai=(4, 31, 31))
    assert r.bao_tai == 7 and r.tai_of("tw.baopai") == 7
    assert ids(r) == {"tw.sanyuanpai": 1, "tw.baopai": 7} and r.total_tai == 8


def test_baopai_none_held():
    opts = TaiwanOptions.platform()
    r = sc(BASE, BASE_WIN, options=opts, bao_pai=(0,))  # the one 1m is in the melded chow: melds count
    assert r.bao_tai == 1
    r = sc(BASE, BASE_WIN, options=opts, bao_pai=(26,))  # 9s not held
    assert r.bao_tai == 0 and "tw.baopai" not in ids(r)


def test_qiqiang_yi_needs_another_players_eighth_flower():
    r = sc(BASE, BASE_WIN, flowers="1234567f", self_drawn=True)  # seven flowers, ordinary self-draw
    assert r.flower_win is None and "tw.qiqiang_yi" not in ids(r)


def test_trap_tw03_flower_wins_bypass_the_shape_check():
    """TW-03: eight flowers win whatever the hand; an incomplete hand is not even looked at."""
    from twhelp import win

    from majiang.hand import Hand
    from majiang.rules.taiwan import score
    incomplete = Hand.parse("1379m1379p1379s1234z", win_tile="5z", flowers="12345678f")
    r = score(incomplete, win(self_drawn=True))
    assert ids(r) == {"tw.baxian_guohai": 8}
    seven = Hand.parse("1379m1379p1379s1234z", win_tile="5z")
    r = score(seven, win(flower_drawer=3, flowers=tuple(range(34, 41))))
    assert ids(r) == {"tw.qiqiang_yi": 8}
