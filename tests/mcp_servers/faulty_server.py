"""A misbehaving MCP server for the proxy tests: tools that crash the process, hang, or raise."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import parse, serve
from mcp.server.mcpserver import MCPServer


def build() -> MCPServer:
    server = MCPServer("faulty-test")

    @server.tool(description="Return ok.")
    def ok() -> str:
        return "ok"

    @server.tool(description="Exit the server process in the middle of the call.")
    def crash() -> str:
        os._exit(3)

    @server.tool(description="Never return.")
    def hang() -> str:
        time.sleep(3600)
        return "unreachable"

    @server.tool(description="Raise with a message that must not reach the agent.")
    def explode() -> str:
        raise RuntimeError("internal detail /srv/secret-path token=abc123")

    @server.tool(description="Answer a text that `mangle.py` corrupts on the way out.")
    def garbage() -> str:
        return "after garbage"

    return server


if __name__ == "__main__":
    serve(build(), parse(__doc__ or ""))
