"""Steered-action floor: after injected instructions came in, a call that acts beyond the workspace asks.

Indirect injection rarely needs a value of its own: "merge pull request 412", "run the production apply",
"publish the package" are calls that pass on their own and only the content that asked for them makes them
hostile. Once this session has taken in content the screen flagged as carrying injected instructions, every
later call that acts beyond the workspace (sends data, messages, publishes, or changes what a program
controls elsewhere: a forge, a cluster, a cloud account) is `steered_action`: AUTH, BLOCK in strict and
paranoid. Work inside the workspace (edits, tests, builds, plain reads and fetches) stays quiet, so the agent
can carry on with the user's task.
"""

from __future__ import annotations

import re
from functools import lru_cache

from limen.context import Context
from limen.facts.programs import program
from limen.floors.egress import carries_nothing, is_side_effect, mode_verdict
from limen.model import Action, Capability, Decision, Finding, ReasonCode
from limen.normalize.tools import reads_by_name

_MESSAGES = frozenset({Capability.EMAIL_SEND.value, Capability.MESSAGE_SEND.value})


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not is_side_effect(action) or not session.took_in_injection():
        return []
    how = _acts_beyond_workspace(action)
    if not how:
        return []
    return [
        Finding(
            ReasonCode.STEERED_ACTION,
            mode_verdict(ctx),
            80,
            f"this session took in content carrying injected instructions, and this call {how}",
        )
    ]


def _acts_beyond_workspace(action: Action) -> str:
    """How the call acts beyond the workspace, or "" when it stays inside it (or only reads)."""
    if action.capability in _MESSAGES:
        return "sends a message"
    if action.outbound and not carries_nothing(action):
        return "sends data out"
    for command in action.commands:
        entry = program(command.name)
        if entry is not None and entry.changes and _pattern(entry.changes).search(" ".join(command.argv[1:])):
            return f"changes what {command.name} controls"
    if action.tool.startswith("mcp__") and action.tool.count("__") >= 2 and not reads_by_name(action.tool):
        return "calls a tool that changes what its server controls"
    return ""


@lru_cache(maxsize=64)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)
