"""Bench runner for `text` items: each text goes through the turn gate.

Source mapping: an item whose `meta.role` is `user_prompt` (AgentDojo's user tasks) was typed by the user
and is screened with `source="user"`; every other text (tool outputs, injected payloads, documents, the
NotInject over-defence probes, whose role does not say they were typed by the user) is screened as
`source="untrusted"`, the stricter reading. The verdict is the highest finding's (PASS when none).
"""

from __future__ import annotations

import time
from typing import Any

from limen.bench import ItemResult
from limen.model import Mode

USER_ROLES = frozenset({"user_prompt"})
UNTRUSTED_SOURCE = "untrusted"


def source_of(item: dict[str, Any]) -> str:
    """ "user" for texts the corpus marks as typed by the user, "untrusted" for everything else."""
    meta = item.get("meta") or {}
    return "user" if meta.get("role") in USER_ROLES else UNTRUSTED_SOURCE


def group_of(item: dict[str, Any]) -> str:
    """The sub-corpus an item belongs to (AgentDojo suite, BIPIA task, NotInject subset)."""
    meta = item.get("meta") or {}
    return str(meta.get("suite") or meta.get("task_family") or meta.get("task") or meta.get("subset") or "")


def run(items: list[dict[str, Any]], mode: Mode) -> list[ItemResult]:
    """Screen each text item; `mode` does not change the turn gate (its verdicts are mode-independent)."""
    from limen.turngate import screen, verdict_of

    screen("", source=UNTRUSTED_SOURCE)  # load and compile once, so per-item times are steady-state
    results: list[ItemResult] = []
    for item in items:
        label = str(item.get("label", ""))
        payload = item.get("payload")
        if item.get("kind") != "text" or not isinstance(payload, str):
            results.append(ItemResult(str(item.get("id", "")), label, None, group=group_of(item)))
            continue
        start = time.perf_counter()
        findings = screen(payload, source=source_of(item))
        us = (time.perf_counter() - start) * 1e6
        reasons = tuple(dict.fromkeys(f.code for f in findings))
        results.append(ItemResult(str(item["id"]), label, verdict_of(findings), reasons, us, group_of(item)))
    return results
