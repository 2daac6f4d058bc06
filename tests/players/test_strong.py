"""The ``strong`` bot (issue 15 item 3): legal answers in every preset, determinism, its hand valuation
and its danger estimate."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majiang.engine import Action, ActionKind, Match, RuleSet
from majiang.engine.ruleset import PRESET_NAMES
from majiang.players import BOT_NAMES, make_bot
from majiang.players.danger import SCALE, deal_in, ready_probability, unseen_counts, wait_weights
from majiang.players.strong import StrongBot, poisson_tail
from majiang.players.valuation import WinValuer, mcr_plans, typical_win
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
    # a hand may end before a strong seat decides anything (wenzhou-w16, seed 39370: the dealer holds
    # three 财神 at the deal and a random seat takes the win at once); such draws check nothing
    assume(asked > 0)


def test_strong_is_deterministic_for_a_seed():
    rules = RuleSet.preset("mcr")
    a = _play(rules, 11, (0, 1, 2, 3))
    b = _play(rules, 11, (0, 1, 2, 3))
    assert a == b


def test_taiwan_claims_only_when_the_shanten_drops():
    """Taiwan (``claim_needs_progress``, on by default there): every chow or pung the bot takes leaves
    a hand whose best discard is closer to ready than passing would; the same property as
    ``efficiency``'s claim rule (issue 5), with the value test on top."""
    rules = RuleSet.preset("taiwan")
    taken = 0
    for seed in range(3):
        m = Match(rules.with_options(seat_draw=False), seed=seed, max_hands=1)
        bots = [StrongBot(rules) for _ in range(4)]
        assert bots[0].claim_needs_progress
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            v = m.view(s)
            a = bots[s].choose(v, acts)
            if a.kind in (ActionKind.CHOW, ActionKind.PUNG):
                b = bots[s]
                c = _counts(v.hand)
                before = b._shanten(c, v)
                if a.kind is ActionKind.PUNG:
                    c[a.tile] -= 2
                else:
                    for x in (a.low, a.low + 1, a.low + 2):
                        if x != a.tile:
                            c[x] -= 1
                after = min(b._shanten_after(c, v, t) for t in range(34) if c[t])
                assert after < before, (seed, a, v.hand)
                taken += 1
            m.apply(s, a)
    assert taken > 0


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


def test_typical_win_follows_the_taiwan_settlement_examples():
    """RULES.md §3.3 worked examples (底 30, 台 10): a non-dealer self-draws a concealed hand with one
    seat flower (門清 1 + 自摸 1 + 不求 1 + 正花 1 = 4 台) with the dealer on 連1: 70 + 70 + 100 = 240;
    the dealer (no streak) wins 2 台 (門清 + one more) on a discard: 30 + (2 + 1) × 10 = 60. A claimed
    meld loses 門清 (1 台 on a discard) and 不求 (2 台 from each of three on a self-draw)."""
    tw = RuleSet.preset("taiwan")
    assert typical_win(tw, False, True, None, dealer_streak=1, self_draw_share=1.0, extra_tai=1) == 240
    assert typical_win(tw, True, True, None, dealer_streak=0, self_draw_share=0.0, extra_tai=1) == 60
    ron_loss = typical_win(tw, False, True, self_draw_share=0.0) - typical_win(tw, False, False, self_draw_share=0.0)
    tsumo_loss = typical_win(tw, False, True, self_draw_share=1.0) - typical_win(tw, False, False, self_draw_share=1.0)
    assert (ron_loss, tsumo_loss) == (pytest.approx(10), pytest.approx(60))
    # 混一色 4 台 (RULES.md §3.2) on a discard: +40
    assert typical_win(tw, False, True, "half-flush", self_draw_share=0.0) - typical_win(
        tw, False, True, None, self_draw_share=0.0) == pytest.approx(40)
    with pytest.raises(ValueError):
        typical_win(tw, False, self_draw_share=1.5)


