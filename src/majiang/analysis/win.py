"""Win check (胡牌), waits (听牌), shanten (向听) and discard advice (牌理) over count vectors.

All functions take the **concealed** tiles as a count vector of 34 (see :mod:`majiang.tiles`) plus
the number of wildcards held (tiles the rule set has made wild; they are not in the vector).
Declared melds are not passed: a hand with k melds has a concealed part of 3(n-k)+2 tiles when
complete (RULES.md §1.2), and the functions read n from the size. Shapes and the wildcard policy
come from :class:`~majiang.analysis.shapes.ShapeRules`.

Sizes: a complete hand is 3k+2 tiles (2..17, or more with many wildcards); a waiting hand 3k+1.
A wrong size raises :class:`~majiang.errors.TileCountError`; a count above 4 raises it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from majiang.analysis import shapes as sh
from majiang.analysis.shapes import STANDARD, ShapeRules
from majiang.analysis.tables import INF, honor_need, honor_used, suit_need, suit_used, combine_used
from majiang.errors import TileCountError
from majiang.tiles import NUM_KINDS, format_compact


def _check(counts: Sequence[int], wilds: int, mod: int) -> int:
    if len(counts) != NUM_KINDS:
        raise TileCountError(f"a count vector has 34 entries, got {len(counts)}", kind="size", count=len(counts))
    if wilds < 0:
        raise TileCountError(f"negative number of wildcards: {wilds}", kind="size", count=wilds)
    total = wilds
    for t, n in enumerate(counts):
        if n < 0 or n > 4:
            raise TileCountError(f"{n} copies of {format_compact([t])}: a count must be 0-4", kind="fifth-copy"
                                 if n > 4 else "size", tile=t, count=n)
        total += n
    if total % 3 != mod:
        want = "3k+2 (a complete hand)" if mod == 2 else "3k+1 (a waiting hand)"
        raise TileCountError(f"{total} concealed tiles: expected {want}", kind="size", count=total)
    return total


def _standard_need(counts: Sequence[int], cap: bool) -> int:
    """Fewest wildcards for the standard shape (INF if impossible)."""
    a0, a1 = suit_need(tuple(counts[0:9]), cap)
    b0, b1 = suit_need(tuple(counts[9:18]), cap)
    c0, c1 = suit_need(tuple(counts[18:27]), cap)
    h0, h1 = honor_need(tuple(counts[27:34]), cap)
    t0 = a0 + b0 + c0 + h0
    best = t0 + 2  # the pair made of two wildcards
    d = min(a1 - a0, b1 - b0, c1 - c0, h1 - h0)
    if d < 2:
        best = t0 + d
    return best if best < INF else INF


def _special_need(counts: Sequence[int], total: int, rules: ShapeRules) -> int:
    best = INF
    if total == 14:
        if rules.seven_pairs:
            best = min(best, sh.seven_pairs_need(counts, rules.quad_as_two_pairs))
        if rules.thirteen_orphans:
            best = min(best, sh.thirteen_orphans_need(counts))
        if rules.honors_and_knitted:
            best = min(best, sh.honors_and_knitted_need(counts))
    if rules.knitted_straight and total in (14, 11):
        cap = not rules.wild_fifth_copy
        for _arr, rest, need in sh.knitted_straight_options(counts):
            if need < best:
                best = min(best, need + _standard_need(rest, cap))
    return best


def win_need(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> int:
    """Fewest wildcards that would complete this 3k+2 part (:data:`~majiang.analysis.tables.INF` if none)."""
    total = _check(counts, wilds, 2)
    cap = not rules.wild_fifth_copy or wilds == 0
    best = _standard_need(counts, cap) if rules.standard else INF
    if rules.any_special and best > 0:
        best = min(best, _special_need(counts, total, rules))
    return best


def is_winning(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> bool:
    """True if the 3k+2 concealed tiles (counts + ``wilds`` wildcards) form a winning shape.

    Standard shape: every natural tile used in k sets and one pair, wildcards standing for any
    tile (at most 4 uses of a face unless ``rules.wild_fifth_copy``); special shapes as switched on
    in ``rules`` (RULES.md §1.3, §2). Raises :class:`TileCountError` on a size that is not 3k+2
    or a count outside 0-4.
    """
    return win_need(counts, wilds, rules) <= wilds


# ------------------------------------------------------------------------------------- waits
@dataclass(frozen=True, slots=True)
class Waits:
    """The waits of a 3k+1 hand.

    Attributes:
        tiles: tiles that complete the hand and can still be drawn (sorted).
        exhausted: tiles that complete the hand in form but whose every copy the player already
            holds (or shows, if ``visible`` was given): no such tile is left to win on (trap WAIT-02).
        wildcard: whether drawing a wildcard completes the hand.
    """

    tiles: tuple[int, ...]
    exhausted: tuple[int, ...] = ()
    wildcard: bool = False

    @property
    def formal(self) -> tuple[int, ...]:
        """Every tile that completes the hand in form, exhausted ones included."""
        return tuple(sorted(self.tiles + self.exhausted))

    def __bool__(self) -> bool:
        return bool(self.tiles) or self.wildcard


def waits(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD,
          visible: Sequence[int] | None = None, wild_in_play: bool = False) -> Waits:
    """Waits of a 3k+1 concealed part (counts + ``wilds`` wildcards).

    ``visible``: optional count vector of the player's own other tiles that are in sight (e.g. the
    tiles of their declared melds); a wait whose four copies are all in the hand or ``visible`` is
    reported under ``exhausted``, not ``tiles``. ``wild_in_play``: also say whether drawing a
    wildcard completes the hand (always done when ``wilds`` > 0). Raises :class:`TileCountError` on a bad size.
    """
    total = _check(counts, wilds, 1)
    cap = not rules.wild_fifth_copy or wilds == 0
    c = list(counts)
    keys = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))
    needs = [suit_need(keys[0], cap), suit_need(keys[1], cap), suit_need(keys[2], cap), honor_need(keys[3], cap)]
    real: list[int] = []
    exhausted: list[int] = []
    special = rules.any_special and (total + 1 == 14 or (rules.knitted_straight and total + 1 == 11))
    t0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    for g in range(4):
        base = 9 * g
        other0 = t0 - needs[g][0]
        # best pair delta among the other groups, or a pair of two wildcards
        od = 2
        for h in range(4):
            if h != g:
                d = needs[h][1] - needs[h][0]
                if d < od:
                    od = d
        key = list(keys[g])
        width = 9 if g < 3 else 7
        if rules.standard and other0 + min(od, 0) <= wilds:
            for i in range(width):
                n = key[i]
                key[i] = n + 1
                k = tuple(key)
                key[i] = n
                if n < 4:
                    x0, x1 = suit_need(k, cap) if g < 3 else honor_need(k, cap)
                else:
                    x0, x1 = suit_need(k, False) if g < 3 else honor_need(k, False)
                need = other0 + (x1 if x1 < x0 + od else x0 + od)
                if need <= wilds:
                    (real if n < 4 else exhausted).append(base + i)
    found = set(real) | set(exhausted)
    if special:
        # a special shape never holds a fifth copy, so only tiles with copies left are tried
        for t in range(NUM_KINDS):
            if t in found or c[t] >= 4:
                continue
            c[t] += 1
            ok = _special_need(c, total + 1, rules) <= wilds
            c[t] -= 1
            if ok:
                real.append(t)
    if visible is not None:
        moved = [t for t in real if counts[t] + visible[t] >= 4]
        real = [t for t in real if t not in moved]
        exhausted.extend(moved)
    wild_win = bool(wilds or wild_in_play) and win_need(c, wilds + 1, rules) <= wilds + 1
    return Waits(tuple(sorted(set(real))), tuple(sorted(set(exhausted))), wild_win)


# ------------------------------------------------------------------------------------- shanten
def _sets_needed(total: int) -> int:
    return total // 3


def _standard_used(counts: Sequence[int], n: int) -> int:
    u = combine_used(combine_used(suit_used(tuple(counts[0:9])), suit_used(tuple(counts[9:18]))),
                     combine_used(suit_used(tuple(counts[18:27])), honor_used(tuple(counts[27:34]))))
    best = 0
    for m in range(min(n, 5) + 1):
        v = u[2 * m + 1]
        if v > best:
            best = v
    return best


def _shanten_from_used(total: int, used: int, wilds: int) -> int:
    size = 3 * _sets_needed(total) + 2
    missing = size - used - wilds
    return max(missing, 0) - 1


def _size(counts: Sequence[int], wilds: int) -> int:
    if len(counts) != NUM_KINDS:
        raise TileCountError(f"a count vector has 34 entries, got {len(counts)}", kind="size", count=len(counts))
    total = sum(counts) + wilds
    if total % 3 == 0:
        raise TileCountError(f"{total} concealed tiles: expected 3k+1 or 3k+2", kind="size", count=total)
    for t, n in enumerate(counts):
        if n < 0 or n > 4:
            raise TileCountError(f"{n} copies of {format_compact([t])}: a count must be 0-4", kind="fifth-copy",
                                 tile=t, count=n)
    return total


def shanten_standard(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten (向听数) for the standard shape: the fewest tiles to exchange, minus one.

    -1 = complete (3k+2 only), 0 = ready (听牌). Missing tiles are real draws: a face is used at
    most 4 times. Works for 3k+1 and 3k+2 parts (3k+2: after the best discard).
    """
    total = _size(counts, wilds)
    return _shanten_from_used(total, _standard_used(counts, _sets_needed(total)), wilds)


