"""OpenTelemetry from `limen serve`: one span per decision with its stages as events and reason codes as
attributes, metrics by verdict and reason, and no argument value anywhere. The app runs in a process of its
own (telemetry_probe.py), since OpenTelemetry's providers are global to a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="opentelemetry-sdk is in the dev extra")

PROBE = Path(__file__).with_name("telemetry_probe.py")


def test_a_decision_is_one_span_with_its_stages_and_counted(
    workspace: str, tmp_path: Path, limen_home: Path
) -> None:
    done = subprocess.run(
        [sys.executable, str(PROBE), workspace, str(tmp_path)],
        env={**os.environ, "LIMEN_HOME": str(limen_home)},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    exported = json.loads(done.stdout)
    decision = exported["decision"]
    assert exported["status"] == 200 and decision["verdict"] == "BLOCK"
    span = next(s for s in exported["spans"] if s["name"] == "limen.decision")
    attributes = span["attributes"]
    assert attributes["limen.verdict"] == "BLOCK" and "destructive_command" in attributes["limen.reasons"]
    assert attributes["limen.agent"] == "agent-a" and attributes["limen.capability"] == "shell.execute"
    assert [e["name"] for e in span["events"]] == [stage["stage"] for stage in decision["evidence"]]
    assert span["events"]  # the stages that ran (a BLOCK by a rule may end the path early)
    everything = json.dumps([exported["spans"], exported["points"]])
    assert "s3cr3t" not in everything and "rm -rf" not in everything
    points = {(p["name"], tuple(sorted(p["attributes"].items()))): p["value"] for p in exported["points"]}
    assert points[("limen.decisions", (("kind", "decision"), ("verdict", "BLOCK")))] == 1
    assert points[("limen.reasons", (("reason", "destructive_command"),))] == 1
    assert ("limen.approvals.pending", ()) in points
