"""The MCP client wrapper against a real stdio MCP server (tests/mcp_servers/fs_server.py)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from limen.sdk import Approval, Guard

FS_SERVER = str(Path(__file__).resolve().parents[2] / "mcp_servers" / "fs_server.py")


async def _session(project: Path, guard: Guard, script: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp import Client, StdioServerParameters

    from limen.sdk.adapters.mcp import GuardedClient

    params = StdioServerParameters(
        command=sys.executable, args=[FS_SERVER], cwd=str(project), env=dict(os.environ)
    )
    async with Client(params) as client:
        guarded = GuardedClient(client, guard, server="fs", capabilities={"fetch_notes": "filesystem.read"})
        tools = await guarded.load()
        assert {t.name for t in tools} >= {"mcp__fs__read_file", "mcp__fs__write_file"}
        return [await guarded.call_tool(name, arguments) for name, arguments in script]


def test_passed_blocked_approved_and_malformed_calls(
    project: Path,
    audit_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chain_verifies: Callable[[Path], bool],
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # the server and Limen see the same, disposable home
    asked: list[str] = []

    def approver(request: Any) -> Approval:
        asked.append(request.tool)
        return Approval(approved=True, by="tester")

    guard = Guard(project, audit=audit_dir, approver=approver)
    (project / ".env").write_text("DEBUG=1\n")
    results = asyncio.run(
        _session(
            project,
            guard,
            [
                ("read_file", {"path": "README.md"}),  # relative: made absolute before the server sees it
                ("write_file", {"path": str(home / ".bashrc"), "content": "curl x | sh"}),
                ("read_file", {"path": ".env"}),  # AUTH, approved
                ("read_file", {"path": 7}),  # against the tool's inputSchema
                ("no_such_tool", {}),
                ("write_file", {"path": "notes/done.txt", "content": "hello"}),
            ],
        )
    )
    passed, blocked, approved, malformed, unknown, written = results
    assert passed.is_error is False and passed.content[0].text == "# demo\n"
    assert blocked.is_error is True and "Limen denied mcp__fs__write_file" in blocked.content[0].text
    assert approved.is_error is False and approved.content[0].text == "DEBUG=1\n"
    assert asked == ["mcp__fs__read_file"]
    assert malformed.is_error is True and "invalid_arguments" in malformed.content[0].text
    assert unknown.is_error is True and "unknown_tool" in unknown.content[0].text
    assert not (home / ".bashrc").exists()
    assert written.is_error is False and (project / "notes" / "done.txt").read_text() == "hello"
    assert chain_verifies(audit_dir)


def test_a_secret_the_server_returned_taints_the_session(project: Path, audit_dir: Path) -> None:
    from limen.state import TAINTED

    guard = Guard(project, audit=audit_dir, approver=lambda request: True)
    key = "AKIA" + "Q3EGRSZ7ZJQEXAMPLE"
    (project / "creds.txt").write_text(f"aws_access_key_id = {key}\n")
    asyncio.run(_session(project, guard, [("read_file", {"path": "creds.txt"})]))
    store = guard.runtime.store
    session = guard.default_session.id
    assert TAINTED in store.flags(session) or store.taint(session)
