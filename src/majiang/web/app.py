"""The web application: lobby, accounts, tables over WebSockets, records, leaderboard.

:func:`create_app` builds a FastAPI app from :class:`Settings`; ``majiang serve``
(:mod:`majiang.web.cli`) runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import trueskill
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from starlette.middleware.sessions import SessionMiddleware

from majiang.engine import RuleSet, RuleSetError, parse_spec
from majiang.errors import MajiangError
from majiang.records.jsonl import read_record, record_lines
from majiang.rules import registry
from majiang.web import auth, guard
from majiang.web.memory import bound_memory
from majiang.web.db import (Game, GameSeat, Rating, User, default_url, hold_sqlite, make_engine, migrate,
                           session_factory)
from majiang.web.lobby import QUICK_WAIT, Lobby
from majiang.web.rooms import BOT_KINDS, CLAIM_PAUSE, ChatError, Conn, Room
from majiang.web.store import Listener, TableStore
from majiang.web.state import competition_places, hand_results, parse_action, replay_hands
from majiang.web.static import FILES as STATIC_FILES
from majiang.web import i18n, rulesform, stats
from majiang.web.templates import render

log = logging.getLogger("majiang.web")

TS = trueskill.TrueSkill(draw_probability=0.02)


@dataclass
class Settings:
    """Server settings. ``secret_key`` signs the session cookie; ``https_only`` marks it Secure.

    The bounds (docs/server.md, "Bounded resources"): ``max_tables`` unfinished tables in all;
    ``tables_per_user`` unfinished tables and ``tables_per_minute`` new ones per person, the tables
    their bot accounts open included; ``bots_per_user`` bot accounts per person; a table not started
    within ``idle_table_minutes`` is closed; ``ws_per_session`` table sockets per session or bot
    token and ``ws_per_address`` per client address (per process). ``proxy_headers`` reads
    ``X-Forwarded-For`` from the peers in ``forwarded_allow_ips`` only (:mod:`majiang.web.guard`).
    An open socket's session or token is checked on each action and every ``session_check``
    seconds. ``analysis_cache`` bounds each of the bots' hand-analysis tables, so that the
    process's memory levels off (:func:`majiang.web.memory.bound_memory`)."""

    database_url: str | None = None
    secret_key: str | None = None
    https_only: bool = False
    min_turn_time: float = 5.0
    max_turn_time: float = 600.0
    bot_delay: float = 0.6
    login_attempts: int = 10
    login_window: float = 60.0
    max_tables: int = 500
    tables_per_user: int = 3
    tables_per_minute: int = 10
    hand_pause: float = 15.0
    claim_pause: float = CLAIM_PAUSE
    proxy_headers: bool = False
    max_frame: int = 64 * 1024
    bots_per_user: int = 5
    idle_table_minutes: float = 10.0
    ws_per_session: int = 8
    ws_per_address: int = 64
    forwarded_allow_ips: str = "127.0.0.1"
    session_check: float = 0.5
    async_commit: bool = False  # PostgreSQL: steps do not wait for the WAL flush (TableStore)
    quick_wait: float = QUICK_WAIT  # seconds a quick-start table waits for people before bots sit
    quick_hands: int = 4  # hands of a quick-start game (the create form's default)
    analysis_cache: int = 16_384  # entries per hand-analysis table (analysis.tables.limit_tables)


