"""`limen pending`, `limen approve ID` and `limen deny ID` as a person uses them, end to end with the SDK
door (`limen.evaluate`): approved calls go through once, anything else is asked again or denied."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyotp

import limen
from limen.audit.verify import verify
from limen.model import Verdict
from limen.policy import drift

CHMOD = {"command": "chmod 777 run.sh"}


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *args], capture_output=True, text=True, input=stdin, timeout=60
    )


def evaluate(workspace: str, args: dict[str, str] = CHMOD, **kw: object) -> limen.Decision:
    return limen.evaluate("Bash", args, cwd=workspace, session_id="s1", **kw)  # type: ignore[arg-type]


def test_pending_lists_open_requests_with_the_masked_action(workspace: str) -> None:
    assert cli("pending").stdout.strip() == "no approval requests are waiting"
    asked = evaluate(workspace, {"command": "chmod 777 run.sh # AKIAIOSFODNN7EXAMPLE"})
    listed = json.loads(cli("pending", "--json").stdout)
    assert [r["id"] for r in listed] == [asked.approval_id]
    assert set(listed[0]) >= {"id", "action", "reasons", "expires", "risk", "tool", "session", "status"}
    assert "unsafe_permissions" in listed[0]["reasons"] and "AKIAIOSFODNN7EXAMPLE" not in listed[0]["action"]
    human = cli("pending").stdout
    assert asked.approval_id in human and "chmod 777 run.sh" in human and "limen approve ID" in human


def test_approve_lets_the_identical_call_through_once(workspace: str, limen_home: Path) -> None:
    asked = evaluate(workspace)
    assert asked.verdict is Verdict.AUTH and asked.approval_id
    other = evaluate(workspace, {"command": "chmod 777 other.sh"})
    approved = cli("approve", asked.approval_id)
    assert approved.returncode == 0 and f"approved once: {asked.approval_id}" in approved.stdout
    assert evaluate(workspace, {"command": "chmod 777 other.sh"}).verdict is Verdict.AUTH  # not covered
    passed = evaluate(workspace)
    assert passed.verdict is Verdict.PASS and passed.approval_id == asked.approval_id
    again = evaluate(workspace)
    assert again.verdict is Verdict.AUTH and again.approval_id != asked.approval_id
    assert {r["id"] for r in json.loads(cli("pending", "--json").stdout)} == {
        other.approval_id,
        again.approval_id,
    }
    used = cli("approve", asked.approval_id)
    assert used.returncode == 1 and "already used" in used.stderr
    assert verify(str(limen_home / "audit")).ok


def test_deny_refuses_and_the_retry_asks_again(workspace: str) -> None:
    asked = evaluate(workspace)
    denied = cli("deny", asked.approval_id)
    assert denied.returncode == 0 and f"denied: {asked.approval_id}" in denied.stdout
    retry = evaluate(workspace)
    assert retry.verdict is Verdict.AUTH and retry.approval_id != asked.approval_id
    assert cli("approve", asked.approval_id).returncode == 1  # a denial is final


def test_unknown_and_malformed_ids_change_nothing(workspace: str) -> None:
    asked = evaluate(workspace)
    for bad in ("ffffffffff", "../../etc", "x" * 100):
        result = cli("approve", bad)
        assert result.returncode == 1 and "no approval request" in result.stderr
    assert evaluate(workspace).verdict is Verdict.AUTH
    assert json.loads(cli("pending", "--json").stdout)[0]["id"] == asked.approval_id


def test_a_strong_request_is_approved_only_with_the_code(workspace: str) -> None:
    strong = {"command": "rm -rf ~/projects"}  # risk 70: strong in strict mode (from 66)
    asked = evaluate(workspace, strong, mode="strict")
    secret = drift.setup_totp().split("secret=")[1].split("&")[0]
    refused = cli("approve", asked.approval_id)
    assert refused.returncode == 1 and "--code" in refused.stderr
    assert evaluate(workspace, strong, mode="strict").verdict is Verdict.AUTH
    assert cli("approve", asked.approval_id, "--code", pyotp.TOTP(secret).now()).returncode == 0
    assert evaluate(workspace, strong, mode="strict").verdict is Verdict.PASS


def test_a_strong_request_is_approved_with_the_password(workspace: str) -> None:
    strong = {"command": "rm -rf ~/projects"}
    asked = evaluate(workspace, strong, mode="strict")
    drift.setup_password("correct horse battery")
    assert cli("approve", asked.approval_id, "--password-stdin", stdin="wrong password\n").returncode == 1
    ok = cli("approve", asked.approval_id, "--password-stdin", stdin="correct horse battery\n")
    assert ok.returncode == 0, ok.stderr
    assert evaluate(workspace, strong, mode="strict").verdict is Verdict.PASS


def test_help_works_for_each_command() -> None:
    for command in ("pending", "approve", "deny"):
        result = cli(command, "--help")
        assert result.returncode == 0 and f"limen {command}" in result.stdout
    assert all(name in cli("--help").stdout for name in ("pending", "approve", "deny"))
    assert os.environ.get("LIMEN_HOME")  # the conftest's throwaway home, never the user's


def test_approve_and_deny_answer_in_json_when_asked(workspace: str) -> None:
    approved_request = evaluate(workspace)
    denied_request = evaluate(workspace, {"command": "chmod 777 other.sh"})
    approved = json.loads(cli("approve", approved_request.approval_id, "--json").stdout)
    denied = json.loads(cli("deny", denied_request.approval_id, "--json").stdout)
    assert approved["id"] == approved_request.approval_id and approved["answer"] == "approve"
    assert denied["id"] == denied_request.approval_id and denied["answer"] == "deny"
    assert approved["tool"] == "Bash" and approved["expires"] > 0
