"""``majiang score``: MCR hand strings of gb_mahjong_cases.json and the other rule sets' trap notation,
checked against the cases file and the RULES.md worked examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from majiang.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = json.loads((DATA / "gb_mahjong_cases.json").read_text(encoding="utf-8"))
BY_LINE = {c["line"]: c for c in CASES}


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["score", *args])
    return r.exit_code, r.output


def run_json(*args: str) -> dict:
    code, out = run(*args, "--json")
    assert code == 0, out
    return json.loads(out)


# ------------------------------------------------------------------------------------------ MCR
@pytest.mark.parametrize("line", [205, 206, 207, 208])
def test_mcr_cases(line):
    case = BY_LINE[line]
    got = run_json(case["hand_string"])
    ref = case["pymahjonggb_1_4_0"]
    assert got["total"] == ref["total"]
    assert {f["name_zh"]: f["count"] for f in got["fans"]} == ref["fans"]
    for f in got["fans"]:
        assert set(f) == {"name_en", "name_zh", "points", "count"}
        assert isinstance(f["points"], int) and f["name_en"]
    assert sum(f["points"] * f["count"] for f in got["fans"]) == got["total"]


def test_mcr_json_fields_and_settlement():
    got = run_json("[EEE,2][SSSS,1]WWWNN55pN|EE1000")  # line 205: 大四喜 … 自摸, 98
    assert got["total"] == 98 and got["valid"] and got["fan_total"] == 98 and got["flowers"] == 0
    assert got["fans"][0] == {"name_en": "Big Four Winds", "name_zh": "大四喜", "points": 88, "count": 1}
    assert got["deltas"] == [3 * 106, -106, -106, -106]  # self-draw: each pays 8 + 98 (RULES.md §9.6)


def test_mcr_plain_output():
    code, out = run("[EEE,2][SSSS,1]WWWNN55pN|EE1000")
    assert code == 0
    assert "Big Four Winds" in out and "大四喜" in out and "total: 98" in out


def test_mcr_options_override_the_flags():
    hs = BY_LINE[207]["hand_string"]  # [EEE,2][SSS,1]WWW78m55p9m|NN1000: 三风刻 12 + 缺一门 1 + 自摸 1
    base = run_json(hs)
    assert base["total"] == 14
    assert run_json(hs, "--flowers", "2")["total"] == 16  # flowers after the minimum
    disc = run_json(hs, "--discard")
    assert disc["total"] == 13 and disc["deltas"] == [8 + 13 + 8 + 8, -8, -8, -(8 + 13)]
    assert "自摸" not in {f["name_zh"] for f in disc["fans"]}
    moved = run_json(hs, "--win-tile", "8m")  # 79m wait on 8m: 嵌张 (closed wait)
    assert "嵌张" in {f["name_zh"] for f in moved["fans"]}
    # the string says prevalent N, seat N (NN: no wind fan for the pung of East); overridden to
    # East and East the pung of East scores 圈风刻 2 + 门风刻 2
    east = run_json(hs, "--prevalent", "E", "--seat-wind", "E")
    assert east["total"] == 18 and {"圈风刻", "门风刻"} <= {f["name_zh"] for f in east["fans"]}
    assert run_json(hs, "--seat", "2", "--dealer", "2", "--prevalent", "E")["total"] == 18  # seat 2 deals: East


def test_mcr_under_the_minimum_is_reported():
    got = run_json("[123m,1][789p,1][345s,1]67sEE8s|SW")  # 连六 1: under the 8-fan minimum
    assert got["total"] == 1 and not got["valid"] and got["deltas"] is None
    code, out = run("[123m,1][789p,1][345s,1]67sEE8s|SW")
    assert code == 0 and "not a valid win" in out


# ------------------------------------------------------------------------------------- Taiwan
def test_taiwan_rules_example_self_draw():
    """RULES.md §3.3: B self-draws 門清 + 自摸 + 不求 + 正花 = 4 台; dealer A on 連1 pays 100, C and D 70."""
    got = run_json("123m456m789m567s99s34p", "--rules", "taiwan", "--win-tile", "5p", "--self-drawn",
                   "--seat", "1", "--dealer", "0", "--streak", "1", "--flowers", "2f")
    assert got["total"] == 4
    assert {f["name_zh"]: (f["points"], f["count"]) for f in got["fans"]} == {
        "門清": (1, 1), "自摸": (1, 1), "不求": (1, 1), "正花": (1, 1)}
    assert got["deltas"] == [-100, 240, -70, -70] and got["dealer_tai"] == 3


def test_taiwan_rules_example_discard():
    """RULES.md §3.3: the dealer (no streak) wins 2 台 on C's discard: C pays 30 + (2+1)×10 = 60."""
    got = run_json("[chi 123m] 456m789m567s99s34p", "--rules", "taiwan", "--win-tile", "2p", "--seat", "0",
                   "--dealer", "0", "--discarder", "2")
    assert got["total"] == 2 and [f["name_zh"] for f in got["fans"]] == ["平胡"]
    assert got["deltas"] == [60, 0, -60, 0]


