"""``majiang score`` for MCR: the rule set's :class:`~majiang.rules.base.ScoreCommand` (issue 29)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from majiang.cli_score import TRAP_MELD, discarder_seat, fan_row, move_win_tile, one_tile, parse_hand
from majiang.errors import MajiangError
from majiang.rules.base import ScoreCommand


def score_hand(rs, hand_text: str, o: Mapping[str, Any]) -> dict:
    """``majiang score`` for MCR: HAND in the trap notation or PyMahjongGB's string (its flags after
    '|'; the options override them), scored by :func:`majiang.rules.mcr.score` with the table's
    options and minimum, settled by :func:`majiang.rules.mcr.settle` (seat 0 wins unless ``--seat``)."""
    from majiang.rules import mcr

    if o["wild"] is not None:
        raise MajiangError("MCR has no wildcards: drop --wild")

    if TRAP_MELD.search(hand_text):  # the trap notation ("[peng 555z] 11m23p"), winning tile in --win-tile
        hand = parse_hand(hand_text)
        cond = mcr.WinConditions()
    else:
        try:
            hand, cond = mcr.parse_hand_string(hand_text)
        except MajiangError as e:
            raise MajiangError(f"HAND {hand_text!r}: {e}") from None
    if o["win_tile"] is not None:
        hand = move_win_tile(hand, one_tile(o["win_tile"], "--win-tile"), 4)
    if hand.win_tile is None:
        raise MajiangError("no winning tile: give --win-tile")
    seat, dealer = o["seat"], o["dealer"]
    seat_wind = cond.seat_wind
    if seat is not None or dealer is not None:
        seat_wind = ((seat or 0) - (dealer or 0)) % 4
    if o["seat_wind"] is not None:
        seat_wind = o["seat_wind"]
    sd = cond.self_drawn if o["self_drawn"] is None else o["self_drawn"]
    kong = cond.kong_replacement or cond.robbing_kong
    changes = dict(self_drawn=sd, seat_wind=seat_wind,
                   prevalent_wind=cond.prevalent_wind if o["prevalent"] is None else o["prevalent"],
                   last_of_kind=cond.last_of_kind or o["last_of_kind"],
                   last_wall_tile=cond.last_wall_tile or o["last_tile"],
                   kong_replacement=(kong and sd and not o["robbing_kong"]) or o["kong_replacement"],
                   robbing_kong=(kong and not sd and not o["kong_replacement"]) or o["robbing_kong"])
    changes["flowers"] = cond.flowers if o["flower_count"] is None else o["flower_count"]
    cond = mcr.WinConditions(**changes)
    opts = getattr(rs.scorer_object(), "options", None)
    r = mcr.score(hand, cond, dataclasses.replace(opts, minimum_fan=rs.min_score) if opts is not None else
                  mcr.McrOptions(minimum_fan=rs.min_score))
    out: dict = {"rules": "mcr", "hand": mcr.format_hand_string(hand, cond), "unit": "fan", "total": r.total,
                 "fans": [fan_row(fc.fan.name_en, fc.fan.name_zh, fc.fan.points, fc.count) for fc in r.fans],
                 "fan_total": r.fan_total, "flowers": r.flowers, "shape": r.shape, "valid": r.is_valid_win,
                 "minimum": r.options.minimum_fan}
    winner = seat if seat is not None else 0
    discarder = None if sd else discarder_seat(o, winner)
    out["winner"], out["discarder"] = winner, discarder
    out["deltas"] = mcr.settle(r, winner, discarder) if r.is_valid_win else None
    return out


def note(r: dict) -> str:
    """The total line's tail: the fan without flowers, the minimum, and whether the win is valid."""
    line = f" ({r['fan_total']} without flowers; minimum {r['minimum']})"
    if not r["valid"]:
        line += " -- under the minimum: not a valid win"
    return line


COMMAND = ScoreCommand(score_hand, note)
