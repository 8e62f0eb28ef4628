"""`limen serve`'s configuration: where state and audit live, and which agent identities may call.

`LIMEN_HOME/serve.yaml` (or `--config FILE`), every key optional:

    workspace: /srv/limen/policy      # whose policy files (limen.yaml, .limen/) decide; default: the cwd
    mode: strict                      # only ever tightens the policy's mode; clients cannot choose it
    state: redis://10.0.0.5:6379/0    # the session store (default LIMEN_STATE_URL, else SQLite in LIMEN_HOME)
    audit: postgresql://limen@db/limen  # or a directory for the file log (default LIMEN_HOME/audit)
    policy: postgresql://limen@db/limen # the organisation policy: a database or a file (`serve.policy`)
    tokens:                           # agent identities: the SHA-256 of each bearer token, never the token
      - identity: ci-runner
        sha256: 6f1c...

`limen serve token add NAME` writes a new identity to the tokens file (`LIMEN_HOME/serve-tokens.yaml`,
0600; the same list format under `tokens:`), prints the token once, and keeps only its hash. Tokens are 32
random bytes, so a plain SHA-256 is enough: nothing can be guessed from it. A running server re-reads both
files when they change, so adding or removing an identity needs no restart.

A file Limen cannot read is refused with its file, line and key, never guessed at.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from limen.home import limen_home

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_IDENTITY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$")
_KEYS = frozenset({"workspace", "mode", "state", "audit", "policy", "tokens"})
TOKEN_PREFIX = "lmn_"


class ServeConfigError(Exception):
    """A configuration file Limen cannot use: says where (file:line) and which key."""


@dataclass(slots=True)
class ServeConfig:
    workspace: str = ""
    mode: str | None = None
    state: str = ""
    audit: str = ""
    policy: str = ""  # the organisation policy: a file path or a PostgreSQL database (`serve.policy`)
    tokens: dict[str, str] = field(default_factory=dict)  # sha256(token) -> identity


def default_config_path() -> str:
    return os.path.join(limen_home(), "serve.yaml")


def tokens_path() -> str:
    return os.path.join(limen_home(), "serve-tokens.yaml")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _load_yaml(path: str) -> tuple[Any, dict[str, int]]:
    """The document and the line of each top-level key / token entry (1-based), for error messages."""
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ServeConfigError(f"{path}: cannot be read ({exc.strerror})") from exc
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        raise ServeConfigError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from exc
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines[str(key.value)] = key.start_mark.line + 1
            if key.value == "tokens" and isinstance(value, yaml.SequenceNode):
                for index, item in enumerate(value.value):
                    lines[f"tokens[{index}]"] = item.start_mark.line + 1
    return data, lines


def _parse(path: str, into: ServeConfig, *, tokens_only: bool = False) -> None:
    data, lines = _load_yaml(path)
    if data is None:
        return
    if not isinstance(data, dict):
        raise ServeConfigError(
            f"{path}:1: expected a mapping of keys (workspace, mode, state, audit, policy, tokens)"
        )
    for key, value in data.items():
        where = f"{path}:{lines.get(str(key), 1)}: {key}"
        allowed = {"tokens"} if tokens_only else _KEYS
        if key not in allowed:
            raise ServeConfigError(f"{where}: unknown key (expected one of {', '.join(sorted(allowed))})")
        if key == "tokens":
            _parse_tokens(path, value, lines, into)
        elif key == "mode":
            from limen.model import Mode

            if value not in Mode.__members__.values():
                raise ServeConfigError(f"{where}: not a mode ({', '.join(m.value for m in Mode)})")
            into.mode = str(value)
        else:
            if not isinstance(value, str) or not value.strip():
                raise ServeConfigError(f"{where}: expected a non-empty string")
            setattr(into, key, os.path.expanduser(value.strip()) if key == "workspace" else value.strip())


def _parse_tokens(path: str, value: Any, lines: dict[str, int], into: ServeConfig) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise ServeConfigError(f"{path}:{lines.get('tokens', 1)}: tokens: expected a list of entries")
    for index, entry in enumerate(value):
        where = f"{path}:{lines.get(f'tokens[{index}]', 1)}: tokens[{index}]"
        if not isinstance(entry, dict) or set(entry) != {"identity", "sha256"}:
            raise ServeConfigError(f"{where}: expected exactly the keys identity and sha256")
        identity, digest = entry["identity"], entry["sha256"]
        if not isinstance(identity, str) or not _IDENTITY.match(identity):
            raise ServeConfigError(f"{where}.identity: letters, digits and ._@:- only, at most 128")
        if not isinstance(digest, str) or not _HEX64.match(digest):
            raise ServeConfigError(f"{where}.sha256: expected 64 lowercase hex digits (a token's SHA-256)")
        if into.tokens.get(digest, identity) != identity:
            raise ServeConfigError(f"{where}.sha256: the same token is listed for two identities")
        into.tokens[digest] = identity


def load(path: str | None = None) -> ServeConfig:
    """Read the configuration and the tokens file. A missing default file is an empty configuration; a
    file named explicitly must exist."""
    config = ServeConfig()
    chosen = path or default_config_path()
    if path is not None or os.path.exists(chosen):
        _parse(chosen, config)
    if os.path.exists(tokens_path()):
        _parse(tokens_path(), config, tokens_only=True)
    return config


def add_token(identity: str) -> str:
    """Create a token for `identity` in the tokens file; returns the token (shown once, never stored)."""

    if not _IDENTITY.match(identity):
        raise ServeConfigError(f"identity {identity[:40]!r}: letters, digits and ._@:- only, at most 128")
    path = tokens_path()
    current = ServeConfig()
    if os.path.exists(path):
        _parse(path, current, tokens_only=True)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    entries = [{"identity": who, "sha256": digest} for digest, who in current.tokens.items()]
    entries.append({"identity": identity, "sha256": token_hash(token)})
    _write_tokens(path, entries)
    return token


def remove_identity(identity: str) -> int:
    """Drop every token of `identity` from the tokens file; how many were dropped."""
    path = tokens_path()
    current = ServeConfig()
    if os.path.exists(path):
        _parse(path, current, tokens_only=True)
    kept = [{"identity": who, "sha256": d} for d, who in current.tokens.items() if who != identity]
    _write_tokens(path, kept)
    return len(current.tokens) - len(kept)


def _write_tokens(path: str, entries: list[dict[str, str]]) -> None:
    import yaml

    from limen.install_ledger import write_atomically

    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    text = "# limen serve: agent identities and the SHA-256 of their bearer tokens\n"
    text += yaml.safe_dump({"tokens": entries}, sort_keys=False)
    write_atomically(path, text.encode("utf-8"), 0o600)


class Identities:
    """Bearer token -> identity, re-read when the configuration or tokens file changes (checked at most once
    a second). A file that turns unreadable keeps the last good list and says so once: a typo must not
    lock every agent out, nor let anyone in."""

    check_every = 1.0

    def __init__(self, config_path: str | None, initial: ServeConfig) -> None:
        self._path = config_path
        self._tokens = dict(initial.tokens)
        self._lock = threading.Lock()
        self._seen = self._stamp()
        self._checked = time.monotonic()
        self.problem = ""

    def _stamp(self) -> tuple[tuple[int, int, int] | None, ...]:
        def one(path: str) -> tuple[int, int, int] | None:
            try:
                info = os.stat(path)
            except OSError:
                return None
            return (info.st_ino, info.st_mtime_ns, info.st_size)

        return (one(self._path or default_config_path()), one(tokens_path()))

    def identity(self, authorization: str) -> str | None:
        """The identity a `Bearer <token>` header names, or None."""
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        self._refresh()
        return self._tokens.get(token_hash(token.strip()))

    def count(self) -> int:
        return len(self._tokens)

    def _refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked < self.check_every:
            return
        with self._lock:
            self._checked = now
            stamp = self._stamp()
            if stamp == self._seen:
                return
            self._seen = stamp
            try:
                self._tokens = load(self._path).tokens
                self.problem = ""
            except ServeConfigError as exc:
                self.problem = str(exc)
