"""Fixtures for the SDK door: a project directory, an audit directory, and a reader of its records."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = Path(os.path.realpath(tmp_path)) / "project"
    root.mkdir()
    (root / "README.md").write_text("# demo\n")
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("buy milk\n")
    return root


@pytest.fixture
def audit_dir(tmp_path: Path) -> Path:
    return Path(os.path.realpath(tmp_path)) / "audit"


@pytest.fixture
def records(audit_dir: Path) -> Callable[[], list[dict[str, Any]]]:
    def read() -> list[dict[str, Any]]:
        path = audit_dir / "decisions.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    return read


@pytest.fixture
def chain_verifies() -> Callable[[Path], bool]:
    """`chain_verifies(audit_dir)`: the log's hash chain verifies (else the problems) and holds records."""

    def check(audit_dir: Path) -> bool:
        from limen.audit.verify import verify

        report = verify(str(audit_dir))
        assert report.ok, report.problems
        return report.records > 0

    return check
