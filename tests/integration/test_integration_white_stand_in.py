"""白板 standing in for the 财神/百搭 face at the table: chows, pungs, the census, scoring, records.

RULES.md §4.2 (白板 row): W13 (seed 003) "plays as the 财神's natural face; may be discarded and
chowed"; W16 "fixed natural identity = 财神 face, usable in sequences, triplets, kongs and open melds;
**not** wild"; default "white may be discarded and claimed". Seed 000 (RULES.md §2.1): "当牌A被选择为
百搭牌时，白板(0x90)就转为代替A牌。可以参与刻、顺、将的组合" -- White plays A in pungs, sequences and pairs;
"财神 = 白板: whites are then the wilds and nothing substitutes for them". A 财神 is never used in a
call (RULES.md §4.2). Only the next player chows (RULES.md §1.4).

Walls are fixed with :func:`arrange_wall`; the dice (1, 1) turn up the second tile from the tail, so
``tail=["1s", "5m"]`` makes 5m the 财神 (the Wenzhou indicator leaves play).
"""

from __future__ import annotations

import pytest

from integration_helpers import play_out, tile, tiles

from majiang.engine import PASS, Action, ActionKind, HandTable, Match, Phase, RuleSet
from majiang.engine.wall import arrange_wall, rng_for, roll_dice
from majiang.hand import Meld, MeldKind
from majiang.records.jsonl import record_lines, replay
from majiang.tiles import WHITE

W13 = RuleSet.preset("wenzhou", seat_draw=False, first_dealer="east")



# Seat 0 (dealer) holds a White; seat 1 (the next player) holds 4m 6m, 234m and 789m: with 5m the
# 财神 a discarded White can be chowed as 5m three ways (345m, 456m, 567m). Seats 2 and 3 hold
# nothing that claims a White. After the chow seat 1 holds 111m 234m 789m 9m and draws 9m.
DEALER = "555z11p99p2288s3p46s"
SEAT1 = "4m6m111m234m789m9m1p"
SEAT2 = "111z222z333z444z8p"
SEAT3 = "111s999s1m9m6z6z7s7s8s"
DRAWS = "2p3p4p9m"


def white_chow_table(rules: RuleSet = W13, hands=(DEALER, SEAT1, SEAT2, SEAT3), tail: str = "1s5m") -> HandTable:
    wall = arrange_wall(rules, [tiles(h) for h in hands], draws=tiles(DRAWS), tail=tiles(tail))
    return HandTable(rules, wall, dice=(1, 1))


def pass_all(t: HandTable) -> None:
    while t.phase in (Phase.CLAIM, Phase.ROB):
        for s in t.pending_seats():
            t.apply(s, PASS)


def census_ok(t: HandTable) -> bool:
    return t.tile_census() == sorted(t.rules.tile_set)


def test_a_discarded_white_is_chowed_as_the_wildcard_face():
    t = white_chow_table()
    assert (t.wild_face, t.white_face) == (tile("5m"), tile("5m"))
    assert Action(ActionKind.DISCARD, WHITE) in t.legal_actions(0)  # a White may be discarded
    t.apply(0, Action(ActionKind.DISCARD, WHITE))
    assert t.pending_seats() == [1]  # only the next player chows
    assert t.legal_actions(1) == [Action(ActionKind.CHOW, WHITE, tile("3m")), Action(ActionKind.CHOW, WHITE, tile("4m")),
                                  Action(ActionKind.CHOW, WHITE, tile("5m")), PASS]
    t.apply(1, Action(ActionKind.CHOW, WHITE, tile("4m")))
    (m,) = t.melds[1]
    # the meld plays 456m (what the scorers read) and holds the physical White (what the census counts)
    assert m == Meld(MeldKind.CHOW, tile("4m"), 1, tile("5m"), tile("5m"))
    assert m.tiles == tuple(tiles("456m")) and m.physical == (tile("4m"), WHITE, tile("6m"))
    assert t.events[-1] == {"type": "chi", "actor": 1, "target": 0, "pai": "5z", "consumed": ["4m", "6m"]}
    assert (t.concealed[1][tile("4m")], t.concealed[1][tile("6m")], t.concealed[1][WHITE]) == (1, 0, 0)  # 4m of 234m
    assert census_ok(t)


