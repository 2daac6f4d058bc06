"""A local judge with Botzone's Chinese Standard Mahjong rules.

Sources: the Botzone wiki *Chinese-Standard-Mahjong* (rules, scoring, the duplicate format of the
IJCAI contests) and the judge of ``ailab-pku/Chinese-Standard-Mahjong`` (``judge/main.cpp``, read
for the flow; no code taken). Decisions where they are silent are in ``docs/protocol.md``.

One game is one hand (Botzone plays one hand per game):

* **Wall** -- ``mode="duplicate"`` (default, the contests): 136 tiles, no flowers, split into four
  quarters of 34; seat ``p`` is dealt 13 from its own quarter and draws (kong replacements too)
  from it in order. The hand is drawn (荒庄) when the seat to draw has an empty quarter; a discard
  made then may only be won on (海底捞月), a self-drawn win when the next seat's quarter is empty is
  妙手回春. ``mode="classic"``: 144 tiles with the 8 flowers in one wall, drawn from its end;
  a flower drawn is announced (``3 p BUHUA H``) and the seat draws again.
* **Turn order** 0 (East, the dealer) → 1 → 2 → 3; every seat answers every request (``PASS`` when
  it has nothing to do), the first request of a game (``0 id quan``) with a doubled time limit.
* **Claims** on a discard: a win first (several: the first in turn order from the discarder), then
  pung/kong, then chow (only the next seat). An added kong may be robbed (抢杠和).
* **Win** at 8 fan or more (Botzone's count, flowers included); scoring: self-drawn ``3 × (8+fan)``
  to the winner, ``8+fan`` from each other; on a discard ``24+fan`` to the winner, ``8+fan`` from the
  discarder, ``8`` from each other (a robbed kong is paid by the konger).
* **Faults** -- a wrong win (错和), an illegal or malformed answer, a timeout or a crash: the
  offender gets ``-30`` and each other seat ``+10``. With ``on_fault="end"`` the game ends there
  (Botzone); with ``"continue"`` (tournaments) the offender is replaced for the rest of the game by
  an automatic player (passes, discards the tile it draws) and the game goes on, so the others'
  play is unaffected; a win later is settled on top of the charges (every game stays zero-sum).
  Each fault is logged where it happened: ``Player N Fault <kind> <request number> <answer>``
  (:func:`fault_line`).
* **External bots** run as Botzone runs them (:class:`BotzoneProcess`): one-shot with the whole
  input and end-of-file, or keep-running from any turn; ``data``/``globaldata`` carried.

The game's log is written in Botzone's log format (``Match``/``Wind``/``Player n Deal|Draw|Play|
Chi|Peng|Gang|AnGang|BuGang|Hu``/``Fan``/``Score`` or ``Huang``; :mod:`majiang.records.botzone`
reads it, ``majiang botzone`` checks it) and, for the duplicate format, as our JSON-lines record
(:func:`record_match`, ``majiang replay``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from majiang.errors import MajiangError
from majiang.protocols.botzone import (
    DEALT,
    KEEP_RUNNING,
    QUARTER,
    BotzoneProtocolError,
    EngineBotAdapter,
    SeatState,
    parse_tile,
    tile_code,
)
from majiang.protocols.procs import _TIMEOUT, LANGUAGE_FACTORS, BotFault, LineProcess, language_of
from majiang.tiles import NUM_KINDS

FAULT_PENALTY = 30
FAULT_BONUS = 10
BASE = 8


class JudgeError(MajiangError):
    """A judge given an impossible wall or seating."""


# ------------------------------------------------------------------------------ players
class JudgePlayer(Protocol):
    """What the judge talks to: one seat of one game."""

    name: str
    time_limit: float | None  # seconds per request (None: no limit); the first request gets twice

    def start(self, seat: int) -> None: ...

    def ask(self, request: str) -> str:
        """The answer to ``request``; may raise :class:`BotFault`."""
        ...

    def close(self) -> None: ...


class EnginePlayer:
    """A majiang bot (``make_bot``) in the judge's process, fed the same requests as any bot."""

    time_limit: float | None = None

    def __init__(self, name: str, bot: Any) -> None:
        self.name = name
        self.adapter = EngineBotAdapter(bot)
        self.state = SeatState()

    def start(self, seat: int) -> None:
        self.state = SeatState()

    def ask(self, request: str) -> str:
        try:
            self.state.feed(request)
            ans = self.adapter.respond(self.state)
        except MajiangError as e:  # a bug surfaces as a fault, never as a stalled game
            raise BotFault(f"{self.name}: {e}", kind="crash") from None
        self.state.note_response(ans)
        return ans

    def answer_state(self, state: SeatState, legal: Sequence[str]) -> str:
        """The answer from the judge's own state of this seat (in-process players only: the same
        requests, fed once, legal responses computed once)."""
        try:
            return self.adapter.respond(state, legal)
        except MajiangError as e:
            raise BotFault(f"{self.name}: {e}", kind="crash") from None

    def close(self) -> None:
        pass


