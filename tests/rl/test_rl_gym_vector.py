"""The Gymnasium vector API (issue 28): ``make_vec`` in every vectorization mode, ``VectorEnv`` as a
``gymnasium.vector.VectorEnv`` (spaces, autoreset mode, ``final_obs``), ``render()``'s convention."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.engine import derive_seed  # noqa: E402


def _masked(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal index per row."""
    out = np.empty(len(masks), dtype=np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        out[i] = legal[rng.integers(len(legal))]
    return out


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_runs_10000_steps(mode: str) -> None:
    # the reported crash: the first auto-reset put info["game_seed"] (unsigned 64-bit) in an int64 array
    envs = gym.make_vec(rl.GYM_ID, num_envs=4, vectorization_mode=mode, rules="mcr", opponents="random")
    try:
        assert envs.observation_space == batch_space(envs.single_observation_space, 4)
        obs, info = envs.reset(seed=3)
        assert envs.observation_space.contains(obs)
        assert info["game_seed"].dtype == np.uint64
        rng = np.random.default_rng(0)
        steps = ended = 0
        while steps < 10_000:
            obs, rew, term, trunc, info = envs.step(_masked(rng, obs["action_mask"]))
            steps += 4
            ended += int(term.sum())
            assert rew.shape == (4,) and not trunc.any()
        assert envs.observation_space.contains(obs)
        assert ended > 50  # hands end (about 60 learner decisions a hand against random bots)
    finally:
        envs.close()


def test_make_vec_entry_point_is_our_vector_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "missing AutoresetMode metadata" warning
        envs = gym.make_vec(rl.GYM_ID, num_envs=3, rules="mcr", opponents="random")
    assert isinstance(envs, rl.VectorEnv) and isinstance(envs, gym.vector.VectorEnv)
    assert envs.learner and envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, _ = envs.reset(seed=1)
    assert envs.observation_space.contains(obs)
    envs.close()
    assert envs.closed


@pytest.mark.parametrize("opponents", [None, "random"])
def test_vector_env_spaces_and_final_obs(opponents) -> None:
    env = rl.VectorEnv(4, "mcr", opponents=opponents)
    single_obs, single_act = env.single_observation_space, env.single_action_space
    assert single_act == gym.spaces.Discrete(rl.ACTION_SIZE)
    assert single_obs == rl.SingleAgentEnv("mcr").observation_space
    assert env.observation_space == batch_space(single_obs, 4)
    assert env.action_space == batch_space(single_act, 4)
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(3000):
        obs, rew, term, trunc, info = env.step(_masked(rng, obs["action_mask"]))
        assert env.observation_space.contains(obs)
        if term.any():
            assert (info["_final_obs"] == term).all()
            for i in range(4):
                f = info["final_obs"][i]
                if term[i]:
                    assert single_obs.contains(f)
                    assert not f["observation"].any() and np.flatnonzero(f["action_mask"]).tolist() == [0]
                    seen += 1
                else:
                    assert f is None
        else:
            assert "final_obs" not in info
        if seen >= 3:
            break
    assert seen >= 3


def test_vector_env_num_envs_and_options() -> None:
    env = rl.VectorEnv(num_envs=2)
    assert env.n == env.num_envs == 2
    with pytest.raises(ValueError, match="not both"):
        rl.VectorEnv(2, num_envs=3)
    with pytest.raises(ValueError, match="options"):
        env.reset(seed=0, options={"x": 1})


def test_render_convention() -> None:
    single = rl.SingleAgentEnv("mcr", opponents="random")
    single.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert single.render() is None
    aec = rl.env("mcr")
    aec.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert aec.render() is None
    for batched in (True, False):
        v = rl.VectorEnv(2, "mcr", batched=batched, render_mode="ansi")
        v.reset(seed=4)
        texts = v.render()
        assert isinstance(texts, tuple) and len(texts) == 2
        assert all("legal:" in t and "seat 0" in t for t in texts)
    a = rl.VectorEnv(2, "mcr", batched=True, render_mode="ansi")
    b = rl.VectorEnv(2, "mcr", batched=False, render_mode="ansi")
    a.reset(seed=4)
    b.reset(seed=4)
    assert a.render() == b.render()  # the batched row's text is rebuilt from its record
    with pytest.warns(UserWarning):
        assert rl.VectorEnv(1).render() is None


def test_single_env_info_seed_is_unsigned() -> None:
    e = rl.SingleAgentEnv("mcr", opponents="random")
    _, info = e.reset(seed=9)
    assert isinstance(info["game_seed"], np.uint64)
    assert int(info["game_seed"]) == e.table.game_seed == 9
    e2 = rl.SingleAgentEnv("mcr", opponents="random")
    e2.reset(seed=derive_seed(1, "x"))  # above 2**63 for this seed
    assert int(e2.reset()[1]["game_seed"]) == e2.table.game_seed
