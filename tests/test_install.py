"""`limen install|uninstall` against real settings files in a temporary home, through the CLI.

Two promises are tested here: install wires hooks the agent will actually run (Codex's recorded trust,
Gemini CLI's trusted folders), and uninstall gives back every file it wrote byte for byte when nothing else
changed it since, or removes only Limen's entries, in the file's own formatting, when something did.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from install_helpers import HOOK, limen, limen_handlers, settings, write
from limen import __version__ as LIMEN_VERSION
from limen.agent_trust import codex_hash
from limen.cli.doctor import agent_shell, blocks
from limen.config_text import JsonStyle, dump_json, json_style
from limen.context import default_protected_paths
from limen.context import limen_home as engine_limen_home
from limen.doors.hooks import client, wire
from limen.install import AGENTS, GUARDED, TARGETS, TIMEOUT_SECONDS, change, hook_command, is_limen_handler

EXISTING: dict[str, dict[str, Any]] = {
    "claude-code": {
        "model": "opus",
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/guard.sh"}]}
            ]
        },
    },
    "codex": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}},
    "gemini": {
        "theme": "dark",
        "hooks": {
            "BeforeTool": [
                {"matcher": "write_file", "hooks": [{"type": "command", "command": "lint", "timeout": 3000}]}
            ]
        },
    },
    "cursor": {"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}},
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    return tmp_path


@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_install_merges_is_idempotent_and_uninstall_restores_the_bytes(agent: str, home: Path) -> None:
    path = write(settings(home, agent), json.dumps(EXISTING[agent]).encode())
    original = path.read_bytes()
    assert limen(home, "install", agent).returncode == 0
    config = json.loads(path.read_text())
    for key, value in EXISTING[agent].items():
        if key != "hooks":
            assert config[key] == value
    for event, entries in EXISTING[agent]["hooks"].items():
        assert config["hooks"][event][: len(entries)] == entries  # the user's own hooks are kept, first
    handlers = limen_handlers(config)
    assert len(handlers) == len(TARGETS[agent].events)  # one per event Limen answers
    assert {h["command"] for h in handlers} == {hook_command(agent, str(HOOK))}  # the installed hook's path
    expected_timeout = TIMEOUT_SECONDS * 1000 if agent == "gemini" else TIMEOUT_SECONDS
    assert {h["timeout"] for h in handlers} == {expected_timeout}
    if agent == "cursor":
        assert all(h["failClosed"] is True for h in handlers)
    assert "\n" not in path.read_text()  # written in the file's own style: one line

    before = path.read_bytes()
    again = limen(home, "install", agent)
    assert again.returncode == 0 and "already has Limen's hooks" in again.stdout
    assert path.read_bytes() == before

    result = limen(home, "uninstall", agent)
    assert result.returncode == 0 and "byte for byte as it was before install" in result.stdout
    assert path.read_bytes() == original
    assert not (home / "proj" / ".codex").exists() and not (home / ".codex" / "config.toml").exists()


def test_dry_run_shows_a_diff_and_writes_nothing(home: Path) -> None:
    result = limen(home, "install", "gemini", "--dry-run")
    assert result.returncode == 0
    assert f'+            "command": {json.dumps(hook_command("gemini", str(HOOK)))},' in result.stdout
    assert not settings(home, "gemini").exists()


def test_a_stale_limen_hook_is_replaced_not_duplicated(home: Path) -> None:
    path = settings(home, "claude-code")
    path.parent.mkdir(parents=True)
    stale = {"type": "command", "command": "/old/venv/bin/limen-hook claude-code", "timeout": 60}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [stale]}]}}))
    assert limen(home, "install", "claude-code").returncode == 0
    pre = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert pre == [
        {
            "matcher": "*",
            "hooks": [
                {
                    "type": "command",
                    "command": hook_command("claude-code", str(HOOK)),
                    "timeout": TIMEOUT_SECONDS,
                }
            ],
        }
    ]


def test_a_file_that_does_not_parse_is_never_clobbered(home: Path) -> None:
    path = settings(home, "gemini")
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": "dark", // a comment\n}')
    result = limen(home, "install", "gemini")
    assert result.returncode == 1 and "nothing was written" in result.stderr
    assert path.read_text() == '{"theme": "dark", // a comment\n}'


# --- item 4: the hooks install writes are hooks the agent runs ------------------------------------------


def codex_config(home: Path) -> dict[str, Any]:
    return tomllib.loads((home / ".codex" / "config.toml").read_text())


@pytest.mark.parametrize("scope", ["user", "project"])
def test_codex_install_records_the_trust_codex_requires(scope: str, home: Path) -> None:
    user_config = '# my settings\r\nmodel = "o3"\r\n\r\n[mcp_servers.fs]\r\ncommand = "fs-mcp"\r\n'
    config_path = write(home / ".codex" / "config.toml", user_config.encode())
    result = limen(home, "install", "codex", f"--{scope}")
    assert result.returncode == 0, result.stderr

    hooks_path = settings(home, "codex", scope)
    hooks = json.loads(hooks_path.read_text())["hooks"]
    state = codex_config(home)["hooks"]["state"]
    for event in TARGETS["codex"].events:
        key = f"{hooks_path}:{''.join('_' + c.lower() if c.isupper() else c for c in event)[1:]}:0:0"
        assert state[key] == {"trusted_hash": codex_hash(event, None, hooks[event][0]["hooks"][0])}
    projects = codex_config(home).get("projects", {})
    assert projects == ({str(home / "proj"): {"trust_level": "trusted"}} if scope == "project" else {})
    text = config_path.read_bytes().decode()
    assert text.startswith(user_config) and "\r\n[hooks.state." in text  # in the file's line endings
    assert "fs-mcp" not in result.stdout  # trust files are shown without their context lines
    assert ("note: Codex now trusts" in result.stdout) == (scope == "project")  # the grant is said aloud

    assert limen(home, "uninstall", "codex", f"--{scope}").returncode == 0
    assert config_path.read_bytes() == user_config.encode()


def test_codex_trust_follows_a_changed_hooks_file_and_drops_stale_entries(home: Path) -> None:
    hooks_path = settings(home, "codex")
    assert limen(home, "install", "codex").returncode == 0
    config = json.loads(hooks_path.read_text())
    mine = {"hooks": [{"type": "command", "command": "notify-send start"}]}
    config["hooks"]["PreToolUse"].insert(0, mine)  # the user's hook now comes first: Limen's index moves
    hooks_path.write_text(json.dumps(config, indent=2))
    assert limen(home, "install", "codex").returncode == 0
    state = codex_config(home)["hooks"]["state"]
    assert f"{hooks_path}:pre_tool_use:1:0" in state
    assert f"{hooks_path}:pre_tool_use:0:0" not in state  # the user's own hook is theirs to trust
    assert limen(home, "uninstall", "codex").returncode == 0
    assert not (home / ".codex" / "config.toml").exists()  # nothing of Limen's is left behind


def test_codex_install_says_what_to_do_when_it_cannot_record_trust(home: Path) -> None:
    inline = "hooks = { state = { } }\n"  # an inline table cannot take a [hooks.state."…"] section
    config_path = write(home / ".codex" / "config.toml", inline.encode())
    result = limen(home, "install", "codex")
    assert result.returncode == 1
    assert "NOT PROTECTED" in result.stderr and 'trusted_hash = "sha256:' in result.stderr
    assert config_path.read_text() == inline


def test_codex_project_marked_untrusted_is_reported_not_overridden(home: Path) -> None:
    untrusted = f'[projects."{home / "proj"}"]\ntrust_level = "untrusted"\n'
    config_path = write(home / ".codex" / "config.toml", untrusted.encode())
    result = limen(home, "install", "codex", "--project")
    assert result.returncode == 1 and "marks" in result.stderr and "untrusted" in result.stderr
    assert codex_config(home)["projects"][str(home / "proj")] == {"trust_level": "untrusted"}
    assert limen(home, "uninstall", "codex", "--project").returncode == 0
    assert config_path.read_text() == untrusted


def test_gemini_project_install_trusts_the_folder_as_gemini_reads_it(home: Path) -> None:
    result = limen(home, "install", "gemini", "--project")
    assert result.returncode == 0, result.stderr
    trusted = home / ".gemini" / "trustedFolders.json"
    assert json.loads(trusted.read_text()) == {str(home / "proj"): "TRUST_FOLDER"}
    assert "note: Gemini CLI now trusts" in result.stdout
    assert os.stat(trusted).st_mode & 0o777 == 0o600  # as Gemini CLI creates it

    assert limen(home, "uninstall", "gemini", "--project").returncode == 0
    assert not trusted.exists() and not (home / "proj" / ".gemini").exists()


def test_gemini_keeps_the_users_trust_decisions(home: Path) -> None:
    rules = {str(home): "TRUST_FOLDER", "/elsewhere": "DO_NOT_TRUST"}
    trusted = write(home / ".gemini" / "trustedFolders.json", json.dumps(rules, indent=2).encode())
    assert limen(home, "install", "gemini", "--project").returncode == 0
    assert json.loads(trusted.read_text()) == rules  # the parent's rule already covers the project

    trusted.write_text(json.dumps({str(home / "proj"): "DO_NOT_TRUST"}))
    refused = limen(home, "install", "gemini", "--project")
    assert refused.returncode == 1 and "DO_NOT_TRUST" in refused.stderr
    assert json.loads(trusted.read_text()) == {str(home / "proj"): "DO_NOT_TRUST"}

    note = limen(home, "install", "gemini", "--user")
    assert note.returncode == 0 and "in a folder it does not trust" in note.stdout


# --- item 7: uninstall gives back what install changed ---------------------------------------------------

STYLED = {
    "crlf-tabs": '{\r\n\t"theme": "dark",\r\n\t"hooks": {}\r\n}',
    "four-spaces": '{\n    "model": "opus",\n    "env": {\n        "A": "1"\n    }\n}\n',
    "one-line": '{"a": [1, 2], "b": {"c": "d, e: f"}}',
    "no-final-newline": '{\n  "x": 1\n}',
    "empty-object": "{}\n",
}


@pytest.mark.parametrize("style", sorted(STYLED))
@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_uninstall_restores_each_style_byte_for_byte(agent: str, style: str, home: Path) -> None:
    path = write(settings(home, agent, "project"), STYLED[style].encode())
    assert limen(home, "install", agent, "--project").returncode == 0
    installed = path.read_bytes().decode()
    assert ("\r\n" in installed) == ("\r\n" in STYLED[style])
    assert installed.endswith("\n") == STYLED[style].endswith("\n")
    assert limen(home, "uninstall", agent, "--project").returncode == 0
    assert path.read_bytes() == STYLED[style].encode()


@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_uninstall_deletes_a_file_install_created_and_its_folder(agent: str, home: Path) -> None:
    assert limen(home, "install", agent, "--project").returncode == 0
    result = limen(home, "uninstall", agent, "--project")
    assert result.returncode == 0 and "it did not exist before install" in result.stdout
    assert os.listdir(home / "proj") == []
    assert os.listdir(home / ".limen" / "install") == []  # no record left


def test_a_file_edited_since_install_loses_only_limens_entries_and_keeps_its_style(home: Path) -> None:
    path = write(settings(home, "cursor", "project"), b'{\r\n    "hooks": {}\r\n}')
    assert limen(home, "install", "cursor", "--project").returncode == 0
    path.write_bytes(path.read_bytes().replace(b'"hooks": {', b'"editor": "vim",\r\n    "hooks": {', 1))
    result = limen(home, "uninstall", "cursor", "--project")
    assert result.returncode == 0 and "changed since install: removed only Limen's entries" in result.stdout
    assert path.read_bytes() == b'{\r\n    "editor": "vim",\r\n    "hooks": {}\r\n}'  # no "version" left


def test_a_codex_config_edited_since_install_loses_only_limens_entries(home: Path) -> None:
    user_config = 'model = "o3"\n'
    config_path = write(home / ".codex" / "config.toml", user_config.encode())
    assert limen(home, "install", "codex", "--project").returncode == 0
    edited = "# added by codex\n" + config_path.read_text() + '\n[mcp_servers.fs]\ncommand = "fs-mcp"\n'
    config_path.write_text(edited)
    result = limen(home, "uninstall", "codex", "--project")
    assert result.returncode == 0 and "changed since install" in result.stdout
    assert (
        config_path.read_text() == '# added by codex\nmodel = "o3"\n\n[mcp_servers.fs]\ncommand = "fs-mcp"\n'
    )


def test_two_projects_share_the_trust_files_and_each_uninstall_takes_only_its_own(home: Path) -> None:
    other = home / "other"
    other.mkdir()
    assert limen(home, "install", "gemini", "--project").returncode == 0
    assert limen(home, "install", "gemini", "--project", cwd=other).returncode == 0
    trusted = home / ".gemini" / "trustedFolders.json"
    assert set(json.loads(trusted.read_text())) == {str(home / "proj"), str(other)}
    assert limen(home, "uninstall", "gemini", "--project").returncode == 0
    assert json.loads(trusted.read_text()) == {str(other): "TRUST_FOLDER"}
    assert limen(home, "uninstall", "gemini", "--project", cwd=other).returncode == 0
    assert not trusted.exists()


CLEARED = (
    "CODEX_HOME",
    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "GEMINI_CLI_TRUST_WORKSPACE",
    "GEMINI_RESTRICTED_MODE",
)
STYLES = (
    JsonStyle(2, (",", ": "), "\n", True),
    JsonStyle(4, (",", ": "), "\r\n", False),
    JsonStyle("\t", (",", ": "), "\r\n", True),
    JsonStyle(None, (", ", ": "), "\n", False),
    JsonStyle(None, (",", ":"), "\n", True),
)
KEYS = st.text(st.characters(exclude_categories=("Cs",)), max_size=6).filter(
    lambda k: k not in ("hooks", "version")
)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=6,
)
TRUST_FILES = {  # what the user already has in Codex's and Gemini CLI's trust files
    ".codex/config.toml": [
        None,
        b'# mine\r\nmodel = "o3"\r\n',
        b'[projects."/src/app"]\ntrust_level = "trusted"',
    ],
    ".gemini/trustedFolders.json": [
        None,
        b'{\n  "/src/app": "TRUST_FOLDER"\n}',
        b'{"/src": "TRUST_PARENT"}\n',
    ],
}


@contextmanager
def fresh_home() -> Iterator[Path]:
    """A new HOME and LIMEN_HOME for one example: hypothesis runs many inside one test."""
    saved = {name: os.environ.get(name) for name in ("HOME", "LIMEN_HOME", *CLEARED)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp))
        (root / "proj").mkdir()
        os.environ.update(HOME=str(root), LIMEN_HOME=str(root / ".limen"))
        for name in CLEARED:
            os.environ.pop(name, None)
        try:
            yield root
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


@st.composite
def setups(
    draw: st.DrawFn, *, user_keys: bool = False
) -> tuple[str, str, dict[str, Any] | None, JsonStyle, dict[str, bytes | None]]:
    """(agent, scope, the settings file's content or None for no file, its style, the trust files). With
    `user_keys`, the file is there and holds a key of the user's own (drawn so, not filtered: a test that
    kept only such files out of all of them would throw most draws away)."""
    agent, scope = draw(st.sampled_from(AGENTS)), draw(st.sampled_from(("user", "project")))
    trust = {name: draw(st.sampled_from(choices)) for name, choices in TRUST_FILES.items()}
    style = draw(st.sampled_from(STYLES))
    if not user_keys and draw(st.booleans()):
        return agent, scope, None, style, trust
    config = draw(st.dictionaries(KEYS, VALUES, min_size=1 if user_keys else 0, max_size=3))
    hooks = draw(st.sampled_from(("none", "empty", "theirs")))
    if hooks != "none":
        config["hooks"] = {} if hooks == "empty" else EXISTING[agent]["hooks"]
    if agent == "cursor" and draw(st.booleans()):
        config = {"version": 1, **config}
    return agent, scope, config, style, trust


def arrange(
    root: Path,
    agent: str,
    scope: str,
    config: dict[str, Any] | None,
    style: JsonStyle,
    trust: dict[str, bytes | None],
) -> dict[Path, bytes | None]:
    """Write the user's files; their bytes (None: absent) by path."""
    path = root.joinpath(*((("proj",) if scope == "project" else ()) + TARGETS[agent].relative_path))
    files: dict[Path, bytes | None] = {path: None if config is None else dump_json(config, style).encode()}
    files.update({root / name: data for name, data in trust.items()})
    for file, data in files.items():
        if data is not None:
            write(file, data)
    return files


