"""PettingZoo environments: :class:`MajiangAEC` (``majiang.rl.env``) and :class:`MajiangParallel`
(``majiang.rl.parallel_env``). docs/rl.md describes both.

Agents ``seat_0``..``seat_3`` are the table's seats. In the AEC environment the agent to act is the
lowest awaited seat (a claim window asks its seats one after another, each answer hidden from the
others until all have answered, as :func:`~majiang.engine.run_match` does). In the parallel
environment every agent acts each step: the awaited seats answer together (a turn awaits one seat,
a claim window all that may claim); the others' ``action_mask`` is ``pass`` only, and any other
action for them is refused (:class:`~majiang.rl.actions.ActionIndexError`) before anything is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from majiang.engine import RuleSet
from majiang.errors import MajiangError
from majiang.rl.actions import ACTION_SIZE, ActionIndexError, as_index, describe_index
from majiang.rl.batched_table import BatchedTable
from majiang.rl.core import Shaping, Table, info_of, render
from majiang.rl.observations import observation_bounds

AGENTS = [f"seat_{i}" for i in range(4)]
_SEAT = {a: i for i, a in enumerate(AGENTS)}


def _agent(agent: Any) -> str:
    """``agent`` if it names one of the four agents, else an :class:`ActionIndexError` listing them."""
    if agent not in _SEAT:
        raise ActionIndexError(f"no agent {agent!r}: the agents are {', '.join(AGENTS)}")
    return agent


def make_table(rules: RuleSet | str = "mcr", observation: str = "majiang-v1", *, batched: bool | None = None,
               **kwargs: Any) -> Table | BatchedTable:
    """The table behind the AEC environment: :class:`~majiang.rl.batched_table.BatchedTable` (the
    batched core, one row, compiled loops) where it plays the set-up exactly and numba is there
    (``batched=None``), else :class:`~majiang.rl.core.Table` (the engine). ``batched=True`` requires
    the batched table (a :class:`~majiang.errors.MajiangError` saying why not), ``False`` refuses it."""
    from majiang.engine import resolve
    from majiang.rl import step_kernels
    from majiang.rl.batched import unsupported

    if batched is not None and not isinstance(batched, bool):
        raise MajiangError(f"batched must be None, True or False, got {batched!r}")
    if batched is None or batched:
        rs = resolve(rules)
        why = unsupported(rs, hands=kwargs.get("hands", 1), shaping=kwargs.get("shaping"), observation=observation)
        if batched and why:
            raise MajiangError(f"the batched core does not support this set-up (rules {rs.name!r}: "
                               + "; ".join(why) + "); use batched=False or None")
        if not why and (batched or step_kernels.available()):
            return BatchedTable(rs, observation, **kwargs)
        rules = rs
    return Table(rules, observation, **kwargs)


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict({
        "observation": spaces.Box(*observation_bounds(table.encoder.name, table.encoder.oracle), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (ACTION_SIZE,), dtype=np.int8),
    })
    return obs, spaces.Discrete(ACTION_SIZE)


class MajiangAEC(AECEnv):
    """The PettingZoo AEC environment (see the module doc and :class:`~majiang.rl.core.Table` for
    the arguments). ``render_mode``: ``"human"`` prints, ``"ansi"`` returns the text. ``batched``:
    which table plays (:func:`make_table`): ``None`` the batched core's one-row
    :class:`~majiang.rl.batched_table.BatchedTable` where it plays the set-up exactly (``mcr``,
    ``shandong``, ``taiwan``, ``wenzhou``, ``wenzhou-w16``, ``seed000``; the same game, faster), else the
    engine :class:`~majiang.rl.core.Table`."""

    metadata = {"render_modes": ["human", "ansi"], "name": "majiang_v1", "is_parallelizable": True}

    def __init__(self, rules: RuleSet | str = "mcr", observation: str = "majiang-v1", *, oracle: bool = False,
                 hands: int | None = 1, reward_scale: float = 1.0, score_scale: float = 100.0,
                 analysis: bool = True, shaping: Shaping | None = None, render_mode: str | None = None,
                 batched: bool | None = None) -> None:
        super().__init__()
        self.table = make_table(rules, observation, oracle=oracle, hands=hands, reward_scale=reward_scale,
                                score_scale=score_scale, analysis=analysis, shaping=shaping, batched=batched)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space, act_space = _spaces(self.table)
        self._obs_spaces = {a: obs_space for a in AGENTS}
        self._act_spaces = {a: act_space for a in AGENTS}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MajiangError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self._next_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[_agent(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[_agent(agent)]

    def seed(self, seed: int | None = None) -> None:
        """Make the next :meth:`reset` without a seed use ``seed`` (the same game as
        ``Match(rules, seed=seed)``)."""
        self._next_seed = seed

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None and self._next_seed is not None:
            seed, self._next_seed = self._next_seed, None
        self.table.reset(seed)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: info_of(self.table, i) for i, a in enumerate(self.agents)}
        self._info_hands = 0
        self._paid = False
        self.agent_selection = AGENTS[self.table.to_act()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = _SEAT.get(agent)
        if seat is None:
            raise ActionIndexError(f"no agent {agent!r}: the agents are {', '.join(AGENTS)}")
        if not self.table.started:
            raise ActionIndexError("no episode yet: call reset() first")
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def last(self, observe: bool = True):
        if not self.table.started:
            raise ActionIndexError("no episode yet: call reset() first")
        if not self.agents:
            raise ActionIndexError("the episode is over (every agent has left): call reset() for the next one")
        return super().last(observe)

    def step(self, action: Any) -> None:
        if not self.table.started:
            raise ActionIndexError("no episode yet: call reset() first")
        if not self.agents:
            raise ActionIndexError("the episode is over (every agent has left): call reset() for the next one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = _SEAT[agent]
        if action is None:
            raise ActionIndexError(f"{agent} is live: give an action index (None is for finished agents)")
        self._cumulative_rewards[agent] = 0.0
        r = self.table.step_sparse(seat, as_index(action))
        rewards = self.rewards
        if r is not None:
            for i, a in enumerate(AGENTS):
                rewards[a] = float(r[i])
            self._paid = True
        elif self._paid:  # the rewards of the step before are cleared once
            for a in AGENTS:
                rewards[a] = 0.0
            self._paid = False
        pending = self.table.pending()
        if not pending:  # the episode is over
            for a in self.agents:
                self.terminations[a] = True
        seed, hands = self.table.game_seed, self.table.hands_played
        infos = self.infos
        if hands != self._info_hands:  # a new hand: fresh info dicts
            self._info_hands = hands
            for i, a in enumerate(AGENTS):
                infos[a] = {"game_seed": None if seed is None else np.uint64(seed), "hands": hands,
                            "awaited": i in pending}
        else:  # the usual step: only "awaited" moves
            for i, a in enumerate(AGENTS):
                infos[a]["awaited"] = i in pending
        if self._paid:
            self._accumulate_rewards()
        self.agent_selection = AGENTS[pending[0]] if pending else self.agents[0]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.table, self.render_mode)

    def record(self):
        """A copy of the episode's game so far as an engine :class:`~majiang.engine.Match` (``None``
        before :meth:`reset`), independent of the environment whichever table plays
        (:meth:`~majiang.rl.core.Table.record`); ``majiang.records.jsonl.write_record(env.record(),
        path)`` saves it."""
        return self.table.record()

    def close(self) -> None:
        pass


class MajiangParallel(ParallelEnv):
    """The PettingZoo parallel environment (see the module doc). ``step(actions)`` takes an action for
    each live agent; only the awaited seats' actions are applied (in turn order), the rest must be
    ``pass`` (0) (anything else is illegal). ``batched``: which table plays, as for
    :class:`MajiangAEC` (:func:`make_table`: the batched core's one-row table for ``mcr``,
    ``shandong``, ``taiwan`` and the wildcard presets ``wenzhou``, ``wenzhou-w16``, ``seed000``).

    An illegal action (outside an agent's mask), by ``on_illegal``: ``"raise"`` (the default) raises
    :class:`~majiang.rl.actions.ActionIndexError` naming it, nothing applied; ``"terminate"`` (as
    :class:`~majiang.rl.SingleAgentEnv` and PettingZoo's classic games do) ends the episode with the
    table unchanged: each offending agent gets ``illegal_reward`` (default −100 settlement points in
    reward units, ``ILLEGAL_POINTS / reward_scale``), the others 0, and ``infos[agent]
    ["illegal_action"]`` says who. What is no action index at all (2.7, 999, a string) raises either way.
    With ``"terminate"`` PettingZoo's ``parallel_seed_test``, which samples without masks, passes."""

    metadata = {"render_modes": ["human", "ansi"], "name": "majiang_parallel_v1"}

    def __init__(self, rules: RuleSet | str = "mcr", observation: str = "majiang-v1", *, oracle: bool = False,
                 hands: int | None = 1, reward_scale: float = 1.0, score_scale: float = 100.0,
                 analysis: bool = True, shaping: Shaping | None = None, render_mode: str | None = None,
                 batched: bool | None = None, on_illegal: str = "raise", illegal_reward: float | None = None) -> None:
        from majiang.rl.single import ILLEGAL_POINTS

        if on_illegal not in ("raise", "terminate"):
            raise MajiangError(f"on_illegal must be 'raise' or 'terminate', got {on_illegal!r}")
        self.table = make_table(rules, observation, oracle=oracle, hands=hands, reward_scale=reward_scale,
                                score_scale=score_scale, analysis=analysis, shaping=shaping, batched=batched)
        self.on_illegal = on_illegal
        self.illegal_reward = (ILLEGAL_POINTS / float(reward_scale) if illegal_reward is None
                               else float(illegal_reward))
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space, act_space = _spaces(self.table)
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: act_space for a in AGENTS}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MajiangError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self._next_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[_agent(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[_agent(agent)]

    def seed(self, seed: int | None = None) -> None:
        """Make the next :meth:`reset` without a seed use ``seed``, as :meth:`MajiangAEC.seed`."""
        self._next_seed = seed

    def _obs(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: {"observation": self.table.observe(i), "action_mask": self.table.mask(i)}
                for i, a in enumerate(AGENTS) if a in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None and self._next_seed is not None:
            seed, self._next_seed = self._next_seed, None
        self.table.reset(seed)
        self.agents = list(AGENTS)
        return self._obs(), {a: info_of(self.table, i) for i, a in enumerate(AGENTS)}

    def step(self, actions: dict[str, Any]):
        if not self.table.started:
            raise ActionIndexError("no episode yet: call reset() first")
        if not self.agents:
            raise ActionIndexError("the episode is over: call reset() for the next one")
        if not isinstance(actions, Mapping):
            raise ActionIndexError(f"step takes a dict of actions, agent -> action index; got {actions!r}")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ActionIndexError(f"no live agent {', '.join(map(repr, unknown))}: the live agents are "
                                   + ", ".join(self.agents))
        pending = self.table.pending()
        missing = [AGENTS[seat] for seat in pending if AGENTS[seat] not in actions]
        if missing:
            raise ActionIndexError(f"no action for {', '.join(missing)}, awaited now (give every live agent an action)")
        index = {a: as_index(act) for a, act in actions.items()}  # not an index at all: raises
        illegal = [a for a in self.agents if a in index and (
            index[a] not in self.table.legal(_SEAT[a]) if _SEAT[a] in pending else index[a] != 0)]
        if illegal and self.on_illegal == "terminate":
            return self._end_illegal(illegal)
        for a in illegal:  # check every answer first: a refused one changes nothing
            if _SEAT[a] not in pending:  # an agent not awaited has one action: pass (index 0)
                raise ActionIndexError(f"{a} is not awaited now: its only action is pass (index 0), got "
                                       f"{describe_index(index[a])} (index {index[a]})")
            self.table.step(_SEAT[a], index[a])  # raises ActionIndexError naming the action
        total = np.zeros(4)
        for seat in pending:
            total += self.table.step(seat, as_index(actions[AGENTS[seat]]))
            if self.table.done:
                break
        done = self.table.done
        obs = self._obs()
        rewards = {a: float(total[i]) for i, a in enumerate(AGENTS) if a in self.agents}
        terms = {a: done for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: info_of(self.table, i) for i, a in enumerate(AGENTS) if a in self.agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            print(self.table.render_text())
        return obs, rewards, terms, truncs, infos

    def _end_illegal(self, illegal: list[str]):
        """``on_illegal="terminate"``: the episode ends here, the table unchanged (class doc)."""
        obs = self._obs()
        rewards = {a: (self.illegal_reward if a in illegal else 0.0) for a in self.agents}
        terms = {a: True for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: dict(info_of(self.table, i), illegal_action=a in illegal)
                 for i, a in enumerate(AGENTS) if a in self.agents}
        self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        return render(self.table, self.render_mode)

    def record(self):
        """A copy of the episode's game so far as an engine :class:`~majiang.engine.Match` (``None``
        before :meth:`reset`), as :meth:`MajiangAEC.record`."""
        return self.table.record()

    def close(self) -> None:
        pass