_GLOBALDATA: dict[str, str] = {}
"""Each external bot's ``globaldata`` by name, kept across the games this process plays (Botzone
keeps it per bot; with ``--workers K`` each worker keeps its own)."""

_NEEDS_EOF: dict[str, bool] = {}
"""Per command: whether the bot waits for end-of-file before answering a whole input (learned
from its first answer; see :class:`BotzoneProcess`)."""

EOF_IDLE = 0.1
"""Seconds a freshly started bot must sit idle, waiting for input, before it is sent end-of-file."""


def _text(v: Any) -> str:
    return v if isinstance(v, str) else ("" if v is None else json.dumps(v, ensure_ascii=False))


class BotzoneProcess:
    """An external Botzone bot, run as Botzone runs it (wiki *Bot*).

    * **One-shot** (a bot that does not ask to keep running): started for every request with the
      whole input -- the one-line JSON ``{"requests", "responses", "data", "globaldata",
      "time_limit"}`` or the simple interaction (``simple=True``: ``n``, the ``2n-1``
      request/response lines, ``data``, ``globaldata``) -- then end-of-file on its standard input;
      it answers and exits (a bot still running after its answer is stopped).
    * **Keep-running**: a bot that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its answer, at
      any turn, stays alive and gets each later request as one plain line (no end-of-file).
    * ``data`` (from the bot's last answer, ``""`` when it gave none) and ``globaldata`` (kept
      from its last answer that had one, across the games of this process, per bot name) go back
      in its next whole input; the simple interaction reads them from the answer's third and fourth
      lines, the JSON form from its ``"data"`` / ``"globaldata"`` fields.
    * End-of-file and keep-running: a bot cannot be told both "this is all" and "more may come" on
      one pipe, so a fresh process gets end-of-file right after its input once this command is
      known to read to end-of-file; until then it gets it when it sits idle (asleep, no CPU used)
      for :data:`EOF_IDLE` s without answering, a time not counted against it (a bot reading lines
      answers without it, and may then keep running). Learned per command, per process.
    * stderr goes to ``stderr`` (a file), each line labelled ``[name]``.

    ``time_limit``: seconds per request (default 1 s × the language factor of ``language`` or of
    the program the command runs, :func:`~majiang.protocols.procs.language_of`); the first request
    gets twice. ``last_seconds``: the time the last answer took, as charged.
    """

    def __init__(self, name: str, command: str, *, simple: bool = False, time_limit: float | None = None,
                 stderr: Any = None, language: str | None = None) -> None:
        self.name = name
        self.command = command
        self.simple = simple
        lang = language or language_of(command) or "cpp"
        self.time_limit = time_limit if time_limit is not None else 1.0 * LANGUAGE_FACTORS.get(lang, 1.0)
        self.stderr = stderr
        self.proc: LineProcess | None = None
        self.keep_running = False
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.data = ""
        self.globaldata = _GLOBALDATA.get(name, "")
        self.pids: list[int] = []  # the processes started this game, in order
        self.last_seconds: float | None = None

    def start(self, seat: int) -> None:
        self.close()
        self.requests, self.responses, self.pids = [], [], []
        self.data, self.globaldata = "", _GLOBALDATA.get(self.name, "")

    def _full_input(self) -> str:
        if self.simple:
            lines = [str(len(self.requests))]
            for i, r in enumerate(self.requests):
                lines.append(r)
                if i < len(self.responses):
                    lines.append(self.responses[i])
            return "\n".join(lines + [self.data, self.globaldata])
        return json.dumps({"requests": self.requests, "responses": self.responses, "data": self.data,
                           "globaldata": self.globaldata, "time_limit": self.time_limit}, ensure_ascii=False)

    def ask(self, request: str) -> str:
        self.requests.append(request)
        limit = self.time_limit or 3600.0
        if len(self.requests) == 1:
            limit *= 2
        t0 = time.monotonic()
        deadline = t0 + limit
        fresh = not (self.proc is not None and self.keep_running and self.proc.alive())
        needs_eof = _NEEDS_EOF.get(self.command)
        if not fresh:
            assert self.proc is not None
            self.proc.write(request)
        else:
            self.close()
            self.proc = LineProcess(self.command, stderr=self.stderr, label=self.name if self.stderr else None)
            self.pids.append(self.proc.proc.pid)
            self.proc.write(self._full_input())
            if needs_eof:
                self.proc.close_stdin()
        self.keep_running = False
        proc = self.proc
        watch = fresh and needs_eof is None
        idle_since: float | None = None
        waited = 0.0
        lines: list[str] = []
        keep = False
        while True:
            if watch and proc.stdin_open:
                now = time.monotonic()
                item = proc.poll_line(min(0.025, deadline - now))
                if item is _TIMEOUT:
                    now = time.monotonic()
                    if now >= deadline:
                        self.close()
                        raise BotFault(f"{self.name}: no answer in {limit:.1f} s", kind="timeout",
                                       seconds=now - t0 - waited)
                    idle = proc.waiting_for_input()
                    if idle is None:
                        idle = now - t0 > 2 * EOF_IDLE
                    if not idle:
                        idle_since = None
                    elif idle_since is None:
                        idle_since = now
                    elif now - idle_since >= EOF_IDLE:
                        proc.close_stdin()
                        waited = now - t0  # from the start: all of it was spent waiting for input
                        deadline += waited
                    continue
                if lines == [] and item is not None and proc.stdin_open:
                    _NEEDS_EOF[self.command] = False
                    watch = False
                line = item
            else:
                try:
                    line = proc.read_line(deadline)
                except BotFault:
                    self.close()
                    raise BotFault(f"{self.name}: no answer in {limit:.1f} s", kind="timeout",
                                   seconds=time.monotonic() - t0 - waited) from None
            if line is None:
                break
            if line.strip() == KEEP_RUNNING:
                keep = True
                break
            lines.append(line)
        if watch and waited and any(x.strip() for x in lines):
            _NEEDS_EOF[self.command] = True
        self.last_seconds = time.monotonic() - t0 - waited
        if keep and proc.stdin_open:
            self.keep_running = True
        else:
            self.close()
        answer = self._parse(lines)
        self.responses.append(answer)
        return answer

    def _parse(self, lines: list[str]) -> str:
        """The response in the bot's output; keeps its data and globaldata."""
        if self.simple:
            if not lines or not lines[0].strip():
                raise BotFault(f"{self.name}: no answer (the bot exited)", kind="crash")
            answer = lines[0]
            self.data = lines[2] if len(lines) > 2 else ""
            if len(lines) > 3:
                self.globaldata = lines[3]
        else:
            body = [x for x in lines if x.strip()]
            if not body:
                raise BotFault(f"{self.name}: no answer (the bot exited)", kind="crash")
            obj: Any = None
            for text in (body[0], "\n".join(body)):
                try:
                    obj = json.loads(text)
                    break
                except json.JSONDecodeError:
                    continue
            answer = obj.get("response") if isinstance(obj, dict) else None
            if not isinstance(answer, str):
                raise BotFault(f"{self.name}: {body[0][:60]!r} is not {{\"response\": ...}}", kind="garbage",
                               answer=" ".join(body[0].split())[:60])
            self.data = _text(obj.get("data"))
            if "globaldata" in obj:
                self.globaldata = _text(obj.get("globaldata"))
        _GLOBALDATA[self.name] = self.globaldata
        return " ".join(answer.split())

    def close(self) -> None:
        self.keep_running = False
        if self.proc is not None:
            self.proc.close()
            self.proc = None


