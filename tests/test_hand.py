"""Hands and their count checks (trap HU-16, HU-17; seed 000 相公)."""

import pytest

from majiang.analysis import MCR_SHAPES, is_winning
from majiang.errors import MeldError, TileCountError, TileParseError
from majiang.hand import Hand, MeldKind, parse_meld


def test_hu16_flat_list_is_wrong_count():
    h = Hand.parse("[kong-concealed 1111s] 2223334445s", win_tile="5s")
    h.check(sets=4)
    assert is_winning(h.full_counts(), 0, MCR_SHAPES)
    flat = Hand.parse("1111222333444s5s", win_tile="5s")
    with pytest.raises(TileCountError) as e:
        flat.check(sets=4)
    assert e.value.kind == "long"  # 15 loose tiles: one too many (大相公)


def test_hu17_long_and_short_hands():
    h = Hand.parse("[kong-exposed 5555p] [peng 555z] 123m456s789s1z", win_tile="1z")
    with pytest.raises(TileCountError) as e:
        h.check(sets=4)
    assert e.value.kind == "size"  # 17 effective tiles in a 13-tile game
    h.check(sets=5)  # legal in Taiwan 16-tile
    ok = Hand.parse("[kong-exposed 5555p] 123m456s789s1z", win_tile="1z")
    ok.check(sets=4)
    short = Hand.parse("[kong-exposed 5555p] 123m456s789s", win_tile="1z")
    with pytest.raises(TileCountError) as e:
        short.check(sets=4)
    assert e.value.kind == "short" and "小相公" in str(e.value)
    long = Hand.parse("[kong-exposed 5555p] 123m456s789s1z1z", win_tile="1z")
    with pytest.raises(TileCountError) as e:
        long.check(sets=4)
    assert e.value.kind == "long" and "大相公" in str(e.value)


def test_fifth_copy_named():
    h = Hand.parse("[peng 111m] 11m23456789p", win_tile="9p")
    with pytest.raises(TileCountError) as e:
        h.check()
    assert e.value.kind == "fifth-copy" and e.value.tile == 0 and e.value.count == 5


def test_meld_errors():
    with pytest.raises(MeldError):
        parse_meld("[chi 124m]")
    with pytest.raises(MeldError):
        parse_meld("[chi 123z]")
    with pytest.raises(MeldError):
        parse_meld("[peng 556p]")
    with pytest.raises(TileParseError):
        parse_meld("[zap 555p]")
    m = parse_meld("[kong-added 3333p]")
    assert m.kind is MeldKind.ADDED_KONG and m.tiles == (11, 11, 11, 11) and not m.is_concealed
    assert parse_meld("[kong-concealed 7777s]").is_concealed
