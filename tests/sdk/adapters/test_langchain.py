"""LangGraph: the agent loop with ToolNode and a scripted chat model; guarded LangChain tools, and a
ToolNode of the application's own tools wrapped by the guard."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool as langchain_tool
from langgraph.prebuilt import ToolNode

from limen.sdk import Guard
from limen.sdk.adapters.langchain import async_tool_call_wrapper, register, tool_call_wrapper, tools


class ScriptedChatModel(GenericFakeChatModel):
    """GenericFakeChatModel answers from its script; binding tools changes nothing."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def _guard(project: Path, audit_dir: Path, ran: list[str]) -> Guard:
    guard = Guard(project, audit=audit_dir, approver=lambda request: request.tool == "read_file")

    @guard.tool(capability="filesystem.read")
    def read_file(path: str) -> str:
        """Read a text file."""
        ran.append(f"read {Path(path).name}")
        return Path(path).read_text()

    @guard.tool(capability="shell.execute", params={"argv": "command"})
    def run(argv: list[str]) -> str:
        """Run a program."""
        ran.append(f"run {argv[0]}")
        return "ran"

    return guard


def _graph(model: ScriptedChatModel, node_tools: list[Any] | Any) -> Any:
    """The canonical LangGraph agent loop: the model node, then ToolNode while the model asks for tools."""
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import tools_condition

    def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", node_tools if isinstance(node_tools, ToolNode) else ToolNode(node_tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "model")
    return graph.compile()


def _script() -> list[AIMessage]:
    calls = [
        {"name": "read_file", "args": {"path": "README.md"}, "id": "c1"},
        {"name": "run", "args": {"argv": ["rm", "-rf", "/"]}, "id": "c2"},
        {"name": "read_file", "args": {"path": ".env"}, "id": "c3"},
        {"name": "run", "args": {"argv": "rm -rf /"}, "id": "c4"},
    ]
    return [AIMessage(content="", tool_calls=calls), AIMessage(content="done")]


def _tool_messages(result: dict[str, Any]) -> dict[str, ToolMessage]:
    return {m.tool_call_id: m for m in result["messages"] if isinstance(m, ToolMessage)}


def test_tool_node_gives_the_model_passed_blocked_and_approved_calls(
    project: Path, audit_dir: Path, chain_verifies: Callable[[Path], bool]
) -> None:
    ran: list[str] = []
    (project / ".env").write_text("DEBUG=1\n")
    guard = _guard(project, audit_dir, ran)
    agent = _graph(ScriptedChatModel(messages=iter(_script())), tools(guard))
    result = agent.invoke({"messages": [("user", "look around")]})
    messages = _tool_messages(result)
    assert messages["c1"].status == "success" and messages["c1"].content == "# demo\n"
    assert messages["c2"].status == "error" and "destructive_command" in messages["c2"].content
    assert messages["c3"].status == "success" and messages["c3"].content == "DEBUG=1\n"
    assert messages["c4"].status == "error" and "invalid_arguments" in messages["c4"].content
    assert result["messages"][-1].content == "done"
    assert sorted(ran) == ["read .env", "read README.md"]
    assert chain_verifies(audit_dir)


def test_async_graph_and_an_existing_langchain_tool(project: Path, audit_dir: Path) -> None:
    ran: list[str] = []

    @langchain_tool
    def delete_file(path: str) -> str:
        """Delete a file."""
        ran.append(path)
        return "deleted"

    guard = Guard(project, audit=audit_dir)
    registered = register(guard, delete_file, capability="filesystem.delete")
    assert registered.roles == {"path": "path"}
    calls = [
        {"name": "delete_file", "args": {"path": "notes/todo.txt"}, "id": "d1"},
        {"name": "delete_file", "args": {"path": str(Path.home() / ".ssh" / "id_rsa")}, "id": "d2"},
    ]
    script = [AIMessage(content="", tool_calls=calls), AIMessage(content="done")]
    agent = _graph(ScriptedChatModel(messages=iter(script)), tools(guard))
    result = asyncio.run(agent.ainvoke({"messages": [("user", "tidy up")]}))
    by_id = _tool_messages(result)
    assert by_id["d1"].status == "success"
    assert by_id["d2"].status == "error" and "Limen denied delete_file" in by_id["d2"].content
    assert ran == [str(project / "notes" / "todo.txt")]


def test_a_tool_node_of_the_applications_own_tools_wrapped_by_the_guard(
    project: Path, audit_dir: Path, chain_verifies: Callable[[Path], bool]
) -> None:
    ran: list[str] = []

    @langchain_tool
    def read_file(path: str) -> str:
        """Read a text file."""
        ran.append(Path(path).name)
        return Path(path).read_text()

    @langchain_tool
    def unguarded(path: str) -> str:
        """A tool nobody registered with the guard."""
        ran.append("unguarded")
        return "ran"

    guard = Guard(project, audit=audit_dir)
    register(guard, read_file, capability="filesystem.read")
    calls = [
        {"name": "read_file", "args": {"path": "README.md"}, "id": "w1"},
        {"name": "read_file", "args": {"path": "/etc/shadow"}, "id": "w2"},
        {"name": "unguarded", "args": {"path": "README.md"}, "id": "w3"},
    ]
    script = [AIMessage(content="", tool_calls=calls), AIMessage(content="done")]
    for run in (
        lambda agent: agent.invoke({"messages": [("user", "go")]}),
        lambda agent: asyncio.run(agent.ainvoke({"messages": [("user", "go")]})),
    ):
        node = ToolNode(
            [read_file, unguarded],
            wrap_tool_call=tool_call_wrapper(guard),
            awrap_tool_call=async_tool_call_wrapper(guard),
        )
        by_id = _tool_messages(run(_graph(ScriptedChatModel(messages=iter(list(script))), node)))
        assert by_id["w1"].status == "success" and by_id["w1"].content == "# demo\n"
        assert by_id["w2"].status == "error" and "sensitive_secret_access" in by_id["w2"].content
        assert by_id["w3"].status == "error" and "unknown_tool" in by_id["w3"].content
    assert ran == ["README.md", "README.md"]
    assert chain_verifies(audit_dir)
