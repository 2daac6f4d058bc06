"""What keeps a long-running server's memory level: its analysis tables bounded, and glibc's
allocator told to return what it frees.

Two things made a table server's RSS creep up over an evening (docs/server.md, "Bounded
resources"): the bots' hand-analysis tables, which meet new suits for hours, and glibc's heap, whose
free space grew between minute 5 and 20 of a soak while the bytes in use did not. By default glibc
raises its mmap threshold each time a large block is freed, so the later large blocks (a big
dict's table when it grows, a long JSON text) come from the heap and leave holes there; with the
threshold fixed at 128 KiB they are mapped and unmapped on their own, and the heap's top is given
back past 128 KiB free. Elsewhere than glibc (macOS, musl) that part does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys

from majiang.analysis.tables import limit_tables

log = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
FIXED_THRESHOLD = 128 * 1024
"""Bytes: glibc's default starting mmap and trim thresholds, here kept from moving."""


def bound_memory(analysis_cache: int) -> bool:
    """Bound the analysis tables at ``analysis_cache`` entries each and, on glibc, fix the mmap
    and trim thresholds at :data:`FIXED_THRESHOLD`. Returns whether glibc took the thresholds."""
    limit_tables(analysis_cache)
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    ok = bool(mallopt(M_MMAP_THRESHOLD, FIXED_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, FIXED_THRESHOLD))
    if not ok:
        log.info("the C allocator did not take fixed mmap/trim thresholds")
    return ok
