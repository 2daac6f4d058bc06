"""Tiles and notations: fixed values from the issue / seeds, round trips, errors naming the token."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from majiang import tiles as T
from majiang.errors import TileParseError

any_tiles = st.lists(st.integers(0, 41), max_size=30)
kinds = st.lists(st.integers(0, 33), max_size=30)


def test_fixed_values():
    assert T.parse_compact("1234567z") == [27, 28, 29, 30, 31, 32, 33]
    assert T.tile("5z") == T.WHITE and T.tile("6z") == T.GREEN and T.tile("7z") == T.RED
    assert T.parse_compact("1f8f") == [34, 41]
    assert T.parse_chinese("一万 五筒 九条 东 中 春 梅") == [0, 13, 26, 27, 33, 34, 38]
    assert T.parse_chinese("白板 發 紅中") == [31, 32, 33]
    assert T.parse_chinese("二萬三餅四索幺鸡") == [1, 11, 21, 18]
    assert T.format_unicode([27, 33, 0, 18, 9]) == "\U0001F000\U0001F004\U0001F007\U0001F010\U0001F019"
    assert T.parse_botzone("W1 B5 T9 F1 F4 J1 J2 J3 H1 H8") == [0, 13, 26, 27, 30, 33, 32, 31, 34, 41]
    assert T.to_seed_code(18) == 0x01 and T.to_seed_code(9) == 0x11 and T.to_seed_code(0) == 0x21
    assert [T.to_seed_code(t) for t in (27, 28, 29, 30, 33, 32, 31)] == [0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90]
    assert T.parse_seed("0x00 0x19 29") == [T.WILD, 17, 8]


@given(any_tiles)
def test_compact_round_trip(ts):
    assert T.parse_compact(T.format_compact(ts)) == ts


@given(any_tiles)
def test_chinese_round_trip(ts):
    assert T.parse_chinese(T.format_chinese(ts)) == ts
    assert T.parse_chinese(T.format_chinese(ts, sep="")) == ts


@given(any_tiles)
def test_unicode_round_trip(ts):
    assert T.parse_unicode(T.format_unicode(ts)) == ts


@given(any_tiles)
def test_botzone_round_trip(ts):
    assert T.parse_botzone(T.format_botzone(ts)) == ts


@given(kinds)
def test_seed_round_trip(ts):
    assert T.parse_seed(T.format_seed(ts)) == ts


@given(st.lists(st.sampled_from(list(range(34)) + [T.WILD]), max_size=20))
def test_wild_round_trips(ts):
    assert T.parse_compact(T.format_compact(ts), allow_wild=True) == ts
    assert T.parse_chinese(T.format_chinese(ts), allow_wild=True) == ts


@pytest.mark.parametrize("text,token,pos", [
    ("123m0p", "0p", 4), ("8z", "8z", 0), ("123", "123", 0), ("12x3m", "x", 2), ("m", "m", 0), ("9f", "9f", 0),
])
def test_compact_errors_name_token_and_position(text, token, pos):
    with pytest.raises(TileParseError) as e:
        T.parse_compact(text)
    assert e.value.token == token and e.value.position == pos
    assert isinstance(e.value, ValueError)


def test_other_errors():
    with pytest.raises(TileParseError) as e:
        T.parse_chinese("一万 十万")
    assert e.value.position == 3
    with pytest.raises(TileParseError) as e:
        T.parse_botzone("W1 X9")
    assert e.value.token == "X9" and e.value.position == 1
    with pytest.raises(TileParseError):
        T.parse_seed("0x0a")
    with pytest.raises(TileParseError):
        T.to_seed_code(34)
    with pytest.raises(TileParseError):
        T.parse_unicode("\U0001F000a")
    with pytest.raises(TileParseError):
        T.parse_compact("1m*")  # wildcards only where allowed