def _secret_key(settings: Settings) -> str:
    if settings.secret_key:
        return settings.secret_key
    env_key = os.environ.get("MAJIANG_SECRET_KEY")
    if env_key:
        return env_key
    import platformdirs

    d = Path(platformdirs.user_data_dir("majiang", appauthor=False))
    d.mkdir(parents=True, exist_ok=True)
    p = d / "secret_key"
    if not p.exists():
        p.write_text(secrets.token_urlsafe(48))
        p.chmod(0o600)
    return p.read_text().strip()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    bound_memory(settings.analysis_cache)
    url = settings.database_url or os.environ.get("DATABASE_URL") or default_url()
    engine = make_engine(url)
    migrate(engine)
    Session = session_factory(engine)
    postgres = url.startswith("postgresql")
    store = TableStore(Session, postgres=postgres, async_commit=settings.async_commit)
    lobby = Lobby(bot_delay=settings.bot_delay, store=store, hand_pause=settings.hand_pause,
                  claim_pause=settings.claim_pause, idle_open=settings.idle_table_minutes * 60.0,
                  quick_wait=settings.quick_wait)
    sockets = guard.SocketGuard(per_session=settings.ws_per_session, per_address=settings.ws_per_address)

    async def check_sessions() -> None:
        """Every ``session_check`` seconds: close the sockets whose session or token ended in the
        database -- revoked by another process too (one query per kind, however many sockets)."""
        while True:
            await asyncio.sleep(settings.session_check)
            try:
                sockets.sweep(lambda ss, ts: auth.live_credentials(Session, ss, ts))
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - logged and retried
                log.exception("checking the sessions of open sockets failed")
    credentials = auth.CredentialCheck(Session, url)  # before each action a socket sends
    login_limit = auth.LoginThrottle(Session, ip_limit=settings.login_attempts, window=settings.login_window)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        # SQLite serves one process: refuse to start (touching no lease) while another serves the file
        let_go = hold_sqlite(url)
        listener = None
        if postgres:
            listener = Listener(url, lobby.heard, asyncio.get_running_loop(), skip_pids=store.own_pids)
            listener.start()
        try:
            lobby.start()  # every unfinished table of the database comes back (replayed from its log)
        except BaseException:  # a start that fails gives back what it took, and nothing else
            await lobby.close()
            if listener is not None:
                listener.stop()
            let_go()
            raise
        checker = asyncio.get_running_loop().create_task(check_sessions(), name="session-check")
        try:
            yield
        finally:
            checker.cancel()
            # a graceful stop: everything acknowledged is in the log already; say goodbye to sockets
            for r in list(lobby.rooms.values()):
                for c in list(r.conns):
                    c.closing = 1012
                    c.push()
            await asyncio.sleep(0.05)
            await lobby.close()
            if listener is not None:
                listener.stop()
            await store.aclose()
            await credentials.aclose()
            store.close()
            engine.dispose()
            let_go()

    app = FastAPI(title="majiang", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.state.lobby = lobby
    app.state.db = Session
    app.state.engine = engine
    app.state.login_limit = login_limit
    app.state.sockets = sockets
    app.add_middleware(SessionMiddleware, secret_key=_secret_key(settings), session_cookie="majiang_session",
                       max_age=14 * 24 * 3600, same_site="lax", https_only=settings.https_only)

    @app.middleware("http")
    async def same_origin_posts(request: Request, call_next):
        # SameSite=Lax already keeps the cookie off cross-site POSTs; refuse foreign origins outright too.
        if request.method == "POST" and not _same_origin(request.headers):
            return PlainTextResponse("cross-origin request refused", status_code=403)
        resp = await call_next(request)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp

    if settings.proxy_headers:  # outermost: every route, throttle and limit sees the client's address
        app.add_middleware(guard.ProxyHeaders, trusted=settings.forwarded_allow_ips)

    # ------------------------------------------------------------------ helpers
    def client_address(request: Request | WebSocket) -> str:
        """The client's address: the peer, or behind a trusted proxy (``--proxy-headers``) the one
        :class:`guard.ProxyHeaders` put in its place."""
        return request.client.host[:64] if request.client and request.client.host else "?"

    def identify(request: Request | WebSocket) -> tuple[User | None, tuple[str, str] | None]:
        """The user and what vouches for them: ``("token", digest)`` for a bot account's API token
        (``Authorization: Bearer``), ``("session", digest)`` for a log-in cookie, else ``None``."""
        bearer = request.headers.get("authorization", "")
        if bearer.lower().startswith("bearer "):  # a bot account's API token
            token = bearer[7:].strip()
            user = auth.token_user(Session, token)
            return user, ("token", auth.digest(token)) if user is not None else None
        token = request.session.get("sid")
        if not isinstance(token, str):
            return None, None
        user = auth.session_user(Session, token)
        return user, ("session", auth.digest(token)) if user is not None else None

    def current_user(request: Request | WebSocket) -> User | None:
        return identify(request)[0]

    def end_bot_sockets(bot_id: int, reason: str) -> None:
        """Close every socket opened with one of the bot account's tokens (they were just revoked)."""
        sockets.end(lambda c: c.cred is not None and c.cred[0] == "token" and c.user_id == bot_id, reason)

    def log_in(request: Request, user: User) -> None:
        request.session.clear()
        request.session["sid"] = auth.new_session(Session, user.id, client_address(request),
                                                  request.headers.get("user-agent", ""))

    def page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("user", current_user(request))
        ctx.setdefault("error", None)
        ctx.setdefault("quick_wait", int(round(settings.quick_wait)))
        lang = i18n.request_lang(request)  # ?lang= (remembered in a cookie), else Accept-Language
        resp = HTMLResponse(render(template, lang, **ctx), status_code=status)
        if request.query_params.get("lang") in i18n.LANGS:
            resp.set_cookie(i18n.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
        return resp

    def back(path: str) -> RedirectResponse:
        return RedirectResponse(path, status_code=303)

    # ------------------------------------------------------------------ static
    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        f = STATIC_FILES.get(name)
        if f is None:
            return PlainTextResponse("not found", status_code=404)
        media, body = f
        return Response(body, media_type=media, headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ accounts
    def auth_page(request: Request, action: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("username", "")
        ctx.setdefault("display_name", "")
        ctx.setdefault("avatar", "")
        return page(request, "auth.html", status, heading="Sign up" if action == "/signup" else "Log in",
                    action=action, avatars=auth.AVATARS, **ctx)

    @app.get("/signup", response_class=HTMLResponse)
    async def signup_form(request: Request):
        return auth_page(request, "/signup")

    @app.post("/signup")
    async def signup(request: Request):
        """A new account: ``username`` (the login) and ``password``; ``display_name`` (optional, the
        login when left out) and ``avatar`` (optional, one of :data:`auth.AVATARS`)."""
        form = await request.form()
        name = str(form.get("username", "")).strip()
        pw = str(form.get("password", ""))
        raw_display = str(form.get("display_name", "") or "")[:100]
        avatar = str(form.get("avatar", "") or "")
        keep = {"username": name, "display_name": raw_display, "avatar": avatar}
        err = auth.check_username(name) or auth.check_password(pw)
        display = name
        if err is None and raw_display.strip():
            try:
                display = auth.check_display_name(raw_display)
            except auth.DisplayNameError as e:
                err = str(e)
        if err is None and avatar not in ("", *auth.AVATARS):
            err = "unknown avatar"
        ip = client_address(request)
        if err is None and not login_limit.allow_signup(ip):
            err = "too many attempts; wait a minute"
            return auth_page(request, "/signup", 429, error=err, **keep)
        if err is None:
            key = auth.display_key(display)
            with Session() as db:
                if db.scalar(select(User).where(func.lower(User.username) == name.lower())) is not None:
                    err = "that user name is taken"
                elif db.scalar(select(User).where(User.display_key == key)) is not None:
                    err = "that display name is taken"
                else:
                    u = User(username=name, password_hash=auth.hash_password(pw), display_name=display,
                             display_key=key, avatar=avatar)
                    db.add(u)
                    try:
                        db.commit()
                    except IntegrityError:  # taken a moment ago by another sign-up
                        db.rollback()
                        err = "that display name is taken"
                    else:
                        log_in(request, u)
                        return back("/")
        return auth_page(request, "/signup", 400, error=err, **keep)

    @app.get("/login", response_class=HTMLResponse)
    async def login_form(request: Request):
        return auth_page(request, "/login")

    @app.post("/login")
    async def login(request: Request):
        form = await request.form()
        name = str(form.get("username", "")).strip()[:64]
        pw = str(form.get("password", ""))[: auth.MAX_PASSWORD]
        ip = client_address(request)
        if not login_limit.address_allowed(ip):
            return auth_page(request, "/login", 429, username=name,
                             error="too many failed log-ins from your address; wait a few minutes")
        # an increasing delay per account (never a lock-out: the owner gets in, a guesser is slowed)
        delay = login_limit.delay(name.lower())
        if delay:
            await asyncio.sleep(delay)
        with Session() as db:
            u = db.scalar(select(User).where(User.username == name))
            ok = auth.verify_password(u.password_hash if u else auth.DUMMY_HASH, pw) and u is not None
        if not ok:
            login_limit.failed(name.lower(), ip)
            return auth_page(request, "/login", 401, username=name, error="wrong user name or password")
        login_limit.succeeded(name.lower())
        log_in(request, u)
        return back("/")

    @app.post("/logout")
    async def logout(request: Request):
        token = request.session.get("sid")
        if isinstance(token, str):
            auth.revoke_session(Session, token)
            # this process's sockets of the session close now; other processes' at their next check
            sockets.end(lambda c: c.cred == ("session", auth.digest(token)), "session ended")
        request.session.clear()
        return back("/")

    @app.get("/account/sessions")
    async def my_sessions(request: Request):
        user = current_user(request)
        if user is None:
            return back("/login")
        token = request.session.get("sid")
        return JSONResponse(auth.list_sessions(Session, user.id, current=token))

    # ------------------------------------------------------------------ bot accounts
    def _my_bot(user: User, name: str) -> User | None:
        with Session() as db:
            b = db.scalar(select(User).where(User.username == name))
        if b is None or b.owner_id != user.id or b.password_hash == auth.DELETED_BOT_HASH:
            return None
        return b

    @app.get("/account/bots")
    async def my_bots(request: Request):
        user = current_user(request)
        if user is None:
            return back("/login")
        with Session() as db:
            bots = db.scalars(select(User).where(User.owner_id == user.id,
                                                 User.password_hash != auth.DELETED_BOT_HASH).order_by(User.id)).all()
        return JSONResponse([{"name": b.username, "id": b.id} for b in bots])

    @app.post("/account/bots")
    async def make_bot_account(request: Request):
        """A bot account of the logged-in person: ``{"name", "id", "token"}``; the API token is shown
        this once (only its hash is kept). The bot connects to a table's WebSocket with
        ``Authorization: Bearer <token>`` and plays through the same messages as the page."""
        user = current_user(request)
        if user is None or user.owner_id is not None:
            return PlainTextResponse("log in as a person first", status_code=401)
        form = await request.form()
        try:
            bid, token = auth.new_bot_account(Session, user.id, str(form.get("name", "")).strip(),
                                              limit=settings.bots_per_user)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({"name": str(form.get("name", "")).strip(), "id": bid, "token": token}, status_code=201)

    @app.post("/account/bots/{name}/token")
    async def new_bot_token(request: Request, name: str):
        """Revoke the bot's tokens and issue a new one (shown once)."""
        user = current_user(request)
        b = _my_bot(user, name) if user is not None else None
        if b is None:
            return PlainTextResponse("no such bot of yours", status_code=404)
        auth.revoke_tokens(Session, b.id)
        end_bot_sockets(b.id, "token revoked")
        return JSONResponse({"name": b.username, "token": auth.new_token(Session, b.id)})

    @app.post("/account/bots/{name}/revoke")
    async def revoke_bot_tokens(request: Request, name: str):
        user = current_user(request)
        b = _my_bot(user, name) if user is not None else None
        if b is None:
            return PlainTextResponse("no such bot of yours", status_code=404)
        n = auth.revoke_tokens(Session, b.id)
        end_bot_sockets(b.id, "token revoked")
        return JSONResponse({"name": b.username, "revoked": n})

    @app.post("/account/bots/{name}/delete")
    async def delete_bot_account(request: Request, name: str):
        """Delete one of your bot accounts: its tokens are revoked, its sockets closed (4401), it
        no longer counts toward ``bots_per_user``; its games stay (and its unfinished tables keep
        counting toward yours until they end)."""
        user = current_user(request)
        b = _my_bot(user, name) if user is not None else None
        if b is None:
            return PlainTextResponse("no such bot of yours", status_code=404)
        n = auth.delete_bot_account(Session, b.id)
        end_bot_sockets(b.id, "bot account deleted")
        return JSONResponse({"name": b.username, "deleted": True, "revoked": n})

    @app.post("/account/sessions/{sid}/revoke")
    async def revoke_one(request: Request, sid: str):
        user = current_user(request)
        if user is None:
            return back("/login")
        if not auth.revoke_session_id(Session, user.id, sid):
            return PlainTextResponse("no such session", status_code=404)
        sockets.end(lambda c: c.cred == ("session", sid), "session ended")
        return back("/account/sessions")

    # ------------------------------------------------------------------ lobby
    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request):
        with Session() as db:
            games = db.scalars(select(Game).options(selectinload(Game.seats))
                               .order_by(Game.id.desc()).limit(10)).all()
        return page(request, "lobby.html", rooms=lobby.open_tables(), presets=registry.names(), games=games,
                    min_turn=int(settings.min_turn_time), option_names=", ".join(sorted(RuleSet.option_names())))

    @app.get("/api/tables")
    async def api_tables():
        """The public unfinished tables (a private one is never listed)."""
        return [{"id": r.id, "rules": r.rules.name, "status": r.status, "names": r.names_by_seat(),
                 "max_hands": r.max_hands, "turn_time": r.turn_time, "room": r.room, "quick": r.quick,
                 "reserve_time": r.reserve_time}
                for r in lobby.open_tables()]

    def lobby_error(request: Request, err: str, status: int = 400) -> HTMLResponse:
        with Session() as db:
            games = db.scalars(select(Game).options(selectinload(Game.seats))
                               .order_by(Game.id.desc()).limit(10)).all()
        return page(request, "lobby.html", status, rooms=lobby.open_tables(), presets=registry.names(), games=games,
                    min_turn=int(settings.min_turn_time), error=err,
                    option_names=", ".join(sorted(RuleSet.option_names())))

    def quota_error(user: User) -> str | None:
        """Why ``user`` may not open another table now (the server's cap, their own open tables,
        their pace), else ``None``."""
        if lobby.unfinished() >= settings.max_tables:
            return "the server has too many tables in play; try later"
        # a bot account's tables are its owner's: one person's quota, however many bots they hold
        owner = user.owner_id if user.owner_id is not None else user.id
        if store.count_unfinished_owned(owner) >= settings.tables_per_user:
            return (f"you already have {settings.tables_per_user} open tables (your bot accounts' included); "
                    "finish or leave one first")
        if store.created_since_owned(owner, time.time() - 60) >= settings.tables_per_minute:
            return "you are creating tables too fast; wait a minute"
        return None

    @app.get("/r/{number}")
    async def invite(request: Request, number: str):
        """The invite link of a table: ``/r/<6-digit room number>`` redirects to ``/tables/<id>``."""
        room = lobby.by_room(number.strip())
        if room is None:
            return lobby_error(request, "no table has that room number", 404)
        return RedirectResponse(f"/tables/{room.id}", status_code=303)

    @app.get("/r")
    async def join_by_number(request: Request, room: str = ""):
        """The lobby's "join room" (加入房间) form: ``?room=123456``."""
        number = "".join(ch for ch in room if not ch.isspace())[:12]
        if not (len(number) == 6 and number.isdigit()):
            return lobby_error(request, "a room number is 6 digits")
        return await invite(request, number)

    @app.post("/quick")
    async def quick_start(request: Request):
        """Quick start (快速开始) with ``preset``: sit at the oldest public quick-start table of that
        rule set with an empty seat, else open one (the default rules, ``quick_hands`` hands); a
        quick table's empty seats get bots ``quick_wait`` seconds after it opened."""
        user = current_user(request)
        if user is None:
            return back("/login")
        form = await request.form()
        preset = str(form.get("preset", ""))
        if preset not in registry.names():
            return lobby_error(request, f"unknown rule set; choose one of {', '.join(registry.names())}")
        ids = store.quick_tables(preset)
        for rid in ids:  # already waiting at one: back there
            r = lobby.get(rid)
            if r is not None and r.place_of(user.id) is not None:
                return back(f"/tables/{rid}")
        for rid in ids:
            r = lobby.get(rid)
            if r is None or r.started:
                continue
            for place, pl in enumerate(r.places):
                if pl.empty:
                    try:
                        r.join(place, user.id, user.shown_name, user.avatar or "")
                    except (ValueError, MajiangError):
                        break  # taken meanwhile: the next table
                    return back(f"/tables/{rid}")
        err = quota_error(user)
        if err is not None:
            return lobby_error(request, err)
        room = lobby.create(creator_id=user.id, creator=user.shown_name, rules=parse_spec(preset), options_text="",
                            max_hands=settings.quick_hands or None, turn_time=30.0, quick=True)
        room.join(0, user.id, user.shown_name, user.avatar or "")
        return back(f"/tables/{room.id}")

    @app.post("/tables")
    async def create_table(request: Request):
        user = current_user(request)
        if user is None:
            return back("/login")
        form = await request.form()
        preset = str(form.get("preset", ""))
        options = rulesform.options_text(preset, form, str(form.get("options", "")).strip()[:300])
        err = None
        rules = None
        if preset not in registry.names():
            err = f"unknown rule set; choose one of {', '.join(registry.names())}"
        else:
            try:
                rules = parse_spec(preset + ("," + options if options else ""))
                if rules.name != preset:
                    raise RuleSetError("the option 'name' cannot be changed")
            except (RuleSetError, TypeError, ValueError) as e:
                err = f"bad rule options: {e}"
        try:
            max_hands = int(form.get("max_hands", 0) or 0)
            turn_time = float(form.get("turn_time", 30) or 30)
            reserve_time = float(form.get("reserve_time", 0) or 0)
        except ValueError:
            max_hands, turn_time, reserve_time, err = 0, 30.0, 0.0, err or "hands and turn time must be numbers"
        if not 0 <= reserve_time <= settings.max_turn_time:  # NaN fails both
            err = err or f"the reserve time must be 0-{settings.max_turn_time:g} seconds"
        if not 0 <= max_hands <= 64:
            err = err or "hands must be 0-64"
        if not settings.min_turn_time <= turn_time <= settings.max_turn_time:
            err = err or f"turn time must be {settings.min_turn_time:g}-{settings.max_turn_time:g} seconds"
        if err is None:
            err = quota_error(user)
        if err is not None or rules is None:
            return lobby_error(request, err or "bad rule options")
        # ``private=1``: a friends' table (好友房), not listed; joined by its number or link
        private = str(form.get("private", "")).strip().lower() in ("1", "on", "true", "yes")
        room = lobby.create(creator_id=user.id, creator=user.shown_name, rules=rules, options_text=options,
                            max_hands=max_hands or None, turn_time=turn_time, private=private,
                            reserve_time=reserve_time)
        if form.get("sit"):
            room.join(0, user.id, user.shown_name, user.avatar or "")
        return back(f"/tables/{room.id}")

    def _room_or_404(rid: str) -> Room | None:
        return lobby.get(rid)

    @app.get("/tables/{rid}", response_class=HTMLResponse)
    async def table_page(request: Request, rid: str):
        room = _room_or_404(rid)
        if room is None:
            return page(request, "lobby.html", 404, rooms=lobby.open_tables(), presets=registry.names(), games=[],
                        min_turn=int(settings.min_turn_time), error="no such table", option_names="")
        user = current_user(request)
        return page(request, "table.html", room=room, user=user, my_place=room.place_of(user.id if user else None),
                    bot_kinds=BOT_KINDS)

    async def _seat_change(request: Request, rid: str, op: str) -> Response:
        user = current_user(request)
        if user is None:
            return back("/login")
        room = _room_or_404(rid)
        if room is None:
            return PlainTextResponse("no such table", status_code=404)
        form = await request.form()
        try:
            if op == "join" and form.get("bot_account"):
                b = _my_bot(user, str(form.get("bot_account")))
                if b is None:
                    return PlainTextResponse("no such bot of yours", status_code=404)
                room.join(int(form.get("place", -1)), b.id, b.shown_name)
            elif op == "join":
                room.join(int(form.get("place", -1)), user.id, user.shown_name, user.avatar or "")
            elif op == "leave":
                room.leave(user.id)
            elif op == "remove":  # the creator removes whoever sits at a place, before the start
                room.remove(user.id, int(form.get("place", -1)))
            elif op == "move":  # the creator moves a person to another place (swapping)
                room.move(user.id, int(form.get("place", -1)), int(form.get("to", -1)))
            elif op == "bots":
                if user.id != room.creator_id:
                    return PlainTextResponse("only the table's creator can add bots", status_code=403)
                room.fill_bots(str(form.get("kind", "efficiency")))
        except (ValueError, MajiangError) as e:
            return page(request, "table.html", 400, room=room, user=user, my_place=room.place_of(user.id),
                        bot_kinds=BOT_KINDS, error=str(e))
        return back(f"/tables/{rid}")

    @app.post("/tables/{rid}/join")
    async def join(request: Request, rid: str):
        return await _seat_change(request, rid, "join")

    @app.post("/tables/{rid}/leave")
    async def leave(request: Request, rid: str):
        return await _seat_change(request, rid, "leave")

    @app.post("/tables/{rid}/remove")
    async def remove_person(request: Request, rid: str):
        """The creator (桌长) removes whoever sits at ``place`` before the start."""
        return await _seat_change(request, rid, "remove")

    @app.post("/tables/{rid}/move")
    async def move_person(request: Request, rid: str):
        """The creator moves the person at ``place`` to place ``to`` (swapping) before the start."""
        return await _seat_change(request, rid, "move")

    @app.post("/tables/{rid}/bots")
    async def bots(request: Request, rid: str):
        return await _seat_change(request, rid, "bots")

    # ------------------------------------------------------------------ play
    async def admit(ws: WebSocket) -> tuple[int | None, Conn] | None:
        """Who opens this socket, counted against the per-session (or per-token) and per-address
        limits; ``None`` when refused -- the socket is then accepted, told why
        (``{"type": "error"}``) and closed with 4429 and the reason."""
        user, cred = identify(ws)
        conn = Conn(user_id=user.id if user else None, cred=cred, address=client_address(ws))
        why = sockets.admit(conn)  # no await between the count and the admission
        if why is None:
            return conn.user_id, conn
        await ws.accept()
        await ws.send_json({"type": "error", "message": why})
        await ws.close(code=guard.CLOSE_TOO_MANY, reason=why)
        return None

    async def still_trusted(conn: Conn) -> bool:
        """Before a socket acts: is the session or token it was opened with still valid in the
        database (it may have been revoked by another process a moment ago)? If not, it is closed
        (4401) and the action refused -- a socket is never more trusted than its session."""
        if conn.closing is not None:
            return False
        if await credentials.live(conn.cred):
            return True
        if conn.closing is not None:
            return False
        assert conn.cred is not None
        guard.end_conn(conn, "token revoked" if conn.cred[0] == "token" else "session ended")
        return False

    @app.websocket("/ws/tables/{rid}")
    async def table_ws(ws: WebSocket, rid: str):
        if not _same_origin(ws.headers):
            await ws.close(code=1008)
            return
        room = lobby.get(rid)
        if room is None:
            # 4404: the table does not exist (any more); the page stops reconnecting and says so
            await ws.accept()
            await ws.send_json({"type": "gone", "message": "no such table"})
            await ws.close(code=4404)
            return
        admitted = await admit(ws)
        if admitted is None:
            return
        uid, conn = admitted
        conn.lang = i18n.request_lang(ws)
        await ws.accept()
        room.conns.append(conn)
        for m in room.chat_history(uid, conn.lang):  # the chat so far, before the first state
            conn.outbox.append(m)

        async def sender() -> None:
            try:
                while not await _drain(ws, conn):
                    await ws.send_json(room.state_for(uid))
            except Exception:  # the socket closed: the receive loop ends too
                return

        async def on_text(raw: str) -> None:
            if conn.closing is not None:
                return  # closing (its session ended, the table is gone): nothing more is done
            msg, problem = _parse_frame(raw)
            if problem is not None:
                conn.push({"type": "error", "message": problem})
                return
            typ = msg.get("type")
            if typ in ("action", "auto_win", "continue", "back", "chat", "mute", "free_text") \
                    and not await still_trusted(conn):
                return
            try:
                if typ == "state":
                    conn.push()
                elif typ == "action":
                    await room.act_async(uid, parse_action(msg.get("action")))
                elif typ == "auto_win":
                    room.set_auto_win(uid, msg.get("on") is True)
                elif typ == "continue":
                    room.press_continue(uid)
                elif typ == "back":
                    room.take_back(uid)
                elif typ == "chat":
                    say(conn, msg)
                elif typ == "mute":
                    room.mute(uid, msg.get("seat"), msg.get("on", True) is not False)
                elif typ == "free_text":
                    room.set_free_text(uid, msg.get("on") is True)
                else:
                    conn.push({"type": "error", "message": "unknown message type"})
            except (ValueError, PermissionError, MajiangError) as e:  # IllegalActionError included
                conn.push({"type": "error", "message": str(e)})

        def say(conn: Conn, msg: dict) -> None:
            """A chat line: ``{"type": "chat", "text": ...}`` or ``{"type": "chat", "phrase": id}``;
            the speaker's name is read now (a display name changed since is shown)."""
            if conn.cred is not None and conn.cred[0] == "token":
                raise ChatError("bots do not chat")
            who = None
            if uid is not None:
                with Session() as db:
                    who = db.get(User, uid)
            if who is None:
                raise ChatError("log in to chat")
            if "phrase" in msg:
                room.say(uid, who.shown_name, phrase=msg.get("phrase"))
            else:
                room.say(uid, who.shown_name, text=msg.get("text"))

        await _serve_socket(ws, room, conn, sender, on_text)

    @app.websocket("/ws/tables/{rid}/jsonl")
    async def table_jsonl(ws: WebSocket, rid: str):
        """Our JSON-lines bot protocol (docs/protocol.md) over a WebSocket, for a seated account
        (a bot account's ``Authorization: Bearer`` token, or a person's cookie): one text message per
        line -- the seat's events as it may see them, a ``request`` with ``possible_actions`` at each
        of its decisions, ``end_game`` at the end; the bot answers each request with one action
        object (or ``{"index": i}``). The hand-end pause is continued for it; the clock is the
        table's."""
        from majiang.protocols.jsonl import JsonlProtocolError, match_answer, request_json, seat_event

        if not _same_origin(ws.headers):
            await ws.close(code=1008)
            return
        room = lobby.get(rid)
        await ws.accept()
        if room is None:
            await ws.send_json({"type": "gone", "message": "no such table"})
            await ws.close(code=4404)
            return
        admitted = await admit(ws)
        if admitted is None:
            return
        uid, conn = admitted
        conn.protocol = "jsonl"  # the bot protocol: its messages are unchanged (no chat)
        if room.place_of(uid) is None:
            sockets.release(conn)
            await ws.send_json({"type": "error", "message": "you have no seat at this table"})
            await ws.close(code=1008)
            return
        room.conns.append(conn)
        pending: dict[str, Any] = {"offered": None, "legal": None, "key": None}

        async def sender() -> None:
            sent = 0
            try:
                while not await _drain(ws, conn):
                    m = room.match
                    if m is None:
                        continue
                    seat = room.seat_of(uid)
                    upto = len(m.events)
                    if room.pause is not None:  # the next hand is not told before the pause is over
                        upto = max((i for i, ev in enumerate(m.events) if ev.get("type") == "start_kyoku"),
                                   default=upto)
                        upto = max(upto, sent)
                    for ev in m.events[sent:upto]:
                        await ws.send_text(json.dumps(seat_event(ev, seat, m.rules), ensure_ascii=False))
                    sent = upto
                    if m.finished:
                        await ws.send_json({"type": "end_game", "scores": list(m.scores)})
                        await ws.close(code=1000)
                        return
                    if room.pause is not None and seat in room.pause["waiting"]:
                        with contextlib.suppress(ValueError, PermissionError, MajiangError):
                            room.press_continue(uid)
                        continue
                    legal = m.legal_actions(seat) if room.pause is None else []
                    key = (room.version, room.seq) if legal else None
                    if legal and pending["legal"] != legal:
                        req, offered = request_json(m, seat, legal)
                        pending.update(offered=offered, legal=legal, key=key)
                        await ws.send_text(json.dumps(req, ensure_ascii=False))
                    elif not legal:
                        pending.update(offered=None, legal=None, key=None)
            except Exception:
                return

        async def on_text(raw: str) -> None:
            if conn.closing is not None:
                return
            try:
                answer = guard.loads(raw)
                if _depth(answer) > 6:
                    raise JsonlProtocolError("message nested too deeply")
                if not await still_trusted(conn):
                    return
                if pending["offered"] is None:
                    raise JsonlProtocolError("no request is open for your seat")
                i = match_answer(answer, pending["offered"])
                await room.act_async(uid, pending["legal"][i])
                pending.update(offered=None, legal=None, key=None)
            except (ValueError, PermissionError, MajiangError, RecursionError) as e:
                conn.push({"type": "error", "message": str(e)})

        await _serve_socket(ws, room, conn, sender, on_text)

    async def _serve_socket(ws: WebSocket, room: Room, conn: Conn, sender: Any, on_text: Any) -> None:
        """Run a table socket: ``sender`` pushes, each text frame goes to ``on_text``; a binary or
        oversized frame gets an error and the connection stays."""
        send_task = asyncio.get_running_loop().create_task(sender())
        conn.push()
        try:
            while True:
                frame = await ws.receive()
                if frame.get("type") == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    conn.push({"type": "error", "message": "binary frames are not understood; send JSON text"})
                elif len(raw) > settings.max_frame or len(raw.encode("utf-8", "surrogatepass")) > settings.max_frame:
                    conn.push({"type": "error", "message": f"message too long (over {settings.max_frame} bytes)"})
                else:
                    try:
                        await on_text(raw)
                    except (ValueError, TypeError, KeyError, RecursionError) as e:  # never drop the socket
                        log.warning("table %s: a frame was refused: %r", room.id, e)
                        conn.push({"type": "error", "message": "the message could not be understood"})
        except WebSocketDisconnect:
            pass
        finally:
            send_task.cancel()
            sockets.release(conn)
            if conn in room.conns:
                room.conns.remove(conn)

    # ------------------------------------------------------------------ records
    def store_game(room: Room) -> None:
        """Store a finished game exactly once (the table row is marked in the same transaction)."""
        gid = store.finish(room.id, lambda db: _add_game(db, room))
        room.game_id = gid if gid is not None else store.game_id(room.id)
        room.notify()

    def _add_game(db: Any, room: Room) -> int:
        m = room.match
        assert m is not None and m.finished
        names = room.names_by_seat()
        scores = list(m.scores)
        places = competition_places(scores)
        g = Game(table_id=room.id, ruleset=room.rules.name, rules=room.rules.to_options(), seed=room.seed,
                 hands=len(m.results), record="\n".join(record_lines(m)) + "\n", chat=room.chat_record() or None)
        db.add(g)
        users: list[int | None] = []
        for s in range(4):
            pl = room.places[m.player_at_seat[s]]
            users.append(pl.user_id)
            g.seats.append(GameSeat(seat=s, user_id=pl.user_id, name=names[s], is_bot=pl.bot is not None,
                                    score=scores[s], place=places[s]))
        ratings: list[Rating | None] = []
        for uid in users:
            if uid is None:
                ratings.append(None)
                continue
            r = db.scalar(select(Rating).where(Rating.user_id == uid, Rating.ruleset == room.rules.name))
            if r is None:
                r = Rating(user_id=uid, ruleset=room.rules.name, points=0, games=0, mu=TS.mu, sigma=TS.sigma)
                db.add(r)
            ratings.append(r)
        if any(r is not None for r in ratings):
            groups = [(TS.create_rating() if r is None else TS.create_rating(r.mu, r.sigma),) for r in ratings]
            new = TS.rate(groups, ranks=[p - 1 for p in places])
            for s, r in enumerate(ratings):
                if r is not None:
                    r.mu, r.sigma = new[s][0].mu, new[s][0].sigma
                    r.points += scores[s]
                    r.games += 1
        db.flush()
        return g.id

    @app.get("/games/{gid}", response_class=HTMLResponse)
    async def game_page(request: Request, gid: str):
        # games.id is a 32-bit Integer: anything else names no game (PostgreSQL would raise, not miss)
        gid = guard.db_id(gid)
        if gid is None:
            return PlainTextResponse("no such game", status_code=404)
        with Session() as db:
            g = db.scalar(select(Game).options(selectinload(Game.seats)).where(Game.id == gid))
        if g is None:
            return PlainTextResponse("no such game", status_code=404)
        h, events = read_record(g.record.splitlines())
        chat = game_chat(g, i18n.request_lang(request))
        try:
            rules = RuleSet.from_options(g.rules)
        except Exception:  # noqa: BLE001 - an old record's options: the results without the settlement lines
            rules = None
        results = hand_results(events, rules)
        return page(request, "game.html", game=g,
                    record={"header": h, "events": events, "results": results, "chat": chat},
                    hands=replay_hands(events, results), chat=chat)

    def game_chat(g: Game, lang: str) -> list[dict]:
        """A stored game's chat lines for its replay: each ``{"seat", "name", "audience", "text",
        "at", "hand", "t"}`` (a quick phrase also ``"phrase"``, its text in ``lang``); ``at`` is the
        number of the record's events before the line (the replay step it belongs to)."""
        out = []
        for ln in g.chat or []:
            line = dict(ln)
            if "phrase" in line and "text" not in line:
                line["text"] = i18n.texts(lang).get("phrase." + str(line["phrase"]), str(line["phrase"]))
            out.append(line)
        return out

    @app.get("/games/{gid}/chat")
    async def game_chat_json(request: Request, gid: str):
        """The chat lines of a stored game (JSON list, shape of :func:`game_chat`)."""
        gid = guard.db_id(gid)
        if gid is None:
            return PlainTextResponse("no such game", status_code=404)
        with Session() as db:
            g = db.get(Game, gid)
        if g is None:
            return PlainTextResponse("no such game", status_code=404)
        return JSONResponse(game_chat(g, i18n.request_lang(request)))

    @app.get("/games/{gid}/record")
    async def game_record(gid: str):
        gid = guard.db_id(gid)
        if gid is None:
            return PlainTextResponse("no such game", status_code=404)
        with Session() as db:
            g = db.get(Game, gid)
        if g is None:
            return PlainTextResponse("no such game", status_code=404)
        return PlainTextResponse(g.record, media_type="application/x-ndjson",
                                 headers={"Content-Disposition": f'attachment; filename="majiang-{gid}.jsonl"'})

    def _player(name: str) -> User | None:
        with Session() as db:
            return db.scalar(select(User).where(User.username == name))

    @app.get("/players/{name}", response_class=HTMLResponse)
    async def player_page(request: Request, name: str):
        """战绩: per rule set the figures of :func:`majiang.web.stats.player_stats`, the rating and its
        history (an SVG chart), then the recent games with their results."""
        u = _player(name)
        if u is None:
            return PlainTextResponse("no such player", status_code=404)
        with Session() as db:
            seats = db.scalars(select(GameSeat).options(selectinload(GameSeat.game).selectinload(Game.seats))
                               .where(GameSeat.user_id == u.id)
                               .order_by(GameSeat.game_id.desc()).limit(200)).all()
            ratings = {r.ruleset: r for r in db.scalars(select(Rating).where(Rating.user_id == u.id)).all()}
        figures = stats.player_stats(Session, u.id)
        charts = {}
        for p in figures:
            hist = stats.rating_history(Session, u.id, p)
            charts[p] = (stats.chart_svg([h["rating"] for h in hist]), len(hist))
        return page(request, "player.html", name=u.shown_name, seats=seats, stats=figures, ratings=ratings,
                    charts=charts, units={p: {"multiplier": "mult", "points": "point"}.get(_unit(p), _unit(p)) for p in figures})

    @app.get("/api/players/{name}/stats")
    async def api_player_stats(name: str):
        """``{"name", "rule_sets": {preset: {...}}}`` (:func:`majiang.web.stats.player_stats`)."""
        u = _player(name)
        if u is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        return JSONResponse({"name": u.username, "rule_sets": stats.player_stats(Session, u.id)})

    @app.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard(request: Request, rules: str = "mcr"):
        if rules not in registry.names():
            rules = "mcr"
        with Session() as db:
            rows = db.execute(select(Rating, User).join(User, User.id == Rating.user_id)
                              .where(Rating.ruleset == rules)
                              .order_by((Rating.mu - 3 * Rating.sigma).desc()).limit(100)).all()
        return page(request, "board.html", rows=rows, rules=rules, presets=registry.names())

    @app.get("/api/leaderboard")
    async def api_leaderboard(rules: str = "mcr"):
        with Session() as db:
            rows = db.execute(select(Rating, User).join(User, User.id == Rating.user_id)
                              .where(Rating.ruleset == rules)
                              .order_by((Rating.mu - 3 * Rating.sigma).desc()).limit(100)).all()
        return JSONResponse([{"player": u.username, "name": u.shown_name, "rating": r.mu - 3 * r.sigma, "mu": r.mu, "sigma": r.sigma,
                              "games": r.games, "points": r.points} for r, u in rows])

    app.state.store_game = store_game
    app.state.store = store
    lobby.on_finish = store_game

    @app.exception_handler(RequestValidationError)
    async def _not_found(request: Request, exc: RequestValidationError):
        # a path id that is not valid names nothing: 404, not a 422 or a 500
        return PlainTextResponse("not found", status_code=404)

    return app


def _unit(preset: str) -> str:
    """The unit a rule set's wins are counted in (``fan``, ``tai``, ``multiplier``, ``points``)."""
    try:
        from majiang.rules import registry

        return str(registry.describe(preset).get("unit") or "points")
    except Exception:  # noqa: BLE001 - a rule set the registry does not describe
        return "points"


def app_from_env() -> FastAPI:
    """The app for ``majiang serve --workers N``: each worker process builds it from the settings
    the parent put in ``MAJIANG_SETTINGS`` (JSON)."""
    raw = os.environ.get("MAJIANG_SETTINGS", "{}")
    return create_app(Settings(**json.loads(raw)))


def _depth(v: Any, limit: int = 8) -> int:
    """Nesting depth of a parsed JSON value, stopping past ``limit``."""
    if limit < 0:
        return 1
    if isinstance(v, dict):
        return 1 + max((_depth(x, limit - 1) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x, limit - 1) for x in v), default=0)
    return 0


async def _drain(ws: WebSocket, conn: Conn) -> bool:
    """Wait until ``conn`` is pushed, send its queued messages, and close the socket if it is to
    close (``conn.closing``: 1012 restart, 4404 gone, 4401 session ended, with
    ``conn.close_reason``); True when it closed. The senders of both
    table sockets start each round with it."""
    await conn.event.wait()
    conn.event.clear()
    while conn.outbox:
        await ws.send_json(conn.outbox.pop(0))
    if conn.closing is not None:
        await ws.close(code=conn.closing, reason=conn.close_reason or None)
        return True
    return False


def _parse_frame(raw: str) -> tuple[dict, str | None]:
    """A client message as an object, or the reason it is refused (not JSON, not strict JSON --
    ``NaN``, ``Infinity``, numbers out of range, integers of too many digits (:func:`guard.loads`)
    -- too deep, not an object with a string ``type``)."""
    if raw.count("[") + raw.count("{") > 200:
        return {}, "message nested too deeply"
    try:
        msg = guard.loads(raw)
    except json.JSONDecodeError:
        return {}, "not JSON"
    except RecursionError:
        return {}, "message nested too deeply"
    except ValueError as e:  # NaN, Infinity, 1e999, an integer of thousands of digits
        return {}, f"not acceptable JSON: {e}"
    if _depth(msg) > 6:
        return {}, "message nested too deeply"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return {}, "a message is a JSON object with a string 'type'"
    return msg, None


def _same_origin(headers: Any) -> bool:
    origin = headers.get("origin")
    if not origin:
        return True  # not a browser cross-site request (browsers send Origin on POST and WebSocket)
    host = headers.get("host", "")
    try:
        return urlsplit(origin).netloc == host
    except ValueError:
        return False

