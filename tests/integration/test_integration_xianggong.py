"""相公: a wrong tile count at the table and in records (RULES.md §2.4, seed 000).

Seed 000: "杠牌要从牌尾摸一张牌才出一张，否则就是'小相公'(小一张牌)。不可以胡牌，但还可以杠牌，且杠牌有效。
'大相公'(多一张牌)杠牌无效。" RULES.md §2.4: 小相公 -- may not win, may still kong, the kongs score
(keep kong payments); 大相公 -- kongs are void (score 0) and no win; no extra penalty by default.

Only rule sets with ``xianggong`` (on in ``seed000``) accept such counts; elsewhere a record showing
them is refused. Walls are fixed with :func:`arrange_wall`; the dice (1, 1) turn up the second tile
from the tail (7z: Red is the wildcard, and no hand holds one). Seat 1 waits on 9p; the dealer holds
four 1p and a 9p.
"""

from __future__ import annotations

import json

import pytest

from integration_helpers import play_out, tile, tiles

from majiang.engine import PASS, Action, ActionKind, HandTable, IllegalActionError, Match, Phase, RuleSet
from majiang.engine.actions import XiangGongError
from majiang.engine.wall import arrange_wall, rng_for, roll_dice
from majiang.records.jsonl import RecordError, record_lines, replay

SEED000 = RuleSet.preset("seed000", seat_draw=False, first_dealer="east")
W16 = RuleSet.preset("wenzhou-w16", seat_draw=False, first_dealer="east")

HANDS13 = ("1111p9p222p333p44p5p", "123m456m789m123s9p", "111z222z333z444z8p", "111m999m111s999s6z")
HANDS16 = ("1111p9p222p333p44p55p66p", "123m456m789m123s456s9p", "111z222z333z444z7s8s9s8p",
           "111m999m111s999s6z6z7p7p")



KONG = Action(ActionKind.CONCEALED_KONG, tile("1p"))
DISCARD_9P = Action(ActionKind.DISCARD, tile("9p"))
WIN_9P = Action(ActionKind.WIN, tile("9p"))


def table(rules: RuleSet, hands) -> HandTable:
    wall = arrange_wall(rules, [tiles(h) for h in hands], draws=tiles("2m"), tail=tiles("8m7z"))
    t = HandTable(rules, wall, dice=(1, 1))
    assert t.wild_face == tile("7z")
    return t


def seat1_wins_on_the_dealers_9p(t: HandTable) -> None:
    t.apply(0, DISCARD_9P)
    assert WIN_9P in t.legal_actions(1)
    for s in t.pending_seats():
        t.apply(s, WIN_9P if s == 1 else PASS)
    assert t.finished and [w.winner for w in t.result.wins] == [1]


def play(rules: RuleSet, hands, case: str) -> HandTable:
    """The dealer declares a concealed kong of 1p and discards 9p, on which seat 1 wins. ``case``:
    ``"regular"`` (the replacement draw is made), ``"short"`` (no replacement draw: 小相公) or
    ``"long"`` (an extra draw first, then the kong with its replacement: 大相公)."""
    t = table(rules, hands)
    if case == "long":
        t.extra_draw(0)
    t.apply(0, KONG, replacement=case != "short")
    seat1_wins_on_the_dealers_9p(t)
    return t


# ------------------------------------------------------------------------------ the table
def test_short_after_a_kong_without_replacement():
    t = table(SEED000, HANDS13)
    t.apply(0, KONG, replacement=False)
    x = t.xianggong[0]
    assert (x.state, x.name_zh, x.may_win, x.kongs_count) == ("short", "小相公", False, True)
    assert t.phase is Phase.TURN and t.current == 0 and sum(t.concealed[0]) == 10  # 14 - 4, no draw
    assert t.events[-1]["type"] == "ankan"  # no tsumo follows
    t.apply(0, DISCARD_9P)
    assert sum(t.concealed[0]) == 9  # 9 + [1111p]: xianggong(9, 1) is 小相公
    assert t.tile_census() == sorted(SEED000.tile_set)


def test_long_after_an_extra_draw_and_no_win_for_it():
    """The dealer's first 14 tiles win (123m456m789m123s99p); after one draw too many he is 大相公:
    the win is no longer offered and declaring it is refused naming 大相公."""
    hands = ("123m456m789m123s99p", "1111p222p333p44p5p", HANDS13[2], HANDS13[3])
    t = table(SEED000, hands)
    assert Action(ActionKind.WIN, tile("9p")) in t.legal_actions(0)
    t.extra_draw(0)
    x = t.xianggong[0]
    assert (x.state, x.name_zh, x.kongs_count) == ("long", "大相公", False)
    assert sum(t.concealed[0]) == 15 and t.events[-1] == {"type": "tsumo", "actor": 0, "pai": "2m"}
    assert all(a.kind is not ActionKind.WIN for a in t.legal_actions(0))
    with pytest.raises(XiangGongError, match="大相公") as e:
        t.apply(0, Action(ActionKind.WIN, tile("2m")))
    assert isinstance(e.value, ValueError) and e.value.state == "long"


