"""OpenAI Agents SDK: Limen-guarded FunctionTools, driven by the SDK's ScriptedModel (no network).

python examples/openai_agents_agent.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import _demo
from agents import Agent, Runner, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from limen.sdk import Guard
from limen.sdk.adapters.openai_agents import function_tools

set_tracing_disabled(True)
project = _demo.workspace()
guard = Guard(project, approver=_demo.approver, audit=project.parent / "audit")


@guard.tool(capability="filesystem.read")
def read_file(path: str) -> str:
    """Read a text file of the project."""
    return Path(path).read_text()


@guard.tool(capability="network.request", params={"body": "payload"})
def post(url: str, body: str) -> str:
    """Send text to a URL (never reached in this example)."""
    return "sent"


model = ScriptedModel(
    [
        [
            function_call("read_file", {"path": "docs/plan.md"}, call_id="passed"),
            function_call(
                "post", {"url": "http://169.254.169.254/latest/meta-data/", "body": "hi"}, call_id="blocked"
            ),
            function_call("read_file", {"path": ".env"}, call_id="approved"),
        ],
        [assistant_message("All done.")],
    ]
)
agent = Agent(name="assistant", model=model, tools=function_tools(guard))
asyncio.run(Runner.run(agent, "Read the plan and the settings."))
for item in model.calls[-1].input:
    if isinstance(item, dict) and item.get("type") == "function_call_output":
        _demo.report(str(item["call_id"]), str(item["output"]))
