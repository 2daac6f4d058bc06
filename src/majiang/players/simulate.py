"""Bot-versus-bot simulation: many matches, statistics, optional records (the ``simulate`` command).

Each game is one full match under the rule set (MCR: 4 rounds, 16 hands). Game ``g`` is seeded with
``derive_seed(seed, "game", g)`` and its bots with ``derive_seed(seed, "game", g, "bot", p)``, so a run
is reproducible from ``seed`` alone and game ``g`` does not depend on how many games run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from majiang.engine.match import Match, Player, run_match
from majiang.engine.ruleset import RuleSet, RuleSetError, resolve
from majiang.engine.wall import derive_seed
from majiang.players.efficiency import EfficiencyBot
from majiang.players.random_bot import RandomBot
from majiang.rules.registry import scorer_owner

BOT_NAMES: tuple[str, ...] = ("random", "efficiency", "strong", "learned")
"""Names accepted by :func:`make_bot` (``"eff"`` is short for ``"efficiency"``); besides them any
``python:package.module:factory`` (:mod:`majiang.players.pyplayer`)."""


def is_bot_name(text: str) -> bool:
    """True for a name :func:`make_bot` takes: one of :data:`BOT_NAMES`, ``eff`` or a ``python:`` spec
    (checked for its form only; loading it may still fail)."""
    key = text.strip().lower()
    return key in BOT_NAMES or key == "eff" or key.startswith("python:")


def make_bot(name: str, rules: RuleSet, seed: int = 0) -> Player:
    """A bot by name (:data:`BOT_NAMES`, or ``python:package.module:factory``); raises
    :class:`~majiang.engine.ruleset.RuleSetError` for an unknown name or a ``python:`` bot that does
    not load."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key in ("efficiency", "eff"):
        return EfficiencyBot(rules)
    if key == "strong":
        from majiang.players.strong import StrongBot

        return StrongBot(rules, seed)
    if key == "learned":
        from majiang.players.learned import LearnedBot

        return LearnedBot(rules, seed)
    if key.startswith("python:"):
        from majiang.players.pyplayer import make_python_bot

        return make_python_bot(name.strip(), rules, seed)
    raise RuleSetError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}, python:package.module:factory")


def simulate(rules: str, games: int, seed: int, bots: list[str], records_dir: Path | None = None,
             *, max_hands: int | None = None, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` matches between bots and return statistics.

    Args:
        rules: a preset name or spec (``"mcr"``, ``"mcr,scorer=mcr"``, see
            :func:`majiang.engine.ruleset.parse_spec`) -- or a :class:`RuleSet`.
        games: number of matches (>= 1).
        seed: the run's seed.
        bots: bot names for players 0-3 (one name = all four; see :data:`BOT_NAMES`).
        records_dir: if given, each match's record is written there as ``game-0000.jsonl``...
        max_hands: stop each match after this many hands (``None``: the full match).
        progress: called with the number of games finished after each game (for a progress bar).

    Returns a JSON-friendly dict:
        ``rules``, ``games``, ``seed``, ``bots``, ``hands`` (hands played);
        ``win_rate_by_seat`` (share of hands won by each seat 0-3; several winners on one discard
        each count), ``win_rate_by_player`` (by player 0-3, i.e. by bot), ``draw_rate`` (hands ended
        in an exhaustive draw), ``self_drawn_rate`` (share of wins that were self-drawn),
        ``average_score_by_player`` / ``average_score_by_seat`` (mean final match score), ``average_fan`` (mean scored value
        of a win: the scorer's total), ``value_unit`` (what that total counts: ``fan`` for MCR, ``tai``
        for Taiwan, ``multiplier`` for Wenzhou, ``points`` otherwise),
        ``records`` (paths written).

    Raises :class:`~majiang.engine.ruleset.RuleSetError` for an unknown rule set or bot, and
    :class:`ValueError` for ``games < 1`` or a wrong number of bots.
    """
    rs = resolve(rules)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    names = list(bots) if bots else ["random"]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise ValueError(f"give one bot name or four, got {len(names)}")
    for n in names:
        make_bot(n, rs)  # validate early
    if records_dir is not None:
        records_dir = Path(records_dir)
        records_dir.mkdir(parents=True, exist_ok=True)
    hands = 0
    draws = 0
    wins_seat = [0, 0, 0, 0]
    wins_player = [0, 0, 0, 0]
    self_drawn = 0
    n_wins = 0
    fan_total = 0
    owner = scorer_owner(rs.scorer)  # what a win's total counts: the unit of the scorer's rule set
    unit = owner.unit if owner is not None else "points"
    score_sum = [0, 0, 0, 0]
    seat_sum = [0, 0, 0, 0]
    written: list[str] = []
    for g in range(games):
        gseed = derive_seed(seed, "game", g)
        players = [make_bot(names[p], rs, derive_seed(seed, "game", g, "bot", p)) for p in range(4)]
        m = Match(rs, seed=gseed, names=[f"{names[p]}-{p}" for p in range(4)], max_hands=max_hands)
        run_match(m, players)
        for res in m.results:
            hands += 1
            if res.drawn:
                draws += 1
            for w in res.wins:
                n_wins += 1
                wins_seat[w.winner] += 1
                wins_player[m.player_at_seat[w.winner]] += 1
                fan_total += w.result.total
                unit = getattr(w.result, "unit", None) or unit
                if w.discarder is None:
                    self_drawn += 1
        for p in range(4):
            score_sum[p] += m.scores[m.seat_of_player[p]]
            seat_sum[p] += m.scores[p]
        if records_dir is not None:
            from majiang.records.jsonl import write_record

            written.append(str(write_record(m, records_dir / f"game-{g:04d}.jsonl")))
        if progress is not None:
            progress(g + 1)
    h = max(hands, 1)
    return {
        "rules": rules if isinstance(rules, str) else rs.name,
        "games": games,
        "seed": seed,
        "bots": names,
        "hands": hands,
        "win_rate_by_seat": [w / h for w in wins_seat],
        "win_rate_by_player": [w / h for w in wins_player],
        "draw_rate": draws / h,
        "self_drawn_rate": self_drawn / n_wins if n_wins else 0.0,
        "average_score_by_player": [s / games for s in score_sum],
        "average_score_by_seat": [s / games for s in seat_sum],
        "average_fan": fan_total / n_wins if n_wins else 0.0,
        "value_unit": unit,
        "records": written,
    }


def describe(stats: dict[str, Any]) -> str:
    """A few plain lines summarising :func:`simulate`'s result."""
    pct = lambda xs: " ".join(f"{100 * x:5.1f}%" for x in xs)  # noqa: E731
    return "\n".join([
        f"{stats['games']} game(s), {stats['hands']} hands, rules {stats['rules']}, bots {', '.join(stats['bots'])}",
        f"win rate by seat:   {pct(stats['win_rate_by_seat'])}",
        f"win rate by player: {pct(stats['win_rate_by_player'])}",
        f"draw rate {100 * stats['draw_rate']:.1f}%  self-drawn {100 * stats['self_drawn_rate']:.1f}% of wins  "
        f"average {stats.get('value_unit', 'fan')} per win {stats['average_fan']:.2f}",
        "average score by player: " + " ".join(f"{s:+.1f}" for s in stats["average_score_by_player"]),
    ])

