"""Fast paths of the MCR scorer (:mod:`majiang.rules.mcr.scoring`), same results as the plain ones.

The plain procedure (:func:`majiang.analysis.decompositions`, the detectors of
:mod:`majiang.rules.mcr.fans` yielding ``Hit`` objects, :func:`~majiang.rules.mcr.fans.select`,
:func:`majiang.analysis.waits`) stays the definition; ``scoring._plain_arrangements`` runs it, for
tests. The scorer computes the same thing with less Python work:

* :func:`suit_info`: per suit part (a count vector, kept lazily, shared by all hands) its splits
  into sets and at most one pair, each with a summary (:func:`_split_summary`: chows, pungs, pair,
  flags, and per tile the wait it gives and whether a pung it completes on a discard is melded), so
  a standard arrangement is one choice of a split per suit; :func:`special_decompositions_of` adds
  the special shapes only where the parts' flags allow them. A new part is made from its *runs*
  (tiles held without a gap, which no chow crosses; kept per run with their splits' summaries,
  :func:`_run_info`), so a hand never seen before mostly combines parts already worked out;
* :func:`standard_waits` and the per-suit ``_SUIT_ADDS`` table: the tiles completing a standard
  shape (for the unique-wait test of 边张 / 嵌张 / 单钓将), read from the runs' states
  (:func:`_run_state`) and shared by the three suits (``_ADDS_BY_COUNTS``); :func:`special_win`
  for the special shapes;
* :func:`summary_hits` (from the summed summaries), :func:`tile_set_hits` (per the subset
  predicates the tile-set fans ask), :func:`combination_hits` (per chow / pung tuple, from
  ``_SET_FANS``: the fan-forming tuples of two to four sets, a small table built once),
  :func:`knitted_hits`, :func:`special_hits` (七对, 十三幺, 全不靠): the detections of one
  arrangement as ``(order key, sets)`` pairs, where the order key is ``(100 - points) * 100 + fan
  number`` so that sorting the pairs gives the order of ``select``;
* :func:`select_counts`: :func:`~majiang.rules.mcr.fans.select` on such pairs, returning
  ``{fan number: count}`` in counting order and the points.

The lazily filled tables are emptied when they reach :data:`_CAP` entries. The differential tests
(``tests/rules/test_mcr_oracle.py``) and the annotated cases check the scorer as a whole; when this
module was written the fast and plain procedures agreed on every hand tried (over half a million
random hands under all options and varied flags, plus malformed hands for the errors);
``tests/rules/test_mcr_fast_path.py`` keeps comparing them, and checks the shared tables against
direct computation (tile-set predicates, combination positions and fans, splits, summaries and
completing tiles from runs).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, permutations, product
from operator import itemgetter

from majiang.analysis import shapes as sh
from majiang.rules.mcr import fans as F
from majiang.rules.mcr.fans import CHOW, PAIR, PUNG, SINGLE

KNITTED = "knitted"  # a decomposition group: the nine tiles of a knitted straight

# ------------------------------------------------------------------------------------------------
# fan tables indexed by fan number

_NF = 83
POINTS = [0] * _NF
OKEY = [0] * _NF
EXCL = [0] * _NF  # bit mask of the fans excluded (不计)
COMBINES = [False] * _NF
SAME: list[tuple[int, ...]] = [()] * _NF
ONE: list[tuple[tuple[int, int], ...]] = [()] * _NF
for _f in F.FANS:
    POINTS[_f.number] = _f.points
    OKEY[_f.number] = (100 - _f.points) * 100 + _f.number
    m = 0
    for _g in _f.excludes:
        m |= 1 << _g
    EXCL[_f.number] = m
    COMBINES[_f.number] = _f.combines
    SAME[_f.number] = tuple(sorted(_f.excludes_same_sets))
    ONE[_f.number] = _f.excludes_one
del _f, _g, m

K = {name: OKEY[n] for name, n in F.N.items()}
"""Order key of each fan by its short key (``K["all_pungs"]``)."""
_H = {name: (k, ()) for name, k in K.items()}
"""A detection without sets, by the fan's short key."""


_TARGETS = {g for f in range(_NF) for g in SAME[f]} | {g for f in range(_NF) for g, _ in ONE[f]}
_PLAIN = [not (COMBINES[f] or SAME[f] or ONE[f] or f in _TARGETS) for f in range(_NF)]
"""Fans whose selection is only "not excluded": no sets combined, covered or owed."""
_INFO: list = [None] * (max(OKEY) + 1)
"""By order key: (fan number, its bit, not plain, points, the bit mask of the fans it excludes)."""
for _f in range(_NF):
    if OKEY[_f]:
        _INFO[OKEY[_f]] = (_f, 1 << _f, not _PLAIN[_f], POINTS[_f], EXCL[_f])
del _f
_CHICKEN = F.N["chicken_hand"]


def select_counts(hits: list[tuple[int, tuple[int, ...]]]) -> tuple[dict[int, int], int]:
    """:func:`majiang.rules.mcr.fans.select` on ``(order key, sets)`` pairs: ``{fan: count}`` of
    the counted fans, in counting order (points descending, fan number ascending), and their
    points; 无番和 (``{chicken hand: 1}``) when nothing counts. Sorts ``hits``."""
    hits.sort()
    excluded = 0
    covered: dict[int, set[int]] | None = None
    owed: dict[int, int] | None = None
    parent: dict[int, int] | None = None
    out: dict[int, int] = {}
    last = -1
    total = 0
    for okey, sets in hits:
        f, bit, special, points, excludes = _INFO[okey]
        if excluded & bit:
            continue
        if special:
            if covered is not None and sets and f in covered and not covered[f].isdisjoint(sets):
                continue
            if owed is not None and owed.get(f):
                owed[f] -= 1
                continue
            if COMBINES[f]:
                if parent is None:
                    parent = {}
                if len(sets) == 2:  # most combinations: the same test, without lists
                    r0, r1 = sets
                    while parent.get(r0, r0) != r0:
                        r0 = parent[r0]
                    while parent.get(r1, r1) != r1:
                        r1 = parent[r1]
                    if r0 == r1:
                        continue
                    parent[r1] = r0
                else:
                    roots = []
                    for i in sets:
                        while parent.get(i, i) != i:
                            i = parent[i]
                        roots.append(i)
                    if len(set(roots)) < len(roots):
                        continue
                    r0 = roots[0]
                    for r in roots[1:]:
                        parent[r] = r0
            same = SAME[f]
            if same:
                if covered is None:
                    covered = {}
                for g in same:
                    covered.setdefault(g, set()).update(sets)
            one = ONE[f]
            if one:
                if owed is None:
                    owed = {}
                for g, n in one:
                    owed[g] = owed.get(g, 0) + n
        if f == last:  # the hits are sorted: instances of a fan are adjacent
            out[f] += 1
        else:
            out[f] = 1
            last = f
        total += points
        excluded |= excludes
    if not out:
        return {_CHICKEN: 1}, POINTS[_CHICKEN]
    return out, total


