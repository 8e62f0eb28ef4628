"""Single-use approvals through the one decision path (`Runtime.decide`): what a user depends on.

An approval lets exactly the call it was asked for through, once, before it expires; any other call (a
changed argument, another session) asks again; floors win over any grant; a strong request needs the
factor; two racing calls cannot both use one grant; and every step is in the verified audit chain."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pyotp
import pytest

from limen.approvals import DENIED, EXPIRED, GRANTED, PENDING, USED, ApprovalError
from limen.approvals.binding import NEVER_APPROVABLE
from limen.approvals.config import ApprovalConfig
from limen.audit import LOG_NAME
from limen.audit.verify import verify
from limen.model import Decision, ReasonCode, StageResult, Verdict
from limen.policy import drift
from limen.runtime import Runtime

CHMOD = {"command": "chmod 777 run.sh"}  # AUTH, unsafe_permissions, risk 60


@pytest.fixture
def rt(workspace: str) -> Iterator[Runtime]:
    runtime = Runtime(workspace=workspace)
    yield runtime
    runtime.close()


def decide(rt: Runtime, args: dict[str, str] = CHMOD, session: str = "s1", **kw: str) -> Decision:
    return rt.decide("Bash", args, session_id=session, door="sdk", **kw)


def events(limen_home: Path) -> list[dict[str, object]]:
    lines = (limen_home / "audit" / LOG_NAME).read_text().splitlines()
    return [
        r for r in map(json.loads, lines) if r["kind"] == "event" and str(r["event"]).startswith("approval")
    ]


def test_an_auth_opens_a_request_and_its_identical_retry_reuses_it(rt: Runtime) -> None:
    first = decide(rt)
    assert first.verdict is Verdict.AUTH and first.approval_id
    request = rt.approvals.get(first.approval_id)
    assert request is not None and request.status == PENDING
    assert request.action == "Bash: chmod 777 run.sh" and request.reasons == ("unsafe_permissions",)
    assert 599 <= request.expires - request.created <= 601  # ten minutes by default
    assert decide(rt).approval_id == first.approval_id  # asking again is not another request
    assert first.to_dict()["approval_id"] == first.approval_id


def test_a_grant_lets_the_identical_call_through_once(rt: Runtime) -> None:
    asked = decide(rt)
    rt.approvals.grant(asked.approval_id, by="alice")
    passed = decide(rt)
    assert passed.verdict is Verdict.PASS and passed.approval_id == asked.approval_id
    assert passed.evidence[-1].stage == "approval"
    assert passed.evidence[-1].details == (f"approved once by alice (approval {asked.approval_id})",)
    assert f"approval {asked.approval_id}" in passed.explanation
    assert rt.approvals.get(asked.approval_id).status == USED  # type: ignore[union-attr]
    again = decide(rt)
    assert again.verdict is Verdict.AUTH and again.approval_id not in ("", asked.approval_id)


@pytest.mark.parametrize(
    "other",
    [
        {"args": {"command": "chmod 777 other.sh"}},  # a changed argument
        {"args": {"command": "chmod  777 run.sh"}},  # even one that means the same to the shell
        {"session": "s2"},  # another session
        {"cwd": "/tmp"},  # another working directory: relative paths mean other files
    ],
)
def test_an_approval_covers_no_other_call(rt: Runtime, other: dict[str, object]) -> None:
    asked = decide(rt)
    rt.approvals.grant(asked.approval_id, by="alice")
    kw = {k: v for k, v in other.items() if k == "cwd"}
    different = decide(rt, other.get("args", CHMOD), str(other.get("session", "s1")), **kw)  # type: ignore[arg-type]
    assert different.verdict is Verdict.AUTH and different.approval_id != asked.approval_id
    assert decide(rt).verdict is Verdict.PASS  # the approved call itself still passes, once


def test_denied_and_expired_requests_let_nothing_through(rt: Runtime, limen_home: Path) -> None:
    denied = decide(rt)
    rt.approvals.deny(denied.approval_id, by="bob")
    retry = decide(rt)
    assert retry.verdict is Verdict.AUTH and retry.approval_id != denied.approval_id
    rt.approvals.grant(retry.approval_id, by="alice")
    later = rt.approvals.clock
    rt.approvals.clock = lambda: later() + 601  # eleven minutes on: the grant was never used
    expired = decide(rt)
    assert expired.verdict is Verdict.AUTH and expired.approval_id != retry.approval_id
    assert rt.approvals.get(retry.approval_id).status == EXPIRED  # type: ignore[union-attr]
    with pytest.raises(ApprovalError, match="already expired"):
        rt.approvals.grant(retry.approval_id, by="alice")
    assert ("approval_expire", retry.approval_id) in {(e["event"], e["approval"]) for e in events(limen_home)}


def test_a_grant_can_be_taken_back_before_it_is_used(rt: Runtime) -> None:
    asked = decide(rt)
    rt.approvals.grant(asked.approval_id, by="alice")
    assert rt.approvals.deny(asked.approval_id, by="alice").status == DENIED
    assert decide(rt).verdict is Verdict.AUTH


def test_floors_win_over_a_grant(rt: Runtime) -> None:
    asked = decide(rt)
    rt.approvals.grant(asked.approval_id, by="alice")
    rt.halt("s1", reason="test")
    halted = decide(rt)
    assert halted.verdict is Verdict.BLOCK and ReasonCode.SESSION_HALTED in halted.reasons
    assert halted.approval_id == ""
    assert rt.approvals.get(asked.approval_id).status == GRANTED  # not spent on a refused call


@pytest.mark.parametrize("code", sorted(NEVER_APPROVABLE))
def test_a_floor_never_gets_an_approval_request(rt: Runtime, code: ReasonCode) -> None:
    """In light and balanced modes the trifecta floors answer AUTH: still not approvable once."""
    decision = Decision(Verdict.AUTH, 85, (code,), "AUTH: floor", [StageResult("floors", Verdict.AUTH, 85)])
    settled = rt.approvals.settle(
        decision,
        tool="Bash",
        arguments=CHMOD,
        cwd=rt.workspace,
        session="s1",
        workspace=rt.workspace,
        door="sdk",
        fingerprinter=rt.fingerprint,
        strong_threshold=76,
        config=ApprovalConfig(),
    )
    assert settled.verdict is Verdict.AUTH and settled.approval_id == ""
    assert "no approval can allow it" in settled.explanation
    assert rt.approvals.pending() == []


def test_a_strong_request_needs_the_totp_code(workspace: str) -> None:
    """Risk at or above the strong threshold (66 in strict mode): a grant needs the drift gate's factor."""
    rt = Runtime(workspace=workspace, mode="strict")
    args = {"command": "rm -rf ~/projects"}  # AUTH, destructive_command, risk 70
    asked = decide(rt, args)
    assert asked.verdict is Verdict.AUTH and asked.risk >= rt.context.thresholds.strong
    request = rt.approvals.get(asked.approval_id)
    assert request is not None and request.strong
    with pytest.raises(ApprovalError, match="none is set up"):
        rt.approvals.grant(asked.approval_id, by="alice")
    secret = drift.setup_totp().split("secret=")[1].split("&")[0]
    with pytest.raises(ApprovalError, match="needs the TOTP code or password"):
        rt.approvals.grant(asked.approval_id, by="alice")
    wrong = "000000" if pyotp.TOTP(secret).now() != "000000" else "111111"
    with pytest.raises(ApprovalError, match="does not verify"):
        rt.approvals.grant(asked.approval_id, by="alice", code=wrong)
    assert decide(rt, args).verdict is Verdict.AUTH  # nothing was granted
    granted = rt.approvals.grant(asked.approval_id, by="alice", code=pyotp.TOTP(secret).now())
    assert granted.factor == "totp"
    assert decide(rt, args).verdict is Verdict.PASS
    rt.close()


