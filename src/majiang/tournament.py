"""Tournaments between bots: duplicate or random seatings, built-in or external bots, both protocols.

``majiang tournament --protocol botzone|jsonl --bot [NAME=]COMMAND ... [--walls N] [--seed S]
[--format duplicate|random] [--workers K] [--records DIR] [--json]``.

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
* **Faults**: a bot that crashes, hangs past its limit (1 s × its language factor per request, the
  first doubled; ``--time-limit`` overrides the 1 s) or answers illegally or with garbage is
  charged -30 (each other seat +10), replaced by passes and auto-discards for the rest of that game,
  and the game goes on; its next game starts it afresh. The tournament never stalls.
* **Results** per bot: games, total score and mean with a 95% confidence interval (normal
  approximation, 1.96 standard errors), ranking points (4/3/2/1 per game by score, ties by seat
  order as on Botzone), wins, deal-ins, illegal answers, timeouts, crashes, mean and max
  milliseconds per request answered. Scores sum to zero over the bots. ``--json`` prints
  ``{"games": N, "bots": [{"name", "games", "score", "mean", "ci95": [low, high], "rank_points",
  "wins", "deal_ins", "illegal", "timeouts", "ms_per_decision", ...}], ...}`` (plus ``crashes``,
  ``ms_max_decision``, ``command`` per bot and ``seconds``, ``protocol``, ``format``, ``walls``,
  ``seed``, ``rules`` for the run).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
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


def _judge_player(spec: BotSpec, seed: int, stderr: Any, time_limit: float | None, simple: bool) -> Any:
    from majiang.engine.ruleset import RuleSet
    from majiang.players import make_bot
    from majiang.protocols.judge import BotzoneProcess, EnginePlayer
    from majiang.protocols.procs import language_factor

    if spec.builtin:
        return EnginePlayer(spec.name, make_bot(spec.builtin, RuleSet.preset("mcr"), seed))
    assert spec.command is not None
    limit = None if time_limit is None else time_limit * language_factor(spec.command)
    return BotzoneProcess(spec.name, spec.command, simple=simple, time_limit=limit, stderr=stderr)


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
    return out


def _play_botzone(g: GameSpec, gseed: int, stderr: Any) -> dict:
    from majiang.protocols.judge import play_game, record_match, shuffled_wall

    wall = shuffled_wall(random.Random(gseed), "duplicate")
    players = [_judge_player(g.bots[b], derive_seed(g.seed, "game", g.game, "seat", s), stderr, g.time_limit, g.simple)
               for s, b in enumerate(g.seating)]
    r = play_game(players, wall, g.wall % 4, match_id=f"local-{g.seed}-{g.game}")
    if g.records:
        base = Path(g.records) / f"game-{g.game:05d}"
        base.with_suffix(".botzone.txt").write_text(r.log_text, encoding="utf-8")
        from majiang.records.jsonl import write_record

        m = record_match(r.log_text, [g.bots[b].name for b in g.seating])
        write_record(m, base.with_suffix(".jsonl"))
    return _summary(g, r.scores, r.winner, r.discarder, [(f.seat, f.kind) for f in r.faults], r.times)


def _summary(g: GameSpec, scores: Sequence[int], winner: int | None, discarder: int | None,
             faults: Sequence[tuple[int, str]], times: Sequence[Sequence[float]]) -> dict:
    return {"game": g.game, "seating": list(g.seating), "scores": list(scores), "winner": winner,
            "discarder": discarder, "faults": [list(f) for f in faults], "times": [list(t) for t in times]}


class JsonlProcess:
    """An external bot speaking :mod:`majiang.protocols.jsonl`, one process per game."""

    def __init__(self, name: str, command: str, time_limit: float | None, stderr: Any) -> None:
        from majiang.protocols.procs import language_factor

        self.name = name
        self.command = command
        self.time_limit = time_limit if time_limit is not None else 1.0 * language_factor(command)
        self.stderr = stderr
        self.proc: Any = None
        self.sent = 0
        self.first = True

    def _send(self, obj: dict) -> None:
        from majiang.protocols.procs import LineProcess

        if self.proc is None:
            self.proc = LineProcess(self.command, stderr=self.stderr)
        self.proc.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))

    def flush(self, events: Sequence[dict], seat: int) -> None:
        from majiang.protocols.jsonl import seat_event

        for ev in events[self.sent:]:
            self._send(seat_event(ev, seat))
        self.sent = len(events)

    def ask(self, request: dict, offered: Sequence[dict]) -> int:
        from majiang.protocols.jsonl import JsonlProtocolError, match_answer
        from majiang.protocols.procs import BotFault

        limit = self.time_limit * (2 if self.first else 1)
        self.first = False
        self._send(request)
        deadline = time.monotonic() + limit
        while True:
            line = self.proc.read_line(deadline)
            if line is None:
                raise BotFault(f"{self.name} exited", kind="crash")
            if line.strip():
                break
        try:
            return match_answer(json.loads(line), offered)
        except json.JSONDecodeError:
            raise BotFault(f"{self.name}: {line[:60]!r} is not JSON", kind="garbage") from None
        except JsonlProtocolError as e:
            raise BotFault(f"{self.name}: {e}", kind="illegal") from None

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
            from majiang.protocols.procs import language_factor

            lim = None if g.time_limit is None else g.time_limit * language_factor(spec.command)
            players.append(JsonlProcess(spec.name, spec.command, lim, stderr))
    charges = [0, 0, 0, 0]
    auto = [False] * 4
    faults: list[tuple[int, str]] = []
    times: list[list[float]] = [[], [], [], []]
    try:
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            p = players[s]
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
                    for q in range(4):
                        charges[q] += -FAULT_PENALTY if q == s else FAULT_BONUS
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
    scores = [m.scores[s] + charges[s] for s in range(4)]
    return _summary(g, scores, winner, discarder, faults, times)


# ------------------------------------------------------------------------------ the tournament
def run_tournament(protocol: str, bots: Sequence[str], *, walls: int = 1, seed: int = 0, fmt: str = "duplicate",
                   workers: int = 1, records: str | Path | None = None, rules: str = "mcr",
                   time_limit: float | None = 1.0, simple: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> dict:
    """Run a tournament and return the results (the ``--json`` object; see the module doc).

    Raises :class:`TournamentError` on a bad setup (unknown protocol or format, wrong bot count, a
    rule set other than ``mcr`` with the Botzone protocol).
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
    specs = [parse_bot(b) for b in bots]
    seen: dict[str, int] = {}
    named = []
    for s in specs:
        seen[s.name] = seen.get(s.name, 0) + 1
        named.append(s if seen[s.name] == 1 else BotSpec(f"{s.name}#{seen[s.name]}", s.builtin, s.command))
    specs = named
    plan = seatings(fmt, len(specs), walls, seed)
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
    games = [GameSpec(protocol, tuple(specs), rules, seed, i, k, seat, str(records) if records else None, time_limit,
                      simple) for i, (k, seat) in enumerate(plan)]
    t0 = time.perf_counter()
    results: list[dict] = []
    if workers == 1:
        for g in games:
            results.append(play_one(g))
            if progress:
                progress(len(results), len(games))
    else:
        if any(s.builtin for s in specs):  # forked workers inherit the analysis tables' common blocks
            from majiang.analysis.tables import build_blocks

            build_blocks(7)
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for r in ex.map(play_one, games, chunksize=max(1, len(games) // (workers * 8))):
                results.append(r)
                if progress:
                    progress(len(results), len(games))
    out = summarise(specs, results)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    out.update(protocol=protocol, format=fmt, walls=walls, seed=seed, rules=rules if protocol == "jsonl" else "botzone")
    return out


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
    return {"games": len(results), "bots": bots}


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
    return "\n".join(lines)
