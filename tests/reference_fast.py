"""Reference implementations of the code paths made faster in issue 14 (test-only).

They are the previous versions, kept verbatim in substance so the fast ones can be compared
against them on many inputs:

* :func:`ref_block_need`, :func:`ref_block_used`: the per-block dynamic programmes of
  :mod:`majiang.analysis.tables` as first written (tuple-keyed states, every move tried);
* :func:`ref_suit_used`: a suit's used-vectors folded block by block from :func:`ref_block_used`;
* :class:`ReferenceEfficiencyBot`: the efficiency bot that calls :func:`majiang.analysis.shanten`
  on every candidate hand (34-tile keys, no per-group reuse).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from majiang.analysis import ShapeRules, shanten
from majiang.analysis.tables import INF, MAX_SETS, _EMPTY_USED, _split, blocks, combine_used
from majiang.analysis.wildcards import split_counts
from majiang.engine.actions import PASS, Action, ActionKind, chow_consumed
from majiang.engine.match import PlayerView
from majiang.engine.ruleset import RuleSet, resolve
from majiang.tiles import NUM_KINDS, WHITE, is_honor, is_terminal

_NEG = -100


def ref_block_need(b: tuple[int, ...], cap: bool) -> tuple[int, int]:
    maxu = 4 if cap else 99
    tmax = 1 if cap else 2
    faces = (0, 0) + b + (0, 0)
    n = len(faces)
    cur: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for i in range(n):
        ci = faces[i]
        nxt: dict[tuple[int, int, int], int] = {}
        kmax = 2 if i <= n - 3 else 0
        for (a, bb, p), w in cur.items():
            base = a + bb
            for k in range(kmax + 1):
                for t in range(tmax + 1):
                    for q in ((0, 1) if p == 0 else (0,)):
                        u = base + k + 3 * t + 2 * q
                        if u < ci or u > maxu:
                            continue
                        st = (bb, k, p | q)
                        nw = w + u - ci
                        if nw < nxt.get(st, INF):
                            nxt[st] = nw
        cur = nxt
    return (cur.get((0, 0, 0), INF), cur.get((0, 0, 1), INF))


def ref_block_used(b: tuple[int, ...]) -> tuple[int, ...]:
    faces = (0, 0) + b + (0, 0)
    n = len(faces)
    cur: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for i in range(n):
        ci = faces[i]
        nxt: dict[tuple[int, int, int, int], int] = {}
        kmax = 2 if i <= n - 3 else 0
        for (a, bb, p, m), used in cur.items():
            base = a + bb
            for k in range(kmax + 1):
                if m + k > MAX_SETS:
                    break
                for t in (0, 1):
                    mt = m + k + t
                    if mt > MAX_SETS:
                        break
                    for q in ((0, 1) if p == 0 else (0,)):
                        u = base + k + 3 * t + 2 * q
                        if u > 4:
                            continue
                        st = (bb, k, p | q, mt)
                        nu = used + (u if u < ci else ci)
                        if nu > nxt.get(st, -1):
                            nxt[st] = nu
        cur = nxt
    out = [_NEG] * (2 * (MAX_SETS + 1))
    for (a, bb, p, m), used in cur.items():
        if a == 0 and bb == 0 and used > out[2 * m + p]:
            out[2 * m + p] = used
    for p in (0, 1):
        for m in range(1, MAX_SETS + 1):
            if out[2 * (m - 1) + p] > out[2 * m + p]:
                out[2 * m + p] = out[2 * (m - 1) + p]
    for m in range(MAX_SETS + 1):
        if out[2 * m] > out[2 * m + 1]:
            out[2 * m + 1] = out[2 * m]
    return tuple(out)


def ref_suit_used(c: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    v = _EMPTY_USED
    for b in blocks(c):
        v = combine_used(v, _split(ref_block_used(b)))
    return v


class ReferenceEfficiencyBot:
    """The efficiency bot before issue 14's speed work (same policy; see majiang.players.efficiency)."""

    name = "efficiency-reference"

    def __init__(self, rules: RuleSet | str | None = None, *, fast: bool = True) -> None:
        self.rules = resolve(rules)
        shapes = self.rules.shape_rules
        if fast:
            shapes = dataclasses.replace(shapes, honors_and_knitted=False, knitted_straight=False)
        self.shapes: ShapeRules = shapes

    def _shanten(self, counts: Sequence[int], view: PlayerView) -> int:
        c, w = split_counts(list(counts), view.wild_face, self.rules.white_stand_in)
        return shanten(c, w, self.shapes)

    def _white_face(self, view: PlayerView) -> int | None:
        wf = view.wild_face
        return wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None

    def _useful(self, counts: list[int], view: PlayerView, visible: Sequence[int]) -> int:
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

    def _best_discard(self, counts: list[int], view: PlayerView, allowed: Sequence[int]) -> tuple[int, int]:
        scored = []
        for t in allowed:
            counts[t] -= 1
            scored.append((self._shanten(counts, view), t))
            counts[t] += 1
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
                    if used is None:
                        continue
                    for x in used:
                        c[x] -= 1
                allowed = [t for t in range(NUM_KINDS) if c[t]]
                if not allowed:
                    continue
                s, _ = self._best_discard(c, view, allowed)
            if s < best_s:
                best_action, best_s = a, s
        return best_action
