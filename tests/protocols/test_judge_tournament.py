"""The local judge's faults, tournaments (both protocols), records that read back (issue 14)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from majiang.cli import main
from majiang.engine.ruleset import RuleSet
from majiang.players import make_bot
from majiang.protocols.judge import BotzoneProcess, EnginePlayer, play_game, record_match, shuffled_wall
from majiang.records.botzone import parse_log, replay_hands
from majiang.records.jsonl import record_lines, replay
from majiang.tournament import run_tournament

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
PY = sys.executable


def _script(tmp_path, name, body):
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return f"{PY} {p}"


BAD_BOTS = {
    "crash": "import sys\nsys.exit(3)\n",
    "hang": "import time\ntime.sleep(30)\n",
    "garbage": "import sys\nsys.stdin.readline()\nprint('hello there')\n",
    # well-formed but illegal: a pung in its own turn (after passing the first two requests)
    "illegal": ("import json, sys\nfirst = json.loads(sys.stdin.readline())\n"
                "print(json.dumps({'response': 'PASS'}))\nprint('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"
                "for line in sys.stdin:\n"
                "    r = 'PENG W1' if line.startswith('2 ') else 'PASS'\n"
                "    print(json.dumps({'response': r}))\n"
                "    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"),
    # plays a tile it lacks: at its first draw, a tile neither dealt to it nor drawn
    "lacks": ("import json, sys\nfirst = json.loads(sys.stdin.readline())\n"
              "print(json.dumps({'response': 'PASS'}))\nprint('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"
              "codes = [s + str(n) for s in 'WBT' for n in range(1, 10)] + ['F1', 'F2', 'F3', 'F4', 'J1', 'J2', 'J3']\n"
              "held = []\n"
              "for line in sys.stdin:\n"
              "    r = line.split()\n"
              "    if r[0] == '1':\n"
              "        held = r[5:18]\n"
              "    ans = 'PASS'\n"
              "    if r[0] == '2':\n"
              "        ans = 'PLAY ' + next(c for c in codes if c not in held + [r[1]])\n"
              "    print(json.dumps({'response': ans}))\n"
              "    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"),
}


@pytest.mark.parametrize("kind", sorted(BAD_BOTS))
def test_a_faulty_bot_is_charged_and_the_game_goes_on(tmp_path, kind):
    rs = RuleSet.preset("mcr")
    bad = BotzoneProcess("bad", _script(tmp_path, f"{kind}.py", BAD_BOTS[kind]), time_limit=0.5)
    players = [EnginePlayer("e0", make_bot("efficiency", rs)), bad,
               EnginePlayer("e2", make_bot("efficiency", rs)), EnginePlayer("r3", make_bot("random", rs, 3))]
    r = play_game(players, shuffled_wall(random.Random(5)), 0)
    want = {"crash": "crash", "hang": "timeout", "garbage": "garbage", "illegal": "illegal", "lacks": "illegal"}[kind]
    assert [(f.seat, f.kind) for f in r.faults] == [(1, want)]
    assert sum(r.scores) == 0
    # the fault's charge, then the hand played out by the others (the bad seat auto-plays)
    clean = play_game([EnginePlayer("e0", make_bot("efficiency", rs)), EnginePlayer("x", _AutoLike()),
                       EnginePlayer("e2", make_bot("efficiency", rs)),
                       EnginePlayer("r3", make_bot("random", rs, 3))], shuffled_wall(random.Random(5)), 0)
    assert r.scores == [a + b for a, b in zip(clean.scores, [10, -30, 10, 10])]
    # the same play; the log adds the fault's line where it happened, and the Score line differs
    assert [x for x in r.log[2:-1] if " Fault " not in x] == clean.log[2:-1]
    (line,) = [x for x in r.log if " Fault " in x]
    f = r.faults[0]
    assert line == f"Player 1 Fault {want} {f.number} {f.answer or '-'}" and f.number >= 1
    assert f.request == {"crash": "0 1 0", "hang": "0 1 0", "garbage": "0 1 0"}.get(kind, f.request)
    if kind in ("illegal", "lacks"):  # at its first draw, after its deal: request 3 or later
        assert f.request.startswith("2 ") and f.number >= 3 and f.answer.startswith(("PENG", "PLAY"))
    # the record of the game carries the fault and the judge's final scores; it replays
    m = record_match(r.log_text, faults=r.faults)
    assert list(m.scores) == r.scores
    evs = [e for e in m.events if e["type"] == "fault"]
    assert [(e["actor"], e["kind"], e["request"], e["answer"]) for e in evs] == [(1, want, f.number, f.answer)]
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines


class _AutoLike:
    """Passes every claim and discards what it draws -- the judge's stand-in after a fault."""

    def choose(self, view, actions):
        from majiang.engine.actions import PASS, ActionKind

        if PASS in actions:
            return PASS
        return next((a for a in actions if a.kind is ActionKind.DISCARD and a.tile == view.last_draw),
                    next(a for a in actions if a.kind is ActionKind.DISCARD))


