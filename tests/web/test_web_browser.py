"""In a real browser (Playwright driving Debian's chromium): sign up, create an MCR table with three
bots, play a hand by clicking, see the score screen, save a screenshot under ``artifacts/``.

Skips when /usr/bin/chromium or the ``playwright`` package is absent (CI installs ``chromium`` and
``fonts-noto-cjk`` with apt; ``playwright install`` is never run)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MAJIANG_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium fonts-noto-cjk)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")


@pytest.fixture
def server(database_url):
    from web_helpers import served

    from majiang.web.app import Settings, create_app

    app = create_app(Settings(database_url=database_url, secret_key="b" * 40, claim_pause=0.05,
                              bot_delay=0.02))
    with served(app) as base:
        yield base, app


def _mcr_table_with_bots(browser, base: str, user: str, bot_kind: str | None = None):
    """Sign up ``user``, create a one-hand MCR table and fill the other seats with bots; the page."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US",
                            extra_http_headers={"Accept-Language": "en"})
    page.set_default_timeout(10_000)
    page.goto(base + "/signup")
    page.fill("#username", user)
    page.fill("#password", "browser password")
    page.click("#submit")
    page.wait_for_selector("#create-form")
    page.select_option("#preset", "mcr")
    page.fill("#max_hands", "1")
    page.fill("#turn_time", "120")
    page.click("#create")
    page.wait_for_selector("#fill-bots")
    if bot_kind is not None:
        page.select_option("#bot-kind", bot_kind)
    page.click("#fill-bots")
    return page


def test_play_a_hand_in_the_browser(server):
    base, app = server
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = _mcr_table_with_bots(browser, base, "browser_user", bot_kind="efficiency")
            page.wait_for_selector("#hand svg.tile")
            page.screenshot(path=str(ARTIFACTS / "web_table.png"))
            clicks = 0
            end = time.monotonic() + 120
            while time.monotonic() < end and not page.is_visible("#result"):
                version = page.get_attribute("#app", "data-version")
                try:
                    if page.locator("#actions button[data-kind=win]").count():
                        page.click("#actions button[data-kind=win]", timeout=2000)
                    elif page.locator("#actions button[data-kind=pass]").count():
                        page.click("#actions button[data-kind=pass]", timeout=2000)
                    elif page.locator("#actions .hint").count():  # my turn to discard: click a tile twice
                        tile = page.locator("#drawn svg.tile")
                        if not tile.count():
                            tile = page.locator("#hand svg.tile").last
                        tile.click(timeout=2000)
                        tile.click(timeout=2000)
                    else:
                        page.wait_for_timeout(30)
                        continue
                except sync_api.TimeoutError:
                    continue  # the state moved on under the click: look again
                clicks += 1
                # wait for the server's answer before looking again
                try:
                    page.wait_for_function(
                        "v => document.getElementById('app').dataset.version !== v", arg=version, timeout=3000)
                except sync_api.TimeoutError:
                    pass
            assert page.is_visible("#result"), "no score screen after the hand"
            assert clicks > 0
            text = page.inner_text("#result")
            assert "Hand 1" in text and "Total" in text
            page.screenshot(path=str(ARTIFACTS / "web_score_screen.png"))
            # the game is stored and reachable from the score screen
            page.wait_for_selector("#result a[href^='/games/']")
            page.click("#result a[href^='/games/']")
            page.wait_for_selector("#replay #step")  # the replay opens at step 0, before the deal
            assert page.inner_text("#step").startswith("0 /")
            page.click("#first")
            for _ in range(40):
                page.click("#next")
            assert page.inner_text("#step").startswith("40 /")
            page.wait_for_selector("#replay #board .rseat")  # every seat's tiles, open
            assert page.locator("#replay #board .rseat").count() == 4
            page.screenshot(path=str(ARTIFACTS / "web_replay.png"))
        finally:
            browser.close()
    assert (ARTIFACTS / "web_score_screen.png").stat().st_size > 1000


def test_waits_and_auto_win_in_the_browser(server, monkeypatch):
    """The scripted hand: after discarding 9s the page shows the wait (5p, three unseen) and the
    auto-win switch; switching it on reaches the server."""
    from web_helpers import FIVE_P, NINE_S, script

    base, app = server
    script(monkeypatch, [27, 28, 29, FIVE_P])
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = _mcr_table_with_bots(browser, base, "ready_user")
            page.wait_for_selector("#actions .hint")      # the dealer's first discard
            assert page.locator("#ready .wait").count() == 0
            tile = page.locator(f"#me svg.tile[data-tile='{NINE_S}']").first
            tile.click()
            tile.click()
            page.wait_for_selector(f"#ready .wait[data-tile='{FIVE_P}']")
            assert page.locator("#ready .wait").count() == 1
            assert "×3" in page.inner_text("#ready")
            page.screenshot(path=str(ARTIFACTS / "web_waits.png"))
            room = next(iter(app.state.lobby.rooms.values()))
            seat = room.seat_of(room.places[0].user_id)
            page.check("#auto-win")
            end = time.monotonic() + 10
            while time.monotonic() < end and not (room.auto_win_on(seat) or room.finished):
                time.sleep(0.02)
            assert room.auto_win_on(seat) or room.auto_wins == 1
        finally:
            browser.close()


def test_self_drawn_win_shows_the_hand_once(server, monkeypatch):
    """The scripted hand (web_helpers): the dealer discards 9s, the others draw winds, the dealer draws
    5p and wins self-drawn with 1-9m 123p 55p (清龙, RULES.md §9). The dialog draws exactly the
    winning hand: 13 concealed tiles and the winning 5p apart -- 14 tiles, 5p twice in all, not three
    times (the server's concealed hand holds the drawn 5p on a self-draw)."""
    from web_helpers import FIVE_P, NINE_S, script

    base, app = server
    script(monkeypatch, [27, 28, 29, FIVE_P])
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = _mcr_table_with_bots(browser, base, "tsumo_user")
            page.wait_for_selector("#actions .hint")
            tile = page.locator(f"#me svg.tile[data-tile='{NINE_S}']").first
            tile.click()
            tile.click()
            end = time.monotonic() + 30
            while time.monotonic() < end and not page.is_visible("#result"):  # pass the claims offered
                try:
                    if page.locator("#actions button[data-kind=win]").count():
                        page.click("#actions button[data-kind=win]", timeout=2000)
                    elif page.locator("#actions button[data-kind=pass]").count():
                        page.click("#actions button[data-kind=pass]", timeout=2000)
                    else:
                        page.wait_for_timeout(30)
                except sync_api.TimeoutError:
                    continue
            page.wait_for_selector("#result .win-hand")
            room = next(iter(app.state.lobby.rooms.values()))
            r = room.state_for(None)["results"][0]
            w = r["wins"][0]
            assert w["actor"] == w["target"]  # self-drawn
            assert len(r["hands"][w["actor"]]) == 14  # the server's hand, with the drawn tile
            tiles = page.eval_on_selector_all("#result .win-hand svg.tile", "els => els.map(e => +e.dataset.tile)")
            assert len(tiles) == 14, tiles
            assert tiles.count(FIVE_P) == 2, tiles
            assert page.locator("#result .win-hand .concealed svg.tile").count() == 13
            assert page.locator("#result .win-hand .win-tile svg.tile").count() == 1
            page.screenshot(path=str(ARTIFACTS / "web_self_drawn.png"))
        finally:
            browser.close()
