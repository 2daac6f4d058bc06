"""A tile-efficiency bot (牌效): lowest shanten first, then the most unseen useful tiles.

Policy (issue 5):

* declares every legal win (self-drawn, on a discard, robbing a kong);
* discards the tile that leaves the lowest shanten (向听) under the rule set's shapes (with ``fast``,
  the default, the knitted shapes 全不靠/组合龙 are left out of the count: they cost most of the time),
  ties broken by
  the number of useful tiles still unseen from its own view (its hand, every river, visible melds),
  then by preferring honours and terminals, then the lowest tile index;
* claims a chow, pung or exposed kong only when it lowers its shanten (after the best discard for a
  chow or pung; straight after the kong for a kong), and declares a concealed or added kong only
  when that does not raise its shanten;
* never discards a wildcard when the rules forbid it (the table does not offer it).

It sees only its :class:`~majiang.engine.match.PlayerView`.
"""

from __future__ import annotations

from typing import Any

import dataclasses
from collections.abc import Sequence

from majiang.analysis import ShapeRules, shanten
from majiang.analysis.tables import BEST, COMBINED, HONOR_INFO, SUIT_INFO
from majiang.analysis.wildcards import split_counts
from majiang.analysis.win import _specials, shanten_with_infos
from majiang.engine.actions import PASS, Action, ActionKind, chow_consumed
from majiang.engine.match import PlayerView
from majiang.engine.ruleset import RuleSet, resolve
from majiang.tiles import NUM_KINDS, WHITE, is_honor, is_terminal


