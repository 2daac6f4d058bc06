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

import operator
import struct
from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass, field
from itertools import permutations
from operator import itemgetter

from majiang.analysis import shapes as sh
from majiang.analysis.shapes import STANDARD, ShapeRules
from majiang.analysis.tables import (
    HONOR_NEED_CAP,
    HONOR_NEED_FREE,
    INF,
    NEED_CAP,
    NEED_FREE,
    ADDS_CAP,
    HONOR_INFO,
    KNIT_PAIR,
    SUIT_INFO,
    ADDS_FREE,
    BEST,
    COMBINED,
    WIN_HONOR,
    WIN_SIZE,
    WIN_SUIT,
    fill_win_codes,
)
from majiang.errors import TileCountError
from majiang.tiles import NUM_KINDS, TERMINALS_AND_HONORS, format_compact


def _total(counts: Sequence[int], wilds: int, mod: int) -> int:
    """Size check on the hot path; counts outside 0-4 are caught when a group key is first seen."""
    if type(wilds) is int and wilds >= 0 and len(counts) == NUM_KINDS:
        total = sum(counts) + wilds
        if total % 3 == mod:
            return total
    return _check(counts, wilds, mod)


def _check(counts: Sequence[int], wilds: int, mod: int) -> int:
    plain = _plain_input(counts, wilds)  # the form first: 34 whole numbers (its length too), an integer of wildcards
    if plain is not None:
        counts, wilds = plain
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


def _whole(x: object) -> int | None:
    """``x`` as a whole number (ints, Python bools, numpy integers, whole Python floats), else None."""
    try:
        return operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        return int(x) if isinstance(x, float) and x.is_integer() else None


def _not_counts(counts: object) -> TileCountError:
    return TileCountError(f"a count vector is a sequence of 34 counts, got {type(counts).__name__}", kind="size")


def _plain_input(counts: object, wilds: object, ranges: bool = False) -> tuple[list[int], int] | None:
    """``counts`` and ``wilds`` as a list of 34 ints and an int, or None where they are that already.

    Raises :class:`TileCountError` naming what makes them no concealed part: not a sequence of 34
    entries (a mapping, a string, a number), an entry that is not a whole number (a list, an array,
    None, 0.5), a number of wildcards that is not an integer; with ``ranges`` also a count outside
    0-4 or negative wildcards (else the caller's own checks name those). The analysis calls run it
    on their error paths (and then read the hand again as plain ints: numpy integers or whole
    floats), so a good hand pays nothing for it; the calls that read counts straight into their
    formulas run it first."""
    if (type(counts) is list and type(wilds) is int and len(counts) == NUM_KINDS
            and all(type(x) is int for x in counts)
            and (not ranges or (wilds >= 0 and min(counts) >= 0 and max(counts) <= 4))):
        return None
    if isinstance(counts, (str, Mapping)) or not isinstance(counts, Sized) or not hasattr(counts, "__getitem__"):
        raise _not_counts(counts)
    try:
        size = len(counts)
    except TypeError:  # a numpy 0-d array
        raise _not_counts(counts) from None
    if size != NUM_KINDS:
        raise TileCountError(f"a count vector has 34 entries, got {size}", kind="size", count=size)
    out = []
    for t in range(NUM_KINDS):
        try:
            x = counts[t]  # type: ignore[index]
        except (TypeError, KeyError, IndexError):
            raise _not_counts(counts) from None
        n = _whole(x)
        if n is None:
            raise TileCountError(f"the count of {format_compact([t])} is {x!r}, not a whole number 0-4", kind="size",
                                 tile=t)
        if ranges and not 0 <= n <= 4:
            raise TileCountError(f"{n} copies of {format_compact([t])}: a count must be 0-4",
                                 kind="fifth-copy" if n > 4 else "size", tile=t, count=n)
        out.append(n)
    try:
        w = operator.index(wilds)  # type: ignore[arg-type]
    except TypeError:
        raise TileCountError(f"the number of wildcards is {wilds!r}, not an integer", kind="size") from None
    if ranges and w < 0:
        raise TileCountError(f"negative number of wildcards: {w}", kind="size", count=w)
    return out, w


