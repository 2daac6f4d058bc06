"""Real games: the 14 won rounds of the Botzone sample (``majiang.records.botzone``, foundation).

For each win our :func:`score` must give the logged fan total and :func:`settle` the logged
``Score`` line (RULES.md §9.6; the data README's wind convention: prevalent = ``Wind``, seat wind
= player index). 和绝张 is not in the record; the reader derives it from the tiles in sight
(``WinRecord.last_of_kind``).
"""

import pytest

from majiang.rules.mcr import WinConditions, score, settle

botzone = pytest.importorskip("majiang.records.botzone")


def _wins():
    rounds = botzone.parse_log(botzone.sample_path().read_text(encoding="utf-8"))
    return [(rnd, w) for rnd, w in botzone.iter_wins(rounds) if w is not None]


def test_fourteen_wins():
    assert len(_wins()) == 14


@pytest.mark.parametrize("index", range(14))
def test_botzone_win_total_and_settlement(index):
    rnd, w = _wins()[index]
    cond = WinConditions(self_drawn=w.self_drawn, kong_replacement=w.after_kong and w.self_drawn,
                         robbing_kong=w.robbed_kong, last_of_kind=w.last_of_kind,
                         seat_wind=w.seat_wind, prevalent_wind=w.prevalent_wind)
    r = score(w.hand, cond)
    assert r.total == rnd.fan_total
    assert r.counts_zh() == {name: n for name, n in rnd.fans}
    assert settle(r, w.seat, w.discarder) == rnd.scores
