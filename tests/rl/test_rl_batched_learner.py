"""The learner mode of VectorEnv on the batched core (majiang.rl.batched_learner): the bots' choices,
legality, and agreement with the per-table learner path."""

from __future__ import annotations

import numpy as np
import pytest

import majiang.rl as rl
from majiang.errors import MajiangError
from majiang.players import RandomBot
from majiang.players.efficiency import EfficiencyBot
from majiang.rl import batched as B
from majiang.rl.actions import index_of
from majiang.rl.batched import supports
from majiang.engine import resolve

pytestmark = pytest.mark.skipif(not B.step_kernels.available(), reason="the batched learner needs numba")


def _masked(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def _watch(env: rl.VectorEnv, seen: list) -> None:
    """Record every bot decision (row, seat, phase, mask, the index chosen) as the bots make it
    (one Python round a step: the fused loop decides out of Python's sight)."""
    bots = env.bots
    bots.fused = False
    orig = bots._choose

    def choose(rows, acts):
        orig(rows, acts)
        core = env.core
        for i in rows.tolist():
            seen.append((i, int(core.seat[i]), int(core.phase[i]), core.mask[i].copy(), int(acts[i])))

    bots._choose = choose


@pytest.mark.parametrize("preset", ["mcr", "taiwan", "shandong"])
def test_efficiency_choices_are_the_bots(preset: str) -> None:
    """Each compiled-path choice is what EfficiencyBot (the reference, not the fast one) chooses on
    the same state, rebuilt on the engine from the row's record."""
    env = rl.VectorEnv(4, preset, opponents="efficiency", seat=2)
    assert env.batched and env.bots is not None
    ref = EfficiencyBot(env.rules)
    checked = 0
    phases = set()
    bots = env.bots
    bots.fused = False  # each decision watched, one Python round a step
    orig = bots._choose

    def choose(rows, acts):
        nonlocal checked
        orig(rows, acts)
        for i in rows.tolist():
            s = int(env.core.seat[i])
            assert env.core.mask[i, acts[i]] == 1
            m = env.core.replay(i)
            legal = m.legal_actions(s)
            want = index_of(ref.choose(m.view(s), legal))
            assert int(acts[i]) == want, (i, s, m.table.phase, legal)
            phases.add(int(env.core.phase[i]))
            checked += 1

    bots._choose = choose
    obs, _ = env.reset(seed=17)
    rng = np.random.default_rng(3)
    while checked < 250:
        obs, *_ = env.step(_masked(rng, obs["action_mask"]))
    assert B.TURN in phases and B.CLAIM in phases
    compiled, python = env.bots.decided
    assert compiled > 10 * python  # most decisions from the kernel path, not the bot's own code


@pytest.mark.parametrize("preset", ["mcr", "taiwan"])
def test_efficiency_kongs_are_decided_compiled_as_the_bot_decides(preset: str) -> None:
    """Turns where a kong is offered: the compiled loop decides them (none goes to the bot's own
    Python code) and each choice, kong or discard, is what EfficiencyBot (the reference) chooses on
    the same state: a kong whose hand's shanten is no worse than the best discard's."""
    from majiang.rl.batched_learner import _KONG_BASES

    env = rl.VectorEnv(16, preset, opponents="efficiency", seat=0)
    ref = EfficiencyBot(env.rules)
    bots = env.bots
    bots.fused = False
    orig_choose, orig_python = bots._choose, bots._efficiency
    kinds: list[str] = []
    python: list[int] = []

    def by_python(i: int, s: int) -> int:
        python.append(i)
        return orig_python(i, s)

    def choose(rows, acts):
        python.clear()  # the rows of this round the bot's own code decides
        orig_choose(rows, acts)
        core = env.core
        for i in rows.tolist():
            m = core.mask[i]
            if core.phase[i] != B.TURN or m[1] or not any(m[b:b + 34].any() for b in _KONG_BASES.tolist()):
                continue
            assert i not in python
            s = int(core.seat[i])
            match = core.replay(i)
            want = index_of(ref.choose(match.view(s), match.legal_actions(s)))
            assert int(acts[i]) == want, (i, s, int(acts[i]), want)
            kinds.append("kong" if any(int(acts[i]) - b in range(34) for b in _KONG_BASES.tolist()) else "discard")

    bots._choose, bots._efficiency = choose, by_python
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        if len(kinds) >= 24 and len(set(kinds)) == 2:
            break
        obs, *_ = env.step(_masked(rng, obs["action_mask"]))
    assert len(kinds) >= 24 and set(kinds) == {"kong", "discard"}, kinds


def _same_games(a: rl.VectorEnv, b: rl.VectorEnv, seed: int, steps: int, seat: int, full_log: bool = False) -> int:
    """Step ``a`` and ``b`` (the learner in ``seat``) with the same masked random learner actions,
    asserting equal observations, masks, rewards, ends, final scores and records (event for
    event) and the learner's seat awaited; returns the number of episodes ended. ``full_log``: the
    batched cores' action logs cut before every step to two free columns for the longest row (they
    grow as rows fill them, in the learner's step and in the bots')."""
    rng = np.random.default_rng(seat)
    oa, _ = a.reset(seed=seed)
    ob, _ = b.reset(seed=seed)
    ends = 0
    for _ in range(steps):
        for env in (a, b) if full_log else ():
            env.core._log = env.core._log[:, :int(env.core._log_n.max()) + 2].copy()
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        acts = _masked(rng, oa["action_mask"])
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert (ia["seat"] == seat).all() and (ib["seat"] == seat).all()
        assert np.array_equal(ia["final_scores"], ib["final_scores"])
        for i in np.flatnonzero(ta).tolist():
            assert [str(e) for e in ia["final_records"][i].events] == [str(e) for e in ib["final_records"][i].events]
        ends += int(ta.sum())
    return ends


@pytest.mark.parametrize("preset,opponents,seat,full_log", [
    ("mcr", "efficiency", 1, False), ("mcr", ["random", "efficiency", "random"], 0, False),
    ("taiwan", "efficiency", 3, False), ("shandong", "random", 2, False), ("mcr", "efficiency", 2, True),
    ("taiwan", "random", 1, True)])
def test_the_fused_bot_loop_plays_the_stepwise_games(preset: str, opponents, seat: int, full_log: bool) -> None:
    """The bots' compiled loop (BatchedLearner.fused) and one Python round a step play the same
    games: observations, masks, rewards, ends, records (also with the action logs full, so that
    the loop stops for Python to grow them); the fused loop decides without the stepwise choice
    (``_choose``) and counts the same decisions."""
    a = rl.VectorEnv(8, preset, opponents=opponents, seat=seat, records=True)
    b = rl.VectorEnv(8, preset, opponents=opponents, seat=seat, records=True)
    assert a.bots.fused
    b.bots.fused = False

    def stepwise(rows, acts):
        raise AssertionError("the fused loop made a stepwise choice")

    a.bots._choose = stepwise
    assert _same_games(a, b, 11, 300, seat, full_log) >= 15
    assert a.bots.decided == b.bots.decided
    # the steps' follow-ups (claims made, flowers, and in MCR the wins its compiled quick value
    # decides) ran in the loop: the stepwise games are the Python path's
    assert a.bots._quick_on is (preset == "mcr") and a.bots.followed > 0 and b.bots.followed == 0


@pytest.mark.parametrize("preset,seat", [("mcr", 0), ("mcr", 3), ("taiwan", 1), ("shandong", 2)])
def test_learner_rows_agree_with_the_per_table_path(preset: str, seat: int) -> None:
    """Against efficiency bots the batched learner plays exactly the per-table learner's games:
    observations, masks, rewards, ends, final scores and records, over several hands a row."""
    a = rl.VectorEnv(4, preset, opponents="efficiency", seat=seat, records=True)
    b = rl.VectorEnv(4, preset, opponents="efficiency", seat=seat, batched=False, records=True)
    assert a.batched and not b.batched
    assert _same_games(a, b, 5, 400, seat) >= 8


def test_random_bots_are_legal_uniform_and_seeded() -> None:
    env = rl.VectorEnv(8, "mcr", opponents="random")
    assert env.batched
    seen: list = []
    _watch(env, seen)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(300):
        obs, *_ = env.step(_masked(rng, obs["action_mask"]))
    assert len(seen) > 2000
    firsts = twos = wins = 0
    for _, s, _, mask, a in seen:
        assert s != 0 and mask[a] == 1
        if mask[1]:
            assert a == 1  # a win offered is taken (RandomBot's always_win)
            wins += 1
        legal = np.flatnonzero(mask)
        if legal.size == 2 and not mask[1]:
            twos += 1
            firsts += a == legal[0]
    assert wins > 0 and twos > 300
    assert 0.4 < firsts / twos < 0.6  # uniform: each of two options about half the time
    # turn discards: the chosen discard's rank among the legal ones spreads evenly
    ranks = [np.flatnonzero(m).tolist().index(a) / np.count_nonzero(m) for _, _, ph, m, a in seen
             if ph == B.TURN and not m[1]]
    hist = np.histogram(ranks, bins=4, range=(0, 1))[0] / len(ranks)
    assert (np.abs(hist - 0.25) < 0.05).all(), hist
    # seeded: the same seeds play the same games, other seeds others
    def run(seed: int) -> list:
        e = rl.VectorEnv(2, "mcr", opponents="random")
        o, _ = e.reset(seed=seed)
        r = np.random.default_rng(9)
        out = []
        for _ in range(50):
            o, rew, *_ = e.step(_masked(r, o["action_mask"]))
            out.append(o["observation"].sum())
        return out
    assert run(4) == run(4) and run(4) != run(5)


def test_mixed_opponents_and_rewards_are_the_learners() -> None:
    env = rl.VectorEnv(4, "mcr", opponents=["random", "efficiency", "random"], seat=0)
    assert env.batched and env.bots.kind == ["", "random", "efficiency", "random"]
    seen: list = []
    _watch(env, seen)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    total = 0.0
    finals = 0.0
    for _ in range(300):
        obs, rew, term, _, info = env.step(_masked(rng, obs["action_mask"]))
        total += float(rew.sum())
        finals += float(info["final_scores"][term, 0].sum())
    assert {s for _, s, *_ in seen} == {1, 2, 3}
    assert total == finals != 0  # the learner's rewards are its seat's settlements (reward_scale 1)


def test_unsupported_set_ups_keep_the_per_table_path() -> None:
    assert rl.VectorEnv(2, "mcr", opponents="efficiency").batched
    assert rl.VectorEnv(2, "mcr", opponents="random").batched
    assert supports(resolve("mcr"), opponents="random")
    assert not rl.VectorEnv(2, "mcr", opponents="strong").batched  # other bots: the per-table path
    assert not rl.VectorEnv(2, "mcr", opponents=[RandomBot(1), RandomBot(2), RandomBot(3)]).batched
    assert not rl.VectorEnv(2, "wenzhou", opponents="efficiency").batched  # wildcards: the per-table path
    assert not rl.VectorEnv(2, "mcr", opponents="efficiency", hands=2).batched
    with pytest.raises(MajiangError, match="batched core"):
        rl.VectorEnv(2, "wenzhou", opponents="random", batched=True)


def test_skipped_rows_stay_unchanged_and_minus_one_is_refused_otherwise() -> None:
    env = rl.VectorEnv(3, "mcr")
    obs, _ = env.reset(seed=4)
    core = env.core
    before = core.hand.copy(), core.phase.copy(), core._log_n.copy()
    acts = _masked(np.random.default_rng(0), obs["action_mask"])
    acts[1] = -1
    with pytest.raises(rl.ActionIndexError, match="table 1"):
        env.step(acts)
    core.step(acts, skip=True)
    assert np.array_equal(core.hand[1], before[0][1]) and core.phase[1] == before[1][1]
    assert core._log_n[1] == before[2][1] and core._log_n[0] == before[2][0] + 1


@pytest.mark.parametrize("preset", ["mcr", "taiwan"])
def test_shanten_rows_is_the_analysis_shanten(preset: str) -> None:
    """kernels.shanten_rows against majiang.analysis.shanten (the bot's shapes) on random hands:
    the hand's shanten, the lowest after a discard and the discards that reach it."""
    import dataclasses
    import random

    from majiang.analysis import shanten
    from majiang.rl import kernels
    from majiang.rl.fast_bots import kernel_flags

    rules = resolve(preset)
    shapes = dataclasses.replace(rules.shape_rules, honors_and_knitted=False, knitted_straight=False)
    flags = kernel_flags(shapes)[0]
    rng = random.Random(5)
    hands = []
    for k in range(400):
        size = rng.choice([rules.hand_size + 1, rules.hand_size, 5, 8, 11, 4, 7])
        c = [0] * 34
        pool = [t for t in range(34) for _ in range(4)]
        if k % 3 == 0:  # pairs and runs in one suit: near-complete hands
            pool = [t for t in range(9) for _ in range(4)] + [27, 27, 27, 28, 28, 28]
        for t in rng.sample(pool, size):
            c[t] += 1
        hands.append(c)
    for done in ({0: 3, 9: 3, 18: 3, 27: 3, 28: 2}, {0: 3, 1: 2}, {4: 2}, {1: 1, 2: 1, 3: 1, 33: 2}):
        hands.append([done.get(t, 0) for t in range(34)])  # complete hands
    if rules.hand_size == 16:
        hands.append([3 if t in (0, 9, 18, 27, 28) else 2 if t == 29 else 0 for t in range(34)])
    res = kernels.shanten_rows(np.array(hands), np.ones(len(hands), dtype=bool), flags)
    lows = 0
    for c, (now, best, bad, bits) in zip(hands, res.tolist()):
        assert bad == 0
        assert now == shanten(c, 0, shapes)
        if sum(c) % 3 == 2:
            after = {}
            for t in range(34):
                if c[t]:
                    c[t] -= 1
                    after[t] = shanten(c, 0, shapes)
                    c[t] += 1
            low = min(after.values())
            assert best == low
            assert bits == sum(1 << t for t, v in after.items() if v == low)
            lows += now < best
        else:
            assert best == 99 and bits == 0
    assert lows > 0  # complete hands among them (the shanten after a discard is then higher)


def test_quick_win_decisions_are_the_engines(monkeypatch) -> None:
    """``BatchedCore._quick_win`` (the MCR scorer's compiled ``quick_value`` on the arrays) gives
    the engine's answer (``HandTable._score_win`` on the synced table) for every win it decides,
    self-drawn and on a discard, in learner rows against efficiency bots (who wait in tenpai, so
    MCR's 8-point minimum refuses many of their wins)."""
    checked = {True: 0, False: 0, "refused": 0}
    orig = B.BatchedCore._quick_win

    def both(self, i, seat, tile, self_drawn):
        q = orig(self, i, seat, tile, self_drawn)
        if q is not None:
            tb = self._sync(i)
            discarder = None if self_drawn else int(self.origin[i])
            if not self_drawn:
                tb.claim_tile, tb.discarder = tile, discarder
            ref = tb._score_win(seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=False) is not None
            assert q == ref, (i, seat, tile, self_drawn)
            checked[self_drawn] += 1
            checked["refused"] += not q
        return q

    monkeypatch.setattr(B.BatchedCore, "_quick_win", both)
    env = rl.VectorEnv(16, "mcr", opponents="efficiency")
    assert env.batched
    env.core._qfunc = None  # every win to the Python quick value (the compiled one: the next test)
    env.bots._quick_on = False
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(400):
        obs, *_ = env.step(_masked(rng, obs["action_mask"]))
    assert checked[True] > 100 and checked[False] > 300 and checked["refused"] > 300, checked


def test_compiled_quick_wins_play_the_python_quick_games(monkeypatch) -> None:
    """The wins the compiled follow-ups decide by the scorer's compiled quick value (the core's step
    and the bots' loop, ``step_kernels._follow_ups``) are the Python quick value's, which the test
    above holds to the engine's: the same games, observations, rewards and records, with most of
    the Python quick value's calls gone."""
    calls = {}
    orig = B.BatchedCore._quick_win

    def counted(self, i, seat, tile, self_drawn):
        calls[id(self)] = calls.get(id(self), 0) + 1
        return orig(self, i, seat, tile, self_drawn)

    monkeypatch.setattr(B.BatchedCore, "_quick_win", counted)
    a = rl.VectorEnv(16, "mcr", opponents="efficiency", seat=1, records=True)
    b = rl.VectorEnv(16, "mcr", opponents="efficiency", seat=1, records=True)
    assert a.core._qfunc is not None and a.bots._quick_on
    b.core._qfunc = None
    b.bots._quick_on = False
    assert _same_games(a, b, 11, 400, 1) >= 20
    assert calls.get(id(a.core), 0) * 5 < calls[id(b.core)], calls
    assert calls[id(b.core)] > 300

