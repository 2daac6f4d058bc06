"""The table as a player sees it (issue 13), in Debian's chromium driven by Playwright: a full hand by
clicks in each of the six rule sets, at 1280×800 and at 390×844, in Chinese and in English; the
hand sorted on the deal and after each draw with the drawn tile apart, the wildcard badged and
pinned left, swapping and 理牌, the hand-end dialog with its pattern names in the page's language,
nothing scrolling on the desktop, the hand in view on the phone. Screenshots of the lobby, the
table, a claim and the hand end go to ``artifacts/`` (``ui_<preset>_<lang>_<size>_<what>.png``);
the render time of each state update is printed.

Skips when /usr/bin/chromium or the ``playwright`` package is absent."""

from __future__ import annotations

import os
import re
import statistics
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MAJIANG_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium fonts-noto-cjk)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

from web_helpers import IN_VIEW  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
HAN = re.compile(r"[\u4e00-\u9fff]")

# (preset, language, viewport): every rule set once on each size, both languages on each size
RUNS = [
    ("mcr", "zh", "desktop"), ("mcr", "en", "phone"),
    ("taiwan", "en", "desktop"), ("taiwan", "zh", "phone"),
    ("wenzhou", "zh", "desktop"), ("wenzhou", "en", "phone"),
    ("wenzhou-w16", "en", "desktop"), ("wenzhou-w16", "zh", "phone"),
    ("seed000", "zh", "desktop"), ("seed000", "en", "phone"),
    ("shandong", "en", "desktop"), ("shandong", "zh", "phone"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from web_helpers import served

    from majiang.web.app import Settings, create_app

    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path_factory.mktemp('ui') / 'web.sqlite3'}"
    app = create_app(Settings(database_url=url, secret_key="u" * 40, bot_delay=0.01, login_attempts=1000,
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


def _page(browser, lang: str, size: str):
    ctx = browser.new_context(viewport=DESKTOP if size == "desktop" else PHONE,
                              locale="zh-CN" if lang == "zh" else "en-US",
                              extra_http_headers={"Accept-Language": "zh-CN,zh;q=0.9" if lang == "zh" else "en-US,en;q=0.9"},
                              reduced_motion="reduce", has_touch=size == "phone", is_mobile=size == "phone")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _hand_order(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#hand svg.tile", "els => els.map(e => e.dataset.tile)")]


def _check_sorted(page, app, rid: str) -> None:
    """The hand is the wildcard(s) first (badged), then ascending; the drawn tile apart."""
    order, live = page.evaluate("""() => [[...document.querySelectorAll('#hand svg.tile')].map(e => +e.dataset.tile),
                                          window.__mj.live]""")
    if not live or "hand" not in live:
        return
    wf = live.get("wild_face")
    wild = [t for t in order if t == wf]
    rest = [t for t in order if t != wf]
    assert order == wild + rest, order
    assert rest == sorted(rest), order
    if wild:
        assert page.locator("#hand svg.tile.wild").count() == len(wild)
    assert sorted(order + ([live["last_draw"]] if live.get("last_draw") is not None else [])) == sorted(live["hand"])


def _play_hand(page, app, rid: str, name: str, phone: bool = False) -> dict:
    """Click through one hand: win when offered, else pass a claim (after a screenshot of the first),
    else discard the drawn tile (or the rightmost). Returns what was seen."""
    seen = {"claims": 0, "discards": 0, "sorted_checks": 0}
    end = time.monotonic() + 60
    claim_shot = False
    while time.monotonic() < end and not page.is_visible("#result"):
        version = page.get_attribute("#app", "data-version")
        try:
            if page.locator("#actions button[data-kind=win]").count():
                page.click("#actions button[data-kind=win]", timeout=2000)
            elif page.locator("#actions button[data-kind=pass]").count():
                if not claim_shot:
                    _shot(page, name + "_claim")
                    claim_shot = True
                seen["claims"] += 1
                page.click("#actions button[data-kind=pass]", timeout=2000)
            elif page.locator("#actions .hint").count():
                if phone and not seen["discards"]:  # no right-click on a phone: the hint does not offer it
                    hint = page.inner_text("#actions")
                    assert "right-click" not in hint and "右键" not in hint, hint
                if seen["discards"] % 3 == 0:
                    _check_sorted(page, app, rid)
                    seen["sorted_checks"] += 1
                tile = page.locator("#drawn svg.tile:not(.wild)")
                if not tile.count():
                    tile = page.locator("#hand svg.tile:not(.wild)").last
                tile.click(timeout=2000)
                tile.click(timeout=2000)
                seen["discards"] += 1
            else:
                page.wait_for_timeout(20)
                continue
        except sync_api.TimeoutError:
            continue
        try:
            page.wait_for_function("v => document.getElementById('app').dataset.version !== v", arg=version,
                                   timeout=3000)
        except sync_api.TimeoutError:
            pass
    return seen


def _signup(page, base: str, user: str) -> None:
    page.goto(base + "/signup")
    page.fill("#username", user)
    page.fill("#password", "browser password")
    page.click("#submit")
    page.wait_for_selector("#create-form")


def _dealt_table(page, base: str, user: str) -> None:
    """Sign ``user`` up, open a one-hand MCR table with a long clock, fill it with bots and wait for
    the deal."""
    _signup(page, base, user)
    page.select_option("#preset", "mcr")
    page.fill("#max_hands", "1")
    page.fill("#turn_time", "120")
    page.click("#create")
    page.wait_for_selector("#fill-bots")
    page.click("#fill-bots")
    page.wait_for_selector("#hand svg.tile")


@pytest.mark.parametrize("preset,lang,size", RUNS)
def test_a_hand_by_clicks(server, browser, preset, lang, size):
    base, app = server
    page, errors = _page(browser, lang, size)
    name = f"ui_{preset}_{lang}_{size}"
    try:
        _signup(page, base, f"{preset[:7]}_{lang}_{size}")
        assert page.get_attribute("html", "lang") == ("zh-CN" if lang == "zh" else "en")
        if preset == "mcr":
            page.click("#rule-options summary")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}_lobby.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= (DESKTOP if size == "desktop" else PHONE)["width"]
        # the rules form: generated controls, the preset's defaults put in
        page.select_option("#preset", preset)
        from majiang.engine import RuleSet

        rs = RuleSet.preset(preset)
        shown = page.eval_on_selector_all("fieldset.opts", "fs => fs.filter(f => !f.hidden).map(f => f.dataset.preset)")
        assert shown == [preset]
        assert page.input_value(f"#opt-{preset}-rounds") == str(rs.rounds)
        assert page.is_checked(f"#opt-{preset}-rob_kong") == rs.rob_kong
        bao = preset == "taiwan" and size == "desktop"
        if bao:  # 宝牌加台, a switch of the rules form
            page.click("#rule-options summary")
            page.check("#opt-taiwan-bao_pai")
        page.fill("#max_hands", "1")
        page.fill("#turn_time", "120")
        page.click("#create")
        page.wait_for_selector("#fill-bots")
        rid = page.url.rsplit("/", 1)[1]
        assert app.state.lobby.rooms[rid].rules.bao_pai is bao
        page.click("#fill-bots")
        page.wait_for_selector("#hand svg.tile, #result:not([hidden])")
        page.wait_for_timeout(150)
        if bao:  # the 宝牌 shown in the centre
            assert page.locator("#centre .c-wild svg.tile").count() >= 1
            assert "Bao" in page.inner_text("#centre")
        _check_sorted(page, app, rid)
        _shot(page, name + "_table")
        # nothing scrolls on the desktop; on the phone the hand is in view and tiles are tappable
        sw, sh = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        vp = DESKTOP if size == "desktop" else PHONE
        assert sw <= vp["width"] and sh <= vp["height"], (sw, sh)
        if page.locator("#hand svg.tile").count():
            box = page.locator("#hand svg.tile").first.bounding_box()
            assert box["y"] + box["height"] <= vp["height"] and box["width"] >= 30, box
            # tiles have accessible names in the page's language
            label = page.get_attribute("#hand svg.tile", "aria-label")
            assert bool(HAN.search(label)) == (lang == "zh"), label
        seen = _play_hand(page, app, rid, name, phone=size == "phone")
        assert page.is_visible("#result"), "no hand-end dialog"
        early = seen["discards"] == 0  # the bots ended the hand before this seat's first turn
        assert early or seen["sorted_checks"] > 0
        text = page.inner_text("#result")
        assert ("第 1 局" in text) if lang == "zh" else ("Hand 1" in text)
        assert not re.search(r"\b(tw|wz13|wz16|sd|seed000)\.[a-z_]+", text), text  # no internal ids
        # a one-hand game: its end shows the final standings and a way back to the lobby (no continue)
        assert ("终局" in text and "大厅" in text) if lang == "zh" else ("Game over" in text and "Lobby" in text)
        room = app.state.lobby.rooms[rid]
        res = room.state_for(None)["results"][-1]
        for w in res["wins"]:
            # every pattern worth something is named; a reason worth nothing (Wenzhou's 财神归位,
            # value None) is not a row of the table (issue 31: no zero rows)
            for p in w["patterns"]:
                if (p["points"] or 0) * p["count"]:
                    assert (p["name_zh"] if lang == "zh" else p["name_en"]) in text
        page.wait_for_timeout(200)
        _shot(page, name + "_end")
        if lang == "en":  # no untranslated text on the English table (a Chinese term in brackets aside)
            shown = re.sub(r"\([^()]*\)", "", page.inner_text("main") + page.inner_text("nav").replace("中文", ""))
            assert not HAN.search(shown), HAN.findall(shown)[:10]
        times = page.evaluate("window.__mjRenderTimes")
        print(f"\n{name}: {len(times)} state updates drawn, median {statistics.median(times):.2f} ms, "
              f"max {max(times):.2f} ms (one frame = 16.7 ms); claims passed {seen['claims']}")
        assert statistics.median(times) < 16.7
        assert not errors, errors
    except BaseException:
        _shot(page, name + "_FAILED")
        raise
    finally:
        page.context.close()


def test_swap_arrange_and_wildcard(server, browser, monkeypatch):
    """Off turn two taps swap two tiles, 理牌 sorts again; a wildcard stays pinned left, and tapping
    it on one's turn says why it may not be discarded (Wenzhou: 财神)."""
    base, app = server
    page, errors = _page(browser, "zh", "desktop")
    try:
        _signup(page, base, "swapper")
        page.select_option("#preset", "wenzhou")
        page.fill("#max_hands", "6")  # up to six hands: a claim window and a wildcard in hand are chance
        page.fill("#turn_time", "120")
        page.click("#create")
        page.wait_for_selector("#fill-bots")
        rid = page.url.rsplit("/", 1)[1]
        page.click("#fill-bots")
        page.wait_for_selector("#hand svg.tile")
        found_wild = swapped = False
        end = time.monotonic() + 150  # a loaded machine plays slowly
        while time.monotonic() < end and not (swapped and found_wild):
            if page.is_visible("#result"):  # a hand's end: continue to the next one
                if page.get_attribute("#app", "data-status") == "finished":
                    break
                if page.is_enabled("#result-close"):
                    page.click("#result-close")
                page.wait_for_timeout(100)
                continue
            version = page.get_attribute("#app", "data-version")
            wf = page.evaluate("window.__mj.live.wild_face")  # this hand's wildcard
            try:
                if page.locator("#actions button[data-kind=win]").count():
                    page.click("#actions button[data-kind=win]", timeout=2000)
                elif page.locator("#actions button[data-kind=pass]").count():
                    # a claim window waits for this seat: a calm moment to swap two tiles and arrange
                    before = _hand_order(page)
                    n = len(before)
                    if not swapped and n >= 2 and before[-1] != before[-2] and wf not in before[-2:]:
                        page.locator("#hand svg.tile").nth(n - 2).click(timeout=1000)
                        page.locator("#hand svg.tile").nth(n - 1).click(timeout=1000)
                        assert _hand_order(page)[-2:] == [before[-1], before[-2]]
                        page.click("#arrange")
                        assert _hand_order(page) == before
                        swapped = True
                    page.click("#actions button[data-kind=pass]", timeout=2000)
                elif page.locator("#actions .hint").count():
                    wild = page.locator(f"#hand svg.tile[data-tile='{wf}']")
                    if wild.count() and not found_wild:
                        assert _hand_order(page)[0] == wf
                        assert "财" in page.inner_html("#hand")  # the badge
                        wild.first.click()
                        assert "财神不能打出" in page.inner_text("#message")
                        _shot(page, "ui_wildcard_zh_desktop")
                        found_wild = True
                    tile = page.locator("#drawn svg.tile:not(.wild)")
                    if not tile.count():
                        tile = page.locator("#hand svg.tile:not(.wild)").last
                    tile.click(timeout=2000)
                    tile.click(timeout=2000)
                else:
                    page.wait_for_timeout(20)
                    continue
            except sync_api.TimeoutError:
                continue
            try:
                page.wait_for_function("v => document.getElementById('app').dataset.version !== v", arg=version,
                                       timeout=3000)
            except sync_api.TimeoutError:
                pass
        assert swapped
        assert not errors, errors
    finally:
        page.context.close()


def test_pages_in_both_languages(server, browser):
    """Leaderboard, replay and player pages share the style, read in each language; screenshots."""
    base, app = server
    for lang, size in (("zh", "desktop"), ("en", "phone")):
        page, errors = _page(browser, lang, size)
        try:
            page.goto(base + "/leaderboard")
            assert page.get_attribute("html", "lang") == ("zh-CN" if lang == "zh" else "en")
            # readable: the board's text is dark on a light card
            color = page.eval_on_selector("#board td, #board th", "e => getComputedStyle(e).color")
            bg = page.eval_on_selector(".card", "e => getComputedStyle(e).backgroundColor")
            assert color != bg and bg == "rgb(255, 255, 255)"
            head = page.locator("#board thead").bounding_box()
            row = page.locator("#board tbody tr").first.bounding_box()
            assert row["y"] >= head["y"] + head["height"] - 1  # rows under the header, not beside it
            _shot(page, f"ui_leaderboard_{lang}_{size}")
            with app.state.db() as db:
                from sqlalchemy import select

                from majiang.web.db import Game

                gid = db.scalar(select(Game.id).order_by(Game.id))
            if gid is not None:
                page.goto(f"{base}/games/{gid}")
                page.wait_for_selector("#replay #step")  # the replay opens at step 0, before the deal
                page.click("#first")
                for _ in range(8):
                    page.click("#next")
                assert page.inner_text("#step").startswith("8 /")
                page.wait_for_selector("#replay #board .rseat")  # past the deal: every seat's tiles
                _shot(page, f"ui_replay_{lang}_{size}")
            assert not errors, errors
        finally:
            page.context.close()


def test_hand_end_pause_then_continue(server, browser):
    """Two hands: play stops at the first hand's end (no legal action, the dialog's countdown runs);
    pressing continue starts the next hand, dealt sorted, with the dialog gone."""
    base, app = server
    page, errors = _page(browser, "en", "desktop")
    try:
        _signup(page, base, "pauser")
        page.select_option("#preset", "shandong")
        page.fill("#max_hands", "2")
        page.fill("#turn_time", "120")
        page.click("#create")
        page.wait_for_selector("#fill-bots")
        rid = page.url.rsplit("/", 1)[1]
        page.click("#fill-bots")
        page.wait_for_selector("#hand svg.tile")
        # a mid-range laptop: the CPU four times slower (Chrome DevTools' throttling)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.evaluate("window.__mjRenderTimes.length = 0")
        _play_hand(page, app, rid, "ui_pause")
        times = page.evaluate("window.__mjRenderTimes")
        print(f"\nCPU ×4 slower: {len(times)} state updates drawn, median {statistics.median(times):.2f} ms, "
              f"90th percentile {sorted(times)[int(len(times) * 0.9)]:.2f} ms, max {max(times):.2f} ms (a frame: 16.7 ms)")
        # the figure is printed; the bound leaves room for this shared test machine's own load
        assert statistics.median(times) < 2 * 16.7
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        assert page.is_visible("#result")
        room = app.state.lobby.rooms[rid]
        st = room.state_for(room.places[0].user_id)
        if st.get("pause") is None:
            pytest.skip("the server has no hand-end pause")
        assert st["live"]["legal"] == [] and st["seat"] in st["pause"]["waiting"]
        page.wait_for_function("() => /\\(\\d+\\)/.test(document.getElementById('countdown').textContent)")
        left = int(re.search(r"\d+", page.inner_text("#countdown")).group())
        assert 0 < left <= 15
        _shot(page, "ui_pause_en_desktop_end")
        page.click("#result-close")
        page.wait_for_selector("#result", state="hidden")
        page.wait_for_function("() => document.querySelectorAll('#hand svg.tile').length >= 13")
        assert room.state_for(None).get("pause") is None
        _check_sorted(page, app, rid)
        assert not errors, errors
    finally:
        page.context.close()


def test_auto_play_banner_and_taking_the_seat_back(server, browser):
    """Out of time, the seat goes to 托管 (the server's ``live.auto_play``): the page says so and its
    button sends ``back``, which returns the seat."""
    base, app = server
    page, errors = _page(browser, "zh", "phone")
    try:
        _signup(page, base, "sleeper")
        page.select_option("#preset", "mcr")
        page.fill("#max_hands", "4")  # more than one hand: the bots may end one before the clock runs out
        page.fill("#turn_time", "5")
        page.click("#create")
        page.wait_for_selector("#fill-bots")
        rid = page.url.rsplit("/", 1)[1]
        page.click("#fill-bots")
        page.wait_for_selector("#hand svg.tile, #result:not([hidden])")
        try:
            page.wait_for_selector("#autoplay:not([hidden])", timeout=45_000)
        except sync_api.TimeoutError:
            room = app.state.lobby.rooms[rid]
            if "auto_play" not in (room.state_for(room.places[0].user_id).get("live") or {}):
                pytest.skip("the server has no 托管")
            raise
        assert "托管" in page.inner_text("#autoplay")
        _shot(page, "ui_autoplay_zh_phone")
        # the seat plays on under 托管, so a hand may end first: its result dialog (modal) covers the
        # banner until the player closes it, as at the table; then the button takes the seat back
        end = time.monotonic() + 40
        while page.is_visible("#autoplay") and time.monotonic() < end:
            if page.is_visible("#result"):
                if page.is_enabled("#result-close"):
                    page.click("#result-close")
                else:
                    time.sleep(0.2)
                continue
            try:
                page.click("#take-back", timeout=2_000)
                page.wait_for_selector("#autoplay", state="hidden", timeout=5_000)
            except sync_api.TimeoutError:
                continue
        assert not page.is_visible("#autoplay"), "the seat was not taken back"
        assert not errors, errors
    finally:
        page.context.close()


def test_ties_rank_alike_in_dialog_and_records(server, browser):
    """Tied scores share a place, standard competition ranking ("1224"), in the final dialog as in
    the stored games (state.competition_places, read by the replay and the records): the trial's
    Taiwan game ended 160 / -50 / -50 / -60 -> places 1, 2, 2, 4."""
    from majiang.web.state import competition_places

    scores = [-50, 160, -60, -50]
    assert competition_places(scores) == [2, 1, 4, 2]
    base, app = server
    page, errors = _page(browser, "zh", "desktop")
    try:
        page.goto(base + "/leaderboard")
        got = page.evaluate("""async s => {
          const m = await import('/static/dialogs.js');
          const d = document.createElement('div'); d.id = 'result'; d.hidden = true; document.body.append(d);
          m.showFinal({scores: s, names: ['a', 'b', 'c', 'd'], game_id: null});
          return [m.places(s), [...d.querySelectorAll('.final li')].map(li => [li.value, li.textContent])];
        }""", scores)
        assert got[0] == [2, 1, 4, 2]
        assert got[1] == [[1, "b 160"], [2, "a -50"], [2, "d -50"], [4, "c -60"]]
        assert not errors, errors
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_many_waits_keep_the_phone_page_width(server, browser, lang):
    """A hand of 财神 waits on nearly every tile (CI once dealt wenzhou-w16 three of them: 30 waits
    widened the phone page to 581 px). The waits strip scrolls inside the toolbar: with all 34 tiles
    in it the page stays 390 px wide and its height does not grow past the screen."""
    base, app = server
    page, errors = _page(browser, lang, "phone")
    try:
        _dealt_table(page, base, f"waits_{lang}")
        page.wait_for_timeout(150)
        page.evaluate("""() => {
            const svg = document.querySelector('#hand svg.tile').outerHTML;
            const one = `<span class="wait">${svg}<span class="unseen">×4</span></span>`;
            document.getElementById('ready').innerHTML =
                `<span class="waits">听牌 ${one.repeat(34)}</span><label class="autowin"><input type="checkbox"> auto</label>`;
        }""")
        page.wait_for_timeout(100)
        _shot(page, f"ui_many_waits_{lang}_phone")
        sw, sh = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert sw <= PHONE["width"] and sh <= PHONE["height"], (sw, sh)
        strip = page.evaluate("(() => { const e = document.querySelector('#ready .waits'); return [e.clientWidth, e.scrollWidth]; })()")
        assert strip[0] <= PHONE["width"] < strip[1], strip  # the strip itself scrolls
        assert not errors, errors
    finally:
        page.context.close()


# The fullest table a 16-tile game can lay out: each seat with four kongs (one concealed) and a
# pung melded (Taiwan's five sets), all eight flowers, one tile in hand, and 24 discards in its river.
FULL_TABLE = """async () => {
  const b = await import('/static/board.js');
  const meld = (kind, tiles, claimed, offer) => ({kind, tiles, claimed, offer});
  const seat = s => [meld("exposed-kong", [0, 0, 0, 0], 0, 1), meld("added-kong", [10, 10, 10, 10], 10, 2),
                     meld("concealed-kong", [20, 20, 20, 20], null, null), meld("pung", [30, 30, 30], 30, 3),
                     meld("exposed-kong", [33, 33, 33, 33], 33, 2)];
  const st = {seat: 0, names: ["张三丰", "Bot one", "电脑二号", "Somebody Long"], scores: [0, 0, 0, 0],
              bots: [null, "efficiency", "efficiency", "efficiency"], avatars: [], rules: "taiwan", max_hands: 1};
  const live = {round: 0, prevalent_wind: 27, dealer: 0, turn: 1, hand_number: 0, wall_live: 10, discarder: 1,
                hand_counts: [1, 1, 1, 1], melds: [0, 1, 2, 3].map(seat), hidden_kongs: [0, 0, 0, 0],
                flowers: [0, 1, 2, 3].map(() => [34, 35, 36, 37, 38, 39, 40, 41]),
                rivers: [0, 1, 2, 3].map(s => Array.from({length: 24}, (_, i) => (i * 7 + s) % 34))};
  b.drawBoard(st, live, null);
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_fullest_table_stays_in_view(server, browser, lang):
    """Five melds, eight flowers and a long river at every seat (a 16-tile hand's most) fit the window
    on the desktop (1280×800), a phone upright (390×844) and on its side (844×390): nothing outside
    it or cut off by a seat's box. CI once dealt a seat four flowers at 390 px and the right-hand
    seat's 44-px box cut the fourth off."""
    base, app = server
    page, errors = _page(browser, lang, "phone")
    try:
        _dealt_table(page, base, f"full_{lang}")
        problems = {}
        for name, (w, h) in {"desktop": (1280, 800), "portrait": (390, 844), "landscape": (844, 390)}.items():
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate(FULL_TABLE)
            bad = page.evaluate(IN_VIEW)  # measured at once: a state update may redraw the board after
            _shot(page, f"ui_full_table_{lang}_{name}")
            if bad:
                problems[name] = bad
        assert problems == {}, problems
        assert not errors, errors
    finally:
        page.context.close()
