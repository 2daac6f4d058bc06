"""``majiang score`` for Wenzhou W13 and W16, seed 000 and Shandong (their scorers share
:mod:`majiang.rules.wenzhou.engine_adapter`): the rule sets' :class:`~majiang.rules.base.ScoreCommand`
(issue 29)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from majiang.cli_score import engine_context, fan_row
from majiang.errors import MajiangError
from majiang.rules.base import ScoreCommand
from majiang.tiles import format_compact


def score_hand(rs, hand_text: str, o: Mapping[str, Any], *, need_face: bool = False,
               base_row: bool = False) -> dict:
    """``majiang score`` for the rule sets scored by :func:`~majiang.rules.wenzhou.engine_adapter.score_engine`
    (Wenzhou W13 and W16, seed 000, Shandong): HAND in the trap notation with ``--win-tile``, ``--wild``
    the 财神's face; flowers have no value there, so ``--flowers`` is refused. ``need_face``: a hand
    with '*' needs ``--wild`` (W16: the face decides soft and hard wins); ``base_row``: a points
    result lists its base points as a row (seed 000)."""
    from majiang.rules.wenzhou.engine_adapter import rules_module, score_engine

    if o["flowers"] is not None:
        raise MajiangError("--flowers: this rule set gives flowers no value (RULES.md §4, §5, §2)")
    rid = rs.scorer
    ctx = engine_context(rs, hand_text, o, wilds_need_face=need_face)
    r = score_engine(rid, ctx, rs.scorer_object().options)
    rows = []
    if r.unit == "points" and base_row:
        base = r.value - sum(p.value or 0 for p in r.patterns)
        rows.append(fan_row("Base points", "底分", base, 1))
    rows += [fan_row(p.name_en, p.name_zh, p.value or 0, 1) for p in r.patterns]
    led = rules_module(rid).settle(r)
    return {"rules": rs.definition.name if rs.definition is not None else rs.name, "hand": ctx.hand.notation(),
            "unit": r.unit,
            "total": r.value, "fans": rows, "pattern_ids": [p.id for p in r.patterns], "shape": r.shape,
            "wild": None if ctx.wild_face is None else format_compact([ctx.wild_face]),
            "winner": ctx.seat, "dealer": ctx.dealer, "discarder": ctx.discarder, "streak": ctx.dealer_streak,
            "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
                         for p in led.payments],
            "deltas": led.deltas}


COMMAND = ScoreCommand(score_hand)
"""W13 and Shandong."""
W16_COMMAND = ScoreCommand(partial(score_hand, need_face=True))
"""W16: a hand with '*' wildcards needs ``--wild``."""
SEED000_COMMAND = ScoreCommand(partial(score_hand, base_row=True))
"""Seed 000: the base points are a row of the table."""
