"""Rules the engine plays for its presets: Taiwan flower wins (八仙過海, 七搶一) and first-turn wins
(天胡, 地胡, 人胡) scored by the Taiwan scorer, Wenzhou W13 被跟, and property runs of every preset.

RULES.md §3.1-§3.3 (Taiwan), §4.6 (Wenzhou penalties). Walls are fixed with
:func:`majiang.engine.wall.arrange_wall`; seat 0 deals unless said otherwise.
"""

from __future__ import annotations

import random

import pytest

from integration_helpers import random_step, tile, tiles

from majiang.engine import PASS, Action, ActionKind, HandTable, Match, Phase, RuleSet
from majiang.engine.wall import arrange_wall
from majiang.records.jsonl import record_lines, replay

TAIWAN = RuleSet.preset("taiwan", seat_draw=False, first_dealer="east")
WENZHOU = RuleSet.preset("wenzhou", seat_draw=False, first_dealer="east")



def pass_windows(t: HandTable) -> None:
    while t.phase in (Phase.CLAIM, Phase.ROB):
        for s in t.pending_seats():
            t.apply(s, PASS)


def discard_drawn(t: HandTable, seat: int) -> None:
    """Pass open windows until ``seat``'s turn, then discard the tile it drew."""
    pass_windows(t)
    assert t.phase is Phase.TURN and t.current == seat, (t.phase, t.current, seat)
    t.apply(seat, Action(ActionKind.DISCARD, t.last_draw[seat]))


def play_out(t: HandTable) -> None:
    """Everyone passes every claim and discards the tile just drawn."""
    for _ in range(10_000):
        if t.finished:
            return
        pass_windows(t)
        if t.finished:
            return
        s = t.current
        drawn = Action(ActionKind.DISCARD, t.last_draw[s])
        acts = t.legal_actions(s)
        t.apply(s, drawn if drawn in acts else next(a for a in acts if a.kind is ActionKind.DISCARD))
    raise AssertionError("the hand did not end")


def patterns(t: HandTable) -> set[str]:
    assert t.result is not None and len(t.result.wins) == 1
    return {p for p, _v, _n in t.result.wins[0].result.patterns}


# 16 plain tiles that never win or claim in these scenarios (all different faces, no neighbours)
PLAIN16 = "147m258p369s1234567z"


# ------------------------------------------------------------------------------ Taiwan flower wins
def test_eight_flowers_at_the_deal_win_at_once_paid_as_a_self_draw() -> None:
    # the dealer is dealt seven flowers; the first replacement from the tail is the eighth
    wall = arrange_wall(TAIWAN, [tiles("1234567f")], tail=tiles("8f"))
    t = HandTable(TAIWAN, wall)
    assert t.finished and t.result is not None
    w = t.result.wins[0]
    assert w.winner == 0 and w.discarder is None and w.ctx.flower_win == "eight"
    assert w.ctx.self_drawn and w.ctx.hand.win_tile is None and len(w.ctx.hand.flowers) == 8
    assert patterns(t) == {"tw.baxian_guohai"}
    # dealer wins 8 tai (D = 1): each pays 30 + (8 + 1) * 10
    assert list(w.deltas) == [360, -120, -120, -120] == t.result.deltas
    hora = [e for e in t.events if e["type"] == "hora"]
    assert hora[0]["flower_win"] == "eight" and hora[0]["pai"] == "8f"
    assert sorted(t.tile_census()) == list(TAIWAN.tile_set)


def _seven_flowers_wall(eighth_to: int) -> list[int]:
    """Seat 1 is dealt seven flowers (replaced from the tail by plain tiles); the eighth flower is the
    first tile drawn from the front by ``eighth_to`` (seat 1's first draw or seat 2's)."""
    draws: list[int | None] = [None] * 3
    draws[eighth_to - 1] = tile("8f")
    return arrange_wall(TAIWAN, [tiles("147m258p369s1234z5z"), tiles("1234567f") + tiles("258m369p")],
                        draws=draws)


def test_completing_the_eighth_flower_in_play_wins() -> None:
    t = HandTable(TAIWAN, _seven_flowers_wall(1))
    assert not t.finished and len(t.flowers[1]) == 7
    discard_drawn(t, 0)
    pass_windows(t)
    assert t.finished
    w = t.result.wins[0]
    assert (w.winner, w.discarder, w.ctx.flower_win) == (1, None, "eight")
    # non-dealer 8 tai: the dealer pays 30 + (8 + 1) * 10, the others 30 + 8 * 10
    assert list(w.deltas) == [-120, 340, -110, -110]
    assert sorted(t.tile_census()) == list(TAIWAN.tile_set)


