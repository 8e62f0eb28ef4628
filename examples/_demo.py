"""What every example shares: a throwaway project and Limen home, a stand-in for the person who approves,
and a line per call. Nothing here leaves the machine; everything is written under one temporary folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from limen.sdk import Approval, ApprovalRequest


def workspace() -> Path:
    """A small project in a temporary folder; Limen's own files (audit log, approvals) go beside it."""
    root = Path(os.path.realpath(tempfile.mkdtemp(prefix="limen-example-")))
    os.environ["LIMEN_HOME"] = str(root / "limen-home")  # keep the example out of your own ~/.limen
    project = root / "project"
    (project / "docs").mkdir(parents=True)
    (project / "README.md").write_text("# Example project\n")
    (project / "docs" / "plan.md").write_text("1. ship it\n")
    (project / ".env").write_text("DATABASE_URL=postgres://localhost/dev\n")
    return project


def approver(request: ApprovalRequest) -> Approval:
    """Stands in for a person: shown the request, approves reading the project's .env, refuses the rest."""
    yes = request.tool.endswith("read_file") and request.arguments.get("path", "").endswith("/.env")
    answer = "yes" if yes else "no"
    print(f"  approval asked: {request.tool} risk {request.risk} {list(request.reasons)} -> {answer}")
    return Approval(approved=yes, by="example approver")


def report(label: str, outcome: str) -> None:
    print(f"{label:>9}: {outcome.strip().splitlines()[0][:150]}")
