"""The proxy's life as a process: signals stop the server's whole process tree, `serve` holds every session
a client opens (up to a refusing limit), and screening a large result never stalls the relay."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers"))

from harness import PY, TINY, Env, LineClient, free_port, make_env, start_http, stop, text

GONE_WAIT = 15.0  # the proxy's own stop sequence takes at most a few seconds


@pytest.fixture
def env(tmp_path: object) -> Env:
    return make_env(str(tmp_path))


def _alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie (a container's init may be slow to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pids: list[int]) -> bool:
    deadline = time.monotonic() + GONE_WAIT
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _read_pids(path: str) -> list[int]:
    deadline = time.monotonic() + GONE_WAIT
    while not os.path.exists(path):
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    with open(path) as fh:
        return [int(p) for p in fh.read().split()]


def _kill_leftovers(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    ("sig", "stubborn"),
    [(signal.SIGTERM, "0"), (signal.SIGINT, "0"), (signal.SIGHUP, "0"), (signal.SIGTERM, "1")],
    ids=["SIGTERM", "SIGINT", "SIGHUP", "SIGTERM-to-a-server-that-ignores-it"],
)
def test_a_stop_signal_ends_the_server_and_what_it_started(
    env: Env, sig: signal.Signals, stubborn: str
) -> None:
    pidfile = os.path.join(env.root, "pids")
    argv = [PY, "-m", "limen", "mcp", "--name", "tiny", PY, TINY]
    with LineClient(argv, env, TINY_SERVER_PIDS=pidfile, TINY_SERVER_STUBBORN=stubborn) as client:
        client.initialize()
        assert text(client.call("echo", {"text": "up"})) == "up"
        pids = _read_pids(pidfile)  # the server, and a grandchild that ignores SIGTERM
        try:
            client.proc.send_signal(sig)
            assert client.proc.wait(GONE_WAIT) == 128 + sig
            assert _gone(pids), "the server or its child outlived the proxy"
        finally:
            _kill_leftovers(pids)


def test_a_killed_proxy_takes_its_server_with_it(env: Env) -> None:
    pidfile = os.path.join(env.root, "pids")
    argv = [PY, "-m", "limen", "mcp", "--name", "tiny", PY, TINY]
    with LineClient(argv, env, TINY_SERVER_PIDS=pidfile, TINY_SERVER_STUBBORN="1") as client:
        client.initialize()
        server, grandchild = _read_pids(pidfile)
        try:
            client.proc.kill()  # no chance to clean up: the kernel ends the server (PR_SET_PDEATHSIG)
            client.proc.wait(GONE_WAIT)
            assert _gone([server])
        finally:
            _kill_leftovers([server, grandchild])


def _post(url: str, message: dict[str, Any], session: str = "") -> tuple[int, dict[str, str], Any]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(url, json.dumps(message).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            body = reply.read()
            return reply.status, dict(reply.headers), json.loads(body) if body else None
    except urllib.error.HTTPError as exc:
        body = exc.read()
        return exc.code, dict(exc.headers), json.loads(body) if body else None


def _delete(url: str, session: str) -> int:
    request = urllib.request.Request(url, headers={"Mcp-Session-Id": session}, method="DELETE")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return int(reply.status)


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def _open_session(url: str) -> str:
    status, headers, answer = _post(url, INIT)
    assert status == 200 and "result" in answer, answer
    session = {k.lower(): v for k, v in headers.items()}["mcp-session-id"]
    _post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    return session


def _echo(url: str, session: str, words: str) -> str:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": words}},
    }
    status, _, answer = _post(url, call, session)
    assert status == 200, answer
    return str(answer["result"]["content"][0]["text"]) if "result" in answer else json.dumps(answer)


@pytest.fixture
def front(env: Env) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`limen mcp serve` in front of the tiny server, holding at most 24 sessions."""
    port = free_port()
    argv = [PY, "-m", "limen", "mcp", "serve", "--listen", f"127.0.0.1:{port}", "--max-sessions", "24"]
    proc = start_http([*argv, "--name", "tiny", PY, TINY], env, port)
    yield f"http://127.0.0.1:{port}/mcp", proc
    stop(proc)


def test_serve_holds_every_session_its_clients_open_and_refuses_past_its_limit(
    front: tuple[str, subprocess.Popen[bytes]],
) -> None:
    url, _ = front
    sessions: list[str] = [""] * 24
    answers: list[str] = [""] * 24

    def client(i: int) -> None:  # 24 clients at once, each its own session and server
        sessions[i] = _open_session(url)
        answers[i] = _echo(url, sessions[i], f"first {i}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [f"first {i}" for i in range(24)]
    assert len(set(sessions)) == 24
    status, _, refused = _post(url, INIT)  # the 25th: refused, and nobody else's session is closed for it
    assert (
        status == 503
        and refused["error"]["code"] == -32001
        and "--max-sessions" in refused["error"]["message"]
    )
    assert [_echo(url, session, f"again {i}") for i, session in enumerate(sessions)] == [
        f"again {i}" for i in range(24)
    ]
    assert _delete(url, sessions[0]) == 200  # an ended session makes room
    assert _echo(url, _open_session(url), "newcomer") == "newcomer"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_stop_signal_to_serve_ends_every_sessions_server_tree(env: Env, sig: signal.Signals) -> None:
    port = free_port()
    pidfile = os.path.join(env.root, "pids")
    argv = [PY, "-m", "limen", "mcp", "serve", "--listen", f"127.0.0.1:{port}", "--name", "tiny", PY, TINY]
    proc = start_http(argv, env, port, TINY_SERVER_PIDS=pidfile)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        assert _echo(url, _open_session(url), "up") == "up"
        pids = _read_pids(pidfile)
        proc.send_signal(sig)
        proc.wait(GONE_WAIT)
        assert _gone(pids), "a session's server or its child outlived `limen mcp serve`"
    finally:
        stop(proc)
        _kill_leftovers(_read_pids(pidfile))


def test_screening_a_large_result_does_not_hold_up_other_calls(env: Env) -> None:
    big = {"name": "echo", "arguments": {"text": "a.b-c+d%" * 16, "repeat": 6000}}  # 768 kB of e-mail chars
    small = {"name": "echo", "arguments": {"text": "quick", "delay": 0.05}}
    with LineClient([PY, "-m", "limen", "mcp", "--name", "tiny", "--timeout", "60", PY, TINY], env) as client:
        client.initialize()
        client.tools()
        client.send({"jsonrpc": "2.0", "id": "big", "method": "tools/call", "params": big})
        client.send({"jsonrpc": "2.0", "id": "small", "method": "tools/call", "params": small})
        first = json.loads(client.lines.get(timeout=60))
        assert first["id"] == "small" and text(first["result"]) == "quick"
        large, _ = client.answer("big")
        assert text(large["result"]) == "a.b-c+d%" * 16 * 6000


def test_the_deadline_still_fires_while_a_result_is_screened(env: Env) -> None:
    # 1.5 MB of dashed lines between anchor words of the turn gate (seconds to screen, even on a fast
    # machine), back after 0.6 s: 0.4 s left before the deadline
    lines = {"text": "bcc " + "\n-" * 150 + " ", "repeat": 5000, "delay": 0.6}
    with LineClient([PY, "-m", "limen", "mcp", "--name", "tiny", "--timeout", "1", PY, TINY], env) as client:
        client.initialize()
        client.tools()
        answer, _ = client.request("tools/call", {"name": "echo", "arguments": lines})
        assert answer["result"]["isError"] is True
        assert "could not be screened within 1 s" in text(answer["result"])
        assert text(client.call("echo", {"text": "after"})) == "after"