@hsettings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_install_then_uninstall_is_byte_identical(
    setup: tuple[str, str, dict[str, Any] | None, JsonStyle, dict[str, bytes | None]],
) -> None:
    agent, scope, config, style, trust = setup
    with fresh_home() as root:
        files = arrange(root, agent, scope, config, style, trust)
        workspace = str(root / "proj")
        installed = change(agent, scope, workspace, remove=False, dry_run=False)
        hook_file = next(iter(files))
        assert limen_handlers(json.loads(hook_file.read_text())) and installed.files
        change(agent, scope, workspace, remove=True, dry_run=False)
        for file, data in files.items():
            assert (file.read_bytes() if file.exists() else None) == data, file
        assert not os.listdir(root / ".limen" / "install")


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(user_keys=True))
def test_uninstall_after_an_edit_removes_only_limens_entries_in_the_files_style(
    setup: tuple[str, str, dict[str, Any] | None, JsonStyle, dict[str, bytes | None]],
) -> None:
    agent, scope, config, style, trust = setup
    assume(config is not None and any(k not in ("hooks", "version") for k in config))
    assert config is not None
    assume(json_style(dump_json(config, style)) == style)
    with fresh_home() as root:
        hook_file = next(iter(arrange(root, agent, scope, config, style, trust)))
        change(agent, scope, str(root / "proj"), remove=False, dry_run=False)
        installed = hook_file.read_bytes().decode()
        edited = {**json.loads(installed), "userEdit": 1}
        hook_file.write_bytes(dump_json(edited, json_style(installed)).encode())
        done = change(agent, scope, str(root / "proj"), remove=True, dry_run=False)
        assert [w.how for w in done.files if w.path == str(hook_file)] == ["changed"]
        assert hook_file.read_bytes() == dump_json({**config, "userEdit": 1}, style).encode()


