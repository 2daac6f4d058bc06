"""The lobby in a real browser (issue 31, part 5): open tables as cards with 坐下 buttons a thumb can
hit, one card a row on a phone and a grid on the desktop; the create form leads with the rule set (its
one line for players), hands, time and reserve, and the rule set's headline options, the rest folded
under 更多规则. Screenshots at 1280×800 and 390×844, zh and en, go under ``artifacts/``
(``lobby_<size>_<lang>_*.png``). Skips without /usr/bin/chromium or playwright."""

from __future__ import annotations

import re

import httpx
import pytest
from test_web_browser import ARTIFACTS, CHROMIUM, server, sync_api  # noqa: F401  (server is a fixture)

from majiang.rules import registry
from majiang.web import rulesform

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _person(base: str, name: str, display: str, avatar: str) -> httpx.Client:
    c = httpx.Client(base_url=base, follow_redirects=False)
    r = c.post("/signup", data={"username": name, "password": "browser password", "display_name": display,
                                "avatar": avatar})
    assert r.status_code == 303, r.text[:300]
    return c


def _table(c: httpx.Client, preset: str, **form: str) -> str:
    """Open a ``preset`` table as the form does: every option at its default unless ``form`` sets it."""
    defaults = {f"opt.{preset}.{f.name}": f.default for f in rulesform.preset_fields(preset) if f.default != "false"}
    r = c.post("/tables", data={"opt._form": "1", "sit": "1", "turn_time": "30", "preset": preset, **defaults, **form})
    assert r.status_code == 303, r.text[:300]
    return r.headers["location"].rsplit("/", 1)[1]


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_lobby_cards_and_create_form(server):
    base, app = server
    # three people open tables: a Taiwan table with 宝牌 and a reserve, an MCR table two sit at, a Wenzhou
    # table; the viewer sits at none
    zhang = _person(base, "zhang3", "张三丰", "bamboo")
    lisa = _person(base, "lisa", "Lisa", "cat")
    wang = _person(base, "wang5", "王五", "fish")
    tw = _table(zhang, preset="taiwan", max_hands="4", reserve_time="20", **{"opt.taiwan.bao_pai": "true",
                                                                            "opt.taiwan.minimum_tai": "3"})
    mcr = _table(lisa, preset="mcr", max_hands="0")
    assert wang.post(f"/tables/{mcr}/join", data={"place": "2"}).status_code == 303
    _table(wang, preset="wenzhou", max_hands="1")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            for lang in ("zh", "en"):
                ctx = browser.new_context(viewport={"width": 1280, "height": 800},
                                          locale="zh-CN" if lang == "zh" else "en-US",
                                          extra_http_headers={"Accept-Language": "zh-CN" if lang == "zh" else "en"})
                page = ctx.new_page()
                page.set_default_timeout(10_000)
                page.goto(base + "/signup")
                page.fill("#username", f"viewer_{lang}")
                page.fill("#password", "browser password")
                page.click("#submit")
                page.wait_for_selector("#create-form")
                for size, (w, h) in SIZES.items():
                    page.set_viewport_size({"width": w, "height": h})
                    page.goto(base + "/")
                    name = f"lobby_{size}_{lang}"
                    _check_cards(page, lang, size, w, tw, mcr)
                    _check_form(page, lang, size, w, name)
                # 坐下 on the MCR card's first empty seat seats the viewer there
                if lang == "en":
                    page.set_viewport_size({"width": 390, "height": 844})
                    page.goto(base + "/")
                    card = page.locator(f'.table-card[data-table="{mcr}"]')
                    card.locator("button.sit").first.click()
                    page.wait_for_url(re.compile(f"/tables/{mcr}$"))
                    room = app.state.lobby.get(mcr)
                    assert [pl.name for pl in room.places][:3] == ["Lisa", "viewer_en", "王五"]
                    page.goto(base + "/")
                    card = page.locator(f'.table-card[data-table="{mcr}"]')
                    assert card.locator("button.sit").count() == 0  # seated: no more 坐下 here
                    assert card.locator("footer a").inner_text().strip() == "Back to my table"
                    _shot(page, "lobby_phone_en_seated")
                ctx.close()
        finally:
            browser.close()


