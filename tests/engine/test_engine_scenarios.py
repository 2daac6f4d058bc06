"""Scenario tests on fixed walls: kongs, robbing, flowers, several claimants, the wall's end, dealers."""

from __future__ import annotations

import pytest
from engine_helpers import (claim, discard, pass_windows, snapshot, tile, tiles, tsumogiri, tsumogiri_until_end,
                            turn)

from majiang.engine import PASS, Action, ActionKind, HandTable, IllegalActionError, Match, Phase, RuleSet
from majiang.engine.wall import arrange_wall
from majiang.hand import MeldKind

MCR136 = RuleSet.preset("mcr", flowers=False, seat_draw=False, scorer="fixed")  # made-up hands: flow, not fans


def win(t: str) -> Action:
    return Action(ActionKind.WIN, tile(t))


# ------------------------------------------------------------------------------ kongs
def test_kong_replacement_win_concealed_kong():
    wall = arrange_wall(MCR136, [tiles("1111s123m456m789m5p"), [], [], []], tail=tiles("5p"))
    t = HandTable(MCR136, wall)
    assert Action(ActionKind.CONCEALED_KONG, tile("1s")) in t.legal_actions(0)
    assert Action(ActionKind.WIN, tile("5p")) not in t.legal_actions(0)
    t.apply(0, Action(ActionKind.CONCEALED_KONG, tile("1s")))
    assert t.phase is Phase.TURN and t.current == 0 and t.last_draw[0] == tile("5p")
    assert win("5p") in t.legal_actions(0)
    t.apply(0, win("5p"))
    res = t.result
    assert res is not None and len(res.wins) == 1
    w = res.wins[0]
    assert w.ctx.self_drawn and w.ctx.kong_replacement and not w.ctx.flower_replacement
    assert w.ctx.hand.melds[0].kind is MeldKind.CONCEALED_KONG
    assert res.deltas == [48, -16, -16, -16]  # self-drawn: each pays 8 + 8 (RULES.md §9.6)
    assert [e["type"] for e in t.events][-3:] == ["ankan", "tsumo", "hora"]
    assert t.events[-2].get("replacement") is True


def test_exposed_kong_then_replacement():
    # dealer discards 7z; seat 2 holds three and kongs it, then draws from the tail
    wall = arrange_wall(MCR136, [tiles("123m456m789m1p2p3p4p7z"), [], tiles("777z"), []], tail=tiles("9s"))
    t = HandTable(MCR136, wall)
    t.apply(0, discard("7z"))
    assert t.phase is Phase.CLAIM
    acts = t.legal_actions(2)
    assert Action(ActionKind.EXPOSED_KONG, tile("7z")) in acts and Action(ActionKind.PUNG, tile("7z")) in acts
    claim(t, 2, Action(ActionKind.EXPOSED_KONG, tile("7z")))
    assert t.current == 2 and t.last_draw[2] == tile("9s")
    assert t.melds[2][0].kind is MeldKind.EXPOSED_KONG and t.melds[2][0].offer == 2  # from the opposite seat
    assert t.rivers[0] == []  # the claimed discard left the river
    assert sorted(t.tile_census()) == list(MCR136.tile_set)


def _robbing_wall(rules: RuleSet) -> list[int]:
    # seat 1 pungs the dealer's 5p, later draws the 4th 5p; seat 2 waits on 5p (4p6p)
    return arrange_wall(rules, [tiles("5p1z2z3z4z1s9s9m1m7z7z6z6z5z"), tiles("55p"), tiles("123m456m789m46p99s"), []],
                        draws=[None, None, None, tile("5p")])


