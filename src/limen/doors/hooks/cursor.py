"""Cursor's hook dialect (`.cursor/hooks.json`): `permission` allow | ask | deny, snake_case messages.

Cursor names its tools itself (`Shell`, `Read`, `Write`, `StrReplace`, `Delete`...); they are mapped to the
names the engine's tool table knows. `beforeReadFile` carries the file's content, so a secret or an injected
instruction in it is caught before the agent reads it; it is documented to honour `permission` only, so
AUTH there is a deny that says how to approve rather than an `ask` that might be read as allow.
`beforeSubmitPrompt` cannot add context, so a flagged-but-not-blocked prompt goes through with a warning.

PASS is answered with no `permission` (`{}`, exit 0), never `allow`: an allow skips Cursor's own approval
of shell and MCP calls, and Limen's PASS means "no objection", not "approved". The one exception is
`beforeReadFile`: Cursor has no approval step for reading a file that an allow could skip, and the event is
documented to honour `permission` only, so an answer without it risks being read as malformed (a block on
every read); there, `allow` is exactly "no objection".
"""

from __future__ import annotations

import json

from limen.doors.hooks import events as ev

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from typing import Any

AGENT = "cursor"
KINDS = {
    "preToolUse": ev.PRE_TOOL,
    "beforeShellExecution": ev.PRE_TOOL,
    "beforeMCPExecution": ev.PRE_TOOL,
    "beforeReadFile": ev.PRE_TOOL,
    "beforeSubmitPrompt": ev.PROMPT,
    "sessionStart": ev.SESSION_START,
}
TOOL_NAMES = {"Shell": "Bash", "StrReplace": "Edit", "Delete": "filesystem.delete"}


def _where(payload: dict[str, Any]) -> tuple[str, str]:
    """(cwd, workspace): Cursor sends `cwd` on some events, `workspace_roots` on all."""
    roots = payload.get("workspace_roots")
    root = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""
    cwd = ev.string(payload, "cwd") or root
    return cwd, root or cwd


def _tool_call(name: str, payload: dict[str, Any], event: ev.HookEvent) -> None:
    if name == "beforeShellExecution":
        event.tool, event.arguments = "Bash", {"command": payload.get("command")}
    elif name == "beforeReadFile":
        event.tool, event.arguments = "Read", {"file_path": payload.get("file_path")}
        event.output = ev.string(payload, "content")
    elif name == "beforeMCPExecution":
        server, tool = ev.string(payload, "mcp_server_name"), ev.string(payload, "tool_name")
        args = payload.get("tool_input")
        event.tool = f"mcp__{server}__{tool}" if server else tool
        event.arguments = json.loads(args) if isinstance(args, str) else args
    else:
        tool = ev.string(payload, "tool_name")
        event.tool, event.arguments = TOOL_NAMES.get(tool, tool), payload.get("tool_input")
        args = event.arguments
        if (
            event.tool == "Bash"
            and isinstance(args, dict)
            and isinstance(args.get("cwd"), str)
            and args["cwd"]
        ):
            event.cwd = args["cwd"]
        if event.tool == "filesystem.delete" and isinstance(args, dict) and "path" not in args:
            event.arguments = {**args, "path": args.get("file_path")}
    if not event.tool:
        raise ValueError("tool event without a tool name")


def parse(payload: dict[str, Any], env: dict[str, str]) -> ev.HookEvent:
    name = ev.string(payload, "hook_event_name")
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown event {name[:40]!r}")
    session = ev.string(payload, "conversation_id") or ev.string(payload, "session_id")
    cwd, workspace = _where(payload)
    if not session or not cwd:
        raise ValueError("event without conversation_id or workspace")
    session_id = ev.session_of(AGENT, session, env)
    event = ev.HookEvent(kind, name, session_id=session_id, cwd=cwd, workspace=workspace)
    if kind == ev.PRE_TOOL:
        _tool_call(name, payload, event)
    elif kind == ev.PROMPT:
        event.prompt = ev.string(payload, "prompt")
    return event


def permission(decision: str, message: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"permission": decision}
    if message:
        out["user_message"] = message
        out["agent_message"] = message
    return out


def render(event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer:
    verdict = outcome.verdict
    if event.kind == ev.PRE_TOOL:
        if verdict == ev.BLOCK:
            reason = ev.block_reason(outcome)
            return ev.Answer(ev.dumps(permission("deny", reason)), 2, reason + "\n")
        if verdict == ev.AUTH and event.name == "beforeReadFile":  # `ask` is not known to hold there
            reason = ev.auth_denied_reason(outcome)
            return ev.Answer(ev.dumps(permission("deny", reason)), 2, reason + "\n")
        if verdict == ev.AUTH:
            return ev.Answer(ev.dumps(permission("ask", ev.ask_reason(outcome))))
        if event.name == "beforeReadFile":  # no approval step to skip; see the module docstring
            return ev.Answer(ev.dumps(permission("allow")))
        return ev.Answer("{}")  # no objection: Cursor's own approval settings still apply
    if event.kind == ev.PROMPT:
        if verdict == ev.BLOCK:
            reason = ev.prompt_block_reason(outcome)
            return ev.Answer(ev.dumps({"continue": False, "user_message": reason}), 2, reason + "\n")
        if verdict == ev.AUTH:
            return ev.Answer(ev.dumps({"continue": True, "user_message": ev.ask_reason(outcome)}))
        return ev.Answer(ev.dumps({"continue": True}))
    return ev.Answer(ev.dumps({"additional_context": outcome.explanation}))


def fail_closed(event_name: str | None, why: str) -> ev.Answer:
    reason = ev.fail_closed_reason(why)
    if event_name == "beforeSubmitPrompt":
        return ev.Answer(ev.dumps({"continue": False, "user_message": reason}), 2, reason + "\n")
    return ev.Answer(ev.dumps(permission("deny", reason)), 2, reason + "\n")
