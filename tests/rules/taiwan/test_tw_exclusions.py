"""The non-stacking rules of RULES.md §3.2 (rules 1-6), each shown on a hand, plus the table itself."""

from __future__ import annotations

from twhelp import BASE, BASE_WIN, ids, sc, win

from majiang.rules.taiwan import EXCLUSIONS, TaiwanOptions, score
from majiang.rules.taiwan.patterns import BY_ID, Hit, apply_exclusions


def test_exclusion_table_names_known_patterns_and_cites_a_rule():
    for x in EXCLUSIONS:
        assert x.winner in BY_ID and x.loser in BY_ID and x.rule.startswith("§3.2")


def test_exclusions_are_order_independent():
    hits = [Hit("tw.wu_anke"), Hit("tw.si_anke"), Hit("tw.san_anke"), Hit("tw.zimo")]
    assert apply_exclusions(hits) == apply_exclusions(hits[::-1])[::-1] == [Hit("tw.wu_anke"), Hit("tw.zimo")]


# rule 1 ------------------------------------------------------------------------------------
def test_rule1_xiao_sanyuan_replaces_dragon_tai():
    assert ids(sc("[chi 123m] 456m555z666z77z67s", "8s")) == {"tw.xiao_sanyuan": 4}


def test_rule1_da_sanyuan_replaces_dragon_tai():
    assert ids(sc("[chi 123m] [peng 555z] 666z777z11p67s", "8s")) == {"tw.da_sanyuan": 8}


def test_rule1_xiao_sixi_replaces_round_and_seat_wind():
    # seat 1 South, round East: 111z and 222z would give 圈風 + 門風
    r = sc("[chi 123m] [peng 111z] 222z333z44z67s", "8s", seat=1, round_wind=0)
    assert ids(r) == {"tw.xiao_sixi": 8}


def test_rule1_da_sixi_replaces_round_and_seat_wind():
    r = sc("[peng 111z] [peng 222z] [peng 333z] [peng 444z] 123m5s", "5s", seat=1, round_wind=0)
    assert ids(r) == {"tw.da_sixi": 16, "tw.duting": 1}


def test_rule1_three_wind_triplets_without_wind_pair_keep_wind_tai():
    r = sc("[chi 123m] [peng 111z] [peng 222z] [peng 333z] 55p67s", "8s", seat=1, round_wind=0)
    assert ids(r) == {"tw.quanfeng": 1, "tw.menfeng": 1}


# rule 2 ------------------------------------------------------------------------------------
def test_rule2_huagang_replaces_seat_flower_of_its_group_only():
    assert ids(sc(BASE, BASE_WIN, flowers="12346f")) == {"tw.huagang": 2, "tw.zhenghua": 1}


def test_rule2_baxian_standalone_replaces_everything():
    r = sc("123m456m789m234p77z67s", "8s", flowers="12345678f", self_drawn=True)
    assert ids(r) == {"tw.baxian_guohai": 8} and r.shape == "flowers" and r.units == ()


