"""score / settle / WinConditions / McrOptions / parse_hand_string: API, validation, settlement
(RULES.md §6, §9.6)."""

import pytest

from majiang.errors import MajiangError, MeldError, TileCountError, TileParseError
from majiang.hand import Hand, MeldKind
from majiang.rules.mcr import (
    McrConditionError,
    McrNotWinningError,
    McrOptions,
    McrScoringError,
    WinConditions,
    format_hand_string,
    parse_hand_string,
    score,
    settle,
)
from majiang.rules.mcr.scoring import _plain_arrangements, score_arrangements


def score_plain(hand, cond):
    return _plain_arrangements(hand, cond)

# ---- parse_hand_string


def test_parse_melds_tiles_and_flags():
    hand, cond = parse_hand_string("[EEE,2][123m,3][5555p][3333s,7][7777s,1]NN|SW1011|3")
    kinds = [m.kind for m in hand.melds]
    assert kinds == [MeldKind.PUNG, MeldKind.CHOW, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG,
                     MeldKind.EXPOSED_KONG]
    assert hand.melds[0].tile == 27 and hand.melds[0].offer == 2
    assert hand.melds[1].claimed == 2  # 3m, the third tile of 123m
    assert hand.melds[3].offer == 3  # 7 = added kong on a pung from the right
    assert hand.concealed == (30,) and hand.win_tile == 30
    assert cond == WinConditions(self_drawn=True, last_of_kind=False, last_wall_tile=True, kong_replacement=True,
                                 robbing_kong=False, seat_wind=2, prevalent_wind=1, flowers=3)


def test_parse_honour_letters_and_z():
    a, _ = parse_hand_string("123m456p789sCCFFP")
    b, _ = parse_hand_string("123m456p789s77665z")
    assert a == b and a.win_tile == 31  # P = 白 = 5z


def test_parse_kong_flag_on_a_discard_is_robbing():
    _, cond = parse_hand_string("111999p11999s798p|EE0001")
    assert cond.robbing_kong and not cond.kong_replacement


def test_parse_flower_letters():
    assert parse_hand_string("12345789p55678m6p|EE1000|ch")[1].flowers == 2
    assert parse_hand_string("12345789p55678m6p|EE0000|")[1].flowers == 0


@pytest.mark.parametrize("text,error", [
    ("", TileParseError), ("123x", TileParseError), ("123", TileParseError), ("[123m,1", TileParseError),
    ("123m[456p,1]", TileParseError), ("[12m,1]123m", MeldError), ("[135m,1]11m", MeldError),
    ("[1111m,4]11m", MeldError), ("[EEE,0]11m", MeldError), ("11m|E1000", TileParseError),
    ("11m|EE2000", TileParseError), ("11m|EE1000|x", TileParseError), ("11m|EE|1|2", TileParseError),
    ("0m11m", TileParseError), ("8z11m", TileParseError),
])
def test_parse_errors(text, error):
    with pytest.raises(error):
        parse_hand_string(text)


def test_format_round_trip():
    for s in ("[EEE,2][SSSS,1]WWWNN55pN|EE1000", "[1111s][2222m][3333p,7][4444p]88s|EE0000|2",
              "[123m,2][345m,1]678p56sWW7s|EE0000"):
        hand, cond = parse_hand_string(s)
        assert parse_hand_string(format_hand_string(hand, cond)) == (hand, cond)


# ---- WinConditions / options


@pytest.mark.parametrize("kw", [
    dict(robbing_kong=True, self_drawn=True), dict(kong_replacement=True), dict(seat_wind=4),
    dict(prevalent_wind=-1), dict(flowers=9), dict(robbing_kong=True, last_wall_tile=True),
])
def test_contradictory_conditions(kw):
    with pytest.raises(McrConditionError):
        WinConditions(**kw)


def test_options_validate():
    with pytest.raises(MajiangError):
        McrOptions(minimum_fan=-1)


# ---- score errors