def _read_again(counts: object, wilds: object) -> tuple[list[int], int]:
    """In an ``except`` block of an analysis call: ``counts`` and ``wilds`` as plain ints to call
    again with. Re-raises the error being handled where they are plain already (it is then about
    the hand itself), raises :class:`TileCountError` where they are no hand (:func:`_plain_input`)."""
    plain = _plain_input(counts, wilds)
    if plain is None:
        raise  # noqa: PLE0704 - the caller's exception, still being handled
    return plain


def _standard_need(counts: Sequence[int], cap: bool) -> int:
    """Fewest wildcards for the standard shape (INF if impossible)."""
    if cap:
        sd, hd = NEED_CAP, HONOR_NEED_CAP
    else:
        sd, hd = NEED_FREE, HONOR_NEED_FREE
    k = tuple(counts[0:9])
    a0, a1 = sd[k]
    k = tuple(counts[9:18])
    b0, b1 = sd[k]
    k = tuple(counts[18:27])
    c0, c1 = sd[k]
    k = tuple(counts[27:34])
    h0, h1 = hd[k]
    # the pair from the group where it costs least, or two wildcards
    best = a0 + b0 + c0 + h0 + min(a1 - a0, b1 - b0, c1 - c0, h1 - h0, 2)
    return best if best < INF else INF


_ORPHANS = itemgetter(*TERMINALS_AND_HONORS)


def _special_need(counts: Sequence[int], total: int, rules: ShapeRules, limit: int = INF) -> int:
    """Fewest wildcards for a special shape ``rules`` allows (INF if none within ``limit``).

    Per-group records (:data:`~majiang.analysis.tables.SUIT_INFO`) reject most hands at once; the
    knitted straight's remaining set and pair are only solved for an arrangement that could fit.
    """
    wilds = total - sum(counts)
    if rules.wilds_win and wilds >= rules.wilds_win:
        return 0
    if total == 17 and rules.eight_pairs:
        return sh.eight_pairs_need(counts)
    if total != 14 and not (rules.knitted_straight and total == 11):
        return INF
    if rules.unconnected and sh.unconnected_ok(counts):
        return 0
    a, b, c, h = _infos(counts)
    best = INF
    if total == 14:
        if rules.seven_pairs:
            odd = a[7] + b[7] + c[7] + h[4]
            if rules.quad_as_two_pairs:
                best = odd
            else:
                singles = a[9] + b[9] + c[9] + h[6]
                threes = odd - singles
                fours = (a[6] + b[6] + c[6] + h[3]) - (a[8] + b[8] + c[8] + h[5])
                if not threes and not fours:
                    best = singles
        if rules.thirteen_orphans and best > 0 and sum(_ORPHANS(counts)) == sum(counts):
            best = min(best, sh.thirteen_orphans_need(counts))
        if rules.honors_and_knitted and best > 0 and a[8] + b[8] + c[8] + h[5] == 0:  # no face twice
            suited = a[1] + a[2] + a[3] + b[1] + b[2] + b[3] + c[1] + c[2] + c[3]
            if any(a[1 + p[0]] + b[1 + p[1]] + c[1 + p[2]] == suited for p in _ARRANGEMENT_INV):
                best = min(best, 14 - sum(counts))
    if rules.knitted_straight and best > 0:
        cap = not rules.wild_fifth_copy
        for arr, p in zip(sh.KNITTED_ARRANGEMENTS, _ARRANGEMENT_INV):
            need = 9 - (a[1 + p[0]] + b[1 + p[1]] + c[1 + p[2]])
            if need >= best or need > limit:
                continue
            rest = list(counts)
            for t in arr:
                if rest[t]:
                    rest[t] -= 1
            best = min(best, need + _standard_need(rest, cap))
    return best


