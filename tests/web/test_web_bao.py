"""宝牌 at the table (issue 13 item 9; RULES.md §3.4, seed 001 "宝牌加台"): revealed after the deal and
after each kong's replacement draw (at most five), each copy held at a win 1 tai that does not count
toward the minimum, shown to every seat, written in the record and reproduced by its replay; the
records of the presets (option off) unchanged."""

from __future__ import annotations

from majiang.engine import Match, RuleSet
from majiang.engine.ruleset import WinContext
from majiang.hand import Hand
from majiang.players import make_bot
from majiang.players.simulate import run_match
from majiang.records.jsonl import header, record_lines, replay
from majiang.rules.taiwan.engine_adapter import TaiwanEngineAdapter
from majiang.tiles import format_compact
from majiang.web.state import seat_state


def _bao_match(seed: int, hands: int = 3) -> Match:
    rules = RuleSet.preset("taiwan", bao_pai=True)
    m = Match(rules, seed=seed, max_hands=hands)
    run_match(m, [make_bot("efficiency", rules, seed * 4 + i) for i in range(4)])
    return m


def test_bao_revealed_after_the_deal_and_each_kong_and_replayed():
    kongs_seen = 0
    for seed in range(4):
        m = _bao_match(seed)
        ev = m.events
        starts = [i for i, e in enumerate(ev) if e["type"] == "start_kyoku"]
        assert starts
        for a, b in zip(starts, starts[1:] + [len(ev)], strict=True):
            hand = ev[a:b]
            # the first 宝牌 right after the deal (before any flower replacement or draw)
            assert hand[1]["type"] == "bao", hand[1]
            baos = [e for e in hand if e["type"] == "bao"]
            kongs = [i for i, e in enumerate(hand) if e["type"] in ("daiminkan", "ankan", "kakan")]
            kongs_seen += len(kongs)
            assert len(baos) == min(5, 1 + sum(
                1 for i in kongs if any(e["type"] == "tsumo" and e.get("replacement") for e in hand[i + 1:i + 4])))
            for i in kongs:  # the kong, its replacement draw (flowers may come between), then a 宝牌
                rest = hand[i + 1:]
                k = next(j for j, e in enumerate(rest) if e["type"] == "tsumo" and not e.get("actor") is None
                         and e.get("replacement") and (j + 1 < len(rest) and rest[j + 1]["type"] != "flower"))
                if len([e for e in hand[:i] if e["type"] == "bao"]) < 5 and rest[k + 1]["type"] != "hora":
                    assert rest[k + 1]["type"] == "bao", rest[k:k + 2]
        lines = record_lines(m)
        assert header(m)["rules"]["bao_pai"] is True
        again = replay(lines)
        assert record_lines(again) == lines
    assert kongs_seen > 0


def test_bao_counts_one_tai_a_copy_outside_the_minimum():
    """RULES.md §3.4's example: 宝牌 五万 and two 白板 indicators, each copy held 1 tai per indicator
    (the seed: one 五万 and three 白 -> 1 + 2×3 = 7). This hand holds three 五万 and three 白 -> 3 + 2×3 = 9
    tai of 宝牌, all of them bonus (not toward min_score)."""
    hand = Hand.parse("[peng 555z] 123m456m789p55m11s", win_tile="1s")
    base = dict(hand=hand, seat=0, dealer=0, seat_wind=27, prevalent_wind=27, self_drawn=True)
    sc = TaiwanEngineAdapter()
    plain = sc.score(WinContext(**base))
    bao = sc.score(WinContext(**base, bao=(4, 31, 31)))
    assert plain.value > 0 and plain.bonus == 0
    assert bao.value == plain.value and bao.bonus == 3 + 2 * 3
    assert ("tw.baopai", 1, 9) in bao.patterns


def test_presets_records_unchanged_and_state_shows_bao():
    rules = RuleSet.preset("taiwan")
    assert "bao_pai" not in rules.to_options()
    m = Match(rules, seed=3, max_hands=1)
    run_match(m, [make_bot("efficiency", rules, i) for i in range(4)])
    assert not any(e["type"] == "bao" for e in m.events)
    # with the option, every seat (and a spectator) sees the 宝牌 in its state
    m2 = Match(RuleSet.preset("taiwan", bao_pai=True), seed=3, max_hands=1)
    first = next(e for e in m2.events if e["type"] == "bao")
    for seat in (None, 0, 1, 2, 3):
        st = seat_state(m2, seat, deadlines={}, now=0.0)
        assert format_compact(st["bao"]) == first["pai"]
    census = m2.table.tile_census()
    assert census == sorted(m2.rules.tile_set)
