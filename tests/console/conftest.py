"""A real console on loopback (the HTTP server `limen console` runs) over the test's LIMEN_HOME, and a small
HTTP client that keeps the session cookie the way a browser does."""

from __future__ import annotations

import http.client
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

import pytest

from limen.console.app import Console
from limen.console.auth import Gate, Password
from limen.console.server import ConsoleServer


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str

    def csrf(self) -> str:
        match = re.search(r'name="csrf" value="([^"]+)"', self.text)
        assert match, "the page carries no CSRF field"
        return match.group(1)


@dataclass
class Browser:
    """Requests with the cookie jar of one browser (the console's one cookie)."""

    server: ConsoleServer
    cookie: str = ""
    host: str = field(default="")

    def request(self, method: str, path: str, form: dict[str, str] | None = None, **headers: str) -> Reply:
        conn = http.client.HTTPConnection(self.server.host, self.server.port, timeout=10)
        sent = {"Host": self.host or f"{self.server.host}:{self.server.port}", **headers}
        if self.cookie:
            sent["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        reply = Reply(response.status, response.headers, response.read().decode())
        conn.close()
        set_cookie = response.headers.get("Set-Cookie", "")
        if set_cookie:
            self.cookie = set_cookie.split(";", 1)[0]
        return reply

    def get(self, path: str, **headers: str) -> Reply:
        return self.request("GET", path, **headers)

    def post(self, path: str, form: dict[str, str], **headers: str) -> Reply:
        return self.request("POST", path, form, **headers)

    def login(self) -> Reply:
        url = urlsplit(self.server.login_url())
        reply = self.get(f"{url.path}?{url.query}")
        assert reply.status == 303 and self.cookie, reply.text
        return reply


def start(console: Console, **kw: object) -> tuple[ConsoleServer, threading.Thread]:
    server = ConsoleServer(console, "127.0.0.1", 0, **kw)  # type: ignore[arg-type]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return server, thread


@pytest.fixture
def console(workspace: str) -> Iterator[ConsoleServer]:
    app = Console(workspace=workspace, gate=Gate())
    server, thread = start(app)
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)
    app.close()


@pytest.fixture
def browser(console: ConsoleServer) -> Browser:
    return Browser(console)


def password_console(workspace: str, password: str) -> Console:
    return Console(workspace=workspace, gate=Gate(Password(password)))
