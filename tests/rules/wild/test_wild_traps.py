"""The WILD-* traps of ``shared/data/cases/traps.json`` as they bear on the wildcard rule sets."""

from __future__ import annotations

import pytest
from wildhelp import H, ids, self_draw

from majiang.hand import Hand
from majiang.rules import seed000
from majiang.rules.wenzhou import ContextError, NotWinningError, W13Options, natural_hand, w13, w16
from majiang.tiles import EAST, tile


def test_wild_r07_a_drawn_wildcard_completes_the_hand():
    r = w13.score(H("123m456p789s45m11z", "*"), self_draw())
    assert r.multiplier == 2 and r.decomposition.wild_as in ((tile("3m"),), (tile("6m"),))


def test_wild_c02_two_wildcards_are_the_pair():
    r = w13.score(H("123m456p789s123s*", "*"), self_draw())
    assert ids(r) == {"wz13.zimo"}


def test_wild_c04_seven_pairs_only_with_seven_pairs_on():
    r = w13.score(H("1133m5577p99s12z*", "*"), self_draw())
    assert r.shape == "seven-pairs" and "wz13.qiduizi" in ids(r)
    with pytest.raises(NotWinningError):
        w13.score(H("1133m5577p99s12z*", "*"), self_draw(), W13Options(seven_pairs=False))


def test_wild_c11_quad_as_two_pairs_is_an_option():
    h = H("1111m22p33p44s55s6z", "*")
    assert "wz13.qiduizi" in ids(w13.score(h, self_draw()))
    with pytest.raises(NotWinningError):
        w13.score(h, self_draw(), W13Options(quad_as_two_pairs=False))


def test_wild_c12_thirteen_orphans_with_wilds_in_seed000():
    assert "seed000.guoshi_wushuang" in ids(seed000.score(H("19m19p19s1234766z", "*"), self_draw()))


def test_wild_c08_sixteen_tile_hand_with_a_wildcard():
    r = w16.score(H("123m456m789m123p45p77s", "*"), self_draw(wild_face=EAST))
    assert r.shape == "standard" and r.multiplier == 2
    with pytest.raises(NotWinningError):
        w16.score(H("123m456m789m123s1p77s7z", "*"), self_draw(wild_face=EAST))


def test_wild_r08_a_wildcard_is_never_in_a_call():
    with pytest.raises(ContextError):
        natural_hand(Hand.parse("[chi 456m] 123p789s11z55z", win_tile="1z"), tile("5m"))
