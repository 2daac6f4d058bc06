"""Records: JSON lines, replay, tampering detected; the Botzone sample replays through the engine."""

from __future__ import annotations

import json

import pytest

from majiang.engine import IllegalActionError, Match, RuleSet, run_match
from majiang.players import RandomBot
from majiang.records.botzone import BotzoneLogError, parse_log, sample_path
from majiang.records.botzone_replay import import_log, replay_round, round_wall
from majiang.records.jsonl import RecordError, read_record, record_lines, replay, write_record


def _match(seed: int = 1, hands: int = 2) -> Match:
    m = Match("mcr", seed=seed, max_hands=hands)
    return run_match(m, [RandomBot(seed + p) for p in range(4)])


def test_record_shape_and_mjai_names(tmp_path):
    m = _match()
    p = write_record(m, tmp_path / "g.jsonl")
    lines = p.read_text(encoding="utf-8").splitlines()
    h, events = read_record(lines)
    assert h["type"] == "header" and h["rules"]["name"] == "mcr" and h["seed"] == 1 and len(h["walls"]) == 2
    types = [e["type"] for e in events]
    assert types[0] == "start_game" and types[-1] == "end_game"
    assert {"start_kyoku", "tsumo", "dahai", "end_kyoku"} <= set(types)
    assert set(types) <= {"start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "ankan",
                          "kakan", "hora", "ryukyoku", "end_kyoku", "end_game", "flower", "wild"}
    assert record_lines(replay(lines)) == lines


def test_tampered_record_is_caught():
    m = _match(3)
    lines = record_lines(m)
    i = next(i for i, line in enumerate(lines) if '"type":"dahai"' in line)
    ev = json.loads(lines[i])
    ev["pai"] = "1m" if ev["pai"] != "1m" else "2m"  # a tile the hand may not hold, or a different event
    bad = lines[:i] + [json.dumps(ev, separators=(",", ":"), ensure_ascii=False)] + lines[i + 1:]
    with pytest.raises((RecordError, IllegalActionError)):
        replay(bad)
    # a changed score is caught too
    j = next(i for i, line in enumerate(lines) if '"type":"end_kyoku"' in line)
    ev = json.loads(lines[j])
    ev["scores"][0] += 1
    bad = lines[:j] + [json.dumps(ev, separators=(",", ":"), ensure_ascii=False)] + lines[j + 1:]
    with pytest.raises(RecordError):
        replay(bad)
    with pytest.raises(RecordError):
        replay(lines[:-1])  # truncated
    with pytest.raises(RecordError):
        read_record(["{}"])


def test_a_truncated_record_says_it_ends_early():
    """Cut anywhere, a record is refused with a message saying it ends before the match is over
    (never an odd 'the record has {}'), and the line where it ends."""
    lines = record_lines(_match(5))
    for n in range(2, len(lines) - 1, 7):
        with pytest.raises(RecordError, match="ends") as e:
            replay(lines[:n])
        assert "{}" not in str(e.value)


def test_unknown_rule_option_in_header_is_refused():
    lines = record_lines(_match(4, 1))
    h = json.loads(lines[0])
    h["rules"]["no_such_option"] = True
    with pytest.raises(Exception, match="unknown rule option"):
        replay([json.dumps(h)] + lines[1:])


# ------------------------------------------------------------------------------ Botzone
def test_botzone_sample_replays_legally():
    reports = import_log(sample_path())
    assert len(reports) == 16
    wins = [r for r in reports if r.winner is not None]
    assert len(wins) == 14 and sum(1 for r in reports if r.winner is None) == 2
    for r in reports:
        assert r.score_matches, (r.match_id, r.deltas, r.logged_score)  # §9.6 settlement reproduces Score
        assert r.table.tile_census() == list(r.table.rules.tile_set)


def test_botzone_winds_and_self_drawn_tile_trap():
    rounds = parse_log(sample_path().read_text(encoding="utf-8"))
    for rnd in rounds:
        rep = replay_round(rnd)
        if rep.winner is None:
            continue
        w = rep.table.result.wins[0]
        assert w.ctx.seat_wind == 27 + rep.winner  # seat wind = player index
        assert w.ctx.prevalent_wind == 27 + rnd.wind  # prevalent = the Wind value
        hu = [a for a in rnd.actions if a.verb == "Hu"][-1]
        if rep.self_drawn:
            draw = [a for a in rnd.actions if a.verb == "Draw"][-1]
            assert draw.seat == rep.winner and w.tile == draw.tile  # not the tile written after Hu
        else:
            assert w.tile == hu.tile


def test_botzone_wall_is_a_permutation():
    for rnd in parse_log(sample_path().read_text(encoding="utf-8")):
        wall, reserve = round_wall(rnd)
        assert sorted(wall) == list(RuleSet.preset("mcr", flowers=False).tile_set)
        assert reserve == 0 or rnd.drawn


def test_botzone_illegal_action_is_refused():
    text = sample_path().read_text(encoding="utf-8")
    rnd = parse_log(text)[0]
    # make player 3 claim a chow from player 1 (not his left neighbour)
    for a in rnd.actions:
        if a.verb == "Play" and a.seat == 1:
            idx = rnd.actions.index(a)
            break
    from majiang.records.botzone import Action as LogAction

    t = rnd.actions[idx].tile
    rnd.actions.insert(idx + 1, LogAction(3, "Peng", t, 0))
    with pytest.raises((IllegalActionError, BotzoneLogError)):
        replay_round(rnd)


def test_botzone_last_of_kind_context():
    """和绝张 rounds: the table's context says the winner sees the other three copies."""
    n = 0
    for rnd in parse_log(sample_path().read_text(encoding="utf-8")):
        if any(name == "和绝张" for name, _ in rnd.fans):
            rep = replay_round(rnd)
            assert rep.table.result.wins[0].ctx.win_tile_seen >= 3
            n += 1
    assert n == 2
