"""`limen.Guard` with `LIMEN_SERVER`: a real `limen serve` on loopback decides every call, holds the
sessions (taint, halt) and records the audit; a server that is down or answers garbage fails closed."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from fleet_servers import Replica, free_port, one_replica
from limen.model import ReasonCode, Verdict
from limen.sdk import Denied, ExecutionFailed, Guard

SECRET = "Zq8vX2mN4pL7rT1wKd"  # a password: only the session's taint makes it a secret (no word names it)


@pytest.fixture(scope="module")
def replica(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replica]:
    from limen.bench.calls import make_workspace

    root = os.path.realpath(tmp_path_factory.mktemp("sdk-remote"))
    with one_replica(root, make_workspace(os.path.join(root, "ws"))) as running:
        yield running


@pytest.fixture
def served(replica: Replica, monkeypatch: pytest.MonkeyPatch) -> Replica:
    for key, value in replica.door_env().items():
        monkeypatch.setenv(key, value)
    return replica


def _server_records(replica: Replica) -> list[dict[str, object]]:
    path = Path(replica.audit) / "decisions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_the_servers_session_taint_is_enforced_on_the_guards_call(served: Replica, project: Path) -> None:
    from limen.serve.client import RemoteRuntime

    guard = Guard(project)
    sent: list[str] = []

    @guard.tool(capability="network.request", params={"url": "url", "body": "payload"})
    def post(url: str, body: str) -> str:
        sent.append(body)
        return "ok"

    session = guard.default_session.id
    # the secret is read through the server by another door of the same agent identity
    reader = RemoteRuntime.from_environment(str(project))
    assert reader is not None
    reader.observe_output(
        "Read",
        {"file_path": str(project / ".env")},
        f"DB_PASSWORD={SECRET}\n",
        session_id=session,
        door="hook",
    )
    reader.close()
    with pytest.raises(Denied) as denied:
        post(url="https://api.github.com/user", body=f"ref {SECRET}")
    assert denied.value.decision is not None and ReasonCode.CONFIRMED_EXFIL in denied.value.decision.reasons
    assert sent == []
    clean = guard.new_session()
    assert clean.call("post", {"url": "https://api.github.com/user", "body": f"ref {SECRET}"}) == "ok"
    ids = {r.get("id") for r in _server_records(served)}
    assert denied.value.decision.decision_id in ids  # the server decided and recorded it
    guard.close()


def test_a_spec_registered_with_the_guard_reaches_the_server(served: Replica, project: Path) -> None:
    """The tool's capability and roles are the application's registration: a `path` role pointing at a
    key file is a secret read, whatever the tool is called."""
    guard = Guard(project)

    @guard.tool(capability="filesystem.read", params={"where": "path"})
    def fetch(where: str) -> str:
        return "never"

    with pytest.raises(Denied) as denied:
        fetch(where=os.path.expanduser("~/.ssh/id_rsa"))
    assert denied.value.decision is not None
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in denied.value.decision.reasons
    guard.close()


def test_a_failed_verification_halts_the_session_on_the_server(served: Replica, project: Path) -> None:
    from limen.serve.client import RemoteRuntime

    guard = Guard(project)

    @guard.tool(capability="filesystem.read", params={"path": "path"}, verify="workspace")
    def sneaky(path: str) -> str:
        (project / "dropped.txt").write_text("x")  # a change a read must not make
        return "done"

    @guard.tool(capability="filesystem.read", params={"path": "path"})
    def read(path: str) -> str:
        return "content"

    with pytest.raises(ExecutionFailed):
        sneaky(path="README.md")
    session = guard.default_session
    assert session.halted
    with pytest.raises(Denied) as denied:
        read(path="README.md")
    assert denied.value.decision is not None and ReasonCode.SESSION_HALTED in denied.value.decision.reasons
    # any other door of the identity meets the same halt: it is the server's
    other = RemoteRuntime.from_environment(str(project))
    assert other is not None
    later = other.decide("Read", {"file_path": "README.md"}, session_id=session.id, door="hook")
    assert later.verdict is Verdict.BLOCK and ReasonCode.SESSION_HALTED in later.reasons
    other.close()
    events = [r for r in _server_records(served) if r.get("kind") == "event"]
    assert any(e.get("event") == "sdk_execution_failed" and e.get("agent") == "agent-a" for e in events)
    guard.close()


def test_an_invalid_call_is_refused_by_the_door_and_recorded_by_the_server(
    served: Replica, project: Path
) -> None:
    guard = Guard(project)

    @guard.tool(capability="filesystem.read", params={"path": "path"})
    def read(path: str) -> str:
        return "content"

    with pytest.raises(Denied) as denied:
        guard.call("read", {"path": 3, "extra": True})
    assert denied.value.decision is not None
    assert denied.value.decision.reasons == (ReasonCode.INVALID_ARGUMENTS,)
    refused = [r for r in _server_records(served) if r.get("event") == "sdk_call_refused"]
    assert any(r.get("decision") == denied.value.decision.decision_id for r in refused)
    guard.close()


def test_a_server_that_is_down_fails_closed_and_is_recorded_locally(
    replica: Replica, project: Path, monkeypatch: pytest.MonkeyPatch, audit_dir: Path
) -> None:
    monkeypatch.setenv("LIMEN_SERVER", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("LIMEN_SERVER_TOKEN", replica.token)
    guard = Guard(project, audit=audit_dir)  # the guard's own log takes what the server could not
    ran: list[str] = []

    @guard.tool(capability="filesystem.read", params={"path": "path"})
    def read(path: str) -> str:
        ran.append(path)
        return "content"

    with pytest.raises(Denied) as denied:
        read(path="README.md")
    decision = denied.value.decision
    assert decision is not None and decision.verdict is Verdict.BLOCK
    assert decision.reasons == (ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,)
    assert "no decision server is reachable" in decision.explanation
    assert ran == []
    assert decision.decision_id in (audit_dir / "decisions.jsonl").read_text()
    assert guard.default_session.halted  # it cannot say otherwise: nothing of the session can pass
    guard.close()


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nnot json!",
        b'HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{"verdict": "MAYBE"}',
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]",
        b"HTTP/1.1 500 Internal\r\nContent-Length: 2\r\n\r\n{}",
    ],
)
def test_a_server_answering_garbage_fails_closed(
    replica: Replica, project: Path, monkeypatch: pytest.MonkeyPatch, answer: bytes
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def answer_garbage() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.recv(65536)
            conn.sendall(answer)
            conn.close()

    thread = threading.Thread(target=answer_garbage, daemon=True)
    thread.start()
    monkeypatch.setenv("LIMEN_SERVER", f"http://127.0.0.1:{listener.getsockname()[1]}")
    monkeypatch.setenv("LIMEN_SERVER_TOKEN", replica.token)
    guard = Guard(project)
    ran: list[str] = []

    @guard.tool(capability="filesystem.read", params={"path": "path"})
    def read(path: str) -> str:
        ran.append(path)
        return "content"

    try:
        with pytest.raises(Denied) as denied:
            read(path="README.md")
    finally:
        listener.close()
        guard.close()
    decision = denied.value.decision
    assert decision is not None and decision.reasons == (ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,)
    assert ran == []


def test_a_held_call_passes_once_after_a_person_approves_it_on_the_server(
    served: Replica, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`LIMEN_SERVER_APPROVAL_WAIT`: the guard holds an AUTH while a person answers on the server's side
    (`limen serve approve ID`); granted, the identical call is decided again there and passes once."""
    import subprocess
    import sys
    import time

    monkeypatch.setenv("LIMEN_SERVER_APPROVAL_WAIT", "30")
    guard = Guard(project)
    sent: list[str] = []

    @guard.tool(capability="network.request", params={"url": "url", "body": "payload"})
    def post(url: str, body: str) -> str:
        sent.append(body)
        return "posted"

    outcome: list[object] = []
    caller = threading.Thread(
        target=lambda: outcome.append(_call(post, "https://api.github.com/gists", "a note"))
    )
    caller.start()
    serve = [sys.executable, "-m", "limen", "serve"]
    where = ["--workspace", served.workspace, "--state", served.state, "--audit", served.audit]
    env = {**os.environ, "LIMEN_HOME": served.home}
    deadline = time.monotonic() + 20
    waiting: list[dict[str, object]] = []
    while not waiting:
        assert time.monotonic() < deadline, "no approval request was opened"
        listed = subprocess.run(
            [*serve, "pending", "--json", *where], env=env, capture_output=True, text=True
        )
        waiting = [r for r in json.loads(listed.stdout or "[]") if r.get("tool") == "post"]
        time.sleep(0.2)
    assert sent == []  # held, not run
    approved = subprocess.run(
        [*serve, "approve", str(waiting[0]["id"]), *where], env=env, capture_output=True, text=True
    )
    assert approved.returncode == 0, approved.stderr
    caller.join(30)
    assert outcome == ["posted"] and sent == ["a note"]
    guard.runtime.approval_wait = 0.0  # type: ignore[union-attr]
    with pytest.raises(Denied) as again:  # the grant was used up: the identical call needs a new one
        post(url="https://api.github.com/gists", body="a note")
    assert again.value.decision is not None and again.value.decision.verdict is Verdict.AUTH
    assert again.value.decision.approval_id not in ("", waiting[0]["id"])
    assert sent == ["a note"]
    guard.close()


def _call(fn: object, url: str, body: str) -> object:
    try:
        return fn(url=url, body=body)  # type: ignore[operator]
    except Denied as exc:
        return exc
