"""The AEC environment's batched table (majiang.rl.batched_table.BatchedTable, a one-row batched
core) against the engine table (majiang.rl.core.Table): from the same seed, the same seats to act,
legal actions, masks and observations of every seat, rewards, errors and game records, step for
step."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.errors import MajiangError  # noqa: E402
from majiang.records.jsonl import record_lines  # noqa: E402
from majiang.rl import step_kernels  # noqa: E402
from majiang.rl.actions import ActionIndexError  # noqa: E402
from majiang.rl.aec import make_table  # noqa: E402
from majiang.rl.batched_table import BatchedTable  # noqa: E402
from majiang.rl.core import Table  # noqa: E402

if not step_kernels.available():  # pragma: no cover - numba is in the test extra
    pytest.skip("numba is not installed", allow_module_level=True)

_WEIGHTS = np.ones(rl.ACTION_SIZE)  # wins whenever offered, claims and kongs often: the rare paths
_WEIGHTS[1] = 1e6
_WEIGHTS[99:235] = 50.0
_WEIGHTS[36:99] = 5.0


def _play(spec: str, seed: int, kw: dict, rng: np.random.Generator) -> int:
    a = BatchedTable(spec, **kw)
    b = Table(spec, **kw)
    a.reset(seed)
    b.reset(seed)
    steps = 0
    while True:
        assert a.done == b.done
        assert a.pending() == b.pending() and a.to_act() == b.to_act()
        for s in range(4):
            assert a.legal(s) == b.legal(s), (s, steps)
            assert np.array_equal(a.mask(s), b.mask(s)), (s, steps)
            assert np.array_equal(a.observe(s), b.observe(s)), (s, steps)
        if a.done:
            break
        seat = a.to_act()
        m = a.mask(seat)
        idx = int((rng.random(m.shape) * m * _WEIGHTS).argmax())
        ra, rb = a.step_sparse(seat, idx), b.step_sparse(seat, idx)
        assert (ra is None) == (rb is None) and (ra is None or np.array_equal(ra, rb))
        steps += 1
    assert a.hands_played == b.hands_played == 1
    assert record_lines(a.match) == record_lines(b.match)
    return steps


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
def test_batched_table_plays_the_engine_table(seed: int) -> None:
    assert _play("mcr", seed, {}, np.random.default_rng(seed % 1000)) > 20


@pytest.mark.parametrize("spec,kw", [("shandong", {}), ("mcr", {"oracle": True}), ("mcr", {"analysis": False}),
                                     ("mcr", {"observation": "botzone-v0"}),
                                     ("mcr,rob_kong=false,claim_last_discard=true", {"reward_scale": 8.0}),
                                     ("wenzhou", {"oracle": True}), ("seed000", {"observation": "botzone-v0"}),
                                     ("wenzhou-w16", {"analysis": False})])
def test_batched_table_options(spec: str, kw: dict) -> None:
    rng = np.random.default_rng(3)
    for seed in range(3):
        _play(spec, seed, kw, rng)


@pytest.mark.parametrize("spec", ["wenzhou", "wenzhou-w16", "seed000"])
def test_batched_table_plays_the_wildcard_rule_sets(spec: str) -> None:
    """The wildcard presets (RULES.md §4.2: the indicator, 白板代, wildcard wins; W13's 被跟 and
    误打财神) on the one-row batched core, which the AEC environment plays them on."""
    rng = np.random.default_rng(5)
    for seed in range(4):
        _play(spec, seed, {}, rng)


def test_errors_match_the_engine_table() -> None:
    a, b = BatchedTable("mcr"), Table("mcr")
    for t in (a, b):
        with pytest.raises(ActionIndexError, match="reset first"):
            t.step_sparse(0, 2)
    a.reset(9)
    b.reset(9)
    seat = a.to_act()
    other = (seat + 1) % 4
    for bad, what in (((other, 2), "not to act now"), ((seat, 999), "outside 0-268"), ((seat, 0), "cannot pass")):
        with pytest.raises(ActionIndexError, match=what) as ea:
            a.step_sparse(*bad)
        with pytest.raises(ActionIndexError, match=what) as eb:
            b.step_sparse(*bad)
        assert str(ea.value) == str(eb.value)
    assert record_lines(a.match) == record_lines(b.match)  # nothing changed


def test_the_aec_environment_chooses_its_table() -> None:
    assert isinstance(rl.env("mcr").table, BatchedTable)
    assert isinstance(rl.env("mcr", batched=False).table, Table)
    assert isinstance(rl.env("wenzhou").table, BatchedTable)  # wildcards too (since the sixth session)
    assert isinstance(rl.env("wenzhou", batched=False).table, Table)
    assert isinstance(rl.env("mcr", hands=None).table, Table)  # whole matches: the engine table
    with pytest.raises(MajiangError, match="hands=None"):
        make_table("mcr", batched=True, hands=None)
    with pytest.raises(MajiangError, match="batched must be None, True or False"):
        rl.env("mcr", batched="yes")
    with pytest.raises(MajiangError, match="batched must be None, True or False"):
        rl.VectorEnv(2, "mcr", batched=1)


@pytest.mark.parametrize("spec,seed", [("mcr", 5), ("mcr", 21), ("shandong", 8)])
def test_the_parallel_environment_on_the_batched_table(spec: str, seed: int) -> None:
    """``parallel_env`` plays ``mcr`` and ``shandong`` on the batched table by default; answering every
    claim window at once, it gives the same observations, masks, rewards, ends and record as on the
    engine table (``batched=False``)."""
    a = rl.parallel_env(spec)
    b = rl.parallel_env(spec, batched=False)
    assert isinstance(a.table, BatchedTable) and isinstance(b.table, Table)
    rng = np.random.default_rng(seed)
    oa, _ = a.reset(seed=seed)
    ob, _ = b.reset(seed=seed)
    steps = 0
    while a.agents:
        assert a.agents == b.agents
        for ag in a.agents:
            assert np.array_equal(oa[ag]["observation"], ob[ag]["observation"]), (ag, steps)
            assert np.array_equal(oa[ag]["action_mask"], ob[ag]["action_mask"]), (ag, steps)
        acts = {}
        for ag in a.agents:
            m = oa[ag]["action_mask"]
            acts[ag] = int((rng.random(m.shape) * m * _WEIGHTS).argmax())
        oa, ra, ta, _, _ = a.step(acts)
        ob, rb, tb, _, _ = b.step(acts)
        assert ra == rb and ta == tb
        steps += 1
    assert not b.agents and steps > 20
    assert record_lines(a.record()) == record_lines(b.record())
