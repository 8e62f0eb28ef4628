"""`limen proxy` with `LIMEN_SERVER`: a real `limen serve` on loopback decides every request the egress
proxy reads, with the session it keeps (a taint recorded through the server is enforced here); a server
that is down is a 403 BLOCK and nothing reaches the upstream."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.proxy.conftest import World, start_proxy
from tests.proxy.upstream import Upstream

from fleet_servers import Replica, free_port, one_replica

SECRET = "Tr0ub4dor&3-correct/horse+battery"


@dataclass
class Served:
    replica: Replica
    world: World  # the proxy deciding through the replica
    down: World  # the same proxy setup pointed at a server that is not there


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = Path(os.path.realpath(tmp_path_factory.mktemp("proxy-remote")))
    project = root / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "limen.yaml").write_text("mode: balanced\n")
    upstream = Upstream(root)
    procs: list[subprocess.Popen[bytes]] = []
    with one_replica(str(root), str(project)) as replica:
        try:
            worlds = []
            for name, server in (("home", replica.url), ("home-down", f"http://127.0.0.1:{free_port()}")):
                home = root / name
                home.mkdir()
                proc, port = start_proxy(
                    home,
                    project,
                    upstream,
                    env={"LIMEN_SERVER": server, "LIMEN_SERVER_TOKEN": replica.token},
                )
                procs.append(proc)
                worlds.append(World(home, project, upstream, proc, port))
            yield Served(replica, worlds[0], worlds[1])
        finally:
            for proc in procs:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            upstream.close()


def _post(world: World, session: str, monkeypatch: pytest.MonkeyPatch) -> httpx.Response:
    monkeypatch.setenv("LIMEN_HOME", str(world.home))  # the session credential is keyed by the proxy's home
    with httpx.Client(proxy=world.proxy_url(session), verify=world.bundle, timeout=20) as client:
        return client.post(world.url("pypi.org", "/echo"), content=f"note: {SECRET}".encode())


def test_a_taint_recorded_through_the_server_is_enforced_by_the_proxy(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from limen.serve.client import RemoteRuntime, ServerClient

    session = f"agent:{secrets.token_hex(4)}"
    reader = RemoteRuntime(
        ServerClient([served.replica.url], served.replica.token), workspace=str(served.world.project)
    )
    reader.observe_output(
        "Read",
        {"file_path": str(served.world.project / ".env")},
        f"DB_PASSWORD={SECRET}\n",
        session_id=session,
        door="hook",
    )
    reader.close()
    seen = len(served.world.upstream.seen)
    answer = _post(served.world, session, monkeypatch)
    assert answer.status_code == 403, answer.text
    assert answer.json()["limen"] == "BLOCK" and "confirmed_exfil" in answer.json()["reasons"]
    assert len(served.world.upstream.seen) == seen  # nothing reached the upstream
    clean = _post(served.world, f"clean:{secrets.token_hex(4)}", monkeypatch)
    assert clean.status_code == 200, clean.text
    records = (Path(served.replica.audit) / "decisions.jsonl").read_text().splitlines()
    decided = [json.loads(r) for r in records if f'"session":"{session}"' in r]
    assert any(r.get("door") == "proxy" and r.get("verdict") == "BLOCK" for r in decided)


def test_a_server_that_is_down_is_a_block_and_nothing_leaves(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = len(served.down.upstream.seen)
    answer = _post(served.down, f"agent:{secrets.token_hex(4)}", monkeypatch)
    assert answer.status_code == 403, answer.text
    assert answer.json()["limen"] == "BLOCK"
    assert answer.json()["reasons"] == ["objective_guardrail_error"]
    assert len(served.down.upstream.seen) == seen
    local = served.down.home / "audit" / "decisions.jsonl"
    assert "objective_guardrail_error" in local.read_text()  # recorded where the proxy runs
