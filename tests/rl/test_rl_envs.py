"""majiang.rl: the action layout against Botzone's, the PettingZoo and Gymnasium checkers, seeds,
rewards, replay through the engine, the vector and parallel environments, the observation planes."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import majiang.rl as rl  # noqa: E402
from majiang.analysis import shanten  # noqa: E402
from majiang.analysis.wildcards import split_counts  # noqa: E402
from majiang.errors import MajiangError  # noqa: E402
from majiang.engine import PRESET_NAMES, Action, ActionKind, Match, derive_seed  # noqa: E402
from majiang.records import botzone_replay  # noqa: E402
from majiang.records.botzone import parse_log, sample_path  # noqa: E402
from majiang.records.jsonl import record_lines, replay  # noqa: E402
from majiang.rl.actions import (  # noqa: E402
    ACTION_SIZE, LAYOUT_TILES, chow_index, chow_of_index, describe_index, index_of, legal_indices)
from majiang.rl.observations import plane_offsets  # noqa: E402
from majiang.tiles import format_botzone, parse_compact  # noqa: E402

# The PKU baseline's tile list and offsets (Botzone MahjongGB FeatureAgent), written out here as the
# reference the layout must agree with.
BZ_TILES = [f"W{i}" for i in range(1, 10)] + [f"T{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] \
    + [f"F{i}" for i in range(1, 5)] + [f"J{i}" for i in range(1, 4)]
BZ_OFFSET = {"Pass": 0, "Hu": 1, "Play": 2, "Chi": 36, "Peng": 99, "Gang": 133, "AnGang": 167, "BuGang": 201}


def baseline_index(verb: str, tile: str = "", middle: str = "") -> int:
    """The baseline's ``response2action``: ``Chi <claimed> <middle>``, other verbs name one tile."""
    if verb in ("Pass", "Hu"):
        return BZ_OFFSET[verb]
    if verb == "Chi":
        return BZ_OFFSET["Chi"] + "WTB".index(tile[0]) * 21 + (int(middle[1]) - 2) * 3 + int(tile[1]) - int(middle[1]) + 1
    return BZ_OFFSET[verb] + BZ_TILES.index(tile)


def bz(t: int) -> str:
    return format_botzone([t])


# ----------------------------------------------------------------------------- the layout
def test_layout_prefix_is_botzone() -> None:
    assert ACTION_SIZE == 235 + 34
    assert [bz(t) for t in LAYOUT_TILES] == BZ_TILES
    for col, t in enumerate(LAYOUT_TILES):
        assert index_of(Action(ActionKind.DISCARD, t)) == baseline_index("Play", bz(t)) == 2 + col
        assert index_of(Action(ActionKind.PUNG, t)) == baseline_index("Peng", bz(t))
        assert index_of(Action(ActionKind.EXPOSED_KONG, t)) == baseline_index("Gang", bz(t))
        assert index_of(Action(ActionKind.CONCEALED_KONG, t)) == baseline_index("AnGang", bz(t))
        assert index_of(Action(ActionKind.ADDED_KONG, t)) == baseline_index("BuGang", bz(t))
        assert index_of(Action(ActionKind.READY, t)) == 235 + col
    # the baseline's own example: 吃 on T3 making T3 T4 T5 (middle T4)
    assert baseline_index("Chi", "T3", "T4") == 63 == index_of(Action(ActionKind.CHOW, 20, 20))


def test_every_chow_has_its_baseline_index() -> None:
    seen = set()
    for low in [b + r for b in (0, 9, 18) for r in range(7)]:
        for played in (low, low + 1, low + 2):
            i = index_of(Action(ActionKind.CHOW, played, low))
            assert i == baseline_index("Chi", bz(played), bz(low + 1))
            assert chow_of_index(i) == (played, low) and chow_index(played, low) == i
            seen.add(i)
    assert seen == set(range(36, 99))
    # a discarded White playing the wildcard's face 5p (白板代) takes that face's index
    assert index_of(Action(ActionKind.CHOW, 31, 12), white_face=13) == index_of(Action(ActionKind.CHOW, 13, 12))
    assert len({describe_index(i) for i in range(ACTION_SIZE)}) == ACTION_SIZE


