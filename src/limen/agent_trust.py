"""Whether an agent will run the hooks Limen wrote, and the trust entries that make it run them.

Writing a hook into an agent's settings is not enough for two of them, and both fail silently:

- Gemini CLI ignores a project's `.gemini/settings.json`, hooks included, in a folder it does not trust.
  `~/.gemini/trustedFolders.json` (or `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`) maps a path to TRUST_FOLDER,
  TRUST_PARENT (trust its parent) or DO_NOT_TRUST; the longest matching rule wins, paths compared after
  resolving symlinks; `security.folderTrust.enabled: false` in the user's settings turns the check off
  (gemini-cli packages/cli/src/config/trustedFolders.ts).
- Codex runs a hook that is not managed only when its hash is recorded as trusted in the user's config.toml,
  `[hooks.state."<hooks.json path>:<event label>:<group index>:<handler index>"] trusted_hash = "sha256:…"`:
  SHA-256 over the compact, key-sorted JSON of the normalised hook (the event label, the matcher, and the
  handler with its effective timeout and `async`; fields that are not set left out). And it loads a
  project's `.codex` folder only when the project is trusted, `[projects."<path>"] trust_level =
  "trusted"` for that folder, else for its project root (the nearest `.git`) (codex-rs
  hooks/src/engine/discovery.rs, config/src/fingerprint.rs, the config loader's project trust).

`plan` computes what install writes for one agent and scope, and says what it cannot do and what the user
must do instead; `release` takes out again only what install added; `checks` reads the same state back as
the agent would, for `limen doctor`. A settings file that cannot be edited safely is never guessed at.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from limen import install_ledger as ledger
from limen.config_text import (
    JsonStyle,
    dump_json,
    json_style,
    parse_toml,
    toml_key,
    toml_string,
    toml_with,
    toml_without,
)

GEMINI_TRUSTED = ("TRUST_FOLDER", "TRUST_PARENT")
# Gemini CLI writes trustedFolders.json with JSON.stringify(config, null, 2): no final newline.
GEMINI_STYLE = JsonStyle(2, (",", ": "), "\n", False)
CODEX_DEFAULT_TIMEOUT = 600
CODEX_UNMATCHED_EVENTS = ("user_prompt_submit", "stop")  # Codex drops their matcher before hashing


@dataclass(frozen=True, slots=True)
class Edit:
    """One trust file as install or uninstall would write it."""

    path: str
    old: bytes | None
    new: bytes
    owner: str
    added: list[Any]  # [key path, value] pairs this install owns after the edit
    limen_free: bool  # `old` holds no entry any Limen install added
    new_mode: int = 0o600


@dataclass(frozen=True, slots=True)
class Plan:
    edits: list[Edit] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # why the agent will not run the hooks, what to do
    notes: list[str] = field(default_factory=list)  # where else it will not run them


def owner(agent: str, scope: str, workspace: str) -> str:
    return f"{agent}:{scope}" + (f":{os.path.realpath(workspace)}" if scope == "project" else "")


def _decoded(data: bytes | None, path: str) -> str:
    try:
        return "" if data is None else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 (byte {exc.start})") from None


def _json_object(path: str) -> tuple[bytes | None, str, dict[str, Any]]:
    data = ledger.read_bytes(path)
    text = _decoded(data, path)
    try:
        parsed = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"{path}: not a JSON object")
    return data, text, parsed


def _value_at(data: Any, path: list[str] | tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _limen_free(path: str, data: dict[str, Any]) -> bool:
    """No entry that any Limen install recorded as added is in the file now."""
    record = ledger.load(path)
    entries = [e for added in (record.owners.values() if record else ()) for e in added]
    return not any(_value_at(data, key) == value for key, value in entries)


# --- Gemini CLI -------------------------------------------------------------------------------------


def gemini_trust_file() -> str:
    override = os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    return override or os.path.join(os.path.expanduser("~"), ".gemini", "trustedFolders.json")


def gemini_folder_trust_enabled() -> bool:
    """Folder trust is on unless the user or the system settings turn it off."""
    for path in (
        os.path.join(os.path.expanduser("~"), ".gemini", "settings.json"),
        "/etc/gemini-cli/settings.json",
    ):
        try:
            _, _, settings = _json_object(path)
        except (OSError, ValueError):
            continue
        if _value_at(settings, ("security", "folderTrust", "enabled")) is False:
            return False
    return True


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def gemini_trust(workspace: str, rules: dict[str, Any]) -> tuple[str | None, str | None]:
    """(trust level, rule path) of the rule Gemini CLI applies to the folder: the longest that matches."""
    location = os.path.realpath(workspace)
    best: tuple[int, str, str] | None = None
    for rule, level in rules.items():
        if not isinstance(level, str):
            continue
        effective = os.path.realpath(os.path.dirname(rule) if level == "TRUST_PARENT" else rule)
        if _within(location, effective) and (best is None or len(rule) > best[0]):
            best = (len(rule), level, rule)
    return (best[1], best[2]) if best else (None, None)


def gemini_trust_state(workspace: str) -> tuple[bool | None, str]:
    """(does Gemini CLI trust the folder: True, False, or None when no rule decides, which it treats as
    untrusted; why), checked in Gemini CLI's order: its environment switches, the folder trust setting,
    then the rules."""
    if (
        os.environ.get("GEMINI_RESTRICTED_MODE") == "true"
        or os.environ.get("GEMINI_CLI_TRUST_WORKSPACE") == "false"
    ):
        return False, "GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false is set"
    if os.environ.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return True, "GEMINI_CLI_TRUST_WORKSPACE=true is set"
    if not gemini_folder_trust_enabled():
        return True, "folder trust is off in its settings"
    path = gemini_trust_file()
    try:
        _, _, rules = _json_object(path)
    except (OSError, ValueError) as exc:
        return False, f"it cannot read its trusted folders ({exc})"
    level, rule = gemini_trust(workspace, rules)
    if level is None:
        return None, f"no rule in {path} covers {os.path.realpath(workspace)}"
    return level in GEMINI_TRUSTED, f"{path} has {rule}: {level}"


def _gemini_plan(agent: str, scope: str, workspace: str) -> Plan:
    if scope != "project":
        note = (
            "Gemini CLI runs no hook, user hooks included, in a folder it does not trust: trust each "
            "project when it asks, or run `limen install gemini --project` there"
        )
        return Plan(notes=[note] if gemini_folder_trust_enabled() else [])
    if not gemini_folder_trust_enabled():
        return Plan()
    path = gemini_trust_file()
    folder = os.path.realpath(workspace)
    try:
        old, text, rules = _json_object(path)
    except (OSError, ValueError) as exc:
        return Plan(
            problems=[
                f"Gemini CLI ignores {folder}/.gemini/settings.json until it trusts the folder, and Limen "
                f"cannot add it to {path} ({exc}): trust the folder with /permissions in Gemini CLI"
            ]
        )
    level, rule = gemini_trust(workspace, rules)
    if level in GEMINI_TRUSTED:
        return Plan()
    if level == "DO_NOT_TRUST":
        return Plan(
            problems=[
                f"{path} marks {rule} DO_NOT_TRUST, so Gemini CLI ignores {folder}/.gemini/settings.json "
                f"and Limen's hooks in it: to protect this project, trust the folder (/permissions in Gemini "
                f"CLI) or install with --user"
            ]
        )
    style = json_style(text) if text.strip() else GEMINI_STYLE
    new = dump_json({**rules, folder: "TRUST_FOLDER"}, style).encode()
    added = [[[folder], "TRUST_FOLDER"]]
    note = f"Gemini CLI now trusts {folder}: it also loads the folder's .gemini settings and .env"
    edit = Edit(path, old, new, owner(agent, scope, workspace), added, _limen_free(path, rules))
    return Plan(edits=[edit], notes=[note])


def _gemini_removed(text: str, entries: list[Any]) -> str:
    rules = json.loads(text) if text.strip() else {}
    kept = {k: v for k, v in rules.items() if not any([k] == key and v == value for key, value in entries)}
    return text if kept == rules else dump_json(kept, json_style(text))


# --- Codex ------------------------------------------------------------------------------------------


def codex_home() -> str:
    """Codex's home: `$CODEX_HOME` resolved (as Codex canonicalises it), else `~/.codex` as it is."""
    override = os.environ.get("CODEX_HOME")
    return os.path.realpath(override) if override else os.path.join(os.path.expanduser("~"), ".codex")


def codex_config() -> str:
    return os.path.join(codex_home(), "config.toml")


def codex_label(event: str) -> str:
    """`PreToolUse` -> `pre_tool_use`: the event's name in Codex's trust keys and hashes."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def codex_hash(event: str, matcher: Any, handler: dict[str, Any]) -> str | None:
    """The `trusted_hash` Codex computes for one command handler (None for anything else: Codex skips it)."""
    command = handler.get("command")
    if handler.get("type") != "command" or not isinstance(command, str):
        return None
    label = codex_label(event)
    timeout = handler.get("timeout")
    if not isinstance(timeout, int) or isinstance(timeout, bool):
        timeout = CODEX_DEFAULT_TIMEOUT
    normalized: dict[str, Any] = {
        "type": "command",
        "command": command,
        "timeout": max(1, timeout),
        "async": handler.get("async") is True,
    }
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": label, "hooks": [normalized]}
    if isinstance(matcher, str) and label not in CODEX_UNMATCHED_EVENTS:
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def codex_hook_keys(config: dict[str, Any], hooks_path: str) -> list[tuple[str, str, str]]:
    """(event, state key, trusted hash) of each Limen handler in a Codex hooks.json."""
    from limen.install import is_limen_handler

    found = []
    hooks = config.get("hooks")
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for gi, group in enumerate(groups if isinstance(groups, list) else ()):
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hi, handler in enumerate(inner if isinstance(inner, list) else ()):
                hashed = (
                    codex_hash(event, group.get("matcher"), handler) if is_limen_handler(handler) else None
                )
                if hashed is not None:
                    found.append(
                        (event, f"{os.path.abspath(hooks_path)}:{codex_label(event)}:{gi}:{hi}", hashed)
                    )
    return found


def _project_root(folder: str, markers: Any) -> str:
    names = markers if isinstance(markers, list) and all(isinstance(m, str) for m in markers) else [".git"]
    if not names:
        return folder
    current = folder
    while True:
        if any(os.path.exists(os.path.join(current, name)) for name in names):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return folder
        current = parent


def codex_project_trust(settings: dict[str, Any], workspace: str) -> tuple[str | None, str]:
    """(trust level, key) Codex decides for the project's `.codex` folder: the folder's own entry, else its
    project root's; no entry is (None, the folder)."""
    folder = os.path.realpath(workspace)
    projects = settings.get("projects")
    for key in (folder, _project_root(folder, settings.get("project_root_markers"))):
        entry = projects.get(key) if isinstance(projects, dict) else None
        level = entry.get("trust_level") if isinstance(entry, dict) else None
        if level in ("trusted", "untrusted"):
            return level, key
    return None, folder


