"""The SDK door's cost: `guard.call` against calling the function directly and against `limen.evaluate`.

One run, interleaved so machine load hits every variant alike. For each: the median time per call in
microseconds, and the overhead over the bare call. Variants:

    bare              the tool function itself
    limen.evaluate    the one-call API on the same arguments (decision, session, audit; no validation)
    runtime only      Runtime.decide + Runtime.observe_output as guard.call makes them (no records):
                      what guard.call costs beyond them is the SDK's own share (validation, locks)
    guard.call        audit=False: validate + decide + observe output, no records made
    guard.call+audit  the default: both records (decision, output) appended to the hash-chained log

The issue's targets for guard.call overhead: median <= 50 us without audit, <= 150 us with it.

    .venv/bin/python bench/bench_sdk.py [--calls 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from time import perf_counter_ns
from typing import Any

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("read_file", {"path": "src/app.py"}),
    ("run", {"argv": ["git", "status"]}),
    ("run", {"argv": ["pytest", "-q", "tests"]}),
    ("write_file", {"path": "src/app.py", "content": "print('hello')\n"}),
    ("fetch", {"url": "https://docs.python.org/3/library/os.html"}),
]
EVALUATE = {  # the same calls as the generic capability tools limen.evaluate knows
    "read_file": "filesystem.read",
    "run": "shell.execute",
    "write_file": "filesystem.write",
    "fetch": "network.request",
}


def _register(guard: Any) -> dict[str, Callable[..., Any]]:
    def read_file(path: str) -> str:
        return "x = 1\n"

    def run(argv: list[str]) -> str:
        return "ok\n"

    def write_file(path: str, content: str) -> str:
        return "written"

    def fetch(url: str) -> str:
        return "<html></html>"

    tools = {"read_file": read_file, "run": run, "write_file": write_file, "fetch": fetch}
    guard.register(read_file, capability="filesystem.read")
    guard.register(run, capability="shell.execute", params={"argv": "command"})
    guard.register(write_file, capability="filesystem.write")
    guard.register(fetch, capability="network.request")
    return tools


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as workspace:
        os.environ["LIMEN_HOME"] = home
        os.makedirs(os.path.join(workspace, "src"))
        import limen
        from limen.runtime import DISCARD
        from limen.sdk import Guard

        quiet = Guard(workspace, audit=False)
        audited = Guard(workspace, audit=os.path.join(home, "sdk-audit"))
        functions = _register(quiet)
        _register(audited)
        evaluate_args = {"run": lambda a: {"cmd": " ".join(a["argv"])}}
        times: dict[str, list[float]] = {
            "bare": [],
            "limen.evaluate": [],
            "runtime only": [],
            "guard.call": [],
            "guard.call+audit": [],
        }
        runtime = quiet.runtime

        sessions: dict[int, tuple[Any, Any]] = {}

        def once(i: int) -> dict[str, float]:
            # A fresh session every 100 calls: the mode's rate window (240 a minute) would otherwise ask.
            batch = i // 100
            if batch not in sessions:
                sessions.clear()
                sessions[batch] = (quiet.new_session(), audited.new_session())
            quiet_session, audited_session = sessions[batch]
            name, arguments = CALLS[i % len(CALLS)]
            given = evaluate_args.get(name, dict)(arguments)
            measured = {}
            started = perf_counter_ns()
            functions[name](**arguments)
            measured["bare"] = perf_counter_ns() - started
            started = perf_counter_ns()
            limen.evaluate(EVALUATE[name], given, cwd=workspace, session_id=f"bench-{batch}")
            measured["limen.evaluate"] = perf_counter_ns() - started
            tool = quiet.tools[name]
            judged = tool.validate(arguments, workspace)[1]
            started = perf_counter_ns()
            decision = runtime.decide(
                name, judged, session_id=quiet_session.id, door="sdk", sink=DISCARD, spec=tool.spec
            )
            output = functions[name](**arguments)
            runtime.observe_output(
                name,
                judged,
                output,
                session_id=quiet_session.id,
                door="sdk",
                sink=DISCARD,
                spec=tool.spec,
                action=decision.action,
            )
            measured["runtime only"] = perf_counter_ns() - started
            started = perf_counter_ns()
            quiet_session.call(name, arguments)
            measured["guard.call"] = perf_counter_ns() - started
            started = perf_counter_ns()
            audited_session.call(name, arguments)
            measured["guard.call+audit"] = perf_counter_ns() - started
            return measured

        for i in range(200):  # warm up: imports, rule tables, the writer's first records
            once(i)
        for i in range(200, 200 + args.calls):
            for key, value in once(i).items():
                times[key].append(value / 1000)
        quiet.close()
        audited.close()
    bare = statistics.median(times["bare"])
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs, {args.calls} calls of a {len(CALLS)}-call mix")
    for name, values in times.items():
        values.sort()
        median = statistics.median(values)
        p99 = values[int(len(values) * 0.99) - 1]
        overhead = median - bare
        print(f"{name:<18} median {median:8.1f} us   p99 {p99:8.1f} us   over bare {overhead:8.1f} us")


if __name__ == "__main__":
    main()
