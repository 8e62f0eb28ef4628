"""Which changes between two effective policies loosen: anything not provably a tightening does.

Used by the drift gate. It judges changes conservatively: a reordering, a changed rule, a new layer that
can answer `allow` or a new role all count as loosening and wait for a human.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from limen.context import RateWindow, rate_allows_more
from limen.model import Mode
from limen.policy.effective import rate_of
from limen.policy.presets import MODE_RANK
from limen.policy.schema import AllowlistLayer, DenylistLayer, DlpLayer, Layer, Role, RulesLayer

Effective = dict[str, Any]
_LAYERS: TypeAdapter[list[Layer]] = TypeAdapter(list[Layer])
_DEFAULT_RANK = {"allow": 0, None: 1, "ask": 2, "deny": 3}
_STRENGTH = {"pass": 0, "annotate": 0, "allow": 0, "ask": 1, "deny": 2}


def _removed(a: list[str], p: list[str]) -> list[str]:
    return sorted(set(a) - set(p))


def _added(a: list[str], p: list[str]) -> list[str]:
    return sorted(set(p) - set(a))


def _keys(layers: list[Layer]) -> list[str]:
    seen: dict[str, int] = {}
    keys = []
    for layer in layers:
        if layer.name:
            keys.append(layer.name)
        else:
            seen[layer.layer] = seen.get(layer.layer, -1) + 1
            keys.append(f"{layer.layer}#{seen[layer.layer]}")
    return keys


def _allow_flags(layers: list[Layer]) -> set[str]:
    return {
        f
        for x in layers
        if isinstance(x, RulesLayer)
        for r in x.rules
        if r.effect == "allow"
        for f in r.match.flags
    }


def _restrictive(layer: Layer, allow_flags: set[str]) -> bool:
    """A new layer that can only deny, ask, pass or raise flags nothing allows on."""
    if isinstance(layer, AllowlistLayer):
        return layer.on_match == "pass"
    if isinstance(layer, RulesLayer):
        return all(
            r.effect in ("deny", "ask") or (r.effect == "annotate" and r.flag not in allow_flags)
            for r in layer.rules
        )
    return True


def _layer_changes(key: str, a: Layer, p: Layer) -> list[str]:
    out: list[str] = []
    if type(a) is not type(p):
        return [f"layer {key} changed from {a.layer} to {p.layer}"]
    if isinstance(a, DenylistLayer) and isinstance(p, DenylistLayer):
        for field in ("paths", "commands", "hosts", "tools"):
            gone = _removed(getattr(a, field), getattr(p, field))
            if gone:
                out.append(f"layer {key} no longer denies {field} {', '.join(gone)}")
        if _STRENGTH[p.on_match] < _STRENGTH[a.on_match]:
            out.append(f"layer {key} on_match {a.on_match} -> {p.on_match}")
    elif isinstance(a, AllowlistLayer) and isinstance(p, AllowlistLayer):
        if new := _added(a.hosts, p.hosts):
            out.append(f"layer {key} allows new hosts {', '.join(new)}")
        if a.on_match == "pass" and p.on_match == "allow":
            out.append(f"layer {key} on_match pass -> allow (later layers stop running for allowed hosts)")
        if a.on_miss == "deny" and p.on_miss == "pass":
            out.append(f"layer {key} on_miss deny -> pass")
    elif isinstance(a, RulesLayer) and isinstance(p, RulesLayer):
        out += _rules_changes(key, a, p)
    elif isinstance(a, DlpLayer) and isinstance(p, DlpLayer):
        if gone := _removed(list(a.detect), list(p.detect)):
            out.append(f"layer {key} no longer detects {', '.join(gone)}")
        if gone := _removed([x.name for x in a.patterns], [x.name for x in p.patterns]):
            out.append(f"layer {key} dropped patterns {', '.join(gone)}")
        if (
            _STRENGTH[p.on_match] < _STRENGTH[a.on_match]
            or _STRENGTH[p.on_oversize] < _STRENGTH[a.on_oversize]
        ):
            out.append(f"layer {key} answers more softly on a match or an oversized body")
        if p.max_body_bytes > a.max_body_bytes:
            out.append(f"layer {key} max_body_bytes {a.max_body_bytes} -> {p.max_body_bytes}")
    return out


def _rules_changes(key: str, a: RulesLayer, p: RulesLayer) -> list[str]:
    out = []
    before = {r.id: r for r in a.rules}
    after = {r.id: r for r in p.rules}
    for rid, rule in before.items():
        if rule.effect != "allow" and after.get(rid) != rule:
            out.append(f"layer {key} rule {rid} ({rule.effect}) removed or changed")
    for rid, rule in after.items():
        if rule.effect == "allow" and before.get(rid) != rule:
            out.append(f"layer {key} rule {rid} allows something new")
    common_a = [r for r in before if r in after]
    common_p = [r for r in after if r in before]
    if common_a != common_p:
        out.append(f"layer {key} rules reordered")
    return out


def _chain_changes(level: str, a_raw: list[Any], p_raw: list[Any]) -> list[str]:
    a, p = _LAYERS.validate_python(a_raw), _LAYERS.validate_python(p_raw)
    a_keys, p_keys = _keys(a), _keys(p)
    a_by, p_by = dict(zip(a_keys, a, strict=True)), dict(zip(p_keys, p, strict=True))
    out = []
    allow_flags = _allow_flags(p)
    for k in a_keys:
        layer = a_by[k]
        if k not in p_by and not (isinstance(layer, AllowlistLayer) and layer.on_miss == "pass"):
            out.append(f"{level}: layer {k} ({layer.layer}) removed")
    for k in p_keys:
        if k not in a_by and not _restrictive(p_by[k], allow_flags):
            out.append(f"{level}: new layer {k} ({p_by[k].layer}) can answer allow")
    common_a = [k for k in a_keys if k in p_by]
    common_p = [k for k in p_keys if k in a_by]
    if common_a != common_p:
        out.append(f"{level}: layers reordered")
    for k in common_a:
        out += [f"{level}: {c}" for c in _layer_changes(k, a_by[k], p_by[k])]
    return out


def _role_changes(a: Effective, p: Effective) -> list[str]:
    out = []
    a_levels = {e["level"]: e["roles"] for e in a["roles"]}
    p_levels = {e["level"]: e["roles"] for e in p["roles"]}
    for level in sorted(set(a_levels) | set(p_levels)):
        before, after = a_levels.get(level, {}), p_levels.get(level, {})
        if before and not after:
            out.append(f"{level}: every role removed (role boundaries no longer apply)")
            continue
        for name in sorted(set(after) - set(before)):
            out.append(f"{level}: new role {name}")
        for name in sorted(set(after) & set(before)):
            ra, rp = Role.model_validate(before[name]), Role.model_validate(after[name])
            for field in ("paths", "hosts", "tools", "capabilities"):
                old, new = getattr(ra, field), getattr(rp, field)
                if (old and not new) or _added(old, new):
                    out.append(f"{level}: role {name} may reach more {field}")
            for field in ("paths", "hosts", "tools"):
                if _removed(getattr(ra.deny, field), getattr(rp.deny, field)):
                    out.append(f"{level}: role {name} denies fewer {field}")
    return out


def _window(window: RateWindow) -> str:
    return "none" if window is None else f"{window[0]} calls in {window[1]:.0f} s"


def loosenings(a: Effective, p: Effective) -> list[str]:
    """Every way `p` is looser than `a` (empty when `p` only tightens or equals `a`)."""
    out = []
    if MODE_RANK[Mode(p["mode"])] < MODE_RANK[Mode(a["mode"])]:
        out.append(f"mode {a['mode']} -> {p['mode']}")
    if a["enforcement"] == "enforce" and p["enforcement"] == "monitor":
        out.append("enforcement enforce -> monitor")
    if _DEFAULT_RANK[p["default_action"]] < _DEFAULT_RANK[a["default_action"]]:
        out.append(f"default_action {a['default_action']} -> {p['default_action']}")
    for k in ("ask", "strong", "deny"):
        if p["thresholds"][k] > a["thresholds"][k]:
            out.append(f"risk.thresholds.{k} {a['thresholds'][k]} -> {p['thresholds'][k]}")
    if p["bulk_threshold"] > a["bulk_threshold"]:
        out.append(f"risk.bulk_threshold {a['bulk_threshold']} -> {p['bulk_threshold']}")
    if ("rate" in a or "rate" in p) and rate_allows_more(rate_of(p), rate_of(a)):
        out.append(f"rate {_window(rate_of(a))} -> {_window(rate_of(p))}")
    if new := _added(a["trusted_hosts"], p["trusted_hosts"]):
        out.append(f"trusts new hosts {', '.join(new)}")
    for key in ("protected_paths", "protected_names", "sensitive_paths"):
        if gone := _removed(a[key], p[key]):
            out.append(f"{key} no longer lists {', '.join(gone)}")
    for key in ("blocked", "sensitive"):
        if gone := _removed(a["policy_sources"][key], p["policy_sources"][key]):
            out.append(f"policy_sources.{key} no longer lists {', '.join(gone)}")
    for name in sorted(set(a["tools"]) | set(p["tools"])):
        if a["tools"].get(name) != p["tools"].get(name):
            out.append(f"tool mapping for {name} changed")
    out += [f"new waiver of {w['code']} until {w['expires']}" for w in p["waivers"] if w not in a["waivers"]]
    a_chains = {e["level"]: e["layers"] for e in a["chains"]}
    p_chains = {e["level"]: e["layers"] for e in p["chains"]}
    for level in sorted(set(a_chains) | set(p_chains)):
        out += _chain_changes(level, a_chains.get(level, []), p_chains.get(level, []))
    return out + _role_changes(a, p)
