"""Path rules: Limen's own files are untouchable, secret files ask, persistence asks (blocks when strict)."""

from __future__ import annotations

import os

import pytest

import limen
from limen.context import Context
from limen.model import Mode, ReasonCode, Verdict


def _decide(
    tool: str, arguments: dict[str, object], workspace: str, mode: Mode = Mode.BALANCED
) -> limen.Decision:
    return limen.evaluate(tool, arguments, cwd=workspace, context=Context.for_mode(mode, workspace))


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("Write", {"file_path": ".claude/settings.json", "content": "{}"}),
        ("Edit", {"file_path": ".claude/settings.local.json", "old_string": "a", "new_string": "b"}),
        ("Write", {"file_path": "limen.yaml", "content": "mode: light"}),
        ("Bash", {"command": "rm -rf .limen"}),
        ("Bash", {"command": "echo '{}' > ~/.gemini/settings.json"}),
        ("Read", {"file_path": "$LIMEN_HOME/keys/fingerprint.key"}),
    ],
)
def test_limens_control_plane_is_protected(tool: str, arguments: dict[str, object], workspace: str) -> None:
    decision = _decide(tool, arguments, workspace)
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.PROTECTED_PATH_BLOCKED in decision.reasons


def test_protected_names_apply_wherever_they_appear(workspace: str) -> None:
    ctx = Context.for_mode(Mode.BALANCED, workspace, protected_names=("protected.dat",))
    for command in ("rm protected.dat", "rm ./*.dat", "cp /dev/null sub/../protected.dat"):
        decision = limen.evaluate("Bash", {"command": command}, cwd=workspace, context=ctx)
        assert ReasonCode.PROTECTED_PATH_BLOCKED in decision.reasons, command


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.local",
        ".env.production",
        "~/.ssh/id_rsa",
        "~/.ssh/id_ed25519",
        "~/.aws/credentials",
        "deploy/server.key",
        "~/.netrc",
        "~/.git-credentials",
        "~/.config/google-chrome/Default/Login Data",
        "~/Library/Keychains/login.keychain-db",
        "/etc/shadow",
        "~/.kube/config",
        "~/.ssh/deploy_key",
    ],
)
def test_secret_files_ask(path: str, workspace: str) -> None:
    decision = _decide("Read", {"file_path": path}, workspace)
    assert decision.verdict is Verdict.AUTH
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in decision.reasons


@pytest.mark.parametrize(
    "path",
    [
        ".env.example",
        ".env.sample",
        "~/.ssh/id_rsa.pub",
        "~/.ssh/known_hosts",
        "~/.ssh/config",
        "src/credentials_form.py",
    ],
)
def test_secret_lookalikes_stay_quiet(path: str, workspace: str) -> None:
    assert _decide("Read", {"file_path": path}, workspace).verdict is Verdict.PASS


def test_a_glob_that_can_match_a_secret_counts_as_touching_it(workspace: str) -> None:
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in _decide("Bash", {"command": "cat ./.e*"}, workspace).reasons
    assert (
        ReasonCode.SENSITIVE_SECRET_ACCESS
        in _decide("Bash", {"command": "cat ~/.ss?/id_*"}, workspace).reasons
    )


def test_a_star_does_not_match_dotfiles(workspace: str) -> None:
    assert _decide("Bash", {"command": "wc -l ./*"}, workspace).verdict is Verdict.PASS


@pytest.mark.parametrize(
    "path",
    [
        "~/.bashrc",
        "~/.zshrc",
        ".git/hooks/pre-commit",
        ".github/workflows/release.yml",
        "~/.ssh/authorized_keys",
    ],
)
def test_persistence_asks_and_blocks_when_strict(path: str, workspace: str) -> None:
    balanced = _decide("Write", {"file_path": path, "content": "x"}, workspace)
    assert ReasonCode.PERSISTENCE_WRITE in balanced.reasons
    assert balanced.verdict is Verdict.AUTH
    assert (
        _decide("Write", {"file_path": path, "content": "x"}, workspace, Mode.STRICT).verdict is Verdict.BLOCK
    )


