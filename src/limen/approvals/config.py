"""The `approvals:` section of the policy files, merged over the three levels.

The highest level that sets a key decides it (organisation over user over project), except the expiry,
where any level may only shorten it. Errors are the loader's: file, line and dotted key
(`limen.policy.PolicyError`). Read only when a call needs an approval, never on the PASS or BLOCK path.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from limen.approvals.records import DEFAULT_EXPIRY_SECONDS

ACTIVE_CHANNELS = ("terminal", "webhook", "ntfy")  # channels that reach a human; `cli` only waits


@dataclass(slots=True, frozen=True)
class ApprovalConfig:
    channels: tuple[str, ...] = ("terminal", "cli")
    expiry_seconds: int = DEFAULT_EXPIRY_SECONDS
    wait_seconds: int = 120
    webhook_url: str = ""
    webhook_format: str = "slack"
    ntfy_url: str = ""
    listen: str = "127.0.0.1:0"
    public_url: str = ""
    sources: tuple[str, ...] = field(default=(), compare=False)  # the files that set something


_cache: dict[tuple[object, ...], ApprovalConfig] = {}
_lock = threading.Lock()


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def load(workspace: str) -> ApprovalConfig:
    """The approval settings for `workspace`. Raises `PolicyError` on a broken policy file."""
    from limen.policy.paths import policy_paths, project_root

    root = project_root(workspace)
    files = tuple((path, _stat(path)) for _, path, _ in policy_paths(root))
    key = (root, files)
    with _lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    if all(stat is None for _, stat in files):
        config = ApprovalConfig()
    else:
        from limen.policy.loader import read_sources

        config = merge([(s.path, s.policy.approvals) for s in read_sources(root)])
    with _lock:
        if len(_cache) > 64:
            _cache.clear()
        _cache[key] = config
    return config


def merge(levels: list[tuple[str, object]]) -> ApprovalConfig:
    """Merge `(path, Approvals | None)` pairs, highest level first."""
    from limen.policy.schema import Approvals

    chosen: dict[str, object] = {}
    expiry = DEFAULT_EXPIRY_SECONDS
    expiry_set = False
    sources: list[str] = []
    for path, section in levels:
        if not isinstance(section, Approvals):
            continue
        sources.append(path)
        given = section.model_fields_set
        if "expiry_seconds" in given:
            expiry = section.expiry_seconds if not expiry_set else min(expiry, section.expiry_seconds)
            expiry_set = True
        for key in given - {"expiry_seconds"}:
            chosen.setdefault(key, getattr(section, key))
    base = ApprovalConfig()
    webhook = chosen.get("webhook")
    ntfy = chosen.get("ntfy")
    callback = chosen.get("callback")
    channels = chosen.get("channels")
    return ApprovalConfig(
        channels=tuple(channels) if isinstance(channels, list) else base.channels,
        expiry_seconds=expiry,
        wait_seconds=int(chosen.get("wait_seconds", base.wait_seconds)),  # type: ignore[call-overload]
        webhook_url=getattr(webhook, "url", "") or "",
        webhook_format=getattr(webhook, "format", "slack") or "slack",
        ntfy_url=getattr(ntfy, "url", "") or "",
        listen=getattr(callback, "listen", base.listen) or base.listen,
        public_url=getattr(callback, "public_url", "") or "",
        sources=tuple(sources),
    )
