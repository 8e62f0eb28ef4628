"""LangChain and LangGraph: a guard's tools as LangChain `StructuredTool`s, usable in `ToolNode`, in
`create_react_agent`, or on their own.

A refused or failed call raises `ToolException` inside the tool with `handle_tool_error=True`, which
LangChain turns into the `ToolMessage(status="error")` the model sees. The tools take the model's
arguments as they are (their schema is a JSON schema, so LangChain does not coerce anything): the guard
validates them, so a malformed call is an audited decision too.

    from limen.sdk.adapters.langchain import tools, register
    register(guard, my_langchain_tool, capability="filesystem.read")   # an existing LangChain tool
    node = ToolNode(tools(guard))
    # or keep a ToolNode of your own tools and let every call take the guard's path instead:
    node = ToolNode(
        my_tools, wrap_tool_call=tool_call_wrapper(guard), awrap_tool_call=async_tool_call_wrapper(guard)
    )

A call to a tool the guard does not know is refused (`unknown_tool`), never run unguarded.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.messages import ToolMessage
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


def tool_call_wrapper(target: Guard | Session) -> Callable[[Any, Callable[[Any], Any]], ToolMessage]:
    """ToolNode's `wrap_tool_call`: the call goes to the guard (which runs the registered function)
    instead of to `execute`; a refusal is the error `ToolMessage` the model sees."""

    def wrap(request: Any, execute: Callable[[Any], Any]) -> ToolMessage:
        call = request.tool_call
        try:
            output = session_of(target).call(call["name"], call.get("args") or {})
        except GuardError as exc:
            return ToolMessage(
                content=exc.message, tool_call_id=call["id"], name=call["name"], status="error"
            )
        return _message(call, output)

    return wrap


def async_tool_call_wrapper(
    target: Guard | Session,
) -> Callable[[Any, Callable[[Any], Awaitable[Any]]], Awaitable[ToolMessage]]:
    """ToolNode's `awrap_tool_call`, as `tool_call_wrapper`."""

    async def wrap(request: Any, execute: Callable[[Any], Awaitable[Any]]) -> ToolMessage:
        call = request.tool_call
        try:
            output = await session_of(target).acall(call["name"], call.get("args") or {})
        except GuardError as exc:
            return ToolMessage(
                content=exc.message, tool_call_id=call["id"], name=call["name"], status="error"
            )
        return _message(call, output)

    return wrap


def _message(call: Mapping[str, Any], output: Any) -> ToolMessage:
    content = output if isinstance(output, str) else json.dumps(output, default=str)
    return ToolMessage(content=content, tool_call_id=call["id"], name=call["name"])
