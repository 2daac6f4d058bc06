"""majiang: Chinese mahjong rules — tiles, hand analysis, scoring, games.

Layers (see docs/DESIGN.md): :mod:`majiang.tiles` → :mod:`majiang.hand` → :mod:`majiang.analysis`
→ :mod:`majiang.rules` → :mod:`majiang.engine`; :mod:`majiang.records` and :mod:`majiang.cli` on top.
"""

__version__ = "0.1.0"