def test_typical_win_follows_the_wenzhou_settlement_examples():
    """RULES.md §4.6 (seed 003): a non-dealer wins 清一色 (×4) on a non-dealer's discard, dealer in his
    first hand (B = 3): 12 + (4 + 1) + 4 = 21; the dealer in his 2nd consecutive hand self-draws 七对子
    (×4): each pays 4 × 5, 60 in all. A plain self-draw is ×2, a plain discard win ×1 + 犯枪 1."""
    wz = RuleSet.preset("wenzhou")
    assert typical_win(wz, False, pattern="full-flush", self_draw_share=0.0) == 21
    assert typical_win(wz, True, pattern="seven-pairs", dealer_streak=1, self_draw_share=1.0) == 60
    assert typical_win(wz, False, self_draw_share=0.0) == 6 and typical_win(wz, False, self_draw_share=1.0) == 10


def test_taiwan_values_the_half_flush_and_the_concealed_hand():
    """(Knobs ``patterns`` and ``menqing``, off by default: measured no better.) Taiwan, hands one tile from ready: 123456789m 1122z 35m 7p keeps a 混一色 path (4 台, RULES.md
    §3.2) that the pattern valuation adds to the plain hand's value, while 147m 258p 369s ... has no
    pattern in reach and is valued the same either way; and a hand without claimed melds is worth
    more than the same tiles after a claimed pung (門清 1 台, 門清自摸 3 台, RULES.md §3.2)."""
    from majiang.hand import Meld, MeldKind

    rules = RuleSet.preset("taiwan", flowers=False)
    bot, plain = StrongBot(rules, patterns=True, menqing=True), StrongBot(rules, patterns=False, menqing=True)
    v, _ = _view(rules, "1m")
    v = replace(v, wall_live=60)
    un = [4] * 34
    flush = _counts(parse_compact("123456789m1122z35m7p"))
    fv, fs, _ = bot.hand_value(v, flush, (), un, 100)
    pv, ps, _ = plain.hand_value(v, flush, (), un, 100)
    assert fs == ps == 1 and fv > 1.2 * pv
    spread = _counts(parse_compact("123m456p789s147m258p1z"))
    assert bot.hand_value(v, spread, (), un, 100)[0] == pytest.approx(plain.hand_value(v, spread, (), un, 100)[0])
    closed = _counts(parse_compact("123456m456p78s11z"))  # 13 tiles + a concealed kong or a pung of 9s
    kong = (Meld(MeldKind.CONCEALED_KONG, _t("9s")),)
    pung = (Meld(MeldKind.PUNG, _t("9s"), offer=1, claimed=_t("9s")),)
    assert plain.hand_value(v, closed, kong, un, 100)[0] > plain.hand_value(v, closed, pung, un, 100)[0]


def test_hold_value_is_a_chance_times_the_self_drawn_wins():
    """(Knob ``hold_horizon``, off by default.) A ready Taiwan hand 123456789m 123p 45s 99s waits on
    3s/6s; holding for a self-draw is worth nothing with no draws left, and otherwise a chance in
    (0, 1) times the mean self-drawn win of its waits (the valuer's Taiwan settlement)."""
    rules = RuleSet.preset("taiwan", flowers=False)
    bot = StrongBot(rules, hold_horizon=1.0)
    v, tiles = _view(rules, "123456789m123p45s99s")
    c = _counts(tiles)
    unseen = [4 - c[t] for t in range(34)]
    gains = [w.gain_self for w in bot.valuer.wait_values(v, c, [0] * 34)]
    assert len(gains) == 2 and min(gains) > 0
    assert bot.hold_value(replace(v, wall_live=0), c, unseen, sum(unseen)) == 0.0
    h = bot.hold_value(replace(v, wall_live=60), c, unseen, sum(unseen))
    assert 0.0 < h < max(gains)
    assert StrongBot(rules).hold_horizon == 0.0


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


