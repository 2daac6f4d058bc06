"""Playing with friends in a real browser (issue 26), driven as people do: two people sign up with
Chinese and full-width display names and avatars, one opens a private table, the other joins it by
its number, they talk (free text with markup in it, a quick phrase), the creator fills the empty
seats with bots, and the dealt table is photographed at 1280×800, 390×844 and 844×390 in Chinese and
English, with every seat's plate, melds and flowers, the rivers and the centre checked to be in view.
Screenshots go under ``artifacts/``. Skips without /usr/bin/chromium or playwright."""

from __future__ import annotations

import pytest
from test_web_browser import ARTIFACTS, CHROMIUM, server, sync_api  # noqa: F401  (server is a fixture)
from web_helpers import IN_VIEW

SIZES = {"desktop": (1280, 800), "portrait": (390, 844), "landscape": (844, 390)}


def _signup(page, base, user, display, avatar):
    page.goto(base + "/signup")
    page.fill("#username", user)
    page.fill("#password", "browser password")
    page.fill("#display_name", display)
    page.click(f"label.av:has(input[value={avatar}])")
    page.click("#submit")
    page.wait_for_selector("#friends")


def test_friends_room_chat_and_phone_layouts(server):
    base, app = server
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            zh = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN",
                                     extra_http_headers={"Accept-Language": "zh-CN"}).new_page()
            en = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US",
                                     extra_http_headers={"Accept-Language": "en"}).new_page()
            for pg in (zh, en):
                pg.set_default_timeout(10_000)
            _signup(zh, base, "zhang3", "张三丰", "bamboo")
            assert "张三丰" in zh.inner_text("nav .who")
            _signup(en, base, "lisa", "Ｌｉｓａ", "cat")
            assert en.inner_text("nav .who").strip() == "Lisa"  # stored NFKC-normalised
            zh.set_viewport_size({"width": 390, "height": 844})
            zh.screenshot(path=str(ARTIFACTS / "friends_lobby_portrait_zh.png"), full_page=True)
            zh.set_viewport_size({"width": 1280, "height": 800})
            # 张三丰 opens a private one-hand table and sits
            zh.check("#private")
            zh.fill("#max_hands", "1")
            zh.fill("#turn_time", "120")
            zh.click("#create")
            room = zh.inner_text("#room-number-big").strip()
            assert len(room) == 6 and room.isdigit()
            zh.screenshot(path=str(ARTIFACTS / "friends_waiting_zh.png"))
            # Lisa does not see it in the lobby; she joins by its number and takes a seat
            en.goto(base + "/")
            assert room not in en.inner_text("#tables")
            en.fill("#room-number", room)
            en.click("#join-room-button")
            en.wait_for_selector("#invite")
            assert en.inner_text("#room-number-big").strip() == room
            en.locator("button.join").first.click()
            en.wait_for_selector("#leave")
            zh.wait_for_function("() => document.querySelectorAll('#seating .places li').length === 4 && "
                                 "document.querySelector('#seating').innerText.includes('Lisa')")
            # they talk: markup in a line is shown as text; a quick phrase comes in each one's language
            zh.click("#chat-toggle")
            zh.fill("#chat-text", "<script>window.__owned=1</script>你好")
            zh.press("#chat-text", "Enter")
            en.wait_for_selector("#chat-log li", state="attached")
            en.wait_for_selector(".bubble")  # shown at the speaker's place for a few seconds
            assert en.text_content("#chat-log li .text") == "<script>window.__owned=1</script>你好"
            assert en.locator("#chat-log script").count() == 0 and en.evaluate("() => window.__owned") is None
            en.click("#chat-toggle")
            en.click("button.phrase[data-phrase=nice]")
            zh.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('打得好')")
            en.wait_for_function("() => document.querySelector('#chat-log').innerText.includes('Well played!')")
            en.screenshot(path=str(ARTIFACTS / "friends_chat_en.png"))
            # the creator fills the empty seats with bots: the game starts for both
            zh.click("#fill-bots")
            for pg in (zh, en):
                pg.wait_for_selector("body.playing #pond")
                pg.wait_for_function("() => document.querySelectorAll('.opp .plate').length === 4")
            problems = {}
            for lang, pg in (("zh", zh), ("en", en)):
                for name, (w, h) in SIZES.items():
                    pg.set_viewport_size({"width": w, "height": h})
                    pg.wait_for_timeout(300)
                    pg.screenshot(path=str(ARTIFACTS / f"friends_table_{name}_{lang}.png"))
                    bad = pg.evaluate(IN_VIEW)
                    if bad:
                        problems[(lang, name)] = bad
            # the chat panel open on a phone, by thumb
            en.set_viewport_size({"width": 390, "height": 844})
            if en.locator("#chat-panel").is_hidden():
                en.click("#chat-toggle")
            en.screenshot(path=str(ARTIFACTS / "friends_chat_portrait_en.png"))
            assert problems == {}, problems
        finally:
            browser.close()
