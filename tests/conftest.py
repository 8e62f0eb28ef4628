"""Shared fixtures: every test runs with its own LIMEN_HOME so no test touches a real installation."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def limen_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("limen-home")
    monkeypatch.setenv("LIMEN_HOME", str(home))
    yield home


@pytest.fixture
def workspace(tmp_path: Path) -> str:
    """A small project checkout (resolved, so symlinked temp dirs compare equal)."""
    from limen.bench.calls import make_workspace

    return make_workspace(os.path.realpath(tmp_path))
