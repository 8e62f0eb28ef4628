"""Faults: a tool or executor that raises, a verification mismatch, a crashing approver, and concurrent
sessions in threads and in asyncio. In every case nothing runs that was not allowed, every attempt is in
the audit log, and the log's chain verifies."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from limen.sdk import Denied, ExecutionFailed, Guard, GuardError

Records = Callable[[], list[dict[str, Any]]]


def _kinds(records: Records) -> list[tuple[str, str]]:
    return [(r["kind"], r.get("event") or r.get("verdict", "")) for r in records()]


def test_a_raising_tool_halts_its_session_and_every_step_is_audited(
    project: Path, audit_dir: Path, records: Records, chain_verifies: Callable[[Path], bool]
) -> None:
    guard = Guard(project, audit=audit_dir)
    ran: list[str] = []

    @guard.tool(capability="filesystem.read")
    def flaky(path: str) -> str:
        ran.append(path)
        raise OSError("disk on fire: /secret/value")

    other = guard.new_session()
    with pytest.raises(ExecutionFailed) as failed:
        flaky(path="README.md")
    assert "OSError" in failed.value.message and "/secret/value" not in failed.value.message
    with pytest.raises(Denied) as halted:
        flaky(path="README.md")
    assert "session_halted" in halted.value.reasons
    assert len(ran) == 1  # the halted session's call did not run
    with pytest.raises(ExecutionFailed):
        other.call("flaky", {"path": "README.md"})  # another session is not halted by the first
    assert len(ran) == 2
    kinds = _kinds(records)
    assert kinds[:4] == [
        ("decision", "PASS"),
        ("event", "sdk_execution_failed"),
        ("event", "session_halt"),
        ("decision", "BLOCK"),
    ]
    assert all("/secret/value" not in str(r) for r in records())
    assert chain_verifies(audit_dir)


def test_a_verification_mismatch_halts_the_session(
    project: Path, audit_dir: Path, records: Records, chain_verifies: Callable[[Path], bool]
) -> None:
    guard = Guard(project, audit=audit_dir)

    @guard.tool(
        capability="filesystem.write", params={"target": "path", "text": "content"}, verify="workspace"
    )
    def save(target: str, text: str) -> str:
        Path(target).write_text(text)
        if "also" in text:
            (project / "notes" / "todo.txt").write_text("changed behind the decision's back\n")
        return "saved"

    @guard.tool(capability="filesystem.read", verify="paths")
    def peek(path: str) -> str:
        Path(path).write_text("a read that writes\n")
        return "read"

    assert save(target="out.md", text="declared change") == "saved"  # only the declared path changed
    with pytest.raises(ExecutionFailed, match="unexpected change"):
        save(target="out.md", text="also this")
    with pytest.raises(Denied):
        save(target="out.md", text="again")
    reader = guard.new_session()
    with pytest.raises(ExecutionFailed, match="unexpected change"):
        reader.call("peek", {"path": "README.md"})
    assert reader.halted
    failures = [r for r in records() if r.get("event") == "sdk_execution_failed"]
    assert [f["changed"] for f in failures] == [1, 1]
    assert chain_verifies(audit_dir)


def test_a_crashing_or_hanging_approver_is_a_denial(
    project: Path, audit_dir: Path, records: Records, chain_verifies: Callable[[Path], bool]
) -> None:
    def crash(request: object) -> bool:
        raise RuntimeError("approver bug")

    ran: list[str] = []
    guard = Guard(project, audit=audit_dir, approver=crash)

    @guard.tool(capability="filesystem.read")
    def read(path: str) -> str:
        ran.append(path)
        return "x"

    with pytest.raises(Denied, match="raised RuntimeError"):
        read(path=".env")

    async def slow(request: object) -> bool:
        await asyncio.sleep(5)
        return True

    slow_guard = Guard(project, audit=audit_dir, approver=slow, approval_timeout=0.2)

    @slow_guard.tool(capability="filesystem.read")
    async def aread(path: str) -> str:
        ran.append(path)
        return "x"

    with pytest.raises(Denied, match="did not answer"):
        asyncio.run(slow_guard.acall("aread", {"path": ".env"}))
    assert ran == []
    answers = [r for r in records() if r.get("event") == "sdk_approval"]
    assert [a["granted"] for a in answers] == [False, False]
    assert chain_verifies(audit_dir)


def _mixed_guard(project: Path, audit_dir: Path) -> tuple[Guard, list[tuple[str, str]], Counter[str]]:
    """Tools that record what ran, and the most calls of one session ever running at once."""
    guard = Guard(project, audit=audit_dir)
    ran: list[tuple[str, str]] = []
    running: Counter[str] = Counter()
    peak: Counter[str] = Counter()
    lock = threading.Lock()

    def enter(session: str) -> None:
        with lock:
            running[session] += 1
            peak[session] = max(peak[session], running[session])

    def leave(session: str) -> None:
        with lock:
            running[session] -= 1

    @guard.tool(capability="shell.execute", params={"argv": "command", "session": None})
    def run(argv: list[str], session: str) -> str:
        enter(session)
        time.sleep(0.002)
        ran.append((session, argv[0]))
        leave(session)
        if argv[0] == "false":
            raise RuntimeError("exit 1")
        return "ok"

    @guard.tool(capability="shell.execute", params={"argv": "command", "session": None})
    async def arun(argv: list[str], session: str) -> str:
        enter(session)
        await asyncio.sleep(0.002)
        ran.append((session, argv[0]))
        leave(session)
        if argv[0] == "false":
            raise RuntimeError("exit 1")
        return "ok"

    return guard, ran, peak


# Per session: allowed, blocked, allowed, failing (halts), allowed-but-halted.
_SCRIPT = [["ls"], ["rm", "-rf", "/"], ["echo", "hi"], ["false"], ["ls"]]
_RUNS = ["ls", "echo", "false"]


def _check(
    records: Records,
    verified: Callable[[Path], bool],
    audit_dir: Path,
    ran: list[tuple[str, str]],
    peak: Counter[str],
    n: int,
) -> None:
    by_session: dict[str, list[str]] = {}
    for session, program in ran:
        by_session.setdefault(session, []).append(program)
    assert len(by_session) == n
    assert set(peak.values()) == {1}  # no session ever ran two calls at once
    assert all(programs == _RUNS for programs in by_session.values())  # exactly the allowed ones, in order
    decisions = [r for r in records() if r["kind"] == "decision"]
    assert len(decisions) == n * len(_SCRIPT)  # every attempt has its record
    assert Counter(d["verdict"] for d in decisions) == {"PASS": 3 * n, "BLOCK": 2 * n}
    assert len([r for r in records() if r.get("event") == "session_halt"]) == n
    assert verified(audit_dir)


def _session_script(call: Callable[[list[str]], Any], errors: list[str]) -> None:
    for argv in _SCRIPT:
        try:
            call(argv)
        except GuardError as exc:
            errors.append(type(exc).__name__)


def test_concurrent_sessions_in_threads(
    project: Path, audit_dir: Path, records: Records, chain_verifies: Callable[[Path], bool]
) -> None:
    guard, ran, peak = _mixed_guard(project, audit_dir)
    errors: list[str] = []
    sessions = [guard.new_session(agent_id=f"agent-{i}") for i in range(6)]
    threads = [
        threading.Thread(
            target=_session_script,
            args=(lambda argv, s=s: s.call("run", {"argv": argv, "session": s.id}), errors),
        )
        for s in sessions
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(errors) == {"Denied": 12, "ExecutionFailed": 6}
    _check(records, chain_verifies, audit_dir, ran, peak, 6)


def test_calls_of_one_session_from_many_threads_are_serialised(project: Path, audit_dir: Path) -> None:
    guard, ran, peak = _mixed_guard(project, audit_dir)
    session = guard.new_session()
    threads = [
        threading.Thread(target=lambda: session.call("run", {"argv": ["ls"], "session": session.id}))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ran) == 8 and peak[session.id] == 1


def test_concurrent_sessions_in_asyncio(
    project: Path, audit_dir: Path, records: Records, chain_verifies: Callable[[Path], bool]
) -> None:
    guard, ran, peak = _mixed_guard(project, audit_dir)
    errors: list[str] = []

    async def script(session_index: int) -> None:
        session = guard.new_session(agent_id=f"task-{session_index}")
        for argv in _SCRIPT:
            try:
                await session.acall("arun", {"argv": argv, "session": session.id})
            except GuardError as exc:
                errors.append(type(exc).__name__)

    async def main() -> None:
        await asyncio.gather(*(script(i) for i in range(6)))

    asyncio.run(main())
    assert Counter(errors) == {"Denied": 12, "ExecutionFailed": 6}
    _check(records, chain_verifies, audit_dir, ran, peak, 6)


def test_gathered_calls_of_one_session_never_overlap(project: Path, audit_dir: Path) -> None:
    guard, ran, peak = _mixed_guard(project, audit_dir)
    session = guard.new_session()

    async def main() -> None:
        calls = [session.acall("arun", {"argv": ["ls"], "session": session.id}) for _ in range(5)]
        calls += [session.acall("run", {"argv": ["ls"], "session": session.id}) for _ in range(3)]
        await asyncio.gather(*calls)

    asyncio.run(main())
    assert len(ran) == 8 and peak[session.id] == 1
