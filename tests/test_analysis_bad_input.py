"""Bad input to the hand-analysis calls: anything that is not 34 whole counts 0-4 is refused with a
:class:`~majiang.errors.TileCountError` (a ``ValueError``) that names the fault, never a
``TypeError`` from deep inside or a message about a size that was not the fault. The brief's rule for
bad input, applied to every public call of :mod:`majiang.analysis` that takes a count vector."""

from __future__ import annotations

import numpy as np
import pytest

from majiang import analysis as A
from majiang.analysis import MCR_SHAPES
from majiang.errors import TileCountError

_WIN = [0] * 34
for _t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 27):
    _WIN[_t] += 1
_READY = list(_WIN)
_READY[27] -= 1

CALLS = {  # name -> (call, a good hand of the size it takes)
    "is_winning": (A.is_winning, _WIN), "is_winning MCR": (lambda c: A.is_winning(c, 0, MCR_SHAPES), _WIN),
    "win_need": (A.win_need, _WIN), "waits": (A.waits, _READY), "waits MCR": (lambda c: A.waits(c, 0, MCR_SHAPES), _READY),
    "shanten": (A.shanten, _READY), "shanten MCR": (lambda c: A.shanten(c, 0, MCR_SHAPES), _READY),
    "shanten_standard": (A.shanten_standard, _READY), "shanten_seven_pairs": (A.shanten_seven_pairs, _READY),
    "shanten_thirteen_orphans": (A.shanten_thirteen_orphans, _READY),
    "shanten_honors_and_knitted": (A.shanten_honors_and_knitted, _READY),
    "shanten_knitted_straight": (A.shanten_knitted_straight, _READY),
    "useful_tiles": (A.useful_tiles, _READY), "discard_advice": (A.discard_advice, _WIN),
    "decompositions": (A.decompositions, _WIN), "decompositions MCR": (lambda c: A.decompositions(c, 0, MCR_SHAPES), _WIN),
}


def _bad_forms(good: list[int]) -> dict[str, object]:
    """Inputs that are not a count vector, each built from a good hand so that only the form is wrong."""
    return {
        "a column of counts (34, 1)": np.array(good).reshape(34, 1),
        "two columns (34, 2)": np.array([good, good], dtype=np.uint8).T.copy(),
        "a dict of counts": dict(enumerate(good)),
        "lists of one count": [[x] for x in good],
        "a string of digits": "".join(map(str, good)),
        "None among counts": [None] + good[1:],
        "a fractional count": [0.5] + good[1:],
        "a count of 5": [5] + good[1:],
        "a negative count": [-1] + good[1:],
        "33 counts": good[:33],
        "35 counts": good + [0],
        "no sequence": 14,
    }


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_bad_form_is_refused_by_name(name):
    call, good = CALLS[name]
    call(list(good))  # the good hand passes
    for form, bad in _bad_forms(good).items():
        with pytest.raises(TileCountError):
            call(bad)
            pytest.fail(f"{name} accepted {form}")


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_error_names_the_entry_at_fault(name):
    call, good = CALLS[name]
    bad = list(good)
    bad[9] = [1]  # 1p
    with pytest.raises(TileCountError, match="1p"):
        call(bad)
