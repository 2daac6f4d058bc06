"""All decompositions of a winning concealed part, with what every wildcard stands for.

Scoring needs the decomposition, not just a yes/no (RULES.md §1.3): which tiles form which set,
and which logical tile each wildcard plays. A :class:`Decomposition` lists :class:`Group` values;
each group names its logical tiles and which of them are wildcards.

Wildcards are always placed where no natural tile of that face is left (a natural tile and a
wildcard standing for the same face are interchangeable, so this loses no decomposition of
interest). Wildcards left over once every natural tile is placed form *free* groups
(``free-set`` of three, ``free-pair`` of two) whose identity the scorer may choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from majiang.analysis import shapes as sh
from majiang.analysis.shapes import STANDARD, ShapeRules
from majiang.analysis.win import _plain_input
from majiang.errors import TileCountError
from majiang.tiles import NUM_KINDS, TERMINALS_AND_HONORS, format_compact

CHOW, PUNG, PAIR, SINGLE, FREE_SET, FREE_PAIR = "chow", "pung", "pair", "single", "free-set", "free-pair"
KNITTED = "knitted"

STANDARD_SHAPE = "standard"
SEVEN_PAIRS = "seven-pairs"
THIRTEEN_ORPHANS = "thirteen-orphans"
HONORS_AND_KNITTED = "honors-and-knitted"
KNITTED_STRAIGHT = "knitted-straight"
UNCONNECTED = "unconnected"
EIGHT_PAIRS = "eight-pairs"
WILDS_WIN = "wilds-win"


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """One group of a decomposition.

    Attributes:
        kind: ``chow``, ``pung``, ``pair``, ``single`` (a lone tile of a special shape),
            ``knitted`` (the nine tiles of a knitted straight), ``free-set`` / ``free-pair``
            (made of wildcards only; the scorer may choose what they are).
        tiles: the logical tiles, sorted (empty for free groups).
        wild: the logical tiles played by wildcards (a sub-multiset of ``tiles``; for free groups
            empty, see ``wilds``).
        wilds: number of wildcards in the group.
    """

    kind: str
    tiles: tuple[int, ...]
    wild: tuple[int, ...] = ()
    wilds: int = 0

    def __str__(self) -> str:
        if self.kind in (FREE_SET, FREE_PAIR):
            return "*" * self.wilds
        nat = list(self.tiles)
        for w in self.wild:
            nat.remove(w)
        s = format_compact(nat)
        if self.wild:
            s += "(" + format_compact(self.wild) + ")"
        return s


@dataclass(frozen=True, slots=True)
class Decomposition:
    """A winning arrangement of a concealed part.

    Attributes:
        shape: ``standard``, ``seven-pairs``, ``thirteen-orphans``, ``honors-and-knitted`` or
            ``knitted-straight``.
        groups: the groups, sorted.
    """

    shape: str
    groups: tuple[Group, ...]

    @property
    def wild_as(self) -> tuple[int, ...]:
        """Logical tiles played by wildcards in fixed groups (free groups not included), sorted."""
        return tuple(sorted(t for g in self.groups for t in g.wild))

    @property
    def free_wilds(self) -> int:
        """Wildcards in free groups."""
        return sum(g.wilds for g in self.groups if g.kind in (FREE_SET, FREE_PAIR))

    def __str__(self) -> str:
        return " ".join(f"[{g}]" for g in self.groups)


def _enum(c: list[int], usage: list[int], lo: int, hi: int, chows: bool, budget: int, pair_ok: bool,
          cap: bool) -> list[tuple[tuple[Group, ...], int, bool]]:
    """Every way to place all naturals of c[lo:hi]: (groups, wilds used, pair used)."""
    i = lo
    while i < hi and c[i] == 0:
        i += 1
    if i == hi:
        return [((), 0, False)]
    out: list[tuple[tuple[Group, ...], int, bool]] = []

    def place(faces: tuple[int, ...], kind: str, is_pair: bool) -> None:
        wild: list[int] = []
        taken: list[int] = []
        for f in faces:
            if c[f] > 0:
                c[f] -= 1
                taken.append(f)
            else:
                wild.append(f)
        ok = len(wild) <= budget
        if ok and cap:
            for f in wild:
                usage[f] += 1
            ok = all(usage[f] <= 4 for f in wild)
            if not ok:
                for f in wild:
                    usage[f] -= 1
        if ok:
            g = Group(kind, tuple(sorted(faces)), tuple(sorted(wild)), len(wild))
            for rest, used, p in _enum(c, usage, i, hi, chows, budget - len(wild), pair_ok and not is_pair, cap):
                out.append(((g,) + rest, used + len(wild), p or is_pair))
            if cap:
                for f in wild:
                    usage[f] -= 1
        for f in taken:
            c[f] += 1

    place((i, i, i), PUNG, False)
    if pair_ok:
        place((i, i), PAIR, True)
    if chows:
        for s in (i - 2, i - 1, i):
            if lo <= s and s + 2 < hi:
                place((s, s + 1, s + 2), CHOW, False)
    return out


_GROUP_CACHE: dict[tuple[int, tuple[int, ...], int, bool], list[tuple[tuple[Group, ...], int, bool]]] = {}
"""(group start, the group's counts, wildcard budget, cap) → every placement of its naturals."""


def _group_placements(counts: Sequence[int], lo: int, hi: int, budget: int, cap: bool
                      ) -> list[tuple[tuple[Group, ...], int, bool]]:
    key = (lo, tuple(counts[lo:hi]), budget, cap)
    r = _GROUP_CACHE.get(key)
    if r is None:
        c = list(counts)
        found = _enum(c, list(counts), lo, hi, lo < 27, budget, True, cap)
        r = _GROUP_CACHE[key] = sorted(set(found))
    return r


def _standard(counts: Sequence[int], wilds: int, cap: bool) -> list[tuple[Group, ...]]:
    per_group = [_group_placements(counts, lo, lo + 9 if lo < 27 else 34, wilds, cap) for lo in (0, 9, 18, 27)]
    results: set[tuple[Group, ...]] = set()

    def rec(g: int, acc: tuple[Group, ...], used: int, pair: bool) -> None:
        if g == 4:
            left = wilds - used
            if pair:
                if left % 3:
                    return
                extra = (Group(FREE_SET, (), (), 3),) * (left // 3)
            else:
                if left < 2 or (left - 2) % 3:
                    return
                extra = (Group(FREE_SET, (), (), 3),) * ((left - 2) // 3) + (Group(FREE_PAIR, (), (), 2),)
            results.add(tuple(sorted(acc + extra)))
            return
        for groups, u, p in per_group[g]:
            if used + u <= wilds and not (pair and p):
                rec(g + 1, acc + groups, used + u, pair or p)

    rec(0, (), 0, False)
    return sorted(results)


def decompositions(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> list[Decomposition]:
    """Every decomposition of a 3k+2 concealed part (counts + ``wilds`` wildcards) under ``rules``.

    Empty when the part does not win. Standard decompositions come first, then special shapes.
    Raises :class:`TileCountError` on a size that is not 3k+2.
    """
    plain = _plain_input(counts, wilds, ranges=True)  # a count of 5 with a size of 3k+2 would decompose
    if plain is not None:
        counts, wilds = plain
    total = sum(counts) + wilds
    if len(counts) != NUM_KINDS or total % 3 != 2:
        raise TileCountError(f"{total} concealed tiles: expected 3k+2", kind="size", count=total)
    cap = not rules.wild_fifth_copy
    out: list[Decomposition] = []
    if rules.standard:
        out.extend(Decomposition(STANDARD_SHAPE, g) for g in _standard(counts, wilds, cap))
    if total == 14:
        if rules.seven_pairs and sh.seven_pairs_need(counts, rules.quad_as_two_pairs) <= wilds:
            out.extend(_seven_pairs(counts, wilds, rules))
        if rules.thirteen_orphans and sh.thirteen_orphans_need(counts) <= wilds:
            out.extend(_orphans(counts, wilds))
        if rules.honors_and_knitted and sh.honors_and_knitted_need(counts) <= wilds:
            out.extend(_honors_knitted(counts, wilds))
        if rules.unconnected and sh.unconnected_ok(counts):
            out.append(_loose(UNCONNECTED, counts, wilds))
    if total == 17 and rules.eight_pairs and sh.eight_pairs_need(counts) <= wilds:
        out.append(_eight_pairs(counts, wilds))
    if rules.wilds_win and wilds >= rules.wilds_win:
        out.append(_loose(WILDS_WIN, counts, wilds))
    if rules.knitted_straight and total in (11, 14):
        for arr, rest, need in sh.knitted_straight_options(counts):
            if need <= wilds:
                kn = Group(KNITTED, arr, tuple(t for t in arr if counts[t] == 0), need)
                for g in _standard(rest, wilds - need, cap):
                    out.append(Decomposition(KNITTED_STRAIGHT, tuple(sorted((kn,) + g))))
    return out


def _loose(shape: str, counts: Sequence[int], wilds: int) -> Decomposition:
    """Every natural tile a single; the wildcards one free group (free: no shape asks anything of them)."""
    groups = [Group(SINGLE, (t,)) for t, n in enumerate(counts) for _ in range(n)]
    if wilds:
        groups.append(Group(FREE_SET, (), (), wilds))
    return Decomposition(shape, tuple(sorted(groups)))


def _eight_pairs(counts: Sequence[int], wilds: int) -> Decomposition:
    """Eight pairs and one loose tile: pairs from the naturals, odd tiles paired by wildcards, the
    loose tile an odd natural if any (else a wildcard)."""
    groups = []
    odd = []
    for t, n in enumerate(counts):
        groups.extend([Group(PAIR, (t, t))] * (n // 2))
        if n % 2:
            odd.append(t)
    left = wilds
    if odd:
        groups.append(Group(SINGLE, (odd[0],)))
        for t in odd[1:]:
            groups.append(Group(PAIR, (t, t), (t,), 1))
            left -= 1
    else:
        groups.append(Group(FREE_SET, (), (), 1))
        left -= 1
    if left:
        groups.append(Group(FREE_PAIR, (), (), left))
    return Decomposition(EIGHT_PAIRS, tuple(sorted(groups)))


def _seven_pairs(counts: Sequence[int], wilds: int, rules: ShapeRules) -> list[Decomposition]:
    groups = []
    for t, n in enumerate(counts):
        groups.extend([Group(PAIR, (t, t))] * (n // 2))
        if n % 2:
            groups.append(Group(PAIR, (t, t), (t,), 1))
    left = wilds - sum(g.wilds for g in groups)
    groups.extend([Group(FREE_PAIR, (), (), 2)] * (left // 2))
    return [Decomposition(SEVEN_PAIRS, tuple(sorted(groups)))]


def _orphans(counts: Sequence[int], wilds: int) -> list[Decomposition]:
    dup = [t for t in TERMINALS_AND_HONORS if counts[t] == 2]
    singles = [Group(SINGLE, (t,), (t,) if counts[t] == 0 else (), 1 if counts[t] == 0 else 0)
               for t in TERMINALS_AND_HONORS]
    if dup:
        pair_options = [Group(PAIR, (dup[0], dup[0]))]
        singles = [g for g in singles if g.tiles[0] != dup[0]]
        return [Decomposition(THIRTEEN_ORPHANS, tuple(sorted(singles + pair_options)))]
    out = []
    for t in TERMINALS_AND_HONORS:  # the wildcard duplicates any of the thirteen
        rest = [g for g in singles if g.tiles[0] != t]
        w = (t,) if counts[t] else (t, t)
        out.append(Decomposition(THIRTEEN_ORPHANS, tuple(sorted(rest + [Group(PAIR, (t, t), w, len(w))]))))
    return out


def _honors_knitted(counts: Sequence[int], wilds: int) -> list[Decomposition]:
    out = []
    seen = set()
    for arr in sh.KNITTED_ARRANGEMENTS:
        faces = list(arr) + list(range(27, 34))
        if sum(counts[t] for t in faces) != sum(counts):
            continue
        absent = [t for t in faces if counts[t] == 0]
        present = [t for t in faces if counts[t]]
        for pick in combinations(absent, wilds):
            tiles = tuple(sorted(present + list(pick)))
            if tiles in seen:
                continue
            seen.add(tiles)
            out.append(Decomposition(HONORS_AND_KNITTED, tuple(
                sorted(Group(SINGLE, (t,), (t,) if t in pick else (), 1 if t in pick else 0) for t in tiles))))
    return out