# ------------------------------------------------------------------------------------------------
# per-suit tables: decompositions and standard waits

_CAP = 100_000
"""Entries a lazily filled table keyed by hand parts may hold; a full table is emptied and refilled
(memory bound). Tables keyed by small closed sets (tile-set keys, sorted set tuples, permutations)
need no bound."""

_SUIT_DECOMP: dict[tuple[int, tuple[int, ...]], tuple[tuple[tuple[tuple[str, tuple[int, ...]], ...], bool], ...]] = {}


def _enum_suit(c: list[int], lo: int, hi: int, chows: bool, pair_ok: bool,
               acc: list[tuple[str, tuple[int, ...]]], out: set) -> None:
    i = lo
    while i < hi and c[i] == 0:
        i += 1
    if i == hi:
        out.add((tuple(sorted(acc)), not pair_ok))
        return
    n = c[i]
    if n >= 3:
        c[i] -= 3
        acc.append((PUNG, (i, i, i)))
        _enum_suit(c, i, hi, chows, pair_ok, acc, out)
        acc.pop()
        c[i] += 3
    if n >= 2 and pair_ok:
        c[i] -= 2
        acc.append((PAIR, (i, i)))
        _enum_suit(c, i, hi, chows, False, acc, out)
        acc.pop()
        c[i] += 2
    if chows and i + 2 < hi and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append((CHOW, (i, i + 1, i + 2)))
        _enum_suit(c, i, hi, chows, pair_ok, acc, out)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def _suit_decomps(lo: int, part: tuple[int, ...]) -> tuple[tuple[tuple[tuple[str, tuple[int, ...]], ...], bool], ...]:
    """Every split of one suit's tiles (``part`` = its counts, first tile ``lo``) into sets and at
    most one pair: ``(groups, has pair)``, sorted. Made from the splits of its runs (tiles held
    without a gap; every honour is a run of its own), which no chow crosses: a run of 3k+1 tiles
    has none, two runs of 3k+2 would need two pairs; else every choice of one split per run is
    one (:func:`_run_splits`)."""
    key = (lo, part)
    r = _SUIT_DECOMP.get(key)
    if r is None:
        chows = lo < 27
        runs = []
        pairs = 0
        for i, j in _runs(part, chows):
            run = part[i:j]
            m = sum(run) % 3
            if m == 1 or (m == 2 and pairs):
                runs = None
                break
            pairs += m == 2
            runs.append(_RUN_SPLITS.get((lo + i, run)) or _run_splits(lo + i, run, chows))
        if runs is None:
            r = ()
        elif len(runs) == 1:
            r = runs[0]
        elif not runs:
            r = (((), False),)
        else:
            combos: list = [((), False)]
            for splits in runs:
                combos = [(g + h, p or q) for g, p in combos for h, q in splits]
            r = tuple(sorted((tuple(sorted(g)), p) for g, p in combos))
        if len(_SUIT_DECOMP) > _CAP:
            _SUIT_DECOMP.clear()
        _SUIT_DECOMP[key] = r
    return r


_RUN_SPLITS: dict[tuple[int, tuple[int, ...]], tuple[tuple[tuple[tuple[str, tuple[int, ...]], ...], bool], ...]] = {}
"""A run of tiles (first tile, counts) -> its splits into sets and at most one pair, as
:func:`_suit_decomps` gives them (possibly none)."""


def _run_splits(first: int, run: tuple[int, ...], chows: bool
                ) -> tuple[tuple[tuple[tuple[str, tuple[int, ...]], ...], bool], ...]:
    found: set = set()
    _enum_suit([0] * first + list(run), first, first + len(run), chows, True, [], found)
    if len(_RUN_SPLITS) > _CAP:
        _RUN_SPLITS.clear()
    r = _RUN_SPLITS[(first, run)] = tuple(sorted(found))  # a tuple: the garbage collector can leave it
    return r


_BOUNDS = ((0, 9), (9, 18), (18, 27), (27, 34))

# flags of a suit part (suit_info)
EVEN, SINGLES, ORPHANS_ONLY = 1, 2, 4
_SUIT_INFO: dict[tuple[int, tuple[int, ...]], tuple] = {}


def suit_info(key: tuple[int, tuple[int, ...]]) -> tuple:
    """What the scorer needs of one suit's part (``key`` = (first tile, counts)): its splits
    (:func:`_suit_decomps`), the bit mask of its tiles, flags (``EVEN``: no tile held once or three
    times; ``SINGLES``: none held twice or more; ``ORPHANS_ONLY``: terminals or honours only) and,
    for a suit, which knitted rank triples (bit 0: 147, 1: 258, 2: 369) it holds entirely; the
    summaries of its splits (:func:`_split_summary`); counts for a cheap test of special shapes
    (odd counts, non-orphan tiles, copies beyond the first, triples two-thirds held); the
    :func:`tile_set_key` of its tiles.

    The splits and their summaries are made from those of the part's runs (:func:`_run_info`,
    kept per run): a run's summary covers only its own tiles, so a split's summary is its runs'
    summaries merged (:func:`_merge_summaries`)."""
    r = _SUIT_INFO.get(key)
    if r is None:
        if len(_SUIT_INFO) > _CAP:
            _SUIT_INFO.clear()
        r = _SUIT_INFO[key] = _suit_info(*key)
    return r


def _runs(part: tuple[int, ...], chows: bool) -> list[tuple[int, int]]:
    """The runs of a suit part as ``(start, end)`` index pairs: tiles held without a gap, which no
    chow crosses (``chows=False``, honours: every tile held is its own run)."""
    out = []
    n = len(part)
    i = 0
    while i < n:
        if not part[i]:
            i += 1
            continue
        j = i + 1
        if chows:
            while j < n and part[j]:
                j += 1
        out.append((i, j))
        i = j
    return out


