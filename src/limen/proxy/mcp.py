"""MCP over HTTP seen in proxied traffic: each `tools/call` in a POST body decided like `limen mcp` decides
it, and the answers (plain JSON or an SSE stream) screened as they pass.

Recognised: a POST whose body is a JSON-RPC message (`"jsonrpc": "2.0"` and a `method`) or a batch of them.
The request has already been decided as an HTTP request (destination, body, taint); then
- `tools/call` goes through `limen.doors.mcp.guard.Guard.check_call` (the same tool pins, policy and screens
  as `limen mcp`, one guard per session and server); a refusal is answered in the server's place with a tool
  error naming the reason codes and the decision id, and nothing reaches the server;
- a batch that holds a `tools/call` is refused whole (as `limen mcp serve` refuses batches);
- answers to `tools/call` go through `Guard.screen_result`, answers to `tools/list` through
  `Guard.review_tools` (pins on first sight, hides what the policy denies), server messages on the stream
  through `Guard.screen_server_message` (dropped when it names reason codes).
The server is named by its host (and port), so `limen tools list|approve HOST TOOL` manage its pins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from limen.doors.mcp.messages import (
    JSON,
    encode,
    error,
    is_request,
    is_response,
    params_of,
    tool_error_result,
)

if TYPE_CHECKING:
    from limen.doors.mcp.guard import Guard
    from limen.runtime import Runtime
    from limen.serve.client import RemoteRuntime

SCREENED_METHODS = frozenset({"tools/call", "tools/list"})
MAX_SSE_EVENT = 8 << 20  # an SSE event longer than this is not relayed (it could not be screened whole)


def json_rpc(body: bytes) -> JSON | list[Any] | None:
    """The JSON-RPC message (or batch) a POST body carries, else None."""
    stripped = body.lstrip()
    if not stripped.startswith((b"{", b"[")):
        return None
    try:
        parsed = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(parsed, dict) and parsed.get("jsonrpc") == "2.0" and "method" in parsed:
        return parsed
    if isinstance(parsed, list) and any(isinstance(m, dict) and m.get("jsonrpc") == "2.0" for m in parsed):
        return parsed
    return None


def server_name(host: str, port: int, scheme: str) -> str:
    default = 443 if scheme == "https" else 80
    return host if port == default else f"{host}:{port}"


@dataclass
class Pending:
    """What the proxy must remember to screen the answer to one POST."""

    guard: Guard
    method: str
    message_id: Any
    tool: str = ""
    arguments: Any = None


@dataclass
class Guards:
    """One `Guard` per (session, server), made on first use."""

    runtime: Runtime | RemoteRuntime
    cwd: str
    guards: dict[tuple[str, str], Guard] = field(default_factory=dict)

    def get(self, session_id: str, server: str, remote: bool) -> Guard:
        from limen.doors.mcp.guard import Guard

        key = (session_id, server)
        guard = self.guards.get(key)
        if guard is None:
            guard = self.guards[key] = Guard(self.runtime, server, session_id, self.cwd, remote=remote)
        return guard


def check(guard: Guard, message: JSON | list[Any]) -> tuple[bytes | None, Pending | None]:
    """`(answer, None)` when the proxy answers in the server's place (a refusal), `(None, pending)` when
    the message goes on and its answer must be screened, `(None, None)` when it goes on unscreened."""
    if isinstance(message, list):
        calls = [m for m in message if isinstance(m, dict) and m.get("method") in SCREENED_METHODS]
        if not calls:
            return None, None
        guard.runtime.audit_event("mcp_batch_refused", door="proxy", server=guard.server, size=len(message))
        why = "Invalid request: Limen does not relay JSON-RPC batches that call tools; send one per POST"
        answers = [error(m.get("id"), -32600, why) for m in calls if m.get("id") is not None]
        return (json.dumps(answers).encode() if answers else b""), None
    method = str(message.get("method"))
    if method not in SCREENED_METHODS:
        return None, None
    params = params_of(message)
    message_id = message.get("id")
    if method == "tools/list":
        return None, Pending(guard, method, message_id)
    name, arguments = params.get("name"), params.get("arguments")
    refusal = guard.check_call(name, arguments)
    if refusal is not None:
        if message_id is None:  # a notification-shaped call: refused, nothing to answer
            return b"", None
        return encode(
            {"jsonrpc": "2.0", "id": message_id, "result": tool_error_result(refusal.text, modern=False)}
        ), None
    return None, Pending(guard, method, message_id, str(name), arguments)


def screen_message(pending: Pending, message: Any) -> JSON | None:
    """A replacement for one message from the server, or None to relay it as it is. Raises nothing the
    caller does not turn into a withheld answer."""
    if not isinstance(message, dict):
        return None
    guard = pending.guard
    if is_response(message) and message.get("id") == pending.message_id:
        result = message.get("result")
        if not isinstance(result, dict):
            return None
        if pending.method == "tools/list":
            tools = result.get("tools")
            if not isinstance(tools, list):
                return None
            kept = guard.review_tools(tools)
            return None if kept == tools else dict(message, result=dict(result, tools=kept))
        replaced = guard.screen_result(pending.tool, pending.arguments, result, modern=False)
        return None if replaced is None else dict(message, result=replaced)
    if is_request(message) or "method" in message:
        method = str(message.get("method"))
        from limen.doors.mcp.guard import SERVER_UNSCREENED

        if method in SERVER_UNSCREENED:
            return None
        codes = guard.screen_server_message(method, params_of(message))
        if codes:
            guard.refused_notification(method, None, codes)
            return {}  # dropped
    return None


def withheld(pending: Pending, why: str) -> bytes:
    """The answer when the server's answer could not be screened (malformed, too long)."""
    text = f"Limen withheld the MCP server's answer from the agent: {why}."
    if pending.method == "tools/call":
        return encode(
            {"jsonrpc": "2.0", "id": pending.message_id, "result": tool_error_result(text, modern=False)}
        )
    return encode(error(pending.message_id, -32603, text))


