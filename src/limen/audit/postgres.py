"""The audit log on PostgreSQL: one chain for every replica of `limen serve`.

The same records, bytes and chain as the file log (`limen.audit.chain`): each row holds one encoded line
(`line`, its hash `h` and its `seq`); every `CHECKPOINT_EVERY`-th record is a checkpoint whose MAC is keyed
with this installation's audit key; the signed head (seq, hash, MAC) is a row of its own. Replicas must
share `LIMEN_HOME/keys` (audit.key for the MACs, fingerprint.key for the sessions' fingerprints).

Concurrent writers are serialised by a transaction-scoped advisory lock: under it a writer reads the chain's
last row, checks it against the signed head, inserts its record(s) and re-signs the head, then commits. So
`seq` order is commit order, no two records share a seq (the primary key would refuse it anyway), and a
record is either committed in the chain or the append raises (the runtime then reports it and, as `limen
serve` runs, denies the call). Nothing is updated or deleted: triggers refuse UPDATE, DELETE and TRUNCATE
on the log table; a superuser who bypasses them is caught by `verify_postgres` (hashes, chain, checkpoint
MACs, the signed head). A head that does not match the last row when a writer comes to append (rows removed
behind the triggers' back) is recorded as a `chain_break` record, as the file writer does.

`export_file_log` appends a file log's records into the table (each wrapped as an `imported` record that
keeps its original seq and hash), after verifying the file log.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from limen.audit import CHECKPOINT_EVERY, GENESIS
from limen.audit.chain import decode, encode, mac
from limen.state.keys import installation_key

if TYPE_CHECKING:
    import psycopg

    from limen.audit.verify import Report
    from limen.console.logread import Entry, Filters, Page

TABLE = "limen_audit"
HEAD = "limen_audit_head"
LOCK_KEY = 0x4C494D454E  # "LIMEN": the advisory lock every writer of the chain takes


def append_only(table: str, what: str) -> str:
    """The DDL that makes `table` append-only: an UPDATE, DELETE or TRUNCATE raises, naming `what`."""
    return f"""
CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the Limen {what} append-only';
END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '{table}_no_change') THEN
        CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION {table}_append_only();
        CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only();
    END IF;
END $$;
"""


_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    seq BIGINT PRIMARY KEY,
    h TEXT NOT NULL,
    line TEXT NOT NULL,
    written_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS {HEAD} (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL,
    h TEXT NOT NULL,
    mac TEXT NOT NULL
);
""" + append_only(TABLE, "audit log is")


def is_dsn(sink: str) -> bool:
    """Whether an audit sink names a PostgreSQL database (a URL or a conninfo string), not a directory."""
    return sink.startswith(("postgresql://", "postgres://")) or "dbname=" in sink


def connect(dsn: str) -> psycopg.Connection[Any]:
    import psycopg

    # Autocommit: every `conn.transaction()` block is then a real transaction that commits (or rolls back)
    # as it ends, and nothing else ever holds one open (with the advisory lock in it) between appends.
    # Bounded waits: a writer stuck holding the chain's lock makes the others fail (the runtime then denies)
    # rather than hang every replica.
    return psycopg.connect(
        dsn, connect_timeout=5, autocommit=True, options="-c lock_timeout=5000 -c statement_timeout=15000"
    )


