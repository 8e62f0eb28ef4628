"""A websocket through the proxy: after the upgrade each message the client sends is decided like a body
to that URL; a refused one never reaches the server and the connection is closed."""

from __future__ import annotations

import secrets
import ssl
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.proxy.conftest import World, start_proxy

websockets = pytest.importorskip("websockets.sync.server", reason="websockets is not installed")


@pytest.fixture(scope="module")
def echo_server(world: World) -> Iterator[tuple[int, list[str], int]]:
    """A wss echo server, and a proxy that routes pypi.org on its port to it: (port, heard, proxy port)."""
    from websockets.sync.server import serve

    heard: list[str] = []

    def echo(connection: Any) -> None:
        for message in connection:
            heard.append(str(message))
            connection.send(message)

    folder = world.upstream.ca.parent
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(folder / "upstream.pem", folder / "upstream.key")
    with serve(echo, "127.0.0.1", 0, ssl=context) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        proxy, proxy_port = start_proxy(
            world.home, world.project, world.upstream, "--resolve", f"pypi.org:{port}:127.0.0.1"
        )
        try:
            yield port, heard, proxy_port
        finally:
            proxy.terminate()
            proxy.wait(10)
            server.shutdown()


def _connect(world: World, session: str, server: tuple[int, list[str], int]) -> Any:
    from websockets.sync.client import connect

    port, _heard, proxy_port = server
    credential = world.proxy_url(session).replace(f":{world.port}", f":{proxy_port}")
    return connect(
        f"wss://pypi.org:{port}/",
        proxy=credential,
        ssl=ssl.create_default_context(cafile=world.bundle),
        open_timeout=20,
    )


def test_messages_are_relayed_in_a_clean_session(
    world: World, echo_server: tuple[int, list[str], int]
) -> None:
    heard = echo_server[1]
    with _connect(world, f"ws:{secrets.token_hex(4)}", echo_server) as ws:
        ws.send("hello")
        assert ws.recv(timeout=10) == "hello"
    assert "hello" in heard


def test_a_message_carrying_a_secret_the_session_read_is_not_relayed(
    in_world: World, echo_server: tuple[int, list[str], int]
) -> None:
    from tests.proxy.test_taint import SECRET, _taint
    from websockets.exceptions import ConnectionClosed

    heard = echo_server[1]
    session = f"ws:{secrets.token_hex(4)}"
    _taint(in_world, session)
    with _connect(in_world, session, echo_server) as ws:
        ws.send(f"password={SECRET}")
        with pytest.raises((ConnectionClosed, TimeoutError)):
            ws.recv(timeout=5)
    assert not any(SECRET in m for m in heard)
