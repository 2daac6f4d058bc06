"""Wenzhou 财神 mahjong (温州麻将), two profiles (RULES.md §4), plus the interface shared by the
wildcard rule sets.

* :mod:`.w13` — **W13**, the seed-003 13-tile game, the primary Wenzhou profile (RULES.md §4.4,
  §4.6, §9.4): additive special-hand multipliers, base 3/5/7/9, 犯枪, 被跟, 统包, 抢杠, 误打财神.
* :mod:`.w16` — **W16**, the 16-tile game (MIL 温州 2024 reading, RULES.md §4.5): 软/硬/双翻 tiers,
  八对, three-财神 win, 财神钱, kong money, dealer factor 2/4/6/8.
* :mod:`.shapes` — the 不搭 and 八对 predicates over ``(counts, wilds)`` (to move to the analysis
  layer later).
* :mod:`.common` — the shared interface (also used by :mod:`majiang.rules.seed000` and
  :mod:`majiang.rules.shandong`).
* :mod:`.engine_adapter` — :class:`~.engine_adapter.WildRulesAdapter`, an engine ``Scorer`` and
  ``Settlement`` for ``wz13``, ``wz16``, ``seed000``, ``shandong``; ``register_with_engine()``
  registers them by those names (not called on import).

Interface (identical in every wildcard rule set)::

    score(hand: Hand, ctx: WinContext, options=None) -> WildResult
    settle(result: WildResult, ctx: WinContext | None = None) -> Ledger

``hand`` follows the engine convention (natural tiles without the winning tile, ``wilds`` counted
apart, 白板 already written as the 财神's face; :func:`natural_hand` converts physical faces).
``WildResult.value`` is the multiplier (``.multiplier``); ``.patterns`` are
:class:`Pattern` ``(id, name_zh, name_en, value)``. ``settle`` returns a zero-sum
:class:`~majiang.rules.settlement.Ledger`. Errors are :class:`WildRulesError` subclasses
(:class:`NotWinningError`, :class:`ContextError`, :class:`OptionsError`, :class:`WildCountError`,
:class:`ActionError`, :class:`WildChoiceError`) or the foundation's
:class:`~majiang.errors.TileCountError` for a wrong tile count.

Choosing the 财神: :func:`choose_wild_face` (dice counted from the wall's tail, RULES.md §4.2).

Example (seed 003: the dealer, in his second consecutive hand, self-draws 七对子; each pays 20)::

    >>> from majiang.hand import Hand
    >>> from majiang.rules.wenzhou import WinContext, w13
    >>> r = w13.score(Hand.parse("1133m5577p99s112z", win_tile="2z"),
    ...               WinContext(seat=0, dealer=0, self_drawn=True, dealer_streak=1))
    >>> r.multiplier, w13.settle(r).deltas
    (4, [60, -20, -20, -20])
"""

from majiang.rules.wenzhou import shapes, w13, w16
from majiang.rules.wenzhou.common import (
    ActionError,
    ContextError,
    NotWinningError,
    OptionsError,
    Pattern,
    WildChoice,
    WildChoiceError,
    WildCountError,
    WildResult,
    WildRulesError,
    WinContext,
    choose_wild_face,
    natural_hand,
    next_face,
)
from majiang.rules.wenzhou.w13 import W13Options
from majiang.rules.wenzhou.w16 import W16Options

__all__ = [
    "ActionError", "ContextError", "NotWinningError", "OptionsError", "Pattern", "W13Options", "W16Options",
    "WildChoice", "WildChoiceError", "WildCountError", "WildResult", "WildRulesError", "WinContext",
    "choose_wild_face", "natural_hand", "next_face", "shapes", "w13", "w16",
]
