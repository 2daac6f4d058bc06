"""The mask property (docs/rl.md, "Masks"): over random states of every preset, every awaited seat's
mask is non-empty and one to one with the engine's legal actions, every masked index is accepted by
the engine (applied on a copy), and idle seats see ``pass`` only. The CI run walks 300 states per
rule set; ``benchmarks/rl_mask_property.py`` walks 10,000."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from majiang.engine import PRESET_NAMES  # noqa: E402
from majiang.rl.checks import check_masks  # noqa: E402

RULES = list(PRESET_NAMES) + ["taiwan,declare_ready=true", "mcr,multiple_winners=all"]


@pytest.mark.parametrize("rules", RULES)
def test_every_masked_action_is_accepted(rules: str) -> None:
    rep = check_masks(rules, 300, seed=11, apply_every=2)
    assert rep.failures == []
    assert rep.states == 300
    assert rep.applied > 300  # several indices per applied state
    # the walk reaches claim windows, not only discards
    assert rep.kinds.get("pass", 0) > 0 and rep.kinds.get("discard", 0) > 0
    assert rep.kinds.get("chow", 0) + rep.kinds.get("pung", 0) > 0


@pytest.mark.parametrize("rules", ["mcr", "shandong"])
def test_the_batched_tables_masks_are_the_engines(rules: str) -> None:
    """The AEC environment's batched table (mcr, shandong): every mask against the legal actions of
    the engine match replayed from its actions, every masked index accepted by that engine."""
    pytest.importorskip("numba")
    rep = check_masks(rules, 300, seed=13, apply_every=3, batched=True)
    assert rep.failures == []
    assert rep.states == 300 and rep.applied > 100
    assert rep.kinds.get("chow", 0) + rep.kinds.get("pung", 0) > 0
