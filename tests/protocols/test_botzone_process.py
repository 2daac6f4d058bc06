"""Botzone's process model under the local judge, faults on the record, time limits, stopping and
resuming tournaments (issue 27). Bots are tiny Python scripts written into tmp_path."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from majiang.cli import main
from majiang.engine.ruleset import RuleSet
from majiang.players import make_bot
from majiang.protocols import judge
from majiang.protocols.judge import BotzoneProcess, EnginePlayer, play_game, record_match, shuffled_wall
from majiang.records.jsonl import read_record, record_lines, replay, replay_file
from majiang.tournament import BotSpec, bot_limit, run_tournament

PY = sys.executable
SRC = str(Path(__file__).resolve().parents[2] / "src")

# The stand-in's play (pass, discard the drawn tile), from the whole input read to end-of-file.
EOF_BOT = """import json, sys
inp = json.loads(sys.stdin.read())
last = inp["requests"][-1].split()
print(json.dumps({"response": "PLAY " + last[1] if last[0] == "2" else "PASS"}))
"""

# Counts its turns in `data` (and its games in `globaldata`), and writes what it was given to a file.
DATA_BOT = """import json, sys
inp = json.loads(sys.stdin.read())
with open(sys.argv[1], "a") as f:
    f.write(json.dumps([len(inp["requests"]), inp["data"], inp["globaldata"]]) + "\\n")
n = int(inp["data"] or 0)
games = int(inp["globaldata"] or 0) + (1 if len(inp["requests"]) == 1 else 0)
last = inp["requests"][-1].split()
ans = "PLAY " + last[1] if last[0] == "2" else "PASS"
print(json.dumps({"response": ans, "data": str(n + 1), "globaldata": str(games)}))
"""

# One-shot for two turns (reads one line, answers, exits), then keeps running from turn 3 on.
SWITCH_BOT = """import json, os, sys
def answer(req):
    r = req.split()
    return "PLAY " + r[1] if r[0] == "2" else "PASS"
inp = json.loads(sys.stdin.readline())
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()} {len(inp['requests'])}\\n")
print(json.dumps({"response": answer(inp["requests"][-1])}), flush=True)
if len(inp["requests"]) >= 3:
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    for line in sys.stdin:
        print(json.dumps({"response": answer(line.strip())}))
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""

