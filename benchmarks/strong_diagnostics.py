"""Diagnostics behind the README's notes on the ``strong`` bot (issue 15), two ``strong`` seats (0, 2)
and two ``efficiency`` seats (1, 3), one hand a game, dealer at seat 0, walls from ``SEED``:

* ``calibration RULES N SEED``: the danger model against the truth. (1) For every discard and every
  other seat, the seat's true readiness (shanten 0 of its concealed tiles, read from the table, which
  no bot can see) by ``(discards + melds, melds)`` beside :func:`~majiang.players.danger.ready_probability`;
  (2) the predicted chance that the discard deals in to that seat, in bins of 1%, beside how often
  the tile is really one of its waits. Prints a maximum-likelihood fit of
  ``ready = 1 - (1 - clip((d - start) * slope)) * factor ** melds`` (grid search).
* ``choices RULES N SEED``: at every decision of a ``strong`` seat with a choice, what ``efficiency``
  would have done in its place: same discard, a discard with a higher shanten, the same shanten with
  fewer or more useful tiles, and the claims each takes or passes.

Usage: ``python benchmarks/strong_diagnostics.py calibration taiwan 300 5`` (a few seconds per 100 hands
in Taiwan and Wenzhou).
"""

from __future__ import annotations

import collections
import math
import random
import sys

from majiang.analysis import shanten, waits
from majiang.analysis.wildcards import split_counts
from majiang.engine.actions import ActionKind
from majiang.engine.match import Match
from majiang.engine.ruleset import resolve
from majiang.players.danger import SCALE, ready_probability, wait_weights
from majiang.players.efficiency import EfficiencyBot
from majiang.players.strong import StrongBot
from majiang.tiles import NUM_KINDS
from majiang.tournament import derive_seed


def _counts(tiles) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c


def _games(rules_name: str, n: int, seed: int):
    rules = resolve(rules_name).with_options(seat_draw=False, first_dealer="east")
    for g in range(n):
        gseed = derive_seed(seed, "wall", g)
        wall = list(rules.tile_set)
        random.Random(gseed).shuffle(wall)
        yield rules, Match(rules, seed=gseed, walls=[wall], max_hands=1)


def calibration(rules_name: str, n: int, seed: int) -> None:
    ready = collections.defaultdict(lambda: [0, 0, 0.0])
    bins = collections.defaultdict(lambda: [0, 0.0, 0])
    for rules, m in _games(rules_name, n, seed):
        bots = [StrongBot(rules) if s % 2 == 0 else EfficiencyBot(rules) for s in range(4)]
        shapes = bots[0].shapes
        while not m.finished:
            s = m.pending_seats()[0]
            v = m.view(s)
            a = bots[s].choose(v, m.legal_actions(s))
            if v.phase == "turn" and a.kind is ActionKind.DISCARD and a.tile is not None:
                c = _counts(v.hand)
                vis = v.visible_counts()
                unseen = [max(0, 4 - c[x] - vis[x]) for x in range(NUM_KINDS)]
                for o in range(4):
                    if o == s:
                        continue
                    nat, w = split_counts(list(m.table.concealed[o]), v.wild_face, rules.white_stand_in)
                    sh = shanten(nat, w, shapes)
                    d, k = len(v.rivers[o]) + len(v.melds[o]), len(v.melds[o])
                    p = ready_probability(d, k)
                    r = ready[(min(d, 20), min(k, 3))]
                    r[0] += 1
                    r[1] += sh == 0
                    r[2] += p
                    pred = min(0.6, p * wait_weights(unseen, v.rivers[o])[a.tile] * SCALE)
                    hit = int(sh == 0 and a.tile in waits(nat, w, shapes).formal)
                    b = bins[min(int(pred / 0.01), 15)]
                    b[0] += 1
                    b[1] += pred
                    b[2] += hit
            m.apply(s, a)
    print(f"{rules_name}: readiness by (discards + melds, melds): hands, actual, predicted")
    for key in sorted(ready):
        k, r, p = ready[key]
        if k >= 30:
            print(f"  {key}: n={k:5d} actual {r / k:.3f} predicted {p / k:.3f}")
    best = None
    for d0 in [x / 2 for x in range(-4, 12)]:
        for slope in [x / 1000 for x in range(20, 90, 3)]:
            for f in [x / 100 for x in range(60, 101, 2)]:
                ll = 0.0
                for (d, k), (cnt, r, _) in ready.items():
                    p = 1 - (1 - min(0.85, max(0.0, (d - d0) * slope))) * f ** k
                    p = min(max(p, 1e-3), 0.95)
                    ll += r * math.log(p) + (cnt - r) * math.log(1 - p)
                if best is None or ll > best[0]:
                    best = (ll, d0, slope, f)
    assert best is not None
    print(f"  fit: start {best[1]}, slope {best[2]}, meld factor {best[3]}")
    print("deal-in chance per discard and seat, by predicted bin: n, mean predicted, actual")
    for key in sorted(bins):
        k, p, h = bins[key]
        print(f"  {key / 100:.2f}: n={k:6d} predicted {p / k:.4f} actual {h / k:.4f}")


def choices(rules_name: str, n: int, seed: int) -> None:
    cat: collections.Counter = collections.Counter()
    for rules, m in _games(rules_name, n, seed):
        bots = [StrongBot(rules) if s % 2 == 0 else EfficiencyBot(rules) for s in range(4)]
        shadow = EfficiencyBot(rules)
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            v = m.view(s)
            a = bots[s].choose(v, acts)
            if s % 2 == 0 and len(acts) > 1:
                e = shadow.choose(v, acts)
                if v.phase == "turn" and a.kind is e.kind is ActionKind.DISCARD:
                    st = bots[s]
                    c = _counts(v.hand)
                    unseen = [max(0, x) for x in st._unseen(v, c)]

                    def info(t: int) -> tuple[int, int]:
                        c[t] -= 1
                        sh = st._shanten(c, v)
                        u = st._useful(c, v, unseen, sh)
                        c[t] += 1
                        return sh, u

                    (sa, ua), (se, ue) = info(a.tile), info(e.tile)
                    cat["discard: the same tile" if a.tile == e.tile else
                        f"discard: strong's shanten higher (from {se})" if sa > se else
                        "discard: strong's shanten lower" if sa < se else
                        f"discard: same shanten {sa}, fewer useful tiles" if ua < ue else
                        "discard: same shanten, more useful tiles" if ua > ue else
                        "discard: another tile, same shanten and useful tiles"] += 1
                elif v.phase == "claim":
                    cat[f"claim: strong {a.kind.name}, efficiency {e.kind.name}"] += 1
                elif v.phase == "turn":
                    cat[f"turn: strong {a.kind.name}, efficiency {e.kind.name}"] += 1
            m.apply(s, a)
    for k, c in sorted(cat.items(), key=lambda x: -x[1]):
        print(f"{c:6d} {k}")


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("calibration", "choices"):
        sys.exit(__doc__)
    {"calibration": calibration, "choices": choices}[sys.argv[1]](sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
