"""Taiwan 16-tile mahjong (台灣十六張): scoring and settlement as a pure rules module (RULES.md §3).

* :mod:`~majiang.rules.taiwan.patterns` — the 台 table as data, detectors, non-stacking table, presets;
* :mod:`~majiang.rules.taiwan.options` — :class:`TaiwanOptions` (preset, overrides, optional rules);
* :mod:`~majiang.rules.taiwan.conditions` — :class:`TaiwanWin` (how the hand was won);
* :mod:`~majiang.rules.taiwan.scoring` — :func:`score` → :class:`TaiwanResult`, :func:`can_win`;
* :mod:`~majiang.rules.taiwan.settlement` — :func:`settle` → zero-sum ``Ledger``, :class:`Stakes`.

Typical use (the engine)::

    result = score(hand, TaiwanWin(seat=1, dealer=0, self_drawn=True, streak=1), options)
    if result.meets_minimum:
        ledger = settle(result, Stakes(base=30, per_tai=10))
"""

from majiang.rules.taiwan.conditions import TaiwanConditionError, TaiwanWin
from majiang.rules.taiwan.options import TaiwanOptionError, TaiwanOptions
from majiang.rules.taiwan.patterns import EXCLUSIONS, PATTERNS, PRESETS, Pattern, UnknownPatternError, pattern
from majiang.rules.taiwan.scoring import (
    PatternCount,
    TaiwanNotWinningError,
    TaiwanResult,
    TaiwanScoringError,
    can_win,
    is_complete,
    score,
)
from majiang.rules.taiwan.settlement import MULTI_WIN_MODES, Stakes, discard_winners, payment_amount, settle

__all__ = [
    "EXCLUSIONS", "MULTI_WIN_MODES", "PATTERNS", "PRESETS", "Pattern", "PatternCount", "Stakes", "TaiwanConditionError",
    "TaiwanNotWinningError", "TaiwanOptionError", "TaiwanOptions", "TaiwanResult", "TaiwanScoringError",
    "TaiwanWin", "UnknownPatternError", "can_win", "discard_winners", "is_complete", "pattern", "payment_amount",
    "score", "settle",
]
