"""FastEfficiencyBot (majiang.rl.fast_bots) against the reference EfficiencyBot: the same choice on
thousands of real decision states of every preset, the same candidates and useful counts, the same
records for whole games, and the "efficiency" opponents of the learner environments."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from majiang.engine import PRESET_NAMES, ActionKind, Match, run_match  # noqa: E402
from majiang.players import EfficiencyBot, RandomBot  # noqa: E402
from majiang.records.jsonl import record_lines  # noqa: E402
from majiang.rl import SingleAgentEnv, VectorEnv, kernels  # noqa: E402
from majiang.rl.fast_bots import FastEfficiencyBot, make_opponent  # noqa: E402

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba cannot be imported")


def _states(preset: str, games: int):
    """Every decision state (view, legal actions) of ``games`` two-hand matches where efficiency bots
    play two seats and random bots the other two (random play reaches hands the bot would not:
    undeclared complete hands, odd discards)."""
    ref = EfficiencyBot(preset)
    for g in range(games):
        m = Match(preset, seed=1000 + g, max_hands=2)
        players = [ref if (p + g) % 2 else RandomBot(seed=4 * g + p) for p in range(4)]
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            v = m.view(s)
            yield v, acts
            m.apply(s, players[m.player_at_seat[s]].choose(v, acts))


def _reference_candidates(bot: EfficiencyBot, counts: list[int], view, allowed: list[int]):
    """The reference bot's lowest shanten after an allowed discard and each best discard's useful
    count, from its own Python code (_discard_shanten, _useful)."""
    scored = EfficiencyBot._discard_shanten(bot, counts, view, allowed)
    best = min(s for s, _ in scored)
    visible = view.visible_counts()
    useful = {}
    for s, t in scored:
        if s == best:
            counts[t] -= 1
            useful[t] = EfficiencyBot._useful(bot, counts, view, visible)
            counts[t] += 1
    return best, useful


def _turns(preset, games):
    """The turn states of :func:`_states` that offer discards: ``(view, actions, counts, allowed)``."""
    for view, acts in _states(preset, games):
        allowed = [a.tile for a in acts if a.kind is ActionKind.DISCARD and a.tile is not None]
        if view.phase != "turn" or not allowed:
            continue
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        yield view, acts, counts, allowed


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_same_decisions_on_real_states(preset):
    ref, fast = EfficiencyBot(preset), FastEfficiencyBot(preset)
    decisions = turns = 0
    for view, acts in _states(preset, 14):
        assert fast.choose(view, acts) == ref.choose(view, acts)
        decisions += 1
    for view, acts, counts, allowed in _turns(preset, 14):
        got = fast.kernel_discards(list(counts), view, allowed)
        assert got is not None  # no preset's real hand leaves the kernel out (a best discard is allowed)
        assert got == _reference_candidates(ref, list(counts), view, allowed)
        assert fast._best_discard(list(counts), view, allowed) == EfficiencyBot._best_discard(ref, counts, view,
                                                                                               allowed)
        # the table withholding every best discard (as it may a wildcard): the bot's own code decides
        rest = [t for t in allowed if t not in got[1]]
        if rest:
            assert fast.kernel_discards(list(counts), view, rest) is None
            assert fast._best_discard(list(counts), view, rest) == EfficiencyBot._best_discard(ref, counts, view, rest)
        turns += 1
    assert decisions > 1000 and turns > 700
    assert fast.kernel_used > turns  # the kernel chose (the checks above, and most of choose's turns)


def test_complete_hand_not_declared_counts_the_discarded_tile():
    """A complete hand that is not declared (the random seats pass on wins): the draws that lower the
    shanten after a best discard include the discarded tile itself, counted as the bot counts it."""
    seen = 0
    for preset in ("mcr", "wenzhou"):
        ref, fast = EfficiencyBot(preset), FastEfficiencyBot(preset)
        for view, _, counts, allowed in _turns(preset, 14):
            if ref._shanten(counts, view) != -1:
                continue
            seen += 1
            assert fast.kernel_discards(list(counts), view, allowed) == _reference_candidates(ref, counts, view,
                                                                                             allowed)
    assert seen >= 10


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_same_records_for_whole_games(preset):
    for seed in range(3):
        a = run_match(Match(preset, seed=seed, max_hands=2), [EfficiencyBot(preset) for _ in range(4)])
        fast = [FastEfficiencyBot(preset) for _ in range(4)]
        b = run_match(Match(preset, seed=seed, max_hands=2), fast)
        assert record_lines(b) == record_lines(a)
        assert sum(f.kernel_used for f in fast) > 0


def test_knitted_shapes_keep_the_python_path():
    """With ``fast=False`` (the knitted shapes counted, which the kernel does not compute) every
    decision is EfficiencyBot's own code: the same record, the kernel never used."""
    a = run_match(Match("mcr", seed=4, max_hands=1), [EfficiencyBot("mcr", fast=False) for _ in range(4)])
    fast = [FastEfficiencyBot("mcr", fast=False) for _ in range(4)]
    b = run_match(Match("mcr", seed=4, max_hands=1), fast)
    assert record_lines(b) == record_lines(a)
    assert all(f.kernel_used == 0 for f in fast)


def test_learner_envs_use_the_fast_bot():
    assert type(make_opponent("efficiency", SingleAgentEnv("mcr").table.rules)) is FastEfficiencyBot
    assert type(make_opponent("random", SingleAgentEnv("mcr").table.rules, 1)) is RandomBot
    for preset in ("mcr", "wenzhou"):
        env = SingleAgentEnv(preset)
        env.reset(seed=5)
        assert all(type(b) is FastEfficiencyBot for b in env.driver.bots.values())
        vec = VectorEnv(2, preset, opponents="efficiency", batched=False)  # the per-table learner path
        vec.reset(seed=5)
        assert vec.drivers and all(type(b) is FastEfficiencyBot for d in vec.drivers for b in d.bots.values())


@pytest.mark.parametrize("preset", ["mcr", "wenzhou"])
def test_learner_episodes_unchanged(preset, monkeypatch):
    """SingleAgentEnv with the fast opponents plays the same episodes as with the reference bots
    (the same masked random learner actions, the same observations and rewards)."""
    import majiang.rl.single as single
    from majiang.players import make_bot

    def run():
        env = SingleAgentEnv(preset)
        rng = np.random.default_rng(7)
        obs, _ = env.reset(seed=11)
        trace = []
        for _ in range(300):
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, term, trunc, _ = env.step(a)
            trace.append((a, r, obs["observation"].tobytes()))
            if term or trunc:
                obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
        return trace

    fast = run()
    monkeypatch.setattr(single, "make_opponent", make_bot)
    assert run() == fast
