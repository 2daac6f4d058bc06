"""The batched core of ``VectorEnv`` (majiang.rl.batched) against the engine: the same seeds give the
same observations, masks, seats, rewards, terminations and final scores as n AEC environments and
as the per-table path, a game's record is rebuilt by replay, and the vectorised win test agrees
with the engine's ``is_winning``."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.analysis import MCR_SHAPES, is_winning  # noqa: E402
from majiang.analysis.shapes import KNITTED_ARRANGEMENTS  # noqa: E402
from majiang.engine import Match, derive_seed, resolve  # noqa: E402
from majiang.engine.wall import arrange_wall  # noqa: E402
from majiang.errors import MajiangError  # noqa: E402
from majiang.records.jsonl import record_lines  # noqa: E402
from majiang.rl.actions import COLUMN_OF  # noqa: E402
from majiang.rl import batched, step_kernels  # noqa: E402
from majiang.rl.batched import BatchedCore, shape_candidates, standard_wins, supports  # noqa: E402
from majiang.rl.core import Table  # noqa: E402
from majiang.rl.observations import Encoder  # noqa: E402

# a policy that reaches the rare events: wins whenever offered, claims and kongs often
_WEIGHTS = np.ones(rl.ACTION_SIZE)
_WEIGHTS[1] = 1e6
_WEIGHTS[99:235] = 50.0
_WEIGHTS[36:99] = 5.0


def _choose(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask * _WEIGHTS).argmax(axis=-1)


def test_the_batched_core_is_chosen_where_supported() -> None:
    assert rl.VectorEnv(2, "mcr").batched
    assert rl.VectorEnv(2, "mcr", observation="botzone-v0").batched
    assert not rl.VectorEnv(2, "mcr", batched=False).batched
    assert rl.VectorEnv(2, "taiwan").batched  # 16-tile hands, flower wins (no minimum score)
    assert not supports(resolve("taiwan,min_score=3"))  # a flower win below it lets play go on: the engine's
    assert not rl.VectorEnv(2, "mcr", hands=2).batched
    # the batched learner (test_rl_batched_learner), with numba
    assert rl.VectorEnv(2, "mcr", opponents="efficiency").batched is step_kernels.available()
    assert not rl.VectorEnv(2, "mcr", opponents="strong").batched
    assert rl.VectorEnv(2, "wenzhou").batched  # wildcards, 白板代, 被跟, 误打财神, 不搭
    assert supports(resolve("seed000")) and supports(resolve("wenzhou-w16"))
    assert not supports(resolve("mcr,declare_ready=true"))
    assert supports(resolve("shandong"))
    with pytest.raises(MajiangError, match="batched core"):
        rl.VectorEnv(2, "mcr", hands=2, batched=True)


def test_batched_vector_env_agrees_with_aec_environments() -> None:
    """The test the per-table path passes (test_rl_envs), on the batched core: table i plays what a
    single AEC environment seeded derive_seed(s, "table", i) plays."""
    n = 4
    v = rl.VectorEnv(n, "mcr")
    assert v.batched
    obs, info = v.reset(seed=4)
    singles = [rl.env("mcr") for _ in range(n)]
    for i, e in enumerate(singles):
        e.reset(seed=derive_seed(4, "table", i))
    rng = np.random.default_rng(0)
    resets = wins = 0
    for _ in range(700):
        for i, e in enumerate(singles):
            agent = e.agent_selection
            o = e.observe(agent)
            assert int(agent[-1]) == info["seat"][i]
            assert np.array_equal(o["observation"], obs["observation"][i])
            assert np.array_equal(o["action_mask"], obs["action_mask"][i])
        acts = _choose(rng, obs["action_mask"])
        obs, rew, term, trunc, info = v.step(acts)
        for i, e in enumerate(singles):
            e.step(int(acts[i]))
            assert np.allclose(rew[i], [e.rewards[a] for a in rl.AGENTS])
            if e.terminations[e.agent_selection]:
                assert term[i]
                assert list(info["final_scores"][i]) == list(e.table.match.scores)
                wins += bool(any(e.table.match.scores))
                e.reset()
                resets += 1
            else:
                assert not term[i]
    assert resets >= 10 and wins >= 1


def _compare(n: int, seed: int, steps: int, rules: str = "mcr", **kw) -> tuple[int, int]:
    a = rl.VectorEnv(n, rules, batched=True, **kw)
    b = rl.VectorEnv(n, rules, batched=False, **kw)
    oa, ia = a.reset(seed=seed)
    ob, ib = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ends = wins = 0
    for _ in range(steps):
        assert np.array_equal(ia["seat"], ib["seat"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert np.array_equal(oa["observation"], ob["observation"])
        acts = _choose(rng, oa["action_mask"])
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb)
        assert np.array_equal(ta, tb)
        assert np.array_equal(ia["final_scores"], ib["final_scores"])
        ends += int(ta.sum())
        wins += int((ra != 0).any(axis=1).sum())
    return ends, wins


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_batched_core_plays_the_per_table_game(seed: int) -> None:
    """Random seeds, a policy that wins and claims whenever it can: every observation, mask, seat,
    reward, termination and final score equal on both paths."""
    ends, _ = _compare(4, seed, 160, analysis=False)
    assert ends >= 2


@pytest.mark.parametrize("kw", [{"observation": "botzone-v0"}, {"oracle": True}, {"analysis": True},
                                {"reward_scale": 8.0, "score_scale": 10.0}])
def test_batched_core_options(kw: dict) -> None:
    ends, wins = _compare(4, 11, 250, **kw)
    assert ends >= 4


@pytest.mark.parametrize("spec", ["shandong", "mcr,multiple_winners=all", "mcr,first_dealer=dice,reserve=14",
                                  "mcr,rob_kong=false,claim_last_discard=true", "mcr,shapes=standard,min_score=0",
                                  "mcr,chow=false,added_kong_drawn_only=true"])
def test_other_supported_rule_sets(spec: str) -> None:
    """Every option the batched core reads, and the other preset it supports (Shandong: dice for the
    first dealer, its own scorer and settlement), against the per-table path."""
    assert supports(resolve(spec))
    ends, wins = _compare(6, 3, 300, spec, analysis=False)
    assert ends >= 8


def test_many_hands_with_wins_agree() -> None:
    ends, wins = _compare(16, 7, 600, analysis=False)
    assert ends >= 60 and wins >= 10


def test_record_is_rebuilt_by_replay() -> None:
    a = rl.VectorEnv(3, "mcr", batched=True)
    b = rl.VectorEnv(3, "mcr", batched=False)
    oa, _ = a.reset(seed=21)
    b.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(40):
        acts = _choose(rng, oa["action_mask"])
        oa, *_ = a.step(acts)
        b.step(acts)
    for i in range(3):
        assert record_lines(a.record(i)) == record_lines(b.record(i))


def test_illegal_action_is_refused_and_nothing_changes() -> None:
    v = rl.VectorEnv(2, "mcr")
    obs, _ = v.reset(seed=5)
    acts = obs["action_mask"].argmax(axis=1)
    bad = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    acts[1] = bad
    before = v.core.hand.copy()
    with pytest.raises(rl.ActionIndexError, match=f"table 1: .*index {bad}"):
        v.step(acts)
    with pytest.raises(rl.ActionIndexError, match="outside"):
        v.step(np.array([0, rl.ACTION_SIZE]))
    assert np.array_equal(before, v.core.hand)
    assert v.core.actions[0] == [] and v.core.actions[1] == []


def _drive(policy, core: BatchedCore, table: Table) -> list[str]:
    """Play one row of ``core`` and the engine ``table`` side by side with ``policy(phase, seat,
    mask)``; returns the phases seen."""
    phases = []
    enc = core.encoder
    while True:
        obs, mask = core.fill()
        seat = int(core.seat[0])
        assert table.to_act() == seat
        assert np.array_equal(mask[0], table.mask(seat))
        assert np.array_equal(obs[0], enc.encode(table.match.view(seat)))
        phase = table.match.table.phase.value
        phases.append(phase)
        a = policy(phase, seat, mask[0])
        rew = core.step(np.array([a]))
        r2 = table.step(seat, a)
        assert np.array_equal(rew[0], r2)
        if core.done[0]:
            assert table.done
            return phases


def test_robbing_the_kong_scenario() -> None:
    """Seat 0 pungs 5m, later draws the fourth and adds it to the kong; seat 2 waits on 5m with a
    pure straight and robs the kong (抢杠和, RULES.md §1.4): both paths agree on every step and the
    settlement."""
    rules = resolve("mcr")
    hands = [[4, 4, 0, 8, 9, 17, 19, 22, 25, 27, 28, 29, 30, 31],
             [1, 1, 6, 6, 20, 20, 23, 23, 26, 32, 32, 33, 2],
             [3, 5, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 19],
             [7, 7, 18, 21, 24, 24, 30, 30, 12, 13, 14, 15, 16]]
    draws = [4, 33, 29, 28, 4]
    wall = arrange_wall(rules, hands, draws, seed=3)

    def policy(phase: str, seat: int, mask: np.ndarray) -> int:
        if phase == "rob" and mask[1]:
            return 1
        if phase == "claim":
            pung = 99 + 4  # 5m is column 4
            return pung if seat == 0 and mask[pung] else 0
        legal = np.flatnonzero(mask)
        akong = [x for x in legal if 201 <= x < 235]
        if akong:
            return int(akong[0])
        drew = table.match.table.last_draw[seat]  # discard the tile just drawn, else the first
        if drew is not None and mask[2 + COLUMN_OF[drew]]:
            return 2 + COLUMN_OF[drew]
        return int(legal[legal >= 2][0])

    enc = Encoder(rules, "majiang-v1", analysis=False)
    core = BatchedCore(1, rules, enc)
    core.load(0, Match(rules, walls=[wall], max_hands=1))
    table = Table(rules, "majiang-v1", analysis=False)
    table.reset(0)
    table.match = Match(rules, walls=[wall], max_hands=1)
    table._legal = {}
    phases = _drive(policy, core, table)
    assert "rob" in phases
    res = table.match.results[0]
    assert [w.winner for w in res.wins] == [2] and res.wins[0].ctx.robbing_kong
    assert list(core.deltas[0]) == list(res.deltas)


def _random_hand(rng, size: int) -> list[int]:
    pool = [t for t in range(34) for _ in range(4)]
    pick = rng.choice(len(pool), size, replace=False)
    c = [0] * 34
    for k in pick:
        c[pool[k]] += 1
    return c


def test_standard_wins_agrees_with_is_winning() -> None:
    """The look-up tables against the engine's win check (standard shape only) on random and on
    built winning hands."""
    from majiang.analysis import STANDARD

    rng = np.random.default_rng(0)
    rows = [_random_hand(rng, 14) for _ in range(3000)] + [_random_hand(rng, 8) for _ in range(1000)]
    for _ in range(1000):  # four sets and a pair
        c = [0] * 34
        while True:
            c = [0] * 34
            for _ in range(4):
                if rng.random() < 0.5:
                    t = int(rng.integers(0, 34))
                    c[t] += 3
                else:
                    s, r = int(rng.integers(0, 3)), int(rng.integers(0, 7))
                    for k in range(3):
                        c[9 * s + r + k] += 1
            c[int(rng.integers(0, 34))] += 2
            if max(c) <= 4:
                break
        rows.append(c)
    x = np.array(rows, dtype=np.int16)
    got = standard_wins(x)
    want = np.array([is_winning(r, 0, STANDARD) for r in rows])
    assert np.array_equal(got, want)
    assert want.sum() >= 1000


def test_shape_candidates_cover_every_mcr_win() -> None:
    """Every hand the engine calls a win under MCR shapes is a candidate (seven pairs, thirteen
    orphans, knitted shapes included), and random non-winning hands rarely are."""
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(200):  # seven pairs
        ts = rng.choice(34, 7, replace=False)
        c = [0] * 34
        for t in ts:
            c[int(t)] = 2
        rows.append(c)
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    for t in orphans:
        c = [0] * 34
        for o in orphans:
            c[o] = 1
        c[t] += 1
        rows.append(c)
    for arr in KNITTED_ARRANGEMENTS:  # honours and knitted: 14 of the 16
        tiles = list(arr) + list(range(27, 34))
        for drop in range(0, 16, 3):
            c = [0] * 34
            for t in tiles:
                c[t] = 1
            c[tiles[drop]] = 0
            c[tiles[(drop + 5) % 16]] = 0
            rows.append(c)
        c = [0] * 34  # knitted straight + a pung + a pair
        for t in arr:
            c[t] = 1
        c[31] = 3
        c[33] = 2
        rows.append(c)
    rows += [_random_hand(rng, 14) for _ in range(2000)]
    x = np.array(rows, dtype=np.int16)
    cand = shape_candidates(x, MCR_SHAPES)
    win = np.array([is_winning(r, 0, MCR_SHAPES) for r in rows])
    assert win[:200].all() and win[200:213].all()
    assert not (win & ~cand).any()
    assert cand[-2000:].sum() <= 40


def test_win_gates_admit_every_winning_tile() -> None:
    """A 3k+1 hand's gate must admit every tile that completes it under MCR shapes (the engine's
    ``waits`` decides): random tenpai-rich hands (a winning hand less one tile) and random hands."""
    from majiang.rl.batched import _GROUP, win_gates

    rng = np.random.default_rng(2)
    rows, melds = [], []
    for _ in range(600):
        size = int(rng.choice([13, 10, 7, 4]))
        if rng.random() < 0.7:  # a standard winning hand of size + 1, less one tile
            while True:
                c = [0] * 34
                for _ in range((size + 1) // 3):
                    if rng.random() < 0.5:
                        c[int(rng.integers(0, 34))] += 3
                    else:
                        s, r = int(rng.integers(0, 3)), int(rng.integers(0, 7))
                        for k in range(3):
                            c[9 * s + r + k] += 1
                c[int(rng.integers(0, 34))] += 2
                if max(c) <= 4:
                    break
            held = [t for t in range(34) if c[t]]
            c[held[int(rng.integers(0, len(held)))]] -= 1
        else:
            c = _random_hand(rng, size)
        rows.append(c)
        melds.append((13 - size) // 3)
    x = np.array(rows, dtype=np.int16)
    groups, special = win_gates(x, np.array(melds), MCR_SHAPES)
    admitted = tested = 0
    for k, c in enumerate(rows):
        for t in range(34):
            if c[t] == 4:
                continue
            c[t] += 1
            if is_winning(c, 0, MCR_SHAPES):
                tested += 1
                assert special[k] or (groups[k] >> _GROUP[t]) & 1, (c, t)
                admitted += 1
            c[t] -= 1
    assert tested >= 300


@pytest.mark.parametrize("oracle", [False, True])
def test_compiled_count_planes_equal_the_numpy_ones(oracle: bool) -> None:
    """The batched core writes majiang-v1's count planes (hand, melds, rivers, unseen, oracle hands)
    with ``kernels.thermo_rows`` when numba is there; the numpy expressions it falls back to give
    the same arrays, step for step (two cores driven by the same actions)."""
    from majiang.rl import kernels

    if not kernels.available():
        pytest.skip("numba is not installed")
    a = rl.VectorEnv(16, "mcr", batched=True, oracle=oracle)
    b = rl.VectorEnv(16, "mcr", batched=True, oracle=oracle)
    assert a.core._jit
    b.core._jit = False
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        acts = (rng.random(oa["action_mask"].shape) * oa["action_mask"]).argmax(1)
        oa, *_ = a.step(acts)
        ob, *_ = b.step(acts)


def _efficient(rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray, best0: int) -> np.ndarray:
    """A policy that finishes hands: wins whenever offered, claims often, and discards among the
    ``discard_best`` plane's tiles (the lowest shanten), so Taiwan hands end in wins, not draws."""
    w = rng.random(mask.shape) * mask
    w[:, 1] *= 1e6
    w[:, 99:235] *= 20.0
    w[:, 36:99] *= 3.0
    w[:, 2:36] *= np.where(obs[:, best0, :] > 0, 100.0, 1.0)
    return w.argmax(1)


