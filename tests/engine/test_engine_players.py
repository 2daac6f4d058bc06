"""Bots, the simulation loop and the terminal game."""

from __future__ import annotations

import io

from rich.console import Console

from majiang.engine import Action, ActionKind, Match, RuleSet, run_match
from majiang.players import EfficiencyBot, RandomBot, make_bot, play_terminal, simulate
from majiang.records.jsonl import replay_file
from majiang.tiles import parse_compact


def test_efficiency_bot_discards_the_loose_honour_and_wins():
    rules = RuleSet.preset("mcr", flowers=False)
    m = Match(rules, seed=1, max_hands=1)
    bot = EfficiencyBot(rules)
    # a unit check through a fake view: 123m456m789m 11p 45p + 7z -> discard 7z
    v = m.view(m.pending_seats()[0])
    from dataclasses import replace

    hand = tuple(sorted(parse_compact("123m456m789m1145p7z")))
    v2 = replace(v, hand=hand, phase="turn")
    acts = [Action(ActionKind.DISCARD, t) for t in sorted(set(hand))]
    assert bot.choose(v2, acts) == Action(ActionKind.DISCARD, parse_compact("7z")[0])
    win = Action(ActionKind.WIN, 3)
    assert bot.choose(v2, [win] + acts) == win


def test_bots_play_a_match():
    rules = RuleSet.preset("mcr")
    m = Match(rules, seed=2, max_hands=2)
    run_match(m, [EfficiencyBot(rules), RandomBot(1), EfficiencyBot(rules), RandomBot(3)])
    assert m.finished and sum(m.scores) == 0


def test_make_bot_names():
    rules = RuleSet.preset("mcr")
    assert isinstance(make_bot("random", rules), RandomBot)
    assert isinstance(make_bot("eff", rules), EfficiencyBot)
    import pytest

    with pytest.raises(ValueError):
        make_bot("oracle", rules)


def test_simulate_stats_and_records(tmp_path):
    st = simulate("mcr", 2, 7, ["random", "efficiency", "random", "efficiency"], tmp_path, max_hands=2)
    assert st["games"] == 2 and st["hands"] == 4
    assert abs(sum(st["win_rate_by_seat"]) + st["draw_rate"] - 1) < 1e-9  # head-bump: one winner or a draw
    assert abs(sum(st["average_score_by_seat"])) < 1e-9
    assert abs(sum(st["average_score_by_player"])) < 1e-9
    assert len(st["records"]) == 2
    for p in st["records"]:
        replay_file(p)
    again = simulate("mcr", 2, 7, ["random", "efficiency", "random", "efficiency"], None, max_hands=2)
    assert {k: v for k, v in again.items() if k != "records"} == {k: v for k, v in st.items() if k != "records"}


def test_terminal_game_with_scripted_input():
    con = Console(file=io.StringIO(), width=100)
    answers = iter(["x", "99", ""] + [""] * 10_000)
    m = play_terminal("mcr", 5, bot="random", max_hands=1, console=con, input_fn=lambda _: next(answers))
    out = con.file.getvalue()
    assert m.finished and "Not one of the choices" in out and "Your hand" in out
    # the match's own wind and seats, in words: hand 1 of MCR is East's round (RULES.md §1.5)
    assert "prevalent wind East" in out and "prevalent 1z" not in out
    assert "You discard " in out and "You discards" not in out and "You sets" not in out
    con = Console(file=io.StringIO(), width=100)
    m = play_terminal("mcr", 5, bot="random", max_hands=1, console=con, input_fn=lambda _: "q")
    assert not m.finished
