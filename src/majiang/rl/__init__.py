"""Learning environments on the majiang engine (``pip install 'majiang[rl]'``: gymnasium, pettingzoo,
numba). docs/rl.md is the full reference.

The environments (:func:`env`, :class:`SingleAgentEnv`, :class:`VectorEnv` ...) load on first use
(PEP 562), so the parts that need numpy alone -- :mod:`majiang.rl.actions`,
:mod:`majiang.rl.observations`, :mod:`majiang.rl.dataset`, :mod:`majiang.rl.train` (and the ``learned``
bot, :mod:`majiang.players.learned`, built on them) -- import without gymnasium or pettingzoo installed.

* :func:`env` -- a PettingZoo AEC environment, agents ``seat_0``..``seat_3``, for every preset and
  option spec (``env(rules="taiwan,declare_ready=true")``);
* :func:`parallel_env` -- the PettingZoo parallel environment (claim windows answered at once);
* :class:`SingleAgentEnv` -- Gymnasium, one learning seat against majiang bots (also
  ``gymnasium.make("majiang/SingleAgent-v1", rules=...)``);
* :class:`VectorEnv` -- ``n`` tables with numpy batches and auto-reset;
* :mod:`majiang.rl.actions` -- the fixed action layout (Botzone's 235, then 报听 + discard: 269);
* :mod:`majiang.rl.observations` -- ``majiang-v1`` (``oracle=True`` adds every hand) and ``botzone-v0``.

Every environment's ``observe`` gives ``{"observation": (C, 34) float32, "action_mask": (269,) int8}``;
a live table never has an empty mask and every index in it is accepted by the engine.
"""

from __future__ import annotations

from typing import Any

from typing import TYPE_CHECKING

from majiang.rl.actions import ACTION_SIZE, LAYOUT_TILES, LAYOUT_VERSION, ActionIndexError, describe_index, index_of
from majiang.rl.observations import OBSERVATIONS, Encoder, plane_spec, to_grid

if TYPE_CHECKING:
    from majiang.rl.aec import MajiangAEC, MajiangParallel
    from majiang.rl.core import Table
    from majiang.rl.single import SingleAgentEnv
    from majiang.rl.vector import VectorEnv

_LAZY = {"AGENTS": "majiang.rl.aec", "MajiangAEC": "majiang.rl.aec", "MajiangParallel": "majiang.rl.aec",
         "Table": "majiang.rl.core", "SingleAgentEnv": "majiang.rl.single", "VectorEnv": "majiang.rl.vector"}


def __getattr__(name: str) -> Any:
    # the environments import gymnasium/pettingzoo: loaded on first use, not by the learned bot (PEP 562)
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'majiang.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(mod), name)


def env(rules: Any = "mcr", observation: str = "majiang-v1", **kwargs: Any) -> MajiangAEC:
    """A PettingZoo AEC environment (:class:`~majiang.rl.aec.MajiangAEC`). Keyword arguments:
    ``oracle``, ``hands`` (per episode, default 1; ``None`` = the whole match), ``reward_scale``,
    ``score_scale``, ``analysis``, ``shaping``, ``render_mode``, ``batched`` (``None``: the batched
    core's one-row table where it plays the set-up, see :func:`majiang.rl.aec.make_table`)."""
    from majiang.rl.aec import MajiangAEC

    return MajiangAEC(rules, observation, **kwargs)


def parallel_env(rules: Any = "mcr", observation: str = "majiang-v1", **kwargs: Any) -> MajiangParallel:
    """A PettingZoo parallel environment (:class:`~majiang.rl.aec.MajiangParallel`), same arguments as :func:`env`."""
    from majiang.rl.aec import MajiangParallel

    return MajiangParallel(rules, observation, **kwargs)


GYM_ID = "majiang/SingleAgent-v1"
"""``gymnasium.make(GYM_ID, rules="wenzhou", opponents="efficiency")`` makes a :class:`SingleAgentEnv`."""


def _register() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the core install: no gymnasium, nothing to register
        return
    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="majiang.rl.single:SingleAgentEnv",
                 vector_entry_point="majiang.rl.vector:make_vector")


_register()

__all__ = [
    "ACTION_SIZE", "AGENTS", "GYM_ID", "LAYOUT_TILES", "LAYOUT_VERSION", "OBSERVATIONS", "ActionIndexError", "Encoder",
    "MajiangAEC", "MajiangParallel", "SingleAgentEnv", "Table", "VectorEnv", "describe_index", "env",
    "index_of", "parallel_env", "plane_spec", "to_grid",
]
