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


def canonical(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


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
    return hmac.new(key, f"{seq}:{chain_hash}".encode(), hashlib.sha256).hexdigest()
