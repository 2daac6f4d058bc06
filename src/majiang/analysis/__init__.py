"""Hand analysis: win check, decompositions, waits, shanten, discard advice (pure functions over counts).

See :mod:`majiang.analysis.win` for the fast path and :mod:`majiang.analysis.tables` for the
per-suit lookup tables behind it, :mod:`majiang.analysis.batch` for the calls on many hands at once
(numpy arrays).
"""

from majiang.analysis.batch import is_winning_many, shanten_many, waits_many
from majiang.analysis.decompose import Decomposition, Group, decompositions
from majiang.analysis.shapes import ALL_SHAPES, MCR_SHAPES, SEVEN_PAIRS_AND_ORPHANS, STANDARD, ShapeRules
from majiang.analysis.wildcards import split_wildcards
from majiang.analysis.win import (
    DiscardOption,
    Waits,
    discard_advice,
    is_winning,
    shanten,
    shanten_honors_and_knitted,
    shanten_knitted_straight,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
    useful_tiles,
    waits,
    win_need,
)

__all__ = [
    "ALL_SHAPES", "MCR_SHAPES", "SEVEN_PAIRS_AND_ORPHANS", "STANDARD", "Decomposition", "DiscardOption", "Group",
    "ShapeRules", "Waits", "decompositions", "discard_advice", "is_winning", "is_winning_many", "shanten",
    "shanten_honors_and_knitted", "shanten_knitted_straight", "shanten_seven_pairs", "shanten_standard",
    "shanten_many", "shanten_thirteen_orphans", "split_wildcards", "useful_tiles", "waits", "waits_many", "win_need",
]
