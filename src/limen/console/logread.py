"""Paging through the audit log from its end, so a console page costs the same with 100 or 10^6 records.

The log (`decisions.jsonl`) is appended in time order and is the truth; the console never loads it whole
and never builds an index of it. A page reads blocks backwards from a byte offset (the end, or the cursor
the previous page handed out) until it holds `limit` matching records or has read `SCAN_BUDGET` bytes; it
then says where the next page starts, so a narrow filter over a long log is paged through in bounded steps
instead of one long scan. Cheap byte tests (the record's JSON spelling of the filtered value) skip most
non-matching lines before any JSON is parsed; the parsed record is then checked exactly. A time window
(`until`) is found by bisecting the file on the records' `ts`. One record is found again by the byte
offset its row links to (checked against its id), else by a bounded scan from the end.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from limen.audit import LOG_NAME, default_dir
from limen.audit.chain import decode

CHUNK = 65536
SCAN_BUDGET = 8 * 1024 * 1024  # bytes one page reads at most
RECENT_BUDGET = 1024 * 1024  # bytes a lookup by id reads back from the end before it bisects
FIND_BUDGET = 32 * 1024 * 1024  # bytes a lookup by id reads at most when it has no offset or time
MAX_LINE = 1024 * 1024  # a record line longer than this is not read back by offset
NEAR_SLACK = 5.0  # seconds: writers append in time order only to within their own clocks and locks
LISTED_KINDS = ("decision", "output")
_KIND_BYTES = tuple(f'"kind":"{kind}"'.encode() for kind in LISTED_KINDS)


@dataclass(frozen=True, slots=True)
class Filters:
    """What the log page filters on; empty strings and zero times filter nothing."""

    verdict: str = ""
    reason: str = ""
    tool: str = ""
    session: str = ""
    since: float = 0.0
    until: float = 0.0

    def needles(self) -> list[bytes]:
        """Byte strings every matching line contains (values spelled as the canonical JSON spells them)."""
        out: list[bytes] = []
        if self.verdict:
            out.append(f'"verdict":{_json(self.verdict)}'.encode())
        if self.tool:
            out.append(f'"tool":{_json(self.tool)}'.encode())
        if self.session:
            out.append(f'"session":{_json(self.session)}'.encode())
        if self.reason:
            out.append(_json(self.reason).encode())
        return out

    def matches(self, record: dict[str, Any]) -> bool:
        if record.get("kind") not in LISTED_KINDS:
            return False
        if self.verdict and record.get("verdict") != self.verdict:
            return False
        if self.tool and record.get("tool") != self.tool:
            return False
        if self.session and record.get("session") != self.session:
            return False
        if self.reason and self.reason not in (record.get("reasons") or []):
            return False
        ts = _ts(record)
        return not (self.until and ts > self.until) and not (self.since and ts < self.since)


@dataclass(frozen=True, slots=True)
class Entry:
    offset: int  # where the record's line starts in the log (the "why" link carries it)
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Page:
    entries: list[Entry]  # newest first
    older: int  # the cursor of the next (older) page; 0 when the start of the log was reached
    budget_spent: bool  # the page stopped because it read SCAN_BUDGET bytes, not because it was full


class LogReader:
    """Reads the audit log in `directory` (default `LIMEN_HOME/audit`) backwards, a page at a time."""

    def __init__(self, directory: str | None = None) -> None:
        self.path = os.path.join(directory or default_dir(), LOG_NAME)

    def size(self) -> int:
        try:
            return os.path.getsize(self.path)
        except OSError:
            return 0

    def page(self, filters: Filters, *, before: int = 0, limit: int = 50) -> Page:
        """Up to `limit` matching records that start before byte `before` (0: the end of the log)."""
        size = self.size()
        end = size if before <= 0 or before > size else before
        entries: list[Entry] = []
        if size == 0:
            return Page(entries, 0, False)
        needles = filters.needles()
        with open(self.path, "rb") as fh:
            if filters.until:
                end = min(end, _bisect(fh, size, filters.until)[1])
            oldest = end
            for offset, line in _lines_backward(fh, end, SCAN_BUDGET):
                oldest = offset
                if not any(kind in line for kind in _KIND_BYTES) or not all(n in line for n in needles):
                    continue
                record = _decode(line)
                if record is None:
                    continue
                if filters.since and _ts(record) < filters.since:
                    return Page(entries, 0, False)  # the log is in time order: nothing older matches
                if filters.matches(record):
                    entries.append(Entry(offset, record))
                    if len(entries) >= limit:
                        return Page(entries, offset, False)
        return Page(entries, oldest, oldest > 0)

    def find(self, decision_id: str, *, at: int = -1, near: float = 0.0) -> Entry | None:
        """The record with `decision_id`: at byte offset `at` when that line is it; else the newest one in
        the log's last RECENT_BUDGET bytes (where a pending request's decision usually is); else, given the
        time it was written about (`near`, epoch seconds), the first one from there on (the log is bisected
        on `ts`, so this costs the same however deep the record lies); else the newest one within the last
        FIND_BUDGET bytes."""
        if not (0 < len(decision_id) <= 40 and decision_id.isalnum()):
            return None
        needle = f'"id":"{decision_id}"'.encode()
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 - closed below on every path
        except OSError:
            return None
        with fh:
            size = os.fstat(fh.fileno()).st_size
            if 0 <= at < size:
                line = _line_at(fh, at)
                record = _record_with(line, needle, decision_id) if line is not None else None
                if record is not None:
                    return Entry(at, record)
            searches = [_lines_backward(fh, size, RECENT_BUDGET)]
            if near > 0:
                start = _bisect(fh, size, near - NEAR_SLACK)[0]
                searches.append(_lines_forward(fh, start, size, SCAN_BUDGET))
            else:
                searches.append(_lines_backward(fh, size, FIND_BUDGET))
            for lines in searches:
                for offset, candidate in lines:
                    record = _record_with(candidate, needle, decision_id)
                    if record is not None:
                        return Entry(offset, record)
        return None


def _record_with(line: bytes, needle: bytes, decision_id: str) -> dict[str, Any] | None:
    """The record on `line` when it is the one with `decision_id` (a byte test first, then the parsed id)."""
    if needle not in line:
        return None
    record = _decode(line)
    return record if record is not None and record.get("id") == decision_id else None


def _json(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _ts(record: dict[str, Any]) -> float:
    try:
        return float(record.get("ts", 0))
    except (TypeError, ValueError):
        return 0.0


def _decode(line: bytes) -> dict[str, Any] | None:
    try:
        record, _, _ = decode(line.decode())
    except (ValueError, UnicodeDecodeError):
        return None
    return record


def _lines_backward(fh: IO[bytes], end: int, budget: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line without its newline) for the lines ending at or before `end`, last first, reading at
    most about `budget` bytes. A piece at `end` that does not end a line (a write in progress) fails to
    decode and is skipped by the callers."""
    pos = end
    tail = b""
    spent = 0
    while pos > 0 and spent < budget:
        size = min(CHUNK, pos)
        pos -= size
        fh.seek(pos)
        buf = fh.read(size) + tail
        spent += size
        stop = len(buf)
        while True:
            newline = buf.rfind(b"\n", 0, stop)
            if newline < 0:
                break
            if stop > newline + 1:
                yield pos + newline + 1, buf[newline + 1 : stop]
            stop = newline
        tail = buf[:stop]
        if len(tail) > MAX_LINE:  # a line this long is no record: skip it rather than buffer it
            tail = b""
    if pos == 0 and tail:
        yield 0, tail


