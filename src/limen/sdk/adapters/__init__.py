"""Framework adapters: thin modules that show a guard's tools to a framework and turn a refusal into the
tool-error shape that framework gives the model, so it can recover. They translate only; every call goes
through `Session.call`/`acall` (validate, decide, approve, execute, verify, observe, audit).

    limen.sdk.adapters.langchain      LangChain tools, LangGraph's ToolNode (a ToolMessage, status="error")
    limen.sdk.adapters.openai_agents  OpenAI Agents SDK FunctionTools (the error text as the tool output)
    limen.sdk.adapters.pydantic_ai    a PydanticAI toolset (ToolFailed: a failed tool result the model sees)
    limen.sdk.adapters.mcp            a guarded `call_tool` for an MCP client (CallToolResult, isError)

Each framework is an optional dependency (the `sdk` extra) imported only by its own adapter.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.sdk.guard import Guard, Session
    from limen.sdk.tools import Tool


def session_of(target: Guard | Session) -> Session:
    """The session a framework's call goes to: the one given, or the guard's current one at call time
    (its default session, or the session of the guarded call this one is nested in)."""
    from limen.sdk.guard import Guard

    return target._current() if isinstance(target, Guard) else target


def guard_of(target: Guard | Session) -> Guard:
    from limen.sdk.guard import Guard

    return target if isinstance(target, Guard) else target.guard


def selected(target: Guard | Session, names: Iterable[str] | None) -> list[Tool]:
    tools = guard_of(target).tools
    if names is None:
        return list(tools.values())
    missing = [name for name in names if name not in tools]
    if missing:
        raise ValueError(f"no tool registered under {missing}")
    return [tools[name] for name in names]
