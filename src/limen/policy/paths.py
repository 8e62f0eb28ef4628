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


PROJECT_FILE = "limen.yaml"
_ROOT_TTL = 1.0  # seconds a found project root is reused before the folders are looked at again
_roots: dict[str, tuple[float, str]] = {}
_roots_lock = threading.Lock()


def project_root(directory: str) -> str:
    """The project a working directory belongs to: the nearest folder at or above it holding `limen.yaml`,
    else the root of its git checkout, else the directory itself. Every door resolves a call's directory
    through this, so a call from `src/deep/` meets the same policy and the same protected paths as one
    from the project's top. Looked up again at most once a second per directory."""
    directory = os.path.abspath(directory)
    now = time.monotonic()
    hit = _roots.get(directory)
    if hit is not None and hit[0] > now:
        return hit[1]
    root = _find_root(directory)
    with _roots_lock:
        if len(_roots) > 256:
            _roots.clear()
        _roots[directory] = (now + _ROOT_TTL, root)
    return root


def _find_root(directory: str) -> str:
    git_root = ""
    current = directory
    while True:
        if os.path.isfile(os.path.join(current, PROJECT_FILE)):
            return current
        if not git_root and os.path.exists(os.path.join(current, ".git")):  # a folder, or a worktree's file
            git_root = current
        parent = os.path.dirname(current)
        if parent == current:
            return git_root or directory
        current = parent


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