def test_hook_configs_and_limen_home_are_protected() -> None:
    protected = default_protected_paths("/home/dev", "/home/dev/proj")
    for target in TARGETS.values():
        assert (
            target.path("user", "/home/dev/proj").replace(os.path.expanduser("~"), "/home/dev") in protected
        )
        assert os.path.join("/home/dev/proj", *target.relative_path) in protected
    assert engine_limen_home() in protected
    assert str(HOOK) in protected  # the command the hook configs run


def test_the_hook_deadline_fits_inside_the_configured_timeout() -> None:
    assert client.DEFAULT_DEADLINE_MS <= TIMEOUT_SECONDS * 1000 // 2
    assert wire.socket_path().startswith(os.path.abspath(engine_limen_home()))


def test_a_socket_path_too_long_for_sockaddr_moves_to_the_runtime_dir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LIMEN_HOME", "/tmp/" + "x" * 120)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    path = wire.socket_path()
    assert path.startswith("/run/user/1000/limen-") and len(path.encode()) <= 100


# --- issue 11, item 3: a missing or broken Limen denies ---------------------------------------------------

DENIED = b"Limen is missing or broken"
RM_HOME = {
    "claude-code": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "t1"},
    "codex": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "t1", "turn_id": "1"},
    "gemini": {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"},
    "cursor": {"hook_event_name": "preToolUse", "tool_name": "Shell", "conversation_id": "c"},
}