@pytest.mark.parametrize("case,kongs", [("regular", ((0, "concealed"),)), ("short", ((0, "concealed"),)),
                                        ("long", ())])
def test_seed000_kongs_count_for_short_not_for_long_and_no_penalty(case, kongs):
    """Seed 000 pays 1 point a win (no kong money): the 相公 dealer pays as anybody would, nothing
    more (no extra penalty, RULES.md §2.4); the win's context keeps the 小相公's kong, not the 大相公's."""
    t = play(SEED000, HANDS13, case)
    (win,) = t.result.wins
    assert win.ctx.kongs == kongs
    assert t.result.deltas == [-1, 1, 0, 0]
    assert t.result.xianggong == ({"regular": None, "short": "short", "long": "long"}[case], None, None, None)
    assert t.tile_census() == sorted(SEED000.tile_set)


@pytest.mark.parametrize("case,deltas", [
    # hard win ×2 paid by all three, ×F=2 between dealer and winner (RULES.md §4.5): 0 -4, 1 +8, 2 -2, 3 -2;
    # kong money for the dealer's concealed kong: 2 from each opponent, ×2 (the dealer is the owner): +12
    ("regular", [8, 4, -6, -6]),
    ("short", [8, 4, -6, -6]),  # 小相公: the kong still counts (杠牌有效)
    ("long", [-4, 8, -2, -2]),  # 大相公: the kong is void (杠牌无效), no kong money
])
def test_w16_kong_money_with_the_xianggong_option(case, deltas):
    rules = W16.with_options(xianggong=True)
    t = play(rules, HANDS16, case)
    (win,) = t.result.wins
    assert win.result.value == 2  # 硬和: no 财神 in the winning hand
    assert t.result.deltas == deltas


def test_other_rule_sets_refuse_wrong_counts():
    """Without ``xianggong`` (every preset but seed000) the table refuses both and changes nothing."""
    assert not W16.xianggong and SEED000.xianggong
    t = table(W16, HANDS16)
    before = (list(map(list, t.concealed)), len(t.events), t.head, t.tail)
    with pytest.raises(IllegalActionError, match="小相公.*xianggong"):
        t.apply(0, KONG, replacement=False)
    with pytest.raises(IllegalActionError, match="大相公.*xianggong"):
        t.extra_draw(0)
    assert (list(map(list, t.concealed)), len(t.events), t.head, t.tail) == before
    assert t.xianggong == [None] * 4


def test_a_count_off_by_two_is_no_xianggong():
    t = table(SEED000, HANDS13)
    t.extra_draw(0)
    with pytest.raises(IllegalActionError, match="more than one off"):
        t.extra_draw(0)
    assert sum(t.concealed[0]) == 15


def test_short_player_may_still_kong_and_cannot_win():
    """小相公 'may still kong': a second concealed kong is offered after the first without replacement."""
    hands = ("1111p2222p9p33p44p5p", *HANDS13[1:])
    t = table(SEED000, hands)
    t.apply(0, KONG, replacement=False)
    assert Action(ActionKind.CONCEALED_KONG, tile("2p")) in t.legal_actions(0)
    t.apply(0, Action(ActionKind.CONCEALED_KONG, tile("2p")))
    assert t.xianggong[0].state == "short" and t.events[-1] == {"type": "tsumo", "actor": 0, "pai": "8m",
                                                                 "replacement": True}
    with pytest.raises(XiangGongError, match="小相公"):
        t.apply(0, Action(ActionKind.WIN, tile("8m")))


# ------------------------------------------------------------------------------ records
def _seed000_match(case: str, seed: int = 5) -> Match:
    """A one-hand seed-000 match: the dealer kongs (``case`` as in :func:`play`), discards 9p, seat 1
    passes, then everybody discards what he draws (a wildcard may not be discarded: then the first
    tile offered) until the wall runs out."""
    total = sum(roll_dice(rng_for(seed, "hand", 0, "dice"), SEED000.dice))
    fill = tiles("8m2s3s4s5s6s7s8s1z2z3z")[:total - 1]
    wall = arrange_wall(SEED000, [tiles(h) for h in HANDS13], draws=tiles("2m"), tail=fill + [tile("7z")])
    m = Match(SEED000, seed=seed, walls=[wall], max_hands=1)
    assert m.table is not None and m.table.wild_face == tile("7z")
    if case == "long":
        m.extra_draw(0)
    m.apply(0, KONG, replacement=case != "short")
    m.apply(0, DISCARD_9P)
    def discard_the_draw(m: Match, s: int) -> Action:
        acts = [a for a in m.legal_actions(s) if a.kind is ActionKind.DISCARD]
        drawn = Action(ActionKind.DISCARD, m.table.last_draw[s])
        return drawn if drawn in acts else acts[0]

    return play_out(m, discard_the_draw)


