"""Output screening cost against result size: 80 kB and 800 kB tool results, scanned directly and through
the MCP door.

    .venv/bin/python bench/bench_screening.py [--repeat 3] [--kinds issue,log,...]

Direct: `Runtime.observe_output`, the call the MCP door makes for every result (secret scan, value
extraction, the turn gate over the whole output and its records), on a throwaway LIMEN_HOME.
Through the door: a real SDK server (tests/mcp_servers/fs_server.py, `read_file`) proxied by `limen mcp`
over stdio; wall is the proxied round trip minus the direct round trip to the same server (run
alternately), i.e. what the proxy adds to deliver that result (decision, screening, relaying), and cpu is
the proxy process's own CPU time for the call (from /proc), which a busy machine does not inflate.
Each figure is the least of `--repeat` runs. The load average is printed first: on a shared machine the
wall figures stretch with it, the cpu ones much less.

Inputs, each cut to size: `issue` (the shape issue 9 found quadratic: runs of e-mail characters), `log`
(log lines with addresses, URLs, hosts and ids), `prose` (sentences with names, dates and quotes), `json` (a
directory listing), and three shapes that once made a regex rescan from every position: `hyphens`
(`a-a-a-`), `digits` (`1 1 1 `), `bullets` (line-broken dashes between anchor words of the turn gate).
Targets (issue 9): 800 kB costs at most 12 times 80 kB, and at most 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable

from bench_mcp import Wire as McpWire  # bench/ is the script's own folder on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "tests", "mcp_servers", "fs_server.py")
PY = sys.executable
SIZES = (80_000, 800_000)
RATIO_TARGET, SECONDS_TARGET = 12.0, 2.0
Maker = Callable[[int, random.Random], str]


def _log(size: int, rng: random.Random) -> str:
    lines: list[str] = []
    while len(lines) * 120 < size:
        n = rng.randrange(10**6)
        lines.append(
            f"2024-05-{n % 28 + 1:02d}T12:{n % 60:02d}:07Z INFO req-{n:06x} user{n % 97}@mail.example.com "
            f"GET https://api.example.com/v1/items/{n} from 10.0.{n % 256}.{n % 7} took {n % 900} ms"
        )
    return "\n".join(lines)


def _prose(size: int, rng: random.Random) -> str:
    words = ("the", "report", "says", "that", "a", "meeting", "with", "our", "team", "about", "plans", "on")
    names = ("Alice Martin", "Bob Stone", "Carol de la Fuente", "Dan O'Brien")
    sentences: list[str] = []
    while len(sentences) * 90 < size:
        body = " ".join(rng.choice(words) for _ in range(12))
        sentences.append(
            f"{rng.choice(names)} wrote on May {rng.randint(1, 28)}: '{body}'. Call +1 555 0100."
        )
    return " ".join(sentences)


def _json(size: int, rng: random.Random) -> str:
    entries: list[str] = []
    while len(entries) * 60 < size:
        n = rng.randrange(10**6)
        entries.append(
            json.dumps({"name": f"file_{n}.txt", "size": n, "owner": f"u{n % 50}", "mtime": 1700000000 + n})
        )
    return "[" + ",\n".join(entries) + "]"


def _periodic(period: str) -> Maker:
    return lambda size, rng: (period * (size // len(period) + 1))[:size]


KINDS: dict[str, Maker] = {
    "issue": _periodic("a.b-c+d%"),
    "log": _log,
    "prose": _prose,
    "json": _json,
    "hyphens": _periodic("a-"),
    "digits": _periodic("1 "),
    "bullets": _periodic("bcc " + "\n-" * 150 + " "),
}


def make(kind: str, size: int) -> str:
    return KINDS[kind](size, random.Random(size))[:size]


Figures = dict[tuple[str, int], tuple[float, float]]  # (kind, size) -> (wall s, cpu s)


def direct(texts: dict[tuple[str, int], str], repeat: int, home: str) -> Figures:
    os.environ["LIMEN_HOME"] = home
    from limen.runtime import Runtime

    runtime = Runtime(workspace=home)
    runtime.observe_output("mcp__fs__read_file", {"path": "x"}, "warm up", session_id="bench", door="mcp")
    figures = {}
    for (kind, size), text in texts.items():
        wall, cpu = float("inf"), float("inf")
        for i in range(repeat):  # a session of its own each time, as a new agent session would be
            session = f"bench-{kind}-{size}-{i}"
            started, used = time.perf_counter(), time.process_time()
            runtime.observe_output("mcp__fs__read_file", {"path": "x"}, text, session_id=session, door="mcp")
            wall, cpu = min(wall, time.perf_counter() - started), min(cpu, time.process_time() - used)
        figures[(kind, size)] = (wall, cpu)
    runtime.close()
    return figures


class Wire(McpWire):
    """`bench_mcp`'s JSON-RPC client, with the reads and the CPU figure this bench needs."""

    def start(self) -> Wire:
        self.handshake()
        return self

    def read(self, path: str) -> float:
        started = time.perf_counter()
        params: dict[str, object] = {"name": "read_file", "arguments": {"path": path}}
        answer = self.request("tools/call", params)
        took = time.perf_counter() - started
        result = answer.get("result")
        assert isinstance(result, dict) and result.get("isError") is False, str(answer)[:300]
        return took

    def cpu(self) -> float:
        """CPU seconds the process has used (Linux)."""
        with open(f"/proc/{self.proc.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def door(texts: dict[tuple[str, int], str], repeat: int, home: str) -> Figures:
    workspace = os.path.join(home, "ws")
    os.makedirs(workspace, exist_ok=True)
    env = dict(os.environ, LIMEN_HOME=os.path.join(home, "limen"), HOME=home)
    plain = Wire([PY, SERVER], env, workspace).start()
    proxied = Wire(
        [PY, "-m", "limen", "mcp", "--name", "fs", "--timeout", "120", PY, SERVER], env, workspace
    ).start()
    figures = {}
    try:
        for (kind, size), text in texts.items():
            path = os.path.join(workspace, f"{kind}-{size}.txt")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            plain.read(path)  # warm both sides for this file
            proxied.read(path)
            wall, cpu = float("inf"), float("inf")
            for _ in range(repeat):
                used = proxied.cpu()
                took = proxied.read(path)
                cpu = min(cpu, proxied.cpu() - used)
                wall = min(wall, took - plain.read(path))
            figures[(kind, size)] = (wall, cpu)
    finally:
        plain.close()
        proxied.close()
    return figures


def report(title: str, figures: Figures, kinds: list[str]) -> tuple[bool, bool]:
    """Print one table; whether the targets were met by the wall figures, and by the cpu ones."""
    small, large = SIZES
    print(f"\n{title}")
    print(f"  {'':10s} {'wall':>29s}   {'cpu':>29s}")
    print(f"  {'input':10s}" + f" {'80 kB':>9s} {'800 kB':>9s} {'ratio':>7s}  " * 2)
    met = [True, True]
    for kind in kinds:
        row = f"  {kind:10s}"
        for i in (0, 1):
            a, b = figures[(kind, small)][i], figures[(kind, large)][i]
            ratio = b / max(a, 1e-3)
            ok = ratio <= RATIO_TARGET and b <= SECONDS_TARGET
            met[i] &= ok
            row += f" {a:8.3f}s {b:8.3f}s {ratio:6.1f}x{' ' if ok else '!'} "
        print(row)
    return met[0], met[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    texts = {(kind, size): make(kind, size) for kind in kinds for size in SIZES}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; '!' marks a missed target")
    with tempfile.TemporaryDirectory(prefix="limen-bench-screening-") as home:
        direct_met = report(
            "Direct (Runtime.observe_output)", direct(texts, args.repeat, os.path.join(home, "d")), kinds
        )
        door_met = report(
            "Through the MCP door (wall: proxied minus direct round trip; cpu: the proxy's own)",
            door(texts, args.repeat, os.path.join(home, "m")),
            kinds,
        )
    print(f"\ntargets: 800 kB <= {RATIO_TARGET:g}x 80 kB and <= {SECONDS_TARGET:g} s")
    for what, (wall, cpu) in (("direct", direct_met), ("MCP door", door_met)):
        print(f"  {what:9s} wall: {'met' if wall else 'MISSED'}, cpu: {'met' if cpu else 'MISSED'}")
    return 0 if door_met[1] and direct_met[1] else 1


if __name__ == "__main__":
    sys.exit(main())
