"""A clock per decision (issue 11): a person alone with three bots is offered every decision with
a fresh ``turn_time``; out of time the server plays for the seat and marks it 托管 (auto-play) until
the person takes it back; only the awaited seat is told a clock."""

from __future__ import annotations

import time

from web_helpers import choose, create_table, fill_bots, signup, wait_for


def _send_choice(ws, live):
    a = choose(live)
    ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})


def test_every_decision_gets_a_fresh_clock_and_a_silent_seat_goes_to_auto_play(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app(hand_pause=0.0)) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=4, turn_time=5)
        fill_bots(client, alice, rid)
        room = client.app.state.lobby.get(rid)
        offered: list[float] = []
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            acted_on = None
            # phase 1: answer every decision after 1 s, for 8 decisions
            while len(offered) < 8 and not room.finished:
                msg = ws.receive_json()
                if msg["type"] != "state" or msg["status"] != "playing":
                    continue
                live = msg["live"]
                if live.get("legal") and msg["version"] != acted_on:
                    offered.append(live["time_left"])
                    acted_on = msg["version"]
                    time.sleep(1.0)
                    _send_choice(ws, live)
                elif not live.get("legal"):
                    # a seat not awaited is told no clock (neither its own nor anyone else's)
                    assert live.get("time_left") is None
            assert len(offered) == 8, "the game ended before eight decisions"
            assert all(t is not None and t >= 3.5 for t in offered), offered
            assert room.timeouts == 0 and not room.auto_play
            # phase 2: stop answering; the server plays for the seat after 5 s and marks it 托管
            seat = room.seat_of(room.places[0].user_id)
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["status"] == "playing" and msg["live"].get("legal"):
                    break
            t0 = time.monotonic()
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["live"].get("auto_play"):
                    break
            waited = time.monotonic() - t0
            assert 4.0 <= waited <= 7.0, waited
            assert room.timeouts == 1 and seat in room.auto_play
            # in 托管 the later decisions are played at once: the game moves on without her
            v = room.version
            assert wait_for(lambda: room.version > v + 3 or room.finished, 10)
            assert room.timeouts == 1  # played at once, not after a timeout each
            # phase 3: she takes the seat back; her next decision has a fresh clock again
            if not room.finished:
                ws.send_json({"type": "back"})
                assert wait_for(lambda: seat not in room.auto_play or room.finished, 5)
                while not room.finished:
                    msg = ws.receive_json()
                    if msg["type"] == "state" and msg["status"] == "playing" and msg["live"].get("legal") \
                            and not msg["live"]["auto_play"]:
                        assert msg["live"]["time_left"] >= 3.5
                        break


def test_the_hand_end_waits_for_continue(make_app):
    """After a hand the table pauses (no one is offered anything) until every seated person has
    pressed continue; the pause also ends by itself after ``hand_pause`` seconds."""
    from fastapi.testclient import TestClient

    with TestClient(make_app(hand_pause=30.0)) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=2, turn_time=30)
        fill_bots(client, alice, rid)
        room = client.app.state.lobby.get(rid)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            acted_on = None
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg["pause"] is not None:
                    break
                live = msg["live"]
                if live.get("legal") and msg["version"] != acted_on:
                    acted_on = msg["version"]
                    _send_choice(ws, live)
            seat = msg["seat"]
            assert msg["pause"]["hand"] == 0 and msg["pause"]["waiting"] == [seat]
            assert 25 <= msg["pause"]["time_left"] <= 30
            assert msg["live"]["legal"] == [] and msg["live"]["time_left"] is None
            # the hand's end shows every seat's concealed tiles
            res = msg["results"][0]
            assert len(res["hands"]) == 4 and all(isinstance(h, list) for h in res["hands"])
            v = room.version
            time.sleep(0.3)
            assert room.version == v and room.pause is not None  # nothing moves during the pause
            ws.send_json({"type": "continue"})
            assert wait_for(lambda: room.pause is None, 5)
            assert room.match.hand_number == 1


def test_the_pause_ends_by_itself(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app(hand_pause=1.0)) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=2, turn_time=0.3)
        fill_bots(client, alice, rid)
        room = client.app.state.lobby.get(rid)
        # she never answers: 托管 plays her seat, the pause runs out, the match ends
        assert wait_for(lambda: room.game_id is not None, 60)
        assert len(room.match.results) == 2
