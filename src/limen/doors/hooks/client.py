"""`limen-hook <agent>`: the process a coding agent spawns for every hook event.

It must answer, and answer deny, whatever happens: agents treat a crash, a timeout, a non-blocking exit code
or unparsable output as "go ahead". So before reading anything it claims stdout for the answer alone (stray
prints go to stderr), arms a deadline that answers the agent's deny before the agent's own timeout, and
turns every exception into that deny. The event goes over a Unix socket to `limen daemon`; only when no
daemon answers in time does `fallback` decide it here, in a forked child whose death or hang is itself a
deny (and start a daemon in the background for the next call).

An agent waits for this process on every tool call, and most of its cost is the interpreter starting and
importing. So the way to the daemon imports only modules written in C beside Limen's own small ones:
`_thread` rather than `threading`, `_socket` rather than `socket`, `cjson` rather than `json` (their Python
layers pull in `functools`, `collections`, `enum` and `re`: about 20 ms per call on a slow machine).
"""

from __future__ import annotations

import _thread
import os
import sys
import time

from limen.doors.hooks import cjson, wire
from limen.doors.hooks import events as ev

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from _socket import socket
    from collections.abc import Callable
    from typing import Any

    from limen.doors.hooks.handler import Dialect

USAGE = "usage: limen-hook <claude-code|cursor|gemini|codex>\n"
DEFAULT_DEADLINE_MS = 5000  # `limen install` configures 10 s in every agent: half of it is margin
DAEMON_SHARE = 0.4  # of the deadline, waited on the daemon before deciding in-process
CLAIM_MARGIN = 0.05  # seconds before the deadline at which a claimed but unanswered event is denied
RECORD_MARGIN = 1.0  # seconds past the deadline spent recording its answer (agents wait 10 s; we use 5)
HOLD_MARGIN = 1.0  # seconds before the deadline at which an AUTH held for a human's approval is answered


class Flag:
    """`threading.Event`'s `set` and `wait`, on `_thread` locks: the gate is held until the flag is set."""

    __slots__ = ("_gate", "_guard", "_set")

    def __init__(self) -> None:
        self._guard = _thread.allocate_lock()
        self._gate = _thread.allocate_lock()
        self._gate.acquire()
        self._set = False

    def set(self) -> None:
        with self._guard:
            if not self._set:
                self._set = True
                self._gate.release()

    def wait(self, timeout: float) -> bool:
        if self._gate.acquire(timeout=timeout):
            self._gate.release()
            return True
        return self._set


class Deadline:
    """`threading.Timer` on a `_thread` lock: runs `action` in a thread of its own after `seconds`,
    unless cancelled first."""

    __slots__ = ("_cancelled",)

    def __init__(self, seconds: float, action: Callable[[], None]) -> None:
        self._cancelled = _thread.allocate_lock()
        self._cancelled.acquire()
        _thread.start_new_thread(self._watch, (seconds, action))

    def _watch(self, seconds: float, action: Callable[[], None]) -> None:
        if not self._cancelled.acquire(timeout=seconds):
            action()

    def cancel(self) -> None:
        self._cancelled.release()


