"""The writer checks the log's tail against the signed head before every append (issue 9, item 3).

Before this check, deleting the log's tail and letting one more decision append made the truncation
undetectable: the writer chained onto whatever the file ended with and re-signed `head.json` over it. Now a
tail that does not match the signed head (or its anchor outside the audit directory) is appended to, never
lost, behind a `chain_break` record that `limen audit verify` reports for as long as the log exists.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from limen.audit import GENESIS, HEAD_NAME, LOG_NAME, anchor_path
from limen.audit.chain import encode, mac
from limen.audit.verify import verify
from limen.audit.writer import AuditWriter
from limen.state.keys import installation_key


def _append(directory: Path, count: int, start: int = 0) -> None:
    """`count` decisions from a fresh writer, as one hook process would append them."""
    writer = AuditWriter(str(directory), fsync_every=0)
    for i in range(start, start + count):
        writer.append({"kind": "decision", "id": f"d{i}", "verdict": "PASS"})
    writer.close()


def _lines(directory: Path) -> list[bytes]:
    return (directory / LOG_NAME).read_bytes().splitlines(keepends=True)


def _records(directory: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in _lines(directory)]


def _breaks(directory: Path) -> list[dict[str, object]]:
    return [r for r in _records(directory) if r["kind"] == "chain_break"]


@pytest.fixture
def audit_dir(tmp_path: Path) -> Path:
    return tmp_path / "audit"


def test_a_truncated_tail_stays_detected_after_more_appends(audit_dir: Path) -> None:
    _append(audit_dir, 30)
    (audit_dir / LOG_NAME).write_bytes(b"".join(_lines(audit_dir)[:-5]))
    _append(audit_dir, 3, start=30)
    _append(audit_dir, 3, start=33)  # later appends do not bury the break
    ids = [r.get("id") for r in _records(audit_dir)]
    assert ids[-6:] == [f"d{i}" for i in range(30, 36)]  # nothing the later writers appended is lost
    (brk,) = _breaks(audit_dir)
    assert brk["expected"] == {"seq": 30, "h": brk["expected"]["h"]}  # type: ignore[index]
    assert brk["found"]["seq"] == 25  # type: ignore[index]
    report = verify(str(audit_dir))
    assert not report.ok
    assert any("chain break" in p and "seq 30" in p and "seq 25" in p for p in report.problems)


def test_a_rewritten_last_record_is_not_signed_over(audit_dir: Path) -> None:
    _append(audit_dir, 10)
    lines = _lines(audit_dir)
    record = json.loads(lines[-1])
    record.pop("h")
    record["verdict"] = "BLOCK"
    forged, _ = encode(record)  # a well-formed record with a fresh hash: only the signed head tells
    (audit_dir / LOG_NAME).write_bytes(b"".join(lines[:-1]) + forged.encode())
    _append(audit_dir, 1, start=10)
    assert len(_breaks(audit_dir)) == 1
    assert any("chain break" in p for p in verify(str(audit_dir)).problems)


def test_a_deleted_log_starts_a_new_one_that_records_the_break(audit_dir: Path) -> None:
    _append(audit_dir, 10)
    os.remove(audit_dir / LOG_NAME)
    _append(audit_dir, 1, start=10)
    records = _records(audit_dir)
    assert [r["kind"] for r in records] == ["chain_break", "decision"]
    assert records[0]["expected"]["seq"] == 10 and records[0]["found"]["seq"] == 0  # type: ignore[index]
    assert not verify(str(audit_dir)).ok


def test_deleting_the_tail_and_the_head_is_caught_by_the_anchor(audit_dir: Path) -> None:
    _append(audit_dir, 20)
    (audit_dir / LOG_NAME).write_bytes(b"".join(_lines(audit_dir)[:-4]))
    os.remove(audit_dir / HEAD_NAME)
    report = verify(str(audit_dir))
    assert any("anchor" in p and "truncated" in p for p in report.problems), report.problems
    _append(audit_dir, 1, start=20)
    assert _breaks(audit_dir)[0]["expected"]["seq"] == 20  # type: ignore[index]
    assert not verify(str(audit_dir)).ok


def test_deleting_the_whole_audit_directory_is_caught_by_the_anchor(audit_dir: Path) -> None:
    _append(audit_dir, 20)
    shutil.rmtree(audit_dir)
    report = verify(str(audit_dir))
    assert any("anchor" in p for p in report.problems), report.problems
    _append(audit_dir, 1, start=20)
    assert not verify(str(audit_dir)).ok and len(_breaks(audit_dir)) == 1


def test_the_anchor_lives_outside_the_audit_directory_and_is_signed(
    audit_dir: Path, limen_home: Path
) -> None:
    _append(audit_dir, 5)
    anchor = Path(anchor_path(str(audit_dir)))
    assert limen_home in anchor.parents and audit_dir not in anchor.parents
    assert json.loads(anchor.read_bytes()) == json.loads((audit_dir / HEAD_NAME).read_bytes())
    head = json.loads(anchor.read_bytes())
    anchor.write_text(json.dumps({**head, "seq": 4}))  # a rolled-back anchor without the key
    assert any("anchor" in p and "signature" in p for p in verify(str(audit_dir)).problems)
    anchor.unlink()
    assert any("anchor is missing" in p for p in verify(str(audit_dir)).problems)


def test_a_long_lived_writer_notices_a_truncation_between_its_appends(audit_dir: Path) -> None:
    writer = AuditWriter(str(audit_dir), fsync_every=0)  # the daemon's writer, open across decisions
    for i in range(10):
        writer.append({"kind": "decision", "id": f"d{i}"})
    os.truncate(audit_dir / LOG_NAME, len(b"".join(_lines(audit_dir)[:-3])))
    writer.append({"kind": "decision", "id": "after"})
    writer.close()
    assert _records(audit_dir)[-1]["id"] == "after" and len(_breaks(audit_dir)) == 1
    assert not verify(str(audit_dir)).ok


def test_a_long_lived_writer_follows_a_deleted_log_to_the_new_file(audit_dir: Path) -> None:
    writer = AuditWriter(str(audit_dir), fsync_every=0)
    writer.append({"kind": "decision", "id": "before"})
    os.remove(audit_dir / LOG_NAME)  # its descriptor still names the deleted file: nothing may go there
    writer.append({"kind": "decision", "id": "after"})
    writer.close()
    assert [r.get("id") for r in _records(audit_dir)] == [None, "after"]
    assert _breaks(audit_dir)[0]["expected"]["seq"] == 1  # type: ignore[index]


def test_a_long_lived_writer_outlives_the_deletion_of_both_directories(audit_dir: Path) -> None:
    writer = AuditWriter(str(audit_dir), fsync_every=0)
    writer.append({"kind": "decision", "id": "before"})
    shutil.rmtree(audit_dir)
    shutil.rmtree(Path(anchor_path(str(audit_dir))).parent)
    writer.append({"kind": "decision", "id": "after"})  # recorded, not an error on every call from now on
    writer.close()
    assert [r["kind"] for r in _records(audit_dir)] == ["chain_break", "decision"]
    assert Path(anchor_path(str(audit_dir))).exists() and not verify(str(audit_dir)).ok


@pytest.mark.parametrize("stale", [[HEAD_NAME], ["anchor"], [HEAD_NAME, "anchor"]])
def test_a_writer_killed_before_signing_is_not_a_break(audit_dir: Path, stale: list[str]) -> None:
    """A writer killed after its record but before the head (or the anchor) leaves them one write behind;
    the next writer must recognise that as its own chain, not as tampering."""
    _append(audit_dir, 12)
    files = [audit_dir / HEAD_NAME if s == HEAD_NAME else Path(anchor_path(str(audit_dir))) for s in stale]
    saved = [f.read_bytes() for f in files]
    _append(audit_dir, 1, start=12)
    for f, data in zip(files, saved, strict=True):
        f.write_bytes(data)
    _append(audit_dir, 1, start=13)
    assert not _breaks(audit_dir)
    assert verify(str(audit_dir)).ok


def test_a_writer_killed_on_the_very_first_record_is_not_a_break(audit_dir: Path) -> None:
    """The first writer signs the empty chain before its record, so dying in between leaves that."""
    _append(audit_dir, 1)
    genesis = {"seq": 0, "h": GENESIS, "mac": mac(installation_key("audit"), 0, GENESIS)}
    for path in (audit_dir / HEAD_NAME, Path(anchor_path(str(audit_dir)))):
        path.write_text(json.dumps(genesis))
    _append(audit_dir, 1, start=1)
    assert [r["kind"] for r in _records(audit_dir)] == ["decision", "decision"]
    assert verify(str(audit_dir)).ok


KILLED = """
import os, sys
from limen.audit.writer import AuditWriter
w = AuditWriter(sys.argv[1], fsync_every=0)
w.append({"kind": "decision", "id": "d0"})
os.kill(os.getpid(), 9)
"""


def test_the_check_holds_across_real_processes(audit_dir: Path, limen_home: Path) -> None:
    env = {**os.environ, "LIMEN_HOME": str(limen_home)}
    proc = subprocess.run([sys.executable, "-c", KILLED, str(audit_dir)], env=env, check=False)
    assert proc.returncode == -9
    assert verify(str(audit_dir)).ok
    (audit_dir / LOG_NAME).write_bytes(b"")  # the tail (here: the whole log) deleted by someone else
    proc = subprocess.run([sys.executable, "-c", KILLED, str(audit_dir)], env=env, check=False)
    assert [r["kind"] for r in _records(audit_dir)] == ["chain_break", "decision"]
    assert not verify(str(audit_dir)).ok


def test_a_rolled_back_head_is_a_problem_and_a_break(audit_dir: Path) -> None:
    _append(audit_dir, 5)
    old = (audit_dir / HEAD_NAME).read_bytes()  # a validly signed head, kept for later
    _append(audit_dir, 10, start=5)
    (audit_dir / HEAD_NAME).write_bytes(old)
    assert any("rolled back" in p for p in verify(str(audit_dir)).problems)
    _append(audit_dir, 1, start=15)
    assert _breaks(audit_dir)[0]["found"]["seq"] == 15  # type: ignore[index]
