"""`limen-hook <agent>`: the process a coding agent spawns for every hook event.

It must answer, and answer deny, whatever happens: agents treat a crash, a timeout, a non-blocking exit code
or unparsable output as "go ahead". So before reading anything it claims stdout for the answer alone (stray
prints go to stderr), arms a deadline that answers the agent's deny before the agent's own timeout, and
turns every exception into that deny. It imports only the standard library: the event goes over a Unix
socket to `limen daemon`; only when no daemon answers in time does `fallback` decide it here, in a forked
child whose death or hang is itself a deny (and start a daemon in the background for the next call).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time

from limen.doors.hooks import events as ev
from limen.doors.hooks import wire

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from limen.doors.hooks.handler import Dialect

USAGE = "usage: limen-hook <claude-code|cursor|gemini|codex>\n"
DEFAULT_DEADLINE_MS = 5000  # `limen install` configures 10 s in every agent: half of it is margin
DAEMON_SHARE = 0.4  # of the deadline, waited on the daemon before deciding in-process
CLAIM_MARGIN = 0.05  # seconds before the deadline at which a claimed but unanswered event is denied


class Responder:
    """Writes exactly one answer, whichever comes first: the decision or the deadline's deny."""

    def __init__(self, out_fd: int, fallback: ev.Answer) -> None:
        self.out_fd = out_fd
        self.fallback = fallback
        self._lock = threading.Lock()
        self._answered = False

    def _write(self, answer: ev.Answer) -> None:
        if answer.stderr:
            os.write(2, answer.stderr.encode())
        data = answer.stdout.encode()
        while data:
            data = data[os.write(self.out_fd, data) :]

    def answer(self, answer: ev.Answer) -> int:
        with self._lock:
            if self._answered:  # the deadline's deny is already written: end with its exit code, now
                os._exit(self.fallback.exit_code)
            self._answered = True
            self._write(answer)
        return answer.exit_code

    def expire(self) -> None:
        with self._lock:
            if self._answered:
                return
            self._answered = True
            self._write(self.fallback)
        os._exit(self.fallback.exit_code)


def deadline_seconds() -> float:
    try:
        millis = int(os.environ.get("LIMEN_HOOK_DEADLINE_MS", DEFAULT_DEADLINE_MS))
    except ValueError:
        millis = DEFAULT_DEADLINE_MS
    return max(millis, 50) / 1000


def claim_stdout() -> int:
    """A private copy of stdout for the answer; fd 1 itself now points at stderr."""
    saved = os.dup(1)
    os.dup2(2, 1)
    return saved


def event_name(text: str) -> str | None:
    try:
        name = json.loads(text).get("hook_event_name")
    except (ValueError, AttributeError):
        return None
    return name if isinstance(name, str) else None


def read_event() -> str:
    data = sys.stdin.buffer.read(wire.MAX_EVENT_BYTES + 1)
    if len(data) > wire.MAX_EVENT_BYTES:
        raise ValueError("event too large")
    return data.decode("utf-8-sig", errors="replace")


def ask_daemon(agent: str, text: str, env: dict[str, str], wait: float, end: float) -> ev.Answer | None:
    """The daemon's answer, or None when it is absent (then one is started), slow before claiming the
    event, or broken: then the caller decides the event itself. Once the daemon has claimed the event
    (it is about to record it), deciding it here too would record it twice, so a claimed event that gets
    no answer by `end` (monotonic) is denied instead."""
    try:
        sock = wire.connect(wait)
    except (FileNotFoundError, ConnectionRefusedError):
        from limen.doors.hooks.fallback import start_daemon

        with contextlib.suppress(OSError):  # deciding in-process is the answer either way
            start_daemon()
        return None
    except (OSError, ValueError):
        return None
    claimed = False
    with sock:  # leaving it closes the socket: a claim the daemon sends after that is refused
        try:
            sock.sendall(wire.encode({"op": "hook", "agent": agent, "event": text, "env": env}))
            message = wire.read_line(sock)
            if message.get("claim") is True:
                sock.sendall(wire.encode({"go": True}))
                claimed = True
                sock.settimeout(max(end - time.monotonic(), 0.001))
                message = wire.read_line(sock)
            return ev.Answer.from_wire(message)
        except TimeoutError:
            if claimed:
                raise ev.NoAnswer("no answer before the deadline") from None
            return None
        except (OSError, ValueError, KeyError, TypeError):  # a daemon that died or broke: decide here
            return None


def decide(agent: str, text: str, deadline: float, out_fd: int) -> ev.Answer:
    """The daemon's answer when one comes in time, else one decided here before the deadline."""
    started = time.monotonic()
    env = {k: os.environ[k] for k in wire.FORWARDED_ENV if k in os.environ}
    with contextlib.suppress(OSError):  # a deleted directory: a relative cwd is then refused
        env[wire.HOOK_CWD] = os.getcwd()
    if os.environ.get("LIMEN_HOOK_DAEMON") != "0":  # 0: always decide here, never start a daemon
        answer = ask_daemon(agent, text, env, deadline * DAEMON_SHARE, started + deadline - CLAIM_MARGIN)
        if answer is not None:
            return answer
    from limen.doors.hooks.fallback import ANSWER_MARGIN, isolated

    return isolated(agent, text, env, deadline - (time.monotonic() - started) - ANSWER_MARGIN, out_fd)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    module = ev.DIALECTS.get(args[0]) if len(args) == 1 else None
    if module is None:
        sys.stderr.write(USAGE)
        return 2  # a blocking exit code for every supported agent
    agent = args[0]
    # `__import__`, not `importlib.import_module`: it is the import `python -X importtime` reports.
    speaker: Dialect = __import__(f"limen.doors.hooks.{module}", fromlist=["fail_closed"])
    responder = Responder(claim_stdout(), speaker.fail_closed(None, "no answer before the deadline"))
    deadline = deadline_seconds()
    timer = threading.Timer(deadline, responder.expire)
    timer.daemon = True
    timer.start()
    name: str | None = None
    try:
        text = read_event()
        name = event_name(text)
        responder.fallback = speaker.fail_closed(name, "no answer before the deadline")
        answer = decide(agent, text, deadline, responder.out_fd)
    except ev.NoAnswer as exc:
        answer = speaker.fail_closed(name, str(exc))
    except BaseException as exc:
        answer = speaker.fail_closed(name, f"{type(exc).__name__} in the hook")
    code = responder.answer(answer)
    timer.cancel()
    return code
