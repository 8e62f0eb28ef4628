"""Streamable HTTP towards the agent: `limen mcp serve --listen 127.0.0.1:PORT -- <server>`.

Each handshake-era session (an `initialize` answered with a fresh `Mcp-Session-Id`) gets its own proxy and
its own server process, as a stdio server serves one client. Modern-era (stateless) requests share one.
Sessions are held until the client ends them (DELETE) or the endpoint stops; at most `--max-sessions` at
once. At the limit a new `initialize` is refused (HTTP 503, a JSON-RPC error) unless a session has been
idle (nothing in flight, no standing stream) for `--session-idle` seconds: such an abandoned session is
closed to make room. A session in use is never closed under a client's feet.
Request ids are rewritten per POST so concurrent clients can never collide, and restored in the answer.
An answer is plain JSON unless server messages (progress, logs, server requests) arrive while the call
runs; then, if the client accepts it, the answer becomes an SSE stream carrying them first. A server
message that no such POST can carry (one arriving between calls, or during a plain-JSON POST) goes to the
session's standing GET stream when the client holds one open, else it is dropped with a note: the
stateless era has no standing stream (GET answers 405 there), as its revision intends.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import signal
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from limen.doors.mcp.app import Options, make_proxy
from limen.doors.mcp.guard import open_runtime
from limen.doors.mcp.messages import (
    INVALID_REQUEST,
    JSON,
    PARSE_ERROR,
    REFUSED,
    encode,
    error,
    is_request,
    is_response,
    params_of,
    parse,
    parse_batch,
)
from limen.doors.mcp.proxy import Proxy

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

MAX_BODY = 64 * 1024 * 1024
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_SSE_HEADERS = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]


@dataclass(slots=True)
class _Waiter:
    """A POST waiting for its answer; server messages that arrive meanwhile may ride on its SSE stream."""

    original_id: Any
    streams: bool
    items: asyncio.Queue[tuple[bool, bytes]] = field(default_factory=asyncio.Queue)  # (is the answer, bytes)


@dataclass(slots=True)
class _Channel:
    """One proxy and the POSTs waiting for its answers, by internal id."""

    proxy: Proxy | None = None
    waiting: dict[str, _Waiter] = field(default_factory=dict)
    listeners: list[asyncio.Queue[bytes | None]] = field(default_factory=list)  # standing GET streams
    used: float = field(default_factory=time.monotonic)  # when a request or stream last touched it

    def idle_for(self, now: float) -> float:
        """Seconds since the client last used this session; 0 while a request or a stream is open."""
        return 0.0 if self.waiting or self.listeners else now - self.used

    def deliver(self, raw: bytes) -> None:
        """Route what the proxy sends: an answer to its POST, anything else to the oldest SSE-capable POST,
        else to the oldest standing GET stream (a message between calls)."""
        message = parse(raw)
        if message is None:
            return
        if is_response(message) and isinstance(message.get("id"), str):
            waiter = self.waiting.pop(message["id"], None)
            if waiter is not None:
                waiter.items.put_nowait((True, encode(dict(message, id=waiter.original_id))))
            return
        outlet = next((w for w in self.waiting.values() if w.streams), None)
        if outlet is not None:
            outlet.items.put_nowait((False, raw))
        elif self.listeners:
            self.listeners[0].put_nowait(raw)
        else:
            _note("a server message arrived with no open stream to the client; dropped")

    async def close(self) -> None:
        for listener in self.listeners:
            listener.put_nowait(None)  # ends the GET stream
        if self.proxy is not None:
            await self.proxy.close()

    def original_to_internal(self, message_id: Any) -> Any:
        for internal, waiter in self.waiting.items():
            if waiter.original_id == message_id:
                return internal
        return message_id


class HttpFront:
    """An ASGI app serving one MCP endpoint in front of per-session proxies."""

    def __init__(self, options: Options, runtime: Any, path: str) -> None:
        self.options = options
        self.runtime = runtime
        self.path = path
        self.sessions: dict[str, _Channel] = {}
        self.shared: _Channel | None = None
        self._ids = itertools.count(1)
        self._opening = 0  # sessions being started: they count against the limit already

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not _local_origin(headers):
            await _reply(send, 403, error(None, INVALID_REQUEST, "Forbidden origin"))
        elif scope.get("path") != self.path:
            await _reply(send, 404, error(None, INVALID_REQUEST, "Not found"))
        elif scope["method"] == "POST":
            await self._post(headers, receive, send)
        elif scope["method"] == "GET":
            await self._listen(headers, receive, send)
        elif scope["method"] == "DELETE":
            channel = self.sessions.pop(headers.get("mcp-session-id", ""), None)
            if channel is not None:
                await channel.close()
            await _reply(send, 200 if channel else 404, None)
        else:
            await _reply(send, 405, None)

    async def _post(self, headers: dict[str, str], receive: Receive, send: Send) -> None:
        body = await _body(receive)
        message = parse(body) if body is not None else None
        batch = parse_batch(body) if message is None and body is not None else None
        if batch is not None:
            await self._refuse_batch(batch, send)
            return
        if message is None:
            await _reply(send, 400, error(None, PARSE_ERROR, "Parse error: expected one JSON-RPC message"))
            return
        session = headers.get("mcp-session-id", "")
        extra: dict[str, str] = {}
        if message.get("method") == "initialize":
            if not await self._room():
                limit = self.options.max_sessions
                why = f"limen mcp serve holds its limit of {limit} sessions (--max-sessions); end one first"
                await _reply(send, 503, error(message.get("id"), REFUSED, why))
                return
            session = secrets.token_hex(16)
            self._opening += 1
            try:
                channel = await self._open(f"mcp-http-{session}")
            finally:
                self._opening -= 1
            self.sessions[session] = channel
            extra["mcp-session-id"] = session
        elif session:
            found = self.sessions.get(session)
            if found is None:
                await _reply(
                    send, 404, error(message.get("id"), INVALID_REQUEST, "Unknown or expired session")
                )
                return
            channel = found
        else:
            if self.shared is None:
                self.shared = await self._open(f"mcp-http-{os.getpid()}-{secrets.token_hex(4)}")
            channel = self.shared
        assert channel.proxy is not None
        if not is_request(message):
            if message.get("method") == "notifications/cancelled":
                params = dict(params_of(message))
                params["requestId"] = channel.original_to_internal(params.get("requestId"))
                message = dict(message, params=params)
            await channel.proxy.from_client(encode(message))
            await _reply(send, 202, None, extra)
            return
        internal = f"limen-{next(self._ids)}"
        waiter = _Waiter(message["id"], "text/event-stream" in headers.get("accept", ""))
        channel.waiting[internal] = waiter
        try:
            await channel.proxy.from_client(encode(dict(message, id=internal)))
            await self._answer(send, waiter, extra)
        finally:
            channel.waiting.pop(internal, None)
            channel.used = time.monotonic()

    async def _refuse_batch(self, batch: list[Any], send: Send) -> None:
        """A JSON-RPC batch over HTTP (2025-03-26; later revisions dropped batches) is refused whole: no
        element reaches the server, each request gets an error under its id, and the refusal is audited."""
        why = "Invalid request: Limen does not relay JSON-RPC batches over HTTP; send one message per POST"
        ids = [m["id"] for m in batch if isinstance(m, dict) and "method" in m and m.get("id") is not None]
        methods = [str(m.get("method")) for m in batch if isinstance(m, dict) and "method" in m]
        self.runtime.audit_event("mcp_batch_refused", door="mcp-http", methods=methods[:50], size=len(batch))
        _note(f"refused a batch of {len(batch)} message(s)")
        errors = [error(message_id, INVALID_REQUEST, why) for message_id in ids]
        if not errors:
            await _reply(send, 400, error(None, INVALID_REQUEST, why))
            return
        body = b"[" + b",".join(encode(e) for e in errors) + b"]"
        await _reply_raw(send, 200, body)

    async def _room(self) -> bool:
        """Whether one more session may open: under the limit, or once abandoned sessions (idle for
        `session_idle` seconds) are closed. Sessions in use are never closed to make room."""
        if len(self.sessions) + self._opening < self.options.max_sessions:
            return True
        idle = self.options.session_idle
        if idle > 0:
            now = time.monotonic()
            for key, channel in list(self.sessions.items()):
                if channel.idle_for(now) >= idle and self.sessions.pop(key, None) is not None:
                    _note(f"closed a session idle for {channel.idle_for(now):.0f} s to make room")
                    await channel.close()
        return len(self.sessions) + self._opening < self.options.max_sessions

    async def _answer(self, send: Send, waiter: _Waiter, extra: dict[str, str]) -> None:
        """Plain JSON when the answer comes first; an SSE stream when server messages precede it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.options.timeout + self.options.startup_timeout + 5.0
        streaming = False
        while True:
            try:  # the proxy answers every request within its timeout; this bound is only a backstop
                is_answer, raw = await asyncio.wait_for(waiter.items.get(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                is_answer, raw = (
                    True,
                    encode(error(waiter.original_id, -32603, "downstream_error: no answer")),
                )
            if is_answer and not streaming:
                await _reply_raw(send, 200, raw, extra)
                return
            if not streaming:
                headers = _SSE_HEADERS + [(k.encode(), v.encode()) for k, v in extra.items()]
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                streaming = True
            await send({"type": "http.response.body", "body": _event(raw), "more_body": not is_answer})
            if is_answer:
                return

    async def _listen(self, headers: dict[str, str], receive: Receive, send: Send) -> None:
        """The standing GET stream of a handshake-era session: server messages between calls."""
        session = headers.get("mcp-session-id", "")
        if not session or "text/event-stream" not in headers.get("accept", ""):
            await _reply(send, 405, None)  # the stateless era has no standing stream
            return
        channel = self.sessions.get(session)
        if channel is None:
            await _reply(send, 404, error(None, INVALID_REQUEST, "Unknown or expired session"))
            return
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        channel.listeners.append(queue)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
            while True:
                item = asyncio.ensure_future(queue.get())
                await asyncio.wait({item, gone}, return_when=asyncio.FIRST_COMPLETED)
                raw = item.result() if item.done() else None
                if raw is None:
                    item.cancel()
                    break
                await send({"type": "http.response.body", "body": _event(raw), "more_body": True})
            if not gone.done():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            channel.listeners.remove(queue)
            channel.used = time.monotonic()
            while not queue.empty():  # what came after the client left goes to the next stream, if any
                raw = queue.get_nowait()
                if raw is not None:
                    channel.deliver(raw)

    async def _open(self, session_id: str) -> _Channel:
        channel = _Channel()
        channel.proxy = make_proxy(self.options, self.runtime, channel.deliver, session_id=session_id)
        await channel.proxy.start()
        threading.Thread(target=channel.proxy.guard.warm, daemon=True).start()
        return channel

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                channels = [*self.sessions.values(), *([self.shared] if self.shared else [])]
                self.sessions.clear()
                await asyncio.gather(*(channel.close() for channel in channels))  # each may take seconds
                await send({"type": "lifespan.shutdown.complete"})
                return


def _note(text: str) -> None:
    """Operator-facing note in the MCP client's server log (stderr, timestamped), never on the protocol
    stream."""
    from limen.logs import logger

    logger("mcp").warning(text)


def _event(raw: bytes) -> bytes:
    return b"event: message\ndata: " + raw + b"\n\n"


async def _disconnected(receive: Receive) -> None:
    """Returns when the client has gone away (ASGI tells it as `http.disconnect`)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _local_origin(headers: dict[str, str]) -> bool:
    """DNS-rebinding defence: a browser Origin, if any, must be a loopback one."""
    origin = headers.get("origin")
    return origin is None or (urlsplit(origin).hostname or "") in _LOCAL_HOSTS


async def _body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not event.get("more_body"):
            return b"".join(chunks)


async def _reply(send: Send, status: int, message: JSON | None, extra: dict[str, str] | None = None) -> None:
    await _reply_raw(send, status, encode(message) if message is not None else b"", extra)


async def _reply_raw(send: Send, status: int, body: bytes, extra: dict[str, str] | None = None) -> None:
    headers = [(b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def parse_listen(listen: str) -> tuple[str, int]:
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"--listen {listen!r}: expected HOST:PORT")
    host = host.strip("[]") or "127.0.0.1"
    if host not in _LOCAL_HOSTS:
        raise ValueError(f"--listen {listen!r}: the proxy serves loopback addresses only")
    return host, int(port)


def run_http(options: Options, listen: str, path: str) -> int:
    """Serve the endpoint until interrupted: SIGINT and SIGTERM (uvicorn's) and SIGHUP shut it down
    gracefully, which stops every session's server with its process group."""
    import uvicorn

    host, port = parse_listen(listen)
    runtime = open_runtime(options.workspace or os.getcwd(), options.mode)
    try:
        config = uvicorn.Config(
            HttpFront(options, runtime, path),
            host=host,
            port=port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,  # standing GET streams never end by themselves
        )
        server = uvicorn.Server(config)
        signal.signal(signal.SIGHUP, server.handle_exit)  # uvicorn handles SIGINT and SIGTERM itself
        server.run()
    finally:
        runtime.close()
    return 0
