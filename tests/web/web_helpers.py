"""Helpers for the web-table tests: users, tables and scripted WebSocket clients."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

from fastapi.testclient import TestClient

from majiang.analysis import is_winning, split_wildcards
from majiang.engine import RuleSet, arrange_wall
from majiang.errors import MajiangError
from majiang.tiles import NUM_KINDS

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
                    if msg["type"] != "state":  # a chat line: kept, nothing to play
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


def expected_waits(live: dict, rules: RuleSet) -> dict | None:
    """What a seat's waits must be, from what its own message shows: every physical tile that the
    win check accepts added to the hand (brute force), with 4 less the copies in sight."""
    hand = live["hand"]
    if len(hand) % 3 != 1:
        return None
    wf = live["wild_face"]
    faces = {wf} if wf is not None else set()
    visible = [0] * NUM_KINDS
    for ts in live["rivers"]:
        for t in ts:
            visible[t] += 1
    for ms in live["melds"]:
        for m in ms:
            for t in m["tiles"]:
                visible[t] += 1
    if live["indicator"] is not None and live["indicator"] < NUM_KINDS:
        visible[live["indicator"]] += 1
    out = []
    for t in range(NUM_KINDS):
        if hand.count(t) >= 4:
            continue
        try:
            counts, wilds = split_wildcards(hand + [t], faces, rules.white_stand_in and bool(faces))
        except MajiangError:
            continue
        if is_winning(counts, wilds, rules.shape_rules):
            out.append({"tile": t, "unseen": max(0, 4 - hand.count(t) - visible[t])})
    if not out:
        return None
    return {"tiles": out, "wildcard": wf is not None and any(w["tile"] == wf for w in out)}


# A scripted MCR hand (see test_web_waits): player 0 deals 1-9m 123p 5p 9s, ready on 5p after 9s.
FIVE_P, NINE_S, EAST, SOUTH, WEST = 13, 26, 27, 28, 29
ALICE = list(range(9)) + [9, 10, 11, FIVE_P, NINE_S]          # dealer: 14 tiles
OTHERS = [
    [0, 3, 6, 12, 15, 18, 21, 31, 31, 32, 30, 14, 16],         # no 7s 8s 9s, no 东南西
    [1, 4, 7, 10, 16, 19, 22, 33, 33, 30, 17, 20, 23],
    [2, 5, 8, 11, 14, 17, 20, 23, 31, 32, 32, 12, 15],
]


def script(monkeypatch, draws):
    """Make the next table's match deal the scripted hand, with player 0 (the creator) as dealer."""
    from majiang.web import room_log

    real = room_log.Match

    def make(rules, seed=0, names=None, max_hands=None):
        for s in range(1000):
            probe = real(rules, seed=s)
            if probe.seat_of_player[0] == probe.dealer:
                break
        d = probe.dealer
        hands: list[list[int]] = [[], [], [], []]
        hands[d] = ALICE
        for k in range(3):
            hands[(d + 1 + k) % 4] = OTHERS[k]
        wall = arrange_wall(rules, hands, draws, dealer=d, seed=s)
        return real(rules, seed=s, walls=[wall], names=names, max_hands=max_hands)

    monkeypatch.setattr(room_log, "Match", make)


def until_closed(ws, timeout: float = 5.0) -> tuple[list[dict], int | None, str, float]:
    """Read ``ws`` until the server closes it: (messages received, close code, reason, seconds
    waited). The reading runs on a thread so a socket that never closes fails the test after
    ``timeout`` seconds (code ``None``) instead of hanging it."""
    from starlette.websockets import WebSocketDisconnect

    out: dict = {"messages": [], "code": None, "reason": ""}

    def read() -> None:
        try:
            while True:
                out["messages"].append(ws.receive_json())
        except WebSocketDisconnect as e:
            out["code"], out["reason"] = e.code, e.reason or ""
        except BaseException as e:  # pragma: no cover - reported as "not closed"
            out["reason"] = repr(e)

    t0 = time.monotonic()
    th = threading.Thread(target=read, daemon=True)
    th.start()
    th.join(timeout)
    return out["messages"], out["code"], out["reason"], time.monotonic() - t0


@contextlib.contextmanager
def served(app, **config) -> Iterator[str]:  # noqa: ANN001 - a FastAPI app
    """Serve ``app`` with uvicorn on a free loopback port in a thread (for browsers and plain HTTP
    clients); yields its base URL and stops it on leaving. ``config``: more ``uvicorn.Config`` fields."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    end = time.monotonic() + 10
    while not srv.started and time.monotonic() < end:
        time.sleep(0.02)
    assert srv.started, "the test server did not start in 10 s"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        th.join(10)


# A browser check of the table page (page.evaluate(IN_VIEW)): every seat's plate, melds, flowers and
# hand, the rivers, the centre, the hand and the chat button in the window and not cut off by a box
# that hides its overflow; nothing of one seat on another's, on the rivers or on the player's own
# hand and buttons. Returns the problems found, as text.
IN_VIEW = """() => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  for (const sel of [".opp .plate", ".opp .melds .meld", ".opp .flowers", ".opp .backs", "#pond", "#centre", "#hand", "#chat-toggle"]) {
    for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      let clip = false;  // cut by an ancestor that hides its overflow
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === "hidden" || getComputedStyle(a).overflowY === "hidden") {
          const b = a.getBoundingClientRect();
          if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) clip = true;
        }
      }
      if (clip || r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
        out.push(`${sel}${clip ? " (clipped)" : ""} ${JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round))} of ${W}x${H}`);
    }
  }
  // nothing of one seat lies on another's, on the rivers or on the player's own hand and buttons
  const groups = [0, 1, 2, 3].map(k => [...document.querySelectorAll(`#opp-${k} .plate, #opp-${k} .meld, #opp-${k} .flowers, #opp-${k} .backs`)]);
  groups.push([...document.querySelectorAll("#pond .river svg.tile, #centre")]);
  groups.push([...document.querySelectorAll("#hand svg.tile, #drawn svg.tile, #toolbar > *, #actions > *")]);
  const name = e => e.id ? "#" + e.id : (e.closest("[id]") ? "#" + e.closest("[id]").id + " " : "") + e.tagName.toLowerCase() + "." + [...e.classList].join(".");
  const boxes = groups.map(g => g.map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.width > 0 && r.height > 0));
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++)
    for (const [a, ra] of boxes[i]) for (const [b, rb] of boxes[j])
      if (Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1)
        out.push(`${name(a)} on ${name(b)}`);
  return [...new Set(out)];
}"""


def table_store(url: str):
    """A :class:`~majiang.web.store.TableStore` on ``url`` (migrated), for the store's own tests."""
    from majiang.web.db import make_engine, migrate, session_factory
    from majiang.web.store import TableStore

    engine = make_engine(url)
    migrate(engine)
    return TableStore(session_factory(engine), postgres=url.startswith("postgresql"))
