"""Fixtures for the web table: an app on a fresh database.

By default a fresh SQLite file per test. With ``DATABASE_URL`` set (e.g.
``postgresql+psycopg://majiang:majiang@127.0.0.1/majiang_test``), every test runs against that
database instead, emptied first (every table dropped; the app's migrations then build it anew).
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from majiang.web.app import Settings, create_app  # noqa: E402


def _empty(url: str) -> None:
    """Drop every table of the database at ``url`` (the Alembic version table included)."""
    from sqlalchemy import MetaData, create_engine

    eng = create_engine(url)
    try:
        md = MetaData()
        md.reflect(eng)
        md.drop_all(eng)
    finally:
        eng.dispose()


@pytest.fixture
def database_url(tmp_path) -> str:
    """``DATABASE_URL`` emptied for this test, else a fresh SQLite file."""
    url = os.environ.get("DATABASE_URL")
    if url:
        _empty(url)
        return url
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def make_app(database_url):
    def make(**kw: Any):
        kw.setdefault("database_url", database_url)
        kw.setdefault("secret_key", "test-secret-key-" + "x" * 32)
        kw.setdefault("bot_delay", 0.0)
        kw.setdefault("min_turn_time", 0.05)
        kw.setdefault("claim_pause", 0.02)  # windows held (as served), briefly
        return create_app(Settings(**kw))

    return make


@pytest.fixture
def client(make_app):
    with TestClient(make_app()) as c:
        c.headers["accept-language"] = "en"  # these tests read the English pages (Chinese is the default)
        yield c


