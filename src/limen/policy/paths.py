"""Where policy files and drift state live. Kept free of heavy imports: `load_context` stats these on
every call, and a workspace without policy files must not pay for YAML or pydantic."""

from __future__ import annotations

import functools
import hashlib
import os

from limen.home import limen_home

ORG_POLICY = "/etc/limen/policy.yaml"  # a module attribute so tests can point it at a temporary path


def policy_paths(workspace: str) -> list[tuple[str, str, bool]]:
    """(level, path, required) for each level, highest first. An explicitly named org file must exist."""
    org_env = os.environ.get("LIMEN_ORG_POLICY")
    return [
        ("org", org_env or ORG_POLICY, bool(org_env)),
        ("user", os.path.join(limen_home(), "policy.yaml"), False),
        ("project", os.path.join(workspace, "limen.yaml"), False),
    ]


def drift_root() -> str:
    return os.path.join(limen_home(), "drift")


def workspace_dir(workspace: str) -> str:
    return os.path.join(drift_root(), _workspace_key(workspace))


@functools.lru_cache(maxsize=256)
def _workspace_key(workspace: str) -> str:
    return hashlib.sha256(os.path.realpath(workspace).encode()).hexdigest()[:16]


def ledger_path(workspace: str) -> str:
    return os.path.join(workspace_dir(workspace), "ledger.jsonl")
