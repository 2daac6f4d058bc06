"""`majiang selfplay`: digests equal across executors, worker counts and chunk sizes, resume from a
records folder, aggregates that agree with the records, clear errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from majiang.cli import main
from majiang.records.jsonl import read_record
from majiang.selfplay import SelfplayError, run_selfplay

KW = dict(rules="mcr", games=6, bots=["efficiency", "random", "efficiency", "random"], max_hands=2, seed=3)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[dict, Path]:
    d = tmp_path_factory.mktemp("records")
    return run_selfplay(workers=1, chunk_size=6, records=d, **KW), d


def test_digest_is_the_hash_of_the_records_in_game_order(reference) -> None:
    import hashlib

    stats, d = reference
    files = sorted(d.glob("game-*.jsonl"))
    assert [f.name for f in files] == [f"game-{g:06d}.jsonl" for g in range(6)]
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    assert stats["digest"] == h.hexdigest()
    # aggregates agree with the records: final scores per player from each end_game line
    finals = []
    for f in files:
        header, events = read_record(f.read_text(encoding="utf-8").splitlines())
        seat_of = events[0]["seat_of_player"]
        finals.append([events[-1]["scores"][seat_of[p]] for p in range(4)])
    eff = [row[p] for row in finals for p in (0, 2)]
    assert stats["bots"]["efficiency"]["games"] == 12
    assert stats["bots"]["efficiency"]["mean_score"] == pytest.approx(sum(eff) / 12)
    assert sum(sum(r) for r in finals) == 0
    assert stats["hands"] == 12


def test_digest_does_not_depend_on_workers_or_chunks(reference) -> None:
    stats, _ = reference
    two = run_selfplay(workers=2, chunk_size=2, **KW)
    assert two["digest"] == stats["digest"]
    assert two["bots"] == stats["bots"]


def test_ray_gives_the_same_digest(reference) -> None:
    pytest.importorskip("ray")
    stats, _ = reference
    r = run_selfplay(workers=2, chunk_size=2, executor="ray", **KW)
    assert r["digest"] == stats["digest"]


def test_resume_after_an_interrupted_run(reference, tmp_path: Path) -> None:
    stats, d = reference
    shutil.copytree(d, tmp_path / "r")
    r = tmp_path / "r"
    (r / "game-000004.jsonl").unlink()  # never written
    cut = r / "game-000002.jsonl"
    cut.write_text(cut.read_text(encoding="utf-8")[:700], encoding="utf-8")  # cut short by a crash
    again = run_selfplay(workers=2, chunk_size=1, records=r, **KW)
    assert (again["resumed"], again["played"]) == (4, 2)
    assert again["digest"] == stats["digest"]
    with pytest.raises(SelfplayError, match="another run") as e:
        run_selfplay(workers=1, records=r, **{**KW, "seed": 4})
    assert f"seed {KW['seed']!r} there, 4 now" in str(e.value)  # names the setting that differs


def test_cli_json_and_errors(reference) -> None:
    stats, _ = reference
    res = CliRunner().invoke(main, ["selfplay", "--games", "6", "--bots", "efficiency,random,efficiency,random",
                                    "--max-hands", "2", "--seed", "3", "--workers", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["digest"] == stats["digest"]
    assert set(out["bots"]["random"]) >= {"games", "mean_score", "ci95", "win_rate", "deal_in_rate"}
    bad = CliRunner().invoke(main, ["selfplay", "--bots", "a,b"])
    assert bad.exit_code == 2 and "four" in bad.output
    bad = CliRunner().invoke(main, ["selfplay", "--bots", "nobot"])
    assert bad.exit_code == 2 and "nobot" in bad.output


def test_an_address_where_no_ray_cluster_listens_is_refused_at_once() -> None:
    """``--address`` to a port nobody listens on: a clear error (exit 2) naming it, in well under the
    minutes ``ray.init`` would keep retrying."""
    import socket
    import time

    pytest.importorskip("ray")
    with socket.socket() as s:  # a free port: bound, then released
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        t0 = time.perf_counter()
        res = CliRunner().invoke(main, ["selfplay", "--games", "1", "--address", address])
        assert res.exit_code == 2, res.output
        assert address in res.output and "could not connect" in res.output
        assert time.perf_counter() - t0 < 30


def _dies_once(spec, seed, bots, games, max_hands):
    """A chunk runner whose worker process dies the first time it sees game 1."""
    import os

    from majiang.selfplay import play_chunk

    marker = Path(os.environ["WT_SELFPLAY_MARKER"])
    if 1 in games and not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return play_chunk(spec, seed, bots, games, max_hands)


def test_a_dead_worker_has_its_chunk_rerun(reference, tmp_path: Path, monkeypatch) -> None:
    from majiang.selfplay import _run_process, aggregate

    stats, _ = reference
    monkeypatch.setenv("WT_SELFPLAY_MARKER", str(tmp_path / "marker"))
    got = {}
    _run_process(("mcr", 3, KW["bots"], 2), [[0], [1], [2], [3], [4], [5]], 2,
                 lambda chunk: got.update({s.game: s for s in chunk}), fn=_dies_once)
    assert (tmp_path / "marker").exists()
    assert aggregate([got[g] for g in range(6)], KW["bots"])["digest"] == stats["digest"]


def test_the_clock_stops_at_the_last_result_not_at_the_executors_teardown(reference, monkeypatch) -> None:
    """``seconds`` runs from the end of the set-up to the last game's result: an executor that spends
    time shutting down afterwards (``ray.shutdown`` takes about 1.3 s) does not slow the games/s."""
    import time

    import majiang.selfplay as sp

    stats, _ = reference

    def slow_teardown(job, chunks, workers, done, fn=sp.play_chunk):
        for c in chunks:
            done(fn(*job[:3], c, job[3]))
        finished = time.perf_counter()
        time.sleep(1.0)  # the executor's teardown
        assert time.perf_counter() - finished >= 1.0
        return 0.0

    monkeypatch.setattr(sp, "_run_process", slow_teardown)
    t0 = time.perf_counter()
    got = run_selfplay(workers=1, chunk_size=3, **KW)
    wall = time.perf_counter() - t0
    assert got["digest"] == stats["digest"]
    assert got["seconds"] <= wall - 1.0
    assert got["games_per_second"] == pytest.approx(6 / got["seconds"])


# --- the trial's problems (selfplay-fixes) ----------------------------------------------------------

def _cli(*args: str) -> list[str]:
    """The command line of ``majiang selfplay ARGS`` run by this interpreter (real file descriptors)."""
    import sys

    return [sys.executable, "-c", "from majiang.cli import main; main()", "selfplay", *args]


def _children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie waiting for its reaper counts as gone)."""
    out = []
    for p in pids:
        try:
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            out.append(p)
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker processes in /proc")
def test_the_workers_exit_when_the_master_is_killed() -> None:
    """SIGKILL of ``majiang selfplay`` (no chance to shut its pool down): its worker processes notice
    their parent is gone and exit within a few seconds instead of waiting for work forever."""
    import os
    import signal
    import subprocess
    import time

    proc = subprocess.Popen(_cli("--games", "192", "--max-hands", "4", "--workers", "2"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(kids) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            kids = _children(proc.pid)
        assert len(kids) == 2, kids
        time.sleep(0.5)  # the workers are playing
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5
        while _alive(kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _alive(kids) == []
    finally:
        proc.kill()
        proc.wait()
        for p in _alive(kids):
            os.kill(p, signal.SIGKILL)



_WATCHED = """
import multiprocessing as mp, os, sys, time

def child():
    sys.platform = "darwin"  # no prctl: the portable watch thread alone
    from majiang.selfplay import _exit_with_parent
    _exit_with_parent(os.getppid(), 0.1)
    time.sleep(120)

p = mp.get_context("fork").Process(target=child)
p.start()
print(p.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the processes in /proc")
def test_the_parent_watch_thread_alone_ends_an_orphaned_worker() -> None:
    """The fallback where ``PR_SET_PDEATHSIG`` is not available: the initializer's thread sees the
    parent gone (``os.getppid()`` changed) and exits the worker."""
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", _WATCHED], stdout=subprocess.PIPE, text=True)
    kid: list[int] = []
    try:
        kid = [int(proc.stdout.readline())]
        time.sleep(0.5)
        assert _alive(kid) == kid  # the watch does not end a worker whose parent lives
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 3
        while _alive(kid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _alive(kid) == []
    finally:
        proc.kill()
        proc.wait()
        for p in _alive(kid):
            os.kill(p, signal.SIGKILL)

_NOISY = """
import os, sys
import majiang.selfplay as sp

game, warm = sp.play_game, sp._warm

def noisy_game(*a):  # in the workers: what a dying Ray worker's notice looks like, at the C level
    os.write(1, b"\\x1b[33m(raylet) A worker died or was killed ... will be retried\\x1b[0m\\n")
    print("python-level noise from a worker", flush=True)
    return game(*a)

def noisy_warm(spec):  # in the master, during the run
    os.write(1, b"fd 1 noise from the master\\n")
    print("python-level noise from the master")
    return warm(spec)

sp.play_game, sp._warm = noisy_game, noisy_warm
from majiang.cli import main
main(sys.argv[1:])
"""


def test_json_mode_puts_nothing_but_the_json_on_stdout(reference) -> None:
    """``--json``: whatever the run writes to file descriptor 1 (Ray's "worker died" lines, a print in
    a worker or in the master) goes to stderr; stdout is the JSON object alone."""
    import subprocess
    import sys

    stats, _ = reference
    res = subprocess.run([sys.executable, "-c", _NOISY, "selfplay", "--games", "6", "--bots",
                          "efficiency,random,efficiency,random", "--max-hands", "2", "--seed", "3",
                          "--workers", "2", "--chunk-size", "2", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["digest"] == stats["digest"]
    for noise in ("will be retried", "python-level noise from a worker", "fd 1 noise from the master",
                  "python-level noise from the master"):
        assert noise in res.stderr


def test_the_ray_extra_installs_ray_client() -> None:
    """``ray://host:10001`` needs Ray Client (``ray[client]``, grpc): the ``ray`` and ``test`` extras ask
    for it, and where ray is installed here its client's dependency imports."""
    import tomllib

    meta = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    extras = meta["project"]["optional-dependencies"]
    assert "ray[client]>=2.9" in extras["ray"]
    assert any(r.startswith("ray[client]>=2.9") for r in extras["test"])
    pytest.importorskip("ray")
    import grpc  # noqa: F401  (Ray Client: "requires pip package `ray[client]`" without it)


def test_an_address_with_executor_process_is_an_error() -> None:
    """``--address`` alone implies Ray; with an explicit ``--executor process`` it is a contradiction."""
    res = CliRunner().invoke(main, ["selfplay", "--games", "1", "--executor", "process",
                                    "--address", "127.0.0.1:1"])
    assert res.exit_code == 2, res.output
    assert "--executor process" in res.output and "--address" in res.output


def test_ray_address_in_the_environment_is_the_cluster_to_join(monkeypatch) -> None:
    """With ``RAY_ADDRESS`` set and no ``--address``, ``--executor ray`` joins that cluster (reachable
    check included) instead of starting a local Ray with ``num_cpus`` (which ray.init refuses)."""
    import socket

    ray = pytest.importorskip("ray")
    import majiang.selfplay as sp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(SelfplayError, match="could not connect") as e:
        run_selfplay(executor="ray", workers=2, **KW)
    assert f"127.0.0.1:{port}" in str(e.value) and "RAY_ADDRESS" in str(e.value)

    calls = []

    def fake_init(*args, **kw):  # stands for the cluster: records how it is asked to join, then fails
        calls.append((args, kw))
        raise ConnectionError("no cluster in this test")

    monkeypatch.setattr(sp, "_check_reachable", lambda address, timeout=5.0: None)
    monkeypatch.setattr(ray, "init", fake_init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setenv("RAY_ADDRESS", "10.1.2.3:6379")
    with pytest.raises(SelfplayError, match="10.1.2.3:6379"):
        run_selfplay(executor="ray", workers=2, **KW)
    assert len(calls) == 1
    assert calls[0][1]["address"] == "10.1.2.3:6379" and "num_cpus" not in calls[0][1]


def test_a_failed_join_mentions_token_authentication(monkeypatch, tmp_path: Path) -> None:
    """Ray starts clusters with token authentication where ``~/.ray/auth_token`` exists, and a driver
    given an address sends the token only with ``RAY_AUTH_MODE=token`` (checked by hand against a
    ``ray start --head`` cluster: "InvalidAuthToken" without it, the run goes through with it)."""
    ray = pytest.importorskip("ray")
    import majiang.selfplay as sp

    def refused(*args, **kw):
        raise ConnectionError("Failed to connect to Ray cluster at 10.1.2.3:6379")

    monkeypatch.setattr(sp, "_check_reachable", lambda address, timeout=5.0: None)
    monkeypatch.setattr(ray, "init", refused)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with pytest.raises(SelfplayError) as e:
        run_selfplay(executor="ray", address="10.1.2.3:6379", **KW)
    assert "RAY_AUTH_MODE" not in str(e.value)  # no token here: no hint
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("x" * 64)
    with pytest.raises(SelfplayError, match="set RAY_AUTH_MODE=token"):
        run_selfplay(executor="ray", address="10.1.2.3:6379", **KW)
    monkeypatch.setenv("RAY_AUTH_MODE", "token")  # already set: the failure is something else
    with pytest.raises(SelfplayError) as e:
        run_selfplay(executor="ray", address="10.1.2.3:6379", **KW)
    assert "RAY_AUTH_MODE" not in str(e.value)


def test_a_corrupted_record_is_named(reference, tmp_path: Path) -> None:
    """A complete record that does not replay (edited, or another engine's): the error names the file
    and the run stops with exit 2 (nothing overwritten)."""
    import re

    _, d = reference
    shutil.copytree(d, tmp_path / "r")
    bad = tmp_path / "r" / "game-000003.jsonl"
    text = bad.read_text(encoding="utf-8")
    dice = re.search(r'"dice":\[(\d),(\d)\]', text)
    other = "[1,2]" if dice.group(0) != '"dice":[1,2]' else "[3,4]"
    bad.write_text(text.replace(dice.group(0), f'"dice":{other}', 1), encoding="utf-8")
    with pytest.raises(SelfplayError, match=r"game-000003\.jsonl: line 3: ") as e:
        run_selfplay(workers=1, records=tmp_path / "r", **KW)
    assert str(tmp_path / "r" / "game-000003.jsonl") in str(e.value)
    res = CliRunner().invoke(main, ["selfplay", "--games", "6", "--bots", "efficiency,random,efficiency,random",
                                    "--max-hands", "2", "--seed", "3", "--records", str(tmp_path / "r")])
    assert res.exit_code == 2, res.output
    assert "game-000003.jsonl: line 3: " in res.output
    assert bad.read_text(encoding="utf-8") != text  # left as it was found, for the user to look at


def test_a_records_folder_that_cannot_be_made_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for folder in ("/dev/null/x", str(tmp_path / "file" / "x")):
        res = CliRunner().invoke(main, ["selfplay", "--games", "1", "--max-hands", "1", "--records", folder])
        assert res.exit_code == 2, res.output
        assert folder in res.output and "Traceback" not in res.output
