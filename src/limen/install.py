"""Wiring `limen-hook` into each coding agent's hook configuration, and taking it out again.

Existing settings are merged, never clobbered: Limen's own handlers (recognised by their `limen-hook`
command) are replaced, everything else is kept in place. A file that does not parse is refused rather than
rewritten. The timeout written leaves the hook's own deadline (5 s by default) room to answer deny first.
"""

from __future__ import annotations

import difflib
import json
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

AGENTS = ("claude-code", "cursor", "gemini", "codex")
TIMEOUT_SECONDS = 10


@dataclass(frozen=True, slots=True)
class Target:
    """One agent's hook file: where it lives and which events Limen answers."""

    agent: str
    relative_path: tuple[str, ...]
    events: tuple[str, ...]
    tool_events: tuple[str, ...] = ()  # events whose matcher group is written as "*"

    def path(self, scope: str, workspace: str) -> str:
        base = os.path.expanduser("~") if scope == "user" else workspace
        return os.path.join(base, *self.relative_path)


TARGETS = {
    "claude-code": Target(
        "claude-code",
        (".claude", "settings.json"),
        ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"),
        ("PreToolUse", "PostToolUse"),
    ),
    "codex": Target(
        "codex", (".codex", "hooks.json"), ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart")
    ),
    "gemini": Target(
        "gemini", (".gemini", "settings.json"), ("BeforeTool", "AfterTool", "BeforeAgent", "SessionStart")
    ),
    "cursor": Target(
        "cursor",
        (".cursor", "hooks.json"),
        (
            "preToolUse",
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
            "beforeSubmitPrompt",
            "sessionStart",
        ),
    ),
}


def hook_executable() -> str:
    """The absolute path of the `limen-hook` next to this interpreter (the venv's), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "limen-hook")
    if os.access(beside, os.X_OK):
        return os.path.abspath(beside)
    found = shutil.which("limen-hook")
    if found is None:
        raise FileNotFoundError("limen-hook is not installed")
    return os.path.abspath(found)


def hook_command(agent: str, executable: str | None = None) -> str:
    return f"{shlex.quote(executable or hook_executable())} {agent}"


def is_limen_handler(handler: Any) -> bool:
    """A handler Limen wrote: its command runs `limen-hook` (or `limen hook`)."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    try:
        words = shlex.split(handler["command"])
    except ValueError:
        return False
    name = os.path.basename(words[0]) if words else ""
    return name == "limen-hook" or (name == "limen" and words[1:2] == ["hook"])


def handler(agent: str, command: str) -> dict[str, Any]:
    if agent == "cursor":
        return {"command": command, "timeout": TIMEOUT_SECONDS, "failClosed": True}
    timeout = TIMEOUT_SECONDS * 1000 if agent == "gemini" else TIMEOUT_SECONDS  # Gemini counts milliseconds
    entry: dict[str, Any] = {"type": "command", "command": command, "timeout": timeout}
    if agent == "gemini":
        entry["name"] = "limen"
    return entry


def _strip(entries: list[Any], grouped: bool) -> list[Any]:
    """The entries of one event without Limen's handlers (groups left empty by that are dropped)."""
    if not grouped:
        return [e for e in entries if not is_limen_handler(e)]
    kept = []
    for group in entries:
        inner = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(inner, list):
            kept.append(group)
            continue
        rest = [h for h in inner if not is_limen_handler(h)]
        if rest or len(rest) == len(inner):
            kept.append({**group, "hooks": rest})
    return kept


def _hooks_of(config: dict[str, Any]) -> dict[str, Any]:
    hooks = config.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError('"hooks" is not an object')
    return hooks


def with_limen(config: dict[str, Any], target: Target, command: str) -> dict[str, Any]:
    """The configuration with Limen's handlers on every event it answers (a pure function of its input)."""
    config = json.loads(json.dumps(config))
    grouped = target.agent != "cursor"
    if not grouped:
        config.setdefault("version", 1)
    hooks = _hooks_of(config)
    for event in target.events:
        entries = hooks.get(event, [])
        if not isinstance(entries, list):
            raise ValueError(f'"hooks.{event}" is not a list')
        entries = _strip(entries, grouped)
        entry = handler(target.agent, command)
        if grouped:
            group: dict[str, Any] = {"matcher": "*"} if event in target.tool_events else {}
            entries.append({**group, "hooks": [entry]})
        else:
            entries.append(entry)
        hooks[event] = entries
    return config


def without_limen(config: dict[str, Any], target: Target) -> dict[str, Any]:
    """The configuration with every Limen handler removed; events left empty are dropped."""
    config = json.loads(json.dumps(config))
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return config
    for event in list(hooks):
        entries = hooks[event]
        if isinstance(entries, list):
            entries = _strip(entries, target.agent != "cursor")
            if entries:
                hooks[event] = entries
            else:
                del hooks[event]
    if not hooks:
        del config["hooks"]
    return config


def read_config(path: str) -> tuple[str, dict[str, Any]]:
    """(text, parsed); a missing file is empty. Raises ValueError for a file that is not a JSON object."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return "", {}
    config = json.loads(text) if text.strip() else {}
    if not isinstance(config, dict):
        raise ValueError("not a JSON object")
    return text, config


def render(config: dict[str, Any]) -> str:
    return json.dumps(config, indent=2, ensure_ascii=False) + "\n"


def diff(path: str, old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path))


def write_atomically(path: str, text: str) -> None:
    """Replace the file in one step, keeping its permissions."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".limen-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def change(agent: str, scope: str, workspace: str, *, remove: bool, dry_run: bool) -> tuple[str, str]:
    """Install or remove Limen's hooks for one agent: (path, unified diff; empty when nothing changes)."""
    target = TARGETS[agent]
    path = target.path(scope, workspace)
    old, config = read_config(path)
    updated = without_limen(config, target) if remove else with_limen(config, target, hook_command(agent))
    new = render(updated)
    if new == old or (remove and not old):
        return path, ""
    if not dry_run:
        write_atomically(path, new)
    return path, diff(path, old, new)


def installed_handlers(agent: str, workspace: str) -> dict[tuple[str, str], list[float | None]]:
    """(config path, command) -> the timeout of each Limen handler with that command, in milliseconds
    (None: the agent's default), across the agent's user and project files."""
    target = TARGETS[agent]
    found: dict[tuple[str, str], list[float | None]] = {}
    for scope in ("user", "project"):
        path = target.path(scope, workspace)
        try:
            _, config = read_config(path)
        except (OSError, ValueError):
            continue
        hooks = config.get("hooks")
        for entries in hooks.values() if isinstance(hooks, dict) else ():
            for entry in entries if isinstance(entries, list) else ():
                inner = entry.get("hooks") if isinstance(entry, dict) and "hooks" in entry else [entry]
                for h in inner if isinstance(inner, list) else ():
                    if is_limen_handler(h):
                        found.setdefault((path, h["command"]), []).append(timeout_ms(agent, h))
    return found


def timeout_ms(agent: str, entry: dict[str, Any]) -> float | None:
    value = entry.get("timeout")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    return float(value) if agent == "gemini" else float(value) * 1000
