"""Players: bots, the simulation loop and the terminal game. A player sees only a seat's view
(:class:`~majiang.engine.match.PlayerView`), never another concealed tile.

* :class:`RandomBot` -- uniform over the legal actions (declares every win by default);
* :class:`EfficiencyBot` -- tile efficiency (shanten, then useful tiles);
* :class:`~majiang.players.strong.StrongBot` -- ``strong``: efficiency weighed by what a win pays under
  the rule set (:mod:`majiang.players.valuation`), the danger of each discard
  (:mod:`majiang.players.danger`) and claims by expected value;
* :func:`make_bot` -- a bot by name (``"random"``, ``"efficiency"``, ``"strong"``);
* :func:`simulate` -- many matches between bots, with statistics and optional records;
* :func:`play_terminal` -- one human against three bots in the terminal.
"""

from majiang.players.efficiency import EfficiencyBot
from majiang.players.random_bot import RandomBot
from majiang.players.simulate import BOT_NAMES, make_bot, simulate
from majiang.players.strong import StrongBot
from majiang.players.terminal import play_terminal

__all__ = ["BOT_NAMES", "EfficiencyBot", "RandomBot", "StrongBot", "make_bot", "play_terminal", "simulate"]
