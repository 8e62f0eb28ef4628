"""MCP over HTTP inside proxied traffic: each `tools/call` decided with the same guard as `limen mcp`
(a refused call never reaches the server, the agent reads why), answers screened as they pass, plain JSON
and SSE alike."""

from __future__ import annotations

import json
import secrets
from typing import Any

import httpx
from tests.proxy.conftest import World

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _call(world: World, session: str, message: Any, path: str = "/mcp") -> httpx.Response:
    url = f"https://127.0.0.1:{world.upstream.port}{path}"
    with httpx.Client(proxy=world.proxy_url(session), verify=world.bundle, timeout=20) as client:
        return client.post(url, content=json.dumps(message).encode(), headers=HEADERS)


def _sse_messages(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def _tool_call(name: str, arguments: dict[str, Any], mid: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": mid,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def test_a_harmless_call_reaches_the_server_and_its_answer_comes_back(world: World) -> None:
    session = f"mcp:{secrets.token_hex(4)}"
    listed = _call(world, session, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert [t["name"] for t in listed.json()["result"]["tools"]] == ["echo", "run_command"]
    answer = _call(world, session, _tool_call("echo", {"text": "hello"}, 2))
    assert answer.json()["result"]["content"][0]["text"] == "hello"


def test_a_refused_tool_call_never_reaches_the_server(world: World) -> None:
    session = f"mcp:{secrets.token_hex(4)}"
    before = len(world.upstream.seen)
    answer = _call(world, session, _tool_call("run_command", {"command": "rm -rf ~/"}, 7))
    assert answer.status_code == 200
    result = answer.json()["result"]
    assert answer.json()["id"] == 7 and result["isError"] is True
    text = result["content"][0]["text"]
    assert "Limen blocked the call" in text and "destructive_command" in text
    assert len(world.upstream.seen) == before + 0  # the guard answered in the server's place


def test_an_injection_in_a_streamed_answer_is_screened_before_the_client_reads_it(world: World) -> None:
    session = f"mcp:{secrets.token_hex(4)}"
    answer = _call(world, session, _tool_call("echo", {"text": "inject"}, 3), path="/mcp-sse")
    assert answer.headers["content-type"].startswith("text/event-stream")
    messages = _sse_messages(answer.text)
    assert messages[0]["method"] == "notifications/progress"  # relayed as it came
    result = messages[-1]["result"]
    texts = " ".join(c.get("text", "") for c in result["content"])
    assert "[Limen]" in texts or "withheld" in texts


def test_a_batch_that_calls_a_tool_is_refused_whole(world: World) -> None:
    session = f"mcp:{secrets.token_hex(4)}"
    before = len(world.upstream.seen)
    answer = _call(
        world, session, [_tool_call("echo", {"text": "a"}, 1), _tool_call("echo", {"text": "b"}, 2)]
    )
    assert [m["error"]["code"] for m in answer.json()] == [-32600, -32600]
    assert len(world.upstream.seen) == before
