"""Canonical paths: `~`, environment variables, `..` and symlinks resolved against the session's cwd."""

from __future__ import annotations

import os
import re

_ENV_REF = re.compile(r"\$(\w+)|\$\{(\w+)\}")


def _expand_env(path: str, home: str) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name == "HOME":
            return home
        return os.environ.get(name, match.group(0))

    return _ENV_REF.sub(value, path)


def canonical(path: str, cwd: str, home: str) -> str:
    """The absolute, symlink-free path a tool would touch. Never raises on odd input."""
    path = absolute(path, cwd, home)
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


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
