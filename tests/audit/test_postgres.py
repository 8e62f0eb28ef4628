"""The audit chain on a real PostgreSQL: concurrent writer processes serialised without losing or reordering
a record, the table append-only, tampering found by verification, and a file log exported into it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from limen.audit import CHECKPOINT_EVERY
from limen.audit.chain import decode
from limen.audit.postgres import PostgresAuditWriter, export_file_log, verify_postgres
from limen.audit.writer import AuditWriter

WRITER = """
import sys
from limen.audit.postgres import PostgresAuditWriter
w = PostgresAuditWriter(sys.argv[1])
for i in range(int(sys.argv[3])):
    w.append({"kind": "event", "event": "test", "writer": sys.argv[2], "i": i})
w.close()
"""


def _records(dsn: str) -> list[dict[str, object]]:
    with psycopg.connect(dsn) as conn:
        return [decode(r[0])[0] for r in conn.execute("SELECT line FROM limen_audit ORDER BY seq")]


def test_concurrent_writer_processes_lose_and_reorder_nothing(postgres_dsn: str, limen_home: Path) -> None:
    per_writer = 90
    env = {**os.environ, "LIMEN_HOME": str(limen_home)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, postgres_dsn, str(n), str(per_writer)], env=env)
        for n in range(4)
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    records = _records(postgres_dsn)
    events = [r for r in records if r["kind"] == "event"]
    assert len(events) == 4 * per_writer
    for n in range(4):  # each writer's records, in the order it wrote them, each once
        assert [r["i"] for r in events if r["writer"] == str(n)] == list(range(per_writer))
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert sum(r["kind"] == "checkpoint" for r in records) == len(records) // CHECKPOINT_EVERY
    report = verify_postgres(postgres_dsn)
    assert report.ok and report.records == len(records) and report.checkpoints == 1, report.problems


def test_the_table_refuses_updates_and_deletes(postgres_dsn: str) -> None:
    writer = PostgresAuditWriter(postgres_dsn)
    writer.append({"kind": "event", "event": "x"})
    writer.close()
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        for statement in (
            "UPDATE limen_audit SET line = 'x'",
            "DELETE FROM limen_audit",
            "TRUNCATE limen_audit",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
    assert verify_postgres(postgres_dsn).ok


def _bypassing_triggers(dsn: str, statement: str) -> None:
    """What a database superuser can do: write with triggers off."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute(statement)


def test_verification_finds_an_edited_a_removed_and_a_truncated_record(postgres_dsn: str) -> None:
    writer = PostgresAuditWriter(postgres_dsn)
    for i in range(10):
        writer.append({"kind": "event", "event": "x", "verdict": "BLOCK", "i": i})
    assert verify_postgres(postgres_dsn).ok
    _bypassing_triggers(
        postgres_dsn, "UPDATE limen_audit SET line = replace(line, 'BLOCK', 'PASS') WHERE seq = 3"
    )
    assert any("seq 3: content does not match its hash" in p for p in verify_postgres(postgres_dsn).problems)
    _bypassing_triggers(postgres_dsn, "DELETE FROM limen_audit WHERE seq = 3")
    problems = verify_postgres(postgres_dsn).problems
    assert any("seq 4 where 3 was expected" in p for p in problems)
    _bypassing_triggers(postgres_dsn, "DELETE FROM limen_audit WHERE seq >= 9")
    assert any("signed head names seq 10" in p for p in verify_postgres(postgres_dsn).problems)
    writer.append({"kind": "event", "event": "after"})  # the next writer records the break it finds
    records = _records(postgres_dsn)
    assert records[-2]["kind"] == "chain_break" and records[-1]["event"] == "after"
    assert any("chain break found by a writer" in p for p in verify_postgres(postgres_dsn).problems)
    writer.close()


def test_a_chain_rewritten_without_the_key_is_found(postgres_dsn: str, limen_home: Path) -> None:
    writer = PostgresAuditWriter(postgres_dsn)
    writer.append({"kind": "event", "event": "x"})
    writer.close()
    (limen_home / "keys" / "audit.key").write_text("00" * 32)  # verifying with another key: as a forger signs
    from limen.state import keys

    keys._cache.clear()
    assert any("signature of the signed head is invalid" in p for p in verify_postgres(postgres_dsn).problems)


