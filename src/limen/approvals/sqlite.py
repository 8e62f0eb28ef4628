"""The approval store in SQLite (`LIMEN_HOME/approvals.sqlite`, WAL, shared by every Limen process).

Each state change is one `UPDATE ... WHERE status = ... RETURNING` statement: SQLite runs a statement under
its write lock, so of two processes granting, denying or claiming the same request exactly one sees the row
change. Connections wait for the lock (`busy_timeout`) rather than fail.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from typing import Any

from limen.approvals.records import (
    DENIED,
    EXPIRED,
    GRANTED,
    PENDING,
    USED,
    ApprovalError,
    ApprovalRequest,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS approvals (
    id TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    tool TEXT NOT NULL,
    action TEXT NOT NULL,
    reasons TEXT NOT NULL,
    risk INTEGER NOT NULL,
    strong INTEGER NOT NULL,
    session TEXT NOT NULL,
    workspace TEXT NOT NULL,
    door TEXT NOT NULL,
    decision_id TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    status TEXT NOT NULL,
    answered_at REAL NOT NULL DEFAULT 0,
    answered_by TEXT NOT NULL DEFAULT '',
    factor TEXT NOT NULL DEFAULT '',
    used_at REAL NOT NULL DEFAULT 0,
    used_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS approvals_open ON approvals (fingerprint, status);
CREATE INDEX IF NOT EXISTS approvals_status ON approvals (status, expires);
"""
_COLUMNS = (
    "id, fingerprint, tool, action, reasons, risk, strong, session, workspace, door, decision_id, created, "
    "expires, status, answered_at, answered_by, factor, used_at, used_by"
)


RETENTION_SECONDS = 7 * 86400


def default_path() -> str:
    from limen.home import limen_home

    return os.path.join(limen_home(), "approvals.sqlite")


def _request(row: tuple[Any, ...]) -> ApprovalRequest:
    (rid, fp, tool, action, reasons, risk, strong, session, workspace, door, decision_id, created, expires,
     status, answered_at, answered_by, factor, used_at, used_by) = row  # fmt: skip
    return ApprovalRequest(
        id=rid,
        fingerprint=fp,
        tool=tool,
        action=action,
        reasons=tuple(json.loads(reasons)),
        risk=int(risk),
        strong=bool(strong),
        session=session,
        workspace=workspace,
        door=door,
        decision_id=decision_id,
        created=float(created),
        expires=float(expires),
        status=status,
        answered_at=float(answered_at),
        answered_by=answered_by,
        factor=factor,
        used_at=float(used_at),
        used_by=used_by,
    )


class SqliteApprovalStore:
    """`ApprovalStore` on one SQLite file. One connection per store object, guarded by a lock."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path or default_path()
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), mode=0o700, exist_ok=True)
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))  # private from the first byte
        self._lock = threading.Lock()
        try:
            self._db = self._open()
        except sqlite3.DatabaseError:  # not a database (or a damaged one): set it aside, start empty
            os.replace(self.path, f"{self.path}.corrupt-{int(time.time())}")
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        """Open and prepare the file. Its open requests are lost when it had to be set aside: every call
        they were for asks again (nothing is approved by losing them)."""
        db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout = 10000")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[ApprovalRequest]:
        with self._lock:
            return [_request(row) for row in self._db.execute(sql, params).fetchall()]

    def _one(self, sql: str, params: tuple[Any, ...]) -> ApprovalRequest | None:
        rows = self._all(sql, params)
        return rows[0] if rows else None

    def create(self, request: ApprovalRequest) -> None:
        r = request
        with self._lock:
            self._db.execute(
                f"INSERT INTO approvals ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (r.id, r.fingerprint, r.tool, r.action, json.dumps(list(r.reasons)), r.risk, int(r.strong),
                 r.session, r.workspace, r.door, r.decision_id, r.created, r.expires, r.status,
                 r.answered_at, r.answered_by, r.factor, r.used_at, r.used_by),
            )  # fmt: skip

    def get(self, request_id: str) -> ApprovalRequest | None:
        return self._one(f"SELECT {_COLUMNS} FROM approvals WHERE id = ?", (request_id,))

    def open_for(self, fingerprint: str, now: float) -> list[ApprovalRequest]:
        return self._all(
            f"SELECT {_COLUMNS} FROM approvals WHERE fingerprint = ? AND status IN (?, ?) AND expires > ? "
            "ORDER BY created",
            (fingerprint, PENDING, GRANTED, now),
        )

    def pending(self, now: float) -> list[ApprovalRequest]:
        return self._all(
            f"SELECT {_COLUMNS} FROM approvals WHERE status = ? AND expires > ? ORDER BY created",
            (PENDING, now),
        )

    def recent(self, limit: int = 100) -> list[ApprovalRequest]:
        return self._all(f"SELECT {_COLUMNS} FROM approvals ORDER BY created DESC LIMIT ?", (limit,))

    def _transition(
        self, request_id: str, sets: str, params: tuple[Any, ...], allowed: tuple[str, ...], now: float
    ) -> ApprovalRequest:
        marks = ",".join("?" * len(allowed))
        changed = self._one(
            f"UPDATE approvals SET {sets} WHERE id = ? AND status IN ({marks}) AND expires > ? "
            f"RETURNING {_COLUMNS}",
            (*params, request_id, *allowed, now),
        )
        if changed is not None:
            return changed
        current = self.get(request_id)
        if current is None:
            raise ApprovalError(f"no approval request {request_id!r}")
        if current.status in allowed:  # still open, so it is past its expiry
            raise ApprovalError(f"approval request {request_id} has expired")
        raise ApprovalError(f"approval request {request_id} is already {current.status}")

    def grant(self, request_id: str, *, by: str, factor: str, now: float) -> ApprovalRequest:
        return self._transition(
            request_id,
            "status = ?, answered_at = ?, answered_by = ?, factor = ?",
            (GRANTED, now, by, factor),
            (PENDING,),
            now,
        )

    def deny(self, request_id: str, *, by: str, now: float, revoke: bool = True) -> ApprovalRequest:
        return self._transition(
            request_id,
            "status = ?, answered_at = ?, answered_by = ?",
            (DENIED, now, by),
            (PENDING, GRANTED) if revoke else (PENDING,),
            now,
        )

    def claim(self, request_id: str, *, decision_id: str, now: float) -> ApprovalRequest | None:
        return self._one(
            "UPDATE approvals SET status = ?, used_at = ?, used_by = ? "
            f"WHERE id = ? AND status = ? AND expires > ? RETURNING {_COLUMNS}",
            (USED, now, decision_id, request_id, GRANTED, now),
        )

    def expire(self, now: float) -> list[ApprovalRequest]:
        """Also forgets requests that ended more than `RETENTION_SECONDS` ago (the audit log keeps every
        step; the store only answers what is open and what the console shows as recent)."""
        expired = self._all(
            f"UPDATE approvals SET status = ? WHERE status IN (?, ?) AND expires <= ? RETURNING {_COLUMNS}",
            (EXPIRED, PENDING, GRANTED, now),
        )
        with self._lock:
            self._db.execute(
                "DELETE FROM approvals WHERE status NOT IN (?, ?) AND expires <= ?",
                (PENDING, GRANTED, now - RETENTION_SECONDS),
            )
        return expired

    def close(self) -> None:
        with self._lock:
            self._db.close()
