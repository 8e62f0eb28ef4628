"""The shell executor runs an argv without a shell, within its time and output limits."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from limen.sdk import Denied, ExecutionFailed, Guard
from limen.sdk.executors.shell import ShellExecutor, Timeout


def test_words_are_arguments_not_shell_syntax(project: Path) -> None:
    shell = ShellExecutor(project)
    result = shell.run(["echo", "a;", "touch", "pwned", "$(id)", "*"])
    assert result == {"exit_status": 0, "output": "a; touch pwned $(id) *\n", "truncated": False}
    assert not (project / "pwned").exists()
    assert shell.run(["ls"])["output"] == "README.md\nnotes\n"  # runs in the workspace


def test_the_environment_is_the_applications_not_the_callers(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "s3cr3t")
    shell = ShellExecutor(project, env={"PATH": "/usr/bin:/bin", "GREETING": "hi"})
    output = str(shell.run(["env"])["output"])
    assert "GREETING=hi" in output and "s3cr3t" not in output


def test_a_command_past_its_time_is_killed_with_its_children(project: Path) -> None:
    shell = ShellExecutor(project, timeout=0.5, env={"PATH": "/usr/bin:/bin"})
    started = time.monotonic()
    script = "import subprocess, time; subprocess.Popen(['sleep', '30']); time.sleep(30)"
    with pytest.raises(Timeout):
        shell.run([sys.executable, "-c", script])
    assert time.monotonic() - started < 5


def test_output_past_the_limit_is_cut_and_the_command_stopped(project: Path) -> None:
    shell = ShellExecutor(project, max_output=1000, timeout=10)
    started = time.monotonic()
    result = shell.run(["yes"])
    assert result["truncated"] is True and len(str(result["output"])) == 1000
    assert time.monotonic() - started < 5


def test_a_missing_program_or_bad_argv_is_an_error(project: Path) -> None:
    shell = ShellExecutor(project)
    with pytest.raises(FileNotFoundError):
        shell.run(["no-such-program-here"])
    with pytest.raises(ValueError):
        shell.run([])


def test_through_a_guard_a_timeout_halts_and_a_destructive_argv_never_runs(project: Path) -> None:
    guard = Guard(project, audit=False)
    guard.register(ShellExecutor(project, timeout=0.3).run, name="run")
    with pytest.raises(Denied):
        guard.call("run", {"argv": ["rm", "-rf", str(project)]})
    assert (project / "README.md").exists()
    assert guard.call("run", {"argv": ["echo", "ok"]})["output"] == "ok\n"
    with pytest.raises(ExecutionFailed, match="Timeout"):
        guard.call("run", {"argv": ["sleep", "5"]})
    with pytest.raises(Denied) as halted:
        guard.call("run", {"argv": ["echo", "ok"]})
    assert "session_halted" in halted.value.reasons