def ensure_schema(conn: psycopg.Connection[Any]) -> None:
    """Create the tables and triggers once (under the writers' lock, so replicas starting together agree)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        conn.execute(_SCHEMA)


class AuditUnavailable(OSError):
    """The record could not be committed to the chain (the message names why; no record content)."""


class _Pending:
    __slots__ = ("done", "error", "record", "seq")

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.seq = 0
        self.done = False
        self.error: BaseException | None = None


class PostgresAuditWriter:
    """Appends records to the chain in PostgreSQL. Thread-safe, with group commit: while one thread's
    transaction holds the chain, the records other threads hand in meanwhile wait, and the next transaction
    appends them all (one advisory lock, one commit), each thread getting its own record's seq or error."""

    def __init__(self, dsn: str, *, home: str | None = None) -> None:
        self.dsn = dsn
        self._key = installation_key("audit", home)
        self._cond = threading.Condition()
        self._pending: list[_Pending] = []
        self._flushing = False
        self._conn: psycopg.Connection[Any] | None = None
        self._anchor = _Anchor(anchor_path(dsn, home), self._key)

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            if self._conn is not None:
                self._conn.close()
            self._conn = connect(self.dsn)
            ensure_schema(self._conn)
        return self._conn

    def append(self, record: dict[str, Any]) -> int:
        """Chain, insert and sign one record; its sequence number. Raises AuditUnavailable when it was not
        committed (nothing half-written: a transaction commits its records and the head together)."""
        mine = _Pending(record)
        with self._cond:
            self._pending.append(mine)
            while not mine.done and self._flushing:
                self._cond.wait()
            if not mine.done:  # nobody is writing: this thread writes everything waiting, its own included
                self._flushing = True
                batch, self._pending = self._pending, []
        if not mine.done:
            try:
                seqs = self._write(batch)
                for item, seq in zip(batch, seqs, strict=True):
                    item.seq = seq
            except BaseException as exc:
                for item in batch:
                    item.error = exc
            finally:
                with self._cond:
                    for item in batch:
                        item.done = True
                    self._flushing = False
                    self._cond.notify_all()
        if mine.error is not None:
            raise AuditUnavailable(f"the audit record was not committed ({type(mine.error).__name__})")
        return mine.seq

    def append_many(self, records: list[dict[str, Any]]) -> list[int]:
        """Append `records` in one transaction, in order (an export); their seqs."""
        with self._cond:
            while self._flushing:
                self._cond.wait()
            self._flushing = True
        try:
            return self._write([_Pending(r) for r in records])
        finally:
            with self._cond:
                self._flushing = False
                self._cond.notify_all()

    def _write(self, batch: list[_Pending]) -> list[int]:
        """Append the batch in one transaction. A connection lost before anything was sent is reopened and
        the batch tried once more; one lost after the commit was sent is asked whether the commit landed
        (the last row it would have written), so a record is never written twice nor reported lost when
        it is in the chain."""
        import psycopg

        for attempt in range(2):
            try:
                conn = self._connection()
            except psycopg.OperationalError:
                if attempt:
                    raise
                continue
            sent = _Attempt()
            try:
                self._append(conn, [item.record for item in batch], sent)
            except psycopg.OperationalError:
                self._drop()
                if not sent.rows:
                    if attempt:
                        raise
                    continue  # nothing was written: try again on a fresh connection
                if not self._landed(sent.rows[-1]):
                    raise
            self._anchor.raise_to(sent.rows[-1][0], sent.rows[-1][1])
            return sent.seqs
        raise AssertionError("unreachable")

    def _landed(self, row: tuple[int, str, str]) -> bool:
        """Whether the row (seq, hash) is in the chain: the commit landed before the connection broke."""
        try:
            with connect(self.dsn) as conn:
                found = conn.execute(f"SELECT h FROM {TABLE} WHERE seq = %s", (row[0],)).fetchone()
        except Exception:
            return False
        return found is not None and str(found[0]) == row[1]

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def _append(self, conn: psycopg.Connection[Any], records: list[dict[str, Any]], sent: _Attempt) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            state = conn.execute(
                f"SELECT (SELECT seq FROM {TABLE} ORDER BY seq DESC LIMIT 1), "
                f"(SELECT h FROM {TABLE} ORDER BY seq DESC LIMIT 1), h.seq, h.h, h.mac "
                f"FROM (SELECT 1) AS one LEFT JOIN {HEAD} AS h ON h.id = 1"
            ).fetchone()
            assert state is not None
            seq, prev = (int(state[0]), str(state[1])) if state[0] is not None else (0, GENESIS)
            head = state[2:] if state[2] is not None else None
            broken = self._check_head(head, seq, prev)
            items = ([broken] if broken is not None else []) + records
            rows: list[tuple[int, str, str]] = []
            seqs: list[int] = []
            for item in items:
                seq += 1
                if seq % CHECKPOINT_EVERY == 0:
                    checkpoint = {
                        "seq": seq,
                        "prev": prev,
                        "kind": "checkpoint",
                        "ts": round(time.time(), 3),
                        "mac": mac(self._key, seq, prev),
                    }
                    line, prev = encode(checkpoint)
                    rows.append((seq, prev, line.rstrip("\n")))
                    seq += 1
                line, prev = encode({**item, "seq": seq, "prev": prev})
                rows.append((seq, prev, line.rstrip("\n")))
                seqs.append(seq)
            values = ", ".join(["(%s, %s, %s)"] * len(rows))
            sent.rows, sent.seqs = rows, seqs[-len(records) :]
            conn.execute(
                f"WITH added AS (INSERT INTO {TABLE} (seq, h, line) VALUES {values}) "
                f"INSERT INTO {HEAD} (id, seq, h, mac) VALUES (1, %s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, h = EXCLUDED.h, mac = EXCLUDED.mac",
                [value for row in rows for value in row] + [seq, prev, mac(self._key, seq, prev)],
            )

    def _check_head(self, head: Any, seq: int, digest: str) -> dict[str, Any] | None:
        """The `chain_break` record to write first when the signed head does not name the last row."""
        if head is None:
            if seq == 0:
                return None
            why = "the log holds records but its signed head is missing"
            expected = None
        else:
            head_seq, head_h, head_mac = int(head[0]), str(head[1]), str(head[2])
            if not hmac.compare_digest(head_mac, mac(self._key, head_seq, head_h)):
                why = "the signed head is not signed with this installation's key"
            elif (head_seq, head_h) != (seq, digest):
                why = f"the signed head names seq {head_seq}, which the log does not end with"
            else:
                return None
            expected = {"seq": head_seq, "h": head_h}
        return {
            "kind": "chain_break",
            "ts": round(time.time(), 3),
            "why": why,
            "expected": expected,
            "found": {"seq": seq, "h": digest},
        }

    def ping(self) -> None:
        """Raises when the database cannot be reached (a connection of its own: appends are not held up)."""
        with connect(self.dsn) as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        with self._cond:
            while self._flushing:
                self._cond.wait()
            self._drop()