# ------------------------------------------------------------------------------ the game
@dataclass
class Fault:
    """A charged fault: ``seat``, ``kind`` (``illegal``, ``wrong-win``, ``garbage``, ``timeout``,
    ``crash``), the request (its text and ``number``: 1-based, the seat's requests so far), the
    answer (``""`` when there was none) and a message saying why."""

    seat: int
    kind: str
    request: str
    answer: str
    message: str = ""
    number: int = 0


VERDICTS = {"timeout": "TLE", "crash": "RE", "illegal": "WA", "wrong-win": "WA", "garbage": "WA"}
"""Botzone's verdict for each kind of fault (time limit exceeded, runtime error, wrong answer)."""


def fault_line(f: Fault) -> str:
    """The Botzone-log line of a fault: ``Player <seat> Fault <kind> <request number> <answer>``
    (``-`` when the bot gave none), e.g. ``Player 1 Fault illegal 57 PLAY J9``."""
    ans = " ".join(f.answer.split())[:60] or "-"
    return f"Player {f.seat} Fault {f.kind} {f.number} {ans}"


@dataclass
class GameResult:
    """One game's outcome.

    Attributes:
        scores: per seat (zero-sum). winner / discarder: seats or ``None`` (a self-drawn win has no
        discarder; a drawn hand no winner). fan, fans: the win's fan total (flowers included) and
        ``(name, count)`` pairs. faults: charged faults. times: per seat, seconds per request
        answered. log: the Botzone-format log lines.
    """

    scores: list[int]
    winner: int | None = None
    discarder: int | None = None
    self_drawn: bool = False
    fan: int = 0
    fans: list[tuple[str, int]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=lambda: [[], [], [], []])
    log: list[str] = field(default_factory=list)
    quarters: list[list[int]] | None = None
    quan: int = 0

    @property
    def log_text(self) -> str:
        return "\n".join(self.log) + "\n"


