"""What a user installing Limen depends on: the licence and metadata, one version, a light core whose HTTP
and rich parts are extras (with a clear word when one is missing), and POSIX only."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import limen
from limen.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_licence_and_metadata() -> None:
    assert PROJECT["license"] == "Apache-2.0" and PROJECT["license-files"] == ["LICENSE"]
    assert "Apache License" in (ROOT / "LICENSE").read_text().splitlines()[1]
    assert "Operating System :: POSIX" in PROJECT["classifiers"]


def test_one_version_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert "version" in PROJECT["dynamic"] and "version" not in PROJECT
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["dynamic"]
    assert build["version"] == {"attr": "limen.__version__"}
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"limen {limen.__version__}"


def test_the_core_needs_neither_the_http_stack_nor_rich() -> None:
    core = " ".join(PROJECT["dependencies"])
    for name in ("httpx2", "uvicorn", "rich"):
        assert name not in core
    extras = PROJECT["optional-dependencies"]
    assert any(d.startswith("httpx2") for d in extras["http"]) and "limen[http]" in extras["fleet"]
    assert {"limen[http]", "limen[rich]"} <= set(extras["dev"])
    code = (
        "import sys, limen, limen.api, limen.cli, limen.doors.hooks.client, limen.doors.mcp.app; "
        "print(sorted(m for m in ('httpx2', 'uvicorn', 'rich') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("argv", "missing", "said"),
    [
        (["mcp", "--url", "http://127.0.0.1:9/mcp"], "httpx2", "limen mcp --url needs the http extra"),
        (
            ["mcp", "serve", "--listen", "127.0.0.1:0", "true"],
            "uvicorn",
            "limen mcp serve needs the http extra",
        ),
    ],
)
def test_a_missing_http_extra_is_named(argv: list[str], missing: str, said: str) -> None:
    code = f"import sys; sys.modules[{missing!r}] = None; import limen.cli as c; sys.exit(c.main({argv!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr and "pip install 'limen[http]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_rich_a_terminal_still_gets_a_plain_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from limen.cli import output

    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setattr(output, "colour", lambda stream=None: True)
    output.table(("NAME", "RISK"), [("a", "5"), ("longer", "100")], right={1})
    assert capsys.readouterr().out.splitlines() == ["NAME    RISK", "a          5", "longer   100"]


def test_windows_is_refused_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import limen.cli as cli

    monkeypatch.setattr(cli.os, "name", "nt")
    assert cli.main(["log"]) == 2
    assert "POSIX" in capsys.readouterr().err
