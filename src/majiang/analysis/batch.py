"""Batch calls: the win check, shanten and waits of many hands at once, on numpy arrays.

:func:`is_winning_many`, :func:`shanten_many` and :func:`waits_many` answer for each row of a
``(n, 34)`` count array what :func:`~majiang.analysis.is_winning`, :func:`~majiang.analysis.shanten`
and :func:`~majiang.analysis.waits` answer for one hand (the concealed tiles as counts, see
:mod:`majiang.analysis.win`; ``wilds`` the wildcards held, one number for every row or one per
row; ``rules`` a :class:`~majiang.analysis.ShapeRules`).

numpy is needed for these calls only (the core install has no numpy; ``pip install 'majiang[rl]'``
brings numpy and numba). With numba the rows run in one compiled loop
(:mod:`majiang.analysis.batch_kernels`); without it (or with ``MAJIANG_NUMBA=0``) they run through
the single calls in Python. Both give the same numbers (tests/test_analysis_batch.py compares them
on random hands of every shape set); rows the compiled loop does not take (more than 17 tiles, or a
knitted shape with wildcards that may stand for a fifth copy) go the Python way in either case.
"""

from __future__ import annotations

from typing import Any

from majiang.analysis.shapes import STANDARD, ShapeRules
from majiang.errors import TileCountError
from majiang.tiles import format_compact

__all__ = ["is_winning_many", "shanten_many", "waits_many"]


def _arrays(counts: Any, wilds: Any, mod: int) -> tuple[Any, Any]:
    """``(counts, wilds)`` as ``(n, 34)`` int8 (or uint8, as given) and ``(n,)`` int64 arrays, checked:
    a count outside 0-4, negative wildcards or a row whose size is not ``3k + mod`` (``mod`` 1 or 2;
    0: either) raises :class:`TileCountError` naming the row."""
    import numpy as np

    a = np.asarray(counts)
    if a.ndim != 2 or a.shape[1] != 34:
        raise TileCountError(f"counts must have the shape (n, 34), got {a.shape}", kind="size")
    if a.dtype not in (np.int8, np.uint8):
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise TileCountError(f"counts must be integers (int8 or uint8), got {a.dtype}", kind="size")
        if a.size and (a.min() < 0 or a.max() > 4):
            _bad_count(a)
        a = a.astype(np.int8)
    elif a.size and (a.max() > 4 or (a.dtype == np.int8 and a.min() < 0)):
        _bad_count(a)
    w = np.asarray(wilds)
    if w.ndim == 0:
        w = np.full(a.shape[0], w, dtype=np.int64) if np.issubdtype(w.dtype, np.integer) else w.reshape(1)
    if w.shape != (a.shape[0],) or (w.size and not np.issubdtype(w.dtype, np.integer)):
        raise TileCountError(f"wilds must be an integer or an integer array of shape ({a.shape[0]},), "
                             f"got {np.asarray(wilds)!r}", kind="size")
    w = w.astype(np.int64)
    if w.size and w.min() < 0:
        i = int(np.argmin(w))
        raise TileCountError(f"row {i}: negative number of wildcards: {int(w[i])}", kind="size", count=int(w[i]))
    total = a.sum(1, dtype=np.int64) + w
    bad = (total % 3 == 0) if mod == 0 else (total % 3 != mod)
    if bad.any():
        i = int(np.argmax(bad))
        want = {0: "3k+1 or 3k+2", 1: "3k+1 (a waiting hand)", 2: "3k+2 (a complete hand)"}[mod]
        raise TileCountError(f"row {i}: {int(total[i])} concealed tiles: expected {want}", kind="size",
                             count=int(total[i]))
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    return a, w


def _bad_count(a: Any) -> None:
    import numpy as np

    i, t = (int(x) for x in np.argwhere((a < 0) | (a > 4))[0])
    n = int(a[i, t])
    raise TileCountError(f"row {i}: {n} copies of {format_compact([t])}: a count must be 0-4",
                         kind="fifth-copy" if n > 4 else "size", tile=t, count=n)