def _lines_forward(fh: IO[bytes], start: int, end: int, budget: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line) for the whole lines from the first line start at or after `start`, reading at most
    about `budget` bytes."""
    fh.seek(start)
    if start > 0:
        fh.seek(start - 1)
        if fh.read(1) != b"\n":
            fh.readline(MAX_LINE)  # the rest of the line `start` falls in
    offset = fh.tell()
    while offset < end and offset - start < budget:
        line = fh.readline(MAX_LINE)
        if not line.endswith(b"\n"):
            return
        yield offset, line[:-1]
        offset += len(line)


def _line_at(fh: IO[bytes], offset: int) -> bytes | None:
    """The line starting exactly at `offset` (the byte before it must end a line), or None."""
    if offset > 0:
        fh.seek(offset - 1)
        if fh.read(1) != b"\n":
            return None
    fh.seek(offset)
    line = fh.readline(MAX_LINE)
    return line[:-1] if line.endswith(b"\n") else None


def _bisect(fh: IO[bytes], size: int, until: float) -> tuple[int, int]:
    """Where the records newer than `until` begin, to within a block (bisecting on `ts`): the records before
    the first offset are not newer, those from the second on are. The stretch between is left to the exact
    filters of the callers."""
    low, high = 0, size
    while high - low > CHUNK:
        middle = (low + high) // 2
        fh.seek(middle)
        fh.readline(MAX_LINE)  # the rest of the line `middle` falls in
        start = fh.tell()
        line = fh.readline(MAX_LINE)
        record = _decode(line.rstrip(b"\n")) if line.endswith(b"\n") else None
        if start >= high or not line:
            high = middle
        elif record is None:  # not a record: step over it (the exact filter catches any overshoot)
            low = start + len(line)
        elif _ts(record) > until:
            high = start
        else:
            low = start + len(line)
    return low, high
