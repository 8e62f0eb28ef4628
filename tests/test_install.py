"""`limen install|uninstall|doctor` against real settings files in a temporary home, through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from limen.context import default_protected_paths
from limen.context import limen_home as engine_limen_home
from limen.doors.hooks import client, wire
from limen.install import TARGETS, TIMEOUT_SECONDS

BIN = Path(sys.executable).parent
HOOK, LIMEN = BIN / "limen-hook", BIN / "limen"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
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


def limen(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "LIMEN_HOME": str(home / ".limen"),
        "LIMEN_HOOK_DAEMON": "0",
    }
    return subprocess.run(
        [str(LIMEN), *args], capture_output=True, text=True, env=env, cwd=home / "proj", timeout=60
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


@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_install_merges_is_idempotent_and_uninstall_reverses(agent: str, home: Path) -> None:
    path = settings(home, agent)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(EXISTING[agent]))
    assert limen(home, "install", agent).returncode == 0
    config = json.loads(path.read_text())
    for key, value in EXISTING[agent].items():
        if key != "hooks":
            assert config[key] == value
    for event, entries in EXISTING[agent]["hooks"].items():
        assert config["hooks"][event][: len(entries)] == entries  # the user's own hooks are kept, first
    handlers = limen_handlers(config)
    assert len(handlers) == len(TARGETS[agent].events)  # one per event Limen answers
    assert {h["command"] for h in handlers} == {f"{HOOK} {agent}"}  # absolute path of the installed hook
    expected_timeout = TIMEOUT_SECONDS * 1000 if agent == "gemini" else TIMEOUT_SECONDS
    assert {h["timeout"] for h in handlers} == {expected_timeout}
    if agent == "cursor":
        assert all(h["failClosed"] is True for h in handlers)

    before = path.read_bytes()
    again = limen(home, "install", agent)
    assert again.returncode == 0 and "already has Limen's hooks" in again.stdout
    assert path.read_bytes() == before

    assert limen(home, "uninstall", agent).returncode == 0
    assert json.loads(path.read_text()) == EXISTING[agent]


def test_dry_run_shows_a_diff_and_writes_nothing(home: Path) -> None:
    result = limen(home, "install", "gemini", "--dry-run")
    assert result.returncode == 0
    assert f'+            "command": "{HOOK} gemini",' in result.stdout
    assert not settings(home, "gemini").exists()


def test_project_scope_writes_the_project_file(home: Path) -> None:
    assert limen(home, "install", "codex", "--project").returncode == 0
    assert limen_handlers(json.loads(settings(home, "codex", "project").read_text()))
    assert not settings(home, "codex").exists()


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
            "hooks": [{"type": "command", "command": f"{HOOK} claude-code", "timeout": TIMEOUT_SECONDS}],
        }
    ]


def test_a_file_that_does_not_parse_is_never_clobbered(home: Path) -> None:
    path = settings(home, "gemini")
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": "dark", // a comment\n}')
    result = limen(home, "install", "gemini")
    assert result.returncode == 1 and "nothing was written" in result.stderr
    assert path.read_text() == '{"theme": "dark", // a comment\n}'


@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_the_installed_command_answers_and_doctor_checks_it(agent: str, home: Path) -> None:
    assert limen(home, "install", agent).returncode == 0
    command = limen_handlers(json.loads(settings(home, agent).read_text()))[0]["command"].split()
    fixture = {
        "claude-code": "pre_write_settings.json",
        "codex": "pre_apply_patch_hooks.json",
        "gemini": "before_tool_write_settings.json",
        "cursor": "before_shell.json",
    }[agent]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": "/home/dev",
        "LIMEN_HOME": str(home / ".limen"),
        "LIMEN_HOOK_DAEMON": "0",
    }
    proc = subprocess.run(
        command, input=(FIXTURES / agent / fixture).read_bytes(), capture_output=True, env=env, timeout=60
    )
    assert proc.returncode == (0 if agent == "cursor" else 2)
    doctor = limen(home, "doctor", agent)
    assert doctor.returncode == 0, doctor.stdout
    assert "ok   the agent's timeout leaves the hook's 5000 ms deadline room" in doctor.stdout
    assert "ok   a write to its own hook file is denied (exit 2)" in doctor.stdout
    assert "ok   an unreadable event is denied (exit 2)" in doctor.stdout


def test_doctor_fails_on_a_missing_hook_command(home: Path) -> None:
    path = settings(home, "claude-code")
    path.parent.mkdir(parents=True)
    handler = {"type": "command", "command": f"{home}/gone/limen-hook claude-code"}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}))
    result = limen(home, "doctor")
    assert result.returncode == 1 and "FAIL" in result.stdout and "missing" in result.stdout
    assert limen(home, "doctor", "cursor").returncode == 1  # nothing wired for Cursor here


def test_doctor_fails_on_a_timeout_shorter_than_the_hooks_deadline(home: Path) -> None:
    assert limen(home, "install", "claude-code").returncode == 0
    path = settings(home, "claude-code")
    path.write_text(path.read_text().replace('"timeout": 10', '"timeout": 3'))
    result = limen(home, "doctor", "claude-code")
    assert result.returncode == 1
    assert "FAIL a timeout of 3000 ms would expire before the hook's 5000 ms deadline" in result.stdout


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
