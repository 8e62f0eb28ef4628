"""Streamable HTTP towards the server: each message is a POST; answers come back as JSON or SSE.

Handles both protocol generations: the handshake era's `Mcp-Session-Id` (learned from the initialize
answer, echoed afterwards, ended with DELETE) and the modern era's per-request headers (`Mcp-Method`,
`Mcp-Name`, `MCP-Protocol-Version` copied from the message's own `_meta`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import httpx2

from limen.doors.mcp.messages import JSON, is_request, params_of, parse, protocol_version
from limen.doors.mcp.proxy import DownstreamUnavailable

if TYPE_CHECKING:
    from limen.doors.mcp.proxy import Proxy

_NAMED_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def request_headers(message: JSON, session_id: str, negotiated: str) -> dict[str, str]:
    """The headers one POST needs, for whichever era the message belongs to."""
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if session_id:
        headers["Mcp-Session-Id"] = session_id
    modern = protocol_version(message)
    if modern:
        headers["MCP-Protocol-Version"] = modern
        method = message.get("method")
        if isinstance(method, str):
            headers["Mcp-Method"] = method
            key = _NAMED_METHODS.get(method)
            name = params_of(message).get(key) if key else None
            if isinstance(name, str):
                headers["Mcp-Name"] = name
    elif negotiated:
        headers["MCP-Protocol-Version"] = negotiated
    return headers


class HttpDownstream:
    """A server reached over Streamable HTTP. One POST per message, answered concurrently."""

    def __init__(self, url: str, *, headers: dict[str, str] | None = None, timeout: float = 60.0) -> None:
        self.url = url
        self.headers = headers or {}
        self.timeout = timeout
        self.session_id = ""
        self.negotiated = ""
        self._client: httpx2.AsyncClient | None = None
        self._proxy: Proxy | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._expired = (
            False  # the server forgot our session (404): with --restart, the handshake is replayed
        )
        self._initialized = asyncio.Event()  # later messages wait for the session the handshake creates
        self._initialized.set()

    @property
    def alive(self) -> bool:
        return self._client is not None and not self._expired

    async def start(self, proxy: Proxy) -> None:
        self._proxy = proxy
        self._expired, self.session_id = False, ""
        self._client = httpx2.AsyncClient(headers=self.headers, timeout=httpx2.Timeout(self.timeout + 5.0))

    async def send(self, message: JSON, raw: bytes) -> None:
        if self._client is None or self._proxy is None:
            raise DownstreamUnavailable("not started")
        await self._initialized.wait()
        if not is_request(message):  # notifications and answers keep their order and return at once (202)
            await self._post(self._client, self._proxy, message, raw)
            if message.get("method") == "notifications/initialized" and self.session_id:
                self._spawn(self._listen(self._client, self._proxy))
            return
        if message.get("method") == "initialize":
            self._initialized.clear()
        self._spawn(self._post(self._client, self._proxy, message, raw))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _listen(self, client: httpx2.AsyncClient, proxy: Proxy) -> None:
        """The handshake era's standing GET stream: server notifications and requests outside any call.
        A server without one answers 405; a dropped stream is not reopened."""
        headers = {"Accept": "text/event-stream", "Mcp-Session-Id": self.session_id}
        if self.negotiated:
            headers["MCP-Protocol-Version"] = self.negotiated
        with contextlib.suppress(httpx2.HTTPError, OSError, ValueError):
            async with client.stream("GET", self.url, headers=headers, timeout=None) as reply:
                if reply.status_code != 200 or "text/event-stream" not in reply.headers.get(
                    "content-type", ""
                ):
                    return
                async for event in httpx2.EventSource(reply):
                    if event.data:
                        await self._deliver(proxy, event.data.encode("utf-8"), None)

    async def _post(self, client: httpx2.AsyncClient, proxy: Proxy, message: JSON, raw: bytes) -> None:
        message_id = message.get("id") if is_request(message) else None
        headers = request_headers(message, self.session_id, self.negotiated)
        try:
            async with client.stream("POST", self.url, content=raw, headers=headers) as reply:
                session = reply.headers.get("mcp-session-id")
                if session and message.get("method") == "initialize":
                    self.session_id = session
                self._expired |= reply.status_code == 404 and bool(headers.get("Mcp-Session-Id"))
                if reply.status_code == 202 or message_id is None:
                    return
                answered = False
                if reply.headers.get("content-type", "").startswith("text/event-stream"):
                    async for event in httpx2.EventSource(reply):
                        if event.data:
                            answered |= await self._deliver(proxy, event.data.encode("utf-8"), message_id)
                else:
                    answered = await self._deliver(proxy, await reply.aread(), message_id)
                if not answered:
                    proxy.server_failed(message_id, what=f"the MCP server answered HTTP {reply.status_code}")
        except (httpx2.HTTPError, OSError, ValueError):
            if message_id is not None:
                proxy.server_failed(message_id, what="the MCP server could not be reached")
        finally:
            if message.get("method") == "initialize":
                self._initialized.set()

    async def _deliver(self, proxy: Proxy, body: bytes, message_id: Any) -> bool:
        """Hand one message to the proxy; True when it answers `message_id`."""
        message = parse(body)
        if message is None:
            return False
        result = message.get("result")
        if (
            isinstance(result, dict)
            and isinstance(result.get("protocolVersion"), str)
            and "serverInfo" in result
        ):
            self.negotiated = result["protocolVersion"]
        await proxy.from_server(body)
        return "id" in message and message.get("id") == message_id and "method" not in message

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        for task in list(self._tasks):
            task.cancel()
        if self.session_id:
            with contextlib.suppress(httpx2.HTTPError, OSError):
                await client.delete(self.url, headers={"Mcp-Session-Id": self.session_id}, timeout=2.0)
        await client.aclose()
