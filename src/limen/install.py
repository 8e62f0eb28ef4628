"""Wiring `limen-hook` into each coding agent's hook configuration, and its MCP servers through `limen mcp`.

Existing settings are merged, never clobbered: Limen's own handlers (recognised by their `limen-hook`
command) are replaced, everything else is kept in place. A file that does not parse is refused rather than
rewritten. The timeout written leaves the hook's own deadline (5 s by default) room to answer deny first.

MCP server files are edited in place: only the text of each server entry is replaced (in the style it was
written in), so every other byte of the file stays as it was and uninstalling gives the original back.
"""

from __future__ import annotations

import difflib
import json
import os
import re
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


def console_script(name: str) -> str:
    """The absolute path of Limen's `name` script next to this interpreter (the venv's), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    if os.access(beside, os.X_OK):
        return os.path.abspath(beside)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed")
    return os.path.abspath(found)


def hook_executable() -> str:
    return console_script("limen-hook")


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
    """(text, parsed); a missing file is empty. Raises ValueError, naming the file and the line, for a
    file that is not a JSON object (the offending text is not quoted: it may hold a credential)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:  # line endings as they are
            text = handle.read()
    except FileNotFoundError:
        return "", {}
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 (byte {exc.start})") from None
    try:
        config = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(config, dict):
        raise ValueError(f"{path}: not a JSON object")
    return text, config


def render(config: dict[str, Any]) -> str:
    return json.dumps(config, indent=2, ensure_ascii=False) + "\n"


def diff(path: str, old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path))


def write_atomically(path: str, text: str) -> None:
    """Replace the file in one step (on disk before it is renamed), keeping its permissions; a symlinked
    file (a dotfiles checkout) has its target replaced and stays a link."""
    path = os.path.realpath(path)
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".limen-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
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


# --- MCP servers: each entry rewritten to run through `limen mcp`, and back ---------------------------

MCP_AGENTS = ("claude-code", "cursor", "claude-desktop")
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# (indent, separators) in which agents and people write JSON; an entry is re-rendered in the one it used.
_STYLES: tuple[tuple[int | str | None, tuple[str, str]], ...] = (
    (2, (",", ": ")),
    (4, (",", ": ")),
    ("\t", (",", ": ")),
    (None, (", ", ": ")),
    (None, (",", ":")),
)


def claude_desktop_config(home: str, platform: str = sys.platform) -> str:
    if platform == "darwin":
        return os.path.join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
    return os.path.join(home, ".config", "Claude", "claude_desktop_config.json")


def mcp_config_path(agent: str, scope: str, workspace: str) -> str:
    """The file that holds the agent's MCP servers in this scope (Claude Code's user file also holds
    each project's local-scope servers)."""
    home = os.path.expanduser("~")
    if agent == "claude-desktop":
        if scope == "project":
            raise ValueError("Claude Desktop has no project MCP file: use --user")
        return claude_desktop_config(home)
    if agent == "cursor":
        return os.path.join(home if scope == "user" else workspace, ".cursor", "mcp.json")
    return os.path.join(home, ".claude.json") if scope == "user" else os.path.join(workspace, ".mcp.json")


def _skip(text: str, i: int) -> int:
    """The index of the first non-whitespace character at or after `i`."""
    return _WS.match(text, i).end()  # type: ignore[union-attr]  # the pattern matches the empty string


def _members(text: str, start: int) -> dict[str, tuple[int, int]]:
    """The span of each member's value in the JSON object at `text[start]` (text already parsed once)."""
    spans: dict[str, tuple[int, int]] = {}
    i = _skip(text, start + 1)
    while text[i] != "}":
        key, i = _DECODER.raw_decode(text, i)
        begin = _skip(text, _skip(text, i) + 1)  # past the colon
        _, end = _DECODER.raw_decode(text, begin)
        spans[key] = (begin, end)  # the last of duplicate keys wins, as in every JSON parser here
        i = _skip(text, end)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return spans


def _objects(text: str, span: tuple[int, int] | None) -> dict[str, tuple[int, int]]:
    return _members(text, span[0]) if span is not None and text[span[0]] == "{" else {}


def server_spans(text: str, per_project: bool) -> list[tuple[str, str, tuple[int, int]]]:
    """(server key, label, span) of every MCP server entry: the top-level `mcpServers`, and with
    `per_project` each `projects.<path>.mcpServers` (Claude Code's local scope)."""
    top = _members(text, _skip(text, 0))
    found = [(key, key, span) for key, span in _objects(text, top.get("mcpServers")).items()]
    if per_project:
        for project, span in _objects(text, top.get("projects")).items():
            servers = _objects(text, _objects(text, span).get("mcpServers"))
            found.extend((key, f"{key} ({project})", entry) for key, entry in servers.items())
    return found


def _render_like(value: Any, old_value: Any, old_text: str, prefix: str, newline: str) -> str:
    """`value` as JSON in the style `old_text` (the text of `old_value`) was written in."""

    def dump(obj: Any, style: tuple[int | str | None, tuple[str, str]]) -> str:
        rendered = json.dumps(obj, indent=style[0], separators=style[1], ensure_ascii=False)
        return rendered.replace("\n", newline + prefix)

    default = _STYLES[0] if "\n" in old_text else _STYLES[3]
    style = next((s for s in _STYLES if dump(old_value, s) == old_text), default)
    return dump(value, style)


