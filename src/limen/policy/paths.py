"""Where policy files and drift state live. Kept free of heavy imports: `load_context` stats these on
every call, and a workspace without policy files must not pay for YAML or pydantic."""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import time

from limen.home import limen_home

ORG_POLICY = "/etc/limen/policy.yaml"  # a module attribute so tests can point it at a temporary path

# `os.environ` keeps its variables in a plain dict of bytes on POSIX; `os.environ.get` goes through the
# generic Mapping.get, which raises and catches a KeyError for an unset name (~1.5 us, several per call).
# Every change made through `os.environ` (monkeypatch.setenv included) updates that dict, so reading it sees
# exactly what `os.environ.get` would.
_ENVIRON: dict[bytes, bytes] | None = getattr(os.environ, "_data", None)
if not isinstance(_ENVIRON, dict) or not all(isinstance(k, bytes) for k in list(_ENVIRON)[:1]):
    _ENVIRON = None


_ENCODED: dict[str, bytes] = {}  # the few names asked on every decision, encoded once


def environ_get(name: str) -> str | None:
    """`os.environ.get(name)`, at the cost of a dict lookup (see `_ENVIRON`)."""
    if _ENVIRON is None:
        return os.environ.get(name)
    key = _ENCODED.get(name)
    if key is None:
        key = _ENCODED[name] = os.fsencode(name)
    value = _ENVIRON.get(key)
    return None if value is None else os.fsdecode(value)


PROJECT_FILE = "limen.yaml"
_ROOT_TTL = 1.0  # seconds a found project root is reused before the folders are looked at again
_roots: dict[str, tuple[float, str]] = {}
_roots_lock = threading.Lock()


def project_root(directory: str) -> str:
    """The project a working directory belongs to. Every door resolves a call's directory through this,
    so a call from `src/deep/` meets the same policy and the same protected paths as one from the top.

    In a git checkout it is the checkout's root, or the nearest folder above that root holding
    `limen.yaml`: a `limen.yaml` below the root is not a project of its own, since one planted in a
    sub-folder would otherwise hide the project's policy and protected files from calls made there.
    Outside git it is the nearest folder at or above the directory holding `limen.yaml`, else the
    directory itself. Looked up again at most once a second per directory."""
    now = time.monotonic()
    if directory.startswith("/"):  # an absolute path names one folder whatever the cwd: look it up as given
        hit = _roots.get(directory)
        if hit is not None and hit[0] > now:
            return hit[1]
    given, directory = directory, os.path.abspath(directory)
    hit = _roots.get(directory)
    if hit is not None and hit[0] > now:
        return hit[1]
    root = _find_root(directory)
    with _roots_lock:
        if len(_roots) > 256:
            _roots.clear()
        _roots[directory] = (now + _ROOT_TTL, root)
        if given != directory and given.startswith("/"):
            _roots[given] = (now + _ROOT_TTL, root)
    return root


def _find_root(directory: str) -> str:
    nearest = ""
    current = directory
    while True:
        if os.path.exists(os.path.join(current, ".git")):  # a folder, or a worktree's file
            return _policy_at_or_above(current) or current
        if not nearest and os.path.isfile(os.path.join(current, PROJECT_FILE)):
            nearest = current
        parent = os.path.dirname(current)
        if parent == current:
            return nearest or directory
        current = parent


def _policy_at_or_above(folder: str) -> str:
    while True:
        if os.path.isfile(os.path.join(folder, PROJECT_FILE)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return ""
        folder = parent


def policy_paths(workspace: str) -> list[tuple[str, str, bool]]:
    """(level, path, required) for each level, highest first. An explicitly named org file must exist."""
    org_env = os.environ.get("LIMEN_ORG_POLICY")
    return [
        ("org", org_env or ORG_POLICY, bool(org_env)),
        ("user", os.path.join(limen_home(), "policy.yaml"), False),
        ("project", os.path.join(project_root(workspace), PROJECT_FILE), False),
    ]


def drift_root() -> str:
    return os.path.join(limen_home(), "drift")


def workspace_dir(workspace: str) -> str:
    return os.path.join(drift_root(), _workspace_key(project_root(workspace)))


@functools.lru_cache(maxsize=256)
def _workspace_key(workspace: str) -> str:
    return hashlib.sha256(os.path.realpath(workspace).encode()).hexdigest()[:16]


def ledger_path(workspace: str) -> str:
    return os.path.join(workspace_dir(workspace), "ledger.jsonl")