def test_wenzhou_ready_hand_weighs_self_draws_by_ron_rate():
    """Wenzhou W13 pays a plain self-draw ×2 and a discard win ×1 (RULES.md §4.4): with a long wall a
    ready hand is worth about its mean win, which lies between the two and rises as ``ron_rate``
    (discard chances a go-around, 1.5 by default in W13, ``RON_RATES``) falls."""
    from majiang.players.strong import RON_RATE, RON_RATES

    rules = RuleSet.preset("wenzhou")
    assert StrongBot(rules).ron_rate == RON_RATES["wz13"] < RON_RATE == StrongBot("taiwan").ron_rate
    v, _ = _view(rules, "1m")
    v = replace(v, wall_live=400)
    wf = v.wild_face
    hand = "123456789m123p5s" if wf not in parse_compact("123456789m123p5s") else "234567891p123s5m"
    c = _counts(parse_compact(hand))
    unseen = [4 - c[t] for t in range(34)]
    waits = StrongBot(rules).valuer.wait_values(v, c, [0] * 34)
    assert waits and all(w.value_self is not None and w.gain_self > w.gain_discard > 0 for w in waits)
    values = [StrongBot(rules, ron_rate=r).hand_value(v, list(c), (), unseen, sum(unseen))[0] for r in (3.0, 1.5)]
    lo, hi = min(w.gain_discard for w in waits), max(w.gain_self for w in waits)
    assert lo < values[0] < values[1] <= hi


def test_taiwan_value_honour_tai():
    """(Knob ``value_honours``, off by default: measured no better.) RULES.md §3.2: a pung of a dragon,
    of the seat wind, of the prevalent wind is 1 台 each, the same wind counting twice: the dealer
    (East seat, East round) holding a pung of 中 and a pair of East expects 1 + 2 × p 台, p the knob."""
    rules = RuleSet.preset("taiwan", flowers=False)
    v, tiles = _view(rules, "777z11z123m456p789s", seat=0)
    v = replace(v, dealer=0, seat_wind=_t("1z"))
    assert v.prevalent_wind == _t("1z")
    bot = StrongBot(rules, value_honours=0.25)
    assert bot._honour_tai(v, _counts(tiles), ()) == pytest.approx(1.5)
    assert bot._honour_tai(v, _counts(parse_compact("22z33z123m456p789s")), ()) == 0.0  # guest winds


# ------------------------------------------------------------------ tiles let go since a seat's last discard
@pytest.mark.parametrize("preset", ["taiwan", "wenzhou", "shandong"])
def test_passed_tiles_are_never_a_win_for_the_seat_that_let_them_go(preset: str):
    """``passed_tiles`` (the ``passed_safe`` knob): every tile it reports as let go by a seat since that
    seat's last discard cannot complete that seat's concealed hand (checked against the hidden hands
    with the win test), and the reading is made on most turns after the first go-around."""
    from majiang.analysis import shanten
    from majiang.analysis.wildcards import split_counts

    rules = RuleSet.preset(preset)
    facts = turns = 0
    for seed in range(12):
        m = Match(rules, seed=seed, max_hands=1)
        bots = [StrongBot(rules, passed_safe=True) for _ in range(4)]
        while not m.finished:
            seat = m.pending_seats()[0]
            view = m.view(seat)
            if view.phase == "turn":
                passed = bots[seat].passed_tiles(view)  # then choose() reads the same turn: nothing new
                turns += 1
                for s in range(4):
                    for t in passed[s]:
                        assert s != seat
                        c = list(m.table.concealed[s])
                        c[t] += 1
                        nat, w = split_counts(c, view.wild_face, rules.white_stand_in)
                        assert shanten(nat, w, rules.shape_rules) >= 0, (seed, s, t)
                        facts += 1
            m.apply(seat, bots[seat].choose(view, m.legal_actions(seat)))
    assert turns > 200 and facts > turns // 2


