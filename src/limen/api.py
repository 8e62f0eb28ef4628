"""The one-call public API: the same normalise -> decide path every door uses."""

from __future__ import annotations

from typing import Any

from limen.context import Context
from limen.engine import decide
from limen.model import Decision, Mode
from limen.normalize import normalize


def evaluate(
    tool: str,
    arguments: dict[str, Any],
    *,
    cwd: str,
    session_id: str | None = None,
    mode: str | None = None,
    door: str = "sdk",
    context: Context | None = None,
) -> Decision:
    """Decide one tool call. Never raises: bad input ends in AUTH or BLOCK with a reason code."""
    try:
        resolved_mode = Mode(mode) if mode else (context.mode if context else Mode.BALANCED)
    except ValueError:
        resolved_mode = Mode.PARANOID  # an unknown mode name must not loosen anything
    ctx = context or Context.for_mode(resolved_mode, cwd)
    action = normalize(
        tool, arguments, cwd=cwd, door=door, session_id=session_id, mode=resolved_mode, home=ctx.home
    )
    return decide(action, ctx)
