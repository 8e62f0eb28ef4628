"""`limen audit verify` catches every way of editing the log after the fact."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limen.audit import CHECKPOINT_EVERY, HEAD_NAME, LOG_NAME
from limen.audit.chain import encode
from limen.audit.verify import verify
from limen.audit.writer import AuditWriter

RECORDS = CHECKPOINT_EVERY * 2 + 40  # spans two checkpoints and a signed tail


def _write(directory: Path, count: int = RECORDS) -> list[bytes]:
    writer = AuditWriter(str(directory), fsync_every=0)
    for i in range(count):
        writer.append({"kind": "decision", "id": f"d{i}", "tool": "Bash", "verdict": "PASS", "risk": i % 100})
    writer.close()
    return (directory / LOG_NAME).read_bytes().splitlines(keepends=True)


def _rewrite(directory: Path, lines: list[bytes]) -> None:
    (directory / LOG_NAME).write_bytes(b"".join(lines))


@pytest.fixture
def audit_dir(tmp_path: Path) -> Path:
    return tmp_path / "audit"


def test_an_untouched_log_verifies(audit_dir: Path) -> None:
    lines = _write(audit_dir)
    report = verify(str(audit_dir))
    assert report.ok, report.problems
    assert report.records == len(lines) and report.checkpoints == 2


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(position=st.floats(0, 1, exclude_max=True), mask=st.integers(1, 255))
def test_any_flipped_byte_is_detected(
    tmp_path_factory: pytest.TempPathFactory, position: float, mask: int
) -> None:
    directory = tmp_path_factory.mktemp("flip")
    _write(directory, 300)
    path = directory / LOG_NAME
    data = bytearray(path.read_bytes())
    index = int(position * len(data))
    data[index] ^= mask
    path.write_bytes(bytes(data))
    assert not verify(str(directory)).ok


def test_a_dropped_record_is_detected(audit_dir: Path) -> None:
    lines = _write(audit_dir)
    _rewrite(audit_dir, lines[:100] + lines[101:])
    report = verify(str(audit_dir))
    assert not report.ok and any("seq" in p for p in report.problems)


def test_two_reordered_records_are_detected(audit_dir: Path) -> None:
    lines = _write(audit_dir)
    lines[10], lines[11] = lines[11], lines[10]
    _rewrite(audit_dir, lines)
    assert not verify(str(audit_dir)).ok


@pytest.mark.parametrize("cut", [1, 5, 40])
def test_truncation_is_detected(audit_dir: Path, cut: int) -> None:
    lines = _write(audit_dir)
    _rewrite(audit_dir, lines[:-cut])
    report = verify(str(audit_dir))
    assert not report.ok and any("truncated" in p for p in report.problems)


def test_a_torn_last_record_is_detected(audit_dir: Path) -> None:
    lines = _write(audit_dir)
    _rewrite(audit_dir, [*lines[:-1], lines[-1][:30]])
    assert not verify(str(audit_dir)).ok


def test_a_missing_head_is_detected(audit_dir: Path) -> None:
    _write(audit_dir)
    os.remove(audit_dir / HEAD_NAME)
    assert not verify(str(audit_dir)).ok


def _recompute(lines: list[bytes], edit: int, drop_checkpoints: bool) -> tuple[list[bytes], int, str]:
    """What a forger without the key can do: edit a record, then rebuild every hash, seq and prev after it."""
    records = [json.loads(line) for line in lines]
    for record in records:
        record.pop("h")
    records[edit]["verdict"] = "BLOCK"
    if drop_checkpoints:
        records = [r for r in records if r["kind"] != "checkpoint"]
    out, prev = [], "0" * 64
    for seq, record in enumerate(records, 1):
        record["seq"], record["prev"] = seq, prev
        line, prev = encode(record)
        out.append(line.encode())
    return out, len(records), prev


@pytest.mark.parametrize("drop_checkpoints", [False, True])
@pytest.mark.parametrize("count", [40, RECORDS])
def test_a_chain_recomputed_without_the_key_is_detected(
    audit_dir: Path, count: int, drop_checkpoints: bool
) -> None:
    lines = _write(audit_dir, count)
    forged, last, digest = _recompute(lines, 20, drop_checkpoints)
    _rewrite(audit_dir, forged)
    head = {"seq": last, "h": digest, "mac": "0" * 64}  # the forger cannot sign
    (audit_dir / HEAD_NAME).write_text(json.dumps(head))
    report = verify(str(audit_dir))
    assert not report.ok
    assert any("signature" in p or "checkpoint" in p for p in report.problems)


def test_a_new_writer_continues_the_chain_of_another(audit_dir: Path) -> None:
    _write(audit_dir, 10)
    _write(audit_dir, 10)
    report = verify(str(audit_dir))
    assert report.ok and report.records == 20


def test_a_fragment_from_a_killed_writer_is_only_a_note(audit_dir: Path) -> None:
    lines = _write(audit_dir, 10)
    with open(audit_dir / LOG_NAME, "ab") as fh:
        fh.write(lines[-1][:25])  # what a writer killed inside write() leaves behind
    _write(audit_dir, 5)  # the next writer starts a fresh line and chains to the last whole record
    report = verify(str(audit_dir))
    assert report.ok, report.problems
    assert report.records == 15 and any("fragment" in n for n in report.notes)
