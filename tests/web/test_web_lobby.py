"""The lobby's page (issue 31, part 5) without a browser: table cards with 坐下 forms posting to the
existing join route, the create form's headline options outside 更多规则 and every other option inside
it (each once), the reserve time field, and a plug-in rule set that declares no headline or summary."""

from __future__ import annotations

import re

import pytest
from web_helpers import create_table, fill_bots, join, signup

from majiang.engine import PRESET_NAMES
from majiang.rules import registry
from majiang.rules.base import Option, RuleSetDef, RuleSetError
from majiang.web import rulesform, static, templates


def _split(html: str) -> tuple[str, str]:
    """The create form before ``<details id="rule-options">`` and the details itself."""
    form = html[html.index('id="create-form"'):html.index("</form>", html.index('id="create-form"'))]
    i = form.index('<details id="rule-options">')
    return form[:i], form[i:]


def test_cards_and_form(client):
    a, b = signup(client, "anna"), signup(client, "bert")
    rid = create_table(client, a, preset="taiwan")
    join(client, b, rid, 2)
    html = client.get("/", headers={**signup(client, "cleo"), "accept-language": "zh-CN"}).text
    card = html[html.index(f'data-table="{rid}"'):html.index("</article>", html.index(f'data-table="{rid}"'))]
    # the two empty places (1 and 3) each have a 坐下 posting to the join route with its place
    sits = re.findall(rf'<form method="post" action="/tables/{rid}/join"><input type="hidden" name="place" '
                      r'value="(\d)"><button class="sit"[^>]*>坐下</button>', card)
    assert sits == ["1", "3"]
    assert "anna" in card and "bert" in card and f'href="/tables/{rid}"' in card and "观战" in card
    # the creator sees no 坐下 on her own table, but the way back to it
    mine = client.get("/", headers={**a, "accept-language": "zh-CN"}).text
    assert "回到我的牌桌" in mine and f'action="/tables/{rid}/join"' not in mine
    head, more = _split(html)
    assert 'id="reserve_time"' in head and 'name="reserve_time"' in head and 'id="preset"' in head
    assert "更多规则" in more
    for p in PRESET_NAMES:
        heads = registry.describe(p)["headline_options"]
        for f in rulesform.preset_fields(p):
            where = head if f.name in heads else more
            assert where.count(f'name="opt.{p}.{f.name}"') == 1, (p, f.name)
            assert html.count(f'name="opt.{p}.{f.name}"') == 1, (p, f.name)
        assert registry.describe(p)["summary_zh"] in head
    # the lobby with its style sheet and script stays far under the 300 KB a page may weigh
    weight = len(html.encode()) + sum(len(static.FILES[n][1].encode()) for n in ("style.css", "lobby.js"))
    assert weight < 300 * 1024, weight


def test_a_table_in_play_is_watched_not_joined(client):
    h = signup(client, "emil")
    rid = create_table(client, h, preset="mcr", max_hands=4)  # a hand's end waits: still in the lobby
    fill_bots(client, h, rid)
    html = client.get("/", headers={**signup(client, "fay"), "accept-language": "zh-CN"}).text
    card = html[html.index(f'data-table="{rid}"'):html.index("</article>", html.index(f'data-table="{rid}"'))]
    assert 'data-status="playing"' in card and "对局中" in card and "观战" in card
    assert "/join" not in card and "坐下" not in card and card.count('<li class="taken">') == 4


def test_reserve_time_from_the_form_reaches_the_table(client):
    h = signup(client, "dora")
    r = client.post("/tables", headers=h, follow_redirects=False,
                    data={"preset": "mcr", "max_hands": "2", "turn_time": "15", "reserve_time": "25", "opt._form": "1"})
    assert r.status_code == 303
    room = next(x for x in client.app.state.lobby.rooms.values() if x.creator == "dora")
    assert room.turn_time == 15 and room.reserve_time == 25
    en = client.get("/", headers=h).text
    assert "15 s a move + 25 s reserve" in en and "2 hands" in en


def test_a_plug_in_without_headline_or_summary_has_everything_under_more_rules():
    toy = RuleSetDef(name="toy-lobby", label_zh="玩具", label_en="Toy", summary="a test rule set", table={},
                     options=(Option("stake", "int", 1, "底注", "Stake", "points a win"),),
                     table_options=("rob_kong",))
    registry.register(toy)
    try:
        d = registry.describe("toy-lobby")
        assert d["headline_options"] == [] and d["summary_zh"] == "" and d["summary_en"] == ""
        assert templates.headlines("toy-lobby") == () and templates.preset_summary("toy-lobby", "zh") == ""
        fields = {**rulesform.all_preset_fields(), "toy-lobby": rulesform.preset_fields("toy-lobby")}
        html = templates.render("lobby.html", "en", user={"username": "x"}, rooms=[], games=[], min_turn=1,
                                quick_wait=20, presets=(*PRESET_NAMES, "toy-lobby"), preset_fields=fields)
        head, more = _split(html)
        assert 'data-preset="toy-lobby"' not in head.replace('<option value="toy-lobby"', "")
        assert 'name="opt.toy-lobby.stake"' in more and 'name="opt.toy-lobby.rob_kong"' in more
    finally:
        registry.unregister("toy-lobby")


def test_a_headline_option_must_be_one_of_the_rule_sets_options():
    with pytest.raises(RuleSetError, match="headline option 'bao' is not one of its options"):
        RuleSetDef(name="toy-bad", label_zh="x", label_en="x", summary="x", table={},
                   table_options=("rob_kong",), headline_options=("bao",))
