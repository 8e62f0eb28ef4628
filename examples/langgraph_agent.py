"""LangGraph: a graph whose tool node is Limen-guarded, driven by a scripted chat model (no network).

python examples/langgraph_agent.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import _demo
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from limen.sdk import Guard
from limen.sdk.adapters.langchain import tools


class ScriptedChatModel(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


project = _demo.workspace()
guard = Guard(project, approver=_demo.approver, audit=project.parent / "audit")


@guard.tool(capability="filesystem.read")
def read_file(path: str) -> str:
    """Read a text file of the project."""
    return Path(path).read_text()


@guard.tool(capability="shell.execute", params={"argv": "command"})
def run(argv: list[str]) -> str:
    """Run a program (never reached in this example: the only command asked for is blocked)."""
    return "ran"


model = ScriptedChatModel(
    messages=iter(
        [
            AIMessage(
                content="",
                tool_calls=[
                    {"name": "read_file", "args": {"path": "docs/plan.md"}, "id": "passed"},
                    {"name": "run", "args": {"argv": ["rm", "-rf", "/"]}, "id": "blocked"},
                    {"name": "read_file", "args": {"path": ".env"}, "id": "approved"},
                ],
            ),
            AIMessage(content="All done."),
        ]
    )
)


def call_model(state: MessagesState) -> dict[str, Any]:
    return {"messages": [model.invoke(state["messages"])]}


graph = StateGraph(MessagesState)
graph.add_node("model", call_model)
graph.add_node("tools", ToolNode(tools(guard)))
graph.add_edge(START, "model")
graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
graph.add_edge("tools", "model")
result = graph.compile().invoke({"messages": [("user", "Read the plan and the settings.")]})
for message in result["messages"]:
    if isinstance(message, ToolMessage) and message.tool_call_id in ("passed", "blocked", "approved"):
        _demo.report(message.tool_call_id, f"[{message.status}] {message.content}")