def win_need(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> int:
    """Fewest wildcards that would complete this 3k+2 part (:data:`~majiang.analysis.tables.INF` if none)."""
    try:
        total = _total(counts, wilds, 2)
        cap = not rules.wild_fifth_copy or wilds == 0
        best = _standard_need(counts, cap) if rules.standard else INF
        if rules.any_special and best > 0:
            best = min(best, _special_need(counts, total, rules))
        return best
    except (TypeError, ValueError):  # bad input is named; numpy or float counts are read again as ints
        return win_need(*_read_again(counts, wilds), rules)


def is_winning(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> bool:
    """True if the 3k+2 concealed tiles (counts + ``wilds`` wildcards) form a winning shape.

    Standard shape: every natural tile used in k sets and one pair, wildcards standing for any
    tile (at most 4 uses of a face unless ``rules.wild_fifth_copy``); special shapes as switched on
    in ``rules`` (RULES.md §1.3, §2). Raises :class:`TileCountError` on a size that is not 3k+2
    or a count outside 0-4.
    """
    # The hot path, without wildcards: the counts as bytes, cut into the four groups by one struct
    # unpack, each group's record (tables.WIN_SUIT: code + 1,024 × size) looked up and the four added
    # up. Only a list, or a flat sequence of 34 (a 1-D numpy array: ndim 1) takes it: a 2-D array's
    # buffer can hold 34 bytes too. A count outside 0-4 misses the tables; counts that are not plain
    # integers fail in bytearray(), or make a buffer that is not 34 bytes (a list of another length,
    # a numpy int64 array: 272) and fail the unpack; either way the general path checks them.
    if wilds is _NO_WILDS and rules.standard:  # an int 0 (None, 0.0 or '' go the checked way)
        try:
            if type(counts) is list or (getattr(counts, "ndim", 1) == 1 and len(counts) == 34):
                m, p, q, h = _GROUPS(bytearray(counts))
            else:
                return _is_winning(counts, wilds, rules)
            s = WIN_HONOR[h] + WIN_SUIT[m] + WIN_SUIT[p] + WIN_SUIT[q]
        except (KeyError, TypeError, ValueError, struct.error):  # a new group, or not plain counts
            return _is_winning(counts, wilds, rules)
        if s & 1023 == 6:  # the codes' sum (_CODES): one pair and sets only
            return True
        if (s >> 10) % 3 != 2:
            _check(counts, 0, 2)
        if rules.any_special:
            return _special_need(counts, s >> 10, rules, 0) <= 0
        return False
    return _is_winning(counts, wilds, rules)


_CODES = WIN_SIZE - 1
_NO_WILDS = 0
"""The hot paths' test for no wildcards is ``wilds is _NO_WILDS``: every int 0 is this object in
CPython (its small ints are shared), and anything else (None, 0.0, a numpy 0) takes the checked path."""
_GROUPS = struct.Struct("9s9s9s7s").unpack
"""Cuts 34 count bytes into the characters, dots, bamboos and honours (struct.error on another size)."""


def _is_winning(counts: Sequence[int], wilds: int, rules: ShapeRules) -> bool:
    """:func:`is_winning` off its hot path: wildcards, a group not yet in the tables, input to check."""
    try:
        if type(wilds) is not int or len(counts) != NUM_KINDS or wilds < 0:
            _check(counts, wilds, 2)
        if rules.standard:
            if not wilds:
                if fill_win_codes(counts) & _CODES == 6:  # raises on a count outside 0-4
                    return True
            elif _standard_need(counts, not rules.wild_fifth_copy) <= wilds:
                if (sum(counts) + wilds) % 3 != 2:
                    _check(counts, wilds, 2)
                return True
        if (sum(counts) + wilds) % 3 != 2:
            _check(counts, wilds, 2)
        if rules.any_special:
            return _special_need(counts, sum(counts) + wilds, rules, wilds) <= wilds
        return False
    except (TypeError, ValueError):  # bad input is named; numpy or float counts are read again as ints
        return _is_winning(*_read_again(counts, wilds), rules)


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


_NO_WAITS = Waits(())


def waits(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD,
          visible: Sequence[int] | None = None, wild_in_play: bool = False) -> Waits:
    """Waits of a 3k+1 concealed part (counts + ``wilds`` wildcards).

    ``visible``: optional count vector of the player's own other tiles that are in sight (e.g. the
    tiles of their declared melds); a wait whose four copies are all in the hand or ``visible`` is
    reported under ``exhausted``, not ``tiles``. ``wild_in_play``: also say whether drawing a
    wildcard completes the hand (always done when ``wilds`` > 0). Raises :class:`TileCountError` on a bad size.
    """
    try:
        total = _total(counts, wilds, 1)
        cap = not rules.wild_fifth_copy or wilds == 0
        c = counts if isinstance(counts, list) else list(counts)
        if cap:
            sd, hd = NEED_CAP, HONOR_NEED_CAP
        else:
            sd, hd = NEED_FREE, HONOR_NEED_FREE
        keys = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))
        needs = (sd[keys[0]], sd[keys[1]],
                 sd[keys[2]], hd[keys[3]])
        real: list[int] = []
        exhausted: list[int] = []
        special = rules.any_special and (total + 1 in (14, 17) or (rules.knitted_straight and total + 1 == 11)
                                         or rules.wilds_win > 0)
        if rules.standard:
            t0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
            deltas = [x1 - x0 for x0, x1 in needs]
            order = sorted(range(4), key=deltas.__getitem__)
            for g in range(4):
                other0 = t0 - needs[g][0]
                # best pair delta among the other groups, or a pair of two wildcards
                od = deltas[order[1]] if order[0] == g else deltas[order[0]]
                if od > 2:
                    od = 2
                if other0 + (od if od < 0 else 0) > wilds:
                    continue
                adds = (ADDS_CAP if cap else ADDS_FREE)[keys[g]]
                base = 9 * g
                for i, (x0, x1) in enumerate(adds):
                    if other0 + (x1 if x1 < x0 + od else x0 + od) <= wilds:
                        (real if keys[g][i] < 4 else exhausted).append(base + i)
        # no special wait unless the hand is ready (shanten 0) for a special shape: most hands are not,
        # and the special shanten is one look at the per-group records, where the loop below is 34 checks
        if special and _specials(c, wilds, total, rules, 1) > 0:
            special = False
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
        if not real and not exhausted and not wild_win:
            return _NO_WAITS
        return Waits(tuple(sorted(set(real))), tuple(sorted(set(exhausted))), wild_win)
    except (TypeError, ValueError):  # bad input is named; numpy or float counts are read again as ints
        return waits(*_read_again(counts, wilds), rules, visible, wild_in_play)


