"""Approvals through the hook doors, end to end with real `limen-hook` processes: an AUTH call approved
with `limen approve` goes through once; the identical call after that asks again; a denied one is denied;
an approval for one argument does not cover another. Gemini CLI and Codex, which cannot ask, are denied
with the approval id; and where a channel reaches a person before the hook's deadline, the call is held
and answered with the person's decision."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tests.approvals.loopback import Recorder, click, write_policy

HOOK = Path(sys.executable).with_name("limen-hook")
CHMOD = "chmod 777 run.sh"


def event(agent: str, workspace: str, command: str) -> dict[str, Any]:
    if agent == "gemini":
        return {
            "session_id": "s1",
            "cwd": workspace,
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command},
        }
    if agent == "cursor":
        return {
            "conversation_id": "s1",
            "hook_event_name": "beforeShellExecution",
            "workspace_roots": [workspace],
            "cwd": workspace,
            "command": command,
        }
    return {
        "session_id": "s1",
        "cwd": workspace,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }


def hook(agent: str, workspace: str, command: str = CHMOD, deadline_ms: int = 30000) -> tuple[Any, int]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.path.join(workspace, "..", "home"),
        "LIMEN_HOME": os.environ["LIMEN_HOME"],
        "LIMEN_HOOK_DAEMON": "0",
        "LIMEN_HOOK_DEADLINE_MS": str(deadline_ms),
    }
    data = json.dumps(event(agent, workspace, command)).encode()
    proc = subprocess.run([str(HOOK), agent], input=data, capture_output=True, env=env, timeout=60)
    return json.loads(proc.stdout or b"null"), proc.returncode


def verdict(agent: str, answer: tuple[Any, int]) -> str:
    """What the agent does with Limen's answer: run the call, ask its user, or refuse it."""
    out, code = answer
    if out == {} and code == 0:
        return "run"
    decision = out.get("decision") or out.get("permission") or out["hookSpecificOutput"]["permissionDecision"]
    assert (decision == "deny") == (code == 2)
    return {"deny": "refuse", "ask": "ask"}[decision]


def reason(answer: tuple[Any, int]) -> str:
    out = answer[0]
    return str(
        out.get("reason") or out.get("user_message") or out["hookSpecificOutput"]["permissionDecisionReason"]
    )


def limen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "limen", *args], capture_output=True, text=True, timeout=60)


def pending_for(agent: str) -> list[str]:
    listed = json.loads(limen("pending", "--json").stdout)
    return [r["id"] for r in listed if r["session"] == f"{agent}:s1"]


ASKS = {"claude-code": "ask", "cursor": "ask", "gemini": "refuse", "codex": "refuse"}


@pytest.mark.parametrize("agent", sorted(ASKS))
def test_an_approved_call_runs_once_and_nothing_else_does(agent: str, workspace: str) -> None:
    first = hook(agent, workspace)
    assert verdict(agent, first) == ASKS[agent]
    (request_id,) = pending_for(agent)
    if ASKS[agent] == "refuse":  # an agent that cannot ask is told how a person approves this call
        assert f"limen approve {request_id}" in reason(first) and "retry exactly the same call" in reason(
            first
        )
    assert verdict(agent, hook(agent, workspace, "chmod 777 other.sh")) == ASKS[agent]
    assert limen("approve", request_id).returncode == 0
    assert verdict(agent, hook(agent, workspace, "chmod 777 other.sh")) == ASKS[agent]  # not covered
    assert verdict(agent, hook(agent, workspace)) == "run"
    assert verdict(agent, hook(agent, workspace)) == ASKS[agent]  # once only
    assert request_id not in pending_for(agent)


@pytest.mark.parametrize("agent", ["gemini", "codex"])
def test_a_denied_call_stays_denied(agent: str, workspace: str) -> None:
    hook(agent, workspace)
    (request_id,) = pending_for(agent)
    assert limen("deny", request_id).returncode == 0
    retried = hook(agent, workspace)
    assert verdict(agent, retried) == "refuse"
    (again,) = pending_for(agent)
    assert again != request_id and f"limen approve {again}" in reason(retried)


