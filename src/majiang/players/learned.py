"""``learned``: the shipped learned agent -- a small network trained on ``strong``'s self-play
(behaviour cloning, docs/learned.md), run in plain numpy from weights inside the package
(``majiang/data/learned/*.npz``).

It reads the seat's ``majiang-v1`` observation (:mod:`majiang.rl.observations`), scores the 269
layout actions (:mod:`majiang.rl.actions`) and plays the highest-scoring legal one (deterministic:
the ``seed`` is accepted for :func:`~majiang.players.make_bot` and unused). A single legal action
is played without running the network. Trained on MCR; under another rule set it plays with the
same network (the encoding has the same shape), which is untested for strength.

Needs numpy -- a core dependency of majiang; without it the bot raises :class:`LearnedBotError`
naming the missing package.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from majiang.engine.actions import Action
from majiang.engine.match import PlayerView
from majiang.engine.ruleset import RuleSet, RuleSetError

WEIGHTS = "mcr-bc-v1.npz"
"""The shipped weights (``majiang/data/learned/``)."""


class LearnedBotError(RuleSetError):
    """The learned bot cannot run: numpy missing, or weights that are not a majiang policy."""


class MLPPolicy:
    """A multilayer perceptron in numpy: ``logits = W_k relu(... relu(W_0 (x - mean) / std + b_0) ...) + b_k``.

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
        x = x.reshape(len(x) if batch else 1, -1)
        h = (x - self.mean) * self.inv_std
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
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
    ref = resources.files("majiang.data").joinpath("learned", name)
    if not ref.is_file():
        raise LearnedBotError(f"the learned bot's weights {name} are missing from the package")
    with resources.as_file(ref) as p:
        return MLPPolicy.load(p)


class LearnedBot:
    """See the module doc. ``policy``: another :class:`MLPPolicy` (default: the shipped one)."""

    name = "learned"

    def __init__(self, rules: RuleSet, seed: int = 0, policy: MLPPolicy | None = None) -> None:
        _numpy()
        from majiang.rl.observations import Encoder

        self.rules = rules
        self.policy = policy if policy is not None else shipped_policy()
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
