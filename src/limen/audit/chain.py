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
from json.encoder import encode_basestring
from typing import Any

_SUFFIX = re.compile(r',"h":"([0-9a-f]{64})"\}$')


# One encoder for every record: `json.dumps` with these options builds a new encoder on each call, which costs
# more than encoding a record does.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def canonical(record: dict[str, Any]) -> str:
    """Sorted keys, no spaces, UTF-8 as is. A chained decision record (`limen.audit.redact.decision_record`)
    is written out field by field, which gives the same bytes in two thirds of the time; a record of any other
    shape, or with a value of another type, goes through the general encoder."""
    if record.keys() == _DECISION_KEYS:
        body = _decision_body(record)
        if body is not None:
            return body
    return _CANONICAL.encode(record)


# The keys of a chained decision record and of each of its stages.
_DECISION_KEYS = frozenset(
    [
        "agent",
        "args",
        "cap",
        "cmds",
        "door",
        "expl",
        "hosts",
        "id",
        "keys",
        "kind",
        "paths",
        "prev",
        "reasons",
        "risk",
        "seq",
        "session",
        "stages",
        "tool",
        "ts",
        "us",
        "verdict",
    ]
)
_STAGE_KEYS = frozenset(("reasons", "risk", "stage", "us", "verdict"))
# The general encoder's own string escaping (ensure_ascii=False); it raises TypeError on anything but a str.
_text = encode_basestring


def _numbers(*values: Any) -> bool:
    """Each value is an int (not a bool) or a finite float: `repr` writes those as the encoder does."""
    for value in values:
        kind = type(value)
        if not (kind is int or (kind is float and value - value == 0.0)):  # inf - inf, nan - nan: nan
            return False
    return True


def _texts(values: Any) -> str:
    if type(values) is not list:
        raise TypeError("not a list")
    return "[" + ",".join(map(_text, values)) + "]"


def _decision_body(r: dict[str, Any]) -> str | None:
    """`_CANONICAL.encode(r)` for a record with `_DECISION_KEYS`; None when a value is of a type this does
    not write exactly as the general encoder would."""
    try:
        stages = []
        if type(r["stages"]) is not list or not _numbers(r["risk"], r["seq"], r["ts"], r["us"]):
            return None
        for s in r["stages"]:
            if type(s) is not dict or s.keys() != _STAGE_KEYS or not _numbers(s["risk"], s["us"]):
                return None
            stages.append(
                f'{{"reasons":{_texts(s["reasons"])},"risk":{s["risk"]!r},"stage":{_text(s["stage"])},'
                f'"us":{s["us"]!r},"verdict":{_text(s["verdict"])}}}'
            )
        return (
            f'{{"agent":{_text(r["agent"])},"args":{_text(r["args"])},"cap":{_text(r["cap"])},'
            f'"cmds":{_texts(r["cmds"])},"door":{_text(r["door"])},"expl":{_text(r["expl"])},'
            f'"hosts":{_texts(r["hosts"])},"id":{_text(r["id"])},"keys":{_texts(r["keys"])},'
            f'"kind":{_text(r["kind"])},"paths":{_texts(r["paths"])},"prev":{_text(r["prev"])},'
            f'"reasons":{_texts(r["reasons"])},"risk":{r["risk"]!r},"seq":{r["seq"]!r},'
            f'"session":{_text(r["session"])},"stages":[{",".join(stages)}],"tool":{_text(r["tool"])},'
            f'"ts":{r["ts"]!r},"us":{r["us"]!r},"verdict":{_text(r["verdict"])}}}'
        )
    except TypeError:
        return None


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
