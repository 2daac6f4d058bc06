"""How the bots play Taiwan 16-tile: the rule set's :class:`~majiang.rules.base.BotTuning` and the
settlement model behind it (docs/strong.md, "Per-rule-set tuning": what each value was measured against)."""

from __future__ import annotations

from typing import Any

from majiang.rules.base import BotTuning

PATTERN_TAI = {"full-flush": 8, "half-flush": 4, "all-pungs": 4}
"""台 of the patterns a hand can steer toward (RULES.md §3.2: 清一色 8, 混一色 4, 碰碰胡 4)."""

LEARNED_DANGER = (-1.5369, 0.3434, 1.1279, 2.4110, 3.5609, 3.7762, 2.3063, -2.0549, -1.9001, -1.4425, -0.5059,
                  0.1094, 0.1442, 0.2524, -0.9096, -0.2278, -0.2443, 0.6129, -0.4093, -0.4966, 0.0384, 0.0259,
                  0.7622, 1.3684, -8.6682, 0.7333, -0.0787, -0.3721, 0.3081)
"""The learned deal-in model's coefficients (one per ``majiang.players.danger.FEATURES`` column): fitted by
``benchmarks/fit_danger.py`` on ``benchmarks/danger_data.py`` games (docs/strong.md, "learned danger")."""


def typical_win(rules: Any, dealer: bool, concealed: bool, pattern: str | None, dealer_streak: int,
                extra_tai: int, self_draw_share: float) -> float:
    """A typical Taiwan win (RULES.md §3.3): each payment is 底 + (台 + D) × per 台, D = 1 + 2N when the
    dealer wins or pays; a self-draw is paid by all three, a discard win by the discarder alone. 門清 1,
    自摸 1, 不求 1 (門清自摸 = 3) -- a claimed meld (``concealed=False``) loses 門清 and 不求; the
    pattern's 台 from :data:`PATTERN_TAI`, ``extra_tai`` more. A non-dealer's discard win comes from the
    dealer one time in three. Mixed by ``self_draw_share``."""
    base = float(rules.rule_option("base"))
    per = float(rules.rule_option("per_tai"))
    x = extra_tai + PATTERN_TAI.get(pattern or "", 0)
    ron_tai = x + (1 if concealed else 0)
    self_tai = x + (3 if concealed else 1)
    d = 1 + 2 * dealer_streak
    if dealer:
        ron = base + (ron_tai + d) * per
        tsumo = 3 * (base + (self_tai + d) * per)
    else:
        ron = base + ron_tai * per + d * per / 3.0
        tsumo = 3 * (base + self_tai * per) + d * per
    tau = self_draw_share
    return (1 - tau) * ron + tau * tsumo


TUNING = BotTuning(typical_win=100.0, typical_deal_in=55.0, defence=0.25, claim_needs_progress=True,
                   defend_within=1, risk_floor=0.5, claim_weights=(0.9, 0.3), pattern_values=PATTERN_TAI,
                   typical_value=typical_win, tai_option="per_tai", danger_model=LEARNED_DANGER)
"""Taiwan's bot tuning. A typical win: a discard win 30 + (2+1)×10, a self-draw ×3; the discarder
pays alone (typical deal-in 55)."""
