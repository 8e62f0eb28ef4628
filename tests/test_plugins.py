"""Plug-in rules are discovered through the `limen.rules` entry-point group of installed distributions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PLUGIN = """
from limen.model import Finding, ReasonCode, Verdict

def no_friday_deploys(action, ctx):
    if "deploy" in action.command_line:
        yield Finding(ReasonCode.POLICY_ASK, Verdict.AUTH, 60, "deploys need a human")

def crashes(action, ctx):
    if "crash" in action.command_line:
        raise RuntimeError("plugin bug")
    return []
"""


def _install_plugin(site: Path) -> None:
    (site / "limen_test_plugin.py").write_text(PLUGIN)
    dist = site / "limen_test_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: limen-test-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[limen.rules]\nfriday = limen_test_plugin:no_friday_deploys\ncrash = limen_test_plugin:crashes\n"
    )


def _decide(site: Path, command: str, cwd: Path) -> dict[str, object]:
    code = (
        "import json, limen; "
        f"print(json.dumps(limen.evaluate('Bash', {{'command': {command!r}}}, cwd={str(cwd)!r}).to_dict()))"
    )
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_installed_plugin_rule_runs(tmp_path: Path) -> None:
    _install_plugin(tmp_path)
    decision = _decide(tmp_path, "make deploy", tmp_path)
    assert decision["verdict"] == "AUTH"
    assert decision["reasons"] == ["policy_ask"]


def test_crashing_plugin_blocks(tmp_path: Path) -> None:
    _install_plugin(tmp_path)
    decision = _decide(tmp_path, "echo crash", tmp_path)
    assert decision["verdict"] == "BLOCK"
    assert "rule_error" in decision["reasons"]
    assert "plugin bug" not in json.dumps(decision)


def test_plugins_are_not_discovered_in_the_working_directory(tmp_path: Path) -> None:
    """The agent can write to its working directory: a distribution there must not become a rule."""
    _install_plugin(tmp_path)
    call = f"limen.evaluate('Bash', {{'command': 'echo crash'}}, cwd={str(tmp_path)!r})"
    code = f"import json, sys, limen; sys.path.insert(0, ''); print(json.dumps({call}.to_dict()))"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert "rule_error" not in json.loads(out.stdout)["reasons"]
