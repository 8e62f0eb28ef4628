"""One real HTTPS upstream and one `limen proxy` process per test module, sharing a LIMEN_HOME.

The proxy routes every test name (`upstream.NAMES`) to the loopback upstream with `--resolve` and verifies
the upstream's certificate against the test CA (`--upstream-ca`); the clients verify the proxy's
certificates against Limen's CA bundle, as `limen run --egress` tells them to."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("mitmproxy", reason="the proxy extra (mitmproxy) is not installed")

from tests.proxy.upstream import NAMES, Upstream

INJECTED_VARIABLE = "LIMEN_TEST_INJECTED_KEY"
INJECTED_VALUE = "injected-9f8e7d6c5b4a"


@dataclass
class World:
    home: Path
    project: Path
    upstream: Upstream
    proxy: subprocess.Popen[bytes]
    port: int

    @property
    def bundle(self) -> str:
        return str(self.home / "proxy" / "ca" / "limen-bundle.pem")

    @property
    def ca_cert(self) -> str:
        return str(self.home / "proxy" / "ca" / "limen-ca.pem")

    def url(self, host: str, path: str = "/echo") -> str:
        return f"https://{host}:{self.upstream.port}{path}"

    def proxy_url(self, session: str = "") -> str:
        if not session:
            return f"http://127.0.0.1:{self.port}"
        from limen.proxy.sessions import keyed_token
        from limen.state.keys import installation_key

        key = installation_key("proxy", str(self.home))
        return f"http://{session}:{keyed_token(session, key)}@127.0.0.1:{self.port}"

    def env(self, session: str = "") -> dict[str, str]:
        """A client's environment: the proxy (with the session's credential) and Limen's CA."""
        from limen.proxy.ca import ca_files, trust_environment

        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        url = self.proxy_url(session)
        env.update({"HTTP_PROXY": url, "HTTPS_PROXY": url, "http_proxy": url, "https_proxy": url})
        env.update(trust_environment(ca_files(str(self.home))))
        env["LIMEN_HOME"] = str(self.home)
        return env


def start_proxy(
    home: Path,
    project: Path,
    upstream: Upstream,
    *extra: str,
    env: dict[str, str] | None = None,
    launcher: list[str] | None = None,
) -> tuple[subprocess.Popen[bytes], int]:
    """A `limen proxy` (or, with `launcher`, what that command line runs with the proxy's arguments)."""
    read, write = os.pipe()
    resolve = [a for n in NAMES for a in ("--resolve", f"{n}:{upstream.port}:127.0.0.1")]
    argv = [
        sys.executable,
        *(launcher or ["-m", "limen", "proxy"]),
        "--listen",
        "127.0.0.1:0",
        "--project",
        str(project),
        "--upstream-ca",
        str(upstream.ca),
        "--ready-fd",
        str(write),
        *resolve,
        *extra,
    ]
    variables = {**os.environ, "LIMEN_HOME": str(home), INJECTED_VARIABLE: INJECTED_VALUE, **(env or {})}
    proc = subprocess.Popen(argv, env=variables, pass_fds=(write,), stderr=subprocess.PIPE)
    os.close(write)
    deadline = time.monotonic() + 20
    data = b""
    while time.monotonic() < deadline and not data.endswith(b"\n"):
        chunk = os.read(read, 64)
        if not chunk:
            break
        data += chunk
    os.close(read)
    if not data.strip().isdigit():
        proc.kill()
        raise RuntimeError(f"the proxy did not start: {proc.communicate()[1].decode()[-2000:]}")
    return proc, int(data)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("proxy-world")
    home, project = root / "home", root / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "limen.yaml").write_text("mode: balanced\n")  # a policy file: the proxy is an agent door
    upstream = Upstream(root)
    home.mkdir()
    (home / "proxy.yaml").write_text(  # a credential the clients never hold, added for github.com only
        f"inject:\n  - host: github.com\n    header: X-Api-Key\n    value_env: {INJECTED_VARIABLE}\n"
        "    format: 'Key {}'\n"
    )
    proc, port = start_proxy(home, project, upstream, "--pass-through", "crates.io")
    yield World(home, project, upstream, proc, port)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    upstream.close()


@pytest.fixture
def in_world(world: World, monkeypatch: pytest.MonkeyPatch) -> World:
    """This test's LIMEN_HOME is the proxy's (keys and state shared)."""
    monkeypatch.setenv("LIMEN_HOME", str(world.home))
    return world
