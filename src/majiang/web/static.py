"""The static files: one stylesheet and the page's ES modules (no build step), read once at import.

The table page's scripts are split by concern: ``i18n.js`` (texts), ``connection.js`` (the
WebSocket), ``state.js`` (the state and the hand's order), ``tiles.js`` (the SVG tile set),
``board.js`` (drawing the table), ``hand.js`` (the hand and the claim buttons), ``dialogs.js`` (the
hand end), ``sound.js`` (Web Audio) and ``table.js`` (wiring); ``replay.js`` and ``lobby.js`` serve
the replay and the lobby's rules form. Files are served as ``/static/<name>``.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent
JS = "text/javascript; charset=utf-8"


def _read(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


#: served name -> source file beside this module
SOURCES: dict[str, str] = {
    "style.css": "static_style.css",
    **{f"{m}.js": f"static_{m}.js" for m in ("i18n", "connection", "state", "tiles", "board", "hand", "dialogs",
                                              "sound", "table", "replay", "lobby", "chat")},
}

FILES: dict[str, tuple[str, str]] = {
    name: ("text/css; charset=utf-8" if name.endswith(".css") else JS, _read(src)) for name, src in SOURCES.items()
}

def _catalogue(lang: str) -> str:
    import json

    from majiang.web.i18n import client_catalogue

    return json.dumps(client_catalogue(lang), ensure_ascii=False, separators=(",", ":"))


from majiang.web.avatars import script as _avatars  # noqa: E402

FILES["avatars.js"] = (JS, _avatars())

for _lang in ("zh", "en"):
    FILES[f"i18n-{_lang}.json"] = ("application/json; charset=utf-8", _catalogue(_lang))

#: the modules the table page loads (table.js and what it imports), for the page-weight figure
TABLE_PAGE = ("style.css", "i18n.js", "i18n-zh.json", "connection.js", "state.js", "tiles.js", "board.js", "hand.js", "dialogs.js",
              "sound.js", "table.js", "chat.js", "avatars.js")
