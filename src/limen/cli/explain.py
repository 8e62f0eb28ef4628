"""`limen explain`: decide one tool call and show verdict, risk, reasons and the evidence trail.

The call is either a hook event on stdin or in a file (Claude Code style: `tool_name`, `tool_input`, `cwd`),
or `--tool NAME --args JSON`. Nothing is executed, no session state changes and nothing is recorded: an
explanation is not a decision an agent met, so it must not reach the audit log (and `limen tune`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from limen.model import Decision, Mode


def _call_from_event(text: str) -> tuple[str, Any, str | None]:
    event = json.loads(text)
    if not isinstance(event, dict):
        raise ValueError("the event is not a JSON object")
    tool = event.get("tool_name") or event.get("tool") or ""
    arguments = event.get("tool_input", event.get("arguments", {}))
    cwd = event.get("cwd")
    return str(tool), arguments, cwd if isinstance(cwd, str) else None


def decide_unrecorded(tool: str, arguments: Any, *, cwd: str, mode: str | None) -> Decision:
    """The decision the same call would meet through a door, without a session and without an audit
    record (none is built)."""
    from limen.runtime import DISCARD, Runtime

    if mode is not None and mode not in Mode.__members__.values():
        mode = Mode.PARANOID.value  # an unknown mode name must not loosen anything
    runtime = Runtime(workspace=cwd, mode=mode)
    try:
        return runtime.decide(tool, arguments, session_id=None, door="explain", cwd=cwd, sink=DISCARD)
    finally:
        runtime.close()


def render(decision: Decision) -> str:
    reasons = ", ".join(r.value for r in decision.reasons) or "-"
    lines = [f"{decision.verdict.name}  risk {decision.risk}  {reasons}", f"  {decision.explanation}"]
    action = decision.action
    if action is not None:
        lines.append(f"  tool {action.tool}  capability {action.capability}  door {action.door}")
        if action.commands:
            lines.append("  commands: " + " | ".join(" ".join(c.argv)[:80] for c in action.commands))
        if action.paths:
            lines.append("  paths: " + ", ".join(action.paths[:8]))
        if action.destinations:
            lines.append("  destinations: " + ", ".join(d.host for d in action.destinations[:8]))
        if action.notes:
            lines.append("  notes: " + ", ".join(action.notes))
    lines.append("  evidence:")
    for stage in decision.evidence:
        reasons = ", ".join(r.value for r in stage.reasons)
        lines.append(
            f"    {stage.stage:<12} {stage.verdict.name:<5} risk {stage.risk:>3}  {stage.micros:8.1f} us"
            f"  {reasons}"
        )
        lines.extend(f"        {detail}" for detail in stage.details)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen explain",
        description=(
            "Decide one tool call and show its verdict, risk, reasons and evidence; nothing is recorded."
        ),
    )
    parser.add_argument("event", nargs="?", help="A hook event JSON file ('-' or nothing: stdin).")
    parser.add_argument("--tool", help="Tool name, e.g. Bash.")
    parser.add_argument("--args", help="Tool arguments as a JSON object.")
    parser.add_argument("--cwd", help="Working directory of the call (default: the event's, else this one).")
    parser.add_argument("--mode", help="The mode to decide in: light, balanced, strict or paranoid.")
    parser.add_argument("--json", action="store_true", help="Print the decision as JSON.")
    args = parser.parse_args(argv)
    try:
        if args.tool:
            tool, arguments, cwd = args.tool, json.loads(args.args or "{}"), None
        else:
            if args.event and args.event != "-":
                with open(args.event, encoding="utf-8") as handle:
                    text = handle.read()
            else:
                text = sys.stdin.read()
            tool, arguments, cwd = _call_from_event(text)
    except (OSError, ValueError) as exc:
        print(f"limen explain: cannot read the call: {exc}", file=sys.stderr)
        return 2
    decision = decide_unrecorded(tool, arguments, cwd=args.cwd or cwd or os.getcwd(), mode=args.mode)
    print(json.dumps(decision.to_dict(), indent=2) if args.json else render(decision))
    return 0
