"""The time bank (issue 31): ``turn_time`` per decision plus ``reserve_time`` per person per hand."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient

from web_helpers import choose, create_table, fill_bots, signup, wait_for


class SlowPlayer(threading.Thread):
    """A person who answers each decision ``delay`` seconds after it is offered; keeps the
    ``reserve_left`` each offer showed."""

    def __init__(self, client: TestClient, rid: str, headers: dict, delay: float) -> None:
        super().__init__(daemon=True)
        self.client, self.rid, self.headers, self.delay = client, rid, headers, delay
        self.offers: list[float | None] = []
        self.stop = threading.Event()
        self.exc: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.rid}", headers=self.headers) as ws:
                last = None
                while not self.stop.is_set():
                    msg = ws.receive_json()
                    if msg["type"] != "state" or msg["status"] == "finished":
                        if msg["type"] == "state":
                            return
                        continue
                    if msg["status"] != "playing":
                        continue
                    if msg["live"].get("auto_play"):
                        return
                    if not msg["live"].get("legal"):
                        continue
                    if msg["version"] == last:
                        continue
                    last = msg["version"]
                    self.offers.append(msg["live"]["reserve_left"])
                    a = choose(msg["live"])
                    time.sleep(self.delay)
                    ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
        except BaseException as e:  # pragma: no cover - reported by the test
            self.exc = e


def test_base_3s_reserve_6s_answers_after_4s_play_six_decisions_then_the_clock_plays(make_app):
    with TestClient(make_app(min_turn_time=1)) as client:
        alice = signup(client, "alice")
        r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "3", "reserve_time": "6",
                                         "sit": "1"}, headers=alice, follow_redirects=False)
        assert r.status_code == 303
        rid = r.headers["location"].rsplit("/", 1)[1]
        room = client.app.state.lobby.get(rid)
        assert room.turn_time == 3 and room.reserve_time == 6
        assert client.get("/api/tables").json()[0]["reserve_time"] == 6
        player = SlowPlayer(client, rid, alice, 4.0)
        player.start()
        fill_bots(client, alice, rid, kind="random")  # random bots rarely win: the hand lasts
        store = client.app.state.store

        def mine() -> list[dict]:
            seat = room.seat_of(room.places[0].user_id)
            return [row for row in store.rows_after(rid, 0) if row["kind"] == "act" and row["seat"] == seat]

        clocked = wait_for(lambda: any(row["by"] == "clock" for row in mine()), 90)
        player.join(30)  # it stops once it is in 托管 (the socket is closed while the app runs)
        assert clocked and not player.is_alive()
        acts = mine()
        by = [row["by"] for row in acts]
        first_clock = by.index("clock")
        assert by[:first_clock] == ["user"] * 6, by
        assert first_clock == 6
        # each offer showed the reserve left: 6 s, then one second less after each 4 s answer
        assert player.offers[:7] == [6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
        assert player.exc is None


def test_reserve_time_is_checked_and_kept_over_a_restart(make_app, database_url):
    with TestClient(make_app()) as client:
        alice = signup(client, "alice")
        for bad in ("-1", "nan", "601", "x"):
            r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "5", "reserve_time": bad},
                            headers=alice, follow_redirects=False)
            assert r.status_code == 400, bad
        rid = create_table(client, alice, turn_time=5)
        assert client.app.state.lobby.get(rid).reserve_time == 0  # no reserve: turn_time alone, as before
        r = client.post("/tables", data={"preset": "mcr", "max_hands": "1", "turn_time": "5", "reserve_time": "20"},
                        headers=alice, follow_redirects=False)
        rid2 = r.headers["location"].rsplit("/", 1)[1]
    with TestClient(make_app()) as client:  # a new process rebuilds the table from the database
        room = client.app.state.lobby.get(rid2)
        assert room is not None and room.reserve_time == 20 and room.turn_time == 5


def test_the_next_hand_is_not_shown_before_every_person_continued(make_app):
    """Two people and two bots; a hand ends: until both pressed continue, every state sent shows the
    ended hand (its number, the seat's own tiles as the hand ended), never the next hand's deal."""
    with TestClient(make_app(hand_pause=60)) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        rid = create_table(client, alice, max_hands=2, turn_time=0.05)  # the clock plays for both
        from web_helpers import join

        join(client, bob, rid, 1)
        fill_bots(client, alice, rid)
        room = client.app.state.lobby.get(rid)
        assert wait_for(lambda: room.pause is not None, 60)
        ended = room.pause["hand"]
        shown = room.hand_ends[ended]["hands"]
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as wa, \
                client.websocket_connect(f"/ws/tables/{rid}", headers=bob) as wb:
            sa, sb = wa.receive_json(), wb.receive_json()
            for st in (sa, sb):
                assert st["pause"] is not None and st["live"]["hand_number"] == ended
                assert st["live"]["hand"] == shown[st["seat"]]  # the ended hand, not the next deal
                assert st["live"]["legal"] == [] and st["results"][-1]["hand"] == ended
            assert room.match.hand_number == ended + 1  # the engine has dealt the next hand already
            wa.send_json({"type": "continue"})
            st = wa.receive_json()
            while st.get("type") != "state" or st["pause"] is None or st["pause"]["waiting"] != [sb["seat"]]:
                st = wa.receive_json()
            assert st["live"]["hand_number"] == ended and st["live"]["hand"] == shown[sa["seat"]]
            st = wb.receive_json()
            assert st["pause"] is not None and st["live"]["hand"] == shown[sb["seat"]]
            wb.send_json({"type": "continue"})
            st = wb.receive_json()
            while st["pause"] is not None:
                st = wb.receive_json()
            assert st["live"]["hand_number"] == ended + 1  # now the next hand is dealt to everyone
            assert len(st["live"]["hand"]) in (13, 14)
