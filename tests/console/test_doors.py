"""End to end through a door that cannot ask (Gemini CLI, a real `limen-hook` process): the call is refused
with an approval id, a person approves it in the console, the identical retry runs once, the next one is
refused again, and a call with another argument was never covered."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import Browser

HOOK = Path(sys.executable).with_name("limen-hook")


def gemini(workspace: str, command: str) -> tuple[dict[str, Any], int]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.path.join(workspace, "..", "home"),
        "LIMEN_HOME": os.environ["LIMEN_HOME"],
        "LIMEN_HOOK_DAEMON": "0",
        "LIMEN_HOOK_DEADLINE_MS": "3000",
    }
    event = {
        "session_id": "s1",
        "cwd": workspace,
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command},
    }
    proc = subprocess.run(
        [str(HOOK), "gemini"], input=json.dumps(event).encode(), capture_output=True, env=env
    )
    return json.loads(proc.stdout or b"null"), proc.returncode


def approval_id(answer: tuple[dict[str, Any], int]) -> str:
    out, code = answer
    assert code == 2 and out.get("decision") == "deny", answer
    found = re.search(r"limen approve ([0-9a-f]+)", str(out.get("reason")))
    assert found, out
    return found.group(1)


def test_a_gemini_call_approved_in_the_console_runs_once(browser: Browser, workspace: str) -> None:
    request = approval_id(gemini(workspace, "chmod 777 run.sh"))
    other = approval_id(gemini(workspace, "chmod 777 other.sh"))
    browser.login()
    page = browser.get("/")
    assert f'id="req-{request}"' in page.text and f'id="req-{other}"' in page.text
    assert browser.post("/approve", {"id": request, "csrf": page.csrf()}).status == 303
    assert gemini(workspace, "chmod 777 run.sh") == ({}, 0)  # runs
    assert approval_id(gemini(workspace, "chmod 777 run.sh")) != request  # once only
    assert approval_id(gemini(workspace, "chmod 777 other.sh")) == other  # still waiting, not covered
