"""What the server refuses to trust or to hold without bound (issue 25, parts 2, 4 and 5).

* :func:`forwarded_client` and :class:`ProxyHeaders`: the client address behind a reverse proxy.
  ``X-Forwarded-For`` is read only when the connection comes from a trusted proxy
  (``--forwarded-allow-ips``, uvicorn's convention: comma-separated addresses or networks, ``*``
  for all), and the client is the right-most address of the header that is *not* a trusted proxy:
  every proxy appends the address it heard from, so everything left of the first untrusted entry
  was written by the client and proves nothing. The middleware rewrites the ASGI scope's
  ``client`` once, so the log-in and sign-up throttles, the WebSocket per-address limit and the
  session list all see the same address (uvicorn's own proxy handling is switched off, see
  :mod:`majiang.web.cli`, so the header is never applied twice).
* :func:`loads`: JSON from a client, refusing what ``json.loads`` would let through and the server
  cannot use: ``NaN``/``Infinity``/``-Infinity``, numbers that overflow to infinity, integers of more
  than :data:`MAX_DIGITS` digits (Python refuses to convert past 4,300 digits with a bare
  ``ValueError``; far shorter ones name nothing here). Every refusal is a ``ValueError`` with a
  message for the client.
* :class:`SocketGuard`: the open table WebSockets of this process, counted per session (or bot
  token) and per client address, so one cookie or one address cannot hold unbounded sockets; and
  the place where a session or token that ended closes its sockets (close code 4401).
* :func:`db_id`: a path or message id checked against the 32-bit ``Integer`` columns of
  :mod:`majiang.web.db` before it reaches the database (PostgreSQL refuses a larger parameter with
  an error, not with "no row").
"""

from __future__ import annotations

import ipaddress
import json
import math
from collections import Counter
from typing import Any

#: the largest id an ``Integer`` column holds on every database (PostgreSQL's ``integer`` is 32-bit)
MAX_DB_ID = 2**31 - 1
#: digits of the longest integer a client message may carry (no field of ours needs more)
MAX_DIGITS = 30

#: close code of a socket whose session or API token ended (logged out, revoked, bot deleted)
CLOSE_ENDED = 4401
#: close code of a socket refused because its session or address holds too many already
CLOSE_TOO_MANY = 4429


def db_id(text: str) -> int | None:
    """``text`` as a row id of an ``Integer`` column, or ``None`` when it cannot name a row: not
    plain decimal digits, 0, or past :data:`MAX_DB_ID` (so a huge or negative id is a 404 on every
    database, never an error from the driver)."""
    if not isinstance(text, str) or not text.isdigit() or not text.isascii() or len(text) > 10:
        return None
    n = int(text)
    return n if 0 < n <= MAX_DB_ID else None


# ---------------------------------------------------------------------- client JSON
def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number this server accepts")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 64:
        raise ValueError("a number too long")
    f = float(text)
    if not math.isfinite(f):
        raise ValueError(f"{text[:20]} is out of range")
    return f


def loads(raw: str) -> Any:
    """Parse a client's JSON text strictly (see the module doc); ``ValueError`` (``JSONDecodeError``
    included) or ``RecursionError`` when refused."""
    return json.loads(raw, parse_constant=_no_constant, parse_int=_int, parse_float=_float)


# ---------------------------------------------------------------------- proxies
class TrustedProxies:
    """The ``--forwarded-allow-ips`` list: addresses, networks (``10.0.0.0/8``), other literal
    names (a unix socket, the test client's ``testclient``), or ``*`` for every peer."""

    def __init__(self, spec: str | list[str]) -> None:
        items = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
        self.all = "*" in items
        self.literals: set[str] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.literals.add(item)

    def __contains__(self, host: str | None) -> bool:
        if self.all:
            return True
        if not host:
            return False
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return host in self.literals
        return any(ip in n for n in self.networks)


def _host(entry: str) -> str:
    """The address of one ``X-Forwarded-For`` entry, its port (``1.2.3.4:5``, ``[::1]:5``) dropped."""
    entry = entry.strip()
    if entry.startswith("["):
        end = entry.find("]")
        return entry[1:end] if end > 0 else entry
    if entry.count(":") == 1:
        return entry.split(":", 1)[0]
    return entry


def forwarded_client(peer: str | None, forwarded_for: list[str], trusted: TrustedProxies) -> str | None:
    """The client's address: ``peer`` itself unless ``peer`` is a trusted proxy that sent
    ``X-Forwarded-For``; then the right-most entry that is not a trusted proxy (all trusted: the
    left-most, as uvicorn does). Entries are cut to 64 characters."""
    if peer not in trusted or not forwarded_for:
        return peer
    hosts = [_host(e) for v in forwarded_for for e in v.split(",")]
    hosts = [h for h in hosts if h]
    if not hosts:
        return peer
    for h in reversed(hosts):
        if h not in trusted:
            return h[:64]
    return hosts[0][:64]


