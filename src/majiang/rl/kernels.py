"""The ``majiang-v1`` hand-analysis planes (shanten, discard_best, discard_useful, waits, useful) in
compiled code (numba): for hands without wildcards (:func:`analyse_one`, :func:`analyse_rows`) and,
since 2026-12-02, for hands holding wildcards and the 不搭 shape (:func:`analyse_wild_one`, see
"Wildcards" below).

The Python path (:meth:`majiang.rl.observations.Encoder._analyse`: its ``_Fast`` class, and
``_Analysis.full``, i.e. :func:`majiang.analysis.shanten`, for wildcards) stays the reference and
the fallback: without numba (``pip install 'majiang[rl]'`` brings it; the environment variable
``MAJIANG_NUMBA=0`` turns it off) the planes are the same numbers, computed more slowly. Tests
compare the two plane by plane (tests/rl/test_rl_kernels.py, tests/rl/test_rl_wild_kernel.py).

What is computed without wildcards (RULES.md §9, shanten; the shapes are the rule set's with the
knitted ones left out, as ``observations._Analysis`` does; only shapes that
:meth:`observations._Fast.usable` takes: the standard shape plus any of seven pairs, thirteen
orphans, eight pairs, ``wilds_win``):

* **The standard shape** through per-group *used-vectors*: for a group's counts (a suit's nine
  faces, the honours' seven), ``U[2*m + p]`` is the most natural tiles that at most ``m`` sets
  (m = 0..5) and at most ``p`` pairs (p = 0/1) can cover, each face used at most four times --
  exactly :data:`majiang.analysis.tables.USED` / ``HONOR_USED``. A hand's shanten with ``n`` sets
  to make is ``max(3n + 1 - best, -1)``, ``best`` the max-plus combination of its four groups'
  vectors at ``n`` sets and one pair (``tables.best_used``). A one-tile change touches one group:
  its vector is looked up again and combined with the other three precombined.
* **Tables**: dense arrays indexed by the group's base-5 code ``sum(c[i] * 5**i)`` (the code
  ``majiang.rl.batched.suit_tables`` uses): ``(5**9, 12)`` int8 for suits, ``(5**7, 12)`` for the
  honours. An entry is computed the first time a hand needs it (a dynamic programme over the
  group's faces, a few microseconds) and kept for the process, so nothing is built at import (a
  first number of -1 marks an entry not computed yet).

  A suit's tiles split into blocks separated by two or more empty faces (no chow spans such a
  gap): a suit's entry is the max-plus combination of its blocks' entries, each block moved to
  face 0 (a block's vector does not depend on where it lies: chows may reach past the suit's
  ends, as in ``tables._block_used``). A block at face 0 runs the programme: the nine faces with
  two padding faces before (chows may start there) and after (they close the chows), a state of
  (chows started two faces back 0-2, one face back 0-2, pair placed, sets so far); at each face
  0-2 identical chows, one pung and the pair may start, covering ``min(uses, count)`` naturals, at
  most four uses of a face where that can bind (held faces and single empty faces inside the
  block; on the padding at most four chows of the block reach a face anyway). A test compares the
  entries with ``tables.USED`` / ``HONOR_USED`` (and every suit of up to 17 tiles was compared
  once, all 886,400 equal).
* **The work on the turn**: the shanten after each held tile's discard (one look-up each,
  :func:`_discards`); for each best discard (:func:`_best_useful`, which the efficiency bots'
  tie-break calls too), each group's useful draws from its *draw table* (:func:`_fill_inc`: per
  group code and vector entry, the faces whose draw raises that entry by one; a draw lowers the
  standard shape's shanten exactly when it raises an entry of a split of the sets and the pair that
  reaches the best, :func:`_raised`), the other groups combined after the discard -- shared by the
  best discards that leave their group with the same vector. The same for the draws of a 3k+1
  hand. Draw tables: ``(5**9, 12)`` and ``(5**7, 12)`` int16 of zeros (entry 0, which covers
  nothing, marks a row computed), filled on demand like the vectors.
* **Special shapes** from six counts of the hand (pairs with a quad as two, odd counts, faces held
  twice or more, faces held once, orphan faces held, orphan faces held twice or more), moved by one
  tile at a time, as ``win._specials`` reads them with no wildcard.

Planes (docs/rl.md, ``majiang-v1``), written at the layout's column of each tile:

* 3k+2 hands: ``shanten`` (scalar, /8); on the turn, ``discard_best`` = 1 on each held tile whose
  discard leaves the lowest shanten, ``discard_useful`` = the unseen copies of the draws that then
  lower it, /34.
* 3k+1 hands: ``shanten``; ``useful`` = unseen copies / 4 on each tile whose draw lowers it;
  ``waits`` = 1 on those tiles when the hand is ready (shanten 0).
* 3k hands: nothing.

The planes are written into an observation array that the caller has zeroed where the Python path
would not write (the ``shanten`` plane is written whole).

**Wildcards** (:func:`analyse_wild_one`, the loop :func:`_wild`; the AEC environments of
``wenzhou``, ``wenzhou-w16`` and ``seed000``, for every hand once the wildcard face is known, and
any hand under 不搭; shapes: the standard shape with any of seven pairs, thirteen orphans, eight
pairs, 不搭, ``wilds_win``, with or without fifth copies -- :func:`wild_flags`). The physical counts
are read as :func:`majiang.analysis.wildcards.split_counts` reads them: copies of the wildcard face
are ``w`` wildcards, a White plays the wildcard's face where the rule set has the stand-in
(``_Analysis.role``: a wildcard tile plays -1). Each shanten the planes need (the hand; after each
discard of a natural or of a wildcard; after each draw of a natural held fewer than four times or
of a wildcard) is :func:`majiang.analysis.shanten` exactly (:func:`_sx`):

* the standard shape: ``max(3n + 1 - best - w, -1)``, ``n`` = (naturals + w) // 3 sets, ``best``
  from the same used-vectors as above (they cap every face at four uses, wildcard-filled slots
  included, as ``tables.USED`` does), one group's vector looked up again per one-tile change;
* the special shapes (:func:`_wspec`, ``win._specials``): ``top = 3 * (total // 3) + 1 - w``
  less the naturals each shape keeps (seven pairs, thirteen orphans, eight pairs as above; 不搭:
  distinct honours and per suit the ranks three apart taken greedily, :func:`_unc`, as
  ``shapes.unconnected_used``; wildcards are free); ``wilds_win``: 0 for a 3k+1 hand holding
  ``wilds_win - 1`` wildcards, -1 for a 3k+2 hand holding ``wilds_win``;
* ``shanten``'s last step: a 3k+2 hand at 0 with a wildcard is -1 when it wins (``is_winning``),
  which with ``wild_fifth_copy`` (every wildcard preset) also counts a wildcard standing for a
  fifth copy of a face (1111m + a wildcard as 111m and the pair 1m + wildcard). The kernel checks
  it with the fewest wildcards that complete the standard shape when fifth copies are allowed
  (:func:`_winfree`: ``tables.suit_need(c, cap=False)`` per suit, :func:`_free_suit`, kept in a
  ``(5**9, 2)`` int8 table, 3.9 MB allocated at the first wildcard hand; honours per face). The
  special shapes never need it: their counts above are exact for a complete hand. Where it
  matters: the hand's own shanten on 3k+2 hands, and a draw to a ready (0) hand, including a drawn
  wildcard, which may complete a hand only as a fifth copy.

A held tile's planes then follow the physical tile: ``discard_best`` on each held physical tile
whose discard (of the natural it plays, or of a wildcard) leaves the lowest shanten;
``discard_useful``, ``useful`` and ``waits`` count the unseen copies of each physical tile whose draw
lowers it: a tile playing a natural by that natural's draw, the wildcard face by a wildcard's draw
(``Encoder._physical_useful`` and ``_useful``). Every discard and every draw is evaluated, with two
exact shortcuts (:func:`_wuseful`): the draws of naturals that join nothing are tried once per
class, orphan or not (the standard shape reads the same lone tile for all, the special shapes only
its class, 不搭 one more kept natural for any); and a draw's special shapes are skipped where the
standard shape is already below the target or the hand's special shanten less one is not (a draw
keeps at most one more natural in each special shape). About 10 µs a call on the hands of a
played game (the 3k+1 hands about half that).

For ``wilds_win`` 1 (no preset has it; every 3k+1 hand is then ready) a discard can lower a special
shape below the 3k+2 hand's own shanten: the kernel follows ``shanten`` there, and so does the
Python path since the fourth session (its discard scan took that shanten as a floor before; a test
checks both against ``shanten`` itself).
"""

from __future__ import annotations

import os
import threading

import numpy as np

from majiang.errors import MajiangError
from majiang.rl.actions import COLUMN_OF

_KERNELS = ("_close", "_block", "_fill", "_pair", "_comb", "_std", "_stdk", "_load", "_face", "_change", "_spec", "_special_draws", "_two_others", "_rows_scratch", "_rows", "_rows_with",
            "_one", "_thermo",
            "_table_planes", "_free_suit", "_winfree", "_unc", "_wspec", "_sx", "_setup", "_load_all", "_nat_shanten", "_wuseful", "_wild",
            "_now", "_discards", "_fill_inc", "_raised", "_best_useful", "_shanten_one", "_shanten_rows", "_efficiency_kong", "_efficiency_turns", "_efficiency_claims")
"""The module's functions that numba compiles (``cache=True``: once per machine, then loaded)."""
_STATE: list[bool] = []  # [] until :func:`available` has tried numba, then [True] or [False]
_LOCK = threading.Lock()


def available() -> bool:
    """True when the compiled kernel can be used. The first call imports numba (about 0.7 s) and
    wraps the kernel functions; with numba missing, or the environment variable ``MAJIANG_NUMBA=0``,
    it is False and the callers keep the Python path."""
    if _STATE:
        return _STATE[0]
    with _LOCK:  # the web server's bots think on worker threads: wrap once
        return _available()


def _available() -> bool:
    if not _STATE:
        ok = os.environ.get("MAJIANG_NUMBA", "1") != "0"
        if ok:
            try:
                __import__("numba")
            except ImportError:  # pragma: no cover - exercised where numba is absent
                ok = False
        if ok:
            # any compiled function of this module in the cache: not a fresh installation (a process that
            # only analyses wildcard hands never compiles _rows, and must not be told so every time)
            note_first_compile(__file__, "*")
            compile_lazily(globals(), _KERNELS)
        _STATE.append(ok)
    return _STATE[0]


_NOTED: list[bool] = []


def note_first_compile(module_file: str, key: str) -> None:
    """Say on stderr, once per process, that numba is about to compile (20-60 s) when the
    cache beside ``module_file`` holds no compiled ``key`` function yet (a fresh installation, or
    the module changed; ``key`` may be a glob pattern: ``"*"``, no function of the module at all);
    silent when ``NUMBA_CACHE_DIR`` moves the cache elsewhere."""
    import glob
    import sys

    if _NOTED or os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = os.path.join(os.path.dirname(module_file), "__pycache__")
    stem = os.path.splitext(os.path.basename(module_file))[0]
    if not glob.glob(os.path.join(folder, f"{stem}.{key}-*.nbi")):
        _NOTED.append(True)
        print("majiang.rl: numba compiles the environments' loops on their first use (20-60 s, once "
              "per installation; MAJIANG_NUMBA=0 skips it)", file=sys.stderr)


