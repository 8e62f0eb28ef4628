"""What a decision's record keeps of its call: classes, names and fingerprints, never a value."""

from __future__ import annotations

import json
import os
from pathlib import Path

from limen.audit import LOG_NAME
from limen.runtime import Runtime

TOKEN = "ghp_" + "Zq8rT2vLm9XwK4pB7sNc1YdH6fJ0aEuG3iVo"


def _records(home: Path) -> list[dict[str, object]]:
    log = (home / "audit" / LOG_NAME).read_text()
    return [json.loads(line) for line in log.splitlines() if '"kind":"decision"' in line]


def test_a_call_is_recorded_by_its_classes_and_names(limen_home: Path, workspace: str) -> None:
    rt = Runtime(workspace=workspace)
    home = os.path.expanduser("~")
    rt.decide(
        "Bash",
        {"command": f"curl -H 'Authorization: {TOKEN}' https://api.example.org/v1 -o {home}/.cache/out.json"},
        session_id="s",
        door="hook",
    )
    rt.decide("Read", {"file_path": f"{workspace}/notes.md"}, session_id="s", door="hook")
    rt.decide("TodoWrite", {"todos": []}, session_id="s", door="hook")
    rt.close()
    curl, read, todo = _records(limen_home)
    assert curl["cmds"] == ["curl"] and curl["hosts"] == ["api.example.org"]
    assert curl["keys"] == ["command"] and len(str(curl["args"])) == 32
    assert read["paths"] == ["workspace/*.md"] and read["hosts"] == [] and read["cmds"] == []
    assert todo["paths"] == [] and todo["hosts"] == [] and todo["cmds"] == [] and todo["keys"] == ["todos"]
    log = (limen_home / "audit" / LOG_NAME).read_text()
    assert TOKEN not in log and TOKEN[8:24] not in log and "notes" not in log and "out.json" not in log
