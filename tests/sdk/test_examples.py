"""Every example in examples/ runs offline as a user would run it, and shows a passed, a blocked and an
approved call."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "name", ["guard_basics", "langgraph_agent", "openai_agents_agent", "pydantic_ai_agent", "mcp_client"]
)
def test_example_shows_a_passed_a_blocked_and_an_approved_call(name: str, tmp_path: Path) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = {line.split(":", 1)[0].strip(): line for line in done.stdout.splitlines() if ":" in line}
    assert "1. ship it" in lines["passed"], done.stdout
    assert "BLOCK" in lines["blocked"] and "Limen denied" in lines["blocked"], done.stdout
    assert "DATABASE_URL" in lines["approved"], done.stdout
    assert "approval asked" in lines, done.stdout
    if name == "guard_basics":
        assert "Escape" in lines["confined"] and "chain verifies" in lines["audit"]
