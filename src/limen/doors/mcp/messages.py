"""JSON-RPC helpers for the MCP proxy: parse, encode, and build the few messages the proxy writes itself.

Everything the proxy does not need to change is relayed as the original bytes; these helpers only look
inside a message to route it, and build refusals, errors and results that look like a server's own.
"""

from __future__ import annotations

import json
from typing import Any

JSON = dict[str, Any]

PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"

# JSON-RPC error codes the proxy answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603


def parse(raw: bytes | str) -> JSON | None:
    """The message as a dict, or None when it is not one JSON object (malformed input is never relayed)."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def encode(message: JSON) -> bytes:
    """Compact UTF-8 JSON without newlines (stdio framing adds one)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def id_key(message_id: Any) -> str:
    """A dict key that keeps `1` and `"1"` apart, as JSON-RPC does."""
    return json.dumps(message_id)


def is_request(message: JSON) -> bool:
    return "method" in message and "id" in message


def is_response(message: JSON) -> bool:
    return "method" not in message and "id" in message and ("result" in message or "error" in message)


def params_of(message: JSON) -> JSON:
    params = message.get("params")
    return params if isinstance(params, dict) else {}


def protocol_version(message: JSON) -> str:
    """The modern era's per-request version (`_meta`), or "" for a handshake-era request."""
    meta = params_of(message).get("_meta")
    if isinstance(meta, dict):
        version = meta.get(PROTOCOL_VERSION_META)
        if isinstance(version, str):
            return version
    return ""


def response(message_id: Any, result: JSON) -> JSON:
    return {"jsonrpc": "2.0", "id": message_id, "result": result}


def error(message_id: Any, code: int, text: str) -> JSON:
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": text}}


def tool_error_result(text: str, *, modern: bool) -> JSON:
    """A normal `CallToolResult` with `isError: true`: the model reads it and can change course."""
    result: JSON = {"content": [{"type": "text", "text": text}], "isError": True}
    if modern:
        result["resultType"] = "complete"
    return result


def result_text(result: JSON) -> str:
    """Every piece of text a tool result carries (text blocks, embedded resources, structured content)."""
    parts: list[str] = []
    content = result.get("content")
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if isinstance(block.get("text"), str):
            parts.append(block["text"])
        resource = block.get("resource")
        if isinstance(resource, dict) and isinstance(resource.get("text"), str):
            parts.append(resource["text"])
    structured = result.get("structuredContent")
    if structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False))
    return "\n".join(parts)


def result_bytes(result: JSON) -> bytes:
    """The payload an artifact digest covers: text and blob contents in order, UTF-8 encoded."""
    parts: list[str] = []
    content = result.get("content")
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        for holder in (block, block.get("resource")):
            if isinstance(holder, dict):
                parts.extend(holder[k] for k in ("text", "blob", "data") if isinstance(holder.get(k), str))
    return "".join(parts).encode("utf-8")
