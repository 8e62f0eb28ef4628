"""Running `limen` the way a user does, in a temporary home, for the install, uninstall and doctor tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from limen.install import TARGETS

BIN = Path(sys.executable).parent
HOOK, LIMEN = BIN / "limen-hook", BIN / "limen"


def limen(
    home: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`limen <args>` from `<home>/proj` (or `cwd`) with `home` as HOME, nothing of the runner's agent
    setup inherited."""
    variables = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "LIMEN_HOME": str(home / ".limen"),
        "LIMEN_HOOK_DAEMON": "0",
        **(env or {}),
    }
    return subprocess.run(
        [str(LIMEN), *args],
        capture_output=True,
        text=True,
        env=variables,
        cwd=cwd or home / "proj",
        timeout=60,
    )


def settings(home: Path, agent: str, scope: str = "user") -> Path:
    base = home if scope == "user" else home / "proj"
    return base.joinpath(*TARGETS[agent].relative_path)


def limen_handlers(config: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for entries in config.get("hooks", {}).values():
        for entry in entries:
            for handler in entry.get("hooks", [entry]):
                if "limen-hook" in handler.get("command", ""):
                    found.append(handler)
    return found


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
