"""Training data from games: samples of (observation, action mask, action taken, outcome) written as
shards with a manifest, and the loader (the ``majiang dataset`` command; docs/learned.md).

Needs numpy only (no gymnasium, PyTorch or JAX). A **sample** is one decision of one seat:

=============  ===============  ======================================================================
field          dtype, shape     meaning
=============  ===============  ======================================================================
observation    float32 (C, 34)  the seat's observation (``--obs``: ``majiang-v1`` or ``botzone-v0``,
                                :mod:`majiang.rl.observations`)
action_mask    int8 (269,)      the legal actions (:mod:`majiang.rl.actions`); always holds ``action``
action         int16            the layout index of the action taken
seat           int8             the seat that decided (0-3)
player         int8             the player in that seat (0-3; seats rotate between MCR rounds)
score_change   float32          the seat's settlement of the hand the decision belongs to (points)
final_score    float32          the player's final match score (points; a Botzone round: its deltas)
hand           int16            the hand's number in the game (0-based)
step           int32            the sample's number in its game (0-based)
game_id        str              the game (``selfplay-<seed>-<g>``, a record's file stem, a Botzone
                                round's match id)
=============  ===============  ======================================================================

The rule set, the encoder (name, version, shape) and the action layout are the manifest's, one per
dataset. Which decisions make a sample: every action a seat takes when it had a choice (two legal
actions or more) and every action that is not a pass -- so the forced passes (a claim window where a
seat could only pass) are left out, and replaying the samples' actions, passing wherever no sample
is due, reproduces the game (tested on the shipped Botzone sample and on self-play).

Layout of a dataset folder: ``manifest.json`` (``format`` ``majiang-dataset``, ``version``,
``source``, ``rules`` (the rule set's options), ``rules_name``, ``observation``,
``encoder_version``, ``shape``, ``action_size``, ``layout_version``, ``samples``, ``games``,
``shards`` (file, samples, sha256), ``sources`` (path and sha256 of every input file, or the self-play
parameters) and ``digests`` (game id -> the SHA-256 of the game's record: our JSON-lines text for
records and self-play, the replayed table's events for a Botzone round)), then the shards:
``shard-*.npz`` (numpy, compressed) or ``shard-*.parquet`` (``--format parquet``, needs pyarrow;
the observation and mask flattened per row).
"""

from __future__ import annotations

import hashlib
import json
import os
import types
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from majiang.engine import Action, ActionKind, Match, RuleSet, derive_seed, resolve, run_match
from majiang.errors import MajiangError
from majiang.rl.actions import ACTION_SIZE, LAYOUT_VERSION, index_of
from majiang.rl.observations import OBSERVATIONS, Encoder
from majiang.tiles import WHITE

FORMAT = "majiang-dataset"
VERSION = 1
ENCODER_VERSIONS = {"majiang-v1": 1, "botzone-v0": 0}
"""The version each encoding's name carries (``majiang-v1`` is version 1 of the majiang planes)."""
FIELDS = ("observation", "action_mask", "action", "seat", "player", "score_change", "final_score", "hand",
          "step", "game_id")
SOURCES = ("records", "botzone", "selfplay")
SHARD_SIZE = 4096


class DatasetError(MajiangError):
    """A dataset that cannot be made or read (bad source, folder, format or field); names the thing."""


def white_face_of(rules: RuleSet, wild_face: int | None) -> int | None:
    """The face a White plays (白板代) under ``rules`` with wildcard ``wild_face`` (as the engine's
    ``HandTable.white_face``); ``None`` without a stand-in. Needed to index chows on a White."""
    return wild_face if (rules.white_stand_in and wild_face is not None and wild_face != WHITE) else None


def events_digest(events: Sequence[dict]) -> str:
    """SHA-256 of a table's events in our canonical JSON (one a line): a Botzone round's digest."""
    from majiang.records.jsonl import dumps

    return hashlib.sha256("".join(dumps(e) + "\n" for e in events).encode()).hexdigest()


