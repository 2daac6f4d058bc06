"""The Botzone sample (real games) and the command line."""

import json

from click.testing import CliRunner

from majiang.analysis import MCR_SHAPES, is_winning
from majiang.cli import main
from majiang.records.botzone import parse_log, read_log, replay_hands, sample_path

import pytest
from majiang.records.botzone import BotzoneLogError


def test_sample_has_14_wins_all_winning():
    rounds = read_log(sample_path())
    assert len(rounds) == 16
    wins = [replay_hands(r) for r in rounds]
    assert sum(w is not None for w in wins) == 14
    assert sum(r.drawn for r in rounds) == 2
    for r, w in zip(rounds, wins):
        if w is None:
            continue
        w.hand.check(sets=4)
        assert is_winning(w.hand.full_counts(), 0, MCR_SHAPES), r.match
        assert w.prevalent_wind == r.wind and w.seat_wind == w.seat


def test_self_drawn_winning_tile_is_the_drawn_tile():
    # README trap: the tile after Hu on a self-draw is not the drawn tile
    rounds = read_log(sample_path())
    r = next(r for r in rounds if r.match == "61602cb45ddc087351c04362")
    w = replay_hands(r)
    hu = r.actions[-1]
    draw = r.actions[-2]
    assert w.self_drawn and draw.verb == "Draw" and w.hand.win_tile == draw.tile
    assert hu.verb == "Hu"


def test_bad_log_names_the_line():
    with pytest.raises(BotzoneLogError, match="line 3"):
        parse_log("Match x\nWind 0\nPlayer 0 Dance W1\n") and replay_hands(parse_log(
            "Match x\nWind 0\nPlayer 0 Dance W1\n")[0])
    with pytest.raises(BotzoneLogError, match="line 2"):
        parse_log("Match x\nWind 9\n")


def test_cli_botzone_default_sample():
    res = CliRunner().invoke(main, ["botzone", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["summary"] == {**data["summary"], "rounds": 16, "wins": 14, "verified": 14, "scored": 14,
                               "drawn": 2, "failures": 0}
    plain = CliRunner().invoke(main, ["botzone"])
    assert ("16 rounds: 14 wins, 14 verified winning hands, 14 with the recorded fans and scores, 2 drawn, "
            "0 failures") in plain.output


def test_cli_analyze_json():
    r = CliRunner().invoke(main, ["analyze", "23344445m888p33z", "--json"])
    data = json.loads(r.output)
    assert data["waits"] == ["1m", "3z"] and data["shanten"] == 0 and data["exhausted_waits"] == ["4m"]
    r = CliRunner().invoke(main, ["analyze", "345m22344p12388s6p", "--wild", "6p", "--json"])
    data = json.loads(r.output)
    assert data["winning"] is True and data["wildcards"] == 1
    assert any(g["wild_as"] == "3p" for d in data["decompositions"] for g in d["groups"])
    r = CliRunner().invoke(main, ["analyze", "123m456p789s11z459m", "--json"])
    data = json.loads(r.output)
    assert data["winning"] is False and data["shanten"] == 0
    assert data["advice"][0]["discard"] in ("4m", "5m", "9m") and data["advice"][0]["shanten"] == 0


def test_cli_analyze_white_stand_in():
    # 5z (White) plays as 3p, the wildcard face; copies of 3p are wildcards
    r = CliRunner().invoke(main, ["analyze", "12p5z456m789s11z", "--wild", "3p", "--white-stands-in", "--json"])
    data = json.loads(r.output)
    assert data["tiles"] == 11 and data["winning"] is True and data["wildcards"] == 0


def test_cli_errors_are_clear():
    r = CliRunner().invoke(main, ["analyze", "12x3m"])
    assert r.exit_code == 2 and "position 2" in r.output
    r = CliRunner().invoke(main, ["analyze", "11111m"])
    assert r.exit_code == 2


def test_cli_testhu():
    r = CliRunner().invoke(main, ["testhu", "0x00 0x01 0x02 0x03 0x30", "--baida", "0x40"])
    assert r.output.strip() == "true"
    r = CliRunner().invoke(main, ["testhu", "0x01 0x02 0x03 0x04 0x05", "--baida", "0x50"])
    assert r.output.strip() == "false"


def test_cli_simulate_and_replay(tmp_path):
    r = CliRunner().invoke(main, ["simulate", "--games", "2", "--seed", "5", "--max-hands", "4", "--records",
                                  str(tmp_path / "a"), "--json"])
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["games"] == 2 and stats["hands"] == 8 and len(stats["win_rate_by_seat"]) == 4
    assert abs(sum(stats["average_score_by_player"])) < 1e-9  # zero-sum
    r2 = CliRunner().invoke(main, ["simulate", "--games", "2", "--seed", "5", "--max-hands", "4", "--records",
                                   str(tmp_path / "b"), "--json"])
    assert r2.exit_code == 0, r2.output
    for name in ("game-0000.jsonl", "game-0001.jsonl"):  # same seed, same records, byte for byte
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    rep = CliRunner().invoke(main, ["replay", str(tmp_path / "a" / "game-0001.jsonl"), "--json"])
    assert rep.exit_code == 0, rep.output
    assert json.loads(rep.output)["identical"] is True
    bad = CliRunner().invoke(main, ["simulate", "--rules", "nope", "--games", "1"])
    assert bad.exit_code == 2 and "unknown rule set" in bad.output


def test_score_keeps_the_flowers_of_the_hand_string():
    # gb_mahjong_cases.json notation: "|2" after the flags = two flowers, each 1 fan once the minimum is met
    r = CliRunner().invoke(main, ["score", "[123m,1][345m,1]678p56sWW7s|EE0000|2", "--json"])
    with_flowers = json.loads(r.output)
    r = CliRunner().invoke(main, ["score", "[123m,1][345m,1]678p56sWW7s|EE0000", "--json"])
    without = json.loads(r.output)
    assert with_flowers["total"] == without["total"] + 2
    assert with_flowers["deltas"] == [34, -8, -8, -18]  # RULES.md §9.6: discarder 8 + 10, others 8


def test_analyze_a_wildcard_face_is_a_wildcard_draw():
    r = CliRunner().invoke(main, ["analyze", "123m456p789s1177z", "--wild", "7z", "--json"])
    data = json.loads(r.output)
    assert "7z" not in data["waits"] and data["wins_on_wildcard"] is True
    assert all(u["tile"] != "7z" for u in data["useful"])
    r = CliRunner().invoke(main, ["analyze", "123m456p789s11z66p", "--wild", "6p", "--json"])
    data = json.loads(r.output)
    assert data["wildcards"] == 3 and "6p" not in data["waits"]  # 456p + 66p: three copies of the face
