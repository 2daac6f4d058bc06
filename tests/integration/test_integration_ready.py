"""Declared ready (報聽) in the engine, with 天聽 / 地聽, scored by the Taiwan scorer.

RULES.md §3.1 (報聽: optional, off by default; after declaring, the hand is frozen), §3.2 (報聽 1,
地聽 4, 天聽 8). ``RuleSet.declare_ready`` switches it on; the frozen hand is the simpler reading: a
declared seat may only win or discard the tile it has just drawn, and claims nothing but a win.
Walls are fixed with :func:`majiang.engine.wall.arrange_wall`; seat 0 deals.
"""

from __future__ import annotations

import random

import pytest

from integration_helpers import random_step, tile, tiles

from majiang.engine import PASS, Action, ActionKind, HandTable, IllegalActionError, Match, Phase, RuleSet, run_match
from majiang.engine.wall import arrange_wall
from majiang.players import EfficiencyBot, RandomBot
from majiang.records.jsonl import record_lines, replay

TAIWAN = RuleSet.preset("taiwan", seat_draw=False, first_dealer="east")
READY_ON = RuleSet.preset("taiwan", seat_draw=False, first_dealer="east", declare_ready=True)



def pass_others(t: HandTable, keep: int | None = None) -> None:
    """Every seat but ``keep`` passes the open windows (``keep`` must not be pending)."""
    while t.phase in (Phase.CLAIM, Phase.ROB):
        pend = t.pending_seats()
        assert keep not in pend
        for s in pend:
            t.apply(s, PASS)


def discard_drawn(t: HandTable, seat: int) -> None:
    assert t.phase is Phase.TURN and t.current == seat, (t.phase, t.current, seat)
    t.apply(seat, Action(ActionKind.DISCARD, t.last_draw[seat]))


def assert_offered_nothing(t: HandTable, seat: int) -> None:
    """The discard just made offers ``seat`` no claim: it is not among the pending seats of an open
    window (when nobody could claim, the next seat has already drawn)."""
    if t.phase is Phase.CLAIM:
        assert seat not in t.pending_seats() and t.legal_actions(seat) == []
    else:
        assert t.phase is Phase.TURN and t.rivers[t.discarder][-1:] == [t.claim_tile]


def patterns(t: HandTable) -> set[str]:
    assert t.result is not None and len(t.result.wins) == 1
    return {p for p, _v, _n in t.result.wins[0].result.patterns}


def readies(acts: list[Action]) -> list[Action]:
    return [a for a in acts if a.kind is ActionKind.READY]


# the dealer's 17 tiles: five sets, a single 8s (the wait) and the dealt 17th tile 1z
DEALER_READY = "123m456m789m666p222p8s1z"


def _heavenly_wall(rules: RuleSet) -> list[int]:
    # draws: seat 1 2p (the dealer could pung/kong it), seat 2 any, seat 3 2m (the dealer could
    # chow it), dealer 9s (no win), seat 1 8s (the dealer wins on its discard)
    return arrange_wall(rules, [tiles(DEALER_READY)], draws=[tile("2p"), None, tile("2m"), tile("9s"), tile("8s")])


def test_ready_is_offered_only_with_the_option() -> None:
    assert not RuleSet.preset("taiwan").declare_ready  # off in the preset: records do not change
    off = HandTable(TAIWAN, _heavenly_wall(TAIWAN))
    assert readies(off.legal_actions(0)) == []
    on = HandTable(READY_ON, _heavenly_wall(READY_ON))
    # discarding 1z leaves the hand waiting on 8s, discarding 8s on 1z; plain discards stay offered
    assert readies(on.legal_actions(0)) == [Action(ActionKind.READY, tile("8s")), Action(ActionKind.READY, tile("1z"))]
    assert Action(ActionKind.DISCARD, tile("1z")) in on.legal_actions(0)
    acts = on.legal_actions(0)
    assert acts == sorted(acts, key=lambda a: a.sort_key)


