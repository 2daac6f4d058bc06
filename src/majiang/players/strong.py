"""The ``strong`` bot: tile efficiency weighed by what a win pays under the rule set, by the danger of
each discard, and claims decided by expected value.

Every decision compares *expected score changes* (the rule set's points: MCR fan points, Taiwan
底+台, Wenzhou 底×multiplier) of the hands it can keep:

* **Offence** (:meth:`StrongBot.hand_value`): for a hand of 3k+1 tiles, the chance to win before the
  wall runs out times the score change of that win. A ready hand is valued exactly: each wait is
  scored by the rule set's scorer and settlement (:class:`~majiang.players.valuation.WinValuer`),
  a wait worth less than ``min_score`` (an MCR hand under 8 fan) counts for nothing, and the chance
  comes from its live copies (self-draws; discard wins weighted 2.1 draws a go-around for the three
  other players' discards, 1.5 in Wenzhou W13 where a self-draw pays ×2 against ×1, RULES.md §4.4:
  :data:`RON_RATES`). A hand not ready: the chance that ``shanten + 1`` useful tiles arrive
  (a Poisson tail over its remaining draws, useful tiles = unseen copies that lower the shanten, 1.8
  chances a go-around with claims; in Taiwan each copy weighed by how it can come: drawn, punged,
  chowed, :data:`TAIWAN_SPEED`). In MCR the distance is the shortest path to a pattern that
  reaches 8 fan (:func:`~majiang.players.valuation.mcr_plans`: flushes, seven pairs, all pungs,
  straights, triple chows; a plain hand counts as two tiles further), and the value is that
  pattern's fan; in Taiwan and Wenzhou a typical win of the settlement.
* **Defence** (:mod:`majiang.players.danger`): each discard costs its deal-in chance per opponent
  times the rule set's extra loss for feeding a win (MCR 8 + the fan, Taiwan 底 + 台 as the discarder
  pays alone, Wenzhou the 犯枪 point and the multiplier), scaled per rule set (:data:`DEFENCE`:
  Taiwan at a quarter; in Taiwan also none while the hand is two or more steps from ready, and risks
  under half a point forgiven, :data:`TAIWAN_SPEED`).
* **Choices**: the discard with the best offence minus defence, where offence counts only for the
  discards that keep the lowest shanten (in MCR: the shortest distance to an 8-fan pattern; with
  ``shanten_decay`` d > 0 a discard one step further keeps d times its value), so the others
  compete on safety alone -- the bot folds when every fast discard is too dangerous for what the
  hand is worth (ties: lower shanten, then more useful tiles, then honours and terminals first, then
  the lowest tile); a chow, pung or kong only when the
  hand after it (and its best discard) is worth more than passing (in Taiwan a chow or pung must also
  lower the shanten, :data:`CLAIM_NEEDS_PROGRESS`); a concealed or added kong when it
  does not lower the hand's value; every win offered is declared (the table offers only wins that
  meet the minimum). A 财神 is never thrown: the table does not offer it in Wenzhou, and where it is
  offered (seed 000 style) the bot keeps wildcards unless nothing else can go.

Deterministic: no randomness (the ``seed`` is accepted for :func:`~majiang.players.make_bot` and
ignored). About 1-5 ms a decision (``benchmarks/bench_strong.py`` prints the mean and maximum).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from majiang.analysis import ShapeRules
from majiang.analysis.wildcards import split_counts
from majiang.engine.actions import PASS, Action, ActionKind, chow_consumed
from majiang.engine.match import PlayerView
from majiang.players.efficiency import memo_shanten
from majiang.engine.ruleset import RuleSet, resolve
from majiang.hand import Meld, MeldKind
from majiang.players.danger import LEARNED, SCALE, learned_deal_in, ready_probability, tile_features, wait_weights
from majiang.players.tuning import PerScorer, tuning
from majiang.players.valuation import SELF_DRAW_SHARE, WinValuer, mcr_plans, typical_win
from majiang.tiles import DRAGONS, NUM_KINDS, WHITE, is_honor, is_terminal

RON_RATE = 2.1
"""Chances a go-around to win on a discard, in units of one own draw (three discards, some held back)."""
CLAIM_RATE = 0.8
"""Extra chances a go-around to improve a hand that is not ready by claiming."""


TYPICAL_USEFUL = (5, 20, 35, 50, 60)
"""Typical useful tiles of a hand at shanten 0 (live waits), 1, 2, 3, 4+ (for the steps after the next)."""
PLAN_SPEED = {"seven-pairs": 0.45, "full-flush": 0.5, "half-flush": 0.7, "all-pungs": 0.5, "pure-straight": 0.6,
              "mixed-straight": 0.6, "mixed-triple-chow": 0.6, "plain": 1.0}
"""How much slower a path to an MCR pattern fills than a plain hand (fewer tiles help it)."""
HAND_LENGTH = 0.7
"""Share of the remaining draws a seat gets on average (other seats win first in the rest)."""
DEFENCE = PerScorer("defence")
"""Per scorer, the default ``defence`` its rule set's tuning sets (1.0 elsewhere; docs/strong.md, "defence")."""
RON_RATES = PerScorer("ron_rate")
"""Per scorer, the default ``ron_rate`` its rule set's tuning sets (:data:`RON_RATE` elsewhere; docs/strong.md,
"ron_rate")."""
SKIP_MODES = ("flat", "dealer", "progress", "dealer-progress")
"""How ``skip_value`` weighs each skipped turn (:meth:`StrongBot._skip_weight`)."""
SKIP_VALUES = PerScorer("skip_value")
"""Per scorer, the default ``skip_value`` its rule set's tuning sets (0 elsewhere; docs/strong.md, "tempo")."""
TAIWAN_SPEED = PerScorer("defend_within", lambda t: {"defend_within": t.defend_within, "risk_floor": t.risk_floor,
                                                     "claim_weights": t.claim_weights})
