"""Learning-environment speed: majiang.rl beside RLCard's mahjong environment, and self-play at scale.

    python benchmarks/bench_rl.py [--seconds S] [--rules SPEC] [--n 64] [--games G] [--max-hands H]
                                  [--no-rlcard] [--no-selfplay] [--no-ray]

Needs the ``rl`` extra (and ``bench`` for RLCard, ``ray`` for the Ray rows).

**Steps, side by side** (one process, alternating time slices, after a warm-up):

* ``aec majiang-v1``: :func:`majiang.rl.env` driven as PettingZoo's ``agent_iter`` loop: each step
  calls ``last()`` (the acting seat's ``majiang-v1`` observation and its action mask) and ``step``
  with a uniform choice among the masked indices.
* ``aec majiang-v1, analysis=False``: the same without the hand-analysis planes (shanten, waits,
  useful tiles), which are the costliest part of the observation.
* ``aec botzone-v0``: the same with the PKU baseline's 6 planes.
* ``vector n=64 ...``: :class:`majiang.rl.VectorEnv` (self-play), one ``step`` of the whole batch
  counts n steps; observations ``(64, C, 34)`` and masks ``(64, 269)``, a uniform masked choice per row
  drawn with numpy (counted in the time). ``per-table``: ``batched=False``, one engine per row, with
  the full ``majiang-v1``; ``batched``: the batched core (:mod:`majiang.rl.batched`, chosen by default
  for ``mcr``) with ``majiang-v1`` (analysis planes from the compiled kernel,
  :mod:`majiang.rl.kernels`), ``majiang-v1, analysis=False`` and ``botzone-v0``. A rule set the batched core does not support leaves those rows
  out.
* ``vector n=64 learner vs efficiency`` and ``vs random``: ``VectorEnv(n, rules, opponents=...)``: one
  learning seat a table (the batched learner where the core supports the set-up), its steps only
  counted (the opponents' decisions are inside each step), then each row's ratio to the batched
  self-play row (issue 28's goal: within 2x; ``--no-learner`` leaves them out).
* ``rlcard``: ``rlcard.make("mahjong")``, uniform choice among ``state["legal_actions"]``; each
  ``env.step`` builds RLCard's ``(6, 34, 4)`` observation and legal actions. RLCard's mahjong has no
  flowers, no fan scoring, a win is +1/-1.

Figures: steps/s by wall clock and by process CPU time, and the ratio to RLCard (CPU).

**Self-play games/s** (``majiang selfplay``'s engine, efficiency bots, its default chunks of 4
games): process executor with 1 and 2 workers, Ray with 1 and 2 CPUs; the speed-up of 2 workers
over 1. games/s is ``run_selfplay``'s: the games over the time from the end of the set-up (warm
tables, Ray's start) to the last game's result, so neither the set-up nor the shutdown counts. On a
machine shared with other work the speed-ups are lower than the cores allow.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np


def aec_runner(rules: str, observation: str, analysis: bool, seed: int) -> Callable[[float], tuple[int, float, float]]:
    from majiang.rl import env

    e = env(rules, observation=observation, analysis=analysis)
    rng = random.Random(seed)
    e.reset(seed=seed)
    it = iter(e.agent_iter())

    def run(seconds: float) -> tuple[int, float, float]:
        nonlocal it
        n = 0
        w0, c0 = time.perf_counter(), time.process_time()
        end = w0 + seconds
        while time.perf_counter() < end:
            for _ in range(64):
                agent = next(it, None)
                if agent is None:
                    e.reset()
                    it = iter(e.agent_iter())
                    continue
                obs, r, term, trunc, info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                n += 1
        return n, time.perf_counter() - w0, time.process_time() - c0

    return run


def vector_runner(rules: str, n: int, seed: int, *, batched: bool | None = None, observation: str = "majiang-v1",
                  analysis: bool = True, opponents: str | None = None) -> Callable[[float], tuple[int, float, float]]:
    from majiang.rl import VectorEnv

    v = VectorEnv(n, rules, batched=batched, observation=observation, analysis=analysis, opponents=opponents)
    obs, _ = v.reset(seed=seed)
    rng = np.random.default_rng(seed)
    state = {"obs": obs}

    def run(seconds: float) -> tuple[int, float, float]:
        steps = 0
        w0, c0 = time.perf_counter(), time.process_time()
        end = w0 + seconds
        while time.perf_counter() < end:
            mask = state["obs"]["action_mask"]
            # a uniform masked choice per row, vectorised: random keys, masked out where illegal
            keys = rng.random(mask.shape, dtype=np.float32) * mask
            acts = keys.argmax(axis=1)
            state["obs"], *_ = v.step(acts)
            steps += n
        return steps, time.perf_counter() - w0, time.process_time() - c0

    return run


def rlcard_runner(seed: int) -> Callable[[float], tuple[int, float, float]]:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    state = {"s": env.reset()[0]}

    def run(seconds: float) -> tuple[int, float, float]:
        n = 0
        w0, c0 = time.perf_counter(), time.process_time()
        end = w0 + seconds
        while time.perf_counter() < end:
            for _ in range(64):
                if env.is_over():
                    state["s"] = env.reset()[0]
                state["s"], _ = env.step(rng.choice(list(state["s"]["legal_actions"])))
                n += 1
        return n, time.perf_counter() - w0, time.process_time() - c0

    return run


def side_by_side(runners: dict[str, Callable[[float], tuple[int, float, float]]], seconds: float, rounds: int,
                 warm: float) -> dict[str, tuple[float, float]]:
    for r in runners.values():
        r(warm)
    tot = {k: [0, 0.0, 0.0] for k in runners}
    for _ in range(rounds):
        for k, r in runners.items():
            n, w, c = r(seconds / rounds)
            tot[k][0] += n
            tot[k][1] += w
            tot[k][2] += c
    return {k: (v[0] / v[1], v[0] / v[2]) for k, v in tot.items()}


def selfplay_rows(rules: str, games: int, max_hands: int, use_ray: bool) -> None:
    from majiang.selfplay import run_selfplay

    kw = dict(rules=rules, games=games, bots=["efficiency"], max_hands=max_hands, seed=1, chunk_size=4)
    rows = []
    for ex, w in [("process", 1), ("process", 2)] + ([("ray", 1), ("ray", 2)] if use_ray else []):
        try:
            s = run_selfplay(executor=ex, workers=w, **kw)
        except Exception as e:  # noqa: BLE001 - e.g. ray missing
            print(f"{ex} x{w}: skipped ({e})")
            continue
        rows.append((ex, w, s["games_per_second"], s["digest"]))
    print(f"\nself-play, {games} games of {max_hands} hand(s), efficiency bots, chunks of 4 games (the command's default)")
    print(f"{'executor':10}{'workers':>8}{'games/s':>10}  digest")
    base: dict[str, float] = {}
    for ex, w, gps, dg in rows:
        if w == 1:
            base[ex] = gps
        sp = f"  {gps / base[ex]:.2f}x of 1 worker" if w > 1 and ex in base else ""
        print(f"{ex:10}{w:8d}{gps:10.2f}  {dg[:16]}{sp}")
    if len({dg for *_, dg in rows}) == 1 and rows:
        print("digests: all equal")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time budget per environment (default 10)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warm", type=float, default=3.0, help="untimed seconds per environment first")
    ap.add_argument("--rules", default="mcr")
    ap.add_argument("--n", type=int, default=64, help="tables in the vector environment")
    ap.add_argument("--games", type=int, default=192,
                    help="self-play games per row (enough that the last chunks' tail is not the figure)")
    ap.add_argument("--max-hands", type=int, default=4, help="hands per self-play game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-rlcard", action="store_true")
    ap.add_argument("--no-selfplay", action="store_true")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--no-learner", action="store_true", help="leave out the learner rows")
    a = ap.parse_args()
    import os

    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    runners = {
        "aec majiang-v1": aec_runner(a.rules, "majiang-v1", True, a.seed),
        "aec majiang-v1, analysis=False": aec_runner(a.rules, "majiang-v1", False, a.seed),
        "aec botzone-v0": aec_runner(a.rules, "botzone-v0", True, a.seed),
        f"vector n={a.n} per-table": vector_runner(a.rules, a.n, a.seed, batched=False),
    }
    from majiang.engine import resolve
    from majiang.rl.batched import supports

    if supports(resolve(a.rules)):
        runners[f"vector n={a.n} batched majiang-v1"] = vector_runner(a.rules, a.n, a.seed, batched=True)
        runners[f"vector n={a.n} batched, analysis=False"] = vector_runner(a.rules, a.n, a.seed, batched=True,
                                                                             analysis=False)
        runners[f"vector n={a.n} batched botzone-v0"] = vector_runner(a.rules, a.n, a.seed, batched=True,
                                                                        observation="botzone-v0")
    if not a.no_learner:
        runners[f"vector n={a.n} learner vs efficiency"] = vector_runner(a.rules, a.n, a.seed, opponents="efficiency")
        runners[f"vector n={a.n} learner vs random"] = vector_runner(a.rules, a.n, a.seed, opponents="random")
    have_rlcard = False
    if not a.no_rlcard:
        try:
            import rlcard  # noqa: F401

            runners["rlcard mahjong"] = rlcard_runner(a.seed)
            have_rlcard = True
        except ImportError:
            print("note: rlcard is not installed (pip install 'majiang[bench]'): our figures only")
    res = side_by_side(runners, a.seconds, max(1, a.rounds), a.warm)
    print(f"rules {a.rules}; {a.seconds:g} s per environment in {a.rounds} alternating slices after {a.warm:g} s warm-up")
    print(f"{'':40}{'steps/s':>10}{'cpu steps/s':>13}" + ("   ratio to rlcard (cpu)" if have_rlcard else ""))
    ref = res.get("rlcard mahjong")
    for k, (w, c) in res.items():
        ratio = f"{c / ref[1]:10.2f}x" if ref and k != "rlcard mahjong" else ""
        print(f"{k:40}{w:10.0f}{c:13.0f}{ratio}")
    sk = f"vector n={a.n} batched majiang-v1"
    for bot in ("efficiency", "random"):
        lk = f"vector n={a.n} learner vs {bot}"
        if lk in res and sk in res:
            print(f"learner vs {bot}: {res[sk][0] / res[lk][0]:.1f}x slower than batched self-play by wall "
                  f"({res[sk][1] / res[lk][1]:.1f}x by CPU); goal: within 2x")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    if not a.no_selfplay:
        selfplay_rows(a.rules, a.games, a.max_hands, not a.no_ray)


if __name__ == "__main__":
    main()
