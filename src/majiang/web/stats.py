"""A player's record (战绩), computed from the stored game records (issue 31).

:func:`player_stats` reads every stored game a user sat in and counts, per rule set, from the
record's own events (``hora``: ``actor`` the winner, ``target`` the discarder or the winner on a
self-draw, ``value`` + ``bonus`` the win's fan/台/multiplier/points; ``start_kyoku`` one hand):

* ``games``, ``hands``: games sat in, hands dealt in them;
* ``wins``: hands the player won; ``self_draws``: of those, self-drawn; ``deal_ins``: hands in
  which the player's discard (or robbed kong) was won on -- once per hand, however many won on it;
* ``win_rate`` = wins / hands, ``self_draw_rate`` = self_draws / wins (the share of wins that were
  self-drawn, as Tenhou and the score apps count 自摸率), ``deal_in_rate`` = deal_ins / hands; 0.0
  where the divisor is 0;
* ``average_value``: the mean of ``value + bonus`` over the wins (the unit is the rule set's:
  fan, 台, multiplier, points); ``best``: the biggest win, ``{"game_id", "hand", "step", "value"}``
  (``hand`` counted from 1, ``step`` the win's step in it: the replay link; the earliest game on a
  tie), ``None`` without a win.

:func:`rating_history` recomputes the TrueSkill ratings of a rule set game by game in stored
order, exactly as :func:`majiang.web.app` updates them when a game is stored, and keeps one user's
conservative rating (mu - 3 sigma) after each of his games: the record page's chart.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import trueskill
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from majiang.records.jsonl import read_record
from majiang.web.db import Game, GameSeat

TS = trueskill.TrueSkill(draw_probability=0.02)


def seat_figures(events: list[dict], seat: int) -> dict[str, Any]:
    """One seat's counts in one game's events: ``hands``, ``wins``, ``self_draws``, ``deal_ins`` and
    ``values`` (``[(hand index, value + bonus, step), ...]`` of its wins; ``step`` the win's step in
    its hand as the replay page counts them, ``/games/{id}?hand=N&step=S``)."""
    hands = wins = self_draws = deal_ins = 0
    values: list[tuple[int, int, int]] = []
    hand = -1
    start = 0
    dealt_in = False
    for i, ev in enumerate(events):
        typ = ev.get("type")
        if typ == "start_kyoku":
            hands += 1
            hand += 1
            start = i
            dealt_in = False
        elif typ == "hora":
            if ev["actor"] == seat:
                wins += 1
                if ev["target"] == seat:
                    self_draws += 1
                values.append((hand, int(ev.get("value", 0)) + int(ev.get("bonus", 0) or 0), i - start))
            elif ev["target"] == seat and not dealt_in:
                deal_ins += 1
                dealt_in = True
    return {"hands": hands, "wins": wins, "self_draws": self_draws, "deal_ins": deal_ins, "values": values}


def _rate(n: int, d: int) -> float:
    return n / d if d else 0.0


def player_stats(Session: Any, user_id: int, limit: int = 2000) -> dict[str, dict[str, Any]]:
    """``{preset: {"games", "hands", "wins", "self_draws", "deal_ins", "win_rate", "self_draw_rate",
    "deal_in_rate", "average_value", "best"}}`` over the user's stored games (the newest ``limit``)."""
    with Session() as db:
        seats = db.scalars(select(GameSeat).options(selectinload(GameSeat.game)).where(GameSeat.user_id == user_id)
                           .order_by(GameSeat.game_id.desc()).limit(limit)).all()
        rows = [(s.game.id, s.game.ruleset, s.seat, s.game.record) for s in seats]
    acc: dict[str, dict[str, Any]] = defaultdict(lambda: {"games": 0, "hands": 0, "wins": 0, "self_draws": 0,
                                                          "deal_ins": 0, "total": 0, "best": None})
    for gid, preset, seat, record in sorted(rows):
        _h, events = read_record(record.splitlines())
        f = seat_figures(events, seat)
        a = acc[preset]
        a["games"] += 1
        for k in ("hands", "wins", "self_draws", "deal_ins"):
            a[k] += f[k]
        for hand, v, step in f["values"]:
            a["total"] += v
            if a["best"] is None or v > a["best"]["value"]:
                a["best"] = {"game_id": gid, "hand": hand + 1, "step": step, "value": v}
    out = {}
    for preset, a in sorted(acc.items()):
        out[preset] = {"games": a["games"], "hands": a["hands"], "wins": a["wins"], "self_draws": a["self_draws"],
                       "deal_ins": a["deal_ins"], "win_rate": _rate(a["wins"], a["hands"]),
                       "self_draw_rate": _rate(a["self_draws"], a["wins"]),
                       "deal_in_rate": _rate(a["deal_ins"], a["hands"]),
                       "average_value": _rate(a["total"], a["wins"]), "best": a["best"]}
    return out


def rating_history(Session: Any, user_id: int, preset: str, limit: int = 5000) -> list[dict[str, Any]]:
    """The user's rating (mu - 3 sigma) after each of his games of ``preset``, oldest first:
    ``[{"game_id", "rating"}, ...]``, by replaying the rule set's stored games in order (the first
    ``limit``) with the TrueSkill update the server applies (people rated, bots not)."""
    with Session() as db:
        games = db.scalars(select(Game).options(selectinload(Game.seats)).where(Game.ruleset == preset)
                           .order_by(Game.id).limit(limit)).all()
        table = [(g.id, sorted((s.seat, s.user_id, s.place) for s in g.seats)) for g in games]
    ratings: dict[int, trueskill.Rating] = {}
    out: list[dict[str, Any]] = []
    for gid, seats in table:
        users = [u for _s, u, _p in seats]
        if all(u is None for u in users):
            continue
        groups = [(TS.create_rating() if u is None else ratings.get(u, TS.create_rating()),) for u in users]
        new = TS.rate(groups, ranks=[p - 1 for _s, _u, p in seats])
        for i, u in enumerate(users):
            if u is not None:
                ratings[u] = new[i][0]
        if user_id in users:
            r = ratings[user_id]
            out.append({"game_id": gid, "rating": r.mu - 3 * r.sigma})
    return out


def chart_svg(points: list[float], width: int = 320, height: int = 80) -> str:
    """A small line chart of ``points`` as an inline SVG (the rating history), with the first and
    last values marked; an empty string for fewer than one point."""
    if not points:
        return ""
    lo, hi = min(points), max(points)
    span = (hi - lo) or 1.0
    n = len(points)
    pad = 6

    def xy(i: int, v: float) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)
        y = pad + (height - 2 * pad) * (1 - (v - lo) / span)
        return round(x, 1), round(y, 1)

    pts = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(points)))
    lx, ly = xy(n - 1, points[-1])
    return (f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">'
            f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{pts}"/>'
            f'<circle cx="{lx}" cy="{ly}" r="3" fill="currentColor"/></svg>')
