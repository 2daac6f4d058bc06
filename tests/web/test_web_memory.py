"""A long-running server keeps its memory level (docs/server.md, "Bounded resources"):
``bound_memory`` bounds the analysis tables and fixes glibc's mmap threshold, so a large block
freed does not send the later large blocks into the heap."""

from __future__ import annotations

import ctypes
import ctypes.util
import subprocess
import sys

import pytest

from majiang.analysis import tables
from majiang.web.memory import bound_memory


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


_PROBE = """
import ctypes, ctypes.util, sys
from majiang.web.memory import bound_memory
class M(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                               "fsmblks", "uordblks", "fordblks", "keepcost")]
info = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
info.restype = M
assert bound_memory(65536)
big = bytearray(8 << 20)  # mapped, then freed: glibc alone would raise its threshold to 8 MiB here
del big
before = info().hblkhd
block = bytearray(1 << 20)  # the heap must grow for it: over the fixed threshold, so it is mapped
print(info().hblkhd - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or _mapped_bytes() is None, reason="glibc only")
def test_a_large_block_is_mapped_even_after_a_larger_one_was_freed():
    """In a fresh process (whose heap has no free megabyte to serve the block from: glibc consults
    the threshold only when the heap must grow). Without ``bound_memory`` the printed figure is 0."""
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) >= 1 << 20
