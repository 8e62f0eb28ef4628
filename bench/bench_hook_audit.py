"""Answers against audit records under load: N concurrent `limen-hook` processes without a daemon.

Every answer must have exactly one audit record equal to it (issue 9: 400 concurrent hooks). Prints the
answers by verdict, the records by verdict, and the difference (both must be empty), and the wall time.

    .venv/bin/python bench/bench_hook_audit.py [--hooks 400] [--workers 400] [--deadline-ms 5000]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HOOK = Path(sys.executable).with_name("limen-hook")
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "hooks" / "claude-code"
EVENTS = [
    (FIXTURES / name).read_bytes()
    for name in ("pre_bash_ls.json", "pre_write_settings.json", "pre_read_ssh_key.json")
]
DECISION_ID = re.compile(r"\(decision ([0-9a-f]{16})\)")


def answered(stdout: bytes) -> tuple[str, str]:
    out = json.loads(stdout) if stdout else None
    if out == {}:
        return "PASS", ""
    if not isinstance(out, dict):
        return "NO ANSWER", ""
    specific = out["hookSpecificOutput"]
    verdict = {"deny": "BLOCK", "ask": "AUTH"}[specific["permissionDecision"]]
    found = DECISION_ID.search(specific["permissionDecisionReason"])
    return verdict, found.group(1) if found else "fail-closed"


def recorded(home: Path) -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for line in (home / "audit" / "decisions.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record.get("door") == "hook" and record.get("kind") == "decision":
            if "objective_guardrail_error" in record["reasons"]:
                found[(record["verdict"], "fail-closed")] += 1
            else:
                found[(record["verdict"], "" if record["verdict"] == "PASS" else record["id"])] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hooks", type=int, default=400)
    parser.add_argument("--workers", type=int, default=400)
    parser.add_argument("--deadline-ms", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "limen"
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": "/home/dev",
            "LIMEN_HOME": str(home),
            "LIMEN_HOOK_DAEMON": "0",
            "LIMEN_HOOK_DEADLINE_MS": str(args.deadline_ms),
        }

        def run(i: int) -> bytes:
            proc = subprocess.run(
                [str(HOOK), "claude-code"], input=EVENTS[i % len(EVENTS)], capture_output=True, env=env
            )
            return proc.stdout

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            outputs = list(pool.map(run, range(args.hooks)))
        wall = time.monotonic() - started
        given = Counter(answered(o) for o in outputs)
        found = recorded(home)
        settle = time.monotonic() + 60  # records handed to detached writers on an overloaded machine
        while found != given and time.monotonic() < settle:
            time.sleep(0.5)
            found = recorded(home)
    by_verdict = Counter(v for (v, _), n in given.items() for _ in range(n))
    print(f"{args.hooks} hooks, {args.workers} at once, deadline {args.deadline_ms} ms: {wall:.1f} s wall")
    print(f"answers by verdict: {dict(by_verdict)}")
    print(f"records: {sum(found.values())}, answers: {sum(given.values())}")
    print(f"answered, not recorded: {sum((given - found).values())}")
    print(f"recorded, not answered: {sum((found - given).values())}")


if __name__ == "__main__":
    main()