def _codex_off(settings: dict[str, Any]) -> str | None:
    features = settings.get("features")
    for name in ("hooks", "codex_hooks"):
        if isinstance(features, dict) and features.get(name) is False:
            return f"[features] {name} = false in {codex_config()} turns every Codex hook off"
    return None


def _toml_lines(values: dict[tuple[str, ...], str]) -> str:
    return "\n".join(
        f"  [{'.'.join(toml_key(k) for k in path[:-1])}] {toml_key(path[-1])} = {toml_string(value)}"
        for path, value in values.items()
    )


def _codex_plan(agent: str, scope: str, workspace: str, hooks_path: str, config: dict[str, Any]) -> Plan:
    path = codex_config()
    what = f"Limen's hooks in {hooks_path}"
    try:
        old = ledger.read_bytes(path)
        text = _decoded(old, path)
        settings = parse_toml(text, path)
    except (OSError, ValueError) as exc:
        return Plan(
            problems=[
                f"Codex skips {what} until they are trusted, and Limen cannot read {exc}: "
                f"open /hooks in Codex and trust them"
            ]
        )
    problems = [p for p in (_codex_off(settings),) if p]
    needed: dict[tuple[str, ...], str] = {}
    for event, key, hashed in codex_hook_keys(config, hooks_path):
        if _value_at(settings, ("hooks", "state", key, "enabled")) is False:
            problems.append(f"Codex has Limen's {event} hook disabled ({key}): enable it in /hooks")
        needed[("hooks", "state", key, "trusted_hash")] = hashed
    if scope == "project":
        level, key = codex_project_trust(settings, workspace)
        if level == "untrusted":
            problems.append(
                f"{path} marks {key} untrusted, so Codex ignores its .codex folder and {what}: mark it "
                f'trusted (trust_level = "trusted") to protect this project, or install with --user'
            )
        else:
            needed[("projects", key, "trust_level")] = "trusted"
    me = owner(agent, scope, workspace)
    record = ledger.load(path)
    previous = [(tuple(k), v) for k, v in (record.owners.get(me, []) if record else [])]
    wanted = {k: v for k, v in needed.items() if _value_at(settings, k) != v}
    stale = [k for k, v in previous if k not in needed and _value_at(settings, k) == v]
    if not wanted and not stale:
        return Plan(problems=problems)
    added = [[list(k), v] for k, v in previous if needed.get(k) == v] + [
        [list(k), v] for k, v in wanted.items()
    ]
    try:
        new = toml_without(text, stale, path) if stale else text
        new = toml_with(new, wanted, path) if wanted else new
    except ValueError as exc:
        problems.append(
            f"Codex skips {what} until it trusts them, and Limen cannot record that safely ({exc}): add\n"
            f"{_toml_lines(wanted)}\nto {path} yourself, or open /hooks in Codex and trust them"
        )
        return Plan(problems=problems)
    edit = Edit(path, old, new.encode(), me, added, _limen_free(path, settings))
    notes = [
        f"Codex now trusts {path[1]}: it also loads the project's .codex/config.toml and exec policies"
        for path in wanted
        if path[0] == "projects"
    ]
    return Plan(edits=[edit], problems=problems, notes=notes)


