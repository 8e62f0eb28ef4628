"""The command lines a project's task runner runs for a task, read from the project's own files.

`npm test` runs `scripts.test` of the `package.json` in its folder (with `pretest` and `posttest`), `npm ci`
the project's install hooks, `make build` the recipe of `build` and of the targets it depends on, `just
deploy` the recipe of `deploy`. A task file the session did not write (a checkout, a cloned repository, a
file written outside Limen's sight) runs all the same, so the shell normaliser reads what the task runs
and analyses it as the lines it is. Nothing here runs anything: the files are read, bounded, and parsed.
"""

from __future__ import annotations

import json
import os
import re

MAX_TASK_FILE = 256 * 1024  # bytes of a task file that are read; past it the task is not known
MAX_DEPTH = 4  # make targets followed through their prerequisites

_NPM_ALIASES = {"t": "test", "tst": "test"}
_NPM_SCRIPT_COMMANDS = frozenset({"test", "start", "stop", "restart"})
_NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
_INSTALLS = frozenset({"install", "i", "ci", "isntall"})
_LIFECYCLE = ("preinstall", "install", "postinstall", "prepare")
# yarn and pnpm run a script named as their first word unless the word is one of their own commands
_OWN_COMMANDS = frozenset(
    {
        *("add", "audit", "bin", "cache", "config", "create", "dedupe", "dlx", "exec", "global", "import"),
        *(
            "info",
            "init",
            "install",
            "link",
            "list",
            "ls",
            "outdated",
            "pack",
            "publish",
            "rebuild",
            "remove",
        ),
        *("rm", "unlink", "update", "up", "upgrade", "version", "why", "workspace", "workspaces", "store"),
        *("setup", "env", "fetch", "patch", "login", "logout", "node", "prune", "licenses", "help"),
    }
)


class TaskUnknown(Exception):
    """The task file exists but cannot be read or understood: what the task runs is not known."""


def _read(path: str) -> str | None:
    from limen.normalize.paths import read_regular

    if not os.path.lexists(path):
        return None
    data = read_regular(path, MAX_TASK_FILE + 1)  # never a FIFO or a device: reading one could block
    if data is None:
        raise TaskUnknown(f"{os.path.basename(path)} cannot be read as a file")
    if len(data) > MAX_TASK_FILE:
        raise TaskUnknown(f"{os.path.basename(path)} is too large to read")
    return data.decode("utf-8", "replace")


def _scripts(cwd: str) -> dict[str, str] | None:
    text = _read(os.path.join(cwd, "package.json"))
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        raise TaskUnknown("package.json does not parse") from None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if scripts is None:
        return {}
    if not isinstance(scripts, dict):
        raise TaskUnknown("package.json scripts is not an object")
    return {str(k): v for k, v in scripts.items() if isinstance(v, str)}


def package_scripts(runner: str, words: list[str], cwd: str) -> list[str]:
    """The script lines `npm|pnpm|yarn|bun WORDS` runs in `cwd` (words without options)."""
    if not words:
        return _lifecycle(cwd) if runner in ("yarn", "pnpm", "bun") else []
    first = _NPM_ALIASES.get(words[0], words[0])
    if first in _INSTALLS:
        return _lifecycle(cwd) if len(words) == 1 else []  # `npm ci`; `npm i lodash` runs lodash's own
    if first in _NPM_RUN:
        name = words[1] if len(words) > 1 else ""
    elif first in _NPM_SCRIPT_COMMANDS or (runner in ("yarn", "pnpm") and first not in _OWN_COMMANDS):
        name = first
    else:
        return []
    scripts = _scripts(cwd) or {}
    return [scripts[n] for n in (f"pre{name}", name, f"post{name}") if name and n in scripts]


def _lifecycle(cwd: str) -> list[str]:
    scripts = _scripts(cwd) or {}
    return [scripts[n] for n in _LIFECYCLE if n in scripts]


def _first_file(cwd: str, names: tuple[str, ...]) -> str | None:
    """The text of the first of `names` in `cwd` that exists (a runner reads the first it finds)."""
    for name in names:
        text = _read(os.path.join(cwd, name))
        if text is not None:
            return text
    return None


