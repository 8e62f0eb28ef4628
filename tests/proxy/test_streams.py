"""What passes through the proxy without being held: a 50 MB download streamed, a pinned client's
pass-through tunnel (its TLS untouched, decided on the destination and audited as such), and a proxy that
dies (the client gets an error, never a direct connection)."""

from __future__ import annotations

import json
import os
import secrets
import signal
import ssl
import subprocess
import time

import httpx
import pytest
from tests.proxy.conftest import World, start_proxy


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_50_mb_download_streams_through(world: World) -> None:
    before = _rss_kib(world.proxy.pid)
    received = 0
    with (
        httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=60) as client,
        client.stream("GET", world.url("files.pythonhosted.org", "/big")) as answer,
    ):
        assert answer.status_code == 200
        for chunk in answer.iter_bytes():
            received += len(chunk)
    assert received == 50 * 1024 * 1024
    # streamed, not held: the proxy did not grow by anything near the download's size
    assert _rss_kib(world.proxy.pid) - before < 40 * 1024


def _audit_records(world: World) -> list[dict[str, object]]:
    records = []
    for root, _dirs, files in os.walk(world.home / "audit"):
        for name in files:
            if name.endswith(".jsonl"):
                with open(os.path.join(root, name)) as handle:
                    records += [json.loads(line) for line in handle if line.strip()]
    return records


def test_a_pass_through_host_keeps_its_own_certificate_and_is_audited_as_such(world: World) -> None:
    """The client verifies the upstream's real certificate (the test CA, not Limen's): nothing was
    intercepted. The audit says the decision was made on the destination only."""
    context = ssl.create_default_context(cafile=str(world.upstream.ca))
    with httpx.Client(proxy=world.proxy_url(), verify=context, timeout=20) as client:
        answer = client.get(world.url("crates.io", "/echo"))
    assert answer.status_code == 200
    events = [r for r in _audit_records(world) if r.get("event") == "proxy_pass_through"]
    assert events and events[-1]["host"] == "crates.io" and events[-1]["verdict"] == "PASS"
    assert "destination only" in str(events[-1]["note"])


def test_a_tainted_session_cannot_open_a_pass_through_tunnel(in_world: World) -> None:
    """A tunnel Limen cannot read may carry anything: a session that read a secret is refused one."""
    from tests.proxy.test_taint import _taint

    session = f"claude-code:{secrets.token_hex(4)}"
    _taint(in_world, session)
    context = ssl.create_default_context(cafile=str(in_world.upstream.ca))
    with (
        httpx.Client(proxy=in_world.proxy_url(session), verify=context, timeout=20) as client,
        pytest.raises(httpx.ProxyError, match="403"),
    ):
        client.get(in_world.url("crates.io", "/echo"))


def test_when_the_proxy_dies_the_client_gets_an_error(world: World, tmp_path) -> None:  # type: ignore[no-untyped-def]
    proc, port = start_proxy(world.home, world.project, world.upstream)
    url = f"http://127.0.0.1:{port}"
    with httpx.Client(proxy=url, verify=world.bundle, timeout=10) as client:
        assert client.get(world.url("pypi.org", "/echo")).status_code == 200
        before = len(world.upstream.seen)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        with pytest.raises(httpx.ConnectError):
            client.get(world.url("pypi.org", "/echo"))
    out = subprocess.run(  # curl told to use the proxy does not fall back to a direct connection
        ["curl", "-sS", "-x", url, "--cacert", world.bundle, world.url("pypi.org", "/echo")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 7  # could not connect (to the proxy)
    time.sleep(0.1)
    assert len(world.upstream.seen) == before


def test_a_tunnel_carrying_neither_tls_nor_http_relays_nothing(world: World) -> None:
    """CONNECT, then raw bytes (an SSH greeting): nothing reaches the destination."""
    import socket
    import threading

    received: list[bytes] = []
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)

    def accept() -> None:
        try:
            conn, _ = listener.accept()
            conn.settimeout(3)
            received.append(conn.recv(100))
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    port = listener.getsockname()[1]
    with socket.create_connection(("127.0.0.1", world.port), timeout=10) as client:
        client.sendall(f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert b"200" in client.recv(200).split(b"\r\n")[0]
        client.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
        try:
            answer = client.recv(200)
        except OSError:
            answer = b""
    thread.join(10)
    listener.close()
    assert not any(received), received  # never relayed (at most an idle connection)
    assert not answer.startswith(b"SSH")
