"""TaiwanWin validation, TaiwanOptions (presets, overrides, optional rules), scoring errors and the
minimum (三台起胡, RULES.md §3.1 / §3.4)."""

from __future__ import annotations

import pytest
from twhelp import BASE, BASE_WIN, ids, sc, win

from majiang.errors import MajiangError, TileCountError
from majiang.hand import Hand
from majiang.rules.taiwan import (
    PRESETS,
    TaiwanConditionError,
    TaiwanNotWinningError,
    TaiwanOptionError,
    TaiwanOptions,
    TaiwanScoringError,
    TaiwanWin,
    UnknownPatternError,
    can_win,
    is_complete,
    pattern,
    score,
)


# ------------------------------------------------------------------------------ TaiwanWin
@pytest.mark.parametrize("kw", [
    {"seat": 4},
    {"dealer": -1},
    {"round_wind": 4},
    {"seat": 1, "discarder": 1},
    {"seat": 1, "discarder": 7},
    {"streak": -1},
    {"self_drawn": True, "discarder": 2},                      # self-draw with a discarder
    {"self_drawn": False},                                      # claimed win without discarder
    {"self_drawn": True, "robbing_kong": True},
    {"discarder": 2, "kong_replacement": True},
    {"discarder": 2, "last_tile": True},
    {"self_drawn": True, "last_discard": True},
    {"discarder": 2, "robbing_kong": True, "last_discard": True},
    {"seat": 1, "dealer": 0, "self_drawn": True, "heavenly_win": True},  # 天胡 by a non-dealer
    {"seat": 0, "dealer": 0, "self_drawn": True, "earthly_win": True},   # 地胡 by the dealer
    {"seat": 1, "dealer": 0, "self_drawn": True, "human_win": True},     # 人胡 is a discard win
    {"seat": 0, "dealer": 0, "discarder": 2, "human_win": True},
    {"discarder": 2, "heavenly_ready": True, "earthly_ready": True},
    {"discarder": 2, "flowers": (1,)},                         # not a flower
    {"discarder": 2, "flowers": (34, 34)},
    {"discarder": 2, "bao_pai": (34,)},
    {"discarder": 2, "bao_pai": (1, 2, 3, 4, 5, 6)},
    {"flower_drawer": 2, "flowers": (34, 35)},                 # 七搶一 needs seven
    {"flower_drawer": 2, "discarder": 3, "flowers": tuple(range(34, 41))},
])
def test_bad_conditions_raise(kw):
    with pytest.raises(TaiwanConditionError) as e:
        TaiwanWin(**kw)
    assert isinstance(e.value, MajiangError) and str(e.value)


def test_seat_wind_and_payers():
    w = TaiwanWin(seat=2, dealer=3, self_drawn=True)
    assert w.seat_wind == 3 and w.seat_wind_tile == 30  # North
    assert w.payers() == (0, 1, 3)
    assert TaiwanWin(seat=2, dealer=3, discarder=1).payers() == (1,)
    assert TaiwanWin(seat=2, discarder=1, robbing_kong=True).payers() == (1,)
    assert TaiwanWin(seat=2, flower_drawer=0, flowers=tuple(range(34, 41))).payers() == (0,)


# ------------------------------------------------------------------------------ options
def test_option_errors():
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(preset="nope")
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(overrides={"tw.zimoo": 2})
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(overrides={"tw.zimo": -1})
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(enabled=frozenset({"tw.zimo"}))  # not optional
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(minimum_tai=-1)
    with pytest.raises(TaiwanOptionError):
        TaiwanOptions(eight_flowers_mode="sometimes")
    with pytest.raises(UnknownPatternError):
        pattern("tw.nothing")
    with pytest.raises(UnknownPatternError):
        TaiwanOptions().tai("zimo")


def test_presets_refer_to_known_patterns():
    for name, table in PRESETS.items():
        opts = TaiwanOptions(preset=name)
        for pid, v in table.items():
            assert opts.tai(pid) == v


@pytest.mark.parametrize("preset,pid,tai", [
    ("c1_values", "tw.huagang", 1), ("c1_values", "tw.diting", 8), ("c1_values", "tw.ziyise", 16),
    ("c1_values", "tw.tianting", 16), ("shenlaiye", "tw.tianting", 16), ("shenlaiye", "tw.renhu", 8),
    ("p3", "tw.renhu", 8), ("cap16", "tw.tianhu", 16), ("c2_16mj", "tw.banqiu", 2),
    ("c2_16mj", "tw.baxian_guohai", 16), ("star31", "tw.renhu", 16), ("association", "tw.tianhu", 24),
])
def test_preset_values_from_the_alt_column(preset, pid, tai):
    assert TaiwanOptions(preset=preset).tai(pid) == tai


def test_preset_changes_a_score_and_override_beats_preset():
    r = sc(BASE, BASE_WIN, flowers="1234f", options=TaiwanOptions(preset="c1_values"))
    assert ids(r) == {"tw.huagang": 1}
    r = sc(BASE, BASE_WIN, flowers="1234f", options=TaiwanOptions(preset="c1_values",
                                                                   overrides={"tw.huagang": 3}))
    assert ids(r) == {"tw.huagang": 3}


