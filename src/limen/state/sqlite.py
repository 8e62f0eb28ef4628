"""SQLite session store: the default, because hooks run one process per call and a session must outlive it.

One connection per store (per `Runtime`), WAL so readers never wait for the writer, autocommit so every
method is one short transaction, a busy timeout so concurrent hook processes queue instead of failing.
Statements are constant strings, so `sqlite3`'s statement cache prepares each once per connection.

A damaged file must neither deny every call forever nor forget a taint. A file that is not a database, is
malformed, or holds another schema (found on open, or by any statement later) is renamed aside as
`state.sqlite.corrupt-<time>` (never deleted) and rebuilt, and the rebuilt file records when and why the
state was lost. From then on every session counts as tainted and as having taken in untrusted content (flags
`tainted`, `untrusted`, `state_lost`), since what it read before is unknown, until a person clears it
(`limen session clear <session>`) or acknowledges the loss for all (`limen session clear --state-lost`). A
state file that vanished after it was used counts as lost too: deleting it must not drop a session's taint.
The evidence that it was used lives in its lock file, `state.sqlite.lock`, which also lets one process at a
time move a damaged file aside while the others wait to open the rebuilt one.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from limen.state import FILES_LIMIT, HISTORY_LIMIT, STATE_LOST, TAINTED, UNTRUSTED

SCHEMA_VERSION = 2  # 2 added `files`; a version 1 file is completed in place (`_adopt`)
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
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS reviewed (session TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL,
    path TEXT NOT NULL, ts REAL NOT NULL, text TEXT NOT NULL, UNIQUE (session, path));
"""

# A window restarts when its start has fallen out of it; otherwise the call joins it.
# The window goes on while it started within the last `window` seconds; one that starts after now (the clock
# was set back) starts again, or a session would stay limited for as long as the clock went back.
_COUNT_CALL = (
    "INSERT INTO calls (session, start, n) VALUES (?1, ?2, 1) ON CONFLICT(session) DO UPDATE SET "
    "n = CASE WHEN start > ?3 AND start <= ?2 THEN n + 1 ELSE 1 END, "
    "start = CASE WHEN start > ?3 AND start <= ?2 THEN start ELSE ?2 END "
    "RETURNING n"
)
_FLAGS = "SELECT flag FROM flags WHERE session = ?1"
# While the state is lost: also `state_lost`, unless a person has cleared this session since.
_FLAGS_LOST = (
    f"{_FLAGS} UNION ALL SELECT 'state_lost' FROM meta "
    "WHERE key = 'state_lost' AND NOT EXISTS (SELECT 1 FROM reviewed WHERE session = ?1)"
)
# The call counted and the session's flags read in one statement (a decision needs both, and a write costs
# the same with its read as without): RETURNING may hold a subquery. The flags come as a JSON array.
_COUNT_CALL_FLAGS = f"{_COUNT_CALL}, (SELECT json_group_array(flag) FROM ({_FLAGS}))"
_COUNT_CALL_FLAGS_LOST = f"{_COUNT_CALL}, (SELECT json_group_array(flag) FROM ({_FLAGS_LOST}))"
# Values looked up per statement: far below SQLite's bound on parameters (999 before 3.32).
_LOOKUP_BATCH = 256
_IS_LOST = "SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'state_lost')"
_LOST_FLAGS = frozenset({STATE_LOST, TAINTED, UNTRUSTED})
RECOVERY = (
    "every session counts as tainted until a person runs `limen session clear <session>` "
    "(or `limen session clear --state-lost` for all)"
)
_REBUILT = "the next Limen call moves it aside (quarantine) and rebuilds it, and " + RECOVERY

P = ParamSpec("P")
R = TypeVar("R")


class StateUnavailable(Exception):
    """The state file can be neither opened nor rebuilt (a directory, no permission, a full disk)."""


