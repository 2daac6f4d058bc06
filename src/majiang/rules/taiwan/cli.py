"""``majiang score`` for Taiwan: the rule set's :class:`~majiang.rules.base.ScoreCommand` (issue 29)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from majiang.cli_score import engine_context, fan_row
from majiang.rules.base import ScoreCommand


def score_hand(rs, hand_text: str, o: Mapping[str, Any]) -> dict:
    """``majiang score`` for Taiwan: HAND in the trap notation with ``--win-tile``; flowers as tiles
    (a seat's flowers depend on which they are); ``--base`` / ``--per-tai`` override the stakes."""
    from majiang.rules.taiwan import Stakes, settle
    from majiang.rules.taiwan.engine_adapter import win_from_engine

    ctx = engine_context(rs, hand_text, o, flower_count=False)
    ad = rs.scorer_object()
    stakes = ad.stakes
    if o["base"] is not None or o["per_tai"] is not None:
        stakes = Stakes(stakes.base if o["base"] is None else o["base"],
                        stakes.per_tai if o["per_tai"] is None else o["per_tai"])
        ad = dataclasses.replace(ad, stakes=stakes)
    r = ad.result(ctx)
    win = win_from_engine(ctx)
    rows = [fan_row(pc.pattern.en, pc.pattern.zh, r.options.tai(pc.pattern.id), pc.count) for pc in r.patterns]
    out: dict = {"rules": "taiwan", "hand": str(ctx.hand), "unit": "tai", "total": r.total_tai, "fans": rows,
                 "pattern_ids": [pc.pattern.id for pc in r.patterns], "shape": r.shape,
                 "valid": r.meets_minimum, "minimum": r.minimum_tai, "flower_win": r.flower_win,
                 "winner": win.seat, "dealer": win.dealer, "discarder": win.discarder, "streak": win.streak,
                 "dealer_tai": r.options.dealer_tai(win.streak), "stakes": {"base": stakes.base, "per_tai": stakes.per_tai}}
    if r.meets_minimum:
        led = settle(r, ad.stakes)
        out["payments"] = [{"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in led.payments]
        out["deltas"] = led.deltas
    else:
        out["payments"], out["deltas"] = [], None
    return out


def note(r: dict) -> str:
    """The total line's tail: the dealer's 台, and whether the win meets the minimum."""
    line = f" (+{r['dealer_tai']} dealer tai on payments involving the dealer)"
    if not r["valid"]:
        line += f" -- under the minimum of {r['minimum']} tai: not a valid win"
    return line


COMMAND = ScoreCommand(score_hand, note)
