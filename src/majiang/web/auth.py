"""Accounts: password hashing (Argon2id, argon2-cffi), name and password rules, a log-in rate limit."""

from __future__ import annotations

import re
import threading
import time
from collections import defaultdict, deque

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
