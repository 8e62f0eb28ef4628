"""Central policy: two `limen serve` replicas follow the organisation policy published in a real
PostgreSQL. A tightening reaches both without a restart; a loosening is refused by the drift gate until a
person approves it with the possession factor; a replica that never got a policy fails closed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fleet_servers import free_port, start_replica, stop
from limen.model import Decision, ReasonCode, Verdict
from limen.serve.client import RemoteRuntime, ServerClient

DEPLOY = {"command": "make deploy"}
TIGHT = "chain:\n  - layer: denylist\n    commands: ['make deploy']\n    on_match: deny\n"
LOOSE = "mode: balanced\n"
PASSWORD = "correct horse battery"


def _limen(home: str, *argv: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *argv],
        env={**os.environ, "LIMEN_HOME": home, **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _until(check: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.fixture
def fleet(tmp_path: Path, postgres_dsn: str) -> Iterator[tuple[str, str, list[RemoteRuntime]]]:
    from limen.bench.calls import make_workspace

    home = str(tmp_path / "home")
    os.makedirs(home)
    workspace = make_workspace(os.path.realpath(tmp_path / "ws"))
    token = _limen(home, "serve", "token", "add", "agent-a").stdout.strip()
    started = [
        start_replica(
            home,
            workspace,
            state=str(tmp_path / "state.sqlite"),
            audit=str(tmp_path / "audit"),
            port=free_port(),
            extra=("--policy", postgres_dsn),
        )
        for _ in range(2)
    ]
    clients = [RemoteRuntime(ServerClient([url], token), workspace=workspace) for _, url in started]
    yield home, workspace, clients
    for client in clients:
        client.close()
    for proc, _ in started:
        stop(proc)


def _deploy(client: RemoteRuntime) -> Decision:
    return client.decide("Bash", DEPLOY, session_id="central", door="hook")


def _publish(home: str, dsn: str, tmp_path: Path, text: str) -> None:
    policy = tmp_path / "org.yaml"
    policy.write_text(text)
    published = _limen(home, "serve", "policy", "publish", str(policy), "--to", dsn)
    assert published.returncode == 0, published.stderr


def test_replicas_follow_the_published_policy_and_the_drift_gate_holds_a_loosening(
    fleet: tuple[str, str, list[RemoteRuntime]], postgres_dsn: str, tmp_path: Path
) -> None:
    home, workspace, clients = fleet
    nothing = _deploy(clients[0])  # nothing published yet: the named organisation file does not exist
    assert nothing.verdict is Verdict.BLOCK and nothing.reasons == (ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,)
    assert "LIMEN_ORG_POLICY" in nothing.explanation

    _publish(home, postgres_dsn, tmp_path, TIGHT)
    for client in clients:  # no restart: each replica follows the database within seconds
        _until(
            lambda c=client: ReasonCode.POLICY_DENIED in _deploy(c).reasons,  # type: ignore[misc]
            "a replica did not apply the published tightening",
        )

    _publish(home, postgres_dsn, tmp_path, LOOSE)
    materialised = Path(home) / "serve" / "org-policy.yaml"
    _until(lambda: materialised.read_text() == LOOSE, "the loosening never reached the replicas")
    time.sleep(1.2)  # the loader's stat of the file and the project root's lookup are both fresh now
    for client in clients:
        held = _deploy(client)
        assert held.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in held.reasons
        trail = " ".join(d for stage in held.evidence for d in stage.details)
        assert "loosen the approved policy" in trail, trail  # the gate holds it, not a stale copy
    versions = _limen(home, "serve", "policy", "versions", "--to", postgres_dsn)
    assert versions.stdout.count("#") == 2

    gate = ["serve", "policy"]
    where = ["--to", postgres_dsn, "--workspace", workspace]
    status = _limen(home, *gate, "status", "--json", *where)
    assert status.returncode == 0 and json.loads(status.stdout)["waiting_for_approval"], status.stderr
    factor = _limen(home, "policy", "factor", "password", "--new-password-stdin", stdin=PASSWORD + "\n")
    assert factor.returncode == 0, factor.stderr
    proposed = _limen(home, *gate, "propose", *where)
    assert proposed.returncode == 0, proposed.stderr
    change = proposed.stdout.split()[0]
    wrong = _limen(home, *gate, "approve", change, "--password-stdin", *where, stdin="not it\n")
    assert wrong.returncode == 1  # the possession factor, not the publisher, approves a loosening
    approved = _limen(home, *gate, "approve", change, "--password-stdin", *where, stdin=PASSWORD + "\n")
    assert approved.returncode == 0, approved.stderr
    for client in clients:
        _until(
            lambda c=client: _deploy(c).verdict is Verdict.PASS,  # type: ignore[misc]
            "the approved loosening did not apply",
        )


def test_a_policy_that_does_not_validate_is_not_published(postgres_dsn: str, tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    policy = tmp_path / "org.yaml"
    policy.write_text("mode: balanced\nchain:\n  - layer: denylist\n    comands: [x]\n")
    refused = _limen(home, "serve", "policy", "publish", str(policy), "--to", postgres_dsn)
    assert refused.returncode == 2 and f"{policy}:4" in refused.stderr and "comands" in refused.stderr
    assert (
        "no policy has been published"
        in _limen(home, "serve", "policy", "versions", "--to", postgres_dsn).stdout
    )


def test_a_policy_file_every_replica_reads_applies_without_a_restart(tmp_path: Path) -> None:
    from limen.bench.calls import make_workspace

    home = str(tmp_path / "home")
    os.makedirs(home)
    workspace = make_workspace(os.path.realpath(tmp_path / "ws"))
    org = tmp_path / "shared" / "org.yaml"
    org.parent.mkdir()
    org.write_text(LOOSE)
    token = _limen(home, "serve", "token", "add", "agent-a").stdout.strip()
    proc, url = start_replica(
        home,
        workspace,
        state=str(tmp_path / "state.sqlite"),
        audit=str(tmp_path / "audit"),
        extra=("--policy", str(org)),
    )
    client = RemoteRuntime(ServerClient([url], token), workspace=workspace)
    try:
        assert _deploy(client).verdict is Verdict.PASS
        org.write_text(TIGHT)
        _until(lambda: ReasonCode.POLICY_DENIED in _deploy(client).reasons, "the edit did not apply")
        org.write_text(LOOSE)  # undoing a tightening is a loosening: the drift gate holds it
        time.sleep(1.2)
        held = _deploy(client)
        assert held.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in held.reasons
    finally:
        client.close()
        stop(proc)


def test_a_follower_that_loses_the_database_keeps_the_last_version(postgres_dsn: str, tmp_path: Path) -> None:
    from limen.serve.policy import PolicyFollower, publish

    target = tmp_path / "org-policy.yaml"
    follower = PolicyFollower(postgres_dsn, path=str(target))
    assert not follower.refresh() and "no policy has been published" in follower.problem
    assert not target.exists()  # nothing to follow: the loader then refuses the missing file
    version = publish(postgres_dsn, TIGHT, name="org.yaml", by="test")
    assert follower.refresh() and follower.version == version and target.read_text() == TIGHT
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    follower.dsn = f"host={tmp_path} port=9 dbname=nowhere user=x"  # the database goes away
    assert not follower.refresh() and "cannot be read" in follower.problem
    assert target.read_text() == TIGHT
