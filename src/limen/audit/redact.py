"""What an audit record may hold: structure and keyed fingerprints, never a value.

Kept: tool, capability, door, session, agent, verdict, risk, reason codes, stage verdicts and timings, path
classes (`workspace/*.py`, `~/.ssh/…`, `/etc/…`), host names, command names, argument names, and a keyed
fingerprint of the arguments (to match a decision to an approval). Dropped: argument values, payloads,
outputs, finding details. The explanation is kept with long tokens replaced by fingerprints.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from typing import Any

from limen.model import Action, Decision, Verdict

# A verdict's name by dict lookup: `Verdict.name` is an enum property, several times slower, read once per
# stage. Reason codes are `StrEnum`s, so `str()` is their value (again without the property).
_VERDICT_NAMES = {verdict: verdict.name for verdict in Verdict}

_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.:@~]{16,}")
_HAS_DIGIT_OR_SLASH = re.compile(r"[0-9/]")


def scrub(text: str, fingerprint: Callable[[str], str]) -> str:
    """Replace anything token-like and long (keys, tokens, blobs, long paths) by its keyed fingerprint."""
    text = text[:300]
    return _LONG_TOKEN.sub(
        lambda m: (
            "fp:" + fingerprint(m.group(0))[:12] if _HAS_DIGIT_OR_SLASH.search(m.group(0)) else m.group(0)
        ),
        text,
    )


_NAME = re.compile(r"[A-Za-z0-9_.:/-]{1,120}")
_NAME_PART = re.compile(r"[^_.:/-]+")
_safe_names: set[str] = set()  # names already found safe: tool and argument names repeat on every call


def safe_name(name: str, fingerprint: Callable[[str], str]) -> str:
    """A tool or argument name as is, unless the model smuggled a value into it (a credential, a random
    token, free text): then its fingerprint."""
    if name in _safe_names:
        return name
    try:
        from limen.rules.secrets import find_secrets
    except Exception:  # the secret scanner cannot load: every name is fingerprinted, the record written
        return "fp:" + fingerprint(name)[:12]

    tokenish = any(
        len(part) >= 16 and any(c.isdigit() for c in part) and any(c.isalpha() for c in part)
        for part in _NAME_PART.findall(name)
    )
    if _NAME.fullmatch(name) and not tokenish and not find_secrets(name):
        if len(_safe_names) < 4096:
            _safe_names.add(name)
        return name
    return "fp:" + fingerprint(name)[:12]


def safe_host(host: str, fingerprint: Callable[[str], str]) -> str:
    """A host name with any label that could carry data (DNS exfiltration) replaced by its fingerprint."""
    return ".".join(
        label
        if len(label) < 16 and safe_name(label, fingerprint) == label
        else "fp:" + fingerprint(label)[:12]
        for label in host[:253].split(".")
    )


def path_class(path: str, workspace: str, home: str) -> str:
    ext = os.path.splitext(path)[1][:8]
    if workspace and (path == workspace or path.startswith(workspace.rstrip("/") + "/")):
        return f"workspace/*{ext}"
    if home and path.startswith(home.rstrip("/") + "/"):
        first = path[len(home.rstrip("/")) + 1 :].split("/", 1)[0]
        first = first if first.startswith(".") else "*"
        return f"~/{first}/…{ext}"
    parts = [p for p in path.split("/") if p]
    return "/" + (parts[0] + "/…" if parts else "") + ext


# `json.dumps(arguments, sort_keys=True, default=str)`, with the encoder built once rather than per record.
_ARGUMENTS = json.JSONEncoder(sort_keys=True, default=str)


def action_fields(
    action: Action, fingerprint: Callable[[str], str], workspace: str, home: str
) -> dict[str, Any]:
    try:
        args_blob = _ARGUMENTS.encode(action.arguments)
    except (TypeError, ValueError):
        args_blob = repr(action.arguments)
    # Most calls name no host and many no path or command: an empty one costs no comprehension.
    return {
        "tool": safe_name(action.tool, fingerprint),
        "cap": action.capability,
        "door": action.door,
        "session": action.session_id or "",
        "agent": action.agent[:80],
        "keys": sorted(safe_name(str(k), fingerprint) for k in action.arguments)[:30]
        if isinstance(action.arguments, dict)
        else [],
        "args": fingerprint(args_blob),
        "paths": sorted({path_class(p, workspace, home) for p in action.paths})[:20] if action.paths else [],
        "hosts": sorted({safe_host(d.host, fingerprint) for d in action.destinations if d.host})[:20]
        if action.destinations
        else [],
        "cmds": list(dict.fromkeys(safe_name(c.name, fingerprint) for c in action.commands))[:20]
        if action.commands
        else [],
    }


def decision_record(
    kind: str,
    decision: Decision,
    fingerprint: Callable[[str], str],
    *,
    workspace: str,
    home: str,
    started_ns: int,
) -> dict[str, Any]:
    """The redacted audit record of one decision (`kind`: decision or output)."""
    names = _VERDICT_NAMES
    record: dict[str, Any] = {
        "kind": kind,
        "ts": round(time.time(), 3),
        "id": decision.decision_id,
        "verdict": names[decision.verdict],
        "risk": decision.risk,
        "reasons": list(map(str, decision.reasons)),
        "expl": scrub(decision.explanation, fingerprint),
        "stages": [
            {
                "stage": s.stage,
                "verdict": names[s.verdict],
                "risk": s.risk,
                "reasons": list(map(str, s.reasons)),
                "us": round(s.micros, 1),
            }
            for s in decision.evidence
        ],
        "us": round((time.perf_counter_ns() - started_ns) / 1000, 1),
    }
    if decision.action is not None:
        record.update(action_fields(decision.action, fingerprint, workspace, home))
    return record
