"""Observation encodings by name and version: ``majiang-v1`` (and its ``oracle`` variant) and
``botzone-v0`` (docs/rl.md, "Observations", lists every plane).

Every encoding is a ``float32`` array of shape ``(C, 34)``: ``C`` planes, one column per tile in
Botzone order (:data:`majiang.rl.actions.LAYOUT_TILES`: W1-9 characters, T1-9 bamboo, B1-9 dots,
F1-4 winds, J1-3 Red Green White). A *scalar* plane holds one number in all 34 columns. Seats are
relative to the observer: 0 = self, 1 = the next seat (下家, right), 2 = opposite, 3 = the previous
seat (上家, left).

An encoder reads only the seat's :class:`~majiang.engine.PlayerView` -- except the ``oracle``
planes, which read the other concealed hands from the table (teacher training only).
:class:`TableEncoder`, the environments' fast path for ``majiang-v1``, reads the same facts straight
from the table (no view is built) and keeps each seat's planes between calls; its output equals
:meth:`Encoder.encode` of the view (tested).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence

import numpy as np

from majiang.analysis import shanten
from majiang.analysis.tables import BEST, COMBINED, HONOR_INFO, SUIT_INFO, build_blocks
from majiang.analysis.win import _specials
from majiang.analysis.wildcards import split_counts
from majiang.engine import Phase, PlayerView, RuleSet
from majiang.errors import MajiangError
from majiang.rl import kernels
from majiang.rl.actions import COLUMN_OF, LAYOUT_TILES
from majiang.tiles import NUM_KINDS, WHITE

RIVER_ORDER_SLOTS = 8
"""How many of each seat's latest discards ``majiang-v1`` shows in order (one plane each)."""


def _plane_spec(oracle: bool) -> list[tuple[str, int, str]]:
    """``(name, planes, meaning)`` of ``majiang-v1`` in order (docs/rl.md is written from this)."""
    spec = [
        ("hand", 4, "own concealed tiles: plane k is 1 where the hand holds at least k+1 copies"),
        ("last_draw", 1, "the tile the seat drew last (one-hot; zero before its first draw)"),
        ("melds", 16, "per relative seat, 4 planes: copies (>= 1..4) of each tile in its declared melds "
                      "(physical tiles: a White standing in is a White)"),
        ("hidden_kongs", 4, "per relative seat, scalar: its concealed kongs the observer cannot see / 4"),
        ("rivers", 16, "per relative seat, 4 planes: copies (>= 1..4) of each tile lying in its river"),
        ("river_order", 4 * RIVER_ORDER_SLOTS, f"per relative seat, its last {RIVER_ORDER_SLOTS} discards "
                                               "still in the river, most recent first, one-hot per plane"),
        ("flowers", 4, "per relative seat, scalar: flowers set aside / 8"),
        ("wild_face", 1, "the wildcard's face (财神/百搭; one-hot; zero without wildcards)"),
        ("indicator", 1, "the wildcard indicator tile turned up (one-hot)"),
        ("white_face", 1, "the face a White plays when it stands in (白板代; one-hot)"),
        ("bao", 1, "宝牌 faces (RULES.md §3.4; one-hot): always zero in this version -- no preset deals "
                   "宝牌 (the engine has no 宝牌 mode); kept so the layout stays when one is added"),
        ("prevalent_wind", 1, "the prevalent wind (圈风; one-hot over F1-F4)"),
        ("seat_wind", 1, "the seat wind (门风; one-hot over F1-F4)"),
        ("dealer", 4, "per relative seat, scalar: 1 on the dealer's plane"),
        ("dealer_streak", 1, "scalar: the dealer's 连庄 count / 8"),
        ("wall", 1, "scalar: live tiles left in the wall / the rule set's tile count"),
        ("scores", 4, "per relative seat, scalar: running match score / score_scale"),
        ("phase", 3, "scalar planes: turn, claim window, robbing window"),
        ("claim_tile", 1, "the discard (or added-kong tile) in an open window (one-hot)"),
        ("offered_by", 4, "per relative seat, scalar: 1 on the plane of the seat that offered the claim tile"),
        ("unseen", 4, "copies (>= 1..4) of each tile the seat cannot see (not in its hand, melds, rivers, indicator)"),
        ("shanten", 1, "scalar: shanten (向听) of the concealed tiles with their wildcards / 8; "
                       "-1/8 for a complete hand"),
        ("discard_best", 1, "turn only: 1 on each held tile whose discard leaves the lowest shanten"),
        ("discard_useful", 1, "turn only: on each such tile, the unseen copies of the tiles that would then "
                              "lower the shanten / 34"),
        ("waits", 1, "3n+1 hands (outside the turn): 1 on each tile that completes the hand (听牌)"),
        ("useful", 1, "3n+1 hands: on each tile that lowers the shanten, its unseen copies / 4"),
        ("round", 1, "scalar: prevalent-wind round (0-3) / 4"),
    ]
    if oracle:
        spec.append(("oracle_hands", 12, "oracle only: per other relative seat 1-3, 4 planes of its concealed "
                                         "tiles (>= 1..4)"))
    return spec


BOTZONE_V0_SPEC: list[tuple[str, int, str]] = [
    ("seat_wind", 1, "the seat wind (one-hot over F1-F4), the baseline's plane 0"),
    ("prevalent_wind", 1, "the prevalent wind (one-hot), plane 1"),
    ("hand", 4, "own concealed tiles: plane k is 1 where the hand holds at least k+1 copies, planes 2-5"),
]
"""``botzone-v0``: the PKU baseline ``FeatureAgent``'s 6 planes (its ``(6, 4, 9)`` is this ``(6, 34)``
padded to 36 columns; :func:`to_grid` does that)."""

OBSERVATIONS = ("majiang-v1", "botzone-v0")
"""Observation names accepted by the environments."""


def plane_spec(name: str = "majiang-v1", oracle: bool = False) -> list[tuple[str, int, str]]:
    """The planes of an observation: ``(name, count, meaning)`` in order."""
    if name == "majiang-v1":
        return _plane_spec(oracle)
    if name == "botzone-v0":
        if oracle:
            raise MajiangError("botzone-v0 has no oracle variant")
        return list(BOTZONE_V0_SPEC)
    raise MajiangError(f"unknown observation {name!r}; known: {', '.join(OBSERVATIONS)}")


_UNBOUNDED_ABOVE = {"dealer_streak": np.inf, "scores": np.inf, "shanten": 2.0, "discard_useful": 4.0}
_BELOW = {"scores": -np.inf, "shanten": -0.125}


