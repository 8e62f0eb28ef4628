"""The addon decides on where a request really goes: the host mitmproxy connects to, and also the host a
Host header names when it is another one (the server may hand the request on to it)."""

from __future__ import annotations

import json
import socket

import pytest
from tests.proxy.conftest import World


def _decisions(world: World) -> int:
    """How many decision records the proxy's audit log holds."""
    log = (world.home / "audit" / "decisions.jsonl").read_text().splitlines()
    return sum(1 for line in log if json.loads(line).get("kind") == "decision")


def _raw_request(world: World, head: str, body: bytes) -> tuple[int, bytes]:
    """Send one plain-HTTP proxy request as written (no client tidies it up); (status, body)."""
    with socket.create_connection(("127.0.0.1", world.port), timeout=20) as conn:
        conn.sendall(head.encode() + body)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    status_line, _, rest = data.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


def test_a_host_header_naming_a_trusted_host_does_not_hide_the_real_destination(world: World) -> None:
    port = world.upstream.port
    head = (
        f"POST http://collector.example:{port}/echo HTTP/1.1\r\n"
        f"Host: pypi.org:{port}\r\n"
        "Content-Length: 5\r\nConnection: close\r\n\r\n"
    )
    status, body = _raw_request(world, head, b"hello")
    assert status == 403
    answer = json.loads(body)
    assert "unknown_external_destination" in answer["reasons"]
    assert answer["request"] == "POST collector.example"


def test_a_tunnel_opened_to_a_trusted_host_cannot_carry_a_request_for_another(world: World) -> None:
    import httpx

    port = world.upstream.port
    before = _decisions(world)
    with httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=20) as client:
        sent = client.post(
            world.url("pypi.org"), content=b"hello", headers={"Host": f"collector.example:{port}"}
        )
    assert sent.status_code == 403
    assert "unknown_external_destination" in sent.json()["reasons"]
    assert sent.json()["request"].startswith("POST collector.example (its Host header; sent to pypi.org)")
    assert not any(str(s["host"]).startswith("collector.example") for s in world.upstream.seen)
    assert _decisions(world) - before == 2  # pypi.org passed, then the Host header's host was refused


def test_a_host_header_naming_the_requests_own_host_is_decided_once(world: World) -> None:
    import httpx

    before = _decisions(world)
    with httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=20) as client:
        sent = client.post(world.url("pypi.org"), content=b"hello")  # Host: pypi.org:PORT
    assert sent.status_code == 200 and sent.json()["bytes"] == 5
    assert _decisions(world) - before == 1


@pytest.mark.parametrize(
    ("host_header", "another"),
    [
        ("pypi.org", False),
        ("pypi.org:8443", False),
        ("PyPI.org.", False),
        ("evil.example", True),
        ("pypi.org:443@evil.example", True),
        ("pypi.org.evil.example", True),
    ],
)
def test_which_host_headers_name_another_host(host_header: str, another: bool) -> None:
    from mitmproxy import http

    from limen.proxy.addon import _names_another_host

    request = http.Request.make("GET", "https://pypi.org/echo")
    request.headers["Host"] = host_header
    assert _names_another_host(request, host_header) is another
