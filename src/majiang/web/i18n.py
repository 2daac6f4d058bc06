"""Languages of the web table: one JSON catalogue per language (Chinese first, English second).

The catalogues are ``static_i18n_zh.json`` and ``static_i18n_en.json`` beside this module: flat
``{key: text}`` maps with the same keys (a test checks it). Keys are dotted by concern: ``nav.*``,
``lobby.*``, ``table.*``, ``opt.<RuleSet option>``, ``optv.<option>.<value>``, ``preset.<name>``,
``tile.<0-41>``... Texts may hold ``{name}`` fields (:meth:`str.format`).

Server messages written in English (errors of the page routes, the WebSocket and the engine) are
translated by the ``"messages"`` entry of each catalogue: a list of ``[english, translation]`` pairs
(gettext-style: the msgid is the English text) where ``{0}``, ``{1}`` match any text and are put back
into the translation. :func:`translate_message` applies them; the page's scripts get the same list and
translate WebSocket errors the same way.

Language choice (:func:`negotiate`): ``?lang=zh|en`` (then remembered in the ``majiang_lang``
cookie), else the cookie, else ``Accept-Language`` (Chinese for any ``zh*`` ranked above English),
else Chinese. ``<html lang>`` is ``zh-CN`` or ``en`` (:data:`HTML_LANG`).

Pattern names (:func:`pattern_names`) come from each rule package's own data -- MCR fans
(``name_zh``/``name_en``), the Taiwan tai table (its simplified names), Wenzhou W13/W16, seed 000, Shandong -- and, for the
engine's stand-in scorer only (``fixed``, ``flower``), from the catalogues' ``pattern.*`` entries.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGS = ("zh", "en")
DEFAULT = "zh"
COOKIE = "majiang_lang"
HTML_LANG = {"zh": "zh-CN", "en": "en"}

_HERE = Path(__file__).parent


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, Any]:
    """The whole catalogue of ``lang`` (``"zh"`` or ``"en"``); raises ``ValueError`` for another."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    return json.loads((_HERE / f"static_i18n_{lang}.json").read_text(encoding="utf-8"))


def texts(lang: str) -> dict[str, str]:
    """The ``{key: text}`` entries of ``lang`` (the message list left out)."""
    return {k: v for k, v in catalogue(lang).items() if k != "messages"}


def t(lang: str, key: str, **kw: Any) -> str:
    """The text of ``key`` in ``lang``, formatted with ``kw``; a missing key raises ``KeyError``
    (tests render every page in both languages, so a missing entry fails there, not in play)."""
    s = catalogue(lang)[key]
    return s.format(**kw) if kw else s


def tn(lang: str, key: str, n: Any, **kw: Any) -> str:
    """:func:`t` for a count ``n``: the catalogue's ``<key>_one`` when ``n`` is 1 and it has one ("1 point",
    not "1 points"), else ``key``. ``static_i18n.js``'s ``tn`` does the same."""
    one = key + "_one"
    return t(lang, one if n == 1 and one in catalogue(lang) else key, **kw)


BOT_NAME = re.compile(r"^(strong|efficiency|random)-bot-(\d+)$")
"""A bot's stored seat name (``efficiency-bot-2``: its kind and number, rooms.py)."""


def person_name(name: str | None, lang: str) -> str:
    """A seat's name as pages show it: a bot's stored name (``efficiency-bot-2``) as ``电脑2`` /
    ``Bot 2`` (short enough for a phone's seat plate; the kind is in the lobby and the plate's
    tooltip), a person's name as it is. ``static_i18n.js``'s ``personName`` does the same."""
    m = BOT_NAME.match(name or "")
    return t(lang, "bot.name", n=m.group(2)) if m else (name or "")


@lru_cache(maxsize=None)
def _message_rules(lang: str) -> list[tuple[re.Pattern[str], str]]:
    rules = []
    for en, tr in catalogue(lang).get("messages", []):
        parts = re.split(r"(\{\d\})", en)
        rx = "".join("(.*?)" if re.fullmatch(r"\{\d\}", p) else re.escape(p) for p in parts)
        rules.append((re.compile(rx + r"\Z", re.S), tr))
    return rules


def translate_message(text: str | None, lang: str) -> str | None:
    """A server message (English, as the routes and the engine write it) in ``lang``: the first
    matching ``messages`` pattern, its ``{0}``... filled from the message; unmatched text is
    returned as it is (a test keeps the routes' own messages all covered)."""
    if text is None:
        return None
    for rx, tr in _message_rules(lang):
        m = rx.match(text)
        if m:
            return _sentence(tr.format(*m.groups()), lang)
    return _sentence(text, lang)


