"""Every case of ``shared/data/mcr/gb_mahjong_cases.json`` (copy in ``tests/data``).

Each case gives a hand in the compact notation, the fans of the rule-interpretation book
(``expected_fans``, Chinese names, a repeated name = counted twice) and what PyMahjongGB 1.4.0
returns. We check both, names compared through :func:`majiang.rules.mcr.fan` (PyMahjongGB's
独听・嵌张 = the book's 坎张 = our 嵌张, …).

Known reading difference (data README): the hand ``258m23469p14788s3p`` (cases at lines 290 and
305) wins on 3p, which fits both the knitted straight and 2_4p. The book scores no 坎张,
PyMahjongGB does. Default (``McrOptions.knitted_straight_waits=True``) = PyMahjongGB; the option
set to False gives the book's answer. Both readings are tested.
"""

import json
from collections import Counter

import pytest

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
from majiang.rules.mcr import McrOptions, fan, parse_hand_string, score

CASES = json.loads((DATA / "gb_mahjong_cases.json").read_text(encoding="utf-8"))
BOOK_READING = McrOptions(knitted_straight_waits=False)
KNITTED_WAIT_LINES = {290, 305}


def _names(names) -> Counter:
    return Counter(fan(n).name_zh for n in names)


def _ours(result) -> Counter:
    return Counter({fc.fan.name_zh: fc.count for fc in result.fans})


def test_case_file_is_complete():
    assert len(CASES) == 129
    assert {c["line"] for c in CASES if not c["agrees"]} == KNITTED_WAIT_LINES


@pytest.mark.parametrize("case", CASES, ids=[f"line{c['line']}" for c in CASES])
def test_matches_pymahjonggb(case):
    hand, cond = parse_hand_string(case["hand_string"])
    result = score(hand, cond)
    ref = case["pymahjonggb_1_4_0"]
    assert _ours(result) == Counter({fan(k).name_zh: v for k, v in ref["fans"].items()})
    assert result.total == ref["total"]


@pytest.mark.parametrize("case", CASES, ids=[f"line{c['line']}" for c in CASES])
def test_matches_the_book(case):
    hand, cond = parse_hand_string(case["hand_string"])
    options = BOOK_READING if case["line"] in KNITTED_WAIT_LINES else McrOptions()
    result = score(hand, cond, options)
    expected = _names(case["expected_fans"])
    assert _ours(result) == expected
    assert result.total == sum(fan(n).points * k for n, k in expected.items())
    if case["alt_expected_fans"]:  # an accepted alternative reading of the same value
        alt = _names(case["alt_expected_fans"])
        assert sum(fan(n).points * k for n, k in alt.items()) == result.total


def test_both_readings_of_the_knitted_straight_wait():
    hand, cond = parse_hand_string("258m23469p14788s3p")
    default = score(hand, cond)
    book = score(hand, cond, BOOK_READING)
    assert default.counts_zh() == {"组合龙": 1, "门前清": 1, "平和": 1, "嵌张": 1}
    assert default.total == 17
    assert book.counts_zh() == {"组合龙": 1, "门前清": 1, "平和": 1}
    assert book.total == 16
    # a winning tile that is not part of the knitted straight keeps its 坎张 in both readings (line 291)
    hand, cond = parse_hand_string("258m13369p14788s2p")
    assert score(hand, cond, BOOK_READING).counts_zh()["嵌张"] == 1
