"""Beyond loopback: the console listens only with TLS and a password; a login then needs both the
one-time token and the password, wrong passwords lock logins, and the cookie is Secure."""

from __future__ import annotations

import datetime
import http.client
import ipaddress
import socket
import ssl
import threading
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from limen.console import auth
from limen.console.server import ConsoleError, ConsoleServer

from .conftest import password_console

PASSWORD = "correct horse battery"


def self_signed(directory: Path) -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "limen-console-test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return str(cert_path), str(key_path)


def test_without_tls_or_password_nothing_listens_beyond_loopback(workspace: str, tmp_path: Path) -> None:
    from limen.console.app import Console
    from limen.console.auth import Gate

    tls = self_signed(tmp_path)
    no_password = Console(workspace=workspace, gate=Gate())
    with_password = password_console(workspace, PASSWORD)
    try:
        with pytest.raises(ConsoleError, match="only with TLS"):
            ConsoleServer(with_password, "0.0.0.0", 0)
        with pytest.raises(ConsoleError, match="only with TLS"):
            ConsoleServer(no_password, "0.0.0.0", 0, tls=tls)
    finally:
        no_password.close()
        with_password.close()


def test_a_remote_login_needs_the_token_and_the_password(
    workspace: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = password_console(workspace, PASSWORD)
    app.secure = True
    server = ConsoleServer(app, "127.0.0.1", 0, tls=self_signed(tmp_path))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))

    def call(method: str, path: str, form: dict[str, str] | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPSConnection(server.host, server.port, context=context, timeout=10)
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
        conn.request(method, path, body=urlencode(form) if form is not None else None, headers=headers)
        response = conn.getresponse()
        response.read()
        conn.close()
        return response

    silent = socket.create_connection((server.host, server.port))  # connects, never says hello
    try:
        url = urlsplit(server.login_url())
        assert url.scheme == "https"
        token = url.query.split("=", 1)[1]
        assert call("GET", f"{url.path}?{url.query}").status == 200  # a password form, not a session
        refused = call("POST", "/login", {"token": token, "password": "wrong"})
        assert refused.status == 403 and not refused.headers.get("Set-Cookie")
        assert call("POST", "/login", {"token": "guessed", "password": PASSWORD}).status == 403
        ok = call("POST", "/login", {"token": token, "password": PASSWORD})  # the token was not spent
        assert ok.status == 303
        assert "Secure" in ok.headers["Set-Cookie"] and "HttpOnly" in ok.headers["Set-Cookie"]
        assert call("POST", "/login", {"token": token, "password": PASSWORD}).status == 403  # spent now

        monkeypatch.setattr(auth, "MAX_FAILURES", 3)
        fresh = server.login_url().split("token=", 1)[1]
        for _ in range(3):
            call("POST", "/login", {"token": fresh, "password": "wrong"})
        assert call("POST", "/login", {"token": fresh, "password": PASSWORD}).status == 403  # locked out
        assert call("GET", f"/login?token={fresh}").status == 429
    finally:
        silent.close()
        server.shutdown()
        server.server_close()
        thread.join(5)
        app.close()
