"""The learned bot at the web table (issue 28): a table filled with ``learned`` bots plays its hand
through, and the form refuses a ``python:`` bot (a page never names code for the server to import)."""

from __future__ import annotations

from web_helpers import create_table, fill_bots, signup, wait_for



def test_learned_bots_play_a_table_through(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, turn_time=0.05, sit=False)
    fill_bots(client, alice, rid, "learned")
    room = client.app.state.lobby.get(rid)
    assert [p.bot for p in room.places] == ["learned"] * 4
    assert wait_for(lambda: room.game_id is not None, 60)
    assert sum(room.match.scores) == 0


def test_python_bots_are_not_offered_on_the_web(client):
    alice = signup(client, "alice")
    rid = create_table(client, alice, max_hands=1, sit=False)
    r = client.post(f"/tables/{rid}/bots", data={"kind": "python:os:system"}, headers=alice, follow_redirects=False)
    assert r.status_code == 400
    room = client.app.state.lobby.get(rid)
    assert all(p.bot is None for p in room.places)
    page = client.get(f"/tables/{rid}", headers=alice).text
    assert 'value="learned"' in page