def test_botzone_rounds_every_action_in_its_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 16 Botzone rounds replayed through the engine: at every decision each asked seat's mask
    is non-empty and holds the logged action, at the index the baseline's formula gives it."""
    checked = []

    class Checking(botzone_replay.HandTable):
        def apply(self, seat, action, **kw):
            legal = legal_indices(self.legal_actions(seat), white_face=self.white_face)
            assert legal, f"empty mask for seat {seat}"
            i = index_of(action, white_face=self.white_face)
            assert i in legal
            k = action.kind
            if k is ActionKind.CHOW:
                want = baseline_index("Chi", bz(action.tile), bz(action.low + 1))
            else:
                verb = {ActionKind.PASS: "Pass", ActionKind.WIN: "Hu", ActionKind.DISCARD: "Play",
                        ActionKind.PUNG: "Peng", ActionKind.EXPOSED_KONG: "Gang",
                        ActionKind.CONCEALED_KONG: "AnGang", ActionKind.ADDED_KONG: "BuGang"}[k]
                want = baseline_index(verb, bz(action.tile) if action.tile is not None else "")
            assert i == want
            checked.append(k)
            return super().apply(seat, action, **kw)

    monkeypatch.setattr(botzone_replay, "HandTable", Checking)
    rounds = parse_log(sample_path().read_text(encoding="utf-8"))
    assert len(rounds) == 16
    for rnd in rounds:
        botzone_replay.replay_round(rnd)
    kinds = {k.value for k in checked}
    assert {"discard", "win", "pass", "chow", "pung"} <= kinds
    assert len(checked) > 1000


# ----------------------------------------------------------------------------- checkers
@pytest.mark.parametrize("rules", list(PRESET_NAMES) + ["taiwan,declare_ready=true"])
def test_pettingzoo_api_test(rules: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(rules), num_cycles=200)


def test_pettingzoo_api_test_other_observations() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env("mcr", oracle=True), num_cycles=100)
        api_test(rl.env("wenzhou", observation="botzone-v0"), num_cycles=100)
        parallel_api_test(rl.parallel_env("mcr"), num_cycles=100)


@pytest.mark.parametrize("rules", ["mcr", "wenzhou", "taiwan"])
def test_gymnasium_check_env(rules: str) -> None:
    import gymnasium

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(rl.SingleAgentEnv(rules), skip_render_check=True)
        made = gymnasium.make(rl.GYM_ID, rules=rules, render_mode="ansi")
        check_env(made.unwrapped)
        made.reset(seed=1)
        assert "legal:" in made.render()


# ----------------------------------------------------------------------------- play
def _first_masked(mask) -> int:
    return int(np.flatnonzero(mask)[-1])  # the highest index: claims and kongs when offered


def _play_aec(e, seed: int, pick) -> tuple[list[tuple[str, int]], dict]:
    e.reset(seed=seed)
    steps, totals = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, r, term, trunc, info = e.last()
        totals[agent] += r
        a = None if (term or trunc) else pick(obs["action_mask"])
        if a is not None:
            steps.append((agent, a))
        e.step(a)
    return steps, totals


@pytest.mark.parametrize("rules", ["mcr", "wenzhou", "taiwan"])
def test_replayed_actions_give_the_engine_record(rules: str) -> None:
    """A game played through env, replayed action by action on the engine's own Match from the same
    seed, gives the same record byte for byte; the record replays; rewards are the settlement."""
    rng = random.Random(3)
    e = rl.env(rules)
    steps, totals = _play_aec(e, 77, lambda m: rng.choice(np.flatnonzero(m).tolist()))
    m = Match(rules, seed=77, max_hands=1)
    for agent, i in steps:
        seat = int(agent[-1])
        assert seat == m.pending_seats()[0]
        legal = legal_indices(m.legal_actions(seat), white_face=m.table.white_face)
        m.apply(seat, legal[i])
    assert m.finished
    assert record_lines(m) == record_lines(e.table.match)
    assert record_lines(replay(record_lines(m))) == record_lines(m)
    deltas = m.results[0].deltas
    assert [totals[f"seat_{s}"] for s in range(4)] == [float(d) for d in deltas]
    assert sum(deltas) == 0


