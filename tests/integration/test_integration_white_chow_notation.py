"""The physical notation of a declared chow holding a 白板 that stands in for the wildcard's face
(issue 12, fault 1; RULES.md §2.1, §4.2): ``[chi 5z23m]`` with the wildcard 1m is the chow 123m whose
1m is a White. Accepted by ``Hand.parse``, the wildcard scorers (``majiang score --wild``) and the
records (the ``hora`` event's ``notation``).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from integration_helpers import tile, tiles

from majiang.cli import main
from majiang.engine import PASS, Action, ActionKind, HandTable, Match, Phase, RuleSet
from majiang.engine.wall import arrange_wall
from majiang.errors import MajiangError, MeldError
from majiang.hand import Hand, Meld, MeldKind, parse_meld
from majiang.records.jsonl import record_lines, replay
from majiang.tiles import WHITE


def test_parse_meld_reads_the_white_as_the_wildcard_face():
    m = parse_meld("[chi 5z23m]", wild=tile("1m"))
    assert m == Meld(MeldKind.CHOW, tile("1m"), 1, stand_in=tile("1m"))
    assert m.tiles == tuple(tiles("123m")) and m.physical == (WHITE, tile("2m"), tile("3m"))
    assert m.notation() == "[chi 5z23m]" and str(m) == "[chi 123m]"
    assert parse_meld("[chi 4m5z6m,1]", wild=tile("5m")) == Meld(MeldKind.CHOW, tile("4m"), 1, stand_in=tile("5m"))


@pytest.mark.parametrize("text,wild,needle", [
    ("[chi 5z23m]", None, "give that face"),          # the face a White plays is unknown
    ("[chi 5z56m]", "1m", "156m, not a chow"),         # the White plays 1m: no chow
    ("[chi 5z5z3m]", "2m", "at most one"),             # two Whites
    ("[chi 5z23m]", "5z", "no 白板 stands in"),         # White is itself the wildcard
])
def test_bad_white_chows_are_refused_naming_the_fault(text, wild, needle):
    with pytest.raises(MeldError, match=needle):
        Hand.parse(text + " 11m", wild=wild)


@given(low=st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]), pos=st.integers(0, 2),
       offer=st.integers(1, 3))
def test_white_chow_notation_round_trips(low, pos, offer):
    face = low + pos
    m = Meld(MeldKind.CHOW, low, offer, stand_in=face)
    h = Hand(tuple(tiles("11z")), (m,), tile("1z"))
    text = h.notation()
    assert "5z" in text
    back = Hand.parse(text.replace("]", f",{offer}]", 1), wild=face)
    assert back == h and back.melds[0].stand_in == face


def score(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["score", *args])
    return r.exit_code, r.output


def test_score_w16_white_chow_is_accepted():
    """The issue's command: refused before ("uses the wildcard face 1m")."""
    code, out = score("--rules", "wenzhou-w16", "[chi 5z23m] [peng 666z] 11m234p456s78s", "--win-tile", "9s",
                      "--wild", "1m", "--json")
    assert code == 0, out
    r = json.loads(out)
    assert r["hand"].startswith("[chi 5z23m]")
    # the same hand with the chow read from the played faces through the engine convention scores the same
    from majiang.engine.ruleset import WinContext
    from majiang.rules.wenzhou.engine_adapter import score_engine
    hand = Hand((*tiles("234p45678s"),), (Meld(MeldKind.CHOW, 0, 1, stand_in=0), Meld(MeldKind.PUNG, tile("6z"))),
                tile("9s"), wilds=2)
    ctx = WinContext(hand=hand, seat=0, dealer=0, seat_wind=27, prevalent_wind=27, self_drawn=False, discarder=3,
                     wild_face=0)
    assert r["total"] == score_engine("wz16", ctx).value
    assert r["pattern_ids"] == list(score_engine("wz16", ctx).pattern_ids)


def test_score_w13_white_chow_full_flush():
    """RULES.md §4.4: 清一色 ×8 self-drawn -- the White in the chow counts as the 5m it plays, the
    hand of the table test ``test_the_scorer_reads_the_white_chow_as_the_face``."""
    code, out = score("--rules", "wenzhou", "[chi 5z46m] 111m234m789m9m", "--win-tile", "9m", "--self-drawn",
                      "--wild", "5m", "--json")
    assert code == 0, out
    r = json.loads(out)
    assert (r["total"], r["pattern_ids"]) == (8, ["wz13.qingyise"])


