"""An HTTP executor that connects to the address it checked, and follows no redirect.

The host is resolved once. Every address it resolves to is checked (link-local and cloud metadata,
multicast, unspecified and reserved addresses always refused; loopback and private ones unless the
application allows them), and the connection is made to that checked address, with the host name used only
for the `Host` header and TLS (SNI and certificate verification). A DNS answer that changes between the
decision and the connection (rebinding) therefore cannot move the request. A redirect is returned to the
caller as it is (status and `Location`): following it is a new call, decided like any other.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from limen.sdk.executors import declares

Resolver = Callable[[str, int], list[str]]
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_OWN_HEADERS = frozenset(
    {"host", "connection", "proxy-authorization", "proxy-connection", "transfer-encoding"}
)
_KEPT_HEADERS = ("content-type", "content-length", "location", "etag", "last-modified")


class AddressRefused(PermissionError):
    """The host resolves to an address this executor does not connect to."""


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class HttpExecutor:
    def __init__(
        self,
        *,
        timeout: float = 10.0,
        max_response: int = 1_000_000,
        allow_private: bool = False,
        resolver: Resolver = system_resolver,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.timeout = timeout
        self.max_response = max_response
        self.allow_private = allow_private
        self.resolver = resolver
        self.ssl_context = ssl_context or ssl.create_default_context()

    @declares("network.request", {"url": "url", "body": "payload", "headers": "payload", "method": None})
    def request(
        self, url: str, method: str = "GET", body: str | None = None, headers: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """Make one HTTP(S) request; returns status, a few headers, the body (cut at `max_response`)."""
        method = method.upper()
        if method not in _METHODS:
            raise ValueError("unsupported HTTP method")
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("only http and https URLs with a host")
        if parts.username or parts.password:
            raise ValueError("credentials in the URL are not sent")
        if any(name.lower() in _OWN_HEADERS for name in headers or {}):
            raise ValueError("Host, Connection and proxy headers are the executor's, not the caller's")
        host = parts.hostname
        port = parts.port or (443 if scheme == "https" else 80)
        address = self.checked_address(host, port)
        connection = _PinnedConnection(
            host, port, address, self.timeout, self.ssl_context if scheme == "https" else None
        )
        try:
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            connection.request(
                method, target, body=body.encode() if body is not None else None, headers=dict(headers or {})
            )
            response = connection.getresponse()
            data = response.read(self.max_response + 1)
            kept = {k: v for k, v in ((k.lower(), v) for k, v in response.getheaders()) if k in _KEPT_HEADERS}
            return {
                "status": response.status,
                "headers": kept,
                "body": data[: self.max_response].decode("utf-8", "replace"),
                "truncated": len(data) > self.max_response,
                "redirect": kept.get("location", "") if 300 <= response.status < 400 else "",
            }
        finally:
            connection.close()

    @declares("network.request", {"url": "url"})
    def get(self, url: str) -> dict[str, Any]:
        """GET a URL."""
        return self.request(url)

    def checked_address(self, host: str, port: int) -> str:
        """Resolve once; refuse when any address is one this executor does not reach; the first one."""
        try:
            addresses = [str(ipaddress.ip_address(host))]
        except ValueError:
            addresses = self.resolver(host, port)
        if not addresses:
            raise AddressRefused("the host did not resolve")
        for address in addresses:
            why = self._refused(ipaddress.ip_address(address.split("%", 1)[0]))
            if why:
                raise AddressRefused(f"the host resolves to a {why} address")
        return addresses[0]

    def _refused(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_link_local:
            return "link-local (cloud metadata)"
        if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
            return "multicast, unspecified or reserved"
        if not ip.is_global and not self.allow_private:
            return "loopback, private or other non-public"
        return ""


class _PinnedConnection(http.client.HTTPConnection):
    """An HTTP(S) connection to a given address, whatever the host name resolves to now."""

    def __init__(
        self, host: str, port: int, address: str, timeout: float, context: ssl.SSLContext | None
    ) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address
        self._context = context

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        if self._context is not None:
            sock = self._context.wrap_socket(sock, server_hostname=self.host)
        self.sock = sock
