"""Player words only (issue 31, part 4): every player page, in Chinese and in English, speaks to players.

The server-rendered pages (the lobby with the create form and every rule set's option group, a table's
seating card with options that differ from the defaults, the replay, a player's record, the
leaderboard) are rendered through the app and their visible text (tooltips and placeholders included)
is read: in Chinese no ``key=value``, no ``RULES.md`` or ``PyMahjongGB``, no option id of any rule set,
no traditional-only character; in English no "1 points". The texts the scripts draw (the hand-end
result panel, the replay's steps) come from the catalogues and the rule sets' pattern names, checked
the same way, and the scripts write a count's unit through ``tn``.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from web_helpers import fill_bots, signup, wait_for

from majiang.engine import PRESET_NAMES
from majiang.rules import registry
from majiang.web import i18n, rulesform

WEB = Path(i18n.__file__).parent

#: Traditional characters that occur (or occurred) in our Chinese texts, with their simplified forms:
#: a Chinese page shows the simplified one.
TRAD_SIMP = dict(zip("聽數獨報門風連莊槓發財東優對張搶撈槍灣見計過開頂魚寶臺龍雙將紅條萬們這為點種類錢體當後裡個與會圓",
                     "听数独报门风连庄杠发财东优对张抢捞枪湾见计过开顶鱼宝台龙双将红条万们这为点种类钱体当后里个与会圆",
                     strict=True))
DEV_WORDS = ("RULES.md", "PyMahjongGB", "TrueSkill")
KEY_VALUE = re.compile(r"[a-z_]+=")
#: "1 points", "1 hands": a count of one with a plural noun ("wins" is left out: "Bot 1 wins" is right)
ONE_PLURAL = re.compile(r"(?<![\d.])1 (points|hands|games|tiles|seconds|minutes|players|rounds|characters|copies)\b")


def option_ids() -> set[str]:
    """Every option id of every rule set (the registry's option names)."""
    return {o["name"] for n in registry.names() for o in registry.describe(n)["options"]}


class _Visible(HTMLParser):
    """The text a player sees: text outside scripts and styles, and the tooltips, placeholders and labels
    of elements (hidden option groups included: a player chooses them in the form)."""

    ATTRS = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for k, v in attrs:
            if k in self.ATTRS and v:
                self.parts.append(v)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data)


def visible(html: str) -> str:
    p = _Visible()
    p.feed(html)
    return "\n".join(p.parts)


def zh_problems(text: str, ids: set[str]) -> list[str]:
    """What a Chinese player should not read in ``text``."""
    out = [f"key=value {m.group(0)!r}" for m in KEY_VALUE.finditer(text)]
    out += [f"document/library {w}" for w in DEV_WORDS if w in text]
    out += [f"option id {w}" for w in sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_\-]*", text)) & ids)]
    out += [f"traditional {c} (simplified {TRAD_SIMP[c]})" for c in sorted(set(text) & set(TRAD_SIMP))]
    return out


def en_problems(text: str) -> list[str]:
    return [f"plural {m.group(0)!r}" for m in ONE_PLURAL.finditer(text)]


def _form(preset: str, **changed: str) -> dict[str, str]:
    """The create form as the page posts it: ``preset``'s defaults, with ``changed`` controls set."""
    data = {"preset": preset, "max_hands": "2", "turn_time": "30", "sit": "1", "opt._form": "1"}
    for f in rulesform.preset_fields(preset):
        v = changed.get(f.name, f.default)
        if f.kind != "bool" or v == "true":
            data[f"opt.{preset}.{f.name}"] = v
    return data


