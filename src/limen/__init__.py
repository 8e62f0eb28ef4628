"""Limen: a security layer between AI agents and everything they can touch.

Public API (imported lazily: `import limen` must cost next to nothing, since every hook process pays it):
    limen.evaluate(tool, arguments, *, cwd, session_id=None, mode=None) -> Decision
    limen.Verdict, limen.ReasonCode, limen.Decision, limen.Action, limen.Mode
    limen.Guard(workspace, *, policy, mode, approver, audit): the SDK door (`limen.sdk`)
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs the hook client milliseconds
if TYPE_CHECKING:
    from limen.api import evaluate
    from limen.model import Action, Decision, Mode, ReasonCode, Verdict
    from limen.sdk import Approval, ApprovalRequest, Denied, ExecutionFailed, Guard, GuardError

__all__ = [
    "Action",
    "Approval",
    "ApprovalRequest",
    "Decision",
    "Denied",
    "ExecutionFailed",
    "Guard",
    "GuardError",
    "Mode",
    "ReasonCode",
    "Verdict",
    "evaluate",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The public name, imported on first use and kept as a module attribute (later uses cost nothing)."""
    if name == "evaluate":
        from limen.api import evaluate

        found: object = evaluate
    elif name in ("Action", "Decision", "Mode", "ReasonCode", "Verdict"):
        from limen import model

        found = getattr(model, name)
    elif name in ("Guard", "Approval", "ApprovalRequest", "Denied", "ExecutionFailed", "GuardError"):
        from limen import sdk

        found = getattr(sdk, name)
    else:
        raise AttributeError(f"module 'limen' has no attribute {name!r}")
    globals()[name] = found
    return found