def _events(lines: list[str]) -> list[dict]:
    return [json.loads(x) for x in lines[1:]]


def test_a_record_without_the_replacement_draw_replays_short():
    m = _seed000_match("short")
    lines = record_lines(m)
    ev = _events(lines)
    k = next(i for i, e in enumerate(ev) if e["type"] == "ankan")
    assert ev[k + 1] == {"type": "dahai", "actor": 0, "pai": "9p"}  # the record shows no replacement draw
    regular = _events(record_lines(_seed000_match("regular")))
    assert regular[k + 1] == {"type": "tsumo", "actor": 0, "pai": "8m", "replacement": True}
    again = replay(lines)
    assert record_lines(again) == lines
    assert again.results[0].xianggong == ("short", None, None, None) and again.results[0].drawn


def test_a_record_with_an_extra_draw_replays_long():
    m = _seed000_match("long")
    lines = record_lines(m)
    ev = _events(lines)
    first = next(i for i, e in enumerate(ev) if e["type"] == "tsumo")
    assert ev[first] == {"type": "tsumo", "actor": 0, "pai": "2m"} and ev[first + 1]["type"] == "ankan"
    again = replay(lines)
    assert record_lines(again) == lines
    assert again.results[0].xianggong == ("long", None, None, None)


@pytest.mark.parametrize("case,name", [("short", "小相公"), ("long", "大相公")])
def test_a_recorded_win_by_a_xianggong_is_refused(case, name):
    """The dealer's next turn in the record is turned into a self-drawn win: refused naming the 相公."""
    lines = record_lines(_seed000_match(case))
    ev = _events(lines)
    k = next(i for i, e in enumerate(ev) if e["type"] == "dahai" and e["actor"] == 0 and i > 10
             and ev[i - 1]["type"] == "tsumo" and ev[i - 1]["actor"] == 0)
    drawn = ev[k - 1]["pai"]
    forged = lines[:k + 1] + [json.dumps({"type": "hora", "actor": 0, "target": 0, "pai": drawn})]
    with pytest.raises(RecordError, match=name) as e:
        replay(forged)
    assert e.value.line == k + 2 and isinstance(e.value.__cause__, XiangGongError)


def test_a_recorded_discard_win_by_a_xianggong_is_refused():
    """A win claimed on another seat's discard by the 小相公 dealer is refused the same way."""
    lines = record_lines(_seed000_match("short"))
    ev = _events(lines)
    k = next(i for i, e in enumerate(ev) if e["type"] == "dahai" and e["actor"] == 3)
    forged = lines[:k + 2] + [json.dumps({"type": "hora", "actor": 0, "target": 3, "pai": ev[k]["pai"]})]
    with pytest.raises(RecordError, match="小相公"):
        replay(forged)


@pytest.mark.parametrize("case,name", [("short", "小相公"), ("long", "大相公")])
def test_records_with_wrong_counts_are_refused_without_the_option(case, name):
    lines = record_lines(_seed000_match(case))
    head = json.loads(lines[0])
    head["rules"]["xianggong"] = False
    with pytest.raises(RecordError, match=f"{name}.*xianggong"):
        replay([json.dumps(head)] + lines[1:])


def test_majiang_replay_command(tmp_path):
    """``majiang replay`` replays the 小相公 record (exit 0, identical) and refuses a forged 相公 win
    (exit 2, the message names 小相公)."""
    from click.testing import CliRunner

    from majiang.cli import main

    lines = record_lines(_seed000_match("short"))
    good = tmp_path / "short.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(good), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["identical"] is True
    ev = _events(lines)
    k = next(i for i, e in enumerate(ev) if e["type"] == "dahai" and e["actor"] == 0 and i > 10
             and ev[i - 1]["type"] == "tsumo" and ev[i - 1]["actor"] == 0)
    bad = tmp_path / "forged.jsonl"
    bad.write_text("\n".join(lines[:k + 1] + [json.dumps({"type": "hora", "actor": 0, "target": 0,
                                                          "pai": ev[k - 1]["pai"]})]) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(bad)])
    assert r.exit_code == 2 and "小相公" in r.output


def test_the_option_is_written_only_when_on():
    """Records made before the option existed (no ``xianggong`` in the header) keep their bytes."""
    assert json.loads(record_lines(_seed000_match("regular"))[0])["rules"]["xianggong"] is True
    m = Match(RuleSet.preset("wenzhou"), seed=1, max_hands=1)
    head = json.loads(record_lines(m)[0])
    assert "xianggong" not in head["rules"]
    assert RuleSet.from_options(head["rules"]) == RuleSet.preset("wenzhou")