@pytest.mark.parametrize("seed", [1, 2])
def test_taiwan_16_tile_hands_agree(seed: int) -> None:
    """Taiwan 16-tile hands (five sets, 16 tiles kept back, flowers, RULES.md §3.1) on the batched
    core and the per-table path: every observation, mask, seat, reward and final score equal, over a
    few hundred hands that mostly end in wins (scored by the Taiwan 台 scorer, §3.2-3.3)."""
    n = 8
    a = rl.VectorEnv(n, "taiwan", batched=True, analysis=True)
    b = rl.VectorEnv(n, "taiwan", batched=False, analysis=True)
    best0 = Encoder(resolve("taiwan"), "majiang-v1", analysis=True).offsets["discard_best"][0]
    oa, ia = a.reset(seed=seed)
    ob, ib = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ends = wins = melds5 = 0
    for _ in range(1500):
        assert np.array_equal(ia["seat"], ib["seat"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert np.array_equal(oa["observation"], ob["observation"])
        acts = _efficient(rng, oa["observation"], oa["action_mask"], best0)
        melds5 = max(melds5, int(a.core.n_melds.max()))
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb)
        assert np.array_equal(ta, tb)
        assert np.array_equal(ia["final_scores"], ib["final_scores"])
        ends += int(ta.sum())
        wins += int((ra != 0).any(axis=1).sum())
    assert ends >= 100 and wins >= 0.7 * ends
    assert melds5 >= 4


def _flower_scenario(eighth_to: int, numpy_draws: bool) -> tuple[BatchedCore, Table, int]:
    """Taiwan: the seat after the dealer (returned) is dealt seven of the eight flowers (34-40,
    replaced from the tail at the deal); the eighth (41) is the first draw of play, which is that
    seat's (``eighth_to`` 1), or the second, the next seat's (``eighth_to`` 2)."""
    rules = resolve("taiwan")
    dealer = Match(rules, seed=5, walls=[arrange_wall(rules, [[]] * 4, seed=5)], max_hands=1).dealer
    holder = (dealer + 1) % 4
    hands = [[] for _ in range(4)]
    hands[holder] = [34, 35, 36, 37, 38, 39, 40]
    draws = [41, 0] if eighth_to == 1 else [0, 41]
    wall = arrange_wall(rules, hands, draws, dealer=dealer, seed=5)
    enc = Encoder(rules, "majiang-v1", analysis=False)
    core = BatchedCore(1, rules, enc)
    if numpy_draws:
        core._jit_step = False
    core.load(0, Match(rules, seed=5, walls=[wall], max_hands=1))
    table = Table(rules, "majiang-v1", analysis=False)
    table.reset(0)
    table.match = Match(rules, seed=5, walls=[wall], max_hands=1)
    table._legal = {}
    return core, table, holder


def _pass_and_discard_draws(table: Table):
    def policy(phase: str, seat: int, mask: np.ndarray) -> int:
        if phase != "turn":
            return 0
        drew = table.match.table.last_draw[seat]
        if drew is not None and mask[2 + COLUMN_OF[drew]]:
            return 2 + COLUMN_OF[drew]
        legal = np.flatnonzero(mask)
        return int(legal[legal >= 2][0])
    return policy


@pytest.mark.parametrize("numpy_draws", [False, True])
@pytest.mark.parametrize("eighth_to, kind", [(1, "eight"), (2, "seven")])
def test_taiwan_flower_wins(eighth_to: int, kind: str, numpy_draws: bool) -> None:
    """八仙過海 (the seat holding seven flowers draws the eighth: paid as a self-draw by all three) and
    七搶一 (the next seat draws it: that seat pays alone), RULES.md §3.2-3.3: the hand ends at
    that draw, with the engine's settlement, on the compiled draw and the numpy one."""
    core, table, holder = _flower_scenario(eighth_to, numpy_draws)
    assert list(core.flower_n[0]) == [7 if s == holder else 0 for s in range(4)]
    _drive(_pass_and_discard_draws(table), core, table)
    res = table.match.results[0]
    assert [w.winner for w in res.wins] == [holder] and res.wins[0].ctx.flower_win == kind
    assert list(core.deltas[0]) == list(res.deltas)
    payers = [s for s in range(4) if res.deltas[s] < 0]
    assert payers == (sorted(s for s in range(4) if s != holder) if kind == "eight" else [(holder + 1) % 4])


def test_a_deal_that_ends_the_hand_is_dealt_again(monkeypatch) -> None:
    """A one-hand episode whose deal ends it (a flower win on the deal) has no step to take: both
    paths deal ``redeal_seed(seed)`` instead (majiang.rl.core.redeal_seed). Such deals are about 3 in a
    million, so this test makes one game seed's deal end by patching the engine's Match."""
    import majiang.rl.batched as batched_mod
    import majiang.rl.core as core_mod
    from majiang.rl.core import redeal_seed

    ending = derive_seed(9, "table", 1)

    class EndingMatch(Match):
        def __init__(self, rules, *args, seed=None, **kw):
            super().__init__(rules, *args, seed=seed, **kw)
            if seed == ending:
                self.finished = True

    monkeypatch.setattr(core_mod, "Match", EndingMatch)
    monkeypatch.setattr(batched_mod, "Match", EndingMatch)
    a = rl.VectorEnv(3, "taiwan", batched=True)
    b = rl.VectorEnv(3, "taiwan", batched=False)
    monkeypatch.setattr(BatchedCore, "_deal_may_end", staticmethod(lambda fn: True))  # ask the engine every time
    oa, ia = a.reset(seed=9)
    ob, ib = b.reset(seed=9)
    assert a.core.game_seed[1] == b.tables[1].game_seed == redeal_seed(ending)
    assert a.core.game_seed[0] == b.tables[0].game_seed == derive_seed(9, "table", 0)
    assert np.array_equal(oa["observation"], ob["observation"])
    assert np.array_equal(oa["action_mask"], ob["action_mask"])


def _follow(core: BatchedCore, rng: np.random.Generator, mask: np.ndarray, win: float) -> np.ndarray:
    """A policy that sets off the penalties of RULES.md §4.6: discards the face just discarded when it
    can (被跟), claims often, wins with probability ``win`` (so hands go on to wildcard-only hands)."""
    n = mask.shape[0]
    w = rng.random(mask.shape) * mask
    w[:, 1] *= np.where(rng.random(n) < win, 1e6, 1e-3)
    w[:, 99:235] *= 30.0
    w[:, 36:99] *= 10.0
    w[np.arange(n), 2 + np.array(COLUMN_OF)[core.claim_tile]] *= 1e4
    return w.argmax(1)


def _compare_wild(rules: str, n: int, seed: int, steps: int, policy: str, *, numpy_path: bool = False,
                  **kw) -> dict[str, int]:
    """:func:`_compare` for the wildcard rule sets with the ``efficient`` or ``follow`` policy; counts
    what happened on the batched core."""
    a = rl.VectorEnv(n, rules, batched=True, analysis=True, **kw)
    b = rl.VectorEnv(n, rules, batched=False, analysis=True, **kw)
    core = a.core
    if numpy_path:  # what runs without numba: the Python win test, the numpy planes, the Python analysis
        core._wkern = False
        core._wild_jit = False
        core._jit = False
        core.encoder._wkernel = False
    best0 = core.encoder.offsets["discard_best"][0]
    oa, ia = a.reset(seed=seed)
    ob, ib = b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = {"ends": 0, "wins": 0, "penalties": 0, "wild_discards": 0, "white_chows": 0, "wild_held": 0}
    for _ in range(steps):
        assert np.array_equal(ia["seat"], ib["seat"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert np.array_equal(oa["observation"], ob["observation"])
        if policy == "efficient":
            acts = _efficient(rng, oa["observation"], oa["action_mask"], best0)
        else:
            acts = _follow(core, rng, oa["action_mask"], 0.2)
        wild = core.wild.copy()
        seen["wild_held"] += int((core.hand[np.arange(n), core.seat, wild] > 0).sum())
        pen = core.penalties.copy()
        oa, ra, ta, _, ia = a.step(acts)
        ob, rb, tb, _, ib = b.step(acts)
        assert np.array_equal(ra, rb)
        assert np.array_equal(ta, tb)
        assert np.array_equal(ia["final_scores"], ib["final_scores"])
        live = ~ta
        seen["penalties"] += int(((core.penalties != pen).any(1) & live).sum())
        seen["wild_discards"] += int(((acts - 2 == np.array(COLUMN_OF)[wild]) & (core.penalties != pen).any(1)
                                      & live).sum())
        used = np.arange(core.meld_stand.shape[2])[None, None, :] < core.n_melds[:, :, None]
        seen["white_chows"] = max(seen["white_chows"], int(((core.meld_stand >= 0) & used).sum()))
        seen["ends"] += int(ta.sum())
        seen["wins"] += int((ra != 0).any(axis=1).sum())
    return seen


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("rules", ["wenzhou", "wenzhou-w16", "seed000"])
def test_wildcard_rule_sets_agree(rules: str, seed: int) -> None:
    """The wildcard presets (RULES.md §4.2: the indicator counted from the tail by the dice and turned
    up, wildcards held and won with, never discarded or claimed; §2.1 白板代: a White plays the
    wildcard's face in chows; W13's 不搭, W16's 16 tiles and 八对, seed 000's thirteen orphans and
    its indicator left in the wall) on the batched core and the per-table path: every observation
    (the wildcard planes and the analysis read with the wildcard), mask, seat, reward and final
    score equal, over a few hundred hands that mostly end in wins."""
    seen = _compare_wild(rules, 8, seed, 1200, "efficient")
    assert seen["ends"] >= 100 and seen["wins"] >= 0.7 * seen["ends"]
    assert seen["wild_held"] >= 1000


@pytest.mark.parametrize("spec", ["wenzhou", "wenzhou,wild_discardable=true", "wenzhou,wild_claimable=true",
                                  "wenzhou,white_stand_in=false", "seed000,wild_indicator_out=true"])
def test_wildcard_penalties_and_options(spec: str) -> None:
    """被跟 (the three others follow a seat's discard: it pays each at once) and 误打财神 (a wildcard
    discarded) of RULES.md §4.6, paid with the hand's result as on the per-table path, and the
    wildcard options the core reads (wildcards discardable -- each discard then costs the penalty --
    or claimable, no White stand-in, the indicator out of play)."""
    seen = _compare_wild(spec, 8, 3, 1200, "follow")
    assert seen["ends"] >= 60
    if spec.startswith("wenzhou"):
        assert seen["penalties"] >= 10
    if "wild_discardable" in spec:
        assert seen["wild_discards"] >= 50
    if "white_stand_in" not in spec:
        assert seen["white_chows"] >= 1


@pytest.mark.parametrize("kw", [{"observation": "botzone-v0"}, {"oracle": True, "analysis": False},
                                {"reward_scale": 8.0, "score_scale": 10.0}])
def test_wildcard_rule_sets_options(kw: dict) -> None:
    """The observation options on the wildcard rule sets (random play that claims and wins often)."""
    for rules in ("wenzhou", "seed000"):
        ends, wins = _compare(4, 13, 250, rules, **kw)
        assert ends >= 4


def test_wildcard_rule_sets_without_numba() -> None:
    """The wildcard paths that run without numba (``MAJIANG_NUMBA=0``): ``is_winning`` for the win
    test, the numpy count planes, the Python hand analysis -- the same game."""
    seen = _compare_wild("wenzhou", 4, 6, 400, "efficient", numpy_path=True)
    assert seen["ends"] >= 20
    seen = _compare_wild("wenzhou-w16", 4, 6, 300, "follow", numpy_path=True)
    assert seen["ends"] >= 5


def test_robbing_the_kong_with_a_wildcard_scenario() -> None:
    """Wenzhou (wildcards by indicator, RULES.md §4.2): the dealer pungs 5m, later draws the fourth
    and adds it to the kong; the seat opposite holds 123m 123p 123s EEE and a wildcard (Green, the
    indicator turned up from the tail by the dice), complete with any tile, and robs the kong (抢杠和)
    -- the rows loaded from an arranged wall (``BatchedCore.load``) agree with the engine table on every
    step, the wildcard planes and the settlement included."""
    rules = resolve("wenzhou")
    probe = Match(rules, walls=[list(rules.tile_set)], max_hands=1).table  # the dealer and dice of seed 0
    dealer, total = probe.dealer, sum(probe.dice)
    green = 32
    rel = [[4, 4, 0, 8, 9, 17, 19, 22, 25, 28, 29, 30, 31, 33],
           [1, 6, 6, 21, 21, 23, 23, 26, 31, 33, 15, 16, 24],
           [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, green],
           [7, 7, 18, 21, 24, 24, 30, 30, 12, 13, 14, 15, 16]]
    hands = [rel[(s - dealer) % 4] for s in range(4)]
    tail = [3, 5, 12, 13, 14, 22, 25, 26, 17, 8, 2][:total - 1] + [green]  # tail[total - 1] indicates
    wall = arrange_wall(rules, hands, [4, 33, 29, 28, 4], tail=tail, dealer=dealer, seed=3)
    table = Table(rules, "majiang-v1", analysis=False)
    table.reset(0)
    table.match = Match(rules, walls=[wall], max_hands=1)
    table._legal = {}
    t0 = table.match.table
    assert t0.wild_face == green and t0.indicator == green and t0.white_face == green
    robber = (dealer + 2) % 4

    def policy(phase: str, seat: int, mask: np.ndarray) -> int:
        if phase == "rob" and mask[1]:
            return 1
        if phase == "claim":
            pung = 99 + 4  # 5m is column 4
            return pung if seat == dealer and mask[pung] else 0
        legal = np.flatnonzero(mask)
        akong = [x for x in legal if 201 <= x < 235]
        if akong:
            return int(akong[0])
        drew = table.match.table.last_draw[seat]  # discard the tile just drawn, else the first
        if drew is not None and mask[2 + COLUMN_OF[drew]]:
            return 2 + COLUMN_OF[drew]
        return int(legal[legal >= 2][0])

    enc = Encoder(rules, "majiang-v1", analysis=False)
    core = BatchedCore(1, rules, enc)
    core.load(0, Match(rules, walls=[wall], max_hands=1))
    assert core.wild[0] == green and core.indicator[0] == green and core.white_face[0] == green
    phases = _drive(policy, core, table)
    assert "rob" in phases
    res = table.match.results[0]
    assert [w.winner for w in res.wins] == [robber] and res.wins[0].ctx.robbing_kong
    assert list(core.deltas[0]) == list(res.deltas)


def test_thirteen_orphans_with_a_wildcard_scenario() -> None:
    """Seed 000 (RULES.md §2: the indicator stays in the wall face up, a White plays the wildcard's
    face, thirteen orphans): the dealer is dealt twelve orphan faces, a second 1m and a wildcard (5m)
    standing for the White -- thirteen orphans at once, won by self-draw on the first turn, on the
    batched core as on the engine table."""
    rules = resolve("seed000")
    probe = Match(rules, walls=[list(rules.tile_set)], max_hands=1).table
    dealer, total = probe.dealer, sum(probe.dice)
    five_m = 4
    hands = [[] for _ in range(4)]
    hands[dealer] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 32, 33, 0, five_m]
    wall = arrange_wall(rules, hands, tail=[10, 11, 12, 13, 14, 15, 19, 20, 21, 22, 23][:total - 1] + [five_m],
                        dealer=dealer, seed=5)
    table = Table(rules, "majiang-v1", analysis=False)
    table.reset(0)
    table.match = Match(rules, walls=[wall], max_hands=1)
    table._legal = {}
    t0 = table.match.table
    assert t0.wild_face == five_m and t0.indicator is None and t0.indicator_in_wall == five_m

    enc = Encoder(rules, "majiang-v1", analysis=False)
    core = BatchedCore(1, rules, enc)
    core.load(0, Match(rules, walls=[wall], max_hands=1))
    phases = _drive(lambda phase, seat, mask: 1 if mask[1] else int(np.flatnonzero(mask)[-1]), core, table)
    assert phases == ["turn"]
    res = table.match.results[0]
    assert [w.winner for w in res.wins] == [dealer]
    assert [p[0] for p in res.wins[0].result.patterns] == ["seed000.guoshi_wushuang"]  # 国士无双
    assert list(core.deltas[0]) == list(res.deltas)


@pytest.mark.parametrize("spec,n,seed,steps", [("mcr", 16, 7, 600), ("mcr,multiple_winners=all", 32, 25, 1500)])
def test_wins_settled_from_the_quick_value_are_the_engines(spec: str, n: int, seed: int, steps: int,
                                                           monkeypatch) -> None:
    """The wins the core settles itself (``BatchedCore._settle_quick``: the scorer's quick value and
    flower bonus, the context-free competition settlement, RULES.md §9.6) get the deltas the engine's
    ``HandTable._finish`` gives on the same state, flowers and several winners included; robbed
    kongs go to the engine."""
    if not step_kernels.available():
        pytest.skip("the scorer's quick value is its compiled path (numba)")
    seen: list[tuple] = []
    quick = BatchedCore._settle_quick

    def both(self: BatchedCore, i: int, wins: list) -> list[int] | None:
        d = quick(self, i, wins)
        t = self._sync(i)
        t._finish(wins)
        seen.append((d, list(t.result.deltas), wins, len(self.flowers[i][wins[0][0]])))
        return d

    monkeypatch.setattr(BatchedCore, "_settle_quick", both)
    _compare(n, seed, steps, spec, analysis=False)
    settled = [x for x in seen if x[0] is not None]
    assert len(settled) >= 10 and all(d == e for d, e, _, _ in settled)
    assert any(f for *_, f in settled)  # a winner with flowers: the bonus counted
    assert all(d is None for d, _, w, _ in seen if any(r for *_, r in w))
    if spec.endswith("all"):  # this seed has two winners on one discard, and a robbed kong
        assert any(len(w) > 1 for _, _, w, _ in settled)
        assert any(d is None and any(r for *_, r in w) for d, _, w, _ in seen)


def test_a_subclass_that_overrides_settle_or_score_keeps_the_engines_settlement() -> None:
    """A subclass of a context-free settlement whose ``settle`` reads the context (here: the dealer
    wins double), or of the MCR scorer with its own ``score``, inherits no quick path
    (``rules.base.declared_with``): the core settles through the engine and still plays the
    per-table game; one that declares ``context_free`` again gets it."""
    from dataclasses import dataclass

    from majiang.engine.ruleset import register_scorer, register_settlement
    from majiang.rules.base import CompetitionSettlement, ScoreResult, declared_with
    from majiang.rules.mcr.engine_adapter import McrScorer

    @dataclass(frozen=True, slots=True)
    class DealerDouble(CompetitionSettlement):
        name: str = "test-dealer-double"

        def settle(self, win, players: int) -> list[int]:  # noqa: ANN001
            k = 2 if win.ctx.seat_wind == 27 else 1  # the dealer sits East
            return [x * k for x in CompetitionSettlement.settle(self, win, players)]

    @dataclass(frozen=True, slots=True)
    class Declared(CompetitionSettlement):
        name: str = "test-declared"
        context_free = True

        def settle(self, win, players: int) -> list[int]:  # noqa: ANN001
            return CompetitionSettlement.settle(self, win, players)

    @dataclass(frozen=True, slots=True)
    class Plus(McrScorer):
        name: str = "test-mcr-plus"

        def score(self, ctx):  # noqa: ANN001, ANN201
            r = McrScorer.score(self, ctx)
            return ScoreResult(r.value + 1, r.bonus, r.patterns)

    assert DealerDouble.context_free and not declared_with(DealerDouble(), "context_free", "settle")
    assert declared_with(Declared(), "context_free", "settle")
    assert declared_with(CompetitionSettlement(), "context_free", "settle")
    assert not declared_with(Plus(), "quick_value", "score") and declared_with(McrScorer(), "quick_value", "score")
    register_settlement("test-dealer-double", DealerDouble)
    register_settlement("test-declared", Declared)
    register_scorer("test-mcr-plus", Plus)
    for spec, quick in (("mcr,settlement=test-dealer-double", False), ("mcr,settlement=test-declared", True),
                        ("mcr,scorer=test-mcr-plus", False)):
        core = BatchedCore(2, resolve(spec), Encoder(resolve(spec), "majiang-v1", analysis=False))
        assert (core._quick_settle is not None) is quick, spec
        if "scorer" in spec:  # nor the scorer's compiled quick value in the learner's bots' loop
            env = rl.VectorEnv(2, resolve(spec), opponents="efficiency")
            assert not (env.batched and env.bots._quick_on)
            assert env.batched is step_kernels.available()  # the per-table path without numba
        ends, wins = _compare(8, 5, 300, spec, analysis=False)
        assert ends >= 4 and wins >= 2, spec


def _kong_window(seed: int):
    """(steps, row, kong seat) of the first claim window of a taiwan self-play where a seat other than
    the discarder's next may take an exposed kong and nobody may win, playing masked random actions."""
    env = rl.VectorEnv(8, "taiwan")
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    c = env.core
    for step in range(400):
        for i in range(c.n):
            if c.phase[i] == batched.CLAIM and not c.can_win[i].any():
                d = int(c.origin[i])
                for s in ((d + 2) % 4, (d + 3) % 4):
                    if c.can_kong[i, s]:
                        return step, i, s
        m = obs["action_mask"]
        obs, *_ = env.step((rng.random(m.shape) * m).argmax(1))
    return None


@pytest.mark.parametrize("case", ["flower win", "robbed flower win", "wall out"])
def test_a_kong_replacement_flower_that_ends_the_hand_is_the_python_paths(case: str) -> None:
    """An exposed kong taken by the discarder's opposite or previous seat, whose replacement from the
    tail is a flower that ends the hand (taiwan: the kong seat's eighth flower; another seat's
    seventh robbed by it, 七搶一; the last live tile): the compiled follow-ups (which draw the
    replacement) tell Python the drawing seat, and the hand ends as on the Python path (a review
    found the seat taken as the discarder's next: an IndexError, a wrong flower win, lists out of sync)."""
    from majiang.rl.actions import EXPOSED_KONG_BASE

    for seed in range(1, 40):
        found = _kong_window(seed)
        if found is not None:
            break
    assert found is not None
    steps, i, k = found
    flowers = list(range(34, 42))
    results = []
    for python_path in (True, False):
        env = rl.VectorEnv(8, "taiwan")
        c = env.core
        if python_path:
            c.follow_ups = lambda acts: 1  # everything the step leaves to _after_compiled
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            m = obs["action_mask"]
            obs, *_ = env.step((rng.random(m.shape) * m).argmax(1))
        holder = k if case == "flower win" else (int(c.origin[i]) + 1) % 4
        if case == "wall out":
            c.head[i] = c.tail[i] - c.reserve - 1
        else:
            for s in range(4):
                c.flower_n[i, s] = 0
                c.flowers[i][s] = []
            c.flower_n[i, holder] = 7
            c.flower_tiles[i, holder, :7] = flowers[:7]
            c.flowers[i][holder] = flowers[:7]
        w = c.wall[i]  # the flower to the tail: the replacement
        f = flowers[0] if case == "wall out" else flowers[7]
        p, q = int(np.flatnonzero(w[:c.total_tiles] == f)[0]), int(c.tail[i] - 1)
        w[p], w[q] = w[q], w[p]
        c.walls[i] = c.tables[i] = None
        ended = None
        for _ in range(4):
            m = obs["action_mask"]
            a = (rng.random(m.shape) * m).argmax(1)
            a[i] = EXPOSED_KONG_BASE + int(c.claim_tile[i]) if int(c.seat[i]) == k else 0
            before = [list(x) for x in c.flowers[i]]
            obs, r, term, _, info = env.step(a)
            if term[i]:
                ended = (r[i].tolist(), info["final_scores"][i].tolist(), int(c.flower_n[i].sum()))
                break
        assert ended is not None, case
        results.append((ended, before))
    assert results[0] == results[1], case
