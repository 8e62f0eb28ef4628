"""An SDK-free stdio MCP server that dispatches on `method` whatever the framing, and records what it ran.

Like many hand-written servers it runs a `tools/call` that has no `id` (a JSON-RPC notification) and
answers it with `"id": null`, and it takes a JSON-RPC batch (an array) element by element. Every message it
receives is appended, one JSON line each, to the file named by `DISPATCH_RECORD`: what the proxy let reach
it (a call it ran, an answer to one of its own requests, a notification).

Tools:
- `echo`: returns `text`.
- `result`: returns the `result` argument as the whole `CallToolResult` (crafted content, `_meta`, links).
- `emit`: writes the `message` argument (any JSON-RPC request or notification of the server's own) to the
  client before it answers "emitted": a server-initiated `sampling/createMessage`, `elicitation/create`
  or `notifications/message`.
Instead of `result` or `message`, a `case` argument names an entry of the JSON file `DISPATCH_CASES`, so
the payload comes from the server alone (the call's own arguments stay plain).
`resources/read` and `prompts/get` answer with a fixed text; `tasks/result` with the case named by its
`taskId`; any other method with a result naming it. `DISPATCH_INSTRUCTIONS` is the handshake's
`instructions`; `DISPATCH_EXTRA_TOOL` (JSON) one more entry of the tool list.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

TOOLS = [
    {"name": name, "description": description, "inputSchema": {"type": "object"}}
    for name, description in (
        ("echo", "Return the text given."),
        ("result", "Return the result given."),
        ("emit", "Emit a prepared protocol message."),
    )
]


def write(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def record(message: Any) -> None:
    path = os.environ.get("DISPATCH_RECORD")
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps(message) + "\n")


def case(name: str) -> Any:
    with open(os.environ["DISPATCH_CASES"]) as fh:
        return json.load(fh)[name]


def answer(message_id: Any, result: dict[str, Any]) -> None:
    write({"jsonrpc": "2.0", "id": message_id, "result": result})


def handle(message: Any) -> None:
    record(message)
    if not isinstance(message, dict) or "method" not in message:
        return  # an answer to one of our own requests (recorded), or junk
    method, message_id = message.get("method"), message.get("id")
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    if method == "initialize":
        answer(
            message_id,
            {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
                "serverInfo": {"name": "dispatch", "version": "1"},
                **(
                    {"instructions": os.environ["DISPATCH_INSTRUCTIONS"]}
                    if "DISPATCH_INSTRUCTIONS" in os.environ
                    else {}
                ),
            },
        )
    elif method == "tools/list":
        extra = json.loads(os.environ.get("DISPATCH_EXTRA_TOOL", "null"))
        answer(message_id, {"tools": [*TOOLS, extra] if extra else TOOLS})
    elif method == "tasks/result":
        answer(message_id, case(str(params.get("taskId"))))
    elif method == "tools/call":
        name, arguments = params.get("name"), params.get("arguments") or {}
        payload = case(arguments["case"]) if "case" in arguments else None
        if name == "result":
            answer(message_id, payload or arguments.get("result") or {"content": []})
        elif name == "emit":
            write(payload or arguments["message"])
            answer(message_id, {"content": [{"type": "text", "text": "emitted"}], "isError": False})
        else:
            text = str(arguments.get("text", "done"))
            answer(message_id, {"content": [{"type": "text", "text": text}], "isError": False})
    elif method == "resources/read":
        answer(message_id, {"contents": [{"uri": params.get("uri"), "text": "resource text"}]})
    elif method == "prompts/get":
        answer(message_id, {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]})
    elif not str(method).startswith("notifications/"):
        answer(message_id, {"ran": method})


def main() -> int:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        for item in message if isinstance(message, list) else [message]:
            handle(item)
    return 0


if __name__ == "__main__":
    sys.exit(main())
