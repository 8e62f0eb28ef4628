"""The `approvals:` section of limen.yaml: defaults, the merge over levels, and bad values refused with
file, line and key (and a broken section fails the decision closed, like any policy error)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from limen.approvals.config import ApprovalConfig, load
from limen.model import Verdict
from limen.policy import PolicyError
from limen.runtime import Runtime


def write(path: str, text: str) -> str:
    with open(path, "w") as fh:
        fh.write(text)
    return path


def test_no_file_means_the_defaults(workspace: str) -> None:
    config = load(workspace)
    assert config == ApprovalConfig()
    assert (config.channels, config.expiry_seconds) == (("terminal", "cli"), 600)


def test_the_section_is_read_and_each_level_may_only_shorten_the_expiry(
    workspace: str, limen_home: Path
) -> None:
    write(
        str(limen_home / "policy.yaml"),
        "approvals:\n  channels: [ntfy, cli]\n  expiry_seconds: 300\n"
        "  ntfy:\n    url: https://ntfy.example.org/limen-alerts\n",
    )
    write(
        os.path.join(workspace, "limen.yaml"),
        "version: 1\napprovals:\n  channels: [cli]\n  expiry_seconds: 900\n  wait_seconds: 30\n"
        "  callback:\n    listen: 127.0.0.1:8799\n    public_url: https://approve.example.org\n",
    )
    config = load(workspace)
    assert config.channels == ("ntfy", "cli")  # the user level is above the project
    assert config.expiry_seconds == 300  # a longer expiry below does not lengthen it
    assert config.wait_seconds == 30 and config.ntfy_url == "https://ntfy.example.org/limen-alerts"
    assert (config.listen, config.public_url) == ("127.0.0.1:8799", "https://approve.example.org")


@pytest.mark.parametrize(
    ("section", "line", "key", "message"),
    [
        ("  expiry_seconds: 5\n", 3, "approvals.expiry_seconds", "greater than or equal to 10"),
        ("  channels: [pager]\n", 3, "approvals.channels[0]", "Input should be"),
        ("  channels: [cli, cli]\n", 3, "approvals.channels", "listed twice"),
        ("  channels: [webhook]\n", 2, "approvals", "approvals.webhook is not set"),
        ("  webhook:\n    url: ftp://x.example\n", 4, "approvals.webhook.url", "http:// or https://"),
        ("  callback:\n    listen: 0.0.0.0:8080\n", 4, "approvals.callback.listen", "loopback"),
        ("  wait: 10\n", 3, "approvals.wait", "unknown key"),
    ],
)
def test_bad_settings_are_refused_with_file_line_and_key(
    workspace: str, section: str, line: int, key: str, message: str
) -> None:
    path = write(os.path.join(workspace, "limen.yaml"), "version: 1\napprovals:\n" + section)
    with pytest.raises(PolicyError) as caught:
        load(workspace)
    problem = caught.value.problems[0]
    assert (problem.file, problem.line, problem.key) == (path, line, key)
    assert message in problem.message
    decision = Runtime(workspace=workspace).decide("Bash", {"command": "ls"}, session_id="s", door="hook")
    assert decision.verdict is Verdict.BLOCK  # a policy Limen cannot read decides nothing
    check = subprocess.run(
        [sys.executable, "-m", "limen", "config", "check"], cwd=workspace, capture_output=True, text=True
    )
    assert check.returncode != 0 and f"limen.yaml:{line}" in check.stdout + check.stderr
