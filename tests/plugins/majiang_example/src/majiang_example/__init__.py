"""An example rule set outside majiang (docs/rulesets.md): "example", a plain 13-tile game.

* Table: 136 tiles (no flowers), 13-tile hands, standard shape plus seven pairs (its own shape
  ``"example-pairs"``), chow/pung/kong, the dealer keeps the deal on a win, a win needs 1 point.
* Scoring: 1 point a win (``base``), plus 清一色 Full flush (``flush_points``, default 4), 七对 Seven
  pairs 2, 碰碰和 All pungs 2, 自摸 Self-drawn 1 (when ``self_drawn_bonus``).
* Settlement: a discard win is paid by the discarder alone, a self-draw by each other player.

Everything it needs from majiang comes from ``majiang.rules.base`` and the analysis layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.analysis import ShapeRules, decompositions
from majiang.rules.base import Option, PatternInfo, RuleSetDef, ScoreResult, WinContext, WinSettle

PAIRS = ShapeRules(seven_pairs=True)

PATTERNS = (
    PatternInfo("ex.base", "底分", "Base", 1),
    PatternInfo("ex.qingyise", "清一色", "Full flush", 4),
    PatternInfo("ex.qidui", "七对", "Seven pairs", 2),
    PatternInfo("ex.pengpenghe", "碰碰和", "All pungs", 2),
    PatternInfo("ex.zimo", "自摸", "Self-drawn", 1),
)


@dataclass(frozen=True)
class ExampleScorer:
    """Values a win; the table only asks it about hands the shapes accept."""

    flush_points: int = 4
    self_drawn_bonus: bool = True
    base: int = 1
    name: str = "example"

    def score(self, ctx: WinContext) -> ScoreResult:
        hand = ctx.hand
        tiles = list(hand.concealed) + [hand.win_tile] + [t for m in hand.melds for t in m.tiles]
        pats = [("ex.base", self.base, 1)]
        if len({t // 9 for t in tiles}) == 1 and max(tiles) < 27:
            pats.append(("ex.qingyise", self.flush_points, 1))
        shapes = {d.shape for d in decompositions(hand.full_counts(), 0, PAIRS)}
        if "seven-pairs" in shapes and not hand.melds:
            pats.append(("ex.qidui", 2, 1))
        elif any(all(g.kind != "chow" for g in d.groups) for d in decompositions(hand.full_counts(), 0, PAIRS)
                 if d.shape == "standard") and not any(m.kind.value == "chow" for m in hand.melds):
            pats.append(("ex.pengpenghe", 2, 1))
        if ctx.self_drawn and self.self_drawn_bonus:
            pats.append(("ex.zimo", 1, 1))
        return ScoreResult(sum(v * k for _, v, k in pats), 0, tuple(pats))


@dataclass(frozen=True)
class ExampleSettlement:
    name: str = "example"

    def settle(self, win: WinSettle, players: int) -> list[int]:
        d = [0] * players
        for s in range(players):
            if s != win.winner and (win.discarder is None or s == win.discarder):
                d[s] -= win.result.total
                d[win.winner] += win.result.total
        return d


def _scorer(rules) -> ExampleScorer:
    return ExampleScorer(flush_points=rules.rule_option("flush_points"),
                         self_drawn_bonus=rules.rule_option("self_drawn_bonus"))


RULESET = RuleSetDef(
    name="example", label_zh="示例麻将", label_en="Example game", unit="points",
    summary="A small example rule set from docs/rulesets.md: 13 tiles, no flowers, a few patterns.",
    table=dict(flowers=False, hand_size=13, shapes="example-pairs", reserve=0, dealer_keeps_on_win=True,
               rounds=1, first_dealer="east", min_score=1, scorer="example", settlement="example"),
    shapes={"example-pairs": PAIRS},
    scorers={"example": _scorer},
    settlements={"example": lambda rules: ExampleSettlement()},
    options=(
        Option("flush_points", "int", 4, "清一色分", "Full flush points", "Points of 清一色.", minimum=1),
        Option("self_drawn_bonus", "bool", True, "自摸加分", "Self-draw bonus", "A self-drawn win earns 1 more."),
    ),
    table_options=("multiple_winners", "rounds"),
    patterns=PATTERNS,
)
