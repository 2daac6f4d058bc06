"""The mask property check (docs/rl.md, "Masks"): over random states of a rule set, every awaited
seat's mask is non-empty, maps one to one onto the engine's legal actions, and every masked index is
accepted when applied (on a copy of the table); an idle seat's mask is ``pass`` only.

Used by ``tests/rl/test_masks.py`` (300 states per rule set) and by
``benchmarks/rl_mask_property.py`` (10,000 states per preset).

The states come from games played by a *claim-happy* random policy: wins, kongs, pungs, chows and
报听 are taken with probability ``eager`` when offered (so those windows are reached often), else a
uniform masked index.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

import numpy as np

from majiang.rl.actions import CHOW_BASE, PASS_INDEX, WIN_INDEX, index_of
from majiang.rl.core import Table


def _copy_match(m):
    """A deep copy of a match that shares the immutable rule set and the scorer objects (and their caches)."""
    t = m.table
    memo = {id(m.rules): m.rules, id(t.scorer): t.scorer, id(t.settlement): t.settlement,
            id(t.shape_rules): t.shape_rules}
    return copy.deepcopy(m, memo)


@dataclass
class MaskReport:
    rules: str
    states: int = 0
    applied: int = 0
    games: int = 0
    kinds: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)


def check_masks(rules: str, states: int, seed: int = 0, *, apply_every: int = 1, eager: float = 0.5,
                observation: bool = True, batched: bool = False) -> MaskReport:
    """Walk ``states`` decision states of random games under ``rules``; see the module doc.
    ``apply_every``: try every masked index on a copy at every ``apply_every``-th state (copies cost
    most of the time). ``observation``: also encode each state (finite, right shape). ``batched``:
    walk the AEC environment's batched table (:class:`~majiang.rl.batched_table.BatchedTable`;
    ``mcr``, ``shandong``) instead of the engine table: its masks are checked against the legal
    actions of the engine match its actions replay to. Failures are collected (text), not raised."""
    rng = random.Random(seed)
    if batched:
        from majiang.rl.batched_table import BatchedTable

        t = BatchedTable(rules, analysis=observation)
    else:
        t = Table(rules, analysis=observation)
    rep = MaskReport(rules)
    g = 0
    t.reset(seed)
    while rep.states < states:
        if t.done:
            g += 1
            t.reset(seed * 1_000_003 + g)
            rep.games += 1
            continue
        pend = t.pending()
        for s in range(4):
            mask = t.mask(s)
            if not mask.any():
                rep.failures.append(f"{rules}: empty mask for seat {s}")
            if s not in pend and (mask.sum() != 1 or mask[PASS_INDEX] != 1):
                rep.failures.append(f"{rules}: idle seat {s} mask is not pass only")
        seat = t.to_act()
        assert seat is not None
        m = t.match
        legal = m.legal_actions(seat)
        mask = t.mask(seat)
        idx = sorted(np.flatnonzero(mask).tolist())
        wf = m.table.white_face
        if sorted(index_of(a, white_face=wf) for a in legal) != idx or len(legal) != len(idx):
            rep.failures.append(f"{rules}: mask {idx} is not one to one with {list(map(str, legal))}")
        if observation:
            o = t.observe(seat)
            if o.shape != t.encoder.shape or not np.isfinite(o).all():
                rep.failures.append(f"{rules}: bad observation {o.shape}")
        if rep.states % apply_every == 0:
            legal_map = t.legal(seat)
            for i in idx:
                c = _copy_match(m)
                try:
                    c.apply(seat, legal_map[i])
                    rep.applied += 1
                except Exception as e:  # noqa: BLE001 - collected as a failure
                    rep.failures.append(f"{rules}: index {i} refused: {e}")
        for a in legal:
            rep.kinds[a.kind.value] = rep.kinds.get(a.kind.value, 0) + 1
        rep.states += 1
        eager_pick = [i for i in idx if i == WIN_INDEX or i >= CHOW_BASE]
        if eager_pick and rng.random() < eager:
            choice = rng.choice(eager_pick)
        else:
            choice = rng.choice(idx)
        t.step(seat, choice)
    return rep
