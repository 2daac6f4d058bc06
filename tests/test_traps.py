"""The known traps of shared/data/cases/traps.json that belong to the foundation (win detection,
wildcard accounting, waits, shanten, input validation). Each expectation below is the trap's own
``expected`` text, read into values. MCR fan traps are tested with the MCR scorer, claim traps with
the engine.
"""

import json

import pytest

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
from majiang.analysis import MCR_SHAPES, STANDARD, ShapeRules, decompositions, is_winning, shanten, waits
from majiang.errors import TileCountError
from majiang.hand import Hand
from majiang.tiles import parse_compact, to_counts

TRAPS = {t["id"]: t for t in json.loads((DATA / "traps.json").read_text(encoding="utf-8"))}
SEVEN = ShapeRules(seven_pairs=True)
SEVEN_NO_QUADS = ShapeRules(seven_pairs=True, quad_as_two_pairs=False)


def hand_of(trap_id):
    t = TRAPS[trap_id]
    wt = t["win_tile"]
    h = Hand.parse(" ".join(t["melds"]) + " " + t["hand"], win_tile=wt)
    if wt is None:
        return h, list(h.counts), h.wilds
    return h, h.full_counts(), h.total_wilds


# (id, rules, expected win)
WIN_CASES = [
    ("HU-01", MCR_SHAPES, False),
    ("HU-03", STANDARD, True),
    ("HU-05", STANDARD, True),
    ("HU-06", STANDARD, False),
    ("HU-08", SEVEN, True),
    ("HU-09", MCR_SHAPES, True),
    ("HU-12", MCR_SHAPES, False),
    ("HU-13", MCR_SHAPES, True),
    ("TW-01", STANDARD, True),
    ("WILD-R02", STANDARD, True),
    ("WILD-R04", STANDARD, False),
    ("WILD-R04", SEVEN, True),
    ("WILD-R07", STANDARD, True),
    ("WILD-C02", STANDARD, True),
    ("WILD-C04", STANDARD, False),
    ("WILD-C04", SEVEN, True),
    ("WILD-C07", STANDARD, True),
    ("WILD-C08", STANDARD, True),
    ("WILD-C11", SEVEN, True),
    ("WILD-C11", SEVEN_NO_QUADS, False),
    ("WILD-C11", STANDARD, False),
    ("WILD-C12", MCR_SHAPES, True),
]


@pytest.mark.parametrize("trap_id,rules,expected", WIN_CASES)
def test_win_traps(trap_id, rules, expected):
    _h, c, w = hand_of(trap_id)
    assert is_winning(c, w, rules) is expected


def test_hu09_riichi_reading_is_not_a_win():
    _h, c, w = hand_of("HU-09")
    assert not is_winning(c, w, STANDARD)
    assert not is_winning(c, w, SEVEN_NO_QUADS)


def test_wild_r02_wildcard_plays_3p():
    _h, c, w = hand_of("WILD-R02")
    assert any(d.wild_as == (11,) for d in decompositions(c, w))  # 3p


def test_wild_r07_drawn_wildcard_plays_3m_or_6m():
    _h, c, w = hand_of("WILD-R07")
    assert {d.wild_as for d in decompositions(c, w)} >= {(2,), (5,)}


def test_wild_c07_three_suits():
    _h, c, w = hand_of("WILD-C07")
    assert (1, 13, 25) in {d.wild_as for d in decompositions(c, w)}  # 2m 5p 8s


def test_wild_c08_negative_twin():
    c = to_counts(t for t in parse_compact("123m456m789m123s1p77s7z*", allow_wild=True) if t < 34)
    assert not is_winning(c, 1)


def test_wild_c12_second_hand():
    c = to_counts(t for t in parse_compact("19m19p19s123477z**", allow_wild=True) if t < 34)
    assert is_winning(c, 2, MCR_SHAPES)
    assert not is_winning(c, 2, STANDARD)


# (id, expected real waits in compact notation)
@pytest.mark.parametrize("trap_id,expected", [
    ("WAIT-02", "1m3z"),
    ("WAIT-03", ""),
    ("WAIT-05", "2m"),
    ("WAIT-06", "1m"),
    ("WAIT-08", "58p"),
    ("WAIT-09", "123456789m"),
])
def test_wait_traps(trap_id, expected):
    _h, c, w = hand_of(trap_id)
    assert waits(c, w, MCR_SHAPES).tiles == tuple(parse_compact(expected))


def test_wait03_second_hand_and_wait06_formal():
    c = to_counts(parse_compact("123456789m1111p"))
    assert waits(c, 0, MCR_SHAPES).tiles == ()
    _h, c, _w = hand_of("WAIT-06")
    assert waits(c, 0, MCR_SHAPES).formal == tuple(parse_compact("14m"))


def test_wait08_second_hand():
    c = to_counts(parse_compact("25558m369s46778p"))
    assert waits(c, 0, MCR_SHAPES).tiles == tuple(parse_compact("1p"))


@pytest.mark.parametrize("trap_id,expected", [("SHT-02", 1), ("SHT-03", 2)])
def test_shanten_traps(trap_id, expected):
    _h, c, w = hand_of(trap_id)
    assert shanten(c, w, STANDARD) == expected


def test_sht02_fourteen_tile_case():
    c = to_counts(parse_compact("11122233344445z"[:-2] + "3z"))  # EEE SSS WWW NNNN + W
    assert sum(c) == 14
    assert shanten(c, 0, STANDARD) == 1


def test_sht06_both_readings():
    h, c, w = hand_of("SHT-06")
    # concealed tiles only (Tenhou/Majsoul): ready, waiting on 2m
    assert shanten(c, w) == 0
    res = waits(c, w)
    assert res.formal == (1,)
    # strict reading: the four 2m are in the player's own kong, so no live wait is left
    visible = [0] * 34
    for m in h.melds:
        for t in m.tiles:
            visible[t] += 1
    strict = waits(c, w, visible=visible)
    assert strict.tiles == () and strict.exhausted == (1,)


def test_hu17_count_check():
    h, _c, _w = hand_of("HU-17")
    with pytest.raises(TileCountError):
        h.check(sets=4)
    h.check(sets=5)
