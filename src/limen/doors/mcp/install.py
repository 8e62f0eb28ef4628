"""Rewrite an agent's MCP server entry to run through `limen mcp`, and back.

Pure functions over the `mcpServers` entry shape that Claude Code, Cursor and Claude Desktop share:
stdio `{"command", "args", "env"}` or HTTP `{"type": "http", "url", "headers"}` (Cursor: `url` only).
`unwrap_server_entry(wrap_server_entry(e)) == e` for every entry `wrap` changes (a stdio entry without
`args` comes back with `"args": []`). HTTP headers may hold
credentials, so they travel in the child's environment (`LIMEN_MCP_HEADERS`), never on its command line.
Entries `limen mcp` cannot front (`sse`, `ws`, a `headersHelper`) come back unchanged.
"""

from __future__ import annotations

import json
import os
from typing import Any

HEADERS_ENV = "LIMEN_MCP_HEADERS"
TYPE_ENV = "LIMEN_MCP_TYPE"
_HTTP_TYPES = ("http", "streamable-http")


def is_wrapped(entry: dict[str, Any]) -> bool:
    command = entry.get("command")
    args = entry.get("args")
    return (
        isinstance(command, str)
        and os.path.basename(command) in ("limen", "limen.exe")
        and isinstance(args, list)
        and args[:1] == ["mcp"]
    )


def wrap_server_entry(entry: dict[str, Any], *, name: str = "", limen: str = "limen") -> dict[str, Any]:
    """The entry rewritten to run through the proxy (unchanged if already wrapped or not supported)."""
    if is_wrapped(entry):
        return dict(entry)
    named = ["--name", name] if name else []
    command = entry.get("command")
    if isinstance(command, str) and command:
        args = entry.get("args") or []
        if not isinstance(args, list):
            return dict(entry)
        return {**entry, "command": limen, "args": ["mcp", *named, "--", command, *args]}
    url, kind = entry.get("url"), entry.get("type")
    if not isinstance(url, str) or (kind is not None and kind not in _HTTP_TYPES) or "headersHelper" in entry:
        return dict(entry)
    wrapped = {k: v for k, v in entry.items() if k not in ("url", "type", "headers")}
    env = dict(entry.get("env") or {})
    if entry.get("headers"):
        env[HEADERS_ENV] = json.dumps(entry["headers"], sort_keys=True)
    if kind is not None:
        env[TYPE_ENV] = kind
    wrapped.update(command=limen, args=["mcp", *named, "--url", url])
    if env:
        wrapped["env"] = env
    return wrapped


def unwrap_server_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """The original entry back from a wrapped one (unchanged if it is not wrapped)."""
    if not is_wrapped(entry):
        return dict(entry)
    args: list[str] = entry["args"]
    original = {k: v for k, v in entry.items() if k not in ("command", "args")}
    if "--" in args and args.index("--") + 1 < len(args):
        rest = args[args.index("--") + 1 :]
        original.update(command=rest[0], args=rest[1:])
        return original
    if "--url" not in args or args.index("--url") + 1 >= len(args):
        return dict(entry)
    env = dict(original.pop("env", None) or {})
    headers = env.pop(HEADERS_ENV, None)
    kind = env.pop(TYPE_ENV, None)
    if kind is not None:
        original["type"] = kind
    original["url"] = args[args.index("--url") + 1]
    if headers is not None:
        original["headers"] = json.loads(headers)
    if env:
        original["env"] = env
    return original