def test_seed_reproduces_a_game_and_reset_moves_on() -> None:
    pick = _first_masked
    a = _play_aec(rl.env("mcr"), 5, pick)
    b = _play_aec(rl.env("mcr"), 5, pick)
    assert a == b
    e = rl.env("mcr")
    e.seed(5)
    e.reset()
    assert e.table.game_seed == 5
    e.reset()
    assert e.table.game_seed == derive_seed(5, "episode", 1)


def test_rewards_are_scaled_settlements_and_shaping_adds() -> None:
    calls = []

    def shaping(before, index, after):
        calls.append(index)
        return 0.5

    e = rl.env("wenzhou", reward_scale=10.0, shaping=shaping)
    steps, totals = _play_aec(e, 21, _first_masked)
    deltas = e.table.match.results[0].deltas
    per_seat = {f"seat_{s}": sum(1 for a, _ in steps if a == f"seat_{s}") for s in range(4)}
    for s in range(4):
        assert totals[f"seat_{s}"] == pytest.approx(deltas[s] / 10.0 + 0.5 * per_seat[f"seat_{s}"])
    assert len(calls) == len(steps)


def test_single_agent_shaping_sees_the_learners_actions_only() -> None:
    """``SingleAgentEnv(shaping=f)``: ``f`` is called once per learner step, with the learner's own
    views, never for the bots' actions; the return is the settlement plus f per learner step."""
    calls = []

    def shaping(before, index, after):
        calls.append((before.seat, index))
        return 0.25

    env = rl.SingleAgentEnv("wenzhou", seat=1, shaping=shaping)
    obs, _ = env.reset(seed=4)
    total, n, done = 0.0, 0, False
    while not done:
        obs, r, done, _, _ = env.step(_first_masked(obs["action_mask"]))
        total += r
        n += 1
    assert len(calls) == n and {s for s, _ in calls} == {1}
    assert total == pytest.approx(env.table.match.results[0].deltas[1] + 0.25 * n)


def test_single_agent_env_plays_against_bots() -> None:
    env = rl.SingleAgentEnv("mcr", seat=2)
    obs, _ = env.reset(seed=9)
    total, n = 0.0, 0
    done = False
    while not done:
        assert obs["action_mask"].any()
        obs, r, done, _, info = env.step(_first_masked(obs["action_mask"]))
        total += r
        n += 1
    assert total == env.table.match.results[0].deltas[2]
    obs, _ = env.reset(seed=9)
    _, r, done, _, info = env.step(ACTION_SIZE - 1 if not obs["action_mask"][-1] else 0)
    assert info.get("illegal_action") and done and r == -100.0  # ILLEGAL_POINTS, reward_scale 1
    with pytest.raises(rl.ActionIndexError, match="cannot"):
        raising = rl.SingleAgentEnv("mcr", on_illegal="raise")
        o, _ = raising.reset(seed=1)
        raising.step(int(np.flatnonzero(o["action_mask"] == 0)[0]))


@pytest.mark.parametrize("rules", ["wenzhou", "taiwan", "mcr"])
def test_vector_env_agrees_with_single_envs(rules: str) -> None:
    """Wenzhou (wildcards), Taiwan and MCR run the batched core (majiang.rl.batched), the AEC
    environments its one-row table."""
    n = 3
    v = rl.VectorEnv(n, rules)
    assert v.batched
    obs, info = v.reset(seed=4)
    singles = [rl.env(rules) for _ in range(n)]
    for i, e in enumerate(singles):
        e.reset(seed=derive_seed(4, "table", i))
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(400):
        acts = []
        for i, e in enumerate(singles):
            agent = e.agent_selection
            o = e.observe(agent)
            assert int(agent[-1]) == info["seat"][i]
            assert np.array_equal(o["observation"], obs["observation"][i])
            assert np.array_equal(o["action_mask"], obs["action_mask"][i])
            acts.append(int(rng.choice(np.flatnonzero(o["action_mask"]))))
        obs, rew, term, trunc, info = v.step(acts)
        for i, e in enumerate(singles):
            e.step(acts[i])
            assert np.allclose(rew[i], [e.rewards[a] for a in rl.AGENTS])
            if e.terminations[e.agent_selection]:
                assert term[i]
                assert list(info["final_scores"][i]) == list(e.table.match.scores)
                e.reset()
                resets += 1
            else:
                assert not term[i]
    assert resets >= 1


