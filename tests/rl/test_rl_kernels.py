"""The compiled analysis kernel (majiang.rl.kernels) gives exactly the Python path's planes.

* its per-group used-vectors equal :data:`majiang.analysis.tables.USED` / ``HONOR_USED`` (the tables
  :func:`majiang.analysis.shanten` reads);
* the five analysis planes (shanten, discard_best, discard_useful, waits, useful) it writes equal
  those of ``Encoder._analyse`` on its Python path (``_Fast``, itself tested against ``shanten`` in
  test_rl_fast_obs.py), byte for byte, for random hands of every size up to 17 tiles, random unseen
  counts, on the turn and outside it, under every preset's analysis shapes that ``_Fast`` takes and
  a few more (seven pairs without quads as two pairs, all three special shapes at once, ``wilds_win``
  1, which no preset has); and against :func:`~majiang.analysis.shanten` itself;
* the batched core's rows carry the planes the Python path gives for the row's own hand and unseen
  planes;
* without numba (``MAJIANG_NUMBA=0``) the Python path runs and the planes are the same.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.analysis import shanten  # noqa: E402
from majiang.analysis.shapes import SEVEN_PAIRS_AND_ORPHANS, STANDARD  # noqa: E402
from majiang.analysis.tables import HONOR_USED, USED, VECTORS  # noqa: E402
from majiang.engine import PRESET_NAMES, resolve  # noqa: E402
from majiang.errors import MajiangError  # noqa: E402
from majiang.rl import kernels  # noqa: E402
from majiang.rl.actions import COLUMN_OF  # noqa: E402
from majiang.rl.observations import Encoder, _Fast  # noqa: E402

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba cannot be imported")


def _full(vid: int) -> tuple[int, ...]:
    """A trimmed (u0, u1) pair of tables.VECTORS as the kernel's 12 numbers U[2m + p]."""
    u0, u1 = VECTORS[vid]
    return tuple(u[min(m, len(u) - 1)] for m in range(6) for u in (u0, u1))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9))
def test_suit_vectors_equal_the_tables(c: list[int]) -> None:
    assert kernels.used_vector(0, c) == _full(USED[tuple(c)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=7, max_size=7))
def test_honour_vectors_equal_the_tables(c: list[int]) -> None:
    assert kernels.used_vector(3, c) == _full(HONOR_USED[tuple(c)])


def test_vectors_where_the_cap_of_four_uses_binds() -> None:
    # quads next to single empty faces, at the suit's ends, and crowded blocks
    for c in ([4, 0, 4, 0, 4, 0, 4, 0, 4], [4, 4, 0, 4, 4, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 4, 1, 1],
              [1, 1, 4, 0, 0, 0, 0, 0, 0], [4, 4, 4, 4, 1, 0, 0, 0, 0], [2, 0, 4, 0, 2, 0, 0, 3, 3]):
        assert kernels.used_vector(1, c) == _full(USED[tuple(c)])
    with pytest.raises(MajiangError):
        kernels.used_vector(0, [5, 0, 0, 0, 0, 0, 0, 0, 0])


def _shapes_list() -> list:
    out = []
    for p in PRESET_NAMES:
        sh = dataclasses.replace(resolve(p).shape_rules, honors_and_knitted=False, knitted_straight=False)
        if _Fast.usable(sh):
            out.append(sh)
    out += [STANDARD, SEVEN_PAIRS_AND_ORPHANS, dataclasses.replace(SEVEN_PAIRS_AND_ORPHANS, quad_as_two_pairs=False),
            dataclasses.replace(STANDARD, eight_pairs=True, seven_pairs=True, thirteen_orphans=True),
            dataclasses.replace(SEVEN_PAIRS_AND_ORPHANS, wilds_win=1)]
    return list(dict.fromkeys(out))


SHAPES = _shapes_list()


def _pair_of_encoders(shapes) -> tuple[Encoder, Encoder]:
    """Two ``majiang-v1`` encoders analysing under ``shapes``: one on the kernel, one on Python."""
    encs = []
    for _ in range(2):
        e = Encoder(resolve("mcr"))
        an = e._an
        an.shapes = shapes
        an.special = dataclasses.replace(shapes, standard=False) if shapes.any_special else None
        an.fast = _Fast(shapes)
        encs.append(e)
    assert encs[0]._kernel_flags() == kernels.shape_flags(shapes)
    encs[1]._kernel = False
    encs[1]._wkernel = False  # and not the wildcard kernel (test_rl_wild_kernel.py)
    return encs[0], encs[1]


_ENCODERS = {sh: _pair_of_encoders(sh) for sh in SHAPES} if kernels.available() else {}  # else skipped