def test_system_writes_ask_but_home_and_workspace_do_not(workspace: str) -> None:
    system = _decide("Write", {"file_path": "/usr/local/bin/tool", "content": "x"}, workspace)
    assert ReasonCode.SENSITIVE_PATH_ACCESS in system.reasons
    assert _decide("Write", {"file_path": "~/notes.txt", "content": "x"}, workspace).verdict is Verdict.PASS
    inside = os.path.join(workspace, "src", "new.py")
    assert _decide("Write", {"file_path": inside, "content": "x"}, workspace).verdict is Verdict.PASS


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf .claude",
        "mv .claude .c2",
        "chmod 000 .limen",
        "rm -rf $LIMEN_HOME/..",
        "mv $LIMEN_HOME /tmp/x",
    ],
)
def test_a_directory_holding_limens_files_is_protected(command: str, workspace: str) -> None:
    os.makedirs(os.path.join(workspace, ".claude"), exist_ok=True)
    decision = _decide("Bash", {"command": command}, workspace)
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.PROTECTED_PATH_BLOCKED in decision.reasons


def test_ordinary_sweeps_of_the_workspace_stay_open(workspace: str) -> None:
    decision = _decide("Bash", {"command": "find . -name '*.pyc' -delete"}, workspace)
    assert ReasonCode.PROTECTED_PATH_BLOCKED not in decision.reasons


@pytest.mark.parametrize(
    ("command", "blocked"),
    [
        ("limen uninstall claude-code --mcp", True),
        ("limen tools approve fs read_file", True),
        ("/opt/venv/bin/limen policy approve 3 --totp 123456", True),
        ("python -m limen session clear --yes", True),
        ("limen log --jsonl", False),
        ("limen explain --tool Bash --args '{}'", False),
        ("limen tools list", False),
    ],
)
def test_agents_cannot_run_limens_loosening_commands(command: str, blocked: bool, workspace: str) -> None:
    decision = _decide("Bash", {"command": command}, workspace)
    assert (ReasonCode.PROTECTED_PATH_BLOCKED in decision.reasons) is blocked


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notes/deploy.md", "Deploy with\nAWS_ACCESS_KEY_ID=AKIAZ7QWERTYUIOP2345\n"),
        ("config/settings.py", 'STRIPE_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"\n'),
        ("tmp/token.txt", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R\n"),
    ],
)
def test_a_read_of_a_file_that_holds_a_credential_asks_before_it_runs(
    name: str, content: str, workspace: str
) -> None:
    """The name says nothing; the content does. The output could not be taken back from every agent once
    the tool ran, so the read is decided on what the file holds."""
    path = os.path.join(workspace, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(content)
    decision = _decide("Read", {"file_path": path}, workspace)
    assert decision.verdict is Verdict.AUTH
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in decision.reasons
    assert "AKIA" not in decision.explanation and "sk_live" not in decision.explanation


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("README.md", "Set AWS_ACCESS_KEY_ID=<your key> before running.\n"),
        ("src/app.py", "api_key = os.environ['API_KEY']\nhash = 'd41d8cd98f00b204e9800998ecf8427e'\n"),
        ("docs/example.env", "TOKEN=changeme\n"),
    ],
)
def test_a_read_of_an_ordinary_file_passes(name: str, content: str, workspace: str) -> None:
    path = os.path.join(workspace, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(content)
    assert _decide("Read", {"file_path": path}, workspace).verdict is Verdict.PASS


def test_a_read_of_a_fifo_is_not_opened_for_its_content(workspace: str) -> None:
    """A probe must never block: a named pipe with no writer would hang an open for reading."""
    path = os.path.join(workspace, "pipe")
    os.mkfifo(path)
    assert ReasonCode.SENSITIVE_SECRET_ACCESS not in _decide("Read", {"file_path": path}, workspace).reasons
