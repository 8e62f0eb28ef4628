"""Run an MCP server and corrupt its output, as a buggy server would: usage `mangle.py <server argv...>`.

Relays stdin and stdout line by line, except that an answer containing "after garbage" is preceded by a
line that is not JSON and has its `result` replaced by a string (valid JSON-RPC, wrong shape).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading


def main() -> int:
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child_in = child.stdin

    def feed() -> None:
        for line in sys.stdin.buffer:
            child_in.write(line)
            child_in.flush()
        child_in.close()

    threading.Thread(target=feed, daemon=True).start()
    out = sys.stdout.buffer
    for line in child.stdout:
        if b"after garbage" in line:
            message = json.loads(line)
            out.write(b"this is not json\n")
            line = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": "nonsense"}).encode() + b"\n"
        out.write(line)
        out.flush()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
