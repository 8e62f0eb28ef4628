"""A shell-like MCP server for the proxy tests: runs a command line with /bin/sh and returns its output."""

from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import parse, serve
from mcp.server.mcpserver import MCPServer


def build() -> MCPServer:
    server = MCPServer("shell-test")

    @server.tool(description="Run a shell command line and return its standard output.")
    def run_command(command: str) -> str:
        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=30, check=False)
        return done.stdout

    @server.tool(description="Return the text unchanged.")
    def echo(text: str) -> str:
        return text

    @server.tool(description="Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    return server


if __name__ == "__main__":
    serve(build(), parse(__doc__ or ""))
