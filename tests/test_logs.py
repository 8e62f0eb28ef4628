"""The operator logs of the long-running processes: `logging` records with a timestamp, a level and the
component, on stderr (the daemon's is daemon.log), never on the stream an agent reads."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}"


def test_the_mcp_proxy_logs_with_a_timestamp_and_keeps_the_protocol_stream_clean(tmp_path: Path) -> None:
    server = "echo 'not json'; sleep 1"
    done = subprocess.run(
        [sys.executable, "-m", "limen", "mcp", "--", "sh", "-c", server],
        input=b"",
        capture_output=True,
        env={**os.environ, "LIMEN_HOME": str(tmp_path)},
        timeout=60,
    )
    assert done.stdout == b""  # nothing but JSON-RPC ever goes to the agent
    lines = done.stderr.decode().splitlines()
    pattern = rf"{STAMP} WARNING limen\.mcp: dropped a malformed message from the MCP server \(not JSON"
    assert any(re.match(pattern, line) for line in lines), lines


def test_the_daemon_logs_its_start_and_stop_with_timestamps(tmp_path: Path) -> None:
    env = {**os.environ, "LIMEN_HOME": str(tmp_path / "limen")}
    limen = [sys.executable, "-m", "limen", "daemon"]
    try:
        started = subprocess.run([*limen, "start"], capture_output=True, text=True, env=env, timeout=60)
        assert started.returncode == 0, started.stderr
    finally:
        subprocess.run([*limen, "stop"], capture_output=True, env=env, timeout=60)
    log = tmp_path / "limen" / "run" / "daemon.log"
    for _ in range(100):  # the daemon writes its last line as it exits
        if "stopped" in log.read_text():
            break
        time.sleep(0.05)
    lines = log.read_text().splitlines()
    assert re.match(rf"{STAMP} INFO limen\.daemon: serving on .*daemon\.sock, pid \d+$", lines[0]), lines
    assert re.match(rf"{STAMP} INFO limen\.daemon: stopped, pid \d+$", lines[-1]), lines


def test_the_hook_client_does_not_import_logging_setup() -> None:
    code = "import sys, limen.doors.hooks.client; print('limen.logs' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