def _suit_info(lo: int, part: tuple[int, ...]) -> tuple:
    """:func:`suit_info` computed."""
    n = len(part)
    chows = lo < 27
    # the runs (tiles held without a gap; every honour its own), the tiles held (bit j: tile lo + j)
    bounds = _runs(part, chows)
    held = 0
    for i, j in bounds:
        held |= ((1 << (j - i)) - 1) << i
    mask = held << lo
    flags = (EVEN if not (1 in part or 3 in part) else 0) | (SINGLES if max(part) <= 1 else 0)
    if chows:
        flags |= _HELD_FLAGS[held]
        knit, knit2 = _HELD_KNIT[held]
    else:
        flags |= ORPHANS_ONLY
        knit = knit2 = 0
    # the runs' splits and summaries; none when a run has 3k+1 tiles or two runs need a pair
    runs: list | None = []
    pairs = 0
    for i, j in bounds:
        run = part[i:j]
        m = sum(run) % 3
        if m == 1 or (m == 2 and pairs):
            runs = None
            break
        pairs += m == 2
        runs.append(_RUN_INFO.get((lo + i, run)) or _run_info(lo, n, i, run))
    if runs is None:
        splits: tuple = ()
        summaries: tuple = ()
    elif len(runs) == 1:
        splits, summaries = runs[0]
    elif not runs:
        splits = (((), False),)
        summaries = _EMPTY_SUMMARIES.get(lo) or _EMPTY_SUMMARIES.setdefault(lo, (_split_summary(lo, n, ()),))
    else:
        combos: list = [((), False, None)]
        for rsplits, rsums in runs:
            combos = [(g + h[0], p or h[1], t if u is None else _merge_summaries(u, t))
                      for g, p, u in combos for h, t in zip(rsplits, rsums)]
        merged = sorted(((tuple(sorted(g)), p), u) for g, p, u in combos)
        splits = tuple(x for x, _ in merged)
        summaries = tuple(u for _, u in merged)
    # for the cheap test of a special shape one tile away (scoring._special_near): tiles held an
    # odd number of times, tiles neither terminal nor honour, copies beyond the first, and the
    # knitted rank triples with at least two of their three tiles
    odd = part.count(1) + part.count(3)
    inner = sum(part[1:8]) if chows else 0
    extra = sum(part) - n + part.count(0)
    return (splits, mask, flags, knit, summaries, odd, inner, extra, knit2, tile_set_key(mask))


_HELD_FLAGS = [0 if h & 0b011111110 else ORPHANS_ONLY for h in range(512)]
"""By the bit mask of a suit's tiles held: ``ORPHANS_ONLY`` when only its 1 and 9 are."""
_HELD_KNIT = [(sum(1 << a for a in range(3) if h >> a & h >> (a + 3) & h >> (a + 6) & 1),
               sum(1 << a for a in range(3) if (h >> a & 1) + (h >> (a + 3) & 1) + (h >> (a + 6) & 1) >= 2))
              for h in range(512)]
"""By the bit mask of a suit's tiles held: the knitted rank triples held entirely, and those held
at least two-thirds (bit 0: 147, 1: 258, 2: 369)."""
_EMPTY_SUMMARIES: dict[int, tuple[tuple]] = {}
"""The summaries of an empty suit (its one split, no groups), by first tile."""
_RUN_INFO: dict[tuple[int, tuple[int, ...]], tuple[tuple, tuple]] = {}
"""A run (first tile, counts) -> its splits (:func:`_run_splits`) and their summaries
(:func:`_split_summary` over the run's suit)."""


def _run_info(lo: int, n: int, i: int, run: tuple[int, ...]) -> tuple[tuple, tuple]:
    """:data:`_RUN_INFO` of the run at ``lo + i`` in the suit of ``n`` tiles from ``lo``."""
    splits = _RUN_SPLITS.get((lo + i, run)) or _run_splits(lo + i, run, lo < 27)
    r = (splits, tuple(_split_summary(lo, n, groups) for groups, _ in splits))
    if len(_RUN_INFO) > _CAP:
        _RUN_INFO.clear()
    _RUN_INFO[(lo + i, run)] = r
    return r


def _merge_summaries(u: tuple, t: tuple) -> tuple:
    """The :func:`_split_summary` of two splits of one suit on disjoint tiles, ``u`` below ``t``:
    sets concatenated (in tile order, as the sorted groups give them), pung counts added, the pair
    of either, flags and-ed, the per-tile wait codes and melded-pung bits or-ed."""
    return (u[0] + t[0], u[1] + t[1], u[2] + t[2], u[3] + t[3], u[4] + t[4], u[5] + t[5],
            u[6] if u[6] >= 0 else t[6], u[7] & t[7], u[8] | t[8], u[9] | t[9],
            u[10] + t[10])


SUIT_INFO_BY_BYTES: tuple[dict[bytes, tuple], ...] = ({}, {}, {}, {})
""":func:`suit_info` per suit (m, p, s, honours), keyed by the part's counts as bytes."""


def suit_info_of(suit: int, part: bytes) -> tuple:
    """:func:`suit_info` of suit ``suit`` (0-3) with counts ``part`` (bytes), kept in
    :data:`SUIT_INFO_BY_BYTES`."""
    table = SUIT_INFO_BY_BYTES[suit]
    if len(table) > _CAP:
        table.clear()
    r = table[part] = _suit_info(9 * suit, tuple(part))
    return r


# wait codes of a split summary (the wait fan the winning tile's place gives, before 独听)
WAIT_NONE, WAIT_EDGE, WAIT_CLOSED, WAIT_SINGLE = 0, 1, 2, 3


def _split_summary(lo: int, n: int, groups) -> tuple:
    """What the standard-shape detections need of one suit's split (``groups``; the suit's tiles
    are ``lo`` … ``lo + n - 1``), as :func:`sets_summary` gives it for a list of sets, plus per
    tile of the suit (index ``j = tile - lo``) the wait code where that tile would sit as the
    winning tile (edge over closed over single, as ``scoring._wait_fan``), packed two bits a tile
    (``waits >> 2 * j & 3``), and whether a pung it completes on a discard is melded (no chow or
    pair of the split holds the tile: case 347 keeps 777m concealed beside 789m), as bit ``j``;
    last, its sets as ``(first tile, 0 pung / 1 chow)``, sorted (the tie-break order of
    arrangements). Splits of disjoint tiles merge by or-ing the packed fields
    (:func:`_merge_summaries`)."""
    chows = []
    pungs = []
    pair = -1
    edge = closed = single = other = pung = 0  # bit masks over the suit's tiles; other: in a chow or the pair
    for kind, tiles in groups:
        t = tiles[0]
        j = t - lo
        if kind == CHOW:
            chows.append(t)
            other |= 7 << j
            closed |= 2 << j
            r = t % 9
            if r == 0:
                edge |= 4 << j  # the 3 of 123
            elif r == 6:
                edge |= 1 << j  # the 7 of 789
        elif kind == PUNG:
            pungs.append(t)
            pung |= 1 << j
        else:
            pair = t
            other |= 1 << j
            single |= 1 << j
    closed &= ~edge
    single &= ~(edge | closed)
    waits = _SPREAD[edge] * WAIT_EDGE | _SPREAD[closed] * WAIT_CLOSED | _SPREAD[single] * WAIT_SINGLE
    sets = sorted([(t, 0) for t in pungs] + [(t, 1) for t in chows])  # for scoring._split_choices
    return sets_summary(chows, pungs, pair) + (waits, pung & ~other, tuple(sets))


_SPREAD = [sum(1 << 2 * j for j in range(9) if m >> j & 1) for m in range(512)]
"""Bit ``j`` of ``m`` moved to bit ``2 * j`` (wait codes take two bits a tile)."""


