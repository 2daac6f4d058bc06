"""How the bots play the Wenzhou rule sets: their :class:`~majiang.rules.base.BotTuning` and the W13
settlement model behind it (docs/strong.md, "Per-rule-set tuning": what each value was measured against)."""

from __future__ import annotations

from typing import Any

from majiang.rules.base import BotTuning

PATTERN_FACTOR = {"full-flush": 4, "seven-pairs": 2, "all-pungs": 2}
"""W13: a special hand's multiplier over the plain win's, the same in both columns (RULES.md §4.4: 清一色
8/4, 七对子 4/2, 大对子 4/2 against the plain 2/1)."""


def typical_win_w13(rules: Any, dealer: bool, concealed: bool, pattern: str | None, dealer_streak: int,
                    extra_tai: int, self_draw_share: float) -> float:
    """A typical W13 win (RULES.md §4.4, §4.6): base B = 3, 5, 7, 9 by the dealer's streak; a dealer's
    win is paid B×M by each of the three, a non-dealer's B×M by the dealer and M by the two others; a
    discard win ×1 plus the 犯枪 point, a self-draw ×2; a pattern multiplies (:data:`PATTERN_FACTOR`).
    Mixed by ``self_draw_share``; ``concealed`` and ``extra_tai`` do not matter here."""
    b = (3, 5, 7, 9)[min(dealer_streak, 3)]
    m = PATTERN_FACTOR.get(pattern or "", 1)
    share = 3 * b if dealer else b + 2
    tau = self_draw_share
    return (1 - tau) * (share * m + 1) + tau * (2 * share * m)


W13_TUNING = BotTuning(typical_win=8.0, typical_deal_in=2.0, ron_rate=1.5, skip_value=0.1,
                       pattern_values=PATTERN_FACTOR, typical_value=typical_win_w13)
"""W13's bot tuning. A typical win: base 3 (dealer) + 1 + 1, ×2 self-drawn; a deal-in: 犯枪 1 + a share."""
W16_TUNING = BotTuning(typical_win=8.0, typical_deal_in=2.0)
"""W16's bot tuning: the typical win and deal-in of W13; no knob screened."""