"""Per scorer, the defaults of ``defend_within``, ``risk_floor`` and ``claim_weights`` where its rule set's
tuning sets them (off elsewhere; docs/strong.md, "speed knobs")."""

_NO_RISK = (0.0,) * NUM_KINDS

CLAIM_NEEDS_PROGRESS = PerScorer("claim_needs_progress")
"""Scorers whose rule set's tuning wants a chow or pung to lower the shanten too (docs/strong.md, "claims")."""


def reach_probability(draws: float, unseen: int, shanten_: int, useful_first: float, speed: float = 1.0,
                      ron_rate: float = RON_RATE, claim_rate: float = CLAIM_RATE) -> float:
    """Chance to complete a hand ``shanten_`` steps from ready within ``draws`` own draws.

    Each step waits an exponential time: the next with rate ``useful_first/unseen`` per draw (times
    1 + CLAIM_RATE for claims), the later ones at typical useful counts (:data:`TYPICAL_USEFUL` ×
    ``speed``), the last (ready → win) at 5 live waits × (1 + RON_RATE). The sum is taken as a gamma
    variable with the same mean, so the answer is a Poisson tail."""
    if useful_first <= 0 or draws <= 0:
        return 0.0
    U = max(unseen, 1)
    k = shanten_ + 1
    T = U / (useful_first * ((1.0 + claim_rate) if shanten_ > 0 else (1.0 + ron_rate)))
    for j in range(shanten_ - 1, -1, -1):
        if j == 0:
            T += U / (TYPICAL_USEFUL[0] * speed * (1.0 + ron_rate))
        else:
            T += U / (TYPICAL_USEFUL[min(j, 4)] * speed * (1.0 + claim_rate))
    return poisson_tail(HAND_LENGTH * draws * k / T, k)


def reach_two(draws: float, unseen: int, shanten_: int, useful_first: float, useful_next: float) -> float:
    """:func:`reach_probability` with the second step's useful tiles measured (``useful_next``, the
    mean over the useful draws of the best next hand's useful tiles) instead of typical."""
    if useful_first <= 0 or draws <= 0:
        return 0.0
    U = max(unseen, 1)
    k = shanten_ + 1
    T = U / (useful_first * (1.0 + CLAIM_RATE))
    for j in range(shanten_ - 1, -1, -1):
        n = useful_next if j == shanten_ - 1 else TYPICAL_USEFUL[min(j, 4)]
        n = max(n, 0.5)
        T += U / (n * ((1.0 + RON_RATE) if j == 0 else (1.0 + CLAIM_RATE)))
    return poisson_tail(HAND_LENGTH * draws * k / T, k)


def poisson_tail(lam: float, k: int) -> float:
    """P(N >= k) for N ~ Poisson(lam)."""
    if k <= 0:
        return 1.0
    if lam <= 0.0:
        return 0.0
    term = math.exp(-lam)
    acc = term
    for i in range(1, k):
        term *= lam / i
        acc += term
    return max(0.0, 1.0 - acc)


def _typical(rules: RuleSet) -> tuple[float, float]:
    """(score change of a typical win, extra loss of a typical deal-in) in the rule set's points (its
    tuning's ``typical_win``, ``typical_deal_in``)."""
    t = tuning(rules)
    return t.typical_win, t.typical_deal_in


