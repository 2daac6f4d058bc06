"""The built-in avatars: a few small drawings of our own (SVG, 32x32 view box), chosen at sign-up.

No upload: an avatar is one of :data:`AVATARS` (``users.avatar``), drawn by :func:`svg` on the pages
and by ``/static/avatars.js`` (generated from the same markup) on the table.
"""

from __future__ import annotations

import json

from majiang.web.auth import AVATARS

_BG = '<circle cx="16" cy="16" r="16" fill="{bg}"/>'

#: avatar id -> (background colour, the drawing's shapes)
_DRAWINGS: dict[str, tuple[str, str]] = {
    "bamboo": ("#dff3e3", '<rect x="10" y="5" width="4" height="22" rx="2" fill="#2e8b57"/>'
               '<rect x="18" y="8" width="4" height="19" rx="2" fill="#3aa76d"/>'
               '<path d="M9 12h6M9 19h6M17 15h6M17 21h6" stroke="#1d5e3a" stroke-width="1.5"/>'
               '<path d="M14 9q5-4 8-3q-3 3-8 3z" fill="#3aa76d"/>'),
    "plum": ("#fbe4ea", ''.join(f'<circle cx="{16 + 6 * dx:.1f}" cy="{16 + 6 * dy:.1f}" r="4.5" fill="#e0607e"/>'
                               for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)))
             + '<circle cx="16" cy="16" r="3" fill="#ffd34d"/>'),
    "fish": ("#dcecfb", '<path d="M6 16q8-9 17 0q-9 9-17 0z" fill="#f08a24"/>'
             '<path d="M22 16l6-5v10z" fill="#f08a24"/><circle cx="11" cy="15" r="1.5" fill="#222"/>'
             '<path d="M14 12q2 4 0 8" stroke="#c5651a" stroke-width="1.2" fill="none"/>'),
    "cat": ("#f3ead9", '<path d="M8 13l2-7 5 5h2l5-5 2 7v6q0 7-8 7t-8-7z" fill="#8a8a8a"/>'
            '<circle cx="12.5" cy="17" r="1.6" fill="#222"/><circle cx="19.5" cy="17" r="1.6" fill="#222"/>'
            '<path d="M15 20h2l-1 1.3z" fill="#e07a8a"/>'
            '<path d="M6 20h5M6 22.5h5M21 20h5M21 22.5h5" stroke="#555" stroke-width=".8"/>'),
    "moon": ("#27305a", '<path d="M20 6a10 10 0 1 0 6 16a8 8 0 1 1-6-16z" fill="#f6e27a"/>'
             '<circle cx="9" cy="9" r="1" fill="#fff"/><circle cx="25" cy="9" r="0.8" fill="#fff"/>'),
    "mountain": ("#d9eef7", '<path d="M3 25l9-13 5 7 4-5 8 11z" fill="#4f6d7a"/>'
                 '<path d="M12 12l2.5 3.6-2.5-1-2.4 1z" fill="#fff"/><circle cx="24" cy="8" r="3" fill="#f5a623"/>'),
}
assert set(_DRAWINGS) == set(AVATARS)


def svg(avatar: str | None, size: int = 32) -> str:
    """The avatar's ``<svg>`` markup (``""`` for no avatar or an unknown id)."""
    d = _DRAWINGS.get(avatar or "")
    if d is None:
        return ""
    bg, shapes = d
    return (f'<svg class="avatar" viewBox="0 0 32 32" width="{size}" height="{size}" aria-hidden="true">'
            f'{_BG.format(bg=bg)}{shapes}</svg>')


def script() -> str:
    """``/static/avatars.js``: ``export const AVATARS = {id: markup}`` for the table page."""
    return "export const AVATARS = " + json.dumps({a: svg(a, 28) for a in AVATARS}) + ";\n"
