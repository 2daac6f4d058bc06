"""The MCR scorer's compiled path (rules/mcr/compiled.py) against its Python path.

``scoring.use_compiled(True)`` makes :func:`majiang.rules.mcr.score` send every hand
through :func:`majiang.rules.mcr.compiled.score_hand`; ``use_compiled(False)`` keeps the Python
path, which ``tests/rules/test_mcr_fast_path.py`` checks against the plain definition of fans.py and
``test_mcr_oracle.py`` against PyMahjongGB. Here the two paths must give equal results (fans, total,
shape, arrangement) or the same error, on random hands under every option, on the annotated cases
and on conditions the hand's tiles make impossible; and the compiled path must take most hands
(else these tests would compare the Python path with itself).
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from majiang.rules.mcr import McrOptions, parse_hand_string, score
from majiang.rules.mcr import compiled, scoring
from majiang.rules.mcr.random_hands import random_winning_hands

pytestmark = pytest.mark.skipif(not compiled.available(), reason="numba is not installed (MAJIANG_NUMBA=0 or absent)")

CASES = json.loads((Path(__file__).resolve().parent.parent / "data" / "gb_mahjong_cases.json").read_text("utf-8"))
OPTIONS = {"default": McrOptions(), "no-knitted-waits": McrOptions(knitted_straight_waits=False),
           "kong-pair-split": McrOptions(melded_concealed_kong_pair=False),
           "no-fifth-copy-waits": McrOptions(fifth_copy_waits=False)}


@pytest.fixture(autouse=True)
def _restore_default():
    yield
    scoring.use_compiled(None)


class _Counting:
    """The compiled kernel, counting the hands it scored itself (status OK)."""

    def __init__(self) -> None:
        self.kernel = scoring._COMPILED[0]
        self.scored = 0

    def __call__(self, *args):
        r = self.kernel(*args)
        self.scored += r[0] == compiled.OK
        return r


def _outcome(hand, cond, options, on: bool):
    scoring.use_compiled(on)
    try:
        return score(hand, cond, options)
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return (type(e), str(e))


def _both(hand, cond, options=McrOptions()):
    return _outcome(hand, cond, options, False), _outcome(hand, cond, options, True)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_compiled_path_equals_the_python_path(name):
    options = OPTIONS[name]
    hands = list(random_winning_hands(3000, 2901))
    scoring.use_compiled(False)
    python = [score(h, c, options) for h, c in hands]
    assert scoring.use_compiled(True)
    counting = scoring._COMPILED[0] = _Counting()
    got = [score(h, c, options) for h, c in hands]
    for (h, c), a, b in zip(hands, python, got):
        assert b == a, (str(h), c)
        assert b.fans == a.fans and b.arrangement == a.arrangement and b.total == a.total
    assert counting.scored > 0.99 * len(hands)  # every shape; only what must be refused goes to Python


def test_annotated_cases_on_both_paths():
    for case in CASES:
        hand, cond = parse_hand_string(case["hand_string"])
        for options in (McrOptions(), McrOptions(knitted_straight_waits=False)):
            python, compiled_result = _both(hand, cond, options)
            assert compiled_result == python, case["line"]


@pytest.mark.parametrize("text", [
    "[123m,1][345m,1]678p56sWW7s|EE1001",  # 杠上开花 without a kong
    "[123m,1][567s,1]678p56sWW7s|EE0001",  # robbing a 7s kong with a 7s shown
    "[123m,1][345m,1]55p678pWW5p|EE0001",  # robbing a 5p kong with a 5p concealed
    "[123m,1][345m,1]678p77sWW7s|EE0100",  # 和绝张 with another copy concealed
    "[123m,1][345m,1]678p56sWW7s|EE0100",  # 和绝张 allowed
    "11112m456p789s11z1m",  # a fifth copy
    "123m456p789s1122z3z",  # not a winning hand
    "[1111s][2222m][3333p,7][4444p]88s|EE0000|2",  # four kongs, two flowers
    "[1111s][1111s]2222m333p8s8s",  # the same kong twice
])
def test_errors_and_flags_on_both_paths(text):
    hand, cond = parse_hand_string(text)
    python, compiled_result = _both(hand, cond)
    assert compiled_result == python


def test_every_condition_on_both_paths():
    """Random hands under random win conditions, possible or not: the same result or error."""
    rng = random.Random(29)
    flags = ("self_drawn", "last_of_kind", "last_wall_tile", "kong_replacement", "robbing_kong")
    n = 0
    for hand, cond in random_winning_hands(1500, 77):
        kw = {f: rng.random() < 0.3 for f in flags}
        kw.update(seat_wind=rng.randrange(4), prevalent_wind=rng.randrange(4), flowers=rng.randrange(3))
        try:
            cond = replace(cond, **kw)
        except Exception:  # noqa: BLE001 - contradictory flags are refused by WinConditions itself
            continue
        python, compiled_result = _both(hand, cond)
        assert compiled_result == python, (str(hand), cond)
        n += 1
    assert n > 500


def test_switch():
    assert scoring.use_compiled(True)
    assert scoring._COMPILED[0] is not None
    assert not scoring.use_compiled(False)
    hand, cond = parse_hand_string("123m456p789s123s5z5z")
    for _ in range(scoring._COMPILED_AFTER + 1):
        score(hand, cond)
    assert scoring._COMPILED[0] is None  # False: never, however many hands
    scoring.use_compiled(None)
    for _ in range(scoring._COMPILED_AFTER):
        score(hand, cond)
    scoring._STARTING[-1].join()
    assert scoring._COMPILED[0] is not None  # None (the default): after _COMPILED_AFTER hands


def _blocked_start(monkeypatch, gate: threading.Event) -> None:
    """Make the background start wait for ``gate`` before it asks for the kernel."""
    real = compiled.kernel

    def kernel():
        assert gate.wait(300)
        return real()

    monkeypatch.setattr(compiled, "kernel", kernel)


def test_the_caller_never_waits_for_the_compiler(monkeypatch):
    """The automatic start runs on a worker thread: while numba compiles (held here by a gate),
    every hand is answered on the Python path, and the compiled path is taken once it is ready."""
    gate = threading.Event()
    _blocked_start(monkeypatch, gate)
    scoring.use_compiled(None)
    hand, cond = parse_hand_string("123m456p789s123s5z5z")
    want = _outcome(hand, cond, McrOptions(), False)
    scoring.use_compiled(None)
    for _ in range(scoring._COMPILED_AFTER + 50):
        assert score(hand, cond) == want
    thread = scoring._STARTING[-1]
    assert thread.is_alive() and scoring._COMPILED[0] is None
    gate.set()
    thread.join()
    assert scoring._COMPILED[0] is not None
    assert score(hand, cond) == want


def test_a_busy_caller_waits_at_the_second_threshold(monkeypatch):
    """A caller still on the Python path _WAIT_AFTER hands in waits for the start (a loop that
    never yields the GIL would starve the thread); a use_compiled call meanwhile wins over it."""
    gate = threading.Event()
    _blocked_start(monkeypatch, gate)
    scoring.use_compiled(None)
    hand, cond = parse_hand_string("123m456p789s123s5z5z")
    for _ in range(scoring._WAIT_AFTER - 1):
        score(hand, cond)
    assert scoring._COMPILED[0] is None
    threading.Timer(0.2, gate.set).start()
    score(hand, cond)  # the _WAIT_AFTER-th hand: waits for the thread
    assert scoring._COMPILED[0] is not None
    gate.clear()
    scoring.use_compiled(None)
    for _ in range(scoring._COMPILED_AFTER):
        score(hand, cond)
    scoring.use_compiled(False)  # while the start waits at the gate
    gate.set()
    scoring._STARTING[-1].join()
    assert scoring._COMPILED[0] is None


_FORK_SCRIPT = """
import os, sys, threading
from majiang.rules.mcr import compiled, scoring
import logging  # after the scorer, as a user's script may: its fork hook is then the newer one
gate = threading.Event()
real = compiled.kernel
def kernel():
    gate.wait(60)
    logging.getLogger("majiang.test").debug("numba logs while it compiles")  # takes logging's lock
    return real()
compiled.kernel = kernel
hand, cond = scoring.parse_hand_string("123m456p789s123s5z5z")
for _ in range(scoring._COMPILED_AFTER):
    scoring.score(hand, cond)
threading.Timer(0.5, gate.set).start()
pid = os.fork()  # waits for the start, which needs logging's lock: not held yet
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
print("forked", scoring._COMPILED[0] is not None)
"""


def test_a_fork_waits_for_the_start_without_hanging():
    """A fork while the background start runs waits for it (a child must not copy numba's
    compiler lock held), and must not hang on a lock the start needs: logging's fork hook holds
    logging's lock, and numba logs while it compiles. The scorer imports logging first, so its own
    hook is the newer one and runs (and waits) first."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["forked", "True"]
