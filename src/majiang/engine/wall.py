"""Seeds, dice, and the wall: building it, breaking it, and the per-hand seeds of a match.

Determinism (issue: "a game is fully determined by its seed"): every random choice of a match comes
from :func:`rng_for`, a :class:`random.Random` seeded with SHA-256 of the match seed and a label
(``"seating"``, ``("hand", k)``...). Nothing reads the global random state, so the same seed gives the
same match on every platform and Python version that keeps :class:`random.Random`'s algorithm
(Mersenne Twister, stable since Python 3.2 for ``shuffle``/``randrange`` on ints).

The wall (牌墙): the shuffled tiles are laid as four walls of stacks two high, one wall in front of
each seat (seat 0 first, in turn order), forming a ring. The dealer rolls the dice; counting seats in
turn order with the dealer as 1 picks the wall to break, and counting that many stacks from its right
end picks the break point (SD3 "[開局]", SD1 "掷色子两次确定摸牌"). The live wall is the ring read from the
break: the engine draws from its front and takes replacement tiles (kongs, flowers) from its tail.
The engine therefore only ever needs that linear order, which is what an explicit wall gives.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from majiang.engine.ruleset import RuleSet


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit seed derived from ``seed`` and labels (SHA-256; stable across runs and platforms)."""
    text = "/".join([str(int(seed))] + [str(x) for x in labels])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def rng_for(seed: int, *labels: object) -> random.Random:
    """A private :class:`random.Random` for one purpose of one match (see :func:`derive_seed`)."""
    return random.Random(derive_seed(seed, *labels))


def roll_dice(rng: random.Random, n: int = 2) -> tuple[int, ...]:
    """``n`` dice, each 1-6."""
    return tuple(rng.randint(1, 6) for _ in range(n))


def break_wall(ring: Sequence[int], dealer: int, dice_total: int, players: int = 4) -> list[int]:
    """Break a ring of tiles (four walls of stacks two high, seat 0's wall first) for this dealer and
    dice total; returns the live wall in draw order (front first, tail last).

    The broken wall is the one in front of the seat ``dice_total - 1`` places after the dealer in turn
    order; the break is ``dice_total`` stacks from that wall's right end. When the stacks do not
    share out evenly (Sichuan's 108 tiles: 54 stacks), the first walls get one stack more (14, 13, 14,
    13 would be the table's; here 14, 14, 13, 13 -- only the ring's order matters to the engine).
    Raises :class:`ValueError` if the ring is not ``players`` walls of the same number of tiles in
    stacks two high.
    """
    n = len(ring)
    if n % 2 or n % players or n < 2 * players:
        raise ValueError(f"{n} tiles do not make {players} walls of stacks two high")
    owner = (dealer + dice_total - 1) % players
    if n % (2 * players) == 0:
        per_wall = n // players
        stacks = per_wall // 2
        start = owner * per_wall
    else:  # uneven walls (issue 30: a rule set's own tile set)
        base, extra = divmod(n // 2, players)
        stacks = base + (1 if owner < extra else 0)
        start = 2 * (owner * base + min(owner, extra))
    offset = (start + 2 * (stacks - dice_total % (stacks or 1))) % n
    return list(ring[offset:]) + list(ring[:offset])


def build_wall(rules: RuleSet, rng: random.Random, dealer: int, dice_total: int) -> list[int]:
    """Shuffle the rule set's tiles with ``rng``, lay them in a ring and break it (:func:`break_wall`)."""
    ring = list(rules.tile_set)
    rng.shuffle(ring)
    return break_wall(ring, dealer, dice_total, rules.players)


def deal_order(hand_size: int, dealer: int, players: int = 4) -> list[int]:
    """The seat receiving each dealt tile from the wall's front, in order: rounds of 4 tiles to each
    seat from the dealer until each holds ``hand_size``, then one more to the dealer (跳牌).
    This is the order :class:`~majiang.engine.table.HandTable` deals in."""
    out: list[int] = []
    n = 0
    while n < hand_size:
        k = min(4, hand_size - n)
        for i in range(players):
            out += [(dealer + i) % players] * k
        n += k
    out.append(dealer)
    return out


def arrange_wall(rules: RuleSet, hands: Sequence[Sequence[int]], draws: Sequence[int | None] = (),
                 tail: Sequence[int] = (), dealer: int = 0, seed: int = 0) -> list[int]:
    """Build an explicit wall that deals the given tiles (scenario tests, log importers).

    Args:
        hands: per seat, tiles it must be dealt (at most ``hand_size``, the dealer ``hand_size + 1``;
            the dealer's extra tile is his list's element ``hand_size`` when given). Short lists are
            filled.
        draws: the wall's front after the deal, in draw order (``None`` = any filler tile).
        tail: the wall's tail in the order it is taken: ``tail[0]`` is the last tile of the wall (the
            first replacement draw, or the last live tile when no kong or flower intervenes).
        dealer: the dealer's seat. seed: orders the filler tiles (non-flowers first, so filling never
            adds a flower to a hand or a given draw position; flowers wait in the middle).

    Raises :class:`ValueError` when the tiles asked for exceed the rule set's copies or a hand is too long.
    """
    from collections import Counter

    pool = Counter(rules.tile_set)
    wanted = [t for h in hands for t in h] + [t for t in draws if t is not None] + list(tail)
    for t, n in Counter(wanted).items():
        if n > pool[t]:
            raise ValueError(f"tile {t} is asked for {n} times, the set has {pool[t]}")
        pool[t] -= n
    rest = sorted(pool.elements())
    rng = random.Random(derive_seed(seed, "arrange"))
    plain = [t for t in rest if t < 34]
    flowers = [t for t in rest if t >= 34]
    rng.shuffle(plain)
    size = rules.hand_size
    full: list[list[int]] = []
    for s in range(rules.players):
        want = size + (1 if s == dealer else 0)
        h = list(hands[s]) if s < len(hands) else []
        if len(h) > want:
            raise ValueError(f"seat {s} is dealt {want} tiles, {len(h)} given")
        while len(h) < want:
            h.append(plain.pop())
        full.append(h)
    front: list[int] = []
    taken = [0] * rules.players
    for s in deal_order(size, dealer, rules.players):
        front.append(full[s][taken[s]])
        taken[s] += 1
    for t in draws:
        front.append(plain.pop() if t is None else t)
    middle = plain + flowers
    return front + middle + list(reversed(list(tail)))
