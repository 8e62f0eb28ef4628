"""The compiled, immutable policy a `Context` carries besides its chain: roles, sources, tool maps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from limen.model import Mode
from limen.normalize.tools import ToolSpec
from limen.policy.matchers import Matchers


@dataclass(slots=True, frozen=True)
class RoleBoundary:
    """One role as declared at one level: where it may go (empty = anywhere) and where it must not."""

    name: str
    allowed: Matchers
    has_paths: bool
    has_hosts: bool
    has_tools: bool
    capabilities: frozenset[str]
    denied: Matchers


@dataclass(slots=True, frozen=True)
class CompiledPolicy:
    fingerprint: str
    mode: Mode
    enforcement: str  # "enforce" or "monitor": a monitor door runs the call and logs the would-be verdict
    roles: tuple[tuple[str, dict[str, RoleBoundary]], ...] = ()  # (level, roles declared there)
    sources_blocked: re.Pattern[str] | None = None
    sources_sensitive: re.Pattern[str] | None = None
    tool_specs: dict[str, ToolSpec] = field(default_factory=dict)
    capabilities: frozenset[str] = frozenset()
    files: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the drift gate refused, why, and what applies instead

    @property
    def monitor(self) -> bool:
        return self.enforcement == "monitor"
