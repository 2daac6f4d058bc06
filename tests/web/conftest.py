"""Fixtures for the web table: an app on a fresh SQLite file."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from majiang.web.app import Settings, create_app  # noqa: E402


@pytest.fixture
def make_app(tmp_path):
    def make(**kw: Any):
        kw.setdefault("database_url", f"sqlite:///{tmp_path / 'web.sqlite3'}")
        kw.setdefault("secret_key", "test-secret-key-" + "x" * 32)
        kw.setdefault("bot_delay", 0.0)
        kw.setdefault("min_turn_time", 0.05)
        return create_app(Settings(**kw))

    return make


@pytest.fixture
def client(make_app):
    with TestClient(make_app()) as c:
        yield c


