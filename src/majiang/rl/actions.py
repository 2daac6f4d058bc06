"""The fixed discrete action layout ``majiang-v1`` (docs/rl.md, "Actions").

The first 235 indices are Botzone's Chinese Official layout (the PKU baseline ``FeatureAgent``), so a
policy head trained on Botzone ports over; Chinese rule sets append what they add:

=========  =====  ================================================================================
index      count  action (engine :class:`~majiang.engine.ActionKind`)
=========  =====  ================================================================================
0          1      pass (过) -- also the no-op of a seat that has nothing to decide
1          1      win (和): self-drawn, on a discard, or robbing a kong (the tile is implied)
2-35       34     discard (打) tile ``i``
36-98      63     chow (吃): ``36 + 21*suit + 3*(middle rank - 2) + position of the claimed tile``
99-132     34     pung (碰) of the discard
133-166    34     exposed kong (明杠) of the discard
167-200    34     concealed kong (暗杠) of tile ``i``
201-234    34     added kong (补杠/加杠) of tile ``i``
235-268    34     declare ready (报听/報聽) and discard tile ``i`` (``RuleSet.declare_ready``)
=========  =====  ================================================================================

Tile ``i`` is in **Botzone order** (:data:`LAYOUT_TILES`): W1-W9 (characters, our 0-8), T1-T9
(bamboo, our 18-26), B1-B9 (dots, our 9-17), F1-F4 (East South West North), J1-J3 (Red, Green,
White). The chow's ``suit`` counts W, T, B as 0, 1, 2 and ``middle`` is the rank (2-8) of the chow's
middle tile; ``position`` is 0, 1 or 2 when the claimed discard is the chow's low, middle or high tile.

Where a White stands in for the wildcard's face (白板代, Wenzhou, seed 000) the chow index names the
*faces* (the discarded White counts as the face it plays), and the physical tiles that go into the
claim are the engine's fixed choice (a White before a wildcard of that face, RULES.md §2.1, §4.2), so
no index of its own is needed: every legal engine action has exactly one index and every index names
at most one legal action (checked: :func:`legal_indices` raises on a collision).
"""

from __future__ import annotations

import operator

from collections.abc import Sequence
from typing import Any

from majiang.engine.actions import PASS, Action, ActionKind
from majiang.errors import MajiangError
from majiang.tiles import WHITE

LAYOUT_VERSION = "majiang-v1"
"""The name of this action layout."""

LAYOUT_TILES: tuple[int, ...] = (*range(0, 9), *range(18, 27), *range(9, 18), 27, 28, 29, 30, 33, 32, 31)
"""Column ``i`` of every array in :mod:`majiang.rl` is our tile ``LAYOUT_TILES[i]`` (Botzone order)."""

COLUMN_OF: tuple[int, ...] = tuple(LAYOUT_TILES.index(t) for t in range(34))
"""``COLUMN_OF[t]``: the column (Botzone index) of our tile ``t`` (0-33)."""

PASS_INDEX = 0
WIN_INDEX = 1
DISCARD_BASE = 2
CHOW_BASE = 36
PUNG_BASE = 99
EXPOSED_KONG_BASE = 133
CONCEALED_KONG_BASE = 167
ADDED_KONG_BASE = 201
READY_BASE = 235
BOTZONE_ACTIONS = 235
ACTION_SIZE = 269
"""Number of discrete actions in ``majiang-v1``."""

_SUIT_OF_BASE = {0: 0, 18: 1, 9: 2}  # our suit base -> Botzone suit number (W, T, B)
_BASE_OF_SUIT = {v: k for k, v in _SUIT_OF_BASE.items()}

_TILE_BASES = {
    ActionKind.DISCARD: DISCARD_BASE,
    ActionKind.PUNG: PUNG_BASE,
    ActionKind.EXPOSED_KONG: EXPOSED_KONG_BASE,
    ActionKind.CONCEALED_KONG: CONCEALED_KONG_BASE,
    ActionKind.ADDED_KONG: ADDED_KONG_BASE,
    ActionKind.READY: READY_BASE,
}
_KIND_OF_BASE = sorted(((b, k) for k, b in _TILE_BASES.items()), key=lambda x: x[0])


class ActionIndexError(MajiangError):
    """An action index outside the layout, or one that names no legal action now."""


