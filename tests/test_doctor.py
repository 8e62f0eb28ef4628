"""`limen doctor` proves the wiring through each agent's real configuration, or fails.

It must read the settings as the agent does (trust, switches, matchers), run the configured command line on
events that must be denied, and call anything the agent would ignore a failure. The last test asks the real
Codex CLI (when one is installed) whether it trusts the hooks Limen installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from install_helpers import HOOK, limen, limen_handlers, settings, write
from limen.agent_trust import codex_hash
from limen.install import TARGETS, hook_command

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
E2E_CODEX = Path(__file__).parent / "e2e" / "node_modules" / ".bin" / "codex"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    return tmp_path


def wire_by_hand(home: Path, command: str) -> None:
    """A Claude Code PreToolUse hook running `command`, as a user might write it."""
    handler = {"type": "command", "command": command, "timeout": 10}
    config = {"hooks": {"PreToolUse": [{"hooks": [handler]}]}}
    write(settings(home, "claude-code"), json.dumps(config).encode())


def trust_for_gemini(home: Path) -> None:
    """What answering "Trust folder" in Gemini CLI's dialog writes."""
    write(home / ".gemini" / "trustedFolders.json", json.dumps({str(home / "proj"): "TRUST_FOLDER"}).encode())


@pytest.mark.parametrize("agent", sorted(TARGETS))
def test_an_installed_agent_passes_every_check(agent: str, home: Path) -> None:
    assert limen(home, "install", agent).returncode == 0
    command = ["/bin/sh", "-c", limen_handlers(json.loads(settings(home, agent).read_text()))[0]["command"]]
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
    if agent == "gemini":
        trust_for_gemini(home)
    doctor = limen(home, "doctor", agent)
    assert doctor.returncode == 0, doctor.stdout
    assert "FAIL" not in doctor.stdout
    assert "ok   the agent's timeout leaves the hook's 5000 ms deadline room" in doctor.stdout
    assert "ok   a shell call `rm -rf ~` on" in doctor.stdout
    assert "ok   a write to its own hook file is denied (exit 2)" in doctor.stdout
    assert "ok   an unreadable event is denied (exit 2)" in doctor.stdout
    exit_code = ("exit 127, failClosed", "exit 1, failClosed") if agent == "cursor" else ("exit 2", "exit 2")
    assert (
        "ok   with limen-hook missing (as after `pip uninstall limen`), a shell call `rm -rf ~` is still "
        f"denied ({exit_code[0]})" in doctor.stdout
    )
    assert (
        "ok   with limen-hook failing on an import error (a broken install), a shell call `rm -rf ~` is "
        f"still denied ({exit_code[1]})" in doctor.stdout
    )


def test_doctor_fails_on_a_missing_hook_command(home: Path) -> None:
    handler = {"type": "command", "command": f"{home}/gone/limen-hook claude-code"}
    write(
        settings(home, "claude-code"), json.dumps({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}).encode()
    )
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


# --- issue 11, item 3: a wiring that fails open when Limen is missing or broken is a failure ----------------


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini"])
def test_a_bare_hook_command_fails_open_and_doctor_says_so(agent: str, home: Path) -> None:
    """What `limen install` wrote before the guard: the hook works, but a missing or broken Limen is a
    non-blocking error to the agent."""
    assert limen(home, "install", agent).returncode == 0
    if agent == "gemini":
        trust_for_gemini(home)
    path = settings(home, agent)
    config = json.loads(path.read_text())
    for entries in config["hooks"].values():
        for handler in entries[0]["hooks"]:
            handler["command"] = f"{HOOK} {agent}"
    path.write_text(json.dumps(config))
    if agent == "codex":  # trust the bare commands as Codex would after a review
        assert limen(home, "install", agent).returncode == 0
        path.write_text(json.dumps(config))
        text = (home / ".codex" / "config.toml").read_text()
        for event, entries in config["hooks"].items():
            handler = entries[0]["hooks"][0]
            guarded = {**handler, "command": hook_command(agent, str(HOOK))}
            text = text.replace(codex_hash(event, None, guarded), codex_hash(event, None, handler))
        (home / ".codex" / "config.toml").write_text(text)
    result = limen(home, "doctor", agent)
    assert result.returncode == 1
    failed = [line for line in result.stdout.splitlines() if line.startswith("  FAIL")]
    missing = (
        "with limen-hook missing (as after `pip uninstall limen`), a shell call `rm -rf ~` is NOT denied "
        "(exit 127)"
    )
    import_error = (
        "with limen-hook failing on an import error (a broken install), a shell call `rm -rf ~` is NOT "
        "denied (exit 1)"
    )
    if agent == "gemini":  # Gemini CLI denies on plain text with any exit code but 0 and 1: not on exit 1
        assert len(failed) == 1 and failed[0].startswith(f"  FAIL {import_error}"), result.stdout
        assert "still denied (exit 127 with a reason, which Gemini CLI takes as a deny)" in result.stdout
    else:
        assert len(failed) == 2 and failed[0].startswith(f"  FAIL {missing}"), result.stdout
        assert failed[1].startswith(f"  FAIL {import_error}")
    assert all(f"this wiring fails open (`limen install {agent}` writes" in line for line in failed)
    assert "ok   a shell call `rm -rf ~` on" in result.stdout