def test_the_scorer_reads_the_white_chow_as_the_face():
    """After chowing 456m with the White seat 1 self-draws 9m: 111m 234m 789m 99m + [456m] is 清一色,
    ×8 self-drawn in W13 (RULES.md §4.4) -- the White counts as 5m, not as an honour."""
    t = white_chow_table()
    t.apply(0, Action(ActionKind.DISCARD, WHITE))
    t.apply(1, Action(ActionKind.CHOW, WHITE, tile("4m")))
    t.apply(1, Action(ActionKind.DISCARD, tile("1p")))
    for seat in (2, 3, 0):
        pass_all(t)
        assert t.current == seat
        t.apply(seat, Action(ActionKind.DISCARD, t.last_draw[seat]))
    pass_all(t)
    assert t.current == 1 and t.last_draw[1] == tile("9m")
    assert Action(ActionKind.WIN, tile("9m")) in t.legal_actions(1)
    t.apply(1, Action(ActionKind.WIN, tile("9m")))
    (win,) = t.result.wins
    assert win.result.value == 8 and win.result.patterns == (("wz13.qingyise", 8, 1),)
    assert win.ctx.hand.melds[0].tiles == tuple(tiles("456m"))
    assert census_ok(t)


def test_a_white_in_hand_plays_the_face_in_a_chow_of_a_discarded_4m():
    """Seat 1 holds White + 6m (no 2m/3m): a discarded 4m is chowed 4m-5m-6m with the White as 5m.
    Seat 2 holds White + 6m as well but is not the next player: nothing offered."""
    hands = ("4m11p99p2288s3p46s6z", "5z6m258p258s147z9p9s", "5z6m444s666p2z2z3z8m8m", SEAT3)
    t = white_chow_table(hands=hands)
    t.apply(0, Action(ActionKind.DISCARD, tile("4m")))
    assert t.pending_seats() == [1]
    assert t.legal_actions(1) == [Action(ActionKind.CHOW, tile("4m"), tile("4m")), PASS]
    t.apply(1, Action(ActionKind.CHOW, tile("4m"), tile("4m")))
    (m,) = t.melds[1]
    assert (m.tiles, m.physical, m.claimed, m.stand_in) == (tuple(tiles("456m")), (tile("4m"), WHITE, tile("6m")),
                                                           tile("4m"), tile("5m"))
    assert t.events[-1]["consumed"] == ["5z", "6m"]
    assert census_ok(t)


def test_a_pung_of_whites_beats_the_white_chow():
    """Claim priority (RULES.md §1.4): seat 2 pungs the dealer's White (it plays 5m as a set: RULES.md
    §4.2, W16 'triplets') over seat 1's chow; the pung keeps the physical White."""
    hands = ("5z11p99p2288s3p46s3z7z", SEAT1, "55z111z222z333z4z", SEAT3)
    t = white_chow_table(hands=hands)
    t.apply(0, Action(ActionKind.DISCARD, WHITE))
    assert Action(ActionKind.PUNG, WHITE) in t.legal_actions(2)
    assert Action(ActionKind.CHOW, WHITE, tile("4m")) in t.legal_actions(1)
    t.apply(1, Action(ActionKind.CHOW, WHITE, tile("4m")))
    t.apply(2, Action(ActionKind.PUNG, WHITE))
    assert t.melds[1] == [] and t.melds[2] == [Meld(MeldKind.PUNG, WHITE, 2, WHITE)]
    assert census_ok(t)


def test_white_as_the_wildcard_stands_in_for_nothing():
    """财神 = 白板 (RULES.md §4.2, §2.1 B): the Whites are the wilds; a wild is never used in a call,
    so White + 6m makes no chow of a discarded 4m."""
    hands = ("4m11p99p2288s3p46s6z", "5z6m258p258s147z9p9s", SEAT2, SEAT3)
    t = white_chow_table(hands=hands, tail="1s5z")
    assert (t.wild_face, t.white_face) == (WHITE, None)
    t.apply(0, Action(ActionKind.DISCARD, tile("4m")))
    # nobody could claim: no window opened, seat 1 has drawn
    assert t.phase is Phase.TURN and t.current == 1 and t.events[-1]["type"] == "tsumo" and t.rivers[0] == [tile("4m")]
    control = white_chow_table(hands=hands, tail="1s5m")  # 5m the 财神: the same White chows
    control.apply(0, Action(ActionKind.DISCARD, tile("4m")))
    assert Action(ActionKind.CHOW, tile("4m"), tile("4m")) in control.legal_actions(1)


