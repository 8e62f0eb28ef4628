"""A minimal stdio MCP server without the SDK (it starts in milliseconds, so tests can run dozens of them).

Tools: `echo` (returns its `text`, `repeat` times; after `delay` seconds), `babble` (answers with the
malformed message named by `kind` instead of a result: not JSON, a JSON array, an object that is not
JSON-RPC, an answer with neither result nor error, a truncated answer; then a correct notification).
With `TINY_SERVER_PIDS=<file>` it starts a grandchild that ignores SIGTERM and never exits by itself, and
writes "<server pid> <grandchild pid>" to the file: what stopping a server's whole process tree must end.
With `TINY_SERVER_STUBBORN=1` it ignores SIGTERM and the end of its input: only SIGKILL ends it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

TOOLS = [
    {"name": name, "description": description, "inputSchema": {"type": "object"}}
    for name, description in (
        ("echo", "Return the text given, repeated, after a delay."),
        ("babble", "Answer with a malformed message."),
    )
]
GRANDCHILD = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"


def write(raw: str) -> None:
    sys.stdout.write(raw + "\n")
    sys.stdout.flush()


def answer(message_id: Any, result: dict[str, Any]) -> None:
    write(json.dumps({"jsonrpc": "2.0", "id": message_id, "result": result}))


def babble(message_id: Any, kind: str) -> None:
    """The malformed line, then a well-formed notification (which must still reach the client)."""
    head = json.dumps({"jsonrpc": "2.0", "id": message_id})[:-1]
    write(
        {
            "not-json": "this is not json",
            "array": json.dumps([{"jsonrpc": "2.0", "id": message_id, "result": {}}]),
            "not-jsonrpc": json.dumps({"hello": "world", "id": message_id}),
            "no-result": json.dumps({"jsonrpc": "2.0", "id": message_id}),
            "truncated": head + ', "result": {"content": [{"type": "text", "text": "cut sh',
        }[kind]
    )
    write(
        json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": kind}}
        )
    )


def call(message_id: Any, params: dict[str, Any]) -> None:
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name == "babble":
        babble(message_id, str(arguments.get("kind")))
        return
    time.sleep(float(arguments.get("delay", 0)))
    text = str(arguments.get("text", "done")) * int(arguments.get("repeat", 1))
    answer(message_id, {"content": [{"type": "text", "text": text}], "isError": False})


def main() -> int:
    pids = os.environ.get("TINY_SERVER_PIDS")
    if pids:
        child = subprocess.Popen([sys.executable, "-c", GRANDCHILD])
        with open(pids + ".tmp", "w") as fh:
            fh.write(f"{os.getpid()} {child.pid}")
        os.replace(pids + ".tmp", pids)
    stubborn = os.environ.get("TINY_SERVER_STUBBORN") == "1"
    signal.signal(signal.SIGTERM, signal.SIG_IGN if stubborn else lambda *_: sys.exit(0))
    for line in sys.stdin:
        message = json.loads(line)
        method, message_id = message.get("method"), message.get("id")
        if message_id is None:
            continue  # notifications need no answer
        if method == "initialize":
            answer(
                message_id,
                {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "tiny", "version": "1"},
                },
            )
        elif method == "tools/list":
            answer(message_id, {"tools": TOOLS})
        elif method == "tools/call":
            call(message_id, message.get("params") or {})
        else:
            write(
                json.dumps({"jsonrpc": "2.0", "id": message_id, "error": {"code": -32601, "message": method}})
            )
    while stubborn:
        time.sleep(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
