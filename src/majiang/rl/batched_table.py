"""``BatchedTable``: the interface of :class:`~majiang.rl.core.Table` on a one-row batched core.

The AEC environment (:func:`majiang.rl.env`) steps one table, one seat at a time. On the engine
(:class:`~majiang.rl.core.Table`) a step costs the engine's own work plus keeping the observation
planes in Python; on the batched core (:mod:`majiang.rl.batched`) with its compiled loops
(:mod:`majiang.rl.step_kernels`, :mod:`majiang.rl.kernels`) the common step -- a discard, the claim
window, the next draw, the acting seat's mask and observation -- runs in compiled code, and only
wins, kongs and claims go back to the engine. So the AEC environment uses this table wherever the
batched core plays the set-up exactly (:func:`majiang.rl.batched.supports`: ``mcr``,
``shandong``, ``taiwan`` and the wildcard presets ``wenzhou``, ``wenzhou-w16``, ``seed000`` with their
options, one hand per episode, no shaping) and numba is there; ``env(..., batched=False)`` keeps the
engine table.

It plays the same game as :class:`~majiang.rl.core.Table` from the same seed (same seeds, the same
seat to act -- in a claim window the awaited seats answer in turn order from the discarder --, the
same observations, masks, rewards and errors; tests/rl/test_rl_batched_table.py checks them step for
step). :attr:`match` is the engine :class:`~majiang.engine.Match` of the game so far, rebuilt by
replaying its actions when asked (its ``events`` are the record).
"""

from __future__ import annotations

import numpy as np

from majiang.engine import Action, Match, PlayerView, RuleSet, resolve
from majiang.engine.actions import PASS, ActionKind
from majiang.errors import MajiangError
from majiang.rl import batched as B
from majiang.rl.actions import (
    ACTION_SIZE,
    EXPOSED_KONG_BASE,
    PUNG_BASE,
    ActionIndexError,
    as_index,
    chow_of_index,
    describe_index,
)
from majiang.rl.core import EpisodeSeeds
from majiang.rl.observations import Encoder


_ENGINE_KIND = {B.K_DISCARD: ActionKind.DISCARD, B.K_PUNG: ActionKind.PUNG, B.K_EKONG: ActionKind.EXPOSED_KONG,
                B.K_CKONG: ActionKind.CONCEALED_KONG, B.K_AKONG: ActionKind.ADDED_KONG}


