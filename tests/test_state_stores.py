"""The session stores (memory, SQLite, Redis) keep one contract; SQLite holds up under concurrent processes;
keys stay private."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fleet_servers import redis_server_url, redis_url  # noqa: F401  (fixtures)
from limen.scan import CLEAN, destination_key
from limen.state import FILES_LIMIT, HISTORY_LIMIT, INJECTED, TAINTED, TRUSTED, UNTRUSTED, SessionStore
from limen.state.keys import fingerprinter, key_path
from limen.state.memory import MemoryStore
from limen.state.sqlite import SqliteStore
from limen.state.view import StoredSession


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionStore]:
    made: SessionStore
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqliteStore(str(tmp_path / "s.sqlite"))
    else:
        from limen.state.redis import RedisStore

        made = RedisStore(request.getfixturevalue("redis_url"))
    yield made
    made.close()


def test_sessions_do_not_share_anything(store: SessionStore) -> None:
    store.set_flags("a", {TAINTED, UNTRUSTED})
    store.add_taint("a", {"fp1": 20})
    store.add_values("a", INJECTED, ["v1"])
    store.append_history("a", {"cap": "shell.execute"})
    assert store.flags("a") == {TAINTED, UNTRUSTED}
    assert store.taint("a") == {"fp1": 20}
    assert store.value_labels("a", ["v1", "v2"]) == {"v1": {INJECTED}}
    assert store.history("a") == [{"cap": "shell.execute"}]
    assert store.flags("b") == frozenset() and store.taint("b") == {} and store.history("b") == []
    assert store.value_labels("b", ["v1"]) == {}
    assert store.sessions() == ["a"]


def test_counting_a_call_reads_the_flags_another_writer_set(store: SessionStore) -> None:
    """The decision's one round trip: the call joins the window, and the flags are the store's current
    ones (a flag set a moment before is there)."""
    assert store.count_call_and_flags("a", 60.0) == (1, frozenset())
    store.set_flags("a", {UNTRUSTED, TAINTED})
    store.set_flags("b", {INJECTED})
    assert store.count_call_and_flags("a", 60.0) == (2, frozenset({UNTRUSTED, TAINTED}))
    assert store.count_call("a", 60.0) == 3
    assert store.count_call_and_flags("a", 60.0) == (4, store.flags("a"))
    assert store.count_call_and_flags("b", 60.0) == (1, frozenset({INJECTED}))


def test_value_labels_accumulate(store: SessionStore) -> None:
    store.add_values("a", INJECTED, ["v"])
    store.add_values("a", TRUSTED, ["v"])
    assert store.value_labels("a", ["v"]) == {"v": {INJECTED, TRUSTED}}


def test_value_origin_is_read_alike_from_both_stores(store: SessionStore) -> None:
    fp = fingerprinter()
    store.add_values("a", TRUSTED, [fp(destination_key("john@mail-host.dev"))])
    store.add_values("a", CLEAN, [fp(destination_key("www.team-site.dev"))])
    store.add_values("a", INJECTED, [fp(destination_key("drop@collector.dev"))])
    view = StoredSession(store, "a", fp)
    assert view.value_origin("John@Mail-Host.dev") == "user"
    assert view.value_origin("team-site.dev") == "clean"
    assert view.value_origin("drop@collector.dev") == "injected"
    assert view.value_origin("eve@mail-host.dev") == ""
    assert StoredSession(store, "b", fp).value_origin("john@mail-host.dev") == ""


def test_value_origin_survives_reopening_the_sqlite_file(tmp_path: Path) -> None:
    path, fp = str(tmp_path / "s.sqlite"), fingerprinter()
    first = SqliteStore(path)
    first.add_values("a", CLEAN, [fp(destination_key("ann@corp-mail.dev"))])
    first.close()
    again = SqliteStore(path)
    assert StoredSession(again, "a", fp).value_origin("ann@corp-mail.dev") == "clean"
    again.close()


def test_history_keeps_the_most_recent_in_order(store: SessionStore) -> None:
    for i in range(HISTORY_LIMIT * 5):
        store.append_history("a", {"i": i})
    recent = store.history("a")
    assert [e["i"] for e in recent] == list(range(HISTORY_LIMIT * 4, HISTORY_LIMIT * 5))


def test_history_of_a_quiet_session_survives_busy_ones(store: SessionStore) -> None:
    store.append_history("quiet", {"broad": True})
    for i in range(HISTORY_LIMIT * 5):
        store.append_history("busy", {"i": i})
    store.append_history("quiet", {"shell": True})
    assert store.history("quiet") == [{"broad": True}, {"shell": True}]
    assert len(store.history("busy", HISTORY_LIMIT * 5)) == HISTORY_LIMIT


def test_clear_taint_only_or_everything(store: SessionStore) -> None:
    store.set_flags("a", {TAINTED, INJECTED})
    store.add_taint("a", {"fp": 10})
    store.append_history("a", {"i": 1})
    store.clear("a", taint_only=True)
    assert store.taint("a") == {} and store.flags("a") == {INJECTED} and store.history("a")
    store.clear("a", taint_only=False)
    assert store.flags("a") == frozenset() and store.history("a") == []


def test_written_files_keep_the_newest_text_and_the_newest_files(store: SessionStore) -> None:
    for i in range(FILES_LIMIT + 3):
        store.remember_file("a", f"/w/f{i}.py", f"print({i})")
    store.remember_file("a", "/w/f3.py", "print('again')")  # rewritten: the newest, its old text gone
    kept = store.files("a")
    assert list(kept)[-1] == "/w/f3.py" and kept["/w/f3.py"][0] == "print('again')"
    assert len(kept) == FILES_LIMIT and "/w/f2.py" not in kept and "/w/f4.py" in kept
    assert store.files("b") == {}
    store.clear("a", taint_only=True)
    assert store.files("a")
    store.clear("a", taint_only=False)
    assert store.files("a") == {}


def test_a_version_1_state_file_is_completed_not_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE flags (session TEXT NOT NULL, flag TEXT NOT NULL, PRIMARY KEY (session, flag)) "
        "WITHOUT ROWID; PRAGMA user_version = 1;"
    )
    old.execute("INSERT INTO flags VALUES ('s', 'tainted')")
    old.commit()
    old.close()
    store = SqliteStore(str(path))
    assert TAINTED in store.flags("s") and store.state_lost() == ""
    store.remember_file("s", "/w/x.py", "x = 1")
    assert store.files("s")["/w/x.py"][0] == "x = 1"
    store.close()


def test_pins(store: SessionStore) -> None:
    assert store.get_pin("srv/t") is None
    store.set_pin("srv/t", "fp1", None)
    store.set_pin("srv/u", "fp2", "fp3")
    assert store.get_pin("srv/t") == ("fp1", None)
    assert store.pending_pins() == ["srv/u"]


WRITER = """
import sys
from limen.state.sqlite import SqliteStore
from limen.state.view import StoredSession
s = SqliteStore(sys.argv[1])
n = sys.argv[2]
for i in range(150):
    s.add_taint("common", {f"{n}-{i}": 16})
    s.append_history("common", {"n": n, "i": i})
    s.set_flags("w" + n, ["untrusted"])
s.close()
"""


def test_sqlite_survives_concurrent_writer_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "state.sqlite")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, path, str(n)]) for n in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    store = SqliteStore(path)
    assert len(store.taint("common")) == 600
    assert store.sessions() == ["common", "w0", "w1", "w2", "w3"]
    assert oct(stat.S_IMODE(os.stat(path).st_mode)) == "0o600"
    store.close()


def test_fingerprint_key_is_private_and_stable_across_processes(limen_home: Path) -> None:
    here = fingerprinter()("hunter2-value")
    mode = stat.S_IMODE(os.stat(key_path("fingerprint")).st_mode)
    assert mode == 0o600
    there = subprocess.run(
        [
            sys.executable,
            "-c",
            "from limen.state.keys import fingerprinter; print(fingerprinter()('hunter2-value'))",
        ],
        env={**os.environ, "LIMEN_HOME": str(limen_home)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert here == there and "hunter2" not in here
