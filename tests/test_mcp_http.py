"""The MCP proxy over Streamable HTTP, both directions, against real SDK servers and the SDK client."""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers"))

from harness import FAULTY, FS, PY, Env, LineClient, free_port, make_env, start_http, stop, text


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Env:
    return make_env(str(tmp_path_factory.mktemp("mcp-http")))


@pytest.fixture(scope="module")
def fs_url(env: Env) -> Iterator[str]:
    port = free_port()
    proc = start_http([PY, FS, "--http", str(port)], env, port)
    yield f"http://127.0.0.1:{port}/mcp"
    stop(proc)


@pytest.fixture(scope="module")
def front_url(env: Env) -> Iterator[str]:
    """`limen mcp serve` in front of a stdio filesystem server."""
    port = free_port()
    argv = [PY, "-m", "limen", "mcp", "serve", "--listen", f"127.0.0.1:{port}", "--name", "fs", "--", PY, FS]
    proc = start_http(argv, env, port)
    yield f"http://127.0.0.1:{port}/mcp"
    stop(proc)


def _secret_file(env: Env) -> tuple[str, str]:
    key = "AKIA" + "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16))
    path = os.path.join(env.workspace, f"creds-{key[-4:]}.txt")
    with open(path, "w") as fh:
        fh.write(f"aws_access_key_id = {key}\n")
    return path, key


def _notes(env: Env) -> str:
    path = os.path.join(env.workspace, "notes.txt")
    with open(path, "w") as fh:
        fh.write("alpha\nbeta\n")
    return path


@pytest.mark.parametrize("modern", [False, True], ids=["2025-11-25", "2026-07-28"])
def test_proxy_to_an_http_server(env: Env, fs_url: str, modern: bool) -> None:
    notes = _notes(env)
    with LineClient(
        [PY, "-m", "limen", "mcp", "--name", "fs", "--timeout", "10", "--url", fs_url], env
    ) as client:
        if not modern:
            client.initialize()
        assert "read_file" in client.tools(modern=modern)
        allowed = client.call("read_file", {"path": notes}, modern=modern)
        assert allowed["isError"] is False and text(allowed) == "alpha\nbeta\n"
        assert allowed["structuredContent"] == {"result": "alpha\nbeta\n"}
        target = os.path.join(env.home, ".claude", "settings.json")
        blocked = client.call("write_file", {"path": target, "content": "{}"}, modern=modern)
        assert blocked["isError"] is True and "protected_path_blocked" in text(blocked)
        assert not os.path.exists(target)
        path, key = _secret_file(env)
        withheld = client.call("read_file", {"path": path}, modern=modern)
        assert withheld["isError"] is True and key not in str(withheld)
        read, raw = client.request("resources/read", {"uri": f"file://{path}"}, modern=modern)
        assert read["error"]["code"] == -32001 and key.encode() not in raw  # a resource read is screened too
        plain, _ = client.request("resources/read", {"uri": f"file://{notes}"}, modern=modern)
        assert plain["result"]["contents"][0]["text"] == "alpha\nbeta\n"


def test_unreachable_http_server_yields_downstream_error(env: Env) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    with LineClient([PY, "-m", "limen", "mcp", "--timeout", "5", "--url", url], env) as client:
        answer = client.initialize()
        assert answer["error"]["data"]["reason"] == "downstream_error"
        result = client.call("read_file", {"path": "x"})
        assert result["isError"] is True and "downstream_error" in text(result)


async def _session(url: str, mode: str, env: Env) -> dict[str, Any]:
    notes = _notes(env)
    path, key = _secret_file(env)
    logged: list[Any] = []

    async def on_log(params: Any) -> None:
        logged.append(params.data)

    async with Client(url, mode=mode, logging_callback=on_log, log_level="info") as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        allowed = await client.call_tool("read_file", {"path": notes})
        blocked = await client.call_tool(
            "write_file", {"path": os.path.join(env.home, ".claude", "settings.json"), "content": "{}"}
        )
        withheld = await client.call_tool("read_file", {"path": path})
        readme = await client.read_resource("notes://readme")
        counted = await client.call_tool("count", {"n": 2})
        return {
            "tools": tools,
            "allowed": allowed,
            "blocked": blocked,
            "withheld": withheld,
            "key": key,
            "readme": readme,
            "counted": counted,
            "logged": logged,
        }


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_agent_over_http_through_limen_mcp_serve(env: Env, front_url: str, mode: str) -> None:
    seen = asyncio.run(_session(front_url, mode, env))
    assert {"read_file", "write_file", "list_directory"} <= seen["tools"]
    assert seen["allowed"].is_error is False
    assert seen["allowed"].content[0].text == "alpha\nbeta\n"
    assert seen["blocked"].is_error is True and "protected_path_blocked" in seen["blocked"].content[0].text
    assert seen["withheld"].is_error is True and seen["key"] not in str(seen["withheld"])
    assert seen["readme"].contents[0].text.startswith("# notes")
    assert seen["counted"].structured_content == {"result": 2}
    assert seen["logged"] == ["step 1 of 2", "step 2 of 2"]  # carried on the call's SSE stream


