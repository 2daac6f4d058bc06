"""Datasets from games (issue 28): ``majiang dataset`` and :mod:`majiang.rl.dataset`.

Checked against independent facts: the Botzone log's own action lines (one non-pass sample per
recorded action), and replaying each game's samples through the engine reproduces the game's record
(its digest); every shard any test makes has every sample's action inside its mask."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from majiang.cli import main
from majiang.engine import PASS, Match, RuleSet
from majiang.engine.table import HandTable
from majiang.records.botzone import read_log, sample_path
from majiang.records.botzone_replay import LoggedScorer, round_wall
from majiang.records.jsonl import dumps, read_record, record_lines, write_record
from majiang.rl import dataset as D
from majiang.rl.actions import legal_indices
from majiang.tiles import EAST

MADE: list[Path] = []  # every dataset folder the tests build, for the mask check at the end


def _build(tmp_path: Path, name: str, source: str, **kw) -> tuple[Path, dict]:
    out = tmp_path / name
    m = D.build(source, out, **kw)
    MADE.append(out)
    return out, m


def _check_masks(folder: Path) -> int:
    data = D.load(folder, ["action_mask", "action"])
    n = len(data["action"])
    assert (data["action_mask"][np.arange(n), data["action"].astype(np.int64)] == 1).all()
    return n


def _by_game(data: dict) -> dict[str, dict]:
    out = {}
    for g in dict.fromkeys(data["game_id"].tolist()):
        sel = data["game_id"] == g
        out[g] = {k: v[sel] for k, v in data.items()}
        assert (out[g]["step"] == np.arange(sel.sum())).all()
    return out


def _replay(table, samples: dict, white_face=lambda t: t.white_face) -> None:
    """Drive ``table`` (a Match or HandTable) by the samples' actions, passing where no sample is due."""
    k = 0
    n = len(samples["action"])
    while not table.finished:
        s = table.pending_seats()[0]
        legal = table.legal_actions(s)
        t = table.table if isinstance(table, Match) else table
        if k < n and int(samples["seat"][k]) == s:
            by_index = legal_indices(legal, white_face=white_face(t))
            mask = np.zeros(len(samples["action_mask"][k]), dtype=np.int8)
            mask[list(by_index)] = 1
            assert (mask == samples["action_mask"][k]).all()
            table.apply(s, by_index[int(samples["action"][k])])
            k += 1
        else:
            assert legal == [PASS], f"seat {s} had a choice but no sample is due"
            table.apply(s, PASS)
    assert k == n


def test_botzone_sample_one_sample_per_decision_and_replays(tmp_path: Path) -> None:
    out, m = _build(tmp_path, "bz", "botzone")
    rounds = read_log(sample_path())
    assert m["games"] == len(rounds) == 16
    assert m["rules_name"] == "mcr" and m["shape"] == [111, 34] and m["encoder_version"] == 1
    data = D.load(out)
    games = _by_game(data)
    assert list(games) == [r.match for r in rounds]
    for rnd in rounds:
        g = games[rnd.match]
        # the log's decisions: every action line but draws, and each lost claim it names
        logged = [a for a in rnd.actions if a.verb != "Draw"]
        claims = sum(len(a.ignored) for a in logged)
        assert int((g["action"] != 0).sum()) == len(logged) + claims
        passes = g["action"] == 0
        assert (g["action_mask"][passes].sum(axis=1) >= 2).all()  # a pass is a sample only when chosen
        # replaying the samples reproduces the round: the same events as the log's own replay
        wall, reserve = round_wall(rnd)
        rs = RuleSet.preset("mcr", flowers=False, seat_draw=False).with_options(reserve=reserve)
        t = HandTable(rs, wall, dealer=0, prevalent_wind=EAST + rnd.wind, dice=(1, 1),
                      scorer=LoggedScorer(rnd.fan_total) if rnd.fan_total is not None else None)
        _replay(t, g)
        text = "".join(dumps(e) + "\n" for e in t.events)
        assert hashlib.sha256(text.encode()).hexdigest() == m["digests"][rnd.match]
        assert (g["score_change"] == np.asarray(t.result.deltas)[g["seat"]]).all()
        if rnd.scores is not None:
            assert list(t.result.deltas) == rnd.scores
    assert m["sources"][0]["sha256"] == hashlib.sha256(sample_path().read_bytes()).hexdigest()


def test_records_replay_to_the_same_digest(tmp_path: Path) -> None:
    from majiang.players.simulate import simulate

    simulate("mcr", 2, 7, ["random", "efficiency", "random", "efficiency"], tmp_path / "rec", max_hands=2)
    files = sorted((tmp_path / "rec").glob("*.jsonl"))
    out, m = _build(tmp_path, "ds", "records", inputs=[tmp_path / "rec"])
    assert m["games"] == 2 and [s["path"] for s in m["sources"]] == [str(f) for f in files]
    games = _by_game(D.load(out))
    for f in files:
        text = f.read_text(encoding="utf-8")
        h, _ = read_record(text.splitlines())
        mt = Match(RuleSet.from_options(h["rules"]), seed=h["seed"], max_hands=h["max_hands"], names=h["names"])
        _replay(mt, games[f.stem])
        again = "\n".join(record_lines(mt)) + "\n"
        assert again == text
        assert hashlib.sha256(text.encode()).hexdigest() == m["digests"][f.stem]


