"""``majiang serve``: run the web table (lobby, tables, records, leaderboard) with uvicorn."""

from __future__ import annotations

import dataclasses
import json
import os

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--db", "db", envvar="DATABASE_URL", default=None,
              help="SQLAlchemy database URL (env DATABASE_URL); default: SQLite in the user's data folder.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the tables (PostgreSQL only; SQLite serves one process).")
@click.option("--secure-cookies/--no-secure-cookies", default=False, show_default=True,
              help="Mark the session cookie Secure (serve behind HTTPS).")
@click.option("--proxy-headers/--no-proxy-headers", default=False, show_default=True,
              help="Trust X-Forwarded-For (only behind a reverse proxy you run).")
@click.option("--bot-delay", default=0.6, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds a bot waits before acting (so people can follow the game).")
@click.option("--max-tables", default=500, show_default=True, type=click.IntRange(1, 100000),
              help="Tables not yet finished that the server holds at most.")
@click.option("--tables-per-user", default=3, show_default=True, type=click.IntRange(1, 1000),
              help="Open tables one user may have created at once.")
@click.option("--tables-per-minute", default=10, show_default=True, type=click.IntRange(1, 100000),
              help="Tables one user may create per minute.")
@click.option("--hand-pause", default=15.0, show_default=True, type=click.FloatRange(0, 120),
              help="Seconds the end of a hand waits for every person to press continue.")
@click.option("--async-commit/--no-async-commit", default=False, show_default=True,
              help="PostgreSQL: steps do not wait for the write-ahead log to reach the disk (faster); "
                   "a crash of PostgreSQL or its machine can then lose the last moments of play.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(host: str, port: int, db: str | None, workers: int, secure_cookies: bool, proxy_headers: bool,
          bot_delay: float, max_tables: int, tables_per_user: int, tables_per_minute: int, hand_pause: float,
          async_commit: bool, log_level: str) -> None:
    """Play in the browser: a lobby, tables over WebSockets, records and a leaderboard.

    The database is migrated to the newest schema at start; every unfinished table in it is
    rebuilt from its log and resumed. The session cookie is signed with MAJIANG_SECRET_KEY, or a
    key kept in the user's data folder. Several processes (--workers, or several servers on one
    PostgreSQL) share the tables; one runs each table's clock and bots at a time.
    """
    import uvicorn
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from majiang.web.app import Settings, _secret_key, create_app

    if async_commit and not (db or "").startswith("postgresql"):
        raise click.UsageError("--async-commit is for PostgreSQL: SQLite commits in the process itself")
    if workers > 1 and not (db or "").startswith("postgresql"):
        raise click.UsageError("--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...): "
                               "SQLite serves one process")
    settings = Settings(database_url=db, https_only=secure_cookies, bot_delay=bot_delay, max_tables=max_tables,
                        tables_per_user=tables_per_user, tables_per_minute=tables_per_minute, hand_pause=hand_pause, proxy_headers=proxy_headers,
                        async_commit=async_commit)
    try:
        app = create_app(settings)
    except (ArgumentError, NoSuchModuleError) as e:
        raise click.UsageError(f"--db {db!r} is not a database URL SQLAlchemy can use "
                               f"(e.g. sqlite:///path/to/file.db, postgresql+psycopg://user@host/db): {e}") from None
    except OperationalError as e:
        reason = str(e.orig) if getattr(e, "orig", None) is not None else str(e)
        raise click.ClickException(f"cannot open the database {db or '(default SQLite file)'}: "
                                   f"{reason.strip().splitlines()[0]}") from None
    from majiang.web.db import default_url

    where = db or os.environ.get("DATABASE_URL") or default_url()
    if "@" in where:  # never print a password
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[1]
    click.echo(f"majiang: serving on http://{host}:{port}/" + (f" ({workers} processes)" if workers > 1 else ""))
    click.echo(f"majiang: database {where} (every game in play is kept there; Ctrl-C stops, a restart resumes)")
    common = dict(host=host, port=port, log_level=log_level, proxy_headers=proxy_headers, ws_max_size=1 << 20,
                  timeout_graceful_shutdown=5)
    if workers == 1:
        uvicorn.run(app, **common)
        return
    del app  # each worker builds its own
    settings = dataclasses.replace(settings, secret_key=_secret_key(settings))
    os.environ["MAJIANG_SETTINGS"] = json.dumps(dataclasses.asdict(settings))
    uvicorn.run("majiang.web.app:app_from_env", factory=True, workers=workers, **common)