def sets_summary(chows: list[int], pungs: list[int], pair: int = -1) -> tuple:
    """``(chows, suited pungs, wind pungs, dragon pungs, pung hits, pungs, pair, flags)`` of sets
    given by the chows' and the pungs' first tiles (kongs are pungs) and the pair's tile (-1: none):
    tuples of tiles in the order given, the per-pung detections (幺九刻 of every terminal or honour
    pung, 箭刻 of every dragon pung; sets named ``tile + _PUNG_ID``), the number of pungs, the pair,
    and the 全带幺/全带五/全双刻 flags the sets and the pair still allow (``_CHOW_FLAGS`` /
    ``_PUNG_FLAGS``, and-ed). Summaries of disjoint sets add up: tuples concatenated, counts added,
    flags and-ed (:func:`summary_hits` takes the sums)."""
    flags = _ALL_FLAGS
    suited = []
    winds = []
    dragons = []
    pung_hits = []
    for t in chows:
        flags &= _CHOW_FLAGS[t]
    for t in pungs:
        flags &= _PUNG_FLAGS[t]
        c = _PUNG_CLASS[t]
        if c < 2:
            suited.append(t)
        elif c == 2:
            winds.append(t)
        else:
            dragons.append(t)
            pung_hits.append((_DRAGON_PUNG, (t + _PUNG_ID,)))
        if c:
            pung_hits.append((_TOH_PUNG, (t + _PUNG_ID,)))
    if pair >= 0:
        flags &= _PUNG_FLAGS[pair]
    return (tuple(chows), tuple(suited), tuple(winds), tuple(dragons), tuple(pung_hits), len(pungs), pair, flags)


KNIT_FULL = [False] * 512
"""``KNIT_FULL[k0 << 6 | k1 << 3 | k2]``: the three suits' knitted triples (:func:`suit_info`)
make a whole knitted straight (a different triple in each suit)."""
for _a, _b, _c in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
    for _k in range(512):
        if _k >> (6 + _a) & 1 and _k >> (3 + _b) & 1 and _k >> _c & 1:
            KNIT_FULL[_k] = True
del _a, _b, _c, _k


def _combine(per: list) -> list[tuple[tuple[str, tuple[int, ...]], ...]]:
    """Every way to take one split per part with exactly one pair among them, each sorted; the
    list sorted without repeats. ``per``: per part, its ``(groups, has_pair)`` splits (none empty)."""
    if all(len(opts) == 1 for opts in per):  # one split per part (most hands)
        acc: tuple = ()
        pairs = 0
        for opts in per:
            groups, p = opts[0]
            acc += groups
            pairs += p
        return [tuple(sorted(acc))] if pairs == 1 else []
    results: list = []

    def rec(g: int, acc: tuple, pair: bool) -> None:
        if g == len(per):
            if pair:
                results.append(tuple(sorted(acc)))
            return
        for groups, p in per[g]:
            if not (pair and p):
                rec(g + 1, acc + groups, pair or p)

    rec(0, (), False)
    if len(results) > 1:
        results = sorted(set(results))
    return results


def standard_decompositions(full: list[int]) -> list[tuple[tuple[str, tuple[int, ...]], ...]]:
    """Every standard decomposition (sets and one pair) of the concealed part ``full`` (3k+2
    tiles, counts of 34): each a sorted tuple of ``(kind, tiles)`` groups, the list sorted (the
    groups and the order of :func:`majiang.analysis.decompositions`, without wildcards)."""
    per = []
    for lo, hi in _BOUNDS:
        part = tuple(full[lo:hi])
        if not any(part):
            continue
        opts = _SUIT_DECOMP.get((lo, part)) or _suit_decomps(lo, part)
        if not opts:
            return []
        per.append(opts)
    return _combine(per)


_ORPHAN_TILES = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_HONOR_TILES = tuple(range(27, 34))


def special_decompositions_of(full: list[int], infos: tuple, melds: int
                              ) -> list[tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]]:
    """The decompositions of :func:`majiang.analysis.decompositions` (MCR shapes, no wildcards)
    other than the standard ones, in its order, for
    ``full`` (the concealed part, ``melds`` declared) with its four parts' :func:`suit_info`:
    the special shapes are only tried where the parts' flags allow them (seven pairs: every part
    ``EVEN``; 十三幺: every part ``ORPHANS_ONLY``; 全不靠: every part ``SINGLES``; no melds for
    these three; a knitted straight: ``KNIT_FULL``)."""
    out = []
    flags = infos[0][2] & infos[1][2] & infos[2][2] & infos[3][2] if not melds else 0
    if flags & EVEN:
        out.append(_seven_pairs(full))
    if flags & ORPHANS_ONLY:
        out += _thirteen_orphans(full)
    if flags & SINGLES:
        out += _honors_and_knitted(full)
    if melds < 2 and KNIT_FULL[infos[0][3] << 6 | infos[1][3] << 3 | infos[2][3]]:
        out += _knitted_straights(full)
    return out