def test_declared_ready_is_frozen_then_wins_with_heavenly_ready() -> None:
    t = HandTable(READY_ON, _heavenly_wall(READY_ON))
    t.apply(0, Action(ActionKind.READY, tile("1z")))
    assert t.ready[0] and t.rivers[0] == [tile("1z")]
    i = next(i for i, e in enumerate(t.events) if e["type"] == "reach")
    assert t.events[i:i + 2] == [{"type": "reach", "actor": 0, "pai": "1z"}, {"type": "dahai", "actor": 0, "pai": "1z"}]
    pass_others(t, keep=0)
    # seat 1 discards 2p: the dealer holds 222p but may neither pung nor kong
    assert t.last_draw[1] == tile("2p")
    discard_drawn(t, 1)
    assert_offered_nothing(t, 0)
    pass_others(t, keep=0)
    discard_drawn(t, 2)
    pass_others(t, keep=0)
    # seat 3 (the dealer's 上家) discards 2m: the dealer holds 1m 3m but may not chow
    assert t.last_draw[3] == tile("2m")
    discard_drawn(t, 3)
    assert_offered_nothing(t, 0)
    pass_others(t, keep=0)
    # the dealer draws 9s: only that tile may go, no ready again, no kong of 666p/222p
    assert t.current == 0 and t.last_draw[0] == tile("9s")
    assert t.legal_actions(0) == [Action(ActionKind.DISCARD, tile("9s"))]
    with pytest.raises(IllegalActionError):
        t.apply(0, Action(ActionKind.DISCARD, tile("8s")))
    t.apply(0, Action(ActionKind.DISCARD, tile("9s")))
    pass_others(t, keep=0)
    discard_drawn(t, 1)  # 8s: the dealer may only win or pass
    assert t.legal_actions(0) == [Action(ActionKind.WIN, tile("8s")), PASS]
    t.apply(0, Action(ActionKind.WIN, tile("8s")))
    pass_others(t)
    assert t.finished and t.result is not None
    w = t.result.wins[0]
    assert w.winner == 0 and w.discarder == 1
    assert w.ctx.declared_ready and w.ctx.heavenly_ready and not w.ctx.earthly_ready
    p = patterns(t)
    assert {"tw.baoting", "tw.tianting"} <= p and "tw.diting" not in p
    assert sum(t.result.deltas) == 0


def test_control_undeclared_dealer_may_pung_and_gets_no_ready_tai() -> None:
    # the same wall, but the dealer only discards 1z: the pung of 2p is offered
    t = HandTable(READY_ON, _heavenly_wall(READY_ON))
    t.apply(0, Action(ActionKind.DISCARD, tile("1z")))
    assert not t.ready[0]
    pass_others(t, keep=0)
    discard_drawn(t, 1)
    acts = t.legal_actions(0)
    assert Action(ActionKind.PUNG, tile("2p")) in acts and Action(ActionKind.EXPOSED_KONG, tile("2p")) in acts
    t.apply(0, PASS)
    pass_others(t, keep=0)
    discard_drawn(t, 2)
    pass_others(t, keep=0)
    discard_drawn(t, 3)  # 2m: the undeclared dealer may chow it
    assert Action(ActionKind.CHOW, tile("2m"), tile("1m")) in t.legal_actions(0)


def test_earthly_ready_non_dealer_after_his_first_discard() -> None:
    # seat 1: 4 sets + 22p + 8s + 1z; draws 2p (a fifth set), declares with 1z, waits on 8s
    hand1 = tiles("123m456m789m666p22p8s1z")
    assert len(hand1) == 16
    wall = arrange_wall(READY_ON, [[], hand1], draws=[tile("2p"), None, None, None, None, tile("8s")])
    t = HandTable(READY_ON, wall)
    discard_drawn(t, 0)
    pass_others(t)
    assert t.current == 1 and t.last_draw[1] == tile("2p")
    assert Action(ActionKind.READY, tile("1z")) in readies(t.legal_actions(1))
    t.apply(1, Action(ActionKind.READY, tile("1z")))
    for s in (2, 3, 0):
        pass_others(t, keep=1)
        discard_drawn(t, s)
    pass_others(t, keep=1)
    discard_drawn(t, 1)  # frozen: the drawn filler goes
    pass_others(t, keep=1)
    assert t.last_draw[2] == tile("8s")
    discard_drawn(t, 2)
    assert t.legal_actions(1) == [Action(ActionKind.WIN, tile("8s")), PASS]
    t.apply(1, Action(ActionKind.WIN, tile("8s")))
    pass_others(t)
    assert t.finished and t.result is not None
    w = t.result.wins[0]
    assert w.winner == 1 and w.ctx.declared_ready and w.ctx.earthly_ready and not w.ctx.heavenly_ready
    p = patterns(t)
    assert {"tw.baoting", "tw.diting"} <= p and "tw.tianting" not in p


