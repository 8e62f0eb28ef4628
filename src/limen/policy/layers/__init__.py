"""Chain layers. Each one reads the action and the evidence so far and answers a verdict word.

A layer is built once from its schema model and then only evaluated: `evaluate(action, evidence)`
returns `(word, detail)` where word is `allow | ask | deny | pass` and detail a short redacted reason.
"""

from __future__ import annotations

from typing import Protocol

from limen.model import Action
from limen.policy.evidence import Evidence
from limen.policy.matchers import Matchers
from limen.policy.schema import AllowlistLayer, DenylistLayer, DlpLayer, Layer, RulesLayer


class ChainLayer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]: ...


def build_layer(index: int, spec: Layer, workspace: str, home: str) -> ChainLayer:
    """The evaluable layer for one schema entry."""
    from limen.policy.layers.dlp import Dlp
    from limen.policy.layers.lists import Allowlist, Denylist
    from limen.policy.layers.rules import Rules

    name = spec.name or f"{spec.layer}#{index}"
    if isinstance(spec, DenylistLayer):
        m = Matchers.compile(
            paths=spec.paths,
            commands=spec.commands,
            hosts=spec.hosts,
            tools=spec.tools,
            workspace=workspace,
            home=home,
        )
        return Denylist(name, m, spec.on_match)
    if isinstance(spec, AllowlistLayer):
        return Allowlist(
            name,
            Matchers.compile(hosts=spec.hosts, workspace=workspace, home=home),
            spec.on_match,
            spec.on_miss,
        )
    if isinstance(spec, RulesLayer):
        return Rules.compile(name, spec, workspace, home)
    assert isinstance(spec, DlpLayer)
    return Dlp.compile(name, spec)
