"""Taiwan flower tai under every flower mode (issue 12, fault 2) and the reading choices made
options (fault 4; RULES.md §3.5).

Flowers (RULES.md §3.2): 正花 1 per seat flower (E=1, S=2, W=3, N=4; 見花見台: every flower 1); 花槓 2 per
complete group (春夏秋冬 or 梅蘭竹菊) replacing the *seat* flower of that group (non-stacking rule 2);
八仙過海 8.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twhelp import BASE, BASE_WIN, ids, sc

from majiang.hand import Hand
from majiang.rules.taiwan import PRESETS, TaiwanOptionError, TaiwanOptions, TaiwanWin, score

ALL_MELDED = "[chi 123m] [chi 456m] [peng 999p] [chi 234s] [kong-exposed 7777s] 5z"
FLOWER_IDS = ("tw.zhenghua", "tw.huagang", "tw.baxian_guohai")
SEE_ALL = TaiwanOptions(all_flowers_count=True)


def flower_tai(r) -> int:
    return sum(r.tai_of(p) for p in FLOWER_IDS if any(pc.pattern.id == p for pc in r.patterns))


def test_see_all_flowers_the_issue_case():
    """Seat 1 (South, seat flowers 2f 夏 and 6f 蘭), 見花見台: 1-3f = 3 正花; 1-4f = 花槓 2 replacing 夏
    plus 春 秋 冬 = 5 (was 2: every flower of the group was replaced); 1-5f = 6."""
    assert ids(sc(BASE, BASE_WIN, flowers="123f", options=SEE_ALL)) == {"tw.zhenghua": 3}
    r = sc(BASE, BASE_WIN, flowers="1234f", options=SEE_ALL)
    assert ids(r) == {"tw.zhenghua": 3, "tw.huagang": 2} and r.total_tai == 5
    assert sc(BASE, BASE_WIN, flowers="12345f", options=SEE_ALL).total_tai == 6


def test_seat_flowers_only_unchanged():
    """Default mode (RULES.md §3.2): 1-3f for South = 夏 1; 1-4f = 花槓 2 (replaces 夏)."""
    assert ids(sc(BASE, BASE_WIN, flowers="123f")) == {"tw.zhenghua": 1}
    assert ids(sc(BASE, BASE_WIN, flowers="1234f")) == {"tw.huagang": 2}


def test_a_switched_off_flower_kong_replaces_nothing():
    """花槓 set to 0 台 is off: it no longer removes the seat flower (1-4f for South keeps 夏 1)."""
    r = sc(BASE, BASE_WIN, flowers="1234f", options=TaiwanOptions(overrides={"tw.huagang": 0}))
    assert ids(r) == {"tw.zhenghua": 1}


CONFIGS = [TaiwanOptions(preset=p, all_flowers_count=a, eight_flowers_mode=m)
           for p in PRESETS for a in (False, True) for m in ("standalone", "added")]


@settings(max_examples=60, deadline=None)
@given(cfg=st.sampled_from(CONFIGS), order=st.permutations(range(34, 42)), seat=st.integers(0, 3),
       self_drawn=st.booleans())
def test_flower_tai_never_decrease_as_flowers_are_added(cfg, order, seat, self_drawn):
    prev = 0
    for k in range(9):
        fl = tuple(sorted(order[:k]))
        kw = dict(seat=seat, dealer=0, self_drawn=self_drawn, flowers=fl)
        if not self_drawn:
            kw["discarder"] = (seat + 3) % 4
        r = score(Hand.parse(BASE, win_tile=BASE_WIN), TaiwanWin(**kw), cfg)
        now = flower_tai(r)
        assert now >= prev, (k, fl, now, prev, r.patterns)
        prev = now


# ------------------------------------------------------------------------- reading choices (§3.5)
def test_single_wait_with_half_begging():
    assert ids(sc(ALL_MELDED, "5z", self_drawn=True)) == {"tw.zimo": 1, "tw.banqiu": 1, "tw.duting": 1}
    opts = TaiwanOptions(single_wait_with_half_begging=False)
    assert ids(sc(ALL_MELDED, "5z", self_drawn=True, options=opts)) == {"tw.zimo": 1, "tw.banqiu": 1}


OWN_FOUR = "[chi 123p] [chi 456p] [chi 789p] 1111234m"  # waits 4m (pair); 1m only formally (own four)


def test_single_wait_counting_a_tile_held_four_times():
    assert "tw.duting" not in ids(sc(OWN_FOUR, "4m"))
    r = sc(OWN_FOUR, "4m", options=TaiwanOptions(single_wait_counts_own_four=False))
    assert ids(r)["tw.duting"] == 1


def test_all_chows_honour_pair_and_flowers():
    honour_pair = "[chi 123m] 456m789m234p77z67s"
    assert "tw.pinghu" not in ids(sc(honour_pair, "8s"))
    assert ids(sc(honour_pair, "8s", options=TaiwanOptions(all_chows_honour_pair=True)))["tw.pinghu"] == 2
    pinghu = "[chi 123m] 456m789m234p55p67s"
    assert "tw.pinghu" not in ids(sc(pinghu, "8s", flowers="1f"))
    r = sc(pinghu, "8s", flowers="1f", options=TaiwanOptions(all_chows_with_flowers=True))
    assert ids(r) == {"tw.pinghu": 2}


def test_heavenly_ready_includes_declared_ready():
    on = frozenset({"tw.baoting"})
    r = sc(BASE, BASE_WIN, heavenly_ready=True, declared_ready=True, options=TaiwanOptions(enabled=on))
    assert ids(r) == {"tw.tianting": 8, "tw.baoting": 1}
    r = sc(BASE, BASE_WIN, heavenly_ready=True, declared_ready=True,
           options=TaiwanOptions(enabled=on, heavenly_ready_includes_declared=True))
    assert ids(r) == {"tw.tianting": 8}


def test_eight_half_pairs_single_wait():
    text = "111m22m33p44p55s66s77z8s"  # 八對半 waiting only on 8s
    on = frozenset({"tw.ba_duiban"})
    assert ids(sc(text, "8s", options=TaiwanOptions(enabled=on))) == {"tw.menqing": 1, "tw.ba_duiban": 8,
                                                                       "tw.duting": 1}
    r = sc(text, "8s", options=TaiwanOptions(enabled=on, eight_half_pairs_single_wait=False))
    assert ids(r) == {"tw.menqing": 1, "tw.ba_duiban": 8}


def test_the_c1_preset_is_named_for_what_it_is():
    """RULES.md §3.5: the preset carries C1's default tai values only, so it is ``c1_values``."""
    assert "c1_values" in PRESETS and "c1_default" not in PRESETS
    with pytest.raises(TaiwanOptionError, match="c1_values"):
        TaiwanOptions(preset="c1_default")
