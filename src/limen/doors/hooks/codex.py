"""OpenAI Codex's hook dialect (`~/.codex/hooks.json`): Claude Code's shapes, with two differences.

Codex parses `ask` but does not honour it (the hook run is marked failed and the call proceeds), so AUTH is
answered as a deny that says how a human approves (`apply_patch` carries its target files inside the patch
text; the normaliser reads them, for every door). A withheld output is a `decision: block`, which Codex
(unlike Claude Code) applies by replacing the tool result.
"""

from __future__ import annotations

from limen.doors.hooks import claude_code
from limen.doors.hooks import events as ev
from limen.doors.hooks.wire import RUN_SESSION

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from typing import Any

AGENT = "codex"


def parse(payload: dict[str, Any], env: dict[str, str]) -> ev.HookEvent:
    return claude_code.parse(payload, {k: v for k, v in env.items() if k == RUN_SESSION}, AGENT)


def render(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    if event.kind == ev.PRE_TOOL:
        if outcome.verdict == ev.PASS:
            return ev.Answer("{}")  # no objection; a bare `allow` is Codex's input-rewrite form
        reason = ev.block_reason(outcome) if outcome.verdict == ev.BLOCK else ev.auth_denied_reason(outcome)
        return claude_code.deny(claude_code.pre_tool("deny", reason), reason)
    if event.kind == ev.POST_TOOL and ev.withholds(outcome):
        # Codex replaces the tool result with the reason of a `decision: block`; it has no output rewrite
        # (`updatedMCPToolOutput` is "not supported"), so Claude Code's redacted copy is not sent.
        reason = ev.output_block_reason(outcome)
        payload = claude_code.with_context({}, event.name, ev.untrusted_context(outcome))
        return claude_code.deny({"decision": "block", "reason": reason, **payload}, reason)
    return claude_code.render(event, outcome)


def fail_closed(event_name: str | None, why: str) -> ev.Answer:
    return claude_code.fail_closed(event_name, why)
