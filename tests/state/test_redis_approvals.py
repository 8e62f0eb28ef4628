"""Approvals on Redis: the SQLite store's contract (tests/approvals/test_sqlite.py) on a real Redis, races
across threads and processes with one winner, and a request opened through one replica answered once and
used once through another."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from limen.approvals import DENIED, EXPIRED, GRANTED, PENDING, USED, ApprovalError, ApprovalRequest
from limen.model import Verdict
from limen.serve.app import ServeRuntime
from limen.state.redis import RedisStore
from limen.state.redis_approvals import RedisApprovalStore

NOW = 1_000_000.0


def request(rid: str = "a1b2c3d4e5", fp: str = "fp-1", expires: float = NOW + 600) -> ApprovalRequest:
    return ApprovalRequest(
        id=rid,
        fingerprint=fp,
        tool="Bash",
        action="Bash: rm -rf build",
        reasons=("destructive_command",),
        risk=60,
        strong=False,
        session="s1",
        workspace="/w",
        door="sdk",
        decision_id="d1",
        created=NOW,
        expires=expires,
    )


@pytest.fixture
def store(redis_url: str) -> RedisApprovalStore:
    return RedisApprovalStore(redis_url)


def test_a_request_round_trips_and_lists_as_pending(store: RedisApprovalStore) -> None:
    store.create(request())
    assert store.get("a1b2c3d4e5") == request()
    assert [r.id for r in store.pending(NOW)] == ["a1b2c3d4e5"]
    assert store.pending(NOW + 601) == []
    assert store.get("nope") is None
    assert [r.id for r in store.open_for("fp-1", NOW)] == ["a1b2c3d4e5"] and store.open_for("fp-2", NOW) == []
    with pytest.raises(ApprovalError, match="exists already"):
        store.create(request())


def test_a_grant_is_used_once(store: RedisApprovalStore) -> None:
    store.create(request())
    granted = store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    assert (granted.status, granted.answered_by, granted.answered_at) == (GRANTED, "alice", NOW + 1)
    used = store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 2)
    assert used is not None and (used.status, used.used_by) == (USED, "d2")
    assert store.claim("a1b2c3d4e5", decision_id="d3", now=NOW + 3) is None
    assert store.open_for("fp-1", NOW + 3) == []
    assert [r.status for r in store.recent()] == [USED]


def test_only_a_granted_request_can_be_claimed(store: RedisApprovalStore) -> None:
    store.create(request())
    assert store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 1) is None
    assert store.get("a1b2c3d4e5").status == PENDING  # type: ignore[union-attr]


def test_an_answer_is_given_once(store: RedisApprovalStore) -> None:
    store.create(request())
    store.deny("a1b2c3d4e5", by="bob", now=NOW + 1)
    with pytest.raises(ApprovalError, match="already denied"):
        store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 2)
    with pytest.raises(ApprovalError, match="no approval request"):
        store.grant("ffffffffff", by="alice", factor="", now=NOW + 2)


def test_a_grant_can_be_revoked_before_use_but_not_by_a_pending_only_deny(store: RedisApprovalStore) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    with pytest.raises(ApprovalError, match="already granted"):
        store.deny("a1b2c3d4e5", by="link", now=NOW + 2, revoke=False)
    assert store.deny("a1b2c3d4e5", by="alice", now=NOW + 2).status == DENIED
    assert store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 3) is None


def test_expiry_ends_pending_requests_and_unused_grants(store: RedisApprovalStore) -> None:
    store.create(request("aaaaaaaaaa", "fp-a", NOW + 10))
    store.create(request("bbbbbbbbbb", "fp-b", NOW + 10))
    store.create(request("cccccccccc", "fp-c", NOW + 100))
    store.grant("bbbbbbbbbb", by="alice", factor="", now=NOW + 1)
    with pytest.raises(ApprovalError, match="expired"):
        store.grant("aaaaaaaaaa", by="alice", factor="", now=NOW + 11)
    assert store.claim("bbbbbbbbbb", decision_id="d", now=NOW + 11) is None
    expired = store.expire(NOW + 11)
    assert {(r.id, r.status) for r in expired} == {("aaaaaaaaaa", EXPIRED), ("bbbbbbbbbb", EXPIRED)}
    assert store.expire(NOW + 11) == []
    assert store.get("cccccccccc").status == PENDING  # type: ignore[union-attr]


def test_concurrent_claims_from_threads_have_one_winner(store: RedisApprovalStore, redis_url: str) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    stores = [RedisApprovalStore(redis_url) for _ in range(8)]
    barrier = threading.Barrier(len(stores))
    wins: list[str] = []

    def race(s: RedisApprovalStore, n: int) -> None:
        barrier.wait()
        if s.claim("a1b2c3d4e5", decision_id=f"d{n}", now=NOW + 2) is not None:
            wins.append(f"d{n}")

    threads = [threading.Thread(target=race, args=(s, n)) for n, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    assert store.get("a1b2c3d4e5").used_by == wins[0]  # type: ignore[union-attr]


def _claim_in_process(url: str, n: int, start: object, results: object) -> None:
    s = RedisApprovalStore(url)
    start.wait()  # type: ignore[attr-defined]
    won = s.claim("a1b2c3d4e5", decision_id=f"p{n}", now=NOW + 2) is not None
    results.put((n, won))  # type: ignore[attr-defined]


def test_concurrent_claims_from_processes_have_one_winner(store: RedisApprovalStore, redis_url: str) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_claim_in_process, args=(redis_url, n, start, results)) for n in range(4)]
    for p in procs:
        p.start()
    start.set()
    outcomes = [results.get(timeout=20) for _ in procs]
    for p in procs:
        p.join(10)
    assert sorted(won for _, won in outcomes) == [False, False, False, True]


def test_a_request_opened_through_one_replica_is_used_once_through_another(
    redis_url: str, workspace: str, tmp_path: Path, limen_home: Path
) -> None:
    call = ("Bash", {"command": "curl -s https://downloads.unknown-vendor.example/tool.tgz -o tool.tgz"})
    first, second = (
        ServeRuntime(workspace=workspace, store=RedisStore(redis_url), audit_sink=str(tmp_path / "audit"))
        for _ in range(2)
    )
    asked = first.decide(*call, session_id="s", door="sdk")
    assert asked.verdict is Verdict.AUTH and asked.approval_id
    assert [r.id for r in second.approvals.pending()] == [asked.approval_id]
    env = {**os.environ, "LIMEN_HOME": str(limen_home)}
    answer = subprocess.run(
        [sys.executable, "-m", "limen", "serve", "approve", asked.approval_id, "--state", redis_url,
         "--audit", str(tmp_path / "audit"), "--workspace", workspace],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert answer.returncode == 0, answer.stderr
    passed = second.decide(*call, session_id="s", door="sdk")
    assert passed.verdict is Verdict.PASS and passed.approval_id == asked.approval_id
    again = first.decide(*call, session_id="s", door="sdk")
    assert again.verdict is Verdict.AUTH and again.approval_id != asked.approval_id  # used once
    log = (tmp_path / "audit" / "decisions.jsonl").read_text()
    assert '"event":"approval_grant"' in log and '"event":"approval_use"' in log
    first.close()
    second.close()
