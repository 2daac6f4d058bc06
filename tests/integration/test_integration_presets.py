"""Every command-line preset plays seeded bot games to the end with its real scorer and settlement.

Presets (RULES.md §2-§6, §9): ``mcr``, ``taiwan``, ``wenzhou`` (W13, seed 003; alias ``wenzhou13``),
``wenzhou-w16``, ``seed000``, ``shandong``. For each: 32 seeded matches of two hands (efficiency and
random bots mixed, so hands are won as well as drawn) and one complete match; every hand ends, every
win is zero-sum and scored by the rule set's own scorer, the match scores are zero-sum, the tiles are
all accounted for.
"""

from __future__ import annotations

import pytest

from majiang.analysis import is_winning
from majiang.engine import HandTable, Match, RuleSet, RuleSetError, run_match
from majiang.engine.actions import Action, ActionKind, Phase
from majiang.engine.ruleset import PRESET_ALIASES, PRESET_NAMES, resolve
from majiang.engine.wall import arrange_wall
from majiang.players import EfficiencyBot, RandomBot
from majiang.tiles import parse_compact

CLI_NAMES = ("mcr", "taiwan", "wenzhou", "wenzhou-w16", "seed000", "shandong")

# preset -> (tiles in the set, hand size, wild mode, scorer, settlement, shapes)
EXPECTED = {
    "mcr": (144, 13, "none", "mcr", "competition", "mcr"),
    "taiwan": (144, 16, "none", "taiwan", "taiwan", "standard"),
    "wenzhou": (136, 13, "indicator", "wz13", "wz13", "wenzhou13"),
    "wenzhou-w16": (136, 16, "indicator", "wz16", "wz16", "wenzhou16"),
    "seed000": (136, 13, "indicator", "seed000", "seed000", "seed000"),
    "shandong": (144, 13, "none", "shandong", "shandong", "standard"),
}

# pattern ids each scorer reports (their prefixes), to see the real scorer ran
PATTERN_PREFIX = {"mcr": "", "taiwan": "tw.", "wenzhou": "wz13.", "wenzhou-w16": "wz16.", "seed000": "seed",
                  "shandong": "sd."}


def tiles(text: str) -> list[int]:
    return parse_compact(text)


def test_the_six_names_and_the_alias():
    assert set(CLI_NAMES) == set(PRESET_NAMES)
    assert PRESET_ALIASES == {"wenzhou13": "wenzhou"}
    w13 = RuleSet.preset("wenzhou13")
    assert w13.with_options(name="wenzhou") == RuleSet.preset("wenzhou")


@pytest.mark.parametrize("name", CLI_NAMES)
def test_preset_table_flow(name):
    rs = RuleSet.preset(name)
    n, size, wild, scorer, settlement, shapes = EXPECTED[name]
    assert (len(rs.tile_set), rs.hand_size, rs.wild_mode, rs.scorer, rs.settlement, rs.shapes) == \
        (n, size, wild, scorer, settlement, shapes)
    assert rs.scorer_object().name and rs.settlement_object().name
    if wild == "indicator":  # 财神/百搭: White stands in, never discarded or claimed (RULES.md §4.2)
        assert rs.white_stand_in and not rs.wild_discardable and not rs.wild_claimable
        assert not rs.flowers


def test_preset_details():
    tw = RuleSet.preset("taiwan")
    assert tw.reserve == 16 and tw.dealer_keeps_on_win and tw.dealer_keeps_on_draw and tw.added_kong_drawn_only
    wz = RuleSet.preset("wenzhou")
    assert wz.dealer_keeps_on_win and not wz.dealer_keeps_on_draw
    sr = wz.shape_rules
    assert sr.seven_pairs and sr.unconnected and sr.wilds_win == 3 and not sr.thirteen_orphans
    w16 = RuleSet.preset("wenzhou-w16")
    assert w16.sets == 5 and w16.max_dealer_streak == 3
    assert w16.shape_rules.eight_pairs and w16.shape_rules.wilds_win == 3 and not w16.shape_rules.seven_pairs
    s0 = RuleSet.preset("seed000").shape_rules
    assert s0.seven_pairs and s0.thirteen_orphans and s0.wilds_win == 3
    assert RuleSet.preset("mcr").min_score == 8 and RuleSet.preset("mcr", scorer="fixed").scorer == "fixed"


def test_unknown_rule_set_is_a_clear_error():
    with pytest.raises(RuleSetError, match=r"unknown rule set 'riichi'.*wenzhou-w16.*wenzhou13"):
        resolve("riichi")


def _check_match(m: Match, rules: RuleSet, prefix: str) -> tuple[int, int, int]:
    wins = patterns = 0
    assert sum(m.scores) == 0
    for r in m.results:
        assert sum(r.deltas) == 0
        for w in r.wins:
            wins += 1
            assert sum(w.deltas) == 0 and any(w.deltas)
            assert w.result.value >= rules.min_score and w.result.value >= 0
            # a plain win may carry no pattern (seed 000: base point only; Taiwan: 0 台, base only)
            assert all(p[0].startswith(prefix) for p in w.result.patterns)
            patterns += len(w.result.patterns)
    return len(m.results), wins, patterns


