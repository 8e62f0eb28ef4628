"""`LIMEN_HOME/proxy.yaml`: settings read, and a malformed file refused with its path, line and key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from limen.proxy.config import ProxyConfigError, load


def test_settings_are_read(tmp_path: Path) -> None:
    path = tmp_path / "proxy.yaml"
    path.write_text("pass_through:\n  - '*.Pinned.example'\nmax_body: 4096\n")
    found = load(str(path))
    assert found.pass_through == ("*.pinned.example",) and found.max_body == 4096


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("pass_through: pinned.example\n", ":1: pass_through"),
        ("max_body: 10\n", ":1: max_body"),
        ("max_body: 1000000\n", ":1: max_body"),
        ("pass_through: []\nmax_bodyy: 4096\n", ":2: max_bodyy"),
        ("pass_through: [a\n", ":"),
    ],
)
def test_a_bad_file_is_refused_with_path_line_and_key(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "proxy.yaml"
    path.write_text(text)
    with pytest.raises(ProxyConfigError, match=f"^{path}{where}"):
        load(str(path))


def test_the_proxy_does_not_start_on_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "proxy.yaml").write_text("max_body: many\n")
    out = subprocess.run(
        [sys.executable, "-m", "limen", "proxy", "--listen", "127.0.0.1:0"],
        env={**os.environ, "LIMEN_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and f"{tmp_path}/proxy.yaml:1: max_body" in out.stderr
