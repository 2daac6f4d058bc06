"""Seed-000 百搭 profile (RULES.md §2, §9.1, §9.2): readings, named hands, 相公, settlement."""

from __future__ import annotations

import pytest
from wildhelp import H, discard, ids, self_draw

from majiang.errors import TileCountError
from majiang.hand import Hand
from majiang.rules import seed000
from majiang.rules.seed000 import Seed000Options, natural_hand, xianggong, xianggong_of
from majiang.rules.wenzhou import ContextError, NotWinningError, OptionsError, WildCountError
from majiang.seed import TestHu
from majiang.tiles import WILD, tile


def score(text, win, ctx=None, **opt):
    return seed000.score(H(text, win), ctx or self_draw(), Seed000Options(**opt) if opt else None)


@pytest.mark.parametrize("text,win,pid", [
    ("555z666z777z123m2p", "2p", "seed000.da_sanyuan"),
    ("555z666z7z123m222p", "7z", "seed000.xiao_sanyuan"),
    ("111z222z333z444z5p", "5p", "seed000.da_sixi"),
    ("111z222z333z4z123m", "4z", "seed000.xiao_sixi"),
    ("19m19p19s1234567z", "1m", "seed000.guoshi_wushuang"),
    ("1112345678999p", "5p", "seed000.jiulian_baodeng"),
    ("1133m5577p99s112z", "2z", "seed000.qiduizi"),
])
def test_named_hands_reported_without_values(text, win, pid):
    r = score(text, win)
    assert pid in ids(r)
    assert all(p.value is None for p in r.patterns)
    assert r.points == 1  # base point only


def test_seed_qinglaotou_via_seven_pairs_route():
    # natural tiles: 2s x4, 5s x4, 8s x4, 发 x2 as seven pairs (four of a kind = two pairs, §2.3)
    r = score("222255558888s6z", "6z")
    assert ids(r) == {"seed000.qiduizi", "seed_qinglaotou_258s_green"}
    names = {p.id: (p.name_zh, p.name_en) for p in r.patterns}
    assert names["seed_qinglaotou_258s_green"][0] == "清老头"


def test_seed_qinglaotou_with_wilds_standard():
    # 222s 555s 888s 666z + a pair of wildcards read as 2s/5s/8s/发
    r = score("222s555s88s666z**", "8s")
    assert r.shape == "standard" and "seed_qinglaotou_258s_green" in ids(r)


def test_seed_qinglaotou_impossible_without_wilds_standard():
    with pytest.raises(NotWinningError):
        score("222s555s888s6666z", "2s", seven_pairs=False)  # the pigeon-hole of §2.3


def test_seed_hunlaotou():
    r = score("222s555s111z777z3z", "3z")
    assert "seed_hunlaotou_258s_honours" in ids(r) and "seed_qinglaotou_258s_green" not in ids(r)


def test_japanese_terminals_hand_is_not_seed_qinglaotou():
    r = score("111m999m111p999p1s", "1s")
    assert not ids(r) & {"seed_qinglaotou_258s_green", "seed_hunlaotou_258s_honours"}


def test_structure_exempt_option():
    with pytest.raises(NotWinningError):
        score("222558s1234567z", "8s")
    r = score("222558s1234567z", "8s", structure_exempt=True)
    assert r.shape == "structure-exempt" and ids(r) == {"seed_hunlaotou_258s_honours"}


def test_thirteen_orphans_with_a_wild():
    r = score("19m19p19s123466z*", "7z")  # the 百搭 plays 5z
    assert "seed000.guoshi_wushuang" in ids(r)
    r = score("19m19p19s12347z**", "7z")  # trap WILD-C12 shape: ** = 5z, 6z
    assert "seed000.guoshi_wushuang" in ids(r)


def test_nine_gates_with_a_wild_and_concealed_only():
    assert "seed000.jiulian_baodeng" in ids(score("111234567899m*", "9m"))
    r = score("[peng 111m] 2345678999m", "5m")
    assert "seed000.jiulian_baodeng" not in ids(r)