class ProxyHeaders:
    """ASGI middleware: behind a trusted proxy, ``scope["client"]`` becomes the address
    :func:`forwarded_client` finds (HTTP and WebSocket alike) and ``X-Forwarded-Proto`` the scheme."""

    def __init__(self, app: Any, trusted: str | list[str] = "127.0.0.1") -> None:
        self.app = app
        self.trusted = TrustedProxies(trusted)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = client[0] if client else None
            if peer in self.trusted:
                fwd = [v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for"]
                host = forwarded_client(peer, fwd, self.trusted)
                if host and host != peer:
                    scope["client"] = (host, 0)
                for k, v in scope.get("headers", []):
                    if k == b"x-forwarded-proto":
                        proto = v.decode("latin-1").strip()
                        if proto in ("http", "https"):
                            scope["scheme"] = proto.replace("http", "ws") if scope["type"] == "websocket" else proto
        await self.app(scope, receive, send)


# ---------------------------------------------------------------------- sockets
class SocketGuard:
    """The table sockets open in this process, with the credential each was opened with
    (``("session", digest)``, ``("token", digest)`` or ``None`` for an anonymous spectator) and its
    client address.

    :meth:`admit` refuses a socket past ``per_session`` for one session or token, or past
    ``per_address`` for one address (anonymous spectators included). :meth:`end` closes every
    socket of a credential (a log-out here); :meth:`sweep` asks the database which credentials of
    the open sockets still live and closes the others -- a session revoked or a token revoked by
    another process is noticed at the next sweep (the app runs one every ``session_check``
    seconds). The limits are per process: with ``--workers N`` one session holds at most
    ``N * per_session`` sockets.
    """

    def __init__(self, *, per_session: int, per_address: int) -> None:
        self.per_session = per_session
        self.per_address = per_address
        self._conns: dict[int, Any] = {}  # id(conn) -> conn (a Conn compares by value, not identity)
        self._by_cred: Counter = Counter()
        self._by_addr: Counter = Counter()

    def admit(self, conn: Any) -> str | None:
        """Count ``conn`` in (it has ``cred`` and ``address``) or say why it is refused."""
        if conn.cred is not None and self._by_cred[conn.cred] >= self.per_session:
            what = "bot token" if conn.cred[0] == "token" else "session"
            return f"too many connections for this {what} (at most {self.per_session}); close another tab"
        if self._by_addr[conn.address] >= self.per_address:
            return f"too many connections from your address (at most {self.per_address})"
        self._conns[id(conn)] = conn
        if conn.cred is not None:
            self._by_cred[conn.cred] += 1
        self._by_addr[conn.address] += 1
        return None

    def release(self, conn: Any) -> None:
        if self._conns.pop(id(conn), None) is None:
            return
        if conn.cred is not None:
            self._by_cred[conn.cred] -= 1
            if self._by_cred[conn.cred] <= 0:
                del self._by_cred[conn.cred]
        self._by_addr[conn.address] -= 1
        if self._by_addr[conn.address] <= 0:
            del self._by_addr[conn.address]

    @property
    def conns(self) -> list[Any]:
        """The open sockets counted in."""
        return list(self._conns.values())

    def count(self, *, cred: tuple[str, str] | None = None, address: str | None = None) -> int:
        return self._by_cred[cred] if cred is not None else self._by_addr[address]

    def end(self, match: Any, reason: str = "session ended") -> int:
        """Close (4401, ``reason``) every open socket whose ``conn`` satisfies ``match(conn)``;
        returns how many. The socket stops acting at once (``conn.closing`` is checked before
        every message it sends) and is closed by its sender."""
        n = 0
        for c in self.conns:
            if c.closing is None and match(c):
                end_conn(c, reason)
                n += 1
        return n

    def sweep(self, live: Any) -> int:
        """Close the sockets whose credential ended; ``live(sessions, tokens)`` returns the subsets
        of those digests still valid in the database."""
        sessions = {c.cred[1] for c in self.conns if c.cred is not None and c.cred[0] == "session" and c.closing is None}
        tokens = {c.cred[1] for c in self.conns if c.cred is not None and c.cred[0] == "token" and c.closing is None}
        if not sessions and not tokens:
            return 0
        ok_sessions, ok_tokens = live(sessions, tokens)
        dead_s = {("session", d) for d in sessions - ok_sessions}
        dead_t = {("token", d) for d in tokens - ok_tokens}
        n = self.end(lambda c: c.cred in dead_s, "session ended") if dead_s else 0
        return n + (self.end(lambda c: c.cred in dead_t, "token revoked") if dead_t else 0)


def end_conn(conn: Any, reason: str = "session ended") -> None:
    """Tell one socket its credential ended and have its sender close it (4401, ``reason``)."""
    conn.closing = CLOSE_ENDED
    conn.close_reason = reason
    conn.push({"type": "error", "message": f"{reason}: log in again"})
