"""The engine with the real MCR scorer (majiang.rules.mcr) plugged in through RuleSet(scorer="mcr")."""

from __future__ import annotations

import pytest

from majiang.engine import Match, RuleSet, run_match
from majiang.rules.mcr.engine_adapter import McrScorer, mcr_available
from majiang.players import EfficiencyBot
from majiang.records.botzone import parse_log, sample_path
from majiang.records.botzone_replay import replay_round
from majiang.records.jsonl import record_lines, replay

pytestmark = pytest.mark.skipif(not mcr_available(), reason="majiang.rules.mcr is not importable")


def test_botzone_fan_totals_and_scores_reproduce():
    """Every one of the 14 Botzone wins gets the logged fan total from the table's context (seat
    wind = player index, prevalent = Wind, the drawn tile on a self-draw), and the settlement then
    reproduces the logged Score line."""
    got = []
    for rnd in parse_log(sample_path().read_text(encoding="utf-8")):
        rep = replay_round(rnd, scorer=McrScorer())
        if rep.winner is None:
            continue
        w = rep.table.result.wins[0]
        got.append((rnd.match, w.result.total, rnd.fan_total, rep.score_matches))
    assert len(got) == 14
    assert [g for g in got if g[1] != g[2] or not g[3]] == []


@pytest.mark.parametrize("seed", range(3))
def test_scored_games_replay(seed):
    rules = RuleSet.preset("mcr", scorer="mcr")
    m = run_match(Match(rules, seed=seed, max_hands=2), [EfficiencyBot(rules) for _ in range(4)])
    for res in m.results:
        for w in res.wins:
            assert w.result.value >= 8  # the minimum, flowers excluded (trap FLOW-06)
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines
