"""The hook fails closed whatever happens: each agent's deny, exactly, with a blocking exit code.

Faults inside the engine are injected from outside the product: a `sitecustomize.py` on the hook process's
PYTHONPATH wraps `limen.engine.decide` (it raises, raises an interrupt, hangs, or prints). Limen itself has no
fault switch an agent could reach.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

HOOK = Path(sys.executable).with_name("limen-hook")
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
PRE_TOOL_USE = (FIXTURES / "claude-code" / "pre_bash_ls.json").read_bytes()

SITECUSTOMIZE = """
import os, sys, time
fault = os.environ.get("LIMEN_TEST_FAULT")
if fault == "print-at-start":
    print("stray output at start-up")
elif fault:
    import limen.engine

    def faulty_decide(action, ctx):
        if fault == "raise":
            raise RuntimeError("injected")
        if fault == "interrupt":
            raise KeyboardInterrupt
        if fault == "segfault":
            os.kill(os.getpid(), 11)
        if fault == "exit":
            os._exit(0)
        if fault == "gil":
            import re
            re.match(r"(a+)+$", "a" * 64 + "b")  # catastrophic backtracking: C code holding the GIL
        if fault == "print":
            print("stray output inside the engine")
            sys.stdout.flush()
            os.write(1, b"raw bytes on fd 1\\n")
            return real(action, ctx)
        marker = os.environ.get("LIMEN_TEST_MARKER")
        if marker:
            open(marker, "w").close()
        time.sleep(3600)  # killed with the decider when the hook's deadline answers

    real = limen.engine.decide
    limen.engine.decide = faulty_decide
