"""Objective rule: look-alike packages.

`lookalike_package` (AUTH): an installer or a package runner (`pip install`, `uv add`, `npm i`, `npx`,
`uvx`) given a package whose name is a near miss of a package every project uses (`facts.packages`): one
edit, or two for long names, a swap of neighbours counting as one. The installer's registry and the
sub-commands after which its operands are packages are the program table's (`registry`, `installs`,
`runs_package`); the names come from `facts.packages`, and the comparison is `facts.hosts.imitates`. A
tool that installs from a registry its server or name names (`mcp__pypi__install_package`) is one too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from limen.context import Context
from limen.facts.packages import REGISTRY_WORDS, imitated, known_malicious, package_name
from limen.facts.programs import Program, program
from limen.model import Action, Command, Finding, ReasonCode, Verdict
from limen.rules import rule


@rule(ReasonCode.LOOKALIKE_PACKAGE, needs=("commands", "capability"))
def lookalike_package(action: Action, ctx: Context) -> Iterator[Finding]:
    """A package installed or run whose name imitates a popular one (`pip install reqeusts`, `npm i
    lodahs`, `npx create-react-ap`, `go get github.com/gorrila/mux`, `cargo add rustdecimal`): AUTH,
    since its install code runs at once; a release known to carry a payload (`event-stream@3.3.6`,
    `torchtriton`): BLOCK. Quiet: the popular names themselves, names like none of them, other versions of
    a hijacked package, local paths and URLs (other rules judge those)."""
    if not action.commands and not action.tool.startswith("mcp__"):
        return
    found = [
        (entry.registry, command.name, spec)
        for command, entry in _installers(action)
        for spec in _packages(entry, command)
    ]
    found += [(registry, action.tool, spec) for registry, spec in _tool_packages(action)]
    for registry, by, spec in found:
        name = package_name(registry, spec)
        if known_malicious(registry, spec):
            detail = f"{by} installs {name!r}, a release known to carry a payload"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.BLOCK, 90, detail)
            return
        original = imitated(registry, name)
        if original:
            detail = f"{by} installs {name!r}, a near miss of {original!r}"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, detail)
            return


def _installers(action: Action) -> Iterator[tuple[Command, Program]]:
    for command in action.commands:
        entry = program(command.name)
        if entry is not None and entry.registry:
            yield command, entry


_INSTALL_WORDS = re.compile(r"(?:^|_|-)(?:install|add|run|pull|require)(?:$|_|-)")
_PACKAGE_KEYS = ("name", "package", "packages", "package_name", "pkg", "module", "image", "crate", "gem")


def _tool_packages(action: Action) -> Iterator[tuple[str, str]]:
    """`mcp__pypi__install_package(name="reqeusts")`: a tool whose server or name names a registry
    (`facts.packages.REGISTRY_WORDS`) and whose name installs, given packages by name."""
    if not action.tool.startswith("mcp__"):
        return
    _, _, rest = action.tool.partition("__")
    server, _, tool = rest.partition("__")
    words = re.split(r"[_\-.]", f"{server}_{tool}".lower())
    registry = next((REGISTRY_WORDS[w] for w in words if w in REGISTRY_WORDS), "")
    if not registry or not _INSTALL_WORDS.search(tool.lower()):
        return
    for key in _PACKAGE_KEYS:
        value = action.arguments.get(key)
        for spec in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(spec, str):
                yield registry, spec


def _packages(entry: Program, command: Command) -> list[str]:
    """The operands a command installs (every one after an `installs` sub-command) or fetches and runs (the
    first after a `runs_package` one), option values aside."""
    words: list[str] = []
    skip = False
    for word in command.argv[1:]:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in entry.options
        else:
            words.append(word)
    for verbs, every in ((entry.installs, True), (entry.runs_package, False)):
        for verb in verbs:
            parts = verb.split()
            if words[: len(parts)] == parts:
                rest = words[len(parts) :]
                return rest if every else rest[:1]
    return []