def _damage(exc: sqlite3.DatabaseError) -> str:
    """What is wrong with the file, when the error says it is damaged or not ours; else `` (busy, I/O...)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == 26:  # SQLITE_NOTADB
        return "is not a database"
    if code == 11:  # SQLITE_CORRUPT
        return f"is malformed ({exc})"
    message = str(exc)
    if code == 1 and message.startswith(("no such table", "no such column")):
        return f"holds another schema ({message})"
    return ""


@functools.cache
def _columns() -> dict[str, tuple[str, ...]]:
    """Each table's columns, as the schema above creates them."""
    db = sqlite3.connect(":memory:")
    db.executescript(_SCHEMA)
    try:
        return _tables(db)
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {
        n: tuple(r[1] for r in db.execute(f'PRAGMA table_info("{n}")'))
        for n in names
        if not n.startswith("sqlite_")
    }


def _schema_problem(db: sqlite3.Connection) -> str:
    """`` when the file's tables are ours (or it has none yet), else what differs."""
    ours = _columns()
    for name, columns in _tables(db).items():
        if ours.get(name) != columns:
            return f"holds another schema (table {name} with columns {', '.join(columns) or 'none'})"
    return ""


def _adopt(db: sqlite3.Connection) -> str:
    """Create the schema in a new file, or complete one from an earlier version whose tables are ours (the
    statements only create what is missing); else say what the file holds instead (and change nothing)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            problem = _schema_problem(db)
            if not problem:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        else:
            problem = "" if version == SCHEMA_VERSION else f"holds schema version {version}"
        db.execute("COMMIT")
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")
    return problem


class _FileLock:
    """`flock` on `<state>.lock`: shared while a process opens the state, exclusive while one rebuilds it.
    Its first byte is 1 once a database was set up at that path, so a vanished file is told from a new one.
    The wait is bounded like SQLite's own busy timeout: a holder stopped mid-rebuild must not hang a hook."""

    def __init__(self, path: str, mode: int, timeout: float = 10.0) -> None:
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        end = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(self._fd, mode | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= end:
                    os.close(self._fd)
                    raise TimeoutError(f"{path} stayed locked") from None
                time.sleep(0.005)

    def used(self) -> bool:
        return os.pread(self._fd, 1, 0) == b"1"

    def mark_used(self) -> None:
        os.pwrite(self._fd, b"1", 0)

    def release(self) -> None:
        os.close(self._fd)  # closing drops the lock


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of a non-empty file at `path`; None when there is none (or it is empty)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino) if info.st_size else None