def shuffled_wall(rng: random.Random, mode: str = "duplicate") -> list[int]:
    """A shuffled wall: 136 tiles (duplicate) or 144 with the flowers (classic)."""
    tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
    if mode == "classic":
        tiles += list(range(34, 42))
    rng.shuffle(tiles)
    return tiles


class _Auto:
    """The stand-in for a seat after a fault: passes, and discards the tile it draws."""

    @staticmethod
    def answer(state: SeatState, legal: Sequence[str]) -> str:
        if state.request[:1] == ["2"] and state.last_draw is not None:
            want = f"PLAY {tile_code(state.last_draw)}"
            if want in legal:
                return want
            return next(x for x in legal if x.startswith("PLAY"))
        return "PASS"


class _End(Exception):
    pass


class BotzoneGame:
    """One game under the judge. ``play()`` runs it and returns a :class:`GameResult`.

    Args:
        players: four :class:`JudgePlayer` by seat (seat 0 = East, the dealer).
        wall: duplicate: 136 tiles, quarter ``p`` = ``wall[34p:34p+34]`` in draw order (the deal
            first); classic: 144 tiles drawn from the end.
        quan: prevalent wind 0-3.
        mode: ``"duplicate"`` or ``"classic"``. on_fault: ``"continue"`` or ``"end"`` (module doc).
        match_id: the log's ``Match`` id.
    """

    def __init__(self, players: Sequence[JudgePlayer], wall: Sequence[int], quan: int = 0, *,
                 mode: str = "duplicate", on_fault: str = "continue", match_id: str = "local") -> None:
        if len(players) != 4:
            raise JudgeError(f"a game needs 4 players, got {len(players)}")
        if mode not in ("duplicate", "classic"):
            raise JudgeError(f"mode must be 'duplicate' or 'classic', got {mode!r}")
        if on_fault not in ("continue", "end"):
            raise JudgeError(f"on_fault must be 'continue' or 'end', got {on_fault!r}")
        want = 136 if mode == "duplicate" else 144
        if len(wall) != want or sorted(wall) != sorted(shuffled_wall(random.Random(0), mode)):
            raise JudgeError(f"a {mode} wall is the {want} tiles, each once (flowers) or four times")
        if not 0 <= quan <= 3:
            raise JudgeError(f"quan must be 0-3, got {quan}")
        self.players = list(players)
        self.mode = mode
        self.on_fault = on_fault
        self.quan = quan
        if mode == "duplicate":
            self.quarters = [list(wall[QUARTER * p:QUARTER * (p + 1)]) for p in range(4)]
            self.pos = [0, 0, 0, 0]
            self.shared: list[int] = []
        else:
            self.quarters = []
            self.shared = list(wall)
        self.states = [SeatState(mode=mode) for _ in range(4)]
        self.auto = [False] * 4
        self.result = GameResult([0, 0, 0, 0], quarters=[list(q) for q in self.quarters] or None, quan=quan)
        self.first = [True] * 4
        self.log = self.result.log
        self.log += [f"Match {match_id}", f"Wind {quan}"]

    # ---------------------------------------------------------------- the wall
    def _draw(self, p: int) -> int | None:
        if self.mode == "duplicate":
            if self.pos[p] >= QUARTER:
                return None
            t = self.quarters[p][self.pos[p]]
            self.pos[p] += 1
            return t
        return self.shared.pop() if self.shared else None

    # ---------------------------------------------------------------- asking
    def _fault(self, seat: int, kind: str, request: str, answer: str, message: str = "") -> None:
        f = Fault(seat, kind, request, answer, message, self.states[seat].turn)
        self.result.faults.append(f)
        self.log.append(fault_line(f))
        for s in range(4):
            self.result.scores[s] += -FAULT_PENALTY if s == seat else FAULT_BONUS
        self.auto[seat] = True
        try:
            self.players[seat].close()
        except Exception:  # noqa: BLE001 - a broken bot must not stop the game
            pass
        if self.on_fault == "end":
            raise _End()

    def _ask_all(self, requests: Sequence[str]) -> list[str]:
        """Send request ``requests[s]`` to each seat; returns legal answers (faults replaced)."""
        out = []
        for s in range(4):
            st = self.states[s]
            st.feed(requests[s])
            legal = st.legal_responses()
            if self.auto[s]:
                ans = _Auto.answer(st, legal)
            else:
                t0 = time.perf_counter()
                try:
                    shared = getattr(self.players[s], "answer_state", None)
                    ans = shared(st, legal) if shared is not None else self.players[s].ask(requests[s])
                    dt = time.perf_counter() - t0
                    charged = getattr(self.players[s], "last_seconds", None)
                    if charged is not None:
                        dt = charged  # the judge's own wait (for end-of-file) is not the bot's time
                    limit = self.players[s].time_limit
                    if limit is not None and dt > limit * (2 if self.first[s] else 1):
                        raise BotFault(f"{dt:.2f} s > {limit:.2f} s", kind="timeout", seconds=dt)
                    self.result.times[s].append(dt)
                except BotFault as e:
                    self.result.times[s].append(e.seconds or time.perf_counter() - t0)
                    self._fault(s, e.kind, requests[s], e.answer, str(e))
                    ans = _Auto.answer(st, legal)
                except Exception as e:  # noqa: BLE001 - an in-process bot's crash is its fault
                    self._fault(s, "crash", requests[s], "", f"{type(e).__name__}: {e}")
                    ans = _Auto.answer(st, legal)
                else:
                    if ans not in legal:
                        kind = "wrong-win" if ans == "HU" else ("illegal" if _well_formed(ans) else "garbage")
                        self._fault(s, kind, requests[s], ans, f"not among {len(legal)} legal answers")
                        ans = _Auto.answer(st, legal)
                self.first[s] = False
            st.note_response(ans)
            out.append(ans)
        return out

    def _tell(self, request: str) -> list[str]:
        return self._ask_all([request] * 4)

    # ---------------------------------------------------------------- flow
    def play(self) -> GameResult:
        """Run the game to its end and close the players."""
        for s in range(4):
            self.players[s].start(s)
        try:
            self._play()
        except _End:
            pass
        finally:
            for p in self.players:
                try:
                    p.close()
                except Exception:  # noqa: BLE001
                    pass
        if self.result.winner is None and not any(line.startswith("Fan") for line in self.log):
            self.log.append("Huang")
        self.log.append("Score " + " ".join(str(x) for x in self.result.scores))
        assert sum(self.result.scores) == 0
        return self.result

    def _play(self) -> None:
        self._ask_all([f"0 {s} {self.quan}" for s in range(4)])
        hands: list[list[int]] = [[], [], [], []]
        flowers: list[list[int]] = [[], [], [], []]
        for s in range(4):
            while len(hands[s]) < DEALT:
                t = self._draw(s)
                assert t is not None
                (flowers[s] if t >= NUM_KINDS else hands[s]).append(t)
        for s in range(4):
            self.log.append(f"Player {s} Deal " + " ".join(tile_code(t) for t in hands[s]))
        head = "1 " + " ".join(str(len(f)) for f in flowers)
        tail = " ".join(tile_code(t) for f in flowers for t in f)
        self._ask_all([f"{head} {' '.join(tile_code(t) for t in hands[s])}" + (f" {tail}" if tail else "")
                       for s in range(4)])
        p = 0
        while True:
            t = self._draw(p)
            if t is None:
                return  # 荒庄
            if t >= NUM_KINDS:
                self.log.append(f"Player {p} BuHua {tile_code(t)}")
                self._tell(f"3 {p} BUHUA {tile_code(t)}")
                continue
            self.log.append(f"Player {p} Draw {tile_code(t)}")
            ans = self._ask_all([f"2 {tile_code(t)}" if s == p else f"3 {p} DRAW" for s in range(4)])[p]
            verb, *rest = ans.split()
            if verb == "HU":
                self._win(p, None, t)
                return
            if verb == "PLAY":
                x = parse_tile(rest[0])
                self.log.append(f"Player {p} Play {tile_code(x)}")
                nxt = self._discard_window(p, f"3 {p} PLAY {tile_code(x)}", x)
                if nxt is None:
                    return
                p = nxt
                continue
            x = parse_tile(rest[0])
            if verb == "GANG":
                self.log.append(f"Player {p} AnGang {tile_code(x)}")
                self._tell(f"3 {p} GANG")
                continue
            # BUGANG: others may rob
            self.log.append(f"Player {p} BuGang {tile_code(x)}")
            answers = self._tell(f"3 {p} BUGANG {tile_code(x)}")
            for k in range(1, 4):
                s = (p + k) % 4
                if answers[s] == "HU":
                    self._win(s, p, x, robbing=True, others=[(q, "Hu", x) for q in _after(s, p) if answers[q] == "HU"])
                    return
            continue

    def _discard_window(self, p: int, request: str, x: int) -> int | None:
        """Everyone answers a discard; returns the next seat to draw, or ``None`` if the game ended."""
        while True:
            answers = self._tell(request)
            order = [(p + k) % 4 for k in range(1, 4)]
            hu = [s for s in order if answers[s] == "HU"]
            if hu:
                s = hu[0]
                ign = [(q, "Hu", x) for q in hu[1:]] + _ignored(answers, order, s, x)
                self._win(s, p, x, others=ign)
                return None
            claim = next((s for s in order if answers[s].split()[0] in ("PENG", "GANG")), None)
            if claim is None:
                claim = next((s for s in order if answers[s].startswith("CHI")), None)
            if claim is None:
                return (p + 1) % 4
            verb, *rest = answers[claim].split()
            ign = _ignored(answers, order, claim, x)
            suffix = "".join(f" Ignore Player {q} {v} {tile_code(t)}" for q, v, t in ign)
            if verb == "GANG":
                self.log.append(f"Player {claim} Gang {tile_code(x)}{suffix}")
                self._tell(f"3 {claim} GANG")
                return claim
            if verb == "PENG":
                y = parse_tile(rest[0])
                self.log.append(f"Player {claim} Peng {tile_code(x)}{suffix}")
                request = f"3 {claim} PENG {tile_code(y)}"
            else:
                mid, y = parse_tile(rest[0]), parse_tile(rest[1])
                self.log.append(f"Player {claim} Chi {tile_code(mid)}{suffix}")
                request = f"3 {claim} CHI {tile_code(mid)} {tile_code(y)}"
            self.log.append(f"Player {claim} Play {tile_code(y)}")
            p, x = claim, y

    def _win(self, s: int, discarder: int | None, tile: int, *, robbing: bool = False,
             others: Sequence[tuple[int, str, int]] = ()) -> None:
        st = self.states[s]
        last = False if robbing else st.is_last_after(s if discarder is None else discarder)
        r = st.win_result(tile, self_drawn=discarder is None, robbing=robbing, last=last)
        assert r is not None and r.total >= BASE, "the judge accepted a win it does not score"
        fan = r.total
        suffix = "".join(f" Ignore Player {q} {v} {tile_code(t)}" for q, v, t in others)
        self.log.append(f"Player {s} Hu {tile_code(tile)}{suffix}")
        fans = list(r.counts_zh().items())
        self.log.append(f"Fan {fan} " + "+".join(f"{n}*{c}" for n, c in fans))
        sc = self.result.scores
        for q in range(4):
            if q == s:
                continue
            pay = BASE + fan if (discarder is None or q == discarder) else BASE
            sc[q] -= pay
            sc[s] += pay
        self.result.winner, self.result.discarder = s, discarder
        self.result.self_drawn = discarder is None
        self.result.fan, self.result.fans = fan, fans


