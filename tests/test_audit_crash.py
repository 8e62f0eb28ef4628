"""Four processes write 10,000 decisions to one log; one is SIGKILLed mid-stream. The chain still verifies and
every decision any writer was answered is in the log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from limen.audit import LOG_NAME
from limen.audit.verify import verify

WRITERS = 4
PER_WRITER = 2500
WRITER = """
import sys
from limen.runtime import Runtime
rt = Runtime(workspace=sys.argv[2])
for i in range(int(sys.argv[3])):
    d = rt.decide("Bash", {"command": f"echo {i}"}, session_id="w" + sys.argv[1], door="hook")
    print(d.decision_id, flush=True)
rt.close()
"""


def test_sigkill_mid_stream_loses_no_answered_decision(limen_home: Path, workspace: str) -> None:
    env = {**os.environ, "LIMEN_HOME": str(limen_home)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(n), workspace, str(PER_WRITER)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(WRITERS)
    ]
    victim = procs[0]
    assert victim.stdout is not None
    answered: list[str] = [victim.stdout.readline().strip() for _ in range(400)]
    victim.send_signal(signal.SIGKILL)
    rest, _ = victim.communicate(timeout=60)
    answered += rest.split()
    assert victim.returncode == -signal.SIGKILL
    assert len(answered) < PER_WRITER  # it really died mid-stream
    for proc in procs[1:]:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        answered += out.split()

    report = verify(str(limen_home / "audit"))
    assert report.ok, report.problems
    logged = {
        json.loads(line).get("id") for line in (limen_home / "audit" / LOG_NAME).read_text().splitlines()
    }
    missing = set(answered) - logged
    assert not missing, f"{len(missing)} answered decisions are not in the log"
    assert len(answered) >= 400 + (WRITERS - 1) * PER_WRITER
