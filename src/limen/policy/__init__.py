"""Policy: the user's files turned into a `Context` (chain, thresholds, lists) behind the drift gate.

`load_context(workspace)` is the one entry point doors call. It is cheap to call on every decision: the
compiled policy is cached by the files' and the ledger's stat fingerprints.
"""

from __future__ import annotations

import functools
import os
import threading
from typing import TYPE_CHECKING, Any

from limen.policy import paths
from limen.policy.errors import PolicyError, Problem

if TYPE_CHECKING:
    from limen.context import Context
    from limen.model import Mode

__all__ = ["PolicyError", "Problem", "load_context"]

_cache: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()  # the daemon's threads share the cache


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


@functools.lru_cache(maxsize=64)
def _watched(workspace: str, *environment: str | None) -> tuple[str, ...]:
    """The files whose change recompiles the policy: the three levels and the drift ledger. They depend
    only on the workspace and the environment passed in, so joining them is done once."""
    from limen.policy.paths import ledger_path, policy_paths

    return (*(path for _, path, _ in policy_paths(workspace)), ledger_path(workspace))


def _key(workspace: str) -> tuple[Any, ...]:
    env = os.environ
    watched = _watched(
        workspace, env.get("LIMEN_HOME"), env.get("LIMEN_ORG_POLICY"), env.get("HOME"), paths.ORG_POLICY
    )
    *levels, ledger = watched
    return (workspace, tuple((path, _stat(path)) for path in levels), _stat(ledger))


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
    workspace = paths.project_root(
        workspace
    )  # a sub-folder belongs to its project: same policy and protection
    try:
        requested = _mode(mode) if mode else None
    except ValueError:
        raise PolicyError([Problem("error", "<caller>", 0, "mode", f"unknown mode {mode!r}")]) from None
    key = (*_key(workspace), requested)
    with _lock:  # one thread compiles at a time: the drift gate may append to the ledger
        hit = _cache.get(key)
        if hit is None:
            try:
                hit = _build(workspace, requested, key)
            except PolicyError as exc:
                hit = exc
            if len(_cache) > 64:
                _cache.clear()
            _cache[key] = hit
            _cache[(*_key(workspace), requested)] = hit  # compiling may have appended to the ledger
    if isinstance(hit, PolicyError):  # a fresh one: re-raising the cached one would grow its traceback
        raise PolicyError(hit.problems)
    return _copied(hit)  # callers attach their session to their own copy


def _copied(context: Context) -> Context:
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

    files = key[1]
    if all(stat is None for _, stat in files) and not os.environ.get("LIMEN_ORG_POLICY"):
        return Context.for_mode(requested or Mode.BALANCED, workspace)  # no file: no YAML, no pydantic
    from limen.policy import effective

    compiled = _compile(workspace)
    if compiled is None:
        return Context.for_mode(requested or Mode.BALANCED, workspace)
    eff, chain, policy = compiled
    return effective.context(eff, chain, policy, workspace, requested)