def test_selfplay_matches_majiang_selfplay_records(tmp_path: Path) -> None:
    from majiang.selfplay import play_game

    bots = ["efficiency", "random", "efficiency", "random"]
    out, m = _build(tmp_path, "sp", "selfplay", bots=bots, games=3, seed=11, max_hands=1, chunk_size=2)
    assert m["games"] == 3 and len(m["shards"]) == 2
    for g in range(3):
        rec = play_game("mcr", 11, bots, g, 1).record  # the `majiang selfplay` game of the same number
        assert hashlib.sha256(rec.encode()).hexdigest() == m["digests"][f"selfplay-11-{g}"]
    games = _by_game(D.load(out))
    g0 = games["selfplay-11-0"]
    h, _ = read_record(play_game("mcr", 11, bots, 0, 1).record.splitlines())
    mt = Match(RuleSet.from_options(h["rules"]), seed=h["seed"], max_hands=1, names=h["names"])
    _replay(mt, g0)
    assert (g0["score_change"] == np.asarray(mt.results[0].deltas, dtype=np.float32)[g0["seat"]]).all()
    # two worker processes write the same samples
    out2, m2 = _build(tmp_path, "sp2", "selfplay", bots=bots, games=3, seed=11, max_hands=1, chunk_size=2, workers=2)
    assert [s["sha256"] for s in m2["shards"]] == [s["sha256"] for s in m["shards"]]


def test_loader_batches_cover_every_sample_once(tmp_path: Path) -> None:
    out, m = _build(tmp_path, "bz", "botzone", shard_size=300)
    assert len(m["shards"]) == -(-m["samples"] // 300)
    full = D.load(out, ["game_id", "step", "action"])
    b = D.Batches(out, 64, fields=["game_id", "step", "action"], seed=3)
    assert len(b) == -(-m["samples"] // 64)
    got = list(b)
    assert sum(len(x["action"]) for x in got) == m["samples"]
    assert all(len(x["action"]) == 64 for x in got[:-1])
    keys = sorted(zip(np.concatenate([x["game_id"] for x in got]).tolist(),
                      np.concatenate([x["step"] for x in got]).tolist()))
    assert keys == sorted(zip(full["game_id"].tolist(), full["step"].tolist()))
    again = list(D.Batches(out, 64, fields=["action"], seed=3))
    assert all((x["action"] == y["action"]).all() for x, y in zip(again, got))
    ordered = list(D.iter_batches(out, 100, fields=["step"], shuffle=False, drop_last=True))
    assert len(ordered) == m["samples"] // 100
    assert (np.concatenate([x["step"] for x in ordered]) == full["step"][:len(ordered) * 100]).all()


def test_errors_name_the_bad_thing(tmp_path: Path) -> None:
    with pytest.raises(D.DatasetError, match="--from"):
        D.build("nowhere", tmp_path / "x")
    with pytest.raises(D.DatasetError, match="no such record"):
        D.build("records", tmp_path / "y", inputs=[tmp_path / "missing.jsonl"])
    with pytest.raises(D.DatasetError, match="not a dataset"):
        D.load(tmp_path)
    out, _ = _build(tmp_path, "bz", "botzone")
    with pytest.raises(D.DatasetError, match="already holds"):
        D.build("botzone", out)
    with pytest.raises(D.DatasetError, match="unknown field"):
        D.load(out, ["observation", "nope"])


def test_cli_dataset(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["dataset", "--from", "botzone", "--obs", "botzone-v0", "--out",
                                  str(tmp_path / "cli"), "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.output)
    MADE.append(tmp_path / "cli")
    assert m["observation"] == "botzone-v0" and m["samples"] == D.read_manifest(tmp_path / "cli")["samples"]
    assert D.load(tmp_path / "cli", ["observation"])["observation"].shape[1:] == tuple(m["shape"])
    r = CliRunner().invoke(main, ["dataset", "--from", "botzone", "--out", str(tmp_path / "cli")])
    assert r.exit_code == 2 and "already holds" in r.output
    rec = tmp_path / "one.jsonl"
    mt = Match(RuleSet.preset("mcr"), seed=1, max_hands=1)
    from majiang.engine import run_match
    from majiang.players import make_bot

    run_match(mt, [make_bot("random", mt.rules, p) for p in range(4)])
    write_record(mt, rec)
    r = CliRunner().invoke(main, ["dataset", "--from", "records", "--out", str(tmp_path / "rec"), str(rec)])
    assert r.exit_code == 0, r.output
    MADE.append(tmp_path / "rec")


def test_selfplay_on_ray_writes_the_same_shards(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    kw = dict(bots=["random"], games=2, seed=5, max_hands=1)
    _, a = _build(tmp_path, "proc", "selfplay", **kw)
    _, b = _build(tmp_path, "ray", "selfplay", executor="ray", **kw)
    assert [s["sha256"] for s in a["shards"]] == [s["sha256"] for s in b["shards"]]
    assert a["digests"] == b["digests"] and a["samples"] == b["samples"] > 0


def test_zz_every_made_shard_has_its_actions_in_its_masks() -> None:
    # runs last in this file (pytest keeps file order): every dataset the tests above made
    if not MADE:
        pytest.skip("no dataset made: run with the tests above")
    for folder in MADE:
        if folder.exists():
            assert _check_masks(folder) > 0