class EfficiencyBot:
    """See the module doc. ``rules`` gives the shapes and the wildcard policy (default MCR)."""

    name = "efficiency"

    def __init__(self, rules: RuleSet | str | None = None, *, fast: bool = True) -> None:
        self.rules = resolve(rules)
        shapes = self.rules.shape_rules
        if fast:  # the knitted shapes cost most of the shanten time and rarely decide a discard
            shapes = dataclasses.replace(shapes, honors_and_knitted=False, knitted_straight=False)
        self.shapes = shapes
        self._memo: dict[tuple[tuple[int, ...], int], int] = {}

    @property
    def shapes(self) -> ShapeRules:
        """The shapes the shanten counts (the rule set's, without the knitted ones with ``fast``)."""
        return self._shapes

    @shapes.setter
    def shapes(self, shapes: ShapeRules) -> None:
        self._shapes = shapes
        self._memo = {}
        # useful tiles depend only on the counts and the shapes: shared by every bot with these shapes
        self._useful_memo = _USEFUL_MEMO.setdefault(shapes, {})

    # --------------------------------------------------------------- shanten with wildcards
    def _split(self, counts: Sequence[int], view: PlayerView) -> tuple[list[int], int]:
        return split_counts(list(counts), view.wild_face, self.rules.white_stand_in)

    def _white_face(self, view: PlayerView) -> int | None:
        wf = view.wild_face
        return wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None

    def _shanten(self, counts: Sequence[int], view: PlayerView) -> int:
        c, w = self._split(counts, view)
        return memo_shanten(self._memo, c, w, self.shapes)

    def _useful(self, counts: list[int], view: PlayerView, visible: Sequence[int]) -> int:
        """Unseen copies of tiles that lower the shanten of a 3k+1 part."""
        if view.wild_face is not None:
            return self._useful_wild(counts, view, visible)
        key = tuple(counts)
        tiles = self._useful_memo.get(key)
        if tiles is None:
            if len(self._useful_memo) > USEFUL_MEMO_CAP:
                self._useful_memo.clear()
            tiles = self._useful_memo[key] = self._useful_tiles(counts)
        total = 0
        for t in tiles:
            n = 4 - counts[t] - visible[t]
            if n > 0:
                total += n
        return total

    def _useful_tiles(self, counts: list[int]) -> tuple[int, ...]:
        """The tiles whose draw lowers the shanten of a 3k+1 part without wildcards.

        Only one group (suit or honours) changes per drawn tile, so the other three groups'
        records are looked up once; the standard shape's count comes from the combined tables
        directly, and the special shapes are tried only where it does not already lower the
        shanten (they can only lower it further): the same value as
        :func:`~majiang.analysis.win.shanten_with_infos`, without its per-call set-up."""
        shapes = self.shapes
        infos = _group_infos(counts)
        total = sum(counts)
        s = shanten_with_infos(counts, 0, total, shapes, infos)
        total += 1
        if not shapes.standard:
            return self._useful_tiles_general(counts, infos, total, s)
        special = shapes.any_special
        n = total // 3
        top = 3 * n + 1
        a0, b0, c0, h0 = infos[0][0], infos[1][0], infos[2][0], infos[3][0]
        # seven pairs and thirteen orphans (the only special shapes of many rule sets) from the group
        # records, as analysis.win._specials counts them; any other special shape goes through it
        simple = special and (total == 13 or total == 14) and not (
            shapes.honors_and_knitted or shapes.knitted_straight or shapes.unconnected or shapes.eight_pairs
            or shapes.wilds_win)
        if simple:
            special = False
            top_s = 3 * (total // 3) + 1
            fp, fo = ((6, 6, 6, 3), (7, 7, 7, 4)) if shapes.quad_as_two_pairs else ((8, 8, 8, 5), (9, 9, 9, 6))
            seven, orphans = shapes.seven_pairs, shapes.thirteen_orphans
            sp = sum(infos[g][fp[g]] for g in range(4))
            so = sum(infos[g][fo[g]] for g in range(4))
            st = sum(infos[g][_TERMS[g]] for g in range(4))
            dups = [infos[g][_DUPS[g]] for g in range(4)]
        ab = COMBINED[(a0, b0)]
        ch = COMBINED[(c0, h0)]
        out = []
        for g, lo, hi, table in _GROUPS:
            base = infos[g]
            key = counts[lo:hi]
            for i, k in enumerate(key):
                if k >= 4:
                    continue
                key[i] = k + 1
                info = table[tuple(key)]
                key[i] = k
                if g == 0:
                    used = BEST[(COMBINED[(info[0], b0)], ch, n)]
                elif g == 1:
                    used = BEST[(COMBINED[(a0, info[0])], ch, n)]
                elif g == 2:
                    used = BEST[(ab, COMBINED[(info[0], h0)], n)]
                else:
                    used = BEST[(ab, COMBINED[(c0, info[0])], n)]
                sh = top - used
                if sh < -1:
                    sh = -1
                if simple and sh >= s and sh > -1:
                    if seven:
                        pairs = sp - base[fp[g]] + info[fp[g]]
                        odd = so - base[fo[g]] + info[fo[g]]
                        if pairs > 7:
                            pairs = 7
                        v = top_s - 2 * pairs - (odd if odd < 7 - pairs else 7 - pairs)
                        if v < sh:
                            sh = v if v > -1 else -1
                    if orphans:
                        dup = info[_DUPS[g]] or any(dups[x] for x in range(4) if x != g)
                        v = top_s - (st - base[_TERMS[g]] + info[_TERMS[g]]) - (1 if dup else 0)
                        if v < sh:
                            sh = v if v > -1 else -1
                elif special and sh >= s and sh > -1:
                    infos[g] = info
                    counts[lo + i] = k + 1
                    sh = _specials(counts, 0, total, shapes, sh, infos)
                    counts[lo + i] = k
                    infos[g] = base
                if sh < s:
                    out.append(lo + i)
        return tuple(out)

    def _useful_tiles_general(self, counts: list[int], infos: list[tuple[int, ...]], total: int,
                              s: int) -> tuple[int, ...]:
        out = []
        for g, lo, hi, table in _GROUPS:
            base = infos[g]
            key = counts[lo:hi]
            for i, n in enumerate(key):
                if n >= 4:
                    continue
                key[i] = n + 1
                infos[g] = table[tuple(key)]
                key[i] = n
                counts[lo + i] = n + 1
                sh = shanten_with_infos(counts, 0, total, self.shapes, infos)
                counts[lo + i] = n
                if sh < s:
                    out.append(lo + i)
            infos[g] = base
        return tuple(out)

    def _useful_wild(self, counts: list[int], view: PlayerView, visible: Sequence[int]) -> int:
        """:meth:`_useful` where a wildcard face exists (tiles move between counts and wildcards)."""
        s = self._shanten(counts, view)
        total = 0
        for t in range(NUM_KINDS):
            if counts[t] >= 4:
                continue
            counts[t] += 1
            if self._shanten(counts, view) < s:
                total += max(0, 4 - counts[t] + 1 - visible[t])
            counts[t] -= 1
        return total

    def _discard_shanten(self, counts: list[int], view: PlayerView, allowed: Sequence[int]) -> list[tuple[int, int]]:
        """(shanten after discarding t, t) for each allowed t."""
        if view.wild_face is not None:
            scored = []
            for t in allowed:
                counts[t] -= 1
                scored.append((self._shanten(counts, view), t))
                counts[t] += 1
            return scored
        shapes = self.shapes
        infos = _group_infos(counts)
        total = sum(counts) - 1
        scored = []
        for t in allowed:
            g = _GROUP_OF[t]
            lo = _GROUP_LO[g]
            base = infos[g]
            key = counts[lo:lo + _GROUP_LEN[g]]
            key[t - lo] -= 1
            infos[g] = _GROUPS[g][3][tuple(key)]
            counts[t] -= 1
            scored.append((shanten_with_infos(counts, 0, total, shapes, infos), t))
            counts[t] += 1
            infos[g] = base
        return scored

    def _best_discard(self, counts: list[int], view: PlayerView, allowed: Sequence[int]) -> tuple[int, int]:
        """(shanten after the best discard, the tile) among ``allowed`` discards."""
        scored = self._discard_shanten(counts, view, allowed)
        best = min(s for s, _ in scored)
        cands = [t for s, t in scored if s == best]
        if len(cands) > 1:
            visible = view.visible_counts()

            def key(t: int) -> tuple[int, int, int]:
                counts[t] -= 1
                u = self._useful(counts, view, visible)
                counts[t] += 1
                return (-u, 0 if (is_honor(t) or is_terminal(t)) else 1, t)

            cands.sort(key=key)
        return best, cands[0]

    # --------------------------------------------------------------- choosing
    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        for a in actions:
            if a.kind is ActionKind.WIN:
                return a
        counts = [0] * NUM_KINDS
        for t in view.hand:
            counts[t] += 1
        if view.phase == "turn":
            discards = [a.tile for a in actions if a.kind is ActionKind.DISCARD and a.tile is not None]
            best, tile = self._best_discard(counts, view, discards)
            for a in actions:
                if a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG) and a.tile is not None:
                    c = list(counts)
                    c[a.tile] -= 4 if a.kind is ActionKind.CONCEALED_KONG else 1
                    if self._shanten(c, view) <= best:
                        return a
            return Action(ActionKind.DISCARD, tile)
        if view.phase != "claim":
            return PASS
        now = self._shanten(counts, view)
        best_action, best_s = PASS, now
        for a in actions:
            if a.tile is None or a.kind in (ActionKind.PASS, ActionKind.WIN):
                continue
            c = list(counts)
            if a.kind is ActionKind.EXPOSED_KONG:
                c[a.tile] -= 3
                s = self._shanten(c, view)
            else:
                if a.kind is ActionKind.PUNG:
                    c[a.tile] -= 2
                else:
                    assert a.low is not None
                    used = chow_consumed(c, a.tile, a.low, white_face=self._white_face(view),
                                         wild_face=view.wild_face, wild_claimable=self.rules.wild_claimable)
                    if used is None:  # pragma: no cover - the table offers only chows the hand can make
                        continue
                    for x in used:  # physical tiles: a White where it plays the wildcard's face
                        c[x] -= 1
                allowed = [t for t in range(NUM_KINDS) if c[t]]
                if not allowed:
                    continue
                s = min(x for x, _ in self._discard_shanten(c, view, allowed))  # the tile is chosen later
            if s < best_s:
                best_action, best_s = a, s
        return best_action


