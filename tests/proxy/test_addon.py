"""The addon decides on where a request really goes: the host mitmproxy connects to, never a Host header
that names another one."""

from __future__ import annotations

import json
import socket

from tests.proxy.conftest import World


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
