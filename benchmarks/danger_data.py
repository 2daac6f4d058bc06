"""Training data for a learned danger model: the duplicate games of ``screen_strong.py`` (two ``strong``,
two ``efficiency`` seats), and at each turn of a ``strong`` seat, for each opponent and each tile it
could discard, the public features of :func:`majiang.players.danger.tile_features` and the truth --
whether that opponent's hand, as it really is, would win on the tile now (the engine's own win test).
Play is unchanged (the bot's own danger decides).

Usage: ``python benchmarks/danger_data.py RULES WALLS SEED OUT.npz`` (use seeds never used for the
measurements: not 2026, 2027, 7, 11, 13). ``benchmarks/fit_danger.py`` fits the model.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screen_strong as S  # noqa: E402

from majiang.engine.match import Match  # noqa: E402
from majiang.players.danger import tile_features  # noqa: E402
from majiang.players.strong import StrongBot  # noqa: E402

_LIVE: list[Match] = []
_init = Match.__init__


def _remember(self, *a, **kw):
    _init(self, *a, **kw)
    _LIVE[:] = [self]


Match.__init__ = _remember
X: list[list[float]] = []
Y: list[int] = []
G: list[int] = []  # game index (for splitting by game)


class LoggingBot(StrongBot):
    def danger(self, view, unseen):
        t = _LIVE[0].table
        if t is not None and view.phase == "turn":
            held = sorted({x for x in view.hand if x < 34})
            g = id(_LIVE[0])
            for s in range(4):
                if s == view.seat:
                    continue
                rows = tile_features(view, unseen, s)
                for x in held:
                    X.append(rows[x])
                    Y.append(int(t._score_win(s, x, self_drawn=False, discarder=view.seat, robbing=False)
                                 is not None))
                    G.append(g)
        return super().danger(view, unseen)


def main() -> None:
    rules, walls, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    S.StrongBot = LoggingBot
    S.run(rules, walls, seed, {})
    _, gi = np.unique(np.array(G), return_inverse=True)
    np.savez_compressed(out, X=np.array(X, dtype=np.float32), y=np.array(Y, dtype=np.int8), game=gi)
    print(out, len(Y), "rows,", int(np.sum(Y)), "positives")


if __name__ == "__main__":
    main()
