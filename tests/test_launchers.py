"""`limen install <agent> --confined`: a launcher with the agent's name that starts it under `limen run`.

Real parts: the `limen` console script in subprocesses with their own HOME, LIMEN_HOME and PATH; a stand-in
agent program (a shell script named `claude`) that reports whether it runs confined and whether it can write
Limen's home; the real kernel confinement and daemon when the launcher is used.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from limen.confine import landlock

LIMEN = Path(sys.executable).with_name("limen")
ABI = landlock.abi_version()
AGENT = """#!/bin/sh
echo "confined=${LIMEN_CONFINED:-none}"
if (echo x >> "$LIMEN_HOME/tamper") 2>/dev/null; then echo "tamper=written"; else echo "tamper=refused"; fi
echo "args=$*"
"""


@dataclass
class Box:
    base: Path
    home: Path
    limen_home: Path
    bin_dir: Path
    agent_dir: Path
    env: dict[str, str]

    def limen(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LIMEN), *args], env=self.env, cwd=self.home, capture_output=True, text=True, timeout=timeout
        )

    @property
    def launcher(self) -> Path:
        return self.bin_dir / "claude"


@pytest.fixture
def box() -> Iterator[Box]:
    parent = "/var/tmp" if os.path.isdir("/var/tmp") else None  # not /tmp: see tests/test_run_confined.py
    base = Path(tempfile.mkdtemp(prefix="limen-launch-", dir=parent))
    home, bin_dir, agent_dir = base / "home", base / "bin", base / "agent-bin"
    for folder in (home, bin_dir, agent_dir):
        folder.mkdir()
    (agent_dir / "claude").write_text(AGENT)
    (agent_dir / "claude").chmod(0o755)
    path = os.pathsep.join([str(bin_dir), str(agent_dir), os.environ.get("PATH", "/usr/bin:/bin")])
    env = {"HOME": str(home), "LIMEN_HOME": str(home / ".limen"), "PATH": path, "GIT_CONFIG_NOSYSTEM": "1"}
    made = Box(base, home, home / ".limen", bin_dir, agent_dir, env)
    try:
        yield made
    finally:
        made.limen("daemon", "stop")
        shutil.rmtree(base, ignore_errors=True)


def test_install_confined_writes_the_hooks_and_a_launcher_that_starts_the_real_agent(box: Box) -> None:
    done = box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir))
    assert done.returncode == 0, done.stderr
    assert "limen-hook" in (box.home / ".claude" / "settings.json").read_text()
    text = box.launcher.read_text()
    assert os.access(box.launcher, os.X_OK)
    assert f"run --guard-agent-dir --guard-project --agent claude-code -- {box.agent_dir / 'claude'}" in text
    assert str(box.launcher) in (box.limen_home / "install" / "launchers.json").read_text()
    again = box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir))
    assert again.returncode == 0 and "already starts" in again.stdout


@pytest.mark.skipif(ABI < landlock.ABI_SCOPE, reason=f"Landlock ABI >= {landlock.ABI_SCOPE} needed")
def test_the_agent_started_by_its_name_runs_confined_and_cannot_write_limens_home(box: Box) -> None:
    assert box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    ran = subprocess.run(
        ["claude", "--print", "hi"], env=box.env, cwd=box.home, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    assert f"confined=landlock:{ABI}" in ran.stdout
    assert "tamper=refused" in ran.stdout
    assert "args=--print hi" in ran.stdout
    assert not (box.limen_home / "tamper").exists()


def test_a_launcher_path_finds_after_the_real_agent_is_reported_not_confined(box: Box) -> None:
    box.env["PATH"] = os.pathsep.join([str(box.agent_dir), str(box.bin_dir), "/usr/bin", "/bin"])
    done = box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir))
    assert done.returncode == 1
    assert "NOT CONFINED" in done.stderr and f"put {box.bin_dir} before {box.agent_dir}" in done.stderr


def test_an_agent_not_on_path_gets_no_launcher(box: Box) -> None:
    (box.agent_dir / "claude").unlink()
    done = box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir))
    assert done.returncode == 1 and "is not on PATH" in done.stderr
    assert not box.launcher.exists()


def test_uninstall_confined_gives_back_the_file_that_stood_there(box: Box) -> None:
    box.launcher.write_text("#!/bin/sh\necho mine\n")
    box.launcher.chmod(0o755)
    assert box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    assert "limen-launcher" in box.launcher.read_text()
    done = box.limen("uninstall", "claude-code", "--confined", "--bin-dir", str(box.bin_dir))
    assert done.returncode == 0, done.stderr
    assert box.launcher.read_text() == "#!/bin/sh\necho mine\n"
    assert str(box.launcher) not in (box.limen_home / "install" / "launchers.json").read_text()


def test_uninstall_confined_deletes_a_launcher_that_replaced_nothing(box: Box) -> None:
    assert box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    assert box.limen("uninstall", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    assert not box.launcher.exists()


def test_rewriting_a_launcher_to_drop_the_confinement_is_refused_by_the_rules(
    box: Box, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    monkeypatch.setenv("LIMEN_HOME", str(box.limen_home))
    import limen
    from limen.model import ReasonCode, Verdict

    workspace = tempfile.mkdtemp(dir=box.base)
    for command in (
        f"printf '#!/bin/sh\\nexec {box.agent_dir}/claude \"$@\"\\n' > {box.launcher}",
        f"sed -i 's/run --guard-agent-dir//' {box.launcher}",
        f"rm {box.launcher}",
    ):
        decision = limen.evaluate("Bash", {"command": command}, cwd=workspace)
        assert decision.verdict is Verdict.BLOCK, command
        assert ReasonCode.PROTECTED_PATH_BLOCKED in decision.reasons
    rewrite = {"file_path": str(box.launcher), "content": "#!/bin/sh\n"}
    written = limen.evaluate("Write", rewrite, cwd=workspace)
    assert written.verdict is Verdict.BLOCK
    reading = limen.evaluate("Bash", {"command": f"cat {box.launcher}"}, cwd=workspace)
    assert reading.verdict is Verdict.PASS


def test_the_confinement_protects_every_launcher_written(box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    assert box.limen("install", "claude-code", "--confined", "--bin-dir", str(box.bin_dir)).returncode == 0
    monkeypatch.setenv("LIMEN_HOME", str(box.limen_home))
    from limen.confine import protected_paths

    protected = {p.path for p in protected_paths(str(box.home), str(box.home))}
    assert str(box.launcher) in protected
