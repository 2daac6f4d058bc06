"""The engine bridge of the wildcard rule sets, against the engine's own context classes."""

from __future__ import annotations

import pytest
from wildhelp import H

from majiang.rules.wenzhou import OptionsError
from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter, context_from_engine, rules_module
from majiang.tiles import EAST

ruleset = pytest.importorskip("majiang.engine.ruleset")


def engine_ctx(hand, **kw):
    base = dict(hand=hand, seat=0, dealer=0, seat_wind=EAST, prevalent_wind=EAST, self_drawn=True)
    base.update(kw)
    return ruleset.WinContext(**base)


def test_w13_adapter_scores_and_settles_the_seed_example():
    ctx = engine_ctx(H("1133m5577p99s112z", "2z"), dealer_streak=1)
    ad = WildRulesAdapter("wz13")
    res = ad.score(ctx)
    assert (res.value, res.bonus, res.patterns) == (4, 0, (("wz13.qiduizi", 4, 1),))
    win = ruleset.WinSettle(0, None, res, ctx)
    assert ad.settle(win, 4) == [60, -20, -20, -20]


def test_w16_adapter_and_optional_facts():
    ctx = engine_ctx(H("123m456m789m123p4p77s*", "5p"), seat=1, self_drawn=False, discarder=2, wild_face=EAST)
    ad = WildRulesAdapter("wz16")
    assert ad.score(ctx).value == 1
    assert ad.settle(ruleset.WinSettle(1, 2, ad.score(ctx), ctx), 4) == [-2, 4, -1, -1]
    assert context_from_engine(ctx).wild_counts is None


def test_unknown_ruleset():
    with pytest.raises(OptionsError):
        WildRulesAdapter("hangzhou")
    assert rules_module("shandong").score


def test_register_with_engine_and_play_a_few_hands():
    from majiang.rules.wenzhou.engine_adapter import register_with_engine

    assert register_with_engine() == ("wz13", "wz16", "seed000", "shandong")
    rs = ruleset.RuleSet.preset("wenzhou13", scorer="wz13", settlement="wz13")
    assert isinstance(rs.scorer_object(), WildRulesAdapter)
    simulate = pytest.importorskip("majiang.players.simulate").simulate
    stats = simulate("wenzhou13,scorer=wz13,settlement=wz13", 1, 3, ["efficiency"], max_hands=4)
    assert stats["hands"] >= 1
    assert abs(sum(stats["average_score_by_player"])) < 1e-9