_MODULES_LOCK = threading.Lock()


def module_available(state: list[bool], namespace: dict, names: tuple[str, ...], module_file: str,
                     depends: tuple[str, ...] = ()) -> bool:
    """The ``available()`` of a module whose compiled loops call these kernels (``state``: its ``[]``,
    then ``[True]`` or ``[False]``; ``namespace``, ``names``: its ``globals()`` and the functions to
    compile; ``module_file``: its ``__file__``; ``depends``: the files of the other modules whose
    kernels it calls, this one's always counted): True once this module's kernels are there and its
    own functions are wrapped (:func:`compile_lazily`), False without numba."""
    if state:
        return state[0]
    with _MODULES_LOCK:
        if not state:
            ok = available()
            if ok:
                note_first_compile(module_file, "*")
                compile_lazily(namespace, names, (__file__, *depends))
            state.append(ok)
    return state[0]


def compile_lazily(namespace: dict, names: tuple[str, ...], depends: tuple[str, ...] = ()) -> None:
    """Replace each function ``names`` of a module (its ``globals()``) by numba's ``njit(cache=True)``
    of it: compiled on its first call, then loaded from the cache in later processes. Call it once
    (under a lock), after :func:`available`'s check that numba is there.

    numba's cache is keyed to a function's own file only, so a loop that calls another module's
    kernels would keep their old code after that module changed: the files of ``depends`` are
    added to the key (:func:`_stamp_dependencies`)."""
    import numba

    stamps = tuple((f, os.stat(f).st_mtime, os.stat(f).st_size) for f in depends)
    for name in names:
        namespace[name] = f = numba.njit(cache=True)(namespace[name])
        if stamps:
            _stamp_dependencies(f, stamps)


def _stamp_dependencies(dispatcher, stamps: tuple) -> None:  # noqa: ANN001 - a numba dispatcher
    """Add ``stamps`` (each file's path, time and size) to the source stamp numba saves with
    ``dispatcher``'s cache and compares, for equality, when it loads it: a cache saved before one
    of those files changed is not loaded, and the function compiles again (then saves the new
    stamp). Sets numba's cache-file object's ``_source_stamp``; with a numba without it, nothing
    is done (the cache then checks the function's own file only)."""
    try:
        cache_file = dispatcher._cache._cache_file
        cache_file._source_stamp = (cache_file._source_stamp, stamps)
    except AttributeError:
        return


MAX_TILES = 17
"""The most concealed tiles a hand may have here (a 16-tile rule set's hand with its draw)."""

