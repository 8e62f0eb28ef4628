"""Gemini CLI's hook dialect (`.gemini/settings.json`, timeouts in milliseconds).

Gemini answers with a top-level `decision` (`allow` | `deny`) and has no `ask`, so AUTH is a deny that says
how a human approves. MCP tools arrive as `mcp_<server>_<tool>`; `run_shell_command` may run in `dir_path`.
PASS is answered with no decision (`{}`, exit 0), never `decision: "allow"`, which would skip Gemini's own
tool confirmation: Limen's PASS means "no objection", not "approved".
"""

from __future__ import annotations

import os

from limen.doors.hooks import events as ev

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from typing import Any

AGENT = "gemini"
KINDS = {
    "BeforeTool": ev.PRE_TOOL,
    "AfterTool": ev.POST_TOOL,
    "BeforeAgent": ev.PROMPT,
    "SessionStart": ev.SESSION_START,
}
PROJECT_ENV = "GEMINI_PROJECT_DIR"
# Gemini names the engine's tool table spells differently.
TOOL_ALIASES = {"grep_search": "search_file_content"}


def parse(payload: dict[str, Any], env: dict[str, str]) -> ev.HookEvent:
    """The event in Limen's terms; Gemini's `dir_path` names where a tool runs."""
    event = ev.parse_event(
        payload, env, kinds=KINDS, agent=AGENT, project_env=PROJECT_ENV, aliases=TOOL_ALIASES
    )
    if isinstance(event.arguments, dict) and isinstance(event.arguments.get("dir_path"), str):
        event.cwd = os.path.join(event.cwd, event.arguments["dir_path"])
    return event


def deny(reason: str) -> ev.Answer:
    return ev.Answer(ev.dumps({"decision": "deny", "reason": reason}), 2, reason + "\n")


def context(event_name: str, text: str, **extra: str) -> ev.Answer:
    return ev.Answer(
        ev.dumps({**extra, "hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}})
    )


def render(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    verdict = outcome.verdict
    if event.kind == ev.PRE_TOOL:
        if verdict == ev.BLOCK:
            return deny(ev.block_reason(outcome))
        if verdict == ev.AUTH:
            return deny(ev.auth_denied_reason(outcome))
        return ev.Answer("{}")  # no objection: Gemini's own confirmation still applies
    if event.kind == ev.POST_TOOL:
        if ev.withholds(outcome):
            return deny(ev.output_block_reason(outcome))  # replaces the tool's result
        if verdict == ev.AUTH:
            return context(event.name, ev.untrusted_context(outcome))
        return ev.Answer("{}")
    if event.kind == ev.PROMPT:
        if verdict == ev.BLOCK:
            return deny(ev.prompt_block_reason(outcome))
        if verdict == ev.AUTH:
            return context(
                event.name, ev.flagged_prompt_context(outcome), systemMessage=ev.ask_reason(outcome)
            )
        return ev.Answer("{}")
    return ev.Answer(ev.dumps({"systemMessage": outcome.explanation}))


def fail_closed(event_name: str | None, why: str) -> ev.Answer:
    reason = ev.fail_closed_reason(why)
    if event_name == "SessionStart":
        return ev.Answer(ev.dumps({"continue": False, "stopReason": reason}), 2, reason + "\n")
    return deny(reason)