def test_rule2_baxian_added_mode_keeps_hand_but_replaces_flower_tai():
    opts = TaiwanOptions(eight_flowers_mode="added")
    r = sc("123m456m789m234p77z67s", "8s", flowers="12345678f", self_drawn=True, options=opts)
    assert ids(r) == {"tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1, "tw.baxian_guohai": 8}
    assert r.total_tai == 11 and r.flower_win == "tw.baxian_guohai"


def test_rule2_baxian_added_mode_without_a_complete_hand():
    opts = TaiwanOptions(eight_flowers_mode="added")
    r = score(None, win(self_drawn=True, flowers=tuple(range(34, 42))), opts)
    assert ids(r) == {"tw.baxian_guohai": 8}


# rule 3 ------------------------------------------------------------------------------------
def test_rule3_si_anke_replaces_san_anke():
    r = sc("[chi 123m] 111p222p333s444s5z", "5z", self_drawn=True)
    assert "tw.san_anke" not in ids(r) and ids(r)["tw.si_anke"] == 5


def test_rule3_wu_anke_replaces_si_and_san_anke():
    r = sc("111p222p333s444s777m5z", "5z", self_drawn=True)
    assert "tw.si_anke" not in ids(r) and "tw.san_anke" not in ids(r) and ids(r)["tw.wu_anke"] == 8


def test_rule3_flushes_exclusive():
    assert "tw.hunyise" not in ids(sc("[chi 123m] 456m789m234m55m67m", "8m"))
    assert apply_exclusions([Hit("tw.qingyise"), Hit("tw.hunyise")]) == [Hit("tw.qingyise")]


# rule 4 ------------------------------------------------------------------------------------
def test_rule4_quanqiu_excludes_duting():
    r = sc("[chi 123m] [chi 456m] [peng 999p] [chi 234s] [kong-exposed 7777s] 5z", "5z")
    assert ids(r) == {"tw.quanqiu": 2}


def test_rule4_tianhu_excludes_menqing_buqiu_duting_gangshang_keeps_zimo():
    # edge wait (獨聽), concealed, self-drawn on a flower replacement
    r = sc("123m456m789m234p77z12s", "3s", seat=0, self_drawn=True, heavenly_win=True, kong_replacement=True)
    assert ids(r) == {"tw.tianhu": 24, "tw.zimo": 1}


def test_rule4_without_tianhu_the_same_hand_has_them():
    r = sc("123m456m789m234p77z12s", "3s", seat=0, self_drawn=True, kong_replacement=True)
    assert ids(r) == {"tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1, "tw.duting": 1, "tw.gangshang_kaihua": 1}


def test_rule4_dihu_keeps_zimo():
    r = sc("123m456m789m234p77z67s", "8s", self_drawn=True, earthly_win=True)
    assert "tw.zimo" in ids(r) and ids(r)["tw.dihu"] == 16


# rule 5 ------------------------------------------------------------------------------------
def test_rule5_tianting_not_added_to_tianhu():
    r = sc("123m456m789m234p77z67s", "8s", seat=0, self_drawn=True, heavenly_win=True, heavenly_ready=True)
    assert "tw.tianting" not in ids(r)


def test_rule5_tianting_not_added_to_dihu():
    r = sc("123m456m789m234p77z67s", "8s", self_drawn=True, earthly_win=True, heavenly_ready=True)
    assert "tw.tianting" not in ids(r) and "tw.dihu" in ids(r)


def test_rule5_diting_not_added_to_renhu():
    r = sc("123m456m789m234p77z67s", "8s", human_win=True, earthly_ready=True, discarder=0)
    assert ids(r) == {"tw.menqing": 1, "tw.renhu": 16}


def test_rule5_tianting_counts_on_an_ordinary_win():
    r = sc("123m456m789m234p77z67s", "8s", heavenly_ready=True)
    assert ids(r) == {"tw.menqing": 1, "tw.tianting": 8}


# rule 6 ------------------------------------------------------------------------------------
def test_rule6_best_decomposition_kept():
    """111222333m reads as three triplets (三暗刻 2) or three chows: the triplets win."""
    r = sc("[chi 789p] 111222333m456s5z", "5z", self_drawn=True)
    assert ids(r) == {"tw.zimo": 1, "tw.duting": 1, "tw.san_anke": 2}
    assert sum(1 for u in r.units if u.kind == "pung") == 3


def test_rule6_chow_reading_when_it_scores_more():
    """On a discard, 112233m reads as chows; a two-sided chow reading gives 平胡."""
    r = sc("[chi 789p] 112233m456s55s78s", "9s")
    assert ids(r) == {"tw.pinghu": 2}


def test_all_honours_without_all_pungs_option():
    opts = TaiwanOptions(all_honours_add_all_pungs=False)
    r = sc("[peng 111z] 222z333z555z66z77z", "7z", seat=3, options=opts)
    assert "tw.ziyise" in ids(r) and "tw.pengpenghu" not in ids(r)


def test_option_little_four_winds_keeps_wind_tai():
    opts = TaiwanOptions(little_four_winds_keep_wind_tai=True)
    r = sc("[chi 123m] [peng 111z] 222z333z44z67s", "8s", seat=1, round_wind=0, options=opts)
    assert ids(r) == {"tw.xiao_sixi": 8, "tw.quanfeng": 1, "tw.menfeng": 1}


def test_option_earthly_ready_excludes_concealed_p1():
    text = "123m456m789m234p77z67s"
    assert ids(sc(text, "8s", self_drawn=True, earthly_ready=True)) == {
        "tw.menqing": 1, "tw.zimo": 1, "tw.buqiu": 1, "tw.diting": 4}
    opts = TaiwanOptions(earthly_ready_excludes_concealed=True)
    assert ids(sc(text, "8s", self_drawn=True, earthly_ready=True, options=opts)) == {
        "tw.zimo": 1, "tw.diting": 4}


def test_option_prefer_triplet_on_discard():
    """3m 4444m 5m + 4m on a discard: best reading puts the 4m in the chow (444m stays concealed);
    the C1 option reads it as completing the triplet instead."""
    text = "[chi 789p] 3444m5m222s333s55z"
    r = sc(text, "4m")
    assert ids(r).get("tw.san_anke") == 2
    r = sc(text, "4m", options=TaiwanOptions(prefer_triplet_on_discard=True))
    assert "tw.san_anke" not in ids(r)
    assert any(u.kind == "pung" and u.tile == 3 and not u.concealed for u in r.units)
    # self-draws are not affected
    r = sc(text, "4m", self_drawn=True, options=TaiwanOptions(prefer_triplet_on_discard=True))
    assert "tw.san_anke" in ids(r)
