"""Objective rules: deterministic, pure functions of the `Action` that return findings.

A rule declares the reason codes it can raise (as Bandit plug-ins do), so the catalogue, `limen explain`
and `config check` can reason about rules without running them. Third-party rules are discovered through
the `limen.rules` entry-point group; a plug-in that crashes yields BLOCK, never a skipped rule.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from limen.context import Context
from limen.model import Action, Finding, ReasonCode

RuleFunction = Callable[[Action, Context], Iterable[Finding]]

# Built-in rule modules, imported once on first use; order is only the order of the evidence trail.
BUILTIN_MODULES = (
    "limen.rules.paths",
    "limen.rules.installation",
    "limen.rules.packages",
    "limen.rules.commands",
    "limen.rules.destinations",
    "limen.rules.secrets",
    "limen.rules.data_classes",
    "limen.rules.token_channels",
    "limen.rules.rate",
    "limen.rules.roles",
)


@dataclass(slots=True, frozen=True)
class Rule:
    name: str
    codes: frozenset[ReasonCode]
    check: RuleFunction
    plugin: bool = False
    # `Action` fields of which at least one must be non-empty for the rule to have anything to judge
    needs: tuple[str, ...] = ()

    def applies(self, action: Action) -> bool:
        """False when every field the rule reads is empty: most calls skip most rules without a call."""
        if not self.needs:
            return True
        return any(getattr(action, field) for field in self.needs)


def filled_fields(action: Action, rules: tuple[Rule, ...]) -> frozenset[str]:
    """The fields some rule `needs` that are non-empty in `action`: read once per decision, so that each
    rule's `applies` is a set test (`Rule.applies(action)` == `not needs or not needs.isdisjoint(filled)`)."""
    return frozenset([field for field in _needed_fields(rules) if getattr(action, field)])


_needed: tuple[tuple[Rule, ...], tuple[str, ...]] | None = None


def _needed_fields(rules: tuple[Rule, ...]) -> tuple[str, ...]:
    global _needed
    if _needed is None or _needed[0] is not rules:
        _needed = (rules, tuple(dict.fromkeys(field for r in rules for field in r.needs)))
    return _needed[1]


_registered: list[Rule] = []
_loaded: tuple[Rule, ...] | None = None


def rule(*codes: ReasonCode, needs: str | tuple[str, ...] = ()) -> Callable[[RuleFunction], RuleFunction]:
    """Register a built-in rule, the codes it may raise and, with `needs`, the `Action` fields it reads
    (`commands`, `destinations`...): the engine skips it when all of them are empty, which is most calls."""

    def register(check: RuleFunction) -> RuleFunction:
        _registered.append(
            Rule(
                f"{check.__module__.rsplit('.', 1)[-1]}.{check.__name__}",
                frozenset(codes),
                check,
                needs=(needs,) if isinstance(needs, str) else needs,
            )
        )
        return check

    return register


def _entry_points(group: str) -> list[tuple[str, str]]:
    """`(name, "module:attr")` pairs declared for `group` by installed distributions.

    `importlib.metadata.entry_points()` parses every distribution's metadata (about 50 ms here), which a
    hook process would pay on every call; reading only the `entry_points.txt` files costs under 1 ms.
    """
    import configparser
    import sys

    found: list[tuple[str, str]] = []
    cwd = os.getcwd()
    for directory in sys.path:
        if not directory or os.path.abspath(directory) == cwd:
            continue  # the agent's working directory is the agent's to write: never a source of plug-ins
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            if f"[{group}]" not in text:
                continue
            parser = configparser.ConfigParser(delimiters=("=",))
            parser.optionxform = str  # type: ignore[assignment,method-assign]
            parser.read_string(text)
            found.extend(parser.items(group))
    return found


def _plugin_rules() -> list[Rule]:
    from importlib.metadata import EntryPoint

    plugins = []
    for name, value in _entry_points("limen.rules"):
        loaded = EntryPoint(name=name, value=value.strip(), group="limen.rules").load()
        plugins.append(Rule(f"plugin:{name}", frozenset(getattr(loaded, "codes", ())), loaded, plugin=True))
    return plugins


def objective_rules() -> tuple[Rule, ...]:
    """All rules, built-in then plug-ins. Import failures propagate: the engine turns them into BLOCK."""
    global _loaded
    if _loaded is None:
        for module in BUILTIN_MODULES:
            importlib.import_module(module)
        # Registration follows import order, which whoever imported a rule module first decided: the table's
        # order (then each module's own) makes the evidence trail and the catalogue the same in every process.
        built_in = sorted(
            _registered,
            key=lambda r: (
                BUILTIN_MODULES.index(r.check.__module__) if r.check.__module__ in BUILTIN_MODULES else 99,
                r.check.__code__.co_firstlineno,
            ),
        )
        _loaded = (*built_in, *_plugin_rules())
    return _loaded
