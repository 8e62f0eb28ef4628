"""A scripted model API on loopback, speaking the three dialects the agent CLIs use.

- Anthropic Messages (`POST /v1/messages`, streamed as SSE or not) for Claude Code (`ANTHROPIC_BASE_URL`);
- OpenAI Responses (`POST /v1/responses`, SSE) for Codex (a custom model provider's `base_url`);
- Gemini (`POST /v1beta/models/<m>:streamGenerateContent?alt=sse`, `:generateContent`, `:countTokens`) for
  Gemini CLI (`GOOGLE_GEMINI_BASE_URL`).

The script is a list of abstract tool calls (`Step`). Which one the model makes next is read from the
conversation the CLI sends: a request holding N tool results gets step N, and past the last step a final
text answer. So retries and the CLIs' side requests (titles, routing, next-speaker checks: any request that
offers no tools) never move the script. Every request is recorded verbatim, which is what the tests assert
on: what the model was shown.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

FINAL_TEXT = "Scripted run complete."


@dataclass(frozen=True)
class Step:
    """One tool call of the script: `shell` runs `value` as a command line, `read` reads the file `value`."""

    kind: str  # "shell" | "read"
    value: str


@dataclass
class Recorded:
    method: str
    path: str
    body: str
    main_loop: bool  # the request offered the agent's tools (not a side request)
    results_seen: int  # tool results in its conversation (= the script step it was answered with)
    answered_with: str  # the tool name called, or "text"
    dialect: str = ""  # "anthropic" | "openai" | "gemini"

    def tool_results(self) -> list[str]:
        """The text of every tool result in the conversation, oldest first: what the model was shown."""
        try:
            body = json.loads(self.body)
        except ValueError:
            return []
        return RESULT_TEXTS[self.dialect](body) if self.dialect in RESULT_TEXTS else []


@dataclass
class ScriptedModel:
    steps: list[Step]
    requests: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, entry: Recorded) -> None:
        with self.lock:
            self.requests.append(entry)

    def shown_after(self, step: int) -> list[Recorded]:
        """Every main-loop request sent after the result of step `step` (0-based) came back."""
        with self.lock:
            return [r for r in self.requests if r.main_loop and r.results_seen > step]

    def result_of(self, step: int) -> str | None:
        """What the model was shown as the result of step `step`: None when no request carried it."""
        for request in self.shown_after(step):
            results = request.tool_results()
            if len(results) > step:
                return results[step]
        return None

    def summary(self) -> str:
        with self.lock:
            return "\n".join(
                f"  {r.method} {r.path} main={r.main_loop} results={r.results_seen} -> {r.answered_with}"
                for r in self.requests
            )

    def all_bodies(self) -> str:
        with self.lock:
            return "\n".join(r.body for r in self.requests)


def sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


# --- Anthropic Messages ------------------------------------------------------------------------------


def anthropic_results(body: dict[str, Any]) -> int:
    count = 0
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            count += sum(
                1 for block in content if isinstance(block, dict) and block.get("type") == "tool_result"
            )
    return count


def anthropic_result_texts(body: dict[str, Any]) -> list[str]:
    texts = []
    for message in body.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "\n".join(str(b.get("text", b)) if isinstance(b, dict) else str(b) for b in inner)
                texts.append(str(inner))
    return texts


def anthropic_call(step: Step) -> tuple[str, dict[str, Any]]:
    if step.kind == "read":
        return "Read", {"file_path": step.value}
    return "Bash", {"command": step.value, "description": "Scripted step"}


def anthropic_reply(body: dict[str, Any], step: Step | None, n: int) -> tuple[str, bytes, str]:
    model = body.get("model", "claude-scripted")
    usage = {
        "input_tokens": 10,
        "output_tokens": 1,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }
    if step is None:
        block: dict[str, Any] = {"type": "text", "text": FINAL_TEXT}
        stop, answered = "end_turn", "text"
    else:
        name, args = anthropic_call(step)
        block = {"type": "tool_use", "id": f"toolu_scripted_{n}", "name": name, "input": args}
        stop, answered = "tool_use", name
    message = {
        "id": f"msg_scripted_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    if not body.get("stream"):
        return "application/json", json.dumps(message).encode(), answered
    if block["type"] == "text":
        start = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    else:
        start = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    events: list[tuple[str | None, dict[str, Any]]] = [
        (
            "message_start",
            {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        ),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "text/event-stream", sse(events), answered


# --- OpenAI Responses (Codex) ------------------------------------------------------------------------

RESULT_ITEMS = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}


def openai_results(body: dict[str, Any]) -> int:
    items = body.get("input")
    return (
        sum(1 for i in items if isinstance(i, dict) and i.get("type") in RESULT_ITEMS)
        if isinstance(items, list)
        else 0
    )


def openai_result_texts(body: dict[str, Any]) -> list[str]:
    items = body.get("input")
    texts = []
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and item.get("type") in RESULT_ITEMS:
            output = item.get("output")
            texts.append(output if isinstance(output, str) else json.dumps(output))
    return texts


def openai_tool_names(body: dict[str, Any]) -> set[str]:
    return {t.get("name") or t.get("type") for t in body.get("tools", []) if isinstance(t, dict)}


def openai_call(body: dict[str, Any], step: Step) -> tuple[str, str]:
    """(tool name, JSON arguments) in whichever shell tool this Codex offers."""
    line = step.value if step.kind == "shell" else f"cat {step.value}"
    offered = openai_tool_names(body)
    if "exec_command" in offered:
        return "exec_command", json.dumps({"cmd": line})
    if "shell_command" in offered:
        return "shell_command", json.dumps({"command": line})
    return "shell", json.dumps({"command": ["bash", "-lc", line]})


def openai_reply(body: dict[str, Any], step: Step | None, n: int) -> tuple[str, bytes, str]:
    rid = f"resp_scripted_{n}"
    if step is None:
        item: dict[str, Any] = {
            "type": "message",
            "role": "assistant",
            "id": f"msg_scripted_{n}",
            "content": [{"type": "output_text", "text": FINAL_TEXT, "annotations": []}],
        }
        answered = "text"
    else:
        name, arguments = openai_call(body, step)
        item = {
            "type": "function_call",
            "id": f"fc_scripted_{n}",
            "call_id": f"call_scripted_{n}",
            "name": name,
            "arguments": arguments,
        }
        answered = name
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    events: list[tuple[str | None, dict[str, Any]]] = [
        ("response.created", {"type": "response.created", "response": {"id": rid}}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": {"id": rid, "usage": usage}}),
    ]
    return "text/event-stream", sse(events), answered


# --- Gemini --------------------------------------------------------------------------------------------


def gemini_results(body: dict[str, Any]) -> int:
    count = 0
    for content in body.get("contents", []):
        parts = content.get("parts") if isinstance(content, dict) else None
        count += sum(1 for p in parts or [] if isinstance(p, dict) and "functionResponse" in p)
    return count


def gemini_result_texts(body: dict[str, Any]) -> list[str]:
    texts = []
    for content in body.get("contents", []):
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts or []:
            if isinstance(part, dict) and "functionResponse" in part:
                texts.append(json.dumps(part["functionResponse"].get("response")))
    return texts


def gemini_declarations(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for tool in body.get("tools", []) or []:
        for decl in (tool or {}).get("functionDeclarations", []) or []:
            found[decl.get("name")] = decl
    return found


def gemini_call(body: dict[str, Any], step: Step) -> tuple[str, dict[str, Any]]:
    if step.kind == "shell":
        return "run_shell_command", {"command": step.value, "description": "Scripted step"}
    decl = gemini_declarations(body).get("read_file", {})
    schema = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
    props = schema.get("properties") or {}
    key = "absolute_path" if "absolute_path" in props else "file_path"
    return "read_file", {key: step.value}


def gemini_reply(body: dict[str, Any], step: Step | None, stream: bool) -> tuple[str, bytes, str]:
    if step is None:
        part: dict[str, Any] = {"text": FINAL_TEXT}
        answered = "text"
    else:
        name, args = gemini_call(body, step)
        part = {"functionCall": {"name": name, "args": args}}
        answered = name
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-scripted",
    }
    if stream:
        return "text/event-stream", sse([(None, chunk)]), answered
    return "application/json", json.dumps(chunk).encode(), answered


RESULT_TEXTS = {
    "anthropic": anthropic_result_texts,
    "openai": openai_result_texts,
    "gemini": gemini_result_texts,
}
SIDE_JSON = {
    "reasoning": "scripted",
    "next_speaker": "user",
    "model_choice": "flash",
    "complexity_reasoning": "scripted",
    "complexity_score": 1,
}


def gemini_side_reply() -> bytes:
    """A side request (routing, next-speaker check, loop detection): a JSON text that says 'carry on'."""
    chunk = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": json.dumps(SIDE_JSON)}]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
    }
    return json.dumps(chunk).encode()


# --- the server ------------------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: ModelServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if content_type == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self) -> None:
        self.server.model.record(Recorded("GET", self.path, "", False, 0, "none"))
        path = urlsplit(self.path).path
        if path.endswith("/models"):
            self.send(
                200, "application/json", json.dumps({"object": "list", "data": [], "models": []}).encode()
            )
        else:
            self.send(404, "application/json", b'{"error": {"message": "not scripted"}}')

    def do_HEAD(self) -> None:
        self.send(200, "text/plain", b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        text = raw.decode("utf-8", errors="replace")
        try:
            body = json.loads(text) if text.strip() else {}
        except ValueError:
            body = {}
        path = urlsplit(self.path).path
        model = self.server.model
        dialect = ""
        if path.endswith("/messages"):
            dialect = "anthropic"
            main = any(isinstance(t, dict) and t.get("name") == "Bash" for t in body.get("tools", []) or [])
            n = anthropic_results(body)
            step = model.steps[n] if main and n < len(model.steps) else None
            ctype, data, answered = anthropic_reply(body, step, n)
        elif path.endswith("/messages/count_tokens"):
            ctype, data, answered, main, n = "application/json", b'{"input_tokens": 10}', "count", False, 0
        elif path.endswith("/responses"):
            dialect = "openai"
            main = bool(body.get("tools"))
            n = openai_results(body)
            step = model.steps[n] if main and n < len(model.steps) else None
            ctype, data, answered = openai_reply(body, step, n)
        elif ":countTokens" in path:
            ctype, data, answered, main, n = "application/json", b'{"totalTokens": 10}', "count", False, 0
        elif ":streamGenerateContent" in path or ":generateContent" in path:
            dialect = "gemini"
            main = "run_shell_command" in gemini_declarations(body)
            n = gemini_results(body)
            if main:
                step = model.steps[n] if n < len(model.steps) else None
                ctype, data, answered = gemini_reply(body, step, ":streamGenerateContent" in path)
            elif ":streamGenerateContent" in path:
                ctype, data, answered = "text/event-stream", b"data: " + gemini_side_reply() + b"\n\n", "side"
            else:
                ctype, data, answered = "application/json", gemini_side_reply(), "side"
        else:
            model.record(Recorded("POST", self.path, text, False, 0, "404"))
            self.send(404, "application/json", b'{"error": {"message": "not scripted"}}')
            return
        model.record(Recorded("POST", self.path, text, main, n, answered, dialect))
        self.send(200, ctype, data)


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, model: ScriptedModel) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.model = model

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@contextlib.contextmanager
def serve(model: ScriptedModel) -> Iterator[ModelServer]:
    """The server on a free loopback port for the duration of a `with` block."""
    server = ModelServer(model)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
