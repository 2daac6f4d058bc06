"""Shandong mahjong (山东麻将, seed ``001_*``) — a **provisional** rule set (RULES.md §5, §9.5).

What the seed gives: 146 tiles (the 136 ordinary tiles, 8 flowers one each, and two "白砣" whose
meaning is not explained), 13-tile play with chow, pung and kong, dice rolled twice to find where the
deal starts, stacks of three tiles, a winning shape of one pair plus four sets (m pungs + n chows,
m + n = 4), and four ways to win: 点炮 (on a discard), 提溜 (self-draw), 杠开 (on a kong
replacement), 海底捞 (the last tile). No scoring. No other source describes this set.

Project decisions (RULES.md §9.5), until better sources appear:

* the two 白砣 are extra bonus tiles, set aside and replaced like flowers (the foundation has no
  tile index for them: the engine needs a pseudo-tile; :data:`RULESET` records the counts);
* no wildcards, no special shapes;
* one point per win, doubled on a self-draw (提溜, 杠开, 海底捞 are self-drawn);
* settlement (also a decision here): a discard win is paid by the discarder alone (a robbed kong by
  the robbed player); a self-drawn win is paid its points by each other player.

Interface (shared with :mod:`majiang.rules.wenzhou`, see :mod:`majiang.rules.wenzhou.common`)::

    score(hand: Hand, ctx: WinContext, options: ShandongOptions | None = None) -> WildResult
    settle(result: WildResult, ctx: WinContext | None = None) -> Ledger
"""

from majiang.rules.shandong.rules import (
    RULESET,
    WIN_TYPES,
    ShandongOptions,
    ShandongRuleSet,
    score,
    settle,
    win_type,
)
from majiang.rules.wenzhou.common import NotWinningError, Pattern, WildResult, WinContext

__all__ = ["RULESET", "WIN_TYPES", "NotWinningError", "Pattern", "ShandongOptions", "ShandongRuleSet",
           "WildResult", "WinContext", "score", "settle", "win_type"]
