"""Tool pinning: trust on first use of an MCP tool's `(name, description, inputSchema)`, flag any change.

`check_and_pin` (called by the MCP proxy on every `tools/list`) pins a new tool and marks a changed one
pending; `approve` (a human, `limen tools approve`) makes the pending fingerprint the pin. Until then every
call of the tool gets `tool_schema_changed`: AUTH in light/balanced, BLOCK in strict/paranoid. Pins live in
the session store (SQLite under LIMEN_HOME by default), so every door and process sees the same pins.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from limen.context import Context
from limen.floors.egress import mode_verdict
from limen.home import limen_home
from limen.model import Action, Decision, Finding, ReasonCode
from limen.state import SessionStore

NOTE = "tool_schema_changed"
_stores: dict[str, SessionStore] = {}


def _store(store: SessionStore | None) -> SessionStore:
    if store is not None:
        return store
    path = os.path.join(limen_home(), "state.sqlite")
    if path not in _stores:
        from limen.state.sqlite import SqliteStore

        _stores[path] = SqliteStore(path)
    return _stores[path]


def fingerprint(name: str, description: str, input_schema: Any) -> str:
    blob = json.dumps([name, description, input_schema], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def check_and_pin(
    server_id: str, name: str, description: str, input_schema: Any, *, store: SessionStore | None = None
) -> bool:
    """Pin a tool on first sight; True when it differs from its pin (it stays pending until approved)."""
    db = _store(store)
    key = f"{server_id}/{name}"
    current = fingerprint(name, description, input_schema)
    pinned = db.get_pin(key)
    if pinned is None:
        db.set_pin(key, current, None)
        return False
    if pinned[0] == current:
        if pinned[1] is not None:
            db.set_pin(key, current, None)  # the server went back to what was approved
        return False
    if pinned[1] != current:
        db.set_pin(key, pinned[0], current)
    return True


def approve(server_id: str, name: str, *, store: SessionStore | None = None) -> bool:
    """Make the pending fingerprint the pin. False when nothing is pending."""
    db = _store(store)
    key = f"{server_id}/{name}"
    pinned = db.get_pin(key)
    if pinned is None or pinned[1] is None:
        return False
    db.set_pin(key, pinned[1], None)
    return True


def pending(store: SessionStore | None = None) -> list[str]:
    """`server/tool` keys whose contract changed and await re-approval."""
    return _store(store).pending_pins()


def pin_key(tool: str) -> str | None:
    """`mcp__server__tool` (how doors name MCP tools) -> `server/tool`."""
    if not tool.startswith("mcp__"):
        return None
    parts = tool.split("__", 2)
    return f"{parts[1]}/{parts[2]}" if len(parts) == 3 and parts[1] and parts[2] else None


def is_pending(tool: str, store: SessionStore) -> bool:
    key = pin_key(tool)
    if key is None:
        return False
    pinned = store.get_pin(key)
    return pinned is not None and pinned[1] is not None


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    if NOTE not in action.notes:
        return []
    return [
        Finding(
            ReasonCode.TOOL_SCHEMA_CHANGED,
            mode_verdict(ctx),
            90,
            "the tool's name, description or input schema changed since it was pinned",
        )
    ]
