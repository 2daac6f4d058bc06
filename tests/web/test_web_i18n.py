"""Languages, catalogues, pattern names, the rules form and the page weight (issue 13).

Catalogue completeness: both catalogues have the same keys, every key a template or a script uses is
in both, every pattern id of every rule package is named in Chinese and in English, and an English
page shows no Chinese text outside the language switch (a page text that bypassed the catalogue)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from web_helpers import create_table, signup

from majiang.engine import PRESET_NAMES, RuleSet, parse_spec
from majiang.engine.actions import ActionKind
from majiang.web import i18n, rulesform, static, templates
from majiang.web.rooms import BOT_KINDS
from majiang.web.state import hand_results

WEB = Path(i18n.__file__).parent
HAN = re.compile(r"[\u4e00-\u9fff]")


def test_catalogues_have_the_same_keys_and_no_empty_text():
    zh, en = i18n.texts("zh"), i18n.texts("en")
    assert set(zh) == set(en)
    assert all(v.strip() for v in zh.values()) and all(v.strip() for v in en.values())
    assert len(i18n.catalogue("zh")["messages"]) == len(i18n.catalogue("en")["messages"])
    # the Chinese catalogue is Chinese: every entry but numbers/symbols carries Han characters
    latin_only = [k for k, v in zh.items() if re.search(r"[A-Za-z]{3}", HAN.sub("", v)) and not HAN.search(v)]
    assert latin_only == [], latin_only


def test_english_texts_name_chinese_terms_only_in_brackets():
    """English texts may give the Chinese term beside the English one, "Followed (被跟)", never instead."""
    bare = {k: v for k, v in i18n.texts("en").items() if HAN.search(re.sub(r"\([^()]*\)", "", v))}
    assert bare == {}


def _used_keys() -> set[str]:
    keys: set[str] = set()
    for src in templates.TEMPLATES.values():
        keys |= set(re.findall(r"""_\(\s*["']([\w.\-]+)["']""", src))
    for f in WEB.glob("static_*.js"):
        keys |= set(re.findall(r"""\bt\(\s*["']([\w.\-]+)["']""", f.read_text(encoding="utf-8")))
    keys = {k for k in keys if not k.endswith(".")}  # prefixes of keys built at run time (below)
    # keys built at run time
    keys |= {f"tile.{k}" for k in range(42)} | {"tile.back"}
    keys |= {f"act.{k.value}" for k in ActionKind}
    keys |= {f"opt.{f.name}" for f in rulesform.ruleset_fields()}
    keys |= {f"optv.{f.name}.{c}" for f in rulesform.ruleset_fields() if f.kind == "choice" for c in f.choices}
    keys |= {f"preset.{p}" for p in PRESET_NAMES} | {f"status.{s}" for s in ("open", "playing", "finished")}
    keys |= {f"bot.{b}" for b in BOT_KINDS} | {f"unit.{u}" for u in ("fan", "tai", "mult", "point")}
    keys |= {f"wind.{w}" for w in "eswn"} | {f"wind_short.{w}" for w in "eswn"}
    keys |= {f"penalty.{p}" for p in ("followed", "wild-discard")}
    return keys


def test_every_key_used_by_pages_and_scripts_is_in_both_catalogues():
    used = _used_keys()
    assert len(used) > 200  # the scan finds the keys (a broken pattern would find none)
    for lang in i18n.LANGS:
        missing = sorted(used - set(i18n.texts(lang)))
        assert missing == [], (lang, missing)


def test_every_pattern_of_every_rule_set_is_named_in_both_languages():
    ids = i18n.known_pattern_ids()
    # every rule package contributes (MCR 81 fans + extras, Taiwan tai table, W13, W16, seed 000, Shandong)
    for prefix, least in (("mcr.", 81), ("tw.", 40), ("wz13.", 12), ("wz16.", 8), ("seed000.", 7), ("sd.", 4)):
        assert sum(1 for i in ids if i.startswith(prefix)) >= least, prefix
    for pid in ids:
        zh, en = i18n.pattern_names(pid)
        assert HAN.search(zh), (pid, zh)
        assert en and en != pid and not HAN.sub("", en).strip() == "", (pid, en)
    assert i18n.pattern_names("无番和") == ("无番和", "Chicken Hand")   # MCR records use the Chinese fan name
    assert i18n.pattern_names("tw.sanyuanpai")[0] == "三元牌"


def test_language_negotiation():
    assert i18n.negotiate(None, None, None) == "zh"
    assert i18n.negotiate(None, None, "en-US,en;q=0.9") == "en"
    assert i18n.negotiate(None, None, "en-US;q=0.5,zh-TW;q=0.8") == "zh"
    assert i18n.negotiate(None, "en", "zh-CN") == "en"
    assert i18n.negotiate("zh", "en", "en") == "zh"
    assert i18n.negotiate("fr", None, "fr-FR") == "zh"


def test_server_messages_are_translated():
    assert i18n.translate_message("bad rule options: unknown rule option 'x'", "zh") == "规则选项有误：unknown rule option 'x'"
    assert i18n.translate_message("that seat is taken", "zh") == "该座位已有人。"
    # English messages read as sentences (the trial's login error began lowercase)
    assert i18n.translate_message("that seat is taken", "en") == "That seat is taken"
    assert i18n.translate_message("wrong user name or password", "en") == "Wrong user name or password"
    assert i18n.translate_message("a password is 8-256 characters", "zh") == "密码长度为 8-256 个字符。"


def _pages(client, lang: str) -> dict[str, str]:
    h = signup(client, f"reader_{lang}")
    h["accept-language"] = "zh-CN" if lang == "zh" else "en"
    rid = create_table(client, h)
    out = {}
    for path in ("/", "/leaderboard", f"/tables/{rid}", f"/players/reader_{lang}", "/login", "/signup"):
        r = client.get(path, headers=h)
        assert r.status_code == 200, path
        out[path] = r.text
    return out


def _visible_text(html: str) -> str:
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    html = re.sub(r"\([^()]*[\u4e00-\u9fff][^()]*\)", "", html)  # a Chinese term beside its English name
    html = re.sub(r'<span class="langs">.*?</span>\s*</nav>', "</nav>", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_pages_follow_the_language(client):
    for lang in ("zh", "en"):
        for path, html in _pages(client, lang).items():
            assert f'<html lang="{i18n.HTML_LANG[lang]}">' in html, path
            text = _visible_text(html)
            if lang == "en":
                assert not HAN.search(text), (path, HAN.findall(text)[:10])
            else:
                assert HAN.search(text), path
    # ?lang= switches and is remembered in a cookie
    client.cookies.clear()
    r = client.get("/?lang=zh", headers={"accept-language": "en"})
    assert '<html lang="zh-CN">' in r.text and r.cookies.get(i18n.COOKIE) == "zh"
    r = client.get("/", headers={"accept-language": "en", "cookie": f"{i18n.COOKIE}=zh"})
    assert '<html lang="zh-CN">' in r.text


def test_errors_in_chinese(client):
    r = client.post("/login", data={"username": "nobody", "password": "wrong password"},
                    headers={"accept-language": "zh-CN"})
    assert r.status_code == 401 and "用户名或密码错误" in r.text


def test_rules_form_is_generated_from_each_rule_sets_options(client):
    from majiang.rules import registry

    h = signup(client, "former")
    html = client.get("/", headers={**h, "accept-language": "zh-CN"}).text
    for p in PRESET_NAMES:
        own = registry.describe(p)["options"]
        fields = {f.name: f for f in rulesform.preset_fields(p)}
        assert set(fields) == {o["name"] for o in own if o["choices"] or o["type"] in ("bool", "int")}
        for o in own:
            f = fields[o["name"]]
            assert f.default == rulesform.form_value(o["default"])
            assert f'name="opt.{p}.{o["name"]}"' in html
            assert o["label_zh"] in html  # labelled in the page's language, from the rule set's own data
    assert "bao_pai" in {f.name for f in rulesform.preset_fields("taiwan")}
    # posting a preset's own defaults changes nothing; a switch turned off is written out
    tw = rulesform.preset_fields("taiwan")
    form = {"opt._form": "1", **{f"opt.taiwan.{f.name}": f.default for f in tw if f.default != "false"}}
    assert rulesform.options_text("taiwan", form) == ""
    form.pop("opt.taiwan.flower_wins")
    text = rulesform.options_text("taiwan", form)
    assert text == "flower_wins=false"
    assert parse_spec("taiwan," + text).flower_wins is False
    form["opt.taiwan.max_dealer_streak"] = "2"
    form["opt.taiwan.bao_pai"] = "true"
    form["opt.taiwan.minimum_tai"] = "3"
    rs = parse_spec("taiwan," + rulesform.options_text("taiwan", form))
    assert rs.max_dealer_streak == 2 and rs.bao_pai is True and rs.rule_option("minimum_tai") == 3
    # the form reaches the table
    mcr = rulesform.preset_fields("mcr")
    r = client.post("/tables", headers=h, follow_redirects=False,
                    data={"preset": "mcr", "max_hands": "1", "turn_time": "30", "opt._form": "1",
                          **{f"opt.mcr.{f.name}": f.default for f in mcr if f.default != "false" and f.name != "flowers"}})
    assert r.status_code == 303
    room = next(r for r in client.app.state.lobby.rooms.values() if r.creator == "former")
    assert room.rules.flowers is False and room.options_text == "flowers=false"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_results_carry_named_patterns_and_the_settlement(preset):
    """A few bot hands per rule set: every pattern an object with both names; every win's settlement
    lines add up to its deltas and use the rule set's formula (not the plain fallback)."""
    from majiang.engine import Match
    from majiang.players import make_bot
    from majiang.players.simulate import run_match

    rules = RuleSet.preset(preset)
    wins = 0
    for seed in range(6):
        m = Match(rules, seed=seed, max_hands=2)
        bots = [make_bot("efficiency", rules, seed * 4 + i) for i in range(4)]
        run_match(m, bots)
        for r in hand_results(m.events, rules):
            for w in r["wins"]:
                wins += 1
                for p in w["patterns"]:
                    assert set(p) >= {"name_zh", "name_en", "points", "count"}
                    assert HAN.search(p["name_zh"]) and p["name_en"] != p["id"]
                paid = [0, 0, 0, 0]
                for line in w["settlement"]:
                    paid[line["payer"]] -= line["amount"]
                    if line["to"] is not None:
                        paid[line["to"]] += line["amount"]
                    assert line["formula"]["zh"] != i18n.t("zh", "explain.plain", amount=line["amount"])
                assert paid == w["deltas"]
        if wins >= 2:
            break
    assert wins >= 1


def test_table_page_weight_under_300_kb(client):
    h = signup(client, "weigher")
    rid = create_table(client, h)
    html = client.get(f"/tables/{rid}", headers=h).content
    parts = {name: len(static.FILES[name][1].encode()) for name in static.TABLE_PAGE}
    total = len(html) + sum(parts.values())
    print(f"\ntable page weight: {total / 1024:.1f} KB (HTML {len(html) / 1024:.1f} KB, "
          + ", ".join(f"{k} {v / 1024:.1f}" for k, v in parts.items()) + ")")
    assert total < 300 * 1024
    # nothing is fetched from elsewhere
    for name in static.TABLE_PAGE:
        assert not re.search(r"(src|href|fetch\()\W*(https?:)?//", static.FILES[name][1]), name
    assert json.loads(static.FILES["i18n-zh.json"][1])["lang"] == "zh"


def test_every_choice_of_every_rules_form_is_named_in_both_catalogues():
    """A choice shows its name, never the raw option value (found by a new user: 'three_wilds')."""
    from majiang.web import i18n, rulesform

    missing = []
    for _preset, fields in rulesform.all_preset_fields().items():
        for f in fields:
            if f.kind != "choice":
                continue
            for c in f.choices:
                for lang in ("zh", "en"):
                    if f"optv.{f.name}.{c}" not in i18n.texts(lang):
                        missing.append((lang, f.name, c))
    assert not missing, missing


def test_bot_seat_names_are_short_and_in_the_page_language():
    """A bot's stored seat name (rooms.py: ``{kind}-bot-{n}``) is shown as 电脑n / Bot n, short
    enough for a phone's seat plate; a person's name is never rewritten (sign-up refuses names of
    that shape, test_web_accounts)."""
    assert i18n.person_name("efficiency-bot-2", "zh") == "电脑2"
    assert i18n.person_name("strong-bot-3", "en") == "Bot 3"
    assert i18n.person_name("alice", "zh") == "alice"
    assert i18n.person_name("efficiency-bot-x", "en") == "efficiency-bot-x"
    js = (WEB / "static_i18n.js").read_text(encoding="utf-8")
    assert i18n.BOT_NAME.pattern.replace("\\\\", "\\") in js.replace("\\\\", "\\")  # one rule, both sides


def test_rule_option_help_follows_the_page_language(client):
    """Every option of every rule set's form has a help text in both languages (the rule set's own
    ``Option.help`` and ``Option.help_zh``): the Chinese lobby's tooltips are
    Chinese, the English lobby's English."""
    import html as htmllib

    from majiang.rules import registry

    h = signup(client, "helper")
    zh = htmllib.unescape(client.get("/", headers={**h, "accept-language": "zh-CN"}).text)
    en = htmllib.unescape(client.get("/", headers={**h, "accept-language": "en"}).text)
    for p in PRESET_NAMES:
        for f in rulesform.preset_fields(p):
            assert f.help, (p, f.name)
            assert HAN.search(f.help_in("zh")), (p, f.name, f.help_in("zh"))
            assert f'title="{f.help_in("zh")}"' in zh and f'title="{f.help}"' in en
    head_bump = next(o for o in registry.describe("mcr")["options"] if o["name"] == "multiple_winners")
    assert head_bump["help"] not in zh and head_bump["help"] in en
