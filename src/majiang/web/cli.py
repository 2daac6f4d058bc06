"""``majiang serve``: run the web table (lobby, tables, records, leaderboard) with uvicorn."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--db", "db", envvar="DATABASE_URL", default=None,
              help="SQLAlchemy database URL (env DATABASE_URL); default: SQLite in the user's data folder.")
@click.option("--secure-cookies/--no-secure-cookies", default=False, show_default=True,
              help="Mark the session cookie Secure (serve behind HTTPS).")
@click.option("--bot-delay", default=0.6, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds a bot waits before acting (so people can follow the game).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(host: str, port: int, db: str | None, secure_cookies: bool, bot_delay: float, log_level: str) -> None:
    """Play in the browser: a lobby, tables over WebSockets, records and a leaderboard.

    The database is migrated to the newest schema at start. The session cookie is signed with
    MAJIANG_SECRET_KEY, or a key kept in the user's data folder.
    """
    import uvicorn
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from majiang.web.app import Settings, create_app

    try:
        app = create_app(Settings(database_url=db, https_only=secure_cookies, bot_delay=bot_delay))
    except (ArgumentError, NoSuchModuleError) as e:
        raise click.UsageError(f"--db {db!r} is not a database URL SQLAlchemy can use "
                               f"(e.g. sqlite:///path/to/file.db, postgresql+psycopg://user@host/db): {e}") from None
    except OperationalError as e:
        reason = str(e.orig) if getattr(e, "orig", None) is not None else str(e)
        raise click.ClickException(f"cannot open the database {db or '(default SQLite file)'}: "
                                   f"{reason.strip().splitlines()[0]}") from None
    click.echo(f"majiang: serving on http://{host}:{port}/")
    uvicorn.run(app, host=host, port=port, log_level=log_level)
