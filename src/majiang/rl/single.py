"""Gymnasium environment where one seat learns and majiang bots play the other three
(:class:`SingleAgentEnv`), and the learner-side driver it shares with :class:`~majiang.rl.VectorEnv`.

The learner is asked only when it has a decision: its turns, and the claim windows where it may
claim (a window where it has nothing to claim is skipped, as at the table); a game that ends before
its first decision is skipped at reset (the next game of the sequence is dealt). An episode is one hand
by default (``hands=``); the reward is the learner's settlement (``reward_scale``) and, with
``shaping=``, its shaping term (called for the learner's actions only, never the bots').

An illegal action (``on_illegal``): ``"terminate"`` (default) ends the episode with
``illegal_reward`` and ``info["illegal_action"] = True``, the table unchanged; ``"raise"`` raises
:class:`~majiang.rl.actions.ActionIndexError`. ``illegal_reward`` is in reward units (settlement
points divided by ``reward_scale``); by default it is :data:`ILLEGAL_POINTS` (−100) points, so that
ending a hand on purpose never pays better than playing it out: a learner playing masked random
moves loses about 11 points a hand in MCR and 3 in Wenzhou, and a Taiwan deal-in costs about 48
(docs/rl.md). With −1 (the default before 2026-12-02) a learner that ignores the mask learns to quit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from majiang.engine import Player, RuleSet, derive_seed
from majiang.errors import MajiangError
from majiang.players import make_bot
from majiang.rl.actions import ActionIndexError, as_index
from majiang.rl.aec import _spaces
from majiang.rl.core import Shaping, Table, info_of, render
from majiang.rl.fast_bots import make_opponent


class LearnerDriver:
    """A :class:`~majiang.rl.core.Table` with bots in every seat but ``seat``.

    ``opponents``: one bot name for all three, three names (next, opposite, previous seat order by
    seat number, the learner's skipped), or three :class:`~majiang.engine.Player` objects. Named bots
    are made afresh each episode with seeds derived from the game seed; ``"efficiency"`` is
    :class:`~majiang.rl.fast_bots.FastEfficiencyBot` where numba is available (the same decisions as
    :class:`~majiang.players.EfficiencyBot`, its discard choice from the compiled analysis kernel).
    """

    def __init__(self, table: Table, opponents: str | Sequence[str | Player] = "efficiency",
                 seat: int = 0) -> None:
        if not 0 <= seat < 4:
            raise MajiangError(f"seat must be 0-3, got {seat}")
        self.table = table
        self.seat = seat
        opp = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(opp) != 3:
            raise MajiangError(f"give one opponent or three, got {len(opp)}")
        for o in opp:
            if isinstance(o, str):
                make_bot(o, table.rules)  # validate the name now
        self.opponents = opp
        self.bots: dict[int, Player] = {}

    def _make_bots(self) -> None:
        others = [s for s in range(4) if s != self.seat]
        self.bots = {}
        for s, o in zip(others, self.opponents):
            self.bots[s] = make_opponent(o, self.table.rules, derive_seed(self.table.game_seed, "bot", s)) \
                if isinstance(o, str) else o

    def reset(self, seed: int | None = None) -> None:
        """New episode; bots play until the learner must act. A game that ends before the learner's
        first decision (a heavenly hand) is skipped: the next game of the sequence is dealt."""
        self.table.reset(seed)
        self._make_bots()
        self.advance()
        while self.table.done:
            self.table.reset(None)
            self._make_bots()
            self.advance()

    def advance(self) -> float:
        """Let the bots act until the learner is awaited or the episode is over; the learner's reward."""
        t = self.table
        total = 0.0
        while not t.done:
            if t.legal(self.seat):
                break
            s = t.to_act()
            assert s is not None
            m = t.match
            a = self.bots[s].choose(m.view(s), m.legal_actions(s))
            total += float(t.apply_action(s, a, shape=False)[self.seat])  # shaping is the learner's
        return total

    def step(self, index: int) -> float:
        """The learner's action; then the bots until it is asked again. Its reward."""
        r = float(self.table.step(self.seat, index)[self.seat])
        return r + self.advance()


ILLEGAL_POINTS = -100.0
"""The default reward of an illegal action, in settlement points (see the module doc)."""


class SingleAgentEnv(gym.Env):
    """One learning seat against bots (see the module doc).

    Args:
        rules, observation, oracle, hands, reward_scale, score_scale, analysis, shaping: as for
            :class:`~majiang.rl.core.Table`.
        opponents: bot name(s) or players (see :class:`LearnerDriver`); default ``"efficiency"``.
        seat: the learner's seat (0-3).
        on_illegal: ``"terminate"`` or ``"raise"``; ``illegal_reward``: the reward of a refused action,
            in reward units; ``None`` (default): ``ILLEGAL_POINTS / reward_scale``.
        render_mode: ``"human"`` or ``"ansi"``.

    Observations: ``{"observation": (C, 34) float32, "action_mask": (269,) int8}``; actions:
    ``Discrete(269)`` (:mod:`majiang.rl.actions`).
    """

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, rules: RuleSet | str = "mcr", opponents: str | Sequence[str | Player] = "efficiency", *,
                 seat: int = 0, observation: str = "majiang-v1", oracle: bool = False, hands: int | None = 1,
                 reward_scale: float = 1.0, score_scale: float = 100.0, analysis: bool = True,
                 shaping: Shaping | None = None, on_illegal: str = "terminate", illegal_reward: float | None = None,
                 render_mode: str | None = None) -> None:
        if on_illegal not in ("terminate", "raise"):
            raise MajiangError(f"on_illegal must be 'terminate' or 'raise', got {on_illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MajiangError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.table = Table(rules, observation, oracle=oracle, hands=hands, reward_scale=reward_scale,
                           score_scale=score_scale, analysis=analysis, shaping=shaping)
        self.driver = LearnerDriver(self.table, opponents, seat)
        self.observation_space, self.action_space = _spaces(self.table)
        self.on_illegal = on_illegal
        self.illegal_reward = (ILLEGAL_POINTS / float(reward_scale) if illegal_reward is None
                               else float(illegal_reward))
        self.render_mode = render_mode
        self._over = True

    @property
    def seat(self) -> int:
        return self.driver.seat

    def _obs(self) -> dict[str, np.ndarray]:
        s = self.driver.seat
        return {"observation": self.table.observe(s), "action_mask": self.table.mask(s)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.driver.reset(seed)
        self._over = False
        info = info_of(self.table, self.seat)
        return self._obs(), info

    def step(self, action: Any):
        if self._over:
            raise MajiangError("the episode is over: call reset()")
        index = as_index(action)  # not an index at all (2.7, 999): an error whatever on_illegal says
        try:
            reward = self.driver.step(index)
        except ActionIndexError:
            if self.on_illegal == "raise":
                raise
            self._over = True
            info = info_of(self.table, self.seat)
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        self._over = self.table.done
        if self.render_mode == "human":
            print(self.table.render_text())
        return self._obs(), reward, self._over, False, info_of(self.table, self.seat)

    def render(self) -> str | None:
        return render(self.table, self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (the name sb3-contrib's MaskablePPO looks for)."""
        return self.table.mask(self.seat).astype(bool)