def test_a_file_log_is_exported_once_and_only_when_it_verifies(
    postgres_dsn: str, tmp_path: Path, limen_home: Path
) -> None:
    directory = str(tmp_path / "audit")
    log = AuditWriter(directory)
    for i in range(5):
        log.append({"kind": "event", "event": "local", "i": i})
    log.close()
    imported, source = export_file_log(directory, postgres_dsn)
    assert imported == 5 and source.ok
    records = _records(postgres_dsn)
    assert [r["kind"] for r in records] == ["event", *["imported"] * 5, "event"]
    assert [r["record"]["i"] for r in records[1:6]] == list(range(5))  # type: ignore[index]
    assert [r["orig_seq"] for r in records[1:6]] == [1, 2, 3, 4, 5]
    assert verify_postgres(postgres_dsn).ok
    again, report = export_file_log(directory, postgres_dsn)
    assert again == 0 and any("imported already" in p for p in report.problems)
    path = Path(directory) / "decisions.jsonl"
    path.write_text(path.read_text().replace('"i":2', '"i":7'))
    tampered, report = export_file_log(directory, postgres_dsn)
    assert tampered == 0 and not report.ok


def test_limen_audit_verify_reads_postgres(postgres_dsn: str, limen_home: Path) -> None:
    writer = PostgresAuditWriter(postgres_dsn)
    writer.append({"kind": "event", "event": "x"})
    writer.close()
    env = {**os.environ, "LIMEN_HOME": str(limen_home)}
    command = [sys.executable, "-m", "limen", "audit", "verify", "--postgres", postgres_dsn]
    ok = subprocess.run(command, env=env, capture_output=True, text=True)
    assert ok.returncode == 0 and "audit log OK: 1 records" in ok.stdout
    _bypassing_triggers(postgres_dsn, "UPDATE limen_audit SET line = replace(line, 'x', 'y')")
    bad = subprocess.run(command, env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "TAMPERED" in bad.stdout


def test_threads_of_one_writer_are_committed_in_groups_each_record_once(postgres_dsn: str) -> None:
    import threading

    writer = PostgresAuditWriter(postgres_dsn)
    returned: dict[tuple[int, int], int] = {}

    def write(n: int) -> None:
        for i in range(60):
            returned[(n, i)] = writer.append({"kind": "event", "event": "t", "writer": n, "i": i})

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    by_seq = {r["seq"]: r for r in _records(postgres_dsn)}
    assert len(returned) == 480 and len(set(returned.values())) == 480
    for (n, i), seq in returned.items():  # the seq each thread was told holds its own record
        assert (by_seq[seq]["writer"], by_seq[seq]["i"]) == (n, i)
    for n in range(8):
        mine = sorted((seq, i) for (w, i), seq in returned.items() if w == n)
        assert [i for _, i in mine] == list(range(60))  # in the order the thread wrote them
    assert verify_postgres(postgres_dsn).ok


def test_a_tail_cut_with_an_older_signed_head_put_back_is_found_by_the_anchor(postgres_dsn: str) -> None:
    """The head's own signature cannot tell an older signed head from the real one; the anchor this machine
    keeps outside the database can."""
    writer = PostgresAuditWriter(postgres_dsn)
    for i in range(5):
        writer.append({"kind": "event", "event": "x", "i": i})
    with psycopg.connect(postgres_dsn) as conn:
        old_head = conn.execute("SELECT seq, h, mac FROM limen_audit_head").fetchone()
    for i in range(5, 9):
        writer.append({"kind": "event", "event": "x", "i": i})
    writer.close()
    assert verify_postgres(postgres_dsn).ok
    assert old_head is not None
    _bypassing_triggers(postgres_dsn, "DELETE FROM limen_audit WHERE seq > 5")
    _bypassing_triggers(
        postgres_dsn,
        f"UPDATE limen_audit_head SET seq = {old_head[0]}, h = '{old_head[1]}', mac = '{old_head[2]}'",
    )
    problems = verify_postgres(postgres_dsn).problems
    assert problems and all("up to seq 9" in p for p in problems), problems
