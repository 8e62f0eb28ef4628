"""`dlp`: credentials and personal data in what an outbound action carries, and oversized bodies.

Detection is delegated to the objective rules' scanners (`limen.rules.secrets.find_secrets`,
`limen.rules.data_classes.data_classes_in`) so the chain and the rules agree on what a credential is; a
policy may add its own named patterns. Only the kind of what matched reaches the evidence, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.schema import DlpLayer

Scanner = Callable[[str], list[str]]  # text -> the kinds found in it, never the values


def _credentials(text: str) -> list[str]:
    """Known credential shapes, also base64/hex-decoded; the weak entropy hint is left to the rules."""
    from limen.rules.secrets import find_secrets

    return [hit.kind for hit in find_secrets(text, weak=False)]


def _pii(text: str) -> list[str]:
    """Checksum-valid card numbers, IBANs and SSNs."""
    from limen.rules.data_classes import data_classes_in

    return data_classes_in(text)


_SCANNERS: dict[str, Scanner] = {"credentials": _credentials, "pii": _pii}


@dataclass(slots=True, frozen=True)
class Dlp:
    name: str
    scanners: tuple[tuple[str, Scanner], ...]  # (flag raised, scanner)
    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    on_match: str
    max_body_bytes: int
    on_oversize: str
    kind: str = "dlp"

    @classmethod
    def compile(cls, name: str, spec: DlpLayer) -> Dlp:
        scanners = tuple((name, _SCANNERS[name]) for name in spec.detect)
        patterns = tuple((p.name, re.compile(p.regex)) for p in spec.patterns)
        return cls(name, scanners, patterns, spec.on_match, spec.max_body_bytes, spec.on_oversize)

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
                found.extend((flag, kind) for kind in scan(text))
            found.extend(("pattern", name) for name, rx in self.patterns if rx.search(text))
        return list(dict.fromkeys(found))
