"""The audit log never drops a record, even when the decision path is broken: with the rules' secret scanner
unable to load (a broken installation), a call is still denied and its record is still written, its names
fingerprinted rather than checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROGRAM = """
import sys
sys.modules["limen.rules.secrets"] = None  # importing it now raises ImportError, as a broken module would
import limen
decision = limen.evaluate("Bash", {"command": "ls -la"}, cwd=sys.argv[1], session_id="s")
print(decision.verdict.name)
"""


def test_a_decision_whose_rules_cannot_load_is_denied_and_recorded(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"LIMEN_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(tmp_path)], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "BLOCK"
    records = [json.loads(line) for line in (home / "audit" / "decisions.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in records if r.get("kind") == "decision"] == ["BLOCK"]
    assert "audit log write failed" not in done.stderr