def _sentence(text: str, lang: str) -> str:
    """An English message shown as a sentence: its first letter capitalised ("wrong user name or
    password" -> "Wrong ..."); the routes and the engine write them lowercase."""
    if lang == "en" and text[:1].islower():
        return text[:1].upper() + text[1:]
    return text


def _accept_language(header: str) -> str | None:
    best: tuple[float, str] | None = None
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        q = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        lang = "zh" if tag.startswith("zh") else "en" if tag.startswith("en") else None
        if lang and q > 0 and (best is None or q > best[0]):
            best = (q, lang)
    return best[1] if best else None


def negotiate(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The page language: ``query`` (``?lang=``), else ``cookie``, else ``Accept-Language``, else zh."""
    for v in (query, cookie):
        if v in LANGS:
            return v  # type: ignore[return-value]
    return _accept_language(accept or "") or DEFAULT


def request_lang(request: Any) -> str:
    """:func:`negotiate` for a Starlette request (or WebSocket)."""
    return negotiate(request.query_params.get("lang"), request.cookies.get(COOKIE),
                     request.headers.get("accept-language"))


# ------------------------------------------------------------------------------- pattern names
@lru_cache(maxsize=1)
def _pattern_index() -> dict[str, tuple[str, str]]:
    """``{pattern id: (name_zh, name_en)}`` from every rule package's own pattern data. MCR patterns
    are recorded by their Chinese fan name (``McrScorer``), so both the key and the Chinese name of
    each fan index it."""
    idx: dict[str, tuple[str, str]] = {}
    try:
        from majiang.rules.mcr.fans import FANS

        for f in FANS:
            idx[f.name_zh] = (f.name_zh, f.name_en)
            idx[f.key] = (f.name_zh, f.name_en)
            for a in getattr(f, "aliases_zh", ()) or ():
                idx.setdefault(a, (f.name_zh, f.name_en))
    except ImportError:  # pragma: no cover - the package is part of majiang
        pass
    try:
        from majiang.rules.taiwan.patterns import PATTERNS as TW

        for p in TW:
            idx[p.id] = (p.zh_hans, p.en)  # Chinese pages are simplified; p.zh keeps Taiwan's own writing
    except ImportError:  # pragma: no cover
        pass
    try:
        from majiang.rules.wenzhou import w13, w16

        for d in w13.TABLE.values():
            idx[d.id] = (d.name_zh, d.name_en)
        for p in (w13.PLAIN_DISCARD, w13.PLAIN_SELF_DRAW):
            idx[p.id] = (p.name_zh, p.name_en)
        for obj in vars(w16).values():
            for p in (obj.values() if isinstance(obj, dict) else obj if isinstance(obj, tuple | list) else ()):
                if hasattr(p, "name_zh") and hasattr(p, "id"):
                    idx[p.id] = (p.name_zh, p.name_en)
    except ImportError:  # pragma: no cover
        pass
    try:
        from majiang.rules.seed000.profile import NAMES as S0

        for pid, (zh, en) in S0.items():
            idx[pid] = (zh, en)
    except ImportError:  # pragma: no cover
        pass
    try:
        from majiang.rules.shandong.rules import WIN_TYPES

        for p in WIN_TYPES.values():
            idx[p.id] = (p.name_zh, p.name_en)
    except ImportError:  # pragma: no cover
        pass
    return idx


def known_pattern_ids() -> list[str]:
    """Every pattern id the packages name, plus the stand-in scorer's (catalogue ``pattern.*``)."""
    ids = set(_pattern_index())
    ids |= {k[len("pattern."):] for k in texts("en") if k.startswith("pattern.")}
    return sorted(ids)


def pattern_names(pid: str) -> tuple[str, str]:
    """``(name_zh, name_en)`` of a recorded pattern id; an id no package names comes back as itself
    in both languages (never raises: an old record must still display)."""
    hit = _pattern_index().get(pid)
    if hit is not None:
        return hit
    zh, en = texts("zh"), texts("en")
    key = "pattern." + pid
    if key in zh and key in en:
        return zh[key], en[key]
    return pid, pid


def client_catalogue(lang: str) -> dict[str, Any]:
    """What the page's scripts get (embedded in the page as JSON): the texts and the messages."""
    return {"lang": lang, "texts": texts(lang), "messages": catalogue(lang).get("messages", [])}
