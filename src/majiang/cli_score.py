"""``majiang score``: from the command line's HAND and options to a result (issue 29).

The command finds the rule set behind the table's scorer (:func:`majiang.rules.registry.scorer_owner`)
and calls the :class:`~majiang.rules.base.ScoreCommand` it declares (majiang's own: the ``cli`` module of
each rule-set package); a rule set that declares none -- a plug-in's, or a table with a generic scorer --
is scored by :func:`score_generic` through the engine's scorer and settlement protocol. Every path gets
the same options (:data:`OPTIONS`) and returns one JSON object. The helpers below (hand parsing, the
winning tile, the engine's :class:`~majiang.engine.ruleset.WinContext`) are shared by the entry points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from majiang.errors import MajiangError
from majiang.rules.base import ScoreCommand
from majiang.rules.registry import scorer_owner
from majiang.tiles import NUM_KINDS, WILD, format_compact, parse_compact

OPTIONS = ("win_tile", "self_drawn", "seat", "dealer", "discarder", "seat_wind", "prevalent", "flowers",
           "flower_count", "flower_tiles", "wild", "white_stands_in", "streak", "kong_replacement",
           "flower_replacement", "robbing_kong", "last_tile", "last_of_kind", "first_turn", "base", "per_tai")
"""The keys of the options mapping every entry point gets (the command's options, checked and parsed:
winds 0-3, seats 0-3, ``flowers`` the text given and ``flower_count``/``flower_tiles`` read from it)."""

TRAP_MELD = re.compile(r"\[\s*(chi|chow|peng|pung|pon|kong|exposed|concealed|added)", re.IGNORECASE)
"""The trap notation's melds (``[peng 555z] 11m23p``), as opposed to PyMahjongGB's (``[555z,1]``)."""


def command_for(rs) -> ScoreCommand:
    """The entry point scoring ``rs``'s hands: the :class:`ScoreCommand` of the rule set declaring its
    scorer, else :data:`GENERIC`."""
    owner = scorer_owner(rs.scorer)
    cmd = owner.score_command if owner is not None else None
    return cmd if cmd is not None else GENERIC


def one_tile(text: str, what: str, *, allow_wild: bool = False) -> int:
    """One tile of an option (``what`` names it in the error)."""
    try:
        t = parse_compact(text, allow_wild=allow_wild)
    except MajiangError as e:
        raise MajiangError(f"{what} {text!r}: {e}") from None
    if len(t) != 1 or (t[0] >= NUM_KINDS and t[0] != WILD):
        raise MajiangError(f"{what} takes one tile (e.g. 4p), got {text!r}")
    return t[0]


def move_win_tile(hand, win: int, sets: int):
    """Make ``win`` the winning tile of ``hand``: taken from the tiles given (concealed + winning
    tile) when the hand is complete, added when it is one tile short."""
    from majiang.hand import Hand

    tiles = list(hand.concealed) + ([hand.win_tile] if hand.win_tile is not None else [])
    n = len(tiles) + hand.wilds + 3 * len(hand.melds)
    if n == 3 * sets + 2:
        if win == WILD:
            if not hand.wilds:
                raise MajiangError("--win-tile '*': the hand holds no wildcard")
            return Hand(tuple(sorted(tiles)), hand.melds, WILD, hand.flowers, hand.wilds - 1)
        if win not in tiles:
            raise MajiangError(f"--win-tile {format_compact([win])} is not in the hand")
        tiles.remove(win)
    return Hand(tuple(sorted(tiles)), hand.melds, win, hand.flowers, hand.wilds)


def parse_hand(text: str, wild: int | None = None):
    """:meth:`Hand.parse <majiang.hand.Hand.parse>`, its error naming HAND."""
    from majiang.hand import Hand

    try:
        return Hand.parse(text, wild=wild)
    except MajiangError as e:
        raise MajiangError(f"HAND {text!r}: {e}") from None


def fan_row(name_en: str, name_zh: str, points: int, count: int) -> dict:
    """One row of the pattern table (the JSON's ``fans``)."""
    return {"name_en": name_en, "name_zh": name_zh, "points": points, "count": count}


def discarder_seat(o: Mapping[str, Any], seat: int) -> int:
    """The seat that fed a discard win: ``--discarder``, else the player before the winner."""
    d = o["discarder"]
    if d is None:
        return (seat + 3) % 4  # the player before the winner
    if d == seat:
        raise MajiangError(f"--discarder {d} is the winner's own seat")
    return d


def engine_context(rs, hand_text: str, o: Mapping[str, Any], *, flower_count: bool = True,
                   wilds_need_face: bool = False):
    """An engine :class:`~majiang.engine.ruleset.WinContext` from the command line (trap notation).

    ``flower_count``: a number of flowers is taken (flowers 1f.. up to it), else the flower tiles must
    be named; ``wilds_need_face``: a hand with '*' wildcards needs ``--wild``."""
    from majiang.engine.ruleset import WinContext
    from majiang.hand import Hand
    from majiang.rules.wenzhou.common import natural_hand

    if o["win_tile"] is None:
        raise MajiangError("give the winning tile with --win-tile (HAND holds the other tiles)")
    wild_face = None if o["wild"] is None else one_tile(o["wild"], "--wild")
    hand = parse_hand(hand_text, wild_face if o["white_stands_in"] else None)
    hand = move_win_tile(hand, one_tile(o["win_tile"], "--win-tile", allow_wild=True), rs.sets)
    n, fl = o["flower_count"], o["flower_tiles"]
    if fl:
        hand = Hand(hand.concealed, hand.melds, hand.win_tile, fl, hand.wilds)
    elif n:
        if not flower_count:
            raise MajiangError("give the flower tiles (e.g. --flowers 12f), not a number: Taiwan seat flowers "
                               "depend on which they are")
        hand = Hand(hand.concealed, hand.melds, hand.win_tile, tuple(range(34, 34 + n)), hand.wilds)
    if o["wild"] is not None:
        if rs.wild_mode == "none":
            raise MajiangError("this rule set has no wildcards: drop --wild")
        assert wild_face is not None
        hand = natural_hand(hand, wild_face, white_stands_in=o["white_stands_in"])
    elif hand.total_wilds and wilds_need_face:
        raise MajiangError("a hand with '*' wildcards needs --wild FACE (the 财神's face decides soft and "
                           "hard wins)")
    seat = o["seat"] if o["seat"] is not None else 0
    dealer = o["dealer"] if o["dealer"] is not None else 0
    sd = bool(o["self_drawn"])
    if o["robbing_kong"] and o["self_drawn"]:
        raise MajiangError("--robbing-kong is a win on another player's tile: not with --self-drawn")
    if o["kong_replacement"] and o["self_drawn"] is False:
        raise MajiangError("--kong-replacement is a self-drawn win: not with --discard")
    if o["kong_replacement"] or o["flower_replacement"]:
        sd = True
    if o["robbing_kong"]:
        sd = False
    discarder = None if sd else discarder_seat(o, seat)
    prevalent = o["prevalent"] if o["prevalent"] is not None else 0
    return WinContext(hand=hand, seat=seat, dealer=dealer, seat_wind=27 + (seat - dealer) % 4,
                      prevalent_wind=27 + prevalent, self_drawn=sd, discarder=discarder,
                      kong_replacement=o["kong_replacement"], flower_replacement=o["flower_replacement"],
                      robbing_kong=o["robbing_kong"], last_tile=o["last_tile"], first_turn=o["first_turn"],
                      wild_face=wild_face, dealer_streak=o["streak"])


def score_generic(rs, hand_text: str, o: Mapping[str, Any]) -> dict:
    """A rule set that declares no :class:`~majiang.rules.base.ScoreCommand` (a plug-in's, or a generic
    scorer): its scorer and settlement through the engine's protocol; pattern names from its catalogue
    (``RuleSetDef.patterns``)."""
    from majiang.engine.ruleset import WinSettle

    ctx = engine_context(rs, hand_text, o)
    d = rs.definition
    res = rs.scorer_object().score(ctx)
    names = {p.id: p for p in d.pattern_catalogue()} if d is not None else {}
    rows = [fan_row(names[pid].name_en if pid in names else pid, names[pid].name_zh if pid in names else pid,
                     v, k) for pid, v, k in res.patterns]
    valid = res.value >= rs.min_score
    deltas = rs.settlement_object().settle(WinSettle(ctx.seat, ctx.discarder, res, ctx), 4) if valid else None
    return {"rules": d.name if d is not None else rs.name, "hand": ctx.hand.notation(),
            "unit": d.unit if d is not None else "points", "total": res.total, "value": res.value,
            "bonus": res.bonus, "fans": rows, "pattern_ids": [p[0] for p in res.patterns], "shape": "-",
            "valid": valid, "minimum": rs.min_score, "winner": ctx.seat, "dealer": ctx.dealer,
            "discarder": ctx.discarder, "deltas": deltas}


GENERIC = ScoreCommand(score_generic)
"""The entry point of a rule set that declares none."""
