"""Sichuan 换三张 at the web table (issue 30), in Debian's chromium driven by Playwright: the plug-in
installed as pip would, a table created from the lobby with the ``exchange`` option, three tiles
picked by tapping the hand, the exchange's outcome shown to the seat (what it gave, to whom, what it
got), then 定缺. Desktop in Chinese and phone in English; screenshots go to ``artifacts/``
(``sc_exchange_<lang>_<size>_<what>.png``).

Skips when /usr/bin/chromium or the ``playwright`` package is absent."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MAJIANG_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
PLUGIN = ROOT / "plugins" / "majiang-sichuan"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium fonts-noto-cjk)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The plug-in installed as pip would (a dist-info with its entry point), then a server."""
    from plugin_site import installed
    from web_helpers import served

    from majiang.web.app import Settings, create_app

    with installed(tmp_path_factory.mktemp("site"), PLUGIN / "src", "majiang-sichuan", "majiang_sichuan", "sichuan"):
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path_factory.mktemp('sc') / 'web.sqlite3'}"
        app = create_app(Settings(database_url=url, secret_key="s" * 40, bot_delay=0.01, login_attempts=1000,
                                  claim_pause=0.05))
        with served(app) as base:
            yield base, app


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.mark.parametrize("lang,size", [("zh", "desktop"), ("en", "phone")])
def test_exchange_three_by_tapping_the_hand(server, browser, lang, size):
    base, app = server
    ctx = browser.new_context(viewport=SIZES[size], locale="zh-CN" if lang == "zh" else "en-US",
                              extra_http_headers={"Accept-Language": "zh-CN" if lang == "zh" else "en-US"},
                              reduced_motion="reduce", has_touch=size == "phone", is_mobile=size == "phone")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"sc_exchange_{lang}_{size}"
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        page.goto(base + "/signup")
        page.fill("#username", f"sc_{lang}_{size}")
        page.fill("#password", "browser password")
        page.click("#submit")
        page.wait_for_selector("#create-form")
        page.select_option("#preset", "sichuan")
        page.click("#rule-options summary")
        page.check("#opt-sichuan-exchange")
        page.fill("#max_hands", "1")
        page.fill("#turn_time", "120")
        page.click("#create")
        page.wait_for_selector("#fill-bots")
        rid = page.url.rsplit("/", 1)[1]
        room = app.state.lobby.rooms[rid]
        assert room.rules.rule_option("exchange") is True
        page.click("#fill-bots")
        page.wait_for_selector("#actions button.act-decide svg.tile")
        hint = page.inner_text("#actions .hint")
        assert ("换三张" in hint) if lang == "zh" else ("Exchange three" in hint), hint
        page.screenshot(path=str(ARTIFACTS / f"{name}_pick.png"))
        m = room.match
        me = next(s for s in range(4) if room.is_human(s))
        before = list(m.table.concealed[me])
        picked = []
        n0 = page.locator("#hand svg.tile").count()
        for i in range(3):
            k = page.get_attribute("#actions button.act-decide svg.tile", "data-tile")
            page.locator(f'#hand svg.tile[data-tile="{k}"]').first.click()
            picked.append(int(k))
            end = time.monotonic() + 10
            while len(m.table.exchange_picked(me)) < i + 1 and m.table.exchanged[me] is None:
                assert time.monotonic() < end, "the tap did not pick the tile"
                time.sleep(0.05)
            if i < 2:  # the next state (one tile fewer offered) is drawn before the next tap
                page.wait_for_function(f"() => document.querySelectorAll('#hand svg.tile').length === {n0 - i - 1}")
        page.wait_for_selector("#actions .exchange-done")
        done = page.inner_text("#actions .exchange-done")
        gave, to, got, frm = m.table.exchanged[me]
        assert sorted(picked) == list(gave) and len({t // 9 for t in gave}) == 1
        if lang == "zh":
            assert "换三张" in done and any(d in done for d in ("下家", "对家", "上家")), done
        else:
            assert "Exchange three" in done and any(d in done for d in ("next", "opposite", "previous")), done
        shown = page.eval_on_selector_all("#actions .exchange-done svg.tile", "els => els.map(e => +e.dataset.tile)")
        assert shown == list(gave) + list(got)
        after = list(before)
        for t in gave:
            after[t] -= 1
        for t in got:
            after[t] += 1
        assert m.table.concealed[me] == after
        hand = sorted(int(x) for x in page.eval_on_selector_all("#hand svg.tile", "els => els.map(e => e.dataset.tile)"))
        assert hand == sorted(t for t in range(34) for _ in range(after[t]))
        # 定缺 follows, offered as labelled buttons
        labels = page.eval_on_selector_all("#actions button.act-decide", "bs => bs.map(b => b.innerText)")
        word = "定缺" if lang == "zh" else "Missing suit"
        assert len(labels) == 3 and all(word in x for x in labels), labels
        if lang == "en":  # no Chinese on the English table's controls
            assert not HAN.search(page.inner_text("#actions")), page.inner_text("#actions")
        page.screenshot(path=str(ARTIFACTS / f"{name}_done.png"))
        vp = SIZES[size]
        sw = page.evaluate("document.documentElement.scrollWidth")
        assert sw <= vp["width"], sw
        assert not errors, errors
    except BaseException:
        page.screenshot(path=str(ARTIFACTS / f"{name}_FAILED.png"))
        raise
    finally:
        ctx.close()
