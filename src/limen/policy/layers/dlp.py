"""`dlp`: credentials and personal data in what an outbound action carries, and oversized bodies.

Detection is delegated to the objective rules' scanners (`limen.rules.secrets.find_secrets`,
`limen.rules.data_classes`) so the chain and the rules agree on what a credential is; a policy may add
its own named patterns. Only the kind of what matched reaches the evidence, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.schema import DlpLayer

Scanner = Callable[[str], Iterable[object]]


def _label(item: object, default: str) -> str:
    """A finding's kind, never its matched text."""
    for attr in ("kind", "label", "name", "rule", "code"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value.isidentifier():
            return value
    return default


def _scanner(module: str, names: tuple[str, ...]) -> Scanner | None:
    import importlib

    mod = importlib.import_module(module)
    for name in names:
        found = getattr(mod, name, None)
        if callable(found):
            return found  # type: ignore[no-any-return]
    return None


@dataclass(slots=True, frozen=True)
class Dlp:
    name: str
    scanners: tuple[tuple[str, Scanner | None], ...]  # (flag, scanner); None = detector unavailable
    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    on_match: str
    max_body_bytes: int
    on_oversize: str
    kind: str = "dlp"

    @classmethod
    def compile(cls, name: str, spec: DlpLayer) -> Dlp:
        scanners: list[tuple[str, Scanner | None]] = []
        if "credentials" in spec.detect:
            scanners.append(("credentials", _scanner("limen.rules.secrets", ("find_secrets",))))
        if "pii" in spec.detect:
            scanners.append(("pii", _scanner("limen.rules.data_classes", ("find_data_classes", "find_pii"))))
        patterns = tuple((p.name, re.compile(p.regex)) for p in spec.patterns)
        return cls(name, tuple(scanners), patterns, spec.on_match, spec.max_body_bytes, spec.on_oversize)

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        if not action.outbound or not action.payloads:
            return "pass", ""
        size = sum(len(p.encode("utf-8", "surrogatepass")) for p in action.payloads)
        if size > self.max_body_bytes:
            evidence.add(self.name, f"payload of {size} bytes exceeds max_body_bytes {self.max_body_bytes}")
            if self.on_oversize != "pass":
                return self.on_oversize, f"payload larger than {self.max_body_bytes} bytes"
            return "pass", ""
        found = self._scan(action.payloads)
        if not found:
            return "pass", ""
        for flag, kind in found:
            evidence.add(self.name, f"{flag}: {kind} in outgoing payload")
            evidence.flag(self.name, flag)
        if self.on_match == "annotate":
            return "pass", ""
        return self.on_match, "outgoing payload carries " + ", ".join(sorted({k for _, k in found}))

    def _scan(self, payloads: tuple[str, ...]) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for text in payloads:
            for flag, scan in self.scanners:
                if scan is None:
                    found.append((flag, "detector_unavailable"))
                    continue
                found.extend((flag, _label(item, flag)) for item in scan(text))
            found.extend(("pattern", name) for name, rx in self.patterns if rx.search(text))
        return list(dict.fromkeys(found))
