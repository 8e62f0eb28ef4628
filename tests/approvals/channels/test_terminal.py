"""The terminal channel: an SDK program a person runs in a terminal is asked on /dev/tty (a real pseudo-
terminal here, the program's controlling terminal), never through its stdin; yes approves once, anything
else denies, silence leaves the call denied with its approval id."""

from __future__ import annotations

import os
import pty
import select
import sys
import time
from pathlib import Path

import pytest

PROGRAM = """
import sys, limen
call, wait, mode = {"command": sys.argv[3]}, float(sys.argv[2]), sys.argv[4]
decision = limen.evaluate("Bash", call, cwd=sys.argv[1], session_id="s1", wait=wait, mode=mode)
print("VERDICT", decision.verdict.name, decision.approval_id, decision.explanation, flush=True)
"""


def converse(
    workspace: str,
    wait: float,
    typed: bytes | None,
    command: str = "chmod 777 run.sh",
    mode: str = "balanced",
    secret: bytes = b"",
) -> str:
    """Run the program on a new pseudo-terminal; type `typed` once the prompt shows (and `secret` when the
    factor is asked for); all it printed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its stdin, stdout and controlling terminal are the pty
        os.execv(sys.executable, [sys.executable, "-c", PROGRAM, workspace, str(wait), command, mode])
    seen = b""
    typed_yet = False
    end = time.monotonic() + 60
    try:
        while time.monotonic() < end:
            if not select.select([fd], [], [], 0.5)[0]:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the program has exited and closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            if typed is not None and not typed_yet and b"[y/N]" in seen:
                os.write(fd, typed)
                typed_yet = True
            if secret and b"TOTP code or password: " in seen:
                os.write(fd, secret)
                secret = b""
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    return seen.decode(errors="replace")


@pytest.mark.parametrize(
    ("typed", "verdict"), [(b"y\n", "PASS"), (b"n\n", "AUTH"), (b"maybe later\n", "AUTH")]
)
def test_the_person_at_the_terminal_answers(workspace: str, typed: bytes, verdict: str) -> None:
    seen = converse(workspace, 30, typed)
    assert "Limen asks: allow ONE call?" in seen and "Bash: chmod 777 run.sh" in seen
    assert f"VERDICT {verdict}" in seen


def test_a_strong_request_needs_the_password_typed_unseen(workspace: str) -> None:
    from limen.policy import drift

    drift.setup_password("correct horse battery")
    strong = {"command": "rm -rf ~/projects", "mode": "strict"}  # risk 70, strong from 66 in strict mode
    wrong = converse(workspace, 30, b"y\n", secret=b"not it\n", **strong)
    assert "VERDICT AUTH" in wrong and "not approved: the password does not verify" in wrong
    right = converse(workspace, 30, b"y\n", secret=b"correct horse battery\n", **strong)
    assert "approving needs the TOTP code or password" in right and "VERDICT PASS" in right
    assert "correct horse battery" not in right  # typed without echo


def test_silence_denies_and_leaves_the_request_for_limen_approve(workspace: str, limen_home: Path) -> None:
    seen = converse(workspace, 1, None)  # nobody types
    assert "VERDICT AUTH" in seen and "asked via terminal, a person gave no answer in time" in seen
    from limen.approvals import PENDING, open_approvals

    request_id = seen.split("VERDICT AUTH ")[1].split()[0]
    approvals = open_approvals()
    assert approvals.get(request_id).status == PENDING  # type: ignore[union-attr]
    approvals.close()


def test_no_prompt_without_a_terminal(workspace: str) -> None:
    """Under pytest stdin is not a terminal: the call comes back at once, denied with its id."""
    import limen

    started = time.monotonic()
    decision = limen.evaluate(
        "Bash", {"command": "chmod 777 run.sh"}, cwd=workspace, session_id="s1", wait=30
    )
    assert decision.verdict.name == "AUTH" and decision.approval_id
    assert time.monotonic() - started < 10
