"""The terminal channel: a prompt on `/dev/tty` for a program a person runs in a terminal.

Only the SDK door uses it, and only when the program's standard input is itself a terminal (a person
started it there): a hook or the MCP proxy shares its terminal, if any, with the agent's own interface.
The prompt is written to and read from `/dev/tty`, never the agent's stdin or stdout. `y` or `yes`
approves (then the TOTP code or password for a strong request, read without echo); any other answer,
including an empty line, denies; no answer before the door's deadline leaves the request pending (the
call is denied with its id, and `limen approve ID` still works until the request expires).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from limen.approvals.records import ApprovalError

if TYPE_CHECKING:
    from limen.approvals.records import ApprovalRequest
    from limen.approvals.service import Approvals

DOORS = frozenset({"sdk"})
MAX_LINE = 256
# The prompts still talking to a person, by request id: the door waits for one to finish writing before it
# returns, so the program's next output never lands in the middle of the prompt's last line.
_CONVERSATIONS: dict[str, threading.Thread] = {}


def available(door: str) -> int | None:
    """An open `/dev/tty` descriptor when a person's terminal may be asked, else None."""
    if door not in DOORS:
        return None
    try:
        if not sys.stdin or not sys.stdin.isatty():
            return None
        return os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except (OSError, ValueError, AttributeError):
        return None


def ask(approvals: Approvals, request: ApprovalRequest, *, door: str, until: float) -> bool:
    """Start the prompt (it answers into the store from its own thread); False when there is no terminal."""
    fd = available(door)
    if fd is None:
        return False
    conversation = threading.Thread(
        target=_converse, args=(approvals, request, fd, until), name="limen-approval-tty", daemon=True
    )
    _CONVERSATIONS[request.id] = conversation
    conversation.start()
    return True


def finish(request_id: str, timeout: float) -> None:
    """Wait (at most `timeout` seconds) for the prompt of `request_id` to write its last line."""
    conversation = _CONVERSATIONS.pop(request_id, None)
    if conversation is not None:
        conversation.join(timeout)


def _converse(approvals: Approvals, request: ApprovalRequest, fd: int, until: float) -> None:
    try:
        factor = "\n  approving needs the TOTP code or password" if request.strong else ""
        _write(
            fd,
            f"\nLimen asks: allow ONE call?\n  {request.action}\n"
            f"  reason codes: {', '.join(request.reasons)}; risk {request.risk}; approval {request.id}"
            f"{factor}\nAllow it once? [y/N] ",
        )
        answer = _read_line(fd, until)
        if answer is None:
            _write(fd, f"\n(no answer: denied for now; `limen approve {request.id}` still works)\n")
            return
        if answer.strip().lower() not in ("y", "yes"):
            approvals.deny(request.id, by="terminal")
            _write(fd, "denied\n")
            return
        secret = None
        if request.strong:
            with _no_echo(fd):  # before the prompt: what is typed after it is never shown
                _write(fd, "TOTP code or password: ")
                secret = _read_line(fd, until)
            _write(fd, "\n")
            if not secret:
                approvals.deny(request.id, by="terminal")
                _write(fd, "no code: denied\n")
                return
        code, password = (secret, None) if secret and secret.strip().isdigit() else (None, secret)
        approvals.grant(request.id, by="terminal", code=code.strip() if code else None, password=password)
        _write(fd, "approved once\n")
    except ApprovalError as exc:
        with contextlib.suppress(OSError):
            _write(fd, f"not approved: {exc}\n")
        with contextlib.suppress(ApprovalError):
            approvals.deny(request.id, by="terminal")
    except OSError:
        return
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "replace")
    while data:
        data = data[os.write(fd, data) :]


def _read_line(fd: int, until: float) -> str | None:
    """One line typed before `until`, or None. A line longer than `MAX_LINE` is cut (a malformed answer
    is a deny anyway)."""
    chunks = b""
    while b"\n" not in chunks and len(chunks) < MAX_LINE:
        left = until - time.time()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, MAX_LINE)
        if not chunk:
            return None
        chunks += chunk
    return chunks.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")


@contextlib.contextmanager
def _no_echo(fd: int) -> Iterator[None]:
    """The terminal without echo while a code or password is typed."""
    try:
        import termios

        old = termios.tcgetattr(fd)
        new = list(old)
        new[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSADRAIN, new)
    except (ImportError, OSError):
        yield
        return
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
