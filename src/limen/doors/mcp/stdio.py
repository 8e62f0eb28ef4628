"""stdio on both sides: the server as a child process, the agent on our own stdin/stdout.

MCP over stdio is one JSON-RPC message per line; stderr is free-form log and is left to the client.

The server runs in a process group (a session) of its own, so stopping it stops what it started too:
closing the connection, SIGTERM, SIGINT or SIGHUP to the proxy all end the whole group (stdin closed, then
SIGTERM, then SIGKILL). On Linux the kernel also kills the server when the proxy dies without a chance to
clean up (SIGKILL, a crash): `PR_SET_PDEATHSIG`. What the server started outlives such a death unless the
server takes it down with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from limen.doors.mcp.messages import JSON, encode
from limen.doors.mcp.proxy import DownstreamUnavailable

if TYPE_CHECKING:
    from limen.doors.mcp.proxy import Proxy

LINE_LIMIT = 64 * 1024 * 1024  # one message may be a large tool result
STOP_GRACE = 2.0  # seconds between closing stdin, SIGTERM and SIGKILL
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)  # each stops the proxy and the server's group
_PR_SET_PDEATHSIG = 1


class StdioDownstream:
    """A server run as a child process, kept running across calls."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return (
            self._proc is not None
            and self._proc.returncode is None
            and self._reader is not None
            and not self._reader.done()
        )

    async def start(self, proxy: Proxy) -> None:
        self._proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=None,
            limit=LINE_LIMIT,
            start_new_session=True,  # its own process group: the group is what gets stopped
            preexec_fn=_DIE_WITH_PROXY,
        )
        self._reader = asyncio.create_task(self._read(self._proc, proxy))

    async def _read(self, proc: asyncio.subprocess.Process, proxy: Proxy) -> None:
        assert proc.stdout is not None
        try:
            while line := await proc.stdout.readline():
                if line.strip():
                    await proxy.from_server(line.rstrip(b"\r\n"))
        except (ValueError, OSError) as exc:  # an over-long line or a broken pipe ends the connection
            from limen.logs import logger

            logger("mcp").error("server output unreadable (%s)", type(exc).__name__)
            _signal_group(proc, signal.SIGKILL)
        finally:
            if self._proc is proc:  # not when close() stopped it on purpose
                proxy.server_failed(None, what="the MCP server exited or closed its output")

    async def send(self, message: JSON, raw: bytes) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or not self.alive:
            raise DownstreamUnavailable("not running")
        line = raw if b"\n" not in raw and b"\r" not in raw else encode(message)
        try:
            proc.stdin.write(line + b"\n")
            await proc.stdin.drain()
        except (OSError, RuntimeError) as exc:
            raise DownstreamUnavailable("write failed") from exc

    async def close(self) -> None:
        """Close stdin, then SIGTERM, then SIGKILL, as the stdio transport prescribes, each to the server's
        whole process group; what of the group outlives the server is killed once it has gone."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                proc.stdin.close()
        for stop in (None, signal.SIGTERM, signal.SIGKILL):
            if stop is not None:
                _signal_group(proc, stop)
            try:
                await asyncio.wait_for(proc.wait(), STOP_GRACE)
                break
            except TimeoutError:
                continue
        _signal_group(proc, signal.SIGKILL)
        if self._reader is not None:  # its output ends once nothing of the group holds it open
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, STOP_GRACE)


def _signal_group(proc: asyncio.subprocess.Process, sig: signal.Signals) -> None:
    """Signal the server's process group (its id is the server's pid: it leads a session of its own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _pdeathsig() -> Callable[[], None] | None:
    """Linux: run in the child between fork and exec, so the kernel SIGKILLs the server when the proxy dies
    by any means. The libc call is looked up here, in the parent, so the child only makes it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
        if os.getppid() != parent:  # the proxy died before the request took effect
            os.kill(os.getpid(), signal.SIGKILL)

    return arm


_DIE_WITH_PROXY = _pdeathsig()


def stdout_sink(raw: bytes) -> None:
    """Write one message to the agent: a single line on our stdout."""
    sys.stdout.buffer.write(raw + b"\n")
    sys.stdout.buffer.flush()


async def serve_stdio(proxy: Proxy) -> int:
    """Read the agent's messages from stdin until it closes or a stop signal comes, then stop the server.
    The exit status: 0, or 128 + the signal's number."""
    lines = await _stdin_lines()
    relay = asyncio.ensure_future(_relay(proxy, lines))
    received: list[int] = []

    def stop(sig: signal.Signals) -> None:
        if not received:  # the first signal stops the relay; the server's group is stopped on the way out
            received.append(int(sig))
            relay.cancel()

    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop, sig)
    try:
        await relay
    except asyncio.CancelledError:
        if not received:
            raise
    finally:
        await proxy.close()
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    return 128 + received[0] if received else 0


async def _relay(proxy: Proxy, lines: asyncio.StreamReader) -> None:
    await proxy.start()
    threading.Thread(target=proxy.guard.warm, daemon=True).start()
    while True:
        try:
            line = await lines.readline()
        except ValueError:  # longer than LINE_LIMIT: answer a parse error, skip the rest of the line
            proxy.to_client(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"too large"}}')
            continue
        if not line:
            await proxy.drain()
            return
        if line.strip():
            await proxy.from_client(line.rstrip(b"\r\n"))


async def _stdin_lines() -> asyncio.StreamReader:
    """Our stdin as a stream: read by the event loop when it is a pipe, socket or terminal, else (a file,
    /dev/null) by a thread, since epoll refuses regular files."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    fd = sys.stdin.fileno()
    mode = os.fstat(fd).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or sys.stdin.isatty():
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        return reader

    def pump() -> None:
        for chunk in iter(lambda: os.read(fd, 65536), b""):
            loop.call_soon_threadsafe(reader.feed_data, chunk)
        loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=pump, daemon=True).start()
    return reader