def test_seven_rob_one_the_drawer_of_the_eighth_pays_alone() -> None:
    t = HandTable(TAIWAN, _seven_flowers_wall(2))
    discard_drawn(t, 0)
    discard_drawn(t, 1)
    pass_windows(t)
    assert t.finished
    w = t.result.wins[0]
    assert (w.winner, w.discarder, w.ctx.flower_win) == (1, 2, "seven")
    assert not w.ctx.self_drawn and len(w.ctx.hand.flowers) == 7
    assert patterns(t) == {"tw.qiqiang_yi"}
    assert list(w.deltas) == [0, 110, -110, 0]
    assert t.flowers[2] == [tile("8f")]
    assert sorted(t.tile_census()) == list(TAIWAN.tile_set)


def test_flower_wins_only_where_the_rule_set_has_them() -> None:
    rules = TAIWAN.with_options(flower_wins=False)
    t = HandTable(rules, _seven_flowers_wall(2))
    discard_drawn(t, 0)
    discard_drawn(t, 1)
    pass_windows(t)
    assert not t.finished and len(t.flowers[2]) == 1
    assert RuleSet.preset("taiwan").flower_wins
    assert not any(RuleSet.preset(p).flower_wins for p in ("mcr", "shandong", "wenzhou"))


def test_a_flower_win_replays_from_its_record() -> None:
    m = Match(TAIWAN, walls=[_seven_flowers_wall(2)])
    while not m.finished:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        m.apply(s, PASS if PASS in acts else Action(ActionKind.DISCARD, m.table.last_draw[s]))
    assert m.results[0].wins[0].ctx.flower_win == "seven" and m.scores == [0, 110, -110, 0]
    assert replay(record_lines(m)).events == m.events


# ------------------------------------------------------------------------------ Taiwan first turns
def test_heavenly_win_dealer_complete_on_the_initial_hand() -> None:
    wall = arrange_wall(TAIWAN, [tiles("123m456m789m123p456p99s")])
    t = HandTable(TAIWAN, wall)
    acts = t.legal_actions(0)
    assert acts[0].kind is ActionKind.WIN
    t.apply(0, acts[0])
    w = t.result.wins[0]
    assert w.ctx.first_turn and w.ctx.self_drawn
    assert "tw.tianhu" in patterns(t)


def test_earthly_win_non_dealer_self_draws_on_his_first_draw() -> None:
    wall = arrange_wall(TAIWAN, [tiles(PLAIN16 + "7z"), tiles("123m456m789m123p456p9s")], draws=tiles("9s"))
    t = HandTable(TAIWAN, wall)
    discard_drawn(t, 0)
    pass_windows(t)
    assert t.current == 1 and Action(ActionKind.WIN, tile("9s")) in t.legal_actions(1)
    t.apply(1, Action(ActionKind.WIN, tile("9s")))
    assert "tw.dihu" in patterns(t)


def test_human_win_on_the_first_go_around_before_his_own_draw() -> None:
    wall = arrange_wall(TAIWAN, [tiles(PLAIN16 + "9s"), [], tiles("123m456m789m123p456p9s")])
    t = HandTable(TAIWAN, wall)
    t.apply(0, Action(ActionKind.DISCARD, tile("9s")))
    assert Action(ActionKind.WIN, tile("9s")) in t.legal_actions(2)
    for s in t.pending_seats():
        t.apply(s, Action(ActionKind.WIN, tile("9s")) if s == 2 else PASS)
    assert "tw.renhu" in patterns(t)


def test_no_earthly_win_after_a_call() -> None:
    # seat 1 pungs the dealer's 1z: seat 2's first self-draw is then no 地胡
    wall = arrange_wall(TAIWAN, [tiles(PLAIN16 + "1z"), tiles("1z1z") + tiles("258m369p"),
                                 tiles("123m456m789m123p456p9s")], draws=[tile("9s")])
    t = HandTable(TAIWAN, wall)
    t.apply(0, Action(ActionKind.DISCARD, tile("1z")))
    for s in t.pending_seats():
        t.apply(s, Action(ActionKind.PUNG, tile("1z")) if s == 1 else PASS)
    t.apply(1, Action(ActionKind.DISCARD, tile("2m")))
    pass_windows(t)
    assert t.current == 2 and Action(ActionKind.WIN, tile("9s")) in t.legal_actions(2)
    t.apply(2, Action(ActionKind.WIN, tile("9s")))
    assert not t.result.wins[0].ctx.first_turn
    assert "tw.dihu" not in patterns(t) and "tw.renhu" not in patterns(t)


