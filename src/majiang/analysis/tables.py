"""Per-suit lookup tables: the fast path of the win check, waits and shanten.

A hand's 34 counts split into four independent groups: the three suits (9 faces each, where
chows may form) and the honours (7 faces, pungs and pairs only). For one group the tables give:

* :func:`suit_need` / :func:`honor_need`: ``(need0, need1)``, the fewest wildcards that turn the
  group's tiles into sets only (``need0``) or sets plus exactly one pair (``need1``); every natural
  tile must be used. ``cap=True`` forbids a wildcard standing for a fifth copy of a face
  (a face is used at most 4 times in the decomposition); ``cap=False`` allows it.
* :func:`suit_used` / :func:`honor_used`: for the shanten, a tuple ``U`` of 12 numbers where
  ``U[2*m + p]`` is the most natural tiles of the group that ``m`` sets (m = 0..5) plus ``p`` pairs
  (0 or 1) can cover, each face used at most 4 times. Sets with no natural tile are left out
  (the caller adds them freely).

Tables are built lazily: a group's entry is computed the first time its counts are seen and kept
in a dict for the life of the process (the key is the tuple of counts). A suit is split into
blocks separated by two or more empty faces (no chow spans such a gap), and blocks have their own
cache, so a new suit key costs a few dict look-ups, and a new block a small dynamic programme over
its faces (on precomputed move tables; a block and its mirror image share the entry). Nothing is
precomputed at import: the first call costs microseconds. :func:`build_blocks` builds every block
up to a size eagerly, for a process that can spend a moment first (a bot's warm-up).

WLOG rules used by the dynamic programme (they keep it small and exact): three identical chows
use the same faces as three pungs of their tiles, so at most two identical chows start at one face;
two pungs of one face never beat a pung plus wildcards elsewhere unless fifth copies are allowed.
"""

from __future__ import annotations

import threading
from itertools import islice

from majiang.errors import TileCountError

INF = 99
"""Stands for 'impossible' in need tables."""



