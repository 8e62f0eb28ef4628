"""The slow path of `limen-hook`, imported only when no daemon answered: decide in a forked child, and
start a daemon for the next call.

The child does the deciding so that nothing it can do (hang holding the GIL, crash in a C extension,
`os._exit` deep in the engine) takes the hook process with it: the parent only waits on a pipe, and a
missing or late answer is the agent's deny.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time

from limen.doors.hooks import events as ev
from limen.doors.hooks import wire

RESPAWN_SECONDS = 10.0
ANSWER_MARGIN = 0.05  # seconds kept to write the deny when the in-process decision overruns


def start_daemon() -> None:
    """Start a daemon in the background, at most once per `RESPAWN_SECONDS`: a daemon that cannot start
    must not cost every later hook a doomed interpreter."""
    stamp = os.path.join(wire.ensure_run_dir(), "spawned")
    try:
        if time.time() - os.stat(stamp).st_mtime < RESPAWN_SECONDS:
            return
    except FileNotFoundError:
        pass
    with open(stamp, "w"):
        pass
    wire.spawn_daemon()


def child(agent: str, text: str, env: dict[str, str], write_end: int) -> None:
    """The forked decider. It lets go of the agent's stdout and stderr before deciding, so a stray print in
    a rule can never reach the agent (and the agent is not kept waiting on its pipes while the audit log
    closes); then it answers up the pipe and closes the runtime (the audit's fsync)."""
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.close(quiet)
    from limen.doors.hooks.handler import RuntimePool, handle

    pool = RuntimePool(limit=1)
    try:
        payload = json.dumps(handle(agent, text, env, pool).to_wire()).encode()
        while payload:
            payload = payload[os.write(write_end, payload) :]
        os.close(write_end)
    finally:
        pool.close()


def isolated(agent: str, text: str, env: dict[str, str], timeout: float, out_fd: int) -> ev.Answer:
    """Decide in a forked child and wait at most `timeout` for its answer. A hang that holds the GIL, a
    crash in a C extension or an `os._exit` deep in the engine ends the child, never this process."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns: it leaves with os._exit, running no cleanup twice
        code = 1
        try:
            os.close(read_end)
            os.close(out_fd)
            child(agent, text, env, write_end)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        received = read_until_eof(read_end, time.monotonic() + timeout)
    finally:
        os.close(read_end)
    if received is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise ev.NoAnswer("no answer before the deadline")
    os.waitpid(pid, os.WNOHANG)  # it may still be closing the audit log: not our wait
    try:
        return ev.Answer.from_wire(json.loads(received))
    except (ValueError, KeyError, TypeError):
        raise ev.NoAnswer("the decision process died") from None


def read_until_eof(fd: int, end: float) -> bytes | None:
    """Everything written to `fd` until its writer closes it, or None when `end` passes first."""
    chunks: list[bytes] = []
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
