"""The per-workflow baseline (`limen.subjective.baseline`): its cost per decision, and the friction it adds.

1. Cost, on one CPU core, with a learnt workflow (default 2000 calls): p50/p99 of the detector scoring one
   call (`unusual_for_workflow`: features, keyed fingerprints, surprise) and of `learn` (recording one call
   into the in-memory deltas, the SQLite flushes included). Target: scoring + learning <= 30 us per decision.
   Also `Runtime.decide` p50 with the baseline off and on.
2. Friction, with `--nl2bash FILE` (the shared `nl2bash.jsonl`): its commands replayed as one coding agent's
   workflow through `Runtime.decide` (sessions of 20 commands), with the baseline off and then on; prints how
   many calls each left at AUTH/BLOCK and how many of those the baseline caused. (`limen bench` decides shell
   items without sessions or history, so the baseline cannot change its nl2bash figures.)

    .venv/bin/python bench/bench_baseline.py [--calls 2000] [--runs 5000] [--nl2bash PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import time
from time import perf_counter_ns
from typing import Any

COMMANDS = ["git status", "git diff", "pytest -q", "ls src", "cat README.md", "git log --oneline -5", "make"]
FILES = ["src/app.py", "src/util.py", "tests/test_app.py", "README.md"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def coding_calls(n: int) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    for i in range(n):
        if i % 3 == 0:
            calls.append(("Read", {"file_path": FILES[i % len(FILES)]}))
        elif i % 7 == 0:
            calls.append(
                ("WebFetch", {"url": "https://docs.python.org/3/library/sqlite3.html", "prompt": "x"})
            )
        else:
            calls.append(("Bash", {"command": COMMANDS[i % len(COMMANDS)]}))
    return calls


def runtime(tmp: str, name: str) -> Any:
    from limen.bench.calls import make_workspace
    from limen.runtime import Runtime

    workspace = make_workspace(os.path.join(tmp, name))
    return Runtime(
        workspace=workspace,
        state_path=os.path.join(tmp, name + "-state", "state.sqlite"),
        audit_dir=os.path.join(tmp, name + "-audit"),
        fsync_every=0,
    )


def cost(calls: int, runs: int) -> None:
    from limen.engine import decide
    from limen.normalize import normalize
    from limen.subjective import baseline

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["LIMEN_BASELINE"] = "1"
        rt = runtime(tmp, "cost")
        history = coding_calls(calls)
        for i, (tool, args) in enumerate(history):
            rt.decide(tool, args, session_id=f"s{i // 20}", door="hook")
        ctx = rt.context
        ctx.session = rt.session("probe")
        probe = coding_calls(runs)
        actions = [normalize(t, a, cwd=ctx.workspace, door="hook", session_id="probe") for t, a in probe]
        workflow = baseline.baseline_for(ctx).workflow(baseline.scope_of(actions[0], ctx))
        print(f"workflow: {workflow.calls} learnt calls, {len(workflow.counts)} keys")
        decisions = [decide(action, ctx) for action in actions]
        cpu = time.thread_time_ns()  # CPU time: what a loaded machine's preemption does not inflate
        for action, decision in zip(actions, decisions, strict=True):
            baseline.unusual_for_workflow(action, ctx)
            baseline.learn(action, ctx, decision)
        cpu_each = (time.thread_time_ns() - cpu) / 1000 / len(actions)
        scoring: list[float] = []
        learning: list[float] = []
        for action in actions:  # as the runtime does: score (in the engine), decide, learn
            started = perf_counter_ns()
            baseline.unusual_for_workflow(action, ctx)
            scoring.append((perf_counter_ns() - started) / 1000)
            decision = decide(action, ctx)
            started = perf_counter_ns()
            baseline.learn(action, ctx, decision)
            learning.append((perf_counter_ns() - started) / 1000)
        total = [s + le for s, le in zip(scoring, learning, strict=True)]
        for name, values in (("score one call", scoring), ("learn one call", learning), ("both", total)):
            p50, p99 = statistics.median(values), percentile(values, 0.99)
            print(
                f"{name:15} p50 {p50:6.1f} us   p99 {p99:7.1f} us   mean {statistics.fmean(values):6.1f} us"
            )
        print(f"both, CPU time per decision (mean over {len(actions)}): {cpu_each:.1f} us")
        print("(wall-clock figures include preemption on a shared machine; learning includes its SQLite")
        print(" flushes; target: both <= 30 us per decision)")
        rt.close()
        for flag in ("0", "1"):
            os.environ["LIMEN_BASELINE"] = flag
            rt = runtime(tmp, "decide" + flag)
            spent: list[float] = []
            for i, (tool, args) in enumerate(history):
                started = perf_counter_ns()
                rt.decide(tool, args, session_id=f"s{i // 20}", door="hook")
                spent.append((perf_counter_ns() - started) / 1000)
            rt.close()
            label = "on " if flag == "1" else "off"
            print(f"Runtime.decide, baseline {label}: p50 {statistics.median(spent[200:]):7.1f} us")


def friction(path: str, limit: int) -> None:
    from limen.model import ReasonCode, Verdict

    with open(path, encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()][:limit]
    commands = [str(item["payload"]) for item in items if item.get("kind") == "shell"]
    results: dict[str, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for flag in ("0", "1"):
            os.environ["LIMEN_BASELINE"] = flag
            rt = runtime(tmp, "nl2bash" + flag)
            flagged = by_baseline = 0
            for i, command in enumerate(commands):
                decision = rt.decide("Bash", {"command": command}, session_id=f"n{i // 20}", door="hook")
                if decision.verdict is not Verdict.PASS:
                    flagged += 1
                    if decision.reasons == (ReasonCode.UNUSUAL_FOR_WORKFLOW,):
                        by_baseline += 1
            rt.close()
            results[flag] = (flagged, by_baseline)
    n = len(commands)
    for flag, (flagged, by_baseline) in results.items():
        label = "on " if flag == "1" else "off"
        print(
            f"nl2bash as one workflow, baseline {label}: {flagged}/{n} calls AUTH/BLOCK ({flagged / n:.2%}), "
            f"{by_baseline} by the baseline alone"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--nl2bash", default="")
    parser.add_argument("--limit", type=int, default=100_000)
    args = parser.parse_args()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    home = tempfile.mkdtemp(prefix="limen-bench-home-")
    os.environ["LIMEN_HOME"] = home  # keys and approvals of the bench, not the user's
    cost(args.calls, args.runs)
    if args.nl2bash:
        friction(args.nl2bash, args.limit)


if __name__ == "__main__":
    main()
