"""`limen doctor [agent ...]`: check the wiring end to end, through the command the agent will really run.

For each Limen hook found in an agent's settings it checks the command exists and runs on a real interpreter
(not a shim), then sends it synthetic events in that agent's dialect: a write to the agent's own hook file
must be denied with a blocking exit code, and so must an unreadable event.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from typing import Any

SESSION = "limen-doctor"


def protected_write(agent: str, config_path: str, cwd: str) -> dict[str, Any]:
    """An event that tries to overwrite the agent's hook file: Limen must deny it."""
    base = {"session_id": SESSION, "cwd": cwd}
    if agent == "claude-code":
        return {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": config_path, "content": "{}"},
            "tool_use_id": "doctor",
        }
    if agent == "codex":
        patch = f"*** Begin Patch\n*** Update File: {config_path}\n@@\n-x\n+{{}}\n*** End Patch"
        return {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
            "tool_use_id": "doctor",
            "turn_id": "doctor",
        }
    if agent == "gemini":
        return {
            **base,
            "hook_event_name": "BeforeTool",
            "tool_name": "write_file",
            "tool_input": {"file_path": config_path, "content": "{}"},
        }
    return {
        "conversation_id": SESSION,
        "generation_id": SESSION,
        "hook_event_name": "preToolUse",
        "workspace_roots": [cwd],
        "cwd": cwd,
        "tool_name": "Write",
        "tool_input": {"file_path": config_path, "content": "{}"},
    }


def is_deny(agent: str, answer: Any) -> bool:
    if not isinstance(answer, dict):
        return False
    if agent == "cursor":
        return answer.get("permission") == "deny"
    if agent == "gemini":
        return answer.get("decision") == "deny"
    specific = answer.get("hookSpecificOutput")
    return answer.get("decision") == "block" or (
        isinstance(specific, dict) and specific.get("permissionDecision") == "deny"
    )


def interpreter_problem(executable: str) -> str | None:
    """Why the hook's executable cannot run fast and for sure, or None."""
    if not os.access(executable, os.X_OK):
        return f"{executable} is missing or not executable"
    with open(executable, "rb") as handle:
        first = handle.readline().decode(errors="replace").strip()
    if not first.startswith("#!"):
        return None
    interpreter = shlex.split(first[2:])[0]
    real = os.path.realpath(interpreter)
    if not os.access(real, os.X_OK):
        return f"its interpreter {interpreter} is missing"
    if "/shims/" in real or os.path.basename(real) == "env":
        return f"its interpreter {interpreter} is a shim or env lookup (slow, and may change under you)"
    return None


def send(command: str, data: bytes) -> tuple[Any, int]:
    proc = subprocess.run(shlex.split(command), input=data, capture_output=True, timeout=30)
    try:
        return json.loads(proc.stdout), proc.returncode
    except ValueError:
        return None, proc.returncode


def check(
    agent: str, config_path: str, command: str, timeouts: list[float | None], cwd: str
) -> list[tuple[bool, str]]:
    from limen.doors.hooks.client import deadline_seconds

    problem = interpreter_problem(shlex.split(command)[0])
    if problem:
        return [(False, problem)]
    results = [(True, f"{command.split()[0]} runs on a real interpreter")]
    deadline = deadline_seconds() * 1000
    short = [t for t in timeouts if t is not None and t < deadline + 1000]
    results.append(
        (
            not short,
            f"the agent's timeout leaves the hook's {deadline:.0f} ms deadline room"
            if not short
            else f"a timeout of {min(short):.0f} ms would expire before the hook's "
            f"{deadline:.0f} ms deadline, and an expired hook lets the call through",
        )
    )
    event = json.dumps(protected_write(agent, config_path, cwd)).encode()
    for label, data in (("a write to its own hook file", event), ("an unreadable event", b"{garbage")):
        answer, code = send(command, data)
        ok = is_deny(agent, answer) and code == 2
        results.append(
            (ok, f"{label} is {'denied (exit 2)' if ok else f'NOT denied: exit {code}, {answer!r}'}")
        )
    return results


def main(argv: list[str]) -> int:
    from limen.daemon import status
    from limen.install import AGENTS, installed_handlers

    agents = argv or list(AGENTS)
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        print(
            f"limen doctor: unknown agent(s) {', '.join(unknown)}; choose from {', '.join(AGENTS)}",
            file=sys.stderr,
        )
        return 2
    cwd = os.getcwd()
    healthy, wired = True, 0
    for agent in agents:
        for (config_path, command), timeouts in installed_handlers(agent, cwd).items():
            wired += 1
            print(f"{agent}: {config_path}")
            for ok, line in check(agent, config_path, command, timeouts, cwd):
                healthy &= ok
                print(f"  {'ok  ' if ok else 'FAIL'} {line}")
    if not wired:
        print("limen doctor: no agent is wired to Limen here; run `limen install <agent>`")
        return 1
    daemon = status()
    print(f"daemon: running, pid {daemon['pid']}" if daemon else "daemon: not running (a hook starts it)")
    return 0 if healthy else 1
