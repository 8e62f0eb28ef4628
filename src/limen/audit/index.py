"""A SQLite index over the log for `limen log` and `limen tune`, caught up from the log on each query.

The log is the truth and the hot path never touches SQLite: `sync()` reads from the last indexed byte to the
end of the log. The index stores only what the records hold (already redacted).
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from limen.audit import INDEX_NAME, LOG_NAME, default_dir
from limen.audit.chain import decode

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, id TEXT, ts REAL, kind TEXT, session TEXT,
    door TEXT, tool TEXT, cap TEXT, verdict TEXT, risk INTEGER, reasons TEXT, body TEXT);
CREATE INDEX IF NOT EXISTS records_id ON records (id);
CREATE INDEX IF NOT EXISTS records_session ON records (session, seq);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER);
"""


class Index:
    def __init__(self, directory: str | None = None) -> None:
        self.directory = directory or default_dir()
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        self._db = sqlite3.connect(os.path.join(self.directory, INDEX_NAME), timeout=10.0)
        self._db.executescript(_SCHEMA)

    def sync(self) -> int:
        """Index records appended since the last sync; returns how many."""
        path = os.path.join(self.directory, LOG_NAME)
        row = self._db.execute("SELECT value FROM meta WHERE key = 'offset'").fetchone()
        offset = int(row[0]) if row else 0
        if not os.path.exists(path):
            return 0
        size = os.path.getsize(path)
        if size < offset:  # the log was replaced: rebuild
            self._db.execute("DELETE FROM records")
            offset = 0
        added = 0
        with open(path, "rb") as fh:
            fh.seek(offset)
            for raw in fh:
                if not raw.endswith(b"\n"):
                    break
                offset += len(raw)
                try:
                    record, _, _ = decode(raw.decode().rstrip("\n"))
                except (ValueError, UnicodeDecodeError):
                    continue
                self._db.execute(
                    "INSERT OR REPLACE INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        record.get("seq"),
                        record.get("id"),
                        record.get("ts"),
                        record.get("kind"),
                        record.get("session"),
                        record.get("door"),
                        record.get("tool"),
                        record.get("cap"),
                        record.get("verdict"),
                        record.get("risk"),
                        json.dumps(record.get("reasons", [])),
                        json.dumps(record, sort_keys=True),
                    ),
                )
                added += 1
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('offset', ?)", (offset,))
        self._db.commit()
        return added

    def query(
        self,
        *,
        limit: int = 20,
        session: str | None = None,
        verdict: str | None = None,
        tool: str | None = None,
        reason: str | None = None,
        kinds: tuple[str, ...] = ("decision", "output"),
    ) -> list[dict[str, Any]]:
        """Most recent first."""
        sql = f"SELECT body FROM records WHERE kind IN ({','.join('?' * len(kinds))})"
        params: list[Any] = list(kinds)
        for column, value in (("session", session), ("verdict", verdict), ("tool", tool)):
            if value:
                sql += f" AND {column} = ?"
                params.append(value)
        if reason:
            sql += " AND reasons LIKE ?"
            params.append(f'%"{reason}"%')
        sql += " ORDER BY seq DESC LIMIT ?"
        params.append(limit)
        return [json.loads(r[0]) for r in self._db.execute(sql, params)]

    def by_id(self, decision_id: str) -> dict[str, Any] | None:
        row = self._db.execute(
            "SELECT body FROM records WHERE id = ? ORDER BY seq DESC LIMIT 1", (decision_id,)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def friction(self) -> list[tuple[str, int, int]]:
        """(reason code, AUTH count, BLOCK count) over every indexed decision."""
        counts: dict[str, list[int]] = {}
        rows = self._db.execute(
            "SELECT verdict, reasons FROM records WHERE kind IN ('decision', 'output') AND verdict != 'PASS'"
        )
        for verdict, reasons in rows:
            for code in json.loads(reasons):
                slot = counts.setdefault(code, [0, 0])
                slot[0 if verdict == "AUTH" else 1] += 1
        return sorted(((c, a, b) for c, (a, b) in counts.items()), key=lambda t: -(t[1] + t[2]))

    def close(self) -> None:
        self._db.close()