def _recovering(method: Callable[Concatenate[SqliteStore, P], R]) -> Callable[Concatenate[SqliteStore, P], R]:
    """Run a store method; when the file turns out damaged, quarantine and rebuild it, then run it again."""

    @functools.wraps(method)
    def run(self: SqliteStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        found = self._id
        try:
            if time.monotonic() >= self._follow_at:
                self._follow()
                found = self._id
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            why = _damage(exc)
            if not why:
                raise
            self._reconnect(found, why)
            return method(self, *args, **kwargs)

    return run


class SqliteStore:
    """The store. Whether the state is lost is read when the file is opened and on each look at the path
    (`follow_every`), so the common call pays nothing for it; which sessions a person cleared is read live."""

    follow_every = 1.0  # seconds between looks at whether the path still names our file (and is still lost)

    def __init__(self, path: str) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, mode=0o700, exist_ok=True)
        self.path = path
        self._lock_path = f"{path}.lock"
        self._lock = threading.Lock()
        self._id: tuple[int, int] | None = None
        self._lost = False
        self._follow_at = time.monotonic() + self.follow_every
        self._db = self._connect()

    # -- opening, checking, rebuilding ------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        """A connection to a sound state file, quarantining and rebuilding a damaged one first."""
        why = ""
        try:
            for _ in range(3):  # each round either opens, or moves one damaged file aside
                opened = self._open_checked()
                if isinstance(opened, sqlite3.Connection):
                    return opened
                why, found = opened
                self._quarantine(why, found)
        except (sqlite3.Error, OSError) as exc:  # TimeoutError is an OSError
            raise StateUnavailable(
                f"the session state {self.path} cannot be opened or rebuilt ({exc}); "
                "fix its permissions or move it aside"
            ) from exc
        raise StateUnavailable(f"the session state {self.path} {why}, and rebuilding it did not help")

    def _open_checked(self) -> sqlite3.Connection | tuple[str, tuple[int, int] | None]:
        """The connection, or (what is wrong, the identity of the file found so) under a shared lock."""
        lock = _FileLock(self._lock_path, fcntl.LOCK_SH)
        try:
            found = _identity(self.path)
            if found is None and lock.used():
                return "was missing or empty, though Limen had used it", found
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            try:
                problem = self._prepare(db)
            except sqlite3.DatabaseError as exc:
                db.close()
                problem = _damage(exc)
                if not problem:
                    raise
            if problem:
                db.close()
                return problem, found
            os.chmod(self.path, 0o600)
            lock.mark_used()
            self._id = _identity(self.path)
            self._lost = bool(db.execute(_IS_LOST).fetchone()[0])
            return db
        finally:
            lock.release()

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> str:
        """Set the connection up; create or complete the schema. `` or what makes the file not ours (a file
        that is not ours is left exactly as it was found, for a person to look at)."""
        db.execute("PRAGMA busy_timeout = 10000")
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            problem = _adopt(db)
            if problem:
                return problem
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        return ""

    def _quarantine(self, why: str, found: tuple[int, int] | None) -> None:
        """Move the damaged file aside and put a rebuilt one, marked as lost, in its place. Under the
        exclusive lock, and only if the path still names the file found damaged: another process may have
        rebuilt it meanwhile."""
        lock = _FileLock(self._lock_path, fcntl.LOCK_EX)
        try:
            if _identity(self.path) != found:
                return
            aside = f"{self.path}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
            if any(os.path.exists(aside + s) for s in ("", "-wal", "-shm")):
                aside = f"{aside}-{os.getpid()}"
            fresh = f"{self.path}.rebuild-{os.getpid()}"
            for suffix in ("", "-wal", "-shm"):  # what a rebuild killed midway left behind
                with contextlib.suppress(FileNotFoundError):
                    os.remove(fresh + suffix)
            moved = found is not None or os.path.exists(self.path)
            lost = {"at": time.time(), "why": why, "moved_to": aside if moved else None}
            db = sqlite3.connect(fresh, isolation_level=None)
            try:
                self._prepare(db)
                db.execute("INSERT INTO meta VALUES ('state_lost', ?)", (json.dumps(lost),))
            finally:
                db.close()
            for suffix in ("", "-wal", "-shm"):  # the old journal must not be replayed into the new file
                with contextlib.suppress(FileNotFoundError):
                    os.rename(self.path + suffix, aside + suffix)
            os.rename(fresh, self.path)
            lock.mark_used()
        finally:
            lock.release()

    def _reconnect(self, found: tuple[int, int] | None, why: str) -> None:
        """Quarantine the file (when `why` says it is damaged) and connect to what the path names now."""
        with self._lock:
            if self._id != found:
                return  # another thread of this process got there first
            if why:
                self._quarantine(why, found)
            old, self._db = self._db, self._connect()
        with contextlib.suppress(sqlite3.Error):
            old.close()

    def _follow(self) -> None:
        """Reconnect when the path no longer names our file: another process quarantined it, or it was
        deleted. A long-lived store (the daemon's) would otherwise keep using a file nobody else reads.
        Otherwise re-read whether the state is lost (a person may have acknowledged it)."""
        self._follow_at = time.monotonic() + self.follow_every
        if _identity(self.path) != self._id:
            self._reconnect(self._id, "")
            return
        with self._lock:
            self._lost = bool(self._db.execute(_IS_LOST).fetchone()[0])

    # -- the store -----------------------------------------------------------------------------------------
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

    def _together(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run `statements` in one write transaction: all of them, or none."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, arguments in statements:
                    self._db.execute(sql, arguments)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @_recovering
    def flags(self, session_id: str) -> frozenset[str]:
        with self._lock:
            rows = self._db.execute(_FLAGS_LOST if self._lost else _FLAGS, (session_id,)).fetchall()
        return _with_lost(frozenset(r[0] for r in rows))

    @_recovering
    def set_flags(self, session_id: str, flags: Iterable[str]) -> None:
        self._many("INSERT OR IGNORE INTO flags VALUES (?, ?)", [(session_id, f) for f in flags])

    @_recovering
    def taint(self, session_id: str) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT fp, length FROM taint WHERE session = ?", (session_id,)
            ).fetchall()
        return {fp: length for fp, length in rows}

    @_recovering
    def add_taint(self, session_id: str, fingerprints: Mapping[str, int]) -> None:
        self._many(
            "INSERT OR IGNORE INTO taint VALUES (?, ?, ?)",
            [(session_id, fp, n) for fp, n in fingerprints.items()],
        )

    @_recovering
    def add_values(self, session_id: str, label: str, fingerprints: Iterable[str]) -> None:
        self._many(
            "INSERT OR IGNORE INTO vals VALUES (?, ?, ?)", [(session_id, fp, label) for fp in fingerprints]
        )

    @_recovering
    def value_labels(self, session_id: str, fingerprints: Sequence[str]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        unique = list(dict.fromkeys(fingerprints))
        with self._lock:
            for start in range(0, len(unique), _LOOKUP_BATCH):  # one statement per batch, not per value
                batch = unique[start : start + _LOOKUP_BATCH]
                marks = ",".join("?" * len(batch))
                for fp, label in self._db.execute(
                    f"SELECT fp, label FROM vals WHERE session = ? AND fp IN ({marks})", (session_id, *batch)
                ):
                    found.setdefault(fp, set()).add(label)
        return found

    @_recovering
    def append_history(self, session_id: str, entry: Mapping[str, Any]) -> None:
        """Append, and drop this session's entries beyond the most recent `HISTORY_LIMIT`."""
        self._together(
            (
                "INSERT INTO history (session, ts, entry) VALUES (?, ?, ?)",
                (session_id, time.time(), json.dumps(entry, separators=(",", ":"))),
            ),
            (
                "DELETE FROM history WHERE session = ? AND id <= "
                "(SELECT id FROM history WHERE session = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (session_id, session_id, HISTORY_LIMIT),
            ),
        )

    @_recovering
    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry FROM history WHERE session = ? ORDER BY id DESC LIMIT ?", (session_id, limit)
            ).fetchall()
        return [json.loads(r[0]) for r in reversed(rows)]

    @_recovering
    def count_call(self, session_id: str, window: float) -> int:
        """A fixed window: one row per session and one statement per call, whatever the rate."""
        now = time.time()
        with self._lock:
            (count,) = self._db.execute(_COUNT_CALL, (session_id, now, now - window)).fetchone()
        return int(count)

    @_recovering
    def count_call_and_flags(self, session_id: str, window: float) -> tuple[int, frozenset[str]]:
        """`count_call` with the session's flags read in its RETURNING clause: one statement, not two."""
        now = time.time()
        sql = _COUNT_CALL_FLAGS_LOST if self._lost else _COUNT_CALL_FLAGS
        with self._lock:
            count, listed = self._db.execute(sql, (session_id, now, now - window)).fetchone()
        flags = frozenset(json.loads(listed)) if listed != "[]" else frozenset()
        return int(count), _with_lost(flags)

    @_recovering
    def clear(self, session_id: str, *, taint_only: bool) -> None:
        tables = ("taint",) if taint_only else ("taint", "flags", "vals", "history", "calls", "files")
        self._together(
            *((f"DELETE FROM {table} WHERE session = ?", (session_id,)) for table in tables),
            ("DELETE FROM flags WHERE session = ? AND flag = ?", (session_id, TAINTED)),
            (  # a person cleared it: the lost state no longer counts against it
                "INSERT OR IGNORE INTO reviewed SELECT ? WHERE EXISTS "
                "(SELECT 1 FROM meta WHERE key = 'state_lost')",
                (session_id,),
            ),
        )

    @_recovering
    def remember_file(self, session_id: str, path: str, text: str) -> None:
        self._together(
            (  # a rewritten file gets a new id: ids order the files by age
                "INSERT OR REPLACE INTO files (session, path, ts, text) VALUES (?, ?, ?, ?)",
                (session_id, path, time.time(), text),
            ),
            (
                "DELETE FROM files WHERE session = ? AND id NOT IN "
                "(SELECT id FROM files WHERE session = ? ORDER BY id DESC LIMIT ?)",
                (session_id, session_id, FILES_LIMIT),
            ),
        )

    @_recovering
    def files(self, session_id: str) -> dict[str, tuple[str, float]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT path, text, ts FROM files WHERE session = ? ORDER BY id", (session_id,)
            ).fetchall()
        return {path: (text, ts) for path, text, ts in rows}

    @_recovering
    def sessions(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT session FROM flags UNION SELECT session FROM taint UNION SELECT session FROM history"
            ).fetchall()
        return sorted(r[0] for r in rows)

    @_recovering
    def get_pin(self, key: str) -> tuple[str, str | None] | None:
        with self._lock:
            row = self._db.execute("SELECT fp, pending FROM pins WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    @_recovering
    def set_pin(self, key: str, fingerprint: str, pending: str | None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO pins VALUES (?, ?, ?)", (key, fingerprint, pending))

    @_recovering
    def pending_pins(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT key FROM pins WHERE pending IS NOT NULL ORDER BY key").fetchall()
        return [r[0] for r in rows]

    @_recovering
    def state_lost(self) -> str:
        """When and why the session state was lost (`` when it was not, or a person acknowledged it)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'state_lost'").fetchone()
        return describe_loss(row[0]) if row else ""

    @_recovering
    def acknowledge_state_loss(self) -> None:
        self._together(("DELETE FROM meta WHERE key = 'state_lost'", ()), ("DELETE FROM reviewed", ()))
        with self._lock:
            self._lost = False

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _with_lost(flags: frozenset[str]) -> frozenset[str]:
    """A session the lost state counts against is tainted and has taken in untrusted content."""
    return flags | _LOST_FLAGS if STATE_LOST in flags else flags


def describe_loss(value: str) -> str:
    """One line from the `state_lost` marker: when, why, and where the damaged file was kept."""
    try:
        lost = json.loads(value)
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(lost["at"])))
        why, moved = str(lost["why"]), lost.get("moved_to")
    except (ValueError, KeyError, TypeError):
        return "session state was lost (its record is unreadable)"
    kept = f", kept as {moved}" if moved else ""
    return f"session state was lost at {when}: the state file {why}{kept}"


def health(path: str) -> list[str]:
    """What is wrong with the state file at `path`, each with what to do about it; [] when nothing is.
    Read-only: it neither creates, completes nor quarantines the file (the next store to open it does)."""
    if _identity(path) is None:
        try:
            with open(f"{path}.lock", "rb") as fh:
                used = fh.read(1) == b"1"
        except FileNotFoundError:
            used = False
        return [f"{path} was missing or empty, though Limen had used it; {_REBUILT}"] if used else []
    try:
        db = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error as exc:
        return [f"{path} cannot be opened ({exc}); fix its permissions or move it aside"]
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        check = [str(r[0]) for r in db.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            return [f"{path} is malformed ({check[0]}); {_REBUILT}"]
        if version > SCHEMA_VERSION:
            return [f"{path} holds schema version {version}; {_REBUILT}"]
        problem = _schema_problem(db)
        if problem:
            return [f"{path} {problem}; {_REBUILT}"]
        if "meta" not in _tables(db):
            return []
        row = db.execute("SELECT value FROM meta WHERE key = 'state_lost'").fetchone()
        return [f"{describe_loss(row[0])}; {RECOVERY}"] if row else []
    except sqlite3.DatabaseError as exc:
        return [f"{path} {_damage(exc) or f'cannot be read ({exc})'}; {_REBUILT}"]
    finally:
        db.close()
