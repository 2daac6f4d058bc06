"""The compiled quick value (majiang.rules.quick_kernel): MCR's cfunc gives ``McrScorer.quick_value``'s
answer on the same win, every meld kind in every meld slot and every condition included."""

from __future__ import annotations

import ctypes
import random

import pytest

from majiang.hand import MeldKind
from majiang.rules import quick_kernel as QK
from majiang.rules.mcr import compiled
from majiang.rules.mcr.engine_adapter import McrScorer
from majiang.rules.mcr.random_hands import random_winning_hands

pytestmark = pytest.mark.skipif(not compiled.available(), reason="numba is not installed (MAJIANG_NUMBA=0 or absent)")


def _call(cf, params: int, pre: bytes, win: int, melds, kw: dict) -> int:  # noqa: ANN001
    buf = (ctypes.c_uint8 * 34)(*pre)
    return cf.ctypes(ctypes.cast(buf, ctypes.c_void_p), win, QK.pack_melds(melds), len(melds), QK.pack_cond(**kw),
                     params)


def _wins():
    """(pre, win, melds, quick_value keywords) of random MCR wins, and the same hands with each
    declared meld turned into every other kind that holds the same tiles (pung ↔ the kongs)."""
    rng = random.Random(5)
    for hand, cond in random_winning_hands(3000, seed=5):
        pre = bytes(hand.counts)
        melds = [(m.kind, m.tile) for m in hand.melds]
        seen = rng.randrange(0, 5)
        kw = dict(self_drawn=cond.self_drawn, last_tile=cond.last_wall_tile, kong_replacement=cond.kong_replacement,
                  win_tile_seen=seen, seat_wind=27 + cond.seat_wind, prevalent_wind=27 + cond.prevalent_wind)
        yield pre, hand.win_tile, melds, kw
        for j, (kind, tile) in enumerate(melds):
            if kind is MeldKind.CHOW:
                continue
            for other in (MeldKind.EXPOSED_KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG):
                if other is not kind:
                    yield pre, hand.win_tile, melds[:j] + [(other, tile)] + melds[j + 1:], kw


def test_mcr_cfunc_is_quick_value() -> None:
    """On ~3,000 random wins and their meld-kind variants (added kongs in every slot: a meld's code
    takes 9 bits), the cfunc returns ``quick_value``'s value, and -1 exactly where it gives None."""
    scorer = McrScorer()
    cf, params = scorer.quick_kernel()
    told = refused = 0
    kinds = set()
    for pre, win, melds, kw in _wins():
        want = scorer.quick_value(pre, win, melds, **kw)
        got = _call(cf, params, pre, win, melds, kw)
        assert got == (-1 if want is None else want), (pre, win, melds, kw, want, got)
        told += want is not None
        refused += want is None
        kinds.update(k for k, _ in melds)
    assert told > 5000 and refused > 0 and kinds == set(MeldKind)


def test_mcr_cfunc_reads_the_options_from_params() -> None:
    """``params`` carries the scorer's options: a hand whose value depends on
    ``melded_concealed_kong_pair`` scores as each scorer says."""
    from majiang.rules.mcr.conditions import McrOptions

    differ = 0
    for opts in (McrOptions(), McrOptions(melded_concealed_kong_pair=False), McrOptions(fifth_copy_waits=False)):
        scorer = McrScorer(opts)
        cf, params = scorer.quick_kernel()
        for pre, win, melds, kw in _wins():
            want = scorer.quick_value(pre, win, melds, **kw)
            assert _call(cf, params, pre, win, melds, kw) == (-1 if want is None else want)
            differ += want != McrScorer().quick_value(pre, win, melds, **kw)
    assert differ > 0


def test_pack_cond_and_melds_layout() -> None:
    """The documented bits (quick_kernel's module doc)."""
    assert QK.pack_cond(self_drawn=True, last_tile=False, kong_replacement=True, win_tile_seen=9, seat_wind=29,
                        prevalent_wind=30) == 1 | 4 | 7 << 3 | 2 << 6 | 3 << 8
    assert QK.pack_melds([(MeldKind.ADDED_KONG, 33), (MeldKind.CHOW, 0)]) == (4 << 6 | 33) | (0 << 6 | 0) << 9
    assert QK.MELD_ORDER.index(MeldKind.CONCEALED_KONG) == 3
