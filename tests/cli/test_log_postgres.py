"""`limen log` and `limen audit verify` on the chain `limen serve` keeps in a real PostgreSQL: named with
`--postgres`, or found in `LIMEN_HOME/serve.yaml`; a database that cannot be read is an error, never a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from limen.model import Verdict


def _limen(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *argv],
        env={**os.environ, "LIMEN_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def decided(postgres_dsn: str, workspace: str) -> dict[str, str]:
    """Three decisions recorded in PostgreSQL as `limen serve` records them; their ids by verdict."""
    from limen.serve.app import ServeRuntime

    runtime = ServeRuntime(workspace=workspace, audit_sink=postgres_dsn, audit_failure="deny")
    ids = {}
    for verdict, (tool, arguments) in {
        "PASS": ("Read", {"file_path": "README.md"}),
        "BLOCK": ("Bash", {"command": "rm -rf /"}),
    }.items():
        decision = runtime.decide(tool, arguments, session_id=f"pg-{verdict}", door="sdk")
        assert decision.verdict is Verdict[verdict]
        ids[verdict] = decision.decision_id
    runtime.audit_event("mcp_tool_hidden", server="s", tool="t")
    runtime.close()
    return ids


def test_log_reads_the_database_serve_yaml_names(
    decided: dict[str, str],
    postgres_dsn: str,
    limen_home: Path,
) -> None:
    (limen_home / "serve.yaml").write_text(f"audit: '{postgres_dsn}'\n")
    listed = _limen("log", "--json", home=limen_home)
    assert listed.returncode == 0, listed.stderr
    records = json.loads(listed.stdout)
    assert [r["id"] for r in records] == [decided["PASS"], decided["BLOCK"]]  # oldest first, no events
    blocked = json.loads(_limen("log", "--verdict", "BLOCK", "--json", home=limen_home).stdout)
    assert [r["id"] for r in blocked] == [decided["BLOCK"]]
    by_reason = json.loads(_limen("log", "--reason", "destructive_command", "--json", home=limen_home).stdout)
    assert [r["id"] for r in by_reason] == [decided["BLOCK"]]
    by_session = json.loads(_limen("log", "--session", "pg-PASS", "--json", home=limen_home).stdout)
    assert [r["id"] for r in by_session] == [decided["PASS"]]
    why = _limen("log", "--why", decided["BLOCK"], home=limen_home)
    assert why.returncode == 0 and "destructive_command" in why.stdout
    assert _limen("log", "--why", "0000000000000000", home=limen_home).returncode == 1
    # --dir still reads the (empty) file log
    assert "no decisions" in _limen("log", "--dir", str(limen_home / "audit"), home=limen_home).stdout


def test_audit_verify_checks_the_configured_database_and_finds_tampering(
    decided: dict[str, str],
    postgres_dsn: str,
    limen_home: Path,
) -> None:
    (limen_home / "serve.yaml").write_text(f"audit: '{postgres_dsn}'\n")
    clean = _limen("audit", "verify", "--json", home=limen_home)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert json.loads(clean.stdout)["records"] >= 3
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:  # a superuser edits behind the triggers
        conn.execute("ALTER TABLE limen_audit DISABLE TRIGGER USER")
        conn.execute(
            "UPDATE limen_audit SET line = replace(line, '\"BLOCK\"', '\"PASS\"') WHERE line LIKE %s",
            (f"%{decided['BLOCK']}%",),
        )
    tampered = _limen("audit", "verify", home=limen_home)
    assert tampered.returncode == 1 and "TAMPERED" in tampered.stdout


def test_an_unreadable_database_or_configuration_is_an_error_not_a_traceback(
    limen_home: Path, tmp_path: Path
) -> None:
    (limen_home / "serve.yaml").write_text(f"audit: 'host={tmp_path} port=9 dbname=nowhere user=x'\n")
    for argv in (("log",), ("audit", "verify")):
        out = _limen(*argv, home=limen_home)
        assert out.returncode == 2 and "cannot be read" in out.stderr and "Traceback" not in out.stderr
    (limen_home / "serve.yaml").write_text("audit: [not, a, string]\n")
    out = _limen("log", home=limen_home)
    assert out.returncode == 2 and "serve.yaml:1: audit" in out.stderr


def test_filters_match_values_exactly_whatever_they_contain(postgres_dsn: str) -> None:
    from limen.audit.postgres import PostgresAuditWriter, PostgresIndex

    writer = PostgresAuditWriter(postgres_dsn)
    for session in ("a_b%", "axbyz", 'q"uote\\d', "é-session"):
        writer.append({"kind": "decision", "id": session.encode().hex()[:16], "session": session, "ts": 1.0})
    writer.close()
    index = PostgresIndex(postgres_dsn)
    try:
        for session in ("a_b%", 'q"uote\\d', "é-session"):
            assert [r["session"] for r in index.query(session=session)] == [session]
        assert index.query(session="a%") == []  # a pattern character is a character, not a wildcard
        assert index.by_id(b"a_b%".hex()[:16]) is not None
    finally:
        index.close()
