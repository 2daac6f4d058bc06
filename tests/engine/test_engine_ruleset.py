"""The rule-set object: presets, options, validation, scorer and settlement plug-ins."""

from __future__ import annotations

import pytest

from majiang.engine import (CompetitionSettlement, FixedScorer, HandTable, RuleSet, RuleSetError, ScoreResult,
                            WinContext, WinSettle, register_scorer)
from majiang.engine.wall import arrange_wall, break_wall, derive_seed
from majiang.hand import Hand
from majiang.tiles import parse_compact


def test_presets():
    mcr = RuleSet.preset("mcr")
    assert len(mcr.tile_set) == 144 and mcr.hand_size == 13 and mcr.min_score == 8 and mcr.reserve == 0
    assert mcr.shape_rules.seven_pairs and mcr.shape_rules.knitted_straight
    assert not mcr.dealer_keeps_on_win and not mcr.dealer_keeps_on_draw and mcr.rounds == 4
    tw = RuleSet.preset("taiwan")
    assert len(tw.tile_set) == 144 and tw.hand_size == 16 and tw.sets == 5 and tw.reserve == 16
    assert tw.dealer_keeps_on_draw and tw.dealer_keeps_on_win
    wz = RuleSet.preset("wenzhou13")
    assert len(wz.tile_set) == 136 and wz.wild_mode == "indicator" and not wz.wild_discardable
    assert wz.dealer_keeps_on_win and not wz.dealer_keeps_on_draw


@pytest.mark.parametrize("opts, msg", [
    ({"no_such": 1}, "unknown rule option"),
    ({"hand_size": 14}, "hand_size"),
    ({"multiple_winners": "first"}, "multiple_winners"),
    ({"wild_mode": "fixed"}, "wild_tile"),
    ({"shapes": "weird"}, "shapes"),
    ({"scorer": "nope"}, "unknown scorer"),
    ({"settlement": "nope"}, "unknown settlement"),
    ({"reserve": -1}, "reserve"),
    ({"rounds": 0}, "rounds"),
])
def test_bad_options_raise(opts, msg):
    with pytest.raises(RuleSetError, match=msg):
        RuleSet.preset("mcr").with_options(**opts)


def test_unknown_preset():
    with pytest.raises(RuleSetError, match="unknown rule set"):
        RuleSet.preset("riichi")


def test_options_round_trip():
    rs = RuleSet.preset("wenzhou13", reserve=4, multiple_winners="all")
    assert RuleSet.from_options(rs.to_options()) == rs
    with pytest.raises(RuleSetError):
        RuleSet.from_options({**rs.to_options(), "extra": 1})


def test_competition_settlement():
    ctx = WinContext(Hand(tuple(parse_compact("123m456m789m1p2p3p5p")), win_tile=parse_compact("5p")[0]),
                     seat=1, dealer=0, seat_wind=28, prevalent_wind=27, self_drawn=False, discarder=2)
    res = ScoreResult(9)
    assert CompetitionSettlement().settle(WinSettle(1, 2, res, ctx), 4) == [-8, 33, -17, -8]
    assert CompetitionSettlement().settle(WinSettle(1, None, res, ctx), 4) == [-17, 51, -17, -17]
    assert FixedScorer().score(ctx) == ScoreResult(8, 0, (("fixed", 8, 1),))


def test_custom_scorer_and_minimum():
    class Stingy:
        name = "stingy"

        def score(self, ctx):  # 7 + 2 flowers: flowers do not count toward the minimum (trap FLOW-06)
            return ScoreResult(7, 2)

    register_scorer("stingy", Stingy)
    rules = RuleSet.preset("mcr", flowers=False, scorer="stingy")
    wall = arrange_wall(rules, [parse_compact("1111s123m456m789m5p"), [], [], []], tail=parse_compact("5p"))
    t = HandTable(rules, wall)
    from majiang.engine import Action, ActionKind

    t.apply(0, Action(ActionKind.CONCEALED_KONG, parse_compact("1s")[0]))
    assert all(a.kind is not ActionKind.WIN for a in t.legal_actions(0))
    t2 = HandTable(rules.with_options(min_score=7), wall)
    t2.apply(0, Action(ActionKind.CONCEALED_KONG, parse_compact("1s")[0]))
    assert any(a.kind is ActionKind.WIN for a in t2.legal_actions(0))


def test_seeds_and_wall_break_are_deterministic():
    assert derive_seed(1, "hand", 0) == derive_seed(1, "hand", 0) != derive_seed(1, "hand", 1)
    ring = list(range(136))
    w = break_wall(ring, dealer=0, dice_total=7)
    assert sorted(w) == ring and w != ring
    with pytest.raises(ValueError):
        break_wall(list(range(10)), 0, 7)


def test_bad_wall_refused():
    rules = RuleSet.preset("mcr", flowers=False)
    with pytest.raises(ValueError, match="wall"):
        HandTable(rules, list(range(34)) * 4 + [0])