class BatchedTable:
    """:class:`~majiang.rl.core.Table`'s interface (the arguments are the same; ``hands`` must be 1
    and ``shaping`` ``None``) on :class:`~majiang.rl.batched.BatchedCore` with one row. Raises
    :class:`~majiang.errors.MajiangError` for a set-up the batched core does not play."""

    def __init__(self, rules: RuleSet | str = "mcr", observation: str = "majiang-v1", *, oracle: bool = False,
                 hands: int | None = 1, reward_scale: float = 1.0, score_scale: float = 100.0,
                 analysis: bool = True, shaping=None) -> None:
        self.rules = resolve(rules)
        if reward_scale == 0:
            raise MajiangError("reward_scale must not be 0")
        why = B.unsupported(self.rules, hands=hands, shaping=shaping, observation=observation)
        if why:
            raise MajiangError(f"the batched core does not support this set-up (rules {self.rules.name!r}: "
                               + "; ".join(why) + ")")
        self.encoder = Encoder(self.rules, observation, oracle=oracle, analysis=analysis, score_scale=score_scale)
        self.core = B.BatchedCore(1, self.rules, self.encoder, reward_scale)
        self.observation_name = observation
        self.hands = hands
        self.reward_scale = float(reward_scale)
        self.shaping = None
        self.game_seed: int | None = None
        self._seeds = EpisodeSeeds()
        self._started = False
        self._over = False
        self._obs = np.zeros(self.encoder.shape, dtype=np.float32)
        self._mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        self._seat = 0
        self._match: Match | None = None
        self._legal: dict[int, dict[int, Action]] = {}
        self._act = np.zeros(1, dtype=np.int64)
        self.steps = 0

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None) -> None:
        """Start an episode: ``Match(rules, seed=...)``'s first hand (seeds as :meth:`Table.reset`)."""
        gseed = self.game_seed = self._seeds.next(seed)
        self.core.reset_rows([0], [gseed])
        self._started = True
        self._over = False
        self.steps = 0
        self._fill()

    def _fill(self) -> None:
        obs, mask = self.core.fill()
        self._obs, self._mask = obs[0], mask[0]
        self._seat = int(self.core.seat[0])
        self._match = None
        self._legal = {}
        self._pending: list[int] | None = None

    @property
    def started(self) -> bool:
        """True once :meth:`reset` has been called."""
        return self._started

    @property
    def match(self) -> Match | None:
        """The engine match of the episode so far (rebuilt by replay, then kept until the next step)."""
        if not self._started:
            return None
        if self._match is None:
            self._match = self.core.replay(0)
        return self._match

    def record(self) -> Match | None:
        """As :meth:`Table.record`: a copy of the game so far (replayed afresh on each call)."""
        return self.core.replay(0) if self._started else None

    @property
    def hands_played(self) -> int:
        """Hands finished in this episode (0 or 1: one hand per episode)."""
        return int(self._over)

    @property
    def done(self) -> bool:
        return not self._started or self._over

    def to_act(self) -> int | None:
        """The seat to act next, or ``None`` when the episode is over."""
        return None if self.done else self._seat

    def pending(self) -> list[int]:
        """Every seat whose answer is awaited now, in turn order (several in a claim window)."""
        if self.done:
            return []
        got = self._pending
        if got is None:
            c = self.core
            if c.phase[0] == B.TURN:
                got = [int(c.cur[0])]
            else:
                o = int(c.origin[0])
                got = [(o + k) % 4 for k in (1, 2, 3) if c.awaiting[0, (o + k) % 4]]
            self._pending = got
        return list(got)

    def legal(self, seat: int) -> dict[int, Action]:
        """``{index: action}`` for ``seat`` now (empty when it is not awaited): the engine actions
        the indices of :meth:`mask` name (each index names one action; a chow's keeps the physical
        discard, a White standing in for the wildcard's face, as the engine offers it)."""
        got = self._legal.get(seat)
        if got is None:
            got = {}
            if seat in self.pending():
                c = self.core
                turn = c.phase[0] == B.TURN
                for i in self.mask(seat).nonzero()[0].tolist():
                    k = int(B._KIND[i])
                    if k == B.K_PASS:
                        got[i] = PASS
                    elif k == B.K_WIN:
                        got[i] = Action(ActionKind.WIN, int(c.last_draw[0, seat]) if turn else int(c.claim_tile[0]))
                    elif k == B.K_CHOW:  # the engine's chow names the physical discard (a White standing in)
                        played, low = chow_of_index(i)
                        got[i] = Action(ActionKind.CHOW, int(c.claim_tile[0]), low)
                    else:
                        got[i] = Action(_ENGINE_KIND[k], int(B._TILE[i]))
            self._legal[seat] = got
        return got

    def mask(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """As :meth:`Table.mask`: the legal indices of an awaited seat, ``pass`` only for any other."""
        if out is None:
            out = np.zeros(ACTION_SIZE, dtype=np.int8)
        else:
            out.fill(0)
        if not self.done and seat == self._seat:
            out[:] = self._mask
        elif seat in self.pending():  # another seat awaited in the same claim window
            c = self.core
            t = int(c.claim_tile[0])
            col = int(B._COL[t])
            out[0] = 1
            out[1] = c.can_win[0, seat]
            out[PUNG_BASE + col] = c.can_pung[0, seat]
            out[EXPOSED_KONG_BASE + col] = c.can_kong[0, seat]
            if c.phase[0] == B.CLAIM and seat == (int(c.origin[0]) + 1) % 4:
                wt = int(c.white_face[0])
                lt = wt if (t == B._WHITE and wt >= 0) else t  # a White discard plays the wildcard's face
                for j in range(3):
                    if c.chow3[0, j]:
                        out[B._CHOW_IDX[lt, j]] = 1
        else:
            out[0] = 1
        return out

    def view(self, seat: int) -> PlayerView | None:
        m = self.match
        return None if m is None or m.finished else m.view(seat)

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation; after the episode, the zero array."""
        if out is None:
            out = np.empty(self.encoder.shape, dtype=np.float32)
        if self.done:
            out.fill(0.0)
        elif seat == self._seat:
            out[...] = self._obs
        else:
            c = self.core
            buf = np.zeros((1, *self.encoder.shape), dtype=np.float32)
            me = np.array([seat], dtype=np.int64)
            if c._jit_obs:  # the fused compiled observation, as for the seat to act (BatchedCore.fill)
                c._observe_compiled(buf, me)
            else:
                win = np.arange(1) if c.phase[0] in (B.CLAIM, B.ROB) else np.zeros(0, dtype=np.int64)
                c._observe(buf, me, c._rows, win)
            out[...] = buf[0]
        return out

    # ------------------------------------------------------------------ stepping
    def step(self, seat: int, index: int) -> np.ndarray:
        """As :meth:`Table.step`."""
        r = self.step_sparse(seat, index)
        return np.zeros(4, dtype=np.float64) if r is None else r

    def step_sparse(self, seat: int, index: int) -> np.ndarray | None:
        """As :meth:`Table.step_sparse` (the same errors). The awaited seats of a claim window answer
        in turn order from the discarder (the order :meth:`to_act` gives)."""
        if not self._started or self._over:
            raise ActionIndexError("the episode is over: reset first")
        if type(index) is not int:
            index = as_index(index)
        if seat != self._seat:
            pending = self.pending()
            if seat not in pending:
                raise ActionIndexError(f"seat {seat} is not to act now (awaiting {pending})")
            raise ActionIndexError(f"seat {seat} answers after seat {self._seat} in this claim window "
                                   "(the batched table takes answers in turn order)")
        if not 0 <= index < ACTION_SIZE or not self._mask[index]:
            if not 0 <= index < ACTION_SIZE:
                raise ActionIndexError(f"action index {index} outside 0-{ACTION_SIZE - 1}")
            legal = self._mask.nonzero()[0].tolist()
            raise ActionIndexError(f"seat {seat} cannot {describe_index(index)} (index {index}) now; legal: "
                                   + ", ".join(f"{i} {describe_index(i)}" for i in legal))
        self._act[0] = index
        rew = self.core.step(self._act)
        self.steps += 1
        if self.core.done[0]:
            self._over = True
            self._match = None
            self._legal = {}
            self._pending = None
            return rew[0].copy()
        self._fill()
        return None

    def apply_action(self, seat: int, action: Action, *, shape: bool = True) -> np.ndarray:
        """Apply an engine :class:`~majiang.engine.Action` (a bot's choice) through its index
        (``shape`` as :meth:`Table.step_sparse`; this table never has shaping)."""
        from majiang.rl.actions import index_of

        m = self.match
        return self.step(seat, index_of(action, white_face=m.table.white_face if m and m.table else None))

    def render_text(self) -> str:
        """As :meth:`Table.render_text` (on the replayed match)."""
        from majiang.rl.core import Table

        if not self._started:
            return "(no episode: call reset)"
        return Table.render_text(self)  # type: ignore[arg-type]


__all__ = ["BatchedTable"]