@pytest.mark.parametrize("name,hands", [
    ("seed000", (DEALER, SEAT1, SEAT2, SEAT3)),
    ("wenzhou-w16", (DEALER + "1z2z3z", SEAT1 + "5p7p3s", SEAT2 + "7p7p6z", SEAT3 + "2s2p3p")),
])
def test_seed000_and_w16_offer_the_white_chow_too(name, hands):
    """Seed 000 (White 'takes part in sequences', 可以参与顺) and W16 ('open melds') chow it as well."""
    rules = RuleSet.preset(name, seat_draw=False, first_dealer="east")
    t = white_chow_table(rules, hands=hands)
    assert t.white_face == tile("5m")
    t.apply(0, Action(ActionKind.DISCARD, WHITE))
    assert Action(ActionKind.CHOW, WHITE, tile("4m")) in t.legal_actions(1)
    t.apply(1, Action(ActionKind.CHOW, WHITE, tile("4m")))
    assert t.melds[1][0].physical == (tile("4m"), WHITE, tile("6m"))
    assert census_ok(t)


def _match_with_white_chow(seed: int = 3) -> Match:
    """A one-hand W13 match that plays the scenario of the scorer test through :class:`Match`."""
    total = sum(roll_dice(rng_for(seed, "hand", 0, "dice"), W13.dice))
    fill = tiles("2s3s5s6s7s1z2z3z4z6z7z")[:total - 1]
    wall = arrange_wall(W13, [tiles(h) for h in (DEALER, SEAT1, SEAT2, SEAT3)], draws=tiles(DRAWS),
                        tail=fill + [tile("5m")])
    m = Match(W13, seed=seed, walls=[wall], max_hands=1)
    assert m.table is not None and m.table.wild_face == tile("5m")
    script = [(0, Action(ActionKind.DISCARD, WHITE)), (1, Action(ActionKind.CHOW, WHITE, tile("4m"))),
              (1, Action(ActionKind.DISCARD, tile("1p")))]
    for seat, a in script:
        m.apply(seat, a)
    def win_or_discard_the_draw(m: Match, s: int) -> Action:
        win = [a for a in m.legal_actions(s) if a.kind is ActionKind.WIN]
        return win[0] if win else Action(ActionKind.DISCARD, m.table.last_draw[s])

    return play_out(m, win_or_discard_the_draw)


def test_a_record_with_a_white_chow_replays_identically():
    m = _match_with_white_chow()
    lines = record_lines(m)
    assert '{"type":"chi","actor":1,"target":0,"pai":"5z","consumed":["4m","6m"]}' in lines
    assert m.results[0].wins[0].winner == 1 and m.results[0].wins[0].result.value == 8
    again = replay(lines)
    assert record_lines(again) == lines


@pytest.mark.parametrize("name", ["wenzhou", "wenzhou-w16", "seed000"])
def test_bot_games_with_white_chows_keep_the_census(name):
    """Random bots in the wildcard presets take White chows; every step keeps the 136 tiles."""
    from majiang.players import EfficiencyBot, RandomBot

    rules = RuleSet.preset(name)
    white_chows = 0
    for seed in range(6):
        m = Match(rules, seed=seed, max_hands=2)
        bots = [RandomBot(seed * 4 + p) if p % 2 else EfficiencyBot(rules) for p in range(4)]
        while not m.finished:
            s = m.pending_seats()[0]
            m.apply(s, bots[m.player_at_seat[s]].choose(m.view(s), m.legal_actions(s)))
            t = m.table
            if t is not None:
                assert t.tile_census() == sorted(rules.tile_set)
        white_chows += sum(1 for e in m.events if e["type"] == "chi" and "5z" in [e["pai"], *e["consumed"]])
        assert record_lines(replay(record_lines(m))) == record_lines(m)
    assert white_chows > 0
