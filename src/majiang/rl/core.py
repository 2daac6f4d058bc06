"""One table for learning: a :class:`~majiang.engine.Match` seen through the action layout and an
observation encoder. The PettingZoo, Gymnasium and vector environments are thin shells over it, so
they agree step for step by construction (and the tests check it).

Episodes: by default one **hand** (``hands=1``); ``hands=None`` plays the whole match by the rules.
Rewards: each hand's settlement (``HandResult.deltas``, zero-sum, in the rule set's unit: MCR points,
Taiwan base + 台, Wenzhou multiplier points...) divided by ``reward_scale``, paid when the hand ends.

Seeds: ``reset(seed=s)`` plays ``Match(rules, seed=s)``, the very game the engine plays from that seed;
a reset without a seed plays the next game of the same sequence
(``derive_seed(s, "episode", k)`` for the ``k``-th later episode).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from majiang.engine import Action, Match, Phase, PlayerView, RuleSet, derive_seed, resolve
from majiang.errors import MajiangError
from majiang.rl.actions import ACTION_SIZE, ActionIndexError, as_index, describe_index, index_of, legal_indices
from majiang.rl.observations import Encoder, TableEncoder
from majiang.tiles import NUM_KINDS, format_compact

Shaping = Callable[[PlayerView, int, PlayerView | None], float]
"""``shaping(view_before, action_index, view_after)`` -> an extra reward for the seat that acted
(``view_after`` is ``None`` when the hand ended with that action)."""


class EpisodeSeeds:
    """The game seed of each episode of one table (see the module doc): :meth:`next` with a seed
    starts a sequence at it; without one, the next game of the sequence (a random first seed if
    none was given)."""

    def __init__(self) -> None:
        self.base: int | None = None
        self.episode = 0

    def next(self, seed: int | None = None) -> int:
        if seed is not None:
            try:  # an int or a numpy integer; not a bool, a float (1.5 would play seed 1) or a string
                if isinstance(seed, bool):
                    raise TypeError
                self.base = operator.index(seed)
            except TypeError:
                raise MajiangError(f"a seed is an integer, got {seed!r}") from None
            self.episode = 0
            return self.base
        if self.base is None:
            self.base = random.SystemRandom().getrandbits(63)
            return self.base
        self.episode += 1
        return derive_seed(self.base, "episode", self.episode)


def redeal_seed(game_seed: int) -> int:
    """The game seed dealt instead of ``game_seed`` when that game's deal itself ends it -- a flower
    win on the deal (Taiwan 八仙過海 or 七搶一, RULES.md §3.2: a seat dealt seven or eight of the eight
    flowers, about 3 deals in a million) in a one-hand episode: such an episode would have no step to
    take, so every environment deals ``derive_seed(game_seed, "redeal")`` instead (and again, should
    that one end at once too). The table's :attr:`Table.game_seed` is the seed dealt."""
    return derive_seed(game_seed, "redeal")


