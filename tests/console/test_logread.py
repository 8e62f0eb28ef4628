"""Paging the audit log backwards (`limen.console.logread`) over logs written by the real AuditWriter: every
matching record exactly once across pages, however small the per-page read budget; time windows found by
bisection; a record found again by its offset, by its time, or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from limen.audit.writer import AuditWriter
from limen.console import logread
from limen.console.logread import Filters, LogReader

T0 = 1_700_000_000.0


def write_log(home: Path, count: int) -> list[dict[str, object]]:
    writer = AuditWriter(fsync_every=0)
    records = []
    for n in range(count):
        record: dict[str, object] = {
            "kind": "decision" if n % 10 else "event",
            "id": f"{n:016x}",
            "ts": T0 + n,
            "tool": ("Bash", "Read", "<Edit>")[n % 3],
            "session": f"s{n % 4}",
            "verdict": ("PASS", "AUTH", "BLOCK")[n % 3 if n % 2 else 0],
            "reasons": ["secret_exfiltration"] if n % 7 == 0 else [],
        }
        writer.append(record)
        records.append(record)
    writer.close()
    return records


def all_pages(reader: LogReader, filters: Filters, limit: int) -> tuple[list[str], int]:
    ids: list[str] = []
    before, pages = 0, 0
    while True:
        page = reader.page(filters, before=before, limit=limit)
        pages += 1
        ids += [str(e.record["id"]) for e in page.entries]
        if page.older <= 0:
            return ids, pages
        assert page.older < (before or reader.size() + 1)  # always moves towards the start
        before = page.older


@pytest.mark.parametrize("budget", [1 << 20, 2000])
def test_pages_list_every_matching_record_once_newest_first(
    limen_home: Path, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    records = write_log(limen_home, 400)
    monkeypatch.setattr(logread, "SCAN_BUDGET", budget)
    monkeypatch.setattr(logread, "CHUNK", 1024)
    reader = LogReader()
    for filters in (Filters(), Filters(tool="<Edit>", session="s1"), Filters(reason="secret_exfiltration")):
        expected = [str(r["id"]) for r in reversed(records) if filters.matches(r)]
        ids, pages = all_pages(reader, filters, limit=17)
        assert ids == expected and expected
        if budget < 4096:
            assert pages > len(expected) // 17 + 1  # the small budget cut pages short


def test_a_time_window_is_bisected_and_filtered_exactly(
    limen_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = write_log(limen_home, 600)
    monkeypatch.setattr(logread, "CHUNK", 512)
    reader = LogReader()
    window = Filters(since=T0 + 100, until=T0 + 250.5)
    expected = [str(r["id"]) for r in reversed(records) if window.matches(r)]
    ids, _ = all_pages(reader, window, limit=1000)
    assert ids == expected and len(ids) == sum(1 for n in range(100, 251) if n % 10)
    assert reader.page(Filters(until=T0 - 1)).entries == []


def test_a_record_is_found_by_offset_by_time_or_not_at_all(
    limen_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_log(limen_home, 300)
    reader = LogReader()
    newest = reader.page(Filters(), limit=1).entries[0]
    assert reader.find(str(newest.record["id"]), at=newest.offset) == newest
    deep = reader.page(Filters(until=T0 + 5), limit=1).entries[0]
    assert deep.record["id"] == f"{5:016x}"
    assert reader.find(f"{5:016x}", at=newest.offset) == deep  # a wrong offset: found by scanning
    monkeypatch.setattr(logread, "FIND_BUDGET", 4096)  # too little to scan back that far
    monkeypatch.setattr(logread, "RECENT_BUDGET", 4096)
    assert reader.find(f"{5:016x}") is None
    assert reader.find(f"{5:016x}", near=T0 + 5) == deep  # its time finds it at any depth
    for bad in ("", "../x", "f" * 41, "ffffffffffffffff"):
        assert reader.find(bad) is None


def test_a_line_being_written_and_a_damaged_line_are_skipped(limen_home: Path) -> None:
    write_log(limen_home, 30)
    log = limen_home / "audit" / "decisions.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join([*lines[:10], b"not a record\n", *lines[10:], b'{"kind":"decision","id":"half']))
    page = LogReader().page(Filters(), limit=100)
    assert [e.record["id"] for e in page.entries] == [f"{n:016x}" for n in reversed(range(30)) if n % 10]
    assert LogReader(os.fspath(limen_home / "nowhere")).page(Filters()).entries == []
