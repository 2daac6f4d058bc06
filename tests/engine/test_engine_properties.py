"""Property tests over many seeds with random bots: tiles accounted for, zero-sum scores, every game
ends, legal actions always exist, illegal actions change nothing, records replay exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majiang.engine import Action, ActionKind, IllegalActionError, Match, Phase, RuleSet
from majiang.players import RandomBot
from majiang.records.jsonl import record_lines, replay

PRESETS = [
    RuleSet.preset("mcr"),
    RuleSet.preset("mcr", flowers=False, multiple_winners="all"),
    RuleSet.preset("taiwan"),
    RuleSet.preset("wenzhou13"),
]


def _census_ok(m: Match) -> None:
    t = m.table
    if t is not None:
        assert t.tile_census() == list(m.rules.tile_set)


def _play_checked(rules: RuleSet, seed: int, max_hands: int, *, probe_illegal: bool = True) -> Match:
    """Play with random bots, checking the invariants at every step."""
    bots = [RandomBot(seed * 4 + p) for p in range(4)]
    m = Match(rules, seed=seed, max_hands=max_hands)
    probe = random.Random(seed)
    steps = 0
    while not m.finished:
        seats = m.pending_seats()
        assert seats, "an unfinished match always awaits someone"
        for s in seats:
            assert m.legal_actions(s), "every awaited seat has a legal action"
        for s in range(4):
            if s not in seats:
                assert m.legal_actions(s) == []
        _census_ok(m)
        s = seats[0]
        acts = m.legal_actions(s)
        if probe_illegal and probe.random() < 0.05:
            n_events = len(m.events)
            bad = Action(ActionKind.DISCARD, probe.randrange(34))
            other = next(x for x in range(4) if x not in seats)
            with pytest.raises(IllegalActionError):
                m.apply(other, acts[0])
            if bad not in acts:
                with pytest.raises(IllegalActionError):
                    m.apply(s, bad)
            assert len(m.events) == n_events and m.legal_actions(s) == acts
        view = m.view(s)
        assert list(view.hand) == m.table.hand_tiles(s)
        m.apply(s, bots[m.player_at_seat[s]].choose(view, acts))
        steps += 1
        assert steps < 20_000 * max_hands, "the match must end"
    for res in m.results:
        assert sum(res.deltas) == 0
    assert sum(m.scores) == 0
    assert m.events[-1]["type"] == "end_game"
    return m


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}-{r.multiple_winners}-{r.flowers}")
@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_invariants(rules: RuleSet, seed: int) -> None:
    m = _play_checked(rules, seed, max_hands=2)
    lines = record_lines(m)
    m2 = replay(lines)
    assert record_lines(m2) == lines


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_same_seed_same_bytes_and_replay(seed: int) -> None:
    rules = RuleSet.preset("mcr")

    def run() -> list[str]:
        m = Match(rules, seed=seed, max_hands=1)
        bots = [RandomBot(seed + p) for p in range(4)]
        while not m.finished:
            s = m.pending_seats()[0]
            m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
        return record_lines(m)

    a, b = run(), run()
    assert a == b
    assert record_lines(replay(a, from_seed=True)) == a


def test_full_mcr_match_with_random_bots() -> None:
    m = _play_checked(RuleSet.preset("mcr"), 123, max_hands=100, probe_illegal=False)
    assert len(m.results) == 16
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines


def test_hands_never_share_a_wall() -> None:
    m = Match("mcr", seed=9, max_hands=16)
    bots = [RandomBot(p) for p in range(4)]
    while not m.finished:
        s = m.pending_seats()[0]
        m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
    walls = [tuple(w) for w in m.walls_used]
    assert len(set(walls)) == len(walls) == 16


def test_views_hide_other_concealed_tiles() -> None:
    m = Match(RuleSet.preset("mcr", flowers=False), seed=4, max_hands=3)
    bots = [RandomBot(p) for p in range(4)]
    seen_hidden = False
    while not m.finished:
        s = m.pending_seats()[0]
        for other in range(4):
            v = m.view(other)
            t = m.table
            assert list(v.hand) == t.hand_tiles(other)
            for x in range(4):
                if x != other:
                    ck = sum(1 for mm in t.melds[x] if mm.kind.value == "concealed-kong")
                    assert v.hidden_kongs[x] == ck
                    assert all(mm.kind.value != "concealed-kong" for mm in v.melds[x])
                    seen_hidden |= ck > 0
        m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
    assert m.finished


def test_phase_values_cover_turn_and_claims() -> None:
    m = Match(RuleSet.preset("mcr"), seed=11, max_hands=1)
    bots = [RandomBot(p) for p in range(4)]
    phases = set()
    while not m.finished:
        phases.add(m.table.phase)
        s = m.pending_seats()[0]
        m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
    assert Phase.TURN in phases and Phase.CLAIM in phases


EFF_RULES = [RuleSet.preset("mcr", multiple_winners="all"), RuleSet.preset("taiwan"), RuleSet.preset("wenzhou13")]


@pytest.mark.parametrize("rules", EFF_RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(4))
def test_efficiency_games_keep_invariants(rules: RuleSet, seed: int) -> None:
    """Efficiency bots win often, so wins, several winners and kongs get exercised too; every
    winning hand handed to a scorer is a valid hand (Hand.check)."""
    from majiang.players import EfficiencyBot

    m = Match(rules, seed=seed, max_hands=2)
    bots = [EfficiencyBot(rules) for _ in range(4)]
    while not m.finished:
        _census_ok(m)
        s = m.pending_seats()[0]
        m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
    assert all(sum(r.deltas) == 0 for r in m.results) and sum(m.scores) == 0
    for r in m.results:
        for w in r.wins:
            w.ctx.hand.check(rules.sets)
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}-{r.multiple_winners}-{r.flowers}")
def test_many_random_games(rules: RuleSet) -> None:
    """A longer sweep of seeds (marked slow; about 10 s in all)."""
    for seed in range(100, 125):
        m = _play_checked(rules, seed, max_hands=2, probe_illegal=False)
        lines = record_lines(m)
        assert record_lines(replay(lines)) == lines
