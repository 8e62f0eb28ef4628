"""Policy: the user's files turned into a `Context` (chain, thresholds, lists) behind the drift gate.

`load_context(workspace)` is the one entry point doors call. It is cheap to call on every decision: the
compiled policy is cached by a stamp of each file (absent files cost an `access`, present ones a `stat`),
so an edit applies to the very next decision; a file changed too recently for its stamp to prove anything
(`RACY_NS`) is confirmed by its content until it is older.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from typing import TYPE_CHECKING, Any, cast

from limen.policy import paths
from limen.policy.errors import PolicyError, Problem

if TYPE_CHECKING:
    from limen.context import Context
    from limen.model import Mode

__all__ = ["PolicyError", "Problem", "load_context", "shared_context"]

_cache: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()  # the daemon's threads share the cache

# A file changed within this many nanoseconds of its stamp being taken may change again without changing its
# stamp: timestamps are coarse (a kernel tick; 1-2 s on some filesystems), so a same-size rewrite in the
# same tick looks identical. While a policy file is that fresh, a cache hit is confirmed by its content.
RACY_NS = 3_000_000_000

Stamp = tuple[int, int, int, int]


def _stamp(path: str) -> Stamp | None:
    """What tells one version of a file from another: mtime, ctime (which no one can set back), size and
    inode; None when there is no file. Most watched files do not exist, and `os.access` says so without the
    exception a failed `os.stat` raises (half the cost)."""
    if not os.access(path, os.F_OK):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


@functools.lru_cache(maxsize=64)
def _watched(workspace: str, *environment: str | None) -> tuple[str, ...]:
    """The files whose change recompiles the policy: the three levels and the drift ledger. They depend
    only on the workspace and the environment passed in, so joining them is done once."""
    from limen.policy.paths import ledger_path, policy_paths

    return (*(path for _, path, _ in policy_paths(workspace)), ledger_path(workspace))


def _key(workspace: str) -> tuple[Any, ...]:
    """The cache key: the workspace, the watched paths and a stamp of each. The drift ledger is stamped only
    when a policy file exists (or one is named): without one `_build` never reads the ledger."""
    org = paths.environ_get("LIMEN_ORG_POLICY")
    watched = _watched(
        workspace, paths.environ_get("LIMEN_HOME"), org, paths.environ_get("HOME"), paths.ORG_POLICY
    )
    stamps = (_stamp(watched[0]), _stamp(watched[1]), _stamp(watched[2]))
    ledger = _stamp(watched[3]) if org or stamps != (None, None, None) else None
    return (workspace, watched, stamps, ledger)


def _racy(key: tuple[Any, ...]) -> list[str]:
    """The policy files of `key` changed too recently for their stamps to prove they have not changed
    again (`RACY_NS`); [] in the common, settled case."""
    now = time.time_ns()
    return [
        path
        for path, stamp in zip(key[1], key[2], strict=False)
        if stamp is not None and now - max(stamp[0], stamp[1]) < RACY_NS
    ]


def _digest(path: str) -> bytes:
    import hashlib

    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).digest()
    except OSError:
        return b""


def _compile(workspace: str) -> Any:
    from limen.policy import drift, effective
    from limen.policy.loader import read_sources

    sources = read_sources(workspace)
    if not sources:
        return None
    current, _ = effective.merge(sources)
    default, _ = effective.merge([])
    gate = drift.gate(workspace, current, effective.fingerprint(current), default)
    home = os.path.expanduser("~")
    chain, policy = effective.build(gate.policy, workspace, home, gate.notes, tuple(s.path for s in sources))
    return gate.policy, chain, policy


def load_context(workspace: str, *, mode: str | None = None) -> Context:
    """The Context for a workspace's policy files (org > user > project), or the built-in defaults.

    `workspace` may be any folder of the project: the project root (`paths.project_root`: the nearest
    folder above with `limen.yaml`, else the git root) is what the policy and the protected paths use.

    Raises `PolicyError` (each problem naming file, line and key) rather than guessing. A requested
    `mode` can only make the policy stricter.
    """
    return copied(shared_context(workspace, mode=mode))  # callers attach their session to their own copy


def shared_context(workspace: str, *, mode: str | None = None) -> Context:
    """`load_context` without the copy: the cached Context itself, shared by every caller and thread until a
    policy file changes. Never change it: copy it first (`Runtime` keeps one copy per thread and version)."""
    workspace = paths.project_root(
        workspace
    )  # a sub-folder belongs to its project: same policy and protection
    try:
        requested = _mode(mode) if mode else None
    except ValueError:
        raise PolicyError([Problem("error", "<caller>", 0, "mode", f"unknown mode {mode!r}")]) from None
    key = (*_key(workspace), requested)
    entry = _cache.get(key)  # (context or error, fresh files and their digests)
    if entry is None or (entry[1] and not _settled(key, entry)):
        with _lock:  # one thread compiles at a time: the drift gate may append to the ledger
            entry = _cache.get(key)
            if entry is None or (entry[1] and not _settled(key, entry)):
                entry = _compiled(workspace, requested, key)
    hit = entry[0]
    if isinstance(hit, PolicyError):  # a fresh one: re-raising the cached one would grow its traceback
        raise PolicyError(hit.problems)
    return cast("Context", hit)


def _compiled(workspace: str, requested: Mode | None, key: tuple[Any, ...]) -> tuple[Any, Any]:
    """Compile and cache (under `_lock`). The digests of fresh files are taken before the files are read,
    so a write in between makes the next check recompile rather than trust an older compile."""
    fresh = tuple((path, _digest(path)) for path in _racy(key))
    hit: Any
    try:
        hit = _build(workspace, requested, key)
    except PolicyError as exc:
        hit = exc
    if len(_cache) > 64:
        _cache.clear()
    entry = (hit, fresh)
    _cache[key] = entry
    _cache[(*_key(workspace), requested)] = entry  # compiling may have appended to the ledger
    return entry


def _settled(key: tuple[Any, ...], entry: tuple[Any, Any]) -> bool:
    """A hit on files changed within `RACY_NS`: their content must still be what was compiled. Once they
    are older than that, a further change would change their stamps, and the entry stops checking."""
    if not all(_digest(path) == digest for path, digest in entry[1]):
        return False
    if not _racy(key):
        _cache[key] = (entry[0], ())
    return True


def copied(context: Context) -> Context:
    """`copy.copy(context)`, field by field: the generic copy of a slotted object costs more than the rest
    of `load_context` together."""
    global _fields
    kind = type(context)
    if _fields is None or _fields[0] is not kind:
        import operator

        names = kind.__slots__
        _fields = (kind, operator.attrgetter(*names), tuple(getattr(kind, n).__set__ for n in names))
    _, values, setters = _fields
    fresh = object.__new__(kind)
    for setter, value in zip(setters, values(context), strict=True):
        setter(fresh, value)
    return fresh


_fields: tuple[type, Any, tuple[Any, ...]] | None = None


def _mode(name: str) -> Mode:
    from limen.model import Mode

    return Mode(name)


def _build(workspace: str, requested: Mode | None, key: tuple[Any, ...]) -> Context:
    from limen.context import Context
    from limen.model import Mode

    if key[2] == (None, None, None) and not paths.environ_get("LIMEN_ORG_POLICY"):
        return Context.for_mode(requested or Mode.BALANCED, workspace)  # no file: no YAML, no pydantic
    from limen.policy import effective

    compiled = _compile(workspace)
    if compiled is None:
        return Context.for_mode(requested or Mode.BALANCED, workspace)
    eff, chain, policy = compiled
    return effective.context(eff, chain, policy, workspace, requested)
