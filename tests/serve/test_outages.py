"""What a replica answers when what it stands on fails: Redis gone, PostgreSQL gone. Never a PASS."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

from fleet_servers import redis_server, start_replica, stop
from limen.model import ReasonCode, Verdict
from limen.serve.app import ServeRuntime
from limen.serve.client import RemoteRuntime, ServerClient
from limen.serve.config import add_token


def test_an_unreachable_audit_database_blocks_every_decision(workspace: str, tmp_path: Path) -> None:
    runtime = ServeRuntime(
        workspace=workspace,
        audit_sink=f"host={tmp_path} port=5 dbname=nowhere user=nobody",
        audit_failure="deny",
    )
    decision = runtime.decide("Read", {"file_path": "README.md"}, session_id="s", door="sdk")
    assert decision.verdict is Verdict.BLOCK and ReasonCode.AUDIT_UNAVAILABLE in decision.reasons
    runtime.close()


def test_a_replica_whose_redis_goes_away_blocks_and_is_not_ready(
    workspace: str, limen_home: Path, tmp_path: Path
) -> None:
    token = add_token("agent-a")
    server = redis_server()
    url = server.__enter__()
    proc, replica = start_replica(str(limen_home), workspace, state=url, audit=str(tmp_path / "audit"))
    try:
        remote = RemoteRuntime(ServerClient([replica], token), workspace=workspace)
        assert (
            remote.decide("Read", {"file_path": "README.md"}, session_id="r", door="sdk").verdict
            is Verdict.PASS
        )
        server.__exit__(None, None, None)  # Redis stops
        down = remote.decide("Read", {"file_path": "README.md"}, session_id="r", door="sdk")
        assert down.verdict is Verdict.BLOCK and down.reasons == (ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,)
        assert down.decision_id and "decision server" not in down.explanation  # the replica decided it
        try:
            urllib.request.urlopen(f"{replica}/readyz", timeout=30)
            raise AssertionError("ready without its session store")
        except urllib.error.HTTPError as exc:
            assert exc.code == 503
            assert any("session store" in p for p in json.loads(exc.read())["problems"])
        remote.close()
    finally:
        stop(proc)
    log = (tmp_path / "audit" / "decisions.jsonl").read_text()
    assert down.decision_id in log and os.path.getsize(tmp_path / "audit" / "decisions.jsonl") > 0


def test_https_with_the_servers_ca_decides_and_without_it_fails_closed(
    workspace: str, limen_home: Path, tmp_path: Path
) -> None:
    from fleet_servers import self_signed

    token = add_token("agent-a")
    cert, key = self_signed(str(tmp_path))
    proc, url = start_replica(
        str(limen_home),
        workspace,
        state=str(tmp_path / "state.sqlite"),
        audit=str(tmp_path / "audit"),
        tls=(cert, key),
    )
    try:
        trusted = RemoteRuntime(ServerClient([url], token, cafile=cert), workspace=workspace)
        assert (
            trusted.decide("Read", {"file_path": "README.md"}, session_id="t", door="sdk").verdict
            is Verdict.PASS
        )
        trusted.close()
        stranger = RemoteRuntime(ServerClient([url], token), workspace=workspace)  # the system's CAs only
        refused = stranger.decide("Read", {"file_path": "README.md"}, session_id="t", door="sdk")
        stranger.close()
        assert refused.verdict is Verdict.BLOCK and "SSLCertVerificationError" in refused.explanation
    finally:
        stop(proc)


def test_a_replica_that_dies_mid_call_is_a_block_and_the_call_is_not_sent_again(
    workspace: str, limen_home: Path, tmp_path: Path
) -> None:
    """Nothing says whether the dying replica decided (and recorded) the call, so it is not retried on the
    live one: the agent gets a BLOCK, and the log can never hold two decisions of one call."""
    import socket
    import threading

    token = add_token("agent-a")
    dying = socket.socket()
    dying.bind(("127.0.0.1", 0))
    dying.listen()
    received: list[bytes] = []

    def accept_then_die() -> None:
        conn, _ = dying.accept()
        received.append(conn.recv(65536))  # the request arrives...
        conn.close()  # ...and the replica is gone before it answers

    thread = threading.Thread(target=accept_then_die)
    thread.start()
    proc, live = start_replica(
        str(limen_home), workspace, state=str(tmp_path / "state.sqlite"), audit=str(tmp_path / "audit")
    )
    try:
        client = ServerClient([f"http://127.0.0.1:{dying.getsockname()[1]}", live], token)
        client._next = len(client.servers) - 1  # the next call starts at the dying replica
        remote = RemoteRuntime(client, workspace=workspace)
        decision = remote.decide("Read", {"file_path": "README.md"}, session_id="m", door="sdk")
        thread.join(10)
        assert received and b"/v1/decide" in received[0]
        assert decision.verdict is Verdict.BLOCK and "failed mid-call" in decision.explanation
        audit = tmp_path / "audit" / "decisions.jsonl"
        assert not audit.exists() or '"session":"m"' not in audit.read_text()  # never sent to the live one
        assert (
            remote.decide("Read", {"file_path": "README.md"}, session_id="m", door="sdk").verdict
            is Verdict.PASS
        )
        remote.close()
    finally:
        stop(proc)
        dying.close()
