"""What happens when a blocked turn is sent again.

A user whose prompt was blocked often resubmits it unchanged, because they meant it. The first identical
resubmission is therefore turned into a one-time challenge (`repeat_after_block`, AUTH) instead of a second
silent block. If that challenge was denied and the turn keeps coming back until the lockout threshold,
it is blocked outright for a cooldown (`turn_blocked_repeatedly`), so a script cannot grind the challenge.

Hooks run as separate processes, so the history must outlive one: `RepeatTracker` has an in-memory and an
SQLite-file implementation. Turns are identified by a keyed HMAC of their normalised text (and an optional
scope such as the session id); the text itself is never stored.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from limen.model import Finding, ReasonCode, Verdict
from limen.turngate import RISK_ERROR, verdict_of

RISK_REPEAT = 70
RISK_LOCKED = 95


@dataclass(slots=True, frozen=True)
class TurnRecord:
    """The history of one turn fingerprint."""

    blocks: int = 0  # times this turn was blocked, the first block included
    challenged: bool = False  # the one-time repeat challenge has been issued
    denials: int = 0  # repeat challenges the user denied
    locked_until: float = 0.0
    last_seen: float = 0.0


Step = Callable[[TurnRecord], TurnRecord]


class RepeatTracker(Protocol):
    def update(self, fingerprint: str, step: Step) -> tuple[TurnRecord, TurnRecord]:
        """Atomically replace the record (an empty one when absent) by `step(record)`: (before, after)."""
        ...


class MemoryRepeatTracker:
    """For one process (the SDK, tests)."""

    def __init__(self) -> None:
        self._records: dict[str, TurnRecord] = {}
        self._lock = threading.Lock()

    def update(self, fingerprint: str, step: Step) -> tuple[TurnRecord, TurnRecord]:
        with self._lock:
            before = self._records.get(fingerprint, TurnRecord())
            after = step(before)
            self._records[fingerprint] = after
            return before, after


class SqliteRepeatTracker:
    """Shared by every process that opens the same file; each update is one IMMEDIATE transaction."""

    def __init__(self, path: str | Path, *, max_age_s: float = 7 * 86400.0, timeout_s: float = 5.0) -> None:
        self._path = str(path)
        self._max_age = max_age_s
        self._timeout = timeout_s
        # Owner-only from the start: whoever can write this file can lift a lockout.
        os.close(os.open(self._path, os.O_CREAT | os.O_RDWR, 0o600))
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS turn_repeats (fingerprint TEXT PRIMARY KEY,"
                " blocks INTEGER NOT NULL, challenged INTEGER NOT NULL, denials INTEGER NOT NULL,"
                " locked_until REAL NOT NULL, last_seen REAL NOT NULL)"
            )

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._path, timeout=self._timeout, isolation_level=None)

    def update(self, fingerprint: str, step: Step) -> tuple[TurnRecord, TurnRecord]:
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(
                    "SELECT blocks, challenged, denials, locked_until, last_seen FROM turn_repeats"
                    " WHERE fingerprint = ?",
                    (fingerprint,),
                ).fetchone()
                before = TurnRecord(row[0], bool(row[1]), row[2], row[3], row[4]) if row else TurnRecord()
                after = step(before)
                db.execute(
                    "INSERT OR REPLACE INTO turn_repeats VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        fingerprint,
                        after.blocks,
                        int(after.challenged),
                        after.denials,
                        after.locked_until,
                        after.last_seen,
                    ),
                )
                db.execute(
                    "DELETE FROM turn_repeats WHERE last_seen < ? AND locked_until < ?",
                    (after.last_seen - self._max_age, after.last_seen),
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return before, after


class RepeatGate:
    """Applies the repeat rules to a turn's screening findings."""

    def __init__(
        self,
        tracker: RepeatTracker,
        key: bytes,
        *,
        lockout_after: int = 3,
        cooldown_s: float = 900.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._tracker = tracker
        self._key = key
        self._lockout_after = lockout_after
        self._cooldown = cooldown_s
        self._clock = clock

    def fingerprint(self, text: str, *, scope: str = "") -> str:
        """Keyed HMAC of the normalised text: whitespace, case and disguises do not make a new turn."""
        from limen.turngate.normalize import prepare

        message = f"{scope}\0{prepare(text).flat}".encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def check(self, text: str, findings: list[Finding], *, scope: str = "") -> list[Finding]:
        """The findings after the repeat rules. Never raises: a tracker error keeps the verdict, adds AUTH."""
        try:
            return self._check(text, findings, scope)
        except Exception as exc:
            detail = f"repeat tracker error: {type(exc).__name__}"
            return [*findings, Finding(ReasonCode.TURN_GATE_ERROR, Verdict.AUTH, RISK_ERROR, detail)]

    def challenge_denied(self, text: str, *, scope: str = "") -> bool:
        """Record that the user denied the repeat challenge for this turn; False if it could not be.

        The denial has already refused the turn, so a failure here only delays a lockout.
        """
        now = self._clock()
        try:
            self._tracker.update(
                self.fingerprint(text, scope=scope),
                lambda r: replace(r, denials=r.denials + 1, last_seen=now),
            )
        except Exception:
            return False
        return True

    def _check(self, text: str, findings: list[Finding], scope: str) -> list[Finding]:
        now = self._clock()
        blocked = verdict_of(findings) is Verdict.BLOCK
        before, after = self._tracker.update(self.fingerprint(text, scope=scope), self._step(now, blocked))
        if after.locked_until > now:
            detail = f"resubmitted {after.blocks} times after a denied challenge; cooling down"
            return [
                *findings,
                Finding(ReasonCode.TURN_BLOCKED_REPEATEDLY, Verdict.BLOCK, RISK_LOCKED, detail),
            ]
        if after.challenged and not before.challenged:
            softened = [
                replace(f, verdict=Verdict.AUTH) if f.verdict is Verdict.BLOCK else f for f in findings
            ]
            detail = "identical turn resubmitted after a block: one-time challenge"
            return [*softened, Finding(ReasonCode.REPEAT_AFTER_BLOCK, Verdict.AUTH, RISK_REPEAT, detail)]
        return findings

    def _step(self, now: float, blocked: bool) -> Step:
        def step(record: TurnRecord) -> TurnRecord:
            if record.locked_until > now or not blocked:
                return record
            seen = replace(record, blocks=record.blocks + 1, last_seen=now)
            if record.blocks == 0:
                return seen
            if not record.challenged:
                return replace(seen, challenged=True)
            if record.denials >= 1 and seen.blocks >= self._lockout_after:
                return replace(seen, locked_until=now + self._cooldown)
            return seen

        return step
