"""The MCR traps of ``shared/data/cases/traps.json`` (MCR-*, HU-09, FLAG-*), expected values from
each case's ``expected`` text (and its stated variants)."""

import json

import pytest

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
from majiang.hand import Hand
from majiang.rules.mcr import McrConditionError, WinConditions, score

TRAPS = {c["id"]: c for c in json.loads((DATA / "traps.json").read_text(encoding="utf-8"))}
WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def _hand(case, hand=None, melds=None, win=None) -> Hand:
    text = " ".join((melds if melds is not None else case["melds"]) + [hand or case["hand"]])
    return Hand.parse(text, win_tile=win or case["win_tile"])


def _conditions(case, **override) -> WinConditions:
    c = case["conditions"]
    win = c.get("win", "discard")
    kw = dict(self_drawn=win.startswith("self-drawn"), robbing_kong="robbing" in win,
              last_wall_tile="last tile" in win, last_of_kind=bool(c.get("fourth_tile_flag")),
              seat_wind=WIND[c.get("seat", "E")], prevalent_wind=WIND[c.get("prevalent", "E")],
              flowers=c.get("flowers", 0))
    kw.update(override)
    return WinConditions(**kw)


# id -> (expected {Chinese name: count}, total)
EXPECTED = {
    "HU-09": ({"七对": 1, "清一色": 1, "四归一": 1}, 50),
    "MCR-01": ({"四归一": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1}, 6),
    "MCR-03": ({"四归一": 1, "双暗刻": 1, "暗杠": 1, "幺九刻": 2, "无字": 1}, 9),
    "MCR-05": ({"组合龙": 1}, 12),
    "MCR-08": ({"组合龙": 1, "四归一": 1, "幺九刻": 1, "单钓将": 1}, 16),
    "MCR-10": ({"一色双龙会": 1, "门前清": 1, "边张": 1}, 67),
    "MCR-12": ({"小四喜": 1, "混幺九": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1}, 106),
    "MCR-13": ({"三杠": 1, "双暗刻": 1}, 34),
    "MCR-15": ({"门前清": 1, "平和": 1, "断幺": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "缺一门": 1}, 10),
    "MCR-16": ({"组合龙": 1, "门前清": 1}, 14),
    "MCR-20": ({"抢杠和": 1, "四归一": 1, "断幺": 1, "喜相逢": 1, "连六": 1, "缺一门": 1, "花牌": 3}, 18),
    "MCR-21": ({"一色三步高": 1, "妙手回春": 1, "和绝张": 1, "喜相逢": 1, "缺一门": 1}, 30),
    "MCR-23": ({"清一色": 1, "大于五": 1, "和绝张": 1, "四归一": 2, "幺九刻": 1}, 45),
    "MCR-24": ({"三暗刻": 1, "抢杠和": 1, "全带幺": 1, "门前清": 1, "四归一": 1, "双同刻": 1, "幺九刻": 3,
                "缺一门": 1, "无字": 1, "嵌张": 1}, 40),
    "MCR-27": ({"九莲宝灯": 1, "清龙": 1, "四归一": 1, "自摸": 1}, 107),
    "MCR-28": ({"全不靠": 1, "组合龙": 1}, 24),
}


def test_every_mcr_trap_is_covered():
    ids = {i for i in TRAPS if i.startswith("MCR-")} | {"HU-09"}
    assert ids == set(EXPECTED)


@pytest.mark.parametrize("trap_id", sorted(EXPECTED))
def test_trap(trap_id):
    case = TRAPS[trap_id]
    fans, total = EXPECTED[trap_id]
    r = score(_hand(case), _conditions(case))
    assert r.counts_zh() == fans
    assert r.total == total


def test_mcr01_is_under_the_minimum():
    case = TRAPS["MCR-01"]
    r = score(_hand(case), _conditions(case))
    assert r.total == 6 and not r.is_valid_win


def test_mcr20_without_robbing_scores_last_tile_instead():
    case = TRAPS["MCR-20"]
    r = score(_hand(case), _conditions(case, robbing_kong=False))
    assert r.counts_zh() == {"和绝张": 1, "四归一": 1, "断幺": 1, "喜相逢": 1, "连六": 1, "缺一门": 1, "花牌": 3}
    assert r.total == 14
    assert r.fan_total == 11 and r.is_valid_win is True


def test_mcr21_on_the_last_discard_is_last_tile_claim():
    case = TRAPS["MCR-21"]
    r = score(_hand(case), _conditions(case, self_drawn=False))
    assert r.counts_zh() == {"一色三步高": 1, "海底捞月": 1, "和绝张": 1, "喜相逢": 1, "缺一门": 1}
    assert r.total == 30


def test_mcr24_with_a_melded_pung_scores_24():
    case = TRAPS["MCR-24"]
    r = score(_hand(case, hand="999p11999s79p", melds=["[peng 111p]"]), _conditions(case))
    assert r.total == 24
    assert "三暗刻" not in r.counts_zh() and r.counts_zh()["双暗刻"] == 1


def test_mcr27_second_hand_nine_gates_on_a_discard():
    case = TRAPS["MCR-27"]
    r = score(_hand(case, hand="1112345678999p", win="2p"), WinConditions())
    assert r.counts_zh() == {"九莲宝灯": 1, "双暗刻": 1, "连六": 1, "幺九刻": 1}
    assert r.total == 92


def test_mcr28_greater_honors_example():
    r = score(Hand.parse("14m369p25s123456z", win_tile="7z"), WinConditions(self_drawn=True))
    assert r.counts_zh() == {"七星不靠": 1, "自摸": 1}
    assert r.total == 25


def test_flag02_flower_replacement_is_only_self_drawn():
    # a flower replacement win is a plain self-draw: kong_replacement stays False
    r = score(Hand.parse("[chi 123m] [chi 345m] 567m34s77z", win_tile="5s"), WinConditions(self_drawn=True))
    assert "自摸" in r.counts_zh() and "杠上开花" not in r.counts_zh()
    with pytest.raises(McrConditionError):  # and 杠上开花 needs a kong
        score(Hand.parse("[chi 123m] [chi 345m] 567m34s77z", win_tile="5s"),
              WinConditions(self_drawn=True, kong_replacement=True))


def test_flag03_only_an_added_kong_can_be_robbed():
    # the robbed tile's three other copies are in the robbed pung: the winner holds none
    with pytest.raises(McrConditionError):
        score(Hand.parse("567m5557p [chi 234m] [peng 555m]", win_tile="5p"), WinConditions(robbing_kong=True))
    with pytest.raises(McrConditionError):
        WinConditions(robbing_kong=True, self_drawn=True)
