"""The path fact table: what each file that runs later, or is read as agent instructions, is for."""

from __future__ import annotations

import pytest

from limen.facts.paths import INSTRUCTIONS, PERSISTENCE, describe

HOME = "/home/u"


@pytest.mark.parametrize(
    ("path", "name", "asks"),
    [
        ("/home/u/.bashrc", "shell_rc", True),
        ("/home/u/.zshenv", "shell_rc", True),
        ("/etc/profile.d/x.sh", "shell_rc", True),
        ("/w/.git/hooks/pre-commit", "git_hook", False),  # judged by what it runs
        ("/w/.githooks/pre-push", "git_hook", False),
        ("/w/.git/config", "git_config", False),
        ("/w/.husky/pre-push", "husky", False),
        ("/w/.github/workflows/ci.yml", "workflow", False),
        ("/w/conftest.py", "conftest", False),
        ("/w/tests/unit/conftest.py", "conftest", False),
        ("/w/setup.py", "setup_py", False),
        ("/w/pytest.ini", "pytest_ini", False),
        ("/w/package.json", "package_json", False),
        ("/w/pyproject.toml", "pyproject", False),
        ("/w/Makefile", "makefile", False),
        ("/w/.vscode/tasks.json", "vscode_tasks", False),
        ("/w/.vscode/settings.json", "vscode_settings", False),
        ("/w/.pre-commit-config.yaml", "pre_commit", False),
        ("/w/.envrc", "envrc", False),
        ("/home/u/.ssh/config", "ssh_config", False),
        ("/home/u/.ssh/authorized_keys", "authorized_keys", True),
        ("/var/spool/cron/crontabs/u", "cron", True),
        ("/etc/cron.d/backup", "cron", True),
        ("/home/u/.config/systemd/user/sync.service", "systemd", True),
        ("/etc/systemd/system/x.service", "systemd", True),
        ("/home/u/Library/LaunchAgents/com.x.plist", "launchd", True),
        ("/usr/lib/python3/dist-packages/zz.pth", "pth", True),
        ("/home/u/.local/lib/python3.11/site-packages/sitecustomize.py", "sitecustomize", True),
    ],
)
def test_persistence_places(path: str, name: str, asks: bool) -> None:
    fact = describe(path, home=HOME)
    assert fact is not None and fact.kind == PERSISTENCE, path
    assert (fact.name, fact.asks) == (name, asks)
    assert fact.purpose


@pytest.mark.parametrize(
    "path",
    [
        "/w/CLAUDE.md",
        "/w/sub/AGENTS.md",
        "/w/GEMINI.md",
        "/w/.cursorrules",
        "/w/.cursor/rules/style.mdc",
        "/w/.github/copilot-instructions.md",
        "/w/.claude/commands/deploy.md",
        "/w/.claude/agents/reviewer.md",
        "/w/.gemini/commands/ship.toml",
        "/home/u/.claude/CLAUDE.md",
        "/home/u/.codex/AGENTS.md",
    ],
)
def test_agent_instruction_files(path: str) -> None:
    fact = describe(path, home=HOME)
    assert fact is not None and fact.kind == INSTRUCTIONS, path


@pytest.mark.parametrize(
    "path",
    [
        "/w/README.md",
        "/w/dotfiles/bashrc",
        "/w/examples/.bashrc",  # a sample in a project outside home: nothing runs it
        "/w/docs/conftest.txt",
        "/w/.github/ISSUE_TEMPLATE/bug.md",
        "/home/u/.ssh/known_hosts",
        "/w/.vscode/extensions.json",
        "/w/claude.md.bak",
    ],
)
def test_look_alikes_are_not_described(path: str) -> None:
    assert describe(path, home=HOME) is None


@pytest.mark.parametrize("name", ["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "uv.lock"])
def test_lockfiles_are_package_sources_judged_by_what_they_name(name: str) -> None:
    """A lockfile records where each package is fetched from: its text is read for addresses, and it never
    asks for what it is alone (an edit that only bumps versions stays quiet)."""
    fact = describe(f"/w/{name}", home=HOME)
    assert fact is not None and fact.content == "package_sources" and not fact.asks


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("/w/src/app.py", "python"),
        ("/w/scripts/build.sh", "shell"),
        ("/w/lib/index.mjs", "node"),
        ("/w/tools/clean.rb", "ruby"),
        ("/w/bin/report.pl", "perl"),
        ("/w/public/index.php", "php"),
    ],
)
def test_program_code_is_judged_only_for_what_would_be_blocked(path: str, content: str) -> None:
    fact = describe(path, home=HOME)
    assert fact is not None and fact.severe_only and fact.content == content and not fact.asks


def test_a_file_that_runs_later_keeps_its_own_description_over_its_extension() -> None:
    fact = describe("/w/conftest.py", home=HOME)
    assert fact is not None and not fact.severe_only