# pieces a hand is built from: a lone tile, a pair, a pung, a chow (suits), at a tile
_PIECES = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 33)), min_size=1, max_size=24)


def _hand(pieces: list[tuple[int, int]], size: int) -> list[int]:
    """Counts (each 0-4) of ``size`` tiles (or fewer if the pieces run out) laid from ``pieces``."""
    c = [0] * 34
    n = 0
    for kind, t in pieces:
        if kind == 3:
            tiles = [t, t + 1, t + 2] if t < 27 and t % 9 <= 6 else [t]
        else:
            tiles = [t] * (kind + 1)
        for x in tiles:
            if n < size and c[x] < 4:
                c[x] += 1
                n += 1
    return c


@pytest.mark.parametrize("shapes", SHAPES, ids=[f"shapes{i}" for i in range(len(SHAPES))])
@settings(max_examples=300, deadline=None)
@given(pieces=_PIECES, size=st.sampled_from([1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 13, 14, 16, 17, 9]),
       seen=st.lists(st.integers(0, 4), min_size=34, max_size=34), turn=st.booleans())
@example(pieces=[(0, 0)] * 4 + [(0, 1), (2, 1), (2, 2), (2, 3), (2, 5)], size=17, seen=[0] * 34, turn=True)
def test_kernel_planes_equal_the_python_path(shapes, pieces, size: int, seen: list[int], turn: bool) -> None:
    counts = _hand(pieces, size)
    unseen = [max(0, 4 - counts[t] - seen[t]) for t in range(34)]
    ek, ep = _ENCODERS[shapes]
    a = np.zeros(ek.shape, dtype=np.float32)
    b = np.zeros(ek.shape, dtype=np.float32)
    phase = "turn" if turn else "claim"
    ek._analyse(a, phase, None, counts, unseen)
    ep._analyse(b, phase, None, counts, unseen)
    assert a.tobytes() == b.tobytes(), (counts, unseen, phase)


def _oracle_planes(shapes, counts: list[int], unseen: list[int], turn: bool) -> np.ndarray:
    """The five planes straight from their definition through :func:`majiang.analysis.shanten`."""
    out = np.zeros((5, 34), dtype=np.float32)
    total = sum(counts)
    if total % 3 == 0:
        return out

    def lower(h: list[int], s: int) -> list[int]:
        return [y for y in range(34) if h[y] < 4 and shanten([h[i] + (i == y) for i in range(34)], 0, shapes) < s]

    now = shanten(counts, 0, shapes)
    out[0] = now / 8.0
    if total % 3 == 2:
        if turn:
            after = {}
            for x in range(34):
                if counts[x]:
                    h = list(counts)
                    h[x] -= 1
                    after[x] = (shanten(h, 0, shapes), h)
            best = min(s for s, _ in after.values())
            for x, (s, h) in after.items():
                if s == best:
                    out[1, COLUMN_OF[x]] = 1.0
                    out[2, COLUMN_OF[x]] = sum(unseen[y] for y in lower(h, best)) / 34.0
    else:
        for y in lower(counts, now):
            if unseen[y]:
                out[4, COLUMN_OF[y]] = unseen[y] / 4.0
            if now == 0:
                out[3, COLUMN_OF[y]] = 1.0
    return out