def _create(client, h, data) -> str:
    r = client.post("/tables", data=data, headers=h, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_every_player_page_speaks_to_players(client):
    ids = option_ids()
    assert {"bao_pai", "minimum_tai", "multiple_winners", "tongbao"} <= ids
    host = signup(client, "wordsmith")
    # a Taiwan table with two options changed in the form, an MCR table with the free-text field (still
    # accepted by the server), both open: the lobby lists them, their seating cards show them
    tw = _create(client, host, _form("taiwan", bao_pai="true", minimum_tai="3"))
    mcr = _create(client, host, {"preset": "mcr", "options": "rounds=1", "max_hands": "2", "turn_time": "30",
                                 "sit": "1"})
    assert client.app.state.lobby.get(tw).options_text == "bao_pai=true,minimum_tai=3"  # stored as before
    assert client.app.state.lobby.get(mcr).options_text == "rounds=1"
    # a finished game for the replay, the record and the leaderboard
    player = signup(client, "recorder")
    rid = _create(client, player, {"preset": "mcr", "max_hands": "1", "turn_time": "0.05", "sit": "1"})
    fill_bots(client, player, rid)
    room = client.app.state.lobby.get(rid)
    assert wait_for(lambda: room.game_id is not None, 60)
    gid = room.game_id

    pages = ("/", f"/tables/{tw}", f"/tables/{mcr}", f"/tables/{rid}", f"/games/{gid}", "/players/recorder",
             "/players/wordsmith", "/leaderboard", "/leaderboard?rules=taiwan", "/login", "/signup")
    found: dict[str, list[str]] = {}
    texts: dict[tuple[str, str], str] = {}
    for lang in ("zh", "en"):
        for path in pages:
            r = client.get(path, headers={**host, "accept-language": "zh-CN" if lang == "zh" else "en"})
            assert r.status_code == 200, (lang, path)
            text = visible(r.text)
            texts[lang, path] = text
            bad = zh_problems(text, ids) if lang == "zh" else en_problems(text)
            if bad:
                found[f"{lang} {path}"] = bad
    assert found == {}

    # the options as players read them, one helper for the lobby row and the seating card
    for lang, want in (("zh", "宝牌加台：开 · 起胡台数：3"), ("en", "Bao tiles: on · Minimum tai: 3")):
        assert rulesform.summary("taiwan", "bao_pai=true,minimum_tai=3", lang) == want
        assert want in texts[lang, "/"] and want in texts[lang, f"/tables/{tw}"]
    assert "圈数：1" in texts["zh", "/"] and "圈数：1" in texts["zh", f"/tables/{mcr}"]
    assert "Rounds: 1" in texts["en", f"/tables/{mcr}"]
    assert "bao_pai" not in texts["en", "/"] and "rounds=1" not in texts["en", "/"]
    # no key=value box on the page; choices by their names, the posted value unchanged
    lobby_zh = client.get("/", headers={**host, "accept-language": "zh-CN"}).text
    assert 'name="options"' not in lobby_zh
    assert '<option value="head-bump" selected>截和</option>' in lobby_zh
    assert '<option value="all">多家都和</option>' in lobby_zh
    lobby_en = client.get("/", headers={**host, "accept-language": "en"}).text
    assert '<option value="all">All winners</option>' in lobby_en
    # seed 000 says 百搭 in its form, Wenzhou keeps 财神
    groups = dict(re.findall(r'<fieldset class="opts" data-preset="([\w-]+)".*?>(.*?)</fieldset>', lobby_zh, re.S))
    assert "财神" not in visible(groups["seed000"]) and "翻牌下一张为百搭" in groups["seed000"]
    assert "翻牌下一张为财神" in groups["wenzhou"]


def test_every_option_is_explained_in_one_plain_sentence():
    """Each rule set's options: the Chinese label, help and choice names are simplified Chinese without
    option ids, sources or key=value; the sources stay in the option's ``source``."""
    ids = option_ids()
    bad = {}
    for p in PRESET_NAMES:
        for f in rulesform.preset_fields(p):
            zh = " ".join([f.label(i18n.texts("zh"), "zh"), f.help_in("zh"),
                           *(f.choice_name(c, "zh") for c in f.choices)])
            en = " ".join([f.label(i18n.texts("en"), "en"), f.help_in("en"),
                           *(f.choice_name(c, "en") for c in f.choices)])
            problems = zh_problems(zh, ids) + [w for w in DEV_WORDS if w in en]
            problems += [f"English option id {w}" for w in set(re.findall(r"[a-z_][a-z0-9_\-]*", en)) & ids
                         if "_" in w or "-" in w]
            if not f.help_in("zh") or f.help_in("zh") == f.help or not f.help:
                problems.append("help missing in a language")
            if f.kind == "choice" and any(f.choice_name(c, "en") == c for c in f.choices):
                problems.append("a choice shown by its value")
            if problems:
                bad[(p, f.name)] = problems
    assert bad == {}
    mw = next(o for o in registry.describe("mcr")["options"] if o["name"] == "multiple_winners")
    assert mw["source"] == "RULES.md §1.4" and mw["choice_names"]["head-bump"] == {"zh": "截和", "en": "Head bump"}


def test_catalogues_and_pattern_names_speak_to_players():
    """The texts the scripts draw (result panel, replay steps, table): the Chinese catalogue and every
    pattern's Chinese name (Taiwan's included) are simplified and free of developer words; English
    counts have a singular form (``<key>_one``) where the count can be 1."""
    ids = option_ids()
    zh = i18n.texts("zh")
    bad = {k: zh_problems(re.sub(r"<[^>]+>|\{\w+\}", "", v), ids) for k, v in zh.items()}  # markup, {fields} out
    assert {k: v for k, v in bad.items() if v} == {}
    names = {pid: i18n.pattern_names(pid)[0] for pid in i18n.known_pattern_ids()}
    assert {pid: n for pid, n in names.items() if set(n) & set(TRAD_SIMP)} == {}
    assert (names["tw.duting"], names["tw.baoting"], names["tw.huagang"]) == ("独听", "报听", "花杠")
    tw = {p["id"]: p["name_zh"] for p in registry.describe("taiwan")["patterns"]}
    assert tw["tw.menqing"] == "门清" and registry.describe("taiwan")["label_zh"] == "台湾十六张"
    from majiang.rules.taiwan.patterns import PATTERNS

    assert next(p for p in PATTERNS if p.id == "tw.menqing").zh == "門清"  # kept as data for a zh-TW page
    # English: a count followed by a plural noun has its singular, or the count is never 1
    never_one = {"chat.placeholder": "the chat's length limit", "stats.rating_history": "shown from 2 games"}
    en = i18n.texts("en")
    plural = {k for k, v in en.items() if re.search(r"\{\w+\} (points|hands|games|tiles|seconds|characters)\b", v)}
    assert {k for k in plural if k + "_one" not in en and k not in never_one} == set()
    assert i18n.tn("en", "explain.flat", 1, amount=1) == "1 point"
    assert i18n.tn("en", "explain.flat", 2, amount=2) == "2 points"
    assert i18n.tn("en", "unit.point", 1) == "point" and i18n.tn("zh", "unit.point", 1) == "分"
    # the scripts write a count's unit through tn (the result panel's total: "1 point")
    js = (WEB / "static_dialogs.js").read_text(encoding="utf-8")
    assert "tn(unitKey, w.value)" in js and '+ " " + unit' not in js
    for f in WEB.glob("static_*.js"):
        src = f.read_text(encoding="utf-8")
        assert not [w for w in DEV_WORDS if w in src], f.name
    assert json.loads((WEB / "static_i18n_en.json").read_text(encoding="utf-8"))["unit.point_one"] == "point"
    # seed 000's table and replay say 百搭: each wildcard text the scripts show has its 百搭 twin, chosen for seed000
    scripts = "".join(f.read_text(encoding="utf-8") for f in WEB.glob("static_*.js"))
    for caishen, baida in (("table.wildcard", "table.wildcard_baida"), ("hand.why_caishen", "hand.why_baida"),
                           ("hand.wild_pinned", "hand.wild_pinned_baida"), ("replay.wild", "replay.wild_baida")):
        assert "财神" in zh[caishen] and "百搭" in zh[baida] and "财神" not in zh[baida]
        assert f'"seed000" ? "{baida}"' in scripts, baida


def test_the_replay_in_a_browser_speaks_to_players(database_url):
    """The scripts' own texts, read as a player reads them (Chromium's ``innerText``, tile faces
    included): a finished game's replay at its first step and at its end (the result panel) in Chinese
    has none of the developer words or traditional characters, in English no "1 points"."""
    import os

    import httpx
    import pytest

    chromium = os.environ.get("MAJIANG_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        pytest.skip(f"{chromium} is absent")
    sync_api = pytest.importorskip("playwright.sync_api")
    from web_helpers import served

    from majiang.web.app import Settings, create_app

    app = create_app(Settings(database_url=database_url, secret_key="w" * 40, claim_pause=0.02, bot_delay=0.0,
                              min_turn_time=0.05))
    with served(app) as base:
        with httpx.Client(base_url=base) as c:
            assert c.post("/signup", data={"username": "replayer", "password": "correct horse"}).status_code == 303
            r = c.post("/tables", data={"preset": "taiwan", "max_hands": "1", "turn_time": "0.05", "sit": "1"})
            rid = r.headers["location"].rsplit("/", 1)[1]
            assert c.post(f"/tables/{rid}/bots", data={"kind": "efficiency"}).status_code == 303
        room = app.state.lobby.get(rid)
        assert wait_for(lambda: room.game_id is not None, 90)
        ids = option_ids()
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            try:
                for lang in ("zh", "en"):
                    page = browser.new_page()
                    page.goto(f"{base}/games/{room.game_id}?lang={lang}")
                    page.wait_for_function("(document.getElementById('step') || {}).textContent")
                    start = page.evaluate("document.body.innerText")
                    page.click("#last")
                    page.wait_for_selector("#replay-result:not([hidden])")
                    ended = page.evaluate("document.body.innerText")
                    for text in (start, ended):
                        if lang == "zh":
                            assert zh_problems(text, ids) == [], zh_problems(text, ids)
                        else:
                            assert en_problems(text) == []
                    page.close()
            finally:
                browser.close()


def test_settlement_lines_name_no_zero_terms():
    """A Taiwan win worth 0 tai (no minimum) between two non-dealers is paid as the base alone: no "+ 0 台"."""
    from majiang.engine import RuleSet
    from majiang.web import explain

    pays = explain._payments(RuleSet.preset("taiwan"), {"actor": 1, "target": 2, "value": 0}, dealer=0, streak=0)
    assert [(s, a, f["zh"], f["en"]) for s, a, f in pays] == [(2, 30, "底 30 = 30", "base 30 = 30")]
    pays = explain._payments(RuleSet.preset("taiwan"), {"actor": 1, "target": 2, "value": 2}, dealer=0, streak=0)
    assert [f["zh"] for _, _, f in pays] == ["底 30 + 2 台 × 10 = 50"]
