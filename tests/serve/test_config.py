"""`limen serve`'s configuration: tokens stored hashed, refused files say where, identities re-read on
change, and the command refuses plain http off loopback."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from limen.serve.config import (
    Identities,
    ServeConfigError,
    add_token,
    load,
    remove_identity,
    token_hash,
    tokens_path,
)


def test_a_token_is_shown_once_and_stored_only_as_its_hash(limen_home: Path) -> None:
    token = add_token("ci-runner")
    text = Path(tokens_path()).read_text()
    assert token not in text and token_hash(token) in text
    assert stat.S_IMODE(os.stat(tokens_path()).st_mode) == 0o600
    assert load().tokens == {token_hash(token): "ci-runner"}
    second = add_token("ci-runner")  # an identity may hold several (rotation)
    assert set(load().tokens) == {token_hash(token), token_hash(second)}
    assert remove_identity("ci-runner") == 2 and load().tokens == {}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("workspace: /srv\nstaet: redis://x\n", "serve.yaml:2: staet: unknown key"),
        ("mode: lax\n", "serve.yaml:1: mode: not a mode"),
        ("tokens:\n  - identity: a\n    sha256: abc\n", "serve.yaml:2: tokens[0].sha256: expected 64"),
        ("tokens:\n  - {identity: 'a b', sha256: " + "0" * 64 + "}\n", "serve.yaml:2: tokens[0].identity"),
        ("state: [1]\n", "serve.yaml:1: state: expected a non-empty string"),
        ("state: 'x\n", "serve.yaml:2: not valid YAML"),
    ],
)
def test_a_bad_configuration_is_refused_with_file_line_and_key(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "serve.yaml"
    path.write_text(text)
    with pytest.raises(ServeConfigError) as caught:
        load(str(path))
    assert where in str(caught.value)


def test_a_named_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ServeConfigError, match="cannot be read"):
        load(str(tmp_path / "missing.yaml"))


def test_identities_follow_the_tokens_file_and_keep_the_last_good_list(limen_home: Path) -> None:
    first = add_token("a")
    identities = Identities(None, load())
    identities.check_every = 0.0
    assert identities.identity(f"Bearer {first}") == "a"
    assert identities.identity(f"Basic {first}") is None and identities.identity("Bearer ") is None
    later = add_token("b")  # a running server takes it without a restart
    assert identities.identity(f"Bearer {later}") == "b"
    Path(tokens_path()).write_text("tokens: [{identity: a, sha256: nothex}]\n")  # a typo
    assert identities.identity(f"Bearer {later}") == "b"  # neither locked out nor let in by the typo
    assert "sha256" in identities.problem


def test_plain_http_off_loopback_is_refused(limen_home: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "limen", "serve", "--listen", "0.0.0.0:8787"],
        env={**os.environ, "LIMEN_HOME": str(limen_home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "not a loopback address" in result.stderr


def test_a_broken_configuration_stops_the_server_from_starting(limen_home: Path) -> None:
    (limen_home / "serve.yaml").write_text("audit: postgresql://db/x\nworkers: 3\n")
    result = subprocess.run(
        [sys.executable, "-m", "limen", "serve"],
        env={**os.environ, "LIMEN_HOME": str(limen_home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "serve.yaml:2: workers: unknown key" in result.stderr
