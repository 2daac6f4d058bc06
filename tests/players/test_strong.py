"""The ``strong`` bot (issue 15 item 3): legal answers in every preset, determinism, its hand valuation
and its danger estimate."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majiang.engine import Action, ActionKind, Match, RuleSet
from majiang.engine.ruleset import PRESET_NAMES
from majiang.players import BOT_NAMES, make_bot
from majiang.players.danger import SCALE, deal_in, ready_probability, wait_weights
from majiang.players.strong import StrongBot, poisson_tail
from majiang.players.valuation import WinValuer, mcr_plans
from majiang.tiles import parse_compact


def _t(text: str) -> int:
    return parse_compact(text)[0]


# ------------------------------------------------------------------ registration
def test_strong_is_a_named_bot_everywhere():
    rules = RuleSet.preset("mcr")
    assert "strong" in BOT_NAMES
    assert isinstance(make_bot("strong", rules, 3), StrongBot)
    from majiang.tournament import parse_bot

    assert parse_bot("strong").builtin == "strong"


# ------------------------------------------------------------------ legal answers, every preset
def _play(rules: RuleSet, seed: int, strong_seats: tuple[int, ...]) -> tuple[int, list[Action]]:
    """One hand: ``strong`` at ``strong_seats``, random moves elsewhere. Every strong answer must be
    one of the offered actions. Returns the number of strong decisions and the actions taken."""
    rng = random.Random(seed)
    m = Match(rules.with_options(seat_draw=False), seed=seed, max_hands=1)
    bots = {s: StrongBot(rules, seed) for s in strong_seats}
    asked = 0
    taken = []
    while not m.finished:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        if s in bots:
            a = bots[s].choose(m.view(s), acts)
            assert a in acts, (rules.name, s, a, acts)
            asked += 1
        else:
            wins = [x for x in acts if x.kind is ActionKind.WIN]
            a = wins[0] if wins and rng.random() < 0.5 else acts[rng.randrange(len(acts))]
        taken.append(a)
        m.apply(s, a)
    assert sum(m.scores) == 0
    return asked, taken


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.sampled_from([(0,), (1, 3), (0, 1, 2, 3)]))
def test_strong_only_returns_offered_actions(preset: str, seed: int, seats: tuple[int, ...]):
    asked, _ = _play(RuleSet.preset(preset), seed, seats)
    assert asked > 0


def test_strong_is_deterministic_for_a_seed():
    rules = RuleSet.preset("mcr")
    a = _play(rules, 11, (0, 1, 2, 3))
    b = _play(rules, 11, (0, 1, 2, 3))
    assert a == b


# ------------------------------------------------------------------ hand valuation (worked examples)
def _view(rules: RuleSet, hand: str, seat: int = 1):
    m = Match(rules.with_options(seat_draw=False), seed=1, max_hands=1)
    v = m.view(seat)
    tiles = tuple(sorted(parse_compact(hand)))
    return replace(v, hand=tiles, phase="turn", rivers=((),) * 4, melds=((),) * 4, flowers=((),) * 4), tiles


def _counts(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def test_mcr_wait_values_follow_fan_and_competition_settlement():
    """123456789m 11p 45p, non-dealer, no flowers, waits 3p/6p (RULES.md §6 fans, §9.6 settlement):
    6p on a discard = 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 + 缺一门 1 = 22 fan (平和 drops 无字), the
    discarder pays 8 + 22 and the two others 8 each: +46; self-drawn = 清龙 16 + 不求人 4 + 平和 2
    + 喜相逢 1 + 缺一门 1 = 24 fan, each pays 8 + 24: +96. 3p has no 喜相逢: 21 / 23."""
    rules = RuleSet.preset("mcr", flowers=False)
    v, tiles = _view(rules, "123456789m1145p")
    wv = {w.tile: w for w in WinValuer(rules).wait_values(v, _counts(tiles), [0] * 34)}
    assert sorted(wv) == [_t("3p"), _t("6p")]
    six = wv[_t("6p")]
    assert (six.value_discard, six.gain_discard, six.value_self, six.gain_self) == (22, 46.0, 24, 96.0)
    three = wv[_t("3p")]
    assert (three.value_discard, three.value_self) == (21, 23)
    assert six.live == 4


def test_mcr_wait_under_eight_fan_is_worth_nothing():
    """234567m 345p 66s 78s: 6s on a discard = 门前清 2 + 平和 2 + 断幺 2 + 连六 1 = 7 < 8: no win;
    self-drawn = 不求人 4 + 平和 2 + 断幺 2 + 连六 1 = 9: +3 × (8 + 9) = 51. 9s loses 断幺: never 8."""
    rules = RuleSet.preset("mcr", flowers=False)
    v, tiles = _view(rules, "234567m345p6678s")
    wv = {w.tile: w for w in WinValuer(rules).wait_values(v, _counts(tiles), [0] * 34)}
    six, nine = wv[_t("6s")], wv[_t("9s")]
    assert six.value_discard is None and six.gain_discard == 0.0
    assert (six.value_self, six.gain_self) == (9, 51.0)
    assert nine.value_self is None and nine.value_discard is None


def test_strong_prefers_the_ready_hand_that_reaches_eight_fan():
    """From 234567m 345p 66s 78s + 1z the bot throws the loose honour (the only discard keeping the
    hand ready, its 6s still wins self-drawn); and the ready 清龙 hand (22+ fan on either wait) is
    valued above a ready hand whose every win is under 8 fan."""
    rules = RuleSet.preset("mcr", flowers=False)
    bot = StrongBot(rules)
    v, tiles = _view(rules, "234567m345p6678s1z")
    acts = [Action(ActionKind.DISCARD, t) for t in sorted(set(tiles))]
    assert bot.choose(v, acts) == Action(ActionKind.DISCARD, _t("1z"))
    live, _ = _view(rules, "123456789m1145p")
    dead, _ = _view(rules, "234567m345p6789s")  # 6s/9s single waits: under 8 fan, even self-drawn
    un = [4] * 34
    lv = bot.hand_value(live, _counts(live.hand), (), un, 136)[0]
    dv = bot.hand_value(dead, _counts(dead.hand), (), un, 136)[0]
    assert lv > dv


def test_mcr_plans_distances():
    """mcr_plans: 1112345678999m + 1p is one tile (the 1p) from 清一色 and a ready Pure Straight."""
    c = _counts(parse_compact("1112345678999m1p"))
    plans: dict[tuple[str, int], int] = {}
    for n, d, f in mcr_plans(c, (), 0):  # one row per suit or seating of the suits: keep the nearest
        plans[(n, f)] = min(d, plans.get((n, f), 99))
    assert plans[("full-flush", 24)] == 1
    assert plans[("half-flush", 6)] == 1
    assert plans[("pure-straight", 16)] == 0


def test_poisson_tail_values():
    assert poisson_tail(2.0, 1) == pytest.approx(1 - 0.1353352832366127)
    assert poisson_tail(2.0, 2) == pytest.approx(1 - 3 * 0.1353352832366127)
    assert poisson_tail(0.0, 1) == 0.0 and poisson_tail(5.0, 0) == 1.0


def test_wenzhou_never_throws_a_wildcard():
    """Even where a table offered it, the bot keeps the 财神 while another tile can go."""
    rules = RuleSet.preset("wenzhou")
    m = Match(rules.with_options(seat_draw=False), seed=3, max_hands=1)
    v = m.view(m.pending_seats()[0])
    wf = v.wild_face
    assert wf is not None
    hand = tuple(sorted(list(v.hand[:-1]) + [wf]))
    v2 = replace(v, hand=hand, phase="turn")
    acts = [Action(ActionKind.DISCARD, t) for t in sorted(set(hand))]
    assert StrongBot(rules).choose(v2, acts).tile != wf


# ------------------------------------------------------------------ danger (worked examples)
def test_ready_probability_worked_values():
    assert ready_probability(3, 0) == 0.0
    assert ready_probability(13, 0) == pytest.approx(0.55)  # (13 - 3) × 0.055
    assert ready_probability(13, 2) == pytest.approx(1 - 0.45 * 0.72 ** 2)
    assert ready_probability(40, 4) == 0.95
    with pytest.raises(ValueError):
        ready_probability(-1, 0)


def test_wait_weights_worked_values():
    full = [4] * 34
    w = wait_weights(full)
    five = _t("5m")
    # fresh 5m: two-sided 34m and 67m (1 + 1), closed 46m 0.5, pair 0.5, single 0.35
    assert w[five] == pytest.approx(3.35)
    assert w[_t("1m")] == pytest.approx(1.0 + 0.5 + 0.35)  # 23m two-sided, pair, single
    assert w[_t("3m")] == pytest.approx(0.5 + 1.0 + 0.5 + 0.85)  # 12m edge, 45m, 24m closed, pair+single
    assert w[_t("1z")] == pytest.approx(0.85)  # honour: pair + single only
    # suji: the opponent threw 2m, so the 34m two-sided wait on 2m/5m is halved
    assert wait_weights(full, [_t("2m")])[five] == pytest.approx(3.35 - 0.5)
    # his own discard: x 0.3 (no furiten in Chinese rules, so not zero)
    assert wait_weights(full, [five])[five] == pytest.approx(0.3 * 3.35)
    # no chance: every 4m and 6m in sight leaves only pair/single waits on 5m
    blocked = list(full)
    blocked[_t("4m")] = blocked[_t("6m")] = 0
    assert wait_weights(blocked)[five] == pytest.approx(0.85)
    # an honour with three copies in sight: only a single wait, on the last copy
    last = list(full)
    last[_t("7z")] = 1
    assert wait_weights(last)[_t("7z")] == pytest.approx(0.35 * 0.25)
    with pytest.raises(ValueError):
        wait_weights([5] * 34)


def test_deal_in_scale_and_order():
    """A fresh 5m against a ready opponent deals in about 12% (3.35 × SCALE); safer tiles rank lower."""
    assert 3.35 * SCALE == pytest.approx(0.1206)
    rules = RuleSet.preset("mcr", flowers=False)
    m = Match(rules.with_options(seat_draw=False), seed=1, max_hands=1)
    v = m.view(0)
    river = tuple(parse_compact("1z2z3z9m1p9s5p8p2m4s3s7p"))  # 12 discards, so ready ~ 0.5
    v = replace(v, hand=tuple(sorted(parse_compact("123456789m1145p"))), rivers=((), river, (), ()))
    d = deal_in(v, _t("5m"))
    assert d[0] == d[2] == d[3] == 0.0
    assert d[1] == pytest.approx(ready_probability(12, 0) * wait_weights(
        [max(0, 4 - a - b) for a, b in zip(_counts(v.hand), v.visible_counts())], river)[_t("5m")] * SCALE)
    assert deal_in(v, _t("5p"))[1] < deal_in(v, _t("6p"))[1]  # his own discard is safer
    with pytest.raises(ValueError):
        deal_in(v, 40)
