"""The `judge:` section of the policy files, merged over the three levels, and the merge both the judge and
the baseline (`baseline:`) use.

The highest level that sets a key decides it (organisation over user over project), as for `approvals:`.
Errors are the loader's: file, line and dotted key (`limen.policy.PolicyError`). Settings are cached by the
compiled policy object a `Context` carries (a new one is compiled whenever a policy file changes), so the
decision path pays a dictionary look-up, not a file read.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from limen.context import Context

_cache: dict[tuple[str, str, int], tuple[object, dict[str, Any]]] = {}
_lock = threading.Lock()


def merged_section(ctx: Context, name: str) -> dict[str, Any]:
    """The keys of policy section `name` that some level sets, each from the highest level that sets it.
    Empty without policy files. Raises `PolicyError` on a broken file."""
    policy = ctx.policy
    if policy is None:
        return {}
    key = (name, ctx.workspace, id(policy))
    with _lock:
        hit = _cache.get(key)
    if hit is not None and hit[0] is policy:
        return hit[1]
    from limen.policy.loader import read_sources
    from limen.policy.paths import project_root

    chosen: dict[str, Any] = {}
    for source in read_sources(project_root(ctx.workspace)):  # highest level first
        section = getattr(source.policy, name, None)
        if section is None:
            continue
        for field in section.model_fields_set:
            chosen.setdefault(field, getattr(section, field))
    with _lock:
        if len(_cache) > 32:
            _cache.clear()
        _cache[key] = (policy, chosen)
    return chosen


@dataclass(slots=True, frozen=True)
class JudgeConfig:
    """What the judge needs: where to ask, how long to wait, when to stop asking. No key: only the name
    of the environment variable that holds it."""

    mode: str = "off"  # off | shadow | enforce
    provider: str = "openai"  # openai | anthropic | ollama
    url: str = ""
    model: str = ""
    api_key_env: str = ""
    timeout_seconds: float = 3.0
    budget_ms: int = 1500  # under the hook client's wait on the daemon (2 s of its 5 s deadline)
    cache_seconds: int = 600
    breaker_failures: int = 3
    breaker_cooldown_seconds: int = 60
    tier2_band: float = 0.15

    @property
    def enabled(self) -> bool:
        return self.mode in ("shadow", "enforce") and bool(self.url and self.model)

    def api_key(self) -> str:
        """The key, read from the environment at the moment of the request (never stored)."""
        return os.environ.get(self.api_key_env, "") if self.api_key_env else ""


def judge_config(ctx: Context) -> JudgeConfig:
    """The judge's settings for this context's policy (defaults: off)."""
    chosen = merged_section(ctx, "judge")
    if not chosen:
        return JudgeConfig()
    base = JudgeConfig()
    return JudgeConfig(
        mode=str(chosen.get("mode", base.mode)),
        provider=str(chosen.get("provider", base.provider)),
        url=str(chosen.get("url") or ""),
        model=str(chosen.get("model", base.model)),
        api_key_env=str(chosen.get("api_key_env") or ""),
        timeout_seconds=float(chosen.get("timeout_seconds", base.timeout_seconds)),
        budget_ms=int(chosen.get("budget_ms", base.budget_ms)),
        cache_seconds=int(chosen.get("cache_seconds", base.cache_seconds)),
        breaker_failures=int(chosen.get("breaker_failures", base.breaker_failures)),
        breaker_cooldown_seconds=int(chosen.get("breaker_cooldown_seconds", base.breaker_cooldown_seconds)),
        tier2_band=float(chosen.get("tier2_band", base.tier2_band)),
    )