def test_not_winning():
    with pytest.raises(McrNotWinningError):
        score(Hand.parse("123m456p789s1122z", win_tile="3z"), WinConditions())
    with pytest.raises(McrNotWinningError):
        score(Hand.parse("123m456p789s1122z"), WinConditions())


def test_bad_tile_counts():
    with pytest.raises(TileCountError):
        score(Hand.parse("123m456p789s112z", win_tile="3z"), WinConditions())  # 小相公
    with pytest.raises(TileCountError):
        score(Hand.parse("11112m456p789s11z", win_tile="1m"), WinConditions())  # fifth copy


def test_no_wildcards_in_mcr():
    with pytest.raises(MajiangError):
        score(Hand.parse("123m456p789s11z22*", win_tile="2z"), WinConditions())


def test_flowers_given_twice_must_agree():
    hand = Hand.parse("12345789p55678m", win_tile="6p", flowers="1f2f")
    assert score(hand, WinConditions()).flowers == 2
    assert score(hand, WinConditions(flowers=2)).flowers == 2
    with pytest.raises(McrConditionError):
        score(hand, WinConditions(flowers=3))


# ---- results


def test_result_fields_and_minimum():
    hand, cond = parse_hand_string("[123m,1][345m,1]678p56sWW7s|EE0000|2")  # case 304
    r = score(hand, cond)
    assert r.total == 10 and r.flowers == 2 and r.fan_total == 8 and r.is_valid_win
    assert [(fc.fan.name_en, fc.count, fc.points) for fc in r.fans] == [("Chicken Hand", 1, 8), ("Flower Tiles", 2, 2)]
    # 6 fans + 3 flowers = 9 is still not a win: flowers do not count toward the 8 (RULES.md §6)
    hand, cond = parse_hand_string("[NNN,3]77789m11888p7m|EE0000|3")
    r = score(hand, cond)
    assert r.total == 9 and r.fan_total == 6 and not r.is_valid_win


def test_score_is_the_best_arrangement():
    hand, cond = parse_hand_string("11122233344455m")
    results = score_arrangements(hand, cond)
    assert len(results) > 1
    assert score(hand, cond).total == max(r.total for r in results)


def test_concealed_pung_completed_by_discard_is_melded_unless_the_tile_fits_elsewhere():
    # case 347: 7777m 8 9 -> 777m + 789m, the discarded 7m sits in the chow: 777m stays concealed
    hand, cond = parse_hand_string("[NNN,3]77789m11888p7m")
    assert score(hand, cond).counts_zh()["双暗刻"] == 1
    # 55p + 555m on a discarded 5m: the pung is melded, one concealed pung left
    hand, cond = parse_hand_string("[123s,1]777p456s55m55p5m")
    assert "双暗刻" not in score(hand, cond).counts_zh()
    hand, cond = parse_hand_string("[123s,1]777p456s55m55p5m|EE1000")
    assert score(hand, cond).counts_zh()["双暗刻"] == 1


def test_last_of_kind_flag_refused_or_implied():
    # the winner holds another 3p concealed: the other three copies cannot all be in sight (issue 12)
    hand, cond = parse_hand_string("[888p,3][678s,1][345s,2]3pFFF3p|NN1100")
    with pytest.raises(McrConditionError, match="和绝张.*3p concealed"):
        score(hand, cond)
    # three copies in the winner's own melded pung: implied (as PyMahjongGB)
    hand, cond = parse_hand_string("[SSS,2][555s,2][999m,1]22m67s5s|ES0000")
    assert score(hand, cond).counts_zh()["和绝张"] == 1


def test_unique_wait_option_on_fifth_copy():
    # 456m 222p 4567777s waits on 4s and, in form only, on a fifth 7s: not a unique wait by default
    # (PyMahjongGB); with fifth_copy_waits=False the 7s is no wait, so 4s is a 单钓将
    hand, cond = parse_hand_string("456m222p4567777s4s|NW0000")
    assert "单钓将" not in score(hand, cond).counts_zh()
    assert score(hand, cond, McrOptions(fifth_copy_waits=False)).counts_zh()["单钓将"] == 1