# ------------------------------------------------------------------------------------ Wenzhou
def test_wenzhou_w13_seed_example():
    """Seed 003: the dealer in his second consecutive hand self-draws 七对子: each pays 4 × 5 = 20."""
    got = run_json("1133m5577p99s112z", "--rules", "wenzhou", "--win-tile", "2z", "--self-drawn", "--streak", "1")
    assert got["total"] == 4 and got["unit"] == "multiplier" and got["shape"] == "seven-pairs"
    assert got["fans"] == [{"name_en": "Seven pairs", "name_zh": "七对子", "points": 4, "count": 1}]
    assert got["deltas"] == [60, -20, -20, -20]
    assert run_json("1133m5577p99s112z", "--rules", "wenzhou13", "--win-tile", "2z", "--self-drawn",
                    "--streak", "1")["deltas"] == [60, -20, -20, -20]


def test_wenzhou_w13_full_flush_on_a_discard():
    """Seed 003 / RULES.md §4.6: non-dealer 清一色 ×4 on non-dealer D's discard, base 3: dealer 12,
    D 4 + 1, the other 4."""
    got = run_json("1112345678889m", "--rules", "wenzhou", "--win-tile", "9m", "--seat", "1", "--dealer", "0",
                   "--discarder", "3")
    assert got["total"] == 4 and got["pattern_ids"] == ["wz13.qingyise"]
    assert got["deltas"] == [-12, 21, -4, -5]


def test_wenzhou_w13_wild_and_caishenhui():
    """财神 = 2z (South): three 财神 self-drawn, no shape: 财神会 ×4 (RULES.md §4.4, §9.4)."""
    got = run_json("2z2z2z147m12p59s3z6z7z", "--rules", "wenzhou", "--wild", "2z", "--win-tile", "9p",
                   "--self-drawn")
    assert "wz13.caishenhui" in got["pattern_ids"] and got["total"] >= 4 and got["wild"] == "2z"
    code, out = run("2z2z2z147m12p59s3z6z7z", "--rules", "wenzhou", "--wild", "2z", "--win-tile", "9p")
    assert code == 2 and "not a winning W13 hand" in out  # on a discard it is no win


def test_wenzhou_w16_soft_win():
    """W16 (MIL): a 财神 standing for another tile on a discard is soft ×1; the dealer pays ×2."""
    got = run_json("123m456m789m123p4p77s*", "--rules", "wenzhou-w16", "--win-tile", "5p", "--seat", "1",
                   "--discarder", "2", "--wild", "1z")
    assert got["total"] == 1 and got["fans"][0]["name_zh"] == "软和"
    assert got["deltas"] == [-2, 4, -1, -1]


def test_wenzhou_w16_natural_eight_pairs():
    got = run_json("1122m3344p5566s7788s", "--rules", "wenzhou-w16", "--win-tile", "9s", "--self-drawn",
                   "--wild", "1z")
    assert got["total"] == 4 and got["shape"] == "eight-pairs" and got["fans"][0]["name_zh"] == "双翻"


# ------------------------------------------------------------------------- seed 000, Shandong
def test_seed000_three_wilds_outright():
    got = run_json("2z2z2z147m159p159s3z", "--rules", "seed000", "--wild", "2z", "--win-tile", "7z",
                   "--self-drawn")
    assert got["shape"] == "three-wilds" and "seed000.baida_outright" in got["pattern_ids"]
    assert got["total"] == 1 and sum(f["points"] * f["count"] for f in got["fans"]) == 1
    assert got["deltas"] == [3, -1, -1, -1]


def test_seed000_seven_pairs():
    got = run_json("1133m5577p99s224z", "--rules", "seed000", "--win-tile", "4z")
    assert "seed000.qiduizi" in got["pattern_ids"] and got["deltas"] == [1, 0, 0, -1]


def test_shandong_points():
    got = run_json("123m456m789m123p5p", "--rules", "shandong", "--win-tile", "5p", "--seat", "2",
                   "--discarder", "1")
    assert got["total"] == 1 and got["fans"] == [{"name_en": "Win on a discard", "name_zh": "点炮", "points": 1,
                                                  "count": 1}]
    assert got["deltas"] == [0, -1, 1, 0]
    sd = run_json("123m456m789m123p5p", "--rules", "shandong", "--win-tile", "5p", "--self-drawn")
    assert sd["total"] == 2 and sd["deltas"] == [6, -2, -2, -2]


# ------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, words", [
    (["123m", "--rules", "riichi"], ["riichi", "wenzhou-w16"]),
    (["12x|EE"], ["HAND", "12x"]),
    (["123m456m789m123p4p|EE"], ["小相公"]),
    (["[EEE,2][SSSS,1]WWWNN55pN|EE1000", "--seat", "5"], ["--seat"]),
    (["[EEE,2][SSSS,1]WWWNN55pN|EE1000", "--wild", "5z"], ["wildcards"]),
    (["[EEE,2][SSSS,1]WWWNN55pN|EE1000", "--prevalent", "X"], ["--prevalent"]),
    (["1133m5577p99s112z", "--rules", "wenzhou"], ["--win-tile"]),
    (["1133m5577p99s112z", "--rules", "wenzhou", "--win-tile", "2z", "--wild", "9x"], ["--wild"]),
    (["123m456m789m567s99s34p", "--rules", "taiwan", "--win-tile", "5p", "--flowers", "2"], ["flower tiles"]),
    (["123m456m789m567s99s34p", "--rules", "taiwan", "--win-tile", "7p"], ["not a complete Taiwan hand"]),
    (["123m456m789m567s99s34p", "--rules", "taiwan", "--win-tile", "5p", "--flowers", "9z"], ["--flowers"]),
])
def test_bad_input_exits_2_naming_the_fault(args, words):
    code, out = run(*args)
    assert code == 2, out
    for w in words:
        assert w in out