def test_vector_env_learner_mode_agrees_with_single_agent_envs() -> None:
    v = rl.VectorEnv(2, "mcr", opponents="efficiency", seat=1)
    obs, _ = v.reset(seed=[8, 9])
    singles = [rl.SingleAgentEnv("mcr", "efficiency", seat=1) for _ in range(2)]
    sobs = [s.reset(seed=k)[0] for s, k in zip(singles, (8, 9))]
    for _ in range(60):
        acts = [_first_masked(o["action_mask"]) for o in sobs]
        for i in range(2):
            assert np.array_equal(sobs[i]["observation"], obs["observation"][i])
        obs, rew, term, _, _ = v.step(acts)
        for i, s in enumerate(singles):
            o, r, d, _, _ = s.step(acts[i])
            assert r == rew[i] and d == term[i]
            sobs[i] = s.reset()[0] if d else o


def test_parallel_env_plays_the_same_game_as_aec() -> None:
    """Claim windows answered together give the same game as answered one by one."""
    p = rl.parallel_env("mcr")
    obs, _ = p.reset(seed=13)
    totals = np.zeros(4)
    while p.agents:
        acts = {a: _first_masked(obs[a]["action_mask"]) for a in p.agents}
        obs, rew, term, _, _ = p.step(acts)
        totals += [rew[a] for a in rl.AGENTS]
    aec = rl.env("mcr")
    _, t2 = _play_aec(aec, 13, _first_masked)
    assert record_lines(p.table.match) == record_lines(aec.table.match)
    assert list(totals) == [t2[a] for a in rl.AGENTS]


def test_bad_actions_are_refused_with_their_index() -> None:
    e = rl.env("mcr")
    e.reset(seed=3)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = record_lines(e.table.match)
    with pytest.raises(rl.ActionIndexError, match=f"index {bad}"):
        e.step(bad)
    with pytest.raises(rl.ActionIndexError, match="outside"):
        e.step(ACTION_SIZE)
    with pytest.raises(rl.ActionIndexError, match="None"):
        e.step(None)
    assert record_lines(e.table.match) == before  # nothing changed


