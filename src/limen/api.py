"""The one-call public API: the same path every door uses.

`evaluate()` goes through a `Runtime` for the working directory: the policy files that apply there, the
session's state (taint, provenance, history) and the audit log. Given an explicit `context`, it decides
with that context alone: no policy files, no session, no audit (benchmarks and tests of the engine).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from limen.engine import decide
from limen.model import Decision, Mode
from limen.normalize import normalize

if TYPE_CHECKING:
    from limen.context import Context
    from limen.runtime import Runtime


_RUNTIMES: OrderedDict[tuple[str, str | None, str], Runtime] = OrderedDict()
_MAX_RUNTIMES = 16
_RUNTIMES_LOCK = threading.Lock()


def _runtime(workspace: str, mode: str | None) -> Runtime:
    """One Runtime per (workspace, mode, Limen home), the least recently used closed beyond a few."""
    from limen.home import limen_home
    from limen.runtime import Runtime

    key = (workspace, mode, limen_home())
    with _RUNTIMES_LOCK:  # SDK callers may evaluate from several threads
        runtime = _RUNTIMES.pop(key, None) or Runtime(workspace=workspace, mode=mode)
        _RUNTIMES[key] = runtime
        while len(_RUNTIMES) > _MAX_RUNTIMES:
            _, evicted = _RUNTIMES.popitem(last=False)
            evicted.close()
    return runtime


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
        if mode is not None and mode not in Mode.__members__.values():
            mode = Mode.PARANOID.value  # an unknown mode name must not loosen anything
        return _runtime(cwd, mode).decide(
            tool, arguments, session_id=session_id, door=door, cwd=cwd, role=role
        )
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
