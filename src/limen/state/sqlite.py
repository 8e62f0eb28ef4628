"""SQLite session store: the default, because hooks run one process per call and a session must outlive it.

One connection per store (per `Runtime`), WAL so readers never wait for the writer, autocommit so every
method is one short transaction, a busy timeout so concurrent hook processes queue instead of failing.
Statements are constant strings, so `sqlite3`'s statement cache prepares each once per connection.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from limen.state import HISTORY_LIMIT, TAINTED

_SCHEMA = """
CREATE TABLE IF NOT EXISTS flags (session TEXT NOT NULL, flag TEXT NOT NULL, PRIMARY KEY (session, flag))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS taint (session TEXT NOT NULL, fp TEXT NOT NULL, length INTEGER NOT NULL,
    PRIMARY KEY (session, fp)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vals (session TEXT NOT NULL, fp TEXT NOT NULL, label TEXT NOT NULL,
    PRIMARY KEY (session, fp, label)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL,
    ts REAL NOT NULL, entry TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS history_session ON history (session, id);
CREATE TABLE IF NOT EXISTS pins (key TEXT PRIMARY KEY, fp TEXT NOT NULL, pending TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS calls (session TEXT PRIMARY KEY, start REAL NOT NULL, n INTEGER NOT NULL)
    WITHOUT ROWID;
"""


# A window restarts when its start has fallen out of it; otherwise the call joins it.
_COUNT_CALL = (
    "INSERT INTO calls (session, start, n) VALUES (?1, ?2, 1) ON CONFLICT(session) DO UPDATE SET "
    "n = CASE WHEN start > ?3 THEN n + 1 ELSE 1 END, start = CASE WHEN start > ?3 THEN start ELSE ?2 END "
    "RETURNING n"
)


class SqliteStore:
    def __init__(self, path: str) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, mode=0o700, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
        os.chmod(path, 0o600)
        self._db.execute("PRAGMA busy_timeout = 10000")
        if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        if self._db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'calls'").fetchone()[0] == 0:
            self._db.executescript(_SCHEMA)

    def _many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if not rows:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(sql, rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def flags(self, session_id: str) -> frozenset[str]:
        with self._lock:
            rows = self._db.execute("SELECT flag FROM flags WHERE session = ?", (session_id,)).fetchall()
        return frozenset(r[0] for r in rows)

    def set_flags(self, session_id: str, flags: Iterable[str]) -> None:
        self._many("INSERT OR IGNORE INTO flags VALUES (?, ?)", [(session_id, f) for f in flags])

    def taint(self, session_id: str) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT fp, length FROM taint WHERE session = ?", (session_id,)
            ).fetchall()
        return {fp: length for fp, length in rows}

    def add_taint(self, session_id: str, fingerprints: Mapping[str, int]) -> None:
        self._many(
            "INSERT OR IGNORE INTO taint VALUES (?, ?, ?)",
            [(session_id, fp, n) for fp, n in fingerprints.items()],
        )

    def add_values(self, session_id: str, label: str, fingerprints: Iterable[str]) -> None:
        self._many(
            "INSERT OR IGNORE INTO vals VALUES (?, ?, ?)", [(session_id, fp, label) for fp in fingerprints]
        )

    def value_labels(self, session_id: str, fingerprints: Sequence[str]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        with self._lock:
            for fp in fingerprints:
                for (label,) in self._db.execute(
                    "SELECT label FROM vals WHERE session = ? AND fp = ?", (session_id, fp)
                ):
                    found.setdefault(fp, set()).add(label)
        return found

    def append_history(self, session_id: str, entry: Mapping[str, Any]) -> None:
        """Append, and drop this session's entries beyond the most recent `HISTORY_LIMIT`."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO history (session, ts, entry) VALUES (?, ?, ?)",
                    (session_id, time.time(), json.dumps(entry, separators=(",", ":"))),
                )
                self._db.execute(
                    "DELETE FROM history WHERE session = ? AND id <= "
                    "(SELECT id FROM history WHERE session = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (session_id, session_id, HISTORY_LIMIT),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry FROM history WHERE session = ? ORDER BY id DESC LIMIT ?", (session_id, limit)
            ).fetchall()
        return [json.loads(r[0]) for r in reversed(rows)]

    def count_call(self, session_id: str, window: float) -> int:
        """A fixed window: one row per session and one statement per call, whatever the rate."""
        now = time.time()
        with self._lock:
            (count,) = self._db.execute(_COUNT_CALL, (session_id, now, now - window)).fetchone()
        return int(count)

    def clear(self, session_id: str, *, taint_only: bool) -> None:
        tables = ("taint",) if taint_only else ("taint", "flags", "vals", "history", "calls")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for table in tables:
                    self._db.execute(f"DELETE FROM {table} WHERE session = ?", (session_id,))
                self._db.execute("DELETE FROM flags WHERE session = ? AND flag = ?", (session_id, TAINTED))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def sessions(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT session FROM flags UNION SELECT session FROM taint UNION SELECT session FROM history"
            ).fetchall()
        return sorted(r[0] for r in rows)

    def get_pin(self, key: str) -> tuple[str, str | None] | None:
        with self._lock:
            row = self._db.execute("SELECT fp, pending FROM pins WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def set_pin(self, key: str, fingerprint: str, pending: str | None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO pins VALUES (?, ?, ?)", (key, fingerprint, pending))

    def pending_pins(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT key FROM pins WHERE pending IS NOT NULL ORDER BY key").fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
