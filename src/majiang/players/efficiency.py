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

import dataclasses
from collections.abc import Sequence

from majiang.analysis import ShapeRules, shanten
from majiang.analysis.tables import HONOR_INFO, SUIT_INFO
from majiang.analysis.wildcards import split_counts
from majiang.analysis.win import shanten_with_infos
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
        self.shapes: ShapeRules = shapes
        self._memo: dict[tuple[tuple[int, ...], int], int] = {}
        self._useful_memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    # --------------------------------------------------------------- shanten with wildcards
    def _split(self, counts: Sequence[int], view: PlayerView) -> tuple[list[int], int]:
        return split_counts(list(counts), view.wild_face, self.rules.white_stand_in)

    def _white_face(self, view: PlayerView) -> int | None:
        wf = view.wild_face
        return wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None

    def _shanten(self, counts: Sequence[int], view: PlayerView) -> int:
        c, w = self._split(counts, view)
        key = (tuple(c), w)
        v = self._memo.get(key)
        if v is None:
            if len(self._memo) > 200_000:
                self._memo.clear()
            v = shanten(c, w, self.shapes)
            self._memo[key] = v
        return v

    def _useful(self, counts: list[int], view: PlayerView, visible: Sequence[int]) -> int:
        """Unseen copies of tiles that lower the shanten of a 3k+1 part."""
        if view.wild_face is not None:
            return self._useful_wild(counts, view, visible)
        key = tuple(counts)
        tiles = self._useful_memo.get(key)
        if tiles is None:
            if len(self._useful_memo) > 50_000:
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
        records are looked up once (:func:`~majiang.analysis.win.shanten_with_infos`)."""
        shapes = self.shapes
        infos = _group_infos(counts)
        total = sum(counts)
        s = shanten_with_infos(counts, 0, total, shapes, infos)
        total += 1
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
                sh = shanten_with_infos(counts, 0, total, shapes, infos)
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
                s, _ = self._best_discard(c, view, allowed)
            if s < best_s:
                best_action, best_s = a, s
        return best_action


_GROUPS = ((0, 0, 9, SUIT_INFO), (1, 9, 18, SUIT_INFO), (2, 18, 27, SUIT_INFO), (3, 27, 34, HONOR_INFO))
_GROUP_OF = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
_GROUP_LO = (0, 9, 18, 27)
_GROUP_LEN = (9, 9, 9, 7)


def _group_infos(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The four group records (three suits, honours) of a count vector."""
    return [SUIT_INFO[tuple(counts[0:9])], SUIT_INFO[tuple(counts[9:18])], SUIT_INFO[tuple(counts[18:27])],
            HONOR_INFO[tuple(counts[27:34])]]
