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


@pytest.mark.parametrize("name", sorted(CALLS))
def test_bad_wildcards_are_refused(name):
    """A number of wildcards that is not an integer is refused, on the hot paths too (None, '' and
    [] used to read as no wildcards there, and 1.5 could make a hand complete)."""
    call, good = CALLS[name]
    import inspect

    fn = getattr(A, name.split()[0])
    rules = MCR_SHAPES if name.endswith("MCR") else A.STANDARD
    takes_rules = "rules" in inspect.signature(fn).parameters
    for wilds in (None, "", "1", [], 1.5, 1.0):
        with pytest.raises(TileCountError, match="wildcards"):
            fn(list(good), wilds, rules) if takes_rules else fn(list(good), wilds)
            pytest.fail(f"{name} accepted wilds={wilds!r}")


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numpy_and_float_counts_are_read_as_counts_whatever_the_tables_hold(name):
    """numpy integers and whole floats read as the counts they are, with the look-up tables empty
    (they used to be refused as 'a tile count must be 0-4, got np.int64(1)' until a list of the same
    hand had filled the tables) and full alike."""
    from majiang.analysis import tables

    call, good = CALLS[name]
    want = call(list(good))
    for form in (np.array(good), np.array(good, dtype=np.uint8), [float(x) for x in good], tuple(good)):
        tables.clear_caches()
        assert call(form) == want, (name, type(form))
        assert call(form) == want, (name, type(form))


def test_decompositions_refuse_bad_counts_of_a_good_size():
    """Counts outside 0-4 or fractional ones whose total is still 3k+2 are refused, not decomposed."""
    for bad in ([5] + [0] * 33, [14] + [0] * 33, [-1, 3] + _WIN[2:], [0.5, 1.5] + _WIN[2:]):
        with pytest.raises(TileCountError):
            A.decompositions(bad)
            pytest.fail(f"decomposed {bad[:2]}")