def test_override_zero_switches_a_pattern_off():
    opts = TaiwanOptions(overrides={"tw.banqiu": 0})
    r = sc("[chi 123m] [chi 456m] [peng 999p] [chi 234s] [kong-exposed 7777s] 5z", "5z", self_drawn=True,
           options=opts)
    assert ids(r) == {"tw.zimo": 1, "tw.duting": 1}


def test_tai_cap():
    r = sc("123m456m789m234p77z67s", "8s", seat=0, self_drawn=True, heavenly_win=True,
           options=TaiwanOptions(tai_cap=16))
    assert r.uncapped_tai == 25 and r.total_tai == 16


def test_options_are_hashable_and_frozen():
    a = TaiwanOptions(overrides={"tw.zimo": 2})
    assert hash(a) == hash(TaiwanOptions(overrides={"tw.zimo": 2}))
    with pytest.raises(TypeError):
        a.overrides["tw.zimo"] = 3  # type: ignore[index]


# ------------------------------------------------------------------------------ scoring errors
def test_not_winning():
    with pytest.raises(TaiwanNotWinningError):
        sc("[chi 123m] 456m789m234p77z67s", "9s")
    assert not can_win(Hand.parse("[chi 123m] 456m789m234p77z67s", win_tile="9s"), win())


def test_wrong_size_is_a_tile_count_error():
    with pytest.raises(TileCountError):
        sc("123m456m789m234p77z6s", "8s")  # 小相公


def test_no_win_tile_or_no_hand():
    with pytest.raises(TaiwanScoringError):
        score(Hand.parse(BASE), win())
    with pytest.raises(TaiwanScoringError):
        score(None, win())


def test_no_wildcards_in_taiwan():
    with pytest.raises(TaiwanScoringError):
        sc("[chi 123m] 456m789m234p77z6s*", "8s")


def test_flowers_given_twice_must_agree():
    h = Hand.parse(BASE, win_tile=BASE_WIN, flowers="1f")
    with pytest.raises(TaiwanScoringError):
        score(h, win(flowers=(35,)))
    assert score(h, win(flowers=(34,))).win.flowers == (34,)


def test_baoting_and_baopai_need_their_option():
    with pytest.raises(TaiwanScoringError):
        sc(BASE, BASE_WIN, declared_ready=True)
    with pytest.raises(TaiwanScoringError):
        sc(BASE, BASE_WIN, bao_pai=(0,))


def test_is_complete():
    assert is_complete(Hand.parse(BASE, win_tile=BASE_WIN))
    assert not is_complete(Hand.parse(BASE, win_tile="9s"))
    eight = Hand.parse("11m22m33p44p55s66s77z88s", win_tile="8s")
    assert not is_complete(eight)
    assert is_complete(eight, TaiwanOptions(enabled=frozenset({"tw.ba_duiban"})))


# ------------------------------------------------------------------------------ minimum
def test_minimum_three_tai():
    opts = TaiwanOptions(minimum_tai=3)
    low = sc(PINGHU_MELDED, "8s", options=opts)
    assert low.total_tai == 2 and not low.meets_minimum
    high = sc("123m456m789m234p55p67s", "8s", options=opts)  # 門清 1 + 平胡 2
    assert high.total_tai == 3 and high.meets_minimum
    assert not can_win(Hand.parse(PINGHU_MELDED, win_tile="8s"), win(), opts)


PINGHU_MELDED = "[chi 123m] 456m789m234p55p67s"


def test_baopai_does_not_count_toward_the_minimum():
    opts = TaiwanOptions.platform()
    assert opts.minimum_tai == 3 and opts.bao_pai
    r = sc("[peng 555z] 345m123p456p11s23s", "4s", options=opts, bao_pai=(4, 31, 31))
    assert r.total_tai == 8 and r.tai_for_minimum == 1 and not r.meets_minimum


def test_platform_profile_meets_minimum_without_baopai():
    opts = TaiwanOptions.platform()
    r = sc("[chi 123m] 456m789m234m77z67m", "8m", options=opts, bao_pai=(26,))  # 混一色 4
    assert r.meets_minimum and r.bao_tai == 0


def test_str_of_result_and_win():
    r = sc("123m456m789m234p77z67s", "8s", self_drawn=True)
    assert str(r) == "門清 1, 自摸 1, 不求 1 = 3 台"
    assert "self-draw" in str(r.win)


def test_options_and_results_pickle():
    import pickle
    opts = TaiwanOptions(preset="shenlaiye", overrides={"tw.zimo": 2}, enabled=frozenset({"tw.baoting"}))
    assert pickle.loads(pickle.dumps(opts)) == opts
    r = sc(BASE, BASE_WIN, self_drawn=True, options=opts)
    r2 = pickle.loads(pickle.dumps(r))
    assert r2 == r and r2.total_tai == 2