def _after(s: int, p: int) -> list[int]:
    """Seats after ``s`` in turn order from ``p`` (exclusive), for ignored claims."""
    order = [(p + k) % 4 for k in range(1, 4)]
    return order[order.index(s) + 1:]


def _ignored(answers: Sequence[str], order: Sequence[int], taker: int, x: int) -> list[tuple[int, str, int]]:
    out = []
    for q in order:
        if q == taker or answers[q] == "PASS":
            continue
        v = answers[q].split()
        if v[0] == "HU":
            continue
        if v[0] == "CHI":
            out.append((q, "Chi", parse_tile(v[1])))
        else:
            out.append((q, v[0].capitalize(), x))
    return out


def _well_formed(ans: str) -> bool:
    v = ans.split()
    if not v:
        return False
    try:
        if v[0] in ("PASS", "HU", "GANG") and len(v) == 1:
            return True
        if v[0] in ("PLAY", "PENG", "GANG", "BUGANG") and len(v) == 2:
            parse_tile(v[1])
            return True
        if v[0] == "CHI" and len(v) == 3:
            parse_tile(v[1])
            parse_tile(v[2])
            return True
    except BotzoneProtocolError:
        return False
    return False


def play_game(players: Sequence[JudgePlayer], wall: Sequence[int], quan: int = 0, **kw: Any) -> GameResult:
    """Play one game (see :class:`BotzoneGame`)."""
    return BotzoneGame(players, wall, quan, **kw).play()


