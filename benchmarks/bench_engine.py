"""Engine speed: self-play with random bots, ours beside RLCard's mahjong environment; other bots; replay.

    python benchmarks/bench_engine.py [--seconds S] [--rounds R] [--seed N] [--rules SPEC] [--hands H]
                                      [--no-rlcard] [--no-extras]

**Self-play, side by side** (one process, the same time budget for each engine):

* ours: :class:`~majiang.engine.Match` driven as :func:`~majiang.engine.run_match` drives it, four
  :class:`~majiang.players.RandomBot` s (they declare every win they are offered); every decision
  asks ``pending_seats``, ``legal_actions`` and ``view`` and ends in one ``apply`` -- a **step**
  (a pass in a claim window is a step). Rules: ``"mcr,scorer=mcr"`` when :mod:`majiang.rules.mcr`
  imports, so every winning shape offered is scored with the 81 fans and checked against the 8-fan
  minimum (under 8 fans it is no win); otherwise ``"mcr,scorer=fixed"`` (the stand-in: 8 fan + 1 per
  flower), and the output says so.
* RLCard: ``rlcard.make("mahjong")`` with a uniform choice among ``state["legal_actions"]`` (Python's
  ``random``, cheaper than RLCard's own ``RandomAgent``); each ``env.step`` is a step. RLCard's
  mahjong has no flowers, no fan scoring (a win is +1/-1) and no minimum. RLCard is a
  benchmark-only dependency (``pip install rlcard``, the ``bench`` extra); without it only our
  figures are printed.

A **hand** (RLCard: a game) ends in a win or a drawn wall. The budget is cut into ``--rounds``
slices that alternate between the engines, so load from other processes falls on both alike; a
slice ends with the hand in progress. Before timing, each engine plays ``--warmup`` hands (the
analysis tables fill lazily: a cold process is slower). Figures: steps/s and hands/s by wall clock
and by process CPU time, and our ratio to RLCard.

**Extras** (ours only, ``--hands`` hands; skip with ``--no-extras``): random bots through
:func:`~majiang.engine.run_match`; efficiency bots (dominated by shanten; the bot memoises it);
replay of the random games from their JSON-lines records (every step checked).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator

from majiang.engine import Match, run_match
from majiang.engine.ruleset import RuleSet, resolve
from majiang.rules.mcr.engine_adapter import mcr_available
from majiang.players import EfficiencyBot, RandomBot
from majiang.records.jsonl import record_lines, replay


# ----------------------------------------------------------------------------- self-play loops
def ours_hands(rules: RuleSet, seed: int) -> Iterator[tuple[int, bool]]:
    """Endless self-play with random bots; yields ``(steps, won)`` after each hand."""
    g = 0
    while True:
        m = Match(rules, seed=seed + g)
        players = [RandomBot(seed + g * 4 + p) for p in range(4)]
        steps = 0
        done = 0
        while not m.finished:
            s = m.pending_seats()[0]
            a = players[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s))
            m.apply(s, a)
            steps += 1
            if len(m.results) > done:
                res = m.results[done]
                done += 1
                yield steps, not res.drawn
                steps = 0
        g += 1


def rlcard_hands(seed: int) -> Iterator[tuple[int, bool]]:
    """Endless self-play in RLCard's mahjong environment; yields ``(steps, won)`` after each game."""
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    while True:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        yield steps, bool(env.get_payoffs()[0] != 0)


class Tally:
    """Steps, hands and wins played, and the wall and CPU seconds spent."""

    def __init__(self, hands: Iterator[tuple[int, bool]]) -> None:
        self.hands_it = hands
        self.steps = self.hands = self.wins = 0
        self.wall = self.cpu = 0.0

    def warm(self, n: int) -> None:
        for _ in range(n):
            next(self.hands_it)

    def run(self, seconds: float) -> None:
        w0, c0 = time.perf_counter(), time.process_time()
        end = w0 + seconds
        while True:
            steps, won = next(self.hands_it)
            self.steps += steps
            self.hands += 1
            self.wins += won
            if time.perf_counter() >= end:
                break
        self.wall += time.perf_counter() - w0
        self.cpu += time.process_time() - c0


def rlcard_version() -> str | None:
    try:
        import rlcard
    except ImportError:
        return None
    return getattr(rlcard, "__version__", "?")


