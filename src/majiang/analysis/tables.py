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
its faces. Nothing is precomputed at import: the first call costs microseconds.

WLOG rules used by the dynamic programme (they keep it small and exact): three identical chows
use the same faces as three pungs of their tiles, so at most two identical chows start at one face;
two pungs of one face never beat a pung plus wildcards elsewhere unless fifth copies are allowed.
"""

from __future__ import annotations

INF = 99
"""Stands for 'impossible' in need tables."""

_NEED_CACHE: dict[tuple[bool, tuple[int, ...]], tuple[int, int]] = {}
_BLOCK_NEED: dict[tuple[bool, tuple[int, ...]], tuple[int, int]] = {}
_USED_CACHE: dict[tuple[int, ...], tuple[int, ...]] = {}
_BLOCK_USED: dict[tuple[int, ...], tuple[int, ...]] = {}
_HONOR_NEED: dict[tuple[bool, tuple[int, ...]], tuple[int, int]] = {}
_HONOR_USED: dict[tuple[int, ...], tuple[int, ...]] = {}

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


def _block_need(b: tuple[int, ...], cap: bool) -> tuple[int, int]:
    """Fewest wildcards for one block (no natural tile may be left out)."""
    key = (cap, b)
    r = _BLOCK_NEED.get(key)
    if r is not None:
        return r
    maxu = 4 if cap else 99
    tmax = 1 if cap else 2
    # Chows may extend two faces to either side of the block (wild-filled); pad with zeros.
    faces = (0, 0) + b + (0, 0)
    n = len(faces)
    cur: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for i in range(n):
        ci = faces[i]
        nxt: dict[tuple[int, int, int], int] = {}
        kmax = 2 if i <= n - 3 else 0
        for (a, bb, p), w in cur.items():
            base = a + bb
            for k in range(kmax + 1):
                for t in range(tmax + 1):
                    for q in ((0, 1) if p == 0 else (0,)):
                        u = base + k + 3 * t + 2 * q
                        if u < ci or u > maxu:
                            continue
                        st = (bb, k, p | q)
                        nw = w + u - ci
                        if nw < nxt.get(st, INF):
                            nxt[st] = nw
        cur = nxt
    r = (cur.get((0, 0, 0), INF), cur.get((0, 0, 1), INF))
    _BLOCK_NEED[key] = r
    return r


def suit_need(c: tuple[int, ...], cap: bool = True) -> tuple[int, int]:
    """``(need0, need1)`` for the 9 counts of one suit; :data:`INF` where impossible."""
    key = (cap, c)
    r = _NEED_CACHE.get(key)
    if r is not None:
        return r
    n0 = 0
    delta = INF
    for b in blocks(c):
        x0, x1 = _block_need(b, cap)
        n0 += x0
        if x1 - x0 < delta:
            delta = x1 - x0
    n0 = min(n0, INF)
    r = (n0, min(n0 + delta, INF))
    _NEED_CACHE[key] = r
    return r


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
    return (INF, INF)


def honor_need(c: tuple[int, ...], cap: bool = True) -> tuple[int, int]:
    """``(need0, need1)`` for the 7 honour counts (no chows among honours)."""
    key = (cap, c)
    r = _HONOR_NEED.get(key)
    if r is not None:
        return r
    n0 = 0
    delta = INF
    for n in c:
        x0, x1 = _face_need(n, cap)
        n0 += x0
        if n and x1 - x0 < delta:
            delta = x1 - x0
    n0 = min(n0, INF)
    r = (n0, min(n0 + delta, INF))
    _HONOR_NEED[key] = r
    return r


def _block_used(b: tuple[int, ...]) -> tuple[int, ...]:
    """Most naturals of one block covered by m sets + p pairs (each set using at least one natural)."""
    r = _BLOCK_USED.get(b)
    if r is not None:
        return r
    faces = (0, 0) + b + (0, 0)
    n = len(faces)
    # state (a, b, p, m) -> max used
    cur: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for i in range(n):
        ci = faces[i]
        nxt: dict[tuple[int, int, int, int], int] = {}
        kmax = 2 if i <= n - 3 else 0
        for (a, bb, p, m), used in cur.items():
            base = a + bb
            for k in range(kmax + 1):
                if m + k > MAX_SETS:
                    break
                for t in (0, 1):
                    mt = m + k + t
                    if mt > MAX_SETS:
                        break
                    for q in ((0, 1) if p == 0 else (0,)):
                        u = base + k + 3 * t + 2 * q
                        if u > 4:
                            continue
                        st = (bb, k, p | q, mt)
                        nu = used + (u if u < ci else ci)
                        if nu > nxt.get(st, -1):
                            nxt[st] = nu
        cur = nxt
    out = [_NEG] * _ULEN
    for (a, bb, p, m), used in cur.items():
        if a == 0 and bb == 0 and used > out[2 * m + p]:
            out[2 * m + p] = used
    # monotone: more sets never cover fewer tiles once the extras may be wild-only sets elsewhere
    for p in (0, 1):
        for m in range(1, MAX_SETS + 1):
            if out[2 * (m - 1) + p] > out[2 * m + p]:
                out[2 * m + p] = out[2 * (m - 1) + p]
    for m in range(MAX_SETS + 1):
        if out[2 * m] > out[2 * m + 1]:
            out[2 * m + 1] = out[2 * m]
    r = tuple(out)
    _BLOCK_USED[b] = r
    return r


def combine_used(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus combination of two used-vectors (at most one pair in all)."""
    out = [_NEG] * _ULEN
    for m1 in range(MAX_SETS + 1):
        x0 = x[2 * m1]
        x1 = x[2 * m1 + 1]
        for m2 in range(MAX_SETS + 1 - m1):
            y0 = y[2 * m2]
            y1 = y[2 * m2 + 1]
            j = 2 * (m1 + m2)
            v = x0 + y0
            if v > out[j]:
                out[j] = v
            v = x1 + y0 if x1 + y0 > x0 + y1 else x0 + y1
            if v > out[j + 1]:
                out[j + 1] = v
    return tuple(out)


def suit_used(c: tuple[int, ...]) -> tuple[int, ...]:
    """Used-vector (see module doc) for the 9 counts of one suit."""
    r = _USED_CACHE.get(c)
    if r is not None:
        return r
    r = (0,) * _ULEN
    for b in blocks(c):
        r = combine_used(r, _block_used(b))
    _USED_CACHE[c] = r
    return r


def honor_used(c: tuple[int, ...]) -> tuple[int, ...]:
    """Used-vector for the 7 honour counts: pungs and a pair on distinct faces."""
    r = _HONOR_USED.get(c)
    if r is not None:
        return r
    r = (0,) * _ULEN
    for n in c:
        if n:
            # one face: nothing, a pung (covers min(n,3)) or a pair (covers min(n,2))
            face = [_NEG] * _ULEN
            face[0] = 0
            face[1] = min(n, 2)
            face[2] = min(n, 3)
            face[3] = face[2]  # a face cannot hold both a pung and the pair within 4 copies
            for m in range(2, MAX_SETS + 1):
                face[2 * m] = face[2]
                face[2 * m + 1] = face[3]
            r = combine_used(r, tuple(face))
    _HONOR_USED[c] = r
    return r


def clear_caches() -> None:
    """Empty every table (for benchmarks that measure cold starts)."""
    for d in (_NEED_CACHE, _BLOCK_NEED, _USED_CACHE, _BLOCK_USED, _HONOR_NEED, _HONOR_USED):
        d.clear()