def observation_bounds(name: str = "majiang-v1", oracle: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``, each ``(C, 34)`` float32: the range of every cell (the environments'
    observation spaces). Planes are in [0, 1] but for the running ``scores`` (unbounded), the
    dealer's streak (/ 8, unbounded above), ``shanten`` (/ 8: -1/8 for a complete hand, at most
    2 for a 17-tile hand) and ``discard_useful`` (unseen copies / 34: at most 4)."""
    spec = plane_spec(name, oracle)
    n = sum(k for _, k, _ in spec)
    low = np.zeros((n, 34), dtype=np.float32)
    high = np.ones((n, 34), dtype=np.float32)
    i = 0
    for plane, k, _ in spec:
        low[i:i + k] = _BELOW.get(plane, 0.0)
        high[i:i + k] = _UNBOUNDED_ABOVE.get(plane, 1.0)
        i += k
    return low, high


def plane_offsets(name: str = "majiang-v1", oracle: bool = False) -> dict[str, tuple[int, int]]:
    """``{plane name: (first plane, count)}``."""
    out, i = {}, 0
    for n, k, _ in plane_spec(name, oracle):
        out[n] = (i, k)
        i += k
    return out


def num_planes(name: str = "majiang-v1", oracle: bool = False) -> int:
    return sum(k for _, k, _ in plane_spec(name, oracle))


def to_grid(obs: np.ndarray) -> np.ndarray:
    """``(..., C, 34)`` to the Botzone baseline's ``(..., C, 4, 9)`` (two zero columns appended)."""
    pad = np.zeros(obs.shape[:-1] + (2,), dtype=obs.dtype)
    return np.concatenate([obs, pad], axis=-1).reshape(obs.shape[:-1] + (4, 9))


_COL = np.array(COLUMN_OF, dtype=np.intp)
_TILES = np.array(LAYOUT_TILES, dtype=np.intp)


_THERMO = np.array([[float(n > k) for k in range(4)] for n in range(5)], dtype=np.float32)  # count -> 4 planes


def _thermo(out: np.ndarray, first: int, counts: Sequence[int]) -> None:
    """Planes ``first..first+3``: 1 where counts >= 1..4 (counts in our tile order)."""
    out[first:first + 4] = _THERMO[np.asarray(counts, dtype=np.intp)[_TILES]].T


_MEMOS: dict = {}
_BLOCKS_BUILT = False


class _Analysis:
    """Shanten under one rule set's shapes, the knitted shapes left out (as the efficiency bot does:
    they cost most of the time and rarely change the picture).

    The many one-tile changes the analysis planes ask about (each discard; each draw after it) use
    the per-suit tables of :mod:`majiang.analysis.tables` directly: a change touches one group, so the
    standard shape's shanten is three look-ups. Whenever a special shape could be the lowest, or
    wildcards are in play, the full :func:`~majiang.analysis.shanten` answers instead (memoised), so
    the planes are exactly what ``shanten`` says.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.shapes = dataclasses.replace(rules.shape_rules, honors_and_knitted=False, knitted_straight=False)
        self.special = (dataclasses.replace(self.shapes, standard=False) if self.shapes.any_special else None)
        self.standard = self.shapes.standard
        self.memo: dict = _MEMOS.setdefault(self.shapes, {})  # shared by every table with these shapes
        self.white_stand_in = rules.white_stand_in
        self._roles: dict = {}
        self.fast = _Fast(self.shapes) if _Fast.usable(self.shapes) else None
        global _BLOCKS_BUILT
        if not _BLOCKS_BUILT:  # every suit block of a 13/14-tile hand, once per process (about 0.1 s)
            _BLOCKS_BUILT = True
            build_blocks(7)

    def full(self, c: Sequence[int], w: int, shapes=None) -> int:
        key = (tuple(c), w, shapes is not None)
        v = self.memo.get(key)
        if v is None:
            if len(self.memo) > 300_000:
                self.memo.clear()
            v = shanten(c, w, shapes if shapes is not None else self.shapes)
            self.memo[key] = v
        return v

    def natural(self, counts: Sequence[int], wild_face: int | None) -> tuple[list[int], int]:
        return split_counts(list(counts), wild_face, self.white_stand_in)

    def roles(self, wild_face: int | None) -> tuple[int, ...]:
        """:meth:`role` of every tile 0-33 (cached per wildcard face)."""
        got = self._roles.get(wild_face)
        if got is None:
            got = self._roles[wild_face] = tuple(self.role(x, wild_face) for x in range(NUM_KINDS))
        return got

    def role(self, x: int, wild_face: int | None) -> int:
        """What a physical tile ``x`` counts as: -1 = a wildcard, else its natural face."""
        if wild_face is None:
            return x
        if x == wild_face:
            return -1
        if x == WHITE and self.white_stand_in and wild_face != WHITE:
            return wild_face
        return x


_NEAR_SUIT: dict[tuple[int, ...], frozenset[int]] = {}


def _near(nat: Sequence[int]) -> set[int]:
    """Naturals that can join a set with the held naturals: the held honours, and suited tiles within
    two of a held tile of their suit (any other draw stays isolated and cannot lower the
    standard-shape shanten). Per suit from a small cache."""
    out: set[int] = set()
    for base in (0, 9, 18):
        key = tuple(nat[base:base + 9])
        got = _NEAR_SUIT.get(key)
        if got is None:
            got = frozenset(y for t in range(9) if key[t] for y in range(max(0, t - 2), min(8, t + 2) + 1))
            _NEAR_SUIT[key] = got
        out.update(base + y for y in got)
    out.update(t for t in range(27, 34) if nat[t])
    return out


_STEP: dict[tuple[int, bool, tuple[int, ...]], list] = {}
_UNSET = object()


def _stepped(g: int, key: tuple[int, ...], d: int, f: int):
    """For one group (``g`` 0-2 suits, 3 honours) with counts ``key``: the table record after ``d``
    (+1/-1) copies of face ``f`` (``None`` where the count would leave 0-4). Cached per key and face."""
    ck = (d, g == 3, key)
    row = _STEP.get(ck)
    if row is None:
        if len(_STEP) > 500_000:
            _STEP.clear()
        row = _STEP[ck] = [_UNSET] * len(key)
    got = row[f]
    if got is _UNSET:
        v = key[f] + d
        got = row[f] = ((HONOR_INFO if g == 3 else SUIT_INFO)[key[:f] + (v,) + key[f + 1:]]
                        if 0 <= v <= 4 else None)
    return got


def _group_keys(c: Sequence[int]) -> list[tuple[int, ...]]:
    return [tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34])]


def _scan(c: list[int], xs, d: int, total: int, shapes, floor: int) -> dict[int, int]:
    """``{x: shanten of c with d copies of natural x}`` for naturals ``xs`` (no wildcards; ``total``
    tiles after the change). Only the changed group is looked up again (:func:`_stepped`); the special
    shapes read the same group records (``win._specials``), as :func:`~majiang.analysis.shanten` does,
    unless ``floor`` (a lower bound of their shanten after the change) shows they cannot be lower."""
    keys = _group_keys(c)
    infos = [SUIT_INFO[keys[0]], SUIT_INFO[keys[1]], SUIT_INFO[keys[2]], HONOR_INFO[keys[3]]]
    n = total // 3
    top = 3 * n + 1
    std = shapes.standard
    special = shapes.any_special
    ab0 = COMBINED[(infos[0][0], infos[1][0])]
    ch0 = COMBINED[(infos[2][0], infos[3][0])]
    by_group: dict[int, list[int]] = {}
    for x in xs:
        by_group.setdefault(3 if x >= 27 else x // 9, []).append(x)
    out = {}
    for g, members in by_group.items():
        key = keys[g]
        ck = (d, g == 3, key)
        row = _STEP.get(ck)
        if row is None:
            if len(_STEP) > 500_000:
                _STEP.clear()
            row = _STEP[ck] = [_UNSET] * len(key)
        start = 27 if g == 3 else 9 * g
        seen: dict[int, int] = {}  # group record id -> standard shanten (many faces share one)
        for x in members:
            f = x - start
            info = row[f]
            if info is _UNSET:
                info = _stepped(g, key, d, f)
            if info is None:
                continue
            v = 99
            if std:
                i = info[0]
                v = seen.get(i)
                if v is None:
                    if g == 0:
                        k = (COMBINED[(i, infos[1][0])], ch0, n)
                    elif g == 1:
                        k = (COMBINED[(infos[0][0], i)], ch0, n)
                    elif g == 2:
                        k = (ab0, COMBINED[(i, infos[3][0])], n)
                    else:
                        k = (ab0, COMBINED[(infos[2][0], i)], n)
                    v = top - BEST[k]
                    if v < -1:
                        v = -1
                    seen[i] = v
            if special and v > -1 and floor < v:
                grp = list(infos)
                grp[g] = info
                c[x] += d
                v = _specials(c, 0, total, shapes, v, tuple(grp))
                c[x] -= d
            out[x] = v
    return out


_ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
_COLS = tuple(COLUMN_OF)
_STARTS = (0, 9, 18, 27)
_STEP: dict[tuple[int, bool], dict[tuple[int, ...], int]] = {(d, h): {} for d in (-1, 1) for h in (False, True)}
_CODE_IDS: list[tuple[int, ...]] = [()]
_CODE_OF: dict[tuple[int, ...], int] = {}
_CODE_LOCK = threading.Lock()
_ROWS: dict[tuple, tuple] = {}
_LOW: dict[tuple, tuple[int, ...]] = {}
_DISC: dict[tuple, tuple[tuple[int, int], ...]] = {}
_CACHE_LIMIT = 400_000
# how one face going from count c to c + d moves the special shapes' statistics (see _stats)
_STAT_DELTA: dict[tuple[int, int, bool], tuple[int, ...]] = {}
for _c in range(5):
    for _d in (-1, 1):
        _v = _c + _d
        if 0 <= _v <= 4:
            for _o in (False, True):
                _STAT_DELTA[(_c, _d, _o)] = (_v // 2 - _c // 2, (_v & 1) - (_c & 1), (_v >= 2) - (_c >= 2),
                                             (_v == 1) - (_c == 1), _o * ((_v > 0) - (_c > 0)),
                                             _o * ((_v >= 2) - (_c >= 2)))


def _step_code(honor: bool, key: tuple[int, ...], d: int) -> int:
    """A small number naming the group's used-vector ids after ``d`` (+1/-1) copies of each face (0
    where the count would leave 0-4; :data:`_CODE_IDS` holds the ids). Equal id tuples share a
    number, so the caches keyed by it are shared by every group key that steps alike."""
    table = _STEP[(d, honor)]
    code = table.get(key)
    if code is None:
        info = HONOR_INFO if honor else SUIT_INFO
        ids = tuple(info[key[:f] + (c + d,) + key[f + 1:]][0] if 0 <= c + d <= 4 else 0 for f, c in enumerate(key))
        with _CODE_LOCK:  # two threads must not hand out one number for different ids
            code = _CODE_OF.get(ids)
            if code is None:
                code = _CODE_OF[ids] = len(_CODE_IDS)
                _CODE_IDS.append(ids)
        table[key] = code
    return code


def _std_row(honor: bool, key: tuple[int, ...], other: int, n: int, d: int) -> tuple:
    """The standard-shape shanten of a hand after ``d`` (+1/-1) copies of each face of one group, for
    every face of the group (``None`` where the count would leave 0-4): the group's counts ``key``,
    the other three groups combined into the used-vector id ``other``, ``n`` sets after the change."""
    code = _step_code(honor, key, d)
    k2 = (code, other, n)
    row = _ROWS.get(k2)
    if row is None:
        top = 3 * n + 1
        row = _ROWS[k2] = tuple(None if i == 0 else max(top - BEST[(i, other, n)], -1) for i in _CODE_IDS[code])
    return row


def _draws_below(g: int, key: tuple[int, ...], other: int, n: int, s: int) -> tuple[int, ...]:
    """The faces (0-33) of group ``g`` whose draw brings the standard shanten below ``s`` (see
    :func:`_std_row`; ``n`` sets after the draw)."""
    return _below(_step_code(g == 3, key, 1), g, other, n, s)


def _below(code: int, g: int, other: int, n: int, s: int) -> tuple[int, ...]:
    """:func:`_draws_below` given the group's step code for draws."""
    k2 = (code, other, n, s, g)
    got = _LOW.get(k2)
    if got is None:
        bar = 3 * n + 1 - s  # below s <=> more than bar naturals used
        start = _STARTS[g]
        got = _LOW[k2] = tuple(start + f for f, i in enumerate(_CODE_IDS[code]) if i and BEST[(i, other, n)] > bar)
    return got