# ------------------------------------------------------------------------------------- shanten
def _sets_needed(total: int) -> int:
    return total // 3


def _standard_used(counts: Sequence[int], n: int) -> int:
    """Most naturals n sets and one pair can cover (the standard shape's shanten)."""
    a, b, c, h = _infos(counts)
    return BEST[(COMBINED[(a[0], b[0])], COMBINED[(c[0], h[0])], n)]


def _shanten_from_used(total: int, used: int, wilds: int) -> int:
    size = 3 * _sets_needed(total) + 2
    missing = size - used - wilds
    return max(missing, 0) - 1


def _size(counts: Sequence[int], wilds: int) -> int:
    """Size of a 3k+1 or 3k+2 part (counts outside 0-4 are caught when a group key is first seen)."""
    if type(wilds) is int and wilds >= 0 and len(counts) == NUM_KINDS:
        total = sum(counts) + wilds
        if total % 3:
            return total
    return _check(counts, wilds, 1 if (sum(counts) + wilds) % 3 != 2 else 2)


def shanten_standard(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten (向听数) for the standard shape: the fewest tiles to exchange, minus one.

    -1 = complete (3k+2 only), 0 = ready (听牌). Missing tiles are real draws: a face is used at
    most 4 times. Works for 3k+1 and 3k+2 parts (3k+2: after the best discard).
    """
    try:
        total = _size(counts, wilds)
        return _shanten_from_used(total, _standard_used(counts, _sets_needed(total)), wilds)
    except (TypeError, ValueError):  # bad input is named; numpy or float counts are read again as ints
        return shanten_standard(*_read_again(counts, wilds))


def _infos(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    k = tuple(counts[0:9])
    a = SUIT_INFO[k]
    k = tuple(counts[9:18])
    b = SUIT_INFO[k]
    k = tuple(counts[18:27])
    c = SUIT_INFO[k]
    k = tuple(counts[27:34])
    h = HONOR_INFO[k]
    return a, b, c, h


# for each knitted arrangement (in the order of shapes.KNITTED_ARRANGEMENTS), the class each suit takes
# (0: 147, 1: 258, 2: 369) for characters, dots, bamboo
_ARRANGEMENT_INV = tuple(tuple(order.index(s) for s in range(3)) for order in permutations(range(3)))


def _specials(counts: Sequence[int], wilds: int, total: int, rules: ShapeRules, best: int,
              infos: tuple[tuple[int, ...], ...] | None = None) -> int:
    """Lower ``best`` with the special shapes ``rules`` allows (sizes 13/14; knitted straight also 10/11).

    Per-group records (:data:`~majiang.analysis.tables.SUIT_INFO`) give each shape's count of
    usable tiles; the knitted straight's remaining set and pair are only worked out where a bound
    says they could beat ``best``.
    """
    top = 3 * (total // 3) + 2 - wilds - 1  # shanten = max(top - used, -1)
    if rules.wilds_win and wilds >= rules.wilds_win - (total % 3 == 1):
        best = min(best, 0 if total % 3 == 1 else -1)  # ready for a wildcard draw / complete
    if rules.eight_pairs and (total == 16 or total == 17):
        best = min(best, max(top - sh.eight_pairs_used(counts), -1))
    small = total == 13 or total == 14
    if rules.unconnected and small:
        best = min(best, max(top - sh.unconnected_used(counts), -1))
    if not small and not (rules.knitted_straight and (total == 10 or total == 11)):
        return best
    a, b, c, h = infos if infos is not None else _infos(counts)
    if small:
        if rules.seven_pairs:
            if rules.quad_as_two_pairs:
                pairs, odd = a[6] + b[6] + c[6] + h[3], a[7] + b[7] + c[7] + h[4]
            else:
                pairs, odd = a[8] + b[8] + c[8] + h[5], a[9] + b[9] + c[9] + h[6]
            if pairs > 7:
                pairs = 7
            used = 2 * pairs + (odd if odd < 7 - pairs else 7 - pairs)
            if top - used < best:
                best = max(top - used, -1)
        if rules.thirteen_orphans:
            used = a[4] + b[4] + c[4] + h[1] + (1 if a[5] or b[5] or c[5] or h[2] else 0)
            if top - used < best:
                best = max(top - used, -1)
    if not (rules.honors_and_knitted and small) and not rules.knitted_straight:
        return best
    ab = KNIT_PAIR[(a[10], b[10])]
    kmax = max(ab[0] + c[1], ab[1] + c[2], ab[2] + c[3])  # the best of the six arrangements
    if rules.honors_and_knitted and small:
        used = h[1] + kmax
        if used > 14:
            used = 14
        if top - used < best:
            best = max(top - used, -1)
    if rules.knitted_straight:
        n_rest = total // 3 - 3
        if top - kmax - (3 * n_rest + 2) >= best:  # bound: the rest fully used
            return best
        knitted = [a[1 + p[0]] + b[1 + p[1]] + c[1 + p[2]] for p in _ARRANGEMENT_INV]
        ab = COMBINED[(a[0], b[0])]
        ch = COMBINED[(c[0], h[0])]
        rest_bound = BEST[(ab, ch, n_rest)]  # the rest is part of the hand
        hu = h[0]
        for p, k in zip(_ARRANGEMENT_INV, knitted):
            if top - k - rest_bound >= best:
                continue
            # the rest: each suit without one of each of its class's knitted faces (SUIT_INFO's last fields)
            used = BEST[(COMBINED[(a[11 + p[0]], b[11 + p[1]])], COMBINED[(c[11 + p[2]], hu)], n_rest)]
            best = min(best, max(top - k - used, -1))
    return best


def shanten_seven_pairs(counts: Sequence[int], wilds: int = 0, quad_as_two_pairs: bool = True) -> int:
    """Shanten for seven pairs (13/14 concealed tiles only; 99 otherwise)."""
    plain = _plain_input(counts, wilds, ranges=True)  # a count of 5 or -1 would otherwise give a number
    if plain is not None:
        counts, wilds = plain
    total = _size(counts, wilds)
    return _specials(counts, wilds, total, ShapeRules(standard=False, seven_pairs=True,
                                                      quad_as_two_pairs=quad_as_two_pairs), 99)


def shanten_thirteen_orphans(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for thirteen orphans (13/14 concealed tiles only; 99 otherwise)."""
    plain = _plain_input(counts, wilds, ranges=True)  # a count of 5 or -1 would otherwise give a number
    if plain is not None:
        counts, wilds = plain
    total = _size(counts, wilds)
    return _specials(counts, wilds, total, ShapeRules(standard=False, thirteen_orphans=True), 99)


def shanten_honors_and_knitted(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for 全不靠 (honours and knitted tiles; 13/14 concealed tiles only; 99 otherwise)."""
    plain = _plain_input(counts, wilds, ranges=True)  # a count of 5 or -1 would otherwise give a number
    if plain is not None:
        counts, wilds = plain
    total = _size(counts, wilds)
    return _specials(counts, wilds, total, ShapeRules(standard=False, honors_and_knitted=True), 99)


def shanten_knitted_straight(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for 组合龙 + one set + pair (10/11 or 13/14 concealed tiles; 99 otherwise)."""
    plain = _plain_input(counts, wilds, ranges=True)  # a count of 5 or -1 would otherwise give a number
    if plain is not None:
        counts, wilds = plain
    total = _size(counts, wilds)
    return _specials(counts, wilds, total, ShapeRules(standard=False, knitted_straight=True), 99)


_PLANS: dict[int, tuple] = {}
"""id(rules) → (rules, plain, standard, seven_pairs, quad_as_two_pairs, thirteen_orphans,
honors_and_knitted, knitted_straight, any_special): the switches :func:`shanten` reads, looked up
once a call (``plain``: no shape beyond those four specials, no wildcard shape)."""


def _plan(rules: ShapeRules) -> tuple:
    if len(_PLANS) > 64:  # ShapeRules made per call (the per-shape functions) must not pile up
        _PLANS.clear()
    p = _PLANS[id(rules)] = (rules, not (rules.wilds_win or rules.eight_pairs or rules.unconnected),
                             rules.standard, rules.seven_pairs, rules.quad_as_two_pairs, rules.thirteen_orphans,
                             rules.honors_and_knitted, rules.knitted_straight, rules.any_special)
    return p


def shanten(counts: Sequence[int], wilds: int = 0, rules: ShapeRules = STANDARD) -> int:
    """The least shanten over the shapes ``rules`` allows (see the per-shape functions).

    A complete 3k+2 hand (by :func:`is_winning` under ``rules``) is -1. Raises
    :class:`TileCountError` for a size 3k or a count outside 0-4.
    """
    try:
        # The hot path (no wildcards, no shape beyond standard / seven pairs / thirteen orphans /
        # knitted): :func:`shanten_with_infos` and :func:`_specials` in one body, the knitted shapes'
        # best arrangement from KNIT_PAIR; anything else goes the general way.
        if wilds is not _NO_WILDS or len(counts) != NUM_KINDS:
            return shanten_with_infos(counts, wilds, _size(counts, wilds), rules, None)
        p = _PLANS.get(id(rules))
        if p is None or p[0] is not rules:
            p = _plan(rules)
        if not p[1]:
            return shanten_with_infos(counts, 0, _size(counts, 0), rules, None)
        a = SUIT_INFO[tuple(counts[0:9])]
        b = SUIT_INFO[tuple(counts[9:18])]
        c = SUIT_INFO[tuple(counts[18:27])]
        h = HONOR_INFO[tuple(counts[27:34])]
        # the four groups' pair and terminal counts, five bits each, and the hand's size from bit 30
        q = a[14] + b[14] + c[14] + h[7]
        total = q >> 30
        if not total % 3:
            return shanten_with_infos(counts, 0, _size(counts, 0), rules, None)  # raises: a size of 3k
        n = total // 3
        top = 3 * n + 1  # shanten = max(top - used, -1)
        ab = COMBINED[(a[0], b[0])]
        ch = COMBINED[(c[0], h[0])]
        if p[2]:
            best = top - BEST[(ab, ch, n)]
            if best <= -1 or not p[8]:
                return -1 if best < -1 else best
        else:
            best = 99
        if total != 13 and total != 14:
            return _specials(counts, 0, total, rules, best, (a, b, c, h)) if p[7] else best
        if p[3]:
            if p[4]:
                pairs, odd = q & 31, q >> 5 & 31
            else:
                pairs, odd = q >> 10 & 31, q >> 15 & 31
            if pairs > 7:
                pairs = 7
            used = top - 2 * pairs - (odd if odd < 7 - pairs else 7 - pairs)
            if used < best:
                best = used if used > -1 else -1
        if p[5]:
            used = top - (q >> 20 & 31) - (1 if q >> 25 & 31 else 0)
            if used < best:
                best = used if used > -1 else -1
        if p[6] or p[7]:
            kp = KNIT_PAIR[(a[10], b[10])]
            k0, k1, k2 = kp[0] + c[1], kp[1] + c[2], kp[2] + c[3]
            kmax = k0 if k0 >= k1 and k0 >= k2 else (k1 if k1 >= k2 else k2)
            if p[6]:
                used = h[1] + kmax
                used = top - (used if used < 14 else 14)
                if used < best:
                    best = used if used > -1 else -1
            # the knitted straight: its knitted tiles, then n - 3 sets and a pair from the rest, which
            # use at most what the whole hand's n - 3 sets and pair use (the bound tried first)
            if p[7] and top - kmax - (3 * n - 7) < best and top - kmax - BEST[(ab, ch, n - 3)] < best:
                # each arrangement; the rest is each suit without one of each knitted face of its class
                # (the used ids in SUIT_INFO[11:14])
                hu, m = h[0], n - 3
                rb = top - BEST[(ab, ch, m)]
                for i, j, k in _ARRANGEMENT_INV:
                    kn = a[1 + i] + b[1 + j] + c[1 + k]
                    if rb - kn >= best:
                        continue
                    used = top - kn - BEST[(COMBINED[(a[11 + i], b[11 + j])], COMBINED[(c[11 + k], hu)], m)]
                    if used < best:
                        best = used if used > -1 else -1
        return best
    except (TypeError, ValueError):  # bad input is named; numpy or float counts are read again as ints
        return shanten(*_read_again(counts, wilds), rules)


def shanten_with_infos(counts: Sequence[int], wilds: int, total: int, rules: ShapeRules,
                       infos: tuple[tuple[int, ...], ...] | list[tuple[int, ...]] | None) -> int:
    """:func:`shanten` given the part's size ``total`` (counts plus wilds, 3k+1 or 3k+2, unchecked)
    and, if already at hand, its four group records ``infos`` (:data:`~majiang.analysis.tables.SUIT_INFO`
    of the three suits, :data:`~majiang.analysis.tables.HONOR_INFO`): for callers that try many hands
    differing in one group (a bot's discard and useful-tile loops)."""
    best = 99
    if rules.standard:
        if infos is None:
            infos = _infos(counts)
        a, b, c, h = infos
        ab = COMBINED[(a[0], b[0])]
        ch = COMBINED[(c[0], h[0])]
        n = total // 3
        best = max(3 * n + 1 - BEST[(ab, ch, n)] - wilds, -1)
    if rules.any_special and best > -1:
        best = _specials(counts, wilds, total, rules, best, infos)
    if best == 0 and wilds and total % 3 == 2 and is_winning(counts, wilds, rules):
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
    plain = _plain_input(counts, wilds)  # 35 shantens below: numpy counts read as ints once
    if plain is not None:
        counts, wilds = plain
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
    plain = _plain_input(counts, wilds)  # numpy counts read as ints once
    if plain is not None:
        counts, wilds = plain
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
