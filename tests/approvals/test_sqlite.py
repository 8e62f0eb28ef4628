"""The SQLite approval store: every transition is a compare-and-set, so a request is answered once and a
grant is used once, however many threads and processes race for it."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest

from limen.approvals import (
    DENIED,
    EXPIRED,
    GRANTED,
    PENDING,
    USED,
    ApprovalError,
    ApprovalRequest,
    SqliteApprovalStore,
)

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
def store(tmp_path: Path) -> SqliteApprovalStore:
    return SqliteApprovalStore(str(tmp_path / "approvals.sqlite"))


def test_a_request_round_trips_and_lists_as_pending(store: SqliteApprovalStore) -> None:
    store.create(request())
    assert store.get("a1b2c3d4e5") == request()
    assert [r.id for r in store.pending(NOW)] == ["a1b2c3d4e5"]
    assert store.pending(NOW + 601) == []  # past its expiry it is not offered any more
    assert store.get("nope") is None


def test_the_file_is_private(tmp_path: Path) -> None:
    SqliteApprovalStore(str(tmp_path / "a.sqlite")).close()
    assert (tmp_path / "a.sqlite").stat().st_mode & 0o077 == 0


def test_a_grant_is_used_once(store: SqliteApprovalStore) -> None:
    store.create(request())
    granted = store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    assert (granted.status, granted.answered_by) == (GRANTED, "alice")
    used = store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 2)
    assert used is not None and (used.status, used.used_by) == (USED, "d2")
    assert store.claim("a1b2c3d4e5", decision_id="d3", now=NOW + 3) is None
    assert store.open_for("fp-1", NOW + 3) == []


def test_only_a_granted_request_can_be_claimed(store: SqliteApprovalStore) -> None:
    store.create(request())
    assert store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 1) is None
    assert store.get("a1b2c3d4e5").status == PENDING  # type: ignore[union-attr]


def test_an_answer_is_given_once(store: SqliteApprovalStore) -> None:
    store.create(request())
    store.deny("a1b2c3d4e5", by="bob", now=NOW + 1)
    with pytest.raises(ApprovalError, match="already denied"):
        store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 2)
    with pytest.raises(ApprovalError, match="no approval request"):
        store.grant("ffffffffff", by="alice", factor="", now=NOW + 2)


def test_a_grant_can_be_revoked_before_use_but_not_by_a_pending_only_deny(store: SqliteApprovalStore) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    with pytest.raises(ApprovalError, match="already granted"):
        store.deny("a1b2c3d4e5", by="link", now=NOW + 2, revoke=False)
    assert store.deny("a1b2c3d4e5", by="alice", now=NOW + 2).status == DENIED
    assert store.claim("a1b2c3d4e5", decision_id="d2", now=NOW + 3) is None


def test_expiry_ends_pending_requests_and_unused_grants(store: SqliteApprovalStore) -> None:
    store.create(request("aaaaaaaaaa", "fp-a", NOW + 10))
    store.create(request("bbbbbbbbbb", "fp-b", NOW + 10))
    store.create(request("cccccccccc", "fp-c", NOW + 100))
    store.grant("bbbbbbbbbb", by="alice", factor="", now=NOW + 1)
    with pytest.raises(ApprovalError, match="expired"):
        store.grant("aaaaaaaaaa", by="alice", factor="", now=NOW + 11)
    assert store.claim("bbbbbbbbbb", decision_id="d", now=NOW + 11) is None
    expired = store.expire(NOW + 11)
    assert {(r.id, r.status) for r in expired} == {("aaaaaaaaaa", EXPIRED), ("bbbbbbbbbb", EXPIRED)}
    assert store.expire(NOW + 11) == []  # each expiry is reported once
    assert store.get("cccccccccc").status == PENDING  # type: ignore[union-attr]


def test_concurrent_claims_from_threads_have_one_winner(store: SqliteApprovalStore, tmp_path: Path) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    stores = [SqliteApprovalStore(store.path) for _ in range(8)]
    barrier = threading.Barrier(len(stores))
    wins: list[str] = []

    def race(s: SqliteApprovalStore, n: int) -> None:
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


def _claim_in_process(path: str, n: int, start: object, results: object) -> None:
    s = SqliteApprovalStore(path)
    start.wait()  # type: ignore[attr-defined]
    won = s.claim("a1b2c3d4e5", decision_id=f"p{n}", now=NOW + 2) is not None
    results.put((n, won))  # type: ignore[attr-defined]


def test_concurrent_claims_from_processes_have_one_winner(store: SqliteApprovalStore) -> None:
    store.create(request())
    store.grant("a1b2c3d4e5", by="alice", factor="", now=NOW + 1)
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_claim_in_process, args=(store.path, n, start, results)) for n in range(4)]
    for p in procs:
        p.start()
    start.set()
    outcomes = [results.get(timeout=20) for _ in procs]
    for p in procs:
        p.join(10)
    assert sorted(won for _, won in outcomes) == [False, False, False, True]


def test_finished_requests_are_forgotten_after_a_week(store: SqliteApprovalStore) -> None:
    store.create(request("aaaaaaaaaa", "fp-a"))
    store.create(request("bbbbbbbbbb", "fp-b"))
    store.deny("aaaaaaaaaa", by="bob", now=NOW + 1)
    store.expire(NOW + 600 + 6 * 86400)
    assert store.get("aaaaaaaaaa") is not None  # still shown as recent
    store.expire(NOW + 600 + 7 * 86400 + 1)
    assert store.get("aaaaaaaaaa") is None and store.get("bbbbbbbbbb") is None  # b expired, then forgotten