# --- what install and uninstall do ------------------------------------------------------------------


def plan(agent: str, scope: str, workspace: str, hooks_path: str, config: dict[str, Any]) -> Plan:
    """The trust edits that make the agent run the hooks in `config` (the hook file as install writes
    it), and the problems that keep it from running them."""
    if agent == "gemini":
        return _gemini_plan(agent, scope, workspace)
    if agent == "codex":
        return _codex_plan(agent, scope, workspace, hooks_path, config)
    return Plan()


def release(agent: str, scope: str, workspace: str) -> Plan:
    """The trust files as they are without what this install added (entries the user has changed since
    are theirs and stay)."""
    me = owner(agent, scope, workspace)
    edits, problems = [], []
    for path in (
        (gemini_trust_file(),) if agent == "gemini" else (codex_config(),) if agent == "codex" else ()
    ):
        record = ledger.load(path)
        entries = record.owners.get(me) if record else None
        if not entries:
            continue
        current = ledger.read_bytes(path)
        try:
            text = _decoded(current, path)
            if agent == "gemini":
                removed = _gemini_removed(text, entries)
            else:
                settings = parse_toml(text, path)
                ours = [tuple(k) for k, v in entries if _value_at(settings, k) == v]
                removed = toml_without(text, ours, path) if ours else text
        except ValueError as exc:
            problems.append(
                f"{path}: Limen could not take its trust entries out ({exc}); remove them yourself"
            )
            continue
        edits.append(Edit(path, current, removed.encode(), me, [], False))
    return Plan(edits=edits, problems=problems)


# --- what limen doctor reads back -------------------------------------------------------------------