def test_an_expired_approval_lets_nothing_through(workspace: str) -> None:
    hook("gemini", workspace)
    (request_id,) = pending_for("gemini")
    assert limen("approve", request_id).returncode == 0
    with sqlite3.connect(os.path.join(os.environ["LIMEN_HOME"], "approvals.sqlite")) as db:
        db.execute(
            "UPDATE approvals SET expires = ? WHERE id = ?", (time.time() - 1, request_id)
        )  # 10 min on
    assert verdict("gemini", hook("gemini", workspace)) == "refuse"
    denied = limen("approve", request_id)
    assert denied.returncode == 1 and "expired" in denied.stderr


@pytest.mark.parametrize("agent", ["gemini", "codex"])
def test_the_hook_holds_the_call_until_a_person_approves(agent: str, workspace: str) -> None:
    webhook = Recorder()
    try:
        write_policy(workspace, {"channels": ["webhook"], "webhook": {"url": webhook.url}})
        proc = subprocess.Popen(
            [str(HOOK), agent],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "LIMEN_HOOK_DAEMON": "0", "LIMEN_HOOK_DEADLINE_MS": "20000"},
        )
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(event(agent, workspace, CHMOD)).encode())
        proc.stdin.close()
        payload = webhook.next()
        approve = payload.json()["blocks"][1]["elements"][0]["url"]
        assert click(approve)[0] == 200
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.wait(30)
    finally:
        webhook.close()
    assert (json.loads(out), proc.returncode) == ({}, 0)
    assert verdict(agent, hook(agent, workspace)) == "refuse"  # used once


def test_an_unanswered_hold_is_denied_before_the_agents_deadline(workspace: str) -> None:
    webhook = Recorder()
    try:
        write_policy(workspace, {"channels": ["webhook"], "webhook": {"url": webhook.url}})
        started = time.monotonic()
        answer = hook("gemini", workspace, deadline_ms=6000)  # held about 5 s: a loaded machine decides late
        took = time.monotonic() - started
        webhook.next()
    finally:
        webhook.close()
    assert verdict("gemini", answer) == "refuse" and took < 6.0
    assert "a person gave no answer in time" in reason(answer)
    (request_id,) = pending_for("gemini")
    assert re.search(rf"limen approve {request_id}", reason(answer))


def test_the_daemon_holds_the_call_too(workspace: str) -> None:
    """The same hold when the per-user daemon decides the event (its link server answers the click)."""
    webhook = Recorder()
    env = {**os.environ, "LIMEN_HOOK_DEADLINE_MS": "20000"}
    env.pop("LIMEN_HOOK_DAEMON", None)
    try:
        write_policy(workspace, {"channels": ["webhook"], "webhook": {"url": webhook.url}})
        started = subprocess.run([sys.executable, "-m", "limen", "daemon", "start"], env=env, timeout=60)
        assert started.returncode == 0
        proc = subprocess.Popen([str(HOOK), "codex"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(event("codex", workspace, CHMOD)).encode())
        proc.stdin.close()
        deny = webhook.next().json()["blocks"][1]["elements"][1]["url"]
        assert click(deny)[0] == 200
        out = json.loads(proc.stdout.read())
        proc.wait(30)
        status = json.loads(
            subprocess.run(
                [sys.executable, "-m", "limen", "daemon", "status"], env=env, capture_output=True, timeout=30
            ).stdout
        )
    finally:
        subprocess.run([sys.executable, "-m", "limen", "daemon", "stop"], env=env, timeout=60)
        webhook.close()
    assert status["served"] == 1  # the daemon decided it, not the in-process fallback
    assert (
        proc.returncode == 2 and "a person denied it" in out["hookSpecificOutput"]["permissionDecisionReason"]
    )
