"""The few static files (CSS and vanilla JS, no build step), read once at import."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent


def _read(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


FILES: dict[str, tuple[str, str]] = {
    "style.css": ("text/css; charset=utf-8", _read("static_style.css")),
    "tiles.js": ("text/javascript; charset=utf-8", _read("static_tiles.js")),
    "table.js": ("text/javascript; charset=utf-8", _read("static_table.js")),
    "replay.js": ("text/javascript; charset=utf-8", _read("static_replay.js")),
}
