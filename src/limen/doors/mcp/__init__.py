"""The MCP proxy: any MCP server wrapped, every `tools/call` decided, tools pinned, results screened.

Why a raw JSON-RPC relay rather than the SDK's session objects: the proxy must be faithful to two
protocol generations (the `2025-11-25` handshake with `Mcp-Session-Id`, the stateless `2026-07-28`) and
to whatever a server or client adds (extensions, `_meta`, new methods, tasks) without understanding it,
and it must add well under a millisecond per call. Relaying bytes does both: a message is parsed only to
route it; `tools/call` requests are decided before they go out, `tools/list` and `tools/call` answers are
reviewed on the way back, and everything else (resources, prompts, notifications, progress,
cancellation, server requests) leaves as the exact bytes that came in. SDK sessions would re-serialise
every message, negotiate their own era and cost several milliseconds per call (measured in the
protocol reference). The SDK is still what the tests' real servers and clients are built with.

Modules: `messages` (JSON-RPC helpers), `guard` (decisions, pins, screening), `proxy` (the relay core,
deadlines, restarts), `stdio` / `http` / `serve` (transports), `app` (assembly), `install` (rewriting an
agent's MCP server entries, used by `limen install`).
"""

from __future__ import annotations

from limen.doors.mcp.install import unwrap_server_entry, wrap_server_entry

__all__ = ["unwrap_server_entry", "wrap_server_entry"]
