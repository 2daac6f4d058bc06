"""Records, history, replay page, leaderboard, migrations, the serve command, and a bounded load test."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
from click.testing import CliRunner
from sqlalchemy import inspect, select

from majiang.records.jsonl import replay
from majiang.web.db import Game, Rating, make_engine, migrate
from web_helpers import create_table, fill_bots, signup, wait_for


def test_finished_game_is_stored_with_history_replay_and_leaderboard(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=2, turn_time=0.05)
    fill_bots(client, alice, rid)
    room = client.app.state.lobby.get(rid)
    assert wait_for(lambda: room.game_id is not None, 30)
    with client.app.state.db() as db:
        g = db.get(Game, room.game_id)
        seats = list(g.seats)
        r = db.scalar(select(Rating))
    assert g.ruleset == "mcr" and g.hands == 2 and len(seats) == 4
    assert sum(s.score for s in seats) == 0
    assert sorted(s.is_bot for s in seats) == [False, True, True, True]
    assert replay(g.record.splitlines()).scores == [s.score for s in seats]
    me = next(s for s in seats if not s.is_bot)
    assert r.games == 1 and r.points == me.score and r.sigma < 25 / 3
    page = client.get("/players/alice")
    assert page.status_code == 200 and f"/games/{g.id}" in page.text
    page = client.get(f"/games/{g.id}")
    assert page.status_code == 200 and "replay.js" in page.text and '"start_kyoku"' in page.text
    rec = client.get(f"/games/{g.id}/record")
    assert rec.text == g.record
    board = client.get("/leaderboard?rules=mcr")
    assert board.status_code == 200 and "alice" in board.text
    api = client.get("/api/leaderboard?rules=mcr").json()
    assert api[0]["player"] == "alice" and api[0]["games"] == 1
    assert client.get("/leaderboard?rules=taiwan").status_code == 200
    assert client.get("/games/999").status_code == 404
    for name in ("style.css", "tiles.js", "table.js", "replay.js"):
        assert client.get(f"/static/{name}").status_code == 200


def test_migrations_create_the_schema_and_are_idempotent(database_url):
    eng = make_engine(database_url)
    migrate(eng)
    migrate(eng)
    names = set(inspect(eng).get_table_names())
    assert {"users", "games", "game_seats", "ratings", "alembic_version"} <= names
    eng.dispose()


def test_serve_command_options():
    from majiang.web.cli import serve

    r = CliRunner().invoke(serve, ["--help"])
    assert r.exit_code == 0
    for opt in ("--host", "--port", "--db", "DATABASE_URL"):
        assert opt in r.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_load_twenty_bot_tables_on_loopback(database_url):
    """20 tables of four bots on a real server on 127.0.0.1 finish, with records stored, zero-sum."""
    import uvicorn

    from majiang.web.app import Settings, create_app

    app = create_app(Settings(database_url=database_url, secret_key="k" * 40,
                              bot_delay=0.0, tables_per_user=20, tables_per_minute=20))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    try:
        assert wait_for(lambda: server.started, 10)
        base = f"http://127.0.0.1:{port}"
        start = time.monotonic()
        with httpx.Client(base_url=base, follow_redirects=False, timeout=10) as c:
            r = c.post("/signup", data={"username": "host", "password": "host password"})
            assert r.status_code == 303
            rids = []
            for i in range(20):
                r = c.post("/tables", data={"preset": "mcr", "max_hands": "2", "turn_time": "5"})
                assert r.status_code == 303
                rid = r.headers["location"].rsplit("/", 1)[1]
                assert c.post(f"/tables/{rid}/bots", data={"kind": "random" if i % 2 else "efficiency"}
                              ).status_code == 303
                rids.append(rid)
            lobby = app.state.lobby
            assert wait_for(lambda: all(lobby.get(x).game_id is not None for x in rids), 60)
            assert c.get("/api/tables").json() == []  # finished tables leave the lobby
        elapsed = time.monotonic() - start
        assert elapsed < 60
        with app.state.db() as db:
            games = db.scalars(select(Game)).all()
            assert len(games) == 20
            for g in games:
                scores = [s.score for s in g.seats]
                assert len(scores) == 4 and sum(scores) == 0 and all(s.is_bot for s in g.seats)
                assert replay(g.record.splitlines()).scores == scores
    finally:
        server.should_exit = True
        th.join(10)


def test_another_preset_plays_through(client):
    from majiang.engine import PRESET_NAMES

    preset = "taiwan"
    if preset not in PRESET_NAMES:
        pytest.skip("no taiwan preset")
    alice = signup(client, "alice")
    rid = create_table(client, alice, preset=preset, max_hands=1, turn_time=0.05, sit=False)
    fill_bots(client, alice, rid, "random")
    room = client.app.state.lobby.get(rid)
    assert wait_for(lambda: room.game_id is not None, 30)
    assert sum(room.match.scores) == 0