def _has_player_summary() -> bool:
    """Whether the pages say a table's options in players' words (``options_summary``), not ``k=v``."""
    from majiang.web import templates

    return "rules_summary" in templates.env.globals


def _check_cards(page, lang: str, size: str, width: int, tw: str, mcr: str) -> None:
    cards = page.locator(".table-card")
    assert cards.count() == 3
    card = page.locator(f'.table-card[data-table="{tw}"]')
    text = card.inner_text()
    if lang == "zh":
        assert "4 局" in text and "每步 30 秒" in text and "备用 20 秒" in text and "张三丰" in text
    else:
        assert "4 hands" in text and "30 s a move" in text and "20 s reserve" in text and "张三丰" in text
    assert card.locator("svg").count() == 1  # 张三丰's avatar
    assert card.locator("button.sit").count() == 3
    m = page.locator(f'.table-card[data-table="{mcr}"]').inner_text()
    assert ("4 圈" in m) if lang == "zh" else ("4 rounds" in m)  # max_hands 0: the rule set's rounds
    assert page.locator(f'.table-card[data-table="{mcr}"] button.sit').count() == 2
    # thumb-sized: every 坐下 and watch button is at least 44 px tall
    for b in page.locator(".table-card button.sit, .table-card footer a").all():
        box = b.bounding_box()
        assert box["height"] >= 44, box
    xs = sorted({round(c.bounding_box()["x"]) for c in cards.all()})
    if size == "phone":
        assert len(xs) == 1, xs  # one card a row
    else:
        assert len(xs) >= 2, xs  # a grid
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if lang == "zh":  # a Chinese player reads no developer words on the lobby
        main = page.inner_text("main")
        if not _has_player_summary():  # until a card's options line is a player's summary: all but it
            main = page.evaluate("() => { const m = document.querySelector('main').cloneNode(true);"
                                 " m.querySelectorAll('.t-opts').forEach(e => e.remove()); return m.innerText; }")
        assert not re.search(r"[a-z_]+=", main), re.findall(r"[a-z_]+=\S*", main)


def _check_form(page, lang: str, size: str, width: int, name: str) -> None:
    for preset in ("taiwan", "mcr"):
        page.select_option("#preset", preset)
        d = registry.describe(preset)
        summary = page.locator(f'.preset-summary[data-preset="{preset}"]')
        assert summary.is_visible()
        assert summary.inner_text().strip() == d["summary_" + lang]
        assert page.locator(".preset-summary:visible").count() == 1
        # the headline options show at once, the rest only under 更多规则 / More rules
        for n in d["headline_options"]:
            assert page.is_visible(f"#opt-{preset}-{n}"), n
        others = [o["name"] for o in d["options"] if o["name"] not in d["headline_options"]]
        assert not page.is_visible(f"#opt-{preset}-{others[0]}")
        for sel in ("#max_hands", "#turn_time", "#reserve_time", "#sit", "#create"):
            assert page.is_visible(sel), sel
        summary_text = page.inner_text("#rule-options summary")
        assert ("更多规则" in summary_text) if lang == "zh" else ("More rules" in summary_text)
        _shot(page, f"{name}_{preset}_folded")
        page.click("#rule-options summary")
        assert page.is_visible(f"#opt-{preset}-{others[0]}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        _shot(page, f"{name}_{preset}_more")
        page.click("#rule-options summary")
    assert page.locator("#create").bounding_box()["height"] >= 44


@pytest.mark.parametrize("preset", registry.names())
def test_every_rule_set_declares_its_lobby_line_and_headline(preset):
    """Each rule set of majiang's own says in one line, in both languages, what kind of game it is, and
    names two or three of its own options as headline options."""
    d = registry.describe(preset)
    assert re.search(r"[\u4e00-\u9fff]", d["summary_zh"]) and "RULES.md" not in d["summary_zh"]
    assert d["summary_en"] and "RULES.md" not in d["summary_en"]
    names = {o["name"] for o in d["options"]}
    assert 2 <= len(d["headline_options"]) <= 3 and set(d["headline_options"]) <= names
