"""不搭 and 八对 predicates (hand-made cases), the shared interface, choosing the wildcard, Shandong."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from wildhelp import H, discard, self_draw

from majiang.errors import MajiangError, TileCountError
from majiang.hand import Hand
from majiang.rules import shandong
from majiang.rules.wenzhou import (
    ContextError,
    NotWinningError,
    OptionsError,
    Pattern,
    WildChoiceError,
    WildCountError,
    WinContext,
    choose_wild_face,
    natural_hand,
    next_face,
    shapes,
    w13,
)
from majiang.tiles import EAST, RED, WHITE, parse_compact, tile, to_counts


def C(text):
    return to_counts(parse_compact(text))


# ------------------------------------------------------------------------------------------ 不搭
@pytest.mark.parametrize("text,wilds,free,fill", [
    ("147m258p369s12345z", 0, True, True),
    ("147m258p369s1234z", 1, True, True),
    ("159m159p159s12345z", 0, True, True),
    ("37m37p37s1234567z", 1, True, False),  # no unconnected place left for the wildcard
    ("147m258p369s1234z", 1, True, True),
    ("147m258p369s11234z", 0, False, False),  # a pair
    ("147m258p368s12345z", 0, False, False),  # 6s and 8s are two apart
    ("12m", 12, False, False),  # 1m 2m connect
    ("1m", 13, True, True),  # room: 4m 7m, three per other suit, seven honours = 15
])
def test_buda_cases(text, wilds, free, fill):
    c = C(text)
    assert shapes.is_buda(c, wilds) is free
    assert shapes.is_buda(c, wilds, wild_mode="fill") is fill


def test_buda_needs_14_tiles_and_valid_mode():
    assert not shapes.is_buda(C("147m258p369s1234z"), 0)
    with pytest.raises(OptionsError):
        shapes.is_buda(C("147m258p369s12345z"), 0, wild_mode="any")
    with pytest.raises(TileCountError):
        shapes.is_buda([0] * 33, 0)


def test_buda_room():
    assert shapes.buda_room(C("147m")) == 6 + 7
    assert shapes.buda_room(C("37m37p37s")) == 7
    assert shapes.buda_room(C("13m")) == -1


# ------------------------------------------------------------------------------------------ 八对
@pytest.mark.parametrize("text,wilds,ok,need", [
    ("1133m5577p1199s11223z", 0, True, 0),
    ("1111m5577p1199s11223z", 0, True, 0),  # four of a kind = two pairs
    ("111m5577p1199s112233z", 0, True, 0),  # a triplet = a pair + the loose tile
    ("111m5577p1199s11223z", 1, True, 1),  # two loose tiles: a wildcard pairs one
    ("1133m5577p1199s1127z", 1, True, 1),
    ("1133m5577p1199s123z", 2, True, 2),
    ("135m5577p1199s11223z", 1, False, 3),
    ("1133m5577p1199s11223z", 1, False, 0),  # 18 tiles
])
def test_eight_pairs_cases(text, wilds, ok, need):
    c = C(text)
    assert shapes.eight_pairs_need(c) == need
    total = sum(c) + wilds
    assert shapes.is_eight_pairs(c, wilds) is (total == 17 and need <= wilds)


def test_natural_eight_pairs():
    c = C("1133m5577p1199s1127z")  # + one wildcard
    assert shapes.is_natural_eight_pairs(c, 1, tile("2z"))
    assert not shapes.is_natural_eight_pairs(c, 1, EAST)
    assert not shapes.is_natural_eight_pairs(c, 1, None)
    assert shapes.is_natural_eight_pairs(C("1133m5577p1199s11223z"), 0, None)


# ------------------------------------------------------------------------------- choosing the wild
def test_choose_wild_face_counts_from_the_tail():
    wall = parse_compact("1m2m3m4m5m6m7m8m")
    ch = choose_wild_face(wall, 3)
    assert (ch.face, ch.indicator, ch.index) == (tile("6m"), tile("6m"), 5)
    assert choose_wild_face(wall, 3, next_face_mode=True).face == tile("7m")
    assert choose_wild_face(wall, 1).face == tile("8m")


@pytest.mark.parametrize("t,n", [("9m", "1m"), ("5p", "6p"), ("9s", "1s"), ("4z", "1z"), ("1z", "2z"),
                                 ("5z", "6z"), ("6z", "7z"), ("7z", "5z")])
def test_next_face(t, n):
    assert next_face(tile(t)) == tile(n)


def test_choose_wild_face_errors():
    with pytest.raises(WildChoiceError):
        choose_wild_face(parse_compact("1m2m"), 3)
    with pytest.raises(WildChoiceError):
        choose_wild_face(parse_compact("1m2m1f"), 1)
    with pytest.raises(WildChoiceError):
        next_face(40)


# ------------------------------------------------------------------------------- natural_hand
def test_natural_hand_white_melds_and_wild_melds():
    h = natural_hand(Hand.parse("[peng 555z] 123m456p1m5s", win_tile="5z"), tile("1m"))
    assert h.melds[0].tile == tile("1m") and h.win_tile == tile("1m") and h.wilds == 2
    with pytest.raises(ContextError):
        natural_hand(Hand.parse("[peng 111m] 123m456p5s5z", win_tile="5z"), tile("1m"))
    h = natural_hand(Hand.parse("123m456p789s5z5z5z1z", win_tile="5z"), WHITE)  # White is the 百搭
    assert h.total_wilds == 4 and WHITE not in h.concealed
    with pytest.raises(ContextError):
        natural_hand(Hand.parse("123m"), 34)


# ------------------------------------------------------------------------------- WinContext
def test_win_context_from_engine_and_flags():
    eng = SimpleNamespace(seat=2, dealer=2, self_drawn=True, discarder=None, kong_replacement=False,
                          robbing_kong=False, last_tile=False, first_turn=True, wild_face=RED, dealer_streak=1)
    ctx = WinContext.from_engine(eng, chow_feeds=((1, 2),))
    assert ctx.heavenly and not ctx.earthly and ctx.wild_face == RED and ctx.chow_feeds == ((1, 2),)


@pytest.mark.parametrize("kw", [
    dict(seat=4), dict(dealer=-1), dict(self_drawn=False), dict(self_drawn=False, discarder=0),
    dict(self_drawn=True, robbing_kong=True), dict(self_drawn=False, discarder=2, kong_replacement=True),
    dict(wild_face=34), dict(dealer_streak=-1), dict(kongs=((1, "big"),)), dict(wild_counts=(1, 2)),
    dict(players=3), dict(bonus_tiles=-1),
])
def test_win_context_rejects(kw):
    with pytest.raises(ContextError):
        WinContext(**kw)


def test_errors_are_majiang_errors():
    for cls in (ContextError, NotWinningError, OptionsError, WildChoiceError, WildCountError):
        assert issubclass(cls, MajiangError)


def test_result_interface():
    r = w13.score(H("123m456p789s234s5z", "5z"), discard())
    assert isinstance(r.patterns[0], Pattern)
    pid, zh, en, value = r.patterns[0]
    assert (pid, zh, value) == ("wz13.pinghu", "平胡", 1) and en
    assert r.as_score_triples() == (("wz13.pinghu", 1, 1),)
    assert "平胡" in str(r)


# ------------------------------------------------------------------------------------ Shandong
def test_shandong_ruleset_description():
    rs = shandong.RULESET
    assert rs.total_tiles == 146 and rs.bonus_tiles == 10 and rs.hand_size == 13 and rs.provisional


@pytest.mark.parametrize("ctx,wid,points,deltas", [
    (discard(seat=1, by=2), "sd.dianpao", 1, [0, 1, -1, 0]),
    (self_draw(seat=1), "sd.tiliu", 2, [-2, 6, -2, -2]),
    (self_draw(seat=1, last_tile=True), "sd.haidilao", 2, [-2, 6, -2, -2]),
])
def test_shandong_win_types(ctx, wid, points, deltas):
    r = shandong.score(H("123m456p789s111z2z", "2z"), ctx)
    assert [p.id for p in r.patterns] == [wid] and r.points == points
    assert shandong.settle(r).deltas == deltas


def test_shandong_kong_replacement():
    r = shandong.score(H("[kong-concealed 1111s] 123m456p789s2z", "2z"), self_draw(kong_replacement=True))
    assert r.patterns[0].name_zh == "杠开" and r.points == 2
    with pytest.raises(ContextError):
        shandong.score(H("123m456p789s111z2z", "2z"), self_draw(kong_replacement=True))


def test_shandong_bad_input():
    with pytest.raises(NotWinningError):
        shandong.score(H("1133m5577p99s112z", "2z"), discard())  # no seven pairs in seed 001
    with pytest.raises(WildCountError):
        shandong.score(H("123m456p789s111z*", "2z"), discard())
    with pytest.raises(OptionsError):
        shandong.ShandongOptions(points=0)
    r = shandong.score(H("123m456p789s111z2z", "2z"), discard(), shandong.ShandongOptions(points=3))
    assert r.points == 3

