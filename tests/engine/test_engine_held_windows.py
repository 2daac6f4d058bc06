"""Held claim windows (HandTable flow point 10; the web table's one claim window for everyone,
docs/server.md): a match whose windows are held open until ``close_window`` plays exactly the game
of the same match unheld -- the same events, hands and scores -- given the same decisions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.engine import IllegalActionError, Match, RuleSet
from majiang.engine.actions import ActionKind, Phase

PRESETS = ("mcr", "taiwan", "wenzhou", "wenzhou-w16", "seed000", "shandong")


def _choose(rng_seed: int, events: int, seat: int, legal: list) -> object:
    """A decision that depends only on the game so far (its event count) and the seat, so both
    matches make the same one; wins and claims are taken often so the windows resolve every way."""
    rng = random.Random(rng_seed * 1_000_003 + events * 7 + seat)
    wins = [a for a in legal if a.kind is ActionKind.WIN]
    if wins:
        return wins[0]
    claims = [a for a in legal if a.kind in (ActionKind.PUNG, ActionKind.CHOW, ActionKind.EXPOSED_KONG,
                                             ActionKind.ADDED_KONG, ActionKind.CONCEALED_KONG)]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    return rng.choice(legal)


def _play(rules: str, seed: int, hold: bool, steps: int = 3000) -> tuple[Match, int, int]:
    m = Match(RuleSet.preset(rules), seed=seed, max_hands=2, hold_windows=hold)
    empty = held = 0
    for _ in range(steps):
        if m.finished:
            break
        pending = m.pending_seats()
        if not pending:
            assert hold, "an unheld table always awaits a seat"
            assert m.window_closable
            empty += m.table is not None and not m.table.answers
            held += 1
            m.close_window()
            continue
        if hold and m.table is not None and m.table.phase in (Phase.CLAIM, Phase.ROB):
            assert not m.window_closable
            with pytest.raises(IllegalActionError):
                m.close_window()  # a seat asked has not answered yet
        s = pending[0]
        m.apply(s, _choose(seed, len(m.events), s, m.legal_actions(s)))
    return m, empty, held


@pytest.mark.parametrize("rules", PRESETS)
def test_a_held_match_is_the_same_game(rules):
    total_empty = 0
    for seed in range(3):
        plain, _, _ = _play(rules, seed, hold=False)
        held, empty, closed = _play(rules, seed, hold=True)
        assert held.events == plain.events
        assert held.scores == plain.scores
        assert held.finished == plain.finished
        assert closed > empty > 0  # windows nobody could claim were held too, and some others
        total_empty += empty
    assert total_empty > 50


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), rules=st.sampled_from(PRESETS))
def test_held_and_unheld_agree_on_random_matches(seed, rules):
    plain, _, _ = _play(rules, seed, hold=False, steps=600)
    held, _, _ = _play(rules, seed, hold=True, steps=10_000)
    n = len(plain.events)
    assert held.events[:n] == plain.events


def test_close_window_refuses_without_a_held_window():
    m = Match(RuleSet.preset("mcr"), seed=1, hold_windows=True)
    assert m.table is not None and m.table.phase is Phase.TURN  # the dealer's first turn
    with pytest.raises(IllegalActionError, match="no held claim window"):
        m.close_window()
    plain = Match(RuleSet.preset("mcr"), seed=1)
    s = plain.pending_seats()[0]
    plain.apply(s, next(a for a in plain.legal_actions(s) if a.kind is ActionKind.DISCARD))
    with pytest.raises(IllegalActionError):
        plain.close_window()  # an unheld table never holds a window