def side_by_side(rules: RuleSet, seconds: float, rounds: int, seed: int, warmup: int, with_rlcard: bool) -> None:
    ours = Tally(ours_hands(rules, seed))
    peer = Tally(rlcard_hands(seed)) if with_rlcard else None
    ours.warm(warmup)
    if peer is not None:
        peer.warm(warmup)
    for _ in range(rounds):
        ours.run(seconds / rounds)
        if peer is not None:
            peer.run(seconds / rounds)
    rows = [("ours", ours)] + ([("rlcard", peer)] if peer is not None else [])
    print(f"self-play, random bots, {seconds:g} s each in {rounds} alternating slices, {warmup} warm-up hands")
    print(f"{'':8}{'steps/s':>10}{'hands/s':>9}{'cpu steps/s':>13}{'cpu hands/s':>12}"
          f"{'steps/hand':>11}{'won':>6}{'hands':>7}")
    for name, t in rows:
        print(f"{name:8}{t.steps / t.wall:10.0f}{t.hands / t.wall:9.1f}{t.steps / t.cpu:13.0f}"
              f"{t.hands / t.cpu:12.1f}{t.steps / t.hands:11.1f}{t.wins / t.hands:6.0%}{t.hands:7d}")
    if peer is not None:
        print(f"{'ratio':8}{(ours.steps / ours.wall) / (peer.steps / peer.wall):9.2f}x"
              f"{(ours.hands / ours.wall) / (peer.hands / peer.wall):8.2f}x"
              f"{(ours.steps / ours.cpu) / (peer.steps / peer.cpu):12.2f}x"
              f"{(ours.hands / ours.cpu) / (peer.hands / peer.cpu):11.2f}x   (ours / rlcard)")


# ----------------------------------------------------------------------------- extras (ours only)
def _bench(rules: RuleSet, hands: int, seed: int, bot: str) -> tuple[float, int, list[list[str]]]:
    done = 0
    decisions = 0
    records = []
    t0 = time.perf_counter()
    g = 0
    while done < hands:
        m = Match(rules, seed=seed + g, max_hands=min(4, hands - done))
        players = [RandomBot(seed + g * 4 + p) if bot == "random" else EfficiencyBot(rules) for p in range(4)]
        run_match(m, players)
        done += len(m.results)
        decisions += sum(1 for e in m.events if e["type"] in ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan",
                                                               "hora"))
        records.append(record_lines(m))
        g += 1
    return time.perf_counter() - t0, decisions, records


def extras(rules: RuleSet, hands: int, seed: int) -> None:
    rt, rdec, recs = _bench(rules, hands, seed, "random")
    eh = max(4, hands // 4)
    et, _, _ = _bench(rules, eh, seed, "efficiency")
    t0 = time.perf_counter()
    for r in recs:
        replay(r)
    pt = time.perf_counter() - t0
    print(f"random bots      {hands / rt:8.1f} hands/s   {rdec / rt:9.0f} recorded decisions/s (passes not counted)")
    print(f"efficiency bots  {eh / et:8.1f} hands/s")
    print(f"replay           {hands / pt:8.1f} hands/s")
    print(f"ratio random/efficiency: {(hands / rt) / (eh / et):.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time budget per engine (default 10)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating slices (default 5)")
    ap.add_argument("--warmup", type=int, default=100, help="untimed hands per engine first (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default=None, help='rule spec (default "mcr,scorer=mcr", or "mcr,scorer=fixed" '
                                                  "without the MCR scorer)")
    ap.add_argument("--hands", type=int, default=64, help="hands for the extras (default 64)")
    ap.add_argument("--no-rlcard", action="store_true", help="our figures only")
    ap.add_argument("--no-extras", action="store_true", help="skip the efficiency-bot and replay figures")
    a = ap.parse_args()
    spec = a.rules
    if spec is None:
        if mcr_available():
            spec = "mcr,scorer=mcr"
        else:
            spec = "mcr,scorer=fixed"
            print("note: majiang.rules.mcr does not import: wins are scored with the fixed stand-in scorer "
                  "(8 fan + flowers), not the MCR fans")
    rules = resolve(spec)
    print(f"rules {spec} (scorer {rules.scorer}, minimum {rules.min_score})")
    version = None if a.no_rlcard else rlcard_version()
    if not a.no_rlcard:
        print(f"rlcard {version}" if version else
              "note: rlcard is not installed (pip install rlcard): our figures only")
    side_by_side(rules, a.seconds, max(1, a.rounds), a.seed, a.warmup, version is not None)
    if not a.no_extras:
        extras(rules, a.hands, a.seed)


if __name__ == "__main__":
    main()