@pytest.mark.parametrize("rob", [True, False])
def test_robbing_the_kong(rob):
    rules = MCR136.with_options(rob_kong=rob)
    t = HandTable(rules, _robbing_wall(rules))
    t.apply(0, discard("5p"))
    assert win("5p") in t.legal_actions(2)  # seat 2 could win, passes
    claim(t, 1, Action(ActionKind.PUNG, tile("5p")))
    assert t.legal_actions(1) and all(a.kind is ActionKind.DISCARD for a in t.legal_actions(1))
    turn(t, 1, Action(ActionKind.DISCARD, tile("1z") if t.concealed[1][tile("1z")] else t.hand_tiles(1)[0]))
    for s in (2, 3, 0):
        tsumogiri(t, s)
    pass_windows(t)
    assert t.current == 1 and t.last_draw[1] == tile("5p")
    t.apply(1, Action(ActionKind.ADDED_KONG, tile("5p")))
    if not rob:
        assert t.phase is Phase.TURN and t.current == 1  # no robbing window
        return
    assert t.phase is Phase.ROB and t.pending_seats() == [2]
    assert t.legal_actions(2) == [win("5p"), PASS]
    t.apply(2, win("5p"))
    res = t.result
    assert res is not None
    w = res.wins[0]
    assert w.winner == 2 and w.discarder == 1 and w.ctx.robbing_kong and not w.ctx.self_drawn
    assert t.melds[1][0].kind is MeldKind.PUNG  # the robbed kong stays a pung (trap FLAG-03)
    assert res.deltas == [-8, -16, 32, -8]
    assert sorted(t.tile_census()) == list(rules.tile_set)


def test_robbing_window_pass_completes_kong():
    t = HandTable(MCR136, _robbing_wall(MCR136))
    t.apply(0, discard("5p"))
    claim(t, 1, Action(ActionKind.PUNG, tile("5p")))
    turn(t, 1, Action(ActionKind.DISCARD, t.hand_tiles(1)[0]))
    for s in (2, 3, 0):
        tsumogiri(t, s)
    pass_windows(t)
    t.apply(1, Action(ActionKind.ADDED_KONG, tile("5p")))
    t.apply(2, PASS)
    assert t.phase is Phase.TURN and t.current == 1
    assert t.melds[1][0].kind is MeldKind.ADDED_KONG
    assert t.events[-1]["type"] == "tsumo" and t.events[-1]["replacement"] is True


def test_no_claim_on_a_concealed_kong():
    # seat 1 could win on 1s, but a concealed kong is not claimable (trap FLOW-03 / FLAG-03)
    wall = arrange_wall(MCR136, [tiles("1111s123m456m789m5p"), tiles("23s456m789m123p99p"), [], []])
    t = HandTable(MCR136, wall)
    t.apply(0, Action(ActionKind.CONCEALED_KONG, tile("1s")))
    assert t.phase is Phase.TURN and t.current == 0


# ------------------------------------------------------------------------------ flowers
def test_flower_replacement_chains_at_deal_and_in_play():
    rules = RuleSet.preset("mcr", seat_draw=False)
    # dealer dealt two flowers; his first replacement is a flower again; seat 1's first draw is a flower
    dealer = tiles("1f2f") + tiles("123m456m789m1p2p3p")
    wall = arrange_wall(rules, [dealer, [], [], []], draws=[tile("4f")], tail=tiles("3f5z6z5s"))
    t = HandTable(rules, wall)
    assert t.flowers[0] == tiles("1f2f3f")
    assert sum(t.concealed[0]) == 14
    types = [(e["type"], e.get("pai")) for e in t.events[1:]]
    assert types[:5] == [("flower", "1f"), ("flower", "2f"), ("tsumo", "3f"), ("tsumo", "5z"), ("flower", "3f")]
    assert types[5] == ("tsumo", "6z")
    t.apply(0, discard("6z"))
    pass_windows(t)
    assert t.flowers[1] == [tile("4f")] and t.last_draw[1] == tile("5s")
    assert t.flower_chain
    assert sorted(t.tile_census()) == list(rules.tile_set)


def test_flower_replacement_win_is_not_kong_replacement():
    rules = RuleSet.preset("mcr", seat_draw=False)
    # seat 1 waits on 5p; draws a flower, its replacement is 5p (trap FLAG-02)
    wall = arrange_wall(rules, [tiles("123s456s789s1z2z3z4z7z"), tiles("123m456m789m46p99s"), [], []],
                        draws=[tile("8f")], tail=tiles("5p"))
    t = HandTable(rules, wall)
    t.apply(0, discard("7z"))
    pass_windows(t)
    assert t.current == 1 and win("5p") in t.legal_actions(1)
    t.apply(1, win("5p"))
    ctx = t.result.wins[0].ctx
    assert ctx.self_drawn and ctx.flower_replacement and not ctx.kong_replacement
    assert t.result.wins[0].result.bonus == 1  # one flower, 1 fan after the minimum


