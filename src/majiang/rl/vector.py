"""``VectorEnv(n)``: ``n`` tables stepped together, observations and masks as numpy batches.

Two modes:

* **self-play** (``opponents=None``, the default): each table asks the seat to act next (the AEC
  environment's ``agent_selection``); ``step(actions)`` takes one index per table for that seat.
  Rewards are ``(n, 4)`` (every seat's settlement), ``info["seat"]`` says whose observation each row is.
* **learner** (``opponents="efficiency"`` ...): each table is a :class:`~majiang.rl.SingleAgentEnv`
  (``seat`` learns, bots play the rest); rewards are ``(n,)``.

Auto-reset: a table whose episode ended this step is reset at once (the next game of its sequence);
the returned row is the new episode's first observation, ``terminated[i]`` is ``True`` and the step's
rewards are the ended hand's. ``info["final_scores"]`` holds the ended match scores (``(n, 4)``, zero
for rows still playing).

Seeds: ``reset(seed=s)`` seeds table ``i`` with ``derive_seed(s, "table", i)`` (or give a list of n
seeds), so table ``i`` plays exactly what a single environment reset with that seed plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from majiang.engine import Player, RuleSet, derive_seed
from majiang.errors import MajiangError
from majiang.rl.actions import ACTION_SIZE
from majiang.rl.core import Shaping, Table
from majiang.rl.single import LearnerDriver


class VectorEnv:
    """``n`` tables (see the module doc). Other arguments as :class:`~majiang.rl.core.Table`;
    ``opponents`` and ``seat`` as :class:`~majiang.rl.SingleAgentEnv`."""

    def __init__(self, n: int, rules: RuleSet | str = "mcr", *, opponents: str | Sequence[str | Player] | None = None,
                 seat: int = 0, observation: str = "majiang-v1", oracle: bool = False, hands: int | None = 1,
                 reward_scale: float = 1.0, score_scale: float = 100.0, analysis: bool = True,
                 shaping: Shaping | None = None) -> None:
        if n < 1:
            raise MajiangError(f"a vector environment needs n >= 1 tables, got {n}")
        self.n = n
        self.tables = [Table(rules, observation, oracle=oracle, hands=hands, reward_scale=reward_scale,
                             score_scale=score_scale, analysis=analysis, shaping=shaping) for _ in range(n)]
        self.learner = opponents is not None
        self.drivers = [LearnerDriver(t, opponents, seat) for t in self.tables] if self.learner else []
        shape = self.tables[0].encoder.shape
        self.observation_shape = shape
        self.action_size = ACTION_SIZE
        self._obs = np.zeros((n, *shape), dtype=np.float32)
        self._mask = np.zeros((n, ACTION_SIZE), dtype=np.int8)
        self._seat = np.zeros(n, dtype=np.int64)

    def _fill(self, i: int) -> None:
        t = self.tables[i]
        s = self.drivers[i].seat if self.learner else t.to_act()
        assert s is not None
        self._seat[i] = s
        t.observe(s, self._obs[i])
        t.mask(s, self._mask[i])

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def _reset_one(self, i: int, seed: int | None) -> None:
        if self.learner:
            self.drivers[i].reset(seed)
        else:
            self.tables[i].reset(seed)
        self._fill(i)

    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset every table; returns ``({"observation": (n, C, 34), "action_mask": (n, A)}, info)``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.n
        elif isinstance(seed, int):
            seeds = [derive_seed(seed, "table", i) for i in range(self.n)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != self.n:
                raise MajiangError(f"give one seed or {self.n}, got {len(seeds)}")
        for i, s in enumerate(seeds):
            self._reset_one(i, s)
        return self._batch(), {"seat": self._seat.copy()}

    def step(self, actions: Sequence[int] | np.ndarray):
        """One index per table. Returns ``(obs, rewards, terminated, truncated, info)``: rewards
        ``(n, 4)`` in self-play, ``(n,)`` in learner mode. An illegal index raises
        :class:`~majiang.rl.actions.ActionIndexError` naming it (tables before it have stepped)."""
        acts = np.asarray(actions).reshape(-1)
        if acts.shape[0] != self.n:
            raise MajiangError(f"need {self.n} actions, got {acts.shape[0]}")
        term = np.zeros(self.n, dtype=bool)
        final = np.zeros((self.n, 4), dtype=np.float64)
        if self.learner:
            rew = np.zeros(self.n, dtype=np.float64)
        else:
            rew = np.zeros((self.n, 4), dtype=np.float64)
        for i in range(self.n):
            t = self.tables[i]
            if self.learner:
                rew[i] = self.drivers[i].step(int(acts[i]))
            else:
                rew[i] = t.step(int(self._seat[i]), int(acts[i]))
            if t.done:
                term[i] = True
                final[i] = t.match.scores
                self._reset_one(i, None)
            else:
                self._fill(i)
        return (self._batch(), rew, term, np.zeros(self.n, dtype=bool),
                {"seat": self._seat.copy(), "final_scores": final})

    def close(self) -> None:
        pass
