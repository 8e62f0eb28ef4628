"""`rules`: AgentGuard-style matchers with effects. Any matching deny wins; else the first match decides.

The rules that can apply to a (capability, tool name) pair are worked out once and cached, so a
decision only visits those, in file order.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.matchers import Matchers, label_regex
from limen.policy.schema import Rule, RulesLayer

_CACHE_LIMIT = 4096  # distinct (capability, tool) pairs remembered per layer


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
        """What matched (for the evidence), or None. The tool condition is checked by `Rules._candidates`."""
        m = self.m
        path = cmd = host = None
        if self.paths and (path := m.path(action)) is None:
            return None
        if self.commands and (cmd := m.command(action)) is None:
            return None
        if self.hosts and (host := m.host(action)) is None:
            return None
        for key, pattern in self.environment:
            if not pattern.match(os.environ.get(key, "")):
                return None
        for flag in self.flags:
            if not evidence.has(flag):
                return None
        what = [f"rule {self.id}"]
        what += [
            f"{kind} {value}" for kind, value in (("path", path), ("command", cmd), ("host", host)) if value
        ]
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
    rules: tuple[tuple[frozenset[str], CompiledRule], ...]  # (capabilities, rule) in file order
    candidates: dict[tuple[str, str], tuple[CompiledRule, ...]] = field(default_factory=dict)
    kind: str = "rules"

    @classmethod
    def compile(cls, name: str, spec: RulesLayer, workspace: str, home: str) -> Rules:
        return cls(
            name,
            tuple((frozenset(r.match.capability), _compile_rule(r, workspace, home)) for r in spec.rules),
        )

    def _candidates(self, action: Action) -> tuple[CompiledRule, ...]:
        """The rules whose capability and tool conditions this action meets, cached per (capability, tool)."""
        key = (action.capability, action.tool)
        found = self.candidates.get(key)
        if found is None:
            found = tuple(
                r
                for caps, r in self.rules
                if (not caps or action.capability in caps) and (not r.tools or r.m.tool(action))
            )
            if len(self.candidates) < _CACHE_LIMIT:
                self.candidates[key] = found
        return found

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        decided: tuple[CompiledRule, str] | None = None
        for r in self._candidates(action):
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