def _in_run_order(goals: list[str], rules: dict[str, tuple[list[str], list[list[str]]]]) -> list[str]:
    """The lines the goals run: each rule's prerequisites first (depth-bounded, each rule once), then its
    bodies, as make and just run them."""
    lines: list[str] = []
    seen: set[str] = set()

    def visit(name: str, depth: int) -> None:
        if name in seen or depth > MAX_DEPTH or name not in rules:
            return
        seen.add(name)
        prerequisites, bodies = rules[name]
        for prerequisite in prerequisites:
            visit(prerequisite, depth + 1)
        for body in bodies:
            lines.extend(body)

    for goal in goals:
        visit(goal, 0)
    return lines


_RULE = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?!=)\s*(.*)$")


def make_recipes(words: list[str], cwd: str, makefile: str | None = None) -> list[str]:
    """The recipe lines `make WORDS` runs: the named targets (else the first) and their prerequisites."""
    text = _first_file(cwd, (makefile,) if makefile else ("GNUmakefile", "makefile", "Makefile"))
    if text is None:
        return []
    rules: dict[str, tuple[list[str], list[list[str]]]] = {}  # target: prerequisites, recipes of its rules
    order: list[str] = []
    current: list[str] | None = None
    for line in text.replace("\\\n", " ").splitlines():
        if line.startswith("\t"):
            if current is not None:
                current.append(line.lstrip("\t").lstrip("@-+ "))
            continue
        current = None
        match = _RULE.match(line)
        if match is None:  # an assignment, a comment, a directive
            continue
        targets, rest = match.group(1).split(), match.group(2)
        prerequisites = rest.split(";", 1)[0].split()
        current = [rest.split(";", 1)[1].strip()] if ";" in rest else []
        for target in targets:
            known, recipes = rules.setdefault(target, ([], []))
            known.extend(prerequisites)
            recipes.append(current)
            if not target.startswith(".") and "%" not in target:
                order.append(target)
    variables = _make_variables(text)
    lines = _in_run_order([w for w in words if "=" not in w] or order[:1], rules)
    shells = [m.group(1) for m in _MAKE_SHELL.finditer(text)]  # `$(shell CMD)` runs as make reads the file
    return [e for e in (_make_expand(line, variables) for line in [*shells, *lines]) if e.strip()]


_ASSIGNMENT = re.compile(r"^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|\+=|!=|=)\s*(.*)$")
_MAKE_SHELL = re.compile(r"\$[({]shell\s+([^)}]*)[)}]")
_MAKE_REFERENCE = re.compile(r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|([@<^?*%+|]))")
MAKE_VALUE = "make-value"  # what a reference Limen does not expand stands for: one plain word


def _make_variables(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _ASSIGNMENT.match(line)
        if match is not None and not line.startswith("\t"):
            found.setdefault(match.group(1), match.group(2).strip())
    return found


def _make_expand(line: str, variables: dict[str, str], depth: int = 0) -> str:
    """A recipe line as the shell receives it: `$$` is `$`, `$(VAR)` the variable's value (expanded again,
    boundedly), automatic variables and functions one plain word."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or ""
        if name in variables and depth < MAX_DEPTH:
            return _make_expand(variables[name], variables, depth + 1)
        return MAKE_VALUE

    return _MAKE_REFERENCE.sub(value, line.replace("$$", "\0")).replace("\0", "$")


_JUST_RECIPE = re.compile(r"^@?([A-Za-z_][\w-]*)(?:\s+[^:=]*)?:(?!=)\s*(.*)$")


def just_recipes(words: list[str], cwd: str) -> list[str]:
    """The recipe lines `just WORDS` runs: the named recipe (else the first) and the recipes it depends on."""
    text = _first_file(cwd, ("justfile", "Justfile", ".justfile"))
    if text is None:
        return []
    recipes: dict[str, tuple[list[str], list[list[str]]]] = {}
    order: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line[:1] in (" ", "\t") and current is not None:
            current.append(line.strip().lstrip("@-"))
            continue
        match = _JUST_RECIPE.match(line)
        current = None
        if match is None:
            continue
        body: list[str] = []
        recipes.setdefault(match.group(1), ([d for d in match.group(2).split() if d.isidentifier()], [body]))
        order.append(match.group(1))
        current = body
    goal = words[0] if words and words[0] in recipes else (order[0] if order and not words else "")
    lines = _in_run_order([goal] if goal else [], recipes)
    return [re.sub(r"\{\{[^}]*\}\}", MAKE_VALUE, line) for line in lines if line and not line.startswith("#")]