def test_serve_rejects_a_foreign_origin(front_url: str) -> None:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        front_url,
        data=b"{}",
        method="POST",
        headers={"Origin": "http://evil.example", "Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 403


def test_http_server_that_hangs_or_crashes_mid_call_yields_downstream_error(env: Env) -> None:
    port = free_port()
    server = start_http([PY, FAULTY, "--http", str(port)], env, port)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        with LineClient(
            [PY, "-m", "limen", "mcp", "--name", "faulty", "--timeout", "1", "--url", url], env
        ) as client:
            client.initialize()
            client.tools()
            hung = client.call("hang")
            assert hung["isError"] is True and "did not answer within 1 s" in text(hung)
            assert text(client.call("ok")) == "ok"
            crashed = client.call("crash")
            assert crashed["isError"] is True and "downstream_error" in text(crashed)
            assert server.wait(10) == 3
            after = client.call("ok")
            assert after["isError"] is True and "downstream_error" in text(after)
    finally:
        stop(server)


def test_a_forgotten_http_session_is_renewed_with_restart(env: Env) -> None:
    notes = _notes(env)
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    server = start_http([PY, FS, "--http", str(port)], env, port)
    argv = [PY, "-m", "limen", "mcp", "--name", "fs", "--timeout", "10", "--restart", "--url", url]
    try:
        with LineClient(argv, env) as client:
            client.initialize()
            client.tools()
            assert text(client.call("read_file", {"path": notes})) == "alpha\nbeta\n"
            stop(server)
            server = start_http([PY, FS, "--http", str(port)], env, port)  # knows no session any more
            lost = client.call("read_file", {"path": notes})
            assert lost["isError"] is True and "downstream_error" in text(lost)
            assert text(client.call("read_file", {"path": notes})) == "alpha\nbeta\n"
    finally:
        stop(server)


def test_description_changed_between_listings_over_http(env: Env, fs_url: str) -> None:
    with LineClient([PY, "-m", "limen", "mcp", "--name", "fs-http", "--url", fs_url], env) as client:
        client.initialize()
        assert "fetch_notes" in client.tools()
        assert text(client.call("upgrade")) == "upgraded"  # the server rewrites its own tool description
        assert "fetch_notes" not in client.tools()
        refused = client.call("fetch_notes", {"topic": "x"})
        assert refused["isError"] is True and "tool_schema_changed" in text(refused)


def _post(url: str, message: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    import http.client
    import json
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        method = "POST" if message else "DELETE"
        body = json.dumps(message).encode() if message else None
        conn.request(method, parts.path, body=body, headers={"content-type": "application/json"} | headers)
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def test_serve_relays_a_server_message_between_calls_on_the_standing_get_stream(front_url: str) -> None:
    import http.client
    import json
    import queue
    import threading
    from urllib.parse import urlsplit

    both = {"accept": "application/json, text/event-stream"}
    params = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    _, headers, _ = _post(
        front_url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}, both
    )
    ids = {"mcp-session-id": headers["mcp-session-id"]}
    _post(front_url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, both | ids)
    parts = urlsplit(front_url)
    events: queue.Queue[dict[str, Any]] = queue.Queue()
    stream = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)

    def listen() -> None:
        stream.request("GET", parts.path, headers={"accept": "text/event-stream"} | ids)
        reply = stream.getresponse()
        events.put({"status": reply.status})
        for line in reply:
            if line.startswith(b"data: "):
                events.put(json.loads(line[6:]))

    threading.Thread(target=listen, daemon=True).start()
    try:
        assert events.get(timeout=30) == {"status": 200}
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "announce_later"}}
        _, _, body = _post(front_url, call, {"accept": "application/json"} | ids)
        assert json.loads(body)["result"]["content"][0]["text"] == "scheduled"
        assert events.get(timeout=30)["method"] == "notifications/tools/list_changed"
        plain_get = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        plain_get.request("GET", parts.path, headers={"accept": "text/event-stream"})
        assert plain_get.getresponse().status == 405  # no session: the stateless era has no standing stream
        plain_get.close()
    finally:
        _post(front_url, {}, ids)  # DELETE ends the session and its stream
        stream.close()
