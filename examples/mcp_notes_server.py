"""A tiny stdio MCP server for `mcp_client.py`: it reads and writes any file it is asked to."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("notes")


@server.tool(description="Read a UTF-8 text file and return its content.")
def read_file(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


@server.tool(description="Write text to a file.")
def write_file(path: str, content: str) -> str:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(content)
    return f"wrote {len(content)} characters"


if __name__ == "__main__":
    server.run("stdio")
