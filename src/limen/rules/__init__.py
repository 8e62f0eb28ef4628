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
from limen.facts.programs import only_inspects
from limen.model import Action, Finding, ReasonCode
from limen.normalize.tools import KNOWN_TOOLS

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
    # what the rule judges, of which at least one must be present for it to have anything to judge: `Action`
    # fields (`write_paths`, `destinations`...) and the effects `EFFECTS` names (`acting`, `served`)
    needs: tuple[str, ...] = ()


def _acting(action: Action) -> bool:
    """The line does more than read and print: it writes or sends (`find -delete`, `cat a > b`), or some
    command of it is no mere inspection (`facts.programs.only_inspects`), is reached through another (a
    wrapper, a substitution, a decoder), is named at run time or has its output redirected."""
    if not action.commands:
        return False
    if action.write_paths or action.destinations:
        return True
    for command in action.commands:
        if command.via or command.dynamic_name or command.redirects:
            return True
        if not only_inspects((command.name, *command.argv[1:])):
            return True
    return False


def _served(action: Action) -> bool:
    """The tool is none of the agents' own (a server's or a framework's): its arguments are what it does."""
    return action.tool not in KNOWN_TOOLS


# Effects a rule may name in `needs` besides the `Action` fields: derived once per decision
EFFECTS: dict[str, Callable[[Action], bool]] = {"acting": _acting, "served": _served}
_FIELDS = ("paths", "write_paths", "commands", "destinations", "payloads", "notes", "provenance", "role")


def filled_fields(action: Action) -> frozenset[str]:
    """What of `action` is there to judge: the non-empty `Action` fields rules name and the `EFFECTS` that
    hold; read once per decision (`runnable` answers for the set)."""
    filled = [field for field in _FIELDS if getattr(action, field)]
    filled += [name for name, holds in EFFECTS.items() if holds(action)]
    return frozenset(filled)


def runnable(filled: frozenset[str]) -> tuple[Rule, ...]:
    """The rules that have something to judge in an action whose `filled_fields` are `filled`, in order:
    remembered per set (a handful of sets cover nearly every call)."""
    global _runnable
    loaded = objective_rules()
    if _runnable[0] is not loaded:
        _runnable = (loaded, {})
    found = _runnable[1].get(filled)
    if found is None:
        found = _runnable[1][filled] = tuple(
            r for r in loaded if not r.needs or not filled.isdisjoint(r.needs)
        )
    return found


_runnable: tuple[tuple[Rule, ...], dict[frozenset[str], tuple[Rule, ...]]] = ((), {})


_registered: list[Rule] = []
_loaded: tuple[Rule, ...] | None = None


def rule(*codes: ReasonCode, needs: str | tuple[str, ...] = ()) -> Callable[[RuleFunction], RuleFunction]:
    """Register a built-in rule, the codes it may raise and, with `needs`, what it judges (`Action` fields
    such as `destinations`, effects such as `acting`): the engine skips it when none of them is there, which
    is most calls."""

    named = (needs,) if isinstance(needs, str) else needs
    unknown = [n for n in named if n not in _FIELDS and n not in EFFECTS]
    if unknown:  # a need nothing fills would skip the rule on every call: refused when the module loads
        raise ValueError(
            f"rule needs {unknown}: neither an Action field nor an effect ({', '.join(EFFECTS)})"
        )

    def register(check: RuleFunction) -> RuleFunction:
        _registered.append(
            Rule(
                f"{check.__module__.rsplit('.', 1)[-1]}.{check.__name__}",
                frozenset(codes),
                check,
                needs=named,
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