def shell_event(agent: str, cwd: Path, command: str) -> bytes:
    """The event the agent sends before its shell tool runs `command`."""
    return json.dumps(
        {"session_id": "s", "cwd": str(cwd), **RM_HOME[agent], "tool_input": {"command": command}}
    ).encode()


def fire(
    agent: str, command: str, data: bytes, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[bytes]:
    """The configured command line run the way the agent runs it (`limen.cli.doctor.agent_shell`)."""
    return subprocess.run(
        [*agent_shell(agent), command], input=data, capture_output=True, cwd=cwd, env=env, timeout=60
    )


def stub(folder: Path, body: str) -> str:
    path = write(folder / "limen-hook", f"#!/bin/sh\n{body}\n".encode())
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("agent", GUARDED)
@pytest.mark.parametrize(
    ("case", "body"),
    [
        ("missing", None),
        ("not executable", "exit 0"),
        ("import error", "cat >/dev/null; echo 'ModuleNotFoundError: limen' >&2; exit 1"),
        ("crash after a partial answer", 'cat >/dev/null; printf \'{"decision": "allow"}\'; exit 1'),
        ("killed", "kill -9 $$"),
        ("an exit code of its own", "exit 3"),
    ],
)
def test_a_missing_or_broken_hook_gets_the_agents_blocking_answer(
    agent: str, case: str, body: str | None, tmp_path: Path
) -> None:
    executable = str(tmp_path / "gone" / "limen-hook") if body is None else stub(tmp_path / "b i n", body)
    if case == "not executable":
        os.chmod(executable, 0o644)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = fire(
        agent, hook_command(agent, executable), shell_event(agent, tmp_path, "rm -rf ~"), tmp_path, env
    )
    assert proc.returncode == 2 and proc.stdout == b"", (case, proc)  # nothing that could read as "allow"
    assert DENIED in proc.stderr and b"limen doctor" in proc.stderr
    assert blocks(agent, None, proc.returncode, proc.stderr.decode(), proc.stdout.decode())


@pytest.mark.parametrize("agent", GUARDED)
def test_the_guard_passes_the_hooks_own_answers_through(agent: str, tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    data = shell_event(agent, tmp_path, "ls -la 'a b' \"$HOME\" \\n")
    echo = stub(tmp_path, "cat")  # exit 0 with its stdin as the answer: stdin reaches the hook whole
    proc = fire(agent, hook_command(agent, echo), data, tmp_path, env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, data + b"\n", b"")
    deny = '{"decision": "block", "reason": "no"}'
    refuse = stub(tmp_path, f"cat >/dev/null; echo 'Limen: no' >&2; printf '%s' '{deny}'; exit 2")
    proc = fire(agent, hook_command(agent, refuse), data, tmp_path, env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, deny.encode() + b"\n", b"Limen: no\n")
    silent = stub(tmp_path, "cat >/dev/null")  # no objection, nothing to say
    proc = fire(agent, hook_command(agent, silent), data, tmp_path, env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_the_guard_runs_in_any_shell_an_agent_may_start_it_with(tmp_path: Path) -> None:
    gone = hook_command("codex", str(tmp_path / "gone" / "limen-hook"))
    echo = hook_command("codex", stub(tmp_path, "cat"))
    answer = b'{"reason": "a \\"quoted\\" \\\\n %s $HOME `x` \'y\'"}'
    for shell in ("sh", "dash", "bash", "zsh", "ksh", "fish"):  # Codex runs `$SHELL -lc <command>`
        found = shutil.which(shell)
        if found is None:
            continue
        proc = subprocess.run([found, "-c", gone], input=b"{}", capture_output=True, timeout=60)
        assert proc.returncode == 2 and DENIED in proc.stderr, (shell, proc)
        proc = subprocess.run([found, "-c", echo], input=answer, capture_output=True, timeout=60)
        assert (proc.returncode, proc.stdout) == (0, answer + b"\n"), (shell, proc)


def test_old_and_new_wiring_are_both_limens(home: Path) -> None:
    old = {"type": "command", "command": f"{HOOK} claude-code", "timeout": 10}
    theirs = {"type": "command", "command": "/usr/local/bin/guard.sh"}
    new = {**old, "command": hook_command("claude-code", str(HOOK))}
    assert is_limen_handler(old) and is_limen_handler(new) and not is_limen_handler(theirs)
    assert is_limen_handler({"command": "limen hook codex"})
    assert not is_limen_handler({"command": "/bin/sh -c 'echo hi' limen-hook /usr/bin/true codex"})
    config = {
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [theirs, old]}],
            "UserPromptSubmit": [{"hooks": [old]}],
            "Stop": [{"hooks": [new]}],
        }
    }
    path = write(settings(home, "claude-code"), json.dumps(config).encode())
    assert limen(home, "uninstall", "claude-code").returncode == 0  # no record of an install: found by form
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [theirs]}]}}
    path.write_text(json.dumps(config))
    assert limen(home, "install", "claude-code").returncode == 0  # the old handlers are replaced, not kept
    installed = json.loads(path.read_text())["hooks"]
    assert installed["PreToolUse"] == [{"matcher": "*", "hooks": [theirs]}, {"matcher": "*", "hooks": [new]}]
    assert installed["UserPromptSubmit"] == [{"hooks": [new]}]


