"""Wiring `limen-hook` into each coding agent's hook configuration, and its MCP servers through `limen mcp`.

Existing settings are merged, never clobbered: Limen's own handlers (recognised by their `limen-hook`
command) are replaced, everything else is kept in place, in the file's own JSON style. A file that does not
parse is refused rather than rewritten. The timeout written leaves the hook's own deadline (5 s by default)
room to answer deny first.

A missing or broken Limen denies. Claude Code, Codex and Gemini CLI treat every exit code but 2 (and 0
with a deny) as a non-blocking error, so a bare `limen-hook` command would let every call through once
`pip uninstall limen` removed it (exit 127) or an import error or crash ended it (exit 1). Their command
runs `limen-hook` under a small `/bin/sh` guard (`GUARD`), the same whatever shell the agent starts it
with (Claude Code `sh -c`, Gemini CLI `bash -c`, Codex `$SHELL -lc`): the hook's own answers (exit 0 or 2)
pass through as they are, anything else becomes exit 2 with the reason on stderr and nothing on stdout,
which each of them takes as a block. Cursor fails closed by its own `failClosed: true`.

A hook in a settings file is not yet a hook the agent runs: Gemini CLI ignores project settings in a folder
it does not trust, and Codex skips every hook whose hash it has not recorded as trusted. Install records
that trust the way each agent reads it (`agent_trust`), or says what keeps the hooks from running and what
the user must do.

Every file install writes is recorded first (`install_ledger`): uninstall gives it back byte for byte when
nothing else changed it since, and otherwise removes only Limen's entries, keeping the file's formatting.

MCP server files are edited in place: only the text of each server entry is replaced (in the style it was
written in), so every other byte of the file stays as it was.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Any

from limen import agent_trust
from limen import install_ledger as ledger
from limen.config_text import dump_json, json_style

AGENTS = ("claude-code", "cursor", "gemini", "codex")
TIMEOUT_SECONDS = 10
HOOKS_OWNER = "hooks"
MCP_OWNER = "mcp"


@dataclass(frozen=True, slots=True)
class Target:
    """One agent's hook file: where it lives and which events Limen answers."""

    agent: str
    relative_path: tuple[str, ...]
    events: tuple[str, ...]
    tool_events: tuple[str, ...] = ()  # events whose matcher group is written as "*"

    def path(self, scope: str, workspace: str) -> str:
        if scope == "user" and self.agent == "codex":  # Codex reads $CODEX_HOME, not always ~/.codex
            return os.path.join(agent_trust.codex_home(), *self.relative_path[1:])
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


# `sh -c GUARD limen-hook <executable> <agent>`: run the hook (`"$@"`). Its own answers (exit 0 or 2) pass
# through, its stdout kept whole; any other end (127 not found, 126 not executable, 1 an import error or a
# crash, 128+n a signal) is exit 2 with the reason on stderr and an empty stdout (a half-written answer
# could read as "allow"). Written for any shell the agent may run it in: no single quote, no backslash but
# printf's `\n` (which fish's single quotes keep as it is), none of the `$GEMINI_*` names Gemini CLI expands.
GUARD = (
    'o=$("$@"); c=$?; case $c in 0|2) [ -z "$o" ] || printf "%s\\n" "$o"; exit $c;; esac; '
    'echo "Limen is missing or broken ($1 exited $c): this call is denied, as is every call until '
    'the user repairs Limen (limen doctor says what is wrong)" >&2; exit 2'
)
GUARD_SHELL = "/bin/sh"
GUARD_NAME = "limen-hook"  # the guard's $0
GUARDED = ("claude-code", "codex", "gemini")  # Cursor's own `failClosed: true` blocks on any failure


def hook_command(agent: str, executable: str | None = None) -> str:
    hook = f"{shlex.quote(executable or hook_executable())} {agent}"
    if agent not in GUARDED:
        return hook
    return f"{GUARD_SHELL} -c {shlex.quote(GUARD)} {GUARD_NAME} {hook}"


