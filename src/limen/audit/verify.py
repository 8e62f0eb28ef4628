"""`limen audit verify`: is the log exactly what the writers wrote?

Detects an edited byte (the line's hash), a deleted, inserted or reordered record (`seq` and `prev`), a
truncated tail (the signed head names a later record), and a chain recomputed wholesale by someone without the
key (checkpoint MACs and the head's MAC no longer verify). A fragment left by a writer killed mid-write is
only a note when the chain runs intact around it.
"""

from __future__ import annotations

import hmac
import json
import os
from dataclasses import dataclass, field

from limen.audit import CHECKPOINT_EVERY, GENESIS, HEAD_NAME, LOG_NAME, default_dir
from limen.audit.chain import decode, mac
from limen.state.keys import installation_key


@dataclass(slots=True)
class Report:
    records: int = 0
    checkpoints: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _read_head(directory: str) -> dict[str, object] | None:
    try:
        with open(os.path.join(directory, HEAD_NAME), "rb") as fh:
            raw = fh.read().strip()
    except FileNotFoundError:
        return None
    head = json.loads(raw.decode()) if raw else None
    return head if isinstance(head, dict) else None


def verify(directory: str | None = None, *, home: str | None = None, max_problems: int = 20) -> Report:
    directory = directory or default_dir()
    key = installation_key("audit", home)
    report = Report()
    seen: dict[int, str] = {}
    expected_seq, prev = 1, GENESIS
    path = os.path.join(directory, LOG_NAME)
    if not os.path.exists(path):
        if os.path.exists(os.path.join(directory, HEAD_NAME)):
            report.problems.append("the log is missing but its signed head exists")
        return report
    suspects: list[int] = []  # lines that hold no record: a torn write, or an edit
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, 1):
            if len(report.problems) >= max_problems:
                report.problems.append("too many problems; stopped")
                break
            try:
                if not raw.endswith(b"\n"):
                    raise ValueError("torn")
                record, digest, intact = decode(raw.decode().rstrip("\n"))
                seq = int(record["seq"])
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                suspects.append(number)
                continue
            chained = seq == expected_seq and record.get("prev") == prev
            _settle(report, suspects, chained)
            if not intact:
                report.problems.append(f"line {number} (seq {seq}): content does not match its hash")
            if seq != expected_seq:
                report.problems.append(
                    f"line {number}: seq {seq} where {expected_seq} was expected "
                    "(a record was removed, inserted or moved)"
                )
            if record.get("prev") != prev:
                report.problems.append(f"line {number} (seq {seq}): does not chain to the record before it")
            _check_checkpoint(report, key, record, seq)
            seen[seq] = digest
            report.records += 1
            expected_seq, prev = seq + 1, digest
    _settle(report, suspects, True)
    _check_head(directory, key, seen, expected_seq - 1, report)
    return report


def _settle(report: Report, suspects: list[int], chained: bool) -> None:
    """Lines without a record are harmless only when the chain runs intact around them: a writer killed
    mid-write leaves such a fragment, and the next writer starts a fresh line. Otherwise they are edits."""
    for number in suspects:
        if chained:
            report.notes.append(
                f"line {number}: fragment of an interrupted write; the chain is intact around it"
            )
        else:
            report.problems.append(f"line {number}: not a valid record")
    suspects.clear()


def _check_checkpoint(report: Report, key: bytes, record: dict[str, object], seq: int) -> None:
    is_checkpoint = record.get("kind") == "checkpoint"
    if seq % CHECKPOINT_EVERY == 0 and not is_checkpoint:
        report.problems.append(f"seq {seq}: the checkpoint due here is missing")
    if is_checkpoint:
        report.checkpoints += 1
        if not hmac.compare_digest(str(record.get("mac", "")), mac(key, seq, str(record.get("prev")))):
            report.problems.append(f"seq {seq}: checkpoint signature is invalid (chain rewritten)")


def _check_head(directory: str, key: bytes, seen: dict[int, str], last: int, report: Report) -> None:
    try:
        head = _read_head(directory)
    except (ValueError, UnicodeDecodeError):
        report.problems.append("the signed head is unreadable")
        return
    if head is None:
        if report.records:
            report.problems.append("the signed head is missing")
        return
    seq, digest = int(str(head.get("seq", -1))), str(head.get("h", ""))
    if not hmac.compare_digest(str(head.get("mac", "")), mac(key, seq, digest)):
        report.problems.append("the head's signature is invalid (log replaced or chain rewritten)")
    elif seq not in seen:
        report.problems.append(f"the log ends at seq {last} but the signed head names seq {seq} (truncated)")
    elif seen[seq] != digest:
        report.problems.append(f"seq {seq} differs from the signed head (rewritten)")
    elif last > seq:
        report.notes.append(f"{last - seq} record(s) after the signed head (a writer stopped mid-append)")
