"""Seed-000 百搭 profile (RULES.md §2, §9.1, §9.2; seed ``000_*``): scoring by named hands and 相公.

Interface (shared with :mod:`majiang.rules.wenzhou` and :mod:`majiang.rules.shandong`, see
:mod:`majiang.rules.wenzhou.common`)::

    score(hand: Hand, ctx: WinContext, options: Seed000Options | None = None) -> WildResult
    settle(result: WildResult, ctx: WinContext | None = None) -> Ledger

``WildResult.points`` = ``base_points`` + values of the named hands (the seed gives none, so by
default every pattern reports ``value=None`` and a win is worth 1). Named hands use ids such as
``seed000.da_sanyuan`` and, for the seed's own 2-5-8-bamboo hands, ``seed_qinglaotou_258s_green`` and
``seed_hunlaotou_258s_honours`` (not the Japanese terminal hands, RULES.md §2.3, §7).

* :func:`choose_wild_face` — the 百搭 face from the wall and the dice (counted from the tail; all
  four copies live in this profile);
* :func:`natural_hand` — physical faces → the engine convention (百搭 copies → wildcards, 白板 →
  the 百搭 face);
* :func:`xianggong` / :func:`xianggong_of` — 小相公/大相公: may the player win, do his kongs count;
* the seed's ``TestHu`` itself is :func:`majiang.seed.TestHu` (foundation).
"""

from majiang.rules.seed000.profile import (
    NAMES,
    Seed000Options,
    XiangGong,
    is_nine_gates,
    score,
    settle,
    xianggong,
    xianggong_of,
)
from majiang.rules.wenzhou.common import (
    NotWinningError,
    Pattern,
    WildResult,
    WinContext,
    choose_wild_face,
    natural_hand,
)

__all__ = [
    "NAMES", "NotWinningError", "Pattern", "Seed000Options", "WildResult", "WinContext", "XiangGong",
    "choose_wild_face", "is_nine_gates", "natural_hand", "score", "settle", "xianggong", "xianggong_of",
]