def hook_words(command: str) -> list[str] | None:
    """The words that run Limen's hook in a command line Limen wrote, e.g. `["/venv/bin/limen-hook",
    "codex"]` (or `[".../limen", "hook", "codex"]`), whether guarded or not; None for any other command."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) > 4 and words[1] == "-c" and words[3] == GUARD_NAME:
        if os.path.basename(words[0]) not in ("sh", "bash", "dash"):
            return None
        words = words[4:]
    name = os.path.basename(words[0]) if words else ""
    if name == "limen-hook" or (name == "limen" and words[1:2] == ["hook"]):
        return words
    return None


def is_limen_handler(handler: Any) -> bool:
    """A handler Limen wrote: its command runs `limen-hook` (or `limen hook`), guarded or not."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    return hook_words(handler["command"]) is not None


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


def without_limen(
    config: dict[str, Any], target: Target, original: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The configuration with every Limen handler removed. What install added around them goes too, as
    far as `original` (the file before install; None when unknown) tells: an event list or the `hooks`
    object left empty, Cursor's `version`; whatever the original already had stays."""
    config = json.loads(json.dumps(config))
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return config
    had = original.get("hooks") if original is not None else None
    had_hooks = had if isinstance(had, dict) else {}
    for event in list(hooks):
        entries = hooks[event]
        if isinstance(entries, list):
            entries = _strip(entries, target.agent != "cursor")
            if entries or event in had_hooks:
                hooks[event] = entries
            else:
                del hooks[event]
    if not hooks and not isinstance(had, dict):
        del config["hooks"]
    added_version = original is not None and "version" not in original and config.get("version") == 1
    if target.agent == "cursor" and added_version:
        del config["version"]
    return config


def has_limen(config: dict[str, Any], target: Target) -> bool:
    return without_limen(config, target, config) != config


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


def diff(path: str, old: str, new: str, context: int = 3) -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path, n=context))


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", errors="replace")