_ORPHAN = np.zeros(34, dtype=np.int8)
_ORPHAN[[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]] = 1
_GROUP = np.array([t // 9 if t < 27 else 3 for t in range(34)], dtype=np.int64)
_P5 = np.array([5 ** (t - 9 * (t // 9)) if t < 27 else 5 ** (t - 27) for t in range(34)], dtype=np.int64)
_LAYOUT_COL = np.array(COLUMN_OF, dtype=np.int64)  # our tile -> its column in the observation


# --------------------------------------------------------------------------------- group tables
def _close(raw: np.ndarray) -> None:
    """At most m sets and at most p pairs (more sets or a pair never cover fewer: they may be
    wild-only): the running maximum over m, then over p."""
    for p in range(2):
        for m in range(1, 6):
            if raw[2 * (m - 1) + p] > raw[2 * m + p]:
                raw[2 * m + p] = raw[2 * (m - 1) + p]
    for m in range(6):
        if raw[2 * m] > raw[2 * m + 1]:
            raw[2 * m + 1] = raw[2 * m]


def _block(key: int, su: np.ndarray) -> None:
    """The suit programme (see the module doc) over the nine faces of code ``key``, into ``su[key]``;
    run for a suit whose tiles form one block starting at face 0 (see :func:`_fill`)."""
    c = np.zeros(13, dtype=np.int64)  # two padding faces, the faces, two padding faces
    raw = np.full(12, -1, dtype=np.int64)
    k = key
    for f in range(9):
        c[2 + f] = k % 5
        k //= 5
    # state j = ((a * 3 + b) * 2 + p) * 6 + m: a, b chows started two / one face back, p pair, m sets
    cur = np.full(108, -1, dtype=np.int64)
    nxt = np.full(108, -1, dtype=np.int64)
    cur[0] = 0
    for i in range(11):  # faces 0..10 of the padded suit; chows start at any of them
        ci = c[i]
        capped = ci > 0 or (i >= 3 and i <= 9 and c[i - 1] > 0 and c[i + 1] > 0)
        nxt[:] = -1
        for a in range(3):
            for b in range(3):
                for p in range(2):
                    base = ((a * 3 + b) * 2 + p) * 6
                    for m in range(6):
                        v = cur[base + m]
                        if v < 0:
                            continue
                        for kk in range(3):
                            for t in range(2):
                                if t and ci == 0:
                                    break
                                m2 = m + kk + t
                                if m2 > 5:
                                    break
                                for q in range(2 - p):
                                    if q and ci == 0:
                                        break
                                    u = a + b + kk + 3 * t + 2 * q
                                    if capped and u > 4:
                                        break
                                    gain = u if u < ci else ci
                                    j2 = ((b * 3 + kk) * 2 + (p | q)) * 6 + m2
                                    if v + gain > nxt[j2]:
                                        nxt[j2] = v + gain
        cur, nxt = nxt, cur
    for j in range(108):  # the two closing faces: every open chow ends, covering nothing
        v = cur[j]
        m = j % 6
        p = (j // 6) % 2
        if v > raw[2 * m + p]:
            raw[2 * m + p] = v
    _close(raw)
    for i in range(12):
        su[key, i] = raw[i]


def _fill(g: int, key: int, su: np.ndarray, hu: np.ndarray) -> None:
    """Compute the used-vector of group ``g`` (0-2 a suit, 3 the honours) with code ``key`` into its
    table row (``su``/``hu``; a row whose first number is -1 is not computed yet: once computed it is
    0, no sets covering nothing)."""
    if g == 3:
        cur = np.full(12, -1, dtype=np.int64)  # [2*m + p], exactly m pungs and p pairs
        cur[0] = 0
        k = key
        for f in range(7):
            n = k % 5
            k //= 5
            if n == 0:
                continue
            pung = n if n < 3 else 3
            pair = n if n < 2 else 2
            nxt = cur.copy()
            for m in range(6):
                for p in range(2):
                    v = cur[2 * m + p]
                    if v < 0:
                        continue
                    if m < 5 and v + pung > nxt[2 * (m + 1) + p]:
                        nxt[2 * (m + 1) + p] = v + pung
                    if p == 0 and v + pair > nxt[2 * m + 1]:
                        nxt[2 * m + 1] = v + pair
            cur = nxt
        _close(cur)
        for i in range(12):
            hu[key, i] = cur[i]
        return
    c = np.zeros(13, dtype=np.int64)
    k = key
    for f in range(9):
        c[2 + f] = k % 5
        k //= 5
    # blocks (faces separated by two or more empty faces; no chow spans such a gap) are
    # independent: a suit of several blocks, or of one block not at face 0, combines the entries
    # of its blocks moved to face 0 (a chow may reach past the suit's ends, so a block's vector
    # does not depend on where it lies), and only a block at face 0 runs the programme
    nb = 0
    first = -1
    f = 0
    while f < 9:
        if c[2 + f] == 0:
            f += 1
            continue
        start = f
        while f < 9 and (c[2 + f] > 0 or (f + 1 < 9 and c[3 + f] > 0)):
            f += 1
        if nb == 0:
            first = start
        nb += 1
        if nb > 1 or start > 0:
            break
    if nb <= 1 and first <= 0:
        _block(key, su)
        return
    acc = np.zeros(12, dtype=np.int64)
    tmp = np.zeros(12, dtype=np.int64)
    f = 0
    while f < 9:
        if c[2 + f] == 0:
            f += 1
            continue
        kb = 0
        pw = 1
        while f < 9 and (c[2 + f] > 0 or (f + 1 < 9 and c[3 + f] > 0)):
            kb += c[2 + f] * pw
            pw *= 5
            f += 1
        if su[kb, 0] < 0:
            _block(kb, su)
        for m in range(6):
            z0 = 0
            z1 = 0
            for a in range(m + 1):
                b = m - a
                v = acc[2 * a] + su[kb, 2 * b]
                if v > z0:
                    z0 = v
                v = acc[2 * a + 1] + su[kb, 2 * b]
                if v > z1:
                    z1 = v
                v = acc[2 * a] + su[kb, 2 * b + 1]
                if v > z1:
                    z1 = v
            tmp[2 * m] = z0
            tmp[2 * m + 1] = z1 if z1 > z0 else z0
        acc[:] = tmp
    for i in range(12):
        su[key, i] = acc[i]
    return


class _Tables:
    """The process's group tables (allocated on first use; entries filled on demand)."""

    arrays: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def get(cls) -> tuple[np.ndarray, np.ndarray]:
        """``(suits, honours)``: ``(5**9, 12)`` and ``(5**7, 12)`` int8, -1 where not computed yet
        (23 MB and 0.9 MB, written once at first use: about 10 ms)."""
        if cls.arrays is None:
            with _LOCK:
                if cls.arrays is None:
                    cls.arrays = (np.full((5 ** 9, 12), -1, dtype=np.int8), np.full((5 ** 7, 12), -1, dtype=np.int8))
        return cls.arrays

    draw_tables: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def draws(cls) -> tuple[np.ndarray, np.ndarray]:
        """``(suits, honours)`` draw tables (:func:`_fill_inc`): ``(5**9, 12)`` and ``(5**7, 12)``
        int16, rows of zeros not computed yet (47 MB and 1.9 MB of zeros: the system gives the
        pages a process writes, a few MB in a run of the efficiency bots)."""
        if cls.draw_tables is None:
            with _LOCK:
                if cls.draw_tables is None:
                    cls.draw_tables = (np.zeros((5 ** 9, 12), dtype=np.int16), np.zeros((5 ** 7, 12), dtype=np.int16))
        return cls.draw_tables

    free_need: np.ndarray | None = None

    @classmethod
    def free(cls) -> np.ndarray:
        """The suits' ``(need0, need1)`` with fifth copies allowed (:func:`_free_suit`): ``(5**9, 2)``
        int8, -1 where not computed yet (3.9 MB, allocated when a hand with wildcards is first
        analysed)."""
        if cls.free_need is None:
            with _LOCK:
                if cls.free_need is None:
                    cls.free_need = np.full((5 ** 9, 2), -1, dtype=np.int8)
        return cls.free_need


def used_vector(group: int, counts) -> tuple[int, ...]:
    """The 12 numbers ``U[2*m + p]`` of one group (``group`` 0-2 a suit of 9 counts, 3 the honours'
    7 counts): the most naturals at most m sets and p pairs cover (see the module doc)."""
    width = 7 if group == 3 else 9
    if len(counts) != width or any(not 0 <= int(x) <= 4 for x in counts):
        raise MajiangError(f"a group needs {width} counts of 0-4, got {list(counts)!r}")
    key = sum(int(x) * 5 ** i for i, x in enumerate(counts))
    available()  # compiled when numba is there; plain Python (slow but the same) otherwise
    su, hu = _Tables.get()
    if (hu if group == 3 else su)[key, 0] < 0:
        _fill(group, key, su, hu)
    return tuple(int(v) for v in (hu if group == 3 else su)[key])


# ------------------------------------------------------------------------------------ analysis
# Scratch rows of the analysis (one (16, 12) array, W): each group's vector (0-3), the other three
# groups combined per group (4-7), two groups combined (8-13, see _pair), the changed group's vector
# after a discard (14), another group's complement after that discard (15); row 16 is spare.
_V, _O, _PAIRS, _VG, _OH = 0, 4, 8, 14, 15


def _pair(a: int, b: int) -> int:
    """W's row of groups ``a`` and ``b`` combined (a != b)."""
    if a > b:
        a, b = b, a
    return _PAIRS + a * (7 - a) // 2 + b - a - 1


def _comb(w: np.ndarray, i: int, j: int, k: int, top: int) -> None:
    """Row ``k`` of ``w`` = the max-plus combination of rows ``i`` and ``j`` (at most one pair in
    all), as ``tables.combine_used``, for m = 0..top sets (the entries read later)."""
    for m in range(top + 1):
        z0 = 0
        z1 = 0
        for a in range(m + 1):
            b = m - a
            v = w[i, 2 * a] + w[j, 2 * b]
            if v > z0:
                z0 = v
            v = w[i, 2 * a + 1] + w[j, 2 * b]
            if v > z1:
                z1 = v
            v = w[i, 2 * a] + w[j, 2 * b + 1]
            if v > z1:
                z1 = v
        w[k, 2 * m] = z0
        w[k, 2 * m + 1] = z1 if z1 > z0 else z0


def _std(t: np.ndarray, i: int, w: np.ndarray, o: int, n: int) -> int:
    """The standard shape's shanten of a hand with ``n`` sets to make, from one group's vector (row
    ``i`` of ``t``: a table or ``w``) and the other three groups' (row ``o`` of ``w``):
    ``tables.best_used``, then ``3n + 1 - best``, at least -1."""
    best = 0
    for a in range(n + 1):
        b = n - a
        v = t[i, 2 * a + 1] + w[o, 2 * b]
        if v > best:
            best = v
        v = t[i, 2 * a] + w[o, 2 * b + 1]
        if v > best:
            best = v
    s = 3 * n + 1 - best
    return s if s > -1 else -1


def _stdk(g: int, key: int, w: np.ndarray, o: int, n: int, su: np.ndarray, hu: np.ndarray) -> int:
    """:func:`_std` for group ``g``'s table entry ``key`` (computed first if new)."""
    if g == 3:
        if hu[key, 0] < 0:
            _fill(3, key, su, hu)
        return _std(hu, key, w, o, n)
    if su[key, 0] < 0:
        _fill(g, key, su, hu)
    return _std(su, key, w, o, n)


def _load(g: int, key: int, w: np.ndarray, i: int, su: np.ndarray, hu: np.ndarray) -> None:
    """Row ``i`` of ``w`` = group ``g``'s table entry ``key`` (computed first if new)."""
    if g == 3:
        if hu[key, 0] < 0:
            _fill(3, key, su, hu)
        for j in range(12):
            w[i, j] = hu[key, j]
    else:
        if su[key, 0] < 0:
            _fill(g, key, su, hu)
        for j in range(12):
            w[i, j] = su[key, j]


def _face(st: np.ndarray, c: int, orphan: int, sign: int) -> None:
    """Add (``sign`` = 1) or take away (-1) one face holding ``c`` tiles from the special shapes'
    counts ``st``: pairs with a quad as two, odd counts, faces held twice or more, faces held once,
    orphan faces held, orphan faces held twice or more (``observations._stats``)."""
    if c == 0:
        return
    st[0] += sign * (c >> 1)
    st[1] += sign * (c & 1)
    if c >= 2:
        st[2] += sign
        if orphan:
            st[5] += sign
    else:
        st[3] += sign
    if orphan:
        st[4] += sign


def _change(st: np.ndarray, c: int, d: int, orphan: int) -> None:
    """Move a face from ``c`` to ``c + d`` tiles in ``st`` (see :func:`_face`)."""
    _face(st, c, orphan, -1)
    _face(st, c + d, orphan, 1)


def _spec(total: int, st: np.ndarray, sev: int, quad2: int, orph: int, eight: int, wwin: int) -> int:
    """The special shapes' shanten of a hand of ``total`` naturals and no wildcard (``win._specials``):
    99 where none applies. :func:`_wspec` with no wildcard and no 不搭 (which never reads the counts
    then)."""
    return _wspec(total, 0, st, st, sev, quad2, orph, eight, wwin, 0)


def _special_draws(mask: np.int64, cnt: np.ndarray, st: np.ndarray, total: int, s: int, cls: np.ndarray,
                   orphan: np.ndarray, sev: int, quad2: int, orph: int, eight: int, wwin: int) -> np.int64:
    """``mask`` plus the tiles (held fewer than four times; counts ``cnt``, special counts ``st``)
    whose draw brings a special shape below ``s`` (``total`` tiles after the draw). A draw moves the
    special counts by its count and whether it is an orphan only: one test per such class."""
    for i in range(10):
        cls[i] = -1
    for y in range(34):
        c = cnt[y]
        if c >= 4 or (mask >> y) & 1:
            continue
        k = 2 * c + orphan[y]
        if cls[k] < 0:
            _change(st, c, 1, orphan[y])
            cls[k] = 1 if _spec(total, st, sev, quad2, orph, eight, wwin) < s else 0
            _change(st, c + 1, -1, orphan[y])
        if cls[k]:
            mask |= np.int64(1) << y
    return mask


def _two_others(g: int, h: int):
    """The two groups other than ``g`` and ``h``."""
    a = -1
    b = -1
    for i in range(4):
        if i != g and i != h:
            if a < 0:
                a = i
            else:
                b = i
    return a, b


def _now(cnt: np.ndarray, total: int, turn: int, keys: np.ndarray, W: np.ndarray, st: np.ndarray,
         su: np.ndarray, hu: np.ndarray, sev: int, quad2: int, orph: int, eight: int, wwin: int,
         special: bool) -> int:
    """The shanten of the hand ``cnt`` of ``total`` naturals (3k+1 or 3k+2) as it stands. Leaves in
    ``W`` each group's vector and the combinations the discard loops read (each group's complement
    through the pairs 0+1 and 2+3; the other pairs too on the turn, ``turn`` and 3k+2) and, with
    ``special``, the special shapes' counts in ``st``."""
    _load_all(cnt, keys, W, su, hu)
    top = (total + 1) // 3 if total % 3 == 1 else total // 3  # the most sets a hand below makes (<= 5)
    ist = total % 3 == 2 and turn != 0
    _comb(W, _V + 0, _V + 1, _pair(0, 1), top)
    if ist or total % 3 == 1:
        _comb(W, _V + 2, _V + 3, _pair(2, 3), top)
        _comb(W, _V + 1, _pair(2, 3), _O, top)
        _comb(W, _V + 0, _pair(2, 3), _O + 1, top)
        _comb(W, _V + 3, _pair(0, 1), _O + 2, top)
    _comb(W, _V + 2, _pair(0, 1), _O + 3, top)
    if ist:
        for g in range(3):
            for h in range(g + 1, 4):
                if (g, h) != (0, 1) and (g, h) != (2, 3):
                    _comb(W, _V + g, _V + h, _pair(g, h), top)
    now = _std(W, _V + 3, W, _O + 3, total // 3)
    if special:
        for i in range(6):
            st[i] = 0
        for t in range(34):
            _face(st, cnt[t], _ORPHAN[t], 1)
        sp = _spec(total, st, sev, quad2, orph, eight, wwin)
        if sp < now:
            now = sp
    return now


def _rows_scratch() -> tuple:
    """The scratch arrays of :func:`_rows_with` (any values: it writes each before it reads it)."""
    return (np.zeros(4, dtype=np.int64),  # keys: each group's table key
            np.zeros((17, 12), dtype=np.int64),  # W: see _V .. _OH
            np.zeros(6, dtype=np.int64),  # st: the special shapes' counts
            np.zeros(34, dtype=np.int64),  # disc: the shanten after each discard
            np.zeros(34, dtype=np.int64),  # spd: the special shapes' shanten after each discard
            np.zeros(34, dtype=np.int64),  # cg: per best-discard vector seen: its group, vector, useful draws
            np.zeros((34, 12), dtype=np.int64),  # cv
            np.zeros(34, dtype=np.int64),  # cm
            np.zeros(10, dtype=np.int64),  # cls: special shapes: per (count, orphan) class of a draw, lowers or not
            np.zeros(10, dtype=np.int64),  # cbits: the tiles of each (count, orphan) class held fewer than four times
            np.zeros((10, 10), dtype=np.int64))  # cres: [discard's class, draw's class]: lowers, or -1 not known


def _rows(counts: np.ndarray, turn: np.ndarray, unseen: np.ndarray, out: np.ndarray, s0: int,
          sev: int, quad2: int, orph: int, eight: int, wwin: int,
          su: np.ndarray, hu: np.ndarray, isu: np.ndarray, ihu: np.ndarray,
          skipped: np.ndarray) -> int:
    """Fill the five planes from ``s0`` of ``out[i]`` for each row ``i`` (see :func:`analyse_rows`).
    A row it cannot take (a count outside 0-4, more than :data:`MAX_TILES` tiles) is left alone and
    marked in ``skipped``; returns how many."""
    return _rows_with(counts, turn, unseen, out, s0, sev, quad2, orph, eight, wwin, su, hu, isu, ihu, skipped,
                      _rows_scratch())


def _fill_inc(g: int, key: int, su: np.ndarray, hu: np.ndarray, it: np.ndarray) -> None:
    """Row ``key`` of group ``g``'s draw table ``it``: bit ``f`` of entry ``e`` set where drawing face
    ``f`` (held fewer than four times) raises the group's used-vector entry ``e`` (by one: a tile
    covers itself at most); entry 0 (nothing to cover) holds 1, the mark of a row computed."""
    t = hu if g == 3 else su
    if t[key, 0] < 0:
        _fill(g, key, su, hu)
    width = 7 if g == 3 else 9
    for e in range(1, 12):
        it[key, e] = 0
    p = 1
    for f in range(width):
        if (key // p) % 5 < 4:
            k = key + p
            if t[k, 0] < 0:
                _fill(g, k, su, hu)
            for e in range(1, 12):
                if t[k, e] > t[key, e]:
                    it[key, e] |= 1 << f
        p *= 5
    it[key, 0] = 1


def _raised(g: int, key: int, w: np.ndarray, i: int, o: int, n: int, used: int, su: np.ndarray, hu: np.ndarray,
            isu: np.ndarray, ihu: np.ndarray) -> np.int64:
    """Bits of the tiles of group ``g`` (code ``key``, its vector row ``i`` of ``w``) whose draw makes
    the standard shape cover ``used + 1`` naturals, ``used`` being the most it covers now with the
    other groups' row ``o`` of ``w`` (``n`` sets to make): the draw tables' entries (:func:`_fill_inc`)
    of every (sets, pair) split of group ``g`` that reaches ``used``. A draw raises one entry of one
    group by one at most, so these are exactly the draws that lower the shanten."""
    it = ihu if g == 3 else isu
    if it[key, 0] == 0:
        _fill_inc(g, key, su, hu, it)
    bits = 0
    for a in range(n + 1):
        b = n - a
        if w[i, 2 * a + 1] + w[o, 2 * b] == used:
            bits |= it[key, 2 * a + 1]
        if a > 0 and w[i, 2 * a] + w[o, 2 * b + 1] == used:  # entry 0 (covers nothing) holds the mark
            bits |= it[key, 2 * a]
    return np.int64(bits) << (9 * g)


def _best_useful(cnt: np.ndarray, total: int, best: int, disc: np.ndarray, spd: np.ndarray, keys: np.ndarray,
                 W: np.ndarray, st: np.ndarray, unseen: np.ndarray, o: np.ndarray, s0: int, sev: int, quad2: int,
                 orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray, isu: np.ndarray, ihu: np.ndarray,
                 cg: np.ndarray, cv: np.ndarray, cm: np.ndarray, cbits: np.ndarray, cres: np.ndarray) -> None:
    """For each discard ``x`` of the 3k+2 hand ``cnt`` (``total`` naturals) that leaves the lowest
    shanten ``best`` (``disc[x] == best``; ``spd[x]`` its special shapes' shanten): 1 in plane
    ``s0 + 1`` and the unseen copies (``unseen``, 34) of the draws that would lower it, over 34, in
    plane ``s0 + 2`` of ``o`` (layout columns). ``keys``, ``W``, ``st`` as :func:`_now` and the
    discard loop after it leave them; ``isu``, ``ihu``: the draw tables (:meth:`_Tables.draws`);
    the rest is scratch (:func:`_rows_scratch`).

    The planes' turn branch (:func:`_rows_with`) and the efficiency bots' tie-break
    (:func:`_efficiency_turns`, from the state :func:`_shanten_one` leaves) both call it."""
    group, p5, orphan, col = _GROUP, _P5, _ORPHAN, _LAYOUT_COL
    special = sev + orph + eight > 0 or wwin == 1
    top = total // 3
    n = total // 3
    ncache = 0
    classed = False
    for x in range(34):
        if cnt[x] == 0 or disc[x] != best:
            continue
        o[s0 + 1, col[x]] = 1.0
        g = group[x]
        kx = keys[g] - p5[x]
        _load(g, kx, W, _VG, su, hu)
        cnt[x] -= 1
        mask = np.int64(0)
        std = _std(W, _VG, W, _O + g, n)
        if std == best:  # a draw lowers the standard shape by one at most: below best only from best
            used = 3 * n + 1 - std
            # the other groups' draws depend on g's vector only: shared by the best discards that
            # leave the same vector
            hit = -1
            for c in range(ncache):
                if cg[c] == g:
                    same = True
                    for i in range(12):
                        if cv[c, i] != W[_VG, i]:
                            same = False
                            break
                    if same:
                        hit = c
                        break
            if hit >= 0:
                mask = cm[hit]
            else:
                for h in range(4):
                    if h != g:
                        a, b = _two_others(g, h)
                        _comb(W, _VG, _pair(a, b), _OH, top)
                        mask |= _raised(h, keys[h], W, _V + h, _OH, n, used, su, hu, isu, ihu)
                cg[ncache] = g
                cv[ncache, :] = W[_VG]
                cm[ncache] = mask
                ncache += 1
            mask |= _raised(g, kx, W, _VG, _O + g, n, used, su, hu, isu, ihu)
        if special and spd[x] - 1 < best:  # a draw lowers a special shape by one at most
            # the special shapes read a draw by its (count, orphan) class, and the hand after
            # the discard by the discard's class: one test per pair of classes and hand
            kx = 2 * (cnt[x] + 1) + orphan[x]
            if not classed:
                classed = True
                for k in range(10):
                    cbits[k] = 0
                    for k2 in range(10):
                        cres[k, k2] = -1
                for y in range(34):
                    if cnt[y] + (y == x) < 4:
                        cbits[2 * (cnt[y] + (y == x)) + orphan[y]] |= np.int64(1) << y
            bx = np.int64(1) << x
            for k in range(10):
                bits = cbits[k]
                if k == kx:
                    bits &= ~bx
                if k == kx - 2:
                    bits |= bx
                if bits == 0 or (mask | ~bits) == -1:
                    continue
                r = cres[kx, k]
                if r < 0:
                    _change(st, cnt[x] + 1, -1, orphan[x])
                    _change(st, k // 2, 1, k % 2)
                    r = cres[kx, k] = 1 if _spec(total, st, sev, quad2, orph, eight, wwin) < best else 0
                    _change(st, k // 2 + 1, -1, k % 2)
                    _change(st, cnt[x], 1, orphan[x])
                if r:
                    mask |= bits
        cnt[x] += 1
        tot = 0
        for y in range(34):
            if (mask >> y) & 1:
                tot += unseen[y]
        o[s0 + 2, col[x]] = tot / 34.0


def _rows_with(counts: np.ndarray, turn: np.ndarray, unseen: np.ndarray, out: np.ndarray, s0: int,
               sev: int, quad2: int, orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray,
               isu: np.ndarray, ihu: np.ndarray, skipped: np.ndarray, scratch: tuple) -> int:
    """:func:`_rows` with its scratch arrays given (:func:`_rows_scratch`: a caller that fills the
    planes of one row at a time makes them once); ``isu``, ``ihu``: the draw tables
    (:meth:`_Tables.draws`)."""
    orphan, col = _ORPHAN, _LAYOUT_COL  # constants of the compiled code
    nrows = counts.shape[0]
    keys, W, st, disc, spd, cg, cv, cm, cls, cbits, cres = scratch
    special = sev + orph + eight > 0 or wwin == 1
    nskip = 0
    for row in range(nrows):
        cnt = counts[row]
        total = 0
        bad = False
        for t in range(34):
            v = cnt[t]
            if v < 0 or v > 4:
                bad = True
            total += v
        if bad or total > MAX_TILES:
            skipped[row] = 1
            nskip += 1
            continue
        if total % 3 == 0:
            continue
        now = _now(cnt, total, turn[row], keys, W, st, su, hu, sev, quad2, orph, eight, wwin, special)
        o = out[row]
        for t in range(34):
            o[s0, t] = now / 8.0
        if total % 3 == 2:
            if not turn[row]:
                continue
            best = _discards(cnt, total, keys, W, st, sev, quad2, orph, eight, wwin, su, hu, disc, spd)
            _best_useful(cnt, total, best, disc, spd, keys, W, st, unseen[row], o, s0, sev, quad2, orph, eight, wwin,
                         su, hu, isu, ihu, cg, cv, cm, cbits, cres)
        else:
            # a draw lowers the standard shape by one at most (below now only from now): the draws
            # that raise an entry of a split reaching its best (the draw tables, _raised)
            n = total // 3
            mask = np.int64(0)
            std = _std(W, _V + 3, W, _O + 3, n)
            if std == now:
                for g in range(4):
                    mask |= _raised(g, keys[g], W, _V + g, _O + g, n, 3 * n + 1 - std, su, hu, isu, ihu)
            sp = _spec(total, st, sev, quad2, orph, eight, wwin) if special else 99
            if special and sp - 1 < now:
                mask = _special_draws(mask, cnt, st, total + 1, now, cls, orphan, sev, quad2, orph, eight, wwin)
            for y in range(34):
                if (mask >> y) & 1:
                    u = unseen[row, y]
                    if u:
                        o[s0 + 4, col[y]] = u / 4.0
                    if now == 0:
                        o[s0 + 3, col[y]] = 1.0
    return nskip


# ------------------------------------------------------------------------------ wildcard hands
# The planes of a hand holding wildcards (财神/百搭), or under the 不搭 shape, computed straight from
# the definition of :func:`majiang.analysis.shanten` (see the module doc, "Wildcards"): every discard
# and every draw is one exact shanten, each a one-group change read from the same used-vector tables.
_WHITE = 31  # majiang.tiles.WHITE


def _free_suit(key: int, nf: np.ndarray) -> None:
    """``nf[key]`` = ``(need0, need1)`` of the suit of code ``key`` with fifth copies allowed: the
    fewest wildcards that make every natural of the suit sets only / sets and one pair
    (``tables.suit_need(c, cap=False)``; here over the whole suit padded by two faces each side,
    which equals the sum over its blocks; an empty suit's need1 is 2, where the tables say INF --
    the caller takes the least pair cost with 2 anyway)."""
    c = np.zeros(13, dtype=np.int64)
    k = key
    for f in range(9):
        c[2 + f] = k % 5
        k //= 5
    cur = np.full(18, 99, dtype=np.int64)  # state ((a * 3 + b) * 2 + p): chows two / one face back, pair
    nxt = np.full(18, 99, dtype=np.int64)
    cur[0] = 0
    for i in range(13):
        ci = c[i]
        kmax = 3 if i <= 10 else 1
        nxt[:] = 99
        for a in range(3):
            for b in range(3):
                for p in range(2):
                    v = cur[(a * 3 + b) * 2 + p]
                    if v >= 99:
                        continue
                    for kk in range(kmax):
                        for t in range(3):  # up to two pungs of a face when fifth copies are allowed
                            for q in range(2 - p):
                                u = a + b + kk + 3 * t + 2 * q
                                if u < ci:  # every natural is used
                                    continue
                                j = (b * 3 + kk) * 2 + (p | q)
                                if v + u - ci < nxt[j]:
                                    nxt[j] = v + u - ci
        cur, nxt = nxt, cur
    nf[key, 0] = cur[0] if cur[0] < 99 else 99
    nf[key, 1] = cur[1] if cur[1] < 99 else 99


def _winfree(cnt: np.ndarray, w: int, nf: np.ndarray, p5: np.ndarray) -> bool:
    """Whether naturals ``cnt`` and ``w`` wildcards make the standard shape with a wildcard allowed to
    be a fifth copy (``win._standard_need(counts, cap=False) <= w``)."""
    tot = 0
    dmin = 2  # a pair of two wildcards
    for g in range(3):
        key = 0
        for f in range(9):
            key += cnt[9 * g + f] * p5[9 * g + f]
        if nf[key, 0] < 0:
            _free_suit(key, nf)
        x0 = nf[key, 0]
        tot += x0
        if nf[key, 1] - x0 < dmin:
            dmin = nf[key, 1] - x0
    for t in range(27, 34):  # an honour face of n: (need0, need1) = (0,2) (2,1) (1,0) (0,2) (2,1)
        n = cnt[t]
        if n == 0:
            continue
        if n == 1 or n == 4:
            tot += 2
            d = -1
        elif n == 2:
            tot += 1
            d = -1
        else:
            d = 2
        if d < dmin:
            dmin = d
    return tot + dmin <= w


def _unc(cnt: np.ndarray) -> int:
    """The most naturals a 不搭 hand keeps (``shapes.unconnected_used``): distinct honours and, per
    suit, the ranks taken greedily from the lowest at least three apart; at most 14."""
    used = 0
    for t in range(27, 34):
        if cnt[t] > 0:
            used += 1
    for g in range(3):
        last = -9
        for i in range(9):
            if cnt[9 * g + i] > 0 and i - last >= 3:
                used += 1
                last = i
    return used if used < 14 else 14


def _wspec(total: int, w: int, st: np.ndarray, cnt: np.ndarray, sev: int, quad2: int, orph: int, eight: int,
           wwin: int, unc: int) -> int:
    """The special shapes' shanten of naturals ``cnt`` (their counts ``st``, see :func:`_face`) and
    ``w`` wildcards, ``total`` tiles in all (``win._specials`` without the knitted shapes): 99 where
    none applies."""
    best = 99
    if wwin > 0 and w >= wwin - (1 if total % 3 == 1 else 0):
        best = 0 if total % 3 == 1 else -1  # ready for a wildcard draw / complete
    top = 3 * (total // 3) + 1 - w
    if eight and (total == 16 or total == 17):
        pairs = st[0]
        p = pairs if pairs < 8 else 8
        singles = st[1] + 2 * (pairs - p)
        rest = 9 - p
        v = top - (2 * p + (singles if singles < rest else rest))
        if v < -1:
            v = -1
        if v < best:
            best = v
    if total == 13 or total == 14:
        if unc:
            v = top - _unc(cnt)
            if v < -1:
                v = -1
            if v < best:
                best = v
        if sev:
            if quad2:
                pairs = st[0]
                odd = st[1]
            else:
                pairs = st[2]
                odd = st[3]
            if pairs > 7:
                pairs = 7
            rest = 7 - pairs
            v = top - (2 * pairs + (odd if odd < rest else rest))
            if v < -1:
                v = -1
            if v < best:
                best = v
        if orph:
            v = top - (st[4] + (1 if st[5] > 0 else 0))
            if v < -1:
                v = -1
            if v < best:
                best = v
    return best


def _sx(t: np.ndarray, i: int, w_: np.ndarray, o: int, total: int, w: int, cnt: np.ndarray, st: np.ndarray,
        sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int, fix: bool, lim: int,
        nf: np.ndarray, p5: np.ndarray) -> int:
    """:func:`majiang.analysis.shanten` of naturals ``cnt`` (special counts ``st``) and ``w``
    wildcards, ``total`` tiles in all: the standard shape from one group's vector (row ``i`` of
    ``t``, a table or ``w_``) and the other three groups' (row ``o`` of ``w_``) --
    ``max(3n + 1 - best - w, -1)`` -- then the special shapes; a 3k+2 hand at 0 that wins with a
    wildcard as a fifth copy is -1 (``is_winning``), checked only with ``fix``. A caller that only
    asks whether the shanten is below ``lim`` gets the standard shape's number when that already is
    (-1: always the exact shanten)."""
    n = total // 3
    s = _std(t, i, w_, o, n) - w  # _std never clamps: best is at most 3n + 2
    if s < -1:
        s = -1
    if s < lim:
        return s
    if s > -1 and (sev + orph + eight + unc > 0 or wwin > 0):
        sp = _wspec(total, w, st, cnt, sev, quad2, orph, eight, wwin, unc)
        if sp < s:
            s = sp
    if fix and s == 0 and w > 0 and total % 3 == 2 and fifth and _winfree(cnt, w, nf, p5):
        s = -1
    return s


def _setup(w_: np.ndarray, top: int) -> None:
    """Rows ``_O + g`` of ``w_`` = the three groups other than ``g`` combined (from rows ``_V + g``),
    through the pairs 0+1 and 2+3, for m = 0..top sets."""
    _comb(w_, _V + 0, _V + 1, _pair(0, 1), top)
    _comb(w_, _V + 2, _V + 3, _pair(2, 3), top)
    _comb(w_, _V + 1, _pair(2, 3), _O, top)
    _comb(w_, _V + 0, _pair(2, 3), _O + 1, top)
    _comb(w_, _V + 3, _pair(0, 1), _O + 2, top)
    _comb(w_, _V + 2, _pair(0, 1), _O + 3, top)


def _load_all(cnt: np.ndarray, keys: np.ndarray, W: np.ndarray, su: np.ndarray, hu: np.ndarray) -> None:
    """``keys`` = the four group codes of counts ``cnt``; rows ``_V + g`` of ``W`` = their vectors."""
    for g in range(4):
        keys[g] = 0
    for t in range(34):
        keys[_GROUP[t]] += cnt[t] * _P5[t]
    for g in range(4):
        _load(g, keys[g], W, _V + g, su, hu)


def _nat_shanten(nat: np.ndarray, total: int, w: int, keys: np.ndarray, W: np.ndarray, st: np.ndarray, sev: int,
                 quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int, fix: bool, lim: int,
                 su: np.ndarray, hu: np.ndarray, nf: np.ndarray) -> int:
    """:func:`_sx` of naturals ``nat`` (``total`` tiles with the ``w`` wildcards, at most
    :data:`MAX_TILES`) from scratch: fills ``keys`` (the four group codes), the rows ``_V``/``_O``
    of ``W`` (:func:`_setup`, for the draws of a 3k+1 hand too) and the special counts ``st``."""
    _load_all(nat, keys, W, su, hu)
    top = (total + 1) // 3
    if top > 5:
        top = 5
    _setup(W, top)
    for j in range(6):
        st[j] = 0
    for t in range(34):
        _face(st, nat[t], _ORPHAN[t], 1)
    return _sx(W, _V + 3, W, _O + 3, total, w, nat, st, sev, quad2, orph, eight, wwin, unc, fifth, fix, lim, nf, _P5)


def _wuseful(nat: np.ndarray, w: int, total: int, s: int, w_: np.ndarray, keys: np.ndarray, st: np.ndarray,
             sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int,
             su: np.ndarray, hu: np.ndarray, nf: np.ndarray):
    """For a 3k+1 hand (naturals ``nat`` with group codes ``keys``, ``w`` wildcards, ``total`` tiles,
    shanten ``s``; rows ``_V``/``_O`` of ``w_`` set up): ``(bits of the naturals held fewer than four
    times whose draw brings the shanten below s, whether a drawn wildcard does)``."""
    group, p5, orphan = _GROUP, _P5, _ORPHAN
    mask = np.int64(0)
    if s <= -1:
        return mask, False
    fix = s == 0  # a draw at 0 that wins through a fifth copy is -1, below 0
    # a natural that joins nothing (an honour not held; a suited tile with no held tile of its suit
    # within two faces) stands alone: the standard shape reads the same lone tile's vector for all
    # of them, the special shapes only whether it is an orphan (a count going 0 -> 1; 不搭 keeps one
    # more natural for any of them), the fifth-copy check the same single tile's need: one draw per
    # class (orphan or not) stands for the class
    lone = np.int64(0)
    for y in range(34):
        if nat[y] > 0:
            continue
        if y >= 27:
            lone |= np.int64(1) << y
            continue
        f = y % 9
        if not ((f >= 1 and nat[y - 1] > 0) or (f >= 2 and nat[y - 2] > 0) or (f <= 7 and nat[y + 1] > 0)
                or (f <= 6 and nat[y + 2] > 0)):
            lone |= np.int64(1) << y
    done = np.int64(0)  # lone classes tried: bit 0 not an orphan, bit 1 an orphan
    # a natural's draw lowers each special shape by one at most (one more natural kept; wilds_win
    # only rises): where the hand's special shanten less one is not below s, the draws read the
    # standard shape alone
    xs, xq, xo, xe, xw, xu = sev, quad2, orph, eight, wwin, unc
    if (sev + orph + eight + unc > 0 or wwin > 0) and _wspec(total, w, st, nat, sev, quad2, orph, eight, wwin,
                                                             unc) - 1 >= s:
        xs, xq, xo, xe, xw, xu = 0, 0, 0, 0, 0, 0
    for y in range(34):
        c = nat[y]
        if c >= 4:
            continue
        if (lone >> y) & 1:
            k = orphan[y]
            if (done >> k) & 1:
                continue
            done |= np.int64(1) << k
        g = group[y]
        k = keys[g] + p5[y]
        _change(st, c, 1, orphan[y])
        nat[y] = c + 1
        if g == 3:
            if hu[k, 0] < 0:
                _fill(3, k, su, hu)
            v = _sx(hu, k, w_, _O + 3, total + 1, w, nat, st, xs, xq, xo, xe, xw, xu, fifth, fix, s, nf, p5)
        else:
            if su[k, 0] < 0:
                _fill(g, k, su, hu)
            v = _sx(su, k, w_, _O + g, total + 1, w, nat, st, xs, xq, xo, xe, xw, xu, fifth, fix, s, nf, p5)
        nat[y] = c
        _change(st, c + 1, -1, orphan[y])
        if v < s:
            if (lone >> y) & 1:
                for x in range(34):
                    if (lone >> x) & 1 and orphan[x] == orphan[y]:
                        mask |= np.int64(1) << x
            else:
                mask |= np.int64(1) << y
    v = _sx(w_, _V + 3, w_, _O + 3, total + 1, w + 1, nat, st, sev, quad2, orph, eight, wwin, unc, fifth, fix, s,
            nf, p5)
    return mask, v < s


def _wild(phys: np.ndarray, unseen: np.ndarray, turn: int, out: np.ndarray, s0: int, wf: int, white: int,
          sev: int, quad2: int, orph: int, eight: int, wwin: int, unc: int, fifth: int,
          su: np.ndarray, hu: np.ndarray, nf: np.ndarray) -> int:
    """The five planes from ``s0`` of one observation ``out`` ``(C, 34)`` for physical counts ``phys``
    (our tile order) with wildcard face ``wf`` (-1: none) and the White standing in when ``white``
    (see :func:`analyse_wild_one`). Returns 1 if the row is left alone (a count outside 0-4, more than
    :data:`MAX_TILES` tiles), else 0."""
    group, p5, orphan, col = _GROUP, _P5, _ORPHAN, _LAYOUT_COL
    nat = np.zeros(34, dtype=np.int64)
    total = 0
    for t in range(34):
        v = phys[t]
        if v < 0 or v > 4:
            return 1
        nat[t] = v
        total += v
    if total > MAX_TILES:
        return 1
    role = np.arange(34)  # what each physical tile plays: -1 a wildcard, else its natural face
    w = 0
    if wf >= 0:
        w = nat[wf]
        nat[wf] = 0
        role[wf] = -1
        if white and wf != _WHITE:
            nat[wf] += nat[_WHITE]
            nat[_WHITE] = 0
            role[_WHITE] = wf
    if total % 3 == 0:
        return 0
    keys = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    now = _nat_shanten(nat, total, w, keys, W, st, sev, quad2, orph, eight, wwin, unc, fifth, True, -1, su, hu, nf)
    for t in range(34):
        out[s0, t] = now / 8.0
    if total % 3 == 1:
        mask, wl = _wuseful(nat, w, total, now, W, keys, st, sev, quad2, orph, eight, wwin, unc, fifth, su, hu, nf)
        for y in range(34):
            r = role[y]
            if (r < 0 and wl) or (r >= 0 and (mask >> r) & 1):
                u = unseen[y]
                if u:
                    out[s0 + 4, col[y]] = u / 4.0
                if now == 0:
                    out[s0 + 3, col[y]] = 1.0
        return 0
    if not turn:
        return 0
    disc = np.full(34, 99, dtype=np.int64)  # the shanten after discarding each natural
    best = 99
    for r in range(34):
        c = nat[r]
        if c == 0:
            continue
        g = group[r]
        k = keys[g] - p5[r]
        _change(st, c, -1, orphan[r])
        nat[r] = c - 1
        if g == 3:
            if hu[k, 0] < 0:
                _fill(3, k, su, hu)
            v = _sx(hu, k, W, _O + 3, total - 1, w, nat, st, sev, quad2, orph, eight, wwin, unc, fifth, False, -1,
                    nf, p5)
        else:
            if su[k, 0] < 0:
                _fill(g, k, su, hu)
            v = _sx(su, k, W, _O + g, total - 1, w, nat, st, sev, quad2, orph, eight, wwin, unc, fifth, False, -1,
                    nf, p5)
        nat[r] = c
        _change(st, c - 1, 1, orphan[r])
        disc[r] = v
        if v < best:
            best = v
    dw = 99  # after discarding a wildcard
    if w > 0:
        dw = _sx(W, _V + 3, W, _O + 3, total - 1, w - 1, nat, st, sev, quad2, orph, eight, wwin, unc, fifth, False,
                 -1, nf, p5)
        if dw < best:
            best = dw
    W2 = np.zeros((17, 12), dtype=np.int64)
    keys2 = np.zeros(4, dtype=np.int64)
    top2 = total // 3
    if top2 > 5:
        top2 = 5
    for x in range(34):
        if phys[x] == 0:
            continue
        r = role[x]
        if (dw if r < 0 else disc[r]) != best:
            continue
        out[s0 + 1, col[x]] = 1.0
        if r < 0:
            mask, wl = _wuseful(nat, w - 1, total - 1, best, W, keys, st, sev, quad2, orph, eight, wwin, unc, fifth,
                                su, hu, nf)
        else:
            g = group[r]
            for h in range(4):
                keys2[h] = keys[h]
                for j in range(12):
                    W2[_V + h, j] = W[_V + h, j]
            keys2[g] -= p5[r]
            _load(g, keys2[g], W2, _V + g, su, hu)
            _setup(W2, top2)
            c = nat[r]
            _change(st, c, -1, orphan[r])
            nat[r] = c - 1
            mask, wl = _wuseful(nat, w, total - 1, best, W2, keys2, st, sev, quad2, orph, eight, wwin, unc, fifth,
                                su, hu, nf)
            nat[r] = c
            _change(st, c - 1, 1, orphan[r])
        tot = 0
        for y in range(34):
            ry = role[y]
            if (ry < 0 and wl) or (ry >= 0 and (mask >> ry) & 1):
                tot += unseen[y]
        out[s0 + 2, col[x]] = tot / 34.0
    return 0

_I8 = np.int8


def shape_flags(shapes) -> tuple[int, int, int, int, int]:
    """The kernel's reading of a :class:`~majiang.analysis.ShapeRules`: ``(seven_pairs,
    quad_as_two_pairs, thirteen_orphans, eight_pairs, wilds_win)``. Raises :class:`MajiangError` for
    shapes it does not compute (no standard shape, 不搭, the knitted shapes)."""
    if not shapes.standard or shapes.unconnected or shapes.honors_and_knitted or shapes.knitted_straight:
        raise MajiangError(f"the analysis kernel takes the standard shape with seven pairs, thirteen orphans, "
                           f"eight pairs or wilds_win only, not {shapes!r}")
    return (int(shapes.seven_pairs), int(shapes.quad_as_two_pairs), int(shapes.thirteen_orphans),
            int(shapes.eight_pairs), int(shapes.wilds_win))


def wild_flags(shapes) -> tuple[int, int, int, int, int, int, int]:
    """The wildcard kernel's reading of a :class:`~majiang.analysis.ShapeRules` (:func:`analyse_wild_one`):
    ``(seven_pairs, quad_as_two_pairs, thirteen_orphans, eight_pairs, wilds_win, unconnected,
    wild_fifth_copy)``. Raises :class:`MajiangError` for shapes it does not compute (no standard
    shape, the knitted shapes)."""
    if not shapes.standard or shapes.honors_and_knitted or shapes.knitted_straight:
        raise MajiangError(f"the wildcard analysis kernel takes the standard shape with seven pairs, thirteen "
                           f"orphans, eight pairs, 不搭 or wilds_win only, not {shapes!r}")
    return (int(shapes.seven_pairs), int(shapes.quad_as_two_pairs), int(shapes.thirteen_orphans),
            int(shapes.eight_pairs), int(shapes.wilds_win), int(shapes.unconnected), int(shapes.wild_fifth_copy))


def _thermo(out: np.ndarray, first: int, counts: np.ndarray) -> None:
    """Count planes of many rows: ``out[i, first + 4*b + j, col(t)] = 1`` where ``counts[i, b, t] > j``
    (j = 0..3; ``out`` zero there before; ``counts`` ``(n, k, 34)`` in our tile order)."""
    col = _LAYOUT_COL
    for i in range(counts.shape[0]):
        for b in range(counts.shape[1]):
            p = first + 4 * b
            for t in range(34):
                c = counts[i, b, t]
                if c > 4:
                    c = 4
                for j in range(c):
                    out[i, p + j, col[t]] = 1.0


def _table_planes(out: np.ndarray, me: np.ndarray, offs: np.ndarray, hand: np.ndarray, meld_vis: np.ndarray,
                  ckong: np.ndarray, n_ckong: np.ndarray, river_cnt: np.ndarray, flower_n: np.ndarray,
                  live: np.ndarray, total: int, last_draw: np.ndarray, ro: np.ndarray, phase: np.ndarray,
                  prevalent: np.ndarray, dealer: np.ndarray, claim_tile: np.ndarray, origin: np.ndarray) -> None:
    """:func:`table_planes`'s compiled loop (see there for the arguments)."""
    col = _LAYOUT_COL
    for i in range(out.shape[0]):
        s = me[i]
        for t in range(34):  # own concealed tiles
            c = hand[i, s, t]
            for j in range(min(c, 4)):
                out[i, offs[0] + j, col[t]] = 1.0
        for r in range(4):
            a = (s + r) % 4
            for t in range(34):
                c = meld_vis[i, a, t]
                if r == 0:
                    c += ckong[i, s, t]  # own concealed kongs show in own melds
                for j in range(min(c, 4)):
                    out[i, offs[1] + 4 * r + j, col[t]] = 1.0
                c = river_cnt[i, a, t]
                for j in range(min(c, 4)):
                    out[i, offs[3] + 4 * r + j, col[t]] = 1.0
            if r > 0 and n_ckong[i, a] != 0:  # another seat's concealed kongs: only their number
                v = n_ckong[i, a] / 4.0
                for t in range(34):
                    out[i, offs[2] + r, t] = v
            v = flower_n[i, a] / 8.0
            if v != 0.0:
                for t in range(34):
                    out[i, offs[5] + r, t] = v
            for k in range(ro.shape[2]):  # the latest discards, newest first
                x = ro[i, a, k]
                if x >= 0:
                    out[i, offs[4] + ro.shape[2] * r + k, col[x]] = 1.0
        v = live[i] / total
        for t in range(34):
            out[i, offs[6], t] = v
        ld = last_draw[i, s]
        if ld >= 0:
            out[i, offs[7], col[ld]] = 1.0
        out[i, offs[8], col[prevalent[i]]] = 1.0
        sw = (s - dealer[i]) % 4
        out[i, offs[9], col[27 + sw]] = 1.0
        for t in range(34):
            out[i, offs[10] + (4 - sw) % 4, t] = 1.0
        ph = phase[i]
        if ph < 3:  # turn, claim, robbing (not a row whose hand is over)
            for t in range(34):
                out[i, offs[11] + ph, t] = 1.0
        if ph == 1 or ph == 2:  # a window: the tile on offer and who offered it
            out[i, offs[12], col[claim_tile[i]]] = 1.0
            for t in range(34):
                out[i, offs[13] + (origin[i] - s) % 4, t] = 1.0


TABLE_PLANES = ("hand", "melds", "hidden_kongs", "rivers", "river_order", "flowers", "wall", "last_draw",
                "prevalent_wind", "seat_wind", "dealer", "phase", "claim_tile", "offered_by")
"""The ``majiang-v1`` plane groups :func:`table_planes` writes, in the order of its ``offs``."""


def table_planes(out: np.ndarray, me: np.ndarray, offs: np.ndarray, hand: np.ndarray, meld_vis: np.ndarray,
                 ckong: np.ndarray, n_ckong: np.ndarray, river_cnt: np.ndarray, flower_n: np.ndarray,
                 live: np.ndarray, total: int, last_draw: np.ndarray, ro: np.ndarray, phase: np.ndarray,
                 prevalent: np.ndarray, dealer: np.ndarray, claim_tile: np.ndarray, origin: np.ndarray) -> None:
    """The batched core's table planes of ``majiang-v1`` (docs/rl.md), every row in one compiled pass:
    ``out`` ``(n, C, 34)`` float32, zero before; ``me`` ``(n,)`` the observing seat of each row;
    ``offs`` the first plane of each group of :data:`TABLE_PLANES`; the core's arrays (seats absolute,
    tiles in our order): ``hand``, ``meld_vis``, ``ckong``, ``river_cnt`` ``(n, 4, 34)``, ``n_ckong``
    and ``flower_n`` ``(n, 4)``, ``live`` wall tiles ``(n,)`` of ``total``, ``last_draw`` ``(n, 4)``
    (-1: none), ``ro`` ``(n, 4, slots)`` latest discards (-1: none), ``phase`` ``(n,)`` (0 turn, 1
    claim, 2 robbing, 3 over), ``prevalent`` (a wind tile), ``dealer``, ``claim_tile``, ``origin``
    ``(n,)``. The same numbers as the batched core's numpy expressions (a test compares them). Needs
    numba (:func:`available`)."""
    if not available():
        raise MajiangError("table_planes needs numba (pip install 'majiang[rl]')")
    _table_planes(out, me, offs, hand, meld_vis, ckong, n_ckong, river_cnt, flower_n, live, total, last_draw, ro,
                  phase, prevalent, dealer, claim_tile, origin)


def thermo_rows(out: np.ndarray, first: int, counts: np.ndarray) -> None:
    """Write the count planes ``first .. first + 4k - 1`` of every row of ``out`` ``(n, C, 34)``
    (float32, zero there) from ``counts`` ``(n, k, 34)`` or ``(n, 34)`` (our tile order): plane
    ``first + 4b + j`` is 1 at a tile's layout column where its count in block ``b`` exceeds ``j``
    -- the thermometer encoding of ``majiang-v1`` (docs/rl.md), as
    ``counts[:, :, None, LAYOUT_TILES] > arange(4)`` writes it, in one compiled pass. Needs numba
    (:func:`available`)."""
    if not available():
        raise MajiangError("thermo_rows needs numba (pip install 'majiang[rl]')")
    if counts.ndim == 2:
        counts = counts[:, None, :]
    _thermo(out, first, counts)


def analyse_rows(counts: np.ndarray, turn: np.ndarray, unseen: np.ndarray, out: np.ndarray, first: int,
                 flags: tuple[int, int, int, int, int]) -> np.ndarray:
    """Fill the analysis planes of many observations at once.

    Args:
        counts: ``(n, 34)`` concealed counts in our tile order, no wildcards (each 0-4).
        turn: ``(n,)`` true where the row's seat is on its turn (``discard_best`` and
            ``discard_useful`` are filled only then).
        unseen: ``(n, 34)`` copies of each tile the seat cannot see (our tile order).
        out: ``(n, C, 34)`` float32 observations (columns in the layout's order,
            :data:`majiang.rl.actions.COLUMN_OF`); planes ``first .. first + 4`` are ``shanten``,
            ``discard_best``, ``discard_useful``, ``waits``, ``useful`` (zero where not written).
        first: the ``shanten`` plane's index.
        flags: :func:`shape_flags` of the analysis shapes.

    Returns the ``(n,)`` bool array of rows left alone (a count outside 0-4, more than
    :data:`MAX_TILES` tiles): the caller computes those the Python way.
    """
    if not available():
        raise MajiangError("the analysis kernel needs numba (pip install 'majiang[rl]')")
    c = np.clip(counts, -1, 5).astype(_I8)  # a copy (the kernel moves counts while it works); bad counts stay bad
    skipped = np.zeros(len(c), dtype=np.uint8)
    su, hu = _Tables.get()
    _rows(c, np.ascontiguousarray(turn, dtype=_I8), np.ascontiguousarray(unseen, dtype=_I8), out, first,
          *flags, su, hu, *_Tables.draws(), skipped)
    return skipped.view(bool)


def _shanten_one(cnt: np.ndarray, turn: int, sev: int, quad2: int, orph: int, eight: int, wwin: int,
                 su: np.ndarray, hu: np.ndarray, keys: np.ndarray, W: np.ndarray, st: np.ndarray,
                 res: np.ndarray, disc: np.ndarray, spd: np.ndarray) -> None:
    """:func:`_shanten_rows` for one hand ``cnt`` (34), into ``res`` (4); ``keys``, ``W``, ``st``:
    scratch arrays, left as :func:`_best_useful` reads them; ``disc``, ``spd``: each discard's
    shanten on the turn (:func:`_discards`)."""
    special = sev + orph + eight > 0 or wwin == 1
    res[1] = 99
    res[2] = 0
    res[3] = 0
    total = 0
    bad = False
    for t in range(34):
        v = cnt[t]
        if v < 0 or v > 4:
            bad = True
        total += v
    if bad or total > MAX_TILES or total % 3 == 0:
        res[2] = 1
        return
    now = _now(cnt, total, turn, keys, W, st, su, hu, sev, quad2, orph, eight, wwin, special)
    ist = total % 3 == 2 and turn != 0
    res[0] = now
    if not ist:
        return
    best = _discards(cnt, total, keys, W, st, sev, quad2, orph, eight, wwin, su, hu, disc, spd)
    bits = np.int64(0)
    for x in range(34):
        if cnt[x] != 0 and disc[x] == best:
            bits |= np.int64(1) << x
    res[1] = best
    res[3] = bits


def _discards(cnt: np.ndarray, total: int, keys: np.ndarray, W: np.ndarray, st: np.ndarray, sev: int, quad2: int,
              orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray, disc: np.ndarray,
              spd: np.ndarray) -> int:
    """The shanten after each discard ``x`` held in the 3k+2 hand ``cnt`` (``total`` naturals) into
    ``disc[x]`` (the special shapes' alone into ``spd[x]``, 99 without them), as :func:`_now`
    left ``keys``, ``W``, ``st``; returns the lowest. Exact for the discards that leave the lowest;
    where the special shapes cannot reach it they are not computed (``spd`` 99), and another
    discard's number may then be its standard shape's alone."""
    group, p5, orphan = _GROUP, _P5, _ORPHAN
    special = sev + orph + eight > 0 or wwin == 1
    n1 = (total - 1) // 3
    best = 99
    for x in range(34):
        if cnt[x] == 0:
            continue
        g = group[x]
        s = _stdk(g, keys[g] - p5[x], W, _O + g, n1, su, hu)
        spd[x] = 99
        disc[x] = s
        if s < best:
            best = s
    # a discard never lowers the special shapes' shanten below the 3k+2 hand's own (their counts
    # only lose a tile): above the standard shape's best they change no discard's number (99 kept)
    if not special or (wwin != 1 and _spec(total, st, sev, quad2, orph, eight, wwin) > best):
        return best
    for x in range(34):
        if cnt[x] != 0:
            _change(st, cnt[x], -1, orphan[x])
            spd[x] = _spec(total - 1, st, sev, quad2, orph, eight, wwin)
            _change(st, cnt[x] - 1, 1, orphan[x])
            if spd[x] < disc[x]:
                disc[x] = spd[x]
                if spd[x] < best:
                    best = spd[x]
    return best


def _shanten_rows(counts: np.ndarray, turn: np.ndarray, sev: int, quad2: int, orph: int, eight: int, wwin: int,
                  su: np.ndarray, hu: np.ndarray, res: np.ndarray) -> None:
    """The ``shanten`` plane's number of each row and, on a 3k+2 hand with ``turn``, the lowest
    shanten after a discard, the planes themselves left out: ``res[row]`` = (shanten, after the
    best discard or 99, 1 if the row was left alone as :func:`_rows` leaves it, the bits
    ``1 << tile`` of the discards that leave that lowest shanten). The same code as :func:`_rows`
    (:func:`_shanten_one`, which the efficiency bots' loops below share)."""
    keys = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    disc = np.zeros(34, dtype=np.int64)
    spd = np.zeros(34, dtype=np.int64)
    for row in range(counts.shape[0]):
        _shanten_one(counts[row], turn[row], sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res[row], disc, spd)


def _efficiency_turns(hand: np.ndarray, vis: np.ndarray, ckong: np.ndarray, rows: np.ndarray, seats: np.ndarray,
                      mask: np.ndarray, dbase: int, kong_bases: np.ndarray, kong_takes: np.ndarray,
                      tile_of_col: np.ndarray, orphan_key: np.ndarray, sev: int, quad2: int, orph: int, eight: int,
                      wwin: int, su: np.ndarray, hu: np.ndarray, isu: np.ndarray, ihu: np.ndarray, acts: np.ndarray,
                      left: np.ndarray) -> None:
    """The efficiency bot's turn discard on each row ``rows[q]`` for seat ``seats[q]``
    (``FastEfficiencyBot.kernel_discards`` and its tie-break): among the allowed discards (``mask``
    from ``dbase``, layout columns) that leave the lowest shanten, the most useful unseen copies
    (the ``discard_useful`` plane's count, :func:`_best_useful`, only where several tie, from the
    state the shanten loop left), then ``orphan_key`` (honours and terminals first, then the lowest
    tile). Where kongs are offered (the mask's 34 columns from each of ``kong_bases``, taking
    ``kong_takes`` tiles from the hand), first the bot's kong rule: the first kong (by base, then
    tile) whose hand's shanten is no worse than the best allowed discard's. ``acts[rows[q]]`` gets
    the index; ``left[q]`` = 1 where the bot's own code must decide (a hand left alone, no
    candidate)."""
    keys, W, st, disc, spd, cg, cv, cm, cls, cbits, cres = _rows_scratch()
    res = np.zeros(4, dtype=np.int64)
    cnt = np.zeros(34, dtype=np.int8)
    unseen = np.zeros(34, dtype=np.int64)
    out = np.zeros((3, 34), dtype=np.float32)
    col_of = np.zeros(34, dtype=np.int64)
    for j in range(34):
        col_of[tile_of_col[j]] = j
    for q in range(rows.shape[0]):
        i = rows[q]
        s = seats[q]
        kong = False
        for b in kong_bases:
            for j in range(34):
                if mask[i, b + j] != 0:
                    kong = True
        total = 0
        for t in range(34):
            cnt[t] = hand[i, s, t]
            total += cnt[t]
        _shanten_one(cnt, 1, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
        if res[2] != 0:
            left[q] = 1
            continue
        if kong:
            chosen = _efficiency_kong(i, cnt, mask, dbase, kong_bases, kong_takes, tile_of_col, col_of, disc, sev,
                                      quad2, orph, eight, wwin, su, hu, keys, W, st, res, spd)
            if chosen != -1:
                if chosen < 0:
                    left[q] = 1
                else:
                    acts[i] = chosen
                continue
            # no kong: the discard below reads the turn's state again
            _shanten_one(cnt, 1, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
        bits = res[3]
        ncand = 0
        first = -1
        for j in range(34):
            if mask[i, dbase + j] != 0 and (bits >> tile_of_col[j]) & 1:
                ncand += 1
                if first < 0:
                    first = j
        if ncand == 0:
            left[q] = 1
            continue
        if ncand == 1:
            acts[i] = dbase + first
            continue
        for t in range(34):
            u = 4 - np.int64(cnt[t]) - vis[i, t] - ckong[i, s, t]
            unseen[t] = u if u > 0 else 0
        # the useful draws of each discard that leaves the lowest shanten, from the state the
        # shanten loop left (the analysis planes' own code: plane 2 of out, by layout column)
        out[2, :] = 0.0
        _best_useful(cnt, total, res[1], disc, spd, keys, W, st, unseen, out, 0, sev, quad2, orph, eight, wwin,
                     su, hu, isu, ihu, cg, cv, cm, cbits, cres)
        fix = res[0] < res[1]
        best_key = np.int64(1) << 40
        best_j = -1
        for j in range(34):
            t = tile_of_col[j]
            if mask[i, dbase + j] != 0 and ((bits >> t) & 1) == 1:
                u = np.int64(np.rint(out[2, j] * 34.0))
                if fix:  # the discarded tile's own copies counted unseen (fast_bots' module doc)
                    a = 5 - np.int64(cnt[t]) - vis[i, t] - ckong[i, s, t]
                    u += (a if a > 0 else 0) - unseen[t]
                key = (1000 - u) * 100 + orphan_key[j]
                if key < best_key:
                    best_key = key
                    best_j = j
        acts[i] = dbase + best_j


def _efficiency_kong(i: int, cnt: np.ndarray, mask: np.ndarray, dbase: int, kong_bases: np.ndarray,
                     kong_takes: np.ndarray, tile_of_col: np.ndarray, col_of: np.ndarray, disc: np.ndarray, sev: int,
                     quad2: int, orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray, keys: np.ndarray,
                     W: np.ndarray, st: np.ndarray, res: np.ndarray, spd: np.ndarray) -> int:
    """:meth:`EfficiencyBot.choose`'s kong rule on row ``i``'s turn hand ``cnt`` (its discards'
    shanten in ``disc``, :func:`_shanten_one` just run on it): the index of the first offered kong,
    by ``kong_bases`` then tile, whose 3k+1 hand has a shanten no worse than the lowest after an
    allowed discard; -1 for none; -2 where the bot's own code must decide (no allowed discard among
    the best, a hand the shanten loop leaves alone). Leaves the scratch arrays (``keys``, ``W``, ``st``) and ``res``
    as the last kong tested left them: the caller runs the shanten loop again before a discard."""
    best = 99
    for j in range(34):
        t = tile_of_col[j]
        if mask[i, dbase + j] != 0 and cnt[t] > 0 and disc[t] < best:
            best = disc[t]
    if best == 99 or best != res[1]:  # disc is exact for the best discards only (_discards): none allowed
        return -2
    for k in range(kong_bases.shape[0]):
        b = kong_bases[k]
        take = kong_takes[k]
        for t in range(34):
            if mask[i, b + col_of[t]] != 0:
                cnt[t] -= take
                _shanten_one(cnt, 0, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
                cnt[t] += take
                if res[2] != 0:
                    return -2
                if res[0] <= best:
                    return b + col_of[t]
    return -1


def _efficiency_claims(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, mask: np.ndarray, claim_tile: np.ndarray,
                       col_of: np.ndarray, ekong_base: int, pung_base: int, chow_idx: np.ndarray, sev: int,
                       quad2: int, orph: int, eight: int, wwin: int, su: np.ndarray, hu: np.ndarray,
                       acts: np.ndarray, left: np.ndarray) -> None:
    """The efficiency bot's claim answer on each row (``EfficiencyBot.choose``): the hand's shanten
    now, then each offered claim in the engine's order (exposed kong: the shanten after it; pung,
    chows by low: the lowest after a discard), the first strictly lower, else pass (0). ``chow_idx``:
    ``[t, j]`` the index of the chow low ``t - 2 + j`` on discard ``t`` (-1: none). ``left[q]`` = 1
    where a hand was left alone (the bot's own code decides)."""
    keys = np.zeros(4, dtype=np.int64)
    W = np.zeros((17, 12), dtype=np.int64)
    st = np.zeros(6, dtype=np.int64)
    res = np.zeros(4, dtype=np.int64)
    cnt = np.zeros(34, dtype=np.int8)
    disc = np.zeros(34, dtype=np.int64)
    spd = np.zeros(34, dtype=np.int64)
    for q in range(rows.shape[0]):
        i = rows[q]
        s = seats[q]
        for t in range(34):
            cnt[t] = hand[i, s, t]
        _shanten_one(cnt, 0, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
        if res[2] != 0:
            left[q] = 1
            continue
        best = res[0]
        choice = 0
        bad = False
        t = claim_tile[i]
        c = col_of[t]
        if mask[i, ekong_base + c]:
            cnt[t] -= 3
            _shanten_one(cnt, 0, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
            cnt[t] += 3
            bad = bad or res[2] != 0
            if res[0] < best:
                best = res[0]
                choice = ekong_base + c
        if mask[i, pung_base + c]:
            cnt[t] -= 2
            _shanten_one(cnt, 1, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
            cnt[t] += 2
            bad = bad or res[2] != 0
            if res[1] < best:
                best = res[1]
                choice = pung_base + c
        for j in range(3):
            idx = chow_idx[t, j]
            if idx < 0 or mask[i, idx] == 0:
                continue
            low = t - 2 + j
            for x in range(low, low + 3):
                if x != t:
                    cnt[x] -= 1
            _shanten_one(cnt, 1, sev, quad2, orph, eight, wwin, su, hu, keys, W, st, res, disc, spd)
            for x in range(low, low + 3):
                if x != t:
                    cnt[x] += 1
            bad = bad or res[2] != 0
            if res[1] < best:
                best = res[1]
                choice = idx
        if bad:
            left[q] = 1
            continue
        acts[i] = choice


def efficiency_claims(hand: np.ndarray, rows: np.ndarray, seats: np.ndarray, mask: np.ndarray, claim_tile: np.ndarray,
                      col_of: np.ndarray, ekong_base: int, pung_base: int, chow_idx: np.ndarray,
                      flags: tuple[int, int, int, int, int], acts: np.ndarray) -> np.ndarray:
    """:func:`_efficiency_claims` (see there); returns the rows (of ``rows``) left to the bot's own code."""
    left = np.zeros(rows.shape[0], dtype=np.uint8)
    su, hu = _Tables.get()
    _efficiency_claims(hand, rows, seats, mask, claim_tile, col_of, ekong_base, pung_base, chow_idx, *flags, su, hu,
                       acts, left)
    return rows[left.view(bool)]


def efficiency_turns(hand: np.ndarray, vis: np.ndarray, ckong: np.ndarray, rows: np.ndarray, seats: np.ndarray,
                     mask: np.ndarray, dbase: int, kong_bases: np.ndarray, kong_takes: np.ndarray,
                     tile_of_col: np.ndarray, orphan_key: np.ndarray, flags: tuple[int, int, int, int, int],
                     acts: np.ndarray) -> np.ndarray:
    """:func:`_efficiency_turns` (the batched learner's efficiency bots; see there); returns the
    rows (of ``rows``) left to the bot's own code."""
    left = np.zeros(rows.shape[0], dtype=np.uint8)
    su, hu = _Tables.get()
    _efficiency_turns(hand, vis, ckong, rows, seats, mask, dbase, kong_bases, kong_takes, tile_of_col, orphan_key,
                      *flags, su, hu, *_Tables.draws(), acts, left)
    return rows[left.view(bool)]


def shanten_rows(counts: np.ndarray, turn: np.ndarray, flags: tuple[int, int, int, int, int]) -> np.ndarray:
    """``(n, 4)``: each hand's shanten as the ``shanten`` plane gives it, the lowest shanten after
    a discard (3k+2 hands where ``turn``; else 99), 1 where the row was left alone (a count
    outside 0-4, more than :data:`MAX_TILES` tiles, 3k tiles), and the bits ``1 << tile`` of the
    discards leaving that lowest shanten (the ``discard_best`` plane's tiles). ``counts``: ``(n, 34)`` without
    wildcards; ``flags``: :func:`shape_flags`."""
    if not available():
        raise MajiangError("the analysis kernel needs numba (pip install 'majiang[rl]')")
    c = np.clip(counts, -1, 5).astype(_I8)
    res = np.zeros((len(c), 4), dtype=np.int64)
    su, hu = _Tables.get()
    _shanten_rows(c, np.ascontiguousarray(turn, dtype=_I8), *flags, su, hu, res)
    return res


def _one(both: np.ndarray, turn: int, out: np.ndarray, s0: int, sev: int, quad2: int, orph: int, eight: int,
         wwin: int, su: np.ndarray, hu: np.ndarray, isu: np.ndarray, ihu: np.ndarray) -> int:
    """:func:`_rows` for one row: ``both`` = its counts and unseen counts ``(2, 34)``, ``out`` its
    ``(C, 34)`` observation."""
    t = np.empty(1, dtype=np.int8)
    t[0] = turn
    skipped = np.zeros(1, dtype=np.uint8)
    return _rows(both[0:1], t, both[1:2], out.reshape((1, out.shape[0], out.shape[1])), s0, sev, quad2, orph, eight,
                 wwin, su, hu, isu, ihu, skipped)


def analyse_one(counts, unseen, turn: bool, out: np.ndarray, first: int,
                flags: tuple[int, int, int, int, int]) -> bool:
    """:func:`analyse_rows` for one observation ``out`` ``(C, 34)`` (C-contiguous float32), its
    counts and unseen counts given as sequences of 34 (our tile order). Returns False if it left
    the row alone (see :func:`analyse_rows`), True once the planes are filled. Lighter on the call
    than :func:`analyse_rows` (the AEC environments' path)."""
    su, hu = _Tables.get()
    both = None
    if type(counts) is list and type(unseen) is list:  # the usual call: one buffer of small ints, no per-item cast
        try:  # a count past 127 reads as negative: the kernel leaves such a row to the Python path
            both = np.frombuffer(bytearray(counts + unseen), dtype=_I8).reshape(2, 34)
        except ValueError:  # a negative count, or not 34 of each: the general conversion below
            both = None
    if both is None:
        both = np.array((counts, unseen), dtype=_I8)
    return _one(both, 1 if turn else 0, out, first, *flags, su, hu, *_Tables.draws()) == 0


def analyse_wild_one(counts, unseen, turn: bool, out: np.ndarray, first: int,
                     flags: tuple[int, int, int, int, int, int, int], wild_face: int | None,
                     white_stands_in: bool) -> bool:
    """The five analysis planes of one observation whose hand may hold wildcards (or whose shapes
    include 不搭), as :meth:`majiang.rl.observations.Encoder._analyse`'s Python path computes them.

    Args:
        counts: the 34 physical concealed counts (our tile order; a copy of the wildcard face is a
            wildcard, a White plays ``wild_face`` when ``white_stands_in``, as
            :func:`majiang.analysis.wildcards.split_counts` reads them).
        unseen: the 34 unseen counts of the physical tiles.
        turn: whether the seat is on its turn (``discard_best`` and ``discard_useful`` only then).
        out: the ``(C, 34)`` C-contiguous float32 observation, zero on the planes
            ``first + 1 .. first + 4``; the ``shanten`` plane (``first``) is written whole.
        first: the ``shanten`` plane's index.
        flags: :func:`wild_flags` of the analysis shapes.
        wild_face: the wildcard face (0-33), or None.
        white_stands_in: the rule set's White stand-in (白板代).

    Returns False if it left the row alone (a count outside 0-4, more than :data:`MAX_TILES`
    tiles; the caller's Python path then reports it), True once the planes are filled.
    """
    if not available():
        raise MajiangError("the analysis kernel needs numba (pip install 'majiang[rl]')")
    su, hu = _Tables.get()
    nf = _Tables.free()
    both = None
    if type(counts) is list and type(unseen) is list:
        try:
            both = np.frombuffer(bytearray(counts + unseen), dtype=_I8).reshape(2, 34)
        except ValueError:
            both = None
    if both is None:
        both = np.array((counts, unseen), dtype=_I8)
    wf = -1 if wild_face is None else int(wild_face)
    return _wild(both[0], both[1], 1 if turn else 0, out, first, wf, 1 if white_stands_in else 0, *flags,
                 su, hu, nf) == 0


__all__ = ["MAX_TILES", "available", "analyse_one", "analyse_rows", "analyse_wild_one", "wild_flags", "shape_flags",
           "table_planes", "thermo_rows", "used_vector", "TABLE_PLANES"]