def record_digest(match: Match) -> str:
    """SHA-256 of a match's JSON-lines record (each line ending in a newline), as ``majiang selfplay``'s."""
    from majiang.records.jsonl import record_lines

    return hashlib.sha256(("\n".join(record_lines(match)) + "\n").encode()).hexdigest()


class _Game:
    """The samples of one game being collected (numpy rows kept in lists until the game ends)."""

    def __init__(self, encoder: Encoder, game_id: str) -> None:
        self.encoder = encoder
        self.game_id = game_id
        self.obs: list[np.ndarray] = []
        self.mask: list[np.ndarray] = []
        self.action: list[int] = []
        self.seat: list[int] = []
        self.player: list[int] = []
        self.hand: list[int] = []

    def decide(self, view: Any, actions: Sequence[Action], action: Action, hand: int) -> None:
        """One decision: kept when the seat had a choice or did not pass (module doc). A rule set's
        pre-play decision (Sichuan 定缺, 换三张) is not a sample: the action layout has no index for it
        (the environments answer it with the rule set's default, docs/rl.md)."""
        if (len(actions) < 2 and action.kind is ActionKind.PASS) or action.kind is ActionKind.DECIDE:
            return
        wf = white_face_of(self.encoder.rules, view.wild_face)
        mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        for a in actions:
            mask[index_of(a, white_face=wf)] = 1
        idx = index_of(action, white_face=wf)
        if not mask[idx]:
            raise DatasetError(f"game {self.game_id}: seat {view.seat}'s action {action} is not among its legal actions")
        self.obs.append(self.encoder.encode(view))
        self.mask.append(mask)
        self.action.append(idx)
        self.seat.append(view.seat)
        self.player.append(view.player)
        self.hand.append(hand)

    def arrays(self, hand_deltas: Sequence[Sequence[float]], final_by_player: Sequence[float]) -> dict[str, np.ndarray]:
        n = len(self.action)
        hand = np.asarray(self.hand, dtype=np.int16)
        seat = np.asarray(self.seat, dtype=np.int8)
        player = np.asarray(self.player, dtype=np.int8)
        deltas = np.asarray(hand_deltas, dtype=np.float32).reshape(-1, 4)
        return {
            "observation": (np.stack(self.obs) if n else np.zeros((0, *self.encoder.shape), np.float32)),
            "action_mask": (np.stack(self.mask) if n else np.zeros((0, ACTION_SIZE), np.int8)),
            "action": np.asarray(self.action, dtype=np.int16),
            "seat": seat,
            "player": player,
            "score_change": deltas[hand, seat] if n else np.zeros(0, np.float32),
            "final_score": np.asarray(final_by_player, dtype=np.float32)[player] if n else np.zeros(0, np.float32),
            "hand": hand,
            "step": np.arange(n, dtype=np.int32),
            "game_id": np.asarray([self.game_id] * n, dtype="<U64"),
        }


class _Recorder:
    """A player wrapper that samples each decision of a bot in a running match."""

    def __init__(self, bot: Any, game: _Game, match: Match) -> None:
        self.bot, self.game, self.match = bot, game, match

    def choose(self, view: Any, actions: Sequence[Action]) -> Action:
        a = self.bot.choose(view, actions)
        self.game.decide(view, actions, a, len(self.match.results))
        return a


def _match_outcome(m: Match) -> tuple[list[list[int]], list[int]]:
    deltas = [list(r.deltas) for r in m.results]
    final = [m.scores[m.seat_of_player[p]] for p in range(4)]
    return deltas, final


def _concat(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}


