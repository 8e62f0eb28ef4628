"""`denylist` and `allowlist`: the cheapest layers, pure pattern lookups."""

from __future__ import annotations

from dataclasses import dataclass

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.matchers import Matchers


@dataclass(slots=True, frozen=True)
class Denylist:
    """Any matching path, command, host or tool ends the chain with `on_match` (deny or ask)."""

    name: str
    m: Matchers
    on_match: str
    kind: str = "denylist"

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        m = self.m
        hit = None
        if m.tool(action):
            hit = f"tool {action.tool}"
        elif (path := m.path(action)) is not None:
            hit = f"path {path}"
        elif (cmd := m.command(action)) is not None:
            hit = f"command {cmd}"
        elif (host := m.host(action)) is not None:
            hit = f"host {host}"
        if hit is None:
            return "pass", ""
        evidence.add(self.name, f"denylisted {hit}")
        return self.on_match, f"{hit} is on the denylist"


@dataclass(slots=True, frozen=True)
class Allowlist:
    """Hosts an action may reach. Applies only to actions with destinations; all of them must match."""

    name: str
    m: Matchers
    on_match: str
    on_miss: str
    kind: str = "allowlist"

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        if not action.destinations:
            return "pass", ""
        for dest in action.destinations:
            how = self.m.hosts.matches(dest)
            if how is None:
                evidence.add(self.name, f"host {dest.host} not on the allowlist")
                return self.on_miss, f"host {dest.host} is not on the allowlist"
            evidence.add(self.name, f"host {dest.host} allowed ({how})")
        return self.on_match, ""
