"""Decision + audit append latency through `Runtime.decide` (the path every door takes).

A plain script: prints median and p99 in microseconds for a mix of realistic calls, each decided in a session
(SQLite state, history update) and appended to the hash-chained log. Target: median <= 300 us.

    .venv/bin/python bench/bench_audit.py [--calls 3000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from time import perf_counter_ns

CALLS = [
    ("Read", {"file_path": "src/app.py"}),
    ("Bash", {"command": "git status"}),
    ("Bash", {"command": "pytest -q tests"}),
    ("Edit", {"file_path": "src/app.py", "old_string": "a", "new_string": "b"}),
    ("Grep", {"pattern": "TODO", "path": "src"}),
    ("WebFetch", {"url": "https://docs.python.org/3/library/os.html"}),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as workspace:
        os.environ["LIMEN_HOME"] = home  # state, keys and the audit log; the workspace lies outside it
        os.makedirs(os.path.join(workspace, "src"))
        from limen.runtime import Runtime

        runtime = Runtime(workspace=workspace)
        for tool, arguments in CALLS * 20:  # warm up: imports, rule tables, statement cache
            runtime.decide(tool, arguments, session_id="warm", door="bench")
        from limen.engine import decide
        from limen.normalize import normalize

        ctx = runtime.context
        total, bare = [], []
        for i in range(args.calls):  # interleaved, so machine load hits both alike
            tool, arguments = CALLS[i % len(CALLS)]
            started = perf_counter_ns()
            # sessions of 50 calls: one session of thousands would trip the mode's rate window (120 calls a
            # minute in balanced) and time the ask path (an approval request per call) instead
            runtime.decide(tool, arguments, session_id=f"s{i // 50}", door="bench")
            total.append((perf_counter_ns() - started) / 1000)
            started = perf_counter_ns()
            decide(normalize(tool, arguments, cwd=workspace, door="bench"), ctx)
            bare.append((perf_counter_ns() - started) / 1000)
        runtime.close()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name, values in (("decide + session + audit", total), ("normalize + engine only", bare)):
        values.sort()
        p99 = values[int(len(values) * 0.99) - 1]
        print(f"{name:<26} median {statistics.median(values):8.1f} us   p99 {p99:8.1f} us   n={len(values)}")


if __name__ == "__main__":
    main()