# Keep-running; answers PLAY J9 (not a tile) at its third draw; stands in otherwise.
J9_BOT = """import json, sys
draws = 0
def answer(req):
    global draws
    r = req.split()
    if r[0] != "2":
        return "PASS"
    draws += 1
    return "PLAY J9" if draws == 3 else "PLAY " + r[1]
inp = json.loads(sys.stdin.readline())
print(json.dumps({"response": answer(inp["requests"][-1])}))
print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
for line in sys.stdin:
    print(json.dumps({"response": answer(line.strip())}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""


def _write(tmp_path, name, body):
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


class _AutoLike:
    """Passes every claim and discards what it draws -- what the test bots above do."""

    def choose(self, view, actions):
        from majiang.engine.actions import PASS, ActionKind

        if PASS in actions:
            return PASS
        return next((a for a in actions if a.kind is ActionKind.DISCARD and a.tile == view.last_draw),
                    next(a for a in actions if a.kind is ActionKind.DISCARD))


def _others(rs):
    return [EnginePlayer("e0", make_bot("efficiency", rs)), EnginePlayer("e2", make_bot("efficiency", rs)),
            EnginePlayer("r3", make_bot("random", rs, 3))]


def _game(bot, seed=5):
    """Seat 1 = ``bot``; returns the result and the same game with the in-process stand-in at seat 1."""
    rs = RuleSet.preset("mcr")
    e0, e2, r3 = _others(rs)
    r = play_game([e0, bot, e2, r3], shuffled_wall(random.Random(seed)), 0)
    e0, e2, r3 = _others(rs)
    clean = play_game([e0, EnginePlayer("x", _AutoLike()), e2, r3], shuffled_wall(random.Random(seed)), 0)
    return r, clean


def test_a_one_shot_bot_reading_to_end_of_file_plays_a_whole_game(tmp_path):
    cmd = f"{PY} {_write(tmp_path, 'eof.py', EOF_BOT)}"
    bot = BotzoneProcess("eof", cmd, time_limit=3.0)
    r, clean = _game(bot)
    assert r.faults == [] and r.log == clean.log  # it played every request, as the stand-in would
    assert len(bot.pids) == len(bot.requests) == len(r.times[1])  # one process per request (one-shot)
    assert max(r.times[1]) < 3.0
    # learned: later processes get end-of-file right after their input, with no wait
    assert judge._NEEDS_EOF[cmd] is True


def test_data_comes_back_turn_by_turn_and_globaldata_across_games(tmp_path):
    seen = tmp_path / "seen.jsonl"
    cmd = f"{PY} {_write(tmp_path, 'data.py', DATA_BOT)} {seen}"
    judge._GLOBALDATA.pop("counter", None)
    for _ in range(2):
        bot = BotzoneProcess("counter", cmd, time_limit=3.0)
        r, clean = _game(bot)
        assert r.faults == [] and r.log == clean.log
    rows = [json.loads(x) for x in seen.read_text().splitlines()]
    first = [row for row in rows if row[0] == 1]
    assert len(first) == 2
    cut = rows.index(first[1])
    for game, part in enumerate((rows[:cut], rows[cut:])):
        # turn n carries the data saved at turn n-1: the counter grows 0 (none), 1, 2, ...
        assert [row[0] for row in part] == list(range(1, len(part) + 1))
        assert [row[1] for row in part] == [""] + [str(n) for n in range(1, len(part))]
        # globaldata: the games seen before, carried from the last game
        assert part[0][2] == ("" if game == 0 else "1")
        assert {row[2] for row in part[1:]} == {str(game + 1)}


def test_a_bot_switching_to_keep_running_at_turn_3_keeps_running(tmp_path):
    starts = tmp_path / "starts.txt"
    cmd = f"{PY} {_write(tmp_path, 'switch.py', SWITCH_BOT)} {starts}"
    bot = BotzoneProcess("switch", cmd, time_limit=3.0)
    r, clean = _game(bot)
    assert r.faults == [] and r.log == clean.log
    rows = [line.split() for line in starts.read_text().splitlines()]
    assert [int(n) for _, n in rows] == [1, 2, 3]  # started for turns 1, 2 and 3 only
    assert len(bot.pids) == 3 and len(bot.requests) > 40


def test_a_bad_answer_at_the_third_draw_is_on_the_log_and_the_record(tmp_path):
    cmd = f"{PY} {_write(tmp_path, 'j9.py', J9_BOT)}"
    d = tmp_path / "rec"
    res = run_tournament("botzone", [f"j9={cmd}", "efficiency", "eff", "random"], walls=1, seed=2, records=d,
                         time_limit=5.0)
    j9 = res["bots"][0]
    assert j9["name"] == "j9" and j9["illegal"] == 24 and j9["timeouts"] == j9["crashes"] == 0
    logs = sorted(d.glob("*.botzone.txt"))
    won_after = 0
    for log in logs:
        text = log.read_text("utf-8")
        (fault,) = [x for x in text.splitlines() if " Fault " in x]
        seat = int(fault.split()[1])
        game = int(log.name[5:10])
        summary = json.loads((d / f"game-{game:05d}.summary.json").read_text())
        assert summary["seating"][seat] == 0 and summary["faults"] == [[seat, "garbage"]]
        # the third of its draws: the request number is that of the seat's third "2 T"
        kind, number, answer = fault.split()[3], int(fault.split()[4]), " ".join(fault.split()[5:])
        assert (kind, answer) == ("garbage", "PLAY J9")
        assert text.index(fault) > [i for i in range(len(text)) if text.startswith(f"Player {seat} Draw", i)][2]
        # the record: a fault event, the tournament's final scores, and it replays
        rec = d / f"game-{game:05d}.jsonl"
        _, events = read_record(rec.read_text("utf-8").splitlines())
        (ev,) = [e for e in events if e["type"] == "fault"]
        assert (ev["actor"], ev["kind"], ev["request"], ev["answer"]) == (seat, "garbage", number, "PLAY J9")
        assert ev["reason"] and ev["deltas"] == [-30 if s == seat else 10 for s in range(4)]
        assert events[-1] == {"type": "end_game", "scores": summary["scores"]}
        rep = CliRunner().invoke(main, ["replay", str(rec), "--json"])
        out = json.loads(rep.output)
        assert rep.exit_code == 0 and out["identical"] and out["scores"] == summary["scores"], rep.output
        won_after += "\nFan " in text[text.index(fault):]
    assert won_after >= 1, "seed 2 has a win after the fault (found when this test was written)"
    both = tmp_path / "all.txt"
    both.write_text("".join(p.read_text("utf-8") for p in logs), encoding="utf-8")
    check = CliRunner().invoke(main, ["botzone", str(both), "--json"])
    assert check.exit_code == 0, check.output
    summary = json.loads(check.output)["summary"]
    assert summary["rounds"] == 24 and summary["failures"] == 0 and summary["scored"] == summary["wins"] >= 1


def test_wrapped_python_bots_get_the_python_limit_and_bot_time_overrides(tmp_path):
    d = tmp_path / "bot"
    d.mkdir()
    _write(d, "main.py", "print(1)\n")
    run = _write(d, "run.sh", '#!/bin/sh\ncd "$(dirname "$0")"\nexec python3 main.py\n')
    run.chmod(0o755)
    native = _write(d, "cbot", "")
    native.write_bytes(b"\x7fELF\x02\x01\x01")
    native.chmod(0o755)
    os_cwd = os.getcwd()
    for cmd in (f"sh {run}", str(run), f"bash {run}", f"cd {d} && python3 main.py", f"cd {d} && ./run.sh"):
        assert bot_limit(BotSpec("w", command=cmd), 1.0) == 6.0, cmd
        assert BotzoneProcess("w", cmd).time_limit == 6.0, cmd
    assert bot_limit(BotSpec("c", command=str(native)), 1.0) == 1.0
    assert bot_limit(BotSpec("c", command=f"cd {d} && ./cbot"), 0.5) == 0.5
    spec = BotSpec("w", command=f"sh {run}")
    assert bot_limit(spec, 1.0, [("w", "2.5")]) == 2.5  # seconds
    assert bot_limit(spec, 1.0, [("w", "cpp")]) == 1.0  # a language
    assert bot_limit(spec, 2.0, [("w", "java")]) == 6.0
    assert bot_limit(spec, 1.0, [("other", "2")]) == 6.0
    assert os.getcwd() == os_cwd
    res = CliRunner().invoke(main, ["tournament", "--bot", "efficiency", "--bot", "random", "--bot", "eff",
                                    "--bot", "random", "--bot-time", "nobody=3"])
    assert res.exit_code != 0 and "no external bot is named 'nobody'" in res.output
    res = CliRunner().invoke(main, ["tournament", "--bot", f"w=sh {run}", "--bot", "random", "--bot", "eff",
                                    "--bot", "random", "--bot-time", "w=fortran"])
    assert res.exit_code != 0 and "neither seconds nor a language" in res.output


# a deterministic keep-running bot, slow enough for a tournament to be stopped in the middle
SLOW_BOT = """import json, sys, time
def answer(req):
    r = req.split()
    time.sleep(0.004)
    return "PLAY " + r[1] if r[0] == "2" else "PASS"
