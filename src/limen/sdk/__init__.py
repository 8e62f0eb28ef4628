"""The Python SDK door: `limen.Guard` validates, decides, asks, executes under control, verifies and
audits every tool call of a Python agent (see `limen.sdk.guard`).

    guard = limen.Guard(workspace="/path/to/project", approver=ask_a_person)

    @guard.tool(capability="filesystem.write", params={"target": "path", "text": "content"})
    def save(target: str, text: str) -> str: ...

    guard.call("save", {"target": "notes.md", "text": "hello"})

Controlled executors (`FilesystemExecutor`, `ShellExecutor`, `HttpExecutor`) are tools whose effects are
confined whatever the model asked; framework adapters live in `limen.sdk.adapters`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.sdk.approval import Approval, ApprovalRequest
    from limen.sdk.errors import Denied, ExecutionFailed, GuardError, OutputWithheld
    from limen.sdk.executors.filesystem import FilesystemExecutor
    from limen.sdk.executors.http import HttpExecutor
    from limen.sdk.executors.shell import ShellExecutor
    from limen.sdk.guard import Guard, Session, Summary
    from limen.sdk.tools import Tool

__all__ = [
    "Approval",
    "ApprovalRequest",
    "Denied",
    "ExecutionFailed",
    "FilesystemExecutor",
    "Guard",
    "GuardError",
    "HttpExecutor",
    "OutputWithheld",
    "Session",
    "ShellExecutor",
    "Summary",
    "Tool",
]

_WHERE = {
    "Approval": "limen.sdk.approval",
    "ApprovalRequest": "limen.sdk.approval",
    "Denied": "limen.sdk.errors",
    "ExecutionFailed": "limen.sdk.errors",
    "GuardError": "limen.sdk.errors",
    "OutputWithheld": "limen.sdk.errors",
    "FilesystemExecutor": "limen.sdk.executors.filesystem",
    "HttpExecutor": "limen.sdk.executors.http",
    "ShellExecutor": "limen.sdk.executors.shell",
    "Guard": "limen.sdk.guard",
    "Session": "limen.sdk.guard",
    "Summary": "limen.sdk.guard",
    "Tool": "limen.sdk.tools",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'limen.sdk' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
