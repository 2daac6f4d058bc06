"""A scorer's ``quick_value`` compiled: the function the batched RL core's compiled loops call.

:class:`~majiang.rules.base.Scorer` may offer ``quick_value`` (a win told in plain numbers, its
value or None). A scorer with it may also offer ``quick_kernel() -> (cfunc, params) | None``: the
same function as a numba ``cfunc`` of the C signature below (:func:`signature`), and the scorer's
own ``params`` (its options as one integer) the caller passes back on every call; None where it
has none now (no numba). :class:`majiang.rl.batched_learner.BatchedLearner` then decides the wins
its bots' loop meets without leaving compiled code (the engine never needs it).

``int64 quick(void *pre, int64 win, int64 melds, int64 n_melds, int64 cond, int64 params)``

* ``pre``: the winner's concealed counts without the winning tile, 34 ``uint8``;
* ``win``: the winning tile (0-33);
* ``melds``: the declared melds, 9 bits each (:data:`MELD_BITS`), the first lowest: ``kind << 6 | tile``, ``kind`` the
  :class:`~majiang.hand.MeldKind`'s place in its declaration (:data:`MELD_ORDER`);
* ``cond``: :func:`pack_cond` -- self-drawn, last tile, kong replacement, the copies of the winning
  tile in sight besides it (``win_tile_seen``, 0-7), the seat and prevalent winds (0-3 from East);
* returns what ``quick_value`` returns for the same win, -1 where it returns None.

Robbing a kong is never asked (the engine decides those).
"""

from __future__ import annotations

from majiang.hand import MeldKind

MELD_ORDER = tuple(MeldKind)
"""The meld kinds by their code in ``melds``: chow 0, pung 1, exposed kong 2, concealed kong 3, added kong 4."""

MELD_BITS = 9
"""Bits a meld takes in ``melds``: the kind (3 bits) above the tile (6 bits)."""

SELF_DRAWN, LAST_TILE, KONG_REPLACEMENT = 1, 2, 4
SEEN_SHIFT, SEAT_SHIFT, PREVALENT_SHIFT = 3, 6, 8
"""``cond`` bits: the flags, then ``win_tile_seen`` (3 bits), the seat wind and the prevalent wind (2 bits each)."""


def pack_cond(*, self_drawn: bool, last_tile: bool, kong_replacement: bool, win_tile_seen: int, seat_wind: int,
              prevalent_wind: int) -> int:
    """``cond`` from ``quick_value``'s keywords (winds as tiles 27-30, ``win_tile_seen`` capped at 7)."""
    return (int(self_drawn) | int(last_tile) << 1 | int(kong_replacement) << 2
            | min(max(win_tile_seen, 0), 7) << SEEN_SHIFT | (seat_wind - 27) << SEAT_SHIFT
            | (prevalent_wind - 27) << PREVALENT_SHIFT)


def pack_melds(melds) -> int:  # noqa: ANN001 - (MeldKind, tile) pairs
    """``melds`` from ``(kind, tile)`` pairs."""
    packed = 0
    for j, (kind, tile) in enumerate(melds):
        packed |= (MELD_ORDER.index(kind) << 6 | tile) << (MELD_BITS * j)
    return packed


_SIG: list = []


def signature():  # noqa: ANN201 - a numba signature
    """The cfunc's numba signature (imports numba)."""
    if not _SIG:
        from numba import types

        _SIG.append(types.int64(types.voidptr, types.int64, types.int64, types.int64, types.int64, types.int64))
    return _SIG[0]


_ADDRESS: list = []


def address():  # noqa: ANN201 - a numba intrinsic
    """A numba intrinsic for compiled callers: ``address(a)`` is the ``void *`` of a contiguous
    array's first element, the ``pre`` a cfunc of :func:`signature` reads (imports numba)."""
    if not _ADDRESS:
        from numba.core import cgutils, types
        from numba.extending import intrinsic

        @intrinsic
        def _address(typingctx, arr):  # noqa: ANN001, ANN202, ARG001 - numba's intrinsic protocol
            def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202
                ary = context.make_array(sig.args[0])(context, builder, args[0])
                return builder.bitcast(ary.data, cgutils.voidptr_t)

            return types.voidptr(arr), codegen

        _ADDRESS.append(_address)
    return _ADDRESS[0]


_CALL: list = []


def caller():  # noqa: ANN201 - a numba intrinsic
    """A numba intrinsic for compiled callers: ``call(fn, pre, win, melds, n_melds, cond, params)``
    calls the cfunc at address ``fn`` (its ``address``, an integer: a loop that takes the address
    keeps numba's fast argument checks and its cache, which a cfunc object passed in would not).
    The caller keeps the cfunc alive while it runs."""
    if not _CALL:
        from llvmlite import ir
        from numba.core import types
        from numba.extending import intrinsic

        @intrinsic
        def _call(typingctx, fn, pre, win, melds, n_melds, cond, params):  # noqa: ANN001, ANN202, ARG001
            ints = (fn, win, melds, n_melds, cond, params)
            if not all(isinstance(t, types.Integer) for t in ints) or pre != types.voidptr:
                return None
            sig = types.int64(fn, pre, win, melds, n_melds, cond, params)

            def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202
                i64 = ir.IntType(64)
                fnty = ir.FunctionType(i64, [ir.IntType(8).as_pointer(), i64, i64, i64, i64, i64])
                fn, pre, *rest = (v if t == types.voidptr else context.cast(builder, v, t, types.int64)
                                  for v, t in zip(args, sig.args))
                return builder.call(builder.inttoptr(fn, fnty.as_pointer()), [pre, *rest])

            return sig, codegen

        _CALL.append(_call)
    return _CALL[0]


__all__ = ["MELD_BITS", "MELD_ORDER", "address", "caller", "pack_cond", "pack_melds", "signature"]
