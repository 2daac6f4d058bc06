"""Actions a seat can take, the phases of a hand, and the illegal-action error.

An :class:`Action` is a small value: what kind, on which tile. The table offers each seat exactly its
legal actions (:meth:`majiang.engine.table.HandTable.legal_actions`); applying anything else raises
:class:`IllegalActionError` and leaves the table unchanged.

Kinds (field terms; the Chinese term in brackets):

* ``DISCARD`` (打牌) -- ``tile`` = the tile discarded.
* ``WIN`` (和/胡) -- self-drawn (自摸) in a seat's own turn, on a discard (点和) in the claim window,
  or robbing an added kong (抢杠) in the robbing window; ``tile`` = the winning tile.
* ``CHOW`` (吃) -- ``tile`` = the claimed discard, ``low`` = the chow's lowest tile; only from the
  player on the left (上家).
* ``PUNG`` (碰), ``EXPOSED_KONG`` (明杠 from a discard) -- ``tile`` = the claimed discard.
* ``CONCEALED_KONG`` (暗杠), ``ADDED_KONG`` (加杠/补杠) -- ``tile`` = the kong's face.
* ``READY`` (报听/報聽) -- declare ready and discard ``tile`` in one step (only with
  ``RuleSet.declare_ready``; offered for each discard that leaves the hand ready). The hand is then
  frozen: on each later turn only a self-drawn win or the discard of the drawn tile; in claim windows
  only a win (no chow, pung or kong).
* ``PASS`` (过) -- decline every claim.
* ``DECIDE`` -- answer a rule set's pre-play decision (:class:`~majiang.rules.base.Decision`):
  ``tile`` = the index of the value chosen among the decision's ``values`` (Sichuan 定缺: 0, 1, 2 for
  m, p, s); only in :attr:`Phase.DECIDE`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from majiang.errors import MajiangError
from majiang.tiles import WHITE, format_compact


class IllegalActionError(MajiangError):
    """An action that is not among the seat's legal actions, or a seat that is not to act.

    Attributes:
        seat: the seat that tried to act.
        action: the action tried (or ``None``).
    """

    def __init__(self, message: str, *, seat: int | None = None, action: object = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action


class XiangGongError(IllegalActionError):
    """A win declared by a seat whose tile count is wrong -- 小相公 (one short) or 大相公 (one too
    many), RULES.md §2.4, seed 000: such a player may not win.

    Attributes (besides ``seat`` and ``action``):
        state: ``"short"`` (小相公) or ``"long"`` (大相公). name_zh: 小相公 / 大相公.
    """

    def __init__(self, message: str, *, seat: int | None = None, action: object = None, state: str = "",
                 name_zh: str = "") -> None:
        super().__init__(message, seat=seat, action=action)
        self.state = state
        self.name_zh = name_zh


class Phase(Enum):
    """Where a hand stands.

    * ``TURN`` -- one seat holds 3n+2 tiles and must discard, declare a kong or win.
    * ``CLAIM`` -- a discard is on the table; every other seat that could claim it answers.
    * ``ROB`` -- an added kong was declared; every seat that could win on its tile answers.
    * ``END`` -- the hand is over (a win or an exhaustive draw).
    * ``DECIDE`` -- after the deal, the seats answer a rule set's pre-play decision (Sichuan 定缺;
      :class:`~majiang.rules.base.Decision`, issue 30).
    """

    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    END = "end"
    DECIDE = "decide"


class ActionKind(Enum):
    """The kinds of action (see the module doc)."""

    WIN = "win"
    EXPOSED_KONG = "exposed-kong"
    PUNG = "pung"
    CHOW = "chow"
    CONCEALED_KONG = "concealed-kong"
    ADDED_KONG = "added-kong"
    DISCARD = "discard"
    READY = "ready"
    PASS = "pass"
    DECIDE = "decide"


_ORDER = {k: i for i, k in enumerate(ActionKind)}

CLAIM_PRIORITY = {ActionKind.WIN: 0, ActionKind.EXPOSED_KONG: 1, ActionKind.PUNG: 1, ActionKind.CHOW: 2}
"""Claim priority (RULES.md §1.4): win > kong = pung > chow; lower is stronger. Ties go by turn order
from the discarder."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action (see the module doc for ``tile`` and ``low`` per kind)."""

    kind: ActionKind
    tile: int | None = None
    low: int | None = None

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """A total order for listing actions deterministically (wins first, pass last)."""
        return (_ORDER[self.kind], -1 if self.tile is None else self.tile, -1 if self.low is None else self.low)

    def __str__(self) -> str:
        if self.kind is ActionKind.DECIDE:
            return f"decide #{self.tile}"
        if self.kind is ActionKind.CHOW and self.low is not None:
            return f"chow {format_compact([self.low, self.low + 1, self.low + 2])} on {format_compact([self.tile])}"
        if self.tile is None:
            return self.kind.value
        return f"{self.kind.value} {format_compact([self.tile])}"

    # convenience constructors
    @staticmethod
    def discard(tile: int) -> Action:
        return Action(ActionKind.DISCARD, tile)

    @staticmethod
    def win(tile: int | None = None) -> Action:
        return Action(ActionKind.WIN, tile)

    @staticmethod
    def pass_() -> Action:
        return Action(ActionKind.PASS)


PASS = Action(ActionKind.PASS)


def chow_consumed(counts: Sequence[int], tile: int, low: int, *, white_face: int | None,
                  wild_face: int | None = None, wild_claimable: bool = True) -> tuple[int, ...] | None:
    """The physical tiles a chow ``low``..``low+2`` on the discard ``tile`` takes from a hand with
    ``counts`` (34 physical counts), or ``None`` if the hand cannot make it.

    ``white_face``: the face a White plays (白板代, RULES.md §2.1, §4.2; ``None`` when no White stands
    in). A discarded White plays that face; in the hand, a White supplies that face before a
    wildcard of it does, and a wildcard (``wild_face``) is used as itself only if ``wild_claimable``.
    The same rule the table uses (:meth:`~majiang.engine.table.HandTable.legal_actions`), for
    players that weigh a chow from their own counts.
    """
    played = white_face if (tile == WHITE and white_face is not None) else tile
    out = []
    for x in (low, low + 1, low + 2):
        if x == played:
            continue
        if x == white_face and counts[WHITE]:
            out.append(WHITE)
        elif counts[x] and (wild_claimable or x != wild_face):
            out.append(x)
        else:
            return None
    return tuple(out) if len(out) == 2 else None
