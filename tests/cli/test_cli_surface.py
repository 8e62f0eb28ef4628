"""The `limen` command as a person meets it: help on every level, JSON where data is printed, quiet pipes,
no colour codes where nobody asked for them, and completion scripts."""

from __future__ import annotations

import argparse
import json
import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from limen.cli import COMMANDS, main
from limen.cli.completion import DISPATCHED, parsers, tree

NESTED = [
    ["config", "check"],
    ["policy", "status"],
    ["policy", "approve"],
    ["audit", "verify"],
    ["session", "show"],
    ["session", "clear"],
    ["daemon", "status"],
    ["daemon", "start"],
    ["tools", "list"],
    ["tools", "approve"],
    ["ca", "init"],
    ["mcp", "serve"],
    *[[name, word] for name, words in DISPATCHED.items() for word in words],
]
RUNS_WITH_EXTRA = {"proxy", "ca"}  # their help needs no extra; what they run does


def _limen(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("command", [[name] for name in COMMANDS] + NESTED, ids=" ".join)
def test_every_command_and_level_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`limen X --help` exits 0 and prints its usage, without Markdown (help is read in a terminal)."""
    with pytest.raises(SystemExit) as exited:
        code = main([*command, "--help"])
        raise SystemExit(code)
    out = capsys.readouterr().out
    assert exited.value.code == 0, out
    assert out.startswith("usage: limen"), out
    assert " ".join(command) in out.splitlines()[0] or command[0] in out.splitlines()[0]
    assert "`" not in out and "**" not in out, out


def test_the_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = {line.split()[0] for line in out.split("commands:")[1].split("options:")[0].splitlines() if line}
    assert listed == set(COMMANDS)
    assert all(help_[0].isupper() and help_.endswith(".") for _, help_ in COMMANDS.values())


def test_mcp_help_shows_the_server_command_and_serve(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["mcp", "--help"])
    out = capsys.readouterr().out
    assert "[--] CMD [ARG...]" in out and "limen mcp serve --listen" in out


def test_limen_hook_help_is_help_and_anything_else_still_blocks() -> None:
    helped = _limen("hook", "--help")
    assert helped.returncode == 0 and "claude-code" in helped.stdout
    refused = _limen("hook")  # no agent: the blocking exit code every agent understands
    assert refused.returncode == 2


def test_the_hook_path_never_imports_rich() -> None:
    code = (
        "import sys, limen.cli.hook, limen.doors.hooks.client; "
        "print(any(m == 'rich' or m.startswith('rich.') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@pytest.fixture
def decided(workspace: str) -> list[str]:
    from limen.runtime import Runtime

    runtime = Runtime(workspace=workspace)
    ids = [
        runtime.decide(
            "Read", {"file_path": f"{workspace}/README.md"}, session_id="s1", door="hook"
        ).decision_id,
        runtime.decide("Bash", {"command": "rm -rf ~"}, session_id="s1", door="hook").decision_id,
    ]
    runtime.close()
    return ids


@pytest.mark.parametrize(
    "command",
    [
        ["log", "--json"],
        ["session", "show", "--json"],
        ["session", "show", "s1", "--json"],
        ["tools", "list", "--json"],
        ["doctor", "--json"],
        ["daemon", "status", "--json"],
        ["pending", "--json"],
        ["config", "check", "--json"],
        ["tune", "--json"],
        ["audit", "verify", "--json"],
        ["explain", "--tool", "Bash", "--args", '{"command": "ls"}', "--json"],
        ["policy", "status", "--json"],
        ["serve", "token", "list", "--json"],
        ["demo", "--json"],
        ["policy", "pending", "--json"],
        ["policy", "history", "--json"],
        ["install", "claude-code", "--project", "--dry-run", "--json"],
        ["install", "cursor", "--mcp", "--project", "--dry-run", "--json"],
        ["uninstall", "gemini", "--project", "--dry-run", "--json"],
    ],
    ids=" ".join,
)
def test_json_output_parses(
    command: list[str], decided: list[str], workspace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    os.chdir(workspace)
    main(command)
    out = capsys.readouterr().out
    json.loads(out)


def test_install_json_reports_the_change_it_would_make(
    workspace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    os.chdir(workspace)
    assert main(["install", "claude-code", "--project", "--dry-run", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["dry_run"] is True and report["action"] == "install"
    (written,) = report["hooks"]["files"]
    assert written["path"].endswith(".claude/settings.json") and "limen-hook" in written["diff"]
    assert not Path(written["path"]).exists()  # a dry run writes nothing


def test_log_has_a_header_row_and_full_words(decided: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "TIME",
        "DECISION",
        "VERDICT",
        "RISK",
        "KIND",
        "TOOL",
        "SESSION",
        "REASONS",
        "TARGETS",
    ]
    assert len(lines) == 3
    assert "decision" in lines[1].split() and "BLOCK" in lines[2].split()
    assert main(["log", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in records] == decided
    assert main(["log", "--jsonl"]) == 0  # the deprecated flag keeps its format: one record per line
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == decided


def test_config_check_lists_problems_by_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "limen.yaml"
    policy.write_text(
        "version: 1\nmode: balanced\nrisk:\n  bulk_threshold: 0\ntrusted_hosts:\n  add: ['*']\nnonsense: 1\n"
    )
    assert main(["config", "check", str(policy)]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith(str(policy))]
    numbers = [int(line.split(":")[1]) for line in lines]
    assert len(numbers) >= 2 and numbers == sorted(numbers)


PIPED = [
    ["--help"],
    ["log"],
    ["log", "--json"],
    ["demo"],
    ["completion", "bash"],
    ["session", "show", "s1"],
    ["install", "claude-code", "--dry-run", "--project"],
    ["doctor"],
    ["tune"],
    ["audit", "verify"],
    ["pending"],
    ["tools", "list"],
    ["policy", "history"],
    ["config", "check"],
    ["daemon", "status"],
    ["bench", "--help"],
]


@pytest.mark.parametrize("command", PIPED, ids=" ".join)
def test_head_closing_the_pipe_gives_no_traceback(
    command: list[str], decided: list[str], workspace: str
) -> None:
    """`limen ... | head -1` (and a reader that never reads): one line, then a quiet end."""
    argv = [sys.executable, "-m", "limen", *command]
    for reader, lines in (("head -1", 1), ("true", 0)):
        done = subprocess.run(
            ["sh", "-c", f"{subprocess.list2cmdline(argv)} | {reader}"],
            capture_output=True,
            text=True,
            cwd=workspace,
            timeout=120,
            check=False,
        )
        assert len(done.stdout.splitlines()) == lines
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_a_thread_writing_to_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """What a command prints from a thread meets the same quiet end as the main thread."""
    script = tmp_path / "threaded.py"
    script.write_text(
        "import sys, threading, limen.cli as cli\n"
        "def speak():\n"
        "    for _ in range(100000):\n"
        "        print('line from a thread')\n"
        "def fake(argv):\n"
        "    t = threading.Thread(target=speak); t.start(); t.join(); return 0\n"
        "cli._main = fake\n"
        "sys.exit(cli.main([]))\n"
    )
    done = subprocess.run(
        ["sh", "-c", f"{sys.executable} {script} | head -1"], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "line from a thread\n"
    assert "Traceback" not in done.stderr and "Exception in thread" not in done.stderr, done.stderr


def _on_a_terminal(args: list[str], env: dict[str, str], cwd: str) -> bytes:
    """What `limen ARGS` writes to a real terminal (a pseudo-terminal), colours included."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdout is the terminal
        os.chdir(cwd)
        os.execve(sys.executable, [sys.executable, "-m", "limen", *args], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out


def test_colour_only_at_a_terminal_that_wants_it(decided: list[str], workspace: str) -> None:
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "200"}
    env.pop("NO_COLOR", None)
    plain = {**env, "NO_COLOR": "1"}
    assert b"\x1b[" not in _on_a_terminal(["log"], plain, workspace)
    piped = subprocess.run(
        [sys.executable, "-m", "limen", "log"], capture_output=True, env=env, cwd=workspace, timeout=60
    )
    assert b"\x1b[" not in piped.stdout and b"VERDICT" in piped.stdout
    assert b"\x1b[" not in _on_a_terminal(["doctor"], plain, workspace)
    pytest.importorskip("rich")
    coloured = _on_a_terminal(["log"], env, workspace)
    assert b"\x1b[" in coloured and b"VERDICT" in coloured
    checked = _on_a_terminal(["doctor"], env, workspace)  # the ok / FAIL marks, coloured; the words stay
    assert b"\x1b[" in checked and b"ok" in checked


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_produced_and_parse(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for word in ("session", "completion", "verdict", "serve"):
        assert word in script
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    checked = subprocess.run([shell, "-n"], input=script, capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr


def test_bash_completion_offers_what_the_parsers_accept() -> None:
    script = subprocess.run(
        [sys.executable, "-m", "limen", "completion", "bash"], capture_output=True, text=True, check=True
    ).stdout
    probe = (
        f"{script}\n"
        'complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _limen; echo "${COMPREPLY[*]}"; }\n'
        "complete_words limen ses\n"
        "complete_words limen session ''\n"
        "complete_words limen log --ver\n"
        "complete_words limen serve token ''\n"
    )
    lines = subprocess.run(
        ["bash", "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert lines[0] == "session"
    assert {"show", "clear", "halt"} <= set(lines[1].split())
    assert lines[2] == "--verdict"
    assert {"add", "list", "remove"} <= set(lines[3].split())


def test_the_completion_tree_knows_every_command() -> None:
    words = tree()
    assert set(words) == set(COMMANDS)
    assert "--json" in words["log"].options and "--jsonl" in words["log"].options
    assert set(words["daemon"].commands) == {"start", "stop", "status"}  # `serve` is internal
    assert "serve" in words["mcp"].commands and "--listen" in words["mcp"].commands["serve"].options


def _texts(parser: argparse.ArgumentParser, nested: bool = False) -> Iterator[tuple[str, str | None]]:
    """(where, text) of a parser's description, its arguments' help and its sub-commands', recursively (a
    sub-command's description may be left out: its help line says what it does)."""
    if not nested or parser.description is not None:
        yield f"{parser.prog}: description", parser.description
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue  # argparse's own words
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{parser.prog} {choice.dest}", choice.help
            for sub in action.choices.values():
                yield from _texts(sub, nested=True)
        elif action.help != argparse.SUPPRESS:
            yield f"{parser.prog} {'/'.join(action.option_strings) or action.dest}", action.help


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "hook"])
def test_help_texts_are_sentences_without_markdown(name: str) -> None:
    """Every description and argument help of `limen NAME` (its nested commands included): a sentence that
    starts with a capital and ends with a period, and no Markdown."""
    found = parsers(name)
    assert "" in found
    bad = [
        f"{where}: {text!r}"
        for parser in found.values()
        for where, text in _texts(parser)
        if text is None
        or not text.strip().endswith(".")
        or (text[0].isalpha() and not text[0].isupper())
        or "`" in text
        or "**" in text
    ]
    internal = [b for b in bad if b.startswith("limen daemon serve")]  # `daemon serve` has no help: internal
    assert [b for b in bad if b not in internal] == []


def test_tools_list_is_a_table_and_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from limen.floors import toolpin

    monkeypatch.setattr(toolpin, "pending", lambda: ["fs/fetch_notes"])
    assert main(["tools", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["TOOL", "STATE", "APPROVE", "WITH"]
    assert lines[1].split()[0] == "fs/fetch_notes" and lines[1].endswith("limen tools approve fs fetch_notes")
    assert main(["tools", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"server": "fs", "tool": "fetch_notes"}]