def _discards(code: int, g: int, other: int, n: int) -> tuple[tuple[int, int], ...]:
    """``(face, standard shanten after discarding it)`` for each held face (0-33) of group ``g``
    (``code``: the group's step code for discards; ``n`` sets after the discard)."""
    k2 = (code, other, n, g)
    got = _DISC.get(k2)
    if got is None:
        top = 3 * n + 1
        start = _STARTS[g]
        got = _DISC[k2] = tuple((start + f, max(top - BEST[(i, other, n)], -1))
                                for f, i in enumerate(_CODE_IDS[code]) if i)
    return got


def _trim_caches() -> None:
    """Empty the row caches when they grow past :data:`_CACHE_LIMIT` (called once per analysis)."""
    if len(_LOW) + len(_DISC) + len(_ROWS) > _CACHE_LIMIT or sum(map(len, _STEP.values())) > _CACHE_LIMIT:
        with _CODE_LOCK:
            for d in (_LOW, _DISC, _ROWS, _CODE_OF, *_STEP.values()):
                d.clear()
            del _CODE_IDS[1:]


def _others(ids: Sequence[int]) -> tuple[int, int, int, int]:
    """For each group, the used-vector id of the other three combined."""
    i0, i1, i2, i3 = ids
    c01, c23 = COMBINED[(i0, i1)], COMBINED[(i2, i3)]
    return COMBINED[(i1, c23)], COMBINED[(i0, c23)], COMBINED[(c01, i3)], COMBINED[(c01, i2)]


def _stats(nat: Sequence[int]) -> list[int]:
    """What the special shapes (seven and eight pairs, thirteen orphans) read of a hand: pairs (a quad
    as two), odd counts, faces held twice or more, faces held once, orphan faces held, orphan faces
    held twice or more."""
    pq = od = p1 = s1 = ot = op = 0
    for t, c in enumerate(nat):
        if c:
            pq += c >> 1
            od += c & 1
            if c >= 2:
                p1 += 1
            else:
                s1 += 1
            if t in _ORPHANS:
                ot += 1
                if c >= 2:
                    op += 1
    return [pq, od, p1, s1, ot, op]


