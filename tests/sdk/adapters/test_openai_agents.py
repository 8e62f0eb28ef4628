"""OpenAI Agents SDK: a run with the SDK's own ScriptedModel; refusals come back as tool output text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents import Agent, Runner, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from limen.sdk import Guard
from limen.sdk.adapters.openai_agents import function_tools

set_tracing_disabled(True)  # no trace export: nothing leaves this machine


def _outputs(model: ScriptedModel) -> dict[str, str]:
    """The tool outputs the model was sent in its last call, by call id."""
    last = model.calls[-1].input
    return {item["call_id"]: item["output"] for item in last if item.get("type") == "function_call_output"}


def test_passed_blocked_approved_and_malformed_calls(
    project: Path, audit_dir: Path, chain_verifies: Callable[[Path], bool]
) -> None:
    ran: list[str] = []
    guard = Guard(project, audit=audit_dir, approver=lambda request: request.tool == "post")

    @guard.tool(capability="filesystem.read")
    def read_file(path: str) -> str:
        """Read a text file."""
        ran.append(Path(path).name)
        return Path(path).read_text()

    @guard.tool(capability="network.request", params={"data": "payload"})
    async def post(url: str, data: str) -> dict[str, Any]:
        """Send data to a URL."""
        ran.append(url)
        return {"status": 200}

    model = ScriptedModel(
        [
            [
                function_call("read_file", {"path": "README.md"}, call_id="a"),
                function_call("post", {"url": "http://169.254.169.254/latest", "data": "x"}, call_id="b"),
                function_call("post", {"url": "https://api.example.com/v1/notes", "data": "hi"}, call_id="c"),
                function_call("read_file", "{not json", call_id="d"),
                function_call("post", {"url": "https://pypi.org/simple", "data": "hello"}, call_id="e"),
            ],
            [assistant_message("done")],
        ]
    )
    agent = Agent(name="assistant", model=model, tools=function_tools(guard))
    result = asyncio.run(Runner.run(agent, "look around"))
    assert result.final_output == "done"
    outputs = _outputs(model)
    assert outputs["a"] == "# demo\n"
    assert outputs["b"].startswith("Limen denied post: BLOCK")
    assert outputs["c"] == '{"status": 200}'  # AUTH (an unknown host), approved
    assert "invalid_arguments" in outputs["d"] and "not an object" in outputs["d"]
    assert outputs["e"] == '{"status": 200}'
    assert sorted(ran) == ["README.md", "https://api.example.com/v1/notes", "https://pypi.org/simple"]
    assert chain_verifies(audit_dir)
