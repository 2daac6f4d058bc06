"""The batched core's compiled step loops (majiang.rl.step_kernels) against its numpy code: the same
state arrays, observations, masks and rewards step for step, on every rule set the batched core
supports, and the same win gates on random hands."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.analysis import MCR_SHAPES  # noqa: E402
from majiang.rl import batched, step_kernels  # noqa: E402

if not step_kernels.available():  # pragma: no cover - numba is in the test extra
    pytest.skip("numba is not installed", allow_module_level=True)

# a policy that reaches the rare events: wins whenever offered, claims and kongs often
_WEIGHTS = np.ones(rl.ACTION_SIZE)
_WEIGHTS[1] = 1e6
_WEIGHTS[99:235] = 50.0
_WEIGHTS[36:99] = 5.0

_STATE = ("hand", "wall", "head", "tail", "phase", "cur", "after_claim", "kong_chain", "flower_chain", "any_claim",
          "discards_made", "last_draw", "claim_tile", "origin", "last_discard", "awaiting", "ans_kind", "can_win",
          "can_pung", "can_kong", "chow3", "turn_win", "gate_group", "gate_special", "meld_vis", "ckong", "n_melds",
          "pung", "river", "river_len", "river_cnt", "vis", "ro", "flower_n", "done", "deltas", "seat",
          "meld_kind", "meld_tile", "meld_offer", "meld_claimed", "meld_from", "flower_tiles")


@pytest.mark.parametrize("spec", ["mcr", "shandong", "mcr,multiple_winners=all", "mcr,chow=false,added_kong_drawn_only=true",
                                  "mcr,rob_kong=false,claim_last_discard=true"])
def test_compiled_step_equals_the_numpy_step(spec: str) -> None:
    """Two cores driven by the same actions, one with the compiled loops and one without: every
    state array, observation, mask, reward and termination equal after every step."""
    a = rl.VectorEnv(12, spec, batched=True)
    b = rl.VectorEnv(12, spec, batched=True)
    assert a.core._jit_step
    b.core._jit_step = False
    oa, _ = a.reset(seed=21)
    ob, _ = b.reset(seed=21)
    rng = np.random.default_rng(21)
    ends = claims = 0
    for _ in range(400):
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        for name in _STATE:
            assert np.array_equal(getattr(a.core, name), getattr(b.core, name)), name
        claims += int((a.core.phase == batched.CLAIM).sum())
        acts = (rng.random(oa["action_mask"].shape) * oa["action_mask"] * _WEIGHTS).argmax(1)
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert np.array_equal(ia["seat"], ib["seat"])
        ends += int(ta.sum())
    assert ends >= 10 and claims >= 50


_WILD_STATE = tuple(x for x in _STATE if x not in ("gate_group", "gate_special")) + (
    "wild", "white_face", "indicator", "penalties", "run_first", "run_tile", "run_len", "meld_stand")


@pytest.mark.parametrize("spec", ["wenzhou", "wenzhou-w16", "seed000", "wenzhou,wild_discardable=true",
                                  "wenzhou,wild_claimable=true,white_stand_in=false"])
def test_compiled_wild_step_equals_the_numpy_step(spec: str) -> None:
    """The wildcard rule sets' compiled step (``step_kernels._step_wild``, the masks and the fused
    observation) against the numpy step: every state array (the penalties and the run 被跟 follows
    included), observation, mask and reward equal after every step. The policy discards the face
    just discarded when it can, so 被跟 comes up."""
    a = rl.VectorEnv(12, spec, batched=True)
    b = rl.VectorEnv(12, spec, batched=True)
    assert a.core._wild_jit and not a.core._jit_step
    b.core._wild_jit = False
    oa, _ = a.reset(seed=22)
    ob, _ = b.reset(seed=22)
    rng = np.random.default_rng(22)
    col = np.array(rl.actions.COLUMN_OF)
    ends = claims = 0
    for _ in range(400):
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        for name in _WILD_STATE:
            assert np.array_equal(getattr(a.core, name), getattr(b.core, name)), name
        claims += int((a.core.phase == batched.CLAIM).sum())
        w = rng.random(oa["action_mask"].shape) * oa["action_mask"] * _WEIGHTS
        w[np.arange(12), 2 + col[a.core.claim_tile]] *= 1e4
        acts = w.argmax(1)
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert np.array_equal(ia["seat"], ib["seat"])
        ends += int(ta.sum())
    assert ends >= 10 and claims >= 50


def _hands(draw, size: int) -> list[int]:
    c = [0] * 34
    for t in draw(st.lists(st.integers(0, 33), min_size=size, max_size=size)):
        if c[t] < 4:
            c[t] += 1
    return c


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_compiled_win_gates_equal_the_numpy_ones(data) -> None:
    """Random 3k+1 hands (and hands near seven pairs, thirteen orphans and the knitted shapes):
    the compiled gates are the numpy gates, for MCR's shapes."""
    rows = []
    for _ in range(16):
        kind = data.draw(st.sampled_from(["any", "pairs", "orphans", "knitted"]))
        if kind == "pairs":
            faces = data.draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True))
            c = [0] * 34
            for t in faces[:6]:
                c[t] = 2
            c[faces[6]] = 1
        elif kind == "orphans":
            c = [0] * 34
            for t in data.draw(st.lists(st.sampled_from([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
                                        min_size=13, max_size=13)):
                c[t] = min(c[t] + 1, 4)
        elif kind == "knitted":
            arr = data.draw(st.sampled_from(list(batched.KNITTED_ARRANGEMENTS)))
            c = [0] * 34
            for t in arr[:8]:
                c[t] = 1
            for t in data.draw(st.lists(st.integers(0, 33), min_size=5, max_size=5)):
                c[t] = min(c[t] + 1, 4)
        else:
            c = _hands(data.draw, data.draw(st.sampled_from([13, 10, 7, 4])))
        rows.append(c)
    x = np.array(rows, dtype=np.int16)
    melds = np.array([(13 - int(sum(c))) // 3 for c in rows], dtype=np.int64)
    groups, special = batched.win_gates(x, melds, MCR_SHAPES)
    hand = x[:, None, :].repeat(4, axis=1)
    g = np.zeros((len(rows), 4), dtype=np.int64)
    sp = np.zeros((len(rows), 4), dtype=bool)
    nm = melds[:, None].repeat(4, axis=1)
    batched.suit_tables()
    tables = (batched._SUIT_BITS, batched._HONOR_BITS, batched._KNITTED.astype(np.int64), batched._OFF_KNITTED)
    r = np.arange(len(rows), dtype=np.int64)
    step_kernels.win_gates(hand, r, (r % 4).astype(np.int64), nm, MCR_SHAPES, g, sp, tables)
    assert np.array_equal(g[r, r % 4], groups)
    assert np.array_equal(sp[r, r % 4], special)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_compiled_candidates_equal_the_numpy_ones(data) -> None:
    """Random 3k+2 hands, winning hands and hands near the special shapes, with and without an added
    tile: the compiled shape test is :func:`~majiang.rl.batched.shape_candidates`, for MCR's shapes."""
    rows, extra = [], []
    for _ in range(16):
        kind = data.draw(st.sampled_from(["any", "pairs", "orphans", "knitted", "win"]))
        c = [0] * 34
        if kind == "pairs":
            for t in data.draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
                c[t] = 2
        elif kind == "orphans":
            for t in data.draw(st.lists(st.sampled_from([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
                                        min_size=14, max_size=14)):
                c[t] = min(c[t] + 1, 4)
        elif kind == "knitted":
            for t in data.draw(st.sampled_from(list(batched.KNITTED_ARRANGEMENTS))):
                c[t] = 1
            for t in data.draw(st.lists(st.integers(27, 33), min_size=5, max_size=5)):
                c[t] = min(c[t] + 1, 4)
        elif kind == "win":
            for _ in range(4):
                lo = data.draw(st.integers(0, 26).filter(lambda t: t % 9 <= 6))
                for t in (lo, lo + 1, lo + 2):
                    c[t] = min(c[t] + 1, 4)
            t = data.draw(st.integers(0, 33))
            c[t] = min(c[t] + 2, 4)
        else:
            c = _hands(data.draw, data.draw(st.sampled_from([14, 11, 8, 5])))
        e = -1
        held = [t for t in range(34) if c[t]]
        if held and data.draw(st.booleans()):  # one tile out, given back as the extra tile
            e = data.draw(st.sampled_from(held))
            c[e] -= 1
        rows.append(c)
        extra.append(e)
    hand = np.array(rows, dtype=np.int16)[:, None, :].repeat(4, axis=1)
    r = np.arange(len(rows), dtype=np.int64)
    batched.suit_tables()
    tables = (batched._SUIT_BITS, batched._HONOR_BITS, batched._KNITTED.astype(np.int64), batched._OFF_KNITTED)
    got = step_kernels.candidates(hand, r, r % 4, np.array(extra, dtype=np.int64), MCR_SHAPES, tables)
    full = np.array(rows, dtype=np.int16)
    for k, e in enumerate(extra):
        if e >= 0:
            full[k, e] += 1
    assert np.array_equal(got, batched.shape_candidates(full, MCR_SHAPES))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), spec=st.sampled_from(["mcr", "shandong"]))
def test_compiled_deal_is_the_engine_deal(seed: int, spec: str) -> None:
    """The compiled deal (the wall shuffled by the kernel's Mersenne Twister, broken and dealt, flowers
    replaced) lays out exactly what the engine's seeds give (``BatchedCore.deal``, through
    ``random.Random``), and the hand the numpy lay-out makes."""
    a = rl.VectorEnv(2, spec, batched=True).core
    b = rl.VectorEnv(2, spec, batched=True).core
    b._jit_step = False
    a.reset_rows([1], [seed])
    b.reset_rows([1], [seed])
    for name in _STATE + ("dealer", "prevalent"):
        assert np.array_equal(getattr(a, name)[1], getattr(b, name)[1]), name
    assert a.flowers[1] == b.flowers[1] and a.dice[1] == b.dice[1]
    dealer, dice, wall, head, tail, concealed, flowers, last = b.deal(seed)
    assert a.wall[1].tolist() == wall and a.hand[1].tolist() == concealed and a.flowers[1] == flowers
    assert a._sync(1).wall == wall


def _wild_hand(rng, size: int, wf: int) -> list[int] | None:
    """A random 3k+2 hand near a win (sets and a pair, or pairs) or anywhere, some tiles then
    replaced by wildcards (face ``wf``) or Whites; ``None`` when a face passes four copies."""
    c = [0] * 34
    mode = rng.random()
    if mode < 0.45:
        for _ in range((size - 2) // 3):
            if rng.random() < 0.5:
                t = int(rng.integers(27))
                t = t - t % 9 + min(t % 9, 6)
                for x in (t, t + 1, t + 2):
                    c[x] += 1
            else:
                c[int(rng.integers(34))] += 3
        c[int(rng.integers(34))] += 2
    elif mode < 0.65:
        for _ in range(size // 2):
            c[int(rng.integers(34))] += 2
        if size % 2:
            c[int(rng.integers(34))] += 1
    else:
        for _ in range(size):
            c[int(rng.integers(34))] += 1
    for _ in range(int(rng.integers(4))):
        held = [t for t in range(34) if c[t]]
        c[held[int(rng.integers(len(held)))]] -= 1
        c[(wf, wf, 31)[int(rng.integers(3))]] += 1
    return c if max(c) <= 4 and sum(c) == size else None


@pytest.mark.parametrize("preset", ["wenzhou", "wenzhou-w16", "seed000"])
def test_wild_candidates_are_is_winning(preset: str) -> None:
    """The batched core's wildcard win test (``step_kernels.wild_candidates``: the analysis kernel's
    shanten is -1) is ``is_winning`` on ``split_counts`` exactly -- 不搭, 八对, seven pairs, thirteen
    orphans, three wildcards, a wildcard as a fifth copy, a White playing the wildcard's face --
    on 6,000 random hands near a win (about half of them winning) per preset."""
    from majiang.analysis import is_winning
    from majiang.analysis.wildcards import split_counts
    from majiang.engine import resolve
    from majiang.rl import kernels

    rules = resolve(preset)
    rng = np.random.default_rng(7)
    hands, faces = [], []
    while len(hands) < 6000:
        wf = int(rng.integers(34))
        h = _wild_hand(rng, rules.hand_size + 1, wf)
        if h is not None:
            hands.append(h)
            faces.append(wf)
    got = step_kernels.wild_candidates(np.array(hands, dtype=np.int16)[:, None, :], np.arange(len(hands)),
                                       np.zeros(len(hands), dtype=np.int64), None, np.array(faces),
                                       rules.white_stand_in, kernels.wild_flags(rules.shape_rules))
    want = [is_winning(*split_counts(h, wf, rules.white_stand_in), rules.shape_rules) for h, wf in zip(hands, faces)]
    assert got.tolist() == want
    assert 0.3 < sum(want) / len(want) < 0.7
