"""``learned``: the shipped learned agent -- a small network trained on ``strong``'s self-play
(behaviour cloning, docs/learned.md), run in plain numpy from weights inside the package
(``majiang/data/learned/*.npz``).

It reads the seat's ``majiang-v1`` observation (:mod:`majiang.rl.observations`), scores the 269
layout actions (:mod:`majiang.rl.actions`) and plays the highest-scoring legal one (deterministic:
the ``seed`` is accepted for :func:`~majiang.players.make_bot` and unused). A single legal action
is played without running the network. Trained on MCR; under another rule set it plays with the
same network (the encoding has the same shape), which is untested for strength.

``MAJIANG_LEARNED_WEIGHTS=path.npz`` in the environment makes ``learned`` load that file instead (a
network from ``python -m majiang.rl.train``), so a freshly trained one enters ``tournament``,
``selfplay`` and the benchmarks under the same name.

Needs numpy -- a core dependency of majiang; without it the bot raises :class:`LearnedBotError`
naming the missing package.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from majiang.engine.actions import Action
from majiang.engine.match import PlayerView
from majiang.engine.ruleset import RuleSet, RuleSetError

WEIGHTS = "mcr-bc-v1.npz"
"""The shipped weights (``majiang/data/learned/``)."""


class LearnedBotError(RuleSetError):
    """The learned bot cannot run: numpy missing, or weights that are not a majiang policy."""


class MLPPolicy:
    """A multilayer perceptron in numpy: ``logits = W_k relu(... relu(W_0 (x - mean) / std + b_0) ...) + b_k``,
    plus (``meta["tile_bases"]`` not empty) a per-tile head: each tile column ``x_j`` of the raw
    observation gives ``relu(x_j V + g G + c) U`` (``g``: the last hidden layer), one score per tile-indexed action block added at
    ``base + j`` (:class:`majiang.rl.train.TileHead`).

    Loaded from an ``.npz`` holding ``meta`` (JSON: ``observation``, ``shape``, ``layers``,
    ``action_size``, ``layout_version``), ``mean``, ``std`` (per input feature) and ``W0``, ``b0``,
    ... (float16 or float32; computed in float32). :meth:`logits` takes one observation ``(C, 34)``
    or a batch ``(N, C, 34)``."""

    def __init__(self, arrays: dict[str, Any]) -> None:
        import numpy as np

        try:
            self.meta = json.loads(str(arrays["meta"]))
            self.mean = np.asarray(arrays["mean"], dtype=np.float32)
            self.inv_std = (1.0 / np.asarray(arrays["std"], dtype=np.float32)).astype(np.float32)
            n = int(self.meta["layers"])
            self.weights = [np.ascontiguousarray(arrays[f"W{i}"], dtype=np.float32) for i in range(n)]
            self.biases = [np.asarray(arrays[f"b{i}"], dtype=np.float32) for i in range(n)]
            self.tile_bases = [int(b) for b in self.meta.get("tile_bases", [])]
            if self.tile_bases:
                self.V = np.asarray(arrays["V"], dtype=np.float32)
                self.c = np.asarray(arrays["c"], dtype=np.float32)
                self.U = np.asarray(arrays["U"], dtype=np.float32)
                self.G = np.asarray(arrays["G"], dtype=np.float32)
        except (KeyError, ValueError) as e:
            raise LearnedBotError(f"not a majiang policy file: {e}") from None
        self.observation = str(self.meta["observation"])
        self.shape = tuple(self.meta["shape"])

    @classmethod
    def load(cls, path: Any) -> MLPPolicy:
        import numpy as np

        with np.load(path, allow_pickle=False) as z:
            return cls({k: z[k] for k in z.files})

    def logits(self, obs: Any) -> Any:
        import numpy as np

        x = np.asarray(obs, dtype=np.float32)
        batch = x.ndim == 3
        n = len(x) if batch else 1
        x = x.reshape(n, -1)
        h = (x - self.mean) * self.inv_std
        last = len(self.weights) - 1
        g = h
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            if i == last:
                g = h  # the last hidden layer: the tile head's context
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        if self.tile_bases:  # the per-tile head: one shared layer over each tile column of the raw planes
            xt = x.reshape(n, self.shape[0], -1).transpose(0, 2, 1)
            sc = np.maximum(xt @ self.V + (g @ self.G + self.c)[:, None, :], 0.0) @ self.U
            for k, base in enumerate(self.tile_bases):
                h[:, base:base + sc.shape[1]] += sc[:, :, k]
        return h if batch else h[0]


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise LearnedBotError("the learned bot needs numpy (pip install numpy; a dependency of majiang)") from None
    return numpy


@lru_cache(maxsize=4)
def shipped_policy(name: str = WEIGHTS) -> MLPPolicy:
    """The network shipped in the package (loaded once per process)."""
    _numpy()
    p = weights_path(name)
    if not p.is_file():
        raise LearnedBotError(f"the learned bot's weights {name} are missing from the package ({p})")
    return MLPPolicy.load(p)


def weights_path(name: str = WEIGHTS) -> Path:
    """Where the shipped weights ``name`` lie (``majiang/data/learned/``, package data)."""
    return Path(__file__).resolve().parent.parent / "data" / "learned" / name


@lru_cache(maxsize=4)
def _file_policy(path: str) -> MLPPolicy:
    from pathlib import Path

    if not Path(path).is_file():
        raise LearnedBotError(f"MAJIANG_LEARNED_WEIGHTS={path}: no such file")
    return MLPPolicy.load(path)


class LearnedBot:
    """See the module doc. ``policy``: another :class:`MLPPolicy` (default: the shipped one)."""

    name = "learned"

    def __init__(self, rules: RuleSet, seed: int = 0, policy: MLPPolicy | None = None) -> None:
        _numpy()
        from majiang.rl.observations import Encoder

        self.rules = rules
        if policy is None:
            import os

            other = os.environ.get("MAJIANG_LEARNED_WEIGHTS")
            policy = _file_policy(other) if other else shipped_policy()
        self.policy = policy
        self.encoder = Encoder(rules, self.policy.observation)
        if tuple(self.encoder.shape) != self.policy.shape:
            raise LearnedBotError(f"the network reads {self.policy.shape} observations, the encoder gives "
                                  f"{self.encoder.shape}")

    def scores(self, view: PlayerView) -> Any:
        """The network's 269 action scores (logits) for ``view``."""
        return self.policy.logits(self.encoder.encode(view))

    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        from majiang.rl.actions import legal_indices
        from majiang.rl.dataset import white_face_of

        by_index = legal_indices(actions, white_face=white_face_of(self.rules, view.wild_face))
        logits = self.scores(view)
        best = max(by_index, key=lambda i: float(logits[i]))
        return by_index[best]