def anchor_path(dsn: str, home: str | None = None) -> str:
    """Where this machine keeps the signed head of the chain at `dsn` (named by a hash of the DSN)."""
    import hashlib
    import os

    from limen.home import limen_home

    name = hashlib.sha256(dsn.encode()).hexdigest()[:24]
    return os.path.join(home or limen_home(), "anchors", f"postgres-{name}.json")


class _Anchor:
    """The highest (seq, hash) this machine's writers committed, HMAC-signed, outside the database: a
    superuser who cuts the table's tail and puts an older signed head back (which the head's own signature
    cannot tell from the real one) is caught by `verify_postgres` on any machine that wrote past the cut.
    Raised under `flock`, never lowered, so the replicas of one host keep one anchor between them. A failure
    to write it costs no record (the record is committed); it is reported once."""

    def __init__(self, path: str, key: bytes) -> None:
        self.path, self._key, self._warned = path, key, False

    def raise_to(self, seq: int, digest: str) -> None:
        import fcntl
        import os
        import sys

        try:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                current = read_anchor(os.pread(fd, 512, 0), self._key)
                if current is None or current[0] < seq:
                    body = f'{{"seq": {seq}, "h": "{digest}", "mac": "{mac(self._key, seq, digest)}"}}'
                    os.pwrite(fd, body.encode().ljust(256), 0)
            finally:
                os.close(fd)
        except OSError as exc:
            if not self._warned:
                print(
                    f"limen: the audit anchor {self.path} cannot be written ({exc.strerror})", file=sys.stderr
                )
                self._warned = True


