"""MCP, client side: every `call_tool` of an MCP client goes through Limen first (a real stdio server).

python examples/mcp_client.py
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import _demo
from mcp import Client, StdioServerParameters

from limen.sdk import Guard
from limen.sdk.adapters.mcp import GuardedClient

project = _demo.workspace()
guard = Guard(project, approver=_demo.approver, audit=project.parent / "audit")
SERVER = str(Path(__file__).resolve().with_name("mcp_notes_server.py"))


async def main() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[SERVER], cwd=str(project), env=dict(os.environ)
    )
    async with Client(params) as client:
        notes = GuardedClient(client, guard, server="notes")
        for label, tool, arguments in [
            ("passed", "read_file", {"path": "docs/plan.md"}),
            ("blocked", "write_file", {"path": "limen.yaml", "content": "default_action: allow"}),
            ("approved", "read_file", {"path": ".env"}),
        ]:
            result = await notes.call_tool(tool, arguments)
            _demo.report(label, f"[{'error' if result.is_error else 'ok'}] {result.content[0].text}")


asyncio.run(main())
