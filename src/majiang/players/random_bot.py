"""A bot that picks uniformly among the legal actions (seeded, so games stay reproducible)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from majiang.engine.actions import Action, ActionKind
from majiang.engine.match import PlayerView
from majiang.engine.wall import derive_seed


_WIN = ActionKind.WIN


class RandomBot:
    """Chooses a legal action at random from its own :class:`random.Random`.

    Args:
        seed: the bot's seed (mixed through SHA-256 with ``"random-bot"``).
        always_win: declare every legal win instead of choosing it at random (default True, so
            random games end in wins as well as draws).
    """

    name = "random"

    def __init__(self, seed: int = 0, always_win: bool = True) -> None:
        self.rng = random.Random(derive_seed(seed, "random-bot"))
        self.always_win = always_win

    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        """The first win offered (with ``always_win``), else a uniform choice; ``view`` is unused."""
        if self.always_win:
            for a in actions:
                if a.kind is _WIN:
                    return a
        return actions[self.rng.randrange(len(actions))]