def read_anchor(raw: bytes, key: bytes) -> tuple[int, str] | None:
    """(seq, hash) of a signed anchor; None when empty, unreadable or not signed with `key`."""
    import json

    try:
        anchor = json.loads(raw.decode().strip() or "null")
        seq, digest, signature = int(anchor["seq"]), str(anchor["h"]), str(anchor["mac"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    return (seq, digest) if hmac.compare_digest(signature, mac(key, seq, digest)) else None


class _Attempt:
    """What one transaction sent: its rows (seq, hash, line) and the seq of each record handed in."""

    __slots__ = ("rows", "seqs")

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, str]] = []
        self.seqs: list[int] = []


def _rows(conn: psycopg.Connection[Any], batch: int = 2000) -> Iterator[tuple[int, str, str]]:
    after = -1
    while True:
        rows = conn.execute(
            f"SELECT seq, h, line FROM {TABLE} WHERE seq > %s ORDER BY seq LIMIT %s", (after, batch)
        ).fetchall()
        if not rows:
            return
        for seq, digest, line in rows:
            yield int(seq), str(digest), str(line)
        after = int(rows[-1][0])


def verify_postgres(dsn: str, *, home: str | None = None, max_problems: int = 20) -> Report:
    """`limen audit verify --postgres DSN`: the same checks as the file log's verification."""
    from limen.audit.verify import Report, _check_checkpoint, _describe_break

    key = installation_key("audit", home)
    report = Report()
    expected_seq, prev = 1, GENESIS
    anchored: tuple[int, str] | None = None
    try:
        with open(anchor_path(dsn, home), "rb") as fh:
            raw = fh.read()
        anchored = read_anchor(raw, key)
        if anchored is None and raw.strip():
            report.problems.append(
                "this machine's anchor of the chain is not signed with this installation's key"
            )
    except FileNotFoundError:
        pass
    anchor_found = anchored is None
    with connect(dsn) as conn:
        exists = conn.execute("SELECT to_regclass(%s)", (TABLE,)).fetchone()
        if exists is None or exists[0] is None:
            report.problems.append(f"the database holds no {TABLE} table")
            return report
        for seq, column_h, line in _rows(conn):
            if len(report.problems) >= max_problems:
                report.problems.append("too many problems; stopped")
                break
            try:
                record, digest, intact = decode(line)
                line_seq = int(record["seq"])
            except (ValueError, KeyError, TypeError):
                report.problems.append(f"seq {seq}: not a valid record")
                expected_seq = seq + 1
                continue
            if not intact:
                report.problems.append(f"seq {seq}: content does not match its hash")
            if line_seq != seq or digest != column_h:
                report.problems.append(f"seq {seq}: the row's seq or hash differs from its record's")
            if seq != expected_seq:
                report.problems.append(
                    f"seq {seq} where {expected_seq} was expected (a record was removed, inserted or moved)"
                )
            if record.get("prev") != prev:
                report.problems.append(f"seq {seq}: does not chain to the record before it")
            _check_checkpoint(report, key, record, seq)
            if record.get("kind") == "chain_break":
                report.problems.append(_describe_break(record, seq))
            report.records += 1
            expected_seq, prev = seq + 1, digest
            if anchored is not None and seq == anchored[0]:
                anchor_found = digest == anchored[1]
        head = conn.execute(f"SELECT seq, h, mac FROM {HEAD} WHERE id = 1").fetchone()
    last = expected_seq - 1
    if not anchor_found and anchored is not None:
        report.problems.append(
            f"this machine wrote the chain up to seq {anchored[0]}, which the database does not hold as "
            f"written (it ends at seq {last}: truncated, rolled back or replaced)"
        )
    if head is None:
        if report.records:
            report.problems.append("the signed head is missing")
        return report
    head_seq, head_h, head_mac = int(head[0]), str(head[1]), str(head[2])
    if not hmac.compare_digest(head_mac, mac(key, head_seq, head_h)):
        report.problems.append(
            "the signature of the signed head is invalid (log replaced or chain rewritten)"
        )
    elif head_seq != last:
        report.problems.append(f"the log ends at seq {last} but the signed head names seq {head_seq}")
    elif head_h != prev:
        report.problems.append(f"seq {head_seq} differs from the signed head (rewritten)")
    return report


