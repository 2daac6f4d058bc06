"""A copy of a table that cannot follow its log is rebuilt from the log, never left a step behind
(issue 11: the server never loses an acknowledged action; docs/server.md, "the log is the state").

A step another process wrote reaches this one as a notification carrying the row, or is read from
the log. If this copy cannot apply it (a half-applied row, a bug), skipping it would leave the
table a step behind the log for good; instead the lobby forgets the copy, closes its sockets with
1012 so the pages reconnect, and the next visit replays the whole log."""

from __future__ import annotations

import json

import pytest
from web_helpers import create_table, fill_bots, signup, wait_for

from majiang.web import rooms as rooms_mod


def _waiting_for_alice(client, rid):
    room = client.app.state.lobby.get(rid)
    uid = room.places[0].user_id
    assert wait_for(lambda: room.match is not None and room.seat_of(uid) in room.match.pending_seats(), timeout=20)
    return room, room.seat_of(uid)


def _snapshot(room):
    return room.seq, len(room.match.events), [list(h) for h in room.match.table.concealed], [list(r) for r in room.match.table.rivers]


@pytest.mark.parametrize("carried", [True, False], ids=["notified-row", "read-from-log"])
def test_a_step_this_copy_cannot_apply_rebuilds_the_table_from_its_log(make_app, monkeypatch, carried):
    from fastapi.testclient import TestClient

    with TestClient(make_app(hand_pause=0.0)) as client:
        alice = signup(client, "alice")
        rid = create_table(client, alice, max_hands=1, turn_time=60)
        fill_bots(client, alice, rid)
        lobby = client.app.state.lobby
        room, seat = _waiting_for_alice(client, rid)
        other = (seat + 1) % 4  # a bot's seat: marking it 托管 changes nothing in play
        before = _snapshot(room)
        with client.websocket_connect(f"/ws/tables/{rid}", headers=alice) as ws:
            assert ws.receive_json()["type"] == "state"
            real = rooms_mod.Room._apply

            failures = []

            def broken(self, row):  # this copy fails once, half way: the seq taken, the change not made
                if self is not room or failures:
                    return real(self, row)
                failures.append(row)
                self.seq += 1
                raise RuntimeError("this copy cannot apply the row")

            monkeypatch.setattr(rooms_mod.Room, "_apply", broken)
            if carried:  # another process's step, carried by its notification
                payload = f"{room.seq + 1} " + json.dumps({"kind": "back", "seat": other})
            else:  # the notification only names the table; the rows are read from the log
                client.app.state.lobby.store.append(rid, room.seq + 1, {"kind": "autoplay", "seat": other})
                payload = "*"
            client.portal.call(lobby.heard, rid if carried else "*", payload)
            monkeypatch.setattr(rooms_mod.Room, "_apply", real)
            assert len(failures) == 1
            assert room.stale and lobby.rooms.get(rid) is not room and not room.leader
            with pytest.raises(Exception) as closed:  # the page is told to reconnect
                while True:
                    ws.receive_json()
            assert getattr(closed.value, "code", None) == 1012, closed.value
        rebuilt = lobby.rooms.get(rid)  # rebuilt at once, and running (its clock, its bots)
        assert rebuilt is not None and rebuilt is not room and rebuilt.leader and not rebuilt.stale
        want = list(before)
        if not carried:  # the row written to the log is in the rebuilt table, not skipped
            want[0] += 1
            assert other in rebuilt.auto_play
        assert _snapshot(rebuilt)[0] == want[0]
        assert _snapshot(rebuilt)[1:] == before[1:]