class Responder:
    """Writes exactly one answer, whichever comes first: the decision or the deadline's deny; and makes
    sure the audit log holds exactly one record of it, written before the answer.

    A decided answer is first committed (from then on the deadline gives that answer, not its deny), then
    recorded (by the daemon that decided it, or here), then written. The deadline's deny is recorded here.
    """

    def __init__(self, out_fd: int, fallback: ev.Answer) -> None:
        self.out_fd = out_fd
        self.fallback = fallback
        self._lock = _thread.allocate_lock()
        self._committed: ev.Answer | None = None
        self._recorded = Flag()
        self._written = False
        self._given = fallback  # the answer written, once `_written`
        self._done = Flag()  # an answer is written

    def _write(self, answer: ev.Answer) -> None:
        if answer.stderr:
            os.write(2, answer.stderr.encode())
        data = answer.stdout.encode()
        while data:
            data = data[os.write(self.out_fd, data) :]

    def answer(self, answer: ev.Answer, channel: Channel | None = None) -> int:
        with self._lock:
            deadline_took_over = self._written or self._committed is not None
            if not deadline_took_over:
                self._committed = answer
        if deadline_took_over:  # the deadline answers, records and ends the process: leave it to finish,
            self._done.wait(2 * RECORD_MARGIN + 1.0)  # yet never end without an answer written
            code = self._finish(self.fallback)
            time.sleep(RECORD_MARGIN + 1.0)  # the deadline's os._exit ends this wait
            os._exit(code)
        try:
            if not record(answer, channel):
                hand_off(answer)
        finally:
            self._recorded.set()
        return self._finish(answer)

    def _finish(self, answer: ev.Answer) -> int:
        """Write `answer` unless one is written already; the exit code of whichever was."""
        with self._lock:
            if self._written:
                return self._given.exit_code
            self._written, self._given = True, answer
            self._write(answer)
        self._done.set()
        return answer.exit_code

    def expire(self) -> None:
        with self._lock:
            if self._written:
                return
            committed = self._committed
            if committed is None:
                self._committed = self.fallback
        if committed is None:  # nothing decided in time: the deny, recorded first when that is quick
            answer = self.fallback
            outcome: list[bool] = []
            finished = Flag()

            def recorder() -> None:
                try:
                    outcome.append(record(answer, None, RECORD_MARGIN))
                finally:
                    finished.set()

            _thread.start_new_thread(recorder, ())
            finished.wait(RECORD_MARGIN)
            recorded = outcome == [True]
        else:  # decided and being recorded: give the recorder a moment, then that same answer
            answer = committed
            recorded = self._recorded.wait(RECORD_MARGIN)
        if not recorded:  # a machine too loaded to record in time: a detached process finishes it
            hand_off(answer)  # (`append_once` keeps one copy if this process's attempt lands too)
        code = self._finish(answer)
        os._exit(code)


class Channel:
    """The daemon connection an answer came on, kept open so the daemon can record the answer once this
    process has settled on giving it."""

    def __init__(self, sock: socket, end: float) -> None:
        self.sock = sock
        self.end = end

    def recorded_by_daemon(self) -> bool:
        """Ask the daemon to append the record; False when it did not confirm before `end`."""
        try:
            self.sock.settimeout(max(self.end - time.monotonic(), 0.001))
            self.sock.sendall(wire.encode({"record": True}))
            return wire.read_line(self.sock).get("recorded") is True
        except (OSError, ValueError):
            return False
        finally:
            self.sock.close()


def record(answer: ev.Answer, channel: Channel | None, timeout: float = 2.0) -> bool:
    """Append the answer's audit record exactly once: through the daemon that decided it when it is still
    there, else here (`append_once` skips it when the daemon wrote it after all). False when it could not
    be written in time (the caller hands it to a detached writer); the answer stands either way."""
    if answer.record is None:
        return True
    if channel is not None and channel.recorded_by_daemon():
        return True
    try:
        from limen.audit.writer import AuditWriter

        writer = AuditWriter(fsync_every=0)
        try:
            writer.append_once(answer.record, since=answer.since, timeout=timeout)
        finally:
            writer.close()
    except Exception as exc:
        os.write(2, f"limen-hook: the audit record was not written yet ({type(exc).__name__})\n".encode())
        return False
    return True


def hand_off(answer: ev.Answer) -> None:
    """Leave the answer's record to a detached writer (`wire.handoff`)."""
    if answer.record is not None:
        try:
            wire.handoff(answer.record, answer.since)
        except OSError:
            pass


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
        name = cjson.loads(text).get("hook_event_name")
    except (ValueError, AttributeError):
        return None
    return name if isinstance(name, str) else None


def read_event() -> str:
    data = sys.stdin.buffer.read(wire.MAX_EVENT_BYTES + 1)
    if len(data) > wire.MAX_EVENT_BYTES:
        raise ValueError("event too large")
    return data.decode("utf-8-sig", errors="replace")


