"""The `limen` command behind a pipe whose reader goes away, and `limen explain` leaving no record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["LIMEN_HOME"] = str(home)
    return env


@pytest.mark.parametrize("reader", ["head -1", "true"])
@pytest.mark.parametrize("args", [["explain", "--json"], ["explain"], ["--help"]])
def test_a_closed_pipe_ends_quietly(tmp_path: Path, args: list[str], reader: str) -> None:
    """`limen explain ... | head -1`, or a reader that exits before reading (`| true`): no BrokenPipeError
    traceback, as with other Unix tools."""
    call = ["--tool", "Bash", "--args", json.dumps({"command": "rm -rf /"}), "--cwd", str(tmp_path)]
    command = [sys.executable, "-m", "limen", *args, *(call if args[0] == "explain" else [])]
    script = tmp_path / "call.sh"
    script.write_text(f"{subprocess.list2cmdline(command)} | {reader}\n")
    result = subprocess.run(
        ["sh", str(script)],
        capture_output=True,
        text=True,
        env=_env(tmp_path / "home"),
        timeout=60,
        check=False,
    )
    assert len(result.stdout.splitlines()) == (1 if reader.startswith("head") else 0)
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
    assert result.stderr == ""


def test_main_returns_the_sigpipe_status_when_the_reader_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    import limen.cli as cli

    def broken(argv: list[str] | None) -> int:
        raise BrokenPipeError

    monkeypatch.setattr(cli, "_main", broken)
    read, write = os.pipe()
    saved = os.dup(1)
    try:
        os.dup2(write, 1)
        assert cli.main(["log"]) == 141
    finally:
        os.dup2(saved, 1)
        for fd in (read, write, saved):
            os.close(fd)


def test_explain_decides_without_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An explanation is not a decision an agent met: nothing reaches the audit log, so `limen tune`
    never counts it."""
    from limen.cli import explain

    home = Path(os.environ["LIMEN_HOME"])
    before = sorted(p.relative_to(home) for p in home.rglob("*") if p.is_file() and "audit" in str(p))
    sizes = {p: p.stat().st_size for p in home.rglob("*") if p.is_file() and "audit" in str(p)}
    code = explain.main(["--tool", "Bash", "--args", '{"command": "rm -rf /"}', "--cwd", str(tmp_path)])
    assert code == 0
    after = sorted(p.relative_to(home) for p in home.rglob("*") if p.is_file() and "audit" in str(p))
    assert after == before
    assert {p: p.stat().st_size for p in home.rglob("*") if p.is_file() and "audit" in str(p)} == sizes
    import limen

    recorded = limen.evaluate("Bash", {"command": "rm -rf /"}, cwd=str(tmp_path), door="hook")
    assert recorded.verdict.name == "BLOCK"
    assert any("audit" in str(p) for p in home.rglob("*") if p.is_file())  # the real door does record
