"""Helpers for the web-table tests: users, tables and scripted WebSocket clients."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient

COOKIE = "majiang_session"


def signup(client: TestClient, name: str, password: str = "correct horse") -> dict[str, str]:
    """Sign ``name`` up; returns the headers that act as that user (the client's jar is cleared)."""
    client.cookies.clear()
    r = client.post("/signup", data={"username": name, "password": password}, follow_redirects=False)
    assert r.status_code == 303, r.text
    cookie = r.cookies.get(COOKIE) or client.cookies.get(COOKIE)
    assert cookie
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={cookie}"}


def create_table(client: TestClient, headers: dict[str, str], *, preset: str = "mcr", options: str = "",
                 max_hands: int = 1, turn_time: float = 30, sit: bool = True) -> str:
    data = {"preset": preset, "options": options, "max_hands": str(max_hands), "turn_time": str(turn_time)}
    if sit:
        data["sit"] = "1"
    r = client.post("/tables", data=data, headers=headers, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def join(client: TestClient, headers: dict[str, str], rid: str, place: int) -> None:
    r = client.post(f"/tables/{rid}/join", data={"place": str(place)}, headers=headers, follow_redirects=False)
    assert r.status_code == 303, r.text


def fill_bots(client: TestClient, headers: dict[str, str], rid: str, kind: str = "efficiency") -> None:
    r = client.post(f"/tables/{rid}/bots", data={"kind": kind}, headers=headers, follow_redirects=False)
    assert r.status_code == 303, r.text


def choose(live: dict) -> dict | None:
    """A scripted player's choice: win, else pass, else discard the drawn tile (else the last offered)."""
    legal = live.get("legal") or []
    if not legal:
        return None
    for kind in ("win", "pass"):
        for a in legal:
            if a["kind"] == kind:
                return a
    for a in legal:
        if a["kind"] == "discard" and a["tile"] == live.get("last_draw"):
            return a
    discards = [a for a in legal if a["kind"] == "discard"]
    return discards[-1] if discards else legal[0]


class ScriptedClient(threading.Thread):
    """Plays one seat over a WebSocket until the game is over, keeping every message received."""

    def __init__(self, client: TestClient, rid: str, headers: dict[str, str] | None, *, act: bool = True) -> None:
        super().__init__(daemon=True)
        self.client, self.rid, self.headers, self.act = client, rid, headers or {}, act
        self.messages: list[dict] = []
        self.errors: list[str] = []
        self.acted = 0
        self.done = threading.Event()
        self.exc: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.rid}", headers=self.headers) as ws:
                acted_on = None
                while True:
                    msg = ws.receive_json()
                    self.messages.append(msg)
                    if msg["type"] == "error":
                        self.errors.append(msg["message"])
                        acted_on = None
                        continue
                    if msg["status"] == "finished" and msg.get("game_id"):
                        break
                    if self.act and msg["status"] == "playing" and msg["version"] != acted_on:
                        a = choose(msg["live"])
                        if a is not None:
                            acted_on = msg["version"]
                            ws.send_json({"type": "action", "action": {k: a[k] for k in ("kind", "tile", "low")}})
                            self.acted += 1
        except BaseException as e:  # pragma: no cover - reported by the test
            self.exc = e
        finally:
            self.done.set()


def wait_for(pred, timeout: float = 20.0, interval: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(interval)
    return pred()
