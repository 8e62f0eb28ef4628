"""The egress proxy's certificate authority: created once under Limen's home, trusted by the agent's runtimes.

`limen ca init` makes an RSA CA with mitmproxy's own certificate code (the proxy signs a leaf per host with
it) in `LIMEN_HOME/proxy/ca/`, next to the files each runtime wants:
- `limen-ca.pem`: the CA certificate alone (`NODE_EXTRA_CA_CERTS` adds it to Node's built-in roots; the
  OS trust stores take it as is);
- `limen-bundle.pem`: the system's roots plus Limen's CA, for the variables that *replace* the trust store
  (`SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`, `CURL_CA_BUNDLE`, `GIT_SSL_CAINFO`, `PIP_CERT`), so a client told
  to use it still verifies a pass-through host's real certificate.
The CA's private key stays in `mitmproxy-ca.pem` (0600), the file mitmproxy's `confdir` option reads.
"""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass

from limen.home import limen_home

CONF_BASENAME = "mitmproxy"  # mitmproxy's tlsconfig reads `<confdir>/mitmproxy-ca.pem`
CA_NAME = "Limen egress proxy CA"
KEY_SIZE = 2048
# The system roots appended to the bundle: the first that exists (Debian, Fedora, Alpine, macOS brew).
SYSTEM_BUNDLES = (
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/cert.pem",
    "/usr/local/etc/openssl/cert.pem",
)


@dataclass(frozen=True)
class CaFiles:
    confdir: str  # mitmproxy's confdir: the key and certificate
    cert: str  # the CA certificate alone
    bundle: str  # system roots + the CA

    @property
    def exists(self) -> bool:
        return all(os.path.exists(p) for p in (self.key_file, self.cert, self.bundle))

    @property
    def key_file(self) -> str:
        return os.path.join(self.confdir, f"{CONF_BASENAME}-ca.pem")


def ca_files(home: str | None = None) -> CaFiles:
    confdir = os.path.join(home or limen_home(), "proxy", "ca")
    return CaFiles(confdir, os.path.join(confdir, "limen-ca.pem"), os.path.join(confdir, "limen-bundle.pem"))


def system_bundle() -> str | None:
    """The system's root bundle: OpenSSL's default file if it exists, else the first known location."""
    default = ssl.get_default_verify_paths().cafile
    for path in (default, *SYSTEM_BUNDLES):
        if path and os.path.isfile(path):
            return path
    return None


def ensure_ca(home: str | None = None) -> tuple[CaFiles, bool]:
    """The CA's files, created if missing; True when they were created now."""
    files = ca_files(home)
    if files.exists:
        return files, False
    from pathlib import Path

    from mitmproxy.certs import CertStore

    os.makedirs(files.confdir, mode=0o700, exist_ok=True)
    if not os.path.exists(files.key_file):
        CertStore.create_store(Path(files.confdir), CONF_BASENAME, KEY_SIZE, organization="Limen", cn=CA_NAME)
    write_trust_files(files)
    return files, True


def write_trust_files(files: CaFiles) -> None:
    """Extract the certificate from the key file and write the certificate and the bundle atomically."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    with open(files.key_file, "rb") as handle:
        cert = x509.load_pem_x509_certificates(handle.read())[0]
    pem = cert.public_bytes(serialization.Encoding.PEM)
    system = system_bundle()
    roots = b""
    if system is not None:
        with open(system, "rb") as handle:
            roots = handle.read().rstrip(b"\n") + b"\n"
    for path, data in ((files.cert, pem), (files.bundle, roots + pem)):
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as handle:
            handle.write(data)
        os.chmod(partial, 0o644)
        os.replace(partial, path)


def trust_environment(files: CaFiles) -> dict[str, str]:
    """The variables that make each runtime trust the proxy's CA (and still every public root)."""
    return {
        "SSL_CERT_FILE": files.bundle,  # OpenSSL-based clients, Python's ssl, Ruby, httpx
        "REQUESTS_CA_BUNDLE": files.bundle,  # requests
        "CURL_CA_BUNDLE": files.bundle,  # curl
        "GIT_SSL_CAINFO": files.bundle,  # git over HTTPS
        "PIP_CERT": files.bundle,  # pip (its own `cert` setting)
        "NODE_EXTRA_CA_CERTS": files.cert,  # Node adds it to its built-in roots
    }


def instructions(files: CaFiles) -> str:
    """How to trust the CA, per operating system and per runtime."""
    env = trust_environment(files)
    lines = [
        f"Limen's egress CA: {files.cert}",
        f"  bundle (system roots + Limen's CA): {files.bundle}",
        "",
        "Trust it for one process tree (what `limen run --egress` sets for the agent):",
        *(f"  export {name}={value}" for name, value in env.items()),
        f"  pip: pip config set global.cert {files.bundle}",
        f"  git: git config --global http.sslCAInfo {files.bundle}",
        "",
        "Or trust it machine-wide:",
        f"  Debian/Ubuntu: sudo cp {files.cert} /usr/local/share/ca-certificates/limen-ca.crt"
        " && sudo update-ca-certificates",
        f"  Fedora/RHEL:   sudo cp {files.cert} /etc/pki/ca-trust/source/anchors/limen-ca.pem"
        " && sudo update-ca-trust",
        "  macOS:         sudo security add-trusted-cert -d -r trustRoot "
        f"-k /Library/Keychains/System.keychain {files.cert}",
        f"  Windows:       certutil -addstore -f ROOT {files.cert}",
        "",
        "The CA's private key stays in " + files.key_file + " (0600); anyone who reads it can impersonate",
        "any site to the clients that trust it, so it lives in Limen's home, which `limen run` protects.",
    ]
    return "\n".join(lines)
