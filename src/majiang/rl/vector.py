"""``VectorEnv(n)``: ``n`` tables stepped together, observations and masks as numpy batches.

Two modes:

* **self-play** (``opponents=None``, the default): each table asks the seat to act next (the AEC
  environment's ``agent_selection``); ``step(actions)`` takes one index per table for that seat.
  Rewards are ``(n, 4)`` (every seat's settlement), ``info["seat"]`` says whose observation each row is.
* **learner** (``opponents="efficiency"`` ...): each table is a :class:`~majiang.rl.SingleAgentEnv`
  (``seat`` learns, bots play the rest); rewards are ``(n,)``. On the batched core for the bots
  ``random`` and ``efficiency`` (:mod:`majiang.rl.batched_learner`; ``random`` from its own seeded
  hash, not :class:`~majiang.players.RandomBot`'s stream).

A Gymnasium vector environment (:class:`gymnasium.vector.VectorEnv`): ``observation_space`` and
``action_space`` are the batched ``single_observation_space`` (the ``Dict`` of
:class:`~majiang.rl.SingleAgentEnv`) and ``single_action_space`` (``Discrete(269)``);
``gymnasium.make_vec("majiang/SingleAgent-v1", num_envs=n)`` builds one directly (the
``vector_entry_point`` mode, opponents ``"efficiency"`` as the single environment's default), and the
``sync``/``async`` modes wrap :class:`~majiang.rl.SingleAgentEnv` as usual.

Auto-reset (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): a table whose episode
ended this step is reset at once (the next game of its sequence); the returned row is the new
episode's first observation, ``terminated[i]`` is ``True`` and the step's rewards are the ended
hand's. ``info["final_obs"]`` (an object array, ``None`` for rows still playing, with the boolean
``info["_final_obs"]``) holds each ended row's last observation -- the terminal one: zero planes
and a pass-only mask, what a single environment returns at its end. ``info["final_scores"]`` holds the ended match scores (``(n, 4)``, zero
for rows still playing). With ``records=True``, ``info["final_records"][i]`` is the ended game as an
engine :class:`~majiang.engine.Match` (``None`` for rows still playing), to save with
``majiang.records.jsonl.write_record``; :meth:`VectorEnv.record` gives a row's current game.

Seeds: ``reset(seed=s)`` seeds table ``i`` with ``derive_seed(s, "table", i)`` (or give a list of n
seeds), so table ``i`` plays exactly what a single environment reset with that seed plays.

Two engines behind the same interface (``batched=``):

* the **batched core** (:mod:`majiang.rl.batched`): the ``n`` hands as numpy arrays stepped together,
  masks and observations built for all rows at once, the rare events (wins, scoring, claims) through
  the engine per row. Chosen automatically (``batched=None``) when it supports the set-up
  (:func:`majiang.rl.batched.supports`: every preset -- ``mcr``, ``shandong``, ``taiwan``, the
  wildcard sets ``wenzhou``, ``wenzhou-w16``, ``seed000`` -- and their options but 报听, 宝牌 and
  flower wins under a minimum score; self-play, or a learner against ``random``/``efficiency`` bots
  without wildcards; one hand per episode; no shaping). It plays exactly
  the per-table game (tests/rl/test_rl_batched.py).
* the **per-table path**: one :class:`~majiang.rl.core.Table` per row (every preset and option).
  ``batched=False`` forces it; ``batched=True`` raises :class:`~majiang.errors.MajiangError` when the
  batched core does not support the set-up.

:meth:`VectorEnv.record` rebuilds a table's current game as an engine :class:`~majiang.engine.Match`
(replaying its actions), whichever path runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from majiang.engine import Match, Player, RuleSet, derive_seed, resolve
from majiang.errors import MajiangError
from majiang.rl.actions import ACTION_SIZE, PASS_INDEX, ActionIndexError, describe_index
from majiang.rl.aec import _spaces
from majiang.rl.batched import BatchedCore, unsupported
from majiang.rl.batched_learner import BatchedLearner, bot_names
from majiang.rl.core import EpisodeSeeds, Shaping, Table
from majiang.rl.observations import Encoder
from majiang.rl.single import LearnerDriver


def _indices(actions: Sequence[int] | np.ndarray) -> np.ndarray:
    """The actions as int64 indices: integers, or floats with no fraction (as
    :func:`~majiang.rl.actions.as_index`); anything else is an :class:`ActionIndexError`."""
    acts = np.asarray(actions)
    kind = acts.dtype.kind
    if kind not in "iuf":
        raise ActionIndexError(f"actions must be integer indices, got an array of {acts.dtype}")
    acts = acts.reshape(-1)
    if kind == "f":
        whole = np.isfinite(acts) & (acts == np.floor(acts))
        if not whole.all():
            i = int((~whole).nonzero()[0][0])
            raise ActionIndexError(f"table {i}: action index {float(acts[i])!r} is not a whole number")
    return acts.astype(np.int64, copy=False)


class VectorEnv(gym.vector.VectorEnv):
    """``n`` tables (see the module doc). Other arguments as :class:`~majiang.rl.core.Table`;
    ``opponents`` and ``seat`` as :class:`~majiang.rl.SingleAgentEnv`; ``batched``: ``None`` (use the
    batched core where supported), ``True`` (require it) or ``False`` (one table per row).
    :attr:`batched` says which runs. ``num_envs`` is Gymnasium's name for ``n`` (give one of them);
    ``render_mode``: ``None`` or ``"ansi"`` (:meth:`render` returns each table's text)."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, n: int | None = None, rules: RuleSet | str = "mcr", *,
                 opponents: str | Sequence[str | Player] | None = None,
                 seat: int = 0, observation: str = "majiang-v1", oracle: bool = False, hands: int | None = 1,
                 reward_scale: float = 1.0, score_scale: float = 100.0, analysis: bool = True,
                 shaping: Shaping | None = None, batched: bool | None = None, records: bool = False,
                 num_envs: int | None = None, render_mode: str | None = None) -> None:
        if num_envs is not None:
            if n is not None and n != num_envs:
                raise MajiangError(f"give n or num_envs, not both ({n} and {num_envs})")
            n = num_envs
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MajiangError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise MajiangError(f"n is the number of tables, an int; got {n!r}")
        if n < 1:
            raise MajiangError(f"a vector environment needs n >= 1 tables, got {n}")
        if batched is not None and not isinstance(batched, bool):
            raise MajiangError(f"batched must be None, True or False, got {batched!r}")
        self.n = n
        self.rules = resolve(rules)
        why = unsupported(self.rules, hands=hands, shaping=shaping, opponents=opponents, observation=observation)
        ok = not why
        if batched and not ok:
            raise MajiangError(f"the batched core does not support this set-up (rules {self.rules.name!r}: "
                               + "; ".join(why) + "); use batched=False or None")
        self.batched = ok if batched is None else bool(batched)
        self.learner = opponents is not None
        self.records = bool(records)
        if self.batched:
            if reward_scale == 0:
                raise MajiangError("reward_scale must not be 0")
            enc = Encoder(self.rules, observation, oracle=oracle, analysis=analysis, score_scale=score_scale)
            self.core: BatchedCore | None = BatchedCore(n, self.rules, enc, reward_scale)
            self.bots: BatchedLearner | None = None
            if self.learner:
                names = bot_names(opponents)
                assert names is not None
                if not 0 <= seat < 4:
                    raise MajiangError(f"seat must be 0-3, got {seat}")
                self.bots = BatchedLearner(self.core, names, seat)
            self.tables: list[Table] = []
            self._row_seeds = [EpisodeSeeds() for _ in range(n)]
            shape = enc.shape
        else:
            self.core = None
            self.bots = None
            self.tables = [Table(self.rules, observation, oracle=oracle, hands=hands, reward_scale=reward_scale,
                                 score_scale=score_scale, analysis=analysis, shaping=shaping) for _ in range(n)]
            shape = self.tables[0].encoder.shape
        self.drivers = [LearnerDriver(t, opponents, seat) for t in self.tables] if self.learner else []
        self.observation_shape = shape
        self.action_size = ACTION_SIZE
        self.num_envs = n
        probe = self.tables[0] if self.tables else Table(self.rules, observation, oracle=oracle)
        self.single_observation_space, self.single_action_space = _spaces(probe)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._obs = np.zeros((n, *shape), dtype=np.float32)
        self._mask = np.zeros((n, ACTION_SIZE), dtype=np.int8)
        self._seat = np.zeros(n, dtype=np.int64)
        self._started = False

    def _fill(self, i: int) -> None:
        t = self.tables[i]
        s = self.drivers[i].seat if self.learner else t.to_act()
        assert s is not None
        self._seat[i] = s
        t.observe(s, self._obs[i])
        t.mask(s, self._mask[i])

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def _game_seed(self, i: int, seed: int | None) -> int:
        """Row ``i``'s next game seed, as :meth:`majiang.rl.core.Table.reset` chooses it."""
        return self._row_seeds[i].next(seed)

    def _reset_one(self, i: int, seed: int | None) -> None:
        if self.core is not None:
            self.core.reset_row(i, self._game_seed(i, seed))
            return
        if self.learner:
            self.drivers[i].reset(seed)
        else:
            self.tables[i].reset(seed)
        self._fill(i)

    def reset(self, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset every table; returns ``({"observation": (n, C, 34), "action_mask": (n, A)}, info)``.
        ``options`` (Gymnasium's) takes nothing yet: any key is an error."""
        if options:
            raise MajiangError(f"VectorEnv.reset takes no options, got {sorted(options)}")
        if seed is None:
            seeds: list[int | None] = [None] * self.n
        elif isinstance(seed, int):
            seeds = [derive_seed(seed, "table", i) for i in range(self.n)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != self.n:
                raise MajiangError(f"give one seed or {self.n}, got {len(seeds)}")
        self._started = True
        if self.core is not None:
            self.core.reset_rows(list(range(self.n)), [self._game_seed(i, s) for i, s in enumerate(seeds)])
            if self.bots is not None:
                self._deal_learner()
        else:
            for i, s in enumerate(seeds):
                self._reset_one(i, s)
        if self.core is not None:
            return self._batched_out(), {"seat": self._seat.copy()}
        return self._batch(), {"seat": self._seat.copy()}

    def step(self, actions: Sequence[int] | np.ndarray):
        """One index per table (integers, or floats with no fraction). Returns ``(obs, rewards,
        terminated, truncated, info)``: rewards ``(n, 4)`` in self-play, ``(n,)`` in learner mode. An
        illegal index (in self-play) or one outside the layout raises
        :class:`~majiang.rl.actions.ActionIndexError` naming the table, before any table steps."""
        if not self._started:
            raise ActionIndexError("no episode yet: call reset() first")
        acts = _indices(actions)
        if acts.shape[0] != self.n:
            raise MajiangError(f"need {self.n} actions, got {acts.shape[0]}")
        term = np.zeros(self.n, dtype=bool)
        final = np.zeros((self.n, 4), dtype=np.float64)
        if self.core is not None:
            return self._step_batched(acts, term, final)
        # every row checked before any steps (as the batched core does): a refused batch changes nothing
        bad = (acts < 0) | (acts >= ACTION_SIZE)
        if bad.any():
            i = int(bad.nonzero()[0][0])
            raise ActionIndexError(f"table {i}: action index {int(acts[i])} outside 0-{ACTION_SIZE - 1}")
        if not self.learner:  # a learner's illegal index is the SingleAgentEnv's to judge (illegal_reward)
            bad = self._mask[np.arange(self.n), acts] == 0
            if bad.any():
                i = int(bad.nonzero()[0][0])
                a = int(acts[i])
                legal = self._mask[i].nonzero()[0]
                raise ActionIndexError(f"table {i}: seat {int(self._seat[i])} cannot {describe_index(a)} (index {a}) "
                                       "now; legal: " + ", ".join(f"{x} {describe_index(int(x))}" for x in legal))
        if self.learner:
            rew = np.zeros(self.n, dtype=np.float64)
        else:
            rew = np.zeros((self.n, 4), dtype=np.float64)
        records: list | None = [None] * self.n if self.records else None
        for i in range(self.n):
            t = self.tables[i]
            if self.learner:
                rew[i] = self.drivers[i].step(int(acts[i]))
            else:
                rew[i] = t.step(int(self._seat[i]), int(acts[i]))
            if t.done:
                term[i] = True
                final[i] = t.match.scores
                if records is not None:
                    records[i] = t.match
                self._reset_one(i, None)
            else:
                self._fill(i)
        return (self._batch(), rew, term, np.zeros(self.n, dtype=bool), self._info(final, records, term))

    def _info(self, final: np.ndarray, records: list | None, term: np.ndarray | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self._seat.copy(), "final_scores": final}
        if records is not None:
            info["final_records"] = records
        if term is not None and term.any():
            fobs = np.full(self.n, None, dtype=object)
            for i in np.flatnonzero(term).tolist():
                mask = np.zeros(ACTION_SIZE, dtype=np.int8)
                mask[PASS_INDEX] = 1
                fobs[i] = {"observation": np.zeros(self.observation_shape, dtype=np.float32), "action_mask": mask}
            info["final_obs"] = fobs
            info["_final_obs"] = term.copy()
        return info

    def _batched_out(self) -> dict[str, np.ndarray]:
        core = self.core
        assert core is not None
        obs, mask = core.fill()  # new arrays each step: handed out without a copy
        self._obs, self._mask = obs, mask
        self._seat[:] = core.seat
        return {"observation": obs, "action_mask": mask}

    def _learner_ends(self, counted: np.ndarray, term: np.ndarray, final: np.ndarray, records: list | None):
        """The callback of :meth:`BatchedLearner.advance` for rows whose hand ended (bool): a counted
        row's hand is the step's episode end (``term``, ``final``, ``records``), its next game is dealt
        and no longer counted; a row not counted (a new hand that ended before the learner's first
        decision) is dealt its next game, as :meth:`LearnerDriver.reset` skips it."""
        core, bots = self.core, self.bots
        assert core is not None and bots is not None

        def ended(d: np.ndarray) -> None:
            e = d & counted
            if e.any():
                rows = np.flatnonzero(e)
                term[rows] = True
                final[rows] = core.deltas[rows]  # one hand per episode: the match scores are its deltas
                if records is not None:
                    for i in rows.tolist():
                        records[i] = core.replay(i)
                counted[rows] = False
            again = np.flatnonzero(d).tolist()
            core.reset_rows(again, [self._game_seed(i, None) for i in again])
            bots.new_hands(again)

        return ended

    def _deal_learner(self) -> None:
        """After a reset: the bots play every row up to the learner's first decision."""
        bots = self.bots
        assert bots is not None
        bots.new_hands(range(self.n))
        counted = np.zeros(self.n, dtype=bool)
        sink = np.zeros(self.n, dtype=np.float64)
        ends = self._learner_ends(counted, np.zeros(self.n, dtype=bool), np.zeros((self.n, 4)), None)
        bots.advance(np.ones(self.n, dtype=bool), sink, counted, ends)

    def _step_batched(self, acts: np.ndarray, term: np.ndarray, final: np.ndarray):
        core = self.core
        assert core is not None
        records: list | None = [None] * self.n if self.records else None
        if self.bots is not None:  # the learner's actions, then the bots until the learner is awaited
            r = core.step(acts)
            rew = r[:, self.bots.seat].copy()
            counted = np.ones(self.n, dtype=bool)
            ended = self._learner_ends(counted, term, final, records)
            d = core.done.copy()
            if d.any():
                ended(d)
            self.bots.advance(np.ones(self.n, dtype=bool), rew, counted, ended)
            return self._batched_out(), rew, term, np.zeros(self.n, dtype=bool), self._info(final, records, term)
        rew = core.step(acts)
        ended = np.flatnonzero(core.done)
        if ended.size:
            term[ended] = True
            final[ended] = core.deltas[ended]  # one hand per episode: the match scores are its deltas
            if records is not None:
                for i in ended.tolist():
                    records[i] = core.replay(i)
            core.reset_rows(ended.tolist(), [self._game_seed(i, None) for i in ended.tolist()])
        return self._batched_out(), rew, term, np.zeros(self.n, dtype=bool), self._info(final, records, term)

    def record(self, i: int) -> Match | None:
        """A copy of table ``i``'s current game as an engine :class:`~majiang.engine.Match` (its
        ``events`` are the record), independent of the environment: the batched core rebuilds it by
        replaying the game's actions on the engine, a per-table row by replaying its record
        (:meth:`~majiang.rl.core.Table.record`)."""
        if self.core is not None:
            return self.core.replay(i)
        return self.tables[i].record()

    def render(self) -> tuple[str, ...] | None:
        """Gymnasium's convention: with ``render_mode="ansi"`` each table's text
        (:meth:`~majiang.rl.core.Table.render_text`, a batched row's rebuilt from its record); without a
        render mode ``None`` and a warning."""
        if self.render_mode is None:
            import warnings

            warnings.warn("render() without a render_mode draws nothing; make the VectorEnv with "
                          "render_mode='ansi'", UserWarning, stacklevel=2)
            return None
        if self.core is None:
            return tuple(t.render_text() for t in self.tables)
        out = []
        for i in range(self.n):
            t = Table(self.rules)
            t.match = self.core.replay(i)
            out.append(t.render_text())
        return tuple(out)

    def close_extras(self, **kwargs: Any) -> None:
        pass


def make_vector(num_envs: int = 1, rules: RuleSet | str = "mcr", opponents: str | Sequence[str | Player] = "efficiency",
                **kwargs: Any) -> VectorEnv:
    """The ``vector_entry_point`` of ``majiang/SingleAgent-v1``: a learner :class:`VectorEnv` with the
    single environment's defaults (``opponents="efficiency"``); other keywords as :class:`VectorEnv`
    (``max_episode_steps``, which Gymnasium may add, must be ``None``)."""
    if kwargs.pop("max_episode_steps", None) is not None:
        raise MajiangError("majiang episodes end with the hand: max_episode_steps is not supported")
    return VectorEnv(num_envs, rules, opponents=opponents, **kwargs)
