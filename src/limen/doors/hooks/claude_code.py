"""Claude Code's hook dialect (`~/.claude/settings.json` command hooks).

Every deny also exits 2 with the reason on stderr: Claude Code honours a JSON decision on exit 0, but exit 2
is the one answer it treats as a block even when the JSON is rejected by a future schema.

PASS is answered with no decision at all (`{}`, exit 0), never `permissionDecision: "allow"`: an allow
skips Claude Code's own permission prompt, and Limen's PASS means "no objection", not "approved". The
user's permission rules and mode still decide whether Claude Code asks.
"""

from __future__ import annotations

from limen.doors.hooks import events as ev

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from typing import Any

AGENT = "claude-code"
KINDS = {
    "PreToolUse": ev.PRE_TOOL,
    "PostToolUse": ev.POST_TOOL,
    "UserPromptSubmit": ev.PROMPT,
    "SessionStart": ev.SESSION_START,
}
PROJECT_ENV = "CLAUDE_PROJECT_DIR"


def parse(payload: dict[str, Any], env: dict[str, str], agent: str = AGENT) -> ev.HookEvent:
    """The event in Limen's terms; raises ValueError on an unknown event or a missing field."""
    return ev.parse_event(payload, env, kinds=KINDS, agent=agent, project_env=PROJECT_ENV)


def pre_tool(decision: str, reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    }


def deny(payload: dict[str, Any], reason: str) -> ev.Answer:
    return ev.Answer(ev.dumps(payload), 2, reason + "\n")


def with_context(payload: dict[str, Any], event_name: str, context: str) -> dict[str, Any]:
    payload["hookSpecificOutput"] = {"hookEventName": event_name, "additionalContext": context}
    return payload


def render(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    """Claude Code's answer to a decided event. AUTH is `ask`: Claude Code's own prompt is the approval."""
    verdict = outcome.verdict
    if event.kind == ev.PRE_TOOL:
        if verdict == ev.BLOCK:
            reason = ev.block_reason(outcome)
            return deny(pre_tool("deny", reason), reason)
        if verdict == ev.AUTH:
            return ev.Answer(ev.dumps(pre_tool("ask", ev.ask_reason(outcome))))
        return ev.Answer("{}")  # no objection: Claude Code's own permission system still applies
    if event.kind == ev.POST_TOOL:
        return render_post(event, outcome)
    if event.kind == ev.PROMPT:
        return render_prompt(event, outcome)
    status = outcome.explanation
    return ev.Answer(ev.dumps(with_context({"systemMessage": status}, event.name, status)))


def render_post(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    """A secret (or a BLOCK) in the output: the output is replaced. `decision: block` alone is advisory in
    Claude Code (the model still sees the original next to the reason), so the answer carries the output
    redacted in place (`updatedToolOutput`, same shape; `updatedMCPToolOutput` for MCP tools) on exit 0,
    the one exit code whose JSON Claude Code applies. Anything else flagged: context for the model."""
    if outcome.verdict == ev.PASS:
        return ev.Answer("{}")
    payload = with_context({}, event.name, ev.untrusted_context(outcome))
    if outcome.removed and not ev.withholds(outcome):  # cut the instructions out, pass the rest
        marker = ev.removal_marker(outcome)
        from limen.scan import cut

        trimmed = cut(event.raw_output, outcome.removed, marker, keep=ev.SHAPE_KEYS)
        if trimmed is not None:
            specific = payload["hookSpecificOutput"]
            if event.tool.startswith("mcp__"):
                specific["updatedMCPToolOutput"] = trimmed
            specific["updatedToolOutput"] = trimmed
            return ev.Answer(ev.dumps(payload))
        outcome.verdict = ev.BLOCK  # the pieces cannot be cut where they lie: the whole output is withheld
    if ev.withholds(outcome):
        reason = ev.output_block_reason(outcome)
        marker = f"[withheld by Limen: {ev.codes(outcome)}{ev.ref(outcome)}]"
        specific = payload["hookSpecificOutput"]
        specific["additionalContext"] = reason
        if event.tool.startswith("mcp__"):
            specific["updatedMCPToolOutput"] = {"content": [{"type": "text", "text": marker}]}
        specific["updatedToolOutput"] = ev.redacted(event.raw_output, marker)
        return ev.Answer(ev.dumps({"decision": "block", "reason": reason, **payload}))
    return ev.Answer(ev.dumps(payload))


def render_prompt(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    """BLOCK rejects the prompt. AUTH cannot be asked here (UserPromptSubmit has no `ask`): the person who
    typed the prompt sees a warning, and the model is told to treat the flagged part as data."""
    if outcome.verdict == ev.BLOCK:
        reason = ev.prompt_block_reason(outcome)
        return deny({"decision": "block", "reason": reason}, reason)
    if outcome.verdict == ev.AUTH:
        payload = {"systemMessage": ev.ask_reason(outcome)}
        return ev.Answer(ev.dumps(with_context(payload, event.name, ev.flagged_prompt_context(outcome))))
    return ev.Answer("{}")


def fail_closed(event_name: str | None, why: str) -> ev.Answer:
    """The deny for an event Limen could not decide. A session that cannot be guarded is stopped."""
    reason = ev.fail_closed_reason(why)
    if event_name == "PreToolUse":
        return deny(pre_tool("deny", reason), reason)
    if event_name == "SessionStart":
        return deny({"continue": False, "stopReason": reason}, reason)
    return deny({"decision": "block", "reason": reason}, reason)
