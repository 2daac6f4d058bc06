"""Tournaments between bots: duplicate or random seatings, built-in or external bots, both protocols.

``majiang tournament --protocol botzone|jsonl --bot [NAME=]COMMAND ... [--walls N] [--seed S]
[--format duplicate|random] [--workers K] [--records DIR [--resume]] [--bot-time NAME=SECONDS|LANGUAGE]
[--json]``.

* **Bots**: each ``--bot`` is a built-in name (:data:`majiang.players.BOT_NAMES`: ``efficiency``,
  ``random``, ``strong``, ``learned``) or a Python policy (``python:package.module:factory``,
  :mod:`majiang.players.pyplayer`), played in-process, or a shell command that starts an external bot speaking the
  chosen protocol; ``NAME=`` names it in the results.
* **Games**: one game is one hand. ``--protocol botzone``: Botzone's rules under the local judge
  (:mod:`majiang.protocols.judge`, duplicate wall quarters; wall ``k`` has prevalent wind ``k mod 4``
  as in the IJCAI duplicate format). ``--protocol jsonl``: our engine under ``--rules`` (any rule
  set), the dealer at seat 0, external bots speaking :mod:`majiang.protocols.jsonl`.
* **Formats**: ``duplicate`` (Botzone's) plays every wall with the four bots in all 24 seatings, so
  the luck of the wall cancels: ``--walls 1`` is 24 games and needs exactly four bots;
  ``random`` plays each wall once with four bots drawn from the ``--bot`` list in a random seating.
  Wall ``k`` and every seating come from ``--seed``, so a run is reproducible.
* **Faults**: a bot that crashes, hangs past its limit (1 s × the factor of the language its
  command finally runs per request, :func:`~majiang.protocols.procs.language_of`, the first
  doubled; ``--time-limit`` overrides the 1 s, ``--bot-time NAME=SECONDS`` sets one bot's limit and
  ``--bot-time NAME=LANGUAGE`` its language) or answers illegally or with garbage is charged -30
  (each other seat +10), replaced by passes and auto-discards for the rest of that game, and the
  game goes on; its next game starts it afresh. The tournament never stalls. Each fault is a
  ``Player N Fault ...`` line of the game's Botzone log and a ``fault`` event of its record.
* **Records** (``--records DIR``): per game ``game-NNNNN.botzone.txt`` (Botzone protocol),
  ``game-NNNNN.jsonl`` (our record, final scores = the tournament's), ``game-NNNNN.stderr.txt``
  (the bots' stderr, each line ``[name] ...``) and, written last, ``game-NNNNN.summary.json``;
  ``tournament.json`` holds the settings. ``--resume`` reads the summaries back and plays only the
  games without one, so an interrupted run ends with the same results as an uninterrupted one.
* **Stopping**: SIGTERM or SIGINT stops the workers and every bot process at once (a worker also
  stops when its parent dies).
* **Results** per bot: games, total score and mean with a 95% confidence interval (normal
  approximation, 1.96 standard errors), ranking points (4/3/2/1 per game by score, ties by seat
  order as on Botzone), wins, deal-ins, illegal answers, timeouts, crashes, mean and max
  milliseconds per request answered. Scores sum to zero over the bots. ``--json`` prints
  ``{"games": N, "bots": [{"name", "games", "score", "mean", "ci95": [low, high], "rank_points",
  "wins", "deal_ins", "illegal", "timeouts", "ms_per_decision", ...}], ...}`` (plus ``crashes``,
  ``ms_max_decision``, ``command`` per bot and ``seconds``, ``protocol``, ``format``, ``walls``,
  ``seed``, ``rules`` for the run). Per pair of bots, ``"pairs": [{"a", "b", "mean", "ci95",
  "walls"}]``: the paired difference by wall (:func:`pairs`), the figure that says whether ``a`` is
  ahead of ``b``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from majiang.engine.wall import derive_seed
from majiang.errors import MajiangError

PROTOCOLS = ("botzone", "jsonl")
FORMATS = ("duplicate", "random")


class TournamentError(MajiangError):
    """A tournament that cannot be set up (bad bot spec, wrong number of bots, bad option)."""


@dataclass(frozen=True)
class BotSpec:
    """One ``--bot``: ``name``; ``builtin`` (a :func:`~majiang.players.make_bot` name) or ``command``."""

    name: str
    builtin: str | None = None
    command: str | None = None


def parse_bot(text: str) -> BotSpec:
    """``efficiency``, ``random``, ``strong``, ``learned``, ``python:package.module:factory``,
    ``NAME=COMMAND`` or a bare command (named by its text)."""
    from majiang.players import BOT_NAMES

    text = text.strip()
    if not text:
        raise TournamentError("an empty --bot")
    name, eq, rest = text.partition("=")
    if eq and name.strip() and " " not in name.strip():
        name, body = name.strip(), rest.strip()
    else:
        name, body = text, text
    if not body:
        raise TournamentError(f"--bot {text!r}: nothing after '='")
    key = body.lower()
    if key.startswith("python:"):  # a Python policy (majiang.players.pyplayer): module names keep their case
        return BotSpec(name, builtin=body)
    if key in BOT_NAMES or key == "eff":
        return BotSpec(name, builtin="efficiency" if key == "eff" else key)
    return BotSpec(name, command=body)


def seatings(fmt: str, n_bots: int, walls: int, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """The games: ``(wall index, bot index per seat)``."""
    if fmt == "duplicate":
        if n_bots != 4:
            raise TournamentError(f"the duplicate format needs exactly four bots, got {n_bots}")
        perms = list(itertools.permutations(range(4)))
        return [(k, p) for k in range(walls) for p in perms]
    if n_bots < 4:
        raise TournamentError(f"a game needs four bots, got {n_bots}")
    out = []
    for k in range(walls):
        rng = random.Random(derive_seed(seed, "seating", k))
        out.append((k, tuple(rng.sample(range(n_bots), 4))))
    return out


# ------------------------------------------------------------------------------ one game
@dataclass
class GameSpec:
    protocol: str
    bots: tuple[BotSpec, ...]
    rules: str
    seed: int
    game: int
    wall: int
    seating: tuple[int, ...]
    records: str | None
    time_limit: float | None
    simple: bool
    bot_times: tuple[tuple[str, str], ...] = ()


def parse_bot_time(text: str) -> tuple[str, str]:
    """``NAME=SECONDS`` or ``NAME=LANGUAGE`` (``--bot-time``): a bot's own limit per request, in
    seconds, or the language whose Botzone factor multiplies ``--time-limit``
    (:data:`~majiang.protocols.procs.LANGUAGE_NAMES`). Raises :class:`TournamentError`."""
    from majiang.protocols.procs import LANGUAGE_NAMES

    name, eq, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not eq or not name or not value:
        raise TournamentError(f"--bot-time {text!r}: expected NAME=SECONDS or NAME=LANGUAGE")
    try:
        if float(value) <= 0:
            raise TournamentError(f"--bot-time {text!r}: seconds must be > 0")
    except ValueError:
        if value.lower() not in LANGUAGE_NAMES:
            raise TournamentError(f"--bot-time {text!r}: {value!r} is neither seconds nor a language "
                                  f"({', '.join(sorted(LANGUAGE_NAMES))})") from None
    return name, value


def bot_limit(spec: BotSpec, time_limit: float | None, bot_times: Sequence[tuple[str, str]] = ()) -> float | None:
    """Seconds per request for an external bot: its ``--bot-time`` seconds, else ``time_limit`` ×
    the Botzone factor of its ``--bot-time`` language or of the language its command finally runs
    (:func:`~majiang.protocols.procs.language_of`; 1 when unseen). ``None``: no limit."""
    from majiang.protocols.procs import LANGUAGE_FACTORS, LANGUAGE_NAMES, language_of

    given = dict(bot_times).get(spec.name)
    if given is not None:
        try:
            return float(given)
        except ValueError:
            lang: str | None = LANGUAGE_NAMES[given.lower()]
    else:
        lang = language_of(spec.command or "")
    if time_limit is None:
        return None
    return time_limit * LANGUAGE_FACTORS.get(lang or "cpp", 1.0)


def _judge_player(spec: BotSpec, seed: int, stderr: Any, time_limit: float | None, simple: bool,
                  bot_times: Sequence[tuple[str, str]] = ()) -> Any:
    from majiang.engine.ruleset import RuleSet
    from majiang.players import make_bot
    from majiang.protocols.judge import BotzoneProcess, EnginePlayer

    if spec.builtin:
        return EnginePlayer(spec.name, make_bot(spec.builtin, RuleSet.preset("mcr"), seed))
    assert spec.command is not None
    limit = bot_limit(spec, time_limit, bot_times)
    return BotzoneProcess(spec.name, spec.command, simple=simple, time_limit=limit if limit is not None else 3600.0,
                          stderr=stderr)


def play_one(g: GameSpec) -> dict:
    """Play one game and summarise it by bot index (run in a worker)."""
    gseed = derive_seed(g.seed, "wall", g.wall)
    stderr = None
    if g.records:
        stderr = open(Path(g.records) / f"game-{g.game:05d}.stderr.txt", "w", encoding="utf-8")  # noqa: SIM115
    try:
        if g.protocol == "botzone":
            out = _play_botzone(g, gseed, stderr)
        else:
            out = _play_jsonl(g, gseed, stderr)
    finally:
        if stderr is not None:
            stderr.close()
            p = Path(stderr.name)
            if p.stat().st_size == 0:
                p.unlink()
    if g.records:  # last, atomically: a game with a summary is done (--resume)
        path = Path(g.records) / f"game-{g.game:05d}.summary.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(out) + "\n", encoding="utf-8")
        tmp.replace(path)
    return out


def _play_botzone(g: GameSpec, gseed: int, stderr: Any) -> dict:
    from majiang.protocols.judge import play_game, record_match, shuffled_wall

    wall = shuffled_wall(random.Random(gseed), "duplicate")
    players = [_judge_player(g.bots[b], derive_seed(g.seed, "game", g.game, "seat", s), stderr, g.time_limit, g.simple,
                             g.bot_times) for s, b in enumerate(g.seating)]
    r = play_game(players, wall, g.wall % 4, match_id=f"local-{g.seed}-{g.game}")
    if g.records:
        base = Path(g.records) / f"game-{g.game:05d}"
        base.with_suffix(".botzone.txt").write_text(r.log_text, encoding="utf-8")
        from majiang.records.jsonl import write_record

        m = record_match(r.log_text, [g.bots[b].name for b in g.seating], r.faults)
        write_record(m, base.with_suffix(".jsonl"))
    return _summary(g, r.scores, r.winner, r.discarder, [(f.seat, f.kind) for f in r.faults], r.times)


def _summary(g: GameSpec, scores: Sequence[int], winner: int | None, discarder: int | None,
             faults: Sequence[tuple[int, str]], times: Sequence[Sequence[float]]) -> dict:
    return {"game": g.game, "wall": g.wall, "seating": list(g.seating), "scores": list(scores), "winner": winner,
            "discarder": discarder, "faults": [list(f) for f in faults], "times": [list(t) for t in times]}


class JsonlProcess:
    """An external bot speaking :mod:`majiang.protocols.jsonl`, one process per game."""

    def __init__(self, name: str, command: str, time_limit: float | None, stderr: Any, rules: Any = None) -> None:
        from majiang.protocols.procs import language_factor

        self.name = name
        self.command = command
        self.time_limit = time_limit if time_limit is not None else 1.0 * language_factor(command)
        self.stderr = stderr
        self.rules = rules
        self.proc: Any = None
        self.sent = 0
        self.first = True
        self.requests = 0  # requests sent (a fault names its number)

    def _send(self, obj: dict) -> None:
        from majiang.protocols.procs import LineProcess

        if self.proc is None:
            self.proc = LineProcess(self.command, stderr=self.stderr, label=self.name if self.stderr else None)
        self.proc.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))

    def flush(self, events: Sequence[dict], seat: int) -> None:
        from majiang.protocols.jsonl import seat_event

        for ev in events[self.sent:]:
            if ev.get("type") != "fault":  # the judge's charges are not the game's events
                self._send(seat_event(ev, seat, self.rules))
        self.sent = len(events)

    def ask(self, request: dict, offered: Sequence[dict]) -> int:
        from majiang.protocols.jsonl import JsonlProtocolError, match_answer
        from majiang.protocols.procs import BotFault

        limit = self.time_limit * (2 if self.first else 1)
        self.first = False
        self.requests += 1
        self._send(request)
        deadline = time.monotonic() + limit
        while True:
            line = self.proc.read_line(deadline)
            if line is None:
                raise BotFault(f"{self.name} exited", kind="crash")
            if line.strip():
                break
        answer = " ".join(line.split())[:200]
        try:
            return match_answer(json.loads(line), offered)
        except json.JSONDecodeError:
            raise BotFault(f"{self.name}: {line[:60]!r} is not JSON", kind="garbage", answer=answer) from None
        except JsonlProtocolError as e:
            raise BotFault(f"{self.name}: {e}", kind="illegal", answer=answer) from None

    def close(self, events: Sequence[dict] | None = None, seat: int = 0, scores: Any = None) -> None:
        if self.proc is not None:
            try:
                if events is not None:
                    self.flush(events, seat)
                    if not events or events[-1].get("type") != "end_game":
                        self._send({"type": "end_game", "scores": list(scores or [])})
            except MajiangError:
                pass
            self.proc.close()
            self.proc = None


def _auto(view: Any, actions: Sequence[Any]) -> Any:
    from majiang.engine.actions import PASS, ActionKind

    if PASS in actions:
        return PASS
    for a in actions:
        if a.kind is ActionKind.DISCARD and a.tile == view.last_draw:
            return a
    return next((a for a in actions if a.kind is ActionKind.DISCARD), actions[0])


def _play_jsonl(g: GameSpec, gseed: int, stderr: Any) -> dict:
    from majiang.engine.match import Match
    from majiang.engine.ruleset import resolve
    from majiang.players import make_bot
    from majiang.protocols.jsonl import request_json
    from majiang.protocols.judge import FAULT_BONUS, FAULT_PENALTY
    from majiang.protocols.procs import BotFault

    rules = resolve(g.rules).with_options(seat_draw=False, first_dealer="east")
    wall = list(rules.tile_set)
    random.Random(gseed).shuffle(wall)
    names = [g.bots[b].name for b in g.seating]
    m = Match(rules, seed=gseed, walls=[wall], names=names, max_hands=1)
    players: list[Any] = []
    for s, b in enumerate(g.seating):
        spec = g.bots[b]
        if spec.builtin:
            players.append(make_bot(spec.builtin, rules, derive_seed(g.seed, "game", g.game, "seat", s)))
        else:
            assert spec.command is not None
            lim = bot_limit(spec, g.time_limit, g.bot_times)
            players.append(JsonlProcess(spec.name, spec.command, lim if lim is not None else 3600.0, stderr, rules))
    auto = [False] * 4
    faults: list[tuple[int, str]] = []
    times: list[list[float]] = [[], [], [], []]
    try:
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            p = players[s]
            if acts[0].kind.value == "decide":  # a rule set's pre-play decision (定缺): its default policy
                m.apply(s, m.default_action(s))
                continue
            if auto[s]:
                a = _auto(m.view(s), acts)
            elif isinstance(p, JsonlProcess):
                t0 = time.perf_counter()
                try:
                    p.flush(m.events, s)
                    req, offered = request_json(m, s, acts)
                    a = acts[p.ask(req, offered)]
                    times[s].append(time.perf_counter() - t0)
                except BotFault as e:
                    times[s].append(time.perf_counter() - t0)
                    faults.append((s, e.kind))
                    auto[s] = True
                    m.charge(s, [-FAULT_PENALTY if q == s else FAULT_BONUS for q in range(4)], kind=e.kind,
                             request=p.requests, answer=e.answer, reason=str(e))
                    p.close()
                    a = _auto(m.view(s), acts)
            else:
                t0 = time.perf_counter()
                a = p.choose(m.view(s), acts)
                times[s].append(time.perf_counter() - t0)
            m.apply(s, a)
    finally:
        for s, p in enumerate(players):
            if isinstance(p, JsonlProcess):
                p.close(m.events if not auto[s] else None, s, m.scores)
    res = m.results[0] if m.results else None
    winner = discarder = None
    if res is not None and res.wins:
        winner, discarder = res.wins[0].winner, res.wins[0].discarder
    if g.records:
        from majiang.records.jsonl import write_record

        write_record(m, Path(g.records) / f"game-{g.game:05d}.jsonl")
    return _summary(g, list(m.scores), winner, discarder, faults, times)


# ------------------------------------------------------------------------------ the tournament
class _Stopped(BaseException):
    """SIGTERM/SIGINT reached the tournament: stop the workers and every bot, then exit."""


def _stop_worker(signum: int, frame: Any) -> None:  # pragma: no cover - runs in a killed worker
    from majiang.protocols.procs import kill_all

    kill_all()
    os._exit(128 + signum)


def _worker_init() -> None:  # pragma: no cover - runs in the worker processes
    """A worker stops (and kills its bots) on SIGTERM, and gets SIGTERM when its parent dies (Linux)."""
    signal.signal(signal.SIGTERM, _stop_worker)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(1)
    except (OSError, AttributeError):
        pass


SETTINGS_FILE = "tournament.json"
"""The settings of a tournament with ``--records``, checked by ``--resume``."""


def _settings(protocol: str, specs: Sequence[BotSpec], walls: int, seed: int, fmt: str, rules: str,
              time_limit: float | None, simple: bool, bot_times: Sequence[tuple[str, str]]) -> dict:
    return {"protocol": protocol, "bots": [[b.name, b.builtin, b.command] for b in specs], "walls": walls,
            "seed": seed, "format": fmt, "rules": rules, "time_limit": time_limit, "simple": simple,
            "bot_times": [list(x) for x in bot_times]}


def _done(records: Path, games: Sequence[GameSpec]) -> dict[int, dict]:
    """The summaries of the games already played into ``records`` (``game-NNNNN.summary.json``)."""
    out = {}
    for g in games:
        p = records / f"game-{g.game:05d}.summary.json"
        if p.exists():
            try:
                r = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                continue  # cut short: played again
            if r.get("game") == g.game and r.get("seating") == list(g.seating):
                out[g.game] = r
    return out


def run_tournament(protocol: str, bots: Sequence[str], *, walls: int = 1, seed: int = 0, fmt: str = "duplicate",
                   workers: int = 1, records: str | Path | None = None, rules: str = "mcr",
                   time_limit: float | None = 1.0, simple: bool = False,
                   progress: Callable[[int, int], None] | None = None,
                   bot_times: Sequence[str | tuple[str, str]] = (), resume: bool = False) -> dict:
    """Run a tournament and return the results (the ``--json`` object; see the module doc).

    ``bot_times``: ``NAME=SECONDS`` / ``NAME=LANGUAGE`` per bot (:func:`parse_bot_time`).
    ``resume``: continue the tournament whose records are in ``records`` (same settings): games
    with a summary there are read back, the others played. SIGTERM or SIGINT stops the workers and
    every bot they started before the exception propagates.

    Raises :class:`TournamentError` on a bad setup (unknown protocol or format, wrong bot count, a
    rule set other than ``mcr`` with the Botzone protocol, ``--bot-time`` for no bot, ``resume``
    without ``records`` or with other settings).
    """
    if protocol not in PROTOCOLS:
        raise TournamentError(f"--protocol must be one of {PROTOCOLS}, got {protocol!r}")
    if fmt not in FORMATS:
        raise TournamentError(f"--format must be one of {FORMATS}, got {fmt!r}")
    if walls < 1 or workers < 1:
        raise TournamentError("--walls and --workers must be at least 1")
    if protocol == "botzone" and rules != "mcr":
        raise TournamentError("the Botzone protocol plays Botzone's Chinese Standard rules only (drop --rules)")
    if protocol == "jsonl":
        from majiang.engine.ruleset import resolve

        resolve(rules)  # validate early
    if resume and records is None:
        raise TournamentError("--resume needs --records (the folder of the interrupted tournament)")
    specs = [parse_bot(b) for b in bots]
    seen: dict[str, int] = {}
    named = []
    for s in specs:
        seen[s.name] = seen.get(s.name, 0) + 1
        named.append(s if seen[s.name] == 1 else BotSpec(f"{s.name}#{seen[s.name]}", s.builtin, s.command))
    specs = named
    times = tuple(parse_bot_time(x) if isinstance(x, str) else (str(x[0]), str(x[1])) for x in bot_times)
    for name, _ in times:
        if not any(b.name == name and b.command for b in specs):
            raise TournamentError(f"--bot-time {name}: no external bot is named {name!r} "
                                  f"(external bots: {', '.join(b.name for b in specs if b.command) or 'none'})")
    plan = seatings(fmt, len(specs), walls, seed)
    settings = _settings(protocol, specs, walls, seed, fmt, rules, time_limit, simple, times)
    done: dict[int, dict] = {}
    games = [GameSpec(protocol, tuple(specs), rules, seed, i, k, seat, str(records) if records else None, time_limit,
                      simple, times) for i, (k, seat) in enumerate(plan)]
    if records is not None:
        rec = Path(records)
        rec.mkdir(parents=True, exist_ok=True)
        sfile = rec / SETTINGS_FILE
        if resume:
            try:
                before = json.loads(sfile.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                raise TournamentError(f"--resume: {sfile} is missing or unreadable (not a tournament's records?)") \
                    from None
            if before != json.loads(json.dumps(settings)):
                diff = sorted(k for k in settings if before.get(k) != json.loads(json.dumps(settings))[k])
                raise TournamentError(f"--resume: the records in {rec} are of another tournament "
                                      f"(different {', '.join(diff)})")
            done = _done(rec, games)
        else:
            sfile.write_text(json.dumps(settings) + "\n", encoding="utf-8")
    todo = [g for g in games if g.game not in done]
    t0 = time.perf_counter()
    results: list[dict] = list(done.values())
    old = {}
    in_main = threading.current_thread() is threading.main_thread()

    def stop(signum: int, frame: Any) -> None:
        raise _Stopped(signum)

    if in_main:
        for sig in (signal.SIGTERM, signal.SIGINT):
            old[sig] = signal.signal(sig, stop)
    ex: ProcessPoolExecutor | None = None
    try:
        if progress and results:
            progress(len(results), len(games))
        if workers == 1 or len(todo) <= 1:
            for g in todo:
                results.append(play_one(g))
                if progress:
                    progress(len(results), len(games))
        elif todo:
            if any(s.builtin for s in specs):  # forked workers inherit the analysis tables' common blocks
                from majiang.analysis.tables import build_blocks

                build_blocks(7)
            ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
            futures = [ex.submit(play_one, g) for g in todo]
            for f in as_completed(futures):
                results.append(f.result())
                if progress:
                    progress(len(results), len(games))
            ex.shutdown()
            ex = None
    except _Stopped as e:
        _halt(ex)
        raise KeyboardInterrupt(f"stopped by signal {e.args[0]}") from None
    except BaseException:
        _halt(ex)
        raise
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
    results.sort(key=lambda r: r["game"])
    out = summarise(specs, results)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    out.update(protocol=protocol, format=fmt, walls=walls, seed=seed, rules=rules if protocol == "jsonl" else "botzone")
    return out


def _halt(ex: ProcessPoolExecutor | None) -> None:
    """Stop the workers (SIGTERM: each kills its bots; SIGKILL after 2 s) and this process's bots."""
    from majiang.protocols.procs import kill_all

    kill_all()
    if ex is None:
        return
    procs = list(getattr(ex, "_processes", {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, AttributeError):
            pass
    end = time.monotonic() + 2.0
    for p in procs:
        p.join(max(0.0, end - time.monotonic()))
        if p.is_alive():
            p.kill()
    ex.shutdown(wait=False, cancel_futures=True)


def summarise(specs: Sequence[BotSpec], results: Sequence[dict]) -> dict:
    """Per-bot statistics from game summaries (see the module doc)."""
    n = len(specs)
    per: list[list[int]] = [[] for _ in range(n)]
    rank = [0] * n
    wins = [0] * n
    deal_ins = [0] * n
    illegal = [0] * n
    timeouts = [0] * n
    crashes = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    for r in results:
        seat_bot = r["seating"]
        sc = r["scores"]
        order = sorted(range(4), key=lambda s: (-sc[s], s))
        for place, s in enumerate(order):
            rank[seat_bot[s]] += 4 - place
        for s in range(4):
            b = seat_bot[s]
            per[b].append(sc[s])
            times[b] += r["times"][s]
        if r["winner"] is not None:
            wins[seat_bot[r["winner"]]] += 1
            if r["discarder"] is not None:
                deal_ins[seat_bot[r["discarder"]]] += 1
        for s, kind in r["faults"]:
            b = seat_bot[s]
            if kind == "timeout":
                timeouts[b] += 1
            elif kind == "crash":
                crashes[b] += 1
            else:
                illegal[b] += 1
    bots = []
    for b, spec in enumerate(specs):
        xs = per[b]
        k = len(xs)
        mean = sum(xs) / k if k else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (k - 1)) if k > 1 else 0.0
        ci = 1.96 * sd / math.sqrt(k) if k > 1 else 0.0
        ts = times[b]
        bots.append({"name": spec.name, "games": k, "score": sum(xs), "mean": round(mean, 4),
                     "ci95": [round(mean - ci, 4), round(mean + ci, 4)], "rank_points": rank[b], "wins": wins[b],
                     "deal_ins": deal_ins[b], "illegal": illegal[b], "timeouts": timeouts[b], "crashes": crashes[b],
                     "ms_per_decision": round(1000 * sum(ts) / len(ts), 3) if ts else 0.0,
                     "ms_max_decision": round(1000 * max(ts), 3) if ts else 0.0,
                     "command": spec.command or spec.builtin})
    return {"games": len(results), "bots": bots, "pairs": pairs(specs, results)}


def pairs(specs: Sequence[BotSpec], results: Sequence[dict]) -> list[dict]:
    """For every two bots ``a`` before ``b`` (``--bot`` order): the paired difference by wall.

    In each wall both played, ``d = mean score of a - mean score of b`` over that wall's games
    (duplicate: 24 games each; random: the one game, when both sat at it); ``mean`` is the mean of
    ``d`` over those ``walls``, ``ci95`` its 95% interval (1.96 standard errors of the mean of the
    walls' differences; a single wall gives ``[mean, mean]``). Pairing by wall takes the luck of the
    wall out of the comparison, which the per-bot intervals (games taken as independent) do not."""
    by_wall: dict[int, list[list[int]]] = {}
    for r in results:
        w = r.get("wall", r["game"])
        cell = by_wall.setdefault(w, [[] for _ in specs])
        for s, b in enumerate(r["seating"]):
            cell[b].append(r["scores"][s])
    out = []
    for a, b in itertools.combinations(range(len(specs)), 2):
        ds = [sum(c[a]) / len(c[a]) - sum(c[b]) / len(c[b]) for _, c in sorted(by_wall.items()) if c[a] and c[b]]
        k = len(ds)
        mean = sum(ds) / k if k else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in ds) / (k - 1)) if k > 1 else 0.0
        ci = 1.96 * sd / math.sqrt(k) if k > 1 else 0.0
        out.append({"a": specs[a].name, "b": specs[b].name, "mean": round(mean, 4),
                    "ci95": [round(mean - ci, 4), round(mean + ci, 4)], "walls": k})
    return out


