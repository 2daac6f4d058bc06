"""The efficiency bots' shared useful-tile memo stays under its cap (a server's memory stops
growing once it is full)."""

from __future__ import annotations

import pytest

from majiang.engine import Match, RuleSet, run_match
from majiang.players import EfficiencyBot
from majiang.players import efficiency


def test_the_shared_useful_tile_memo_is_emptied_at_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(efficiency, "USEFUL_MEMO_CAP", 40)
    monkeypatch.setattr(efficiency, "_USEFUL_MEMO", {})
    rules = RuleSet.preset("mcr")
    bots = [EfficiencyBot(rules) for _ in range(4)]
    sizes: list[int] = []
    real = EfficiencyBot._useful_tiles

    def watched(self, counts):  # noqa: ANN001, ANN202
        sizes.append(len(self._useful_memo))
        return real(self, counts)

    monkeypatch.setattr(EfficiencyBot, "_useful_tiles", watched)
    run_match(Match(rules, seed=3, max_hands=2), bots)
    assert max(sizes) <= 41  # filled up to the cap, never past it
    assert any(b < a for a, b in zip(sizes, sizes[1:])), "the memo never reached its cap"
