"""A home folder under a temporary folder (a sandbox's, a CI user's) is still the user's own: its files are
kept, its tools' logins are secret. The same calls are judged as under /home."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

import limen
from limen.context import Context
from limen.model import Mode, ReasonCode


@pytest.fixture
def home_in_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A home folder under /tmp, beside the workspace (not in it)."""
    home = os.path.realpath(tempfile.mkdtemp(prefix="home-", dir="/tmp"))
    monkeypatch.setenv("HOME", home)
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("find ~/Documents ~/Desktop -type f -mtime -60 -delete", ReasonCode.DESTRUCTIVE_COMMAND),
        ("rm -rf ~/projects/shop/.git", ReasonCode.DESTRUCTIVE_COMMAND),
        ("cat ~/.p4tickets", ReasonCode.SENSITIVE_SECRET_ACCESS),
        ("cat ~/.config/itch/butler_creds", ReasonCode.SENSITIVE_SECRET_ACCESS),
        ("shred -uz -n 3 ~/cases/*/chain_of_custody.log", ReasonCode.DESTRUCTIVE_COMMAND),
    ],
)
def test_a_home_under_tmp_is_the_users_own(
    line: str, code: ReasonCode, workspace: str, home_in_tmp: str
) -> None:
    ctx = Context.for_mode(Mode.BALANCED, workspace)
    decision = limen.evaluate("Bash", {"command": line}, cwd=workspace, context=ctx)
    assert code in decision.reasons, decision.explanation


@pytest.mark.parametrize(
    "line",
    ["find ~/Downloads -type f -mtime +30 -delete", "rm -rf /tmp/build-1/.git", "shred -u /tmp/test-key.pem"],
)
def test_old_files_and_scratch_clones_stay_quiet(line: str, workspace: str, home_in_tmp: str) -> None:
    ctx = Context.for_mode(Mode.BALANCED, workspace)
    decision = limen.evaluate("Bash", {"command": line}, cwd=workspace, context=ctx)
    assert ReasonCode.DESTRUCTIVE_COMMAND not in decision.reasons, decision.explanation