# A scratch virtualenv where Limen is installed by pip from a wheel of this source tree, with its
# dependencies borrowed from the test interpreter's (by symlink, never Limen's own metadata, so pip in the
# scratch venv can only ever see and remove the scratch copy).


def limen_wheel(folder: Path) -> Path:
    """A wheel of src/limen (built by hand: no build backend or network needed)."""
    source = Path(__file__).resolve().parents[1]
    meta = tomllib.loads((source / "pyproject.toml").read_text())["project"]
    meta["version"] = LIMEN_VERSION  # the one version source (pyproject reads it: dynamic)
    info = f"{meta['name']}-{meta['version']}.dist-info"
    files = {
        str(p.relative_to(source / "src")): p.read_bytes()
        for p in sorted((source / "src" / "limen").rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n".encode()
    )
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    scripts = "".join(f"{name} = {target}\n" for name, target in meta["scripts"].items())
    files[f"{info}/entry_points.txt"] = f"[console_scripts]\n{scripts}".encode()
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.writerow([name, f"sha256={digest}", len(data)])
    rows.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    wheel = folder / f"{meta['name']}-{meta['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


def pip(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real pip, acting on the scratch venv (`pip --python`)."""
    command = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def scratch_limen(root: Path) -> Path:
    """A new venv under `root` with Limen pip-installed into it; its folder."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    deps = root / "deps"
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.lower().startswith(("limen", "__editable__", "_limen", "pip")):
            (deps / entry.name).symlink_to(entry)
    Path(site, "_limen_test_deps.pth").write_text(f"{deps}\n")
    pip(venv, "install", "--no-deps", "--no-index", "--no-compile", "-q", str(limen_wheel(root)))
    assert (venv / "bin" / "limen-hook").exists()
    return venv


def test_after_pip_uninstall_or_a_broken_install_every_agent_denies(home: Path) -> None:
    (home / "scratch").mkdir()
    scratch = scratch_limen(home / "scratch")
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LIMEN_HOME": str(home / ".limen"),
        "LIMEN_HOOK_DAEMON": "0",
    }
    project = home / "proj"
    commands = {}
    for agent in TARGETS:
        done = subprocess.run(
            [str(scratch / "bin" / "limen"), "install", agent],
            cwd=project,
            env=env,
            capture_output=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        handlers = limen_handlers(json.loads(settings(home, agent).read_text()))
        commands[agent] = {h["command"] for h in handlers}.pop()
        assert str(scratch / "bin" / "limen-hook") in commands[agent]

    def answers(command: str) -> dict[str, subprocess.CompletedProcess[bytes]]:
        return {
            agent: fire(agent, commands[agent], shell_event(agent, project, command), project, env)
            for agent in TARGETS
        }

    working = answers("rm -rf ~")  # the scratch install decides: a deny of Limen's own
    for agent, proc in working.items():
        answer = json.loads(proc.stdout or b"null")
        assert blocks(agent, answer, proc.returncode, proc.stderr.decode(), proc.stdout.decode()), (
            agent,
            proc,
        )
        assert DENIED not in proc.stderr
    allowed = answers("ls")
    assert all(proc.returncode == 0 and DENIED not in proc.stderr for proc in allowed.values()), allowed

    assert "Successfully uninstalled limen" in pip(scratch, "uninstall", "-y", "limen").stdout
    assert not (scratch / "bin" / "limen-hook").exists()
    for command in ("rm -rf ~", "ls"):  # with Limen gone, nothing is let through
        for agent, proc in answers(command).items():
            if agent == "cursor":  # a bare command: Cursor's failClosed blocks on its exit 127
                assert proc.returncode == 127 and json.loads(settings(home, agent).read_text())["hooks"]
                continue
            assert (proc.returncode, proc.stdout) == (2, b""), (agent, proc)
            assert DENIED in proc.stderr and blocks(agent, None, proc.returncode, proc.stderr.decode())
    doctor = limen(home, "doctor", "claude-code")  # this checkout's doctor, on the uninstalled wiring
    assert doctor.returncode == 1
    assert f"FAIL {scratch / 'bin' / 'limen-hook'} is missing or not executable" in doctor.stdout
    assert "ok   with limen-hook missing (as after `pip uninstall limen`), a shell call" in doctor.stdout

    (wheel,) = scratch.parent.glob("*.whl")
    pip(scratch, "install", "--no-deps", "--no-index", "--no-compile", "-q", str(wheel))
    site = next((scratch / "lib").glob("python*/site-packages"))
    shutil.rmtree(site / "limen")  # the console scripts are there, the package is not: an import error
    for agent, proc in answers("ls").items():
        if agent == "cursor":
            assert proc.returncode == 1 and b"ModuleNotFoundError" in proc.stderr
            continue
        assert (proc.returncode, proc.stdout) == (2, b""), (agent, proc)
        assert b"ModuleNotFoundError" in proc.stderr and DENIED in proc.stderr
