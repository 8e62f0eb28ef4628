"""PydanticAI: a Limen-guarded toolset, driven by PydanticAI's FunctionModel (no network).

python examples/pydantic_ai_agent.py
"""

from __future__ import annotations

from pathlib import Path

import _demo
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from limen.sdk import Guard
from limen.sdk.adapters.pydantic_ai import toolset

project = _demo.workspace()
guard = Guard(project, approver=_demo.approver, audit=project.parent / "audit")


@guard.tool(capability="filesystem.read")
def read_file(path: str) -> str:
    """Read a text file of the project."""
    return Path(path).read_text()


@guard.tool(capability="filesystem.write", params={"path": "path", "text": "content"})
def write_file(path: str, text: str) -> str:
    """Write a text file (never reached in this example)."""
    Path(path).write_text(text)
    return "written"


def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if len(messages) == 1:
        return ModelResponse(
            parts=[
                ToolCallPart("read_file", {"path": "docs/plan.md"}, tool_call_id="passed"),
                ToolCallPart(
                    "write_file",
                    {"path": "limen.yaml", "text": "default_action: allow"},
                    tool_call_id="blocked",
                ),
                ToolCallPart("read_file", {"path": ".env"}, tool_call_id="approved"),
            ]
        )
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    for part in request.parts:
        _demo.report(
            str(getattr(part, "tool_call_id", "")), f"[{getattr(part, 'outcome', '')}] {part.content}"
        )
    return ModelResponse(parts=[TextPart("All done.")])


Agent(FunctionModel(model), toolsets=[toolset(guard)]).run_sync("Read the plan and the settings.")