def test_big_three_dragons_needs_wilds_for_white():
    # 白板 plays the 百搭's face, so a 白 pung can only be made of 百搭: three 百搭 also win outright
    phys = Hand.parse("666z777z123m22p9p9p", win_tile="9p")  # 百搭 = 9p
    h = natural_hand(phys, tile("9p"))
    assert h.total_wilds == 3
    r = seed000.score(h, self_draw(wild_face=tile("9p")))
    assert {"seed000.da_sanyuan", "seed000.baida_outright"} <= ids(r)


def test_three_or_four_wilds_win_outright():
    r = score("13m46p79s12345z**", "*")
    assert r.shape == "three-wilds" and ids(r) == {"seed000.baida_outright"}
    r = score("1m2p3s1234567z***", "*")  # the seed's 4-wild example shape
    assert ids(r) == {"seed000.baida_outright"}
    with pytest.raises(NotWinningError):
        score("13m46p79s12345z**", "*", outright_wilds=4)


def test_wild_returned_to_its_own_face_pairs_with_white():
    # seed example "0x00 0x11, baida 0x11": the 百搭 1p returns home and pairs with the 白板 (1p)
    assert TestHu(parse_seed_codes("00 11"), 2, 0x11)
    phys = Hand.parse("123m456m789m123s5z", win_tile="1p")
    h = natural_hand(phys, tile("1p"))
    assert h.win_tile == WILD
    r = seed000.score(h, self_draw(wild_face=tile("1p")))
    assert r.shape == "standard" and r.decomposition.wild_as == (tile("1p"),)


def parse_seed_codes(text):
    return [int(x, 16) for x in text.split()]


def test_value_table():
    r = score("555z666z777z123m2p", "2p", values={"seed000.da_sanyuan": 88})
    assert r.points == 89
    assert [p.value for p in r.patterns if p.id == "seed000.da_sanyuan"] == [88]
    with pytest.raises(OptionsError):
        Seed000Options(values={"yakuman": 13})


def test_sixteen_tile_hands():
    r = seed000.score(H("123m456m789m123p456p7s", "7s"), self_draw(), Seed000Options(sets=5))
    assert r.points == 1
    with pytest.raises(TileCountError):
        score("123m456m789m123p456p7s", "7s")


def test_settlement_provisional():
    r = score("123m456p789s234s5z", "5z", discard(seat=1, by=3))
    assert seed000.settle(r).deltas == [0, 1, 0, -1]
    r = score("123m456p789s234s5z", "5z", self_draw(seat=2))
    assert seed000.settle(r).deltas == [-1, -1, 3, -1]


def test_wild_count_limit_and_bad_input():
    with pytest.raises(WildCountError):
        score("1m2p3s123456z****", "*")
    with pytest.raises(ContextError):
        seed000.score(Hand.parse("123m456p789s234s5z"), self_draw())
    with pytest.raises(OptionsError):
        Seed000Options(sets=6)


# ------------------------------------------------------------------------------------------- 相公
def test_xianggong_states():
    ok = xianggong(13, 0)
    assert (ok.state, ok.may_win, ok.kongs_count) == ("ok", True, True)
    short = xianggong(9, 1)  # declared a kong, discarded without a replacement: one short
    assert (short.state, short.may_win, short.may_kong, short.kongs_count, short.name_zh) == \
        ("short", False, True, True, "小相公")
    long_ = xianggong(15, 0, in_turn=True)
    assert (long_.state, long_.may_win, long_.kongs_count, long_.name_zh) == ("long", False, False, "大相公")
    assert xianggong(16, 0, sets=5).state == "ok"
    with pytest.raises(TileCountError):
        xianggong(11, 0)
    with pytest.raises(OptionsError):
        xianggong(13, 0, sets=3)


def test_xianggong_of_hand():
    assert xianggong_of(Hand.parse("123m456p789s234s5z")).state == "ok"
    assert xianggong_of(Hand.parse("123m456p789s234s"), in_turn=False).state == "short"
    assert xianggong_of(Hand.parse("123m456p789s234s5z", win_tile="5z")).state == "ok"
