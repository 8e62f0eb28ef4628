"""OpenAI Agents SDK: a guard's tools as `FunctionTool`s.

The model's arguments arrive as a JSON string and go to the guard as they are (a string that is not a
JSON object is an audited `invalid_arguments` decision). A refused or failed call returns its message as
the tool's output, which is how the Agents SDK shows a tool error to the model ("return a string error
message"), so the run goes on.

    agent = Agent(name="assistant", tools=function_tools(guard))
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from agents import FunctionTool, RunContextWrapper

from limen.sdk.adapters import selected, session_of
from limen.sdk.errors import GuardError

if TYPE_CHECKING:
    from limen.sdk.guard import Guard, Session
    from limen.sdk.tools import Tool


def function_tools(target: Guard | Session, names: Iterable[str] | None = None) -> list[FunctionTool]:
    return [_function_tool(target, tool) for tool in selected(target, names)]


def _function_tool(target: Guard | Session, tool: Tool) -> FunctionTool:
    name = tool.name

    async def invoke(context: RunContextWrapper[Any], raw: str) -> Any:
        try:
            arguments: Any = json.loads(raw) if raw else {}
        except ValueError:
            arguments = raw  # the guard refuses it, and the refusal is audited
        try:
            output = await session_of(target).acall(name, arguments)
        except GuardError as exc:
            return exc.message
        return output if isinstance(output, str) else json.dumps(output, default=str)

    return FunctionTool(
        name=name,
        description=tool.description,
        params_json_schema=tool.json_schema(),
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )
