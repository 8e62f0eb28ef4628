"""Every client message that asks the server to act is decided and audited whatever its framing: a
`tools/call`, `resources/read` or `prompts/get` without an id (a notification, which a server that
dispatches on `method` still runs), JSON-RPC batches, and notifications that are not pure notifications.
Driven against a real server that runs whatever it is sent and records it."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers"))

from harness import PY, Env, LineClient, make_env, proxy_argv, text

DISPATCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers", "dispatch_server.py")
DENIED = {"command": "rm -rf ~"}  # BLOCK (destructive_command) for any tool
SETTLE = 0.3  # how long a dropped notification is given to reach the server anyway


@pytest.fixture
def env(tmp_path: Any) -> Env:
    return make_env(str(tmp_path))


def _record(env: Env) -> str:
    return os.path.join(env.root, "ran.jsonl")


def _ran(env: Env) -> list[dict[str, Any]]:
    try:
        with open(_record(env)) as fh:
            return [json.loads(line) for line in fh]
    except FileNotFoundError:
        return []


def _audit(env: Env) -> list[dict[str, Any]]:
    path = os.path.join(env.limen_home, "audit", "decisions.jsonl")
    with open(path) as fh:
        return [json.loads(line) for line in fh]


@pytest.fixture
def client(env: Env) -> Iterator[LineClient]:
    with LineClient(
        proxy_argv(DISPATCH, "--timeout", "10", name="dispatch"), env, DISPATCH_RECORD=_record(env)
    ) as c:
        c.initialize()
        c.tools()
        yield c


def _sync(client: LineClient) -> None:
    """A request after the notifications: once it is answered, whatever the proxy forwarded before it has
    reached the server (one pipe, in order)."""
    assert text(client.call("echo", {"text": "sync"})) == "sync"


def _answers(client: LineClient, *ids: Any) -> list[dict[str, Any]]:
    """The answers to `ids`, in whatever order they came."""
    found: dict[Any, dict[str, Any]] = {}
    for message_id in ids:
        early = [m for m in client.others if m.get("id") == message_id and "method" not in m]
        found[message_id] = early[0] if early else client.answer(message_id)[0]
    return [found[i] for i in ids]


def _calls(env: Env, name: str) -> list[dict[str, Any]]:
    return [
        m
        for m in _ran(env)
        if isinstance(m, dict) and m.get("method") == "tools/call" and m["params"].get("name") == name
    ]


def test_the_server_runs_an_id_less_call_when_nothing_is_in_between(env: Env) -> None:
    """The premise: this server runs a `tools/call` notification (so forwarding one unchecked is a hole)."""
    with LineClient([PY, DISPATCH], env, DISPATCH_RECORD=_record(env)) as direct:
        direct.initialize()
        direct.send(
            {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "rmdir", "arguments": DENIED}}
        )
        direct.request("tools/list")
    assert _calls(env, "rmdir")


def test_an_id_less_denied_call_is_dropped_logged_and_audited(client: LineClient, env: Env) -> None:
    client.send({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "rmdir", "arguments": DENIED}})
    _sync(client)
    time.sleep(SETTLE)
    assert not _calls(env, "rmdir")
    decided = [r for r in _audit(env) if "rmdir" in json.dumps(r)]
    assert any(r.get("kind") != "event" for r in decided), "the call itself was decided"
    assert any(r.get("event") == "mcp_notification_refused" for r in decided)
    assert "refused a tools/call without an id" in client.log()
    assert not [m for m in client.others if "method" not in m], "nothing is answered: there is no id"


def test_an_id_less_allowed_call_is_decided_audited_and_forwarded(client: LineClient, env: Env) -> None:
    client.send(
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "quiet"}}}
    )
    _sync(client)
    assert next(c["params"]["arguments"] for c in _calls(env, "echo")) == {"text": "quiet"}
    assert any(
        r.get("kind") != "event" and "quiet" not in json.dumps(r) and "echo" in json.dumps(r)
        for r in _audit(env)
    )
    # the server's answer to it (id null) never reaches the agent: it was not screened as a request's
    assert not any(m.get("id") is None and "result" in m for m in client.others)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("resources/read", {"uri": "file://{home}/.ssh/id_rsa"}),
        ("prompts/get", {"name": "x", "arguments": DENIED}),
    ],
)
def test_id_less_reads_and_prompt_fetches_are_decided(
    client: LineClient, env: Env, method: str, params: dict[str, Any]
) -> None:
    params = json.loads(json.dumps(params).replace("{home}", env.home))
    client.send({"jsonrpc": "2.0", "method": method, "params": params})
    _sync(client)
    time.sleep(SETTLE)
    assert not [m for m in _ran(env) if m.get("method") == method]
    assert any(r.get("event") == "mcp_notification_refused" for r in _audit(env))


@pytest.mark.parametrize(
    "method", ["completion/complete", "resources/subscribe", "logging/setLevel", "tasks/cancel", "x/run"]
)
def test_notifications_that_ask_for_work_are_refused(client: LineClient, env: Env, method: str) -> None:
    client.send({"jsonrpc": "2.0", "method": method, "params": {"uri": "file:///etc/passwd"}})
    _sync(client)
    time.sleep(SETTLE)
    assert not [m for m in _ran(env) if m.get("method") == method]
    assert any(
        r.get("event") == "mcp_notification_refused" and r.get("method") == method for r in _audit(env)
    )


def test_pure_notifications_are_relayed(client: LineClient, env: Env) -> None:
    for method, params in (
        ("notifications/progress", {"progressToken": 1, "progress": 1}),
        ("notifications/cancelled", {"requestId": 99, "reason": "changed my mind"}),
        ("notifications/roots/list_changed", {}),
    ):
        client.send({"jsonrpc": "2.0", "method": method, "params": params})
    _sync(client)
    seen = [m.get("method") for m in _ran(env)]
    assert {"notifications/initialized", "notifications/progress", "notifications/cancelled"} <= set(seen)
    assert "notifications/roots/list_changed" in seen


def test_a_batch_is_split_and_each_element_decided(client: LineClient, env: Env) -> None:
    batch = [
        {
            "jsonrpc": "2.0",
            "id": 501,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "one"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 502,
            "method": "tools/call",
            "params": {"name": "rmdir", "arguments": DENIED},
        },
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "rmquiet", "arguments": DENIED}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}},
    ]
    client.send_raw(json.dumps(batch).encode())
    first, second = _answers(client, 501, 502)
    assert text(first["result"]) == "one"
    assert second["result"]["isError"] is True and "destructive_command" in text(second["result"])
    _sync(client)
    time.sleep(SETTLE)
    assert _calls(env, "echo") and not _calls(env, "rmdir") and not _calls(env, "rmquiet")
    assert "notifications/progress" in [m.get("method") for m in _ran(env)]
    assert not [m for m in _ran(env) if isinstance(m, list)], "the batch never reaches the server as a batch"


@pytest.mark.parametrize("batch", [b"[]", b"[1, 2]"])
def test_empty_or_junk_batches_are_invalid_requests(client: LineClient, batch: bytes) -> None:
    client.send_raw(batch)
    answer, _ = client.answer(None)
    assert answer["error"]["code"] in (-32600, -32700)
    _sync(client)


def _http_post(url: str, body: bytes) -> tuple[int, bytes]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
        conn.request("POST", parts.path, body=body, headers=headers)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_over_http_id_less_calls_are_decided_and_batches_refused_whole(env: Env) -> None:
    from harness import free_port, start_http, stop

    port = free_port()
    listen = ["--listen", f"127.0.0.1:{port}", "--name", "dispatch"]
    argv = [PY, "-m", "limen", "mcp", "serve", *listen, "--", PY, DISPATCH]
    proc = start_http(argv, env, port, DISPATCH_RECORD=_record(env))
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        quiet = {"name": "echo", "arguments": {"text": "over http"}}
        for params in ({"name": "rmhttp", "arguments": DENIED}, quiet):
            status, _ = _http_post(
                url, json.dumps({"jsonrpc": "2.0", "method": "tools/call", "params": params}).encode()
            )
            assert status == 202
        batch = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "b"}},
            },
            {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "rmbatch", "arguments": DENIED}},
        ]
        status, body = _http_post(url, json.dumps(batch).encode())
        assert status == 200
        answers = json.loads(body)
        assert [a["id"] for a in answers] == [1] and answers[0]["error"]["code"] == -32600
        status, body = _http_post(
            url, json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}).encode()
        )
        assert status == 200
        time.sleep(SETTLE)
        assert not _calls(env, "rmhttp") and not _calls(env, "rmbatch")
        assert [c["params"]["arguments"] for c in _calls(env, "echo")] == [{"text": "over http"}]
        events = [r.get("event") for r in _audit(env)]
        assert "mcp_notification_refused" in events and "mcp_batch_refused" in events
    finally:
        stop(proc)


@pytest.mark.parametrize("method", ["x/run", "Tools/Call", "tools/execute", "shell/exec"])
def test_a_request_for_a_method_mcp_does_not_define_is_refused(
    client: LineClient, env: Env, method: str
) -> None:
    answer, _ = client.request(method, {"name": "rmdir", "arguments": DENIED})
    assert answer["error"]["code"] == -32601 and answer["error"]["data"]["reason"] == ["unclassified_action"]
    _sync(client)
    assert not [m for m in _ran(env) if m.get("method") == method]
    assert any(r.get("event") == "mcp_request_refused" and r.get("method") == method for r in _audit(env))


@pytest.mark.parametrize("method", ["ping", "completion/complete", "resources/subscribe", "tasks/list"])
def test_other_mcp_requests_are_relayed(client: LineClient, env: Env, method: str) -> None:
    answer, _ = client.request(method, {"uri": "notes://a"} if "resources" in method else {})
    assert answer["result"] == {"ran": method}
