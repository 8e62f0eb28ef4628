"""`limen doctor proxy`: the CA's trust and the proxy path per runtime, shown working, and failing when the
bundle the runtimes are told to use does not hold Limen's CA."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _doctor(home: Path) -> tuple[int, dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-m", "limen", "doctor", "proxy", "--json"],
        env={**os.environ, "LIMEN_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.returncode, json.loads(out.stdout)


def test_every_runtime_reaches_a_server_through_the_proxy(tmp_path: Path) -> None:
    code, report = _doctor(tmp_path)
    runtimes = {r["runtime"]: r for r in report["runtimes"]}  # type: ignore[attr-defined]
    assert code == 0, report
    assert set(runtimes) == {"curl", "python", "pip", "git", "node"}
    assert all(r["ok"] for r in runtimes.values())
    assert report["ca"]["in_bundle"] and report["ca"]["valid"]  # type: ignore[index]


def test_a_bundle_without_limens_ca_fails_the_runtimes_that_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from limen.proxy.ca import ensure_ca

    monkeypatch.setenv("LIMEN_HOME", str(tmp_path))
    ensure_ca()
    bundle = tmp_path / "proxy" / "ca" / "limen-bundle.pem"
    bundle.write_bytes(bundle.read_bytes().split(b"-----BEGIN CERTIFICATE-----")[0] or b"\n")
    code, report = _doctor(tmp_path)
    runtimes = {r["runtime"]: r["ok"] for r in report["runtimes"]}  # type: ignore[attr-defined]
    assert code == 1 and report["ca"]["in_bundle"] is False  # type: ignore[index]
    assert runtimes["curl"] is False and runtimes["python"] is False
    assert runtimes["node"] is True  # node reads only NODE_EXTRA_CA_CERTS, the CA file itself