def export_file_log(directory: str | None, dsn: str, *, home: str | None = None) -> tuple[int, Report]:
    """Append the file log in `directory` to the chain in PostgreSQL: an `import_start` event (the source's
    verification and head), one `imported` record per source record (its original seq and hash kept, so it
    can be held against the file), an `import_end` event. Refuses a file log that does not verify, and one
    whose head was imported already. Returns (records imported, the source's verification)."""
    import os

    from limen.audit import LOG_NAME, default_dir
    from limen.audit.verify import verify

    directory = directory or default_dir()
    report = verify(directory, home=home)
    if not report.ok:
        return 0, report
    source = os.path.realpath(directory)
    path = os.path.join(directory, LOG_NAME)
    last_h = GENESIS
    lines: list[tuple[dict[str, Any], str]] = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for raw in fh:
                try:
                    record, digest, _ = decode(raw.rstrip("\n"))
                except ValueError:
                    continue  # a fragment of an interrupted write (verification noted it)
                lines.append((record, digest))
                last_h = digest
    writer = PostgresAuditWriter(dsn, home=home)
    try:
        conn = writer._connection()
        done = conn.execute(
            f"SELECT 1 FROM {TABLE} WHERE line LIKE %s AND line LIKE %s LIMIT 1",
            ('%"event":"import_start"%', f'%"source_head":"{last_h}"%'),
        ).fetchone()
        if done is not None:
            report.problems.append(f"this log (head {last_h[:12]}) was imported already")
            return 0, report
        ts = round(time.time(), 3)
        writer.append(
            {"kind": "event", "event": "import_start", "ts": ts, "source": source, "source_head": last_h,
             "source_records": report.records}
        )  # fmt: skip
        for start in range(0, len(lines), 500):
            writer.append_many(
                [
                    {"kind": "imported", "source": source, "orig_seq": record.get("seq"), "orig_h": digest,
                     "record": {k: v for k, v in record.items() if k not in ("seq", "prev")}}
                    for record, digest in lines[start : start + 500]
                ]
            )  # fmt: skip
        writer.append({"kind": "event", "event": "import_end", "ts": round(time.time(), 3), "source": source,
                       "imported": len(lines)})  # fmt: skip
    finally:
        writer.close()
    return len(lines), report


def tail(dsn: str, limit: int = 20) -> list[dict[str, Any]]:
    """The last `limit` records, oldest first (for `limen log`-style reading)."""
    with connect(dsn) as conn:
        rows = conn.execute(f"SELECT line FROM {TABLE} ORDER BY seq DESC LIMIT %s", (limit,)).fetchall()
    return [decode(str(r[0]))[0] for r in reversed(rows)]


class PostgresIndex:
    """`limen log` over the chain in PostgreSQL: the file log's `audit.index.Index` interface (`sync`,
    `query`, `by_id`, `close`), answered by the table itself. Each line is the record's canonical JSON, so
    the filters are JSON lookups in SQL; the records come back as the file log's do (the hash `h` off).
    Reading takes no lock: writers are never held up by a reader."""

    def __init__(self, dsn: str) -> None:
        self._conn = connect(dsn)

    def sync(self) -> int:
        """Nothing to catch up: the table is the log."""
        return 0

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
        """Most recent first, as `Index.query`."""
        where, params = _matching(kinds, session=session, verdict=verdict, tool=tool, reason=reason)
        sql = f"SELECT line FROM {TABLE} WHERE {where} ORDER BY seq DESC LIMIT %s"
        params.append(max(limit, 0))
        return [_record(str(r[0])) for r in self._conn.execute(sql, params).fetchall()]

    def by_id(self, decision_id: str) -> dict[str, Any] | None:
        row = self._conn.execute(
            f"SELECT line FROM {TABLE} WHERE line LIKE %s AND (line::jsonb ->> 'id') = %s"
            " ORDER BY seq DESC LIMIT 1",
            (_containing(f'"id":{_json_string(decision_id)}'), decision_id),
        ).fetchone()
        return _record(str(row[0])) if row else None

    def close(self) -> None:
        self._conn.close()