class StrongBot:
    """See the module doc. ``rules``: the rule set (default MCR); ``seed`` is ignored (deterministic).

    Knobs left ``None`` take the rule set's :class:`~majiang.rules.base.BotTuning`
    (:func:`~majiang.players.tuning.tuning`); what each was measured against, and the knobs measured and
    left off, are in docs/strong.md ("Per-rule-set tuning").

    ``defence``: scale of the deal-in cost (0 = never defend); ``claim_needs_progress``: a chow or pung
    must also lower the shanten; ``claim_margin``: a claim must be worth this many times passing;
    ``shanten_decay``: weight of a discard per shanten step above the lowest (0 = strict);
    ``plain_extra``: MCR, tiles a concealed hand without a pattern is taken to need beyond ready to
    reach 8 fan with small fans; ``patterns``: hands not ready valued by the patterns that pay more
    (the tuning's ``pattern_values``, :func:`~majiang.players.valuation.typical_win`); ``menqing``: a
    hand without claimed melds valued with 門清/不求; ``hold_horizon`` h > 0: let a discard win go when a
    self-draw within h × the own draws left pays more on average (:meth:`hold_value`); ``ron_rate``:
    discard-win chances a go-around per live wait; ``value_honours`` p: where the tuning has a
    ``tai_option``, a hand not ready worth more per expected 台 of value-honour pungs (a pair counts p);
    ``dealer_danger``: there too, deal-ins involving the dealer cost D = 1 + 2N 台 more (RULES.md §3.3);
    ``two_step`` k: hands 2..k steps from ready valued with the measured useful tiles of the next step
    (:meth:`_next_useful`); ``tie_quality`` e: ties on shanten and useful tiles broken by e × that count;
    ``seat_typical``: a hand not ready valued by the seat's typical win (:func:`typical_win`);
    ``claim_rate``, ``hand_length``, ``typical_speed``: the rates of :func:`reach_probability`;
    ``learned_danger``: each discard's deal-in chance from the tuning's learned logistic model
    (:func:`~majiang.players.danger.learned_deal_in` on :func:`~majiang.players.danger.tile_features`; a
    :class:`ValueError` for a rule set without one); ``skip_value``: a chow or pung is worth this many
    points more for each opponent's turn it skips, each weighed per ``skip_mode`` (:data:`SKIP_MODES`;
    ``"dealer"``: ×1.5 when the dealer is the skipped seat or this seat, else ×0.5; ``"progress"``: × the
    skipped seat's discards and melds / 3, at most 2); ``claim_draws``: value the hand after a claim with
    the own draws it costs against passing ((4 − offset) / 4 fewer); ``fold`` (default on): discards
    that raise the shanten compete on safety, off: only discards at the lowest shanten are considered;
    ``defend_within`` k: no deal-in cost while the hand's lowest shanten is above k (99: always
    defends); ``risk_floor`` f: each tile's risk less f points, never below 0 (:meth:`_risk`);
    ``claim_weights`` (pung, chow), ``()`` for off: a hand not ready counts each unseen copy of a useful
    tile 1 for the own draw, ``pung`` more when it holds a pair of it, ``chow`` more when it holds a chow
    shape around it, in place of useful × (1 + ``claim_rate``) (:meth:`_claim_weighted`). Raises
    :class:`ValueError` for ``claim_weights`` of another length.
    """

    name = "strong"

    def __init__(self, rules: RuleSet | str | None = None, seed: int = 0, *, defence: float | None = None,
                 claim_margin: float = 1.05, shanten_decay: float | None = None,
                 plain_extra: int = 1, hold_horizon: float = 0.0, patterns: bool = False,
                 menqing: bool = False, claim_needs_progress: bool | None = None,
                 value_honours: float = 0.0, dealer_danger: bool = False, two_step: int = 0,
                 ron_rate: float | None = None, claim_rate: float = CLAIM_RATE,
                 hand_length: float = HAND_LENGTH, seat_typical: bool = False, tie_quality: float = 0.0,
                 typical_speed: float = 1.0, passed_safe: bool = False,
                 learned_danger: bool = False, skip_value: float | None = None, claim_draws: bool = False,
                 skip_mode: str = "flat", fold: bool = True, defend_within: int | None = None,
                 claim_weights: Sequence[float] | None = None, risk_floor: float | None = None) -> None:
        self.rules = resolve(rules)
        tune = self.tuning = tuning(self.rules)
        if learned_danger and not tune.danger_model:
            raise ValueError(f"no learned danger model for scorer {self.rules.scorer!r} (learned_danger); "
                             f"there is one for: {', '.join(sorted(LEARNED))}")
        self.danger_coef = tune.danger_model if learned_danger else None
        self.passed_safe = passed_safe
        if skip_mode not in SKIP_MODES:
            raise ValueError(f"skip_mode must be one of {', '.join(SKIP_MODES)}, got {skip_mode!r}")
        self.skip_value = tune.skip_value if skip_value is None else skip_value
        self.skip_mode = skip_mode
        self.claim_draws = claim_draws
        self.fold = fold
        self.defend_within = tune.defend_within if defend_within is None else defend_within
        self.risk_floor = float(tune.risk_floor if risk_floor is None else risk_floor)
        if claim_weights is None:
            claim_weights = tune.claim_weights
        if len(claim_weights) not in (0, 2):
            raise ValueError(f"claim_weights must be (pung, chow) or () for off, got {claim_weights!r}")
        self.claim_weights = (float(claim_weights[0]), float(claim_weights[1])) if claim_weights else None
        self._last_turn: tuple | None = None
        if defence is None:
            defence = tune.defence
        if claim_needs_progress is None:
            claim_needs_progress = tune.claim_needs_progress
        self.hold_horizon = hold_horizon
        self.defence = defence
        self.claim_margin = claim_margin
        self.plain_extra = plain_extra
        self.shanten_decay = shanten_decay if shanten_decay is not None else 0.0
        shapes = self.rules.shape_rules
        self.shapes: ShapeRules = dataclasses.replace(shapes, honors_and_knitted=False, knitted_straight=False)
        self.valuer = WinValuer(self.rules)
        self.mcr = tune.fan_plans  # hands valued by their path to a pattern reaching the minimum (MCR)
        self.win_typical, self.deal_in_cost = tune.typical_win, tune.typical_deal_in
        self.deal_in_cost *= defence
        table = tune.pattern_values
        # typical wins from the settlement, plus the patterns that pay more unless ``patterns=False``
        self.pattern_table = None if (table is None or self.mcr or not (patterns or menqing)) else (
            table if patterns else {})
        self.menqing = menqing
        self.ron_rate = (tune.ron_rate if tune.ron_rate is not None else RON_RATE) if ron_rate is None else ron_rate
        self.claim_rate = claim_rate
        self.length_scale = hand_length / HAND_LENGTH
        self.seat_typical = seat_typical
        self.tie_quality = tie_quality
        self.typical_speed = typical_speed
        self.two_step = two_step if not self.mcr else 0
        self._step_memo: dict[tuple, float] = {}
        self.value_honours = value_honours if tune.tai_option else 0.0
        self.dealer_danger = dealer_danger and bool(tune.tai_option)
        if tune.tai_option:
            per = float(self.rules.rule_option(tune.tai_option))
            self.tai_points = (1 - SELF_DRAW_SHARE) * per + SELF_DRAW_SHARE * 3 * per
            self.per_tai = per
        self.claim_needs_progress = claim_needs_progress
        self.sets = (self.rules.hand_size - 1) // 3
        self._typical_memo: dict[tuple, float] = {}
        self._memo: dict[tuple[tuple[int, ...], int], int] = {}
        self._useful_memo: dict[tuple[tuple[int, ...], int | None], list[int]] = {}

    # ------------------------------------------------------------------ shanten
    def _split(self, counts: Sequence[int], view: PlayerView) -> tuple[list[int], int]:
        return split_counts(list(counts), view.wild_face, self.rules.white_stand_in)

    def _shanten(self, counts: Sequence[int], view: PlayerView) -> int:
        c, w = self._split(counts, view)
        return memo_shanten(self._memo, c, w, self.shapes)

    def _draw_candidates(self, counts: Sequence[int], view: PlayerView) -> list[int]:
        """Tiles whose draw could lower the shanten: with only the standard shape and seven pairs, a
        tile held or within two faces of a held tile of its suit (an isolated new tile forms no
        block); 十三幺 adds terminals and honours; 不搭 (Wenzhou) and wildcards make every tile count."""
        sh = self.shapes
        if sh.unconnected or view.wild_face is not None or sh.honors_and_knitted or sh.knitted_straight:
            return list(range(NUM_KINDS))
        out = []
        for t in range(NUM_KINDS):
            if counts[t]:
                out.append(t)
            elif t < 27:
                r = t % 9
                b = t - r
                if any(counts[b + x] for x in range(max(0, r - 2), min(8, r + 2) + 1)):
                    out.append(t)
            elif sh.thirteen_orphans:
                out.append(t)
            if sh.thirteen_orphans and t < 27 and t % 9 in (0, 8) and (not out or out[-1] != t):
                out.append(t)
        return out

    def _useful(self, counts: list[int], view: PlayerView, unseen: Sequence[int], s: int) -> int:
        """Unseen copies of the tiles whose draw lowers the shanten ``s`` of ``counts``."""
        return sum(unseen[t] for t in self._useful_tiles(counts, view, s))

    def _useful_tiles(self, counts: list[int], view: PlayerView, s: int) -> list[int]:
        """The tiles whose draw lowers the shanten ``s`` of ``counts`` (memoised by hand)."""
        key = (tuple(counts), view.wild_face)
        tiles = self._useful_memo.get(key)
        if tiles is None:
            tiles = []
            for t in self._draw_candidates(counts, view):
                if counts[t] >= 4:
                    continue
                counts[t] += 1
                if self._shanten(counts, view) < s:
                    tiles.append(t)
                counts[t] -= 1
            if len(self._useful_memo) > 100_000:
                self._useful_memo.clear()
            self._useful_memo[key] = tiles
        return tiles

    # ------------------------------------------------------------------ valuation
    def hand_value(self, view: PlayerView, counts: list[int], melds: Sequence[Meld], unseen: Sequence[int],
                   unseen_total: int, draw_shift: float = 0.0) -> tuple[float, int, int]:
        """``(expected score change, shanten, useful tiles)`` of holding the physical 3k+1 ``counts``
        with ``melds`` from here to the end of the hand (see the module doc); ``draw_shift``: own
        draws fewer than the wall gives (``claim_draws``)."""
        s = self._shanten(counts, view)
        draws = max(max(view.wall_live, 0) / 4.0 - draw_shift, 0.0) * self.length_scale
        U = max(unseen_total, 1)
        if s == 0:
            wv = self.valuer.wait_values(view, counts, [4 - unseen[t] - counts[t] for t in range(NUM_KINDS)],
                                         melds)
            rate = 0.0
            gain = 0.0
            useful = 0
            for w in wv:
                p = self.valuer.physical(view, w.tile)
                live = unseen[p] if p is not None else 0
                useful += live
                if w.value_self is not None:
                    rate += live
                    gain += live * w.gain_self
                if w.value_discard is not None:
                    rate += self.ron_rate * live
                    gain += self.ron_rate * live * w.gain_discard
            if view.wild_face is not None:  # a drawn wildcard completes every ready hand
                wl = unseen[view.wild_face]
                if wv and wl:
                    best = max((w.gain_self for w in wv if w.value_self is not None), default=0.0)
                    rate += wl
                    gain += wl * best
            exact = 0.0
            if rate > 0.0:
                q = min(rate / U, 0.95)
                p_win = 1.0 - (1.0 - q) ** max(HAND_LENGTH * draws, 0.0)
                exact = p_win * gain / rate
            if self.mcr:  # a ready hand under 8 fan may still be rebuilt into a scoring one
                rv, rd = self._plans_value(view, counts, melds, 0, 0, draws, U, rebuild=True)
                if rv > exact:
                    return rv, rd, useful
            return exact, s, useful
        u = self._useful(counts, view, unseen, s)
        if self.mcr:
            pv, pd = self._plans_value(view, counts, melds, s, u, draws, U)
            return pv, pd, u
        if self.pattern_table is not None:
            return self._pattern_value(view, counts, melds, s, u, draws, U), s, u
        win = self._typical(view, True, None) if self.seat_typical else self.win_typical
        if 2 <= s <= self.two_step and u:
            nxt = self._next_useful(view, counts, s, unseen)
            return reach_two(draws, U, s, u, nxt) * win, s, u
        if self.value_honours:
            win += self.tai_points * self._honour_tai(view, counts, melds)
        first: float = u
        if self.claim_weights is not None and u:
            first = self._claim_weighted(view, counts, unseen) / (1.0 + self.claim_rate)
        return reach_probability(draws, U, s, first, self.typical_speed, self.ron_rate, self.claim_rate) * win, s, u

    def _claim_weighted(self, view: PlayerView, counts: list[int], unseen: Sequence[int]) -> float:
        """Useful tiles weighed by how they can come (``claim_weights`` (pung, chow)): each unseen copy
        of a useful tile counts 1 for the own draw, ``pung`` more when the hand holds a pair of it (any
        opponent's discard can be punged) and ``chow`` more when it holds a chow shape around it (the
        left player's discards)."""
        wp, wc = self.claim_weights
        total = 0.0
        for t in self._useful_tiles(counts, view, self._shanten(counts, view)):
            n = unseen[t]
            if n <= 0:
                continue
            w = 1.0
            if counts[t] >= 2:
                w += wp
            if t < 27:
                r = t % 9
                if ((r >= 2 and counts[t - 1] and counts[t - 2]) or (1 <= r <= 7 and counts[t - 1] and counts[t + 1])
                        or (r <= 6 and counts[t + 1] and counts[t + 2])):
                    w += wc
            total += n * w
        return total

    def _next_useful(self, view: PlayerView, counts: list[int], s: int, unseen: Sequence[int]) -> float:
        """Mean useful tiles of the hand one step nearer (``s - 1``): over the useful draws (weighted by
        their unseen copies), the discard that keeps the most useful tiles."""
        key = (tuple(counts), tuple(unseen), view.wild_face)
        v = self._step_memo.get(key)
        if v is not None:
            return v
        tot = 0
        acc = 0.0
        for t in self._draw_candidates(counts, view):
            n = unseen[t]
            if n <= 0 or counts[t] >= 4:
                continue
            counts[t] += 1
            if self._shanten(counts, view) < s:
                best = 0
                for d in range(NUM_KINDS):
                    if counts[d] and d != t and d != view.wild_face:
                        counts[d] -= 1
                        if self._shanten(counts, view) == s - 1:
                            uu = self._useful(counts, view, unseen, s - 1)
                            if uu > best:
                                best = uu
                        counts[d] += 1
                tot += n
                acc += n * best
            counts[t] -= 1
        v = acc / tot if tot else 0.0
        if len(self._step_memo) > 50_000:
            self._step_memo.clear()
        self._step_memo[key] = v
        return v

    def _honour_tai(self, view: PlayerView, counts: Sequence[int], melds: Sequence[Meld]) -> float:
        """Taiwan: expected 台 from value honours (RULES.md §3.2: a pung or kong of a dragon, of the
        seat wind, of the prevalent wind, 1 台 each, the same wind both counting 2): a pung held or
        declared counts 1, a pair ``value_honours`` (its chance to become a pung)."""
        tai = 0.0
        melded = {m.tile for m in melds if m.kind is not MeldKind.CHOW}
        for h in (*DRAGONS, view.seat_wind, view.prevalent_wind):
            if h in melded or counts[h] >= 3:
                tai += 1.0
            elif counts[h] == 2:
                tai += self.value_honours
        return tai

    def _typical(self, view: PlayerView, concealed: bool, pattern: str | None) -> float:
        key = (view.seat == view.dealer, concealed, pattern, view.dealer_streak)
        v = self._typical_memo.get(key)
        if v is None:
            v = self._typical_memo[key] = typical_win(self.rules, key[0], concealed, pattern, view.dealer_streak)
        return v

    def _pattern_value(self, view: PlayerView, counts: list[int], melds: Sequence[Meld], s: int, u: int,
                       draws: float, U: int) -> float:
        """Taiwan / Wenzhou W13, a hand not ready: the best chance × typical win over the plain hand
        (shanten ``s``) and the patterns that pay more (the rule set's ``pattern_values``,
        :class:`~majiang.rules.base.BotTuning`; distances from :func:`mcr_plans`, wildcards filling pairs and
        pungs). The typical win (:func:`typical_win`) counts 門清 while no meld is claimed."""
        assert self.pattern_table is not None
        concealed = not self.menqing or all(m.kind is MeldKind.CONCEALED_KONG for m in melds)
        best = reach_probability(draws, U, s, u, 1.0) * self._typical(view, concealed, None)
        nat, wilds = self._split(counts, view)
        for name, d, _ in mcr_plans(nat, melds, s, self.sets):
            if name not in self.pattern_table:
                continue
            if wilds and name in ("seven-pairs", "all-pungs"):
                d = max(s, d - wilds)
            if d > s + 3:
                continue
            f = PLAN_SPEED.get(name, 1.0)
            first = u if (d == s and u) else TYPICAL_USEFUL[min(d, 4)] * f
            v = reach_probability(draws, U, d, first, f) * self._typical(view, concealed, name)
            if v > best:
                best = v
        return best

    def _plans_value(self, view: PlayerView, counts: list[int], melds: Sequence[Meld], s: int, u: int,
                     draws: float, U: int, rebuild: bool = False) -> tuple[float, int]:
        """MCR: the best chance × value over the patterns still open (:func:`mcr_plans`), and that
        pattern's distance in tiles."""
        nat, _ = self._split(counts, view)
        best = 0.0
        best_d = s + 2
        plans = mcr_plans(nat, melds, s)
        if all(m.kind is MeldKind.CONCEALED_KONG for m in melds):  # 门前清/不求人 + small fans, rarely 8
            plans.append(("plain", s + self.plain_extra, 8))
        for name, d, fan in plans:
            if d > s + 3:
                continue
            eff_fan = fan if fan >= 8 else 8
            dist = d + (1 if fan < 8 else 0)
            if rebuild:
                dist = max(dist, 1)
            f = PLAN_SPEED.get(name, 1.0)
            first = u if (dist == s and u) else TYPICAL_USEFUL[min(dist, 4)] * f
            v = reach_probability(draws, U, dist, first, f) * (24.0 + 1.6 * eff_fan)
            if v > best:
                best, best_d = v, dist
        return best, best_d

    def passed_tiles(self, view: PlayerView) -> list[frozenset[int]]:
        """Per seat, the tiles it let go since its hand last changed (its last discard): safe against
        it now, since a seat that could win on a discard declares the win (every bot here does) and
        its hand is the same until it draws or claims. Read from two turns of this seat: when, since
        this seat's last turn, every other seat discarded exactly once and nobody claimed or
        declared a kong, the discards came in turn order, so the seat after this one let the next
        two discards go and the seat across the last one. Empty sets when that cannot be read (the
        first turn, a claim, a kong, a new hand) and outside this seat's turn. It remembers each turn's
        view, so call it once a turn."""
        out = [frozenset()] * 4
        if view.phase != "turn":
            return out
        me = view.seat
        now = (view.hand_number, tuple(len(r) for r in view.rivers),
               tuple(len(m) for m in view.melds), tuple(view.hidden_kongs))
        last, self._last_turn = self._last_turn, now
        if last is None or last[0] != now[0] or last[2] != now[2] or last[3] != now[3]:
            return out
        if any(now[1][s] != last[1][s] + 1 for s in range(4)):
            return out
        right, across, left = (me + 1) % 4, (me + 2) % 4, (me + 3) % 4
        out[right] = frozenset((view.rivers[across][-1], view.rivers[left][-1]))
        out[across] = frozenset((view.rivers[left][-1],))
        return out

    def danger(self, view: PlayerView, unseen: Sequence[int]) -> list[float]:
        """Expected extra loss (rule-set points) of discarding each tile now, summed over opponents:
        deal-in chance (:mod:`majiang.players.danger`) × the rule set's deal-in cost. With
        ``passed_safe``, a tile an opponent let go since his last discard (:meth:`passed_tiles`)
        costs nothing against him."""
        out = [0.0] * NUM_KINDS
        if self.danger_coef is not None:
            held = sorted({t for t in view.hand if t < NUM_KINDS})
            for s in range(4):
                if s == view.seat:
                    continue
                p = learned_deal_in(tile_features(view, unseen, s, held), self.danger_coef)
                for t, q in zip(held, p):
                    out[t] += q * self.deal_in_cost
            return out
        passed = self.passed_tiles(view) if self.passed_safe else None
        for s in range(4):
            if s == view.seat:
                continue
            p = ready_probability(len(view.rivers[s]) + len(view.melds[s]), len(view.melds[s]))
            if p <= 0.0:
                continue
            w = wait_weights(unseen, view.rivers[s])
            cost = self.deal_in_cost
            if self.dealer_danger and view.dealer in (s, view.seat):  # D = 1 + 2N 台 more (RULES.md §3.3)
                cost *= 1.0 + (1 + 2 * view.dealer_streak) * self.per_tai / _typical(self.rules)[1]
            safe = passed[s] if passed is not None else ()
            for t in range(NUM_KINDS):
                if t not in safe:
                    out[t] += min(0.6, p * w[t] * SCALE) * cost
        return out

    def _risk(self, view: PlayerView, unseen: Sequence[int]) -> list[float]:
        """:meth:`danger`, less ``risk_floor`` points a tile (never below 0): risks that small count as
        none, so ties on shanten and useful tiles go to honours and terminals first, as ``efficiency``."""
        risk = self.danger(view, unseen)
        if self.risk_floor:
            f = self.risk_floor
            risk = [r - f if r > f else 0.0 for r in risk]
        return risk

    def _best_discard(self, view: PlayerView, counts: list[int], melds: Sequence[Meld], allowed: Sequence[int],
                      unseen: Sequence[int], unseen_total: int, risk: Sequence[float],
                      draw_shift: float = 0.0) -> tuple[float, int]:
        best: tuple | None = None
        cands = sorted(set(allowed))
        sh = {}
        for t in cands:
            counts[t] -= 1
            sh[t] = self._shanten(counts, view)
            counts[t] += 1
        s_min = min(sh.values())
        if self.defend_within is not None and s_min > self.defend_within:
            risk = _NO_RISK  # far from ready: play for speed alone
        # only discards near the lowest shanten are valued in full (MCR: one step more, a pattern may
        # lie there); the rest keep value 0 and compete on safety alone
        slack = 1 if self.mcr else 0
        rows = []
        for t in cands:
            if sh[t] > s_min + slack:
                if self.fold:
                    rows.append((t, 0.0, sh[t] + 2, 0))
                continue
            counts[t] -= 1
            rows.append((t, *self.hand_value(view, counts, melds, unseen, unseen_total, draw_shift)))
            counts[t] += 1
        s_min = min(r[2] for r in rows)
        bonus: dict[int, float] = {}
        if self.tie_quality and s_min >= 1:
            u_max = max(r[3] for r in rows if r[2] == s_min)
            top = [r[0] for r in rows if r[2] == s_min and r[3] == u_max]
            if len(top) > 1:
                for t in top:
                    counts[t] -= 1
                    bonus[t] = self.tie_quality * self._next_useful(view, counts, s_min, unseen)
                    counts[t] += 1
        for t, v, s, u in rows:
            ev = v * self.shanten_decay ** (s - s_min) - risk[t] + bonus.get(t, 0.0)
            key = (-round(ev, 6), s, -u, 0 if (is_honor(t) or is_terminal(t)) else 1, t)
            if best is None or key < best[0]:
                best = (key, t, ev)
        assert best is not None
        return best[2], best[1]

    # ------------------------------------------------------------------ choosing
    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        """One of ``actions`` (always an offered action). Should the valuation fail on a hand it cannot
        read (a :class:`ValueError` from the analysis), the efficiency bot's choice is played instead."""
        try:
            return self._choose(view, actions)
        except ValueError:  # pragma: no cover - a guard for the web table: never crash a game
            from majiang.players.efficiency import EfficiencyBot

            return EfficiencyBot(self.rules).choose(view, actions)

    def _choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        counts = [0] * NUM_KINDS
        for t in view.hand:
            if t < NUM_KINDS:
                counts[t] += 1
        unseen = [max(0, u) for u in self._unseen(view, counts)]
        U = sum(unseen)
        for a in actions:
            if a.kind is ActionKind.WIN:
                if (self.hold_horizon > 0 and view.phase == "claim" and view.discarder is not None
                        and a.tile is not None and PASS in actions
                        and self._hold_for_self_draw(view, counts, unseen, U, a.tile)):
                    return PASS
                return a
        melds = tuple(view.melds[view.seat])
        if view.phase == "turn":
            return self._turn(view, actions, counts, melds, unseen, U)
        if view.phase == "claim":
            return self._claim(view, actions, counts, melds, unseen, U)
        return PASS if PASS in actions else actions[0]

    @staticmethod
    def _unseen(view: PlayerView, counts: Sequence[int]) -> list[int]:
        vis = view.visible_counts()
        return [4 - counts[t] - vis[t] for t in range(NUM_KINDS)]

    def _turn(self, view: PlayerView, actions: Sequence[Action], counts: list[int], melds: tuple[Meld, ...],
              unseen: list[int], U: int) -> Action:
        discards = {a.tile: a for a in actions if a.kind is ActionKind.DISCARD and a.tile is not None}
        if not discards:
            readies = [a for a in actions if a.kind is ActionKind.READY]
            return readies[0] if readies else actions[0]
        allowed = list(discards)
        if view.wild_face is not None:  # keep wildcards where the table lets them go
            keep = [t for t in allowed if t != view.wild_face]
            allowed = keep or allowed
        risk = self._risk(view, unseen)
        ev, tile = self._best_discard(view, counts, melds, allowed, unseen, U, risk)
        for a in actions:
            if a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG) and a.tile is not None:
                c = list(counts)
                c[a.tile] -= 4 if a.kind is ActionKind.CONCEALED_KONG else 1
                if c[a.tile] < 0:
                    continue
                if self._shanten(c, view) <= self._best_s(view, counts, allowed):
                    return a
        return discards[tile]

    def hold_value(self, view: PlayerView, counts: list[int], unseen: Sequence[int], U: int) -> float:
        """Expected score change of waiting for a self-draw with the ready 3k+1 ``counts``: the chance
        to draw one of the live waits (or a wildcard) within ``hold_horizon`` × the own draws left,
        times the mean self-drawn win of those draws."""
        melds = tuple(view.melds[view.seat])
        wv = self.valuer.wait_values(view, counts, [4 - unseen[t] - counts[t] for t in range(NUM_KINDS)], melds)
        live = 0
        gain = 0.0
        for w in wv:
            p = self.valuer.physical(view, w.tile)
            n = unseen[p] if p is not None else 0
            if w.value_self is not None and n:
                live += n
                gain += n * w.gain_self
        if view.wild_face is not None and wv and unseen[view.wild_face]:
            n = unseen[view.wild_face]
            live += n
            gain += n * max((w.gain_self for w in wv if w.value_self is not None), default=0.0)
        if live == 0:
            return 0.0
        draws = self.hold_horizon * max(view.wall_live, 0) / 4.0
        p = 1.0 - (1.0 - min(live / max(U, 1), 0.95)) ** draws
        return p * gain / live

    def _hold_for_self_draw(self, view: PlayerView, counts: list[int], unseen: Sequence[int], U: int,
                            tile: int) -> bool:
        """Whether to let a discard win go and wait for a self-draw that pays more (no furiten in
        Chinese rules: the hand may still win on a later discard)."""
        _, now = self.valuer.win(view, counts, tile, self_drawn=False, discarder=view.discarder)
        if now <= 0.0:
            return False
        return self.hold_value(view, counts, unseen, U) > now

    def _shanten_after(self, counts: list[int], view: PlayerView, t: int) -> int:
        counts[t] -= 1
        s = self._shanten(counts, view)
        counts[t] += 1
        return s

    def _best_s(self, view: PlayerView, counts: list[int], allowed: Sequence[int]) -> int:
        best = 99
        for t in set(allowed):
            counts[t] -= 1
            best = min(best, self._shanten(counts, view))
            counts[t] += 1
        return best

    def _claim(self, view: PlayerView, actions: Sequence[Action], counts: list[int], melds: tuple[Meld, ...],
               unseen: list[int], U: int) -> Action:
        claims = [a for a in actions if a.tile is not None and a.kind in
                  (ActionKind.CHOW, ActionKind.PUNG, ActionKind.EXPOSED_KONG)]
        if not claims:
            return PASS if PASS in actions else actions[0]
        pass_value, s_now, _ = self.hand_value(view, counts, melds, unseen, U)
        risk = self._risk(view, unseen)
        # passing: the next discard will also carry some risk; approximate it by the safest tile held
        held = [t for t in range(NUM_KINDS) if counts[t] and t != view.wild_face]
        pass_value -= min((risk[t] for t in held), default=0.0)
        best_action, best_value = PASS, pass_value
        wf = view.wild_face
        white_face = wf if (self.rules.white_stand_in and wf is not None and wf != WHITE) else None
        offer = (view.seat - view.discarder) % 4 if view.discarder is not None else 1
        for a in claims:
            assert a.tile is not None
            c = list(counts)
            if a.kind is ActionKind.CHOW:
                assert a.low is not None
                used = chow_consumed(c, a.tile, a.low, white_face=white_face, wild_face=wf,
                                     wild_claimable=self.rules.wild_claimable)
                if used is None:
                    continue
                for x in used:
                    c[x] -= 1
                meld = Meld(MeldKind.CHOW, a.low, offer=1, claimed=self._face(a.tile, white_face))
            else:
                n = 3 if a.kind is ActionKind.EXPOSED_KONG else 2
                face = self._face(a.tile, white_face)
                for _ in range(n):
                    if c[a.tile] > 0:
                        c[a.tile] -= 1
                    elif white_face is not None and face == white_face and c[WHITE] > 0:
                        c[WHITE] -= 1
                    else:
                        break
                kind = MeldKind.EXPOSED_KONG if a.kind is ActionKind.EXPOSED_KONG else MeldKind.PUNG
                meld = Meld(kind, face, offer=offer, claimed=face)
            if min(c) < 0:
                continue
            new_melds = melds + (meld,)
            if a.kind is ActionKind.EXPOSED_KONG:
                v, s, _ = self.hand_value(view, c, new_melds, unseen, U)
                v -= min((risk[t] for t in range(NUM_KINDS) if c[t] and t != wf), default=0.0)
            else:
                allowed = [t for t in range(NUM_KINDS) if c[t] and t != wf] or [t for t in range(NUM_KINDS) if c[t]]
                if not allowed:
                    continue
                # claim_draws: the own draws a claim costs against passing (see the knob)
                shift = (4 - offer) / 4.0 if self.claim_draws else 0.0
                v, _ = self._best_discard(view, c, new_melds, allowed, unseen, U, risk, shift)
                if self.skip_value and offer > 1:
                    v += self.skip_value * self._skip_weight(view, offer)
            if self.claim_needs_progress and a.kind is not ActionKind.EXPOSED_KONG:
                cs = min((self._shanten_after(c, view, t) for t in range(NUM_KINDS) if c[t] and t != wf), default=99)
                value_pung = (self.value_honours and a.kind is ActionKind.PUNG
                              and a.tile in (*DRAGONS, view.seat_wind, view.prevalent_wind))
                if cs > s_now or (cs == s_now and not value_pung):
                    continue
            if v > best_value * self.claim_margin + 1e-9:
                best_action, best_value = a, v
        return best_action

    def _skip_weight(self, view: PlayerView, offer: int) -> float:
        """The opponents' turns a claim from ``offer`` seats back (1 = the seat before this one, which
        skips nobody) skips, each weighted per ``skip_mode`` (see the class doc)."""
        me = view.seat
        total = 0.0
        for k in range(1, offer):
            j = (me - k) % 4
            w = 1.0
            if "dealer" in self.skip_mode:
                w = (3.0 if view.dealer in (j, me) else 1.0) / 2.0
            if "progress" in self.skip_mode:
                w *= min(1.0, (len(view.rivers[j]) + len(view.melds[j])) / 6.0) * 2.0
            total += w
        return total

    @staticmethod
    def _face(tile: int, white_face: int | None) -> int:
        return white_face if (tile == WHITE and white_face is not None) else tile