def test_render_text() -> None:
    e = rl.env("wenzhou", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "seat 0" in text and "wildcard" in text and "legal:" in text


# ----------------------------------------------------------------------------- observations
def _reference_planes(view, rules):
    """Shanten, best discards and useful tiles straight from ``majiang.analysis.shanten``."""
    import dataclasses

    shapes = dataclasses.replace(rules.shape_rules, honors_and_knitted=False, knitted_straight=False)
    counts = [0] * 34
    for t in view.hand:
        counts[t] += 1

    def sh(c):
        n, w = split_counts(list(c), view.wild_face, rules.white_stand_in)
        return shanten(n, w, shapes)

    return counts, sh


@pytest.mark.parametrize("rules", ["mcr", "wenzhou", "seed000"])
def test_analysis_planes_match_shanten(rules: str) -> None:
    e = rl.env(rules)
    e.reset(seed=31)
    rs = e.table.rules
    o = plane_offsets()
    rng = random.Random(1)
    seen = 0
    for agent in e.agent_iter(max_iter=160):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = int(agent[-1])
        view = e.table.view(seat)
        x = obs["observation"]
        counts, sh = _reference_planes(view, rs)
        assert x[o["shanten"][0], 0] == pytest.approx(sh(counts) / 8.0)
        hand_cols = x[o["hand"][0]]
        assert [int(hand_cols[c]) for c in range(34)] == [int(counts[t] > 0) for t in LAYOUT_TILES]
        if view.phase == "turn":
            after = {t: sh([c - (i == t) for i, c in enumerate(counts)]) for t in set(view.hand)}
            best = min(after.values())
            want = [1.0 if after.get(t) == best else 0.0 for t in LAYOUT_TILES]
            assert list(x[o["discard_best"][0]]) == want
            seen += 1
        mask = obs["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert seen > 20


def test_majiang_v1_and_botzone_v0_planes() -> None:
    e = rl.env("mcr")
    e.reset(seed=2)
    seat = int(e.agent_selection[-1])
    view = e.table.view(seat)
    x = e.observe(e.agent_selection)["observation"]
    o = plane_offsets()
    assert x.shape == (sum(k for _, k, _ in rl.plane_spec()), 34)
    counts = [view.hand.count(t) for t in range(34)]
    for k in range(4):
        assert list(x[o["hand"][0] + k]) == [float(counts[t] > k) for t in LAYOUT_TILES]
    assert x[o["prevalent_wind"][0]].argmax() == 27
    assert x[o["seat_wind"][0]].argmax() == LAYOUT_TILES.index(view.seat_wind)
    assert x[o["phase"][0], 0] == 1.0
    assert x[o["dealer"][0] + (view.dealer - seat) % 4, 5] == 1.0
    b = rl.env("mcr", observation="botzone-v0")
    b.reset(seed=2)
    y = b.observe(b.agent_selection)["observation"]
    assert y.shape == (6, 34)
    assert np.array_equal(y[2:6], x[o["hand"][0]:o["hand"][0] + 4])
    assert rl.to_grid(y).shape == (6, 4, 9)
    oracle = rl.env("mcr", oracle=True)
    oracle.reset(seed=2)
    z = oracle.observe(oracle.agent_selection)["observation"]
    assert z.shape[0] == x.shape[0] + 12
    other = oracle.table.match.table.concealed[(seat + 1) % 4]
    assert list(z[x.shape[0]]) == [float(other[t] > 0) for t in LAYOUT_TILES]


def test_waits_plane_marks_the_waits() -> None:
    """A ready 3n+1 hand outside its turn: the waits plane holds exactly its waits (RULES.md §1)."""
    from majiang.analysis import MCR_SHAPES, waits
    from majiang.rl.observations import Encoder

    e = rl.env("mcr")
    e.reset(seed=2)
    view = e.table.view(1)
    hand = tuple(parse_compact("23344445m888p33z"))
    import dataclasses

    v = dataclasses.replace(view, hand=hand, phase="claim", rivers=((),) * 4, melds=((),) * 4)
    x = Encoder(e.table.rules).encode(v)
    o = plane_offsets()
    counts = [hand.count(t) for t in range(34)]
    want = waits(counts, 0, MCR_SHAPES).tiles  # 1m and 3z; 4m is exhausted
    assert want == (0, 29)
    assert [LAYOUT_TILES[c] for c in np.flatnonzero(x[o["waits"][0]])] == [0, 29]
    assert x[o["shanten"][0], 0] == 0.0


def test_episode_of_several_hands_pays_each_hand() -> None:
    e = rl.env("mcr", hands=2)
    steps, totals = _play_aec(e, 6, _first_masked)
    m = e.table.match
    assert len(m.results) == 2
    want = [float(m.results[0].deltas[s] + m.results[1].deltas[s]) for s in range(4)]
    assert [totals[a] for a in rl.AGENTS] == want == [float(x) for x in m.scores]


def test_docs_list_every_plane_and_action_range() -> None:
    """docs/rl.md's plane table is the code's (names and plane ranges), and its action table's ranges."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(\w+)` \|", text, flags=re.M)
    documented = {name: (int(a), int(b or a) - int(a) + 1) for a, b, name in rows}
    for name, (first, count) in plane_offsets("majiang-v1", oracle=True).items():
        assert documented.get(name) == (first, count), name
    for first, last, what in [(2, 35, "discard"), (36, 98, "chow"), (99, 132, "pung"), (133, 166, "exposed kong"),
                              (167, 200, "concealed kong"), (201, 234, "added kong"), (235, 268, "declare ready")]:
        assert re.search(rf"^\| {first}-{last} \| {last - first + 1} \| {what}", text, flags=re.M), what
        assert describe_index(first).startswith(what.replace("exposed kong", "exposed-kong")
                                                .replace("concealed kong", "concealed-kong")
                                                .replace("added kong", "added-kong").replace("declare ready", "ready"))


@pytest.mark.parametrize("rules, seed", [("mcr", 17), ("taiwan", 24)])
def test_aec_rewards_and_infos_follow_the_engine(rules: str, seed: int) -> None:
    """Over a three-hand episode of random legal play (seeds whose second hand is won and paid, so a
    paid step is followed by unpaid ones), after every step each agent's info is what
    ``info_of`` reads from the table, the step's rewards are the settlement of the hand that ended
    with it (zero otherwise), and the rewards sum to the match's final scores (the engine's
    settlement, zero-sum)."""
    from majiang.rl.core import info_of

    e = rl.env(rules, analysis=False, hands=3)
    e.reset(seed=seed)
    rng = random.Random(5)
    total = {a: 0.0 for a in rl.AGENTS}
    results_seen = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        m = e.table.match
        ended = m.results[results_seen:]
        results_seen = len(m.results)
        for i, a in enumerate(rl.AGENTS):
            want = sum(r.deltas[i] for r in ended)
            assert e.rewards[a] == want
            total[a] += e.rewards[a]
            assert e.infos[a] == info_of(e.table, i)
    assert results_seen == 3 and any(e.table.match.results[1].deltas)
    assert [total[a] for a in rl.AGENTS] == list(e.table.match.scores)
    assert sum(total.values()) == 0


def test_aec_and_parallel_refuse_calls_outside_an_episode() -> None:
    """Stepping or observing before ``reset``, after every agent has left, or naming an agent that
    does not exist is an :class:`ActionIndexError` (a ``ValueError``) that says what to do, not a
    ``KeyError`` or ``AttributeError``; a parallel step without the awaited seat's action names it."""
    from majiang.rl.actions import ActionIndexError

    e = rl.env("mcr", analysis=False)
    for call in (lambda: e.step(0), lambda: e.last(), lambda: e.observe("seat_0")):
        with pytest.raises(ActionIndexError, match="reset"):
            call()
    e.reset(seed=1)
    with pytest.raises(ActionIndexError, match="player_0"):
        e.observe("player_0")
    rng = random.Random(1)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    for call in (lambda: e.step(0), lambda: e.last()):
        with pytest.raises(ActionIndexError, match="episode is over"):
            call()
    p = rl.parallel_env("mcr", analysis=False)
    p.reset(seed=1)
    awaited = [a for a in rl.AGENTS if p.table.to_act() == int(a[-1])]
    with pytest.raises(ActionIndexError, match=awaited[0]):
        p.step({})


@pytest.mark.parametrize("batched", [None, False])
def test_parallel_env_refuses_bad_input_and_records_copies(batched) -> None:
    """The parallel environment (on either table): a non-integer seed, an agent name that does not
    exist, a step that is not a dict, and a non-pass action for an agent that is not awaited are each
    an ``ActionIndexError``/``MajiangError`` (``ValueError``s) that change nothing; ``seed()`` then
    ``reset()`` plays that seed; ``observation_spaces``/``action_spaces`` hold every agent's space;
    ``record()`` is a copy that later steps do not change, equal to the live record when taken."""
    from majiang.rl.actions import ActionIndexError

    p = rl.parallel_env("mcr", analysis=False, batched=batched)
    for bad in (1.5, True, "abc"):
        with pytest.raises(MajiangError, match="a seed is an integer"):
            p.reset(seed=bad)
    assert set(p.observation_spaces) == set(p.action_spaces) == set(rl.AGENTS)
    assert p.observation_space("seat_2") is p.observation_spaces["seat_2"]
    with pytest.raises(ActionIndexError, match="no agent 'bogus'"):
        p.observation_space("bogus")
    with pytest.raises(ActionIndexError, match="no agent 'bogus'"):
        rl.env("mcr", analysis=False).action_space("bogus")
    p.seed(7)
    obs, _ = p.reset()
    assert record_lines(p.record()) == record_lines(Match("mcr", seed=7, max_hands=1))[:len(record_lines(p.record()))]
    before = record_lines(p.record())
    with pytest.raises(ActionIndexError, match="dict"):
        p.step(5)
    idle = [a for a in p.agents if not obs[a]["action_mask"][1:].any()]
    acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in p.agents}
    with pytest.raises(ActionIndexError, match=f"{idle[0]} is not awaited"):
        p.step({**acts, idle[0]: 5})
    assert record_lines(p.record()) == before  # nothing applied
    snap = p.record()
    for _ in range(8):
        obs, *_ = p.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in p.agents})
    assert record_lines(snap) == before and snap is not p.table.match
    assert record_lines(p.record()) == record_lines(p.table.match) != before


