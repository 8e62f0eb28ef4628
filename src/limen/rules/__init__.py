"""Objective rules: deterministic, pure functions of the `Action` that return findings.

A rule declares the reason codes it can raise (as Bandit plug-ins do), so the catalogue, `limen explain`
and `config check` can reason about rules without running them. Third-party rules are discovered through
the `limen.rules` entry-point group; a plug-in that crashes yields BLOCK, never a skipped rule.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from limen.context import Context
from limen.model import Action, Finding, ReasonCode

RuleFunction = Callable[[Action, Context], Iterable[Finding]]

# Built-in rule modules, imported once on first use; order is only the order of the evidence trail.
BUILTIN_MODULES = (
    "limen.rules.paths",
    "limen.rules.commands",
    "limen.rules.destinations",
    "limen.rules.secrets",
    "limen.rules.data_classes",
    "limen.rules.token_channels",
)


@dataclass(slots=True, frozen=True)
class Rule:
    name: str
    codes: frozenset[ReasonCode]
    check: RuleFunction
    plugin: bool = False


_registered: list[Rule] = []
_loaded: tuple[Rule, ...] | None = None


def rule(*codes: ReasonCode) -> Callable[[RuleFunction], RuleFunction]:
    """Register a built-in rule and the codes it may raise."""

    def register(check: RuleFunction) -> RuleFunction:
        _registered.append(
            Rule(f"{check.__module__.rsplit('.', 1)[-1]}.{check.__name__}", frozenset(codes), check)
        )
        return check

    return register


def _plugin_rules() -> list[Rule]:
    from importlib.metadata import entry_points

    plugins = []
    for entry in entry_points(group="limen.rules"):
        loaded = entry.load()
        codes = frozenset(getattr(loaded, "codes", ()))
        plugins.append(Rule(f"plugin:{entry.name}", codes, loaded, plugin=True))
    return plugins


def objective_rules() -> tuple[Rule, ...]:
    """All rules, built-in then plug-ins. Import failures propagate: the engine turns them into BLOCK."""
    global _loaded
    if _loaded is None:
        for module in BUILTIN_MODULES:
            importlib.import_module(module)
        _loaded = (*_registered, *_plugin_rules())
    return _loaded
