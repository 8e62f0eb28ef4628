"""Canonical paths: `~`, environment variables, `..` and symlinks resolved against the session's cwd; files
read as the session wrote them."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

_ENV_REF = re.compile(r"\$(\w+)|\$\{(\w+)\}")


def _expand_env(path: str, home: str) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name == "HOME":
            return home
        return os.environ.get(name, match.group(0))

    return _ENV_REF.sub(value, path)


# The descriptors of the process that runs the command: resolving them here would follow Limen's own
# (its stderr may be a log file, a pipe or /dev/null), which says nothing about the agent's.
_OWN_DESCRIPTORS = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/")


def canonical(path: str, cwd: str, home: str) -> str:
    """The absolute, symlink-free path a tool would touch. Never raises on odd input."""
    path = absolute(path, cwd, home)
    if path.startswith(_OWN_DESCRIPTORS):
        return path
    try:
        return _resolved(path)
    except (OSError, ValueError):
        return path


_O_PATH = getattr(os, "O_PATH", 0)
_MISSING_LEVELS = 8  # missing folders resolved through their parent before os.path.realpath takes over
_PROC_FD = "/proc/self/fd/"


# The paths resolved so far in the decision being made (`decision_scope`): the normaliser and several rules
# resolve the same operand, and its resolution is a system call or more each time.
_RESOLVED: ContextVar[dict[str, str] | None] = ContextVar("limen_resolved", default=None)


def _resolved(path: str, missing: int = 0) -> str:
    """`_resolved_now`, once per path within a decision (`decision_scope`)."""
    known = _RESOLVED.get()
    if known is None:
        return _resolved_now(path, missing)
    found = known.get(path)
    if found is None:
        found = known[path] = _resolved_now(path, missing)
    return found


def _resolved_now(path: str, missing: int = 0) -> str:
    """`os.path.realpath`, faster for a file that exists on Linux: the kernel resolves it in one open
    (os.path.realpath checks every component in Python). Anything else takes os.path.realpath."""
    if _O_PATH:
        try:
            fd = os.open(path, _O_PATH | os.O_CLOEXEC)
        except FileNotFoundError:
            return _resolved_missing(path, missing)
        except OSError:
            return os.path.realpath(path)
        try:
            resolved = os.readlink(_PROC_FD + str(fd))
        except OSError:
            resolved = ""
        finally:
            os.close(fd)
        if resolved.startswith("/") and not resolved.endswith(" (deleted)"):
            return resolved
    return os.path.realpath(path)


def _resolved_missing(path: str, missing: int) -> str:
    """`os.path.realpath` of an absolute, normalised path that does not lead to a file: the resolved folder
    above it and the name as written, when nothing (not even a dangling link) has that name there; anything
    else (a dangling link, whose text realpath follows; a file where a folder should be; more than a few
    missing folders, which would nest this look-up deeply) takes realpath."""
    parent, _, name = path.rpartition("/")
    if not name or name in (".", "..") or missing >= _MISSING_LEVELS:
        return os.path.realpath(path)
    try:
        os.lstat(path)
    except FileNotFoundError:  # no entry with that name (or its folder is missing too: resolved the same way)
        return (_resolved(parent, missing + 1) if parent else "").rstrip("/") + "/" + name
    except OSError:
        pass
    return os.path.realpath(path)


def absolute(path: str, cwd: str, home: str) -> str:
    """The absolute path as written (`~`, variables and `..` resolved, symlinks not): no filesystem access."""
    path = path.strip()
    if path.startswith("file://"):
        path = path[len("file://") :]
    if "$" in path:
        path = _expand_env(path, home)
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    if not os.path.isabs(path):
        path = os.path.join(cwd or "/", path)
    return os.path.normpath(path)


def is_within(path: str, root: str) -> bool:
    """True when `path` is `root` or lies below it."""
    if not root:
        return False
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


# The files the deciding session wrote whose text the disk here does not show (`SessionStore.files`): path ->
# (text, when it was written). Set by the runtime around one decision (`decision_scope`).
_WRITTEN: ContextVar[Mapping[str, tuple[str, float]] | None] = ContextVar("limen_written", default=None)


class decision_scope:
    """The block in which one call is normalised and decided. Within it, `read_regular` reads a file the
    session wrote as it wrote it (an agent whose files live where this machine does not see them, a
    container, a remote workspace, a replayed session, runs what it wrote, not what the disk here holds),
    and a path is resolved once however many rules ask, so that all of them see the same file. A class
    rather than a generator: it is entered on every decision."""

    __slots__ = ("_files", "_tokens")

    def __init__(self, files: Mapping[str, tuple[str, float]]) -> None:
        self._files = files

    def __enter__(self) -> None:
        self._tokens = (_WRITTEN.set(self._files or None), _RESOLVED.set({}))

    def __exit__(self, *exc: object) -> None:
        _RESOLVED.reset(self._tokens[1])
        _WRITTEN.reset(self._tokens[0])


def written_text(path: str) -> str | None:
    """The text the session wrote to `path`, unless the disk here changed the file after it did (then the
    disk says what the file holds now); None when the session wrote nothing there."""
    files = _WRITTEN.get()
    found = files.get(path) if files else None
    if found is None:
        return None
    text, when = found
    try:
        if os.stat(path).st_mtime > when:
            return None
    except (OSError, ValueError):
        pass
    return text


def text_after(arguments: Mapping[str, Any], before: str | None) -> str | None:
    """The text a file holds after a tool's write of it: the whole `content` it wrote, or its replacements
    (`old_string` -> `new_string`, one or a MultiEdit's `edits`) made in `before`; None when that cannot be
    known (the file unread, an old text not in it, no text given)."""
    content = arguments.get("content")
    if isinstance(content, str):
        return content
    listed = arguments.get("edits")
    edits = listed if isinstance(listed, list) else [arguments]
    if before is None or not edits or len(edits) > 64:
        return None
    after = before
    for edit in edits:
        if not isinstance(edit, dict):
            return None
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str) or not old or old not in after:
            return None
        after = after.replace(old, new, -1 if edit.get("replace_all") else 1)
    return after


def read_regular(path: str, limit: int) -> bytes | None:
    """Up to `limit` bytes of a regular file, or None: a FIFO, a socket or a device named as a file
    (`> /dev/fd/3`, a named pipe the line made) is never read, since reading one could block the decision
    forever or change the device. Opened without blocking and checked on the open file itself. A file the
    deciding session wrote is read as it wrote it (`written_text`)."""
    written = written_text(path)
    if written is not None:
        return written.encode("utf-8", "replace")[:limit]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_text(path: str, limit: int) -> str | None:
    """`read_regular`, decoded as UTF-8 (bad bytes replaced)."""
    data = read_regular(path, limit)
    return None if data is None else data.decode("utf-8", "replace")