@pytest.mark.parametrize("rules", ["mcr", "wenzhou", "taiwan"])
def test_pettingzoo_seed_test_for_the_aec_environment(rules: str) -> None:
    """PettingZoo's ``seed_test`` (two environments, the same seed, masked samples from seeded action
    spaces: the same observations, rewards and masks throughout) passes on each kind of table."""
    from pettingzoo.test import seed_test

    seed_test(lambda: rl.env(rules, analysis=False), num_cycles=200)


def test_parallel_env_on_illegal_terminate() -> None:
    """``on_illegal="terminate"``: an action outside an agent's mask (a discard it does not hold, or
    a non-pass for an agent not awaited) ends the episode with the table unchanged, the offender
    paid ``illegal_reward`` (-100 points in reward units by default) and the others 0; an action
    that is no index at all still raises; PettingZoo's ``parallel_seed_test`` (unmasked samples)
    passes."""
    from pettingzoo.test import parallel_seed_test

    from majiang.rl.actions import ActionIndexError

    with pytest.raises(MajiangError, match="on_illegal"):
        rl.parallel_env("mcr", on_illegal="ignore")
    for kw, want in (({}, -100.0), ({"reward_scale": 4.0}, -25.0), ({"illegal_reward": -3.0}, -3.0)):
        p = rl.parallel_env("mcr", analysis=False, on_illegal="terminate", **kw)
        obs, _ = p.reset(seed=5)
        before = record_lines(p.record())
        awaited = next(a for a in p.agents if obs[a]["action_mask"][1:].any())
        idle = next(a for a in p.agents if a != awaited)
        acts = {a: 0 for a in p.agents}
        acts[awaited] = int(np.flatnonzero(obs[awaited]["action_mask"] == 0)[-1])
        with pytest.raises(ActionIndexError):
            p.step({**acts, awaited: 2.7})
        _, rew, term, _, infos = p.step(acts)
        assert rew[awaited] == want and all(rew[a] == 0.0 for a in rl.AGENTS if a != awaited)
        assert all(term.values()) and infos[awaited]["illegal_action"] and not infos[idle]["illegal_action"]
        assert p.agents == [] and record_lines(p.record()) == before
    p = rl.parallel_env("mcr", analysis=False, on_illegal="terminate")
    obs, _ = p.reset(seed=5)
    awaited = next(a for a in p.agents if obs[a]["action_mask"][1:].any())
    idle = next(a for a in p.agents if a != awaited)
    acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in p.agents}
    _, rew, _, _, infos = p.step({**acts, idle: 3})
    assert rew[idle] == -100.0 and infos[idle]["illegal_action"]
    parallel_seed_test(lambda: rl.parallel_env("mcr", analysis=False, on_illegal="terminate"), num_cycles=50)