# ------------------------------------------------------------------------------ several claimants
def _three_waits_wall(rules: RuleSet, dealer_extra: str = "5p") -> list[int]:
    return arrange_wall(rules, [tiles("1z1z1z2z2z2z3z3z3z4z4z4z7z" + dealer_extra),
                                tiles("123m456m789m46p99s"),   # waits 5p (closed)
                                tiles("123s456s789s34p66z"),   # waits 2p 5p
                                tiles("234m567s888p67p55z")])  # waits 5p 8p


def test_three_players_win_on_one_discard_head_bump():
    t = HandTable(MCR136, _three_waits_wall(MCR136))
    t.apply(0, discard("5p"))
    assert t.pending_seats() == [1, 2, 3]
    for s in (3, 2, 1):  # answer order does not matter
        assert win("5p") in t.legal_actions(s)
        t.apply(s, win("5p"))
    res = t.result
    assert [w.winner for w in res.wins] == [1]  # the first in turn order from the discarder
    assert res.deltas == [-16, 32, -8, -8]


def test_three_players_win_on_one_discard_all_win():
    rules = MCR136.with_options(multiple_winners="all")
    t = HandTable(rules, _three_waits_wall(rules))
    t.apply(0, discard("5p"))
    for s in (1, 2, 3):
        t.apply(s, win("5p"))
    res = t.result
    assert [w.winner for w in res.wins] == [1, 2, 3]
    assert sum(res.deltas) == 0 and res.deltas[0] == -48 and res.deltas[1:] == [32 - 16, 32 - 16, 32 - 16]
    assert [e["type"] for e in t.events].count("hora") == 3


def test_win_beats_pung_beats_chow():
    # dealer discards 5p: seat 1 may chow (46p), seat 2 may pung (55p), seat 3 may win
    wall = arrange_wall(MCR136, [tiles("1z1z1z2z2z2z3z3z3z4z4z4z7z5p"), tiles("46p"), tiles("55p"),
                                 tiles("234m567s888p67p55z")])
    t = HandTable(MCR136, wall)
    t.apply(0, discard("5p"))
    assert t.pending_seats() == [1, 2, 3]
    assert Action(ActionKind.CHOW, tile("5p"), tile("4p")) in t.legal_actions(1)
    assert Action(ActionKind.PUNG, tile("5p")) in t.legal_actions(2)
    assert win("5p") in t.legal_actions(3)
    t.apply(1, Action(ActionKind.CHOW, tile("5p"), tile("4p")))
    t.apply(2, Action(ActionKind.PUNG, tile("5p")))
    t.apply(3, win("5p"))
    assert [w.winner for w in t.result.wins] == [3]
    # same again, the winner passes: the pung beats the chow
    t = HandTable(MCR136, wall)
    t.apply(0, discard("5p"))
    t.apply(1, Action(ActionKind.CHOW, tile("5p"), tile("4p")))
    t.apply(2, Action(ActionKind.PUNG, tile("5p")))
    t.apply(3, PASS)
    assert t.current == 2 and t.melds[2][0].kind is MeldKind.PUNG and not t.melds[1]
    # and without the pung, the chow goes through (only the next seat may chow: trap FLOW-02)
    t = HandTable(MCR136, wall)
    t.apply(0, discard("5p"))
    assert all(a.kind is not ActionKind.CHOW for a in t.legal_actions(3))
    t.apply(1, Action(ActionKind.CHOW, tile("5p"), tile("4p")))
    t.apply(2, PASS)
    t.apply(3, PASS)
    assert t.current == 1 and t.melds[1][0].kind is MeldKind.CHOW and t.melds[1][0].claimed == tile("5p")


def test_two_claimants_win_order_from_discarder():
    # seat 2 discards 5p (its dealt extra as dealer 2); seats 3 and 1 both win: head-bump gives seat 3
    rules = MCR136
    wall = arrange_wall(rules, [tiles("234m567s888p67p55z"), tiles("123m456m789m46p99s"),
                                tiles("1z1z1z2z2z2z3z3z3z4z4z4z7z5p"), tiles("123s456s789s34p66z")], dealer=2)
    t = HandTable(rules, wall, dealer=2)
    t.apply(2, discard("5p"))
    assert t.pending_seats() == [3, 0, 1]
    for s in (0, 1, 3):
        t.apply(s, win("5p"))
    assert [w.winner for w in t.result.wins] == [3]
    assert t.result.wins[0].ctx.seat_wind == 28  # seat 3 is South when seat 2 deals


