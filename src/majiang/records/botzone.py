"""Botzone game logs (Chinese Official mahjong): parse rounds and rebuild each winner's hand.

Format: ``shared/data/botzone/FORMAT-en.txt`` (a copy ships in ``majiang/data/botzone/``). One round:
``Match <id>``, ``Wind <0-3>``, four ``Player <N> Deal ...`` lines, then actions
``Player <N> Draw|Play|Chi|Peng|Gang|AnGang|BuGang|Hu <tile>`` (a line may go on with
``Ignore Player ...`` claims that lost), and at the end ``Fan <total> <name*count+...>`` and
``Score s0 s1 s2 s3``, or ``Huang`` for a drawn hand.

Our local judge (:mod:`majiang.protocols.judge`) adds one line per fault it charged, where it
happened: ``Player <N> Fault <kind> <request number> <answer>`` (``kind``: ``timeout``, ``crash``,
``illegal``, ``wrong-win``, ``garbage``; the answer ``-`` when there was none). Each costs the seat
30 and gives the others 10 each, on top of the win (``Score`` includes them; :func:`fault_deltas`).

Known traps (``shared/data/README.md``), followed here:

* winds: prevalent wind = the ``Wind`` value, seat wind = the player index (0 East .. 3 North);
* on a self-drawn win the tile written after ``Hu`` is not the drawn tile: the winning tile is the
  one of the player's preceding ``Draw``;
* fan names are the older ones (单钓将, 嵌张, 边张).

Relative seats: player N+1 plays after player N, so the player on N's left (上家, who feeds N's
chows) is N-1; a meld's ``offer`` is ``(owner - discarder) mod 4`` (1 left, 2 opposite, 3 right).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from majiang.errors import MajiangError
from majiang.hand import Hand, Meld, MeldKind
from majiang.tiles import botzone_tile


class BotzoneLogError(MajiangError):
    """A Botzone log line that cannot be read or replayed; names the line number."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action line: ``Player <seat> <verb> <tile>`` (lost claims in ``ignored``)."""

    seat: int
    verb: str
    tile: int
    line: int
    ignored: tuple[tuple[int, str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class LogFault:
    """A ``Player <seat> Fault <kind> <request> <answer>`` line: ``after`` = the number of actions
    logged before it (its place among :attr:`Round.actions`)."""

    seat: int
    kind: str
    request: int
    answer: str
    line: int
    after: int


FAULT_PENALTY = 30
FAULT_BONUS = 10


def fault_deltas(seat: int) -> list[int]:
    """One fault's charge: ``-30`` to ``seat``, ``+10`` to each other seat (the local judge's rule)."""
    return [-FAULT_PENALTY if s == seat else FAULT_BONUS for s in range(4)]


@dataclass
class Round:
    """One round of a Botzone log.

    Attributes:
        match: the match id; wind: prevalent wind 0-3; deals: the four 13-tile deals;
        actions: every action in order; fan_total / fans / scores: the recorded result of a win
        (``fans`` as (name, count)); ``None``/empty for a drawn hand (``Huang``).
    """

    match: str
    wind: int
    deals: list[list[int]]
    actions: list[Action] = field(default_factory=list)
    fan_total: int | None = None
    fans: list[tuple[str, int]] = field(default_factory=list)
    scores: list[int] | None = None
    drawn: bool = False
    line: int = 0
    faults: list[LogFault] = field(default_factory=list)

    def fault_scores(self) -> list[int]:
        """The sum of the charges of this round's faults, per seat."""
        out = [0, 0, 0, 0]
        for f in self.faults:
            for s, d in enumerate(fault_deltas(f.seat)):
                out[s] += d
        return out


def parse_log(text: str) -> list[Round]:
    """Parse a whole Botzone log text into rounds. Raises :class:`BotzoneLogError` with the line number."""
    rounds: list[Round] = []
    cur: Round | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        parts = line.split()
        try:
            head = parts[0]
            if head == "Match":
                cur = Round(match=parts[1], wind=-1, deals=[[], [], [], []], line=no)
                rounds.append(cur)
            elif cur is None:
                raise BotzoneLogError(f"line {no}: {head!r} before any 'Match' line")
            elif head == "Wind":
                cur.wind = int(parts[1])
                if not 0 <= cur.wind <= 3:
                    raise BotzoneLogError(f"line {no}: wind {cur.wind} is not 0-3")
            elif head == "Player" and len(parts) >= 4 and parts[2] == "Deal":
                seat = int(parts[1])
                cur.deals[seat] = [botzone_tile(t, i) for i, t in enumerate(parts[3:])]
            elif head == "Player" and len(parts) >= 5 and parts[2] == "Fault":
                seat = int(parts[1])
                if not 0 <= seat <= 3:
                    raise BotzoneLogError(f"line {no}: seat {seat} is not 0-3")
                ans = " ".join(parts[5:])
                cur.faults.append(LogFault(seat, parts[3], int(parts[4]), "" if ans == "-" else ans, no,
                                           len(cur.actions)))
            elif head == "Player":
                seat = int(parts[1])
                verb = parts[2]
                tile = botzone_tile(parts[3], 3)
                ignored = []
                rest = parts[4:]
                while rest:
                    if rest[0] != "Ignore" or len(rest) < 5:
                        raise BotzoneLogError(f"line {no}: cannot read {' '.join(rest)!r}")
                    ignored.append((int(rest[2]), rest[3].capitalize(), botzone_tile(rest[4], 4)))
                    rest = rest[5:]
                cur.actions.append(Action(seat, verb, tile, no, tuple(ignored)))
            elif head == "Fan":
                cur.fan_total = int(parts[1])
                cur.fans = []
                for item in " ".join(parts[2:]).split("+"):
                    if item:
                        name, _, count = item.partition("*")
                        cur.fans.append((name, int(count or 1)))
            elif head == "Score":
                cur.scores = [int(x) for x in parts[1:5]]
            elif head == "Huang":
                cur.drawn = True
            else:
                raise BotzoneLogError(f"line {no}: unknown line {line[:40]!r}")
        except (IndexError, ValueError) as e:
            if isinstance(e, BotzoneLogError):
                raise
            raise BotzoneLogError(f"line {no}: cannot read {line[:60]!r}: {e}") from e
    return rounds


def read_log(path: str | Path) -> list[Round]:
    """Read and parse a Botzone log file."""
    return parse_log(Path(path).read_text(encoding="utf-8"))


def sample_path() -> Path:
    """The Botzone sample that ships with the package (16 rounds: 14 wins, 2 drawn)."""
    return Path(__file__).resolve().parent.parent / "data" / "botzone" / "sample16.txt"


@dataclass(frozen=True, slots=True)
class WinRecord:
    """The winner's hand rebuilt at ``Hu``.

    Attributes:
        seat: the winner; hand: concealed tiles (without the winning tile), melds and winning tile;
        self_drawn; robbed_kong (won on another player's added kong); discarder (None if self-drawn);
        after_kong (the winning tile was the replacement draw after the winner's own kong);
        seat_wind / prevalent_wind (0-3); last_of_kind: three other copies of the winning tile were
        in sight before the win (discards still in the river and exposed melds; a concealed kong
        shows nothing) -- MCR 和绝张, which the log does not record.
        last_wall_tile: the next draw could not have happened -- in Botzone's duplicate format each
        seat draws from its own 34-tile quarter (13 dealt + 21 draws), so a win on a draw or a
        discard after which the next seat's quarter is empty is 妙手回春 / 海底捞月 (never for a
        robbed kong).
    """

    seat: int
    hand: Hand
    self_drawn: bool
    discarder: int | None
    robbed_kong: bool
    after_kong: bool
    seat_wind: int
    prevalent_wind: int
    last_of_kind: bool = False
    last_wall_tile: bool = False


def replay_hands(rnd: Round) -> WinRecord | None:
    """Follow the actions of a round, checking each against the player's tiles, and rebuild the winner's hand.

    Returns ``None`` for a drawn round. Raises :class:`BotzoneLogError` when an action uses a tile
    the player does not hold (naming the line).
    """
    hands = [list(d) for d in rnd.deals]
    melds: list[list[Meld]] = [[], [], [], []]
    last_discard: tuple[int, int] | None = None  # (seat, tile)
    last_draw: dict[int, int] = {}
    prev: Action | None = None
    kong_draw = [False] * 4
    draws = [0, 0, 0, 0]
    seen = [0] * 34  # copies in sight: discards (a claimed one stays counted, in its meld) and exposed melds

    def take(seat: int, t: int, n: int, a: Action) -> None:
        for _ in range(n):
            if t not in hands[seat]:
                raise BotzoneLogError(f"line {a.line}: player {seat} does not hold the tile for {a.verb}")
            hands[seat].remove(t)

    for a in rnd.actions:
        s = a.seat
        if a.verb == "Draw":
            hands[s].append(a.tile)
            draws[s] += 1
            last_draw[s] = a.tile
            kong_draw[s] = prev is not None and prev.seat == s and prev.verb in ("Gang", "AnGang", "BuGang")
        elif a.verb == "Play":
            take(s, a.tile, 1, a)
            last_discard = (s, a.tile)
            seen[a.tile] += 1
        elif a.verb == "Chi":
            if last_discard is None:
                raise BotzoneLogError(f"line {a.line}: Chi with no discard to claim")
            giver, t = last_discard
            if (s - giver) % 4 != 1:
                raise BotzoneLogError(f"line {a.line}: player {s} may only chow from the player on the left")
            low = a.tile - 1
            for x in (low, low + 1, low + 2):
                if x != t:
                    take(s, x, 1, a)
            melds[s].append(Meld(MeldKind.CHOW, low, 1, t))
            for x in (low, low + 1, low + 2):
                if x != t:
                    seen[x] += 1
        elif a.verb in ("Peng", "Gang"):
            if last_discard is None or last_discard[1] != a.tile:
                raise BotzoneLogError(f"line {a.line}: {a.verb} of a tile that was not just discarded")
            giver = last_discard[0]
            take(s, a.tile, 2 if a.verb == "Peng" else 3, a)
            kind = MeldKind.PUNG if a.verb == "Peng" else MeldKind.EXPOSED_KONG
            melds[s].append(Meld(kind, a.tile, (s - giver) % 4, a.tile))
            seen[a.tile] += 2 if a.verb == "Peng" else 3
        elif a.verb == "AnGang":
            take(s, a.tile, 4, a)
            melds[s].append(Meld(MeldKind.CONCEALED_KONG, a.tile, 0))
        elif a.verb == "BuGang":
            take(s, a.tile, 1, a)
            seen[a.tile] += 1
            for i, m in enumerate(melds[s]):
                if m.kind is MeldKind.PUNG and m.tile == a.tile:
                    melds[s][i] = Meld(MeldKind.ADDED_KONG, a.tile, m.offer, a.tile)
                    break
            else:
                raise BotzoneLogError(f"line {a.line}: BuGang without a melded pung of that tile")
        elif a.verb == "Hu":
            self_drawn = prev is not None and prev.seat == s and prev.verb == "Draw"
            robbed = prev is not None and prev.verb == "BuGang" and prev.seat != s
            if self_drawn:
                win = last_draw[s]
                hands[s].remove(win)
                discarder = None
            elif robbed:
                win = prev.tile
                discarder = prev.seat
            else:
                if last_discard is None:
                    raise BotzoneLogError(f"line {a.line}: Hu with nothing to win on")
                discarder, win = last_discard
            in_sight = seen[win] - (0 if self_drawn or robbed else 1)  # not the winning discard itself
            if robbed:
                in_sight -= 1
            before_next = s if self_drawn else discarder
            last = not robbed and before_next is not None and draws[(before_next + 1) % 4] >= 21
            return WinRecord(s, Hand(tuple(hands[s]), tuple(melds[s]), win), self_drawn, discarder, robbed,
                             self_drawn and kong_draw[s], seat_wind=s, prevalent_wind=rnd.wind,
                             last_of_kind=in_sight >= 3, last_wall_tile=last)
        else:
            raise BotzoneLogError(f"line {a.line}: unknown action {a.verb!r}")
        prev = a
    return None


def iter_wins(rounds: list[Round]) -> Iterator[tuple[Round, WinRecord | None]]:
    for r in rounds:
        yield r, replay_hands(r)
