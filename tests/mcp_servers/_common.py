"""Shared start-up for the test MCP servers: stdio by default, Streamable HTTP with `--http PORT`."""

from __future__ import annotations

import argparse

from mcp.server.mcpserver import MCPServer


def parse(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--http", type=int, default=0, help="serve Streamable HTTP on 127.0.0.1:PORT")
    parser.add_argument("--stateless", action="store_true", help="stateless HTTP (no Mcp-Session-Id)")
    parser.add_argument("root", nargs="?", default=".")
    return parser.parse_args()


def serve(server: MCPServer, args: argparse.Namespace) -> None:
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http, stateless_http=args.stateless)
    else:
        server.run("stdio")
