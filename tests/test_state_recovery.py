"""A damaged `state.sqlite` is quarantined and rebuilt fail-closed (issue 9, item 5).

Before: a corrupt state file made every decision BLOCK with `objective_guardrail_error` forever,
`limen doctor` said OK and `limen session show` printed a traceback. Now the file is moved aside (never
deleted), a fresh one records when and why the state was lost, and every session counts as tainted and as
having taken in untrusted content until a person clears it; the explanations say so and say how.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from limen.audit import LOG_NAME
from limen.cli import main
from limen.model import ReasonCode, Verdict
from limen.runtime import Runtime
from limen.state import INJECTED, STATE_LOST, TAINTED, UNTRUSTED
from limen.state.sqlite import SqliteStore, health

# Egress that carries data to a trusted host: it passes in a clean session, and asks in a tainted one (a GET
# that carries nothing passes either way).
FETCH = ("Bash", {"command": "curl -d 'q=1' https://docs.python.org/3/search"})


def _used_state(path: Path) -> None:
    """A state file as a few hook calls leave it: several pages, so a cut really loses some."""
    store = SqliteStore(str(path))
    for i in range(400):
        store.append_history(f"s{i % 40}", {"cap": "file.read", "pad": "x" * 200})
    store.set_flags("s1", {UNTRUSTED})
    store.close()


def _damage(path: Path, how: str) -> bytes:
    data = path.read_bytes()
    if how == "garbage":
        data = b"this is not a database\n" * 300
    elif how == "truncated":
        data = data[: len(data) // 2]
    elif how == "zeroed header":
        data = bytes(100) + data[100:]
    else:  # another program's database at our path
        path.unlink()
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE flags (x INTEGER)")
        other.commit()
        other.close()
        return path.read_bytes()
    path.write_bytes(data)
    return data


def _quarantined(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.glob("state.sqlite.corrupt-*") if not p.name.endswith(("-wal", "-shm"))
    )


@pytest.mark.parametrize("how", ["garbage", "truncated", "zeroed header", "wrong schema"])
def test_a_damaged_state_file_is_moved_aside_and_every_session_counts_as_tainted(
    tmp_path: Path, workspace: str, how: str
) -> None:
    state = tmp_path / "state.sqlite"
    _used_state(state)
    damaged = _damage(state, how)
    runtime = Runtime(workspace=workspace, state_path=str(state))
    read = runtime.decide("Read", {"file_path": f"{workspace}/README.md"}, session_id="s1", door="hook")
    fetch = runtime.decide(*FETCH, session_id="s1", door="hook")
    flags = runtime.store.flags("s1")
    runtime.close()
    assert read.verdict is Verdict.PASS, read.explanation  # work that sends nothing out goes on
    assert ReasonCode.OBJECTIVE_GUARDRAIL_ERROR not in fetch.reasons
    assert fetch.verdict is not Verdict.PASS  # egress from a session whose taint is unknown asks
    assert "state was lost" in fetch.explanation and "limen session clear s1" in fetch.explanation
    assert {TAINTED, UNTRUSTED, STATE_LOST} <= flags
    (moved,) = _quarantined(tmp_path)
    assert moved.read_bytes() == damaged  # kept for a person to look at, byte for byte


def test_a_state_that_cannot_be_opened_denies_and_says_what_to_do(tmp_path: Path, workspace: str) -> None:
    runtime = Runtime(workspace=workspace, state_path=str(tmp_path))  # a directory: nothing to rebuild
    decision = runtime.decide(*FETCH, session_id="s1", door="hook")
    runtime.close()
    assert decision.verdict is Verdict.BLOCK and ReasonCode.OBJECTIVE_GUARDRAIL_ERROR in decision.reasons
    assert str(tmp_path) in decision.explanation and "move it aside" in decision.explanation


def test_a_deleted_state_file_counts_as_lost_but_a_new_one_does_not(tmp_path: Path) -> None:
    fresh = SqliteStore(str(tmp_path / "new.sqlite"))
    assert fresh.flags("s") == frozenset() and fresh.state_lost() == ""
    fresh.close()
    state = tmp_path / "state.sqlite"
    _used_state(state)
    state.unlink()  # what `rm` of the state (to drop a session's taint) leaves
    store = SqliteStore(str(state))
    assert TAINTED in store.flags("s1") and "missing" in store.state_lost()
    store.close()


def test_a_long_lived_store_follows_a_rebuild_by_another_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state.sqlite"
    _used_state(state)
    monkeypatch.setattr(SqliteStore, "follow_every", 0.0)  # look at the path on every call, not every second
    daemon = SqliteStore(str(state))  # the daemon's store, open across decisions
    assert TAINTED not in daemon.flags("s2")
    state.unlink()  # its connection still reads the deleted file happily
    SqliteStore(str(state)).close()  # a hook process finds the file gone and rebuilds it, marked lost
    assert TAINTED in daemon.flags("s2")
    daemon.set_flags("s2", {INJECTED})  # and what it writes now, everyone reads
    again = SqliteStore(str(state))
    assert INJECTED in again.flags("s2")
    again.acknowledge_state_loss()
    again.close()
    assert TAINTED not in daemon.flags("s2")  # the acknowledgement reaches it too
    daemon.close()


def test_a_person_clears_one_session_or_acknowledges_the_loss(tmp_path: Path, limen_home: Path) -> None:
    state = tmp_path / "state.sqlite"
    _used_state(state)
    _damage(state, "garbage")
    assert main(["session", "clear", "s1", "--yes", "--state", str(state)]) == 0
    store = SqliteStore(str(state))
    assert TAINTED not in store.flags("s1") and TAINTED in store.flags("s2")
    assert store.count_call_and_flags("s1", 60.0)[1] == store.flags("s1")  # what a decision reads
    assert {TAINTED, UNTRUSTED, STATE_LOST} <= store.count_call_and_flags("s2", 60.0)[1]
    store.close()
    assert any("lost" in p and "limen session clear" in p for p in health(str(state)))
    assert main(["session", "clear", "--state-lost", "--yes", "--state", str(state)]) == 0
    store = SqliteStore(str(state))
    assert TAINTED not in store.flags("s2") and store.state_lost() == ""
    store.close()
    assert health(str(state)) == []
    log = (limen_home / "audit" / LOG_NAME).read_text().splitlines()
    events = [json.loads(line).get("event") for line in log]
    assert events.count("session_clear") == 2  # both clearings are in the audit log


def test_health_names_the_damage_without_touching_the_file(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    assert health(str(state)) == []  # not created yet
    _used_state(state)
    assert health(str(state)) == []
    damaged = _damage(state, "truncated")
    (problem,) = health(str(state))
    assert "malformed" in problem and "quarantine" in problem
    assert state.read_bytes() == damaged and not _quarantined(tmp_path)


def _run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *args],
        env={**os.environ, "LIMEN_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_session_show_prints_the_loss_and_never_a_traceback(limen_home: Path) -> None:
    state = limen_home / "state.sqlite"
    _used_state(state)
    _damage(state, "garbage")
    shown = _run("session", "show", "s1", "--json", home=limen_home)
    assert shown.returncode == 0, shown.stderr
    assert '"state_lost"' in shown.stdout and "Traceback" not in shown.stderr
    assert "limen session clear" in shown.stderr
    broken = _run("session", "show", "s1", "--state", str(limen_home), home=limen_home)  # a directory
    assert broken.returncode == 1 and "Traceback" not in broken.stderr
    assert len(broken.stderr.strip().splitlines()) == 1 and "limen session:" in broken.stderr


def test_doctor_reports_a_damaged_state_file(limen_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = limen_home / "state.sqlite"
    _used_state(state)
    _damage(state, "garbage")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "state" in out and "not a database" in out


OPENER = """
import sys
from limen.state.sqlite import SqliteStore
s = SqliteStore(sys.argv[1])
print(sorted(s.flags("s1")))
s.close()
"""


def test_concurrent_processes_quarantine_once(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    _used_state(state)
    _damage(state, "garbage")
    procs = [
        subprocess.Popen([sys.executable, "-c", OPENER, str(state)], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert all("tainted" in out and "state_lost" in out for out in outs)
    assert len(_quarantined(tmp_path)) == 1
