"""``python:package.module:factory`` -- any Python policy as a player, wherever a bot name is taken
(``simulate``, ``play``, ``tournament``, ``selfplay``, ``dataset``, ``bot``; docs/learned.md).

The named object (``factory`` may be dotted: ``pkg.mod:Class.create``) is resolved by importing
``package.module`` (from ``sys.path``: the working folder when run as ``majiang``... add a folder
with ``PYTHONPATH``). Then:

* an object with a ``choose(view, actions)`` method (the engine's :class:`~majiang.engine.Player`)
  is used as it is;
* anything else callable is a **factory**: called with the keyword arguments it accepts among
  ``rules`` (the :class:`~majiang.engine.RuleSet`) and ``seed`` (the seat's bot seed), it must return
  either a player (with ``choose``) or a **policy**: a callable ``policy(observation, mask) -> index``
  taking the seat's observation (``(C, 34)`` float32, :mod:`majiang.rl.observations`; the encoding
  named by the policy's ``observation`` attribute, default ``majiang-v1``) and its action mask
  (``(269,)`` int8, :mod:`majiang.rl.actions`) and returning a legal index -- what a learner trained
  on :mod:`majiang.rl` environments already is.

Errors name the spec: :class:`PythonBotError` (a ``ValueError``) for a bad spec, a module or name
that cannot be found, a factory that returns neither, and a policy's index outside its mask.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from majiang.engine.actions import Action
from majiang.engine.match import Player, PlayerView
from majiang.engine.ruleset import RuleSet, RuleSetError

PREFIX = "python:"


class PythonBotError(RuleSetError):
    """A ``python:`` bot that cannot be loaded or played (names the spec)."""


def resolve_object(spec: str) -> Any:
    """The object ``package.module:name`` (``name`` may be dotted) names; :class:`PythonBotError` else."""
    mod_name, colon, attr = spec.partition(":")
    if not colon or not mod_name.strip() or not attr.strip():
        raise PythonBotError(f"python bot {spec!r}: write python:package.module:factory")
    try:
        obj: Any = importlib.import_module(mod_name.strip())
    except ImportError as e:
        raise PythonBotError(f"python bot {spec!r}: cannot import {mod_name!r} ({e})") from None
    for part in attr.strip().split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PythonBotError(f"python bot {spec!r}: {mod_name} has no {attr!r}") from None
    return obj


class PolicyPlayer:
    """A player from ``policy(observation, mask) -> index`` (see the module doc)."""

    def __init__(self, policy: Callable[[Any, Any], Any], rules: RuleSet, name: str = "policy",
                 observation: str | None = None) -> None:
        from majiang.rl.observations import Encoder

        self.policy = policy
        self.name = name
        self.rules = rules
        self.encoder = Encoder(rules, observation or getattr(policy, "observation", "majiang-v1"))

    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        import numpy as np

        from majiang.rl.actions import ACTION_SIZE, legal_indices
        from majiang.rl.dataset import white_face_of

        by_index = legal_indices(actions, white_face=white_face_of(self.rules, view.wild_face))
        mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        mask[list(by_index)] = 1
        got = self.policy(self.encoder.encode(view), mask)
        try:
            idx = int(got)
        except (TypeError, ValueError):
            raise PythonBotError(f"{self.name}: the policy returned {got!r}, not an action index") from None
        if idx != got or idx not in by_index:
            raise PythonBotError(f"{self.name}: the policy chose index {got!r}, not in its mask "
                                 f"(legal: {sorted(by_index)})")
        return by_index[idx]


def make_python_bot(spec: str, rules: RuleSet, seed: int = 0) -> Player:
    """The player ``python:package.module:factory`` names (``spec`` with or without the prefix)."""
    body = spec[len(PREFIX):] if spec.lower().startswith(PREFIX) else spec
    obj = resolve_object(body)
    if hasattr(obj, "choose") and not inspect.isclass(obj):
        return obj
    if not callable(obj):
        raise PythonBotError(f"python bot {spec!r}: {body} is neither a player nor callable")
    kwargs: dict[str, Any] = {}
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        params = {}
    var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    for k, v in (("rules", rules), ("seed", seed)):
        if k in params or var_kw:
            kwargs[k] = v
    made = obj(**kwargs)
    if hasattr(made, "choose"):
        return made
    if callable(made):
        return PolicyPlayer(made, rules, name=f"python:{body}")
    raise PythonBotError(f"python bot {spec!r}: the factory returned {type(made).__name__}, "
                         "neither a player (choose) nor a policy(observation, mask)")
