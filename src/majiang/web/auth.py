"""Accounts: password hashing (Argon2id, argon2-cffi), name and password rules, a log-in rate limit."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections import defaultdict, deque
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()

USERNAME_RE = re.compile(r"^[A-Za-z0-9_\-]{3,32}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 256


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def check_username(name: str) -> str | None:
    """An error message, or ``None`` when the name is acceptable."""
    if not USERNAME_RE.match(name or ""):
        return "a user name is 3-32 letters, digits, '_' or '-'"
    if name.lower().endswith("-bot") or "-bot-" in name.lower():
        return "that name is reserved for bots"
    return None


#: the built-in avatars (drawn by ``static_avatars.js``, our own SVG); "" is none
AVATARS = ("bamboo", "plum", "fish", "cat", "moon", "mountain")

#: scripts whose letters look alike: a name mixing two of them is refused (``Аlice`` with a Cyrillic А)
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")
#: letters that draw nothing (Hangul fillers, the Braille blank): refused like invisible format characters
_INVISIBLE = {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E, 0x034F}
_PUNCT = {"_", "-", "·"}
_BOT_LIKE = re.compile(r"^(电脑|bot)\d*$|-bot$|-bot-", re.I)
MIN_DISPLAY, MAX_DISPLAY = 2, 12


class DisplayNameError(ValueError):
    """A display name refused; the message names the rule it breaks (translated by the pages)."""


def display_key(name: str) -> str:
    """The key two display names collide on: NFKC, then casefold (``Ｌｉｓａ``, ``LISA`` and ``lisa`` share one)."""
    import unicodedata

    return unicodedata.normalize("NFKC", name).casefold()


def _script(ch: str) -> str:
    import unicodedata

    return unicodedata.name(ch, "?").split(" ", 1)[0]


def check_display_name(raw: str) -> str:
    """The display name a person asked for, NFKC-normalised (full-width ``Ｌｉｓａ`` becomes ``Lisa``).

    A display name is 2-12 characters (after normalising): letters of any script and digits, with
    ``_``, ``-`` or ``·`` between them; no spaces, no control or invisible characters (zero-width
    joiners, format characters, blank letters), no mixing of look-alike scripts (Latin, Cyrillic,
    Greek), and not a bot's name (``电脑2``, ``bot``). Raises :class:`DisplayNameError` naming the rule
    broken. Uniqueness (ignoring case and width: :func:`display_key`) is the caller's check."""
    import unicodedata

    name = unicodedata.normalize("NFKC", raw or "").strip()
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Co", "Cs", "Cn") or ord(ch) in _INVISIBLE or cat in ("Zl", "Zp"):
            raise DisplayNameError("a display name cannot hold invisible or control characters")
    if any(unicodedata.category(ch) == "Zs" for ch in name):
        raise DisplayNameError("a display name cannot hold spaces")
    if not MIN_DISPLAY <= len(name) <= MAX_DISPLAY:
        raise DisplayNameError(f"a display name is {MIN_DISPLAY}-{MAX_DISPLAY} characters")
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if cat[0] in "LN" or ch in _PUNCT:
            continue
        if cat[0] == "M" and i > 0 and unicodedata.category(name[i - 1])[0] in "LM":
            continue  # a combining mark on a letter (many scripts need them)
        raise DisplayNameError("a display name is letters and digits, with '_', '-' or '·' between them")
    if not any(unicodedata.category(ch)[0] == "L" for ch in name):
        raise DisplayNameError("a display name holds at least one letter")
    scripts = {_script(ch) for ch in name if unicodedata.category(ch)[0] == "L"}
    if len(scripts & set(_CONFUSABLE_SCRIPTS)) > 1:
        raise DisplayNameError("a display name cannot mix look-alike letters of different scripts "
                               "(Latin, Cyrillic, Greek)")
    if _BOT_LIKE.match(name):
        raise DisplayNameError("that name is reserved for bots")
    return name


def check_password(password: str) -> str | None:
    if not MIN_PASSWORD <= len(password or "") <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD}-{MAX_PASSWORD} characters"
    return None


# a hash to verify against when the user does not exist, so timing does not tell names apart
DUMMY_HASH = _hasher.hash("not-a-real-password")


