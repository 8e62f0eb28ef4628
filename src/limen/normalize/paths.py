"""Canonical paths: `~`, environment variables, `..` and symlinks resolved against the session's cwd."""

from __future__ import annotations

import os
import re
import stat

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


def _resolved(path: str, missing: int = 0) -> str:
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


def read_regular(path: str, limit: int) -> bytes | None:
    """Up to `limit` bytes of a regular file, or None: a FIFO, a socket or a device named as a file
    (`> /dev/fd/3`, a named pipe the line made) is never read, since reading one could block the decision
    forever or change the device. Opened without blocking and checked on the open file itself."""
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