class PostgresLogReader:
    """The console's log reader (`limen.console.logread.LogReader`'s `size`, `page`, `find`) over the chain
    in PostgreSQL: a record's position is its `seq`, the cursor the console's pages and "why" links carry."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn

    def size(self) -> int:
        with connect(self._dsn) as conn:
            row = conn.execute(f"SELECT COALESCE(MAX(seq), 0) FROM {TABLE}").fetchone()
        return int(row[0]) if row else 0

    def page(self, filters: Filters, *, before: int = 0, limit: int = 50) -> Page:
        """Up to `limit` matching records older than `seq` `before` (0: the newest), newest first."""
        from limen.console.logread import LISTED_KINDS, Entry, Page

        where, params = _matching(
            LISTED_KINDS,
            session=filters.session,
            verdict=filters.verdict,
            tool=filters.tool,
            reason=filters.reason,
        )
        sql = f"SELECT seq, line FROM {TABLE} WHERE {where}"
        if before > 0:
            sql += " AND seq < %s"
            params.append(before)
        if filters.since:
            sql += " AND (line::jsonb ->> 'ts')::float8 >= %s"
            params.append(filters.since)
        if filters.until:
            sql += " AND (line::jsonb ->> 'ts')::float8 <= %s"
            params.append(filters.until)
        sql += " ORDER BY seq DESC LIMIT %s"
        params.append(max(limit, 0))
        with connect(self._dsn) as conn:
            rows = conn.execute(sql, params).fetchall()
        entries = [Entry(int(seq), _record(str(line))) for seq, line in rows]
        older = entries[-1].offset if len(entries) >= limit and entries else 0
        return Page(entries, older, False)

    def find(self, decision_id: str, *, at: int = -1, near: float = 0.0) -> Entry | None:
        """The record with `decision_id`: the one at `seq` `at` when that is it, else the newest with it."""
        from limen.console.logread import Entry

        if not (0 < len(decision_id) <= 40 and decision_id.isalnum()):
            return None
        with connect(self._dsn) as conn:
            row = None
            if at > 0:
                row = conn.execute(
                    f"SELECT seq, line FROM {TABLE} WHERE seq = %s AND (line::jsonb ->> 'id') = %s",
                    (at, decision_id),
                ).fetchone()
            if row is None:
                row = conn.execute(
                    f"SELECT seq, line FROM {TABLE} WHERE line LIKE %s AND (line::jsonb ->> 'id') = %s"
                    " ORDER BY seq DESC LIMIT 1",
                    (_containing(f'"id":{_json_string(decision_id)}'), decision_id),
                ).fetchone()
        return Entry(int(row[0]), _record(str(row[1]))) if row else None


def _matching(
    kinds: tuple[str, ...], *, session: str | None, verdict: str | None, tool: str | None, reason: str | None
) -> tuple[str, list[Any]]:
    """The WHERE clause (and its parameters) of the records of `kinds` that the filters given select; each
    filter tests the line's text first, so a scan parses only the lines that can match."""
    sql = "(line::jsonb ->> 'kind') = ANY(%s)"
    params: list[Any] = [list(kinds)]
    for key, value in (("session", session), ("verdict", verdict), ("tool", tool)):
        if value:
            sql += f" AND line LIKE %s AND (line::jsonb ->> '{key}') = %s"
            params += [_containing(f'"{key}":{_json_string(value)}'), value]
    if reason:
        sql += " AND line LIKE %s AND (line::jsonb -> 'reasons') ? %s"
        params += [_containing(_json_string(reason)), reason]
    return sql, params


def _json_string(value: str) -> str:
    """`value` as the canonical encoder writes it in a line (`audit.chain.canonical`)."""
    import json

    return json.dumps(value, ensure_ascii=False)


def _containing(text: str) -> str:
    """A LIKE pattern matching lines that contain `text` literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _record(line: str) -> dict[str, Any]:
    record, _, _ = decode(line)
    return record