def test_end_mode_stops_at_the_first_fault(tmp_path):
    rs = RuleSet.preset("mcr")
    bad = BotzoneProcess("bad", _script(tmp_path, "crash.py", BAD_BOTS["crash"]), time_limit=0.5)
    r = play_game([bad] + [EnginePlayer(f"e{s}", make_bot("efficiency", rs)) for s in (1, 2, 3)],
                  shuffled_wall(random.Random(1)), 2, on_fault="end")
    assert r.scores == [-30, 10, 10, 10]
    assert r.log[-1] == "Score -30 10 10 10"


FIELDS = ["name", "games", "score", "mean", "ci95", "rank_points", "wins", "deal_ins", "illegal", "timeouts",
          "ms_per_decision"]


def test_duplicate_tournament_of_builtins_json(tmp_path):
    res = CliRunner().invoke(main, ["tournament", "--bot", "efficiency", "--bot", "random", "--bot", "eff2=eff",
                                    "--bot", "random", "--walls", "1", "--seed", "3", "--records", str(tmp_path),
                                    "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["games"] == 24
    assert [b["name"] for b in out["bots"]] == ["efficiency", "random", "eff2", "random#2"]
    for b in out["bots"]:
        assert all(k in b for k in FIELDS)
        assert b["games"] == 24
        assert b["ci95"][0] <= b["mean"] <= b["ci95"][1]
    assert sum(b["score"] for b in out["bots"]) == 0
    assert sum(b["rank_points"] for b in out["bots"]) == 24 * 10
    assert sum(b["wins"] for b in out["bots"]) >= sum(b["deal_ins"] for b in out["bots"])
    # every game's Botzone log reads back through `majiang botzone`, every record through `majiang replay`
    logs = sorted(tmp_path.glob("*.botzone.txt"))
    assert len(logs) == 24
    check = CliRunner().invoke(main, ["botzone", str(logs[0]), "--json"])
    assert check.exit_code == 0, check.output
    both = tmp_path / "all.txt"
    both.write_text("".join(p.read_text(encoding="utf-8") for p in logs), encoding="utf-8")
    summary = json.loads(CliRunner().invoke(main, ["botzone", str(both), "--json"]).output)["summary"]
    assert summary["rounds"] == 24 and summary["failures"] == 0
    for p in sorted(tmp_path.glob("*.jsonl"))[:6]:
        rep = CliRunner().invoke(main, ["replay", str(p), "--json"])
        assert rep.exit_code == 0 and json.loads(rep.output)["identical"], rep.output


def test_duplicate_needs_four_bots():
    res = CliRunner().invoke(main, ["tournament", "--bot", "efficiency", "--bot", "random", "--walls", "1"])
    assert res.exit_code != 0 and "exactly four bots" in res.output


def test_external_bots_both_protocols():
    bz = f"{PY} {EXAMPLES / 'botzone_random.py'}"
    res = run_tournament("botzone", ["efficiency", "random", f"ext={bz}", f"ext2={bz}"], walls=1, seed=1,
                         fmt="random", time_limit=5.0)
    assert res["games"] == 1 and sum(b["score"] for b in res["bots"]) == 0
    assert all(b["illegal"] == b["timeouts"] == b["crashes"] == 0 for b in res["bots"])
    jl = f"{PY} {EXAMPLES / 'jsonl_random.py'}"
    for rules in ("wenzhou", "taiwan"):
        res = run_tournament("jsonl", ["efficiency", "random", f"j={jl}", f"j2={jl}"], walls=2, seed=2,
                             fmt="random", rules=rules, time_limit=5.0)
        assert res["games"] == 2
        assert sum(b["score"] for b in res["bots"]) == 0
        assert all(b["illegal"] == b["timeouts"] == b["crashes"] == 0 for b in res["bots"]), res


def test_random_games_zero_sum_and_records_replay():
    """Property run (small in CI; benchmarks/bench_bot.py --games 1000 for the full count)."""
    rs = RuleSet.preset("mcr")
    for g in range(30):
        players = [EnginePlayer(f"r{s}", make_bot("random", rs, 100 * g + s)) for s in range(4)]
        r = play_game(players, shuffled_wall(random.Random(g)), g % 4, match_id=f"p{g}")
        assert sum(r.scores) == 0 and not r.faults
        (rnd,) = parse_log(r.log_text)
        replay_hands(rnd)
        m = record_match(r.log_text)
        lines = record_lines(m)
        assert record_lines(replay(lines)) == lines


def test_subprocess_bots_both_protocols_property_run(tmp_path):
    """Random external-style bots as subprocesses through both protocols: every game ends, zero-sum,
    every record replays. A small run in CI (the full 1,000 games: benchmarks/bench_bot.py --property 1000)."""
    from majiang.records.jsonl import replay_file

    bz = f"{PY} {EXAMPLES / 'botzone_random.py'}"
    jl = f"{PY} {EXAMPLES / 'jsonl_random.py'}"
    runs = [("botzone", "mcr", bz, 8), ("jsonl", "wenzhou", jl, 4), ("jsonl", "taiwan", jl, 4), ("jsonl", "mcr", jl, 4)]
    total = 0
    for protocol, rules, cmd, walls in runs:
        d = tmp_path / f"{protocol}-{rules}"
        res = run_tournament(protocol, [f"a={cmd}", f"b={cmd}", "random", f"c={cmd}"], walls=walls, seed=11,
                             fmt="random", rules=rules, records=d, time_limit=10.0)
        assert res["games"] == walls and sum(b["score"] for b in res["bots"]) == 0
        assert not any(b["illegal"] or b["timeouts"] or b["crashes"] for b in res["bots"]), res
        recs = sorted(d.glob("*.jsonl"))
        assert len(recs) == walls
        for p in recs:
            replay_file(p)
        total += walls
    assert total == 20


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.sampled_from(["duplicate", "classic"]))
def test_judge_games_are_zero_sum_and_logs_round_trip(seed, quan, mode):
    """Any wall, any wind, both wall formats: the game ends, scores sum to zero, every tile is
    accounted for in the log, and a duplicate-format log rebuilds through the reader and the engine."""
    rs = RuleSet.preset("mcr")
    players = [EnginePlayer(f"p{s}", make_bot("efficiency" if s % 2 else "random", rs, seed + s)) for s in range(4)]
    r = play_game(players, shuffled_wall(random.Random(seed), mode), quan, mode=mode)
    assert sum(r.scores) == 0 and not r.faults
    deals = [ln for ln in r.log if " Deal " in ln]
    assert len(deals) == 4 and all(len(ln.split()) == 3 + 13 for ln in deals)
    if mode == "duplicate":
        (rnd,) = parse_log(r.log_text)
        replay_hands(rnd)
        m = record_match(r.log_text)
        res = m.results[0]
        if r.winner is None:
            assert res.drawn and list(m.scores) == r.scores == [0, 0, 0, 0]
        else:  # the same winner and discarder (the record's values are the engine's, see record_match)
            assert (res.wins[0].winner, res.wins[0].discarder) == (r.winner, r.discarder)
        lines = record_lines(m)
        assert record_lines(replay(lines)) == lines


def test_last_tile_wins_read_back_through_the_checker(tmp_path):
    """A 海底捞月 win under the duplicate rule (the next seat's quarter empty) is rescored the same by
    `majiang botzone`, which counts each seat's 21 draws."""
    run_tournament("botzone", ["efficiency", "random", "eff", "random"], walls=1, seed=0, records=tmp_path)
    last = [p for p in sorted(tmp_path.glob("*.botzone.txt"))
            if any(ln.startswith("Fan") and ("海底捞月" in ln or "妙手回春" in ln) for ln in p.read_text("utf-8").splitlines())]
    assert last, "seed 0 has 海底捞月 wins (found when this test was written)"
    for p in last:
        (rnd,) = parse_log(p.read_text("utf-8"))
        assert replay_hands(rnd).last_wall_tile
        res = CliRunner().invoke(main, ["botzone", str(p), "--json"])
        assert res.exit_code == 0 and json.loads(res.output)["summary"]["scored"] == 1, res.output


class _Scripted:
    """Answers from a table {request: answer}; otherwise discards what it draws, or passes."""

    time_limit = None

    def __init__(self, name, script):
        self.name, self.script = name, script

    def start(self, seat):
        pass

    def close(self):
        pass

    def ask(self, req):
        if req in self.script:
            return self.script[req]
        return "PLAY " + req.split()[1] if req.startswith("2 ") else "PASS"


def test_robbing_an_added_kong_is_paid_by_the_konger(tmp_path):
    """Seat 1 pungs W5, draws the fourth and adds it; seat 2, waiting on W5, robs the kong (抢杠和):
    winner 24+fan, the konger 8+fan, the others 8 (Botzone wiki scoring)."""
    from majiang.protocols.botzone import parse_tile

    def tiles(text):
        return [parse_tile(x) for x in text.split()]

    deals = [tiles("W5 W1 W1 W1 W9 W9 W9 B9 B9 B9 F2 F2 F3"),
             tiles("W5 W5 F1 J1 J1 J1 J2 J2 J2 B7 B7 B7 F4"),
             tiles("W3 W4 B1 B2 B3 B4 B5 B6 T1 T2 T3 T7 T7"),
             tiles("T4 T4 T4 T5 T5 T5 T6 T6 T6 T8 T8 T8 F3")]
    draws = [tiles("F4 F3"), tiles("W5"), tiles("F3"), tiles("F1")]
    used = [t for d in deals for t in d] + [t for d in draws for t in d]
    rest = [t for t in range(34) for _ in range(4 - used.count(t))]
    random.Random(0).shuffle(rest)
    wall = []
    for d, x in zip(deals, draws):
        q = d + x
        while len(q) < 34:
            q.append(rest.pop())
        wall += q
    players = [_Scripted("s0", {"2 F4": "PLAY W5"}), _Scripted("s1", {"3 0 PLAY W5": "PENG F1", "2 W5": "BUGANG W5"}),
               _Scripted("s2", {"3 1 BUGANG W5": "HU"}), _Scripted("s3", {})]
    r = play_game(players, wall, 0, on_fault="end")
    assert not r.faults, r.faults
    assert (r.winner, r.discarder, r.self_drawn) == (2, 1, False)
    assert ("抢杠和", 1) in r.fans
    f = r.fan
    assert r.scores == [-8, -(8 + f), 24 + f, -8]
    p = tmp_path / "rob.txt"
    p.write_text(r.log_text, encoding="utf-8")
    res = CliRunner().invoke(main, ["botzone", str(p), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["rounds"][0]["robbed_kong"], res.output
    lines = record_lines(record_match(r.log_text))
    assert record_lines(replay(lines)) == lines


def test_language_factor_reads_the_programs_interpreter(tmp_path):
    """Botzone's time factors (wiki *Bot*: Python 6, JavaScript 2, C/C++ 1) apply to a program by
    its interpreter: a console script such as ``majiang`` (a Python ``#!`` line) is Python."""
    import os
    import sys

    from majiang.protocols.procs import language_factor

    py = tmp_path / "mybot"
    py.write_text(f"#!{sys.executable}\nprint(1)\n")
    js = tmp_path / "jsbot"
    js.write_text("#!/usr/bin/env -S node --stack-size=65500\n")
    native = tmp_path / "cbot"
    native.write_bytes(b"\x7fELF\x02\x01\x01")
    for f in (py, js, native):
        os.chmod(f, 0o755)
    assert language_factor(f"{py} --protocol botzone") == 6.0
    assert language_factor(str(js)) == 2.0
    assert language_factor(str(native)) == 1.0
    assert language_factor("python3 bot.py") == 6.0 and language_factor("java -jar b.jar") == 3.0
    majiang = os.path.join(os.path.dirname(sys.executable), "majiang")
    if os.path.exists(majiang):  # the installed console script
        assert language_factor(f"{majiang} bot --protocol botzone") == 6.0
