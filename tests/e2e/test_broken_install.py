"""End to end: Limen uninstalled in the middle of a session, and the real agent CLIs still deny every call.

The harness of `test_agent_clis` (a fresh HOME and git project, the scripted model on loopback, the CLIs run
headless), with one difference: Limen comes from a scratch virtualenv where pip installed it, and `limen
install <agent> --project` is run from there, so the hook command the agent reads names that venv's
`limen-hook`. The session starts with Limen in place; once the first tool call's result is back, the scripted
model runs a real `pip uninstall -y limen` on the scratch venv before it answers, as an agent's own `pip
uninstall` would. Then:

    step 0  shell `ls`                              before the uninstall: decided by Limen (audited), runs
    step 1  shell `rm -rf ~/important`              must be denied: ~/important/keep.txt stays
    step 2  shell `touch ~/important/after.txt`     harmless, but with Limen gone nothing is checked:
                                                    denied as well, the file is never created

A bare `limen-hook` command would exit 127 here, which Claude Code, Codex and Gemini CLI all treat as a
non-blocking error: both calls would run. The guard `limen install` writes turns it into exit 2 with
"Limen is missing or broken" on stderr, which each agent takes as a block and shows the model.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from model_server import Recorded, ScriptedModel, Step, serve
from test_agent_clis import AGENTS, LIMEN, VENV_BIN, base_env, read_audit, run_cli, why_skipped

from limen.install import TARGETS
from test_install import pip, scratch_limen

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(why_skipped() is not None, reason=why_skipped() or "")]

DENIED = "Limen is missing or broken"


@dataclass(eq=False)
class UninstallingModel(ScriptedModel):
    """The scripted model, which uninstalls Limen from `venv` before it answers the first request that
    carries a tool result."""

    venv: Path | None = None
    uninstalled: str = ""

    def record(self, entry: Recorded) -> None:
        with self.lock:
            if entry.main_loop and entry.results_seen and self.venv is not None and not self.uninstalled:
                self.uninstalled = pip(self.venv, "uninstall", "-y", "limen").stdout
        super().record(entry)


@dataclass
class BrokenRun:
    agent: str
    home: Path
    venv: Path
    model: UninstallingModel
    install: subprocess.CompletedProcess[str]
    returncode: int | None
    stdout: str
    stderr: str
    audit: list[dict[str, object]]

    def describe(self) -> str:
        return (
            f"\n--- {self.agent}: install exited {self.install.returncode}\n{self.install.stderr[-1500:]}"
            f"\n--- pip uninstall: {self.model.uninstalled.strip()!r}"
            f"\n--- CLI exited {self.returncode}\nstdout: {self.stdout[-2000:]}"
            f"\nstderr: {self.stderr[-2500:]}"
            f"\n--- model requests:\n{self.model.summary()}"
        )


@pytest.fixture(scope="module", params=sorted(AGENTS))
def broken(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokenRun]:
    agent = AGENTS[request.param]
    root = tmp_path_factory.mktemp(f"broken-{agent.name}")
    home = root / "home"
    project = home / "proj"
    project.mkdir(parents=True)
    (home / "important").mkdir()
    (home / "important" / "keep.txt").write_text("do not delete\n")
    (root / "scratch").mkdir()
    venv = scratch_limen(root / "scratch")
    env = base_env(home)
    path = [p for p in env["PATH"].split(os.pathsep) if Path(p) != VENV_BIN]  # no other Limen to find
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *path])
    subprocess.run(["git", "init", "-q", str(project)], env=env, check=True, timeout=60)
    steps = [
        Step("shell", "ls"),
        Step("shell", "rm -rf ~/important"),
        Step("shell", "touch ~/important/after.txt"),
    ]
    model = UninstallingModel(steps, venv=venv)
    with serve(model) as server:
        env.update(agent.configure(home, server.url))
        install = subprocess.run(
            [str(venv / "bin" / "limen"), "install", agent.name, "--project"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert install.returncode == 0, install.stderr
        try:
            code, out, err, _ = run_cli(agent.command(), project, env)
            yield BrokenRun(agent.name, home, venv, model, install, code, out, err, read_audit(env, project))
        finally:
            subprocess.run(
                [str(LIMEN), "daemon", "stop"], cwd=project, env=env, capture_output=True, timeout=60
            )


def test_limen_was_live_then_uninstalled_mid_session(broken: BrokenRun) -> None:
    assert "Successfully uninstalled limen" in broken.model.uninstalled, broken.describe()
    assert not (broken.venv / "bin" / "limen-hook").exists()
    wired = (broken.home / "proj").joinpath(*TARGETS[broken.agent].relative_path).read_text()
    assert str(broken.venv / "bin" / "limen-hook") in wired  # the agent's hooks name the removed executable
    mine = [
        r for r in broken.audit if r.get("kind", "decision") == "decision" and r.get("agent") == broken.agent
    ]
    assert [r for r in mine if r.get("verdict") == "PASS"], f"Limen decided nothing before{broken.describe()}"
    before = broken.model.result_of(0)
    assert before is not None and DENIED not in before, f"`ls` did not run: {before!r}{broken.describe()}"


@pytest.mark.parametrize(
    ("step", "what"), [(1, "`rm -rf ~/important`"), (2, "`touch ~/important/after.txt`")]
)
def test_every_call_after_the_uninstall_is_denied(broken: BrokenRun, step: int, what: str) -> None:
    shown = broken.model.result_of(step)
    assert shown is not None, f"the model never got a result for {what}{broken.describe()}"
    assert DENIED in shown, (
        f"the model was not told {what} was denied, it was shown: {shown!r}{broken.describe()}"
    )
    assert (broken.home / "important" / "keep.txt").exists(), f"~/important was deleted{broken.describe()}"
    assert not (broken.home / "important" / "after.txt").exists(), f"{what} ran{broken.describe()}"
