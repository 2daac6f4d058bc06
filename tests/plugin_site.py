"""Install a rule-set plug-in for a test the way pip does: its package's folder and a
``*.dist-info`` with ``entry_points.txt`` on ``sys.path``, so the registry finds it through the real
``importlib.metadata`` discovery (docs/rulesets.md)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def installed(site: Path, src: Path, dist: str, module: str, entry: str) -> Iterator[None]:
    """Plug-in ``dist`` (its import package ``module`` under ``src``, rule set ``entry`` =
    ``module:RULESET``) installed in the empty folder ``site`` while the block runs; the registry is
    reloaded on entering and leaving."""
    from majiang.rules import registry

    info = site / f"{dist.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[majiang.rulesets]\n{entry} = {module}:RULESET\n", encoding="utf-8")
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(site))
    mp.syspath_prepend(str(src))
    registry.reload()
    try:
        yield
    finally:
        sys.modules.pop(module, None)
        mp.undo()
        registry.reload()
