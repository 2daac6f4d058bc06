"""The browser draws a meld's physical tiles: a White standing in for the wildcard's face in a chow
(RULES.md §2.1, §4.2) is shown as White, with the face it plays beside it."""

from majiang.hand import Meld, MeldKind
from majiang.tiles import WHITE, parse_compact
from majiang.web.state import meld_json


def test_a_white_in_a_chow_is_drawn_as_white():
    four, five, six = parse_compact("456m")
    m = Meld(MeldKind.CHOW, four, offer=1, claimed=five, stand_in=five)  # a discarded White as 5m
    j = meld_json(m)
    assert j["tiles"] == [four, WHITE, six]
    assert j["plays"] == [four, five, six]


def test_an_ordinary_meld_has_no_plays_field():
    j = meld_json(Meld(MeldKind.PUNG, parse_compact("7p")[0], offer=2, claimed=parse_compact("7p")[0]))
    assert j["tiles"] == parse_compact("777p") and "plays" not in j