def _seven_pairs(full: list[int]) -> tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]:
    pairs = []
    for t, n in enumerate(full):
        if n:
            pairs.extend([(PAIR, (t, t))] * (n // 2))
    return F.SEVEN_PAIRS, tuple(pairs)


def _thirteen_orphans(full: list[int]) -> list:
    """The 十三幺 decomposition of 14 tiles, if they form one."""
    orphans = _ORPHAN_GET(full)
    if sum(orphans) != 14 or 0 in orphans:
        return []
    dup = _ORPHAN_TILES[orphans.index(2)]  # one of them twice
    r = _THIRTEEN_ORPHANS.get(dup)
    if r is None:
        groups = [(SINGLE, (t,)) for t in _ORPHAN_TILES if t != dup]
        groups.append((PAIR, (dup, dup)))
        r = _THIRTEEN_ORPHANS[dup] = (F.THIRTEEN_ORPHANS, tuple(sorted(groups)))
    return [r]


_THIRTEEN_ORPHANS: dict[int, tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]] = {}
"""The 十三幺 decomposition by the tile held twice (13 entries)."""


def _honors_and_knitted(full: list[int]) -> list:
    """The 全不靠 decompositions of 14 tiles (14 different tiles within one knitted arrangement
    and the honours)."""
    out: list = []
    if max(full) > 1:
        return out
    honors = sum(full[27:])
    seen = set()
    for arr in _KNITTED_GET:
        if sum(arr(full)) + honors != 14:
            continue
        tiles = tuple(sorted(t for t in arr.tiles + _HONOR_TILES if full[t]))
        if tiles not in seen:
            seen.add(tiles)
            out.append((F.HONORS_AND_KNITTED, tuple((SINGLE, (t,)) for t in tiles)))
    return out


def _knitted_straights(full: list[int]) -> list:
    """The knitted-straight decompositions of 11 or 14 tiles: a whole knitted arrangement and a
    standard rest."""
    out = []
    for arr in _KNITTED_GET:
        if 0 not in arr(full):
            rest = list(full)
            for t in arr.tiles:
                rest[t] -= 1
            kn = (KNITTED, arr.tiles)
            for g in standard_decompositions(rest):
                out.append((F.KNITTED_STRAIGHT, tuple(sorted((kn,) + g))))
    return out


_ORPHAN_GET = itemgetter(*_ORPHAN_TILES)


# suit part -> (complete as sets only, complete as sets plus one pair)
_SUIT_STATE: dict[tuple[int, tuple[int, ...]], tuple[bool, bool]] = {}
# suit part -> (tiles completing it as sets only, tiles completing it as sets plus a pair)
_SUIT_ADDS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _suit_state(lo: int, part: tuple[int, ...]) -> tuple[bool, bool]:
    """Whether one suit's part (first tile ``lo``, counts ``part``; a 5 is a fifth copy in form only)
    is complete as sets only, and as sets and one pair: from its splits when they are kept, else by
    a search that stops at the first split found (3k tiles can only be sets, 3k+2 sets and a pair)."""
    key = (lo, part)
    r = _SUIT_STATE.get(key)
    if r is None:
        opts = _SUIT_DECOMP.get(key)
        if opts is not None:
            r = (any(not p for _, p in opts), any(p for _, p in opts))
        else:
            m = sum(part) % 3
            ok = m != 1 and _completes(list(part), 0, len(part), lo < 27, m == 2)
            r = (ok and m == 0, ok and m == 2)
        if len(_SUIT_STATE) > _CAP:
            _SUIT_STATE.clear()
        _SUIT_STATE[key] = r
    return r


def _completes(c: list[int], i: int, hi: int, chows: bool, pair: bool) -> bool:
    """Whether counts ``c[i:hi]`` split into sets (chows too if ``chows``) and, if ``pair``, one pair."""
    while i < hi and c[i] == 0:
        i += 1
    if i == hi:
        return not pair
    n = c[i]
    if n >= 3:
        c[i] -= 3
        ok = _completes(c, i, hi, chows, pair)
        c[i] += 3
        if ok:
            return True
    if n >= 2 and pair:
        c[i] -= 2
        ok = _completes(c, i, hi, chows, False)
        c[i] += 2
        if ok:
            return True
    if chows and i + 2 < hi and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _completes(c, i, hi, chows, pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def _suit_adds(lo: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                                     tuple[int, ...]]:
    """Tiles completing one suit's part as sets only and as sets plus a pair; then the same for
    tiles already held four times (a fifth copy, complete in form only). From the part's runs
    (:func:`_suit_decomps`): a tile joins one run, or links the two beside it, or stands alone
    (never complete); the part is complete when every run is complete as sets, but for one that
    may hold the pair (:func:`_run_state`, kept per run), so only tiles in or beside the runs
    that are not are tried."""
    key = (lo, part)
    r = _SUIT_ADDS.get(key)
    if r is None:
        rel = _ADDS_BY_COUNTS.get((lo < 27, part)) or _adds_by_counts(lo < 27, part)
        r = rel if not lo else tuple(tuple(lo + j for j in x) for x in rel)
        if len(_SUIT_ADDS) > _CAP:
            _SUIT_ADDS.clear()
        _SUIT_ADDS[key] = r
    return r


_ADDS_BY_COUNTS: dict[tuple[bool, tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}
""":func:`_suit_adds` of a suit's counts at its first tile 0 (the three suits share an entry)."""


def _adds_by_counts(chows: bool, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """:data:`_ADDS_BY_COUNTS` computed: the tiles as indices in the part."""
    n = len(part)
    runs = _runs(part, chows)
    run_of = [-1] * n
    for k, (i, j) in enumerate(runs):
        for x in range(i, j):
            run_of[x] = k
    states = [_RUN_STATE.get((chows, part[i:j])) or _run_state(chows, part[i:j]) for i, j in runs]
    open_runs = [k for k, st in enumerate(states) if not st[0]]  # not complete as sets only
    # the tile must reach every open run but one that is complete with the pair: it lies in
    # or beside a run that is neither complete as sets nor with a pair, else beside an open one
    broken = [k for k in open_runs if not states[k][1]] or open_runs
    found: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    if len(broken) <= 2:
        cands: set[int] = set()
        for k in broken:
            a, b = runs[k]
            cands.update(range(max(a - 1, 0), min(b + 1, n)) if chows else range(a, b))
        c = list(part)
        for x in sorted(cands):
            if c[x]:
                joined: tuple[int, ...] = (run_of[x],)
                a, b = runs[run_of[x]]
            else:
                left = run_of[x - 1] if x else -1
                right = run_of[x + 1] if x + 1 < n else -1
                joined = tuple(k for k in (left, right) if k >= 0)
                a = runs[left][0] if left >= 0 else x
                b = runs[right][1] if right >= 0 else x + 1
            fifth = 2 if c[x] >= 4 else 0
            c[x] += 1
            run = tuple(c[a:b])
            c[x] -= 1
            s0, s1 = _RUN_STATE.get((chows, run)) or _run_state(chows, run)
            if not (s0 or s1):
                continue
            rest = [k for k in open_runs if k not in joined]
            if not rest:
                found[fifth if s0 else fifth + 1].append(x)
            elif len(rest) == 1 and s0 and states[rest[0]][1]:
                found[fifth + 1].append(x)
    if len(_ADDS_BY_COUNTS) > _CAP:
        _ADDS_BY_COUNTS.clear()
    r = _ADDS_BY_COUNTS[(chows, part)] = tuple(tuple(x) for x in found)
    return r


_RUN_STATE: dict[tuple[bool, tuple[int, ...]], tuple[bool, bool]] = {}
"""(chows allowed, a run's counts) -> (complete as sets only, complete as sets and one pair)."""


def _run_state(chows: bool, run: tuple[int, ...]) -> tuple[bool, bool]:
    m = sum(run) % 3
    ok = m != 1 and _completes(list(run), 0, len(run), chows, m == 2)
    r = (ok and m == 0, ok and m == 2)
    if len(_RUN_STATE) > _CAP:
        _RUN_STATE.clear()
    _RUN_STATE[(chows, run)] = r
    return r


def standard_waits(pre: list[int], formal: bool = False) -> set[int]:
    """The tiles ``t`` for which ``pre`` plus ``t`` decomposes into sets and one pair (``pre``:
    counts of 34, 3k+1 tiles); tiles held four times only with ``formal`` (a fifth copy, complete
    in form only)."""
    keys = ((0, tuple(pre[0:9])), (9, tuple(pre[9:18])), (18, tuple(pre[18:27])), (27, tuple(pre[27:34])))
    get = _SUIT_STATE.get
    open_suit = -1  # the one suit not complete as it is, which the tile must go to
    pairs = 0  # complete suits holding a pair
    for s in range(4):
        st = get(keys[s]) or _suit_state(*keys[s])
        if st[1]:
            pairs += 1
        elif not st[0]:
            if open_suit >= 0:
                return set()
            open_suit = s
    out: set[int] = set()
    # a suit completes as sets only (3k tiles) or as sets and a pair (3k+2), never both
    if open_suit >= 0:
        if pairs > 1:
            return out
        targets: tuple[int, ...] = (open_suit,)
    else:  # every suit complete (two of them with a pair): the tile joins one of those two
        if pairs != 2:
            return out
        targets = tuple(s for s in range(4) if (get(keys[s]) or _suit_state(*keys[s]))[1])
    for s in targets:
        npair = pairs - (1 if s != open_suit else 0)
        adds = _SUIT_ADDS.get(keys[s]) or _suit_adds(*keys[s])
        out.update(adds[1] if npair == 0 else adds[0])
        if formal:
            out.update(adds[3] if npair == 0 else adds[2])
    return out


def is_standard(counts: list[int]) -> bool:
    """Whether ``counts`` (3k+2 tiles) decompose into sets and one pair."""
    pairs = 0
    for lo, hi in _BOUNDS:
        s0, s1 = _suit_state(lo, tuple(counts[lo:hi]))
        if s1:
            pairs += 1
        elif not s0:
            return False
    return pairs == 1


def special_win(c: list[int], melds: int) -> bool:
    """Whether the concealed part ``c`` (no wildcards) forms an MCR special shape: 七对 (four of
    a kind as two pairs), 十三幺, 全不靠 with no melds; a knitted straight plus a standard rest with
    at most one meld (``_special_need`` of :mod:`majiang.analysis.win` with
    :data:`~majiang.analysis.MCR_SHAPES`, no wildcards)."""
    if melds >= 2:
        return False
    if not melds:
        if not (1 in c or 3 in c):
            return True
        if sh.thirteen_orphans_need(c) == 0 or sh.honors_and_knitted_need(c) == 0:
            return True
    for arr in _KNITTED_GET:
        if 0 not in arr(c):
            rest = list(c)
            for t in arr.tiles:  # type: ignore[attr-defined]
                rest[t] -= 1
            if is_standard(rest):
                return True
    return False


class _Getter:
    """The counts of one knitted arrangement's tiles (``tiles``), as a callable."""

    __slots__ = ("tiles", "_get")

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.tiles = tiles
        self._get = itemgetter(*tiles)

    def __call__(self, c: list[int]) -> tuple[int, ...]:
        return self._get(c)


_KNITTED_GET = tuple(_Getter(arr) for arr in sh.KNITTED_ARRANGEMENTS)


# ------------------------------------------------------------------------------------------------
# detections (order key, sets)

_SUITM = [sum(1 << t for t in range(9 * s, 9 * s + 9)) for s in range(3)]
_SUITED = _SUITM[0] | _SUITM[1] | _SUITM[2]
_WINDM = sum(1 << t for t in range(27, 31))
_DRAGM = sum(1 << t for t in range(31, 34))


def _ranks_mask(ranks) -> int:
    return sum(1 << (9 * s + r - 1) for s in range(3) for r in ranks)


_R789 = _ranks_mask((7, 8, 9))
_R456 = _ranks_mask((4, 5, 6))
_R123 = _ranks_mask((1, 2, 3))
_R6789 = _ranks_mask((6, 7, 8, 9))
_R1234 = _ranks_mask((1, 2, 3, 4))
_R19 = _ranks_mask((1, 9))
_GREENM = sum(1 << t for t in F.GREEN)
_REVM = sum(1 << t for t in F.REVERSIBLE)
_TOHM = _R19 | _WINDM | _DRAGM

_TILE_SET: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {}
_SUBSETS = (_GREENM, _REVM, _TOHM, _R789, _R456, _R123, _R6789, _R1234, ~_R19 & ((1 << 34) - 1))
"""The tile-set fans ask only whether the tiles present lie within each of these masks, which
suits are present, and whether winds and dragons are."""


def _subset_bits(lo: int, n: int) -> list[int]:
    """Per bit mask ``r`` of ``n`` tiles from ``lo``: bit ``i`` set when those tiles lie within
    ``_SUBSETS[i]``."""
    out = []
    for r in range(1 << n):
        tiles = r << lo
        out.append(sum(1 << i for i, m in enumerate(_SUBSETS) if not tiles & ~m))
    return out


_SUB_M, _SUB_P, _SUB_S, _SUB_Z = _subset_bits(0, 9), _subset_bits(9, 9), _subset_bits(18, 9), _subset_bits(27, 7)


_PRESENCE_BITS = 0b11111 << 9
"""The bits of :func:`tile_set_key` that tell which suits, winds and dragons are present (the
others tell which ``_SUBSETS`` hold every tile present). The key of a union of tile sets is the
and of their keys' other bits and the or of these."""


def tile_set_key(present: int) -> int:
    """What the tile-set fans depend on, for the tiles present (bit mask over 0-33), in 14 bits:
    which ``_SUBSETS`` hold them all, which suits are present, whether winds and dragons are."""
    m = present & 511
    p = present >> 9 & 511
    s = present >> 18 & 511
    z = present >> 27
    return ((_SUB_M[m] & _SUB_P[p] & _SUB_S[s] & _SUB_Z[z]) | (m > 0) << 9 | (p > 0) << 10 | (s > 0) << 11
            | (z & 15 > 0) << 12 | (z > 15) << 13)


def tile_set_hits(present: int, pairs_or_standard: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The detections of :func:`~majiang.rules.mcr.fans.tile_set_fans` for the tiles present
    (bit mask over 0-33); ``pairs_or_standard``: the shape is standard or seven pairs. Kept per
    what they depend on (see ``_SUBSETS``): a small table shared by all hands."""
    key = tile_set_key(present) | pairs_or_standard << 14
    r = _TILE_SET.get(key)
    if r is None:
        r = _TILE_SET[key] = _tile_set_hits_of(present, pairs_or_standard)
    return r


def _tile_set_hits_of(present: int, pairs_or_standard: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:func:`tile_set_hits` computed."""
    out = []
    nsuits = sum(1 for m in _SUITM if present & m)
    winds = bool(present & _WINDM)
    dragons = bool(present & _DRAGM)
    honors = winds or dragons
    if not present & ~_GREENM:
        out.append(K["all_green"])
    if not present & ~_REVM:
        out.append(K["reversible_tiles"])
    if pairs_or_standard and not present & ~_TOHM:
        if not honors:
            out.append(K["all_terminals"])
        elif nsuits:
            out.append(K["all_terminals_and_honors"])
    if not nsuits:
        out.append(K["all_honors"])
    if nsuits == 1:
        out.append(K["half_flush"] if honors else K["full_flush"])
    if nsuits == 3 and winds and dragons:
        out.append(K["all_types"])
    if nsuits == 2:
        out.append(K["one_voided_suit"])
    if not honors:
        out.append(K["no_honors"])
        if not present & ~_R789:
            out.append(K["upper_tiles"])
        elif not present & ~_R456:
            out.append(K["middle_tiles"])
        elif not present & ~_R123:
            out.append(K["lower_tiles"])
        if not present & ~_R6789:
            out.append(K["upper_four"])
        elif not present & ~_R1234:
            out.append(K["lower_four"])
        if not present & _R19:
            out.append(K["all_simples"])
    return tuple((k, ()) for k in out)


_CHOW_COMBOS: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
_PUNG_COMBOS: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
_COMBOS = (_CHOW_COMBOS, _PUNG_COMBOS)
_SET_FANS: tuple[dict[tuple[int, ...], tuple[int, ...]], dict[tuple[int, ...], tuple[int, ...]]] = ({}, {})
"""Per kind (chows, suited pungs): the order keys of ``fans._chow_fans`` / ``fans._pung_fans`` of
two to four sets given by their first tiles in any order, for the tuples that form a fan only
(:func:`_set_fans`: a small closed table, built once)."""


def _set_fans(pungs: bool) -> dict[tuple[int, ...], tuple[int, ...]]:
    """:data:`_SET_FANS` of one kind, built on first use (about ten milliseconds): every pair of
    sets, every three or four sets of one suit (of different tiles for pungs) and every three sets
    of three suits (the only ones that can form a fan of three or four sets, as ``fans._chow_fans``
    and ``fans._pung_fans`` read; ``tests/rules/test_mcr_fast_path.py`` checks every multiset of up
    to four sets against them) is given to the fans function; each one forming a fan is kept
    under all its orders."""
    table = _SET_FANS[pungs]
    if table:
        return table
    fans_of = F._pung_fans if pungs else F._chow_fans
    kinds = [t for t in range(27) if pungs or t % 9 < 7]
    suits = [[t for t in kinds if t // 9 == s] for s in range(3)]
    groups = [combinations_with_replacement(kinds, 2), product(*suits)]
    same = combinations if pungs else combinations_with_replacement  # no two pungs of one tile form a fan
    groups += [same(suit, n) for suit in suits for n in (3, 4)]
    for group in groups:
        for combo in group:
            fans = fans_of([(t // 9, t % 9 + 1) for t in combo])
            if fans:
                keys = tuple(OKEY[f] for f in fans)
                for order in set(permutations(combo)):
                    table[order] = keys
    return table


_SUBSETS_BY_SIZE: dict[int, tuple[tuple[itemgetter, tuple[int, ...]], ...]] = {}
"""Per number of sets n: each subset of two to four of them (larger first, then in the order of
``itertools.combinations``) as a getter of its sets and its positions."""


def _subsets(n: int) -> tuple[tuple[itemgetter, tuple[int, ...]], ...]:
    r = _SUBSETS_BY_SIZE.get(n)
    if r is None:
        r = _SUBSETS_BY_SIZE[n] = tuple((itemgetter(*idx), idx) for k in range(min(4, n), 1, -1)
                                        for idx in combinations(range(n), k))
    return r


_SUBSET_POSITIONS = ((0, 1), (0, 1, 2), (0, 1), (0, 2), (1, 2), (0, 1, 2, 3), (0, 1, 2), (0, 1, 3), (0, 2, 3),
                     (1, 2, 3), (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
"""The subsets :func:`combination_hits` tries, by number: of two sets (0), of three (1-4), of four
(5-15); each the positions it takes, larger subsets first, in the order of ``combinations``."""
_POSITIONS = (_SUBSET_POSITIONS, tuple(tuple(10 + i for i in idx) for idx in _SUBSET_POSITIONS))
"""The positions of those subsets among chows (0-3) and among pungs (10-13)."""


def combination_hits(sets: tuple[int, ...], pungs: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The detections of :func:`~majiang.rules.mcr.fans.combinations_of_sets` among the chows
    (``pungs`` False) or the suited pungs (``pungs`` True) whose first tiles are ``sets``, in unit
    order. A detection's sets are given as positions (chows 0-3, pungs 10-13), not unit indices:
    only the combination fans look at them (account-once, never across chows and pungs), and the
    map is order-preserving, so :func:`select_counts` counts the same. Kept per ``sets``; a new
    tuple costs one look-up per subset in :data:`_SET_FANS`."""
    table = _COMBOS[pungs]
    r = table.get(sets)
    if r is not None:
        return r
    get = (_SET_FANS[pungs] or _set_fans(pungs)).get
    n = len(sets)
    if n == 2:
        subsets: tuple = ((get(sets), 0),)
    elif n == 3:
        a, b, c = sets
        subsets = ((get(sets), 1), (get((a, b)), 2), (get((a, c)), 3), (get((b, c)), 4))
    elif n == 4:
        a, b, c, d = sets
        subsets = ((get(sets), 5), (get((a, b, c)), 6), (get((a, b, d)), 7), (get((a, c, d)), 8),
                   (get((b, c, d)), 9), (get((a, b)), 10), (get((a, c)), 11), (get((a, d)), 12),
                   (get((b, c)), 13), (get((b, d)), 14), (get((c, d)), 15))
    else:
        subsets = tuple((get(g(sets)), idx) for g, idx in _subsets(n))
    out = []
    positions = _POSITIONS[pungs]
    for keys, at in subsets:
        if keys is not None:
            pos = positions[at] if type(at) is int else tuple(10 * pungs + i for i in at)
            for k in keys:
                out.append((k, pos))
    r = tuple(out)
    if len(table) > _CAP:
        table.clear()
    table[sets] = r
    return r


def _toh(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


# per first tile: which of 全带幺 / 全带五 / 全双刻 a chow or a pung (pair) there still allows
_OUTSIDE_OK, _FIVES_OK, _EVEN_OK = 1, 2, 4
_ALL_FLAGS = _OUTSIDE_OK | _FIVES_OK | _EVEN_OK
_CHOW_FLAGS = [(_OUTSIDE_OK if s < 25 and any(_toh(t) for t in range(s, s + 3)) else 0)
               | (_FIVES_OK if s < 27 and s % 9 in (2, 3, 4) else 0) for s in range(34)]
_PUNG_FLAGS = [(_OUTSIDE_OK if _toh(t) else 0) | (_FIVES_OK if t < 27 and t % 9 == 4 else 0)
               | (_EVEN_OK if t < 27 and t % 9 % 2 == 1 else 0) for t in range(34)]
_PUNG_CLASS = [(1 if t % 9 in (0, 8) else 0) if t < 27 else 2 if t < 31 else 3 for t in range(34)]
"""0 suited simple, 1 suited terminal, 2 wind, 3 dragon."""


def special_hits(shape: str, full: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """The detections of :func:`~majiang.rules.mcr.fans.special_shapes` for 七对 / 十三幺 /
    全不靠 (``full``: the concealed part, which is the whole hand for these shapes)."""
    if shape == F.THIRTEEN_ORPHANS:
        return [_H["thirteen_orphans"]]
    if shape == F.SEVEN_PAIRS:
        hits = [_H["seven_pairs"]]
        tiles = [t for t in range(34) if full[t]]
        if len(tiles) == 7 and tiles[0] < 27 and tiles[0] // 9 == tiles[-1] // 9 and tiles[-1] - tiles[0] == 6:
            hits.append(_H["seven_shifted_pairs"])
        return hits
    assert shape == F.HONORS_AND_KNITTED
    honors = sum(1 for t in range(27, 34) if full[t])
    hits = [(K["greater_honors_and_knitted_tiles"] if honors == 7 else K["lesser_honors_and_knitted_tiles"], ())]
    if honors == 5:
        hits.append(_H["knitted_straight"])
    return hits


def knitted_hits(units: list[F.Unit], seat: int, prevalent: int) -> list[tuple[int, tuple[int, ...]]]:
    """The arrangement-dependent detections of a knitted-straight arrangement (组合龙 plus one set
    and a pair; ``units`` declared melds first): 组合龙, the honour-pung fans of its set, 平和.
    Combination and concealed-pung fans need two sets, so none apply. Per-hand detections (tile
    sets, kongs, win conditions, 四归一, 九莲宝灯) are the caller's."""
    hits = [_H["knitted_straight"]]
    pair = -1
    all_chows = True
    for i, u in enumerate(units):
        kind = u.kind
        t = u.tiles[0]
        if kind == PAIR:
            pair = t
        elif kind == PUNG:
            all_chows = False
            if t >= 31:
                hits.append((K["dragon_pung"], (i,)))
            elif t >= 27:
                if t == 27 + prevalent:
                    hits.append((K["prevalent_wind"], (i,)))
                if t == 27 + seat:
                    hits.append((K["seat_wind"], (i,)))
            if t >= 27 or t % 9 in (0, 8):
                hits.append((K["pung_of_terminals_or_honors"], (i,)))
        elif kind != CHOW and kind != F.KNIT:
            all_chows = False
    if all_chows and 0 <= pair < 27:
        hits.append(_H["all_chows"])
    return hits


_PUNG_ID = 40
"""Set ids of pungs in :func:`summary_hits` are ``tile + _PUNG_ID`` (one pung per tile), apart
from the positions the combination fans use (0-3, 10-13)."""


def summary_hits(chows: tuple[int, ...], suited_pungs: tuple[int, ...], winds: tuple[int, ...],
                 dragons: tuple[int, ...], pair: int, flags: int, concealed: int, seat: int, prevalent: int
                 ) -> list[tuple[int, tuple[int, ...]]]:
    """:func:`~majiang.rules.mcr.fans` detections of a standard-shape arrangement that depend on
    the arrangement (honour pungs, the set structure fans except 九莲宝灯 and 四归一, combinations
    of sets, concealed pungs), from its summary (:func:`sets_summary`, summed over the declared
    melds and the concealed groups, in unit order), the per-pung detections aside (the summary's
    pung hits): the chows', the suited pungs', the wind pungs' and
    the dragon pungs' tiles, the pair's tile, the flags and the number of concealed pungs. The
    honour pungs' detections name their sets by ``tile + _PUNG_ID`` rather than by unit index: only
    :func:`select_counts` reads them, to tell sets apart, so it counts the same."""
    hits: list[tuple[int, tuple[int, ...]]] = []
    if winds:
        nw = len(winds)
        if nw >= 3:
            ids = tuple(t + _PUNG_ID for t in winds)
            if nw == 4:
                hits.append((_BIG_FOUR_WINDS, ids))
            else:
                if 27 <= pair <= 30:
                    hits.append((_LITTLE_FOUR_WINDS, ids))
                hits.append((_BIG_THREE_WINDS, ids))
        p = 27 + prevalent
        if p in winds:
            hits.append((_PREVALENT_WIND, (p + _PUNG_ID,)))
        p = 27 + seat
        if p in winds:
            hits.append((_SEAT_WIND, (p + _PUNG_ID,)))
    if len(dragons) >= 2:
        ids = tuple(t + _PUNG_ID for t in dragons)
        if len(dragons) == 3:
            hits.append((_BIG_THREE_DRAGONS, ids))
        else:
            if pair >= 31:
                hits.append((_LITTLE_THREE_DRAGONS, ids))
            hits.append((_TWO_DRAGON_PUNGS, ids))
    nchows = len(chows)
    if not nchows:
        hits.append(_HIT_ALL_PUNGS)
        if flags & _EVEN_OK:
            hits.append(_HIT_ALL_EVEN_PUNGS)
    elif nchows == 4 and pair < 27:
        if pair % 9 == 4:
            by_suit: dict[int, list[int]] = {}
            for t in chows:
                by_suit.setdefault(t // 9, []).append(t % 9 + 1)
            shapes = sorted(sorted(v) for v in by_suit.values())
            ps = pair // 9
            if shapes == [[1, 1, 7, 7]] and ps in by_suit:
                hits.append(_H["pure_terminal_chows"])
            if shapes == [[1, 7], [1, 7]] and ps not in by_suit:
                hits.append(_H["three_suited_terminal_chows"])
        hits.append(_HIT_ALL_CHOWS)
    if flags & _OUTSIDE_OK:
        hits.append(_HIT_OUTSIDE_HAND)
    if flags & _FIVES_OK:
        hits.append(_HIT_ALL_FIVES)
    if nchows >= 2:
        found = _CHOW_COMBOS.get(chows)
        hits += found if found is not None else combination_hits(chows, False)
    if len(suited_pungs) >= 2:
        found = _PUNG_COMBOS.get(suited_pungs)
        hits += found if found is not None else combination_hits(suited_pungs, True)
    if concealed >= 2:
        hits.append(_CONCEALED_PUNGS[concealed])
    return hits


_BIG_FOUR_WINDS = K["big_four_winds"]
_HIT_ALL_PUNGS = _H["all_pungs"]
_HIT_ALL_EVEN_PUNGS = _H["all_even_pungs"]
_HIT_ALL_CHOWS = _H["all_chows"]
_HIT_OUTSIDE_HAND = _H["outside_hand"]
_HIT_ALL_FIVES = _H["all_fives"]
_LITTLE_FOUR_WINDS = K["little_four_winds"]
_BIG_THREE_WINDS = K["big_three_winds"]
_PREVALENT_WIND = K["prevalent_wind"]
_SEAT_WIND = K["seat_wind"]
_BIG_THREE_DRAGONS = K["big_three_dragons"]
_LITTLE_THREE_DRAGONS = K["little_three_dragons"]
_TWO_DRAGON_PUNGS = K["two_dragon_pungs"]
_CONCEALED_PUNGS = (None, None, _H["two_concealed_pungs"], _H["three_concealed_pungs"], _H["four_concealed_pungs"])
_DRAGON_PUNG = K["dragon_pung"]
_TOH_PUNG = K["pung_of_terminals_or_honors"]
