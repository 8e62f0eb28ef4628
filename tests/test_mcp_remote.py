"""`limen mcp` with `LIMEN_SERVER`: a real `limen serve` on loopback decides every call of the proxied
server, keeps its tool pins and records the audit; the proxy only translates. A server that is down is a
refusal, never a call relayed undecided."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers"))

from harness import FS, Env, LineClient, make_env, proxy_argv, text

from fleet_servers import Replica, free_port, one_replica

SECRET = "Zq8vX2mN4pL7rT1wKd"  # a password: only the session's taint makes it a secret


@pytest.fixture(scope="module")
def replica(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replica]:
    from limen.bench.calls import make_workspace

    root = os.path.realpath(tmp_path_factory.mktemp("mcp-remote"))
    with one_replica(root, make_workspace(os.path.join(root, "ws"))) as running:
        yield running


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(str(tmp_path))


def _records(replica: Replica) -> list[dict[str, object]]:
    path = Path(replica.audit) / "decisions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_taint_recorded_through_the_server_is_enforced_on_the_proxied_call(
    replica: Replica, env: Env
) -> None:
    from limen.serve.client import RemoteRuntime, ServerClient

    session = "mcp-remote-taint"
    reader = RemoteRuntime(ServerClient([replica.url], replica.token), workspace=env.workspace)
    reader.observe_output(
        "Read",
        {"file_path": f"{env.workspace}/.env"},
        f"DB_PASSWORD={SECRET}\n",
        session_id=session,
        door="hook",
    )
    reader.close()
    with LineClient(proxy_argv(FS, "--session", session, name="fs"), env, **replica.door_env()) as client:
        client.initialize()
        assert "fetch_notes" in client.tools()
        refused = client.call("fetch_notes", {"topic": SECRET})
        assert refused.get("isError") is True and "confirmed_exfil" in text(refused)
        # the tainted session sends what could hold the secret in some encoding (plain words could not)
        later = text(client.call("fetch_notes", {"topic": "weather Zq8Lm3Nv7Bx2Kc9Wd4Rf6Th1Yj5"}))
        assert "multi_step_exfil" in later and "`limen serve approve " in later
    with LineClient(proxy_argv(FS, "--session", "mcp-clean", name="fs"), env, **replica.door_env()) as client:
        client.initialize()
        assert text(client.call("fetch_notes", {"topic": SECRET})) == f"notes about {SECRET}"
    calls = [r for r in _records(replica) if r.get("session") == session and r.get("kind") == "decision"]
    assert any(r.get("verdict") == "BLOCK" and "confirmed_exfil" in r.get("reasons", []) for r in calls)
    assert all(r.get("door") == "mcp" for r in calls if r.get("tool", "").startswith("mcp__"))


def test_a_tool_changed_since_its_pin_on_the_server_is_refused(replica: Replica, env: Env) -> None:
    """Pins live in the server's store: a server that rewrites a tool is caught whichever proxy lists it,
    and the server's decision refuses the call (tool_schema_changed)."""
    with LineClient(proxy_argv(FS, name="fs-pinned"), env, **replica.door_env()) as client:
        client.initialize()
        assert "fetch_notes" in client.tools()
    with LineClient(
        proxy_argv(FS, name="fs-pinned"), env, FS_SERVER_VARIANT="changed", **replica.door_env()
    ) as client:
        client.initialize()
        assert "fetch_notes" not in client.tools()  # hidden until `limen tools approve`
        refused = client.call("fetch_notes", {"topic": "x"})
        assert refused.get("isError") is True and "tool_schema_changed" in text(refused)
        assert "`limen serve tools approve fs-pinned fetch_notes`" in text(refused)
    changes = [r for r in _records(replica) if r.get("event") == "mcp_tools_changed"]
    assert changes and changes[-1]["server"] == "fs-pinned" and changes[-1]["agent"] == "agent-a"
    assert changes[-1]["tools"] == ["fetch_notes"]
    # a person reviews the new contract and approves it for the whole fleet, on the server's store
    fleet = ["--state", replica.state, "--audit", replica.audit]
    serve_env = {**os.environ, "LIMEN_HOME": replica.home}
    listed = subprocess.run(
        [sys.executable, "-m", "limen", "serve", "tools", "list", "--json", *fleet],
        env=serve_env,
        capture_output=True,
        text=True,
    )
    assert {"server": "fs-pinned", "tool": "fetch_notes"} in json.loads(listed.stdout)
    approved = subprocess.run(
        [sys.executable, "-m", "limen", "serve", "tools", "approve", "fs-pinned", "fetch_notes", *fleet],
        env=serve_env,
        capture_output=True,
        text=True,
    )
    assert approved.returncode == 0, approved.stderr
    with LineClient(
        proxy_argv(FS, name="fs-pinned"), env, FS_SERVER_VARIANT="changed", **replica.door_env()
    ) as client:
        client.initialize()
        assert "fetch_notes" in client.tools()
        assert text(client.call("fetch_notes", {"topic": "x"})) == "notes about x"
    assert any(r.get("event") == "tool_pin_approved" for r in _records(replica))


def test_a_server_that_is_down_refuses_every_call_and_nothing_runs(replica: Replica, env: Env) -> None:
    target = os.path.join(env.workspace, "written.txt")
    down = {"LIMEN_SERVER": f"http://127.0.0.1:{free_port()}", "LIMEN_SERVER_TOKEN": replica.token}
    with LineClient(proxy_argv(FS, name="fs"), env, **down) as client:
        client.initialize()
        assert client.tools() == {}  # nothing could be pinned: no tool is offered
        refused = client.call("write_file", {"path": target, "content": "hello"})
        assert refused.get("isError") is True and "objective_guardrail_error" in text(refused)
        answer, _ = client.request("resources/read", {"uri": "notes://readme"})
        assert "error" in answer and "objective_guardrail_error" in json.dumps(answer)
    assert not os.path.exists(target)
    local = Path(env.limen_home) / "audit" / "decisions.jsonl"
    assert "objective_guardrail_error" in local.read_text()  # recorded where the proxy runs