@pytest.mark.parametrize("kwargs, want", [({}, -100.0), ({"reward_scale": 10.0}, -10.0),
                                          ({"illegal_reward": -5.0}, -5.0)])
def test_single_agent_illegal_action_costs_more_than_a_hand(kwargs: dict, want: float) -> None:
    """An illegal index ends the episode with ``illegal_reward``: by default ILLEGAL_POINTS (−100
    settlement points, docs/rl.md) in reward units, so quitting never beats playing a hand out."""
    from majiang.rl.single import ILLEGAL_POINTS

    assert ILLEGAL_POINTS == -100.0
    env = rl.SingleAgentEnv("mcr", analysis=False, **kwargs)
    obs, _ = env.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (want, True, True)


def test_action_indices_are_checked_not_truncated() -> None:
    """An action must be an integer index 0-268 (a float with no fraction and numpy integers are
    accepted): 2.7 is refused rather than played as 2, and 999 is refused even where an illegal
    index would only end the episode (``SingleAgentEnv``). The batched ``VectorEnv`` explains why it
    cannot take a set-up, and every environment asks for ``reset()`` before a step."""
    from majiang.rl.actions import ActionIndexError, as_index

    assert [as_index(x) for x in (5, np.int64(5), np.array(5), 5.0, np.float32(5.0))] == [5] * 5
    for bad in (2.7, 999, -1, "2", None, True):
        with pytest.raises(ActionIndexError):
            as_index(bad)
    single = rl.SingleAgentEnv("mcr", analysis=False)
    obs, _ = single.reset(seed=3)
    for bad in (999, 2.7):
        with pytest.raises(ActionIndexError):
            single.step(bad)
    with pytest.raises(rl.ActionIndexError, match="reset"):
        rl.VectorEnv(2, "mcr").step([0, 0])
    with pytest.raises(MajiangError, match="报听"):
        rl.VectorEnv(2, "taiwan,declare_ready=true", batched=True)
    with pytest.raises(MajiangError, match="number of tables"):
        rl.VectorEnv("4", "mcr")
    with pytest.raises(MajiangError, match="render_mode"):
        rl.parallel_env("mcr", render_mode="rgb_array")