def test_a_natural_face_in_a_chow_is_still_refused_with_the_white_form_named():
    code, out = score("--rules", "wenzhou-w16", "[chi 123m] [peng 666z] 11m234p456s78s", "--win-tile", "9s",
                      "--wild", "1m")
    assert code == 2 and "[chi 5z23m]" in out and "never used in a call" in out


def test_seed000_white_chow():
    code, out = score("--rules", "seed000", "[chi 5z46m] 111m234m789p9p", "--win-tile", "9p", "--wild", "5m",
                      "--json")
    assert code == 0, out
    assert json.loads(out)["hand"].startswith("[chi 5z46m]")


# ------------------------------------------------------------------------------------ records
W13 = RuleSet.preset("wenzhou", seat_draw=False, first_dealer="east")
DEALER = "555z11p99p2288s3p46s"
SEAT1 = "4m6m111m234m789m9m1p"
SEAT2 = "111z222z333z444z8p"
SEAT3 = "111s999s1m9m6z6z7s7s8s"
DRAWS = "2p3p4p9m"


def _white_chow_win() -> HandTable:
    """The integration scenario of test_integration_white_stand_in: seat 1 chows the dealer's White
    as 5m (4m-White-6m) and self-draws 9m."""
    wall = arrange_wall(W13, [tiles(h) for h in (DEALER, SEAT1, SEAT2, SEAT3)], draws=tiles(DRAWS),
                        tail=tiles("1s5m"))
    t = HandTable(W13, wall, dice=(1, 1))

    def pass_all() -> None:
        while t.phase in (Phase.CLAIM, Phase.ROB):
            for s in t.pending_seats():
                t.apply(s, PASS)

    t.apply(0, Action(ActionKind.DISCARD, WHITE))
    t.apply(1, Action(ActionKind.CHOW, WHITE, tile("4m")))
    t.apply(1, Action(ActionKind.DISCARD, tile("1p")))
    for seat in (2, 3, 0):
        pass_all()
        t.apply(seat, Action(ActionKind.DISCARD, t.last_draw[seat]))
    pass_all()
    t.apply(1, Action(ActionKind.WIN, tile("9m")))
    return t


def test_the_hora_event_carries_the_physical_notation():
    t = _white_chow_win()
    hora = t.events[-1] if t.events[-1]["type"] == "hora" else next(e for e in t.events if e["type"] == "hora")
    assert hora["hand"].startswith("[chi 456m]")  # unchanged field: the faces played
    assert hora["notation"].startswith("[chi 4m5z6m]") or hora["notation"].startswith("[chi 5z46m]")
    (win,) = t.result.wins
    back, h = Hand.parse(hora["notation"], wild="5m"), win.ctx.hand
    assert (back.concealed, back.win_tile, back.wilds) == (h.concealed, h.win_tile, h.wilds)
    # the notation keeps what the tiles are and play (not which one was claimed)
    assert [(m.kind, m.tiles, m.physical, m.stand_in) for m in back.melds] == \
        [(m.kind, m.tiles, m.physical, m.stand_in) for m in h.melds]


def _match_with_white_chow_win():
    """A seeded W13 match whose record holds a hora with a White chow (searched over seeds)."""
    for seed in range(60):
        m = Match(W13, seed=seed, max_hands=2)
        from majiang.players import make_bot
        bots = [make_bot("efficiency", W13, seed=seed * 4 + i) for i in range(4)]
        from majiang.engine import run_match
        run_match(m, bots)
        if any(e.get("type") == "hora" and "notation" in e for e in m.events):
            return m
    return None


def test_replay_with_and_without_the_added_field():
    m = _match_with_white_chow_win()
    if m is None:
        pytest.skip("no seeded match with a White chow win in the first 60 seeds")
    lines = record_lines(m)
    replay(lines)
    # a record written before the field existed (the same events without "notation") replays too
    old = [json.dumps({k: v for k, v in json.loads(x).items() if k != "notation"}, ensure_ascii=False,
                      separators=(",", ":")) for x in lines]
    assert old != lines
    replay(old)
    # but a wrong notation is a departure
    bad = [x.replace("5z", "7z") if '"notation"' in x else x for x in lines]
    with pytest.raises(MajiangError):
        replay(bad)
