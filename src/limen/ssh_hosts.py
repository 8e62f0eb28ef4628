"""The hosts the user's own ssh already knows: the user's machines, not a destination an agent made up.

A host named in `~/.ssh/config` (`Host` aliases, `HostName`) or present in `~/.ssh/known_hosts` (plain or,
as `HashKnownHosts` writes them, hashed: HMAC-SHA1 of the name under the entry's salt, compared as ssh
compares) is one the user has configured or connected to. Both files are read once per change (size and
modification time) and never written. Standard library only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

_MAX_BYTES = 1 << 20  # a larger file is read that far

_cache: dict[str, tuple[tuple[int, int], frozenset[str], tuple[tuple[bytes, bytes], ...]]] = {}


def known(host: str, home: str) -> bool:
    """`host` (lower case, no port) is named in the user's ssh config or known hosts."""
    host = host.lower().rstrip(".")
    if not host or not home:
        return False
    ssh = os.path.join(home, ".ssh")
    for path in (os.path.join(ssh, "config"), os.path.join(ssh, "known_hosts")):
        names, hashed = _read(path)
        if host in names:
            return True
        for salt, digest in hashed:
            for name in (host, f"[{host}]:22"):
                if hmac.compare_digest(hmac.new(salt, name.encode(), hashlib.sha1).digest(), digest):
                    return True
    return False


def _read(path: str) -> tuple[frozenset[str], tuple[tuple[bytes, bytes], ...]]:
    try:
        info = os.stat(path)
    except OSError:
        return frozenset(), ()
    key = (info.st_mtime_ns, info.st_size)
    cached = _cache.get(path)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(_MAX_BYTES)
    except OSError:
        return frozenset(), ()
    names, hashed = _config(text) if path.endswith("config") else _known_hosts(text)
    if len(_cache) > 8:
        _cache.clear()
    _cache[path] = (key, names, hashed)
    return names, hashed


def _config(text: str) -> tuple[frozenset[str], tuple[tuple[bytes, bytes], ...]]:
    names: set[str] = set()
    for line in text.splitlines():
        words = line.strip().replace("=", " ").split()
        if len(words) >= 2 and words[0].lower() in ("host", "hostname"):
            names.update(w.lower() for w in words[1:] if not any(c in w for c in "*?!"))
    return frozenset(names), ()


def _known_hosts(text: str) -> tuple[frozenset[str], tuple[tuple[bytes, bytes], ...]]:
    names: set[str] = set()
    hashed: list[tuple[bytes, bytes]] = []
    for line in text.splitlines():
        first = line.split(None, 1)[0] if line.strip() and not line.startswith("#") else ""
        if first.startswith("@"):  # `@cert-authority *.corp ...`, `@revoked ...`
            continue
        if first.startswith("|1|"):
            parts = first.split("|")
            try:
                hashed.append((base64.b64decode(parts[2]), base64.b64decode(parts[3])))
            except (IndexError, ValueError):
                continue
            continue
        for name in first.split(","):
            name = name.lower()
            if name.startswith("[") and "]:" in name:
                name = name[1 : name.index("]")]
            if name and not any(c in name for c in "*?!"):
                names.add(name)
    return frozenset(names), tuple(hashed)