def test_cursor_without_fail_closed_fails_open(home: Path) -> None:
    assert limen(home, "install", "cursor").returncode == 0
    path = settings(home, "cursor")
    path.write_text(path.read_text().replace('"failClosed": true', '"failClosed": false'))
    result = limen(home, "doctor", "cursor")
    assert result.returncode == 1
    assert "FAIL with limen-hook missing (as after `pip uninstall limen`), a shell call" in result.stdout
    assert "NOT denied (exit 127): Cursor lets it through" in result.stdout


def test_the_broken_install_is_simulated_through_the_agents_own_shell(home: Path) -> None:
    """Codex runs a hook with `$SHELL -lc`: the doctor does too, so a shell that cannot run the wiring
    shows up as a failure, not as the `/bin/sh` result."""
    assert limen(home, "install", "codex").returncode == 0
    refusing = write(home / "bin" / "myshell", b"#!/bin/sh\nexit 1\n")
    refusing.chmod(0o755)
    result = limen(home, "doctor", "codex", env={"SHELL": str(refusing)})
    assert result.returncode == 1 and "is NOT denied (exit 1): Codex lets it through" in result.stdout
    assert limen(home, "doctor", "codex", env={"SHELL": "/bin/bash"}).returncode == 0


# --- item 4: a configuration the agent ignores is a failure ---------------------------------------------


def without_trust(home: Path) -> None:
    """Limen's hooks as an install without trust left them: in the settings, not trusted by the agent."""
    for path in (home / ".codex" / "config.toml", home / ".gemini" / "trustedFolders.json"):
        path.unlink(missing_ok=True)


@pytest.mark.parametrize("scope", ["user", "project"])
def test_codex_hooks_without_recorded_trust_fail(scope: str, home: Path) -> None:
    assert limen(home, "install", "codex", f"--{scope}").returncode == 0
    without_trust(home)
    result = limen(home, "doctor", "codex")
    assert result.returncode == 1
    assert "FAIL Codex skips the PreToolUse hook: " in result.stdout and "no trusted hash" in result.stdout
    if scope == "project":
        assert "FAIL Codex ignores this project's .codex folder" in result.stdout


def test_a_codex_hook_changed_after_trust_fails(home: Path) -> None:
    assert limen(home, "install", "codex").returncode == 0
    path = settings(home, "codex")
    path.write_text(path.read_text().replace('"timeout": 10', '"timeout": 11'))  # its hash no longer matches
    result = limen(home, "doctor", "codex")
    assert result.returncode == 1 and "holds a hash for another command" in result.stdout


def test_gemini_project_hooks_in_an_untrusted_folder_fail(home: Path) -> None:
    assert limen(home, "install", "gemini", "--project").returncode == 0
    assert limen(home, "doctor", "gemini").returncode == 0
    without_trust(home)
    result = limen(home, "doctor", "gemini")
    assert result.returncode == 1
    assert "FAIL Gemini CLI ignores this project's hooks: it does not trust the folder" in result.stdout
    assert limen(home, "doctor", "gemini", env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}).returncode == 0


def test_gemini_user_hooks_in_a_folder_it_does_not_trust_fail(home: Path) -> None:
    assert limen(home, "install", "gemini").returncode == 0
    undecided = limen(home, "doctor", "gemini")
    assert undecided.returncode == 1 and "FAIL Gemini CLI has not been told to trust" in undecided.stdout
    write(home / ".gemini" / "trustedFolders.json", json.dumps({str(home): "DO_NOT_TRUST"}).encode())
    refused = limen(home, "doctor", "gemini")
    assert refused.returncode == 1 and "FAIL Gemini CLI runs no hook in this folder" in refused.stdout
    rules = {str(home): "DO_NOT_TRUST", str(home / "proj"): "TRUST_FOLDER"}  # the longer rule wins
    write(home / ".gemini" / "trustedFolders.json", json.dumps(rules).encode())
    assert limen(home, "doctor", "gemini").returncode == 0


