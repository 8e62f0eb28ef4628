"""Checks the schema cannot express: acknowledgements, waivers, references, ordering and shadowing.

Errors stop Limen from starting; warnings are printed by `limen config check` only. Every problem
names the dotted key of the offending entry.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from limen.model import Capability, ReasonCode
from limen.policy.errors import Problem, dotted
from limen.policy.loader import Path, Source
from limen.policy.schema import AllowlistLayer, DlpLayer, Layer, Match, Rule, RulesLayer
from limen.policy.unmutable import POLICY_CODES, UNWAIVABLE

COST: dict[str, tuple[int, str]] = {
    "denylist": (0, "cheap"),
    "allowlist": (0, "cheap"),
    "rules": (0, "cheap"),
    "dlp": (1, "moderate"),
}

BUILTIN_CAPABILITIES = frozenset(c.value for c in Capability)


def layer_label(index: int, layer: Layer) -> str:
    return f"chain[{index}] ({layer.name or layer.layer})"


def _err(source: Source, path: Path, message: str, severity: str = "error") -> Problem:
    return Problem(severity, source.path, source.line(path), dotted(path), message)


def _acknowledgements(source: Source) -> list[Problem]:
    p = source.policy
    out = []
    if p.default_action == "allow" and "allow_by_default" not in p.acknowledge:
        out.append(
            _err(
                source,
                ("default_action",),
                "allow-by-default needs `acknowledge: [allow_by_default]` in the same file",
            )
        )
    if p.enforcement == "monitor" and "monitor" not in p.acknowledge:
        out.append(
            _err(
                source,
                ("enforcement",),
                "monitor lets every call through; it needs `acknowledge: [monitor]` in the same file",
            )
        )
    return out


def _waivers(source: Source, now: datetime) -> list[Problem]:
    out = []
    codes = {c.value for c in ReasonCode}
    for i, w in enumerate(source.policy.waivers):
        if w.code not in codes:
            out.append(_err(source, ("waivers", i, "code"), f"unknown reason code {w.code!r}"))
        elif w.code in UNWAIVABLE:
            why = (
                "the policy's own answer: edit the policy instead"
                if w.code in POLICY_CODES
                else "a hard floor, an error signal or a protection"
            )
            out.append(_err(source, ("waivers", i, "code"), f"{w.code} cannot be waived: {why}"))
        if not (w.paths or w.hosts or w.commands):
            out.append(_err(source, ("waivers", i), "a waiver needs a scope: paths, hosts or commands"))
        if expiry(w.expires) <= now.timestamp():
            out.append(_err(source, ("waivers", i, "expires"), "this waiver has expired", "warning"))
    return out


def expiry(value: date | datetime) -> float:
    """A waiver's expiry as a timestamp: a date lasts until the end of that day (UTC)."""
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()
    return datetime(value.year, value.month, value.day, 23, 59, 59, tzinfo=UTC).timestamp()


def _capabilities(source: Source, known: frozenset[str]) -> list[Problem]:
    p = source.policy
    known = known | BUILTIN_CAPABILITIES | set(p.capabilities)
    out = []

    def need(path: Path, names: list[str]) -> None:
        for k, name in enumerate(names):
            if name not in known:
                out.append(
                    _err(source, (*path, k), f"unknown capability {name!r} (declare it under `capabilities`)")
                )

    for tool, spec in p.tools.items():
        if spec.capability not in known:
            out.append(
                _err(
                    source,
                    ("tools", tool, "capability"),
                    f"unknown capability {spec.capability!r} (declare it under `capabilities`)",
                )
            )
    for name, role in p.roles.items():
        need(("roles", name, "capabilities"), role.capabilities)
    for i, layer in enumerate(p.chain):
        if isinstance(layer, RulesLayer):
            for j, r in enumerate(layer.rules):
                need(("chain", i, "rules", j, "match", "capability"), r.match.capability)
    return out


def _rules(source: Source) -> list[Problem]:
    out = []
    names: dict[str, int] = {}
    for i, layer in enumerate(source.policy.chain):
        if layer.name:
            if layer.name in names:
                out.append(
                    _err(
                        source,
                        ("chain", i, "name"),
                        f"duplicate layer name (also chain[{names[layer.name]}])",
                    )
                )
            names[layer.name] = i
        if not isinstance(layer, RulesLayer):
            continue
        ids: set[str] = set()
        for j, r in enumerate(layer.rules):
            if r.id in ids:
                out.append(_err(source, ("chain", i, "rules", j, "id"), f"duplicate rule id {r.id!r}"))
            ids.add(r.id)
            if (r.effect == "annotate") != (r.flag is not None):
                out.append(
                    _err(
                        source,
                        ("chain", i, "rules", j, "flag"),
                        "`flag` is required for effect annotate and only allowed there",
                    )
                )
    return out


