"""Assemble a proxy from options: the runtime, the guard, the downstream transport, and run it."""

from __future__ import annotations

import asyncio
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from limen.doors.mcp.guard import Guard, open_runtime
from limen.doors.mcp.proxy import Downstream, Proxy, Sink


@dataclass(slots=True)
class Options:
    """What `limen mcp` was asked to run."""

    command: list[str] = field(default_factory=list)
    url: str = ""
    name: str = ""
    timeout: float = 60.0
    startup_timeout: float = 30.0
    restart: bool = False
    ask: bool = True  # a client offering elicitation forms may be asked to allow an AUTH call
    mode: str | None = None
    session_id: str = ""
    workspace: str = ""
    artifact_pins: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    max_sessions: int = (
        64  # `serve`: sessions held at once (each runs a server); beyond, new ones are refused
    )
    session_idle: float = 3600.0  # `serve`: idle seconds after which a session may be closed to make room


_RUNNERS = frozenset(
    {"npx", "uvx", "bunx", "pnpx", "node", "deno", "bun", "uv", "pipx", "docker", "python", "python3"}
)
_SUBCOMMANDS = frozenset({"run", "exec", "x", "tool"})


def server_name(options: Options) -> str:
    """The server's identity for pins and tool names: `--name`, else derived from the command or URL."""
    if options.name:
        raw = options.name
    elif options.url:
        raw = re.sub(r"^[a-z]+://", "", options.url).split("/")[0].split(":")[0]
    else:
        words = [w for w in options.command if not w.startswith("-")] or ["server"]
        rest = [w for w in words[1:] if w not in _SUBCOMMANDS]
        runner = os.path.basename(words[0]) in _RUNNERS or os.path.basename(words[0]).startswith("python")
        raw = os.path.splitext(os.path.basename(rest[0] if runner and rest else words[0]))[0]
    # `__` separates the parts of `mcp__<server>__<tool>`: a server name must not contain it
    return re.sub(r"[^A-Za-z0-9-]+", "_", raw).strip("_") or "server"


def is_remote(url: str) -> bool:
    """A server reached over the network rather than on this machine."""
    if not url:
        return False
    host = (urlsplit(url).hostname or "").lower()
    return host not in ("localhost", "::1") and not host.startswith("127.")


def load_artifact_pins(path: str) -> dict[str, dict[str, str]]:
    """`{"tool": {"locator": "sha256"}}` from a JSON file; a bad file is an error, never ignored."""
    if not path:
        return {}
    with open(path, encoding="utf-8") as fh:
        data: Any = json.load(fh)
    if not isinstance(data, dict) or not all(
        isinstance(v, dict) and all(isinstance(d, str) for d in v.values()) for v in data.values()
    ):
        raise ValueError(f"{path}: expected {{tool: {{locator: sha256}}}}")
    return data


def make_downstream(options: Options) -> Downstream:
    if options.url:
        from limen.doors.mcp.http import HttpDownstream

        return HttpDownstream(options.url, headers=options.headers, timeout=options.timeout)
    from limen.doors.mcp.stdio import StdioDownstream

    return StdioDownstream(options.command)


def make_proxy(options: Options, runtime: Any, to_client: Sink, *, session_id: str) -> Proxy:
    guard = Guard(
        runtime=runtime,
        server=server_name(options),
        session_id=session_id,
        cwd=options.workspace or os.getcwd(),
        artifact_pins=load_artifact_pins(options.artifact_pins),
        remote=is_remote(options.url),
    )
    return Proxy(
        guard,
        make_downstream(options),
        to_client,
        timeout=options.timeout,
        startup_timeout=options.startup_timeout,
        restart=options.restart,
        ask=options.ask,
    )


def default_session(options: Options) -> str:
    return (
        options.session_id or os.environ.get("LIMEN_SESSION_ID") or f"mcp-{os.getpid()}-{os.urandom(4).hex()}"
    )


def run_stdio(options: Options) -> int:
    """Agent on stdin/stdout; server over stdio or Streamable HTTP. Returns the exit status (128 + the
    signal's number when a signal stopped it)."""
    from limen.doors.mcp.stdio import serve_stdio, stdout_sink

    runtime = open_runtime(options.workspace or os.getcwd(), options.mode)
    try:
        proxy = make_proxy(options, runtime, stdout_sink, session_id=default_session(options))
        return asyncio.run(serve_stdio(proxy))
    finally:
        runtime.close()