# ------------------------------------------------------------------------------ the wall's end
def _last_tile_wall(rules: RuleSet) -> list[int]:
    # 83 draws after the deal: the last live tile goes to seat 3. Seat 3 waits on 5p, every other 5p
    # is dealt, so it only comes as the last tile.
    return arrange_wall(rules, [tiles("5p1z1z1z2z2z2z3z3z3z4z4z4z7z"), tiles("55p"), [],
                                tiles("123m456m789m46p99s")], tail=tiles("5p"))


def test_self_draw_on_the_last_tile():
    t = HandTable(MCR136, _last_tile_wall(MCR136))
    t.apply(0, discard("7z"))
    while not (t.phase is Phase.TURN and t.live == 0):
        pass_windows(t)
        if t.live == 0:
            break
        t.apply(t.current, Action(ActionKind.DISCARD, t.last_draw[t.current]))
    pass_windows(t)
    assert t.current == 3 and t.live == 0 and t.last_draw[3] == tile("5p")
    acts = t.legal_actions(3)
    assert win("5p") in acts
    assert not any(a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG) for a in acts)
    t.apply(3, win("5p"))
    assert t.result.wins[0].ctx.last_tile and t.result.wins[0].ctx.self_drawn


def test_last_discard_only_won_on_then_exhaustive_draw():
    t = HandTable(MCR136, _last_tile_wall(MCR136))
    t.apply(0, discard("7z"))
    while not (t.phase is Phase.TURN and t.live == 0):
        pass_windows(t)
        if t.live == 0:
            break
        t.apply(t.current, Action(ActionKind.DISCARD, t.last_draw[t.current]))
    pass_windows(t)
    t.apply(3, discard("5p"))  # declines the self-drawn win
    # seat 1 holds 55p but may not pung the last discard (claim_last_discard off)
    assert all(a.kind is not ActionKind.PUNG for a in t.legal_actions(1))
    pass_windows(t)  # a seat that could win on it passes
    assert t.finished and t.result.drawn and t.events[-1]["type"] == "ryukyoku"
    assert t.result.deltas == [0, 0, 0, 0]
    # with claim_last_discard on, the pung is offered
    rules = MCR136.with_options(claim_last_discard=True)
    t = HandTable(rules, _last_tile_wall(rules))
    t.apply(0, discard("7z"))
    while not (t.phase is Phase.TURN and t.live == 0):
        pass_windows(t)
        if t.live == 0:
            break
        t.apply(t.current, Action(ActionKind.DISCARD, t.last_draw[t.current]))
    pass_windows(t)
    t.apply(3, discard("5p"))
    assert Action(ActionKind.PUNG, tile("5p")) in t.legal_actions(1)


def test_exhaustive_draw_with_reserve():
    rules = MCR136.with_options(reserve=16)
    t = HandTable(rules, arrange_wall(rules, [[], [], [], []], seed=3))
    tsumogiri_until_end(t)
    assert t.remaining == 16 and t.result.drawn  # 16 tiles stay back (Taiwan-style reserve)


def test_exhaustive_draw_takes_every_tile():
    t = HandTable(MCR136, arrange_wall(MCR136, [[], [], [], []], seed=4))
    tsumogiri_until_end(t)
    if t.result.drawn:
        assert t.remaining == 0
        assert sum(len(r) for r in t.rivers) == 136 - 52


# ------------------------------------------------------------------------------ illegal actions
def test_illegal_actions_raise_and_change_nothing():
    t = HandTable(MCR136, _three_waits_wall(MCR136))
    before = snapshot(t)
    with pytest.raises(IllegalActionError):
        t.apply(1, discard("1m"))  # not seat 1's turn
    with pytest.raises(IllegalActionError):
        t.apply(0, discard("9s"))  # not in hand
    with pytest.raises(IllegalActionError):
        t.apply(0, Action(ActionKind.PUNG, tile("1z")))  # no claim in a turn
    with pytest.raises(IllegalActionError):
        t.apply(0, win("5p"))  # not a winning hand
    assert snapshot(t) == before
    t.apply(0, discard("5p"))
    before = snapshot(t)
    with pytest.raises(IllegalActionError):
        t.apply(2, Action(ActionKind.CHOW, tile("5p"), tile("3p")))  # only the next seat chows
    with pytest.raises(IllegalActionError):
        t.apply(0, PASS)  # the discarder is not asked
    assert snapshot(t) == before


