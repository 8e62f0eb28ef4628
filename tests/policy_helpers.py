"""Helpers shared by the policy tests: a workspace with a limen.yaml, real actions, real decisions."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

from limen.context import Context
from limen.engine import decide
from limen.model import Action, Decision
from limen.normalize import normalize


def no_org_policy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Isolate a test from this machine's organisation policy: the org level points at a missing file."""
    from limen.policy import paths

    monkeypatch.delenv("LIMEN_ORG_POLICY", raising=False)
    monkeypatch.setattr(paths, "ORG_POLICY", str(tmp_path / "no-org-policy" / "policy.yaml"))


def write_policy(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def action(ws: str, tool: str, args: dict[str, Any], door: str = "hook", role: str = "") -> Action:
    return normalize(tool, args, cwd=ws, door=door, role=role, home=os.path.expanduser("~"))


def decision(ctx: Context, tool: str, args: dict[str, Any], door: str = "hook", role: str = "") -> Decision:
    return decide(action(ctx.workspace, tool, args, door=door, role=role), ctx)


def approve_files(ws: str, password: str = "correct horse battery") -> None:
    """Approve whatever the policy files say, through the real drift gate with a password factor."""
    from limen.policy import drift, effective

    if not drift.has_factor():
        drift.setup_password(password)
    current, fp, default = effective.from_files(ws)
    if not drift.loosenings(drift.approved(ws, default)[0], current):
        return  # only tightens: applies without approval
    record = drift.propose(ws, current, fp, default)
    drift.approve(ws, record["id"], current=current, current_fp=fp, default=default, password=password)
