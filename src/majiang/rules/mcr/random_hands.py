"""Random MCR winning hands (for differential tests and benchmarks) and the argument format of the
reference calculator PyMahjongGB 1.4.0 (as in ``shared/data/mcr/gb_mahjong_cases.json``).

The generator builds a hand from four random sets and a pair (or, less often, a special shape),
declares some of the sets as melds (chow, pung, exposed / added / concealed kong), picks the winning
tile among the concealed tiles and draws consistent win conditions. It never makes a fifth copy of
a tile and never contradictory flags (the inputs on which the reference calculator is not a
meaningful oracle):

* ``robbing_kong`` only when the winner holds no other copy of the winning tile, never with
  ``last_wall_tile`` (no kong can be declared after the last draw);
* ``kong_replacement`` only when self-drawn with a declared kong.

This module does not import PyMahjongGB; :func:`pymahjonggb_args` only builds its keyword arguments.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.mcr.conditions import WinConditions
from majiang.tiles import BOTZONE_CODES

_KNITTED = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
_ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _random_set(rng: random.Random, counts: list[int], suits: list[int], honor_p: float,
                chow_p: float, ranks: frozenset[int] = frozenset(range(9))) -> tuple[str, int] | None:
    for _ in range(30):
        if rng.random() < honor_p:
            t = rng.randrange(27, 34)
            if counts[t] <= 1:
                return ("pung", t)
            continue
        s = rng.choice(suits)
        if rng.random() < chow_p:
            r = rng.randrange(7)
            start = 9 * s + r
            if {r, r + 1, r + 2} <= ranks and all(counts[start + i] < 4 for i in range(3)):
                return ("chow", start)
        else:
            r = rng.choice(sorted(ranks))
            t = 9 * s + r
            if counts[t] <= 1:
                return ("pung", t)
    return None


_RANK_THEMES = [frozenset(x) for x in ((0, 8), (0, 1, 2), (3, 4, 5), (6, 7, 8), (1, 3, 5, 7), (0, 1, 2, 3),
                                       (5, 6, 7, 8), (0, 1, 2, 6, 7, 8), (2, 3, 4, 5, 6), (4,))]


def _standard(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    counts = [0] * 34
    nsuits = rng.choice((1, 2, 2, 3, 3, 3))
    suits = rng.sample(range(3), nsuits)
    honor_p = rng.choice((0.0, 0.1, 0.3, 0.6))
    chow_p = rng.choice((0.2, 0.5, 0.8, 1.0))
    ranks = rng.choice(_RANK_THEMES) if rng.random() < 0.2 else frozenset(range(9))
    if rng.random() < 0.05:  # terminal chows (老少副, 一色/三色双龙会)
        return _terminal_chows(rng)
    sets = []
    for _ in range(4):
        s = _random_set(rng, counts, suits, honor_p, chow_p, ranks)
        if s is None:
            return None
        kind, t = s
        for x in ((t, t + 1, t + 2) if kind == "chow" else (t, t, t)):
            counts[x] += 1
        sets.append(s)
    for _ in range(30):
        p = rng.randrange(27, 34) if rng.random() < honor_p else 9 * rng.choice(suits) + rng.choice(sorted(ranks))
        if counts[p] <= 2:
            counts[p] += 2
            break
    else:
        return None
    return _declare(rng, sets, p, counts)


def _terminal_chows(rng: random.Random) -> tuple[list[Meld], list[int]]:
    a, b, c = rng.sample(range(3), 3)
    if rng.random() < 0.5:
        sets = [("chow", 9 * a), ("chow", 9 * a), ("chow", 9 * a + 6), ("chow", 9 * a + 6)]
        p = 9 * a + 4
    else:
        sets = [("chow", 9 * a), ("chow", 9 * a + 6), ("chow", 9 * b), ("chow", 9 * b + 6)]
        p = 9 * c + 4
    counts = [0] * 34
    for _, t in sets:
        for x in (t, t + 1, t + 2):
            counts[x] += 1
    counts[p] += 2
    return _declare(rng, sets, p, counts)


def _declare(rng: random.Random, sets: list[tuple[str, int]], p: int,
             counts: list[int]) -> tuple[list[Meld], list[int]]:
    concealed: list[int] = [p, p]
    melds: list[Meld] = []
    declare_p = rng.choice((0.0, 0.3, 0.6, 0.9))
    for kind, t in sets:
        if kind == "chow":
            if rng.random() < declare_p:
                melds.append(Meld(MeldKind.CHOW, t, 1, t + rng.randrange(3)))
            else:
                concealed.extend((t, t + 1, t + 2))
            continue
        kong = counts[t] == 3 and rng.random() < 0.25
        if kong:
            counts[t] += 1
            kk = rng.choice((MeldKind.CONCEALED_KONG, MeldKind.EXPOSED_KONG, MeldKind.ADDED_KONG))
            offer = 0 if kk is MeldKind.CONCEALED_KONG else rng.randrange(1, 4)
            melds.append(Meld(kk, t, offer, None if offer == 0 else t))
        elif rng.random() < declare_p:
            melds.append(Meld(MeldKind.PUNG, t, rng.randrange(1, 4), t))
        else:
            concealed.extend((t, t, t))
    return melds, concealed


def _special(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    kind = rng.randrange(6)
    if kind == 4:  # nine gates
        base = 9 * rng.randrange(3)
        return [], [base + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9))]
    if kind == 5:  # seven shifted pairs, or pairs of terminals
        if rng.random() < 0.5:
            base = 9 * rng.randrange(3) + rng.randrange(3)
            return [], [base + r for r in range(7) for _ in (0, 1)]
        pool = [0, 8, 9, 17, 18, 26] + (list(range(27, 34)) if rng.random() < 0.5 else [])
        c = [0] * 34
        tiles = []
        while len(tiles) < 14:
            t = rng.choice(pool)
            if c[t] <= 2:
                c[t] += 2
                tiles += [t, t]
        return [], tiles
    if kind == 0:  # seven pairs
        tiles: list[int] = []
        suits = rng.sample(range(3), rng.choice((1, 2, 3)))
        pool = [9 * s + r for s in suits for r in range(9)] + (list(range(27, 34)) if rng.random() < 0.5 else [])
        c = [0] * 34
        while len(tiles) < 14:
            t = rng.choice(pool)
            if c[t] <= 2:
                c[t] += 2
                tiles += [t, t]
        return [], tiles
    if kind == 1:  # thirteen orphans
        return [], _ORPHANS + [rng.choice(_ORPHANS)]
    order = rng.choice(_KNITTED)
    knit = [9 * order[i] + r for i in range(3) for r in range(i, 9, 3)]
    if kind == 2:  # honours and knitted tiles
        pick = rng.sample(knit, rng.choice((7, 8, 9)))
        honors = rng.sample(range(27, 34), 14 - len(pick))
        return [], pick + honors
    # knitted straight + a set + a pair
    counts = [0] * 34
    for t in knit:
        counts[t] += 1
    s = _random_set(rng, counts, [0, 1, 2], 0.3, 0.6)
    if s is None:
        return None
    k, t = s
    set_tiles = [t, t + 1, t + 2] if k == "chow" else [t, t, t]
    for x in set_tiles:
        counts[x] += 1
    p = rng.randrange(34)
    if counts[p] > 2:
        return None
    melds: list[Meld] = []
    concealed = knit + [p, p]
    if rng.random() < 0.4:
        melds.append(Meld(MeldKind.CHOW, t, 1, t) if k == "chow" else Meld(MeldKind.PUNG, t, 1, t))
    else:
        concealed += set_tiles
    return melds, concealed


def random_winning_hand(rng: random.Random, special_p: float = 0.15) -> tuple[Hand, WinConditions]:
    """A random complete MCR hand and consistent win conditions (module doc)."""
    while True:
        made = _special(rng) if rng.random() < special_p else _standard(rng)
        if made is None:
            continue
        melds, concealed = made
        win = rng.choice(concealed)
        concealed = list(concealed)
        concealed.remove(win)
        hand = Hand(tuple(concealed), tuple(melds), win)
        all_counts = hand.all_tiles_counts()
        if max(all_counts) > 4:
            continue
        self_drawn = rng.random() < 0.4
        has_kong = any(m.is_kong for m in melds)
        last_wall = rng.random() < 0.1
        kong_repl = self_drawn and has_kong and rng.random() < 0.3
        robbing = (not self_drawn and not last_wall and all_counts[win] == 1 and rng.random() < 0.15)
        cond = WinConditions(
            self_drawn=self_drawn, last_of_kind=rng.random() < 0.1 and hand.counts[win] == 0, last_wall_tile=last_wall,
            kong_replacement=kong_repl, robbing_kong=robbing, seat_wind=rng.randrange(4),
            prevalent_wind=rng.randrange(4), flowers=rng.choice((0, 0, 0, 1, 2, 3)))
        return hand, cond


def random_winning_hands(n: int, seed: int = 0, special_p: float = 0.15) -> Iterator[tuple[Hand, WinConditions]]:
    """``n`` hands from :func:`random_winning_hand` with a seeded generator."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_winning_hand(rng, special_p)


