"""Before/after hashes: did a call change only what it was allowed to change?

`snapshot(roots)` hashes every regular file under the roots (symbolic links are recorded as links, never
followed). A call that may write (a `filesystem.write` or `filesystem.delete` tool) may change the paths
it named; any other change, or any change at all by a tool that does not write, is unexpected. Too many
files to hash is a failure of its own: a check that could not be made is not a check that passed.
"""

from __future__ import annotations

import hashlib
import os
import stat

MAX_FILES = 20_000
MAX_BYTES = 512 * 1024 * 1024


class VerifyError(Exception):
    """The snapshot could not be taken within its limits."""


def snapshot(roots: list[str], *, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> dict[str, str]:
    """path -> digest for every entry under the roots; a missing root maps to `missing`."""
    out: dict[str, str] = {}
    budget = [max_files, max_bytes]
    for root in roots:
        _walk(root, out, budget)
    return out


def _walk(path: str, out: dict[str, str], budget: list[int]) -> None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        out[path] = "missing"
        return
    budget[0] -= 1
    if budget[0] < 0:
        raise VerifyError("too many files to verify")
    if stat.S_ISLNK(info.st_mode):
        out[path] = "link:" + os.readlink(path)
    elif stat.S_ISDIR(info.st_mode):
        out[path] = f"dir:{stat.S_IMODE(info.st_mode):o}"
        with os.scandir(path) as entries:
            names = sorted(entry.name for entry in entries)
        for name in names:
            _walk(os.path.join(path, name), out, budget)
    elif stat.S_ISREG(info.st_mode):
        budget[1] -= info.st_size
        if budget[1] < 0:
            raise VerifyError("too many bytes to verify")
        out[path] = f"{stat.S_IMODE(info.st_mode):o}:" + _digest(path)
    else:
        out[path] = f"special:{stat.S_IFMT(info.st_mode)}"


def _digest(path: str) -> str:
    digest = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    try:
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest()


def unexpected(before: dict[str, str], after: dict[str, str], allowed: list[str]) -> list[str]:
    """Paths whose entry changed, appeared or vanished outside `allowed` (a path allows itself and what
    lies below it)."""
    changed = [p for p in sorted(before.keys() | after.keys()) if before.get(p) != after.get(p)]
    prefixes = tuple(a.rstrip(os.sep) + os.sep for a in allowed)
    return [p for p in changed if p not in allowed and not p.startswith(prefixes)]