def ask_daemon(
    agent: str, text: str, env: dict[str, str], wait: float, end: float
) -> tuple[ev.Answer, Channel] | None:
    """The daemon's answer (and the connection it came on), or None when it is absent (then one is
    started), slow before claiming the event, or broken: then the caller decides the event itself. Once
    the daemon has claimed the event (it is about to change the session's state), deciding it here too
    would count it twice, so a claimed event that gets no answer by `end` (monotonic) is denied instead."""
    try:
        sock = wire.connect(wait)
    except (FileNotFoundError, ConnectionRefusedError):
        from limen.doors.hooks.fallback import start_daemon

        try:
            start_daemon()
        except OSError:  # deciding in-process is the answer either way
            pass
        return None
    except (OSError, ValueError):
        return None
    claimed = False
    key = wire.daemon_key()
    if key is None:  # no daemon has run here yet: nothing it says could be trusted
        sock.close()
        return None
    nonce = os.urandom(16).hex()
    try:
        sock.sendall(wire.encode({"op": "hook", "agent": agent, "event": text, "env": env, "nonce": nonce}))
        message = wire.read_line(sock)
        if message.get("claim") is True:
            sock.sendall(wire.encode({"go": True}))
            claimed = True
            sock.settimeout(max(end - time.monotonic(), 0.001))
            message = wire.read_line(sock)
        return authentic(message, key, nonce), Channel(sock, end)
    except TimeoutError:
        sock.close()  # a claim the daemon sends after this is refused
        if claimed:
            raise ev.NoAnswer("no answer before the deadline") from None
        return None
    except (OSError, ValueError, KeyError, TypeError):  # a daemon that died or broke: decide here
        sock.close()
        return None


def authentic(message: dict[str, Any], key: bytes, nonce: str) -> ev.Answer:
    """The answer in a daemon's reply, once its MAC proves the daemon sent it for this nonce; raises
    ValueError for anything else (an impostor on the socket: the caller decides the event itself)."""
    from _operator import _compare_digest  # `hmac.compare_digest`, without hmac's 4 ms of OpenSSL

    body, mac = message.get("body"), message.get("mac")
    if not (isinstance(body, str) and isinstance(mac, str)):
        raise ValueError("an unsigned answer")
    if not _compare_digest(mac, wire.sign(key, nonce, body)):
        raise ValueError("an answer not signed by the daemon")
    return ev.Answer.from_wire(cjson.loads(body))


def decide(agent: str, text: str, deadline: float, out_fd: int) -> tuple[ev.Answer, Channel | None]:
    """The daemon's answer when one comes in time, else one decided here before the deadline."""
    started = time.monotonic()
    env = {k: os.environ[k] for k in wire.FORWARDED_ENV if k in os.environ}
    try:
        env[wire.HOOK_CWD] = os.getcwd()
    except OSError:  # a deleted directory: a relative cwd is then refused
        pass
    env[wire.HOLD_UNTIL] = repr(time.time() + deadline - HOLD_MARGIN)
    if os.environ.get("LIMEN_HOOK_DAEMON") != "0":  # 0: always decide here, never start a daemon
        served = ask_daemon(agent, text, env, deadline * DAEMON_SHARE, started + deadline - CLAIM_MARGIN)
        if served is not None:
            return served
    from limen.doors.hooks.fallback import ANSWER_MARGIN, isolated

    left = deadline - (time.monotonic() - started) - ANSWER_MARGIN
    return isolated(agent, text, env, left, out_fd), None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    module = ev.DIALECTS.get(args[0]) if len(args) == 1 else None
    if module is None:
        sys.stderr.write(USAGE)
        return 2  # a blocking exit code for every supported agent
    agent = args[0]
    # `__import__`, not `importlib.import_module`: it is the import `python -X importtime` reports.
    speaker: Dialect = __import__(f"limen.doors.hooks.{module}", fromlist=["fail_closed"])

    def refuse(name: str | None, why: str) -> ev.Answer:
        answer = speaker.fail_closed(name, why)
        answer.record, answer.since = ev.fail_closed_record(agent, name, why), wire.audit_size()
        return answer

    responder = Responder(claim_stdout(), refuse(None, "no answer before the deadline"))
    deadline = deadline_seconds()
    timer = Deadline(deadline, responder.expire)
    name: str | None = None
    channel: Channel | None = None
    try:
        text = read_event()
        name = event_name(text)
        responder.fallback = refuse(name, "no answer before the deadline")
        answer, channel = decide(agent, text, deadline, responder.out_fd)
    except ev.NoAnswer as exc:
        answer = refuse(name, str(exc))
    except BaseException as exc:
        answer = refuse(name, f"{type(exc).__name__} in the hook")
    code = responder.answer(answer, channel)
    timer.cancel()
    return code