class _Fast:
    """The hand analysis without wildcards, exact and quick. The standard shape reads the per-suit
    tables one changed group at a time (:func:`_discards`, :func:`_draws_below`, cached for the
    process); the special shapes read a few statistics of the hand (:func:`_stats`, cached per
    statistics), and are skipped where a bound shows they cannot be lowest. Results are memoised per
    hand. Only for shapes whose specials read nothing else (seven/eight pairs, thirteen orphans; not
    不搭 or the knitted shapes) -- see :meth:`usable`."""

    def __init__(self, shapes) -> None:
        self.shapes = shapes
        self.special = shapes.any_special
        sizes = set()
        if shapes.seven_pairs or shapes.thirteen_orphans:
            sizes |= {13, 14}
        if shapes.eight_pairs:
            sizes |= {16, 17}
        self.sizes = frozenset(sizes)
        self.wilds_win = shapes.wilds_win
        self.sp_memo: dict[tuple, int] = {}
        self.turn_memo: dict[tuple, tuple] = {}
        self.draw_memo: dict[tuple, tuple] = {}

    @staticmethod
    def usable(shapes) -> bool:
        return shapes.standard and not (shapes.unconnected or shapes.honors_and_knitted or shapes.knitted_straight)

    def _special(self, stats: list[int], total: int, nat: list[int], x: int, d: int) -> int:
        """Special-shape shanten of ``nat`` with ``d`` (-1, 0, +1) copies of ``x`` (``stats`` of ``nat``
        before; ``total`` tiles after)."""
        if total not in self.sizes and not self.wilds_win:
            return 99
        c = nat[x]
        dl = _STAT_DELTA[(c, d, x in _ORPHANS)] if d else (0, 0, 0, 0, 0, 0)
        key = (total, stats[0] + dl[0], stats[1] + dl[1], stats[2] + dl[2], stats[3] + dl[3], stats[4] + dl[4],
               stats[5] + dl[5] > 0)
        v = self.sp_memo.get(key)
        if v is None:
            nat[x] += d
            v = self.sp_memo[key] = _specials(nat, 0, total, self.shapes, 99, None)
            nat[x] -= d
        return v

    def _special_draws(self, std: tuple[int, ...], nat: list[int], stats: list[int], total: int, r: int, s: int,
                       by_class: dict[tuple[int, bool], list[int]]) -> tuple[int, ...]:
        """``std`` (the standard shape's useful draws after discarding ``r``) plus the draws that bring a
        special shape below ``s`` after that discard; ``by_class``: the faces of ``nat`` (before the
        discard) held fewer than 4 times, by (count, orphan)."""
        orph = r in _ORPHANS
        dl = _STAT_DELTA[(nat[r], -1, orph)]
        st2 = [a + b for a, b in zip(stats, dl)]
        nat[r] -= 1
        out = set(std)
        for faces in by_class.values():  # one face stands for its class (another than r: r moved)
            x = faces[0] if faces[0] != r else (faces[1] if len(faces) > 1 else None)
            if x is not None and self._special(st2, total, nat, x, 1) < s:
                out.update(y for y in faces if y != r)
        if self._special(st2, total, nat, r, 1) < s:  # r itself, one copy fewer now
            out.add(r)
        nat[r] += 1
        return tuple(sorted(out))

    def _base(self, nat: list[int]):
        keys = (tuple(nat[0:9]), tuple(nat[9:18]), tuple(nat[18:27]), tuple(nat[27:34]))
        ids = (SUIT_INFO[keys[0]][0], SUIT_INFO[keys[1]][0], SUIT_INFO[keys[2]][0], HONOR_INFO[keys[3]][0])
        return keys, ids, _others(ids)

    def _standard(self, nat: list[int]):
        """``(total, group keys, group ids, others, n, standard shanten)`` of a hand of naturals, ``n`` = sets to
        make (the shared start of :meth:`draws` and :meth:`turn`)."""
        total = sum(nat)
        keys, ids, others = self._base(nat)
        n = total // 3
        now = 3 * n + 1 - BEST[(ids[3], others[3], n)]
        return total, keys, ids, others, n, (now if now > -1 else -1)

    def draws(self, nat: list[int], stats: list[int] | None = None) -> tuple[int, tuple[int, ...]]:
        """``(shanten, naturals whose draw lowers it)`` of a 3k+1 hand of naturals (``stats``: its
        :func:`_stats` if at hand)."""
        key = tuple(nat)
        got = self.draw_memo.get(key)
        if got is not None:
            return got
        _trim_caches()
        total, keys, ids, others, n, now = self._standard(nat)
        sp = self.special and (total + 1 in self.sizes or self.wilds_win)
        if sp and stats is None:
            stats = _stats(nat)
        if sp and now > -1:
            now = _specials(nat, 0, total, self.shapes, now, None)
        n1 = (total + 1) // 3
        # a draw lowers a special shape's shanten by one at most: unless the specials are as low as
        # the hand's shanten now, only the standard shape can be lowered
        if sp and self._special(stats, total, nat, 0, 0) > now:
            sp = False
        out = (_draws_below(0, keys[0], others[0], n1, now) + _draws_below(1, keys[1], others[1], n1, now)
               + _draws_below(2, keys[2], others[2], n1, now) + _draws_below(3, keys[3], others[3], n1, now))
        if sp:  # the standard shape's draws, and those that lower a special shape (by count class)
            std = set(out)
            classes: dict[tuple[int, bool], bool] = {}
            out = []
            for x in range(NUM_KINDS):
                if x in std:
                    out.append(x)
                    continue
                c = nat[x]
                if c >= 4:
                    continue
                ck = (c, x in _ORPHANS)
                low = classes.get(ck)
                if low is None:
                    low = classes[ck] = self._special(stats, total + 1, nat, x, 1) < now
                if low:
                    out.append(x)
            out = tuple(out)
        got = self.draw_memo[key] = (now, out)
        if len(self.draw_memo) > 50_000:
            self.draw_memo.clear()
        return got

    def turn(self, nat: list[int]) -> tuple[int, dict[int, int], int, dict[int, tuple[int, ...]]]:
        """For a 3k+2 hand of naturals: ``(shanten, {natural: shanten after discarding it}, lowest of
        those, {each such natural: the naturals whose draw then lowers it})``."""
        key = tuple(nat)
        got = self.turn_memo.get(key)
        if got is not None:
            return got
        _trim_caches()
        total, keys, ids, others, n, now = self._standard(nat)
        sp = self.special and (total in self.sizes or total - 1 in self.sizes or self.wilds_win)
        stats = _stats(nat) if sp else None
        if sp and now > -1:
            now = _specials(nat, 0, total, self.shapes, now, None)
        n1 = (total - 1) // 3
        minus = (_step_code(False, keys[0], -1), _step_code(False, keys[1], -1), _step_code(False, keys[2], -1),
                 _step_code(True, keys[3], -1))
        disc = dict(_discards(minus[0], 0, others[0], n1) + _discards(minus[1], 1, others[1], n1)
                    + _discards(minus[2], 2, others[2], n1) + _discards(minus[3], 3, others[3], n1))
        best = min(disc.values())
        # removing a tile never lowers a special shape's shanten, and a draw lowers it by one at most:
        # if the whole hand's specials are above the best standard discard, they change nothing here
        # (not with wilds_win 1: a discard leaves a 3k+1 hand ready for a wildcard draw, shanten 0)
        if sp and self.wilds_win != 1 and self._special(stats, total, nat, 0, 0) > best:
            sp = False
        if sp:
            classes: dict[tuple[int, bool], int] = {}
            for r, v in disc.items():
                if v > -1:
                    ck = (nat[r], r in _ORPHANS)
                    u = classes.get(ck)
                    if u is None:
                        u = classes[ck] = self._special(stats, total - 1, nat, r, -1)
                    if u < v:
                        disc[r] = u
            best = min(disc.values())
        useful = {}
        by_class: dict[tuple[int, bool], list[int]] = {}
        if sp:
            for x in range(NUM_KINDS):
                if nat[x] < 4:
                    by_class.setdefault((nat[x], x in _ORPHANS), []).append(x)
        # After discarding r (of group g) a draw in another group h sees group g only through its
        # used-vector id, which many discards share: their useful draws outside g are worked out once.
        shared: dict[tuple[int, int], tuple[int, ...]] = {}
        plus = None
        for r, v in disc.items():
            if v != best:
                continue
            g = 3 if r >= 27 else r // 9
            f = r - _STARTS[g]
            kg = keys[g]
            ig2 = _CODE_IDS[minus[g]][f]
            outside = shared.get((g, ig2))
            if outside is None:
                if plus is None:
                    plus = (_step_code(False, keys[0], 1), _step_code(False, keys[1], 1),
                            _step_code(False, keys[2], 1), _step_code(True, keys[3], 1))
                ids2 = list(ids)
                ids2[g] = ig2
                others2 = _others(ids2)
                outside = ()
                for h in range(4):
                    if h != g:
                        outside += _below(plus[h], h, others2[h], n, best)
                shared[(g, ig2)] = outside
            kg2 = kg[:f] + (kg[f] - 1,) + kg[f + 1:]
            u = outside + _draws_below(g, kg2, others[g], n, best)
            if sp and self._special(stats, total - 1, nat, r, -1) <= best:
                u = self._special_draws(u, nat, stats, total, r, best, by_class)
            useful[r] = u
        got = self.turn_memo[key] = (now, disc, best, useful)
        if len(self.turn_memo) > 20_000:  # hands rarely come back: a small memo (a few kB a hand)
            self.turn_memo.clear()
        return got


