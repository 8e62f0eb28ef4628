"""Decision + audit append latency through `Runtime.decide` (the path every door takes).

A plain script: prints median and p99 in microseconds for a mix of realistic calls, each decided in a session
(SQLite state, history update) and appended to the hash-chained log, next to the same calls normalised and
decided without session or audit. Target (issue 10): median <= 80 us. Two more rows, interleaved with those,
split the difference: the same decisions with their record built but handed to a sink that drops it (the
append's cost), and without a session (the session store's cost).

    .venv/bin/python bench/bench_audit.py [--calls 3000]

With `--agentguard PYTHON` (the interpreter of a separate virtual environment holding `agentguard-oss`
0.5.0, e.g. `python3.11 -m venv /work/agvenv && /work/agvenv/bin/pip install agentguard-oss==0.5.0`), it
also times, in the same run, Limen's audited decision (`Runtime.decide`: session state, audit append) and
agentguard's unaudited `Guard` decision on the 8-call mix of `bench_latency.py`, in alternating rounds so
that machine load hits both alike, and prints both medians and their ratio (target: <= 0.5). agentguard's
decision is what `Guard` does for a call before its first audit event: argument normalisation and
validation, the rate limiter, policy and risk evaluation; it runs in that interpreter as a child process
(its dependencies stay out of Limen's environment) and is driven through `Guard`'s own methods.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from time import perf_counter_ns, thread_time_ns
from typing import Any

CALLS = [
    ("Read", {"file_path": "src/app.py"}),
    ("Bash", {"command": "git status"}),
    ("Bash", {"command": "pytest -q tests"}),
    ("Edit", {"file_path": "src/app.py", "old_string": "a", "new_string": "b"}),
    ("Grep", {"pattern": "TODO", "path": "src"}),
    ("WebFetch", {"url": "https://docs.python.org/3/library/os.html"}),
]

SESSION_CALLS = 50  # calls per session: one session of thousands would time the rate window's ask path

# Run by the agentguard interpreter. Reads the workspace and the mix as one JSON line, then, for each line
# `N`, decides the next N calls of the mix and answers one JSON line of per-call [wall, CPU] microseconds.
AGENTGUARD_CHILD = r"""
import json, sys, tempfile
from time import perf_counter_ns, thread_time_ns
from agentguard import Guard

setup = json.loads(sys.stdin.readline())
workspace, mix = setup["workspace"], setup["mix"]
policy = {  # a coding agent's policy: its workspace, a shell, the documentation it reads
    "version": 1,
    "defaults": {"effect": "deny"},
    "rules": [
        {"capability": "filesystem.read", "paths": [workspace + "/**"], "effect": "allow"},
        {"capability": "filesystem.write", "paths": [workspace + "/**"], "effect": "allow"},
        {"capability": "shell.execute", "effect": "allow"},
        {"capability": "network.request", "domains": ["docs.python.org"], "effect": "allow"},
    ],
}
audit = tempfile.mkdtemp() + "/agentguard.jsonl"  # written only by Guard.call, which is not timed
guard = Guard(policy, audit=audit, context={"working_directory": workspace})

@guard.tool(capability="filesystem.read")
def read_file(path: str) -> str:
    return ""

@guard.tool(capability="filesystem.write")
def write_file(path: str, content: str) -> str:
    return ""

@guard.tool(capability="shell.execute")
def run_shell(cmd: str) -> str:
    return ""

@guard.tool(capability="network.request")
def fetch_url(url: str, prompt: str) -> str:
    return ""

TOOLS = {"Read": "read_file", "Write": "write_file", "Bash": "run_shell", "WebFetch": "fetch_url"}
ROLES = {"file_path": "path", "command": "cmd"}
calls = [(TOOLS[tool], {ROLES.get(k, k): v for k, v in arguments.items()}) for tool, arguments in mix]

def decide(session, name, arguments):
    # What Guard._dispatch does for a call before it writes its first audit event.
    tool = guard._tools[name]
    try:
        action = guard._normalize(session, name, arguments, tool)
    except Exception:
        return "deny"  # Guard refuses the call (and would audit the refusal)
    if not guard.rate_limiter.hit(guard._rate_key(session), guard.policy.limits.max_calls_per_minute, 60.0):
        return "deny"
    decision = guard._evaluate(session, action)
    guard._count(session, decision.effect.value)
    return decision.effect.value

done = 0
session = guard.new_session()
for line in sys.stdin:
    times = []
    for _ in range(int(line)):
        if done % SESSION_CALLS == 0:
            session = guard.new_session()
        name, arguments = calls[done % len(calls)]
        started, cpu = perf_counter_ns(), thread_time_ns()
        decide(session, name, arguments)
        times.append(((perf_counter_ns() - started) / 1000, (thread_time_ns() - cpu) / 1000))
        done += 1
    print(json.dumps(times), flush=True)
