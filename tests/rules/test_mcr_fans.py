"""The fan table (RULES.md §6, seed 004), the exclusion data and principles, and one hand per fan
that shows it plus one that nearly does but must not (``mcr_fan_examples.py``)."""

from collections import Counter

import pytest

from mcr_fan_examples import EXAMPLES
from majiang.errors import MajiangError
from majiang.rules.mcr import FANS, OFFICIAL_FANS, McrOptions, fan, parse_hand_string, score
from majiang.rules.mcr import fans as F


def test_81_official_fans_in_12_levels():
    # RULES.md §6: 88 64 48 32 24 16 12 8 6 4 2 1 with 7 6 2 3 9 6 5 9 7 4 10 13 fans = 81
    assert len(OFFICIAL_FANS) == 81
    levels = Counter(f.points for f in OFFICIAL_FANS)
    assert [levels[p] for p in (88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1)] == [7, 6, 2, 3, 9, 6, 5, 9, 7, 4, 10, 13]
    assert [f.number for f in FANS] == list(range(1, 83))
    assert FANS[81].name_zh == "明暗杠" and FANS[81].points == 5


def test_names_are_unique_and_resolve():
    for attr in ("name_zh", "name_en", "key"):
        assert len({getattr(f, attr) for f in FANS}) == len(FANS)
    assert fan("Pure Double Chow").name_zh == "一般高"
    assert fan("一般高").name_en == "Pure Double Chow"
    assert fan("坎张") is fan("独听・嵌张") is fan("嵌张") is fan("mcr.closed_wait")
    assert fan("独听・单钓") is fan("单钓将") and fan("独听・边张") is fan("边张")
    assert fan(1).name_en == "Big Four Winds" and fan(81).name_zh == "花牌"
    assert fan("海底捞月").name_en == "Last Tile Claim" and fan("妙手回春").name_en == "Last Tile Draw"  # §7
    with pytest.raises(MajiangError):
        fan("天和")
    with pytest.raises(MajiangError):
        fan(99)


def test_exclusions_point_downwards():
    """Selection takes fans by (points desc, number asc): every exclusion must go from a fan taken
    earlier to one taken later, or it could not apply. The one exception, 一色三节高 (24) excluding
    一色三同顺 (24, taken first), and the seed's symmetric 边张/嵌张/单钓将 exclusions are vacuous:
    three chows and three pungs never share one hand, and one wait fan at most is detected."""
    order = {f.number: (-f.points, f.number) for f in FANS}
    waits = [fan(n).number for n in ("边张", "嵌张", "单钓将")]
    vacuous = {(fan("一色三节高").number, fan("一色三同顺").number)} | {(a, b) for a in waits for b in waits}
    for f in FANS:
        for g in f.excludes | f.excludes_same_sets | {n for n, _ in f.excludes_one}:
            assert order[f.number] < order[g] or (f.number, g) in vacuous, (f.name_zh, fan(g).name_zh)


@pytest.mark.parametrize("name,sample", [
    ("大四喜", "圈风刻 门风刻 三风刻 碰碰和 幺九刻"), ("七对", "不求人 门前清 单钓将"),
    ("清龙", "连六 老少副"), ("妙手回春", "自摸"), ("抢杠和", "和绝张"), ("平和", "无字"),
    ("双暗杠", "双暗刻 暗杠"), ("全求人", "单钓将"), ("一色双龙会", "平和 七对 清一色 一般高 老少副 无字"),
])
def test_exclusions_from_the_seed(name, sample):
    assert {fan(n).number for n in sample.split()} <= fan(name).excludes


def test_combination_fans_are_marked():
    combining = {f.name_zh for f in FANS if f.combines}
    assert combining == set("一色四同顺 一色四节高 一色四步高 一色三同顺 一色三节高 清龙 一色三步高 三同刻 花龙 "
                            "三色三同顺 三色三节高 三色三步高 双同刻 一般高 喜相逢 连六 老少副".split())


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_fan_shows(name):
    hand, cond = parse_hand_string(EXAMPLES[name][0])
    assert name in score(hand, cond).counts_zh()


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_fan_nearly_but_not(name):
    hand, cond = parse_hand_string(EXAMPLES[name][1])
    assert name not in score(hand, cond).counts_zh()


def test_every_fan_has_examples():
    assert set(EXAMPLES) == {f.name_zh for f in FANS}


# ---- the principles, on the selection procedure directly


def _units(*specs):
    kinds = {"c": F.CHOW, "p": F.PUNG, "e": F.PAIR}
    return tuple(F.Unit(kinds[k], tuple(t)) for k, t in specs)


def test_account_once_k_chows_give_at_most_k_minus_1():
    # 123m 123m 123p 123p + 55s: 一般高 ×2 and 喜相逢 ×1 (case 259), never 喜相逢 ×4
    units = _units(("c", (0, 1, 2)), ("c", (0, 1, 2)), ("c", (9, 10, 11)), ("c", (9, 10, 11)), ("e", (22, 22)))
    ctx = F.Context("standard", units, 22)
    hits = F.select(h for h in F.detect(ctx) if F.fan(h.fan).combines)
    assert Counter(F.fan(h.fan).name_zh for h in hits) == {"一般高": 2, "喜相逢": 1}


def test_account_once_three_chow_fan_plus_one_pair_fan():
    # 花龙 (123s 456p 789m) + 123p: only one more chow fan, 喜相逢 preferred to 连六 (case 313)
    hand, cond = parse_hand_string("789m456p123s123p33m")
    fans = score(hand, cond).counts_zh()
    assert fans["花龙"] == 1 and fans["喜相逢"] == 1 and "连六" not in fans


def test_same_set_exclusion_covers_only_its_own_pung():
    # EEE (圈风刻 + 门风刻, no 幺九刻 for it) + 999m (幺九刻 counts)
    hand, cond = parse_hand_string("[EEE,1]999m123p456s5p5p|EE0000")
    fans = score(hand, cond).counts_zh()
    assert fans["圈风刻"] == 1 and fans["门风刻"] == 1 and fans["幺九刻"] == 1


def test_excludes_one_instance():
    # 九莲宝灯 111p..999p + 2p: two terminal pungs, one 幺九刻 left (trap MCR-27)
    hand, cond = parse_hand_string("11123456789992p")
    assert score(hand, cond).counts_zh()["幺九刻"] == 1


def test_excluded_fan_does_not_exclude():
    # 九莲宝灯 excludes 不求人; 不求人 would exclude 自摸, but being excluded it does not (case 271)
    hand, cond = parse_hand_string("11123456789999m|EE1000")
    fans = score(hand, cond).counts_zh()
    assert "不求人" not in fans and fans["自摸"] == 1


def test_melded_and_concealed_kong_option():
    hand, cond = parse_hand_string("[1111m][1111p,2]11134445s|EE1000")  # case 244
    assert score(hand, cond).counts_zh()["明暗杠"] == 1
    r = score(hand, cond, McrOptions(melded_concealed_kong_pair=False))
    assert "明暗杠" not in r.counts_zh() and r.counts_zh()["明杠"] == 1 and r.counts_zh()["暗杠"] == 1
    assert r.total == 28 - 5 + 3
