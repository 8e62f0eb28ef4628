"""PydanticAI: a guard's tools as a `FunctionToolset`.

The tools take the model's arguments without PydanticAI's own coercion (`Tool.from_schema`): the guard
validates them. A refused or failed call raises `ToolFailed`, PydanticAI's terminal tool failure: the
model sees the message as a failed tool result and adapts, without spending a retry.

    agent = Agent(model, toolsets=[toolset(guard)])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic_ai import Tool as PydanticTool
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.toolsets import FunctionToolset

from limen.sdk.adapters import selected, session_of
from limen.sdk.errors import GuardError

if TYPE_CHECKING:
    from limen.sdk.guard import Guard, Session
    from limen.sdk.tools import Tool


def toolset(target: Guard | Session, names: Iterable[str] | None = None) -> FunctionToolset[Any]:
    return FunctionToolset([_tool(target, tool) for tool in selected(target, names)])


def _tool(target: Guard | Session, tool: Tool) -> PydanticTool[Any]:
    name = tool.name

    async def call(**arguments: Any) -> Any:
        try:
            return await session_of(target).acall(name, arguments)
        except GuardError as exc:
            raise ToolFailed(exc.message) from None

    return PydanticTool.from_schema(
        call, name=name, description=tool.description, json_schema=tool.json_schema()
    )