def pymahjonggb_args(hand: Hand, conditions: WinConditions) -> dict[str, object]:
    """Keyword arguments of ``MahjongGB.MahjongFanCalculator`` for this hand (``verbose`` not set).

    Tiles as Botzone codes (W/B/T 1-9, F1-4, J1-3); a chow is given by its middle tile and the
    position 1-3 of the claimed tile; a pung or kong by its tile and the relative seat it came from
    (0 = concealed kong; an added kong is given like an exposed kong). The reference's
    ``isAboutKong`` is our kong_replacement (self-drawn) or robbing_kong (discard).
    """
    pack = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            claimed = m.claimed if m.claimed is not None else m.tile
            pack.append(("CHI", BOTZONE_CODES[m.tile + 1], claimed - m.tile + 1))
        elif m.kind is MeldKind.PUNG:
            pack.append(("PENG", BOTZONE_CODES[m.tile], m.offer))
        else:
            pack.append(("GANG", BOTZONE_CODES[m.tile], 0 if m.kind is MeldKind.CONCEALED_KONG else m.offer))
    assert hand.win_tile is not None
    c = conditions
    return dict(pack=tuple(pack), hand=tuple(BOTZONE_CODES[t] for t in hand.concealed),
                winTile=BOTZONE_CODES[hand.win_tile], flowerCount=c.flowers, isSelfDrawn=c.self_drawn,
                is4thTile=c.last_of_kind, isAboutKong=c.kong_replacement or c.robbing_kong,
                isWallLast=c.last_wall_tile, seatWind=c.seat_wind, prevalentWind=c.prevalent_wind)