# ------------------------------------------------------------------ the learned danger model (knob, off)
def test_tile_features_read_the_view():
    """``tile_features``: one row of ``FEATURES`` per tile, from public information only -- the
    opponent's discards (thrown, among his last three, 筋), claimed melds, copies unseen, value
    honours (his seat wind, the prevalent wind, dragons), the hand-made estimate's log."""
    import math

    from majiang.players.danger import FEATURES, tile_features

    rules = RuleSet.preset("mcr", flowers=False)
    m = Match(rules.with_options(seat_draw=False), seed=1, max_hands=1)
    v = m.view(0)
    river = tuple(parse_compact("1z2z3z9m1p9s5p8p2m4s3s7p"))
    v = replace(v, hand=tuple(sorted(parse_compact("123456789m1145p"))), rivers=((), river, (), ()))
    unseen = [max(0, 4 - a - b) for a, b in zip(_counts(v.hand), v.visible_counts())]
    rows = tile_features(v, unseen, 1)
    assert len(rows) == 34 and all(len(r) == len(FEATURES) for r in rows)
    col = {n: i for i, n in enumerate(FEATURES)}
    five_m, seven_p, two_p, four_p = _t("5m"), _t("7p"), _t("2p"), _t("4p")
    assert rows[seven_p][col["own_discard"]] == 1.0 and rows[seven_p][col["own_recent"]] == 1.0  # his last
    assert rows[two_p][col["own_discard"]] == 0.0
    assert rows[two_p][col["suji"]] == 1.0  # he threw 5p: 2p is 筋 of it
    assert rows[_t("1p")][col["unseen_1"]] == 1.0  # two 1p held, one in his river
    assert rows[four_p][col["unseen_3"]] == 1.0  # one 4p held
    assert rows[five_m][col["log_model"]] == pytest.approx(math.log(
        ready_probability(12, 0) * wait_weights(unseen, river)[five_m] * SCALE + 1e-4))
    seat_wind = 27 + (1 - v.dealer) % 4
    assert rows[seat_wind][col["value_honour"]] == 1.0 and rows[_t("5z")][col["value_honour"]] == 1.0
    assert rows[five_m][col["discards"]] == pytest.approx(1.2)  # 12 discards / 10
    assert tile_features(v, unseen, 1, [five_m, two_p]) == [rows[five_m], rows[two_p]]


def test_learned_deal_in_is_the_logistic_model_and_the_knob_needs_a_model():
    from majiang.players.danger import FEATURES, LEARNED, learned_deal_in

    coef = [0.0] * len(FEATURES)
    coef[0] = math_log = -2.0
    assert learned_deal_in([[1.0] + [0.3] * (len(FEATURES) - 1)], coef)[0] == pytest.approx(
        1 / (1 + 2.718281828459045 ** -math_log))
    assert len(LEARNED["taiwan"]) == len(FEATURES)
    with pytest.raises(ValueError, match="no learned danger model"):
        StrongBot("mcr", learned_danger=True)
    bot = StrongBot("taiwan", learned_danger=True)  # plays a hand: only offered actions
    m = Match(RuleSet.preset("taiwan"), seed=3, max_hands=1)
    while not m.finished:
        s = m.pending_seats()[0]
        acts = m.legal_actions(s)
        a = bot.choose(m.view(s), acts)
        assert a in acts
        m.apply(s, a)


# ------------------------------------------------------------------ tempo: the turns a claim skips
def test_skip_weight_counts_the_skipped_turns():
    """A claim from ``offer`` seats back skips the ``offer - 1`` seats between (StrongBot class doc):
    seat 1 claiming from seat 3 skips seat 0 (the dealer); from seat 2, seats 0 and 3."""
    rules = RuleSet.preset("wenzhou")
    v, _ = _view(rules, "123m456p789s11z22z", seat=1)
    v = replace(v, dealer=0, rivers=(tuple(parse_compact("1z2z3z")), (), (), tuple(parse_compact("1z2z3z4z5z6z"))))
    w = {m: [StrongBot(rules, skip_mode=m)._skip_weight(v, k) for k in (1, 2, 3)]
         for m in ("flat", "dealer", "progress", "dealer-progress")}
    assert w["flat"] == [0.0, 1.0, 2.0]
    assert w["dealer"] == [0.0, 1.5, 2.0]  # the dealer ×1.5, a non-dealer ×0.5
    assert w["progress"] == [0.0, 1.0, 3.0]  # 3 discards: ×1.0; 6 discards: ×2 (the cap)
    assert w["dealer-progress"] == [0.0, 1.5, 2.5]
    with pytest.raises(ValueError, match="skip_mode"):
        StrongBot(rules, skip_mode="fast")
    assert StrongBot(rules).skip_value == 0.1 and StrongBot("taiwan").skip_value == 0.0