def checks(
    agent: str, scope: str, workspace: str, hooks_path: str, config: dict[str, Any]
) -> list[tuple[bool, str]]:
    """Whether the agent will run the Limen hooks in this file, read the way the agent reads it."""
    if agent == "gemini":  # measured with gemini-cli 0.61.0 in a headless run
        trusted, why = gemini_trust_state(workspace)
        if trusted:
            return [(True, f"Gemini CLI trusts this folder: {why}")]
        if scope == "project":  # not even --skip-trust loads a project's hooks
            line = f"Gemini CLI ignores this project's hooks: it does not trust the folder ({why}); run "
            return [(False, line + "`limen install gemini --project`")]
        if trusted is None:
            line = (
                f"Gemini CLI has not been told to trust this folder ({why}): it runs no hook here until you "
            )
            return [(False, line + "trust it (with --skip-trust, user hooks only)")]
        return [(False, f"Gemini CLI runs no hook in this folder, which it does not trust ({why})")]
    if agent != "codex":
        return []
    path = codex_config()
    try:
        settings = parse_toml(_decoded(ledger.read_bytes(path), path), path)
    except (OSError, ValueError) as exc:
        return [(False, f"Codex cannot read {exc}, so no hook is trusted")]
    results = []
    if scope == "project":
        level, key = codex_project_trust(settings, workspace)
        results.append(
            (True, f"Codex trusts the project ({key} in {path})")
            if level == "trusted"
            else (
                False,
                f"Codex ignores this project's .codex folder: {key} is "
                f"{'marked untrusted' if level else 'not a trusted project'} in {path}",
            )
        )
    for event, key, hashed in codex_hook_keys(config, hooks_path):
        state = _value_at(settings, ("hooks", "state", key))
        state = state if isinstance(state, dict) else {}
        if state.get("enabled") is False:
            results.append((False, f"Codex has the {event} hook disabled ({key} in {path})"))
        elif state.get("trusted_hash") == hashed:
            results.append((True, f"Codex trusts the {event} hook (its hash is recorded in {path})"))
        else:
            seen = "a hash for another command" if state.get("trusted_hash") else "no trusted hash"
            results.append(
                (
                    False,
                    f"Codex skips the {event} hook: {path} holds {seen} for {key}; run `limen install "
                    f"codex{' --project' if scope == 'project' else ''}` or trust it in /hooks",
                )
            )
    return results


def gates(agent: str, workspace: str) -> list[tuple[bool, str]]:
    """Settings that switch every hook of the agent off, whatever its hook files say."""
    home = os.path.expanduser("~")
    if agent == "claude-code":
        files = [
            os.path.join(home, ".claude", "settings.json"),
            os.path.join(workspace, ".claude", "settings.json"),
            os.path.join(workspace, ".claude", "settings.local.json"),
        ]
        off = []
        for path in files:
            try:
                _, _, settings = _json_object(path)
            except (OSError, ValueError):
                continue
            if settings.get("disableAllHooks") is True:
                off.append(f"disableAllHooks is true in {path}: Claude Code runs no hook")
        managed = "/etc/claude-code/managed-settings.json"
        try:
            _, _, settings = _json_object(managed)
        except (OSError, ValueError):
            settings = {}
        if settings.get("allowManagedHooksOnly") is True:
            off.append(
                f"allowManagedHooksOnly is true in {managed}: Claude Code runs no user or project hook"
            )
        return [(False, line) for line in off]
    if agent == "gemini":
        off = []
        for path in (
            os.path.join(home, ".gemini", "settings.json"),
            os.path.join(workspace, ".gemini", "settings.json"),
        ):
            try:
                _, _, settings = _json_object(path)
            except (OSError, ValueError):
                continue
            for table in ("hooksConfig", "hooks"):
                if _value_at(settings, (table, "enabled")) is False:
                    off.append(f"{table}.enabled is false in {path}: Gemini CLI runs no hook")
                disabled = _value_at(settings, (table, "disabled"))
                if isinstance(disabled, list) and "limen" in disabled:
                    off.append(f'{table}.disabled lists "limen" in {path}: Gemini CLI skips Limen\'s hooks')
        return [(False, line) for line in off]
    if agent == "codex":
        try:
            settings = parse_toml(_decoded(ledger.read_bytes(codex_config()), codex_config()), codex_config())
        except (OSError, ValueError):
            return []
        switch = _codex_off(settings)
        return [(False, switch)] if switch else []
    return []
