"""What an approval is bound to, what a human is shown, and what can never be approved.

The binding is the call itself: the tool, its arguments in a canonical form (keys sorted, one JSON
spelling), the working directory relative paths are resolved against, the session and the workspace.
It is stored only as a keyed fingerprint (`limen.state.keys.Fingerprinter`), so the approvals file cannot
be used to confirm a guessed argument. Any change to any of these parts is another call and needs another
approval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from limen.model import ReasonCode

# Floors an approval never overrides: the call stays refused whatever a human answers (they are BLOCK in
# strict and paranoid modes, and in every mode for confirmed exfiltration and a halted session).
NEVER_APPROVABLE = frozenset(
    {
        ReasonCode.CONFIRMED_EXFIL,
        ReasonCode.LETHAL_TRIFECTA,
        ReasonCode.CORRELATED_TRIFECTA,
        ReasonCode.SESSION_HALTED,
    }
)
MAX_ACTION_CHARS = 600
# Doors whose calls are only shown, never run: `limen explain`, `limen demo` (it replays Claude Code calls
# under that door name) and `limen bench`. Their AUTH opens no request: nobody will retry the call.
UNASKED_DOORS = frozenset({"explain", "claude-code", "bench"})


def canonical_arguments(arguments: Any) -> str:
    """The arguments in one spelling: keys sorted, no insignificant whitespace, non-JSON values by repr."""
    try:
        return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # keys that cannot be sorted against each other
        return repr(arguments)


def fingerprint(
    fingerprinter: Callable[[str], str],
    *,
    tool: str,
    arguments: Any,
    cwd: str,
    session: str,
    workspace: str,
) -> str:
    """The keyed fingerprint of one call's binding."""
    binding = json.dumps(
        [tool, canonical_arguments(arguments), cwd, session, workspace], separators=(",", ":")
    )
    return fingerprinter("approval\0" + binding)


def masked_action(tool: str, arguments: Any) -> str:
    """What the human reads: the tool and its arguments, each secret replaced by its kind, cut short.
    A shell command is shown as the command line."""
    from limen.doors.mcp.ask import MAX_NAME_CHARS, mask, masked_arguments

    name = mask(tool, MAX_NAME_CHARS)
    command = arguments.get("command") if isinstance(arguments, dict) else None
    if isinstance(command, str):
        rest = {k: v for k, v in arguments.items() if k not in ("command", "description")}
        text = f"{name}: {mask(command, MAX_ACTION_CHARS)}"
        if rest:
            text += " (" + masked_arguments(rest).replace("\n", "; ") + ")"
    else:
        text = f"{name}: " + masked_arguments(arguments).replace("\n", "; ")
    return text if len(text) <= MAX_ACTION_CHARS else text[:MAX_ACTION_CHARS] + " ..."


def never_approvable(reasons: tuple[ReasonCode, ...]) -> tuple[ReasonCode, ...]:
    """The reason codes among `reasons` that no approval can override."""
    return tuple(r for r in reasons if r in NEVER_APPROVABLE)
