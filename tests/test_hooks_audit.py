"""One audit record per answer, equal to it: under a daemon killed or stopped with hooks in flight, and
under many concurrent hooks deciding in-process past their deadlines.

Each hook here is a real `limen-hook` process. An answer is matched to its record by the decision id a
refusal carries; a PASS carries none, so PASS answers and PASS records are matched by count, and so are
the denies given because no decision came in time (their records say `objective_guardrail_error`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
HOOK, LIMEN = BIN / "limen-hook", BIN / "limen"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks" / "claude-code"
EVENTS = [
    (FIXTURES / "pre_bash_ls.json").read_bytes(),  # PASS
    (FIXTURES / "pre_write_settings.json").read_bytes(),  # BLOCK, with a decision id
    (FIXTURES / "pre_read_ssh_key.json").read_bytes(),  # AUTH (ask), with a decision id
]
DECISION_ID = re.compile(r"\(decision ([0-9a-f]{16})\)")
FAIL_CLOSED = "objective_guardrail_error"


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": "/home/dev",
        "LIMEN_HOME": str(tmp_path / "limen"),
    }
    yield environment
    subprocess.run([str(LIMEN), "daemon", "stop"], env=environment, capture_output=True, timeout=30)


def run_hook(data: bytes, env: dict[str, str]) -> tuple[bytes, int]:
    proc = subprocess.run([str(HOOK), "claude-code"], input=data, capture_output=True, env=env, timeout=120)
    return proc.stdout, proc.returncode


def answered(stdout: bytes) -> tuple[str, str]:
    """(verdict, decision id or "") of one answer as Claude Code reads it."""
    out = json.loads(stdout) if stdout else None
    if out == {}:
        return "PASS", ""
    assert isinstance(out, dict), stdout
    if "hookSpecificOutput" not in out:
        # the deadline passed before the event's name was read: the deny every event honours
        assert out.get("decision") == "block", stdout
        return "BLOCK", FAIL_CLOSED
    specific = out["hookSpecificOutput"]
    verdict = {"deny": "BLOCK", "ask": "AUTH"}[specific["permissionDecision"]]
    found = DECISION_ID.search(specific["permissionDecisionReason"])
    return verdict, found.group(1) if found else FAIL_CLOSED


def recorded(env: dict[str, str]) -> list[tuple[str, str]]:
    """(verdict, decision id, or FAIL_CLOSED for a deny given without a decision) of every hook record."""
    log = Path(env["LIMEN_HOME"]) / "audit" / "decisions.jsonl"
    out = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record.get("door") != "hook" or record.get("kind") != "decision":
            continue
        if FAIL_CLOSED in record["reasons"]:
            out.append((record["verdict"], FAIL_CLOSED))
        else:
            out.append((record["verdict"], "" if record["verdict"] == "PASS" else record["id"]))
    return out


def assert_one_record_per_answer(answers: list[tuple[bytes, int]], env: dict[str, str]) -> None:
    given = Counter(answered(stdout) for stdout, _ in answers)
    found = Counter(recorded(env))
    settle = time.monotonic() + 30  # a record left to a detached writer on an overloaded machine
    while found != given and time.monotonic() < settle:
        time.sleep(0.2)
        found = Counter(recorded(env))
    assert found == given, f"answered, not recorded: {given - found}; recorded, not answered: {found - given}"


def wait_for_daemon(env: dict[str, str]) -> int:
    for _ in range(400):
        proc = subprocess.run(
            [str(LIMEN), "daemon", "status"], capture_output=True, text=True, env=env, timeout=30
        )
        if proc.returncode == 0 and proc.stdout.strip():
            return int(json.loads(proc.stdout)["pid"])
        time.sleep(0.05)
    raise AssertionError("no daemon came up")


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGSTOP])
def test_a_daemon_killed_or_stopped_with_hooks_in_flight(stop: signal.Signals, env: dict[str, str]) -> None:
    """20 hooks in flight when the daemon is killed (the clients then decide in-process, or deny past a
    claim) or stopped (and resumed after every client answered: its late work must record nothing)."""
    env = {**env, "LIMEN_HOOK_DEADLINE_MS": "4000"}
    subprocess.run([str(LIMEN), "daemon", "start"], env=env, capture_output=True, timeout=30)
    pid = wait_for_daemon(env)
    with ThreadPoolExecutor(max_workers=20) as pool:
        futures = [pool.submit(run_hook, EVENTS[i % len(EVENTS)], env) for i in range(20)]
        time.sleep(0.15)  # some answered, some claimed, some still connecting
        os.kill(pid, stop)
        answers = [f.result() for f in futures]
    if stop == signal.SIGSTOP:
        os.kill(pid, signal.SIGCONT)
        time.sleep(1.0)  # the daemon finishes what it had claimed: its clients are gone
        os.kill(pid, signal.SIGKILL)
    assert all(code in (0, 2) for _, code in answers)
    assert_one_record_per_answer(answers, env)


def test_many_concurrent_hooks_without_a_daemon(env: dict[str, str]) -> None:
    """Far more hooks than cores, each deciding in-process, with a deadline many of them miss: whichever
    answer each gives (its decision or the deadline's deny) is the one recorded, once."""
    env = {**env, "LIMEN_HOOK_DAEMON": "0", "LIMEN_HOOK_DEADLINE_MS": "1500"}
    with ThreadPoolExecutor(max_workers=40) as pool:
        answers = list(pool.map(lambda i: run_hook(EVENTS[i % len(EVENTS)], env), range(80)))
    assert len(answers) == 80
    assert_one_record_per_answer(answers, env)
