"""`limen run --egress`: the agent's process tree reaches the network only through Limen's proxy, in the
run's session, and the hooks inside decide in that same session.

A stand-in agent (a Python probe) runs under real Landlock confinement: curl through the proxy works with
certificate verification on (the CA variables the run sets), a direct TCP connection to the upstream is
refused by the kernel, and `LIMEN_SESSION` names the run's session. With a dedicated proxy (`--egress`
alone) a proxy that dies leaves the agent with connection errors and no way around it."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from tests.proxy.conftest import World

from limen.confine import landlock

ABI = landlock.abi_version()
needs_landlock = pytest.mark.skipif(
    ABI < landlock.ABI_SCOPE, reason=f"Landlock ABI >= {landlock.ABI_SCOPE} needed (this kernel: {ABI})"
)
LIMEN = Path(sys.executable).parent / "limen"

PROBE = r"""
import errno, json, os, socket, subprocess, sys
url, port = sys.argv[1], int(sys.argv[2])
out = {"session": os.environ.get("LIMEN_SESSION", ""), "confined": os.environ.get("LIMEN_CONFINED", "")}
curl = subprocess.run(
    ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", url], capture_output=True, text=True
)
out["curl"] = curl.stdout or curl.stderr.strip()
try:
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    out["direct"] = "connected"
except OSError as exc:
    out["direct"] = errno.errorcode.get(exc.errno or 0, str(exc))
print(json.dumps(out))
"""


def _run(world: World, tmp_path: Path, egress: list[str], *probe_args: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LIMEN_HOME": str(world.home),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    argv = [str(LIMEN), "run", *egress, "--project", str(world.project), "--agent", "claude-code", "--"]
    try:
        proc = subprocess.run(
            [*argv, sys.executable, "-c", PROBE, *probe_args],
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        subprocess.run([str(LIMEN), "daemon", "stop"], env=env, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


@needs_landlock
def test_a_confined_agent_reaches_the_network_only_through_the_proxy_in_its_session(
    world: World, tmp_path: Path
) -> None:
    port = world.upstream.port
    found = _run(world, tmp_path, ["--egress", f"127.0.0.1:{world.port}"], world.url("pypi.org"), str(port))
    assert found["curl"] == "200"  # through the proxy, Limen's CA trusted by curl
    assert found["direct"] == "EACCES"  # the kernel refuses any other TCP connection
    assert found["session"].startswith("run:") and found["confined"].startswith("landlock:")
    records = [
        json.loads(line) for line in (world.home / "audit" / "decisions.jsonl").read_text().splitlines()
    ]
    assert any(r.get("session") == found["session"] and r.get("door") == "proxy" for r in records)


@needs_landlock
def test_egress_alone_starts_a_dedicated_proxy_for_the_run(world: World, tmp_path: Path) -> None:
    """`--egress` alone: the run starts its own proxy (outside the confinement, on a free port, the run's
    token only); the probe's plain-HTTP request is answered by it (502: the upstream speaks only TLS), and
    a direct connection is still refused by the kernel."""
    found = _run(
        world, tmp_path, ["--egress"], f"http://127.0.0.1:{world.upstream.port}/", str(world.upstream.port)
    )
    assert found["session"].startswith("run:")
    assert found["curl"] == "502"
    assert found["direct"] == "EACCES"


def test_what_the_hook_saw_counts_in_the_proxy_session(in_world: World) -> None:
    """A hook event inside `limen run` (LIMEN_SESSION set) records a secret read in the run's session; the
    proxy then refuses to let it leave in that session."""
    session = f"run:{secrets.token_hex(8)}"
    secret = "Kp7-" + secrets.token_hex(12)
    event = {
        "hook_event_name": "PostToolUse",
        "session_id": "agent-own-id",
        "cwd": str(in_world.project),
        "tool_name": "Read",
        "tool_input": {"file_path": str(in_world.project / ".env")},
        "tool_response": {"file": {"content": f"STRIPE_PASSWORD={secret}\n"}},
    }
    env = {**os.environ, "LIMEN_HOME": str(in_world.home), "LIMEN_SESSION": session, "LIMEN_HOOK_DAEMON": "0"}
    hook = subprocess.run(
        [str(Path(sys.executable).parent / "limen-hook"), "claude-code"],
        input=json.dumps(event),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert hook.returncode == 0, hook.stderr
    with httpx.Client(proxy=in_world.proxy_url(session), verify=in_world.bundle, timeout=20) as client:
        refused = client.post(in_world.url("pypi.org"), content=f"x={secret}".encode())
    assert refused.status_code == 403 and "confirmed_exfil" in refused.json()["reasons"]


def test_limen_run_tells_whether_a_shared_proxy_requires_the_credential(world: World) -> None:
    """A proxy that lets a request without a credential into its own session lets an agent that drops the
    credential leave the run's taint behind: `limen run --egress HOST:PORT` says so."""
    import socket

    from tests.proxy.conftest import start_proxy

    from limen.cli.run import probe_proxy

    assert probe_proxy("127.0.0.1", world.port) == "accepts"
    strict, port = start_proxy(world.home, world.project, world.upstream, "--require-credential")
    try:
        assert probe_proxy("127.0.0.1", port) == "requires"
    finally:
        strict.terminate()
        strict.wait(10)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        free = unused.getsockname()[1]
    assert probe_proxy("127.0.0.1", free) == "unreachable"