class LazyTable(dict):
    """A dict that builds a missing entry with ``build(key)`` and keeps it; when it holds ``cap``
    entries (None: no limit) its older half is dropped.

    Readers index it directly (``table[key]``): a hit costs one dict look-up, and a first sight
    builds the entry (raising :class:`TileCountError` for a key with a count outside 0-4). The
    tables keyed by a whole suit's counts have a cap: the suits a long-running process meets keep
    coming for hours (docs/server.md, "Bounded resources"), and a bounded table keeps its memory
    bounded; the small tables below them (blocks, interned vectors) keep everything.
    """

    __slots__ = ("build", "cap")

    def __init__(self, build, cap: int | None = None) -> None:  # noqa: ANN001 - a function of the key
        super().__init__()
        self.build = build
        self.cap = cap

    def __missing__(self, key):  # noqa: ANN001, ANN204
        value = self.build(key)
        if self.cap is not None and len(self) >= self.cap:
            # drop the older half (a dict keeps its insertion order): the recent entries, the ones
            # the hands in play still use, stay (pop: another thread may be dropping them too)
            for k in list(islice(self, len(self) // 2)):
                self.pop(k, None)
        self[key] = value
        return value


SUIT_CAP = 65_536
"""Entries each table keyed by one suit's counts holds before its older half is dropped (0.2-0.4
KiB an entry, so some 20 MiB for :data:`SUIT_INFO`, less for the others; a benchmark's 20,000
ready hands use about 33,000 in :data:`NEED_CAP`, a 120-match self-play 39,000 in :data:`USED`).
:func:`limit_tables` sets another bound (a table server uses 16,384)."""


NEED_CAP = LazyTable(lambda c: _suit_need(c, True), cap=SUIT_CAP)
"""Suit key (9 counts) → (need0, need1) with at most four uses of a face."""
NEED_FREE = LazyTable(lambda c: _suit_need(c, False), cap=SUIT_CAP)
"""Suit key → (need0, need1) where a wildcard may be a fifth copy."""
HONOR_NEED_CAP = LazyTable(lambda c: _honor_need(c, True))
"""Honour key (7 counts) → (need0, need1), at most four uses of a face."""
HONOR_NEED_FREE = LazyTable(lambda c: _honor_need(c, False))
USED = LazyTable(lambda c: _suit_used(c), cap=SUIT_CAP)
"""Suit key → id of its trimmed used-vectors (see :func:`suit_used`; ids index :data:`VECTORS`)."""
HONOR_USED = LazyTable(lambda c: _honor_used(c))
VECTORS: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
"""Interned used-vectors; id 0 is unused so that every id is truthy."""
_VECTOR_ID: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
COMBINED = LazyTable(lambda ij: intern(combine_used(VECTORS[ij[0]], VECTORS[ij[1]])))
"""(id, id) → id of the combined used-vectors: few distinct vectors exist, so this stays small."""
BEST = LazyTable(lambda ijn: best_used(VECTORS[ijn[0]], VECTORS[ijn[1]], ijn[2]))
"""(id, id, n) → most naturals covered by n sets and one pair."""
ADDS_CAP = LazyTable(lambda c: _adds(c, True), cap=SUIT_CAP)
"""Group key → for each face, (need0, need1) of the group with one more tile of that face (waits)."""
ADDS_FREE = LazyTable(lambda c: _adds(c, False), cap=SUIT_CAP)
_BLOCK_NEED: dict[tuple[bool, tuple[int, ...]], tuple[int, int]] = {}
_BLOCK_USED: dict[tuple[int, ...], tuple[int, ...]] = {}
_BLOCK_ID: dict[tuple[int, ...], int] = {}
"""Block → id of its used-vectors as a suit of that one block (a suit's id folds its blocks' ids)."""


def _validate(c: tuple[int, ...], width: int) -> None:
    if len(c) != width:
        raise TileCountError(f"a group has {width} counts, got {len(c)}", kind="size", count=len(c))
    for n in c:
        if not isinstance(n, int) or n < 0 or n > 4:
            raise TileCountError(f"a tile count must be 0-4, got {n!r}", kind="fifth-copy" if isinstance(n, int)
                                 and n > 4 else "size", count=n if isinstance(n, int) else None)

MAX_SETS = 5
_ULEN = 2 * (MAX_SETS + 1)
_NEG = -100


def blocks(c: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Split suit counts into blocks of faces separated by two or more empty faces (trimmed)."""
    out: list[tuple[int, ...]] = []
    start = -1
    zeros = 0
    for i, n in enumerate(c):
        if n:
            if start < 0:
                start = i
            zeros = 0
            last = i
        else:
            zeros += 1
            if start >= 0 and zeros == 2:
                out.append(tuple(c[start:last + 1]))
                start = -1
    if start >= 0:
        out.append(tuple(c[start:last + 1]))
    return out


# The block dynamic programmes walk the faces of ``(0, 0) + block + (0, 0)`` (chows may reach two
# faces past either end, wild-filled) with a state of: chows started two faces back (a, 0-2), one
# face back (b, 0-2), whether the pair is placed (p) and, for the used-vectors, the sets so far (m).
# A state is one small int, ``s = (a*3 + b)*2 + p`` (and ``j = 6*s + m``); the moves at a face with
# ``ci`` tiles are precomputed once per (ci, chows may start here, ...) as tuples of (next state,
# cost or gain), so a block costs a few dict updates per reachable state and face.


def _need_moves(ci: int, chow: bool, cap: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    key = (ci, chow, cap)
    r = _NEED_MOVES.get(key)
    if r is None:
        maxu = 4 if cap else 99
        tmax = 1 if cap else 2
        out = []
        for a in range(3):
            for bb in range(3):
                for p in range(2):
                    moves = []
                    for k in range(3 if chow else 1):
                        for t in range(tmax + 1):
                            for q in ((0, 1) if p == 0 else (0,)):
                                u = a + bb + k + 3 * t + 2 * q
                                if ci <= u <= maxu:
                                    moves.append(((bb * 3 + k) * 2 + (p | q), u - ci))
                    out.append(tuple(moves))
        r = _NEED_MOVES[key] = tuple(out)
    return r


_NEED_MOVES: dict[tuple[int, bool, bool], tuple[tuple[tuple[int, int], ...], ...]] = {}


def _block_need(b: tuple[int, ...], cap: bool) -> tuple[int, int]:
    """Fewest wildcards for one block (no natural tile may be left out)."""
    key = (cap, b)
    r = _BLOCK_NEED.get(key)
    if r is not None:
        return r
    # Chows may extend two faces to either side of the block (wild-filled); pad with zeros.
    faces = (0, 0) + b + (0, 0)
    last = len(faces) - 3
    cur: dict[int, int] = {0: 0}
    for i, ci in enumerate(faces):
        moves = _need_moves(ci, i <= last, cap)
        nxt: dict[int, int] = {}
        get = nxt.get
        for s, w in cur.items():
            for s2, cost in moves[s]:
                nw = w + cost
                if nw < get(s2, INF):
                    nxt[s2] = nw
        cur = nxt
    r = (cur.get(0, INF), cur.get(1, INF))
    _BLOCK_NEED[key] = r
    return r


def suit_need(c: tuple[int, ...], cap: bool = True, formal: bool = False) -> tuple[int, int]:
    """``(need0, need1)`` for the 9 counts of one suit; :data:`INF` where impossible.

    Raises :class:`TileCountError` for a count outside 0-4 (``formal=True`` admits a 5, a fifth
    copy in form only, for exhausted waits; such keys are not kept).
    """
    if formal:
        return _suit_need(c, False, True)
    return (NEED_CAP if cap else NEED_FREE)[c]


def _suit_need(c: tuple[int, ...], cap: bool, formal: bool = False) -> tuple[int, int]:
    if not formal:
        _validate(c, 9)
    n0 = 0
    delta = INF
    for b in blocks(c):
        x0, x1 = _block_need(b, cap)
        n0 += x0
        if x1 - x0 < delta:
            delta = x1 - x0
    n0 = min(n0, INF)
    return (n0, min(n0 + delta, INF))


def _face_need(n: int, cap: bool) -> tuple[int, int]:
    """(need0, need1) for a single honour face holding n tiles (pungs and a pair only)."""
    if n == 0:
        return (0, 2)
    if n == 1:
        return (2, 1)
    if n == 2:
        return (1, 0)
    if n == 3:
        return (0, INF if cap else 2)
    if n == 4:
        return (INF, INF) if cap else (2, 1)
    if n == 5 and not cap:  # a fifth copy in form only (exhausted waits)
        return (1, 0)
    return (INF, INF)


def honor_need(c: tuple[int, ...], cap: bool = True, formal: bool = False) -> tuple[int, int]:
    """``(need0, need1)`` for the 7 honour counts (no chows among honours); see :func:`suit_need`."""
    if formal:
        return _honor_need(c, False, True)
    return (HONOR_NEED_CAP if cap else HONOR_NEED_FREE)[c]


def _honor_need(c: tuple[int, ...], cap: bool, formal: bool = False) -> tuple[int, int]:
    if not formal:
        _validate(c, 7)
    n0 = 0
    delta = INF
    for n in c:
        x0, x1 = _face_need(n, cap)
        n0 += x0
        if n and x1 - x0 < delta:
            delta = x1 - x0
    n0 = min(n0, INF)
    return (n0, min(n0 + delta, INF))


def group_adds(c: tuple[int, ...], cap: bool) -> tuple[tuple[int, int], ...]:
    """For each face of a group (9 suit or 7 honour counts), the needs after adding one tile of it.

    A face already held four times gets its fifth copy in form only (see :func:`suit_need`).
    """
    return (ADDS_CAP if cap else ADDS_FREE)[c]


def _adds(c: tuple[int, ...], cap: bool) -> tuple[tuple[int, int], ...]:
    honors = len(c) == 7
    need = honor_need if honors else suit_need
    _validate(c, 7 if honors else 9)
    out = []
    key = list(c)
    for i, n in enumerate(c):
        key[i] = n + 1
        out.append(need(tuple(key), cap) if n < 4 else need(tuple(key), False, formal=True))
        key[i] = n
    return tuple(out)


def _used_moves(ci: int, chow: bool, mmax: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each state ``j = 6*s + m`` the moves (next j, naturals covered at this face) of the used-DP.

    A pung or a pair on an empty face covers nothing: it is left out (the monotone closure in
    :func:`_used_finish` gives the same entries), as are states with more than ``mmax`` sets."""
    key = (ci, chow, mmax)
    r = _USED_MOVES.get(key)
    if r is None:
        base = _USED_BASE.get((ci, chow))
        if base is None:
            base = []
            for s in range(18):
                a, bb, p = s // 6, (s // 2) % 3, s & 1
                moves = []
                for k in range(3 if chow else 1):
                    for t in (0, 1):
                        for q in ((0, 1) if p == 0 else (0,)):
                            if ci == 0 and (t or q):
                                continue
                            u = a + bb + k + 3 * t + 2 * q
                            if u <= 4:
                                moves.append((6 * ((bb * 3 + k) * 2 + (p | q)), k + t, u if u < ci else ci))
                base.append(moves)
            _USED_BASE[(ci, chow)] = base
        r = _USED_MOVES[key] = tuple(tuple((d + m + dm, g) for d, dm, g in base[s] if m + dm <= mmax)
                                     for s in range(18) for m in range(MAX_SETS + 1))
    return r


_USED_BASE: dict[tuple[int, bool], list[list[tuple[int, int, int]]]] = {}
_USED_MOVES: dict[tuple[int, bool, int], tuple[tuple[tuple[int, int], ...], ...]] = {}


def _used_step(cur: dict[int, int], moves: tuple[tuple[tuple[int, int], ...], ...]) -> dict[int, int]:
    nxt: dict[int, int] = {}
    get = nxt.get
    for j, used in cur.items():
        for j2, g in moves[j]:
            v = used + g
            if v > get(j2, -1):
                nxt[j2] = v
    return nxt


def _used_finish(cur: dict[int, int]) -> tuple[int, ...]:
    """The used-vector from the states after the last face: no chow left open, then the monotone
    closure (more sets or a pair never cover fewer tiles: the extras may be wild-only)."""
    out = [_NEG] * _ULEN
    for j, used in cur.items():
        if j < 12:  # a = b = 0
            i = 2 * (j % 6) + j // 6
            if used > out[i]:
                out[i] = used
    for p in (0, 1):
        for m in range(1, MAX_SETS + 1):
            if out[2 * (m - 1) + p] > out[2 * m + p]:
                out[2 * m + p] = out[2 * (m - 1) + p]
    for m in range(MAX_SETS + 1):
        if out[2 * m] > out[2 * m + 1]:
            out[2 * m + 1] = out[2 * m]
    return tuple(out)


def _block_used(b: tuple[int, ...]) -> tuple[int, ...]:
    """Most naturals of one block covered by m sets + p pairs (each set using at least one natural).

    A block and its mirror image have the same vector (chows, pungs and pairs are symmetric)."""
    r = _BLOCK_USED.get(b)
    if r is not None:
        return r
    r = _BLOCK_USED.get(b[::-1])
    if r is None:
        faces = (0, 0) + b + (0, 0)
        last = len(faces) - 3
        # more sets than naturals add nothing the closure does not give
        mmax = min(MAX_SETS, sum(b))
        cur: dict[int, int] = {0: 0}
        for i, ci in enumerate(faces):
            cur = _used_step(cur, _used_moves(ci, i <= last, mmax))
        r = _used_finish(cur)
    _BLOCK_USED[b] = r
    return r


def build_blocks(max_tiles: int = 7, deadline: float | None = None) -> int:
    """Build the used-vectors of every suit block of at most ``max_tiles`` tiles now (eagerly).

    Blocks are walked as a tree of prefixes, so each costs one step of the dynamic programme
    beyond its parent's. ``deadline``: a :func:`time.perf_counter` value at which to stop early.
    Returns the number of blocks in the table. With ``max_tiles=7`` (982 blocks, about 0.1 s)
    nearly every block of a 13/14-tile hand is covered."""
    import time

    clock = time.perf_counter
    first = _used_step(_used_step({0: 0}, _used_moves(0, True, MAX_SETS)), _used_moves(0, True, MAX_SETS))
    end0 = _used_moves(0, False, MAX_SETS)
    steps = [_used_moves(ci, True, MAX_SETS) for ci in range(5)]
    stack: list[tuple[tuple[int, ...], dict[int, int], int]] = [((), first, 0)]
    n = 0
    while stack:
        pre, cur, total = stack.pop()
        if deadline is not None and (n & 31) == 0 and clock() > deadline:
            break
        n += 1
        if len(pre) == 9:
            continue
        for ci in range(5):
            if total + ci > max_tiles:
                break
            if ci == 0 and (not pre or pre[-1] == 0):
                continue
            b = pre + (ci,)
            nxt = _used_step(cur, steps[ci])
            if ci and b not in _BLOCK_USED:
                _BLOCK_USED[b] = _used_finish(_used_step(_used_step(nxt, end0), end0))
            stack.append((b, nxt, total + ci))
    return len(_BLOCK_USED)


def _trim(v: list[int]) -> tuple[int, ...]:
    """Drop trailing entries equal to their predecessor (a monotone vector stays at its last value)."""
    n = len(v)
    while n > 1 and v[n - 1] == v[n - 2]:
        n -= 1
    return tuple(v[:n])


def _maxplus(x: tuple[int, ...], y: tuple[int, ...]) -> list[int]:
    lx, ly = len(x), len(y)
    out = [_NEG] * min(lx + ly - 1, MAX_SETS + 1)
    lim = len(out)
    for i in range(lx):
        xi = x[i]
        for j in range(min(ly, lim - i)):
            v = xi + y[j]
            if v > out[i + j]:
                out[i + j] = v
    return out


def _vmax(a: list[int], b: list[int]) -> list[int]:
    if len(a) < len(b):
        a, b = b, a
    last = b[-1]
    return [x if x > (b[i] if i < len(b) else last) else (b[i] if i < len(b) else last) for i, x in enumerate(a)]


def combine_used(x: tuple[tuple[int, ...], tuple[int, ...]],
                 y: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Max-plus combination of two groups' trimmed used-vectors (at most one pair in all)."""
    x0, x1 = x
    y0, y1 = y
    c0 = _maxplus(x0, y0)
    c1 = _vmax(_vmax(_maxplus(x1, y0), _maxplus(x0, y1)), c0)
    return _trim(c0), _trim(c1)


def best_used(x: tuple[tuple[int, ...], tuple[int, ...]], y: tuple[tuple[int, ...], tuple[int, ...]], n: int) -> int:
    """Most naturals covered by n sets and one pair (either may be partly missing) over two combined parts."""
    x0, x1 = x
    y0, y1 = y
    lx0, lx1, ly0, ly1 = len(x0) - 1, len(x1) - 1, len(y0) - 1, len(y1) - 1
    best = 0
    for i in range(n + 1):
        j = n - i
        v = x1[i if i < lx1 else lx1] + y0[j if j < ly0 else ly0]
        if v > best:
            best = v
        v = x0[i if i < lx0 else lx0] + y1[j if j < ly1 else ly1]
        if v > best:
            best = v
    return best


_EMPTY_USED = ((0,), (0,))
_INTERN_LOCK = threading.Lock()


def intern(v: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
    """The id of a used-vector pair (adding it to :data:`VECTORS` if new). Thread-safe: the web
    server thinks for bots on worker threads, and two threads must not hand out the same id."""
    i = _VECTOR_ID.get(v)
    if i is None:
        with _INTERN_LOCK:
            i = _VECTOR_ID.get(v)
            if i is None:
                i = len(VECTORS)
                VECTORS.append(v)
                _VECTOR_ID[v] = i
    return i


def combine_ids(i: int, j: int) -> int:
    """Id of the combination of two interned used-vectors (cached in :data:`COMBINED`)."""
    return COMBINED[(i, j)]


def best_ids(i: int, j: int, n: int) -> int:
    """:func:`best_used` over interned vectors (cached in :data:`BEST`)."""
    return BEST[(i, j, n)]


def _split(full: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return _trim([full[2 * m] for m in range(MAX_SETS + 1)]), _trim([full[2 * m + 1] for m in range(MAX_SETS + 1)])


def suit_used(c: tuple[int, ...]) -> int:
    """Id of the trimmed used-vectors ``(u0, u1)`` of one suit: ``u_p[m]`` = most naturals that m sets and
    p pairs cover (index past the end = the last value). Raises :class:`TileCountError` for a count
    outside 0-4."""
    return USED[c]


def _suit_used(c: tuple[int, ...]) -> int:
    _validate(c, 9)
    v = 0
    for b in blocks(c):
        i = _BLOCK_ID.get(b)
        if i is None:
            i = _BLOCK_ID[b] = intern(combine_used(_EMPTY_USED, _split(_block_used(b))))
        v = COMBINED[(v, i)] if v else i
    return v or intern(_EMPTY_USED)


def honor_used(c: tuple[int, ...]) -> int:
    """Id of the trimmed used-vectors for the 7 honour counts: pungs and a pair on distinct faces."""
    return HONOR_USED[c]


def _honor_used(c: tuple[int, ...]) -> int:
    _validate(c, 7)
    v = _EMPTY_USED
    for n in c:
        if n:
            # one face: nothing, a pung (covers min(n,3)) or a pair (covers min(n,2)), never both
            v = combine_used(v, ((0, min(n, 3)), (min(n, 2), min(n, 3))))
    return intern(v)


SUIT_INFO = LazyTable(lambda c: _suit_info(c), cap=SUIT_CAP)
"""Suit key → (used id, knitted 147/258/369 faces present (3 numbers), terminals present, terminal held
twice or more, pairs with quads as two, odd leftovers, pairs without, singles, knit code, the used id
left once the knitted faces of class 147 / 258 / 369 are taken out (3 numbers), and the pair and
terminal counts and the suit's size packed (:func:`_packed`)): what the shanten needs."""
HONOR_INFO = LazyTable(lambda c: _honor_info(c))
"""Honour key → (used id, faces present, a face held twice or more, pairs with quads as two, odd leftovers,
pairs without, singles, those counts and the size packed (:func:`_packed`))."""


def _pair_stats(c: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (sum(n // 2 for n in c), sum(n & 1 for n in c), sum(1 for n in c if n >= 2), sum(1 for n in c if n == 1))


def suit_info(c: tuple[int, ...]) -> tuple[int, ...]:
    """The :data:`SUIT_INFO` record of one suit (built on first sight)."""
    return SUIT_INFO[c]


def _suit_info(c: tuple[int, ...]) -> tuple[int, ...]:
    uid = USED[c]
    knit = tuple(sum(1 for x in (j, j + 3, j + 6) if c[x]) for j in range(3))
    rest = []  # the used id of the suit once one of each knitted face of a class is taken out
    for j in range(3):
        r = list(c)
        for x in (j, j + 3, j + 6):
            if r[x]:
                r[x] -= 1
        rest.append(USED[tuple(r)])
    term, term2, stats = (c[0] > 0) + (c[8] > 0), int(c[0] >= 2 or c[8] >= 2), _pair_stats(c)
    return (uid, *knit, term, term2, *stats, 16 * knit[0] + 4 * knit[1] + knit[2], *rest,
            _packed(*stats, term, term2, sum(c)))


def _knit_pair(key: tuple[int, int]) -> tuple[int, int, int]:
    ka, kb = key
    a = (ka >> 4, (ka >> 2) & 3, ka & 3)
    b = (kb >> 4, (kb >> 2) & 3, kb & 3)
    return tuple(max(a[i] + b[j] for i in range(3) for j in range(3) if len({i, j, r}) == 3)  # type: ignore[return-value]
                 for r in range(3))


WIN_SUIT: dict[bytes, int] = {}
"""Suit key (the group's 9 counts as bytes) → the win check's record of the group: its code (1 if
its tiles form sets only, 3 if sets and one pair, 100 if neither; no wildcards, at most four of a
face) plus its number of tiles times 1,024. Four groups' records add up field by field: the codes
to 6 exactly when the hand is a standard win (three groups of sets, one with the pair), the sizes
to the hand's size. A plain dict keyed by bytes, not a :class:`LazyTable`, so that the win check's
look-ups take the interpreter's fast path for an exact dict and hash a short byte string; a
missing key raises ``KeyError`` and :func:`fill_win_codes` adds it."""
WIN_HONOR: dict[bytes, int] = {}
"""Honour key (7 counts as bytes) → the same record as :data:`WIN_SUIT`."""
WIN_SIZE = 1024
"""The size field's unit in a :data:`WIN_SUIT` record (codes add up to at most 400 below it)."""


def _win_code(need: tuple[int, int]) -> int:
    return 1 if need[0] == 0 else 3 if need[1] == 0 else 100


def fill_win_codes(counts) -> int:  # noqa: ANN001 - a count vector of 34
    """Add the four groups of ``counts`` to :data:`WIN_SUIT` / :data:`WIN_HONOR` and return their
    records' sum (raises :class:`TileCountError` for a count outside 0-4, as the need tables do)."""
    if len(WIN_SUIT) >= NEED_CAP.cap:
        WIN_SUIT.clear()
    total = 0
    for s, table, need in ((0, WIN_SUIT, NEED_CAP), (9, WIN_SUIT, NEED_CAP), (18, WIN_SUIT, NEED_CAP),
                           (27, WIN_HONOR, HONOR_NEED_CAP)):
        k = tuple(counts[s:s + 9 if s < 27 else 34])
        r = _win_code(need[k]) + WIN_SIZE * int(sum(k))
        try:
            table[bytes(k)] = r
        except TypeError:  # counts that are not integers (1.0): answered, not kept
            pass
        total += r
    return total


KNIT_PAIR = LazyTable(_knit_pair)
"""(knit code of characters, of dots) → for each class (147, 258, 369) the bamboo take, the most
knitted faces the other two suits give in the other two classes (a knit code is the last field of a
:data:`SUIT_INFO` record, 16·147 + 4·258 + 369 faces present; at most 64 × 64 entries)."""


def honor_info(c: tuple[int, ...]) -> tuple[int, ...]:
    """The :data:`HONOR_INFO` record of the honours (built on first sight)."""
    return HONOR_INFO[c]


def _honor_info(c: tuple[int, ...]) -> tuple[int, ...]:
    uid = HONOR_USED[c]
    faces, twice, stats = 7 - c.count(0), int(max(c) >= 2), _pair_stats(c)
    return (uid, faces, twice, *stats, _packed(*stats, faces, twice, sum(c)))


def _packed(pairs: int, odd: int, pairs_n: int, singles: int, orphans: int, orphan_pair: int,
            size: int) -> int:
    """The seven-pairs and thirteen-orphans counts of a group in one int, five bits each, and the
    group's number of tiles from bit 30 up, so that the four groups' records add up field by field
    (each five-bit sum stays below 32 for a hand of 14 tiles or fewer; the size field is unbounded);
    the shanten reads them with shifts."""
    return pairs | odd << 5 | pairs_n << 10 | singles << 15 | orphans << 20 | orphan_pair << 25 | size << 30


def limit_tables(entries: int) -> None:
    """Bound every table keyed by one suit's counts (and the win check's codes) at ``entries``
    (at least 1,024; :data:`SUIT_CAP` by default). A long-running process that meets new hands all
    evening (a table server's bots) keeps its memory flat with a lower bound, at a few per cent of
    the bots' time once full (docs/server.md, "Bounded resources")."""
    if entries < 1024:
        raise ValueError(f"a table bound of {entries} entries is below 1,024")
    for t in (NEED_CAP, NEED_FREE, USED, ADDS_CAP, ADDS_FREE, SUIT_INFO):
        t.cap = entries


def clear_caches() -> None:
    """Empty every table (for benchmarks that measure cold starts)."""
    for d in (NEED_CAP, NEED_FREE, HONOR_NEED_CAP, HONOR_NEED_FREE, USED, HONOR_USED, _BLOCK_NEED, _BLOCK_USED,
              ADDS_CAP, ADDS_FREE, SUIT_INFO, HONOR_INFO, KNIT_PAIR, _BLOCK_ID,
              COMBINED, BEST, _VECTOR_ID, WIN_SUIT, WIN_HONOR):
        d.clear()
    del VECTORS[1:]
