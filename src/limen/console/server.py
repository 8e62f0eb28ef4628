"""The console's HTTP server: the standard library's threading server, loopback unless TLS and a password.

Why not the daemon: the daemon is the hook's hot path (one socket round trip per call) and exits after an
idle spell; the console only reads the stores every process shares (approvals, the audit log, sessions,
pins, the policy ledger) and writes through their own APIs, so it needs nothing the daemon holds. It runs
as long as `limen console` runs, and stopping it takes nothing away from any door.

Refusals before any page: a `Host` header that is not the address served (a DNS-rebinding page cannot talk
to the loopback console), a body over `MAX_BODY`, a request not read within `READ_TIMEOUT`.
"""

from __future__ import annotations

import ipaddress
import ssl
import sys
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from limen.console.app import Console, Request, Response
from limen.console.auth import COOKIE

MAX_BODY = 16 * 1024
READ_TIMEOUT = 10.0


class ConsoleError(Exception):
    """A console that may not start as configured (the message says why)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConsoleServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self,
        console: Console,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        tls: tuple[str, str] | None = None,
    ) -> None:
        loopback = is_loopback(host)
        if not loopback and (tls is None or console.gate.password is None):
            raise ConsoleError(
                f"the console listens beyond loopback ({host}) only with TLS (--tls-cert, --tls-key) and a "
                "password (--password-stdin)"
            )
        self.console = console
        self.loopback = loopback
        super().__init__((host, port), _Handler)
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.minimum_version = ssl.TLSVersion.TLSv1_2
            try:
                context.load_cert_chain(*tls)
            except (OSError, ssl.SSLError) as exc:
                self.server_close()
                raise ConsoleError(f"the TLS certificate or key cannot be loaded: {exc}") from None
            # the handshake runs in the request's thread under its read timeout (`_Handler.setup`), so a
            # client that connects and says nothing cannot stall the accept loop
            self.socket = context.wrap_socket(self.socket, server_side=True, do_handshake_on_connect=False)
        self.scheme = "https" if tls is not None else "http"
        bound_host, bound_port = self.server_address[:2]
        self.host = str(bound_host)
        self.port = int(bound_port)
        shown = "localhost" if self.host in ("127.0.0.1", "::1") and host == "localhost" else self.host
        self.origin = f"{self.scheme}://{_host_port(shown, self.port)}"
        self.allowed_hosts = {_host_port(self.host, self.port), _host_port("localhost", self.port)}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed (a TLS handshake, a client gone): one line, no traceback."""
        error = sys.exc_info()[1]
        print(f"limen console: a connection failed: {type(error).__name__}", file=sys.stderr)

    def login_url(self) -> str:
        return f"{self.origin}/login?token={self.console.gate.issue_token()}"


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server: ConsoleServer
    timeout = READ_TIMEOUT
    server_version = "limen-console"
    sys_version = ""

    def setup(self) -> None:
        super().setup()  # sets the read timeout on the connection
        if isinstance(self.connection, ssl.SSLSocket):
            self.connection.do_handshake()

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        if self.server.loopback and self.headers.get("Host", "") not in self.server.allowed_hosts:
            self._send(Response(421, b"wrong Host header\n", content_type="text/plain; charset=utf-8"))
            return
        url = urlsplit(self.path)
        form: dict[str, str] = {}
        if method == "POST":
            length = self.headers.get("Content-Length", "")
            if not length.isdigit() or int(length) > MAX_BODY:
                self._send(Response(413, b"request body missing or too large\n", content_type="text/plain"))
                return
            form = _fields(self.rfile.read(int(length)).decode("utf-8", "replace"))
        request = Request(
            method=method,
            path=url.path,
            query=_fields(url.query),
            form=form,
            session_id=_cookie(self.headers.get("Cookie", "")),
        )
        self._send(self.server.console.handle(request))

    def _send(self, response: Response) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for name, value in response.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(response.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Method, path without its query (a login token must not reach a log) and status, on stderr."""
        if format == '"%s" %s %s' and args:
            method, _, rest = str(args[0]).partition(" ")
            target = rest.rsplit(" ", 1)[0].split("?", 1)[0]
            print(f"limen console: {method} {target} {args[1]}", file=sys.stderr)


def _fields(text: str) -> dict[str, str]:
    try:
        parsed = parse_qs(text, max_num_fields=32)
    except ValueError:
        return {}
    return {key[:64]: values[0] for key, values in parsed.items()}


def _cookie(header: str) -> str:
    try:
        jar: SimpleCookie = SimpleCookie(header)
    except CookieError:
        return ""
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else ""
