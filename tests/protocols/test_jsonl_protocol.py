"""Our JSON-lines bot protocol (issue 14): what a seat sees, requests, answers, `majiang bot --protocol jsonl`."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from majiang.engine.match import Match
from majiang.engine.ruleset import resolve
from majiang.players import make_bot
from majiang.protocols.jsonl import (
    HIDDEN,
    JsonlProtocolError,
    match_answer,
    request_json,
    seat_event,
    view_from_json,
)


def _match(rules: str, seed: int) -> Match:
    rs = resolve(rules).with_options(seat_draw=False, first_dealer="east")
    wall = list(rs.tile_set)
    random.Random(seed).shuffle(wall)
    return Match(rs, seed=seed, walls=[wall], max_hands=1)


@pytest.mark.parametrize("rules", ["mcr", "taiwan", "wenzhou", "wenzhou-w16", "seed000", "shandong"])
def test_requests_offer_exactly_the_legal_actions_and_views_round_trip(rules):
    m = _match(rules, 3)
    bots = [make_bot("random", m.rules, s) for s in range(4)]
    steps = 0
    while not m.finished and steps < 400:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        req, offered = request_json(m, s, acts)
        assert len(offered) == len(acts) == len({json.dumps(o, sort_keys=True) for o in offered})
        assert view_from_json(json.loads(json.dumps(req["view"]))) == m.view(s)
        a = bots[s].choose(m.view(s), acts)
        assert match_answer(json.loads(json.dumps(offered[acts.index(a)])), offered) == acts.index(a)
        m.apply(s, a)
        steps += 1
    # what a seat sees: its own dealt tiles and draws, never another seat's
    for ev in m.events:
        seen = seat_event(ev, 1)
        if ev["type"] == "start_kyoku":
            assert all(set(h) == {HIDDEN} for i, h in enumerate(seen["tehais"]) if i != 1)
            assert seen["tehais"][1] == ev["tehais"][1]
        if ev["type"] == "tsumo":
            assert (seen["pai"] == HIDDEN) == (ev["actor"] != 1)


def test_bad_answers_are_refused():
    offered = [{"type": "dahai", "actor": 0, "pai": "5m"}, {"type": "none"}]
    assert match_answer({"type": "pass"}, offered) == 1
    assert match_answer({"index": 0}, offered) == 0
    for bad in ({"type": "dahai", "actor": 0, "pai": "6m"}, {"index": 5}, ["dahai"], {"type": "hora"}):
        with pytest.raises(JsonlProtocolError):
            match_answer(bad, offered)


def test_majiang_bot_jsonl_answers_with_an_offered_action():
    m = _match("wenzhou", 5)
    lines = [json.dumps(seat_event(ev, 0)) for ev in m.events]
    s = m.pending_seats()[0]
    assert s == 0
    req, offered = request_json(m, s, m.legal_actions(s))
    text = "\n".join(lines + [json.dumps(req), json.dumps({"type": "end_game", "scores": [0, 0, 0, 0]})]) + "\n"
    out = subprocess.run([sys.executable, "-m", "majiang.cli", "bot", "--protocol", "jsonl", "--rules", "wenzhou"],
                         input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    (answer,) = [json.loads(x) for x in out.stdout.splitlines()]
    assert answer in offered


def test_majiang_bot_jsonl_bad_input():
    out = subprocess.run([sys.executable, "-m", "majiang.cli", "bot", "--protocol", "jsonl"],
                         input='{"type":"request","possible_actions":[]}\n', capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and out.stdout == "" and "possible_actions" in out.stderr
    out = subprocess.run([sys.executable, "-m", "majiang.cli", "bot", "--protocol", "jsonl"],
                         input='{}\n', capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == "" and "'type'" in out.stderr


def test_run_bot_refuses_an_offered_action_it_cannot_read():
    """A request whose possible action names no decision or no tile is a protocol error naming the
    line, not a crash (brief: bad input gets a clear error)."""
    import io

    from majiang.players import make_bot
    from majiang.engine import resolve
    from majiang.protocols.jsonl import run_bot

    m = _match("wenzhou", 5)
    req, offered = request_json(m, 0, m.legal_actions(0))
    for bad in ({"type": "dahai", "actor": 0, "pai": "9x"}, {"type": "fly", "actor": 0}, {"type": "chi", "actor": 0, "pai": "3m"}):
        text = json.dumps(dict(req, possible_actions=offered + [bad])) + "\n"
        with pytest.raises(JsonlProtocolError, match="line 1"):
            run_bot(make_bot("efficiency", resolve("wenzhou")), resolve("wenzhou"), io.StringIO(text), io.StringIO())
