"""The callback server of the signed links on a fixed loopback port: one per process, and any Limen
process that finds the port taken uses it as it is (every process answers every link: one store, one
key)."""

from __future__ import annotations

import socket

import pytest

from limen.approvals import open_approvals
from limen.approvals.channels import callback
from limen.approvals.config import ApprovalConfig


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_fixed_port_is_served_once_per_process() -> None:
    port = free_port()
    config = ApprovalConfig(listen=f"127.0.0.1:{port}")
    first, second = open_approvals(), open_approvals()
    assert callback.serve(first, config) == callback.serve(second, config) == f"http://127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass  # listening
    first.close()
    second.close()


def test_a_port_another_process_serves_is_used_as_it_is() -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        config = ApprovalConfig(listen=f"127.0.0.1:{port}", public_url="https://approve.example.org/l")
        approvals = open_approvals()
        assert callback.serve(approvals, config) == "https://approve.example.org/l"
        approvals.close()


def test_closing_the_approvals_stops_its_links() -> None:
    approvals = open_approvals()
    base = callback.serve(approvals, ApprovalConfig())
    port = int(base.rsplit(":", 1)[1])
    approvals.close()
    with pytest.raises(OSError):  # nobody listens there any more
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
