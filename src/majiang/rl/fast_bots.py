"""The tile-efficiency bot with its discard choice from the compiled analysis kernel.

:class:`FastEfficiencyBot` makes exactly :class:`~majiang.players.EfficiencyBot`'s decisions (a test
plays thousands of decision states of every preset and whole games through both); only the turn's
discard choice (:meth:`EfficiencyBot._best_discard`) is computed differently. The analysis kernel
(:func:`majiang.rl.kernels.analyse_one` for hands without wildcards, :func:`~majiang.rl.kernels.analyse_wild_one`
for wildcard hands and the 不搭 shape) fills the ``majiang-v1`` planes ``discard_best`` (each held
tile whose discard leaves the lowest shanten) and ``discard_useful`` (the unseen copies of the draws
that then lower it, /34) under the same shapes the bot counts (the rule set's without the knitted
ones), in one call of about 10 µs instead of the bot's Python scan (about 0.7 ms a decision in MCR,
more with wildcards). The bot's choice is then: among its allowed discards flagged ``discard_best``,
the most useful copies, honours and terminals first, then the lowest tile.

Where the kernel does not give the bot's numbers, the bot's own code decides (the result is the
same, only slower):

* numba missing (or ``MAJIANG_NUMBA=0``), ``fast=False`` (the knitted shapes counted), shapes the
  kernels refuse (no standard shape);
* a hand the kernel leaves alone (more than :data:`~majiang.rl.kernels.MAX_TILES` tiles, a count
  outside 0-4);
* none of the kernel's best discards is allowed (the table may withhold some, e.g. a wildcard).

The planes' unseen copies are those of the hand before the discard (``4 - hand - visible``, at
least 0); the bot counts a draw's copies after it (``4 - hand after the discard - visible``). They
differ only for the discarded tile's own draw, which restores the hand: it lowers the shanten after
the discard only when the hand itself is lower (a complete hand that may not be declared, e.g.
under MCR's eight points); there the bot's count is the planes' with the discarded tile's copies
counted again that way. The shanten after the best discard (which the bot compares the kongs
with) is read from a second kernel call on the hand after one best discard.

The claim test's and the kongs' shanten stay the bot's own: memoised look-ups, about 7% of a
Wenzhou learner step in a profile, which a kernel call per hand would not make cheaper.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from majiang.analysis import ShapeRules
from majiang.engine.match import Player, PlayerView
from majiang.engine.ruleset import RuleSet
from majiang.players import make_bot
from majiang.players.efficiency import EfficiencyBot
from majiang.rl import kernels
from majiang.rl.actions import COLUMN_OF
from majiang.tiles import NUM_KINDS, is_honor, is_terminal

_ORPHAN_FIRST = tuple(0 if (is_honor(t) or is_terminal(t)) else 1 for t in range(NUM_KINDS))
"""The bot's second tie-break: 0 for honours and terminals (discarded first), else 1."""
_FLAGS: dict[ShapeRules, tuple[tuple | None, tuple | None]] = {}
"""Shapes → (:func:`kernels.shape_flags` or None, :func:`kernels.wild_flags` or None), where numba is there."""


def kernel_flags(shapes: ShapeRules) -> tuple[tuple | None, tuple | None]:
    """The kernels' readings of ``shapes`` as :class:`~majiang.rl.observations.Encoder` chooses them:
    ``(plain, wild)``, ``plain`` the flags of :func:`kernels.analyse_one` (hands without wildcards;
    None where it does not take the shapes: 不搭, the knitted ones), ``wild`` those of
    :func:`kernels.analyse_wild_one` (None where the shapes have no standard shape or the knitted
    ones). Both None when numba is not available."""
    got = _FLAGS.get(shapes)
    if got is None:
        plain = wild = None
        if kernels.available() and shapes.standard and not (shapes.honors_and_knitted or shapes.knitted_straight):
            wild = kernels.wild_flags(shapes)
            if not shapes.unconnected:
                plain = kernels.shape_flags(shapes)
        got = _FLAGS[shapes] = (plain, wild)
    return got


