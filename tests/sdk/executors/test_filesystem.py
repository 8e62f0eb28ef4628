"""The filesystem executor stays inside its root whatever path it is given, links included."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from limen.sdk import ExecutionFailed, Guard
from limen.sdk.executors.filesystem import Escape, FilesystemExecutor


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = Path(os.path.realpath(tmp_path)) / "outside"
    secret.mkdir()
    (secret / "secret.txt").write_text("outside secret\n")
    return secret


def test_reads_writes_lists_and_deletes_inside(project: Path) -> None:
    fs = FilesystemExecutor(project)
    assert fs.read_text("notes/todo.txt") == "buy milk\n"
    assert fs.read_text(str(project / "README.md")) == "# demo\n"
    assert fs.write_text("new/dir/file.txt", "hello") == "wrote 5 bytes"
    assert (project / "new" / "dir" / "file.txt").read_text() == "hello"
    assert fs.list_dir(".") == ["README.md", "new/", "notes/"]
    assert fs.delete("new/dir/file.txt") == "deleted"
    assert not (project / "new" / "dir" / "file.txt").exists()
    assert not [p for p in (project / "new" / "dir").iterdir()]  # no temporary file left behind


@pytest.mark.parametrize(
    "path", ["../outside/secret.txt", "notes/../../outside/secret.txt", "/etc/passwd", ""]
)
def test_paths_that_leave_the_root_are_refused(project: Path, outside: Path, path: str) -> None:
    with pytest.raises(Escape):
        FilesystemExecutor(project).read_text(path)


def test_a_symbolic_link_anywhere_on_the_way_is_refused(project: Path, outside: Path) -> None:
    fs = FilesystemExecutor(project)
    (project / "link.txt").symlink_to(outside / "secret.txt")
    (project / "linkdir").symlink_to(outside)
    (project / "inner.txt").symlink_to(project / "README.md")  # even one that stays inside
    for path in ("link.txt", "linkdir/secret.txt", "inner.txt"):
        with pytest.raises(Escape):
            fs.read_text(path)
    with pytest.raises(Escape):
        fs.write_text("linkdir/planted.txt", "x")
    with pytest.raises(Escape):
        fs.write_text("link.txt", "overwritten")
    assert not (outside / "planted.txt").exists()
    assert (outside / "secret.txt").read_text() == "outside secret\n"
    with pytest.raises(Escape):
        fs.delete("link.txt")  # unlinking a link is harmless, but a link is never an operand
    with pytest.raises(Escape):
        fs.list_dir("linkdir")


def test_a_hard_link_to_an_outside_file_is_refused(project: Path, outside: Path) -> None:
    os.link(outside / "secret.txt", project / "hard.txt")
    fs = FilesystemExecutor(project)
    with pytest.raises(Escape):
        fs.read_text("hard.txt")
    with pytest.raises(Escape):
        fs.write_text("hard.txt", "x")
    assert (outside / "secret.txt").read_text() == "outside secret\n"


def test_a_directory_swapped_for_a_link_during_writes_never_leaks_outside(
    project: Path, outside: Path
) -> None:
    """A racing thread flips `work` between a directory and a link to the outside; every write either lands
    inside or is refused."""
    fs = FilesystemExecutor(project)
    work = project / "work"
    work.mkdir()
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            try:
                os.rename(work, project / "work.real")
                os.symlink(outside, work)
                os.unlink(work)
                os.rename(project / "work.real", work)
            except OSError:
                pass

    flipper = threading.Thread(target=flip)
    flipper.start()
    try:
        for i in range(300):
            with contextlib.suppress(Escape, OSError):
                fs.write_text(f"work/f{i}.txt", "x")
    finally:
        stop.set()
        flipper.join()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_through_a_guard_an_escape_fails_the_call_and_halts_the_session(project: Path, outside: Path) -> None:
    guard = Guard(project, audit=False)
    fs = FilesystemExecutor(project)
    guard.register(fs.read_text, name="read_file")
    guard.register(fs.write_text, name="write_file")
    (project / "link.txt").symlink_to(outside / "secret.txt")
    assert guard.tools["write_file"].capability == "filesystem.write"
    assert guard.tools["write_file"].roles == {"path": "path", "content": "payload"}
    with pytest.raises(ExecutionFailed, match="Escape"):
        guard.call("read_file", {"path": "link.txt"})
    assert guard.default_session.halted


def test_no_path_of_components_reaches_outside(project: Path, outside: Path) -> None:
    """Every path built from names, `.`, `..`, links out and in, and absolute prefixes either stays inside
    the root or is refused: nothing outside is read or written."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    (project / "out").symlink_to(outside)
    (project / "in").symlink_to(project / "notes")
    (project / "notes" / "secret.txt").symlink_to(outside / "secret.txt")
    fs = FilesystemExecutor(project)
    parts = st.sampled_from(["notes", "..", ".", "out", "in", "secret.txt", "todo.txt", "", "x"])
    prefixes = st.sampled_from(["", str(project) + "/", str(outside) + "/", "/", "//"])

    @settings(max_examples=300, deadline=None)
    @given(prefixes, st.lists(parts, min_size=1, max_size=6))
    def check(prefix: str, names: list[str]) -> None:
        path = prefix + "/".join(names)
        try:
            text = fs.read_text(path)
        except (Escape, OSError, ValueError):
            text = None
        assert text != "outside secret\n"
        with contextlib.suppress(Escape, OSError, ValueError):
            fs.write_text(path, "planted")
        assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
        assert (outside / "secret.txt").read_text() == "outside secret\n"

    check()