def test_switched_off_hooks_fail(home: Path) -> None:
    assert limen(home, "install", "claude-code", "--project").returncode == 0
    write(home / ".claude" / "settings.json", b'{"disableAllHooks": true}')
    result = limen(home, "doctor", "claude-code")
    assert result.returncode == 1 and "FAIL disableAllHooks is true in" in result.stdout

    assert limen(home, "install", "codex").returncode == 0
    config = home / ".codex" / "config.toml"
    config.write_text("[features]\nhooks = false\n\n" + config.read_text())
    result = limen(home, "doctor", "codex")
    assert result.returncode == 1 and "FAIL [features] hooks = false" in result.stdout


def test_a_matcher_that_misses_the_shell_tool_fails(home: Path) -> None:
    assert limen(home, "install", "claude-code").returncode == 0
    path = settings(home, "claude-code")
    config = json.loads(path.read_text())
    for event in ("PreToolUse", "PostToolUse"):
        config["hooks"][event][0]["matcher"] = "Write|Edit"
    path.write_text(json.dumps(config))
    result = limen(home, "doctor", "claude-code")
    assert result.returncode == 1 and "FAIL no Limen hook here sees a shell command" in result.stdout

    config["hooks"]["PreToolUse"][0]["matcher"] = "^(Bash|Write)$"  # a regex: Claude Code searches with it
    path.write_text(json.dumps(config))
    assert limen(home, "doctor", "claude-code").returncode == 0


def test_the_configured_command_line_is_what_runs(home: Path) -> None:
    stub = write(home / "bin" / "limen-hook", b"#!/bin/sh\ncat >/dev/null\necho '{}'\n")
    stub.chmod(0o755)
    handler = {"type": "command", "command": f"{stub} claude-code", "timeout": 10}
    write(
        settings(home, "claude-code"), json.dumps({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}).encode()
    )
    result = limen(home, "doctor", "claude-code")
    assert result.returncode == 1
    assert (
        "FAIL a shell call `rm -rf ~` on PreToolUse (every tool) is NOT denied: exit 0, {}" in result.stdout
    )


def test_json_report(home: Path) -> None:
    assert limen(home, "install", "codex", "--project").returncode == 0
    assert limen(home, "install", "cursor").returncode == 0
    (home / ".codex" / "config.toml").unlink()
    result = limen(home, "doctor", "--json")
    assert result.returncode == 1
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["ok"] is False and report["workspace"] == str(home / "proj")
    agents = {a["agent"]: a for a in report["agents"]}
    assert set(agents) == {"codex", "cursor"} and agents["cursor"]["ok"] is True
    (codex_file,) = agents["codex"]["files"]
    assert codex_file["scope"] == "project" and codex_file["path"] == str(settings(home, "codex", "project"))
    failed = [c["check"] for c in codex_file["checks"] if not c["ok"]]
    assert failed and all("Codex" in line for line in failed)
    assert report["daemon"] == {"running": False, "pid": None}


def codex_binary() -> str | None:
    for candidate in (os.environ.get("LIMEN_CODEX"), shutil.which("codex"), str(E2E_CODEX)):
        if candidate and os.access(candidate, os.X_OK) and shutil.which("node"):
            return candidate
    return None


def codex_hooks(codex: str, home: Path) -> dict[str, dict[str, Any]]:
    """The hooks a real Codex discovers in the project, by state key, through its app server."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "t", "version": "0"}},
        },
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(home / "proj")]}},
    ]
    with subprocess.Popen(
        [codex, "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=home / "proj",
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()
        try:
            for line in proc.stdout:
                message = json.loads(line)
                if message.get("id") == 2:
                    return {h["key"]: h for entry in message["result"]["data"] for h in entry["hooks"]}
        finally:
            proc.kill()
    raise AssertionError("codex app-server closed without answering hooks/list")


@pytest.mark.skipif(codex_binary() is None, reason="no Codex CLI installed (set LIMEN_CODEX)")
def test_the_real_codex_trusts_what_limen_installed(home: Path) -> None:
    codex = codex_binary()
    assert codex is not None
    assert limen(home, "install", "codex").returncode == 0
    assert limen(home, "install", "codex", "--project").returncode == 0
    state = tomllib.loads((home / ".codex" / "config.toml").read_text())["hooks"]["state"]
    hooks = codex_hooks(codex, home)
    assert set(hooks) == set(state)  # user and project hooks: every one Limen installed is discovered
    for key, hook in hooks.items():
        assert hook["trustStatus"] == "trusted" and hook["currentHash"] == state[key]["trusted_hash"], key
    without_trust(home)
    assert {h["trustStatus"] for h in codex_hooks(codex, home).values()} == {"untrusted"}  # user hooks only
