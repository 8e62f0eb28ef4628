"""Doors and the unset `default_action`: which calls no layer decides are denied, and which are left to the
guardrails.

The SDK door (`limen.evaluate()` from the user's own code) denies them: only what a rule allows runs. The
coding-agent doors leave them to Limen's guardrails, which already judge every shell command and file
write. Door names are free text from the caller, so only the names below are agent doors; any other name
gets the stricter SDK default.
"""

from __future__ import annotations

SDK_DOOR = "sdk"

AGENT_DOORS: frozenset[str] = frozenset(
    {
        "hook",  # the hooks of Claude Code, Cursor, Codex and Gemini
        "mcp",  # the MCP proxy
        "proxy",  # the egress proxy (`limen proxy`): what an agent's processes send over HTTP(S)
        "claude-code",  # `limen demo` replays Claude Code calls
        "explain",  # `limen explain` shows what an agent's call would get
    }
)


def unset_default(door: str) -> str:
    """What an unset (or `by_door`) `default_action` means for this door: `pass` or `deny`."""
    return "pass" if door in AGENT_DOORS else "deny"


def describe() -> str:
    """One sentence for `config check` and the docs."""
    agents = ", ".join(sorted(AGENT_DOORS))
    return (
        f"calls no layer decides are denied through the SDK door (limen.evaluate) and any unknown door, "
        f"and left to the guardrails through the agent doors ({agents})"
    )