def screen_json(pending: Pending, body: bytes) -> bytes:
    """A plain-JSON answer, screened whole."""
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return withheld(pending, "it is not JSON")
    replaced = screen_message(pending, message)
    return body if replaced is None else encode(replaced)


class SseScreen:
    """An SSE stream screened event by event as it passes: an event is relayed once its blank line arrives,
    after its `data:` JSON has been screened; nothing but the event being read is held."""

    def __init__(self, pending: Pending) -> None:
        self.pending = pending
        self.buffer = bytearray()
        self.failed = False

    def __call__(self, chunk: bytes) -> list[bytes]:
        """The events complete so far, screened, as one chunk (none yet: no chunk, since an empty chunk
        would end a chunked HTTP/1.1 body)."""
        if self.failed:
            return []
        self.buffer += chunk
        out = bytearray()
        while True:
            end, sep = _event_end(self.buffer)
            if end < 0:
                break
            event = bytes(self.buffer[:end])
            del self.buffer[: end + sep]
            out += self._screen_event(event)
        if len(self.buffer) > MAX_SSE_EVENT or (not chunk and self.buffer):
            self.failed = True  # an event too long to hold, or one the stream ended inside
            self.buffer.clear()
            out += b"data: " + withheld(self.pending, "an event could not be read whole") + b"\n\n"
        return [bytes(out)] if out else []

    def _screen_event(self, event: bytes) -> bytes:
        lines = event.replace(b"\r\n", b"\n").split(b"\n")
        data = b"\n".join(line[5:].lstrip(b" ") for line in lines if line.startswith(b"data:"))
        if not data:
            return event + b"\n\n"
        try:
            message = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return b"data: " + withheld(self.pending, "an event is not JSON") + b"\n\n"
        replaced = screen_message(self.pending, message)
        if replaced is None:
            return event + b"\n\n"
        if not replaced:
            return b""
        others = [line for line in lines if line and not line.startswith(b"data:")]
        return b"\n".join([*others, b"data: " + encode(replaced)]) + b"\n\n"


def _event_end(buffer: bytearray) -> tuple[int, int]:
    """Where the first complete event ends in the buffer, and the separator's length; (-1, 0) if none."""
    found = [(i, n) for i, n in ((buffer.find(b"\n\n"), 2), (buffer.find(b"\r\n\r\n"), 4)) if i >= 0]
    return min(found) if found else (-1, 0)
