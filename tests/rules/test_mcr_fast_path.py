"""The fast scoring path (rules/mcr/fast.py) against the reference procedure it replaced.

``scoring._plain_arrangements`` keeps the original procedure (every decomposition from the analysis
layer, the fans.py detectors, ``fans.select``); ``score_arrangements`` uses the per-suit tables and the
table-driven families of fast.py. They must give the same arrangements under every option.
"""

import pytest

from majiang.rules.mcr import McrOptions
from majiang.rules.mcr import scoring
from majiang.rules.mcr.random_hands import random_winning_hands

OPTIONS = [McrOptions(), McrOptions(knitted_straight_waits=False), McrOptions(melded_concealed_kong_pair=False)]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "no-knitted-waits", "kong-pair-split"])
def test_fast_path_equals_the_reference_procedure(options):
    n = 0
    for hand, cond in random_winning_hands(2500, 4242):
        fast = scoring.score_arrangements(hand, cond, options)
        plain = scoring._plain_arrangements(hand, cond, options)
        assert fast == plain, (str(hand), cond)
        n += 1
    assert n == 2500
