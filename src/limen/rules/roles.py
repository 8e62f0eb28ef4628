"""Objective rules: role boundaries and policy sources, both declared in the policy file.

- `role_blocked_target` (BLOCK): the action touches a path, host or tool the agent's role must never touch.
- `role_out_of_scope` (AUTH): the action leaves the role's declared boundary (capabilities, tools, paths,
  hosts), or names a role the policy does not declare. An action with no role is not role-bound.
- `policy_source_blocked` (BLOCK) / `policy_source_sensitive` (AUTH): the instruction came from a source
  (a provenance label such as `web:pastebin.com` or `untrusted_content`) the policy blocks or flags.
Each level that declares roles is checked in turn, so a lower level can only narrow a role.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from limen.context import Context
from limen.model import Action, Finding, ReasonCode, Verdict
from limen.rules import rule

if TYPE_CHECKING:
    from limen.policy.compiled import RoleBoundary


def _blocked(role: RoleBoundary, action: Action) -> str | None:
    d = role.denied
    if d.tool(action):
        return f"tool {action.tool}"
    if (path := d.path(action)) is not None:
        return f"path {path}"
    if (host := d.host(action)) is not None:
        return f"host {host}"
    return None


def _outside(role: RoleBoundary, action: Action) -> str | None:
    a = role.allowed
    if role.capabilities and action.capability not in role.capabilities:
        return f"capability {action.capability}"
    if role.has_tools and not a.tool(action):
        return f"tool {action.tool}"
    if role.has_paths:
        for path in (*action.paths, *action.write_paths):
            if not a.paths.match(path):
                return f"path {path}"
    if role.has_hosts:
        for dest in action.destinations:
            if a.hosts.matches(dest) is None:
                return f"host {dest.host}"
    return None


@rule(ReasonCode.ROLE_BLOCKED_TARGET, ReasonCode.ROLE_OUT_OF_SCOPE, needs="role")
def role_boundaries(action: Action, ctx: Context) -> Iterator[Finding]:
    """An agent role's boundaries from the policy: a target the role blocks: BLOCK; a tool, path or host
    outside what the role declares: AUTH (an elevation). Quiet: no role, or a call inside the role."""
    policy = ctx.policy
    if policy is None or not policy.roles or not action.role:
        return
    for level, roles in policy.roles:
        role = roles.get(action.role)
        if role is None:
            yield Finding(
                ReasonCode.ROLE_OUT_OF_SCOPE,
                Verdict.AUTH,
                60,
                f"role {action.role} is not declared in the {level} policy",
            )
            return
        if (target := _blocked(role, action)) is not None:
            yield Finding(
                ReasonCode.ROLE_BLOCKED_TARGET, Verdict.BLOCK, 95, f"role {role.name} must not touch {target}"
            )
            return
        if (target := _outside(role, action)) is not None:
            yield Finding(
                ReasonCode.ROLE_OUT_OF_SCOPE, Verdict.AUTH, 60, f"{target} is outside role {role.name}"
            )
            return


@rule(ReasonCode.POLICY_SOURCE_BLOCKED, ReasonCode.POLICY_SOURCE_SENSITIVE, needs="provenance")
def policy_sources(action: Action, ctx: Context) -> Iterator[Finding]:
    """Where the instruction came from, against the policy's source lists: a blocked source: BLOCK; a
    sensitive one: AUTH. Quiet: calls whose provenance no list names."""
    policy = ctx.policy
    if policy is None or not action.provenance:
        return
    blocked, sensitive = policy.sources_blocked, policy.sources_sensitive
    for label in sorted(action.provenance):
        if blocked is not None and blocked.match(label):
            yield Finding(
                ReasonCode.POLICY_SOURCE_BLOCKED, Verdict.BLOCK, 95, f"instruction source {label} is blocked"
            )
            return
    for label in sorted(action.provenance):
        if sensitive is not None and sensitive.match(label):
            yield Finding(
                ReasonCode.POLICY_SOURCE_SENSITIVE,
                Verdict.AUTH,
                60,
                f"instruction source {label} is sensitive",
            )
            return