def _thresholds(source: Source) -> list[Problem]:
    t = source.policy.risk.thresholds
    given = [v for v in (t.ask, t.strong, t.deny) if v is not None]
    if given != sorted(given):
        return [_err(source, ("risk", "thresholds"), "thresholds must satisfy ask <= strong <= deny")]
    return []


def _order(source: Source) -> list[Problem]:
    """Warnings about ordering: an expensive layer before a cheap one, layers made unreachable."""
    out = []
    chain = source.policy.chain
    for i, layer in enumerate(chain):
        rank, cost = COST[layer.layer]
        for k in range(i + 1, len(chain)):
            later_rank, later_cost = COST[chain[k].layer]
            if later_rank < rank:
                out.append(
                    _err(
                        source,
                        ("chain", i),
                        f"{layer_label(i, layer)} costs {cost} but runs before the "
                        f"{later_cost} {layer_label(k, chain[k])}; order cheap layers first",
                        "warning",
                    )
                )
                break
        if isinstance(layer, AllowlistLayer) and layer.on_match == "allow":
            for k in range(i + 1, len(chain)):
                out.append(
                    _err(
                        source,
                        ("chain", k),
                        f"{layer_label(k, chain[k])} never runs for hosts allowed "
                        f"by {layer_label(i, layer)} (on_match: allow ends the chain); use on_match: pass",
                        "warning",
                    )
                )
        if isinstance(layer, RulesLayer) and any(
            r.effect != "annotate" and r.match == Match() for r in layer.rules
        ):
            for k in range(i + 1, len(chain)):
                rule_all = f"{layer_label(i, layer)} has a rule matching every action"
                message = f"{layer_label(k, chain[k])} never runs: {rule_all}"
                out.append(_err(source, ("chain", k), message, "warning"))
    return out


def covers(a: Match, b: Match) -> bool:
    """Whether matcher `a` matches every action `b` matches (judged on the literal patterns)."""
    for name in ("capability", "tool", "paths", "commands", "hosts"):
        mine, theirs = getattr(a, name), getattr(b, name)
        if mine and not (theirs and set(theirs) <= set(mine)):
            return False
    if not set(a.flags) <= set(b.flags):
        return False
    return all(b.environment.get(k) == v for k, v in a.environment.items())


def _shadowed(source: Source) -> list[Problem]:
    out = []
    for i, layer in enumerate(source.policy.chain):
        if not isinstance(layer, RulesLayer):
            continue
        rules: list[Rule] = layer.rules
        for j, later in enumerate(rules):
            for k in range(j):
                earlier = rules[k]
                if later.effect == "annotate" or earlier.effect == "annotate":
                    continue
                deciding = earlier.effect != "deny" and later.effect != "deny"
                duplicate = earlier.effect == later.effect == "deny"
                if (deciding or duplicate) and covers(earlier.match, later.match):
                    out.append(
                        _err(
                            source,
                            ("chain", i, "rules", j),
                            f"rule {later.id!r} is shadowed by "
                            f"rule {earlier.id!r} (rules[{k}]), which matches everything it matches",
                            "warning",
                        )
                    )
                    break
    return out


def _dlp(source: Source) -> list[Problem]:
    out = []
    for i, layer in enumerate(source.policy.chain):
        if isinstance(layer, DlpLayer) and not layer.detect and not layer.patterns:
            out.append(_err(source, ("chain", i), "a dlp layer with nothing to detect"))
    return out


def check_source(
    source: Source, known_capabilities: frozenset[str] = frozenset(), now: datetime | None = None
) -> list[Problem]:
    """Every semantic error and warning of one file."""
    now = now or datetime.now(UTC)
    return [
        *_acknowledgements(source),
        *_waivers(source, now),
        *_capabilities(source, known_capabilities),
        *_rules(source),
        *_thresholds(source),
        *_dlp(source),
        *_order(source),
        *_shadowed(source),
    ]
