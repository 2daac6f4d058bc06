"""Database: SQLAlchemy 2 models, the engine, and Alembic migrations run at start.

The default database is SQLite in the user's data folder (platformdirs); ``DATABASE_URL`` (or the
``--db`` option) switches to any SQLAlchemy URL, e.g. ``postgresql+psycopg://user:pw@host/majiang``.
The schema is owned by the Alembic migrations in :mod:`majiang.web.migrations`; :func:`migrate`
upgrades a database to the newest revision.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Callable
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
    # a bot account belongs to a person and logs in with API tokens only (no password)
    owner_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True, default=None)
    #: the name shown at tables, in results and on the leaderboard (:func:`majiang.web.auth.check_display_name`);
    #: ``display_key`` (its casefold) is unique, so two names differing in case or width cannot both exist
    display_name: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    display_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, default=None)
    avatar: Mapped[str] = mapped_column(String(16), default="")  # one of majiang.web.auth.AVATARS, or ""

    @property
    def shown_name(self) -> str:
        """The display name (an account made before display names: its login)."""
        return self.display_name or self.username


class ApiToken(Base):
    """An API token of a bot account: shown once, stored as its SHA-256, revocable."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 of the token
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


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
    #: the table's chat lines, players' and spectators' (docs/server.md, "Table chat"), or None
    chat: Mapped[list | None] = mapped_column(JSON, nullable=True, default=None)
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


class LiveTable(Base):
    """A table of the lobby, open or in play (or finished, until pruned): its fixed settings and
    the seats as they stand. What happened at it is its log (:class:`TableLogRow`); the state is
    rebuilt by replaying that log (:mod:`majiang.web.store`)."""

    __tablename__ = "live_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    creator_id: Mapped[int] = mapped_column(Integer, index=True)
    creator: Mapped[str] = mapped_column(String(64))
    ruleset: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict] = mapped_column(JSON)
    options_text: Mapped[str] = mapped_column(String(400), default="")
    max_hands: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn_time: Mapped[float] = mapped_column(Float)
    reserve_time: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")  # the time bank (0: none)
    status: Mapped[str] = mapped_column(String(16), index=True, default="open")
    places: Mapped[list] = mapped_column(JSON)
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
    #: the 6-digit room number (unique among unfinished tables: a partial unique index)
    room: Mapped[str | None] = mapped_column(String(6), nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)  # not listed; joined by number or link
    quick: Mapped[bool] = mapped_column(Boolean, default=False)  # opened by quick start (快速开始)


class TableLogRow(Base):
    """One accepted change at a table, in order (``seq`` from 1): a seat taken, the deal, an action,
    a hand-end continue... (:mod:`majiang.web.rooms` documents the kinds). Written in the same
    transaction that acknowledges the change; ``(table_id, seq)`` is unique, so two processes
    cannot both write the same step."""

    __tablename__ = "table_log"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("live_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    row: Mapped[dict] = mapped_column(JSON)


class TableLease(Base):
    """Which server process runs a table's clock and bots, until ``expires`` (epoch seconds)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    expires: Mapped[float] = mapped_column(Float)


class ServerHeartbeat(Base):
    """A running server process (its ``owner`` id, as in :class:`TableLease`), written at start and
    at every upkeep: the processes seen within a lease's length are the live ones, among which the
    unfinished tables are shared (:class:`majiang.web.rooms.Lobby`)."""

    __tablename__ = "server_heartbeats"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen: Mapped[float] = mapped_column(Float, index=True)  # epoch seconds
    started: Mapped[float] = mapped_column(Float)
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255), default="")


class UserSession(Base):
    """A log-in: the cookie holds only ``id``'s token; logging out (or revoking) ends it here."""

    __tablename__ = "user_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 of the cookie's token
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    address: Mapped[str] = mapped_column(String(64), default="")
    agent: Mapped[str] = mapped_column(String(200), default="")
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class LoginFailure(Base):
    """Failed log-ins per key (an account or a client address): their count and the last one's
    time (epoch seconds), for the increasing delay of :mod:`majiang.web.auth`."""

    __tablename__ = "login_failures"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last: Mapped[float] = mapped_column(Float, default=0.0)


def default_url() -> str:
    """SQLite in the user's data folder (created if missing)."""
    import platformdirs

    d = Path(platformdirs.user_data_dir("majiang", appauthor=False))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'majiang.sqlite3'}"


class DatabaseInUse(RuntimeError):
    """Another process serves this SQLite database (:func:`hold_sqlite`)."""


_held_lock = threading.Lock()
_held: dict[Path, list] = {}  # lock file -> [open file, holders in this process]


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (``None`` for another database or an in-memory one)."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return None
    name = u.database or ""
    if not name or name == ":memory:" or (name.startswith("file:") and "mode=memory" in name):
        return None
    if name.startswith("file:"):
        name = name[5:].split("?", 1)[0]
    return Path(name).resolve()


def hold_sqlite(url: str) -> Callable[[], None]:
    """Claim a SQLite database for this process, for as long as it serves it; returns the function
    that lets it go. Raises :class:`DatabaseInUse` (naming the other process) when another process
    holds it.

    SQLite serves one process: its leases are taken at once from whoever held them, since the only
    earlier holder can be a server that died (:meth:`majiang.web.store.TableStore.acquire`). That is
    sound only if a second server on the same file is refused *before* it touches a lease, which is
    what this claim is for: an exclusive ``flock`` on ``<file>-serve.lock`` (``msvcrt.locking`` on
    Windows). The kernel drops it when the process dies, however it dies, so a restart after
    ``kill -9`` is never refused. The claim is counted per process (the command line and the app's
    start-up both take it; tests run several apps in one process). Other databases need no claim.
    """
    path = sqlite_file(url)
    if path is None:
        return lambda: None
    lock = path.with_name(path.name + "-serve.lock")
    with _held_lock:
        held = _held.get(lock)
        if held is None:
            try:  # never creates a folder: a database that cannot be opened is reported by its opening
                f = open(lock, "a+")
            except OSError:
                return lambda: None
            try:
                _exclusive(f)
            except OSError:
                try:
                    f.seek(0)
                    other = f.read(32).strip()
                except OSError:  # pragma: no cover - a locked region cannot be read on Windows
                    other = ""
                f.close()
                raise DatabaseInUse(
                    f"the SQLite database {path} is in use by another majiang serve"
                    + (f" (process {other})" if other.isdigit() else "")
                    + ": SQLite serves one process (stop the other, or share tables through PostgreSQL)") from None
            f.seek(0)
            f.truncate()
            f.write(str(os.getpid()))
            f.flush()
            held = _held[lock] = [f, 0]
        held[1] += 1
    done = False

    def release() -> None:
        nonlocal done
        with _held_lock:
            if done:
                return
            done = True
            held[1] -= 1
            if held[1] == 0 and _held.get(lock) is held:
                del _held[lock]
                held[0].close()  # closing the file drops the lock

    return release


def _exclusive(f) -> None:
    """Lock an open file for this process, or raise ``OSError`` at once if another holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


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
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a crash of the process
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()
    return eng


def migrate(engine: Engine) -> None:
    """Upgrade the database to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # several processes may start at once
            from sqlalchemy import text

            conn.execute(text("SELECT pg_advisory_xact_lock(720401)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def session_factory(engine: Engine) -> sessionmaker:
    return sessionmaker(engine, expire_on_commit=False)