class Encoder:
    """Encodes a seat's view as ``(C, 34)`` float32 (see the module doc).

    Args:
        rules: the rule set (its shapes drive the analysis planes, its tile count the wall plane).
        name: ``"majiang-v1"`` or ``"botzone-v0"``.
        oracle: add every other concealed hand (``majiang-v1`` only).
        analysis: fill the hand-analysis planes (shanten, discards, waits, useful tiles); ``False``
            leaves them zero, for speed.
        score_scale: scores are divided by this in the ``scores`` planes.
    """

    def __init__(self, rules: RuleSet, name: str = "majiang-v1", *, oracle: bool = False, analysis: bool = True,
                 score_scale: float = 100.0) -> None:
        self.rules = rules
        self.name = name
        self.oracle = oracle
        self.analysis = analysis
        self.score_scale = float(score_scale)
        self.offsets = plane_offsets(name, oracle)
        self.planes = num_planes(name, oracle)
        self.shape = (self.planes, NUM_KINDS)
        self._an = _Analysis(rules)
        self._total = len(rules.tile_set)
        self._kernel: tuple | bool | None = None  # kernels.shape_flags once decided; False: the Python path
        self._wkernel: tuple | bool | None = None  # kernels.wild_flags once decided; False: the Python path
        if name == "majiang-v1":
            s0 = self.offsets["shanten"][0]
            assert [self.offsets[k][0] for k in _ANALYSIS_PLANES] == list(range(s0, s0 + 5))

    def _kernel_flags(self) -> tuple | bool:
        """The compiled kernel's shape flags (:mod:`majiang.rl.kernels`) if it fills this encoder's
        analysis planes for hands without wildcards, else False (no numba, or shapes ``_Fast`` does
        not take). Decided on first use (it imports numba)."""
        k = self._kernel
        if k is None:
            k = self._kernel = (kernels.shape_flags(self._an.shapes)
                                if self._an.fast is not None and kernels.available() else False)
        return k

    def _wild_flags(self) -> tuple | bool:
        """The wildcard kernel's shape flags (:func:`majiang.rl.kernels.wild_flags`) if it fills this
        encoder's analysis planes for hands the kernel above does not take (wildcards, 不搭), else
        False (no numba, or shapes without the standard one, which no preset has: the Python path).
        Decided on first use."""
        k = self._wkernel
        if k is None:
            sh = self._an.shapes
            takes = sh.standard and not (sh.honors_and_knitted or sh.knitted_straight)  # the analysis drops both
            k = self._wkernel = kernels.wild_flags(sh) if takes and kernels.available() else False
        return k

    def encode(self, view: PlayerView, hidden_hands: Sequence[Sequence[int]] | None = None,
               out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``view``; ``hidden_hands``: the four seats' concealed count vectors
        (needed with ``oracle``). ``out``: an array of :attr:`shape` to fill (zeroed first)."""
        if out is None:
            out = np.zeros(self.shape, dtype=np.float32)
        else:
            out.fill(0.0)
        counts = [0] * NUM_KINDS
        for t in view.hand:
            counts[t] += 1
        if self.name == "botzone-v0":
            out[0, _COL[view.seat_wind]] = 1.0
            out[1, _COL[view.prevalent_wind]] = 1.0
            _thermo(out, 2, counts)
            return out
        o = self.offsets
        me = view.seat
        rel = [(me + r) % 4 for r in range(4)]
        _thermo(out, o["hand"][0], counts)
        if view.last_draw is not None and view.last_draw < NUM_KINDS:
            out[o["last_draw"][0], _COL[view.last_draw]] = 1.0
        visible = [0] * NUM_KINDS
        m0, r0, ro0, h0, f0 = o["melds"][0], o["rivers"][0], o["river_order"][0], o["hidden_kongs"][0], o["flowers"][0]
        for r, s in enumerate(rel):
            mc = [0] * NUM_KINDS
            for m in view.melds[s]:
                for t in m.physical:
                    mc[t] += 1
                    visible[t] += 1
            if any(mc):
                _thermo(out, m0 + 4 * r, mc)
            river = view.rivers[s]
            if river:
                rc = [0] * NUM_KINDS
                for t in river:
                    rc[t] += 1
                    visible[t] += 1
                _thermo(out, r0 + 4 * r, rc)
                for j, t in enumerate(reversed(river[-RIVER_ORDER_SLOTS:])):
                    out[ro0 + RIVER_ORDER_SLOTS * r + j, _COL[t]] = 1.0
            if view.hidden_kongs[s]:
                out[h0 + r] = view.hidden_kongs[s] / 4.0
            if view.flowers[s]:
                out[f0 + r] = len(view.flowers[s]) / 8.0
        if view.wild_face is not None:
            out[o["wild_face"][0], _COL[view.wild_face]] = 1.0
            if self.rules.white_stand_in and view.wild_face != WHITE:
                out[o["white_face"][0], _COL[view.wild_face]] = 1.0
        if view.indicator is not None and view.indicator < NUM_KINDS:
            out[o["indicator"][0], _COL[view.indicator]] = 1.0
            visible[view.indicator] += 1
        out[o["prevalent_wind"][0], _COL[view.prevalent_wind]] = 1.0
        out[o["seat_wind"][0], _COL[view.seat_wind]] = 1.0
        out[o["dealer"][0] + (view.dealer - me) % 4] = 1.0
        out[o["dealer_streak"][0]] = view.dealer_streak / 8.0
        out[o["wall"][0]] = view.wall_live / self._total
        s0 = o["scores"][0]
        for r, s in enumerate(rel):
            out[s0 + r] = view.scores[s] / self.score_scale
        p0 = o["phase"][0]
        if view.phase == "turn":
            out[p0] = 1.0
        elif view.phase == "claim":
            out[p0 + 1] = 1.0
        elif view.phase == "rob":
            out[p0 + 2] = 1.0
        if view.claim_tile is not None:
            out[o["claim_tile"][0], _COL[view.claim_tile]] = 1.0
        if view.discarder is not None:
            out[o["offered_by"][0] + (view.discarder - me) % 4] = 1.0
        unseen = [max(0, 4 - counts[t] - visible[t]) for t in range(NUM_KINDS)]
        _thermo(out, o["unseen"][0], unseen)
        out[o["round"][0]] = view.round / 4.0
        if self.analysis:
            self._analyse(out, view.phase, view.wild_face, counts, unseen)
        if self.oracle:
            if hidden_hands is None:
                raise MajiangError("the oracle observation needs every concealed hand")
            h0 = o["oracle_hands"][0]
            for r in range(1, 4):
                _thermo(out, h0 + 4 * (r - 1), hidden_hands[rel[r]])
        return out

    def _analyse(self, out: np.ndarray, phase: str, wf: int | None, counts: Sequence[int],
                 unseen: Sequence[int]) -> None:
        o = self.offsets
        # without wildcards, the compiled kernel (majiang.rl.kernels) when numba is there: the same planes
        if (wf is None and self._kernel is not False and self._kernel_flags() and out.dtype == np.float32
                and out.flags.c_contiguous
                and kernels.analyse_one(counts, unseen, phase == "turn", out, o["shanten"][0], self._kernel)):
            return
        # hands with wildcards and the 不搭 shape: the wildcard kernel, the same planes
        if (self._wkernel is not False and self._wild_flags() and out.dtype == np.float32 and out.flags.c_contiguous
                and kernels.analyse_wild_one(counts, unseen, phase == "turn", out, o["shanten"][0], self._wkernel,
                                             wf, self._an.white_stand_in)):
            return
        an = self._an
        nat, w = an.natural(counts, wf)
        total = sum(nat) + w
        if total % 3 == 0:
            return
        if w == 0 and an.fast is not None:
            self._analyse_fast(out, phase, counts, nat, total, unseen, wf)
            return
        now = an.full(nat, w)
        out[o["shanten"][0]] = now / 8.0
        # the table path is exact while no wildcard is held and no special shape can be lowest
        sp = an.full(nat, w, an.special) if an.special is not None else 99
        if total % 3 == 2:
            if phase != "turn":
                return
            # removing a tile never lowers a shape's shanten below sp -- but with wilds_win 1 (every
            # 3k+1 hand ready for a wildcard draw) it can: each discard is then counted in full
            fast = w == 0 and an.shapes.wilds_win != 1
            roles = an.roles(wf)
            held = [t for t in range(NUM_KINDS) if counts[t]]
            quick = _scan(nat, {roles[t] for t in held if roles[t] >= 0}, -1, total - 1, an.shapes, sp) if fast else {}
            scored = []
            for t in held:
                r = roles[t]
                if fast and r >= 0:
                    s = quick[r]
                else:
                    if r < 0:
                        s = an.full(nat, w - 1)
                    else:
                        nat[r] -= 1
                        s = an.full(nat, w)
                        nat[r] += 1
                scored.append((s, t, r))
            best = min(s for s, _, _ in scored)
            b0, u0 = o["discard_best"][0], o["discard_useful"][0]
            for s, t, r in scored:
                if s != best:
                    continue
                out[b0, _COL[t]] = 1.0
                if r < 0:
                    u = self._useful(nat, w - 1, s, unseen, wf, None)
                else:
                    nat[r] -= 1
                    u = self._useful(nat, w, s, unseen, wf, None)
                    nat[r] += 1
                out[u0, _COL[t]] = u / 34.0
        else:
            w0, u0 = o["waits"][0], o["useful"][0]
            self._useful(nat, w, now, unseen, wf, (out, w0, u0))

    def _analyse_fast(self, out: np.ndarray, phase: str, counts: Sequence[int], nat: list[int], total: int,
                      unseen: Sequence[int], wf: int | None) -> None:
        """:meth:`_analyse` for a hand without wildcards (:class:`_Fast`); the same planes."""
        o = self.offsets
        an = self._an
        fast = an.fast
        roles = an.roles(wf)
        if total % 3 == 2:
            now, disc, best, useful = fast.turn(nat)
            out[o["shanten"][0]] = now / 8.0
            if phase != "turn":
                return
            b0, u0 = o["discard_best"][0], o["discard_useful"][0]
            get = unseen.__getitem__
            if wf is None:  # physical tiles are their naturals
                for r, u in useful.items():
                    c = _COLS[r]
                    out[b0, c] = 1.0
                    out[u0, c] = sum(map(get, u)) / 34.0
                return
            for t in range(NUM_KINDS):
                if counts[t] and disc[roles[t]] == best:
                    r = roles[t]
                    out[b0, _COLS[t]] = 1.0
                    u = self._physical_useful(useful[r], nat, r, best, roles, wf)
                    out[u0, _COLS[t]] = sum(map(get, u)) / 34.0
            return
        now, useful = fast.draws(nat)
        out[o["shanten"][0]] = now / 8.0
        w0, u0 = o["waits"][0], o["useful"][0]
        for x in self._physical_useful(useful, nat, None, now, roles, wf):
            if unseen[x]:
                out[u0, _COL[x]] = unseen[x] / 4.0
            if now == 0:
                out[w0, _COL[x]] = 1.0

    def _physical_useful(self, useful: tuple[int, ...], nat: list[int], removed: int | None, s: int,
                         roles: tuple[int, ...], wf: int | None) -> list[int]:
        """The physical tiles whose draw lowers the shanten ``s``: those playing a useful natural and,
        with wildcards in the rules, the wildcard face itself if a drawn wildcard lowers it."""
        if wf is None:
            return list(useful)
        u = set(useful)
        out = [x for x in range(NUM_KINDS) if roles[x] >= 0 and roles[x] in u]
        an = self._an
        if removed is not None:
            nat[removed] -= 1
        if an.full(nat, 1) < s:
            out.extend(x for x in range(NUM_KINDS) if roles[x] < 0)
        if removed is not None:
            nat[removed] += 1
        return sorted(out)

    def _useful(self, nat: list[int], w: int, s: int, unseen: list[int], wf: int | None, planes) -> int:
        """Unseen copies of the physical tiles whose draw lowers the shanten ``s`` of the 3k+1 part
        ``nat`` + ``w``; with ``planes = (out, waits plane, useful plane)`` also fill those planes."""
        an = self._an
        sp = an.full(nat, w, an.special) if an.special is not None else 99
        fast = w == 0
        size = sum(nat) + w + 1
        total = 0
        cands = range(NUM_KINDS)
        roles = an.roles(wf)
        if fast and sp - 1 >= s:  # physical tiles whose role is a near natural, and the wildcard face
            near = _near(nat)
            # a natural that joins nothing stands alone: all such draws give one standard shanten,
            # which can still be lower (a set or the pair slot left empty, e.g. beside quads of
            # honours that no set can take): one of them stands for all
            lone = [y for y in range(NUM_KINDS) if y not in near and nat[y] < 4]
            if lone and _scan(nat, (lone[0],), 1, size, an.shapes, sp - 1)[lone[0]] < s:
                near.update(lone)
            cands = [x for x in range(NUM_KINDS) if roles[x] < 0 or roles[x] in near]
        quick = _scan(nat, {roles[x] for x in cands if roles[x] >= 0}, 1, size, an.shapes, sp - 1) if fast else {}
        for x in cands:
            r = roles[x]
            if r < 0:
                new = an.full(nat, w + 1)
            elif nat[r] >= 4:
                continue
            elif fast:
                new = quick[r]  # one draw lowers a shape's shanten by 1 at most: sp - 1 bounds the specials
            else:
                nat[r] += 1
                new = an.full(nat, w)
                nat[r] -= 1
            if new < s:
                total += unseen[x]
                if planes is not None:
                    out, w0, u0 = planes
                    if unseen[x]:
                        out[u0, _COL[x]] = unseen[x] / 4.0
                    if s == 0:
                        out[w0, _COL[x]] = 1.0
        return total


_PHASE_ROW = {"turn": 0, "claim": 1, "rob": 2}
_ANALYSIS_PLANES = ("shanten", "discard_best", "discard_useful", "waits", "useful")  # consecutive


class _Seat:
    """What :class:`TableEncoder` keeps of one seat's planes (counts in our tile order)."""

    __slots__ = ("arr", "table", "hand", "cnt", "last_draw", "melds", "mcs", "mvis", "rivers", "rlist", "rcnt",
                 "flowers", "indicator", "seen", "unseen", "wall", "phase", "claim", "offered")

    def __init__(self, shape: tuple[int, int]) -> None:
        self.arr = np.zeros(shape, dtype=np.float32)
        self.table = None


def _set_count(a: np.ndarray, base: int, col: int, old: int, new: int) -> None:
    """Move one column of a 4-plane count block (planes ``base..base+3``: 1 where count > k)."""
    if new > old:
        for k in range(old, new if new < 4 else 4):
            a[base + k, col] = 1.0
    else:
        for k in range(new, old if old < 4 else 4):
            a[base + k, col] = 0.0


class TableEncoder:
    """``majiang-v1`` straight from a match's table, kept per seat between calls (the learning
    environments' fast path; the result equals :meth:`Encoder.encode` of the seat's view).

    Each seat's planes live in an array that is only rewritten where the table changed since that
    seat's last observation: the hand, melds, each river and flowers are compared by identity with
    the table's cached tuples (which the table replaces on every change), and a change of a few
    tiles (a draw, a discard) moves only their columns. A new hand, a new meld or a tile taken from
    a river rebuilds the seat's planes. The hand analysis comes from :class:`_Fast`'s per-hand memo.
    :meth:`observe` returns a copy.
    """

    def __init__(self, encoder: Encoder) -> None:
        if encoder.name != "majiang-v1":
            raise MajiangError("TableEncoder encodes majiang-v1 only")
        self.enc = encoder
        self.seats = [_Seat(encoder.shape) for _ in range(4)]
        self.o = {k: v[0] for k, v in encoder.offsets.items()}

    def observe(self, m, seat: int) -> np.ndarray:
        """The observation of ``seat`` in the live match ``m`` (a :class:`~majiang.engine.Match`)."""
        t = m.table
        st = self.seats[seat]
        a = st.arr
        o = self.o
        enc = self.enc
        me = seat
        melds, hidden = t.melds_seen_by(me)
        flowers, rivers = t.public_tuples()
        ind = t.indicator if t.indicator is not None else t.indicator_in_wall
        if st.table is not t or ind != st.indicator:
            self._rebuild(st, m, t, me, melds, hidden, ind)
        seen, changed = st.seen, []
        if melds is not st.melds:  # a new meld: its tiles move from a hand (and a river) to the melds
            old = st.mvis
            self._melds(st, me, melds, hidden)
            new = st.mvis
            for x in [x for x in range(NUM_KINDS) if new[x] != old[x]]:
                seen[x] += new[x] - old[x]
                changed.append(x)
        # own hand: move the columns of the tiles whose count changed
        h = t.hand_tuple(me)
        if h is not st.hand:
            st.hand = h
            new, cnt = t.concealed[me], st.cnt
            h0 = o["hand"]
            for x in [x for x in range(NUM_KINDS) if new[x] != cnt[x]]:
                _set_count(a, h0, _COLS[x], cnt[x], new[x])
                seen[x] += new[x] - cnt[x]
                cnt[x] = new[x]
                changed.append(x)
        # rivers: a discard appends one tile; anything else (a claimed tile leaving) rebuilds
        if rivers is not st.rivers:
            st.rivers = rivers
            r0, ro0 = o["rivers"], o["river_order"]
            for r in range(4):
                river = rivers[(me + r) % 4]
                old = st.rlist[r]
                if river == old:
                    continue
                rc = st.rcnt[r]
                if len(river) == len(old) + 1 and river[:-1] == old:
                    x = river[-1]
                    col = _COLS[x]
                    if rc[x] < 4:
                        a[r0 + 4 * r + rc[x], col] = 1.0
                    rc[x] += 1
                    seen[x] += 1
                    changed.append(x)
                    b = ro0 + RIVER_ORDER_SLOTS * r
                    a[b + 1:b + RIVER_ORDER_SLOTS] = a[b:b + RIVER_ORDER_SLOTS - 1]
                    a[b] = 0.0
                    a[b, col] = 1.0
                else:
                    for x in range(NUM_KINDS):
                        if rc[x]:
                            seen[x] -= rc[x]
                            changed.append(x)
                    self._river(st, r, river)
                    for x in river:
                        seen[x] += 1
                        changed.append(x)
                st.rlist[r] = river
        if flowers is not st.flowers:
            st.flowers = flowers
            f0 = o["flowers"]
            for r in range(4):
                a[f0 + r] = len(flowers[(me + r) % 4]) / 8.0
        ld = t.last_draw[me]
        if ld != st.last_draw:
            r0 = o["last_draw"]
            if st.last_draw is not None and st.last_draw < NUM_KINDS:
                a[r0, _COLS[st.last_draw]] = 0.0
            if ld is not None and ld < NUM_KINDS:
                a[r0, _COLS[ld]] = 1.0
            st.last_draw = ld
        wall = t.tail - t.head - enc.rules.reserve
        if wall != st.wall:
            st.wall = wall
            a[o["wall"]] = wall / enc._total
        p = t.phase
        if p is Phase.TURN:
            ph = "turn"
            claim = offered = None
        elif p is Phase.CLAIM:
            ph = "claim"
            claim, offered = t.claim_tile, t.discarder
        elif p is Phase.ROB:
            ph = "rob"
            claim, offered = t.claim_tile, t.kong_seat
        else:
            ph = p.value
            claim = offered = None
        phase_changed = ph != st.phase
        if phase_changed:
            p0 = o["phase"]
            if st.phase in _PHASE_ROW:
                a[p0 + _PHASE_ROW[st.phase]] = 0.0
            if ph in _PHASE_ROW:
                a[p0 + _PHASE_ROW[ph]] = 1.0
            st.phase = ph
        if claim != st.claim:
            r0 = o["claim_tile"]
            if st.claim is not None:
                a[r0, _COLS[st.claim]] = 0.0
            if claim is not None:
                a[r0, _COLS[claim]] = 1.0
            st.claim = claim
        if offered != st.offered:
            b = o["offered_by"]
            if st.offered is not None:
                a[b + (st.offered - me) % 4] = 0.0
            if offered is not None:
                a[b + (offered - me) % 4] = 1.0
            st.offered = offered
        if changed:
            unseen = st.unseen
            u0 = o["unseen"]
            for x in changed:
                u = 4 - seen[x]
                if u < 0:
                    u = 0
                if u != unseen[x]:
                    _set_count(a, u0, _COLS[x], unseen[x], u)
                    unseen[x] = u
        if enc.analysis and (changed or phase_changed):
            s0 = o["shanten"]
            a[s0:s0 + 5] = 0.0
            enc._analyse(a, ph, t.wild_face, st.cnt, st.unseen)
        out = a.copy()
        if enc.oracle:
            h0 = o["oracle_hands"]
            for r in range(1, 4):
                _thermo(out, h0 + 4 * (r - 1), t.concealed[(me + r) % 4])
        return out

    def _river(self, st: _Seat, r: int, river: tuple[int, ...]) -> None:
        """Rewrite relative seat ``r``'s river planes and counts."""
        a, o = st.arr, self.o
        rc = [0] * NUM_KINDS
        for x in river:
            rc[x] += 1
        st.rcnt[r] = rc
        _thermo(a, o["rivers"] + 4 * r, rc)
        b = o["river_order"] + RIVER_ORDER_SLOTS * r
        a[b:b + RIVER_ORDER_SLOTS] = 0.0
        for j, x in enumerate(reversed(river[-RIVER_ORDER_SLOTS:])):
            a[b + j, _COLS[x]] = 1.0

    def _melds(self, st: _Seat, me: int, melds, hidden) -> None:
        """Rewrite the meld planes (as seat ``me`` sees them) of each seat whose melds changed, and
        the tile counts of all melds (``st.mvis``)."""
        a, o = st.arr, self.o
        m0, h0 = o["melds"], o["hidden_kongs"]
        old = st.melds
        mcs = st.mcs
        mvis = list(st.mvis)
        for r in range(4):
            s = (me + r) % 4
            if old is not None and melds[s] == old[s]:
                continue
            mc = [0] * NUM_KINDS
            for mm in melds[s]:
                for x in mm.physical:
                    mc[x] += 1
            prev = mcs[r]
            for x in [x for x in range(NUM_KINDS) if mc[x] != prev[x]]:
                mvis[x] += mc[x] - prev[x]
                _set_count(a, m0 + 4 * r, _COLS[x], prev[x], mc[x])
            mcs[r] = mc
        for r in range(4):  # another seat's concealed kong shows only here
            a[h0 + r] = hidden[(me + r) % 4] / 4.0
        st.mvis = mvis
        st.melds = melds

    def _rebuild(self, st: _Seat, m, t, me: int, melds, hidden, ind) -> None:
        """Every plane of the seat afresh (a new hand, a new meld, the indicator)."""
        a = st.arr
        a.fill(0.0)
        o = self.o
        enc = self.enc
        st.table = t
        st.hand = st.rivers = st.flowers = st.last_draw = None
        st.wall = st.phase = st.claim = st.offered = None
        st.melds = melds
        st.indicator = ind
        wf = t.wild_face
        if wf is not None:
            a[o["wild_face"], _COLS[wf]] = 1.0
            if enc.rules.white_stand_in and wf != WHITE:
                a[o["white_face"], _COLS[wf]] = 1.0
        a[o["prevalent_wind"], _COLS[t.prevalent_wind]] = 1.0
        a[o["seat_wind"], _COLS[27 + (me - t.dealer) % 4]] = 1.0
        a[o["dealer"] + (t.dealer - me) % 4] = 1.0
        a[o["dealer_streak"]] = t.dealer_streak / 8.0
        s0 = o["scores"]
        for r in range(4):
            a[s0 + r] = m.scores[(me + r) % 4] / enc.score_scale
        a[o["round"]] = m.round / 4.0
        st.melds = None
        st.mcs = [[0] * NUM_KINDS for _ in range(4)]
        st.mvis = [0] * NUM_KINDS
        self._melds(st, me, melds, hidden)
        mvis = st.mvis
        if ind is not None and ind < NUM_KINDS:
            a[o["indicator"], _COLS[ind]] = 1.0
        # hand, rivers, unseen
        cnt = list(t.concealed[me])
        st.cnt = cnt
        st.hand = t.hand_tuple(me)
        _thermo(a, o["hand"], cnt)
        _, rivers = t.public_tuples()
        st.rivers = rivers
        st.rlist = [rivers[(me + r) % 4] for r in range(4)]
        st.rcnt = [None] * 4
        for r in range(4):
            self._river(st, r, st.rlist[r])
        seen = [cnt[x] + mvis[x] + st.rcnt[0][x] + st.rcnt[1][x] + st.rcnt[2][x] + st.rcnt[3][x]
                for x in range(NUM_KINDS)]
        if ind is not None and ind < NUM_KINDS:
            seen[ind] += 1
        st.seen = seen
        st.unseen = [4 - v if v < 4 else 0 for v in seen]
        _thermo(a, o["unseen"], st.unseen)
        st.phase = None  # the analysis planes are filled below in observe (phase "changed")


__all__ = ["BOTZONE_V0_SPEC", "OBSERVATIONS", "RIVER_ORDER_SLOTS", "Encoder", "TableEncoder", "num_planes",
           "observation_bounds", "plane_offsets", "plane_spec", "to_grid"]