def test_a_grant_without_the_factor_does_not_cover_the_call_once_it_is_strong(workspace: str) -> None:
    """Granted at risk 70 in balanced mode (below 76); the same call decided in strict mode (strong from
    66) is not covered by that grant."""
    balanced, strict = Runtime(workspace=workspace), Runtime(workspace=workspace, mode="strict")
    args = {"command": "rm -rf ~/projects"}
    asked = decide(balanced, args)
    balanced.approvals.grant(asked.approval_id, by="alice")
    assert decide(strict, args).verdict is Verdict.AUTH
    assert decide(balanced, args).verdict is Verdict.PASS
    balanced.close()
    strict.close()


def test_concurrent_identical_calls_use_one_grant_once(workspace: str) -> None:
    runtimes = [Runtime(workspace=workspace) for _ in range(6)]
    asked = decide(runtimes[0])
    runtimes[0].approvals.grant(asked.approval_id, by="alice")
    barrier = threading.Barrier(len(runtimes))
    verdicts: list[Verdict] = []

    def call(runtime: Runtime) -> None:
        barrier.wait()
        verdicts.append(decide(runtime).verdict)

    threads = [threading.Thread(target=call, args=(r,)) for r in runtimes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(verdicts) == [Verdict.PASS] + [Verdict.AUTH] * 5
    for r in runtimes:
        r.close()


def test_every_step_is_in_the_audit_chain_without_the_arguments(rt: Runtime, limen_home: Path) -> None:
    secret_args = {"command": "chmod 777 run.sh ghp_abcdefghijklmnopqrstuvwxyz0123456789"}
    first = decide(rt, secret_args)
    rt.approvals.grant(first.approval_id, by="alice")
    used = decide(rt, secret_args)
    second = decide(rt, secret_args)
    rt.approvals.deny(second.approval_id, by="bob")
    rt.close()
    log = (limen_home / "audit" / LOG_NAME).read_text()
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in log and "run.sh" not in log
    got = [(e["event"], e["approval"]) for e in events(limen_home)]
    assert got == [
        ("approval_request", first.approval_id),
        ("approval_grant", first.approval_id),
        ("approval_use", first.approval_id),
        ("approval_request", second.approval_id),
        ("approval_deny", second.approval_id),
    ]
    use = next(e for e in events(limen_home) if e["event"] == "approval_use")
    assert use["decision"] == used.decision_id
    assert verify(str(limen_home / "audit")).ok
    request = Runtime(workspace=rt.workspace).approvals.get(first.approval_id)
    assert request is not None and "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in request.action
    assert "[secret:" in request.action


@pytest.mark.parametrize("door", ["explain", "bench"])
def test_calls_that_are_only_shown_open_no_request(rt: Runtime, door: str) -> None:
    shown = rt.decide("Bash", CHMOD, session_id="s1", door=door)
    assert shown.verdict is Verdict.AUTH and shown.approval_id == ""
    assert rt.approvals.pending() == []


def test_recent_lists_every_status_newest_first(rt: Runtime) -> None:
    first = decide(rt)
    rt.approvals.deny(first.approval_id, by="bob")
    second = decide(rt)
    assert [(r.id, r.status) for r in rt.approvals.recent()] == [
        (second.approval_id, PENDING),
        (first.approval_id, DENIED),
    ]


def test_a_damaged_store_is_set_aside_and_nothing_it_held_is_approved(
    workspace: str, limen_home: Path
) -> None:
    rt = Runtime(workspace=workspace)
    asked = decide(rt)
    rt.approvals.grant(asked.approval_id, by="alice")
    rt.close()
    (limen_home / "approvals.sqlite").write_bytes(b"not a database" * 100)
    rt = Runtime(workspace=workspace)
    again = decide(rt)
    assert again.verdict is Verdict.AUTH and again.approval_id not in ("", asked.approval_id)
    assert list(limen_home.glob("approvals.sqlite.corrupt-*"))
    rt.close()


def test_an_unusable_store_leaves_the_auth_unapprovable(workspace: str, limen_home: Path) -> None:
    (limen_home / "approvals.sqlite").mkdir()  # cannot be opened, nor set aside as a file
    rt = Runtime(workspace=workspace)
    decision = decide(rt)
    assert decision.verdict is Verdict.AUTH and decision.approval_id == ""
    assert rt.hold(decision, door="sdk", until=9e9) == ("denied", ())
    rt.close()
