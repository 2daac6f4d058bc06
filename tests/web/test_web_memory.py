"""A long-running server keeps its memory level (docs/server.md, "Bounded resources"):
``bound_memory`` bounds the analysis tables and fixes glibc's mmap threshold, so a large block
freed does not send the later large blocks into the heap."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import pytest

from majiang.analysis import tables
from majiang.web.memory import FIXED_THRESHOLD, bound_memory


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                               "fsmblks", "uordblks", "fordblks", "keepcost")]


def _mapped_bytes():
    """glibc's bytes in mmapped blocks (mallinfo2's ``hblkhd``), or None off glibc 2.33+."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        f = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    f.restype = _MallInfo2
    return lambda: f().hblkhd


def test_bound_memory_bounds_the_analysis_tables():
    try:
        bound_memory(2048)
        assert tables.SUIT_INFO.cap == tables.USED.cap == tables.NEED_CAP.cap == tables.ADDS_CAP.cap == 2048
    finally:
        tables.limit_tables(tables.SUIT_CAP)


@pytest.mark.skipif(not sys.platform.startswith("linux") or _mapped_bytes() is None, reason="glibc only")
def test_a_large_block_is_mapped_even_after_a_larger_one_was_freed():
    mapped = _mapped_bytes()
    assert bound_memory(tables.SUIT_CAP)
    big = bytearray(4 << 20)  # mapped, then freed: glibc alone would raise its threshold to 4 MiB here
    del big
    before = mapped()
    block = bytearray(2 * FIXED_THRESHOLD)  # over the fixed threshold: mapped, not carved from the heap
    assert mapped() - before >= 2 * FIXED_THRESHOLD
    del block
