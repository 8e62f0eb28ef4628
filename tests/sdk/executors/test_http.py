"""The HTTP executor resolves once, checks the address, connects to it, and follows no redirect."""

from __future__ import annotations

import datetime
import http.server
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from limen.sdk import Denied, ExecutionFailed, Guard
from limen.sdk.executors.http import AddressRefused, HttpExecutor


class _Handler(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str, str]]] = []

    def do_GET(self) -> None:
        _Handler.seen.append(("GET", self.path, self.headers.get("Host", "")))
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.end_headers()
            return
        body = b"hello from loopback"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        _Handler.seen.append(("POST", self.path, self.rfile.read(length).decode()))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[int]:
    _Handler.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def _resolver(*answers: list[str]) -> tuple[list[str], object]:
    calls: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return answers[min(len(calls), len(answers)) - 1]

    return calls, resolve


def test_connects_to_the_address_it_checked_once(server: int) -> None:
    calls, resolve = _resolver(["127.0.0.1"], ["169.254.169.254"])  # a rebinding DNS answer
    executor = HttpExecutor(allow_private=True, resolver=resolve)  # type: ignore[arg-type]
    result = executor.get(f"http://service.test:{server}/page")
    assert result["status"] == 200 and result["body"] == "hello from loopback"
    assert calls == ["service.test"]  # resolved once: nothing else can be connected to
    assert _Handler.seen == [("GET", "/page", f"service.test:{server}")]


@pytest.mark.parametrize(
    ("answer", "allow_private"),
    [
        (["169.254.169.254"], True),  # cloud metadata, whatever the application allows
        (["fe80::1"], True),
        (["0.0.0.0"], True),
        (["224.0.0.1"], True),
        (["127.0.0.1"], False),
        (["10.1.2.3"], False),
        (["::ffff:127.0.0.1"], False),
        (["93.184.216.34", "127.0.0.1"], False),  # one bad address in the answer is enough
        ([], True),
    ],
)
def test_addresses_it_does_not_reach_are_refused(answer: list[str], allow_private: bool, server: int) -> None:
    _, resolve = _resolver(answer)
    executor = HttpExecutor(allow_private=allow_private, resolver=resolve)  # type: ignore[arg-type]
    with pytest.raises(AddressRefused):
        executor.get(f"http://service.test:{server}/")
    assert _Handler.seen == []


def test_an_ip_literal_is_checked_without_resolving(server: int) -> None:
    calls, resolve = _resolver(["93.184.216.34"])
    with pytest.raises(AddressRefused):
        HttpExecutor(resolver=resolve).get(f"http://127.0.0.1:{server}/")  # type: ignore[arg-type]
    assert calls == []


def test_a_redirect_is_returned_not_followed(server: int) -> None:
    _, resolve = _resolver(["127.0.0.1"])
    executor = HttpExecutor(allow_private=True, resolver=resolve)  # type: ignore[arg-type]
    result = executor.get(f"http://service.test:{server}/redirect")
    assert result["status"] == 302
    assert result["redirect"] == "http://169.254.169.254/latest/meta-data/"
    assert len(_Handler.seen) == 1


def test_bad_requests_are_refused_before_connecting(server: int) -> None:
    executor = HttpExecutor(allow_private=True)
    for url, method in [
        ("ftp://example.com/x", "GET"),
        (f"http://user:pw@127.0.0.1:{server}/", "GET"),
        (f"http://127.0.0.1:{server}/", "TRACE"),
    ]:
        with pytest.raises(ValueError):
            executor.request(url, method=method)
    with pytest.raises(ValueError, match="Host"):  # the decision judged the URL's host; no other vhost
        executor.request(f"http://127.0.0.1:{server}/", headers={"HOST": "internal.example"})
    assert _Handler.seen == []


def _certificate(tmp_path: Path, host: str) -> tuple[str, str]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return str(cert_path), str(key_path)


def test_https_verifies_the_host_name_while_connecting_to_the_checked_address(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path, "service.test")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    httpd.socket = server_context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    _Handler.seen = []
    try:
        client_context = ssl.create_default_context(cafile=cert)
        _, resolve = _resolver(["127.0.0.1"])
        executor = HttpExecutor(allow_private=True, resolver=resolve, ssl_context=client_context)  # type: ignore[arg-type]
        assert executor.get(f"https://service.test:{port}/tls")["status"] == 200
        _, resolve = _resolver(["127.0.0.1"])
        impostor = HttpExecutor(allow_private=True, resolver=resolve, ssl_context=client_context)  # type: ignore[arg-type]
        with pytest.raises(ssl.SSLCertVerificationError):
            impostor.get(f"https://other.test:{port}/tls")  # same address, a name the certificate lacks
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_through_a_guard_the_decision_sees_the_url_and_a_refused_address_halts(
    project: Path, server: int
) -> None:
    guard = Guard(project, audit=False)
    guard.register(HttpExecutor().request, name="http_request")
    assert guard.tools["http_request"].roles == {"url": "url", "body": "payload", "headers": "payload"}
    with pytest.raises(Denied) as denied:  # the decision: metadata address
        guard.call("http_request", {"url": "http://169.254.169.254/latest/meta-data/"})
    assert denied.value.decision is not None and denied.value.decision.verdict.name == "BLOCK"
    guard2 = Guard(project, audit=False, approver=lambda request: True)
    guard2.register(HttpExecutor().request, name="http_request")
    with pytest.raises(ExecutionFailed, match="AddressRefused"):  # approved, but loopback is not reachable
        guard2.call("http_request", {"url": f"http://localhost:{server}/", "method": "GET"})
    assert _Handler.seen == []