@pytest.mark.parametrize("shapes", SHAPES, ids=[f"shapes{i}" for i in range(len(SHAPES))])
@settings(max_examples=200, deadline=None)
@given(pieces=_PIECES, size=st.sampled_from([2, 5, 8, 11, 14, 17, 14]),
       seen=st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_the_bots_useful_counts_are_the_planes(shapes, pieces, size: int, seen: list[int]) -> None:
    """The efficiency bots' tie-break (:func:`kernels._best_useful` after :func:`kernels._shanten_one`,
    from the state the shanten loop leaves) writes the ``discard_best`` and ``discard_useful``
    planes that :func:`kernels._rows` writes for the same turn hand (the planes themselves are held
    to the Python path by the tests above)."""
    counts = _hand(pieces, size)
    if sum(counts) % 3 != 2:
        return
    unseen = np.array([max(0, 4 - counts[t] - seen[t]) for t in range(34)], dtype=np.int64)
    flags = kernels.shape_flags(shapes)
    su, hu = kernels._Tables.get()
    want = np.zeros((1, 5, 34), dtype=np.float32)
    kernels.analyse_rows(np.array([counts], dtype=np.int8), np.ones(1, dtype=np.int8), unseen[None, :], want, 0,
                         flags)
    keys, W, stt, disc, spd, cg, cv, cm, _, cbits, cres, *_ = kernels._rows_scratch()
    res = np.zeros(4, dtype=np.int64)
    cnt = np.array(counts, dtype=np.int8)
    kernels._shanten_one(cnt, 1, *flags, su, hu, keys, W, stt, res, disc, spd)
    got = np.zeros((3, 34), dtype=np.float32)
    kernels._best_useful(cnt, sum(counts), res[1], disc, spd, keys, W, stt, unseen, got, 0, *flags, su, hu,
                         *kernels._Tables.draws(), cg, cv, cm, cbits, cres)
    assert res[0] * 1.0 == want[0, 0, 0] * 8.0
    assert got[1:].tobytes() == want[0, 1:3].tobytes(), counts
    assert cnt.tolist() == counts  # the hand is given back as it came


@settings(max_examples=300, deadline=None)
@given(group=st.integers(0, 3), counts=st.lists(st.integers(0, 4), min_size=9, max_size=9))
@example(group=0, counts=[2, 0, 0, 0, 0, 0, 0, 0, 0])
@example(group=3, counts=[4, 4, 4, 0, 0, 0, 1, 0, 0])
def test_the_draw_tables_are_the_used_vectors_raised(group: int, counts: list[int]) -> None:
    """A draw table row (``kernels._fill_inc``, the efficiency bots' tie-break reads it) has bit f of
    entry e exactly where drawing face f (held fewer than four times) raises the group's used-vector
    entry e (``used_vector``, the ``tables.USED`` numbers), and a draw raises an entry by one at most."""
    width = 7 if group == 3 else 9
    c = counts[:width]
    key = sum(x * 5 ** i for i, x in enumerate(c))
    su, hu = kernels._Tables.get()
    isu, ihu = kernels._Tables.draws()
    it = ihu if group == 3 else isu
    kernels._fill_inc(group, key, su, hu, it)
    before = kernels.used_vector(group, c)
    assert it[key, 0] == 1
    for e in range(1, 12):
        want = 0
        for f in range(width):
            if c[f] < 4:
                after = kernels.used_vector(group, c[:f] + [c[f] + 1] + c[f + 1:])
                assert 0 <= after[e] - before[e] <= 1
                want |= (after[e] > before[e]) << f
        assert it[key, e] == want, (e, c)


_WW1 = dataclasses.replace(SEVEN_PAIRS_AND_ORPHANS, wilds_win=1)


@settings(max_examples=60, deadline=None)
@given(pieces=_PIECES, size=st.sampled_from([2, 4, 5, 7, 8, 13, 14]), turn=st.booleans(),
       seen=st.lists(st.integers(0, 4), min_size=34, max_size=34))
@example(pieces=[(0, 0)] * 4 + [(0, 1)], size=5, turn=True, seen=[0] * 34)
def test_kernel_planes_with_wilds_win_one_equal_shanten(pieces, size: int, turn: bool, seen: list[int]) -> None:
    """``wilds_win`` 1 makes every 3k+1 hand ready for a wildcard draw (shanten 0), so a discard can
    lower the special shapes' shanten: the kernel follows ``shanten`` there (``_Fast`` once did not:
    1m 1m 1m 1m 2m, where discarding 2m leaves shanten 0)."""
    counts = _hand(pieces, size)
    unseen = [max(0, 4 - counts[t] - seen[t]) for t in range(34)]
    ek = Encoder(resolve("mcr"))
    ek._an.shapes = _WW1
    ek._an.fast = _Fast(_WW1)
    a = np.zeros(ek.shape, dtype=np.float32)
    ek._analyse(a, "turn" if turn else "claim", None, counts, unseen)
    s0 = ek.offsets["shanten"][0]
    assert a[s0:s0 + 5].tobytes() == _oracle_planes(_WW1, counts, unseen, turn).tobytes()


@settings(max_examples=40, deadline=None)
@given(pieces=_PIECES, size=st.sampled_from([4, 5, 7, 8, 10, 11, 13, 14]), turn=st.booleans(),
       seen=st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_kernel_planes_equal_shanten_mcr(pieces, size: int, turn: bool, seen: list[int]) -> None:
    counts = _hand(pieces, size)
    unseen = [max(0, 4 - counts[t] - seen[t]) for t in range(34)]
    ek, _ = _ENCODERS[SHAPES[0]]
    a = np.zeros(ek.shape, dtype=np.float32)
    ek._analyse(a, "turn" if turn else "claim", None, counts, unseen)
    s0 = ek.offsets["shanten"][0]
    assert a[s0:s0 + 5].tobytes() == _oracle_planes(SHAPES[0], counts, unseen, turn).tobytes()


def test_planes_of_a_known_hand() -> None:
    """Worked by hand (RULES.md §9, MCR shapes): 123m 456m 789m 11p 23p 5s on the turn is one tile
    from ready (shanten 0 after its best discards). Discarding 5s leaves a wait on 1p and 4p (11p
    pair + 23p, or 123p + 1p): 2 + 4 unseen copies; discarding a 1p leaves 123p and a wait on 5s:
    3 unseen. Any other discard leaves shanten 1. The 13 tiles after discarding 5s are ready: waits
    1p and 4p, useful 2/4 and 4/4."""
    counts = [0] * 34
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 22):
        counts[t] += 1
    unseen = [4 - c for c in counts]
    ek, ep = _ENCODERS[SHAPES[0]]
    assert ek._an.shapes.seven_pairs and ek._an.shapes.thirteen_orphans  # the MCR analysis shapes
    o = ek.offsets
    a = np.zeros(ek.shape, dtype=np.float32)
    ek._analyse(a, "turn", None, counts, unseen)
    assert (a[o["shanten"][0]] == 0.0).all()
    assert sorted(np.flatnonzero(a[o["discard_best"][0]]).tolist()) == sorted([COLUMN_OF[22], COLUMN_OF[9]])
    assert a[o["discard_useful"][0], COLUMN_OF[22]] == np.float32(6 / 34.0)
    assert a[o["discard_useful"][0], COLUMN_OF[9]] == np.float32(3 / 34.0)
    counts[22] = 0
    b = np.zeros(ek.shape, dtype=np.float32)
    ek._analyse(b, "claim", None, counts, unseen)
    assert (b[o["shanten"][0]] == 0.0).all()
    assert sorted(np.flatnonzero(b[o["waits"][0]]).tolist()) == sorted([COLUMN_OF[9], COLUMN_OF[12]])
    assert b[o["useful"][0], COLUMN_OF[9]] == 0.5 and b[o["useful"][0], COLUMN_OF[12]] == 1.0
    assert np.count_nonzero(b[o["useful"][0]]) == 2
    for arr, phase in ((a, "turn"), (b, "claim")):
        c = list(counts)
        if phase == "turn":
            c[22] = 1
        want = np.zeros(ek.shape, dtype=np.float32)
        ep._analyse(want, phase, None, c, unseen)
        assert arr.tobytes() == want.tobytes()


def test_batched_rows_carry_the_python_planes() -> None:
    """Every row of the batched core (the kernel fills all rows at once) has the planes the Python
    path gives for that row's hand, unseen counts and phase, read back from its own observation."""
    v = rl.VectorEnv(16, "mcr")
    assert v.batched
    enc = v.core.encoder
    py = Encoder(resolve("mcr"))
    py._kernel = False
    py._wkernel = False
    o = enc.offsets
    h0, u0, p0, s0 = o["hand"][0], o["unseen"][0], o["phase"][0], o["shanten"][0]
    tiles = np.argsort(np.array(COLUMN_OF))  # layout column -> our tile
    obs, _ = v.reset(seed=11)
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(120):
        x = obs["observation"]
        for i in range(v.n):
            counts = [0] * 34
            unseen = [0] * 34
            for col in range(34):
                counts[tiles[col]] = int(x[i, h0:h0 + 4, col].sum())
                unseen[tiles[col]] = int(x[i, u0:u0 + 4, col].sum())
            phase = "turn" if x[i, p0, 0] == 1.0 else "claim"
            want = np.zeros(enc.shape, dtype=np.float32)
            py._analyse(want, phase, None, counts, unseen)
            assert x[i, s0:s0 + 5].tobytes() == want[s0:s0 + 5].tobytes()
            checked += 1
        mask = obs["action_mask"]
        obs, *_ = v.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert checked == 120 * 16


def test_without_numba_the_python_path_gives_the_same_planes() -> None:
    code = (
        "import numpy as np\n"
        "from majiang.engine import resolve\n"
        "from majiang.rl import kernels\n"
        "from majiang.rl.observations import Encoder\n"
        "assert not kernels.available()\n"
        "e = Encoder(resolve('mcr'))\n"
        "c = [1,1,1,1,1,1,1,1,1,2,1,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0]\n"
        "a = np.zeros(e.shape, np.float32)\n"
        "e._analyse(a, 'turn', None, c, [4 - x for x in c])\n"
        "assert e._kernel is False\n"
        "print(a[e.offsets['shanten'][0]:e.offsets['shanten'][0] + 5].tobytes().hex())\n"
    )
    env = dict(os.environ, MAJIANG_NUMBA="0")
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    counts = [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] + [0] * 11
    ek, _ = _ENCODERS[SHAPES[0]]
    a = np.zeros(ek.shape, dtype=np.float32)
    ek._analyse(a, "turn", None, counts, [4 - x for x in counts])
    s0 = ek.offsets["shanten"][0]
    assert got.stdout.strip() == a[s0:s0 + 5].tobytes().hex()


def test_rows_the_kernel_cannot_take_are_left_to_the_caller() -> None:
    """A count outside 0-4 or more than 17 tiles: the row is reported, not filled; the others are."""
    ek, ep = _ENCODERS[SHAPES[0]]
    good = [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] + [0] * 11
    five = list(good)
    five[0] = 5
    many = [3] * 6 + [0] * 28  # 18 tiles
    counts = np.array([good, five, many, good], dtype=np.int16)
    unseen = np.maximum(0, 4 - counts)
    out = np.zeros((4, *ek.shape), dtype=np.float32)
    turn = np.array([True, True, True, False])
    s0 = ek.offsets["shanten"][0]
    skipped = kernels.analyse_rows(counts, turn, unseen, out, s0, ek._kernel_flags())
    assert skipped.tolist() == [False, True, True, False]
    assert not out[1].any() and not out[2].any()
    for i, phase in ((0, "turn"), (3, "claim")):
        want = np.zeros(ek.shape, dtype=np.float32)
        ep._analyse(want, phase, None, good, unseen[i].tolist())
        assert out[i].tobytes() == want.tobytes()


def test_the_python_path_counts_draws_that_join_nothing() -> None:
    """E E E E S S S S W W (wenzhou, 1m the wildcard face, none held; 10 concealed tiles): pungs of E
    and S and the W pair leave a set slot no held tile can fill (a fifth use of E or S), so any tile
    that joins nothing lowers the shanten (2 -> 1), as :func:`majiang.analysis.shanten` says. The
    general path (wildcard rule sets) once skipped such draws. The wildcard kernel says the same."""
    for wild_kernel in (False, True):
        e = Encoder(resolve("wenzhou"))
        if not wild_kernel:
            e._wkernel = False
        counts = [0] * 34
        counts[27], counts[28], counts[29] = 4, 4, 2
        unseen = [4 - c for c in counts]
        out = np.zeros(e.shape, dtype=np.float32)
        e._analyse(out, "claim", 0, counts, unseen)
        assert (e._wkernel is not False) == wild_kernel
        shapes = e._an.shapes
        s = shanten(counts, 0, shapes)
        assert s == 2 and out[e.offsets["shanten"][0], 0] == np.float32(2 / 8)
        lower = [t for t in range(34) if counts[t] < 4
                 and shanten([counts[i] + (i == t) for i in range(34)], 0, shapes) < s]
        assert len(lower) == 32  # all but the two quads
        assert sorted(np.flatnonzero(out[e.offsets["useful"][0]]).tolist()) == sorted(COLUMN_OF[t] for t in lower)


def test_shapes_the_kernel_does_not_take_are_refused() -> None:
    with pytest.raises(MajiangError, match="kernel"):
        kernels.shape_flags(dataclasses.replace(STANDARD, unconnected=True))
    with pytest.raises(MajiangError, match="kernel"):
        kernels.shape_flags(dataclasses.replace(STANDARD, knitted_straight=True))


def test_a_cache_saved_before_a_called_module_changed_is_not_loaded(tmp_path, monkeypatch) -> None:
    """numba's cache is keyed to a function's own file: ``compile_lazily`` adds the files of the
    modules the loop calls (``depends``) to the key, so a cache saved before one of them changed is
    not loaded (the loop never runs the other module's old code), and one saved after is."""
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    dep = tmp_path / "dep_mod.py"
    dep.write_text("def g(x):\n    return x + 1\n")
    caller = tmp_path / "caller_mod.py"
    caller.write_text("def f(x):\n    return x * 2\n")

    def wrapped() -> object:
        ns: dict = {"__file__": str(caller)}
        exec(compile(caller.read_text(), str(caller), "exec"), ns)
        kernels.compile_lazily(ns, ("f",), (str(dep),))
        return ns["f"]

    def cached(f) -> bool:  # noqa: ANN001 - a numba dispatcher
        return f._cache.load_overload(sig, f.targetctx) is not None

    f = wrapped()
    assert f(3) == 6
    sig = f.signatures[0]
    assert cached(wrapped())  # saved, and loaded by a new wrapper while nothing changed
    dep.write_text("def g(x):\n    return x + 100\n")
    g = wrapped()
    assert not cached(g)  # the called module changed since: compiled again
    assert g(4) == 8
    assert cached(wrapped())  # and saved with the new key
