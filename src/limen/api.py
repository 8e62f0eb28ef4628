"""The one-call public API: the same path every door uses.

`evaluate()` goes through a `Runtime` for the working directory: the policy files that apply there, the
session's state (taint, provenance, history) and the audit log. Given an explicit `context`, it decides
with that context alone: no policy files, no session, no audit (benchmarks and tests of the engine).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from limen.engine import decide
from limen.model import Decision, Mode, ReasonCode, Verdict
from limen.normalize import normalize
from limen.normalize.paths import decision_scope

if TYPE_CHECKING:
    from limen.context import Context
    from limen.runtime import Runtime
    from limen.serve.client import RemoteRuntime


_RUNTIMES: OrderedDict[tuple[str, str | None, str], Runtime] = OrderedDict()
_MAX_RUNTIMES = 16
_RUNTIMES_LOCK = threading.Lock()
_REMOTES: dict[tuple[str, str, str, str | None], RemoteRuntime] = {}


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


def _remote(workspace: str, mode: str | None) -> RemoteRuntime:
    """The client of the decision server `LIMEN_SERVER` names, one per (server, workspace, mode)."""
    from limen.serve.client import RemoteRuntime

    key = (os.environ.get("LIMEN_SERVER", ""), os.environ.get("LIMEN_SERVER_TOKEN", ""), workspace, mode)
    with _RUNTIMES_LOCK:
        remote = _REMOTES.get(key)
        if remote is None:
            remote = RemoteRuntime.from_environment(workspace, mode)
            assert remote is not None  # LIMEN_SERVER is set
            _REMOTES[key] = remote
    return remote


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
    wait: float | None = None,
) -> Decision:
    """Decide one tool call. Never raises: bad input ends in AUTH or BLOCK with a reason code.

    `role` names the agent's role in the policy; like `cwd`, it comes from your code, never the model.

    An AUTH carries `decision.approval_id`: a single-use approval request. Where a channel reaches a
    person (the terminal of an interactive program, a webhook, an ntfy push; `approvals:` in limen.yaml),
    the call is held up to `wait` seconds (default and cap: `approvals.wait_seconds`; 0 never holds) and,
    once granted, decided again: it passes once. Otherwise the AUTH comes back at once; after `limen
    approve ID`, the identical call passes once.

    With `LIMEN_SERVER` set (and `LIMEN_SERVER_TOKEN`), the call is decided by `limen serve` instead, with
    the server's policy, sessions and audit; AUTH comes back at once (a person answers it on the server's
    side); an unreachable server is a BLOCK (objective_guardrail_error), never a PASS."""
    if context is None:
        unknown_mode = mode is not None and mode not in Mode.__members__.values()
        if unknown_mode:
            mode = Mode.PARANOID.value  # an unknown mode name must not loosen anything
        if os.environ.get("LIMEN_SERVER"):  # decide through `limen serve` (limen.serve.client): fail closed
            return _remote(cwd, mode).decide(
                tool, arguments, session_id=session_id, door=door, cwd=cwd, role=role
            )
        runtime = _runtime(cwd, mode)
        if unknown_mode:  # a caller's mistake is a decision with a reason code, never a silent default
            return runtime.refuse(
                str(tool)[:200],
                ReasonCode.INVALID_ARGUMENTS,
                "unknown mode name (light, balanced, strict or paranoid)",
                capability="unknown",
                session_id=session_id,
                door=door,
            )
        decision = runtime.decide(tool, arguments, session_id=session_id, door=door, cwd=cwd, role=role)
        if decision.approval_id and decision.verdict is Verdict.AUTH and (wait is None or wait > 0):
            import time

            until = time.time() + (wait if wait is not None else 86400.0)
            status, reached = runtime.hold(decision, door=door, until=until)
            if status == "granted":
                return runtime.decide(tool, arguments, session_id=session_id, door=door, cwd=cwd, role=role)
            if reached:
                answer = "denied it" if status == "denied" else "gave no answer in time"
                decision.explanation += f"; asked via {reached[0]}, a person {answer}"
        return decision
    with decision_scope({}):
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