inp = json.loads(sys.stdin.readline())
print(json.dumps({"response": answer(inp["requests"][-1])}))
print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
for line in sys.stdin:
    print(json.dumps({"response": answer(line.strip())}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""


def _ours(marker: str) -> list[int]:
    """Processes whose command line mentions ``marker`` (our tmp_path), this test process aside."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state != b"Z":
            out.append(int(pid))
    return out


def _comparable(res: dict) -> dict:
    res = dict(res, seconds=None)
    res["bots"] = [{k: v for k, v in b.items() if not k.startswith("ms_")} for b in res["bots"]]
    return res


def test_sigterm_stops_every_worker_and_bot_and_resume_finishes_the_same(tmp_path):
    bot = _write(tmp_path, "slow.py", SLOW_BOT)
    args = ["--protocol", "botzone", "--format", "random", "--walls", "8", "--seed", "4", "--bot", f"s={PY} {bot}",
            "--bot", "efficiency", "--bot", "random", "--bot", "eff", "--bot", "s2=" + f"{PY} {bot}",
            "--time-limit", "5"]
    rec = tmp_path / "stopped"
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([PY, "-m", "majiang.cli", "tournament", *args, "--workers", "2", "--records", str(rec),
                          "--json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 120
        while len(list(rec.glob("*.summary.json"))) < 2 and time.monotonic() < end and p.poll() is None:
            time.sleep(0.05)
        assert p.poll() is None, "the tournament ended before it could be stopped"
        assert len(_ours(str(tmp_path))) >= 3  # the parent, two workers (and their bots)
        p.send_signal(signal.SIGTERM)
        t0 = time.monotonic()
        while _ours(str(tmp_path)) and time.monotonic() - t0 < 5:
            time.sleep(0.05)
        assert _ours(str(tmp_path)) == [], "processes left 5 s after SIGTERM"
        assert p.wait(timeout=5) != 0
    finally:
        if p.poll() is None:
            p.kill()
    done = len(list(rec.glob("*.summary.json")))
    assert 2 <= done < 8
    time.sleep(0.3)
    assert len(list(rec.glob("*.summary.json"))) == done  # nothing written after the stop
    bots = [a for i, a in enumerate(args) if i and args[i - 1] == "--bot"]
    kw = dict(walls=8, seed=4, fmt="random", time_limit=5.0)
    resumed = run_tournament("botzone", bots, records=rec, resume=True, **kw)
    whole = run_tournament("botzone", bots, records=tmp_path / "whole", **kw)
    assert _comparable(resumed) == _comparable(whole)
    assert resumed["games"] == 8 and {x["a"] + x["b"] for x in resumed["pairs"]} >= {"sefficiency"}
    for r in sorted(rec.glob("*.jsonl")):
        replay_file(r)
    # resuming another tournament's records is refused
    res = CliRunner().invoke(main, ["tournament", "--protocol", "botzone", "--format", "random", "--walls", "9",
                                    *[x for b in bots for x in ("--bot", b)], "--records", str(rec), "--resume"])
    assert res.exit_code != 0 and "another tournament" in res.output and "walls" in res.output


def test_pairs_are_the_paired_difference_by_wall():
    from majiang.tournament import pairs

    specs = [BotSpec(n, builtin="random") for n in "abcd"]
    # two walls of one game each; in wall 0 a scores 10 more than b, in wall 1 30 more
    results = [{"game": 0, "wall": 0, "seating": [0, 1, 2, 3], "scores": [20, 10, -10, -20]},
               {"game": 1, "wall": 1, "seating": [1, 0, 2, 3], "scores": [-10, 20, -5, -5]}]
    ab = pairs(specs, results)[0]
    assert (ab["a"], ab["b"], ab["mean"], ab["walls"]) == ("a", "b", 20.0, 2)
    # sd of (10, 30) = 14.142; 1.96 * 14.142 / sqrt(2) = 19.6
    assert ab["ci95"] == [0.4, 39.6]
    res = run_tournament("botzone", ["efficiency", "random", "eff", "random"], walls=2, seed=1)
    by = {(p["a"], p["b"]): p for p in res["pairs"]}
    assert len(by) == 6 and all(p["walls"] == 2 for p in by.values())
    # in the duplicate format every bot plays every game: a - b from the per-bot means
    m = {b["name"]: b["mean"] for b in res["bots"]}
    assert abs(by[("efficiency", "random")]["mean"] - (m["efficiency"] - m["random"])) < 1e-3


def test_jsonl_start_game_carries_the_rule_set_and_faults_are_recorded(tmp_path):
    seen = tmp_path / "first.json"
    bad = _write(tmp_path, "jl.py", f"""import json, sys
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start_game":
        open({str(seen)!r}, "w").write(json.dumps(msg))
    if msg["type"] == "request":
        n += 1
        a = msg["possible_actions"]
        print(json.dumps({{"type": "dahai", "pai": "9z"}} if n == 3 else a[-1]), flush=True)
    if msg["type"] == "end_game":
        break
""")
    d = tmp_path / "rec"
    res = run_tournament("jsonl", [f"bad={PY} {bad}", "efficiency", "random", "random"], walls=1, seed=3,
                         fmt="random", rules="wenzhou", records=d, time_limit=5.0)
    assert res["bots"][0]["illegal"] == 1
    start = json.loads(seen.read_text())
    assert start["rules"]["name"] == "wenzhou" and start["rules"]["unit"] == "multiplier"
    assert start["rules"]["hand_size"] == 13 and start["rules"]["options"]["wild_mode"] == "indicator"
    (rec,) = sorted(d.glob("*.jsonl"))
    _, events = read_record(rec.read_text("utf-8").splitlines())
    (ev,) = [e for e in events if e["type"] == "fault"]
    summary = json.loads(next(d.glob("*.summary.json")).read_text())
    seat = summary["seating"].index(0)
    assert (ev["actor"], ev["kind"], ev["request"]) == (seat, "illegal", 3) and "9z" in ev["answer"]
    assert events[-1]["scores"] == summary["scores"] and sum(summary["scores"]) == 0
    m = replay_file(rec)
    assert list(m.scores) == summary["scores"]
    assert record_lines(replay(rec.read_text("utf-8").splitlines())) == rec.read_text("utf-8").splitlines()


def test_record_match_scores_with_the_judges_fans():
    """A win's record value is the judge's fan total (scorer logged:F), so the record's final scores are
    the judge's, whatever the prevalent wind (the engine's single wall is East)."""
    rs = RuleSet.preset("mcr")
    checked = 0
    for g in range(12):
        players = [EnginePlayer(f"p{s}", make_bot("efficiency", rs, g + s)) for s in range(4)]
        r = play_game(players, shuffled_wall(random.Random(100 + g)), g % 4)
        m = record_match(r.log_text)
        assert list(m.scores) == r.scores
        if r.winner is not None:
            hora = next(e for e in m.events if e["type"] == "hora")
            assert hora["value"] == r.fan
            checked += 1
    assert checked >= 3
