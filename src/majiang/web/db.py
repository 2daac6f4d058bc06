"""Database: SQLAlchemy 2 models, the engine, and Alembic migrations run at start.

The default database is SQLite in the user's data folder (platformdirs); ``DATABASE_URL`` (or the
``--db`` option) switches to any SQLAlchemy URL, e.g. ``postgresql+psycopg://user:pw@host/majiang``.
The schema is owned by the Alembic migrations in :mod:`majiang.web.migrations`; :func:`migrate`
upgrades a database to the newest revision.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint,
                        create_engine, event)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class Game(Base):
    """One finished match: its rules, its full JSON-lines record and per-seat results."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    ruleset: Mapped[str] = mapped_column(String(32), index=True)
    rules: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    hands: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    finished_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
    seats: Mapped[list[GameSeat]] = relationship(back_populates="game", order_by="GameSeat.seat",
                                                 cascade="all, delete-orphan")


class GameSeat(Base):
    __tablename__ = "game_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    game: Mapped[Game] = relationship(back_populates="seats")


class Rating(Base):
    """A player's standing in one rule set: points, games and a TrueSkill rating."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "ruleset"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(32), index=True)
    points: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


def default_url() -> str:
    """SQLite in the user's data folder (created if missing)."""
    import platformdirs

    d = Path(platformdirs.user_data_dir("majiang", appauthor=False))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'majiang.sqlite3'}"


def make_engine(url: str) -> Engine:
    kw: dict = {"future": True}
    if url.startswith("sqlite"):
        kw["connect_args"] = {"check_same_thread": False}
    eng = create_engine(url, **kw)
    if url.startswith("sqlite"):
        @event.listens_for(eng, "connect")
        def _fk(dbapi_conn, _rec):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.close()
    return eng


def migrate(engine: Engine) -> None:
    """Upgrade the database to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def session_factory(engine: Engine) -> sessionmaker:
    return sessionmaker(engine, expire_on_commit=False)