# ------------------------------------------------------------------------------ Wenzhou 被跟
def _followed_wall(rules: RuleSet) -> list[int]:
    # the 财神 indicator is the second tile from the tail (dice 1 + 1): 9s is wild; each seat holds
    # one 5m and every other seat discards it after the dealer
    return arrange_wall(rules, [tiles("5m147p258s1234z"), tiles("5m"), tiles("5m"), tiles("5m")],
                        tail=tiles("9m9s"))


def _follow(t: HandTable) -> None:
    t.apply(0, Action(ActionKind.DISCARD, tile("5m")))
    for s in (1, 2, 3):
        pass_windows(t)
        assert t.current == s
        t.apply(s, Action(ActionKind.DISCARD, tile("5m")))


def test_followed_dealer_pays_each_other_player() -> None:
    t = HandTable(WENZHOU, _followed_wall(WENZHOU))
    assert t.wild_face == tile("9s")
    _follow(t)
    pen = [e for e in t.events if e["type"] == "penalty"]
    assert pen == [{"type": "penalty", "name": "followed", "actor": 0, "pai": "5m", "deltas": [-3, 1, 1, 1]}]
    assert t.penalties == [-3, 1, 1, 1]
    play_out(t)
    res = t.result
    assert sum(res.deltas) == 0
    won = [0, 0, 0, 0]
    for w in res.wins:
        won = [a + b for a, b in zip(won, w.deltas)]
    assert res.deltas == [a + b for a, b in zip(won, [-3, 1, 1, 1])]


def test_followed_only_where_the_rule_set_has_it() -> None:
    rules = WENZHOU.with_options(followed_penalty=0)
    t = HandTable(rules, _followed_wall(rules))
    _follow(t)
    assert not any(e["type"] == "penalty" for e in t.events) and t.penalties == [0, 0, 0, 0]
    assert RuleSet.preset("wenzhou").followed_penalty == 1
    assert not any(RuleSet.preset(p).followed_penalty for p in ("mcr", "taiwan", "wenzhou-w16", "seed000"))


def test_a_claim_breaks_the_follow() -> None:
    # seat 1 chows the dealer's 5m and discards its own 5m; seats 2 and 3 discard 5m: the four 5m
    # were discarded in turn order, but a claim came between, so nobody was followed
    wall = arrange_wall(WENZHOU, [tiles("5m147p258s1234z"), tiles("4m5m6m"), tiles("5m"), tiles("5m")],
                        tail=tiles("9m9s"))
    t = HandTable(WENZHOU, wall)
    t.apply(0, Action(ActionKind.DISCARD, tile("5m")))
    chow = Action(ActionKind.CHOW, tile("5m"), tile("4m"))
    for s in t.pending_seats():
        t.apply(s, chow if s == 1 else PASS)
    assert t.current == 1
    t.apply(1, Action(ActionKind.DISCARD, tile("5m")))
    for s in (2, 3):
        pass_windows(t)
        assert t.current == s
        t.apply(s, Action(ActionKind.DISCARD, tile("5m")))
    assert not any(e["type"] == "penalty" for e in t.events) and t.penalties == [0, 0, 0, 0]


# ------------------------------------------------------------------------------ property runs
def _check_rotation(rules: RuleSet, m: Match, full: bool) -> None:
    """Dealer and round wind hand by hand follow RULES.md §3.1 (Taiwan) / the rule set."""
    starts = [e for e in m.events if e["type"] == "start_kyoku"]
    assert len(starts) == len(m.results)
    first = starts[0]["oya"]
    dealer, streak, rnd = first, 0, 0
    for ev, res in zip(starts, m.results):
        assert (ev["oya"], ev["honba"], ev["bakaze"]) == (dealer, streak, f"{1 + rnd}z")
        dealer_won = any(w.winner == dealer for w in res.wins)
        keep = (res.drawn and rules.dealer_keeps_on_draw) or (dealer_won and rules.dealer_keeps_on_win)
        if keep and (rules.max_dealer_streak is None or streak < rules.max_dealer_streak):
            streak += 1
        else:
            streak, dealer = 0, (dealer + 1) % 4
            rnd += dealer == first
    if full:
        assert rnd == rules.rounds  # the match ended after exactly its rounds of winds


