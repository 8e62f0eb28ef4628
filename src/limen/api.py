"""The one-call public API: the same path every door uses.

`evaluate()` goes through a `Runtime` for the working directory: the policy files that apply there, the
session's state (taint, provenance, history) and the audit log. Given an explicit `context`, it decides
with that context alone: no policy files, no session, no audit (benchmarks and tests of the engine).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from limen.model import Decision, Mode

if TYPE_CHECKING:
    from limen.context import Context
    from limen.runtime import Runtime


@lru_cache(maxsize=16)
def _runtime(workspace: str, mode: str | None, home: str) -> Runtime:
    from limen.runtime import Runtime

    return Runtime(workspace=workspace, mode=mode)


def evaluate(
    tool: str,
    arguments: dict[str, Any],
    *,
    cwd: str,
    session_id: str | None = None,
    mode: str | None = None,
    door: str = "sdk",
    role: str = "",
    context: Context | None = None,
) -> Decision:
    """Decide one tool call. Never raises: bad input ends in AUTH or BLOCK with a reason code.

    `role` names the agent's role in the policy; like `cwd`, it comes from your code, never the model."""
    if context is None:
        from limen.context import limen_home

        if mode is not None and mode not in Mode.__members__.values():
            mode = Mode.PARANOID.value  # an unknown mode name must not loosen anything
        return _runtime(cwd, mode, limen_home()).decide(
            tool, arguments, session_id=session_id, door=door, cwd=cwd, role=role
        )
    from limen.engine import decide
    from limen.normalize import normalize

    action = normalize(
        tool,
        arguments,
        cwd=cwd,
        door=door,
        session_id=session_id,
        role=role,
        mode=context.mode,
        home=context.home,
        tools=context.policy.tool_specs if context.policy is not None else None,
    )
    return decide(action, context)