def shanten_seven_pairs(counts: Sequence[int], wilds: int = 0, quad_as_two_pairs: bool = True) -> int:
    """Shanten for seven pairs (13/14 concealed tiles only; 99 otherwise)."""
    total = _size(counts, wilds)
    if total not in (13, 14):
        return 99
    return _shanten_from_used(13 if total == 13 else 14, sh.seven_pairs_used(counts, quad_as_two_pairs), wilds)


def shanten_thirteen_orphans(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for thirteen orphans (13/14 concealed tiles only; 99 otherwise)."""
    total = _size(counts, wilds)
    if total not in (13, 14):
        return 99
    return _shanten_from_used(total, sh.thirteen_orphans_used(counts), wilds)


def shanten_honors_and_knitted(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for 全不靠 (honours and knitted tiles; 13/14 concealed tiles only; 99 otherwise)."""
    total = _size(counts, wilds)
    if total not in (13, 14):
        return 99
    return _shanten_from_used(total, sh.honors_and_knitted_used(counts), wilds)


def shanten_knitted_straight(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for 组合龙 + one set + pair (10/11 or 13/14 concealed tiles; 99 otherwise)."""
    total = _size(counts, wilds)
    if total not in (10, 11, 13, 14):
        return 99
    n_rest = _sets_needed(total) - 3
    best = 0
    for arr in sh.KNITTED_ARRANGEMENTS:
        rest = list(counts)
        k = 0
        for t in arr:
            if rest[t]:
                rest[t] -= 1
                k += 1
        v = k + _standard_used(rest, n_rest)
        if v > best:
            best = v
    return _shanten_from_used(total, best, wilds)


def shanten(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> int:
    """The least shanten over the shapes ``rules`` allows (see the per-shape functions).

    A complete 3k+2 hand (by :func:`is_winning` under ``rules``) is -1.
    """
    total = _size(counts, wilds)
    best = 99
    if rules.standard:
        best = _shanten_from_used(total, _standard_used(counts, _sets_needed(total)), wilds)
    if rules.seven_pairs:
        best = min(best, shanten_seven_pairs(counts, wilds, rules.quad_as_two_pairs))
    if rules.thirteen_orphans:
        best = min(best, shanten_thirteen_orphans(counts, wilds))
    if rules.honors_and_knitted:
        best = min(best, shanten_honors_and_knitted(counts, wilds))
    if rules.knitted_straight:
        best = min(best, shanten_knitted_straight(counts, wilds))
    if total % 3 == 2 and best == 0 and wilds and is_winning(counts, wilds, rules):
        best = -1
    return best


# ------------------------------------------------------------------------------------- advice
@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One line of discard advice (牌理).

    Attributes:
        discard: the tile to discard.
        shanten: the shanten after discarding it.
        useful: tiles that lower the shanten after the discard, with the copies not in sight.
        unseen: total copies of the useful tiles not in sight.
    """

    discard: int
    shanten: int
    useful: tuple[tuple[int, int], ...] = field(default=())
    unseen: int = 0


def useful_tiles(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD,
                 visible: Sequence[int] | None = None) -> tuple[int, list[tuple[int, int]]]:
    """For a 3k+1 part: (shanten, [(tile, unseen copies)]) of the tiles whose draw lowers the shanten."""
    s = shanten(counts, wilds, rules)
    c = list(counts)
    out = []
    for t in range(NUM_KINDS):
        if c[t] >= 4:
            continue
        c[t] += 1
        if shanten(c, wilds, rules) < s:
            left = 4 - c[t] + 1 - (visible[t] if visible is not None else 0)
            if left > 0:
                out.append((t, left))
        c[t] -= 1
    return s, out


def discard_advice(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD,
                   visible: Sequence[int] | None = None) -> list[DiscardOption]:
    """For a 3k+2 part: every distinct discard with its shanten and useful tiles, best first.

    Best = lowest shanten, then most unseen copies of useful tiles. ``visible`` is a count vector of
    tiles in sight outside the concealed hand (discards, melds), subtracted from the unseen copies.
    """
    _check(counts, wilds, 2)
    c = list(counts)
    out = []
    for d in range(NUM_KINDS):
        if not c[d]:
            continue
        c[d] -= 1
        s, useful = useful_tiles(c, wilds, rules, visible)
        c[d] += 1
        # the discarded copy is in sight once discarded
        useful = [(t, n - (1 if t == d else 0)) for t, n in useful]
        useful = [(t, n) for t, n in useful if n > 0]
        out.append(DiscardOption(d, s, tuple(useful), sum(n for _, n in useful)))
    out.sort(key=lambda o: (o.shanten, -o.unseen, o.discard))
    return out
