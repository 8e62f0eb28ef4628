"""A loopback HTTP server that speaks the three judge providers' APIs (OpenAI chat completions, Anthropic
Messages, Ollama chat) and can misbehave on request: malformed JSON, an answer off the schema, an error
status, an answer slower than the client's deadline.

It checks each request the way the real service would need it (endpoint, forced tool or schema, model,
headers) and answers 400 when the dialect is wrong, so a test that gets a verdict has spoken the dialect.
Every request body and its headers are kept (`requests`) for the tests to inspect.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages", "ollama": "/api/chat"}


@dataclass
class Behaviour:
    """What the server answers next: `verdict` (an object of the schema, or anything for `wrong_schema`),
    `mode` ok | malformed | wrong_schema | status | slow, `status` for `status`, `delay` for `slow`."""

    verdict: dict[str, Any] = field(default_factory=lambda: {"verdict": "PASS", "risk": 5, "reason": "ok"})
    mode: str = "ok"
    status: int = 500
    delay: float = 0.0


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: str


def _dialect_problem(provider: str, path: str, data: dict[str, Any]) -> str:
    if path != PATHS[provider]:
        return f"wrong endpoint {path}"
    if not data.get("model"):
        return "no model"
    if provider == "openai":
        choice = data.get("tool_choice") or {}
        tools = data.get("tools") or []
        if choice.get("type") != "function" or not tools:
            return "the verdict tool is not forced"
        if choice["function"]["name"] != tools[0]["function"]["name"]:
            return "forced tool is not the one offered"
        if [m["role"] for m in data.get("messages", [])] != ["system", "user"]:
            return "messages are not system + user"
    elif provider == "anthropic":
        choice = data.get("tool_choice") or {}
        tools = data.get("tools") or []
        if choice.get("type") != "tool" or not tools or choice.get("name") != tools[0]["name"]:
            return "the verdict tool is not forced"
        if "input_schema" not in tools[0] or not data.get("max_tokens") or not data.get("system"):
            return "incomplete Messages request"
    elif provider == "ollama" and (
        data.get("stream") is not False or not isinstance(data.get("format"), dict)
    ):
        return "not a non-streaming request with a JSON schema format"
    return ""


def _answer(provider: str, data: dict[str, Any], verdict: Any) -> dict[str, Any]:
    if provider == "openai":
        name = data["tools"][0]["function"]["name"]
        call = {
            "id": "call_1",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(verdict)},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message}],
        }
    if provider == "anthropic":
        block = {"type": "tool_use", "id": "toolu_1", "name": data["tools"][0]["name"], "input": verdict}
        return {"id": "msg_1", "type": "message", "role": "assistant", "content": [block]}
    return {
        "model": data["model"],
        "message": {"role": "assistant", "content": json.dumps(verdict)},
        "done": True,
    }


class JudgeServer:
    """`with JudgeServer("openai") as server:` ... `server.url`, `server.behaviour`, `server.requests`."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.behaviour = Behaviour()
        self.requests: list[Received] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length).decode("utf-8")
                owner.requests.append(Received(self.path, dict(self.headers.items()), raw))
                behaviour = owner.behaviour
                try:
                    data = json.loads(raw)
                except ValueError:
                    return self._send(400, b'{"error": "not json"}')
                problem = _dialect_problem(owner.provider, self.path, data)
                if problem:
                    return self._send(400, json.dumps({"error": problem}).encode())
                if behaviour.mode == "slow":
                    time.sleep(behaviour.delay)
                if behaviour.mode == "status":
                    return self._send(behaviour.status, b'{"error": {"message": "overloaded"}}')
                if behaviour.mode == "malformed":
                    return self._send(200, b'{"choices": [ {"message": ')
                verdict = behaviour.verdict
                return self._send(200, json.dumps(_answer(owner.provider, data, verdict)).encode())

            def _send(self, status: int, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (a deadline): nothing to answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def bodies(self) -> str:
        return "\n".join(r.body for r in self.requests)

    def __enter__(self) -> JudgeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def refused_url() -> str:
    """An http URL on a loopback port nothing listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