""".replace("SESSION_CALLS", str(SESSION_CALLS))


def summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.99) - 1)]


def audited_and_bare(calls: int) -> None:
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
        # Its own state file, so its calls do not join the rate windows of the sessions above.
        unlogged = Runtime(workspace=workspace, state_path=os.path.join(home, "unlogged.sqlite"))
        for tool, arguments in CALLS * 20:
            unlogged.decide(tool, arguments, session_id="warm", door="bench", sink=_drop)
        total: list[float] = []
        no_append: list[float] = []
        no_session: list[float] = []
        bare: list[float] = []
        timings = (total, no_append, no_session, bare)
        for i in range(calls):
            tool, arguments = CALLS[i % len(CALLS)]
            session = f"s{i // SESSION_CALLS}"
            # Interleaved, so machine load hits all alike, and in turns: whichever runs first after another
            # kind of work finds colder caches (about 20 us here).
            for turn in range(4):
                way = (i + turn) % 4
                started = perf_counter_ns()
                if way == 0:
                    runtime.decide(tool, arguments, session_id=session, door="bench")
                elif way == 1:
                    unlogged.decide(tool, arguments, session_id=session, door="bench", sink=_drop)
                elif way == 2:
                    unlogged.decide(tool, arguments, session_id=None, door="bench", sink=_drop)
                else:
                    decide(normalize(tool, arguments, cwd=workspace, door="bench"), ctx)
                timings[way].append((perf_counter_ns() - started) / 1000)
        runtime.close()
        unlogged.close()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    rows = (
        ("decide + session + audit", total),
        ("  record built, not appended", no_append),
        ("  no session, no append", no_session),
        ("normalize + engine only", bare),
    )
    for name, values in rows:
        median, p99 = summary(values)
        print(f"{name:<30} median {median:8.1f} us   p99 {p99:8.1f} us   n={len(values)}")
    medians = [statistics.median(values) for _, values in rows]
    print(
        "where the plumbing goes (differences of medians): audit append "
        f"{medians[0] - medians[1]:.1f} us, session state {medians[1] - medians[2]:.1f} us, "
        f"policy context + audit record + the rest {medians[2] - medians[3]:.1f} us"
    )


def _drop(record: dict[str, Any]) -> None:
    """A sink that keeps nothing: the record is built (and redacted) but not appended."""


def against_agentguard(python: str, calls: int, rounds: int) -> None:
    from bench_latency import mix
    from limen.bench.calls import make_workspace

    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as tmp:
        os.environ["LIMEN_HOME"] = home
        workspace = make_workspace(os.path.realpath(tmp))
        calls_mix: list[tuple[str, dict[str, Any]]] = mix(workspace)
        from limen.runtime import Runtime

        runtime = Runtime(workspace=workspace)
        child = subprocess.Popen(
            [python, "-c", AGENTGUARD_CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps({"workspace": workspace, "mix": calls_mix}) + "\n")

        def agentguard(n: int) -> list[tuple[float, float]]:
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(f"{n}\n")
            child.stdin.flush()
            line = child.stdout.readline()
            if not line:
                raise SystemExit(
                    f"the agentguard child ({python}) stopped; is agentguard-oss installed there?"
                )
            return [(wall, cpu) for wall, cpu in json.loads(line)]

        done = 0

        def limen(n: int) -> list[tuple[float, float]]:
            nonlocal done
            times = []
            for _ in range(n):
                tool, arguments = calls_mix[done % len(calls_mix)]
                started, cpu = perf_counter_ns(), thread_time_ns()
                runtime.decide(tool, arguments, session_id=f"s{done // SESSION_CALLS}", door="bench")
                times.append(((perf_counter_ns() - started) / 1000, (thread_time_ns() - cpu) / 1000))
                done += 1
            return times

        limen(len(calls_mix) * 20)  # warm up both: imports, tables, statement caches
        agentguard(len(calls_mix) * 20)
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        per_round = max(len(calls_mix), calls // rounds // len(calls_mix) * len(calls_mix))
        for _ in range(rounds):  # alternating rounds: machine load hits both alike
            ours.extend(limen(per_round))
            theirs.extend(agentguard(per_round))
        child.stdin.close()
        child.wait(timeout=30)
        runtime.close()
    ours_median, ours_p99 = summary([wall for wall, _ in ours])
    theirs_median, theirs_p99 = summary([wall for wall, _ in theirs])
    ours_cpu = statistics.median(cpu for _, cpu in ours)
    theirs_cpu = statistics.median(cpu for _, cpu in theirs)
    print(f"8-call mix, {rounds} alternating rounds of {per_round} calls each side (CPU: the thread's time)")
    print(
        f"Limen, audited (Runtime.decide)   median {ours_median:8.1f} us   p99 {ours_p99:8.1f} us"
        f"   CPU median {ours_cpu:8.1f} us"
    )
    print(
        f"agentguard-oss Guard, unaudited   median {theirs_median:8.1f} us   p99 {theirs_p99:8.1f} us"
        f"   CPU median {theirs_cpu:8.1f} us"
    )
    print(
        f"ratio Limen / agentguard: medians {ours_median / theirs_median:.2f}, CPU medians "
        f"{ours_cpu / theirs_cpu:.2f}  (target <= 0.5)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument(
        "--agentguard",
        metavar="PYTHON",
        default="",
        help="interpreter of a venv with agentguard-oss 0.5.0: also time its unaudited Guard decision",
    )
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds of the comparison")
    args = parser.parse_args()
    audited_and_bare(args.calls)
    if args.agentguard:
        against_agentguard(args.agentguard, args.calls, args.rounds)


if __name__ == "__main__":
    main()
