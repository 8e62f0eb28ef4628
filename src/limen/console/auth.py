"""Who may use the console: one-time login tokens, session cookies, CSRF tokens, the remote password.

`limen console` prints a URL with a one-time token (valid `TOKEN_SECONDS`, used once); opening it trades
the token for a session cookie (HttpOnly, SameSite=Strict, Secure under TLS) and the URL no longer works.
Every state-changing request is a POST carrying the session's CSRF token (a hidden field in every form,
compared in constant time). Listening beyond loopback also needs TLS and a password, which is then asked on
every login (the token alone is not enough); repeated wrong passwords lock logins for a while. Secrets are
kept only as SHA-256 digests (tokens, session ids) or scrypt (the password), in this process's memory.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

TOKEN_SECONDS = 600.0
SESSION_SECONDS = 8 * 3600.0
MAX_FAILURES = 5
LOCKOUT_SECONDS = 300.0
COOKIE = "limen_console"
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class Session:
    csrf: str
    expires: float
    flash: list[tuple[str, str]] = field(default_factory=list)  # (kind, text) shown once on the next page


class Password:
    """The remote password, kept as scrypt with a fresh salt."""

    def __init__(self, password: str) -> None:
        if len(password) < 8:
            raise ValueError("the console password needs at least 8 characters")
        self._salt = secrets.token_bytes(16)
        self._hash = hashlib.scrypt(password.encode(), salt=self._salt, **_SCRYPT)

    def verify(self, password: str) -> bool:
        digest = hashlib.scrypt(password.encode(), salt=self._salt, **_SCRYPT)
        return hmac.compare_digest(digest, self._hash)


class Gate:
    """Login tokens and sessions of one console process. Thread-safe."""

    def __init__(self, password: Password | None = None) -> None:
        self.password = password
        self._tokens: dict[str, float] = {}  # sha256(token) -> expiry
        self._sessions: dict[str, Session] = {}  # sha256(session id) -> session
        self._failures: list[float] = []
        self._lock = threading.Lock()

    def issue_token(self) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens[_digest(token)] = time.time() + TOKEN_SECONDS
        return token

    def token_valid(self, token: str) -> bool:
        with self._lock:
            expiry = self._tokens.get(_digest(token))
        return expiry is not None and expiry > time.time()

    def locked_out(self) -> bool:
        now = time.time()
        with self._lock:
            self._failures = [at for at in self._failures if at > now - LOCKOUT_SECONDS]
            return len(self._failures) >= MAX_FAILURES

    def login(self, token: str, password: str | None = None) -> str | None:
        """Spend `token` (and check the password when one is set) for a new session id; None when refused.
        A wrong password does not spend the token, but counts towards the lockout."""
        if self.locked_out():
            return None
        if self.password is not None and not self.password.verify(password or ""):
            with self._lock:
                self._failures.append(time.time())
            return None
        with self._lock:
            expiry = self._tokens.pop(_digest(token), None)
            if expiry is None or expiry <= time.time():
                return None
            session_id = secrets.token_urlsafe(32)
            self._sessions[_digest(session_id)] = Session(
                csrf=secrets.token_urlsafe(24), expires=time.time() + SESSION_SECONDS
            )
        return session_id

    def session(self, session_id: str) -> Session | None:
        if not session_id:
            return None
        key = _digest(session_id)
        with self._lock:
            session = self._sessions.get(key)
            if session is not None and session.expires <= time.time():
                del self._sessions[key]
                return None
        return session

    def logout(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(_digest(session_id), None)


def csrf_ok(session: Session, presented: str) -> bool:
    return bool(presented) and hmac.compare_digest(session.csrf.encode(), presented.encode())
