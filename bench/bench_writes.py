"""Decision latency for the files an agent writes: a Write of a whole program file, judged by its content.

Run: .venv/bin/python bench/bench_writes.py [--files 120] [--rounds 3]

Every decision of a Write of program code reads the file with the rules that judge code (its effects, its
checks, its handlers, what it takes out of the file it replaces), so its cost grows with the file. The files
are the repository's own Python sources and the test fixtures' JavaScript and TypeScript, 1 to 40 kB (real
code, not generated), each written to a new path under a fresh workspace so that no file is replaced and no
cache of Limen's answers it. Prints the median and p90 per decision and per kilobyte.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from time import perf_counter_ns

import limen
from limen.bench.calls import make_workspace
from limen.context import Context
from limen.model import Mode

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("src/limen", "tests/mcp_servers", "tests/fixtures")
SUFFIXES = (".py", ".js", ".mjs", ".ts")


def program_files(limit: int) -> list[tuple[str, str]]:
    """(name, text) of up to `limit` program files of 1 to 40 kB, in a fixed order."""
    found: list[tuple[str, str]] = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and 1024 <= path.stat().st_size <= 40 * 1024:
                found.append((path.name, path.read_text(encoding="utf-8", errors="replace")))
    step = max(1, len(found) // limit)
    return found[::step][:limit]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files = program_files(args.files)
    with tempfile.TemporaryDirectory() as tmp:
        workspace = make_workspace(os.path.realpath(tmp))
        ctx = Context.for_mode(Mode.BALANCED, workspace)
        for name, text in files[:10]:  # warm-up: imports, parsers, compiled patterns
            limen.evaluate(
                "Write",
                {"file_path": f"{workspace}/warm/{name}", "content": text},
                cwd=workspace,
                context=ctx,
            )
        times: list[float] = []
        per_kb: list[float] = []
        for round_ in range(args.rounds):
            for index, (name, text) in enumerate(files):
                target = f"{workspace}/r{round_}/f{index}/{name}"
                started = perf_counter_ns()
                limen.evaluate("Write", {"file_path": target, "content": text}, cwd=workspace, context=ctx)
                micros = (perf_counter_ns() - started) / 1000
                times.append(micros)
                per_kb.append(micros / (len(text.encode()) / 1024))
    times.sort()
    per_kb.sort()
    size = statistics.median(len(text.encode()) for _, text in files) / 1024
    print(f"Write of a program file: {len(files)} files (median {size:.1f} kB), {len(times)} decisions")
    print(
        f"decision median {statistics.median(times):.0f} us   p90 {times[int(0.9 * len(times)) - 1]:.0f} us"
    )
    print(
        f"per kB   median {statistics.median(per_kb):.0f} us"
        f"   p90 {per_kb[int(0.9 * len(per_kb)) - 1]:.0f} us"
    )


if __name__ == "__main__":
    main()
