"""`limen audit verify`: is the log exactly what the writers wrote?

Detects an edited byte (the line's hash), a deleted, inserted or reordered record (`seq` and `prev`), a
truncated tail (the signed head, or its anchor outside the audit directory, names a later record), and a chain
recomputed wholesale by someone without the key (checkpoint MACs and the head's MAC no longer verify). A
`chain_break` record, which a writer appends when it finds the log does not end where the signed head says,
is a problem for as long as it is in the log: the break happened, whatever was appended after it. A fragment
left by a writer killed mid-write is only a note when the chain runs intact around it.
"""

from __future__ import annotations

import hmac
import json
import os
from dataclasses import dataclass, field

from limen.audit import CHECKPOINT_EVERY, GENESIS, HEAD_NAME, LOG_NAME, MAX_LAG, anchor_path, default_dir
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


def _read_head(path: str) -> dict[str, object] | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read().strip()
    except FileNotFoundError:
        return None
    head = json.loads(raw.decode()) if raw else None
    return head if isinstance(head, dict) else None


def verify(directory: str | None = None, *, home: str | None = None, max_problems: int = 20) -> Report:
    directory = directory or default_dir()
    key = installation_key("audit", home)
    report = Report()
    seen: dict[int, str] = {0: GENESIS}
    expected_seq, prev = 1, GENESIS
    path = os.path.join(directory, LOG_NAME)
    heads = (
        ("the signed head", os.path.join(directory, HEAD_NAME)),
        ("the head's anchor", anchor_path(directory, home)),
    )
    if not os.path.exists(path):
        if os.path.exists(heads[0][1]):
            report.problems.append("the log is missing but its signed head exists")
        _check_head(heads[1], key, seen, 0, report)
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
            if record.get("kind") == "chain_break":
                report.problems.append(_describe_break(record, seq))
            seen[seq] = digest
            report.records += 1
            expected_seq, prev = seq + 1, digest
    _settle(report, suspects, True)
    for head in heads:
        _check_head(head, key, seen, expected_seq - 1, report)
    return report


def _describe_break(record: dict[str, object], seq: int) -> str:
    def fingerprint(head: object) -> str:
        if not isinstance(head, dict):
            return "no signed head"
        return f"seq {head.get('seq')} ({str(head.get('h', ''))[:12]})"

    return (
        f"seq {seq}: chain break found by a writer: the log ended at {fingerprint(record.get('found'))} "
        f"where {fingerprint(record.get('expected'))} was signed ({record.get('why')})"
    )


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


def _check_head(
    head_file: tuple[str, str], key: bytes, seen: dict[int, str], last: int, report: Report
) -> None:
    """The signed head (or its anchor) must name a record the log holds, with that record's hash."""
    name, path = head_file
    try:
        head = _read_head(path)
    except (ValueError, UnicodeDecodeError):
        report.problems.append(f"{name} is unreadable")
        return
    if head is None:
        if report.records:
            report.problems.append(f"{name} is missing")
        return
    seq, digest = int(str(head.get("seq", -1))), str(head.get("h", ""))
    if not hmac.compare_digest(str(head.get("mac", "")), mac(key, seq, digest)):
        report.problems.append(f"the signature of {name} is invalid (log replaced or chain rewritten)")
    elif seq not in seen:
        report.problems.append(f"the log ends at seq {last} but {name} names seq {seq} (truncated)")
    elif seen[seq] != digest:
        report.problems.append(f"seq {seq} differs from {name} (rewritten)")
    elif last - seq > MAX_LAG:
        report.problems.append(f"{name} names seq {seq}, {last - seq} records before the end (rolled back)")
    elif last > seq:
        report.notes.append(f"{last - seq} record(s) after {name} (a writer stopped mid-append)")