"""


def reason(why: str) -> str:
    return (
        f"Limen denied this because it could not decide it safely ({why}). "
        "Next step: retry once; if it persists, ask the user to run `limen doctor`."
    )


# Each agent's fail-closed answer to an event it could not even read.
UNREADABLE = {
    "claude-code": lambda r: {"decision": "block", "reason": r},
    "codex": lambda r: {"decision": "block", "reason": r},
    "gemini": lambda r: {"decision": "deny", "reason": r},
    "cursor": lambda r: {"permission": "deny", "user_message": r, "agent_message": r},
}


def hook_env(tmp_path: Path, fault: str = "", **extra: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": "/home/dev",
        "LIMEN_HOME": str(tmp_path / "limen"),
        "LIMEN_HOOK_DAEMON": "0",
        "LIMEN_HOOK_DEADLINE_MS": "30000",  # tests of the deadline set their own
    }
    if fault:
        inject = tmp_path / "inject"
        inject.mkdir(exist_ok=True)
        (inject / "sitecustomize.py").write_text(SITECUSTOMIZE)
        env.update(PYTHONPATH=str(inject), LIMEN_TEST_FAULT=fault)
    env.update(extra)
    return env


def run(agent: str, data: bytes, env: dict[str, str]) -> tuple[Any, int, str]:
    proc = subprocess.run([str(HOOK), agent], input=data, capture_output=True, env=env, timeout=60)
    return json.loads(proc.stdout), proc.returncode, proc.stderr.decode()


@pytest.mark.parametrize("agent", sorted(UNREADABLE))
@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "empty event"),
        (b"   \n", "empty event"),
        (b"{not json", "the event is not valid JSON"),
        (b"\xff\xfe\x00garbage", "the event is not valid JSON"),
        (b"[1, 2, 3]", "the event is not a JSON object"),
    ],
)
def test_unreadable_events_get_each_agents_deny(agent: str, data: bytes, why: str, tmp_path: Path) -> None:
    out, code, err = run(agent, data, hook_env(tmp_path))
    assert (out, code) == (UNREADABLE[agent](reason(why)), 2)
    assert err.endswith(reason(why) + "\n")


def test_an_event_without_its_fields_is_denied(tmp_path: Path) -> None:
    event = json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    )
    out, code, _ = run("claude-code", event.encode(), hook_env(tmp_path))
    why = "event without session_id or cwd"
    assert code == 2
    assert out == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason(why),
        }
    }


def test_a_bom_prefixed_event_is_read(tmp_path: Path) -> None:
    """Cursor on Windows writes a UTF-8 byte-order mark before the JSON."""
    out, code, _ = run("claude-code", b"\xef\xbb\xbf" + PRE_TOOL_USE, hook_env(tmp_path))
    assert (out, code) == ({}, 0)


def test_a_crash_inside_the_engine_is_a_deny(tmp_path: Path) -> None:
    out, code, err = run("claude-code", PRE_TOOL_USE, hook_env(tmp_path, "raise"))
    specific = out["hookSpecificOutput"]
    assert (specific["permissionDecision"], code) == ("deny", 2)
    assert "RuntimeError" in specific["permissionDecisionReason"]
    assert "injected" not in json.dumps(out) + err  # exception messages never reach the agent
    assert "Traceback" not in err


@pytest.mark.parametrize("fault", ["interrupt", "segfault", "exit"])
def test_a_decision_process_that_dies_is_a_deny(fault: str, tmp_path: Path) -> None:
    """An interrupt escaping everything, a crash in C code, an `os._exit` deep in the engine."""
    out, code, _ = run("claude-code", PRE_TOOL_USE, hook_env(tmp_path, fault))
    assert code == 2
    why = reason("the decision process died")
    assert out == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": why,
        }
    }


@pytest.mark.parametrize(
    ("agent", "fault"), [("claude-code", "hang"), ("gemini", "hang"), ("claude-code", "gil")]
)
def test_a_hang_inside_evaluation_is_denied_at_the_deadline(agent: str, fault: str, tmp_path: Path) -> None:
    """A sleeping engine, and one stuck in C code that never releases the GIL (no thread could answer)."""
    fixture = "pre_bash_ls.json" if agent == "claude-code" else "before_tool_shell.json"
    data = (FIXTURES / agent / fixture).read_bytes()
    deadline_ms = 1500
    started = time.monotonic()
    out, code, _ = run(agent, data, hook_env(tmp_path, fault, LIMEN_HOOK_DEADLINE_MS=str(deadline_ms)))
    elapsed = time.monotonic() - started
    why = reason("no answer before the deadline")
    expected = (
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": why,
            }
        }
        if agent == "claude-code"
        else {"decision": "deny", "reason": why}
    )
    assert (out, code) == (expected, 2)
    # The engine never returns, so an answer at all came from the hook's own deadline (the reason says so);
    # it did not give up before the configured deadline. No upper bound: a loaded machine is only slower.
    assert elapsed >= deadline_ms / 1000


def test_stdin_never_closed_is_denied_at_the_deadline(tmp_path: Path) -> None:
    env = hook_env(tmp_path, LIMEN_HOOK_DEADLINE_MS="1000")
    with subprocess.Popen(
        [str(HOOK), "cursor"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b'{"hook_event_name": "beforeShellExecution", ')  # and never finishes
        proc.stdin.flush()
        out = proc.stdout.read()  # returns when the hook exits, stdin still open
        proc.wait(timeout=60)
    why = reason("no answer before the deadline")
    assert json.loads(out) == {"permission": "deny", "user_message": why, "agent_message": why}
    assert proc.returncode == 2


def test_stray_prints_at_start_up_go_to_stderr_not_stdout(tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(HOOK), "claude-code"],
        input=PRE_TOOL_USE,
        capture_output=True,
        env=hook_env(tmp_path, "print-at-start"),
        timeout=60,
    )
    assert (proc.stdout, proc.returncode) == (b"{}", 0)
    assert b"stray output at start-up" in proc.stderr


def test_stray_prints_inside_a_rule_reach_neither_stdout_nor_stderr(tmp_path: Path) -> None:
    """The forked decider lets go of the agent's pipes before deciding: what a rule prints is dropped."""
    proc = subprocess.run(
        [str(HOOK), "claude-code"],
        input=PRE_TOOL_USE,
        capture_output=True,
        env=hook_env(tmp_path, "print"),
        timeout=60,
    )
    assert (proc.stdout, proc.returncode) == (b"{}", 0)
    assert b"stray output" not in proc.stderr and b"raw bytes" not in proc.stderr


def test_an_oversized_event_is_denied(tmp_path: Path) -> None:
    data = b'{"hook_event_name": "PreToolUse", "pad": "' + b"x" * (8 * 1024 * 1024) + b'"}'
    out, code, _ = run("codex", data, hook_env(tmp_path))
    assert (out, code) == ({"decision": "block", "reason": reason("ValueError in the hook")}, 2)


def test_an_unknown_agent_is_refused_with_a_blocking_code(tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(HOOK), "windsurf"], input=PRE_TOOL_USE, capture_output=True, env=hook_env(tmp_path), timeout=60
    )
    assert (proc.stdout, proc.returncode) == (b"", 2)
    assert re.search(rb"usage: limen-hook <claude-code\|cursor\|gemini\|codex>", proc.stderr)


def test_a_late_decision_after_the_deadline_answered_ends_the_process_with_the_deny(tmp_path: Path) -> None:
    """The deadline wrote the deny first: the decision that arrives later is dropped and the process exits
    with the deny's code at once, rather than blocking forever."""
    script = (
        "import os\n"
        "from limen.doors.hooks import client, events as ev\n"
        "responder = client.Responder(os.dup(1), ev.Answer('deny', 2))\n"
        "responder._written = True  # what expire() sets before it writes the deny\n"
        "responder.answer(ev.Answer('late allow', 0))\n"
        "raise SystemExit(0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert (proc.stdout, proc.returncode) == (b"", 2)
