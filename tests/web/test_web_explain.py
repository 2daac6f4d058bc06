"""The hand-end settlement explained when one player pays for all (W13 统包 / 抢杠 liability).

The trial's first Wenzhou hand read only "电脑1 → 电脑2: 付 10": the deltas were those of 统包, which
the formula alone did not give, so the explanation fell back to the plain payment. The values here
are RULES.md §4.6 (SD3): base B = 3 in the dealer's first hand, B × M between the dealer and the
winner, M between two non-dealers; the liable player pays every loser's amount once; 犯枪 (1) stays
with the discarder."""

from __future__ import annotations

from majiang.engine import RuleSet
from majiang.web import i18n
from majiang.web.explain import explain_win

W13 = RuleSet.preset("wenzhou")


def _paid(lines):
    paid = [0, 0, 0, 0]
    for line in lines:
        paid[line["payer"]] -= line["amount"]
        paid[line["to"]] += line["amount"]
    return paid


def test_tongbao_self_draw_shows_the_formula_of_each_share():
    # dealer seat 1 (first hand: B = 3), seat 2 self-draws ×2, seat 3 is liable under 统包:
    # seat 0's share 2, the dealer's 3 × 2 = 6, seat 3's own 2 -> 10, all paid by seat 3
    ev = {"actor": 2, "target": 2, "pai": "5m", "robbing": False, "value": 2, "bonus": 0, "deltas": [0, 0, 10, -10]}
    lines = explain_win(W13, ev, 1, 0)
    assert _paid(lines) == ev["deltas"]
    assert [(ln["payer"], ln["amount"], ln.get("for")) for ln in lines] == [(3, 2, 0), (3, 6, 1), (3, 2, None)]
    assert lines[1]["formula"]["zh"] == "统包：庄家底 3 × 2 倍 = 6"
    assert "dealer base 3 × 2 = 6" in lines[1]["formula"]["en"]
    assert all(ln["formula"]["zh"] != i18n.t("zh", "explain.plain", amount=ln["amount"]) for ln in lines)


def test_tongbao_on_a_discard_keeps_fanqiang_with_the_discarder():
    # dealer seat 0 wins ×1 on seat 2's discard with seat 1 liable: the dealer wins, so each of the
    # three shares is B × M = 3, all paid by seat 1; the discarder still adds 犯枪 1
    ev = {"actor": 0, "target": 2, "pai": "5m", "robbing": False, "value": 1, "bonus": 0, "deltas": [10, -9, -1, 0]}
    lines = explain_win(W13, ev, 0, 0)
    assert _paid(lines) == ev["deltas"]
    assert [(ln["payer"], ln["amount"]) for ln in lines] == [(1, 3), (1, 3), (1, 3), (2, 1)]
    assert lines[-1]["formula"]["zh"] == "犯枪 1"
