"""`limen.evaluate(role=...)` reaches the policy's role boundaries (the role comes from the caller's code)."""

from __future__ import annotations

from pathlib import Path

import limen
from limen.model import ReasonCode, Verdict

POLICY = """\
version: 1
default_action: ask
roles:
  reviewer:
    tools: [Read, Grep]
    paths: ["${workspace}/**"]
    capabilities: [filesystem.read]
    deny: {paths: ["${workspace}/secrets/**"], hosts: [], tools: []}
"""


def test_a_role_boundary_applies_through_evaluate(workspace: str) -> None:
    Path(workspace, "limen.yaml").write_text(POLICY)
    inside = limen.evaluate(
        "Read", {"file_path": "README.md"}, cwd=workspace, role="reviewer", door="claude-code"
    )
    assert ReasonCode.ROLE_OUT_OF_SCOPE not in inside.reasons

    writing = limen.evaluate(
        "Write",
        {"file_path": "src/app.py", "content": "x"},
        cwd=workspace,
        role="reviewer",
        door="claude-code",
    )
    assert writing.verdict >= Verdict.AUTH
    assert ReasonCode.ROLE_OUT_OF_SCOPE in writing.reasons

    denied = limen.evaluate(
        "Read", {"file_path": "secrets/prod.txt"}, cwd=workspace, role="reviewer", door="claude-code"
    )
    assert denied.verdict is Verdict.BLOCK
    assert ReasonCode.ROLE_BLOCKED_TARGET in denied.reasons

    unbound = limen.evaluate(
        "Write", {"file_path": "src/app.py", "content": "x"}, cwd=workspace, door="claude-code"
    )
    assert ReasonCode.ROLE_OUT_OF_SCOPE not in unbound.reasons
