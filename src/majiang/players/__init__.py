"""Players: bots, the simulation loop and the terminal game. A player sees only a seat's view
(:class:`~majiang.engine.match.PlayerView`), never another concealed tile.

* :class:`RandomBot` -- uniform over the legal actions (declares every win by default);
* :class:`EfficiencyBot` -- tile efficiency (shanten, then useful tiles);
* :class:`~majiang.players.strong.StrongBot` -- ``strong``: efficiency weighed by what a win pays under
  the rule set (:mod:`majiang.players.valuation`), the danger of each discard
  (:mod:`majiang.players.danger`) and claims by expected value;
* ``learned`` (:mod:`majiang.players.learned`) -- a network trained on ``strong``'s self-play, numpy;
* :func:`make_bot` -- a bot by name (``"random"``, ``"efficiency"``, ``"strong"``, ``"learned"``, or
  ``"python:package.module:factory"``, :mod:`majiang.players.pyplayer`);
* :func:`simulate` -- many matches between bots, with statistics and optional records;
* :func:`play_terminal` -- one human against three bots in the terminal.
"""

from typing import TYPE_CHECKING, Any

from majiang.players.efficiency import EfficiencyBot
from majiang.players.random_bot import RandomBot
from majiang.players.simulate import BOT_NAMES, is_bot_name, make_bot, simulate

if TYPE_CHECKING:
    from majiang.players.strong import StrongBot
    from majiang.players.terminal import play_terminal


def __getattr__(name: str) -> Any:
    # the terminal game (rich) and the strong bot load on first use, not in every bot process (PEP 562)
    if name == "play_terminal":
        from majiang.players.terminal import play_terminal

        return play_terminal
    if name == "StrongBot":
        from majiang.players.strong import StrongBot

        return StrongBot
    raise AttributeError(f"module 'majiang.players' has no attribute {name!r}")

__all__ = ["BOT_NAMES", "EfficiencyBot", "is_bot_name", "RandomBot", "StrongBot", "make_bot", "play_terminal", "simulate"]