def _compiled(rules: ShapeRules) -> bool:
    """Whether the compiled loop serves these rules (numba present; the standard shape on)."""
    if not rules.standard:
        return False
    try:
        from majiang.analysis import batch_kernels
    except ImportError:  # pragma: no cover - numpy without the rl package's kernels
        return False
    return batch_kernels.available()


def _many(mode: int, counts: Any, wilds: Any, rules: ShapeRules, compiled: bool | None) -> Any:
    """The three calls' common body (``mode``: 0 shanten, 1 win check, 2 waits; ``compiled``: None
    picks the compiled loop where it can serve, False forces the Python path)."""
    import numpy as np

    if not isinstance(rules, ShapeRules):
        raise TypeError(f"rules must be a ShapeRules, got {type(rules).__name__}")
    a, w = _arrays(counts, wilds, (0, 2, 1)[mode])
    n = a.shape[0]
    out = np.zeros((n, 34 if mode == 2 else 1), dtype=np.int8)
    todo: Any = range(n)
    if (compiled is None or compiled) and n and _compiled(rules):
        from majiang.analysis import batch_kernels

        skip = batch_kernels.run(a, w, mode, rules, out)
        todo = np.flatnonzero(skip).tolist()
    if len(todo):
        from majiang.analysis.win import is_winning, shanten, waits

        rows, wl = a.tolist(), w.tolist()
        for i in todo:
            if mode == 0:
                out[i, 0] = shanten(rows[i], wl[i], rules)
            elif mode == 1:
                out[i, 0] = is_winning(rows[i], wl[i], rules)
            else:
                out[i, list(waits(rows[i], wl[i], rules).tiles)] = 1
    if mode == 2:
        return out.view(np.bool_)
    return out[:, 0] if mode == 0 else out[:, 0].view(np.bool_)


def is_winning_many(counts: Any, wilds: Any = 0, rules: ShapeRules = STANDARD) -> Any:
    """:func:`~majiang.analysis.is_winning` of each row: ``(n,)`` bool.

    Args:
        counts: ``(n, 34)`` count vectors of 3k+2 concealed parts (numpy ``int8`` or ``uint8``; other
            integer arrays and nested lists are converted).
        wilds: wildcards held: one number for every row, or an ``(n,)`` integer array.
        rules: the shapes and the wildcard policy.

    Raises :class:`~majiang.errors.TileCountError` (a ``ValueError``) naming the first bad row: a
    count outside 0-4, negative wildcards, a size that is not 3k+2, an array not ``(n, 34)``.
    """
    return _many(1, counts, wilds, rules, None)


def shanten_many(counts: Any, wilds: Any = 0, rules: ShapeRules = STANDARD) -> Any:
    """:func:`~majiang.analysis.shanten` of each row: ``(n,)`` int8 (-1 complete, 0 ready, ...).

    Rows are 3k+1 or 3k+2 concealed parts; arguments and errors as :func:`is_winning_many` (a size
    3k is the error here)."""
    return _many(0, counts, wilds, rules, None)


def waits_many(counts: Any, wilds: Any = 0, rules: ShapeRules = STANDARD) -> Any:
    """The waits of each 3k+1 row: ``(n, 34)`` bool, True at each tile held fewer than four times whose
    draw completes the hand -- :attr:`~majiang.analysis.Waits.tiles` of :func:`~majiang.analysis.waits`
    with no ``visible`` (a wait whose four copies are all in the hand, ``Waits.exhausted``, is not
    marked; whether a drawn wildcard completes the hand is ``is_winning_many(counts, wilds + 1, rules)``).

    Arguments and errors as :func:`is_winning_many` (the size is 3k+1 here)."""
    return _many(2, counts, wilds, rules, None)
