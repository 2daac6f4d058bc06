"""战绩 and 牌谱 (issue 31): a player's figures recomputed from the stored records, the stats API,
the record page, the leaderboard's tabs and the replay page's data."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from majiang.records.jsonl import replay
from majiang.web.db import Game, GameSeat, User
from web_helpers import ScriptedClient, create_table, fill_bots, signup, wait_for


def _play_games(client: TestClient, headers: dict, n: int, hands: int = 2) -> list[int]:
    """``n`` finished MCR games of ``hands`` hands, the person played by a scripted client (it wins
    whenever it can); their game ids."""
    ids = []
    for _ in range(n):
        rid = create_table(client, headers, max_hands=hands, turn_time=30)
        room = client.app.state.lobby.get(rid)
        player = ScriptedClient(client, rid, headers)
        player.start()
        fill_bots(client, headers, rid)
        assert wait_for(lambda: room.game_id is not None, 120)
        player.done.wait(20)
        assert player.exc is None
        ids.append(room.game_id)
    return ids


def _recomputed(client: TestClient, user: str) -> dict:
    """The figures per rule set from the stored games, each replayed by the engine (its
    ``HandResult`` wins: winner, discarder, value), not from the events the server counts."""
    out: dict = {}
    with client.app.state.db() as db:
        uid = db.scalar(select(User.id).where(User.username == user))
        rows = db.execute(select(GameSeat.seat, Game.id, Game.ruleset, Game.record)
                          .join(Game, Game.id == GameSeat.game_id).where(GameSeat.user_id == uid)).all()
    for seat, gid, preset, record in rows:
        m = replay(record.splitlines())
        a = out.setdefault(preset, {"games": 0, "hands": 0, "wins": 0, "self_draws": 0, "deal_ins": 0, "values": []})
        a["games"] += 1
        a["hands"] += len(m.results)
        for res in m.results:
            fed = False
            for w in res.wins:
                if w.winner == seat:
                    a["wins"] += 1
                    a["self_draws"] += w.discarder is None
                    a["values"].append((w.result.value + w.result.bonus, gid))
                elif w.discarder == seat:
                    fed = True
            a["deal_ins"] += fed
    return out


def test_record_figures_equal_those_recomputed_from_five_stored_games(make_app):
    with TestClient(make_app(hand_pause=0.05)) as client:
        alice = signup(client, "alice")
        ids = _play_games(client, alice, 5)
        assert len(set(ids)) == 5
        want = _recomputed(client, "alice")["mcr"]
        got = client.get("/api/players/alice/stats").json()
        assert got["name"] == "alice" and set(got["rule_sets"]) == {"mcr"}
        st = got["rule_sets"]["mcr"]
        assert st["games"] == 5 and st["hands"] == want["hands"] == 10
        for k in ("wins", "self_draws", "deal_ins"):
            assert st[k] == want[k], k
        assert st["win_rate"] == pytest.approx(want["wins"] / want["hands"])
        assert st["deal_in_rate"] == pytest.approx(want["deal_ins"] / want["hands"])
        assert st["self_draw_rate"] == pytest.approx(want["self_draws"] / want["wins"] if want["wins"] else 0.0)
        values = want["values"]
        assert st["average_value"] == pytest.approx(sum(v for v, _ in values) / len(values) if values else 0.0)
        if values:
            top = max(v for v, _ in values)
            assert st["best"]["value"] == top and st["best"]["game_id"] == min(g for v, g in values if v == top)
        else:
            assert st["best"] is None
        # the record page shows the same figures, in Chinese by default
        client.headers["accept-language"] = "zh-CN"
        page = client.get("/players/alice").text
        for key, v in (("win_rate", st["win_rate"]), ("deal_in_rate", st["deal_in_rate"])):
            assert re.search(rf'data-stat="{key}">{100 * v:.1f}%<', page), key
        assert re.search(rf'data-stat="average_value">{st["average_value"]:.1f}<', page)
        assert "和牌率" in page and "放铳率" in page and "自摸率" in page
        if st["best"]:
            b = st["best"]
            assert f'/games/{b["game_id"]}?hand={b["hand"]}&amp;step={b["step"]}' in page
        assert '<svg class="chart"' in page  # five rated games: the rating's history drawn
        for gid in ids:
            assert f"/games/{gid}" in page
        assert client.get("/api/players/nobody/stats").status_code == 404
        # the leaderboard: one tab per rule set, the chosen one marked
        board = client.get("/leaderboard?rules=mcr").text
        tabs = re.findall(r'href="/leaderboard\?rules=([a-z0-9-]+)"( class="on")?', board)
        from majiang.engine import PRESET_NAMES

        assert [p for p, _ in tabs] == list(PRESET_NAMES) and [p for p, on in tabs if on] == ["mcr"]
        assert "alice" in board


def test_best_hand_step_points_at_the_win(make_app):
    """The biggest hand's link opens the replay at the win: its hand's start + 1 + step is the
    ``hora`` event's index + 1."""
    from majiang.web.stats import seat_figures

    with TestClient(make_app(hand_pause=0.05)) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=1, turn_time=30, sit=False)
        fill_bots(client, alice, rid)
        room = client.app.state.lobby.get(rid)
        assert wait_for(lambda: room.game_id is not None, 60)
        with client.app.state.db() as db:
            record = db.get(Game, room.game_id).record
    events = [json.loads(x) for x in record.splitlines()[1:]]
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    for seat in range(4):
        for hand, value, step in seat_figures(events, seat)["values"]:
            e = events[starts[hand] + 1 + step - 1]
            assert e["type"] == "hora" and e["actor"] == seat and e["value"] + e["bonus"] == value
