"""The audit log: every decision and every stage, hash-chained, redacted, verifiable.

Layout of an audit directory (default `LIMEN_HOME/audit`):
    decisions.jsonl  one record per line; each carries `prev` (the previous record's hash) and ends with `h`,
                     the SHA-256 of the line's body; every `CHECKPOINT_EVERY`-th record is a checkpoint whose
                     `mac` is an HMAC over the chain so far under a key kept in `LIMEN_HOME/keys`, not here
    head.json        the last record's sequence number and hash, HMAC-signed: truncation cannot hide
    index.sqlite     a query index, rebuilt from the log on demand (the log is the truth)

The signed head is also kept as an anchor outside the audit directory (`LIMEN_HOME/anchors/`), so deleting the
log's tail together with `head.json`, or the whole directory, still leaves a signed record of how far the log
went. To start a new log on purpose, move the audit directory and its anchor aside together.
"""

from __future__ import annotations

import hashlib
import os

from limen.home import limen_home

LOG_NAME = "decisions.jsonl"
HEAD_NAME = "head.json"
INDEX_NAME = "index.sqlite"
CHECKPOINT_EVERY = 256
GENESIS = "0" * 64
# How far the log may run past its signed head: one write (a chain break, a checkpoint and the record) by a
# writer killed before it signed. Further than that, the head was rolled back or replaced.
MAX_LAG = 3


def default_dir() -> str:
    return os.path.join(limen_home(), "audit")


def anchor_path(directory: str, home: str | None = None) -> str:
    """Where the signed head of the log in `directory` is anchored: under Limen's home, named by the
    directory's real path, so each audit directory has its own and none lives beside its log."""
    name = hashlib.sha256(os.path.realpath(directory).encode()).hexdigest()[:24]
    return os.path.join(home or limen_home(), "anchors", f"audit-{name}.json")
