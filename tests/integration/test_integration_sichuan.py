"""Sichuan 血战到底 as an installed plug-in (issue 30).

``plugins/majiang-sichuan`` is a distribution of its own; the fixture installs it the way pip does (its
package and a ``*.dist-info`` with ``entry_points.txt`` on ``sys.path``). Rules and their sources:
``plugins/majiang-sichuan/RULES.md`` (cited below as SC §n). Worked examples assert the fan and the
payments that table gives; the flow tests play the engine with the plug-in's hooks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_site import installed

from majiang.cli import main
from majiang.engine import Action, ActionKind, HandTable, Match, RuleSetError, parse_spec, run_match
from majiang.engine.wall import arrange_wall
from majiang.hand import Hand
from majiang.players.simulate import make_bot
from majiang.records.jsonl import record_lines, replay
from majiang.rules import registry
from majiang.rules.base import KongSettle, Payment, RuleSetDef, WallEndSettle, WinContext, WinSettle
from majiang.tiles import parse_compact

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "plugins" / "majiang-sichuan"


@pytest.fixture()
def sichuan(tmp_path):
    """Install plugins/majiang-sichuan as pip would; yields its module."""
    with installed(tmp_path, PLUGIN / "src", "majiang-sichuan", "majiang_sichuan", "sichuan"):
        import majiang_sichuan

        yield majiang_sichuan


# ------------------------------------------------------------------------ plug-in validation
def test_a_bad_table_key_is_refused_at_registration_naming_the_rule_set():
    bad = RuleSetDef(name="hk-newcomer", label_zh="香港老番", label_en="HK old style", summary="x",
                     table={"honours": False})
    with pytest.raises(RuleSetError, match=r"rule set 'hk-newcomer' of majiang-hk \(majiang_hk:RULESET\).*"
                                           r"unknown table key 'honours'.*tiles"):
        registry.register(bad, "majiang-hk (majiang_hk:RULESET)")
    assert "hk-newcomer" not in registry.names()
    wrong = RuleSetDef(name="hk-newcomer", label_zh="x", label_en="x", summary="x", table={"reserve": 99})
    with pytest.raises(RuleSetError, match="hk-newcomer.*reserve=99"):
        registry.register(wrong, "majiang-hk (majiang_hk:RULESET)")
    with pytest.raises(RuleSetError, match="hk-newcomer.*chow=1 must be true or false"):
        registry.register(RuleSetDef(name="hk-newcomer", label_zh="x", label_en="x", summary="x", table={"chow": 1}),
                          "majiang-hk")


def test_listed_with_its_labels_and_a_108_tile_set(sichuan):
    d = registry.describe("sichuan")
    assert (d["label_zh"], d["label_en"], d["unit"]) == ("四川血战到底", "Sichuan blood battle", "fan")
    rules = parse_spec("sichuan")
    assert len(rules.tile_set) == 108 and max(rules.tile_set) == 26  # SC §1: three suits, 4 each
    assert rules.to_options()["tiles"] == "mps" and rules.to_options()["win_limit"] == 3
    assert "tiles" not in parse_spec("mcr").to_options()  # older headers keep their bytes
    r = CliRunner().invoke(main, ["rules", "sichuan"])
    assert r.exit_code == 0 and "sc.longqidui" in r.output and "max_fan=3" in r.output


# --------------------------------------------------------------------------- worked examples
def _ctx(text, win, *, seat=1, dealer=0, self_drawn=False, discarder=0, decided=(), **kw):
    hand = Hand.parse(text, win)
    return WinContext(hand=hand, seat=seat, dealer=dealer, seat_wind=27 + (seat - dealer) % 4, prevalent_wind=27,
                      self_drawn=self_drawn, discarder=None if self_drawn else discarder, decided=decided, **kw)


# (hand, winning tile, situation, option overrides, expected pattern ids, fan, deltas of seat 0..3)
# Seat 1 wins; a discard comes from seat 0. Fan values: SC §4 table A/B; payment base * 2**fan,
# self-drawn from every other seat in play + 1 base (自摸加底): SC §5.
EXAMPLES = [
    ("123456789m2345p", "5p", {}, {}, ["sc.pinghu"], 0, [-1, 1, 0, 0]),                       # 1 平胡 SC §4 A1
    ("111222m3334445p", "5p", {}, {}, ["sc.duiduihu"], 1, [-2, 2, 0, 0]),                     # 2 对对胡 A2
    ("1223344556789m", "5m", {}, {}, ["sc.qingyise"], 2, [-4, 4, 0, 0]),                      # 3 清一色 A3
    ("1122334m557799p", "4m", {}, {}, ["sc.qidui"], 2, [-4, 4, 0, 0]),                        # 4 七对 A4
    ("11113355m22779p", "9p", {}, {}, ["sc.longqidui"], 3, [-8, 8, 0, 0]),                    # 5 龙七对 A5
    ("1122335577889m", "9m", {}, {"max_fan": None}, ["sc.qidui", "sc.qingyise"], 4, [-16, 16, 0, 0]),  # 6 清七对
    ("1122335577889m", "9m", {}, {}, ["sc.qidui", "sc.qingyise"], 3, [-8, 8, 0, 0]),          # 7 the same, capped 3 (SC §4 cap)
    ("[peng 111m] [peng 999m] [peng 222p] [peng 555p] 8p", "8p", {}, {}, ["sc.jingoudiao"], 2, [-4, 4, 0, 0]),  # 8 金钩钓 A6
    ("[peng 222m] 555888m2225p", "5p", {}, {}, ["sc.jiangdui"], 3, [-8, 8, 0, 0]),            # 9 将对 A7
    ("123789m1123p789p", "1p", {}, {}, ["sc.daiyaojiu"], 2, [-4, 4, 0, 0]),                   # 10 带幺九 A8
    ("234444567m6789p", "9p", {}, {}, ["sc.pinghu", "sc.gen"], 1, [-2, 2, 0, 0]),              # 11 根 B1
    ("[kong-exposed 1111m] [peng 333m] 5557779m", "9m", {}, {"max_fan": None},
     ["sc.duiduihu", "sc.qingyise", "sc.gen"], 4, [-16, 16, 0, 0]),                       # 12 清对 + 根 (a kong)
    ("1111223355779m", "9m", {}, {"max_fan": None}, ["sc.longqidui", "sc.qingyise"], 5, [-32, 32, 0, 0]),  # 13 清龙七对
    ("123456789m2345p", "5p", {"self_drawn": True, "kong_replacement": True}, {},
     ["sc.pinghu", "sc.gangshanghua"], 1, [-3, 9, -3, -3]),                                   # 14 杠上花 B2, self-drawn
    ("123456789m2345p", "5p", {"kong_discard": True}, {}, ["sc.pinghu", "sc.gangshangpao"], 1, [-2, 2, 0, 0]),  # 15 杠上炮 B3
    ("123456789m2345p", "5p", {"robbing_kong": True}, {}, ["sc.pinghu", "sc.qiangganghu"], 1, [-2, 2, 0, 0]),   # 16 抢杠胡 B4
    ("123456789m2345p", "5p", {"last_tile": True}, {}, ["sc.pinghu", "sc.haidi"], 1, [-2, 2, 0, 0]),           # 17 海底 B5
    ("123456789m2345p", "5p", {"self_drawn": True, "first_turn": True, "seat": 0}, {},
     ["sc.pinghu", "sc.tianhu"], 3, [27, -9, -9, -9]),                                          # 18 天胡 capped, dealer
    ("123456789m2345p", "5p", {"self_drawn": True, "first_turn": True}, {"max_fan": None},
     ["sc.pinghu", "sc.dihu"], 5, [-33, 99, -33, -33]),                                         # 19 地胡 uncapped
    ("123456789m2345p", "5p", {"self_drawn": True}, {"self_drawn": "fan"},
     ["sc.pinghu", "sc.zimo"], 1, [-2, 6, -2, -2]),                                             # 20 自摸加番 option
    ("123456789m2345p", "5p", {"self_drawn": True}, {}, ["sc.pinghu"], 0, [-2, 6, -2, -2]),     # 21 自摸加底 (default)
    ("123456789m2345p", "5p", {"self_drawn": True, "in_play": (True, True, False, True)}, {},
     ["sc.pinghu"], 0, [-2, 4, 0, -2]),                                                          # 22 血战: seat 2 has left
    ("1223344556789m", "5m", {}, {"base": 5}, ["sc.qingyise"], 2, [-20, 20, 0, 0]),            # 23 base 5
]


@pytest.mark.parametrize("text,win,sit,opts,ids,fan,deltas", EXAMPLES, ids=[f"ex{i + 1}" for i in range(len(EXAMPLES))])
def test_worked_examples(sichuan, text, win, sit, opts, ids, fan, deltas):
    rules = parse_spec("sichuan").with_options(**opts) if opts else parse_spec("sichuan")
    ctx = _ctx(text, win, **sit)
    res = rules.scorer_object().score(ctx)
    assert [p[0] for p in res.patterns] == ids
    assert res.value == fan
    got = rules.settlement_object().settle(WinSettle(ctx.seat, ctx.discarder, res, ctx), 4)
    assert got == deltas and sum(got) == 0


def test_a_hand_holding_the_missing_suit_or_an_honour_never_wins(sichuan):
    scorer = parse_spec("sichuan").scorer_object()
    decided = ({}, {"dingque": "p"}, {}, {})
    assert scorer.score(_ctx("123456789m2345p", "5p", decided=decided)).value == -1  # SC §3
    assert scorer.score(_ctx("123456789m2345p", "5p", decided=({}, {"dingque": "s"}, {}, {}))).value == 0
    assert scorer.score(_ctx("123456789m23455z", "5z")).value == -1  # no honours in the set (SC §1)


@st.composite
def three_suit_hands(draw):
    """A complete 14-tile hand (four sets and a pair, or seven pairs) holding all three suits."""
    if draw(st.booleans()):
        faces = draw(st.lists(st.integers(0, 26), min_size=7, max_size=7, unique=True))
        tiles = [t for f in faces for t in (f, f)]
    else:
        tiles = []
        for _ in range(4):
            suit, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            tiles += [9 * suit + r] * 3 if draw(st.booleans()) else [9 * suit + r + i for i in range(3)]
        tiles += [draw(st.integers(0, 26))] * 2
    if len({t // 9 for t in tiles}) < 3 or max(tiles.count(t) for t in tiles) > 4:
        suit = draw(st.integers(0, 2))
        tiles = tiles[:-2] + [(tiles[-1] % 9) + 9 * ((tiles[-1] // 9 + 1) % 3)] * 2
    return tiles


@settings(max_examples=150, deadline=None)
@given(three_suit_hands(), st.booleans(), st.integers(0, 13))
def test_a_hand_with_three_suits_never_wins(tiles, self_drawn, k):
    from majiang_sichuan import SichuanScorer, hand_patterns

    if len({t // 9 for t in tiles}) < 3 or max(tiles.count(t) for t in tiles) > 4:
        return  # the strategy's repair did not give three suits: nothing to check
    win = tiles[k]
    rest = sorted(tiles[:k] + tiles[k + 1:])
    hand = Hand(tuple(rest), (), win)
    assert hand_patterns(hand) is None  # SC §3 缺一门
    ctx = WinContext(hand=hand, seat=1, dealer=0, seat_wind=28, prevalent_wind=27, self_drawn=self_drawn,
                     discarder=None if self_drawn else 0, first_turn=True)
    assert SichuanScorer(max_fan=None).score(ctx).value == -1


@pytest.fixture(autouse=True)
def _plugin_path(monkeypatch):
    """``majiang_sichuan`` importable for the property test above (which has no fixture argument)."""
    monkeypatch.syspath_prepend(str(PLUGIN / "src"))


# ------------------------------------------------------------------------------------ 定缺 filter
def test_dingque_filter_offers_only_the_missing_suit(sichuan):
    rules = parse_spec("sichuan")
    m = parse_compact
    # seat 0 (dealer) holds three dots (p) and will declare p missing; seat 1 holds 22s
    hands = [m("123456789m1p2p3p7s"), m("22s1m"), [], []]
    wall = arrange_wall(rules, hands, draws=[None] * 4, dealer=0, seed=3)
    t = HandTable(rules, wall, dealer=0, prevalent_wind=27)
    assert t.phase.value == "decide" and sorted(t.pending_seats()) == [0, 1, 2, 3]
    assert [a.tile for a in t.legal_actions(0)] == [0, 1, 2]
    t.apply(0, Action(ActionKind.DECIDE, 1))  # 0 declares p (dots) missing
    assert t.decided[0] == {} and t.events[-1]["type"] == "start_kyoku"  # hidden until all have chosen
    for s in (1, 2, 3):
        t.apply(s, t.default_action(s))
    assert t.decided[0] == {"dingque": "p"} and [e["type"] for e in t.events[-4:]] == ["decide"] * 4
    assert {a.tile for a in t.legal_actions(0) if a.kind is ActionKind.DISCARD} == {9, 10, 11}  # only 1p 2p 3p
    assert all(a.kind is ActionKind.DISCARD for a in t.legal_actions(0))


def test_no_pung_of_the_missing_suit(sichuan):
    rules = parse_spec("sichuan")
    m = parse_compact
    hands = [m("123456789m1235m1p"), m("1p1p2m2m"), [], []]
    wall = arrange_wall(rules, hands, dealer=0, seed=5)
    t = HandTable(rules, wall, dealer=0, prevalent_wind=27)
    for s, v in ((0, 2), (1, 1), (2, 2), (3, 2)):  # seat 1 declares p
        t.apply(s, Action(ActionKind.DECIDE, v))
    t.apply(0, Action(ActionKind.DISCARD, 9))  # 1p: seat 1 holds 1p1p but may not pung it
    assert not any(a.kind is ActionKind.PUNG for a in t.legal_actions(1))
    from majiang_sichuan import action_filter
    from majiang.rules.base import SeatState

    c = [0] * 34
    c[9] = c[10] = 2
    acts = [Action(ActionKind.PUNG, 10), Action(ActionKind.PASS)]
    assert action_filter(SeatState(1, "claim", tuple(c), {"dingque": "s"}, 10), acts) == acts
    assert action_filter(SeatState(1, "claim", tuple(c), {"dingque": "p"}, 10), acts) == [Action(ActionKind.PASS)]


# ------------------------------------------------------------------------------- 换三张 exchange
def test_exchange_direction_follows_the_dice():
    """SC §3: two dice rolled once every seat has picked; total mod 3 = 1 to the next seat (下家),
    2 to the previous (上家), 0 across (对家) -- each direction 12 rolls of 36."""
    from majiang.rules.base import exchange_offset

    assert [exchange_offset((1, t - 1)) for t in range(2, 8)] == [3, 2, 1, 3, 2, 1]
    rolls = [exchange_offset((a, b)) for a in range(1, 7) for b in range(1, 7)]
    assert sorted(rolls.count(k) for k in (1, 2, 3)) == [12, 12, 12]


@pytest.mark.parametrize("hand, chosen", [
    ("1112345m2p5p9p4466s", "2p5p9p"),    # fewest tiles with three or more: p (3)
    ("12m3456789p11239s", "2s3s9s"),      # m has only two: s (5); 9s alone, then 2s (ties: lower face), then 3s
    ("123456789m12345p", "1p2p3p"),       # p: 1p and 5p tie (worth 4; the lower first), then 2p, then 3p
])
def test_the_default_exchange_choice(sichuan, hand, chosen):
    """SC §3: the bots' and a time-out's 换三张 -- the suit with the fewest tiles among those holding
    three or more; in it, the tile of least worth (twice its copies plus its neighbours one and two
    apart), three times."""
    from majiang_sichuan import _exchange_choice

    c = [0] * 34
    for t in parse_compact(hand):
        c[t] += 1
    assert sorted(_exchange_choice(c)) == sorted(parse_compact(chosen))


def _exchange_table(rules, exchange_dice):
    m = parse_compact
    hands = [m("1234567m1p2p3p1s2s9s5m"), m("111m22p3456789s1p"), m("123456789p123s"), m("99m999p4567s12s3s")]
    wall = arrange_wall(rules, hands, dealer=0, seed=7)
    return HandTable(rules, wall, dealer=0, prevalent_wind=27, exchange_dice=exchange_dice), hands


def test_exchange_picks_three_of_one_suit_and_passes_them(sichuan):
    """SC §3 换三张: each seat picks three tiles of one suit (only suits it holds three of), nobody sees
    another's choice until all have picked, then the tiles go where the dice say; 定缺 follows."""
    rules = parse_spec("sichuan, exchange=true")
    assert [d.name for d in rules.decisions] == ["huansanzhang", "dingque"]
    assert [d.name for d in parse_spec("sichuan").decisions] == ["dingque"]  # off by default
    t, hands = _exchange_table(rules, (3, 4))  # 7: to the next seat
    before = [list(c) for c in t.concealed]
    # seat 0 holds 8 m, 3 p, 3 s: any of them; seat 1 holds 3 m, 3 p (1p2p2p), 7 s
    assert {a.tile for a in t.legal_actions(0)} == {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 18, 19, 26}
    t.apply(0, Action(ActionKind.DECIDE, 9))  # 1p: the rest must be dots
    assert {a.tile for a in t.legal_actions(0)} == {10, 11}
    with pytest.raises(Exception, match="cannot"):
        t.apply(0, Action(ActionKind.DECIDE, 0))
    t.apply(0, Action(ActionKind.DECIDE, 10))
    t.apply(0, Action(ActionKind.DECIDE, 11))
    assert 0 not in t.pending_seats() and t.events[-1]["type"] == "start_kyoku"  # hidden until all have picked
    for s in (1, 2, 3):
        while s in t.pending_seats():
            t.apply(s, t.default_action(s))
    ex = [e for e in t.events if e["type"] == "exchange"]
    assert [(e["actor"], e["target"], e["dice"]) for e in ex] == [(s, (s + 1) % 4, [3, 4]) for s in range(4)]
    assert ex[0]["pai"] == ["1p", "2p", "3p"]
    gave = {e["actor"]: parse_compact("".join(e["pai"])) for e in ex}
    for s in range(4):
        assert len({x // 9 for x in gave[s]}) == 1 and len(gave[s]) == 3
        want = list(before[s])
        for x in gave[s]:
            want[x] -= 1
        for x in gave[(s - 1) % 4]:
            want[x] += 1
        assert t.concealed[s] == want  # tiles kept: the wall and the four hands still hold all 108
    assert sum(map(sum, t.concealed)) + t.remaining == 108
    assert t.exchanged[2] == (tuple(gave[2]), 3, tuple(gave[1]), 1)
    assert t.phase.value == "decide" and t.decision.name == "dingque"  # 定缺 after the exchange
    assert [e["type"] for e in t.events[-4:]] == ["exchange"] * 4


def test_exchange_across_and_to_the_previous_seat(sichuan):
    rules = parse_spec("sichuan, exchange=true")
    for dice, off in (((3, 3), 2), ((1, 1), 3)):
        t, _ = _exchange_table(rules, dice)
        while t.decision is not None and t.decision.name == "huansanzhang":
            s = t.pending_seats()[0]
            t.apply(s, t.default_action(s))
        assert [(e["actor"], e["target"]) for e in t.events if e["type"] == "exchange"] == \
            [(s, (s + off) % 4) for s in range(4)]


def test_each_seat_sees_only_the_tiles_it_gave_and_got(sichuan):
    from majiang.protocols.jsonl import HIDDEN, seat_event

    rules = parse_spec("sichuan, exchange=true")
    t, _ = _exchange_table(rules, (3, 4))
    while t.decision is not None and t.decision.name == "huansanzhang":
        s = t.pending_seats()[0]
        t.apply(s, t.default_action(s))
    ev = next(e for e in t.events if e["type"] == "exchange" and e["actor"] == 0)  # 0 -> 1
    assert seat_event(ev, 0)["pai"] == ev["pai"] and seat_event(ev, 1)["pai"] == ev["pai"]
    assert seat_event(ev, 2)["pai"] == [HIDDEN] * 3 == seat_event(ev, 3)["pai"]
    assert seat_event(ev, 2)["target"] == 1  # who passed to whom is public


def test_a_match_with_the_exchange_replays_and_a_changed_record_is_refused(sichuan):
    from majiang.records.jsonl import RecordError

    rules = parse_spec("sichuan, exchange=true")
    m = _play(rules, 2, hands=3)
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines
    assert record_lines(replay(lines, from_seed=True)) == lines
    types = [json.loads(x)["type"] for x in lines]
    assert types.count("exchange") == 4 * 3 and types.count("decide") == 4 * 3
    i = types.index("exchange")
    ev = json.loads(lines[i])
    for bad in ({**ev, "target": (ev["target"] + 1) % 4}, {**ev, "pai": ["1z", "1z", "1z"]}, {**ev, "pai": "1m"}):
        changed = lines[:i] + [json.dumps(bad, separators=(",", ":"), ensure_ascii=False)] + lines[i + 1:]
        with pytest.raises(RecordError):
            replay(changed)


def test_the_web_state_offers_the_exchange_as_tiles(sichuan):
    from majiang.web.room_clock import auto_action
    from majiang.web.state import seat_state

    rules = parse_spec("sichuan, exchange=true")
    m = Match(rules, seed=1, max_hands=1)
    st0 = seat_state(m, 0, deadlines={}, now=0.0)
    assert st0["phase"] == "decide" and all(a["exchange"] and a["kind"] == "decide" for a in st0["legal"])
    assert {a["tile"] for a in st0["legal"]} <= set(st0["hand"])
    assert st0["exchange"] == {"name_zh": "换三张", "name_en": "Exchange three", "count": 3, "picked": []}
    first = st0["legal"][0]["tile"]
    m.apply(0, Action(ActionKind.DECIDE, first))
    assert seat_state(m, 0, deadlines={}, now=0.0)["exchange"]["picked"] == [first]
    assert seat_state(m, 1, deadlines={}, now=0.0)["exchange"]["picked"] == []  # nobody sees another's pick
    assert seat_state(m, None, deadlines={}, now=0.0)["exchange"] is None
    while m.table.decision.name == "huansanzhang":
        s = m.pending_seats()[0]
        m.apply(s, auto_action(m, s))
    ex = seat_state(m, 0, deadlines={}, now=0.0)["exchange"]
    gave, to, got, frm = m.table.exchanged[0]
    assert (ex["gave"], ex["to"], ex["got"], ex["from"]) == (list(gave), to, list(got), frm)
    assert first in ex["gave"] and (ex["direction_zh"], ex["direction_en"]) in \
        {("下家", "next seat"), ("对家", "opposite seat"), ("上家", "previous seat")}
    assert seat_state(m, 0, deadlines={}, now=0.0)["legal"][0]["label"].startswith("定缺")


def test_the_terminal_game_hides_the_exchanges_of_others(sichuan):
    """``majiang play``: the person picks by tile name and Enter (the usual choice); he reads the tiles
    he gave and got, and only a count for the other seats' exchanges (SC §3)."""
    import io

    from rich.console import Console

    from majiang.players.terminal import play_terminal

    out = io.StringIO()
    answers = iter(["", "", "", "m", "q"])
    m = play_terminal("sichuan,exchange=true", 5, console=Console(file=out, width=200), input_fn=lambda _: next(answers))
    text = out.getvalue()
    me = m.seat_of_player[0]
    ex = [e for e in m.events if e["type"] == "exchange"]
    assert len(ex) == 4 and "pick 1 of 3, all of one suit" in text and "pick 3 of 3" in text
    for e in ex:
        tiles = "".join(e["pai"])
        shown = f"{tiles} to" in text
        assert shown == (me in (e["actor"], e["target"])), (e, text)
        assert f"dice {e['dice'][0]}+{e['dice'][1]}" in text
    mine = next(e for e in ex if e["actor"] == me)
    dealt = [0] * 34
    for t in parse_compact("".join(next(e for e in m.events if e["type"] == "start_kyoku")["tehais"][me])):
        dealt[t] += 1
    assert parse_compact("".join(mine["pai"])) == sorted(sichuan._exchange_choice(dealt))  # Enter: the usual choice
    assert m.table.decided[me]["dingque"] == "m"  # typed by its name


def test_a_dataset_from_a_sichuan_record(sichuan, tmp_path):
    """``majiang dataset --from records`` on a 血战 record with 换三张 and 定缺: those pre-play choices are
    not samples (the action layout has no index for them); every other decision is, its action in
    its mask (it failed on the decision before)."""
    np = pytest.importorskip("numpy")
    from majiang.rl.dataset import record_samples

    m = _play(parse_spec("sichuan, exchange=true"), 4, hands=1)
    (path := tmp_path / "sc.jsonl").write_text("\n".join(record_lines(m)) + "\n", encoding="utf-8")
    a, _ = record_samples(path)
    n = len(a["action"])
    plays = sum(e["type"] in ("dahai", "pon", "daiminkan", "ankan", "kakan", "hora") for e in m.events)
    assert plays <= n and np.all(a["action_mask"][np.arange(n), a["action"]] == 1)


def test_the_aec_environment_plays_with_the_exchange(sichuan):
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from majiang.rl.aec import MajiangAEC

    env = MajiangAEC(parse_spec("sichuan, exchange=true"))
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    m = env.table.match
    assert m.finished and sum(m.scores) == 0 and [e["type"] for e in m.events].count("exchange") == 4


# ------------------------------------------------------------------------------ 血战到底 flow
def _play(rules, seed, hands=6):
    m = Match(rules, seed=seed, max_hands=hands)
    run_match(m, [make_bot("efficiency", rules, seed=seed * 4 + i) for i in range(4)])
    return m


def test_a_blood_battle_hand_settles_three_wins_in_order_and_replays(sichuan, tmp_path):
    rules = parse_spec("sichuan")
    m = _play(rules, 0)
    lines = record_lines(m)
    assert record_lines(replay(lines)) == lines
    (path := tmp_path / "sc.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output
    # split the events by hand; find a hand with three wins
    hands, cur = [], None
    for e in m.events:
        if e["type"] == "start_kyoku":
            cur = []
            hands.append(cur)
        elif cur is not None:
            cur.append(e)
    three = [h for h in hands if sum(e["type"] == "hora" for e in h) == 3]
    assert three, "seed 0 has a hand with three wins (6 hands, efficiency bots)"
    for h in three:
        wins = [e for e in h if e["type"] == "hora"]
        winners = [e["actor"] for e in wins]
        assert len(set(winners)) == 3  # each winner leaves: nobody wins twice
        for w in wins:
            assert sum(w["deltas"]) == 0
        idx = [h.index(w) for w in wins]
        for a, b in zip(idx, idx[1:]):  # play went on between wins unless several won on one discard
            between = {e["type"] for e in h[a + 1:b]}
            assert between <= {"hora"} or "dahai" in between or "tsumo" in between
        after_first = h[idx[0] + 1:]
        assert not any(e.get("actor") == winners[0] and e["type"] in ("dahai", "tsumo", "pon", "daiminkan")
                       for e in after_first)  # the first winner has left the play
        end = next(e for e in h if e["type"] == "end_kyoku")
        extras = [e for e in h if e["type"] == "settle"]
        total = [sum(e["deltas"][i] for e in wins + extras) for i in range(4)]
        assert end["deltas"] == total and sum(total) == 0
    for res in m.results:
        assert sum(res.deltas) == 0 and len(res.wins) <= 3


def test_kong_money_is_paid_at_the_kong(sichuan):
    from majiang_sichuan import SichuanSettlement

    s = SichuanSettlement()
    all_in = (True,) * 4
    assert s.settle_kong(KongSettle(2, "exposed", 5, 0, all_in), 4).deltas == [-2, 0, 2, 0]  # SC §5 明杠
    assert s.settle_kong(KongSettle(2, "added", 5, None, all_in), 4).deltas == [-1, -1, 3, -1]  # 巴杠 刮风
    assert s.settle_kong(KongSettle(2, "concealed", 5, None, (True, False, True, True)), 4).deltas == [-2, 0, 4, -2]


def test_wall_end_charges_pig_and_not_ready(sichuan):
    """SC §6: seat 0 holds its missing suit (花猪); seat 1 is ready on 3p, 6p (清一色: 2 fan) and 9p
    (123 456 789 999 55p: 清一色 + 根 = 3 fan), its most is 3; seat 2 is not ready; seat 3 has won and
    left. The pig pays the cap, 2**3, to seats 1 and 2; seat 2 pays seat 1 the most seat 1 could win
    (3 fan: 8) and refunds the kong money it took (退税)."""
    from majiang_sichuan import SichuanSettlement

    s = SichuanSettlement()
    hp = Hand.parse
    end = WallEndSettle(
        hands=(hp("1234m456p789p11s4s"), hp("12345678999p55p"), hp("[kong-concealed 2222s] 13579m13579s"), hp("1m")),
        in_play=(True, True, True, False),
        decided=({"dingque": "s"}, {"dingque": "m"}, {"dingque": "p"}, {"dingque": "s"}),
        dealer=0, prevalent_wind=27,
        payments=(Payment(0, 2, 2, "xiayu"), Payment(1, 2, 2, "xiayu"), Payment(3, 2, 2, "xiayu")))
    assert s.is_pig(end.hands[0], end.decided[0]) and not s.is_pig(end.hands[2], end.decided[2])
    assert s.ready_fan(end, 1) == 3 and s.ready_fan(end, 2) is None
    led = s.settle_wall_end(end, 4)
    reasons = [(p.payer, p.payee, p.amount, p.reason) for p in led.payments]
    assert reasons == [(0, 1, 8, "huazhu"), (0, 2, 8, "huazhu"), (2, 1, 8, "dajiao"),
                       (2, 0, 2, "tuishui"), (2, 1, 2, "tuishui"), (2, 3, 2, "tuishui")]
    assert led.deltas == [-14, 18, -6, 2]


def test_a_wall_that_runs_out_writes_the_wall_end_settlement(sichuan):
    rules = parse_spec("sichuan")
    for seed in range(12):
        m = _play(rules, seed, hands=4)
        ends = [e for e in m.events if e["type"] == "settle" and e["name"] == "wall-end"]
        if ends:
            i = m.events.index(ends[0])
            assert m.events[i + 1]["type"] == "ryukyoku"
            assert sum(ends[0]["deltas"]) == 0
            assert {p[3] for p in ends[0]["payments"]} <= {"huazhu", "dajiao", "tuishui"}
            lines = record_lines(m)
            assert record_lines(replay(lines)) == lines
            return
    pytest.fail("no hand of 48 ran out the wall with a payment due")


def test_simulate_and_score_from_the_command_line(sichuan, tmp_path):
    r = CliRunner().invoke(main, ["simulate", "--rules", "sichuan,max_fan=4", "--games", "1", "--max-hands", "2",
                                  "--json", "--records", str(tmp_path / "rec")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value_unit"] == "fan"
    (rec,) = (tmp_path / "rec").glob("*.jsonl")
    assert CliRunner().invoke(main, ["replay", str(rec)]).exit_code == 0
    r = CliRunner().invoke(main, ["score", "--rules", "sichuan", "1122334m557799p", "--win-tile", "4m", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["pattern_ids"] == ["sc.qidui"]


def test_tournament_with_jsonl_bots(sichuan, tmp_path, monkeypatch):
    """``tournament --protocol jsonl``: external bots (docs/examples/jsonl_random.py) play Sichuan;
    定缺 is taken by the rule set's default policy for every seat (docs/rulesets.md "Hooks")."""
    import os

    from majiang.tournament import run_tournament

    site = [p for p in sys.path if (Path(p) / "majiang_sichuan-0.1.0.dist-info").exists()]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*site, str(PLUGIN / "src"), str(ROOT / "src")]))
    jl = f"{sys.executable} {ROOT / 'docs' / 'examples' / 'jsonl_random.py'}"
    res = run_tournament("jsonl", ["efficiency", "random", f"j={jl}", f"j2={jl}"], walls=1, seed=3,
                         fmt="random", rules="sichuan", time_limit=10.0)
    assert res["games"] == 1 and sum(b["score"] for b in res["bots"]) == 0
    assert all(b["illegal"] == b["timeouts"] == b["crashes"] == 0 for b in res["bots"]), res


def test_the_aec_environment_plays_sichuan(sichuan):
    """The AEC environment (engine table) plays 血战 hands; the 定缺 phase is answered by the default
    policy, so every mask is of the ``majiang-v1`` layout and never offers an honour."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from majiang.rl.actions import DISCARD_BASE, LAYOUT_TILES
    from majiang.rl.aec import MajiangAEC

    env = MajiangAEC(parse_spec("sichuan"))
    rng = np.random.default_rng(1)
    honour_cols = [DISCARD_BASE + i for i, t in enumerate(LAYOUT_TILES) if t >= 27]
    for ep in range(2):
        env.reset(seed=ep)
        for agent in env.agent_iter():
            obs, rew, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert not mask[honour_cols].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        m = env.table.match
        assert m.finished and len(m.results) == 1 and sum(m.scores) == 0
        assert [e["type"] for e in m.events].count("decide") == 4  # 定缺 taken for every seat


def test_the_web_names_a_plug_in_by_its_own_labels(sichuan):
    """The lobby and table pages name a rule set through ``preset_name``: majiang's own from the
    catalogues, a plug-in's from its ``label_zh`` / ``label_en`` (issue 30), an unknown name as it is."""
    from majiang.web.templates import lang_context

    assert lang_context("zh")["preset_name"]("sichuan") == "四川血战到底"
    assert lang_context("en")["preset_name"]("sichuan") == "Sichuan blood battle"
    assert lang_context("en")["preset_name"]("no-such-rules") == "no-such-rules"
    from majiang.web import i18n

    assert lang_context("zh")["preset_name"]("mcr") == i18n.texts("zh")["preset.mcr"]


def test_the_web_state_offers_dingque_and_shows_who_has_left(sichuan):
    """The table page's state: the 定缺 choice as labelled actions, then each seat's revealed choice;
    a winner who has left the play is marked (``out``) while the others play on."""
    from majiang.web.room_clock import auto_action
    from majiang.web.state import seat_state

    rules = parse_spec("sichuan")
    m = Match(rules, seed=0, max_hands=1)
    st0 = seat_state(m, 0, deadlines={}, now=0.0)
    assert st0["phase"] == "decide" and st0["decided"] == [{}] * 4 and st0["out"] == []  # hidden until all chose
    assert [a["label"] for a in st0["legal"]] == ["定缺 万 characters", "定缺 筒 dots", "定缺 条 bamboo"]
    for s in list(m.pending_seats()):
        m.apply(s, auto_action(m, s))  # a time-out's choice: the default policy
    st0 = seat_state(m, 0, deadlines={}, now=0.0)
    assert [set(d) for d in st0["decided"]] == [{"dingque"}] * 4
    bots = [make_bot("efficiency", rules, seed=i) for i in range(4)]
    while not m.finished and not m.table._wins:
        s = m.pending_seats()[0]
        m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
    if not m.finished:
        out = seat_state(m, None, deadlines={}, now=0.0)["out"]
        assert out.count(True) >= 1 and out == [w in {x.winner for x in m.table._wins} for w in range(4)]