class FastEfficiencyBot(EfficiencyBot):
    """:class:`~majiang.players.EfficiencyBot`, decision for decision, with the turn's discard chosen
    from the compiled analysis kernel where it applies (see the module doc). Same arguments; its
    :attr:`name` is ``"efficiency"`` too (it is the same bot)."""

    def __init__(self, rules: RuleSet | str | None = None, *, fast: bool = True) -> None:
        self._out = np.zeros((5, NUM_KINDS), dtype=np.float32)  # the turn's planes
        self._out13 = np.zeros((5, NUM_KINDS), dtype=np.float32)  # the planes after one best discard
        self.kernel_used = 0
        """Turn discards the kernel chose (the rest went through :class:`EfficiencyBot`'s code)."""
        super().__init__(rules, fast=fast)

    @EfficiencyBot.shapes.setter  # type: ignore[attr-defined]
    def shapes(self, shapes: ShapeRules) -> None:
        EfficiencyBot.shapes.fset(self, shapes)  # type: ignore[attr-defined]
        self._flags: tuple[tuple | None, tuple | None] | None = None  # decided on first use (imports numba)

    def kernel_discards(self, counts: list[int], view: PlayerView,
                        allowed: Sequence[int]) -> tuple[int, dict[int, int]] | None:
        """The bot's discard candidates from the kernel: ``(best, useful)``, ``best`` the lowest
        shanten after an ``allowed`` discard, ``useful`` maps each allowed tile that leaves it to
        the unseen copies of the draws that then lower it, as :meth:`EfficiencyBot._useful` counts
        them. None where the kernel does not apply (see the module doc).

        ``counts``: the 34 concealed counts on the turn (3k+2 tiles; left as given); ``view``: the
        seat's view (wildcard face, visible tiles); ``allowed``: the discardable tiles (0-33)."""
        flags = self._flags
        if flags is None:
            flags = self._flags = kernel_flags(self.shapes)
        plain, wild = flags
        wf = view.wild_face
        if (plain if wf is None and plain is not None else wild) is None or not allowed:
            return None
        visible = view.visible_counts()
        unseen = [4 - c - v if c + v < 4 else 0 for c, v in zip(counts, visible)]
        out = self._out
        out.fill(0.0)
        if wf is None and plain is not None:
            ok = kernels.analyse_one(counts, unseen, True, out, 0, plain)
        else:
            ok = kernels.analyse_wild_one(counts, unseen, True, out, 0, wild, wf, self.rules.white_stand_in)
        if not ok:
            return None
        best_row, useful_row = out[1], out[2]
        cands = [t for t in allowed if best_row[COLUMN_OF[t]] != 0.0]
        if not cands:
            return None
        now = int(round(float(out[0, 0]) * 8.0))
        t0 = cands[0]
        counts[t0] -= 1  # every candidate leaves the same (lowest) shanten: read it after one of them
        best = self._after_discard(counts, view, plain, wild)
        counts[t0] += 1
        if best is None:
            return None
        useful = {t: int(round(float(useful_row[COLUMN_OF[t]]) * 34.0)) for t in cands}
        if now < best:
            # drawing back the discarded tile restores the hand, below ``best``: the bot counts its
            # copies with the discarded one unseen, the planes with it held
            for t in useful:
                useful[t] += max(0, 5 - counts[t] - visible[t]) - unseen[t]
        return best, useful

    def _best_discard(self, counts: list[int], view: PlayerView, allowed: Sequence[int]) -> tuple[int, int]:
        """(shanten after the best discard, the tile) among ``allowed`` discards, as
        :meth:`EfficiencyBot._best_discard` gives it (its code where the kernel does not apply)."""
        got = self.kernel_discards(counts, view, allowed)
        if got is None:
            return super()._best_discard(counts, view, allowed)
        best, useful = got
        self.kernel_used += 1
        return best, min(useful, key=lambda t: (-useful[t], _ORPHAN_FIRST[t], t))

    def _after_discard(self, counts: list[int], view: PlayerView, plain: tuple | None,
                       wild: tuple | None) -> int | None:
        """The shanten of the 3k+1 hand ``counts`` from the kernel (None if it left the hand alone)."""
        out = self._out13
        out.fill(0.0)
        zeros = [0] * NUM_KINDS
        wf = view.wild_face
        if wf is None and plain is not None:
            ok = kernels.analyse_one(counts, zeros, False, out, 0, plain)
        else:
            ok = kernels.analyse_wild_one(counts, zeros, False, out, 0, wild, wf, self.rules.white_stand_in)
        return int(round(float(out[0, 0]) * 8.0)) if ok else None


def make_opponent(name: str, rules: RuleSet, seed: int = 0) -> Player:
    """:func:`majiang.players.make_bot`, with :class:`FastEfficiencyBot` for ``"efficiency"`` (or
    ``"eff"``) where numba is available (the same decisions, faster); raises
    :class:`~majiang.engine.ruleset.RuleSetError` for an unknown name."""
    if name.strip().lower() in ("efficiency", "eff") and kernels.available():
        return FastEfficiencyBot(rules)
    return make_bot(name, rules, seed)


__all__ = ["FastEfficiencyBot", "kernel_flags", "make_opponent"]
