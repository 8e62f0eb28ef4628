"""Per-installation secret keys and keyed fingerprints.

A fingerprint is HMAC-SHA256 under a key that lives 0600 in LIMEN_HOME and never in the state or the log, so
a stolen state file or audit log cannot be used to confirm a guessed secret. Keys are created on first use.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from limen.home import limen_home

_cache: dict[str, bytes] = {}


def key_path(name: str, home: str | None = None) -> str:
    return os.path.join(home or limen_home(), "keys", f"{name}.key")


def installation_key(name: str, home: str | None = None) -> bytes:
    """The 32-byte key `name`, created 0600 (directory 0700) the first time any process asks for it."""
    path = key_path(name, home)
    cached = _cache.get(path)
    if cached is not None:
        return cached
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = _read_key(path)
    else:
        key = os.urandom(32)
        try:
            os.write(fd, key.hex().encode())
            os.fsync(fd)
        finally:
            os.close(fd)
    _cache[path] = key
    return key


def _read_key(path: str) -> bytes:
    """Read a key another process may be writing this instant (it is 64 hex characters once complete)."""
    for _ in range(200):
        with open(path, "rb") as fh:
            raw = fh.read().strip()
        if len(raw) == 64:
            return bytes.fromhex(raw.decode())
        os.sched_yield()
    raise RuntimeError(f"key file {path} is malformed")


class Fingerprinter:
    """Keyed fingerprints of values: HMAC-SHA256, truncated to 128 bits, hex."""

    __slots__ = ("_base",)

    def __init__(self, key: bytes) -> None:
        self._base = hmac.new(key, digestmod=hashlib.sha256)

    def __call__(self, value: str) -> str:
        h = self._base.copy()
        h.update(value.encode("utf-8", "surrogatepass"))
        return h.hexdigest()[:32]


def fingerprinter(home: str | None = None) -> Fingerprinter:
    return Fingerprinter(installation_key("fingerprint", home))
