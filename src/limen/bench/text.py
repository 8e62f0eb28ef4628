"""Bench runner for `text` items: each text goes through the turn gate.

Source mapping follows what each dataset is, as its upstream documents it: the channel a text reaches an
agent by decides what a request in it means (a user's task, or an instruction planted in tool output).
- `meta.role == "user_prompt"` (AgentDojo's user tasks): typed by the user, `source="user"`.
- NotInject (InjecGuard, `github:leolee99/InjecGuard`): upstream it is the over-defence set of a *prompt
  guard*, a model that screens the prompt given to an LLM; its 339 sentences are benign queries and
  instructions to an assistant ("Common Queries, Technique Queries, Virtual Creation, Multilingual
  Queries") with trigger words in them. They are what a user types, so they are screened as `source="user"`,
  where a guard for user prompts meets them.
- Everything else (tool outputs, injected payloads, BIPIA's external contents and injected instructions,
  documents) arrives as untrusted content: `source="untrusted"`.
The verdict is the highest finding's (PASS when none).
"""

from __future__ import annotations

import time
from typing import Any

from limen.bench import ItemResult
from limen.model import Mode

USER_ROLES = frozenset({"user_prompt"})
# datasets whose every text is a prompt a user gives an assistant (see the module docstring)
USER_PROMPT_DATASETS = ("github:leolee99/InjecGuard@",)
USER_SOURCE = "user"
UNTRUSTED_SOURCE = "untrusted"


def source_of(item: dict[str, Any]) -> str:
    """ "user" for texts the dataset says a user typed, "untrusted" for everything else."""
    meta = item.get("meta") or {}
    if meta.get("role") in USER_ROLES or str(item.get("source", "")).startswith(USER_PROMPT_DATASETS):
        return USER_SOURCE
    return UNTRUSTED_SOURCE


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
