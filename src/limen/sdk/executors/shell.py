"""A shell executor that runs an argv without a shell, under a time and an output limit.

No shell parses anything: `argv[0]` is looked up on the executor's `PATH` and the words are passed as they
are, so `;`, `|`, `$(...)` and globs are plain characters. The process starts in its own session in the
executor's working directory, with the environment the application gave (never the model's, never the
whole of the application's own by default), stdin closed. Past `timeout` seconds its whole process group
is killed and `Timeout` raised (an execution failure: the guard halts the session). Output beyond
`max_output` bytes is cut, the group killed, and the result says so.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping

from limen.sdk.executors import declares

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


class Timeout(TimeoutError):
    """The command ran past its time limit and was killed."""


class ShellExecutor:
    def __init__(
        self,
        cwd: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        max_output: int = 256 * 1024,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.cwd = os.path.realpath(os.fspath(cwd))
        if not os.path.isdir(self.cwd):
            raise ValueError(f"{self.cwd} is not a directory")
        self.timeout = timeout
        self.max_output = max_output
        self.env = dict(env) if env is not None else {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8"}

    @declares("shell.execute", {"argv": "command"})
    def run(self, argv: list[str]) -> dict[str, object]:
        """Run a program with its arguments (no shell). Returns exit status, output and whether it was cut."""
        words = _argv(argv)
        program = _which(words[0], self.env.get("PATH", DEFAULT_PATH), self.cwd)
        process = subprocess.Popen(
            [program, *words[1:]],
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )
        assert process.stdout is not None
        chunks: list[bytes] = []
        size = 0
        truncated = False
        deadline = time.monotonic() + self.timeout
        fd = process.stdout.fileno()
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_READ)
                while True:  # read with the deadline in hand: a child that keeps the pipe open cannot hang us
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise Timeout(f"the command ran past {self.timeout:g} s")
                    if not selector.select(remaining):
                        continue
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    room = self.max_output - size
                    chunks.append(chunk[:room])
                    size += min(len(chunk), room)
                    if len(chunk) > room:
                        truncated = True
                        break
            if truncated:
                _kill_group(process)
            status = process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except (Timeout, subprocess.TimeoutExpired):
            _kill_group(process)
            process.wait()
            raise Timeout(f"the command ran past {self.timeout:g} s") from None
        finally:
            process.stdout.close()
        return {
            "exit_status": status,
            "output": b"".join(chunks).decode("utf-8", "replace"),
            "truncated": truncated,
        }


def _argv(argv: object) -> list[str]:
    if isinstance(argv, str):
        words = shlex.split(argv)
    elif isinstance(argv, (list, tuple)) and all(isinstance(w, str) for w in argv):
        words = list(argv)
    else:
        raise TypeError("argv must be a list of strings")
    if not words or not words[0] or any("\x00" in w for w in words):
        raise ValueError("an empty argv, or a word with a NUL byte")
    return words


def _which(program: str, path: str, cwd: str) -> str:
    """The program's file: a name on PATH, or a path (relative to the executor's directory)."""
    if os.sep in program:
        found = os.path.join(cwd, program)
        if os.access(found, os.X_OK):
            return found
        raise FileNotFoundError("the program is not an executable file")
    for directory in path.split(os.pathsep):
        candidate = os.path.join(directory, program)
        if directory and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("the program is not on the executor's PATH")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
