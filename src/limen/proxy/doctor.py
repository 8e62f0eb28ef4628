"""`limen doctor proxy [--json]`: is Limen's egress CA trusted, and does each runtime reach a server through
the proxy with certificate verification on, configured as `limen run --egress` configures the agent?

It starts a throwaway HTTPS server on loopback (its own throwaway CA, which only the proxy trusts) and a
`limen proxy` on a free port, then asks it from each runtime found on PATH with the run's environment
(proxy variables, `SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`, `CURL_CA_BUNDLE`, `GIT_SSL_CAINFO`, `PIP_CERT`,
`NODE_EXTRA_CA_CERTS`): curl, Python (`ssl` defaults), pip's own HTTP stack, git and node. A runtime passes
when it read the server's answer through the proxy (git: the server's own 404 for a repository that is not
there, which it can only read over a verified connection). The requests are decided and audited like any
other (session `limen-doctor`).
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANSWER = b"limen-doctor-ok"
SESSION = "limen-doctor"

NODE_CONNECT = r"""
const http = require('http'), tls = require('tls');
const proxy = new URL(process.env.HTTPS_PROXY), target = new URL(process.argv[1]);
const user = decodeURIComponent(proxy.username) + ':' + decodeURIComponent(proxy.password);
const auth = 'Basic ' + Buffer.from(user).toString('base64');
http.request({host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target.host,
              headers: {'Proxy-Authorization': auth}})
  .on('connect', (res, socket) => {
    if (res.statusCode !== 200) { console.error('CONNECT ' + res.statusCode); process.exit(3); }
    const s = tls.connect({socket, servername: target.hostname}, () => {
      s.write('GET / HTTP/1.1\r\nHost: ' + target.host + '\r\nConnection: close\r\n\r\n'); });
    let out = ''; s.on('data', d => out += d); s.on('end', () => { console.log(out); });
    s.on('error', e => { console.error(String(e)); process.exit(4); });
  }).on('error', e => { console.error(String(e)); process.exit(5); }).end();