# ------------------------------------------------------------------------------ dealers and match flow
def _tsumogiri_match(m: Match) -> None:
    while not m.finished:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        if m.table.phase is Phase.TURN:
            d = m.table.last_draw[s]
            a = Action(ActionKind.DISCARD, d) if Action(ActionKind.DISCARD, d) in acts else acts[-1]
        else:
            a = PASS
        m.apply(s, a)


def _kyoku(m: Match) -> list[tuple[str, int, int]]:
    return [(e["bakaze"], e["oya"], e["honba"]) for e in m.events if e["type"] == "start_kyoku"]


def test_dealer_passes_every_hand_in_mcr():
    m = Match(MCR136, seed=1, max_hands=6)
    _tsumogiri_match(m)
    assert _kyoku(m) == [("1z", 0, 0), ("1z", 1, 0), ("1z", 2, 0), ("1z", 3, 0), ("2z", 0, 0), ("2z", 1, 0)]


def test_dealer_streak_on_draws_with_cap():
    rules = MCR136.with_options(dealer_keeps_on_draw=True, max_dealer_streak=2, rounds=1)
    m = Match(rules, seed=2, max_hands=8)
    _tsumogiri_match(m)
    k = _kyoku(m)
    assert k[:6] == [("1z", 0, 0), ("1z", 0, 1), ("1z", 0, 2), ("1z", 1, 0), ("1z", 1, 1), ("1z", 1, 2)]
    assert all(r.drawn for r in m.results)


def test_dealer_keeps_on_win_only():
    rules = MCR136.with_options(dealer_keeps_on_win=True, rounds=1)
    w1 = arrange_wall(rules, [tiles("1111s123m456m789m5p"), [], [], []], tail=tiles("5p"))  # dealer wins
    w2 = arrange_wall(rules, [[], [], [], []], seed=9)
    w3 = arrange_wall(rules, [[], [], [], []], seed=10)
    m = Match(rules, walls=[w1, w2, w3])
    m.apply(0, Action(ActionKind.CONCEALED_KONG, tile("1s")))
    m.apply(0, win("5p"))
    _tsumogiri_match(m)
    k = _kyoku(m)
    assert k[0] == ("1z", 0, 0) and k[1] == ("1z", 0, 1)
    if m.results[1].drawn:
        assert k[2] == ("1z", 1, 0)  # a draw passes the deal
    assert m.scores == [sum(r.deltas[i] for r in m.results) for i in range(4)]


def test_match_length_full_mcr():
    m = Match(MCR136, seed=5)
    _tsumogiri_match(m)
    k = _kyoku(m)
    assert len(k) == 16 and [b for b, _, _ in k] == ["1z"] * 4 + ["2z"] * 4 + ["3z"] * 4 + ["4z"] * 4
    assert m.events[-1]["type"] == "end_game"


def test_wildcard_preset_flow():
    rules = RuleSet.preset("wenzhou13", seat_draw=False)
    t = HandTable(rules, arrange_wall(rules, [[], [], [], []], seed=1), dice=(3, 4))
    assert t.indicator is not None and t.wild_face == t.indicator
    assert t.events[1]["type"] == "wild"
    # a wildcard is never offered as a discard while other tiles remain
    for a in t.legal_actions(0):
        if a.kind is ActionKind.DISCARD:
            assert a.tile != t.wild_face
    tsumogiri_until_end_allowing_wilds(t)
    assert sorted(t.tile_census()) == list(rules.tile_set)


def tsumogiri_until_end_allowing_wilds(t: HandTable) -> None:
    for _ in range(10_000):
        if t.finished:
            return
        pass_windows(t)
        if t.finished:
            return
        s = t.current
        acts = t.legal_actions(s)
        d = Action(ActionKind.DISCARD, t.last_draw[s])
        t.apply(s, d if d in acts else next(a for a in acts if a.kind is ActionKind.DISCARD))
    raise AssertionError("hand did not end")


