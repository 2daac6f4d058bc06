"""Reading danger from the discards: how likely a discard is to deal in, per opponent, from one seat's
view (the ``strong`` bot's defence).

Chinese rules have no furiten and no riichi, so Japanese safe-tile reasoning is adapted, not copied:

* **readiness** (:func:`ready_probability`): an opponent who has not called is ready more often as
  the hand goes on (about 0 after 3 discards, rising by 0.055 a discard); each claimed meld raises it
  (``1 - (1 - p) * 0.72**melds``: after three claims at most four tiles stay hidden), capped at 0.95;
* **the wait given readiness** (:func:`wait_weights`): a tile is a wait by the shapes that could
  wait on it -- two-sided (两面, the opponent holds ``t+1,t+2`` or ``t-2,t-1``), closed (嵌张,
  ``t-1,t+1``), edge (边张, ``1-2`` for 3 and ``8-9`` for 7), a pair-on-pair wait (对倒, two copies)
  or a single wait (单钓, one copy). Each shape is weighted by its prior (two-sided 1.0, closed 0.5,
  edge 0.5, pair 0.5, single 0.35) times the share of the tiles it needs that this seat cannot see
  (``unseen/4`` per tile; a tile fully in sight kills every shape through it, the "no chance" (壁)
  reading). A tile the opponent discarded himself is less likely (×0.3: he threw it, though with no
  furiten he may wait on it now), and a two-sided wait through a tile the opponent discarded (筋,
  "suji": 1-4-7, 2-5-8, 3-6-9) is less likely (×0.5 for that shape).
* **deal-in chance** (:func:`deal_in`): ``ready × weight × SCALE``, so that a middle tile nobody has
  shown against an opponent who is ready deals in about 12% of the time (a fresh 5 has weight
  2×1 + 0.5 + 0.5 + 0.35 = 3.35, SCALE = 0.036), close to the 12-13% deal-in rate of a fresh middle
  tile against riichi in Japanese play statistics; capped at 0.6.

All functions take 34-count vectors and tile indices (0-8 characters, 9-17 dots, 18-26 bamboo,
27-33 honours).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from majiang.engine.match import PlayerView
from majiang.players.tuning import PerScorer
from majiang.tiles import NUM_KINDS

SCALE = 0.036
"""Deal-in probability per unit of wait weight for a ready opponent (see the module doc)."""

PRIOR = {"two-sided": 1.0, "closed": 0.5, "edge": 0.5, "pair": 0.5, "single": 0.35}
"""Prior weight of each wait shape."""


def ready_probability(discards: int, melds: int) -> float:
    """Chance an opponent with ``discards`` discards and ``melds`` claimed melds is ready."""
    if discards < 0 or melds < 0:
        raise ValueError(f"discards and melds must be >= 0, got {discards}, {melds}")
    p = min(0.85, max(0.0, (discards - 3) * 0.055))
    p = 1.0 - (1.0 - p) * (0.72 ** melds)
    return min(p, 0.95)


def wait_weights(unseen: Sequence[int], own_discards: Sequence[int] = ()) -> list[float]:
    """Wait weight of every tile against one ready opponent (see the module doc).

    ``unseen``: 34 counts of copies the deciding seat cannot see (4 minus its own hand, every river,
    every visible meld); ``own_discards``: the opponent's discards (any order, repeats allowed).
    Raises :class:`ValueError` on a bad vector.
    """
    if len(unseen) != NUM_KINDS or any(not 0 <= u <= 4 for u in unseen):
        raise ValueError(f"unseen must be 34 counts in 0..4, got {list(unseen)!r}")
    a = [u / 4.0 for u in unseen]
    thrown = set(own_discards)
    w = [0.0] * NUM_KINDS
    for t in range(NUM_KINDS):
        # pair / single waits need copies of t itself in the opponent's hand
        x = PRIOR["pair"] * a[t] * max(0.0, (unseen[t] - 1) / 3.0) + PRIOR["single"] * a[t]
        if t < 27:
            r = t % 9
            if r <= 6:  # t waits with t+1, t+2 (two-sided unless t+1 is 8: then edge 89 waits on 7)
                k = PRIOR["edge"] if r == 6 else PRIOR["two-sided"]
                if r != 6 and (t + 3) in thrown:
                    k *= 0.5
                x += k * a[t + 1] * a[t + 2]
            if r >= 2:  # t waits with t-2, t-1 (edge 12 waits on 3)
                k = PRIOR["edge"] if r == 2 else PRIOR["two-sided"]
                if r != 2 and (t - 3) in thrown:
                    k *= 0.5
                x += k * a[t - 1] * a[t - 2]
            if 1 <= r <= 7:
                x += PRIOR["closed"] * a[t - 1] * a[t + 1]
        if t in thrown:
            x *= 0.3
        w[t] = x
    return w


def deal_in(view: PlayerView, tile: int, unseen: Sequence[int] | None = None) -> list[float]:
    """Chance, per seat (0 for this seat), that discarding ``tile`` now deals in to that seat.

    ``unseen`` may be passed when already computed (34 counts, see :func:`unseen_counts`)."""
    if not 0 <= tile < NUM_KINDS:
        raise ValueError(f"tile must be 0-33, got {tile!r}")
    if unseen is None:
        unseen = unseen_counts(view)
    out = [0.0] * 4
    for s in range(4):
        if s == view.seat:
            continue
        p = ready_probability(len(view.rivers[s]) + len(view.melds[s]), len(view.melds[s]))
        if p <= 0.0:
            continue
        out[s] = min(0.6, p * wait_weights(unseen, view.rivers[s])[tile] * SCALE)
    return out


def unseen_counts(view: PlayerView) -> list[int]:
    """Copies of each tile this seat cannot see: 4 minus its hand, every river and visible meld, the
    indicator."""
    vis = view.visible_counts()
    c = [0] * NUM_KINDS
    for t in view.hand:
        if t < NUM_KINDS:
            c[t] += 1
    return [max(0, 4 - c[t] - vis[t]) for t in range(NUM_KINDS)]


FEATURES = ("bias", "log_model", "melds_1", "melds_2", "melds_3", "melds_4plus", "discards", "discards_sq",
            "own_discard", "own_recent", "unseen_0", "unseen_1", "unseen_2", "unseen_3", "honour", "terminal",
            "two_eight", "value_honour", "suji", "flush_in", "flush_out", "melds_in_suit", "suit_thrown",
            "recent_middle", "wall", "log_model_x_melds", "own_discard_x_discards", "honour_x_melds",
            "unseen_0_suited")
"""Names of :func:`tile_features`' columns, in order (a learned danger model's coefficients follow them)."""


def tile_features(view: PlayerView, unseen: Sequence[int], s: int,
                  tiles: Sequence[int] | None = None) -> list[list[float]]:
    """Public features of each tile (34 rows, :data:`FEATURES` columns) for the chance that opponent
    ``s`` wins on it if this seat discards it now: the hand-made estimate above (log of ready ×
    wait weight × SCALE), the opponent's claimed melds and discards, whether he threw the tile (at
    all, among his last three), copies unseen, the tile's kind (honour, terminal, 2/8; a value
    honour for him: a dragon, his seat wind, the prevalent wind), 筋 (he threw ``t±3``), a flush tell
    (two or more melds, all in one suit: ``t`` in it or not), his melds in ``t``'s suit, the share
    of his discards in ``t``'s suit, middle tiles among his last three discards, the live wall.
    Everything comes from the ``view`` (no hidden tile); pure Python, for a logistic model
    (:func:`learned_deal_in`). ``tiles``: only those rows, in that order (default all 34)."""
    river = view.rivers[s]
    melds = view.melds[s]
    m = len(melds)
    d = len(river)
    ready = ready_probability(d + m, m)
    ww = wait_weights(unseen, river)
    thrown = set(river)
    recent = set(river[-3:])
    suits = {mm.tile // 9 for mm in melds if mm.tile < 27}
    honours_melded = any(mm.tile >= 27 for mm in melds)
    flush = next(iter(suits)) if (m >= 2 and len(suits) == 1) else None
    in_suit = [0, 0, 0]
    for mm in melds:
        if mm.tile < 27:
            in_suit[mm.tile // 9] += 1
    thrown_suit = [0, 0, 0]
    for x in river:
        if x < 27:
            thrown_suit[x // 9] += 1
    recent_mid = sum(1 for x in river[-3:] if x < 27 and 2 <= x % 9 <= 6) / 3.0
    seat_wind = 27 + (s - view.dealer) % 4
    wall = max(view.wall_live, 0) / 100.0
    dn = min(d, 20) / 10.0
    rows = []
    for t in (range(NUM_KINDS) if tiles is None else tiles):
        lm = math.log(ready * ww[t] * SCALE + 1e-4)
        u = unseen[t]
        suited = t < 27
        r = t % 9 if suited else -1
        honour = 0.0 if suited else 1.0
        suji = 1.0 if suited and ((r >= 3 and t - 3 in thrown) or (r <= 5 and t + 3 in thrown)) else 0.0
        own = 1.0 if t in thrown else 0.0
        if flush is None:
            fin = fout = 0.0
        elif suited and t // 9 == flush:
            fin, fout = 1.0, 0.0
        else:
            fin, fout = 0.0, (0.0 if (not suited and honours_melded) else 1.0)
        rows.append([
            1.0, lm, float(m == 1), float(m == 2), float(m == 3), float(m >= 4), dn, dn * dn,
            own, 1.0 if t in recent else 0.0, float(u == 0), float(u == 1), float(u == 2), float(u == 3),
            honour, 1.0 if suited and r in (0, 8) else 0.0, 1.0 if suited and r in (1, 7) else 0.0,
            1.0 if (t >= 31 or t == seat_wind or t == view.prevalent_wind) else 0.0,
            suji, fin, fout, in_suit[t // 9] / 3.0 if suited else 0.0,
            thrown_suit[t // 9] / max(d, 1) if suited else 0.0, recent_mid, wall,
            lm * min(m, 3) / 3.0, own * dn, honour * min(m, 3) / 3.0, float(u == 0 and suited),
        ])
    return rows


def learned_deal_in(rows: list[list[float]], coef: Sequence[float]) -> list[float]:
    """Deal-in chance of each row of :func:`tile_features` under a logistic model with coefficients
    ``coef`` (one per :data:`FEATURES` column)."""
    out = []
    for f in rows:
        z = 0.0
        for a, b in zip(f, coef):
            z += a * b
        out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))))
    return out


LEARNED = PerScorer("danger_model")
"""Per scorer, the learned danger model's coefficients (one per :data:`FEATURES` column), from its rule
set's :attr:`BotTuning.danger_model <majiang.rules.base.BotTuning>` (docs/strong.md, "learned danger")."""
