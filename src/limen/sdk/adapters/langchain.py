"""LangChain and LangGraph: a guard's tools as LangChain `StructuredTool`s, usable in `ToolNode`, in
`create_react_agent`, or on their own.

A refused or failed call raises `ToolException` inside the tool with `handle_tool_error=True`, which
LangChain turns into the `ToolMessage(status="error")` the model sees. The tools take the model's
arguments as they are (their schema is a JSON schema, so LangChain does not coerce anything): the guard
validates them, so a malformed call is an audited decision too.

    from limen.sdk.adapters.langchain import tools, register
    register(guard, my_langchain_tool, capability="filesystem.read")   # an existing LangChain tool
    node = ToolNode(tools(guard))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.tools import BaseTool, StructuredTool, ToolException

from limen.sdk.adapters import guard_of, selected, session_of
from limen.sdk.errors import GuardError

if TYPE_CHECKING:
    from limen.sdk.guard import Guard, Session
    from limen.sdk.tools import Tool


def tools(target: Guard | Session, names: Iterable[str] | None = None) -> list[BaseTool]:
    """LangChain tools for the guard's registered tools (or those named), calling through `target`."""
    return [_structured(target, tool) for tool in selected(target, names)]


def register(
    guard: Guard,
    tool: BaseTool,
    *,
    capability: str,
    params: Mapping[str, str | None] | None = None,
    verify: str | None = None,
) -> Tool:
    """Register an existing LangChain tool's function with the guard, under the tool's name; then
    `tools(guard)` gives its guarded version."""
    fn = getattr(tool, "coroutine", None) or getattr(tool, "func", None)
    if fn is None:
        raise ValueError(f"{tool.name}: only tools made from a function can be guarded")
    return guard_of(guard).register(
        fn, capability=capability, params=params, name=tool.name, description=tool.description, verify=verify
    )


def _structured(target: Guard | Session, tool: Tool) -> StructuredTool:
    name = tool.name

    def call(**arguments: Any) -> Any:
        try:
            return session_of(target).call(name, arguments)
        except GuardError as exc:
            raise ToolException(exc.message) from None

    async def acall(**arguments: Any) -> Any:
        try:
            return await session_of(target).acall(name, arguments)
        except GuardError as exc:
            raise ToolException(exc.message) from None

    return StructuredTool.from_function(
        func=call,
        coroutine=acall,
        name=name,
        description=tool.description,
        args_schema=tool.json_schema(),
        handle_tool_error=True,
    )