class RateLimiter:
    """At most ``limit`` events per key in a sliding window of ``window`` seconds (in process)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def hit(self, key: str) -> bool:
        """Count one event; False if the key is over its limit (the event is then not counted)."""
        now = time.monotonic()
        with self._lock:
            q = self._hits[key]
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return False
            q.append(now)
            return True

    def reset(self, key: str) -> None:
        with self._lock:
            self._hits.pop(key, None)


# ---------------------------------------------------------------------- server-side sessions
def _digest(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


def new_session(Session, user_id: int, address: str, agent: str) -> str:
    """Open a session for ``user_id``; returns the token the (signed) cookie keeps. Only its
    SHA-256 is stored, so a copy of the database holds no usable cookie."""
    import secrets

    from majiang.web.db import UserSession

    token = secrets.token_urlsafe(32)
    with Session() as db:
        db.add(UserSession(id=_digest(token), user_id=user_id, address=address[:64], agent=agent[:200]))
        db.commit()
    return token


def session_user(Session, token: str):
    """The :class:`~majiang.web.db.User` of a live session, else ``None`` (revoked or unknown)."""
    import datetime as dt

    from majiang.web.db import User, UserSession, utcnow

    with Session() as db:
        s = db.get(UserSession, _digest(token))
        if s is None or s.revoked:
            return None
        now = utcnow()
        if now - s.last_seen > dt.timedelta(minutes=5):
            s.last_seen = now
            db.commit()
        return db.get(User, s.user_id)


def revoke_session(Session, token: str) -> None:
    from majiang.web.db import UserSession

    with Session() as db:
        s = db.get(UserSession, _digest(token))
        if s is not None:
            s.revoked = True
            db.commit()


def revoke_session_id(Session, user_id: int, sid: str) -> bool:
    """Revoke one of ``user_id``'s sessions by its listed id (the stored digest); False if none."""
    from majiang.web.db import UserSession

    with Session() as db:
        s = db.get(UserSession, sid[:64])
        if s is None or s.user_id != user_id:
            return False
        s.revoked = True
        db.commit()
        return True


def list_sessions(Session, user_id: int, current: str | None = None) -> list[dict]:
    """A user's live sessions, newest first: ``id`` (for revoking), times, address, browser, and
    whether it is the one asking."""
    from sqlalchemy import select

    from majiang.web.db import UserSession

    cur = _digest(current) if current else None
    with Session() as db:
        rows = db.scalars(select(UserSession).where(UserSession.user_id == user_id, UserSession.revoked.is_(False))
                          .order_by(UserSession.created_at.desc())).all()
        return [{"id": s.id, "created_at": s.created_at.isoformat(), "last_seen": s.last_seen.isoformat(),
                 "address": s.address, "agent": s.agent, "current": s.id == cur} for s in rows]


class LoginThrottle:
    """Failed log-ins, kept in the database (shared by every server process).

    * per account: after 3 failures each further attempt waits ``0.25 * 2**(n-3)`` seconds (at most
      8) before the password is checked: a guesser is slowed, the owner is never locked out;
    * per client address: more than ``ip_limit`` failures within ``window`` seconds are refused
      (HTTP 429) until the window passes -- that blocks the guessing address, not the account;
    * sign-ups: at most ``ip_limit`` per address and window.
    A success clears the account's count; counts older than 15 minutes start again.
    """

    RESET = 15 * 60.0

    def __init__(self, Session, *, ip_limit: int = 30, window: float = 60.0) -> None:
        self.Session = Session
        self.ip_limit = ip_limit
        self.window = window

    def _get(self, key: str) -> tuple[int, float]:
        from majiang.web.db import LoginFailure

        with self.Session() as db:
            r = db.get(LoginFailure, key[:100])
            if r is None:
                return 0, 0.0
            return r.failures, r.last

    def _bump(self, key: str, reset_after: float) -> None:
        from sqlalchemy.exc import IntegrityError

        from majiang.web.db import LoginFailure

        now = time.time()
        for _ in range(3):
            with self.Session() as db:
                r = db.get(LoginFailure, key[:100])
                if r is None:
                    db.add(LoginFailure(key=key[:100], failures=1, last=now))
                else:
                    r.failures = 1 if now - r.last > reset_after else r.failures + 1
                    r.last = now
                try:
                    db.commit()
                    return
                except IntegrityError:
                    db.rollback()

    def delay(self, account: str) -> float:
        n, last = self._get(f"user:{account}")
        if n < 3 or time.time() - last > self.RESET:
            return 0.0
        return min(8.0, 0.25 * 2 ** (n - 3))

    def address_allowed(self, address: str) -> bool:
        n, last = self._get(f"ip:{address}")
        return n < self.ip_limit or time.time() - last > self.window

    def failed(self, account: str, address: str) -> None:
        self._bump(f"user:{account}", self.RESET)
        self._bump(f"ip:{address}", self.window)

    def succeeded(self, account: str) -> None:
        from sqlalchemy import delete

        from majiang.web.db import LoginFailure

        with self.Session() as db:
            db.execute(delete(LoginFailure).where(LoginFailure.key == f"user:{account}"[:100]))
            db.commit()

    def allow_signup(self, address: str) -> bool:
        n, last = self._get(f"signup:{address}")
        if n >= self.ip_limit and time.time() - last <= self.window:
            return False
        self._bump(f"signup:{address}", self.window)
        return True