def test_sixteen_tile_deal():
    rules = RuleSet.preset("taiwan", seat_draw=False, first_dealer="east")
    t = HandTable(rules, arrange_wall(rules, [[], [], [], []], seed=2))
    assert sum(t.concealed[0]) == 17 and all(sum(t.concealed[s]) == 16 for s in (1, 2, 3))


def test_wildcard_indicator_white_stand_in_and_win():
    """Seed 003 / RULES.md §4.2: the dice count from the tail to the indicator, whose face is wild;
    白板 plays as that face; a wildcard is not discarded."""
    rules = RuleSet.preset("wenzhou13", seat_draw=False)
    hand = tiles("123p456p789p4m5z77z5m")  # 5z = White standing in for 5m; the dealer's extra tile is a wild 5m
    wall = arrange_wall(rules, [hand, [], [], []], tail=tiles("1s5m"))
    t = HandTable(rules, wall, dice=(1, 1))  # 2 from the tail: the second-to-last tile
    assert t.indicator == tile("5m") and t.wild_face == tile("5m")
    acts = t.legal_actions(0)
    assert Action(ActionKind.DISCARD, tile("5m")) not in acts and Action(ActionKind.DISCARD, tile("5z")) in acts
    assert Action(ActionKind.WIN, tile("5m")) in acts  # 4m + White(5m) + wild = a chow; 77z the pair
    t.apply(0, Action(ActionKind.WIN, tile("5m")))
    ctx = t.result.wins[0].ctx
    assert ctx.wild_face == tile("5m") and ctx.first_turn and ctx.hand.win_tile == 42  # the drawn wild
    assert sorted(t.tile_census()) == list(rules.tile_set)


def test_wildcard_next_face():
    rules = RuleSet.preset("wenzhou13", seat_draw=False, wild_next_face=True)
    wall = arrange_wall(rules, [[], [], [], []], tail=tiles("1s9m"))
    t = HandTable(rules, wall, dice=(1, 1))
    assert t.indicator == tile("9m") and t.wild_face == tile("1m")


def test_next_face_puts_four_wildcards_in_play():
    """With ``wild_next_face`` the indicator (9m) shows another face, so all four 1m are live and the
    scorers accept them (RULES.md §4.2): a 天胡 of the W16 dealer with two 财神 while seat 1 holds the
    other two. Hard ×2 at dealer factor 2 from each payer (12 to the dealer, §4.5), then 财神钱
    3·n − Σ others: +4, +4, −4, −4."""
    assert [RuleSet.preset(p).live_wild_copies for p in ("wenzhou", "wenzhou-w16", "seed000", "mcr")] == [3, 3, 4, 0]
    rules = RuleSet.preset("wenzhou-w16", seat_draw=False, wild_next_face=True)
    assert rules.live_wild_copies == 4
    wall = arrange_wall(rules, [tiles("12s1m456s789s234p567p9p1m"), tiles("1m1m"), [], []], tail=tiles("1s9m"))
    t = HandTable(rules, wall, dice=(1, 1))
    assert t.wild_face == tile("1m")
    t.apply(0, Action(ActionKind.WIN, tile("1m")))
    assert t.result.wins[0].ctx.wild_counts == (2, 2, 0, 0)
    assert t.result.deltas == [16, 0, -8, -8]
    for preset in ("wenzhou", "seed000"):  # the same kind: their scorers take the table's live copies
        assert RuleSet.preset(preset, wild_next_face=True).scorer_object().options.live_wild_copies == 4


@pytest.mark.parametrize("drawn_only", [False, True])
def test_added_kong_with_a_held_copy(drawn_only):
    rules = MCR136.with_options(added_kong_drawn_only=drawn_only)
    wall = arrange_wall(rules, [tiles("5p1z2z3z4z1s9s9m1m7z7z6z6z5z"), tiles("555p"), [], []])
    t = HandTable(rules, wall)
    t.apply(0, discard("5p"))
    claim(t, 1, Action(ActionKind.PUNG, tile("5p")))
    turn(t, 1, Action(ActionKind.DISCARD, next(x for x in t.hand_tiles(1) if x != tile("5p"))))
    for s in (2, 3, 0):
        tsumogiri(t, s)
    pass_windows(t)
    assert t.current == 1
    offered = Action(ActionKind.ADDED_KONG, tile("5p")) in t.legal_actions(1)
    assert offered is (not drawn_only or t.last_draw[1] == tile("5p"))
