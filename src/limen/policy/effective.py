"""From the files to one effective policy (plain JSON data), and from that to a chain and a Context.

The effective policy is what the drift gate fingerprints and records: the merge of the three levels,
where the highest level present sets the base and each lower level can only tighten it (a lower
level's loosening is ignored with a warning). Keeping it as plain data lets an approved snapshot from the
ledger be rebuilt exactly.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from pydantic import TypeAdapter

from limen.context import (
    RATE_LIMITS,
    Context,
    RateWindow,
    Thresholds,
    default_protected_paths,
    rate_allows_more,
    stricter_rate,
)
from limen.model import Mode
from limen.normalize.tools import ToolSpec
from limen.policy.chain import Chain, CompiledWaiver
from limen.policy.compiled import CompiledPolicy, RoleBoundary
from limen.policy.errors import Problem
from limen.policy.layers import build_layer
from limen.policy.loader import Source
from limen.policy.matchers import BUNDLES, Matchers, expand_path_pattern, label_regex
from limen.policy.presets import MODE_RANK, preset, stricter
from limen.policy.schema import Layer, Role, ToolMap, Waiver
from limen.policy.semantics import expiry

Effective = dict[str, Any]
_DEFAULT_RANK = {"allow": 0, None: 1, "ask": 2, "deny": 3}
_LAYERS: TypeAdapter[list[Layer]] = TypeAdapter(list[Layer])


def _hosts(patterns: list[str]) -> list[str]:
    out: list[str] = []
    for p in patterns:
        out.extend(BUNDLES.get(p.lower(), (p.lower(),)))
    return out


def _ignored(source: Source, key: str, message: str) -> Problem:
    return Problem(
        "warning", source.path, source.line((key,)), key, message + "; a lower level can only tighten"
    )


def merge(sources: list[Source]) -> tuple[Effective, list[Problem]]:
    """The effective policy of the files (highest level first) and warnings for ignored loosenings."""
    warnings: list[Problem] = []
    mode = Mode.BALANCED
    enforcement = "enforce"
    default: str | None = None
    for i, s in enumerate(sources):
        p = s.policy
        if p.mode is not None:
            if i and MODE_RANK[p.mode] < MODE_RANK[mode]:
                warnings.append(_ignored(s, "mode", f"mode {p.mode} is looser than {mode} set above"))
            mode = p.mode if i == 0 else stricter(mode, p.mode)
        if p.enforcement == "monitor" and i and enforcement == "enforce":
            warnings.append(_ignored(s, "enforcement", "monitor is ignored: a level above enforces"))
        elif p.enforcement is not None:
            enforcement = p.enforcement
        if p.default_action is not None:
            if i and _DEFAULT_RANK[p.default_action] < _DEFAULT_RANK[default]:
                warnings.append(_ignored(s, "default_action", f"{p.default_action} is looser than {default}"))
            else:
                default = p.default_action
    base = preset(mode)
    limits = {
        "ask": base.ask,
        "strong": base.strong,
        "deny": base.deny,
        "bulk_threshold": base.bulk_threshold,
    }
    trusted = list(base.trusted_hosts)
    for i, s in enumerate(sources):
        p = s.policy
        if i and p.mode is not None:  # a lower level's stricter mode brings its preset's limits
            lower = preset(p.mode)
            for key in limits:
                limits[key] = min(limits[key], getattr(lower, key))
        given = {**p.risk.thresholds.model_dump(), "bulk_threshold": p.risk.bulk_threshold}
        for key, value in given.items():
            if value is None:
                continue
            if i and value > limits[key]:
                warnings.append(_ignored(s, "risk", f"{key} {value} is looser than {limits[key]}"))
            limits[key] = value if i == 0 else min(limits[key], value)
        if p.trusted_hosts.add:
            if i:
                warnings.append(_ignored(s, "trusted_hosts", "trusted_hosts.add is ignored"))
            else:
                trusted += _hosts(p.trusted_hosts.add)
        removed = set(_hosts(p.trusted_hosts.remove))
        trusted = [h for h in trusted if h not in removed]
    window, rate_warnings = _rate(sources, mode)
    warnings += rate_warnings
    limits["strong"] = min(limits["strong"], limits["deny"])
    limits["ask"] = min(limits["ask"], limits["strong"])
    tools: dict[str, Any] = {}
    for s in sources:
        for name, spec in s.policy.tools.items():
            if name in tools:
                warnings.append(
                    Problem(
                        "warning",
                        s.path,
                        s.line(("tools", name)),
                        f"tools.{name}",
                        "already mapped at a higher level; that mapping applies",
                    )
                )
            else:
                tools[name] = spec.model_dump(mode="json")
    eff: Effective = {
        "mode": mode.value,
        "enforcement": enforcement,
        "default_action": default,
        "thresholds": {k: limits[k] for k in ("ask", "strong", "deny")},
        "bulk_threshold": limits["bulk_threshold"],
        "trusted_hosts": sorted(set(trusted)),
        "protected_paths": _union(s.policy.protected_paths for s in sources),
        "protected_names": _union(s.policy.protected_names for s in sources),
        "sensitive_paths": _union(s.policy.sensitive_paths for s in sources),
        "chains": [{"level": s.level, "layers": [dump(x) for x in s.policy.chain]} for s in sources],
        "roles": [
            {"level": s.level, "roles": {n: dump(r) for n, r in s.policy.roles.items()}}
            for s in sources
            if s.policy.roles
        ],
        "policy_sources": {
            "blocked": _union(s.policy.policy_sources.blocked for s in sources),
            "sensitive": _union(s.policy.policy_sources.sensitive for s in sources),
        },
        "capabilities": sorted({c for s in sources for c in s.policy.capabilities}),
        "tools": tools,
        "waivers": [dump(w) for s in sources for w in s.policy.waivers],
    }
    if (
        window is not None
    ):  # only when a file sets one, so the fingerprints of other policies stay as they were
        eff["rate"] = {"calls": window[0], "seconds": window[1]}
    return eff, warnings


def _rate(sources: list[Source], mode: Mode) -> tuple[RateWindow, list[Problem]]:
    """The files' rate window (None: the mode's applies): the highest level's sets it, a lower level's
    only tightens it, and a lower level's stricter mode brings its preset's window."""
    window: RateWindow = None
    warnings: list[Problem] = []
    for i, s in enumerate(sources):
        p = s.policy
        if i and window is not None and p.mode is not None:
            window = stricter_rate(window, RATE_LIMITS[p.mode])
        if p.rate is None:
            continue
        given = (p.rate.calls, float(p.rate.seconds))
        if i == 0:
            window = given
            continue
        current = window if window is not None else RATE_LIMITS[mode]
        if rate_allows_more(given, current):
            warnings.append(
                _ignored(s, "rate", f"{given[0]} calls in {given[1]:.0f} s is looser than {current}")
            )
        else:
            window = stricter_rate(current, given)
    return window, warnings


def rate_of(eff: Effective) -> RateWindow:
    """The effective policy's rate window: its own, else its mode's."""
    rate = eff.get("rate")
    if rate is None:
        return RATE_LIMITS[Mode(eff["mode"])]
    return (int(rate["calls"]), float(rate["seconds"]))


def stricter_of(a: Effective, p: Effective) -> Effective:
    """Both policies at once, each value the stricter: the approved one with the edit's tightenings.

    The edit's chains and roles run as extra tighten-only levels after the approved ones.
    """
    rank = {"allow": 0, None: 1, "ask": 2, "deny": 3}
    default = max(a["default_action"], p["default_action"], key=lambda d: rank[d])
    return {
        "mode": stricter(Mode(a["mode"]), Mode(p["mode"])).value,
        "enforcement": "monitor" if a["enforcement"] == p["enforcement"] == "monitor" else "enforce",
        "default_action": default,
        "thresholds": {k: min(a["thresholds"][k], p["thresholds"][k]) for k in ("ask", "strong", "deny")},
        "bulk_threshold": min(a["bulk_threshold"], p["bulk_threshold"]),
        "trusted_hosts": sorted(set(a["trusted_hosts"]) & set(p["trusted_hosts"])),
        **{
            k: sorted(set(a[k]) | set(p[k]))
            for k in ("protected_paths", "protected_names", "sensitive_paths", "capabilities")
        },
        "chains": a["chains"]
        + [{**e, "level": f"{e['level']}+unapproved", "tighten_only": True} for e in p["chains"]],
        "roles": a["roles"] + [{**e, "level": f"{e['level']}+unapproved"} for e in p["roles"]],
        "policy_sources": {
            k: sorted(set(a["policy_sources"][k]) | set(p["policy_sources"][k]))
            for k in ("blocked", "sensitive")
        },
        "tools": a["tools"],
        "waivers": [w for w in a["waivers"] if w in p["waivers"]],
        **_stricter_rate_entry(a, p),
    }


def _stricter_rate_entry(a: Effective, p: Effective) -> Effective:
    if "rate" not in a and "rate" not in p:
        return {}
    window = stricter_rate(rate_of(a), rate_of(p))
    return {} if window is None else {"rate": {"calls": window[0], "seconds": window[1]}}


def dump(model: Any) -> dict[str, Any]:
    data: dict[str, Any] = model.model_dump(mode="json", exclude_defaults=True)
    if "layer" in type(model).model_fields:
        data["layer"] = model.layer
    return data


def _union(lists: Any) -> list[str]:
    return sorted({item for items in lists for item in items})


def fingerprint(eff: Effective) -> str:
    return hashlib.sha256(json.dumps(eff, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _role(name: str, role: Role, workspace: str, home: str) -> RoleBoundary:
    allowed = Matchers.compile(
        paths=role.paths, hosts=role.hosts, tools=role.tools, workspace=workspace, home=home
    )
    denied = Matchers.compile(
        paths=role.deny.paths, hosts=role.deny.hosts, tools=role.deny.tools, workspace=workspace, home=home
    )
    return RoleBoundary(
        name,
        allowed,
        bool(role.paths),
        bool(role.hosts),
        bool(role.tools),
        frozenset(role.capabilities),
        denied,
    )


def _tool_spec(spec: ToolMap) -> ToolSpec:
    return ToolSpec(
        spec.capability,
        tuple(spec.paths),
        tuple(spec.commands),
        tuple(spec.urls),
        tuple(spec.payloads),
        tuple(spec.recipients),
        spec.write,
    )


def _waiver(w: Waiver, workspace: str, home: str) -> CompiledWaiver:
    m = Matchers.compile(paths=w.paths, hosts=w.hosts, commands=w.commands, workspace=workspace, home=home)
    return CompiledWaiver(w.code, m, expiry(w.expires))


def build(
    eff: Effective, workspace: str, home: str, notes: tuple[str, ...] = (), files: tuple[str, ...] = ()
) -> tuple[Chain, CompiledPolicy]:
    """Compile an effective policy into its chain and the rest of what rules read."""
    from limen.model import StageResult, Verdict

    levels = []
    for entry in eff["chains"]:
        specs = _LAYERS.validate_python(entry["layers"])
        layers = tuple(build_layer(i, s, workspace, home) for i, s in enumerate(specs))
        levels.append((entry["level"], layers, bool(entry.get("tighten_only"))))
    waivers = tuple(_waiver(Waiver.model_validate(w), workspace, home) for w in eff["waivers"])
    preface = (StageResult("policy:drift", Verdict.PASS, 0, (), notes),) if notes else ()
    chain = Chain(tuple(levels), eff["default_action"], waivers, preface)
    roles = tuple(
        (
            entry["level"],
            {n: _role(n, Role.model_validate(r), workspace, home) for n, r in entry["roles"].items()},
        )
        for entry in eff["roles"]
    )
    sources = eff["policy_sources"]
    policy = CompiledPolicy(
        fingerprint=fingerprint(eff),
        mode=Mode(eff["mode"]),
        enforcement=eff["enforcement"],
        roles=roles,
        sources_blocked=label_regex(sources["blocked"]) if sources["blocked"] else None,
        sources_sensitive=label_regex(sources["sensitive"]) if sources["sensitive"] else None,
        tool_specs={n: _tool_spec(ToolMap.model_validate(t)) for n, t in eff["tools"].items()},
        capabilities=frozenset(eff["capabilities"]),
        files=files,
        notes=notes,
    )
    return chain, policy


def context(
    eff: Effective, chain: Chain, policy: CompiledPolicy, workspace: str, mode: Mode | None
) -> Context:
    """A fresh Context for the compiled policy. A requested mode can only make it stricter."""
    home = os.path.expanduser("~")
    effective_mode = policy.mode if mode is None else stricter(policy.mode, mode)
    t = eff["thresholds"]
    rate = rate_of(eff)
    thresholds = Thresholds(t["ask"], t["strong"], t["deny"])
    bulk = eff["bulk_threshold"]
    if effective_mode is not policy.mode:  # a stricter requested mode brings its own stricter preset
        p = preset(effective_mode)
        thresholds = Thresholds(min(t["ask"], p.ask), min(t["strong"], p.strong), min(t["deny"], p.deny))
        bulk = min(bulk, p.bulk_threshold)
    extra = tuple(os.path.normpath(expand_path_pattern(x, workspace, home)) for x in eff["protected_paths"])
    sensitive = tuple(
        os.path.normpath(expand_path_pattern(x, workspace, home)) for x in eff["sensitive_paths"]
    )
    return Context(
        mode=effective_mode,
        workspace=workspace,
        home=home,
        thresholds=thresholds,
        trusted_hosts=tuple(eff["trusted_hosts"]),
        protected_paths=default_protected_paths(home, workspace) + extra,
        protected_names=tuple(eff["protected_names"]),
        extra_sensitive_paths=sensitive,
        bulk_threshold=bulk,
        rate_limit=rate
        if effective_mode is policy.mode
        else stricter_rate(rate, RATE_LIMITS[effective_mode]),
        chain=chain,
        policy=policy,
    )


def from_files(workspace: str) -> tuple[Effective, str, Effective]:
    """The files' effective policy (ignoring the drift gate), its fingerprint, and the built-in default."""
    from limen.policy.loader import read_sources

    current, _ = merge(read_sources(workspace))
    default, _ = merge([])
    return current, fingerprint(current), default