# ---------------------------------------------------------------------- bot accounts and API tokens
#: ``password_hash`` of a bot account (tokens only, no password can match it)
BOT_HASH = "!bot-account: tokens only"
#: ``password_hash`` of a deleted bot account: its row stays (its games and ratings name it, and
#: the tables it opened keep counting toward its owner while they are unfinished), it holds no
#: live token, is not listed, cannot be seated and does not count toward ``bots_per_user``
DELETED_BOT_HASH = "!bot-account: deleted"


def bot_count(Session, owner_id: int) -> int:
    """How many bot accounts (not deleted) ``owner_id`` holds."""
    from sqlalchemy import func, select

    from majiang.web.db import User

    with Session() as db:
        return int(db.scalar(select(func.count()).select_from(User).where(
            User.owner_id == owner_id, User.password_hash != DELETED_BOT_HASH)) or 0)


def new_bot_account(Session, owner_id: int, name: str, *, limit: int | None = None) -> tuple[int, str]:
    """Create a bot account owned by ``owner_id`` and its first API token; returns (id, token).
    The token is shown to the owner once: only its SHA-256 is kept. Raises ``ValueError`` for a bad
    or taken name, or when the owner already holds ``limit`` bot accounts (each bot account could
    otherwise open tables and hold sockets of its own)."""
    from sqlalchemy import func, select

    from majiang.web.db import User

    err = check_username(name)
    if err:
        raise ValueError(err)
    if limit is not None and bot_count(Session, owner_id) >= limit:
        raise ValueError(f"you already have {limit} bot accounts (the most one person may hold); delete one first")
    with Session() as db:
        if db.scalar(select(User).where((func.lower(User.username) == name.lower())
                                        | (User.display_key == display_key(name)))) is not None:
            raise ValueError("that name is taken")
        u = User(username=name, password_hash=BOT_HASH, owner_id=owner_id, display_name=name,
                 display_key=display_key(name))
        db.add(u)
        db.commit()
        uid = u.id
    return uid, new_token(Session, uid)


def new_token(Session, bot_id: int) -> str:
    import secrets

    from majiang.web.db import ApiToken

    token = "mj_" + secrets.token_urlsafe(32)
    with Session() as db:
        db.add(ApiToken(id=_digest(token), user_id=bot_id))
        db.commit()
    return token


def token_user(Session, token: str):
    """The bot account of a live API token, else ``None``."""
    from majiang.web.db import ApiToken, User

    with Session() as db:
        t = db.get(ApiToken, _digest(token))
        if t is None or t.revoked:
            return None
        return db.get(User, t.user_id)


def revoke_tokens(Session, bot_id: int) -> int:
    from sqlalchemy import update

    from majiang.web.db import ApiToken

    with Session() as db:
        n = db.execute(update(ApiToken).where(ApiToken.user_id == bot_id, ApiToken.revoked.is_(False))
                       .values(revoked=True)).rowcount
        db.commit()
        return n


def delete_bot_account(Session, bot_id: int) -> int:
    """Delete a bot account: every token of it is revoked and the account marked deleted
    (:data:`DELETED_BOT_HASH`) in one transaction; returns the number of tokens revoked. The row
    stays for the games and ratings that name it."""
    from sqlalchemy import update

    from majiang.web.db import ApiToken, User

    with Session() as db:
        n = db.execute(update(ApiToken).where(ApiToken.user_id == bot_id, ApiToken.revoked.is_(False))
                       .values(revoked=True)).rowcount
        db.execute(update(User).where(User.id == bot_id, User.owner_id.is_not(None))
                   .values(password_hash=DELETED_BOT_HASH))
        db.commit()
        return n


