"""Record encoding shared by the writer and the verifier.

A line is `<body without its closing brace>,"h":"<sha256 of body>"}` where body is the canonical JSON of the
record (sorted keys, no spaces): the hash covers every byte of the line but its own, and verification never
re-serialises anything.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any

_SUFFIX = re.compile(r',"h":"([0-9a-f]{64})"\}$')


# One encoder for every record: `json.dumps` with these options builds a new encoder on each call, which costs
# more than encoding a record does.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def canonical(record: dict[str, Any]) -> str:
    return _CANONICAL.encode(record)


def encode(record: dict[str, Any]) -> tuple[str, str]:
    """The line (with its newline) and its hash."""
    body = canonical(record)
    digest = hashlib.sha256(body.encode()).hexdigest()
    return f'{body[:-1]},"h":"{digest}"}}\n', digest


def decode(line: str) -> tuple[dict[str, Any], str, bool]:
    """(record, claimed hash, hash matches). Raises ValueError on a line that is not a record."""
    match = _SUFFIX.search(line)
    if match is None:
        raise ValueError("record has no hash")
    body = line[: match.start()] + "}"
    record = json.loads(body)
    if not isinstance(record, dict):
        raise ValueError("record is not an object")
    claimed = match.group(1)
    return record, claimed, hashlib.sha256(body.encode()).hexdigest() == claimed


def mac(key: bytes, seq: int, chain_hash: str) -> str:
    keyed = _keyed.get(key)
    if keyed is None:  # HMAC's key schedule, done once per key: each MAC copies it
        keyed = _keyed[key] = hmac.new(key, digestmod=hashlib.sha256)
    signer = keyed.copy()
    signer.update(f"{seq}:{chain_hash}".encode())
    return signer.hexdigest()


_keyed: dict[bytes, hmac.HMAC] = {}
