"""A filesystem executor confined to one directory, whatever path the model names.

Every path is resolved the way `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` would: from a descriptor
of the root, one component at a time, each opened with `O_NOFOLLOW` relative to its parent's descriptor.
A symbolic link anywhere on the way (planted before the call, or swapped in during it), a `..`, or an
absolute path outside the root is refused with `Escape`; no component is ever looked up by its full path,
so a rename racing the call cannot move the walk outside the root. Regular files with more than one hard
link are refused too (a hard link is the other way to reach a file outside). Writes go to a temporary file
beside the target and are renamed over it (relative to the same directory descriptor).

Registered as tools, its methods' parameters carry the default roles: `path` is a path, `content` a
payload.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from limen.sdk.executors import declares

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC


class Escape(PermissionError):
    """The path leaves the executor's root (a `..`, a symbolic link, a hard link, an outside path)."""


class FilesystemExecutor:
    def __init__(self, root: str | os.PathLike[str], *, max_read_bytes: int = 1_000_000) -> None:
        self.root = os.path.realpath(os.fspath(root))
        if not os.path.isdir(self.root):
            raise ValueError(f"{self.root} is not a directory")
        self.max_read_bytes = max_read_bytes

    # -- the tools -------------------------------------------------------------------------------------
    @declares("filesystem.read", {"path": "path"})
    def read_text(self, path: str) -> str:
        """Read a UTF-8 text file inside the workspace (at most `max_read_bytes`)."""
        with self._parent(path) as (parent, name):
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | _CLOEXEC, dir_fd=parent)
            try:
                self._regular(fd)
                data = os.read(fd, self.max_read_bytes + 1)
            finally:
                os.close(fd)
        if len(data) > self.max_read_bytes:
            raise ValueError(f"the file is larger than {self.max_read_bytes} bytes")
        return data.decode("utf-8", "replace")

    @declares("filesystem.write", {"path": "path", "content": "payload"})
    def write_text(self, path: str, content: str) -> str:
        """Write a UTF-8 text file inside the workspace, replacing it whole."""
        data = content.encode()
        with self._parent(path, create=True) as (parent, name):
            try:
                existing = os.stat(name, dir_fd=parent, follow_symlinks=False)
            except FileNotFoundError:
                existing = None
            if existing is not None and not stat.S_ISREG(existing.st_mode):
                raise Escape("the target exists and is not a regular file")
            if existing is not None and existing.st_nlink > 1:
                raise Escape("the target has more than one hard link")
            temporary = f".{name}.limen-{os.urandom(4).hex()}"
            fd = os.open(
                temporary,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC,
                0o644,
                dir_fd=parent,
            )
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            except BaseException:
                os.close(fd)
                os.unlink(temporary, dir_fd=parent)
                raise
            os.close(fd)
            os.rename(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
        return f"wrote {len(data)} bytes"

    @declares("filesystem.read", {"path": "path"})
    def list_dir(self, path: str = ".") -> list[str]:
        """The names in a directory inside the workspace (directories end with `/`)."""
        fd = self._walk(self._parts(path), create=False)
        try:
            names = []
            for name in sorted(os.listdir(fd)):
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                names.append(name + "/" if stat.S_ISDIR(info.st_mode) else name)
            return names
        finally:
            os.close(fd)

    @declares("filesystem.delete", {"path": "path"})
    def delete(self, path: str) -> str:
        """Delete one file inside the workspace (never a directory, never through a link)."""
        with self._parent(path) as (parent, name):
            info = os.stat(name, dir_fd=parent, follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError("delete removes files, not directories")
            os.unlink(name, dir_fd=parent)
        return "deleted"

    # -- resolution -----------------------------------------------------------------------------------
    def _parts(self, path: str) -> list[str]:
        """The components below the root; `Escape` for anything that would leave it."""
        if not isinstance(path, str) or not path or "\x00" in path:
            raise Escape("an empty path or one with a NUL byte")
        if os.path.isabs(path):
            relative = os.path.relpath(os.path.normpath(path), self.root)
            if relative == os.pardir or relative.startswith(os.pardir + os.sep):
                raise Escape("the path is outside the workspace")
            path = relative
        parts = [p for p in path.split(os.sep) if p not in ("", ".")]
        if os.pardir in parts:
            raise Escape("the path climbs with '..'")
        return parts

    def _walk(self, parts: list[str], *, create: bool) -> int:
        """A descriptor of the directory `parts` names, opened component by component without following
        a link; with `create`, missing directories are made (mode 0755)."""
        fd = os.open(self.root, _DIR_FLAGS)
        try:
            for part in parts:
                try:
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise
                    os.mkdir(part, 0o755, dir_fd=fd)
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    if _is_link(part, fd):
                        raise Escape("a component of the path is a symbolic link") from None
                    raise exc
                os.close(fd)
                fd = child
        except BaseException:
            os.close(fd)
            raise
        return fd

    @contextmanager
    def _parent(self, path: str, *, create: bool = False) -> Iterator[tuple[int, str]]:
        parts = self._parts(path)
        if not parts:
            raise IsADirectoryError("the path names the workspace itself")
        parent = self._walk(parts[:-1], create=create)
        try:
            if _is_link(parts[-1], parent):
                raise Escape("the file is a symbolic link")
            yield parent, parts[-1]
        finally:
            os.close(parent)

    @staticmethod
    def _regular(fd: int) -> None:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Escape("not a regular file")
        if info.st_nlink > 1:
            raise Escape("the file has more than one hard link")


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
