"""stdio on both sides: the server as a child process, the agent on our own stdin/stdout.

MCP over stdio is one JSON-RPC message per line; stderr is free-form log and is left to the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import threading
from typing import TYPE_CHECKING

from limen.doors.mcp.messages import JSON, encode
from limen.doors.mcp.proxy import DownstreamUnavailable

if TYPE_CHECKING:
    from limen.doors.mcp.proxy import Proxy

LINE_LIMIT = 64 * 1024 * 1024  # one message may be a large tool result
STOP_GRACE = 2.0  # seconds between closing stdin, SIGTERM and SIGKILL


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
        )
        self._reader = asyncio.create_task(self._read(self._proc, proxy))

    async def _read(self, proc: asyncio.subprocess.Process, proxy: Proxy) -> None:
        assert proc.stdout is not None
        try:
            while line := await proc.stdout.readline():
                if line.strip():
                    await proxy.from_server(line.rstrip(b"\r\n"))
        except (ValueError, OSError) as exc:  # an over-long line or a broken pipe ends the connection
            print(f"limen mcp: server output unreadable ({type(exc).__name__})", file=sys.stderr, flush=True)
            _kill(proc)
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
        """Close stdin, then SIGTERM, then SIGKILL, as the stdio transport prescribes."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                proc.stdin.close()
        for stop in (None, proc.terminate, proc.kill):
            if stop is not None:
                with contextlib.suppress(ProcessLookupError):
                    stop()
            try:
                await asyncio.wait_for(proc.wait(), STOP_GRACE)
                break
            except TimeoutError:
                continue
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


def _kill(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


def stdout_sink(raw: bytes) -> None:
    """Write one message to the agent: a single line on our stdout."""
    sys.stdout.buffer.write(raw + b"\n")
    sys.stdout.buffer.flush()


async def serve_stdio(proxy: Proxy) -> None:
    """Read the agent's messages from stdin until it closes, then stop the server."""
    lines = await _stdin_lines()
    await proxy.start()
    threading.Thread(target=proxy.guard.warm, daemon=True).start()
    try:
        while True:
            try:
                line = await lines.readline()
            except ValueError:  # longer than LINE_LIMIT: answer a parse error, skip the rest of the line
                proxy.to_client(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"too large"}}')
                continue
            if not line:
                await proxy.drain()
                break
            if line.strip():
                await proxy.from_client(line.rstrip(b"\r\n"))
    finally:
        await proxy.close()


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