# ---- settle (RULES.md §9.6)


def _result(text):
    return score(*parse_hand_string(text))


def test_settle_discard_win():
    r = _result("[123m,1][345m,1]678p56sWW7s")  # 无番和 8
    assert settle(r, winner=0, discarder=2) == [8 + 8 + 16, -8, -16, -8]


def test_settle_self_draw():
    r = _result("[123m,1][345m,1]567m34sCC5s|EE1000")  # 19
    assert settle(r, winner=3) == [-27, -27, -27, 81]


def test_settle_includes_flowers_and_is_zero_sum():
    r = _result("[123m,1][345m,1]678p56sWW7s|EE0000|2")  # 10 with flowers
    pay = settle(r, winner=1, discarder=0)
    assert pay == [-18, 34, -8, -8] and sum(pay) == 0


def test_settle_errors():
    with pytest.raises(McrScoringError):
        settle(_result("[NNN,3]77789m11888p7m"), winner=0, discarder=1)  # 6 fan
    r = _result("[123m,1][345m,1]678p56sWW7s")
    with pytest.raises(MajiangError):
        settle(r, winner=0, discarder=0)
    with pytest.raises(MajiangError):
        settle(r, winner=4)
    assert settle(r, 0, 1) == settle(r, winner=0, discarder=1)
    with pytest.raises(McrScoringError):  # scored as a discard win: the discarder must be named
        settle(r, winner=0)
    with pytest.raises(McrScoringError):  # scored as self-drawn: nobody discarded
        settle(_result("[123m,1][345m,1]567m34sCC5s|EE1000"), winner=0, discarder=1)


@pytest.mark.parametrize("text,ours,reference", [
    ("[789s,3][678s,2]6678899s7s|ES0000|1", "嵌张", "边张"),
    ("[123m,3][234m,3]1122344m3m|NW0000|1", "边张", "嵌张"),
])
def test_known_tie_order_differences_keep_the_total(text, ours, reference):
    """Equal-valued arrangements where PyMahjongGB 1.4.0 names the other wait fan (total 68 both)."""
    hand, cond = parse_hand_string(text)
    r = score(hand, cond)
    assert r.total == 68 and ours in r.counts_zh() and reference not in r.counts_zh()
    alternatives = {frozenset(a.counts_zh()) for a in score_arrangements(hand, cond) if a.total == 68}
    assert any(reference in names for names in alternatives)


# ---- flags the hand's own tiles make impossible (issue 12, fault 3)
@pytest.mark.parametrize("text,needle", [
    # the kong flag on a self-draw = 杠上开花, but no kong is declared
    ("[123m,1][345m,1]678p56sWW7s|EE1001", "needs a declared kong"),
    # the kong flag on a discard = 抢杠和 of 7s, but the winner shows a 7s in his own chow
    ("[123m,1][567s,1]678p56sWW7s|EE0001", "robbing the kong of 7s"),
    # robbing a 5p kong while holding another 5p concealed
    ("[123m,1][345m,1]55p678pWW5p|EE0001", "robbing the kong of 5p"),
    # 和绝张 on 7s while another 7s is concealed
    ("[123m,1][345m,1]678p77sWW7s|EE0100", "和绝张"),
])
def test_impossible_flags_are_refused_naming_them(text, needle):
    hand, cond = parse_hand_string(text)
    with pytest.raises(McrConditionError, match=needle):
        score(hand, cond)
    with pytest.raises(McrConditionError, match=needle):
        score_plain(hand, cond)


def test_possible_flags_still_score():
    # 和绝张 with no concealed copy: 4 fan (seed 004)
    hand, cond = parse_hand_string("[123m,1][345m,1]678p56sWW7s|EE0100")
    assert score(hand, cond).counts_zh()["和绝张"] == 1
