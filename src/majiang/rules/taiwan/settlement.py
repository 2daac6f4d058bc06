"""Settling a Taiwan 16-tile win: who pays how much (RULES.md §3.3), as a zero-sum
:class:`~majiang.rules.settlement.Ledger`.

Per payment, from each paying player to the winner::

    amount = base + (hand_tai + D) × per_tai
    D = 莊家 + 連莊 × N = 1 + 2N   when the dealer is the winner or this payer (N = 連莊 count)
    D = 0                          otherwise

(D's terms come from the pattern table, so a table that overrides ``tw.zhuangjia`` or
``tw.lianzhuang`` changes them.) Who pays:

=================================================  =====================================
win                                                payers
=================================================  =====================================
self-draw (incl. 槓上開花, 海底撈月, 天胡, 地胡, 八仙過海)  the three others, each by the formula
discard win (incl. 河底撈魚, 人胡)                     the discarder alone
搶槓                                               the player whose kong was robbed, alone
七搶一                                             the player who drew the 8th flower, alone
=================================================  =====================================

Several winners on one discard (when the table allows it, §3.1 default: head-bump) are settled one
by one and the ledgers added (``Ledger.__add__``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from majiang.rules.settlement import Ledger, Payment, SettlementError
from majiang.rules.taiwan.scoring import TaiwanResult, TaiwanScoringError

__all__ = ["MULTI_WIN_MODES", "Stakes", "discard_winners", "payment_amount", "settle"]

MULTI_WIN_MODES = ("head-bump", "all")
"""Several players claiming a win on one discard (RULES.md §3.1): ``head-bump`` (截胡, default: only the
first in turn order after the discarder) or ``all`` (everyone wins, each settled separately)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The table's stakes (RULES.md §3.3): ``base`` (底) and ``per_tai`` (per 台), in points.

    Defaults 30 / 10 as in the worked examples (P5); other tables use 100 / 20 (C10) or 5 / 1 (C1).

    Raises:
        SettlementError: a negative base or per-tai.
    """

    base: int = 30
    per_tai: int = 10

    def __post_init__(self) -> None:
        for name in ("base", "per_tai"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise SettlementError(f"stakes: {name} must be an int >= 0, got {v!r}")


def payment_amount(result: TaiwanResult, payer: int, stakes: Stakes = Stakes()) -> int:
    """What ``payer`` pays the winner of ``result``: base + (tai + D) × per_tai (RULES.md §3.3)."""
    win = result.win
    dealer_involved = win.dealer in (win.seat, payer)
    d = result.options.dealer_tai(win.streak) if dealer_involved else 0
    return stakes.base + (result.total_tai + d) * stakes.per_tai


def settle(result: TaiwanResult, stakes: Stakes = Stakes()) -> Ledger:
    """The payments of one win (RULES.md §3.3) as a zero-sum :class:`Ledger`.

    Args:
        result: the score from :func:`~majiang.rules.taiwan.scoring.score` (carries the win
            conditions: winner, dealer, streak, discarder / flower drawer, and the options).
        stakes: base and per-tai.

    Returns:
        A ledger with one :class:`Payment` per payer (seats 0-3); ``ledger.deltas`` sums to zero.

    Raises:
        TaiwanScoringError: the hand is below ``options.minimum_tai`` (not a valid win).
    """
    if not result.meets_minimum:
        raise TaiwanScoringError(f"{result.tai_for_minimum} 台 is below the minimum of {result.minimum_tai} "
                                 "(宝牌 not counted): not a valid win")
    win = result.win
    kind = _kind(result)
    payments = []
    for payer in win.payers():
        amount = payment_amount(result, payer, stakes)
        dealer = " +莊" if win.dealer in (win.seat, payer) else ""
        payments.append(Payment(payer, win.seat, amount, f"tw {kind} {result.total_tai}台{dealer}"))
    return Ledger.of(payments)


def _kind(result: TaiwanResult) -> str:
    win = result.win
    if result.flower_win == "tw.qiqiang_yi":
        return "七搶一"
    if result.flower_win == "tw.baxian_guohai":
        return "八仙過海"
    if win.self_drawn:
        return "自摸"
    if win.robbing_kong:
        return "搶槓"
    return "放槍"


def discard_winners(discarder: int, claimants: Iterable[int], mode: str = "head-bump") -> tuple[int, ...]:
    """Who wins when ``claimants`` all declare a win on ``discarder``'s tile (RULES.md §3.1).

    Seats are 0-3; play order is seat + 1 (the engine's turn order). Returns the winners in turn
    order after the discarder: the first only for ``head-bump`` (default), all for ``all``; ``()`` when
    nobody claims.

    Raises:
        SettlementError: a bad seat, the discarder among the claimants, a seat listed twice, or an
            unknown mode.
    """
    if mode not in MULTI_WIN_MODES:
        raise SettlementError(f"unknown multi-win mode {mode!r}; one of {MULTI_WIN_MODES}")
    seats = list(claimants)
    for x in [discarder, *seats]:
        if not isinstance(x, int) or not 0 <= x <= 3:
            raise SettlementError(f"seat {x!r} is not 0-3")
    if discarder in seats or len(set(seats)) != len(seats):
        raise SettlementError(f"bad claimants {seats} for discarder {discarder}")
    ordered = tuple(sorted(seats, key=lambda x: (x - discarder) % 4))
    return ordered[:1] if mode == "head-bump" else ordered