@pytest.mark.parametrize("batched", [False, True])
def test_vector_env_refuses_a_bad_batch_whole(batched: bool) -> None:
    """An illegal index in one row, a fraction, or a non-numeric array: an ActionIndexError naming the
    table, and no table steps (the per-table path used to step the rows before the bad one)."""
    v = rl.VectorEnv(4, "mcr", batched=batched)
    obs, _ = v.reset(seed=3)
    before = [record_lines(v.record(i)) for i in range(4)]
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    bad = list(legal)
    bad[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    with pytest.raises(rl.ActionIndexError, match="table 2: seat"):
        v.step(bad)
    with pytest.raises(rl.ActionIndexError, match="table 1: action index 2.7 is not a whole number"):
        v.step([float(legal[0]), 2.7, 3.0, 4.0])
    with pytest.raises(rl.ActionIndexError, match="integer indices"):
        v.step(np.array([str(x) for x in legal]))
    with pytest.raises(rl.ActionIndexError, match="integer indices"):
        v.step(np.array([True, False, True, True]))
    assert [record_lines(v.record(i)) for i in range(4)] == before
    v.step(np.array(legal, dtype=np.float32))  # whole floats are indices
    assert [record_lines(v.record(i)) for i in range(4)] != before


@pytest.mark.parametrize("rules,batched", [("mcr", True), ("mcr", False), ("taiwan", False)])
def test_vector_env_keeps_the_records_of_ended_games(rules: str, batched: bool) -> None:
    """records=True: every ended episode's game comes back in info["final_records"] as the engine
    match, whose scores are the row's final scores and whose record the engine replays."""
    v = rl.VectorEnv(3, rules, batched=batched, records=True)
    obs, _ = v.reset(seed=8)
    rng = np.random.default_rng(8)
    seen = 0
    for _ in range(600):
        acts = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(1)
        obs, rew, term, _, info = v.step(acts)
        for i in range(3):
            m = info["final_records"][i]
            assert (m is not None) == bool(term[i])
            if m is not None:
                seen += 1
                assert m.finished and list(m.scores) == list(info["final_scores"][i])
                assert record_lines(replay(record_lines(m))) == record_lines(m)
    assert seen >= 3
    assert "final_records" not in rl.VectorEnv(1, rules, batched=batched).reset(seed=1)[1]


def test_records_of_the_pettingzoo_environments_and_bad_inputs() -> None:
    e = rl.env("mcr")
    assert e.record() is None
    e.reset(seed=4)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert len(e.record().events) > 0 and record_lines(e.record()) == record_lines(e.table.match)
    with pytest.raises(MajiangError, match="a seed is an integer, got 'a'"):
        e.reset(seed="a")
    p = rl.parallel_env("mcr")
    obs, _ = p.reset(seed=4)
    acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    with pytest.raises(rl.ActionIndexError, match="no live agent 'seat_9'"):
        p.step({**acts, "seat_9": 0})
    p.step(acts)
    snap = p.record()  # a copy: equal to the live record, another object
    assert snap is not p.table.match and record_lines(snap) == record_lines(p.table.match)


@pytest.mark.parametrize("rules", list(PRESET_NAMES) + ["taiwan,declare_ready=true"])
def test_every_observation_lies_in_the_observation_space(rules: str) -> None:
    """The observation space's per-cell bounds (observations.observation_bounds) hold over random
    games of every preset, the oracle planes included; a cell outside them is reported."""
    e = rl.env(rules, oracle=True)
    space = e.observation_space("seat_0")["observation"]
    assert np.isfinite(space.high).sum() < space.high.size  # scores are unbounded
    assert space.low.min() < 0 and space.high[:4].max() == 1.0
    rng = random.Random(5)
    seen = 0
    for seed in range(3):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            o = obs["observation"]
            assert space.contains(o), (rules, np.argwhere((o < space.low) | (o > space.high))[:5])
            seen += 1
            e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert seen > 100