# ------------------------------------------------------------------------------ records
def record_match(log_text: str, names: Sequence[str] | None = None, faults: Sequence[Fault] = ()) -> Any:
    """Our engine's :class:`~majiang.engine.match.Match` of a duplicate-format game log, for a
    JSON-lines record (``majiang.records.jsonl.write_record``, ``majiang replay``).

    The engine has one wall: the draws of the log are laid out in the order they happened
    (:func:`majiang.records.botzone_replay.round_wall`), and a drawn hand ends where the log's does
    (``reserve``). The record's rules are ``mcr`` without flowers, seats fixed, with no fan minimum
    (the judge has already checked it with its own prevalent wind and last-tile rule, which the
    engine's single wall cannot express), with claims allowed on the last discard (a quarter may
    still hold tiles when the laid-out wall is empty) and, for a win, the scorer ``logged:F``: the
    win is worth the judge's fan total ``F`` and settles as the judge does (8 + F ...). Each
    ``Player N Fault`` line becomes a ``fault`` event where it happened (``Match.charge``: -30 to
    the seat, +10 to each other; ``reason`` from ``faults``, the judge's :class:`Fault` list, when
    given), so the record's final scores are the log's ``Score`` line. Raises
    :class:`~majiang.records.botzone.BotzoneLogError` for a log it cannot lay out.
    """
    from majiang.engine.actions import PASS, Action, ActionKind, Phase
    from majiang.engine.match import Match
    from majiang.engine.ruleset import RuleSet
    from majiang.records.botzone import BotzoneLogError, fault_deltas, parse_log
    from majiang.records.botzone_replay import round_wall

    rounds = parse_log(log_text)
    if len(rounds) != 1:
        raise BotzoneLogError(f"a game log holds one round, got {len(rounds)}")
    rnd = rounds[0]
    wall, reserve = round_wall(rnd)
    scorer = {} if rnd.fan_total is None else {"scorer": f"logged:{rnd.fan_total}"}
    rules = RuleSet.preset("mcr", flowers=False, seat_draw=False, reserve=reserve, min_score=0,
                           claim_last_discard=True, **scorer)
    m = Match(rules, seed=0, walls=[wall], names=list(names) if names else [f"P{s}" for s in range(4)], max_hands=1)
    claim_kind = {"Chi": ActionKind.CHOW, "Peng": ActionKind.PUNG, "Gang": ActionKind.EXPOSED_KONG,
                  "Hu": ActionKind.WIN}
    pending = list(rnd.faults)
    reasons = [f.message for f in faults]

    def charge(k: int) -> None:
        while pending and pending[0].after <= k:
            f = pending.pop(0)
            i = len(rnd.faults) - len(pending) - 1
            reason = reasons[i] if i < len(reasons) and reasons[i] else f.kind
            if m.finished:
                raise BotzoneLogError(f"line {f.line}: a fault after the hand is over")
            m.charge(f.seat, fault_deltas(f.seat), kind=f.kind, request=f.request, answer=f.answer, reason=reason)

    first = True
    for k, a in enumerate(rnd.actions):
        charge(k)
        t = m.table
        if t is None:
            raise BotzoneLogError(f"line {a.line}: the hand is already over")
        if a.verb == "Draw":
            if first and a.seat == 0:
                first = False
                continue
            if t.phase in (Phase.CLAIM, Phase.ROB):
                for s in m.pending_seats():
                    m.apply(s, PASS)
            continue
        if t.phase is Phase.TURN:
            kind = {"Play": ActionKind.DISCARD, "AnGang": ActionKind.CONCEALED_KONG,
                    "BuGang": ActionKind.ADDED_KONG, "Hu": ActionKind.WIN}.get(a.verb)
            if kind is None:
                raise BotzoneLogError(f"line {a.line}: {a.verb} in a turn")
            m.apply(a.seat, Action(kind, t.last_draw[a.seat] if kind is ActionKind.WIN else a.tile))
            continue
        claimed = t.claim_tile
        answers = {}
        for seat, verb, tile in ((a.seat, a.verb, a.tile), *a.ignored):
            k2 = claim_kind[verb]
            answers[seat] = Action(k2, claimed, tile - 1) if k2 is ActionKind.CHOW else Action(k2, claimed)
        for s in m.pending_seats():
            m.apply(s, answers.get(s, PASS))
    charge(len(rnd.actions))
    if m.table is not None and m.table.phase in (Phase.CLAIM, Phase.ROB):
        for s in m.pending_seats():
            m.apply(s, PASS)
    if not m.finished:
        raise BotzoneLogError("the log ends but the hand goes on")
    return m
