"""An upper bound on what defence can earn ``strong``: the same duplicate games as
``screen_strong.py``, with ``strong``'s danger estimate replaced by the truth -- each discard's cost is
the rule set's deal-in cost (× ``defence``) for every opponent whose hand, as it really is, would win
on that tile (the engine's own win test, minimum score included). No real bot can see this; if even
this "cheating" defence does not put ``strong`` clearly ahead of ``efficiency``, no better danger
model will.

Usage: ``python benchmarks/oracle_defence.py RULES WALLS SEED '{}' '{"defence": 1.0}' ...`` (the
first variant is the plain bot, the others the oracle with those ``StrongBot`` arguments; each is
paired by wall with the first). ``"oracle": "ready"`` knows only who is ready; ``"oracle": "narrow",
"extra": k`` is a reader that narrows each ready opponent's waits to his true waits plus k other
tiles (how sharp a real wait reader must be). A research script: not a test, not a bot anyone can
choose.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screen_strong as S  # noqa: E402

from majiang.engine.match import Match  # noqa: E402
from majiang.players.danger import SCALE, wait_weights  # noqa: E402
from majiang.players.strong import StrongBot  # noqa: E402
from majiang.tiles import NUM_KINDS  # noqa: E402

_LIVE: list[Match] = []
_init = Match.__init__


def _remember(self, *a, **kw):  # the match being played (one at a time in this process)
    _init(self, *a, **kw)
    _LIVE[:] = [self]


Match.__init__ = _remember


class OracleDefenceBot(StrongBot):
    """:class:`StrongBot` whose danger is exact: a tile costs ``deal_in_cost`` for each opponent that
    would win on it now. With ``oracle="ready"`` only readiness is known: an opponent who is ready
    (some tile would complete his hand) costs the hand-made wait estimate's chance per tile
    (``wait_weights`` × ``SCALE``, as if ``ready_probability`` were 1), one who is not costs nothing."""

    def __init__(self, *a, oracle: str = "waits", extra: int = 0, **kw):
        super().__init__(*a, **kw)
        if oracle not in ("waits", "ready", "narrow"):
            raise ValueError(f"oracle must be waits, ready or narrow, got {oracle!r}")
        self.oracle = oracle
        self.extra = extra

    def danger(self, view, unseen):
        out = [0.0] * NUM_KINDS
        t = _LIVE[0].table
        if t is None:
            return out
        for s in range(4):
            if s == view.seat:
                continue
            if self.oracle == "narrow":
                self._narrow(view, unseen, s, t, out)
                continue
            if self.oracle == "ready":
                ready = any(t.concealed[s][x] < 4 and t._score_win(s, x, self_drawn=False, discarder=view.seat,
                                                                   robbing=False) is not None
                            for x in range(NUM_KINDS))
                if ready:
                    w = wait_weights(unseen, view.rivers[s])
                    for x in range(NUM_KINDS):
                        out[x] += min(0.6, w[x] * SCALE) * self.deal_in_cost
                continue
            for x in range(NUM_KINDS):
                if t.concealed[s][x] >= 4:
                    continue
                if t._score_win(s, x, self_drawn=False, discarder=view.seat, robbing=False) is not None:
                    out[x] += self.deal_in_cost
        return out


    def _narrow(self, view, unseen, s, t, out) -> None:
        """A reader that narrows a ready opponent's waits to a candidate set: his true waits plus
        ``extra`` other tiles drawn (without replacement, a fixed seed per turn) in proportion to the
        hand-made wait weights; each candidate costs its share (true waits / candidates) of the
        deal-in cost. An opponent who is not ready costs nothing."""
        waits = [x for x in range(NUM_KINDS) if t.concealed[s][x] < 4 and t._score_win(
            s, x, self_drawn=False, discarder=view.seat, robbing=False) is not None]
        if not waits:
            return
        w = wait_weights(unseen, view.rivers[s])
        pool = [x for x in range(NUM_KINDS) if x not in waits and w[x] > 0]
        rng = random.Random(hash((view.hand_number, view.seat, s, tuple(len(r) for r in view.rivers),
                                  tuple(view.hand))))
        cands = list(waits)
        for _ in range(min(self.extra, len(pool))):
            x = rng.choices(pool, weights=[w[y] for y in pool])[0]
            pool.remove(x)
            cands.append(x)
        share = len(waits) / len(cands)
        for x in cands:
            out[x] += share * self.deal_in_cost


def main() -> None:
    rules, walls, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kws = [json.loads(x) for x in sys.argv[4:]]
    diffs = []
    for k, kw in enumerate(kws):
        S.StrongBot = StrongBot if k == 0 else OracleDefenceBot  # variants' "oracle": "waits" (default) | "ready"
        t0 = time.perf_counter()
        d, parts, _ = S.run(rules, walls, seed, kw)
        m, h = S._ci(d)
        print(f"{rules} seed {seed} {walls} walls {'oracle ' if k else ''}{kw}: strong - efficiency {m:+.3f} "
              f"±{h:.3f} {parts} {time.perf_counter() - t0:.0f}s", flush=True)
        diffs.append(d)
    S.StrongBot = StrongBot
    for k in range(1, len(kws)):
        dd = [a - b for a, b in zip(diffs[k], diffs[0])]
        m, h = S._ci(dd)
        print(f"  oracle {kws[k]} - plain: {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]")


if __name__ == "__main__":
    main()