# ------------------------------------------------------------------------------ sources
def selfplay_games(rules: str, bots: Sequence[str], games: Sequence[int], seed: int, observation: str,
                   max_hands: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Play the self-play games numbered ``games`` (the seeds of ``majiang selfplay``: game ``g`` is
    ``derive_seed(seed, "game", g)``, player ``p``'s bot ``derive_seed(seed, "game", g, "bot", p)``).
    Returns the samples and ``{game_id: record digest}``."""
    from majiang.players import make_bot

    rs = resolve(rules)
    enc = Encoder(rs, observation)
    parts, digests = [], {}
    for g in games:
        gid = f"selfplay-{seed}-{g}"
        game = _Game(enc, gid)
        m = Match(rs, seed=derive_seed(seed, "game", g), names=[f"{bots[p]}-{p}" for p in range(4)],
                  max_hands=max_hands)
        players = [_Recorder(make_bot(bots[p], rs, derive_seed(seed, "game", g, "bot", p)), game, m) for p in range(4)]
        run_match(m, players)
        parts.append(game.arrays(*_match_outcome(m)))
        digests[gid] = record_digest(m)
    return _concat(parts), digests


def record_samples(path: str | Path, observation: str = "majiang-v1") -> tuple[dict[str, np.ndarray], str]:
    """The samples of one of our JSON-lines records (replayed through the engine, every decision
    checked). Returns the samples and the record's digest (of the replayed match)."""
    from majiang.records.jsonl import read_record, replay

    p = Path(path)
    lines = p.read_text(encoding="utf-8").splitlines()
    h, _ = read_record(lines)
    enc = Encoder(RuleSet.from_options(h["rules"]), observation)
    game = _Game(enc, p.stem)

    def hook(m: Match, seat: int, action: Action) -> None:
        game.decide(m.view(seat), m.legal_actions(seat), action, len(m.results))

    m = replay(lines, on_decision=hook)
    return game.arrays(*_match_outcome(m)), record_digest(m)


def _table_view(t: Any, seat: int) -> Any:
    """A :class:`~majiang.engine.PlayerView` of a bare :class:`~majiang.engine.table.HandTable` (one
    Botzone round: players sit in their seats, scores start at zero)."""
    shim = types.SimpleNamespace(table=t, player_at_seat=(0, 1, 2, 3), rules=t.rules, scores=(0, 0, 0, 0),
                                 hand_number=0, round=t.prevalent_wind - 27 if t.prevalent_wind >= 27 else 0)
    return Match.view(shim, seat)  # type: ignore[arg-type]


def botzone_samples(path: str | Path | None = None, observation: str = "majiang-v1"
                    ) -> tuple[dict[str, np.ndarray], dict[str, str], RuleSet]:
    """The samples of every round of a Botzone log (default: the shipped sample), replayed through
    the engine (:func:`majiang.records.botzone_replay.replay_round`). Returns the samples, ``{game
    id: events digest}`` and the rule set (MCR without flowers)."""
    from majiang.records.botzone import read_log, sample_path
    from majiang.records.botzone_replay import replay_round

    rounds = read_log(path if path is not None else sample_path())
    base = RuleSet.preset("mcr", flowers=False, seat_draw=False)
    enc = Encoder(base, observation)
    parts, digests = [], {}
    for k, rnd in enumerate(rounds):
        gid = f"{rnd.match}" if sum(r.match == rnd.match for r in rounds) == 1 else f"{rnd.match}-{k}"
        game = _Game(enc, gid)

        def hook(t: Any, seat: int, action: Action, game: _Game = game) -> None:
            game.decide(_table_view(t, seat), t.legal_actions(seat), action, 0)

        rep = replay_round(rnd, base, on_decision=hook)
        parts.append(game.arrays([rep.deltas], rep.deltas))
        digests[gid] = events_digest(rep.table.events)
    return _concat(parts), digests, base


# ------------------------------------------------------------------------------ writing
def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_shard(samples: dict[str, np.ndarray], path: Path, fmt: str = "npz") -> dict[str, Any]:
    """Write one shard; returns its manifest entry (file, samples, sha256)."""
    path = Path(path)
    if fmt == "npz":
        with open(path, "wb") as f:
            np.savez_compressed(f, **{k: samples[k] for k in FIELDS})
    elif fmt == "parquet":
        pa, pq = _pyarrow()
        n = len(samples["action"])
        cols = {}
        for k in FIELDS:
            v = samples[k]
            cols[k] = pa.array(list(v.reshape(n, -1))) if v.ndim > 1 else pa.array(v)
        pq.write_table(pa.table(cols), path)
    else:
        raise DatasetError(f"format must be npz or parquet, got {fmt!r}")
    return {"file": path.name, "samples": int(len(samples["action"])), "sha256": _sha256(path)}


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise DatasetError("the parquet format needs pyarrow (pip install pyarrow); npz needs numpy only") from None
    return pa, pq


def _write_split(samples: dict[str, np.ndarray], out: Path, prefix: str, fmt: str, shard_size: int) -> list[dict]:
    n = len(samples["action"])
    ext = "npz" if fmt == "npz" else "parquet"
    entries = []
    for k, i in enumerate(range(0, max(n, 1), shard_size)):
        if n == 0:
            break
        part = {f: samples[f][i:i + shard_size] for f in FIELDS}
        entries.append(write_shard(part, out / f"{prefix}-{k:03d}.{ext}", fmt))
    return entries


def _selfplay_chunk(args: tuple) -> tuple[list[dict], dict[str, str], int]:
    rules, bots, chunk, seed, observation, max_hands, out, fmt, shard_size, index = args
    samples, digests = selfplay_games(rules, bots, chunk, seed, observation, max_hands)
    entries = _write_split(samples, Path(out), f"shard-{index:05d}", fmt, shard_size)
    return entries, digests, len(chunk)


def build(source: str, out: str | Path, *, inputs: Sequence[str | Path] = (), rules: str = "mcr",
          observation: str = "majiang-v1", bots: Sequence[str] = ("strong",), games: int = 1, seed: int = 0,
          workers: int = 1, executor: str = "process", max_hands: int | None = None, fmt: str = "npz",
          shard_size: int = SHARD_SIZE, chunk_size: int = 2, progress: Any = None) -> dict[str, Any]:
    """Make a dataset (the ``majiang dataset`` command) and return its manifest.

    ``source``: ``records`` (``inputs``: record files or folders of ``*.jsonl``), ``botzone``
    (``inputs``: log files; none = the shipped sample) or ``selfplay`` (``bots``: one name or four,
    ``games`` matches seeded from ``seed``, ``max_hands`` each, on ``workers`` processes or Ray).
    Raises :class:`DatasetError` for a bad argument, an output folder that already holds a dataset,
    or a missing input."""
    if source not in SOURCES:
        raise DatasetError(f"--from must be one of {', '.join(SOURCES)}, got {source!r}")
    if observation not in OBSERVATIONS:
        raise DatasetError(f"--obs must be one of {', '.join(OBSERVATIONS)}, got {observation!r}")
    if fmt not in ("npz", "parquet"):
        raise DatasetError(f"--format must be npz or parquet, got {fmt!r}")
    if fmt == "parquet":
        _pyarrow()
    if shard_size < 1:
        raise DatasetError(f"shard size must be at least 1, got {shard_size}")
    out = Path(out)
    if (out / "manifest.json").exists():
        raise DatasetError(f"{out} already holds a dataset (manifest.json); choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    shards: list[dict] = []
    digests: dict[str, str] = {}
    sources: list[dict] = []
    if source == "selfplay":
        from majiang.players import make_bot

        if games < 1:
            raise DatasetError(f"games must be at least 1, got {games}")
        if workers < 1:
            raise DatasetError(f"workers must be at least 1, got {workers}")
        names = [b.strip() for b in bots if b.strip()]
        if len(names) == 1:
            names *= 4
        if len(names) != 4:
            raise DatasetError(f"give one bot name or four, got {len(names)}")
        rs = resolve(rules)
        for nm in names:
            make_bot(nm, rs)
        chunks = [list(range(i, min(i + chunk_size, games))) for i in range(0, games, chunk_size)]
        jobs = [(rules, names, c, seed, observation, max_hands, str(out), fmt, shard_size, k)
                for k, c in enumerate(chunks)]
        done = 0
        for entries, dg, n in _run_jobs(jobs, workers, executor):
            shards += entries
            digests.update(dg)
            done += n
            if progress is not None:
                progress(done, games)
        rules_set = rs
        sources.append({"selfplay": {"bots": names, "games": games, "seed": seed, "max_hands": max_hands,
                                     "rules": rules}})
    elif source == "records":
        files: list[Path] = []
        for p in map(Path, inputs):
            if p.is_dir():
                files += sorted(p.glob("*.jsonl"))
            elif p.exists():
                files.append(p)
            else:
                raise DatasetError(f"no such record file or folder: {p}")
        if not files:
            raise DatasetError("--from records needs record files (*.jsonl) or folders holding them")
        parts = []
        rules_set = None
        for f in files:
            s, d = record_samples(f, observation)
            parts.append(s)
            digests[f.stem] = d
            sources.append({"path": str(f), "sha256": _sha256(f)})
            with open(f, encoding="utf-8") as fh:
                rs_f = RuleSet.from_options(json.loads(fh.readline())["rules"])
            if rules_set is None:
                rules_set = rs_f
            elif rs_f.to_options() != rules_set.to_options():
                raise DatasetError(f"{f}: another rule set ({rs_f.name}) than the first record's ({rules_set.name}); "
                                   "one dataset holds one rule set")
        shards = _write_split(_concat(parts), out, "shard-00000", fmt, shard_size)
    else:
        paths = [Path(p) for p in inputs] or [None]
        parts = []
        for p in paths:
            if p is not None and not p.exists():
                raise DatasetError(f"no such Botzone log: {p}")
            s, d, rules_set = botzone_samples(p, observation)
            parts.append(s)
            digests.update(d)
            from majiang.records.botzone import sample_path

            f = p if p is not None else sample_path()
            sources.append({"path": str(f), "sha256": _sha256(f)})
        shards = _write_split(_concat(parts), out, "shard-00000", fmt, shard_size)
    assert rules_set is not None
    enc = Encoder(rules_set, observation)
    manifest = {
        "format": FORMAT, "version": VERSION, "source": source,
        "rules": rules_set.to_options(), "rules_name": rules_set.name,
        "observation": observation, "encoder_version": ENCODER_VERSIONS[observation], "shape": list(enc.shape),
        "action_size": ACTION_SIZE, "layout_version": LAYOUT_VERSION,
        "samples": sum(s["samples"] for s in shards), "games": len(digests),
        "shards": sorted(shards, key=lambda s: s["file"]), "sources": sources, "digests": digests,
    }
    tmp = out / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, out / "manifest.json")
    return manifest


def _run_jobs(jobs: list[tuple], workers: int, executor: str) -> Iterator[tuple[list[dict], dict[str, str], int]]:
    if executor == "ray":
        try:
            import ray
        except ImportError:
            raise DatasetError("--executor ray needs ray (pip install 'majiang[ray]')") from None
        started = not ray.is_initialized()  # a Ray the caller started (a cluster) is left running
        if started:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            task = ray.remote(_selfplay_chunk)
            refs = [task.remote(j) for j in jobs]
            while refs:
                ready, refs = ray.wait(refs, num_returns=1)
                yield ray.get(ready[0])
        finally:
            if started:
                ray.shutdown()
        return
    if executor != "process":
        raise DatasetError(f"executor must be process or ray, got {executor!r}")
    if workers == 1:
        for j in jobs:
            yield _selfplay_chunk(j)
        return
    from majiang.selfplay import _context

    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        yield from pool.map(_selfplay_chunk, jobs)


# ------------------------------------------------------------------------------ reading
def read_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest of a dataset folder; :class:`DatasetError` when there is none or it is not ours."""
    p = Path(folder) / "manifest.json"
    if not p.exists():
        raise DatasetError(f"{folder} is not a dataset (no manifest.json)")
    m = json.loads(p.read_text(encoding="utf-8"))
    if m.get("format") != FORMAT:
        raise DatasetError(f"{p}: format {m.get('format')!r}, expected {FORMAT!r}")
    if m.get("version") != VERSION:
        raise DatasetError(f"{p}: version {m.get('version')!r}, this reader knows {VERSION}")
    return m


def read_shard(path: str | Path, fields: Sequence[str] | None = None, shape: Sequence[int] | None = None
               ) -> dict[str, np.ndarray]:
    """One shard's arrays (``fields``: a subset of :data:`FIELDS`; default all). A Parquet shard's
    flattened observation is reshaped to ``shape`` (the manifest's)."""
    want = list(FIELDS if fields is None else fields)
    bad = [f for f in want if f not in FIELDS]
    if bad:
        raise DatasetError(f"unknown field(s) {', '.join(bad)}; fields: {', '.join(FIELDS)}")
    path = Path(path)
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as z:
            return {f: z[f] for f in want}
    _, pq = _pyarrow()
    t = pq.read_table(path, columns=want)
    out = {}
    for f in want:
        col = t.column(f).to_pylist()
        if f == "observation":
            out[f] = np.asarray(col, dtype=np.float32).reshape(len(col), *(shape or (-1, 34)))
        elif f == "action_mask":
            out[f] = np.asarray(col, dtype=np.int8).reshape(len(col), ACTION_SIZE)
        elif f == "game_id":
            out[f] = np.asarray(col, dtype="<U64")
        else:
            out[f] = np.asarray(col)
    return out


def load(folder: str | Path, fields: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """Every sample of a dataset as numpy arrays, shards concatenated in manifest order:
    ``{"observation": (N, C, 34) float32, "action_mask": (N, 269) int8, "action": (N,) int16, ...}``."""
    m = read_manifest(folder)
    parts = [read_shard(Path(folder) / s["file"], fields, m["shape"]) for s in m["shards"]]
    keys = list(FIELDS if fields is None else fields)
    if not parts:
        return {k: np.zeros(0) for k in keys}
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


class Batches:
    """Minibatches of a dataset as dicts of numpy arrays -- an iterable that ``torch.utils.data.DataLoader(
    Batches(...), batch_size=None)`` or a JAX loop takes as it is (``torch.from_numpy``/``jnp.asarray``
    per array), needing neither installed.

    ``shuffle``: shards in a random order and the samples of each shard shuffled (``seed``; each
    iteration draws a new order from ``seed`` and the epoch number). ``drop_last``: skip a final
    short batch. ``len()``: the number of batches per epoch."""

    def __init__(self, folder: str | Path, batch_size: int = 256, *, fields: Sequence[str] | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if batch_size < 1:
            raise DatasetError(f"batch size must be at least 1, got {batch_size}")
        self.folder = Path(folder)
        self.manifest = read_manifest(folder)
        self.batch_size = batch_size
        self.fields = list(FIELDS if fields is None else fields)
        self.shuffle = shuffle
        self.seed = seed
        self.drop_last = drop_last
        self.epoch = 0

    def __len__(self) -> int:
        n = self.manifest["samples"]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self) -> Iterator[dict[str, np.ndarray]]:
        rng = np.random.default_rng(derive_seed(self.seed, "epoch", self.epoch) if self.shuffle else 0)
        self.epoch += 1
        shards = list(self.manifest["shards"])
        if self.shuffle:
            shards = [shards[i] for i in rng.permutation(len(shards))]
        carry: dict[str, np.ndarray] | None = None
        for s in shards:
            part = read_shard(self.folder / s["file"], self.fields, self.manifest["shape"])
            if self.shuffle:
                order = rng.permutation(len(part[self.fields[0]]))
                part = {k: v[order] for k, v in part.items()}
            if carry is not None:
                part = {k: np.concatenate([carry[k], part[k]]) for k in self.fields}
                carry = None
            n = len(part[self.fields[0]])
            full = n - n % self.batch_size
            for i in range(0, full, self.batch_size):
                yield {k: v[i:i + self.batch_size] for k, v in part.items()}
            if full < n:
                carry = {k: v[full:] for k, v in part.items()}
        if carry is not None and not self.drop_last:
            yield carry


def iter_batches(folder: str | Path, batch_size: int = 256, **kw: Any) -> Iterator[dict[str, np.ndarray]]:
    """One epoch of :class:`Batches` (same keyword arguments)."""
    return iter(Batches(folder, batch_size, **kw))


__all__ = ["Batches", "DatasetError", "ENCODER_VERSIONS", "FIELDS", "FORMAT", "SOURCES", "VERSION", "botzone_samples",
           "build", "events_digest", "iter_batches", "load", "read_manifest", "read_shard", "record_digest",
           "record_samples", "selfplay_games", "white_face_of", "write_shard"]
