"""The session's rate window: counted in the store (so across hook processes), judged per mode."""

from __future__ import annotations

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
