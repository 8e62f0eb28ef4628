"""MCP proxy overhead: added latency per `tools/call` and added start-up time, proxied vs direct.

    .venv/bin/python bench/bench_mcp.py [--calls 1000] [--starts 7]

The same real MCP server (tests/mcp_servers/shell_server.py, an SDK `MCPServer`, tool `add`) is driven
over stdio at the wire level, once directly and once through `limen mcp`, alternating call by call (and
start by start) so load on the machine weighs on both paths alike. Each proxied call is decided,
audited and its result screened. Added latency = proxied round trip minus direct round trip (medians
and p99 of each path). Wall-clock figures on a loaded 2-core machine include the scheduling of a third
process, so the proxy's own work per call (the same relay core, in process, no pipes) is printed too.
Targets: median added <= 1 ms, p99 added <= 5 ms, start-up added <= 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "tests", "mcp_servers", "shell_server.py")
PY = sys.executable
INIT: dict[str, object] = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}


class Wire:
    """Newline-delimited JSON-RPC over a child's stdin/stdout; blocking, no threads, no SDK."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
        )
        self.next_id = 0

    def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            answer: dict[str, object] = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self.next_id:
                return answer

    def handshake(self) -> None:
        self.request("initialize", INIT)
        assert self.proc.stdin is not None
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()
        self.request("tools/list", {})

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def timed_call(wire: Wire, i: int) -> float:
    started = time.perf_counter_ns()
    answer = wire.request("tools/call", {"name": "add", "arguments": {"a": i, "b": 1}})
    elapsed = (time.perf_counter_ns() - started) / 1e6
    result = answer.get("result")
    assert isinstance(result, dict) and result.get("isError") is False, answer
    return elapsed


def in_process(n: int, workspace: str) -> list[float]:
    """The proxy's own work for one call: request decided and relayed, answer screened and relayed."""
    import asyncio

    from limen.doors.mcp.guard import Guard, open_runtime
    from limen.doors.mcp.messages import JSON
    from limen.doors.mcp.proxy import Proxy

    class Echo:
        """A downstream that answers at once, so only the proxy's work is timed."""

        alive = True

        async def start(self, proxy: Proxy) -> None:
            self.proxy = proxy

        async def send(self, message: JSON, raw: bytes) -> None:
            a, b = message["params"]["arguments"].values()
            answer = {
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {
                    "content": [{"type": "text", "text": str(a + b)}],
                    "isError": False,
                    "structuredContent": {"result": a + b},
                },
            }
            await self.proxy.from_server(json.dumps(answer, separators=(",", ":")).encode())

        async def close(self) -> None:
            return None

    async def run() -> list[float]:
        out: list[float] = []
        runtime = open_runtime(workspace, None)
        guard = Guard(runtime=runtime, server="shell", session_id="bench", cwd=workspace)
        proxy = Proxy(guard, Echo(), out_lines.append, timeout=60)
        await proxy.start()
        proxy._listed = True  # the listing is not what is timed
        for i in range(n + 50):
            raw = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": i, "b": 1}},
                }
            ).encode()
            started = time.perf_counter_ns()
            await proxy.from_client(raw)
            if i >= 50:
                out.append((time.perf_counter_ns() - started) / 1e6)
        runtime.close()
        assert b'"isError":false' in out_lines[-1], out_lines[-1]
        return out

    out_lines: list[bytes] = []
    return asyncio.run(run())


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def start_time(argv: list[str], env: dict[str, str], cwd: str) -> float:
    started = time.perf_counter()
    wire = Wire(argv, env, cwd)
    wire.request("initialize", INIT)
    elapsed = (time.perf_counter() - started) * 1000
    wire.close()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--starts", type=int, default=7)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="limen-bench-mcp-")
    env = dict(os.environ, LIMEN_HOME=os.path.join(root, "limen"), HOME=os.path.join(root, "home"))
    cwd = os.path.join(root, "ws")
    for path in (env["LIMEN_HOME"], env["HOME"], cwd):
        os.makedirs(path, exist_ok=True)
    direct_argv = [PY, SERVER]
    proxy_argv = [PY, "-m", "limen", "mcp", "--name", "shell", "--", PY, SERVER]

    direct, proxied = Wire(direct_argv, env, cwd), Wire(proxy_argv, env, cwd)
    for wire in (direct, proxied):
        wire.handshake()
        for i in range(50):  # warm-up
            timed_call(wire, i)
    direct_ms: list[float] = []
    proxied_ms: list[float] = []
    for i in range(args.calls):  # alternating, so load on the machine weighs on both paths alike
        direct_ms.append(timed_call(direct, i))
        proxied_ms.append(timed_call(proxied, i))
    direct.close()
    proxied.close()

    starts_direct: list[float] = []
    starts_proxied: list[float] = []
    for _ in range(args.starts):
        starts_direct.append(start_time(direct_argv, env, cwd))
        starts_proxied.append(start_time(proxy_argv, env, cwd))

    own = in_process(args.calls, cwd)

    d_med, p_med = statistics.median(direct_ms), statistics.median(proxied_ms)
    d_p99, p_p99 = p99(direct_ms), p99(proxied_ms)
    s_direct, s_proxied = statistics.median(starts_direct), statistics.median(starts_proxied)
    print(f"tools/call round trip over {len(direct_ms)} calls each (ms)")
    print(f"  direct   median {d_med:7.3f}   p99 {d_p99:7.3f}")
    print(f"  proxied  median {p_med:7.3f}   p99 {p_p99:7.3f}")
    print(
        f"  added    median {p_med - d_med:7.3f}   p99 {p_p99 - d_p99:7.3f}   (targets <= 1.000 / <= 5.000)"
    )
    print(
        f"  proxy's own work per call, in process: median {statistics.median(own):.3f}   p99 {p99(own):.3f}"
    )
    paired = [p - d for p, d in zip(proxied_ms, direct_ms, strict=True)]
    print(
        "  added, call by call (each proxied call minus the direct call next to it): "
        f"median {statistics.median(paired):.3f}   p99 {p99(paired):.3f}"
    )
    print(f"start-up to the initialize answer, median of {args.starts} (ms)")
    print(
        f"  direct {s_direct:7.1f}   proxied {s_proxied:7.1f}   added {s_proxied - s_direct:7.1f}"
        "   (target <= 300)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