# ---------------------------------------------------------------------- credentials of open sockets
digest = _digest


def live_credentials(Session, sessions: set[str], tokens: set[str]) -> tuple[set[str], set[str]]:
    """Of the session and API-token digests given, those still valid in the database (not revoked,
    not deleted): a few queries however many sockets are open (500 digests per query)."""
    from sqlalchemy import select

    from majiang.web.db import ApiToken, UserSession

    ok_s: set[str] = set()
    ok_t: set[str] = set()
    with Session() as db:
        s_list, t_list = sorted(sessions), sorted(tokens)
        for i in range(0, len(s_list), 500):
            ok_s.update(db.scalars(select(UserSession.id).where(UserSession.id.in_(s_list[i:i + 500]),
                                                                UserSession.revoked.is_(False))).all())
        for i in range(0, len(t_list), 500):
            ok_t.update(db.scalars(select(ApiToken.id).where(ApiToken.id.in_(t_list[i:i + 500]),
                                                             ApiToken.revoked.is_(False))).all())
    return ok_s, ok_t


def credential_live(Session, cred: tuple[str, str] | None) -> bool:
    """Whether the session or token a socket was opened with is still valid (one primary-key read);
    an anonymous socket (``None``) has nothing to lose."""
    if cred is None:
        return True
    from sqlalchemy import select

    from majiang.web.db import ApiToken, UserSession

    kind, d = cred
    model = UserSession if kind == "session" else ApiToken
    # a Core read on a pooled connection (it runs before every action a socket sends: an ORM
    # session per read cost a tenth of the event loop's time at 200 tables)
    with Session.kw["bind"].connect() as c:
        return c.execute(select(model.id).where(model.id == d, model.revoked.is_(False))).first() is not None


class CredentialCheck:
    """Whether a socket's session or token is still valid, asked before every action it sends
    (another process may have revoked it a moment ago: a socket is never more trusted than its
    session). On PostgreSQL the checks of the sockets that act at the same moment share one query,
    on an asyncio connection of their own, so the event loop never waits on the round trip (a
    blocking read per action was what kept PostgreSQL's p99 above SQLite's at 200 tables,
    docs/server.md); on SQLite it is one read in the process (:func:`credential_live`)."""

    QUERY = ("SELECT 'session', id FROM user_sessions WHERE id = ANY(%(s)s) AND NOT revoked "
             "UNION ALL SELECT 'token', id FROM api_tokens WHERE id = ANY(%(t)s) AND NOT revoked")

    def __init__(self, Session, url: str) -> None:  # noqa: ANN001 - a sessionmaker
        self.Session = Session
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1) if url.startswith("postgresql") else None
        self._queue: list[tuple[tuple[str, str], Any]] = []
        self._task: Any = None
        self._conn: Any = None

    async def live(self, cred: tuple[str, str] | None) -> bool:
        """True if ``cred`` (``("session"|"token", digest)``, or ``None`` for an anonymous socket)
        is still valid."""
        if cred is None:
            return True
        if self.url is None:
            return credential_live(self.Session, cred)
        import asyncio

        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.append((cred, fut))
        if self._task is None:
            self._task = loop.create_task(self._run(), name="credential-check")
        return await fut

    async def _run(self) -> None:
        import psycopg

        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    if self._conn is None:
                        self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                    cur = await self._conn.execute(self.QUERY, {
                        "s": [d for (k, d), _ in batch if k == "session"],
                        "t": [d for (k, d), _ in batch if k == "token"]})
                    ok = {(k, d) for k, d in await cur.fetchall()}
                    for (k, d), f in batch:
                        if not f.done():
                            f.set_result((k, d) in ok)
                except Exception:  # the connection failed: a new one next time; these read the plain way
                    await self._drop()
                    for cred, f in batch:
                        if not f.done():
                            try:
                                f.set_result(credential_live(self.Session, cred))
                            except Exception as e:  # pragma: no cover - the database is gone
                                f.set_exception(e)
        finally:
            self._task = None

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def aclose(self) -> None:
        """Close its connection (at shutdown)."""
        await self._drop()
