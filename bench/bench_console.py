"""Console page loads over a log of 100,000 decisions (issue 13: median <= 100 ms).

A plain script. It writes the log with the real `AuditWriter` into a temporary LIMEN_HOME (records shaped as
`Runtime.decide` writes them, many sessions, tools and verdicts), opens six approval requests through the
real `Runtime` (one before the 100,000 records, five after), then starts the
console on loopback and times whole HTTP requests (connect, render, read) with a logged-in cookie: the
approvals page, the log's first page, filtered pages, a deep page, a time window and one "why".

    .venv/bin/python bench/bench_console.py [--records 100000] [--requests 50]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import tempfile
import threading
import time
from time import perf_counter_ns
from urllib.parse import urlsplit

TOOLS = ("Bash", "Read", "Edit", "Grep", "WebFetch", "mcp__github__create_issue")
OUTCOMES = (
    ("PASS", [], 5),
    ("PASS", [], 12),
    ("PASS", [], 20),
    ("AUTH", ["unsafe_permissions"], 60),
    ("AUTH", ["unknown_external_destination"], 55),
    ("BLOCK", ["sensitive_secret_access", "secret_exfiltration"], 97),
)


def record(n: int, ts: float, rng: random.Random) -> dict[str, object]:
    verdict, reasons, risk = OUTCOMES[0 if rng.random() < 0.8 else rng.randrange(len(OUTCOMES))]
    return {
        "kind": "decision",
        "id": f"{n:016x}",
        "ts": round(ts, 3),
        "session": f"session-{n // 200}",
        "door": "hook",
        "agent": "claude-code",
        "tool": TOOLS[n % len(TOOLS)],
        "cap": "shell.execute",
        "verdict": verdict,
        "risk": risk,
        "reasons": reasons,
        "expl": f"{verdict}: {', '.join(reasons) or 'no reason code'}",
        "args": f"{rng.getrandbits(128):032x}",
        "keys": ["command"],
        "paths": ["workspace/src/*.py"],
        "hosts": ["api.github.com"] if n % 7 == 0 else [],
        "cmds": ["git", "status"],
        "stages": [{"stage": "objective", "verdict": verdict, "risk": risk, "reasons": reasons, "us": 85.0}],
        "us": 140.0,
    }


def fill(records: int) -> float:
    """Append `records` decisions; returns the timestamp of the middle one."""
    from limen.audit.writer import AuditWriter

    writer = AuditWriter(fsync_every=0)
    rng = random.Random(13)
    start = time.time()  # in time order after what is in the log already, and before what comes next
    step = 1e-5  # the records take less time than writing them does
    for n in range(records):
        writer.append(record(n, start + n * step, rng))
    writer.close()
    return start + records * step / 2


def fetch(server: object, cookie: str, path: str) -> str:
    host, port = server.host, server.port  # type: ignore[attr-defined]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("GET", path, headers={"Host": f"{host}:{port}", "Cookie": cookie})
    text = conn.getresponse().read().decode()
    conn.close()
    return text


def timed(server: object, cookie: str, path: str, requests: int) -> list[float]:
    host, port = server.host, server.port  # type: ignore[attr-defined]
    values = []
    for _ in range(requests):
        started = perf_counter_ns()
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request("GET", path, headers={"Host": f"{host}:{port}", "Cookie": cookie})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        values.append((perf_counter_ns() - started) / 1e6)
        assert response.status == 200, (path, response.status, body[:200])
    return values


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as workspace:
        os.environ["LIMEN_HOME"] = home
        from limen.runtime import Runtime

        runtime = Runtime(workspace=workspace)  # one request opened before the 100,000, as deep as it gets
        runtime.decide("Bash", {"command": "chmod 777 old.sh"}, session_id="bench", door="sdk")
        runtime.close()
        started = time.perf_counter()
        middle = fill(args.records)
        filled = time.perf_counter() - started
        runtime = Runtime(workspace=workspace)
        for n in range(5):  # five open requests, their AUTH decisions appended after the 100,000
            runtime.decide("Bash", {"command": f"chmod 777 run{n}.sh"}, session_id="bench", door="sdk")
        runtime.close()
        size = os.path.getsize(os.path.join(home, "audit", "decisions.jsonl"))

        from limen.console.app import Console
        from limen.console.auth import Gate
        from limen.console.server import ConsoleServer

        console = Console(workspace=workspace, gate=Gate())
        server = ConsoleServer(console, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        login = urlsplit(server.login_url())
        conn = http.client.HTTPConnection(server.host, server.port)
        conn.request("GET", f"{login.path}?{login.query}", headers={"Host": f"{server.host}:{server.port}"})
        cookie = conn.getresponse().headers["Set-Cookie"].split(";", 1)[0]
        conn.close()
        cold = perf_counter_ns()
        approvals = fetch(server, cookie, "/")  # finds each request's decision in the log (then remembered)
        cold_ms = (perf_counter_ns() - cold) / 1e6
        assert approvals.count('class="card"') == 6 and "not in the recent log" not in approvals
        first = fetch(server, cookie, "/log")
        why = "/why?" + first.split('href="/why?', 1)[1].split('"', 1)[0].replace("&amp;", "&")
        deep = "/log"
        for _ in range(100):  # follow "older" a hundred pages down (5,000 records deep)
            text = fetch(server, cookie, deep)
            deep = "/log?" + text.split('id="older"', 1)[0].rsplit('href="/log?', 1)[1].split('"', 1)[0]
            deep = deep.replace("&amp;", "&")
        until = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(middle)) + f"{middle % 1:.3f}"[1:]
        pages = [
            ("approvals (6 pending, evidence)", "/"),
            ("log, first page", "/log"),
            ("log, verdict=BLOCK", "/log?verdict=BLOCK"),
            ("log, tool + reason", "/log?tool=Bash&reason=unsafe_permissions"),
            ("log, one session", f"/log?session=session-{args.records // 400}"),
            ("log, 100 pages down", deep),
            ("log, until the middle", f"/log?until={until}"),
            ("why (the link from a log row)", why),
            ("sessions", "/sessions"),
        ]
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"log: {args.records} decisions, {size / 1e6:.1f} MB, written in {filled:.1f} s")
        print(f"{'approvals, first load (uncached)':<34} {cold_ms:7.1f} ms")
        for name, path in pages:
            values = timed(server, cookie, path, args.requests)
            values.sort()
            p95 = values[max(int(len(values) * 0.95) - 1, 0)]
            print(
                f"{name:<34} median {statistics.median(values):7.1f} ms   p95 {p95:7.1f} ms   n={len(values)}"
            )
        server.shutdown()
        server.server_close()
        console.close()
    print("target: median <= 100 ms per page")


if __name__ == "__main__":
    main()