@pytest.mark.parametrize("name", CLI_NAMES)
def test_seeded_bot_games_are_zero_sum(name):
    rules = RuleSet.preset(name)
    hands = wins = patterns = 0
    for seed in range(32):
        m = Match(rules, seed=seed, max_hands=2)
        players = [EfficiencyBot(rules) if p % 2 == 0 else RandomBot(seed * 4 + p) for p in range(4)]
        run_match(m, players)
        h, w, p = _check_match(m, rules, PATTERN_PREFIX[name])
        hands += h
        wins += w
        patterns += p
    assert hands == 64
    assert wins >= 10 and patterns >= 1  # the real scorers accept the bots' wins and name patterns


@pytest.mark.parametrize("name", CLI_NAMES)
def test_a_complete_match(name):
    rules = RuleSet.preset(name)
    m = Match(rules, seed=7)
    run_match(m, [EfficiencyBot(rules), RandomBot(1), EfficiencyBot(rules), RandomBot(3)])
    assert m.events[-1]["type"] == "end_game"
    _check_match(m, rules, PATTERN_PREFIX[name])


def _w13_table():
    """Seed-003 W13: 财神 5m (indicator 5m, second from the tail, dice 1+1). Seat 1 holds the three
    live 财神 and no shape; the dealer discards 8s, then seat 1 draws 3s."""
    rules = RuleSet.preset("wenzhou", seat_draw=False)
    hands = [tiles("123m678m234p67p99m8s"), tiles("555m1234z67z12p19s"), tiles("234567s345p5678p"),
             tiles("11223344m6677m9p")]
    wall = arrange_wall(rules, hands, draws=tiles("3s"), tail=tiles("1s5m"))
    t = HandTable(rules, wall, dice=(1, 1))
    assert t.wild_face == tiles("5m")[0]
    return t


def test_w13_caishenhui_is_a_self_draw_only():
    """RULES.md §4.3, §9.4: 财神会 = self-draw while holding three 财神. The shapes let three wilds
    win outright; the W13 scorer refuses it on a discard, so the table offers no discard win."""
    t = _w13_table()
    eight_s = tiles("8s")[0]
    counts, wilds = t._win_counts(1, eight_s)
    assert wilds == 3 and is_winning(counts, wilds, t.shape_rules)  # the shape check alone says yes
    t.apply(0, Action(ActionKind.DISCARD, eight_s))
    if t.phase is Phase.CLAIM:
        assert all(a.kind is not ActionKind.WIN for a in t.legal_actions(1))
        for s in t.pending_seats():
            t.apply(s, next(a for a in t.legal_actions(s) if a.kind is ActionKind.PASS))
    assert t.phase is Phase.TURN and t.current == 1
    win = Action(ActionKind.WIN, tiles("3s")[0])
    assert win in t.legal_actions(1)
    t.apply(1, win)
    w = t.result.wins[0]
    assert "wz13.caishenhui" in [p[0] for p in w.result.patterns]
    assert sum(w.deltas) == 0


def test_engine_settlement_matches_the_seed_003_example():
    """Seed 003: a non-dealer's 清一色 (×4) on a non-dealer's discard, dealer in his first hand:
    dealer 12, discarder 4 + 1 (犯枪), the other 4 (RULES.md §4.6)."""
    from majiang.engine import WinContext, WinSettle
    from majiang.hand import Hand

    rules = RuleSet.preset("wenzhou")
    hand = Hand.parse("1112345678889m", win_tile="9m")
    ctx = WinContext(hand, seat=1, dealer=0, seat_wind=28, prevalent_wind=27, self_drawn=False, discarder=3,
                     wild_face=tiles("5z")[0])
    res = rules.scorer_object().score(ctx)
    assert res.value == 4
    assert rules.settlement_object().settle(WinSettle(1, 3, res, ctx), 4) == [-12, 21, -4, -5]


def test_taiwan_engine_settlement_matches_rules_example():
    """RULES.md §3.3: non-dealer B self-draws 門清 + 自摸 + 不求 + 正花 = 4 台; dealer A on 連1."""
    from majiang.engine import WinContext, WinSettle
    from majiang.hand import Hand

    rules = RuleSet.preset("taiwan")
    hand = Hand.parse("123m456m789m567s99s34p", win_tile="5p", flowers="2f")
    ctx = WinContext(hand, seat=1, dealer=0, seat_wind=28, prevalent_wind=27, self_drawn=True, dealer_streak=1)
    res = rules.scorer_object().score(ctx)
    assert res.value == 4
    assert rules.settlement_object().settle(WinSettle(1, None, res, ctx), 4) == [-100, 240, -70, -70]


def test_white_pung_plays_the_wild_face():
    """RULES.md §4.2: 白板 plays as the 财神's face, also in a claimed pung (the table keeps the
    physical face; the adapter reads it as the face): 白板 pung + 1112345678m + 9m is 清一色."""
    from majiang.engine import WinContext
    from majiang.hand import Hand

    rules = RuleSet.preset("wenzhou")
    hand = Hand.parse("[peng 555z] 1112345678m", win_tile="9m")
    ctx = WinContext(hand, seat=0, dealer=0, seat_wind=27, prevalent_wind=27, self_drawn=True,
                     wild_face=tiles("4m")[0])
    res = rules.scorer_object().score(ctx)
    assert res.value == 8 and res.patterns == (("wz13.qingyise", 8, 1),)
