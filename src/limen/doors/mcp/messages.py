"""JSON-RPC helpers for the MCP proxy: parse, encode, and build the few messages the proxy writes itself.

Everything the proxy does not need to change is relayed as the original bytes; these helpers only look
inside a message to route it, and build refusals, errors and results that look like a server's own.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

JSON = dict[str, Any]

PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"

# JSON-RPC error codes the proxy answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603
REFUSED = -32001  # a request Limen refused or whose answer it withheld (server-defined range)
MAX_BLOB_CHARS = 4 * 1024 * 1024  # base64 screened per blob; the secret scan reads a bounded prefix anyway


def parse(raw: bytes | str) -> JSON | None:
    """The message as a dict, or None when it is not one JSON object (malformed input is never relayed)."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def parse_batch(raw: bytes | str) -> list[Any] | None:
    """The elements of a JSON-RPC batch (one JSON array), or None when the input is not one."""
    if raw.lstrip()[:1] not in (b"[", "["):
        return None
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return value if isinstance(value, list) else None


def well_formed(message: JSON) -> bool:
    """Whether a parsed object is one JSON-RPC 2.0 message: a request or notification (a string method, a
    string or integer id if any, object or array params) or a response (an id and exactly one of result
    and error). Anything else from a server is dropped, never relayed."""
    if message.get("jsonrpc") != "2.0":
        return False
    message_id = message.get("id")
    if "method" in message:
        return (
            isinstance(message["method"], str)
            and ("id" not in message or _valid_id(message_id))
            and isinstance(message.get("params", {}), dict | list)
        )
    return ("id" in message and (message_id is None or _valid_id(message_id))) and (
        ("result" in message) != ("error" in message)
    )


def _valid_id(message_id: Any) -> bool:
    return isinstance(message_id, str) or (isinstance(message_id, int) and not isinstance(message_id, bool))


# The id of an answer that does not parse, as JSON-RPC libraries write it: `{"jsonrpc":"2.0","id":3,"result"`
# (or "error"). Anchored at the start, so neither an "id" nested in a result nor a server request's id is
# taken for it.
_ANSWER_ID = re.compile(
    rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,19}|"[^"\\]{0,200}")\s*,\s*"(?:result|error)"'
)
_ID_WINDOW = 1024


def salvage_id(raw: bytes) -> Any:
    """The id a malformed answer was meant for, or None: read from its first bytes only, so a huge broken
    answer costs no more than a small one."""
    found = _ANSWER_ID.search(raw[:_ID_WINDOW])
    return json.loads(found.group(1)) if found is not None else None


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
    """Every piece of text a tool result carries: text blocks, embedded resources (their text, and blobs
    decoded), resource links (name, title, description, URI), annotations, structured content and `_meta`
    anywhere. Structured content that a text block already carries is not added twice: screening costs
    time in proportion to the text, and SDK servers send every result both ways."""
    parts: list[str] = []
    content = result.get("content")
    _walk(content if isinstance(content, list) else [], parts)
    structured = result.get("structuredContent")
    if structured is not None and not _carried(structured, parts):
        parts.append(json.dumps(structured, ensure_ascii=False))
    _walk({k: v for k, v in result.items() if k not in _RESULT_DONE}, parts)
    return "\n".join(parts)


def _carried(structured: Any, texts: list[str]) -> bool:
    """Whether a text block holds the structured content already: its JSON (MCP asks servers to send
    it so, in whatever formatting), or the plain value an SDK server wraps as `{"result": value}`."""
    if isinstance(structured, dict) and len(structured) == 1 and structured.get("result") in texts:
        return True
    for text in texts:
        if text.lstrip()[:1] in ("{", "["):
            try:
                if json.loads(text) == structured:
                    return True
            except ValueError:
                continue
    return False


def resource_text(result: JSON) -> str:
    """Every piece of text a `resources/read` result carries: text contents, blobs decoded as UTF-8 (a blob
    is how a binary-typed file, a private key among them, comes back), and every other string in it."""
    parts: list[str] = []
    _walk(result, parts)
    return "\n".join(parts)


def prompt_text(result: JSON) -> str:
    """Every piece of text a `prompts/get` result carries: its description, each message's content
    (embedded resources and links included), and every other string in it."""
    parts: list[str] = []
    _walk(result, parts)
    return "\n".join(parts)


def params_text(params: Any) -> str:
    """Every piece of text a server's own request or notification carries (a sampling request's messages
    and system prompt, an elicitation's message and requested schema, a log message's data)."""
    parts: list[str] = []
    _walk(params, parts)
    return "\n".join(parts)


def error_text(err: Any) -> str:
    """The text a JSON-RPC error carries: its message and its data, whatever shape the data has."""
    if not isinstance(err, dict):
        return json.dumps(err, ensure_ascii=False, default=str)
    parts = [err["message"]] if isinstance(err.get("message"), str) else []
    if err.get("data") is not None:
        data = err["data"]
        parts.append(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str))
    return "\n".join(parts)


# The one extractor of text from MCP payloads. Every string is collected, wherever it sits (`_meta`,
# annotations, a link's description, a schema's titles, keys included), so a field added to the protocol
# tomorrow is screened too. Prose comes as it is (a prefix would hide where a sentence starts); a
# token-like value (no spaces) of another field as "key: value", which is how the secret scanner
# recognises an assignment. Left out: the data of images and audio (binary), a few
# fields that only name formats, and base64 blobs, which are decoded instead.
_RESULT_DONE = frozenset({"content", "structuredContent", "isError", "resultType"})
_PROSE = frozenset({"text", "description", "message", "systemPrompt", "title", "content", "data"})
_FORMAT_ONLY = frozenset({"type", "mimeType", "role", "jsonrpc", "resultType"})
_BINARY = frozenset({"image", "audio"})
# protocol identifiers whose name alone would make a random value look like a credential ("progressToken")
_PROTOCOL_IDS = frozenset(
    {"progressToken", "requestId", "taskId", "cursor", "nextCursor", "requestState", "subscriptionId"}
)


def _walk(value: Any, parts: list[str]) -> None:
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        key, item = stack.pop()
        if isinstance(item, str):
            if key == "blob":
                parts.append(_decoded(item))
            elif key in _FORMAT_ONLY:
                continue
            elif not key or key in _PROSE or key in _PROTOCOL_IDS or any(c.isspace() for c in item):
                parts.append(item)  # prose as it is: a prefix would hide where a sentence starts
            else:
                parts.append(f"{key}: {item}")  # a token-like value next to its name, as in an assignment
        elif isinstance(item, dict):
            if key and key not in _PROSE:
                parts.append(key)  # a key can carry words too
            binary = item.get("type") in _BINARY
            children = [(str(k), v) for k, v in item.items() if not (binary and k == "data")]
            stack.extend(reversed(children))
        elif isinstance(item, list):
            if key and key not in _PROSE:
                parts.append(key)
            stack.extend(
                (key if isinstance(child, str | int | float) else "", child) for child in reversed(item)
            )
        elif isinstance(item, int | float) and not isinstance(item, bool) and key:
            parts.append(f"{key}: {item}")


def _decoded(blob: str, limit: int = MAX_BLOB_CHARS) -> str:
    try:
        return base64.b64decode(blob[:limit], validate=False).decode("utf-8", "replace")
    except ValueError:
        return blob[:limit]  # not base64 after all: screen it as the text it is


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
