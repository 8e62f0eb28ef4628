"""The session's rate window: counted in the store (so across hook processes), judged per mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from limen.model import ReasonCode, Verdict
from limen.runtime import Runtime
from limen.state.memory import MemoryStore
from limen.state.sqlite import SqliteStore


@pytest.mark.parametrize("make", [lambda p: MemoryStore(), lambda p: SqliteStore(str(p / "state.sqlite"))])
def test_stores_count_calls_within_the_window_per_session(make: object, tmp_path: Path) -> None:
    store = make(tmp_path)  # type: ignore[operator]
    assert [store.count_call("a", 60.0) for _ in range(3)] == [1, 2, 3]
    assert store.count_call("b", 60.0) == 1  # another session's window is its own
    assert store.count_call("a", 0.0) == 1  # calls older than the window fall out
    store.clear("a", taint_only=False)
    assert store.count_call("a", 60.0) == 1


def test_a_burst_beyond_the_mode_asks_and_only_in_that_session(tmp_path: Path) -> None:
    runtime = Runtime(workspace=str(tmp_path), mode="paranoid")  # 60 calls a minute
    calls = [
        runtime.decide("Read", {"file_path": "README.md"}, session_id="s1", door="hook") for _ in range(61)
    ]
    assert all(ReasonCode.RATE_LIMITED not in d.reasons for d in calls[:60])
    assert calls[60].verdict is Verdict.AUTH and ReasonCode.RATE_LIMITED in calls[60].reasons
    other = runtime.decide("Read", {"file_path": "README.md"}, session_id="s2", door="hook")
    assert ReasonCode.RATE_LIMITED not in other.reasons


def test_the_window_holds_across_processes(tmp_path: Path) -> None:
    """Hooks are one process per call: the count lives in the SQLite store, not in the process."""
    code = (
        "import sys; from limen.runtime import Runtime; "
        f"r = Runtime(workspace={str(tmp_path)!r}, mode='paranoid'); "
        "print(r.store.count_call('s1', 60.0))"
    )
    env = {"LIMEN_HOME": str(tmp_path / "home"), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    counts = [
        subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout
        for _ in range(3)
    ]
    assert [int(c) for c in counts] == [1, 2, 3]


def test_a_clock_set_back_does_not_keep_a_session_limited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window started an hour "in the future" once the clock went back: it starts again, rather than
    counting every call for an hour."""
    import time as clock

    store = SqliteStore(str(tmp_path / "s.sqlite"))
    now = clock.time()
    monkeypatch.setattr(clock, "time", lambda: now)
    for _ in range(5):
        store.count_call("s", 60.0)
    monkeypatch.setattr(clock, "time", lambda: now - 3600)  # set back an hour
    assert store.count_call("s", 60.0) == 1
    assert store.count_call("s", 60.0) == 2
    store.close()


# The window in limen.yaml: `rate: {calls, seconds}`, validated, tighten-only below the top level and a
# loosening that waits for the drift gate like any other.


@pytest.fixture
def project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    from policy_helpers import no_org_policy

    no_org_policy(monkeypatch, tmp_path_factory.mktemp("org"))
    return Path(os.path.realpath(tmp_path))


def test_a_configured_window_applies(project: Path) -> None:
    from policy_helpers import write_policy

    write_policy(project / "limen.yaml", "rate:\n  calls: 3\n  seconds: 600\n")
    runtime = Runtime(workspace=str(project))
    calls = [
        runtime.decide("Read", {"file_path": "README.md"}, session_id="s", door="hook") for _ in range(4)
    ]
    runtime.close()
    assert all(ReasonCode.RATE_LIMITED not in d.reasons for d in calls[:3])
    assert calls[3].verdict is Verdict.AUTH and ReasonCode.RATE_LIMITED in calls[3].reasons
    assert "4 calls in 600 s (the window allows 3)" in calls[3].explanation


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("mode: balanced\nrate:\n  calls: 0\n  seconds: 60\n", 3, "rate.calls"),
        ("rate:\n  calls: 10\n  seconds: -5\n", 3, "rate.seconds"),
        ("rate:\n  calls: 10\n", 1, "rate.seconds"),
        ("rate:\n  calls: 10\n  seconds: 60\n  burst: 2\n", 4, "rate.burst"),
        ("rate:\n  calls: ten\n  seconds: 60\n", 2, "rate.calls"),
    ],
)
def test_a_bad_window_is_refused_with_file_line_and_key(
    project: Path, text: str, line: int, key: str
) -> None:
    from limen.policy.check import check_file

    path = project / "limen.yaml"
    path.write_text(text)
    errors = [p for p in check_file(str(path)) if p.severity == "error"]
    assert [(p.file, p.line, p.key) for p in errors] == [(str(path), line, key)]


def test_a_looser_window_waits_for_the_drift_gate(project: Path) -> None:
    """A project may not raise the window past the approved policy on its own: the mode's window stays
    until the loosening is approved, and `limen policy status` names it."""
    from limen.policy import drift, effective, load_context
    from policy_helpers import write_policy

    write_policy(project / "limen.yaml", "rate:\n  calls: 100000\n  seconds: 1\n")
    assert load_context(str(project)).rate_limit == (240, 60.0)
    current, _, default = effective.from_files(str(project))
    base, _ = drift.approved(str(project), default)
    assert "rate 240 calls in 60 s -> 100000 calls in 1 s" in drift.loosenings(base, current)


def test_a_stricter_mode_request_keeps_the_stricter_window(project: Path) -> None:
    """Windows are compared part by part: fewer calls and a longer window are stricter (a shorter window,
    even with fewer calls, lets a burst through sooner: it counts as a loosening)."""
    from limen.policy import load_context
    from policy_helpers import write_policy

    write_policy(project / "limen.yaml", "rate:\n  calls: 100\n  seconds: 120\n")
    assert load_context(str(project)).rate_limit == (100, 120.0)
    assert load_context(str(project), mode="paranoid").rate_limit == (60, 120.0)  # fewer calls, longer window
