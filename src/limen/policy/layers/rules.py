"""`rules`: AgentGuard-style matchers with effects. Any matching deny wins; else the first match decides.

Rules are indexed by capability when the policy loads, so a decision only visits the rules that can
apply to its capability, in file order.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.matchers import Matchers, label_regex
from limen.policy.schema import Rule, RulesLayer


@dataclass(slots=True, frozen=True)
class CompiledRule:
    id: str
    effect: str
    flag: str
    reason: str
    m: Matchers
    tools: bool
    paths: bool
    commands: bool
    hosts: bool
    environment: tuple[tuple[str, re.Pattern[str]], ...]
    flags: tuple[str, ...]

    def matches(self, action: Action, evidence: Evidence) -> str | None:
        """What matched (for the evidence), or None. Every field the rule gives must match."""
        m = self.m
        what = [f"rule {self.id}"]
        if self.tools and not m.tool(action):
            return None
        if self.paths:
            path = m.path(action)
            if path is None:
                return None
            what.append(f"path {path}")
        if self.commands:
            cmd = m.command(action)
            if cmd is None:
                return None
            what.append(f"command {cmd}")
        if self.hosts:
            host = m.host(action)
            if host is None:
                return None
            what.append(f"host {host}")
        for key, pattern in self.environment:
            if not pattern.match(os.environ.get(key, "")):
                return None
        for flag in self.flags:
            if not evidence.has(flag):
                return None
        return ", ".join(what)


def _compile_rule(rule: Rule, workspace: str, home: str) -> CompiledRule:
    mt = rule.match
    m = Matchers.compile(
        paths=mt.paths, commands=mt.commands, hosts=mt.hosts, tools=mt.tool, workspace=workspace, home=home
    )
    env = tuple((k, label_regex([v])) for k, v in mt.environment.items())
    return CompiledRule(
        rule.id,
        rule.effect,
        rule.flag or "",
        rule.reason,
        m,
        bool(mt.tool),
        bool(mt.paths),
        bool(mt.commands),
        bool(mt.hosts),
        env,
        tuple(mt.flags),
    )


@dataclass(slots=True, frozen=True)
class Rules:
    name: str
    by_capability: dict[str, tuple[CompiledRule, ...]]
    generic: tuple[CompiledRule, ...]  # rules without a capability condition, for other capabilities
    kind: str = "rules"

    @classmethod
    def compile(cls, name: str, spec: RulesLayer, workspace: str, home: str) -> Rules:
        compiled = [(r.match.capability, _compile_rule(r, workspace, home)) for r in spec.rules]
        caps = {c for cs, _ in compiled for c in cs}
        by_cap = {c: tuple(r for cs, r in compiled if not cs or c in cs) for c in caps}
        return cls(name, by_cap, tuple(r for cs, r in compiled if not cs))

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        decided: tuple[CompiledRule, str] | None = None
        for r in self.by_capability.get(action.capability, self.generic):
            hit = r.matches(action, evidence)
            if hit is None:
                continue
            if r.effect == "deny":
                evidence.add(self.name, f"{hit}: deny")
                return "deny", r.reason or f"rule {r.id}"
            if r.effect == "annotate":
                evidence.flag(self.name, r.flag)
            elif decided is None:
                decided = (r, hit)
        if decided is None:
            return "pass", ""
        r, hit = decided
        evidence.add(self.name, f"{hit}: {r.effect}")
        return r.effect, r.reason or f"rule {r.id}"
