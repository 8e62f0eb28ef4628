"""Landlock through its three system calls (ctypes, no dependency): what the kernel offers, and a ruleset
that lets a process tree write everywhere except a list of protected paths.

Landlock rules are allow-lists on file hierarchies: a handled access right is refused unless a rule on the
object or one of its parent directories grants it. "Everywhere except P" is therefore built by walking down
from `/` along the ancestors of each protected path only: every entry of an ancestor directory that is
neither protected nor itself an ancestor gets a rule (a directory: all write rights beneath it; any other
file: the rights that apply to a file itself, write and truncate). The ancestors get no rule, so in them
nothing can be created, removed or renamed (and a file created in one later has no rule at all). See
docs/confinement.md for what that means in practice.

The uapi (include/uapi/linux/landlock.h) as used here:
  landlock_create_ruleset(attr, size, flags)   444   flags=LANDLOCK_CREATE_RULESET_VERSION: the ABI
  landlock_add_rule(fd, type, attr, flags)     445   type 1: path beneath (packed u64 + s32), 2: net port
  landlock_restrict_self(fd, flags)            446   needs no_new_privs (or CAP_SYS_ADMIN)
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

SYS_CREATE_RULESET = 444  # the same number on x86_64 and aarch64 (and every other architecture since 5.13)
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
PR_SET_NO_NEW_PRIVS = 38
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
RULE_NET_PORT = 2
SUPPORTED_MACHINES = ("x86_64", "amd64", "aarch64", "arm64")

# Filesystem access rights (ABI that introduced it in the comment).
FS_EXECUTE = 1 << 0  # 1
FS_WRITE_FILE = 1 << 1  # 1
FS_READ_FILE = 1 << 2  # 1
FS_READ_DIR = 1 << 3  # 1
FS_REMOVE_DIR = 1 << 4  # 1
FS_REMOVE_FILE = 1 << 5  # 1
FS_MAKE_CHAR = 1 << 6  # 1
FS_MAKE_DIR = 1 << 7  # 1
FS_MAKE_REG = 1 << 8  # 1
FS_MAKE_SOCK = 1 << 9  # 1
FS_MAKE_FIFO = 1 << 10  # 1
FS_MAKE_BLOCK = 1 << 11  # 1
FS_MAKE_SYM = 1 << 12  # 1
FS_REFER = 1 << 13  # 2: link or rename a file to another directory
FS_TRUNCATE = 1 << 14  # 3
FS_IOCTL_DEV = 1 << 15  # 5
NET_BIND_TCP = 1 << 0  # 4
NET_CONNECT_TCP = 1 << 1  # 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # 6
SCOPE_SIGNAL = 1 << 1  # 6

WRITE_ABI1 = (
    FS_WRITE_FILE
    | FS_REMOVE_DIR
    | FS_REMOVE_FILE
    | FS_MAKE_CHAR
    | FS_MAKE_DIR
    | FS_MAKE_REG
    | FS_MAKE_SOCK
    | FS_MAKE_FIFO
    | FS_MAKE_BLOCK
    | FS_MAKE_SYM
)
# The rights a rule on a file that is not a directory may carry (the kernel refuses others with EINVAL).
FILE_ONLY = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV

ABI_NET = 4  # TCP bind/connect by port
ABI_SCOPE = 6  # signals and abstract Unix sockets scoped to the domain


class LandlockError(OSError):
    """A Landlock system call failed (the errno says why)."""


def write_rights(abi: int) -> int:
    """Every right that writes, removes, makes, truncates or re-parents a file at this ABI."""
    rights = WRITE_ABI1
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    return rights


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # __attribute__((packed)): 12 bytes
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


class _NetPortAttr(ctypes.Structure):
    _fields_ = (("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64))


_libc: ctypes.CDLL | None = None


def _syscall(number: int, *args: int | ctypes.c_void_p | None) -> int:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    converted = [a if isinstance(a, ctypes.c_void_p) or a is None else ctypes.c_long(a) for a in args]
    result = int(_libc.syscall(ctypes.c_long(number), *converted))
    if result < 0:
        code = ctypes.get_errno()
        raise LandlockError(code, os.strerror(code))
    return result


def abi_version() -> int:
    """The Landlock ABI the running kernel offers, 0 when there is none (not Linux, an architecture whose
    numbers are not checked here, a kernel without Landlock, or Landlock disabled at boot)."""
    if not sys.platform.startswith("linux") or platform.machine().lower() not in SUPPORTED_MACHINES:
        return 0
    try:
        return _syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION)
    except (LandlockError, OSError, AttributeError):
        return 0


@dataclass
class Grants:
    """Where writes stay allowed: directories (everything beneath them) and single files."""

    directories: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    ancestors: list[str] = field(default_factory=list)  # walked, granted nothing themselves


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def minimal(protected: Iterable[str]) -> list[str]:
    """Absolute, normalised protected paths, without those that lie beneath another one."""
    paths = sorted({os.path.normpath(os.path.abspath(p)) for p in protected})
    kept: list[str] = []
    for path in paths:  # sorted: a directory comes before everything beneath it
        if not any(_inside(path, k) for k in kept):
            kept.append(path)
    return kept


def plan(protected: Iterable[str]) -> Grants:
    """The grants that make every path writable except the protected ones (and their ancestors' own
    entries: see the module's docstring). A protected path need not exist: its nearest existing ancestor
    is then walked, so it cannot be created either."""
    kept = minimal(protected)
    if "/" in kept:
        return Grants()
    ancestors: set[str] = set()
    for path in kept:
        parent = os.path.dirname(path)
        while True:
            ancestors.add(parent)
            if parent == "/":
                break
            parent = os.path.dirname(parent)
    stop = set(kept) | ancestors
    grants = Grants(ancestors=sorted(ancestors))
    for directory in grants.ancestors:
        try:
            entries = list(os.scandir(directory))
        except OSError:  # does not exist (yet), or not a directory: nothing in it to grant
            continue
        for entry in entries:
            if entry.path in stop:
                continue
            try:
                if entry.is_symlink():
                    continue  # Landlock sees the target's own path, which the walk grants (or not)
                if entry.is_dir(follow_symlinks=False):
                    grants.directories.append(entry.path)
                else:
                    grants.files.append(entry.path)
            except OSError:
                continue
    grants.directories.sort()
    grants.files.sort()
    return grants


@dataclass
class Ruleset:
    """A built ruleset (an open file descriptor) and what it enforces."""

    fd: int
    abi: int
    handled_fs: int
    egress_port: int | None
    scoped: int
    rules: int

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def build(grants: Grants, abi: int, egress_port: int | None = None, scope: bool = True) -> Ruleset:
    """A ruleset that handles every write right of `abi` and grants them as `grants` says; with
    `egress_port`, TCP connect handled and allowed to that port only (ABI >= 4); with `scope` (ABI >= 6),
    signals and abstract Unix sockets limited to the domain."""
    handled_fs = write_rights(abi)
    handled_net = NET_CONNECT_TCP if egress_port is not None else 0
    scoped = SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET if scope else 0
    if handled_net and abi < ABI_NET:
        raise LandlockError(
            errno.EOPNOTSUPP, f"TCP port rules need Landlock ABI {ABI_NET}, the kernel has {abi}"
        )
    if scoped and abi < ABI_SCOPE:
        raise LandlockError(
            errno.EOPNOTSUPP, f"scoped signals need Landlock ABI {ABI_SCOPE}, the kernel has {abi}"
        )
    attr = _RulesetAttr(handled_fs, handled_net, scoped)
    size = 24 if scoped else 16 if handled_net else 8  # older kernels refuse a larger struct with bits set
    fd = _syscall(SYS_CREATE_RULESET, ctypes.c_void_p(ctypes.addressof(attr)), size, 0)
    ruleset = Ruleset(fd, abi, handled_fs, egress_port, scoped, 0)
    try:
        for directory in grants.directories:
            ruleset.rules += _add_path(fd, directory, handled_fs, directory=True)
        for path in grants.files:
            ruleset.rules += _add_path(fd, path, handled_fs & FILE_ONLY, directory=False)
        if egress_port is not None:
            port = _NetPortAttr(NET_CONNECT_TCP, egress_port)
            _syscall(SYS_ADD_RULE, fd, RULE_NET_PORT, ctypes.c_void_p(ctypes.addressof(port)), 0)
            ruleset.rules += 1
    except BaseException:
        ruleset.close()
        raise
    return ruleset


def _add_path(ruleset_fd: int, path: str, access: int, directory: bool) -> int:
    """One path-beneath rule; 0 when the path went away or cannot be opened (it then stays refused)."""
    flags = os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW | (os.O_DIRECTORY if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return 0
    try:
        attr = _PathBeneathAttr(access, fd)
        _syscall(SYS_ADD_RULE, ruleset_fd, RULE_PATH_BENEATH, ctypes.c_void_p(ctypes.addressof(attr)), 0)
    finally:
        os.close(fd)
    return 1


def no_new_privs() -> None:
    """prctl(PR_SET_NO_NEW_PRIVS, 1): exec can no longer gain privileges (setuid, file capabilities);
    Landlock requires it of an unprivileged caller."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    if _libc.prctl(
        PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)
    ):
        code = ctypes.get_errno()
        raise LandlockError(code, os.strerror(code))


def restrict_self(ruleset: Ruleset) -> None:
    """Confine this process (and all it starts from now on) to the ruleset. Irreversible."""
    no_new_privs()
    _syscall(SYS_RESTRICT_SELF, ruleset.fd, 0)
