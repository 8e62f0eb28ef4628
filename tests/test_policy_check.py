"""`limen config check` and `limen init`, run as real subprocesses."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "configs"
EXPECT = re.compile(r"^# expect: (error|warning) (?:(\S+) )?line (\d+): (.+)$")


def limen(
    *args: str, cwd: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *args], capture_output=True, text=True, timeout=60, cwd=cwd, env=env
    )


def expectations() -> dict[str, tuple[str, str, int, str]]:
    out = {}
    for path in sorted(FIXTURES.glob("*.yaml")):
        match = EXPECT.match(path.read_text().splitlines()[0])
        assert match, f"{path.name} has no `# expect:` header"
        severity, key, line, words = match.groups()
        out[str(path)] = (severity, key or "", int(line), words)
    return out


def test_every_broken_config_is_reported_with_its_exact_key_path() -> None:
    result = limen("config", "check", "--json", str(FIXTURES))
    assert result.returncode == 1, result.stderr
    problems = json.loads(result.stdout)["problems"]
    expected = expectations()
    assert len(expected) >= 15
    for file, (severity, key, line, words) in expected.items():
        found = [p for p in problems if p["file"] == file]
        assert [(p["severity"], p["key"], p["line"]) for p in found] == [(severity, key, line)], file
        assert words.lower() in found[0]["message"].lower(), (file, found[0]["message"])


def test_the_human_output_names_file_line_and_key() -> None:
    result = limen("config", "check", str(FIXTURES / "bad_regex.yaml"), str(FIXTURES / "shadowed.yaml"))
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f"{FIXTURES / 'bad_regex.yaml'}:6: error: chain[0].rules[0].match.commands[0]: "
    )
    assert lines[1].startswith(f"{FIXTURES / 'shadowed.yaml'}:8: warning: chain[0].rules[1]: ")
    assert lines[-1] == "1 error(s), 1 warning(s)" and result.returncode == 1


def test_warnings_alone_do_not_fail_the_check() -> None:
    result = limen("config", "check", str(FIXTURES / "unreachable.yaml"))
    assert result.returncode == 0 and "never runs" in result.stdout


def test_init_writes_a_default_that_checks_clean_and_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from limen.cli import main
    from limen.model import ReasonCode, Verdict
    from limen.policy import load_context
    from policy_helpers import decision, no_org_policy

    no_org_policy(monkeypatch, tmp_path)
    ws = os.path.realpath(tmp_path / "project")
    os.mkdir(ws)
    assert main(["init", "--workspace", ws]) == 0
    assert main(["init", "--workspace", ws]) == 1  # never overwrites silently
    assert "\ndefault_action: by_door\n" in Path(ws, "limen.yaml").read_text()  # explicit, commented
    capsys.readouterr()
    assert main(["config", "check", "--workspace", ws]) == 0
    assert capsys.readouterr().out.strip() == "policy OK"
    ctx = load_context(ws)
    assert ctx.policy is not None and ctx.policy.notes == ()  # the default only tightens
    d = decision(ctx, "WebFetch", {"url": "https://pastebin.com/raw/x"})
    assert d.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in d.reasons
    read = {"file_path": f"{ws}/README.md"}
    assert ReasonCode.POLICY_DENIED not in decision(ctx, "Read", read).reasons
    assert ReasonCode.POLICY_DENIED in decision(ctx, "Read", read, door="sdk").reasons