def as_index(action: Any) -> int:
    """``action`` as a layout index: an int, a numpy integer, a one-element integer array, or a float
    with no fraction (as some learners emit). Raises :class:`ActionIndexError` for anything else
    (2.7 is not truncated to 2) and for an index outside 0..ACTION_SIZE-1."""
    try:
        if isinstance(action, bool):
            raise TypeError
        i = operator.index(action)
    except TypeError:
        item = getattr(action, "item", None)  # numpy 0-d / one-element arrays, numpy floats
        v = item() if item is not None and getattr(action, "size", 1) == 1 else action
        if isinstance(v, float) and v.is_integer():
            i = int(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            i = v
        else:
            raise ActionIndexError(f"an action is an integer index 0-{ACTION_SIZE - 1}, got {action!r}") from None
    if not 0 <= i < ACTION_SIZE:
        raise ActionIndexError(f"action index {i} outside 0-{ACTION_SIZE - 1}")
    return i


def chow_index(played: int, low: int) -> int:
    """The index of the chow ``low``..``low+2`` made on a discard that plays the face ``played``
    (our tiles; ``played`` in ``low..low+2``)."""
    base = low - low % 9
    suit = _SUIT_OF_BASE[base]
    middle_rank = low % 9 + 2  # ranks 1-9; the middle tile of the chow
    return CHOW_BASE + 21 * suit + 3 * (middle_rank - 2) + (played - low)


def chow_of_index(index: int) -> tuple[int, int]:
    """``(played, low)`` for a chow index (inverse of :func:`chow_index`)."""
    k = index - CHOW_BASE
    if not 0 <= k < 63:
        raise ActionIndexError(f"{index} is not a chow index (36-98)")
    suit, rest = divmod(k, 21)
    mid, pos = divmod(rest, 3)
    low = _BASE_OF_SUIT[suit] + mid  # middle rank = mid + 2 -> low rank = mid + 1 -> index mid in suit
    return low + pos, low


def index_of(action: Action, *, white_face: int | None = None) -> int:
    """The layout index of an engine action. ``white_face``: the face a discarded White plays in a
    chow (the table's ``white_face``; ``None`` without a stand-in). Raises :class:`ActionIndexError`
    for an action the layout cannot hold (a flower, a tile outside 0-33)."""
    k = action.kind
    if k is ActionKind.PASS:
        return PASS_INDEX
    if k is ActionKind.WIN:
        return WIN_INDEX
    t = action.tile
    if t is None or not 0 <= t < 34:
        raise ActionIndexError(f"action {action} has no tile 0-33")
    if k is ActionKind.CHOW:
        assert action.low is not None
        played = white_face if (t == WHITE and white_face is not None) else t
        return chow_index(played, action.low)
    return _TILE_BASES[k] + COLUMN_OF[t]


def describe_index(index: int) -> str:
    """A short text for an index (``"discard 5m"``, ``"chow 345m on 4m"``...); for tables and render."""
    from majiang.tiles import format_compact

    if not 0 <= index < ACTION_SIZE:
        raise ActionIndexError(f"action index {index} outside 0-{ACTION_SIZE - 1}")
    if index == PASS_INDEX:
        return "pass"
    if index == WIN_INDEX:
        return "win"
    if CHOW_BASE <= index < PUNG_BASE:
        played, low = chow_of_index(index)
        return f"chow {format_compact([low, low + 1, low + 2])} on {format_compact([played])}"
    for base, kind in reversed(_KIND_OF_BASE):
        if index >= base:
            return f"{kind.value} {format_compact([LAYOUT_TILES[index - base]])}"
    raise AssertionError(index)  # pragma: no cover


def _shared_indices() -> dict[int, int]:
    """``{id(action): index}`` for the engine's shared action objects (:mod:`majiang.engine.table`
    offers the same object for the same action each time). Chows on a White are left out: their
    index depends on the table's ``white_face``."""
    from majiang.engine import table as _t

    out = {id(PASS): PASS_INDEX}
    shared = [*_t._DISCARDS, *_t._WINS, *_t._CONCEALED_KONGS, *_t._ADDED_KONGS, *_t._EXPOSED_KONGS, *_t._PUNGS,
              *_t._READIES,
              *(a for a in _t._CHOWS.values() if a.tile != WHITE and 0 <= a.tile - a.low <= 2 and a.low % 9 <= 6)]
    for a in shared:
        try:
            out[id(a)] = index_of(a)
        except (ActionIndexError, KeyError):  # a flower tile or a chow that cannot be: never offered
            continue
    return out


_BY_ID: dict[int, int] = _shared_indices()  # the shared objects live as long as the engine module


def legal_indices(actions: Sequence[Action], *, white_face: int | None = None) -> dict[int, Action]:
    """Map every legal action to its index: ``{index: action}``, in index order. Raises
    :class:`ActionIndexError` if two legal actions share an index (the layout would be ambiguous)."""
    out: dict[int, Action] = {}
    by_id = _BY_ID.get
    for a in actions:
        i = by_id(id(a))
        if i is None:
            i = index_of(a, white_face=white_face)
        if i in out:
            raise ActionIndexError(f"actions {out[i]} and {a} share layout index {i}")
        out[i] = a
    return dict(sorted(out.items()))


def action_table() -> list[tuple[int, str]]:
    """Every index with its description (the table in docs/rl.md is generated from this)."""
    return [(i, describe_index(i)) for i in range(ACTION_SIZE)]


__all__ = [
    "ACTION_SIZE", "ADDED_KONG_BASE", "BOTZONE_ACTIONS", "CHOW_BASE", "COLUMN_OF", "CONCEALED_KONG_BASE",
    "DISCARD_BASE", "EXPOSED_KONG_BASE", "LAYOUT_TILES", "LAYOUT_VERSION", "PASS", "PASS_INDEX", "PUNG_BASE",
    "READY_BASE", "WIN_INDEX", "ActionIndexError", "action_table", "chow_index", "chow_of_index",
    "describe_index", "index_of", "legal_indices",
]
