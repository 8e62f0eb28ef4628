"""`--json` on the commands that print what they did: `limen init` and `limen ca` (real subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def limen(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LIMEN_HOME": str(home / ".limen"), "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "limen", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120
    )


def test_init_says_what_it_wrote_in_json(tmp_path: Path) -> None:
    done = limen("init", "--workspace", str(tmp_path), "--json", home=tmp_path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"wrote": str(tmp_path / "limen.yaml")}
    assert (tmp_path / "limen.yaml").read_text().strip()


def test_ca_init_and_show_give_the_files_and_trust_variables_in_json(tmp_path: Path) -> None:
    pytest.importorskip("mitmproxy", reason="the proxy extra is not installed")
    made = limen("ca", "init", "--json", home=tmp_path, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["created"] is True and Path(created["cert"]).is_file()
    shown = json.loads(limen("ca", "show", "--json", home=tmp_path, cwd=tmp_path).stdout)
    assert shown["cert"] == created["cert"] and shown["created"] is False
    assert shown["environment"]["SSL_CERT_FILE"] == shown["bundle"]