def test_late_declaration_scores_only_declared_ready() -> None:
    # the dealer discards the 17th tile plainly first, then declares later: no 天聽/地聽
    wall = arrange_wall(READY_ON, [tiles("123m456m789m666p222p8s1z")],
                        draws=[None, None, None, tile("9s"), None, None, None, tile("8s")])
    t = HandTable(READY_ON, wall)
    discard_drawn(t, 0)  # 1z
    for s in (1, 2, 3):
        pass_others(t)
        discard_drawn(t, s)
    pass_others(t)
    assert t.current == 0 and t.last_draw[0] == tile("9s")
    t.apply(0, Action(ActionKind.READY, tile("9s")))
    for s in (1, 2, 3):
        pass_others(t, keep=0)
        discard_drawn(t, s)
    pass_others(t, keep=0)
    assert t.last_draw[0] == tile("8s")
    acts = t.legal_actions(0)
    assert acts == [Action(ActionKind.WIN, tile("8s")), Action(ActionKind.DISCARD, tile("8s"))]
    t.apply(0, acts[0])
    w = t.result.wins[0]
    assert w.ctx.self_drawn and w.ctx.declared_ready and not w.ctx.heavenly_ready and not w.ctx.earthly_ready
    p = patterns(t)
    assert "tw.baoting" in p and not {"tw.tianting", "tw.diting"} & p


class _Declarer:
    """Declares ready whenever offered, wins whenever offered, else discards the drawn tile / passes."""

    name = "declarer"

    def choose(self, view, actions):
        for kind in (ActionKind.WIN, ActionKind.READY):
            for a in actions:
                if a.kind is kind:
                    return a
        if PASS in actions:
            return PASS
        drawn = Action(ActionKind.DISCARD, view.last_draw)
        return drawn if drawn in actions else next(a for a in actions if a.kind is ActionKind.DISCARD)


def test_a_record_with_ready_replays_identically() -> None:
    m = Match(READY_ON, walls=[_heavenly_wall(READY_ON)], max_hands=1)
    run_match(m, [_Declarer() for _ in range(4)])
    assert any(e["type"] == "reach" for e in m.events)
    lines = record_lines(m)
    assert '"declare_ready":true' in lines[0]
    again = replay(lines)
    assert record_lines(again) == lines and again.scores == m.scores


def test_efficiency_bot_never_declares() -> None:
    m = Match(READY_ON, seed=3, max_hands=4)
    run_match(m, [EfficiencyBot(READY_ON) for _ in range(4)])
    assert not any(e["type"] == "reach" for e in m.events)


def test_property_random_bots_with_declare_ready() -> None:
    """200 hands of random play with 報聽 on: every hand ends, zero-sum, census holds, a declared
    seat only ever discards its drawn tile and claims nothing but a win; records replay."""
    hands = 0
    seed = 0
    reaches = 0
    replayed = False
    while hands < 200:
        m = Match(READY_ON, seed=seed, max_hands=20)
        rng = random.Random(seed)
        seed += 1
        steps = 0
        while not m.finished:
            steps += 1
            assert steps < 2_000, "a hand did not end"
            t, s, acts, a = random_step(m, rng)
            if t.ready[s]:
                kinds = {a.kind for a in acts}
                assert kinds <= {ActionKind.WIN, ActionKind.DISCARD, ActionKind.PASS}, acts
                if t.phase is Phase.TURN:
                    assert [x.tile for x in acts if x.kind is ActionKind.DISCARD] == [t.last_draw[s]]
            m.apply(s, a)
            if m.table is not t or t.finished:
                steps = 0
                assert t.finished and t.result is not None and sum(t.result.deltas) == 0
                assert sorted(t.tile_census()) == list(READY_ON.tile_set)
        assert sum(m.scores) == 0
        n = sum(e["type"] == "reach" for e in m.events)
        if n and not replayed:
            assert record_lines(replay(record_lines(m))) == record_lines(m)
            replayed = True
        reaches += n
        hands += len(m.results)
    assert reaches >= 1  # random play does declare now and then


def test_random_bot_games_without_the_option_never_declare() -> None:
    m = Match(TAIWAN, seed=5, max_hands=6)
    run_match(m, [RandomBot(p) for p in range(4)])
    assert not any(e["type"] == "reach" for e in m.events)


def test_declare_ready_refused_where_a_wildcard_could_not_be_discarded():
    from majiang.engine.ruleset import RuleSetError, resolve

    with pytest.raises(RuleSetError, match="declare_ready"):
        resolve("wenzhou,declare_ready=true")
    assert resolve("wenzhou,declare_ready=true,wild_discardable=true").declare_ready