_GROUPS = ((0, 0, 9, SUIT_INFO), (1, 9, 18, SUIT_INFO), (2, 18, 27, SUIT_INFO), (3, 27, 34, HONOR_INFO))
_USEFUL_MEMO: dict[ShapeRules, dict[tuple[int, ...], tuple[int, ...]]] = {}
"""Shapes → (34 counts of a 3k+1 part without wildcards → the tiles whose draw lowers its shanten)."""
USEFUL_MEMO_CAP = 20_000
"""Entries one shapes' useful-tile memo holds before it is emptied (about 0.4 KiB each). It is
shared by every bot of the process, so a server's memory stops growing once it is full: minutes
into an evening of play rather than a quarter of an hour (docs/server.md, Bounded resources)."""
_TERMS = (4, 4, 4, 1)
"""Per group, the index in its record of: terminals (or honours) present."""
_DUPS = (5, 5, 5, 2)
"""Per group, the index in its record of: a terminal (or honour) held twice or more."""
_GROUP_OF = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
_GROUP_LO = (0, 9, 18, 27)
_GROUP_LEN = (9, 9, 9, 7)


def _group_infos(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The four group records (three suits, honours) of a count vector."""
    return [SUIT_INFO[tuple(counts[0:9])], SUIT_INFO[tuple(counts[9:18])], SUIT_INFO[tuple(counts[18:27])],
            HONOR_INFO[tuple(counts[27:34])]]


def memo_shanten(memo: dict, counts: Sequence[int], wilds: int, shapes: Any) -> int:
    """:func:`~majiang.analysis.shanten` of natural ``counts`` and ``wilds`` wildcards, memoised in
    ``memo`` (a bot's own dict, emptied past 200,000 entries so it stays bounded)."""
    key = (tuple(counts), wilds)
    v = memo.get(key)
    if v is None:
        if len(memo) > 200_000:
            memo.clear()
        v = memo[key] = shanten(counts, wilds, shapes)
    return v