def describe(res: dict) -> str:
    """A plain table of the results, best score first (``rank``: ranking points, 4/3/2/1 a game)."""
    lines = [f"{res['games']} games ({res.get('format')}, {res.get('protocol')}, {res.get('seconds', 0):.1f} s); "
             "sorted by score; rank = ranking points (4/3/2/1 per game)",
             f"{'bot':<20} {'games':>5} {'score':>7} {'mean':>8} {'95% CI':>19} {'rank':>5} {'wins':>5} "
             f"{'deal-in':>7} {'illegal':>7} {'t/o':>4} {'crash':>5} {'ms/dec':>7} {'ms max':>7}"]
    for b in sorted(res["bots"], key=lambda x: (-x["score"], -x["rank_points"])):
        lo, hi = b["ci95"]
        lines.append(f"{b['name'][:20]:<20} {b['games']:>5} {b['score']:>7} {b['mean']:>8.2f} "
                     f"{f'[{lo:.1f}, {hi:.1f}]':>19} {b['rank_points']:>5} {b['wins']:>5} {b['deal_ins']:>7} "
                     f"{b['illegal']:>7} {b['timeouts']:>4} {b['crashes']:>5} {b['ms_per_decision']:>7.2f} "
                     f"{b['ms_max_decision']:>7.1f}")
    if res.get("pairs"):
        lines += ["", "paired by wall: a - b = mean over walls of (a's mean score - b's) in each wall both played",
                  f"{'a':<20} {'b':<20} {'a - b':>8} {'95% CI':>19} {'walls':>5}"]
        for p in res["pairs"]:
            lo, hi = p["ci95"]
            lines.append(f"{p['a'][:20]:<20} {p['b'][:20]:<20} {p['mean']:>8.2f} {f'[{lo:.1f}, {hi:.1f}]':>19} "
                         f"{p['walls']:>5}")
    return "\n".join(lines)
