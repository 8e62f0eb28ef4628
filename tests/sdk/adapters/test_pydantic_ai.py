"""PydanticAI: a run with FunctionModel scripting the model; refusals are ToolFailed results it sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from limen.sdk import Guard
from limen.sdk.adapters.pydantic_ai import toolset


def test_passed_blocked_approved_and_malformed_calls(
    project: Path, audit_dir: Path, chain_verifies: Callable[[Path], bool]
) -> None:
    ran: list[str] = []
    (project / ".env").write_text("DEBUG=1\n")
    guard = Guard(project, audit=audit_dir, approver=lambda request: request.tool == "read_file")

    @guard.tool(capability="filesystem.read")
    def read_file(path: str) -> str:
        """Read a text file."""
        ran.append(Path(path).name)
        return Path(path).read_text()

    @guard.tool(capability="shell.execute", params={"argv": "command"})
    def run(argv: list[str]) -> str:
        """Run a program."""
        ran.append(argv[0])
        return "ran"

    seen: list[dict[str, Any]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            assert {t.name for t in info.function_tools} == {"read_file", "run"}
            return ModelResponse(
                parts=[
                    ToolCallPart("read_file", {"path": "README.md"}, tool_call_id="a"),
                    ToolCallPart("run", {"argv": ["git", "push", "--force"]}, tool_call_id="b"),
                    ToolCallPart("read_file", {"path": ".env"}, tool_call_id="c"),
                    ToolCallPart("run", {"argv": ["ls"], "shell": True}, tool_call_id="d"),
                ]
            )
        request = messages[-1]
        assert isinstance(request, ModelRequest)
        for part in request.parts:
            outcome = getattr(part, "outcome", None)
            seen.append(
                {"id": getattr(part, "tool_call_id", ""), "text": str(part.content), "outcome": outcome}
            )
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model), toolsets=[toolset(guard)])
    result = agent.run_sync("look around")
    assert result.output == "done"
    by_id = {s["id"]: s for s in seen}
    assert by_id["a"] == {"id": "a", "text": "# demo\n", "outcome": "success"}
    assert by_id["c"] == {"id": "c", "text": "DEBUG=1\n", "outcome": "success"}
    for failed, code in (("b", "destructive_command"), ("d", "invalid_arguments")):
        assert by_id[failed]["outcome"] == "failed"  # ToolFailed: a failed result, no retry spent
        assert by_id[failed]["text"].startswith("Limen denied run: BLOCK") and code in by_id[failed]["text"]
    assert sorted(ran) == [".env", "README.md"]
    assert chain_verifies(audit_dir)