@pytest.mark.parametrize("preset", ["mcr", "taiwan", "wenzhou", "wenzhou-w16", "seed000", "shandong"])
def test_property_runs_random_bots(preset: str) -> None:
    """1,000 hands of random play (a win is always taken) per preset: every hand ends, scores stay
    zero-sum, the tile census holds; no flower is ever concealed; the dealer and the round wind
    advance by the rule set; a 财神 is never discarded where the rule set forbids it (unless the hand
    holds nothing else)."""
    rules = RuleSet.preset(preset)
    hands = 0
    seed = 0
    taiwan = preset == "taiwan"
    flower_wins = 0
    followed = 0
    while hands < 1000:
        # Taiwan plays whole matches (4 rounds of winds: random bots rarely win, and the dealer keeps
        # the deal on a draw, so one match is well over 1,000 hands); the others short matches
        m = Match(rules, seed=seed, max_hands=None if taiwan else 12)
        rng = random.Random(seed)
        seed += 1
        steps = 0
        while not m.finished:
            steps += 1
            assert steps < 2_000, "a hand did not end"
            t, s, acts, a = random_step(m, rng)
            if a.kind is ActionKind.DISCARD and t.wild_face is not None and not rules.wild_discardable:
                hand = t.hand_tuple(s)
                assert a.tile != t.wild_face or all(x == t.wild_face for x in hand), (preset, hand)
            m.apply(s, a)
            t2 = m.table
            if taiwan and t2 is not None:  # every step: flowers only ever set aside, every tile in place
                assert all(x < 34 for seat in range(4) for x in t2.hand_tuple(seat))
                assert sum(map(sum, t2.concealed)) + sum(map(len, t2.flowers)) + sum(map(len, t2.rivers)) \
                    + sum(len(md.tiles) for ms in t2.melds for md in ms) + len(t2.won_tiles) \
                    + t2.remaining == len(rules.tile_set)
            if t2 is not t or t.finished:  # the hand ended: check the table it ended on
                steps = 0
                assert t.finished and t.result is not None
                assert sum(t.result.deltas) == 0
                assert sorted(t.tile_census()) == list(rules.tile_set)
                assert all(x < 34 for seat in range(4) for x in t.hand_tuple(seat))
                flower_wins += sum(w.ctx.flower_win is not None for w in t.result.wins)
        assert sum(m.scores) == 0 and all(sum(r.deltas) == 0 for r in m.results)
        n = sum(e["type"] == "penalty" for e in m.events)
        if n and not followed:  # the first match with a 被跟 replays from its record
            assert replay(record_lines(m)).scores == m.scores
        followed += n
        assert len(m.results) == sum(1 for e in m.events if e["type"] == "end_kyoku")
        _check_rotation(rules, m, full=taiwan)
        if taiwan:
            winds = {e["bakaze"] for e in m.events if e["type"] == "start_kyoku"}
            assert winds == {"1z", "2z", "3z", "4z"}
        hands += len(m.results)
    assert hands >= 1000
    if rules.followed_penalty:
        assert followed >= 1  # random play does meet 被跟 in 1,000 W13 hands
    else:
        assert followed == 0
    if not rules.flower_wins:
        assert flower_wins == 0


def test_wild_discard_penalty_where_the_option_allows_the_discard():
    """误打财神 (RULES.md §4.6): with wild_discardable on, a discarded 财神 costs its discarder 1 point to
    each other player at once, and nobody wins on it (§4.2)."""
    from majiang.engine import Match, run_match
    from majiang.engine.ruleset import resolve
    from majiang.players import RandomBot

    rules = resolve("wenzhou,wild_discardable=true")
    assert rules.wild_discard_penalty == 1
    penalties = 0
    for g in range(6):
        m = Match(rules, seed=900 + g, max_hands=6)
        run_match(m, [RandomBot(g * 4 + p) for p in range(4)])
        wild = None
        last = None
        for e in m.events:
            if e["type"] == "wild":
                wild = e["wild"]
            elif e["type"] == "dahai":
                last = e
            elif e["type"] == "penalty" and e["name"] == "wild-discard":
                assert last is not None and last["pai"] == e["pai"] == wild and last["actor"] == e["actor"]
                assert e["deltas"][e["actor"]] == -3 and sum(e["deltas"]) == 0
                penalties += 1
            elif e["type"] == "hora" and e["target"] != e["actor"]:
                assert e["pai"] != wild  # no win on a discarded 财神
        assert sum(m.scores) == 0
    assert penalties > 0