def _played(bot: StrongBot, rules: RuleSet, seeds: range):
    """Every decision of one-hand games of ``rules`` played by ``bot`` at all seats: (seed, seat,
    view, legal actions, the bot's action), each yielded before the action is applied."""
    for seed in seeds:
        m = Match(rules, seed=seed, max_hands=1)
        while not m.finished:
            s = m.pending_seats()[0]
            acts = m.legal_actions(s)
            v = m.view(s)
            a = bot.choose(v, acts)
            yield seed, s, v, acts, a
            m.apply(s, a)


def test_claim_draws_only_ever_claims_less():
    """``claim_draws`` values the hand after a claim with fewer own draws, so on the claim windows of
    played Wenzhou hands it differs from the default bot only by passing where the default claims."""
    rules = RuleSet.preset("wenzhou")
    fewer = StrongBot(rules, claim_draws=True)
    differ = 0
    for seed, _s, v, acts, a in _played(StrongBot(rules), rules, range(30)):
        if v.phase == "claim" and (b := fewer.choose(v, acts)) != a:
            differ += 1
            assert b.kind is ActionKind.PASS and a.kind in (ActionKind.CHOW, ActionKind.PUNG), (seed, a, b)
    assert differ > 0


def test_skip_value_only_adds_claims_that_skip_a_turn():
    """On the claim windows of played Wenzhou hands, the default bot (``skip_value`` 0.1) and the same
    bot without it choose differently only where the discard comes from two or three seats back, and
    then it is the default bot that claims (the knob adds value to skipping claims, nothing else)."""
    rules = RuleSet.preset("wenzhou")
    off = StrongBot(rules, skip_value=0.0)
    differ = 0
    for seed, s, v, acts, a in _played(StrongBot(rules), rules.with_options(seat_draw=False), range(40)):
        if v.phase == "claim" and (b := off.choose(v, acts)) != a:
            differ += 1
            assert (s - v.discarder) % 4 in (2, 3), (seed, a, b)
            assert a.kind in (ActionKind.PUNG, ActionKind.CHOW), (seed, a, b)
    assert differ > 0


def _taiwan_turns(bot: StrongBot, seeds: range):
    """Every turn of one-hand Taiwan games played by ``bot`` at all seats where it discards and has a
    choice: (seed, view, legal actions, its action, after) with ``after`` the shanten after each
    discard offered."""
    for seed, _s, v, acts, a in _played(bot, bot.rules, seeds):
        discards = {x.tile for x in acts if x.kind is ActionKind.DISCARD}
        if v.phase == "turn" and a.kind is ActionKind.DISCARD and len(discards) > 1:
            counts = [0] * 34
            for t in v.hand:
                counts[t] += 1
            yield seed, v, acts, a, {t: bot._shanten_after(counts, v, t) for t in discards}


def test_fold_off_keeps_the_lowest_shanten_and_changes_only_folds():
    """``fold=False``: on the turns of played Taiwan hands every discard keeps the lowest shanten the
    hand can reach; where the default bot chooses otherwise, its discard is a fold (a higher shanten)."""
    rules = RuleSet.preset("taiwan")
    off = StrongBot(rules, fold=False)
    folds = 0
    for seed, v, acts, a, after in _taiwan_turns(StrongBot(rules), range(25)):
        b = off.choose(v, acts)
        if b.kind is ActionKind.DISCARD:
            assert after[b.tile] == min(after.values()), (seed, b)
            if a != b:
                folds += 1
                assert after[a.tile] > after[b.tile], (seed, a, b)
    assert folds > 0  # the default bot folds rarely: once in these 25 hands