@dataclass(frozen=True, slots=True)
class Written:
    """One file install or uninstall changed (or would change, in a dry run)."""

    path: str
    diff: str
    how: str = ""  # uninstall: restored, deleted, changed, removed (see install_ledger.release)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `limen install|uninstall <agent>` did, and what keeps the agent from running the hooks."""

    files: tuple[Written, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()


def change(agent: str, scope: str, workspace: str, *, remove: bool, dry_run: bool) -> Outcome:
    """Install or remove Limen's hooks for one agent, and the trust entries that make the agent run them.
    Trust files are shown without context lines: around them may sit the user's secrets."""
    target = TARGETS[agent]
    path = target.path(scope, workspace)
    old_bytes = ledger.read_bytes(path)
    old, config = read_config(path)
    if remove:
        return _uninstall(agent, scope, workspace, path, old_bytes, config, dry_run=dry_run)
    updated = with_limen(config, target, hook_command(agent))
    plan = agent_trust.plan(agent, scope, workspace, path, updated)  # computed before anything is written
    edits = list(plan.edits)
    if updated != config:
        new = dump_json(updated, json_style(old)).encode()
        edits.insert(
            0, agent_trust.Edit(path, old_bytes, new, HOOKS_OWNER, [], not has_limen(config, target), 0o644)
        )
    files = []
    for edit in edits:
        context = 3 if edit.path == path else 0
        files.append(Written(edit.path, diff(edit.path, _text(edit.old), edit.new.decode(), context)))
        if not dry_run:
            ledger.write(
                edit.path,
                edit.old,
                edit.new,
                edit.owner,
                edit.added,
                limen_free=edit.limen_free,
                new_mode=edit.new_mode,
            )
    return Outcome(tuple(files), tuple(plan.problems), tuple(plan.notes))


def _original_config(record: ledger.Record | None) -> dict[str, Any] | None:
    if record is None:
        return None
    try:
        parsed = json.loads(record.original) if record.original and record.original.strip() else {}
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _uninstall(
    agent: str,
    scope: str,
    workspace: str,
    path: str,
    old_bytes: bytes | None,
    config: dict[str, Any],
    *,
    dry_run: bool,
) -> Outcome:
    """Limen's hooks out of the file, and the trust entries this install added out of the agent's trust
    files: each file back to its bytes from before install when the ledger allows, else only Limen's part
    removed."""
    target = TARGETS[agent]
    record = ledger.load(path)
    releases: list[tuple[str, str, bytes | None, bytes, int]] = []
    if old_bytes is not None and (record is not None or has_limen(config, target)):
        old = _text(old_bytes)
        removed = without_limen(config, target, _original_config(record))
        new = old if removed == config else dump_json(removed, json_style(old))
        releases.append((path, HOOKS_OWNER, old_bytes, new.encode(), 3))
    plan = agent_trust.release(agent, scope, workspace)
    releases.extend((e.path, e.owner, e.old, e.new, 0) for e in plan.edits)
    files = []
    for file, owner, current, removed_bytes, context in releases:
        how, final = ledger.release_outcome(file, owner, current, removed_bytes)
        if final != current:
            files.append(Written(file, diff(file, _text(current), _text(final), context), how))
        if not dry_run:
            ledger.release(file, owner, current, removed_bytes)
    return Outcome(tuple(files), tuple(plan.problems))


@dataclass(frozen=True, slots=True)
class Wired:
    """One Limen handler as the agent reads it from one settings file."""

    event: str
    group: int  # index in the event's list
    index: int  # index in the group's handlers (0 for Cursor's flat lists)
    matcher: Any  # None when the group has none
    handler: dict[str, Any]


def settings_files(agent: str, workspace: str) -> list[tuple[str, str]]:
    """(scope, path) of every file the agent reads hooks from, in which Limen may be wired."""
    target = TARGETS[agent]
    files = [("user", target.path("user", workspace)), ("project", target.path("project", workspace))]
    if agent == "claude-code":
        files.append(("local", os.path.join(workspace, ".claude", "settings.local.json")))
    return files


def wired(agent: str, config: dict[str, Any]) -> list[Wired]:
    """Every Limen handler in one parsed settings file, where the agent finds it."""
    found = []
    hooks = config.get("hooks")
    for event, entries in hooks.items() if isinstance(hooks, dict) else ():
        for gi, entry in enumerate(entries if isinstance(entries, list) else ()):
            grouped = agent != "cursor" and isinstance(entry, dict) and "hooks" in entry
            inner = entry.get("hooks") if grouped else [entry]
            matcher = entry.get("matcher") if isinstance(entry, dict) else None
            for hi, h in enumerate(inner if isinstance(inner, list) else ()):
                if is_limen_handler(h):
                    found.append(Wired(event, gi, hi, matcher, h))
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
    how: str = ""  # uninstall: restored (the bytes from before install) or changed (only entries unwrapped)


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
    old_bytes, how, final = old.encode(), "", new
    if remove:  # the bytes from before install when nothing else changed the file since
        how, restored = ledger.release_outcome(path, MCP_OWNER, old_bytes, new.encode())
        final = _text(restored)
    if not dry_run:
        if read_config(path)[0] != old:  # the agent rewrote it meanwhile (Claude Code often does)
            raise ValueError(f"{path} changed while Limen was editing it: run the command again")
        if remove:
            ledger.release(path, MCP_OWNER, old_bytes, new.encode())
        else:
            free = not any(_is_wrapped_span(old, span) for _, _, span in server_spans(old, per_project))
            ledger.write(path, old_bytes, new.encode(), MCP_OWNER, [], limen_free=free)
    shown = _hidden(diff(path, old, final), pairs)
    return McpChange(path, shown, tuple(changed), tuple(skipped), servers, how)


def _is_wrapped_span(text: str, span: tuple[int, int]) -> bool:
    from limen.doors.mcp.install import is_wrapped

    entry = json.loads(text[span[0] : span[1]])
    return isinstance(entry, dict) and is_wrapped(entry)
