"""Which agent identity a session belongs to: the first identity to use a session id owns it, for good.

A token for agent A therefore cannot decide, observe or read approvals in agent B's session, whichever
replica it reaches: the claim is atomic where the sessions live (Redis `SET NX` for the Redis store; a
SQLite table beside the state file otherwise, shared by the replicas of one host).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Protocol

from limen.home import limen_home


class SessionOwners(Protocol):
    def claim_session(self, session_id: str, identity: str) -> str:
        """Bind the session to `identity` unless already bound; the identity it is bound to."""
        ...


class SqliteOwners:
    """Owners in `LIMEN_HOME/serve-owners.sqlite` (WAL; one short transaction per claim)."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path or os.path.join(limen_home(), "serve-owners.sqlite")
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS owners "
            "(session TEXT PRIMARY KEY, identity TEXT NOT NULL) WITHOUT ROWID"
        )
        os.chmod(self.path, 0o600)
        self._lock = threading.Lock()

    def claim_session(self, session_id: str, identity: str) -> str:
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO owners VALUES (?, ?)", (session_id, identity))
            (owner,) = self._db.execute(
                "SELECT identity FROM owners WHERE session = ?", (session_id,)
            ).fetchone()
        return str(owner)

    def close(self) -> None:
        with self._lock:
            self._db.close()
