"""Settlement shared by every rule set: a zero-sum ledger of payments between seats.

A :class:`Ledger` is built from :class:`Payment` values (payer, payee, amount, reason); its
:attr:`Ledger.deltas` are the net change per seat and always sum to zero. Rule sets compute
payments (MCR RULES.md §9.6, Taiwan §3.3, Wenzhou §4.6) and return a ledger, so the engine, the
records and the web table read every rule set's money the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from majiang.errors import MajiangError


class SettlementError(MajiangError):
    """A payment that cannot be made (bad seat, negative amount, paying oneself)."""


@dataclass(frozen=True, slots=True)
class Payment:
    """``amount`` points from seat ``payer`` to seat ``payee`` (seats 0-3), for ``reason``."""

    payer: int
    payee: int
    amount: int
    reason: str = ""

    def __post_init__(self) -> None:
        for s in (self.payer, self.payee):
            if not 0 <= s <= 3:
                raise SettlementError(f"seat {s} is not 0-3")
        if self.payer == self.payee:
            raise SettlementError(f"seat {self.payer} cannot pay itself")
        if self.amount < 0:
            raise SettlementError(f"a payment is not negative: {self.amount}")


@dataclass(frozen=True, slots=True)
class Ledger:
    """The payments of one hand; ``deltas`` is the net per seat (zero-sum by construction)."""

    payments: tuple[Payment, ...] = ()
    players: int = 4

    @classmethod
    def of(cls, payments: Iterable[Payment], players: int = 4) -> Ledger:
        return cls(tuple(payments), players)

    @property
    def deltas(self) -> list[int]:
        d = [0] * self.players
        for p in self.payments:
            d[p.payer] -= p.amount
            d[p.payee] += p.amount
        return d

    def __add__(self, other: Ledger) -> Ledger:
        return Ledger(self.payments + other.payments, self.players)
