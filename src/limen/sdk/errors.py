"""What a guarded call raises instead of returning: the call was denied, it failed, or its output withheld.

Each carries the `Decision` that explains it. Messages never carry argument values or a tool's own error
text (either may hold a secret): only verdicts, reason codes, Limen's redacted explanation and type names.
Adapters turn `message` into the error shape their framework shows the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.model import Decision


class GuardError(Exception):
    """Base of everything a guarded call raises on Limen's behalf."""

    def __init__(self, tool: str, message: str, decision: Decision | None = None) -> None:
        super().__init__(message)
        self.tool = tool
        self.message = message
        self.decision = decision

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(r.value for r in self.decision.reasons) if self.decision is not None else ()


class Denied(GuardError):
    """The call did not run: BLOCK, an AUTH nobody approved, or arguments that do not fit the tool."""


class ExecutionFailed(GuardError):
    """The call ran and failed (the tool or executor raised, or verification found an unexpected change).
    The session is halted: every later call in it is denied."""


class OutputWithheld(GuardError):
    """The call ran, but what it returned must not reach the model (the output scan blocked it)."""