class Table:
    """A match driven by layout indices (see the module doc).

    Args:
        rules: a :class:`~majiang.engine.RuleSet`, preset name or spec (``"taiwan,declare_ready=true"``).
        observation: ``"majiang-v1"`` or ``"botzone-v0"``; ``oracle``: add the other hands.
        hands: hands per episode (``None``: the full match).
        reward_scale: settlement deltas are divided by this.
        score_scale: running scores are divided by this in the observation.
        analysis: fill the hand-analysis planes.
        shaping: an optional :data:`Shaping` callback.
    """

    def __init__(self, rules: RuleSet | str = "mcr", observation: str = "majiang-v1", *, oracle: bool = False,
                 hands: int | None = 1, reward_scale: float = 1.0, score_scale: float = 100.0,
                 analysis: bool = True, shaping: Shaping | None = None) -> None:
        self.rules = resolve(rules)
        if reward_scale == 0:
            raise MajiangError("reward_scale must not be 0")
        if hands is not None and hands < 1:
            raise MajiangError(f"hands must be at least 1 or None, got {hands}")
        self.encoder = Encoder(self.rules, observation, oracle=oracle, analysis=analysis, score_scale=score_scale)
        self._fast = TableEncoder(self.encoder) if observation == "majiang-v1" else None
        self.observation_name = observation
        self.hands = hands
        self.reward_scale = float(reward_scale)
        self.shaping = shaping
        self.match: Match | None = None
        self._seeds = EpisodeSeeds()
        self._legal: dict[int, dict[int, Action]] = {}
        self._results_seen = 0
        self.steps = 0

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None) -> None:
        """Start an episode (see the module doc for seeds)."""
        gseed = self._seeds.next(seed)
        m = Match(self.rules, seed=gseed, max_hands=self.hands)
        while m.finished:  # the deal itself ended the episode: deal again (see redeal_seed)
            gseed = redeal_seed(gseed)
            m = Match(self.rules, seed=gseed, max_hands=self.hands)
        self.game_seed = gseed
        self.match = m
        _auto_decide(m)
        self._legal = {}
        self._results_seen = 0
        self.steps = 0

    def record(self) -> Match | None:
        """A copy of the game so far (``None`` before :meth:`reset`): an engine
        :class:`~majiang.engine.Match` rebuilt from :attr:`match`'s record
        (:func:`~majiang.records.jsonl.replay` with ``partial``), so stepping the table does not change
        it and changing it does not touch the table; ``record_lines`` of it equals the live record."""
        from majiang.records.jsonl import record_lines, replay

        return None if self.match is None else replay(record_lines(self.match), partial=True)

    @property
    def done(self) -> bool:
        return self.match is None or self.match.finished

    @property
    def started(self) -> bool:
        """True once :meth:`reset` has been called."""
        return self.match is not None

    @property
    def hands_played(self) -> int:
        """Hands finished in this episode."""
        return 0 if self.match is None else len(self.match.results)

    def to_act(self) -> int | None:
        """The seat to act next (the lowest pending seat, as :func:`~majiang.engine.run_match` asks),
        or ``None`` when the episode is over."""
        m = self.match
        if m is None or m.finished:
            return None
        return m.pending_seats()[0]

    def pending(self) -> list[int]:
        """Every seat whose answer is awaited now (several in a claim window)."""
        return [] if self.match is None else self.match.pending_seats()

    def legal(self, seat: int) -> dict[int, Action]:
        """``{index: action}`` for ``seat`` now (empty when it is not awaited)."""
        got = self._legal.get(seat)
        if got is None:
            m = self.match
            acts = m.legal_actions(seat) if m is not None and not m.finished else []
            t = m.table if m is not None else None
            got = legal_indices(acts, white_face=t.white_face if t is not None else None)
            self._legal[seat] = got
        return got

    def mask(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``int8`` mask of length :data:`ACTION_SIZE`: the legal indices of an awaited seat; for any
        other seat only ``pass`` (index 0, its no-op), so no mask of a live table is empty."""
        if out is None:
            out = np.zeros(ACTION_SIZE, dtype=np.int8)
        else:
            out.fill(0)
        legal = self.legal(seat)
        if legal:
            for i in legal:  # a few scalar writes beat one fancy-indexed write here
                out[i] = 1
        else:
            out[0] = 1
        return out

    def view(self, seat: int) -> PlayerView | None:
        m = self.match
        return None if m is None or m.finished else m.view(seat)

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation; after the episode, the zero array."""
        m = self.match
        if m is None or m.finished or m.table is None:
            if out is None:
                return np.zeros(self.encoder.shape, dtype=np.float32)
            out.fill(0.0)
            return out
        if self._fast is not None:
            got = self._fast.observe(m, seat)
            if out is None:
                return got
            out[...] = got
            return out
        hidden = [m.table.concealed[s] for s in range(4)] if self.encoder.oracle else None
        return self.encoder.encode(m.view(seat), hidden, out)

    # ------------------------------------------------------------------ stepping
    def step(self, seat: int, index: int) -> np.ndarray:
        """Apply layout ``index`` for ``seat``. Returns the rewards of this step (float64, 4 seats):
        the settlement of every hand that ended, divided by ``reward_scale``, plus the shaping term.
        Raises :class:`~majiang.rl.actions.ActionIndexError` for an index that names no legal action
        of an awaited seat (nothing changes)."""
        r = self.step_sparse(seat, index)
        return np.zeros(4, dtype=np.float64) if r is None else r

    def step_sparse(self, seat: int, index: int, *, shape: bool = True) -> np.ndarray | None:
        """:meth:`step`, returning ``None`` instead of the zero rewards of a step that pays nothing
        (most steps; saves the environments an array). ``shape=False``: no shaping call for this
        step (a bot's action in the learner environments, whose shaping is the learner's)."""
        m = self.match
        if m is None or m.finished:
            raise ActionIndexError("the episode is over: reset first")
        legal = self.legal(seat)
        index = as_index(index)
        if not legal:
            raise ActionIndexError(f"seat {seat} is not to act now (awaiting {m.pending_seats()})")
        action = legal.get(index)
        if action is None:
            if not 0 <= index < ACTION_SIZE:
                raise ActionIndexError(f"action index {index} outside 0-{ACTION_SIZE - 1}")
            raise ActionIndexError(f"seat {seat} cannot {describe_index(index)} (index {index}) now; legal: "
                                   + ", ".join(f"{i} {describe_index(i)}" for i in legal))
        shaping = self.shaping if shape else None
        before = m.view(seat) if shaping is not None else None
        m.apply(seat, action)
        t = m.table
        if t is not None and t.phase is Phase.DECIDE:
            _auto_decide(m)
        self._legal = {}
        self.steps += 1
        if self._results_seen == len(m.results) and shaping is None:
            return None
        rewards = np.zeros(4, dtype=np.float64)
        while self._results_seen < len(m.results):
            rewards += np.asarray(m.results[self._results_seen].deltas, dtype=np.float64) / self.reward_scale
            self._results_seen += 1
        if shaping is not None and before is not None:
            rewards[seat] += float(shaping(before, index, self.view(seat)))
        return rewards

    def apply_action(self, seat: int, action: Action, *, shape: bool = True) -> np.ndarray:
        """Apply an engine :class:`~majiang.engine.Action` (a bot's choice) through its index;
        ``shape`` as :meth:`step_sparse`."""
        t = self.match.table if self.match is not None else None
        r = self.step_sparse(seat, index_of(action, white_face=t.white_face if t is not None else None), shape=shape)
        return np.zeros(4, dtype=np.float64) if r is None else r

    # ------------------------------------------------------------------ text
    def render_text(self) -> str:
        """The table in text: wall, wildcard, each seat's melds, river and (for the seat to act) its
        hand and legal actions; after the episode, the scores."""
        m = self.match
        if m is None:
            return "(no episode: call reset)"
        if m.finished or m.table is None:
            return f"episode over; scores {m.scores}"
        t = m.table
        s_act = self.to_act()
        lines = [f"{self.rules.name}  hand {m.hand_number}  round {m.round}  dealer seat {t.dealer}  "
                 f"wall {t.live} live  phase {t.phase.value}"
                 + (f"  wildcard {format_compact([t.wild_face])}" if t.wild_face is not None else "")]
        if t.claim_tile is not None and t.phase.value != "turn":
            lines.append(f"on the table: {format_compact([t.claim_tile])}")
        for s in range(4):
            melds = " ".join("[" + format_compact(mm.physical) + "]" for mm in t.melds[s])
            hand = [x for x in range(NUM_KINDS) for _ in range(t.concealed[s][x])]
            mark = "*" if s == s_act else " "
            lines.append(f"{mark}seat {s} score {m.scores[s]:+d}  hand {format_compact(hand)} {melds}"
                         + (f"  flowers {format_compact(t.flowers[s])}" if t.flowers[s] else ""))
            lines.append(f"   river {format_compact(t.rivers[s]) if t.rivers[s] else '-'}")
        if s_act is not None:
            lines.append("legal: " + ", ".join(f"{i} {describe_index(i)}" for i in self.legal(s_act)))
        return "\n".join(lines)


def render(table: Table, render_mode: str | None) -> str | None:
    """The environments' ``render()``, Gymnasium's convention: ``"ansi"`` returns the table in text
    (:meth:`Table.render_text`), ``"human"`` prints it and returns ``None``, and without a
    ``render_mode`` nothing is drawn: a warning (Gymnasium's logger) and ``None`` (until 2026-12-05
    the text was returned then; :meth:`Table.render_text` gives it whatever the mode)."""
    if render_mode is None:
        import warnings

        warnings.warn("render() without a render_mode draws nothing; make the environment with "
                      "render_mode='ansi' (text) or 'human' (printed)", UserWarning, stacklevel=3)
        return None
    text = table.render_text()
    if render_mode == "human":
        print(text)
        return None
    return text


def observation_shape(observation: str = "majiang-v1", oracle: bool = False) -> tuple[int, int]:
    from majiang.rl.observations import num_planes

    return (num_planes(observation, oracle), NUM_KINDS)


def info_of(table: Table, seat: int, pending: list[int] | None = None) -> dict[str, Any]:
    """A small info dict: the game seed (``numpy.uint64``: seeds are unsigned 64-bit, and Gymnasium's
    vector environments batch an info value in an array of its own type -- a Python ``int`` above
    2**63 made ``make_vec`` fail), hands played, whether ``seat`` is awaited. ``pending``:
    :meth:`Table.pending` when the caller has it already (the same answer, without asking again)."""
    if not table.started:
        return {"game_seed": None, "hands": 0, "awaited": False}
    if pending is None:
        pending = table.pending()
    return {"game_seed": np.uint64(table.game_seed), "hands": table.hands_played, "awaited": seat in pending}


def _auto_decide(m: Match) -> None:
    """Answer a rule set's pre-play decisions (Sichuan 定缺; :attr:`Phase.DECIDE`) with its default
    policy for every seat: the ``majiang-v1`` layout has no index for them, so an agent never sees
    that phase (issue 30; docs/rl.md)."""
    t = m.table
    while t is not None and t.phase is Phase.DECIDE:
        for s in m.pending_seats():
            a = m.default_action(s)
            assert a is not None
            m.apply(s, a)
        t = m.table