def _ordered(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """`new` with its keys in `old`'s order; the keys `new` adds take the place of the first key it drops
    (so wrapping and unwrapping keep each entry's key order, and the file's bytes, as they were)."""
    keys = [k for k in old if k in new]
    added = [k for k in new if k not in old]
    dropped = next((i for i, k in enumerate(old) if k not in new), None)
    if dropped is None:
        keys += added
    else:
        at = sum(1 for k in list(old)[:dropped] if k in new)
        keys[at:at] = added
    return {k: new[k] for k in keys}


def wrapped_entry(entry: dict[str, Any], name: str, limen: str) -> dict[str, Any]:
    """The entry run through `limen mcp --name <name>`; an entry already wrapped gets today's `limen`."""
    from limen.doors.mcp.install import HEADERS_ENV, is_wrapped, wrap_server_entry

    if is_wrapped(entry):
        return {**entry, "command": limen}
    new = wrap_server_entry(entry, name=name, limen=limen)
    headers = entry.get("headers")
    if "url" in entry and isinstance(new.get("env"), dict) and HEADERS_ENV in new["env"]:
        new["env"] = {**new["env"], HEADERS_ENV: json.dumps(headers)}  # the user's order, for unwrapping
    return _ordered(new, entry)


def unwrapped_entry(entry: dict[str, Any]) -> dict[str, Any]:
    from limen.doors.mcp.install import unwrap_server_entry

    return _ordered(unwrap_server_entry(entry), entry)


@dataclass(frozen=True, slots=True)
class McpChange:
    """What `limen install|uninstall --mcp` did to one file."""

    path: str
    diff: str  # unified diff, with env and header values hidden; empty when nothing changed
    changed: tuple[str, ...]  # server labels rewritten
    skipped: tuple[str, ...]  # servers `limen mcp` cannot front (sse, ws, headersHelper), left as they are
    servers: int  # entries found in the file


def rewrite_servers(
    text: str, per_project: bool, *, remove: bool, limen: str
) -> tuple[str, list[str], list[str], list[tuple[dict[str, Any], dict[str, Any]]]]:
    """(new text, changed labels, skipped labels, (old, new) entries): each entry's text replaced in place."""
    from limen.doors.mcp.install import is_wrapped

    newline = "\r\n" if "\r\n" in text else "\n"
    edits: list[tuple[int, int, str]] = []
    changed: list[str] = []
    skipped: list[str] = []
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for key, label, (begin, end) in server_spans(text, per_project):
        entry = json.loads(text[begin:end])
        new = entry
        if isinstance(entry, dict):
            new = unwrapped_entry(entry) if remove else wrapped_entry(entry, key, limen)
        if not remove and not (isinstance(new, dict) and is_wrapped(new)):
            skipped.append(label)
            continue
        if new is entry or (new == entry and list(new) == list(entry)):
            continue
        line_start = text.rfind("\n", 0, begin) + 1
        head = text[line_start:begin]
        prefix = head[: len(head) - len(head.lstrip(" \t"))]  # the indentation of the entry's line
        edits.append((begin, end, _render_like(new, entry, text[begin:end], prefix, newline)))
        changed.append(label)
        pairs.append((entry, new))
    for begin, end, replacement in reversed(edits):
        text = text[:begin] + replacement + text[end:]
    return text, changed, skipped, pairs


def _hidden(diff_text: str, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> str:
    """The diff with every env and header value of the changed entries replaced by `***` (they often
    hold tokens, and a dry run's output may land in a log or an agent's context)."""
    from limen.doors.mcp.install import TYPE_ENV

    values: set[str] = set()
    for entry in (e for pair in pairs for e in pair):
        for table in (entry.get("env"), entry.get("headers")):
            for key, value in table.items() if isinstance(table, dict) else ():
                if isinstance(value, str) and value and key != TYPE_ENV:
                    values.add(json.dumps(value, ensure_ascii=False)[1:-1])
                    values.add(json.dumps(value)[1:-1])
                    values.add(json.dumps(json.dumps(value)[1:-1])[1:-1])  # inside LIMEN_MCP_HEADERS
    lines = []
    for line in diff_text.splitlines(True):
        if line[:1] in " +-" and not line.startswith(("+++ ", "--- ")):
            for value in sorted(values, key=len, reverse=True):
                line = line.replace(value, "***")
        lines.append(line)
    return "".join(lines)


def change_mcp(
    agent: str, scope: str, workspace: str, *, remove: bool, dry_run: bool, limen: str | None = None
) -> McpChange:
    """Wrap (or unwrap) every MCP server entry in the agent's file for this scope."""
    path = mcp_config_path(agent, scope, workspace)
    old, _ = read_config(path)
    if not old.strip():
        return McpChange(path, "", (), (), 0)
    per_project = agent == "claude-code" and scope == "user"
    new, changed, skipped, pairs = rewrite_servers(
        old, per_project, remove=remove, limen="" if remove else (limen or console_script("limen"))
    )
    servers = len(server_spans(old, per_project))
    if new == old:
        return McpChange(path, "", (), tuple(skipped), servers)
    json.loads(new)  # never write a file the agent could not read
    if not dry_run:
        if read_config(path)[0] != old:  # the agent rewrote it meanwhile (Claude Code often does)
            raise ValueError(f"{path} changed while Limen was editing it: run the command again")
        write_atomically(path, new)
    return McpChange(path, _hidden(diff(path, old, new), pairs), tuple(changed), tuple(skipped), servers)
