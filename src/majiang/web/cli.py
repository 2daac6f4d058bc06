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
              help="Read the client's address from X-Forwarded-For sent by the proxies of "
                   "--forwarded-allow-ips (only behind a reverse proxy you run).")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, envvar="FORWARDED_ALLOW_IPS",
              help="Comma-separated proxy addresses or networks whose X-Forwarded-For is believed ('*': any "
                   "peer); the client is the right-most address not in this list.")
@click.option("--bot-delay", default=0.6, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds a bot waits before acting (so people can follow the game).")
@click.option("--max-tables", default=500, show_default=True, type=click.IntRange(1, 100000),
              help="Tables not yet finished that the server holds at most.")
@click.option("--tables-per-user", default=3, show_default=True, type=click.IntRange(1, 1000),
              help="Unfinished tables one person may have opened at once (their bot accounts' included).")
@click.option("--tables-per-minute", default=10, show_default=True, type=click.IntRange(1, 100000),
              help="Tables one user may create per minute (their bot accounts' included).")
@click.option("--bots-per-user", default=5, show_default=True, type=click.IntRange(0, 1000),
              help="Bot accounts one person may hold.")
@click.option("--idle-table-minutes", default=10.0, show_default=True, type=click.FloatRange(0.1, 7 * 24 * 60),
              help="Minutes a table may wait for its game to start before it is closed.")
@click.option("--ws-per-session", default=8, show_default=True, type=click.IntRange(1, 10000),
              help="Table WebSockets one session (or bot token) may hold open (per process).")
@click.option("--ws-per-address", default=64, show_default=True, type=click.IntRange(1, 100000),
              help="Table WebSockets one client address may hold open (per process).")
@click.option("--hand-pause", default=15.0, show_default=True, type=click.FloatRange(0, 120),
              help="Seconds the end of a hand waits for every person to press continue.")
@click.option("--claim-pause", default=0.5, show_default=True, type=click.FloatRange(0, 5),
              help="Seconds every claim window stays open while a person is seated, whether anyone can "
                   "claim or not (so no seat learns who could); 0 turns it off.")
@click.option("--analysis-cache", default=16384, show_default=True, type=click.IntRange(1024, 10**7),
              help="Entries each of the bots' hand-analysis tables keeps (the older half is dropped past it), "
                   "so the server's memory levels off.")
@click.option("--async-commit/--no-async-commit", default=False, show_default=True,
              help="PostgreSQL: steps do not wait for the write-ahead log to reach the disk (faster); "
                   "a crash of PostgreSQL or its machine can then lose the last moments of play.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(host: str, port: int, db: str | None, workers: int, secure_cookies: bool, proxy_headers: bool,
          bot_delay: float, max_tables: int, tables_per_user: int, tables_per_minute: int, hand_pause: float,
          claim_pause: float, async_commit: bool, log_level: str, forwarded_allow_ips: str, bots_per_user: int,
          idle_table_minutes: float, ws_per_session: int, ws_per_address: int, analysis_cache: int) -> None:
    """Play in the browser: a lobby, tables over WebSockets, records and a leaderboard.

    The database is migrated to the newest schema at start; every unfinished table in it is
    rebuilt from its log and resumed. The session cookie is signed with MAJIANG_SECRET_KEY, or a
    key kept in the user's data folder. Several processes (--workers, or several servers on one
    PostgreSQL) share the tables evenly; one runs each table's clock and bots at a time, and the
    others take over the tables of one that dies. The port is bound before any table is touched:
    a second server on a port in use, or on the same SQLite file, exits with a message and
    changes nothing.
    """
    import uvicorn
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from majiang.web.app import Settings, _secret_key, create_app
    from majiang.web.db import DatabaseInUse, default_url, hold_sqlite

    if async_commit and not (db or "").startswith("postgresql"):
        raise click.UsageError("--async-commit is for PostgreSQL: SQLite commits in the process itself")
    if workers > 1 and not (db or "").startswith("postgresql"):
        raise click.UsageError("--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...): "
                               "SQLite serves one process")
    # first the port: a server that cannot serve must not touch the database's tables (their leases)
    sock = _listen(host, port)
    where = db or os.environ.get("DATABASE_URL") or default_url()
    try:
        hold_sqlite(where)  # held until the process ends (SQLite serves one process)
    except DatabaseInUse as e:
        sock.close()
        raise click.ClickException(str(e)) from None
    except (ArgumentError, NoSuchModuleError):
        pass  # reported just below
    settings = Settings(database_url=db, https_only=secure_cookies, bot_delay=bot_delay, max_tables=max_tables,
                        tables_per_user=tables_per_user, tables_per_minute=tables_per_minute, hand_pause=hand_pause, proxy_headers=proxy_headers,
                        claim_pause=claim_pause, forwarded_allow_ips=forwarded_allow_ips, bots_per_user=bots_per_user,
                        idle_table_minutes=idle_table_minutes, ws_per_session=ws_per_session,
                        ws_per_address=ws_per_address, async_commit=async_commit, analysis_cache=analysis_cache)
    try:
        app = create_app(settings)
    except (ArgumentError, NoSuchModuleError) as e:
        sock.close()
        raise click.UsageError(f"--db {db!r} is not a database URL SQLAlchemy can use "
                               f"(e.g. sqlite:///path/to/file.db, postgresql+psycopg://user@host/db): {e}") from None
    except OperationalError as e:
        sock.close()
        reason = str(e.orig) if getattr(e, "orig", None) is not None else str(e)
        raise click.ClickException(f"cannot open the database {db or '(default SQLite file)'}: "
                                   f"{reason.strip().splitlines()[0]}") from None

    if "@" in where:  # never print a password
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[1]
    click.echo(f"majiang: serving on http://{host}:{port}/" + (f" ({workers} processes)" if workers > 1 else ""))
    click.echo(f"majiang: database {where} (every game in play is kept there; Ctrl-C stops, a restart resumes)")
    # the app reads X-Forwarded-For itself (majiang.web.guard.ProxyHeaders, the same rule on every
    # route and in the tests); uvicorn's own handling (on by default) would apply it a second time
    common = dict(log_level=log_level, proxy_headers=False, ws_max_size=1 << 20, timeout_graceful_shutdown=5)
    if workers == 1:
        server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, **common))
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:  # pragma: no cover - uvicorn handles Ctrl-C itself
            pass
        if not server.started:
            raise click.ClickException("the server did not start (see the log above)")
        return
    del app  # each worker builds its own
    settings = dataclasses.replace(settings, secret_key=_secret_key(settings))
    os.environ["MAJIANG_SETTINGS"] = json.dumps(dataclasses.asdict(settings))
    _run_workers(uvicorn.Config("majiang.web.app:app_from_env", factory=True, workers=workers, host=host,
                                port=port, **common), sock)


def _listen(host: str, port: int):
    """Bind and listen on ``host:port`` before anything else happens, so that a second server
    started on a port in use stops here, having touched nothing; a clear message otherwise.
    Uvicorn (and each of its worker processes) then serves this socket."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: no wait after a restart
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise click.ClickException(f"port {port} is in use: is another majiang serve running? "
                                       f"(stop it, or pick another --port)") from None
        if e.errno == errno.EACCES:
            raise click.ClickException(f"cannot listen on {host}:{port}: permission denied "
                                       f"(ports below 1024 need privileges)") from None
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def _run_workers(config, sock) -> None:
    """Uvicorn's process manager on our socket (its signature changed across uvicorn versions)."""
    import inspect

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.30
        Multiprocess(config, target=uvicorn.Server(config).run, sockets=[sock]).run()
    else:
        Multiprocess(config, sockets=[sock]).run()