"""
PY_GET = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode())"
PIP_GET = (
    "import os, sys; from pip._vendor import requests; "
    "print(requests.get(sys.argv[1], verify=os.environ['PIP_CERT'], timeout=20).text)"
)


@dataclass
class Probe:
    runtime: str
    ok: bool
    detail: str


def _throwaway_server(folder: str) -> tuple[ThreadingHTTPServer, str]:
    """An HTTPS server on 127.0.0.1 with a throwaway CA; returns it and the CA file."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "limen doctor upstream")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = os.path.join(folder, "upstream.pem"), os.path.join(folder, "upstream.key")
    with open(cert_file, "wb") as handle:
        handle.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_file, "wb") as handle:
        handle.write(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            found = self.path in ("/", "")
            body = ANSWER if found else b"not found"
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, cert_file


def _start_proxy(upstream_ca: str) -> tuple[subprocess.Popen[bytes], int]:
    read, write = os.pipe()
    argv = [sys.executable, "-m", "limen", "proxy", "--listen", "127.0.0.1:0", "--session", SESSION]
    argv += ["--upstream-ca", upstream_ca, "--ready-fd", str(write)]
    proc = subprocess.Popen(argv, pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read, "rb") as ready:
        line = ready.readline()
    if not line.strip().isdigit():
        proc.kill()
        raise RuntimeError("the proxy did not start")
    return proc, int(line)


def _run(runtime: str, argv: list[str], env: dict[str, str], check: Any) -> Probe:
    if shutil.which(argv[0]) is None:
        return Probe(runtime, False, f"`{argv[0]}` is not on PATH")
    try:
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return Probe(runtime, False, "timed out")
    ok, detail = check(out)
    return Probe(runtime, ok, detail)


def _answered(out: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
    if ANSWER.decode() in out.stdout:
        return True, "verified the proxy's certificate and read the server's answer"
    return False, (out.stderr.strip() or out.stdout.strip())[-300:]


def _git_answered(out: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
    text = out.stderr.lower()
    if "not found" in text or "404" in text:
        return True, "verified the proxy's certificate and read the server's 404 for a missing repository"
    return False, out.stderr.strip()[-300:]


def probes(files: Any, proxy_url: str, url: str) -> list[Probe]:
    from limen.proxy.ca import trust_environment

    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update({name: proxy_url for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")})
    env.update(trust_environment(files))
    git_env = {**env, "GIT_TERMINAL_PROMPT": "0"}
    node_env = {k: v for k, v in env.items() if k not in ("SSL_CERT_FILE",)}
    return [
        _run("curl", ["curl", "-sS", url], env, _answered),
        _run("python", [sys.executable, "-c", PY_GET, url], env, _answered),
        _run("pip", [sys.executable, "-c", PIP_GET, url], env, _answered),
        _run("git", ["git", "ls-remote", url + "no-such-repo.git"], git_env, _git_answered),
        _run("node", ["node", "-e", NODE_CONNECT, url], node_env, _answered),
    ]


def ca_report(files: Any) -> dict[str, Any]:
    from cryptography import x509

    from limen.proxy.ca import system_bundle

    with open(files.cert, "rb") as handle:
        pem = handle.read()
    cert = x509.load_pem_x509_certificate(pem)
    system = system_bundle()
    in_system = False
    if system is not None:
        with open(system, "rb") as handle:
            in_system = pem.strip() in handle.read()
    with open(files.bundle, "rb") as handle:
        in_bundle = pem.strip() in handle.read()
    return {
        "cert": files.cert,
        "bundle": files.bundle,
        "expires": cert.not_valid_after_utc.isoformat(),
        "valid": cert.not_valid_after_utc > datetime.datetime.now(datetime.UTC),
        "in_bundle": in_bundle,
        "trusted_machine_wide": in_system,
        "system_bundle": system,
    }


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="limen doctor proxy", description="Check the egress CA and proxy path.")
    p.add_argument("--json", action="store_true", help="Print the report as one JSON document.")
    args = p.parse_args(argv)
    try:
        from limen.proxy.ca import ensure_ca
    except ImportError:
        print("limen doctor proxy: mitmproxy is not installed (pip install 'limen[proxy]')", file=sys.stderr)
        return 1
    from limen.cli.proxy import proxy_url as credential_url
    from limen.proxy.sessions import keyed_token

    files, created = ensure_ca()
    ca = ca_report(files)
    with tempfile.TemporaryDirectory(prefix="limen-doctor-") as folder:
        server, upstream_ca = _throwaway_server(folder)
        proc: subprocess.Popen[bytes] | None = None
        try:
            proc, port = _start_proxy(upstream_ca)
            url = f"https://127.0.0.1:{server.server_address[1]}/"
            found = probes(files, credential_url("127.0.0.1", port, SESSION, keyed_token(SESSION)), url)
        except (OSError, RuntimeError) as exc:
            found = [Probe("proxy", False, f"could not start the proxy: {exc}")]
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
            server.shutdown()
    ok = ca["valid"] and ca["in_bundle"] and all(p.ok for p in found)
    if args.json:
        print(json.dumps({"ok": ok, "ca": ca, "created": created, "runtimes": [asdict(p) for p in found]}))
    else:
        print(f"CA: {ca['cert']} ({'created now; ' if created else ''}expires {ca['expires']})")
        print(
            f"  bundle for SSL_CERT_FILE & co: {ca['bundle']} ({'holds' if ca['in_bundle'] else 'LACKS'} it)"
        )
        where = "yes" if ca["trusted_machine_wide"] else "no (trusted per process by `limen run --egress`)"
        print(f"  trusted machine-wide: {where}")
        for probe in found:
            print(f"{probe.runtime:7} {'ok  ' if probe.ok else 'FAIL'} {probe.detail}")
    return 0 if ok else 1
