"""Chinese Official mahjong (MCR, 国标麻将): the 81 fans, scoring and settlement (RULES.md §6, seed 004).

* :mod:`.fans` — the fans as data (:data:`FANS`), detectors, the exclusion / account-once selection;
* :mod:`.conditions` — :class:`WinConditions`, :class:`McrOptions`;
* :mod:`.scoring` — :func:`score`, :func:`settle`, :class:`McrResult`, :func:`use_compiled`;
* :mod:`.compiled` — the same scoring compiled (numba), which :func:`score` takes after 2,000 hands;
* :mod:`.notation` — :func:`parse_hand_string` for ``gb_mahjong_cases.json`` strings.
"""

from majiang.rules.mcr.conditions import McrConditionError, McrOptions, WinConditions
from majiang.rules.mcr.fans import FANS, OFFICIAL_FANS, Fan, fan
from majiang.rules.mcr.notation import format_hand_string, parse_hand_string
from majiang.rules.mcr.scoring import (
    FanCount,
    McrNotWinningError,
    McrResult,
    McrScoringError,
    score,
    score_arrangements,
    settle,
    use_compiled,
)

__all__ = [
    "FANS", "OFFICIAL_FANS", "Fan", "FanCount", "McrConditionError", "McrNotWinningError", "McrOptions",
    "McrResult", "McrScoringError", "WinConditions", "fan", "format_hand_string", "parse_hand_string", "score",
    "score_arrangements", "settle", "use_compiled",
]
