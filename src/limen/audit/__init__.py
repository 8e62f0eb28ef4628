"""The audit log: every decision and every stage, hash-chained, redacted, verifiable.

Layout of an audit directory (default `LIMEN_HOME/audit`):
    decisions.jsonl  one record per line; each carries `prev` (the previous record's hash) and ends with `h`,
                     the SHA-256 of the line's body; every `CHECKPOINT_EVERY`-th record is a checkpoint whose
                     `mac` is an HMAC over the chain so far under a key kept in `LIMEN_HOME/keys`, not here
    head.json        the last record's sequence number and hash, HMAC-signed: truncation cannot hide
    index.sqlite     a query index, rebuilt from the log on demand (the log is the truth)
"""

from __future__ import annotations

import os

from limen.context import limen_home

LOG_NAME = "decisions.jsonl"
HEAD_NAME = "head.json"
INDEX_NAME = "index.sqlite"
CHECKPOINT_EVERY = 256
GENESIS = "0" * 64


def default_dir() -> str:
    return os.path.join(limen_home(), "audit")