def test_defend_within_plays_for_speed_alone_when_far_from_ready():
    """``defend_within`` k: on the turns of played Taiwan hands the bot discards as the bot without
    defence (``defence`` 0) while its hand stays more than k steps from ready, and as the default bot
    once it is within k."""
    rules = RuleSet.preset("taiwan")
    k1, fast = StrongBot(rules, defend_within=1), StrongBot(rules, defence=0.0)
    seen = {"far": 0, "near": 0}
    for seed, v, acts, a, after in _taiwan_turns(StrongBot(rules), range(15)):
        b = k1.choose(v, acts)
        if min(after.values()) > 1:
            seen["far"] += 1
            assert b == fast.choose(v, acts), (seed, b)
        else:
            seen["near"] += 1
            assert b == a, (seed, a, b)
    assert seen["far"] > 0 and seen["near"] > 0


def test_claim_weights_count_how_each_useful_tile_can_come():
    """``claim_weights`` (pung, chow), Taiwan's default (0.9, 0.3) with two other knobs: one step from ready with 123m 456m 789m,
    a pair of 1s, a pair of 2p, 79p and a lone 2z, the useful tiles are 1s and 2p (2 unseen each,
    held as pairs: any opponent's discard can be punged) and 8p (4 unseen, inside 7p-9p: the left
    player's discard can be chowed): 8 copies drawn, 4 punged, 4 chowed. With 45s instead of 22p the
    useful tiles are 3s, 6s and 8p, all chowable and none held as a pair."""
    rules = RuleSet.preset("taiwan", flowers=False)
    for hand, raw, pung, chow in (("123m456m789m11s22p79p2z", 8, 4, 4), ("123m456m789m11s45s79p2z", 12, 0, 12)):
        v, tiles = _view(rules, hand)
        c = _counts(tiles)
        unseen = [4 - x for x in c]
        for wp, wc in ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.8, 0.6)):
            bot = StrongBot(rules, claim_weights=(wp, wc))
            assert bot._claim_weighted(v, c, unseen) == pytest.approx(raw + wp * pung + wc * chow), (hand, wp, wc)
        # the hand's value uses the weighted count in place of useful × (1 + claim_rate)
        plain, weighted = StrongBot(rules, claim_weights=()), StrongBot(rules, claim_weights=(1.8, 0.6))
        vp, s, u = plain.hand_value(v, c, (), unseen, sum(unseen))
        vw, s2, u2 = weighted.hand_value(v, c, (), unseen, sum(unseen))
        assert (s, u, s2, u2) == (1, raw, 1, raw)
        assert (vw > vp) == (raw + 1.8 * pung + 0.6 * chow > raw * 1.8)


def test_risk_floor_forgives_small_risks():
    """``risk_floor`` f (Taiwan's default 0.5): each tile's risk is the danger less f, never below 0;
    with a floor above every risk the bot plays as the bot without defence."""
    rules = RuleSet.preset("taiwan")
    floor, huge = StrongBot(rules, risk_floor=0.5), StrongBot(rules, risk_floor=1e9)
    fast = StrongBot(rules, defence=0.0)
    checked = 0
    for seed, v, acts, _a, _after in _taiwan_turns(StrongBot(rules), range(6)):
        unseen = unseen_counts(v)
        d = floor.danger(v, unseen)
        assert floor._risk(v, unseen) == [max(0.0, x - 0.5) for x in d]
        assert huge.choose(v, acts) == fast.choose(v, acts), seed
        checked += 1
    assert checked > 20


def test_taiwan_speed_defaults_are_taiwan_only_and_can_be_turned_off():
    """The three knobs of ``TAIWAN_SPEED`` are Taiwan's defaults and off elsewhere; explicit values
    win, ``()`` turns the claim weights off, and a claim weight of another length is a ValueError."""
    assert StrongBot("taiwan").defend_within == 1
    assert StrongBot("taiwan").risk_floor == 0.5 and StrongBot("taiwan").claim_weights == (0.9, 0.3)
    for preset in ("mcr", "wenzhou"):
        b = StrongBot(preset)
        assert (b.defend_within, b.risk_floor, b.claim_weights) == (None, 0.0, None)
    b = StrongBot("taiwan", defend_within=99, risk_floor=0.0, claim_weights=())
    assert (b.defend_within, b.risk_floor, b.claim_weights) == (99, 0.0, None)
    with pytest.raises(ValueError, match="claim_weights"):
        StrongBot("taiwan", claim_weights=(1.0,))
