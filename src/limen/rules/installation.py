"""`protected_path_blocked` for Limen's own installation, by effect: an agent must not be able to switch Limen
off by rewriting, removing or replacing the code that decides, or by stopping the process that does.

Flagged (BLOCK):
- a write, delete, move or re-permission of anything in Limen's package directory, its console scripts or the
  environment (venv) it is installed in, by any tool, glob, `find` or interpreter code;
- a new or changed interpreter start-up hook in that environment's site directories (`*.pth`,
  `sitecustomize.py`, `usercustomize.py`): code there runs inside every Limen process;
- a package manager removing, reinstalling or replacing the `limen` distribution (`pip uninstall limen`,
  `uv pip install --force-reinstall limen`, `pipx uninstall limen`, `uv tool uninstall limen`);
- a signal to Limen's processes (`pkill -f limen`, `killall limen-hook`, `kill <the daemon's pid>`);
- a sweep that deletes files by name below a folder (`find ~ -name state.sqlite -delete`, `find / -name
  '*.jsonl' -exec rm {} +`) when a protected path below that folder has, or holds a file with, such a name:
  the command never names the protected path, but that is what it would delete (AUTH when the sweep only
  changes them: `-exec gzip {} +`, `-exec chmod 600 {} +`).

Quiet: reading Limen's code, installing other packages into the same environment, `pip show limen`,
`kill` of other processes, writes elsewhere, `find . -name '*.pyc' -delete` where no protected file has such
a name.
"""

from __future__ import annotations

import os
import re
import site
import sys
from collections.abc import Iterator
from fnmatch import fnmatchcase
from functools import lru_cache

from limen.context import Context
from limen.facts.programs import Role, has
from limen.launchers import recorded_set
from limen.model import Action, Command, Finding, ReasonCode, Verdict
from limen.normalize.paths import absolute, canonical
from limen.normalize.shell import LIMEN_VARIABLE
from limen.rules import rule
from limen.rules.derived import changed_operands

DISTRIBUTION = "limen"
# Limen's console scripts (pyproject's `[project.scripts]`; a test keeps the two the same): in whatever bin
# folder one lies (a venv's, `~/.local/bin` of a pipx or uv tool install), it is what the agents' hooks run.
CONSOLE_SCRIPTS = frozenset({"limen", "limen-hook"})
STARTUP_NAMES = frozenset({"sitecustomize.py", "usercustomize.py"})
# Package-manager words that remove or replace an installed distribution.
_REPLACING = frozenset(
    {"uninstall", "remove", "rm", "install", "add", "upgrade", "reinstall", "sync", "inject", "tool"}
)


@lru_cache(maxsize=1)
def installation_roots() -> tuple[str, ...]:
    """Limen's package directory, and the environment it runs in when that is a virtual environment (a
    system interpreter's prefix is left to the system rules): as written and resolved."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = {package, os.path.realpath(package)}
    if sys.prefix != sys.base_prefix:
        roots |= {sys.prefix, os.path.realpath(sys.prefix)}
    return tuple(sorted(r.rstrip("/") for r in roots))


@lru_cache(maxsize=1)
def site_dirs() -> frozenset[str]:
    """The site directories of the interpreter Limen runs on, where start-up hooks live."""
    dirs = set(site.getsitepackages())
    user = site.getusersitepackages()
    if isinstance(user, str):
        dirs.add(user)
    return frozenset({d.rstrip("/") for d in dirs} | {os.path.realpath(d) for d in dirs})


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root + "/") for root in roots)


def _is_console_script(path: str) -> bool:
    parent, _, name = path.rpartition("/")
    return name in CONSOLE_SCRIPTS and parent.endswith("/bin")


def _looked_up_scripts(action: Action) -> frozenset[str]:
    """Limen's console scripts that a substitution of the line looks up (`$(which limen-hook)`): the line
    changes the program it finds when a changer is given the substitution's output."""
    found = {
        word
        for command in action.commands
        if has(command.name, Role.LOCATES_PROGRAM) and "$()" in command.via
        for word in command.argv[1:]
        if word in CONSOLE_SCRIPTS
    }
    return frozenset(found)


def _is_startup_hook(path: str) -> bool:
    name = os.path.basename(path)
    return (name.endswith(".pth") or name in STARTUP_NAMES) and os.path.dirname(path) in site_dirs()


def _changed_paths(action: Action, ctx: Context) -> Iterator[str]:
    """What the action writes, deletes, moves or re-permissions (of a copy, only where it goes)."""
    yield from action.write_paths
    for command in action.commands:
        for word in changed_operands(command, metadata=True):
            yield absolute(word, action.cwd or ctx.workspace, ctx.home)


# Files below a protected folder looked at to match a sweep's name pattern (Limen's home holds a few dozen).
SWEEP_LISTING = 2000
_SWEEP_TTL = 2.0
_listings: dict[str, tuple[float, tuple[str, ...]]] = {}


def _names_below(directory: str) -> tuple[str, ...]:
    """The names of the entries below `directory` (bounded; cached a moment, since one line may sweep
    several patterns). A folder too large to list counts as holding every name (`*`)."""
    import time

    now = time.monotonic()
    hit = _listings.get(directory)
    if hit is not None and hit[0] > now:
        return hit[1]
    names: list[str] = []
    for _, dirs, files in os.walk(directory):
        names.extend(dirs)
        names.extend(files)
        if len(names) > SWEEP_LISTING:
            names = ["*"]
            break
    if len(_listings) > 64:
        _listings.clear()
    _listings[directory] = (now + _SWEEP_TTL, tuple(names))
    return _listings[directory][1]


def _swept(action: Action, ctx: Context) -> tuple[str, bool]:
    """A protected path a `sweep-delete:` or `sweep-change:` `ROOT/**/NAME` note of the action would
    reach, and whether it deletes; ("", False) when none does."""
    for note in action.notes:
        kind, _, spec = note.partition(":")
        if kind not in ("sweep-delete", "sweep-change") or "/**/" not in spec:
            continue
        deletes = kind == "sweep-delete"
        root, pattern = spec.rsplit("/**/", 1)
        root = root.rstrip("/") or "/"
        prefix = root if root.endswith("/") else root + "/"
        for protected in ctx.protected_paths:  # the control plane: small folders, listed in full
            if not (protected == root or protected.startswith(prefix)):
                continue
            if fnmatchcase(os.path.basename(protected), pattern):
                return protected, deletes
            if os.path.isdir(protected) and any(
                name == "*" or fnmatchcase(name, pattern) for name in _names_below(protected)
            ):
                return protected, deletes
    return "", False


def _installer_words(command: Command) -> list[str]:
    """The words after a package manager's name: `pip ...`, or `python3 -m pip ...`; [] for anything else."""
    argv = list(command.argv)
    if has(command.name, Role.INTERPRETER) and "-m" in argv[:-1]:
        argv = argv[argv.index("-m") + 1 :]
    name = os.path.basename(argv[0]) if argv else ""
    return [w.lower() for w in argv[1:]] if has(name, Role.PACKAGE_INSTALLER) else []


def _replaces_limen(command: Command, cwd: str) -> bool:
    """`pip uninstall limen`, `pip install -e /tmp/not-limen` where that folder's project is named limen:
    whatever the installer puts in Limen's place runs as the agents' hooks."""
    words = _installer_words(command)
    if not any(w in _REPLACING for w in words):
        return False
    home = os.path.expanduser("~")
    return any(
        w.split("[")[0].split("=")[0].split("<")[0].split(">")[0] == DISTRIBUTION
        or _archive_name(w) == DISTRIBUTION
        or (_local_project(w) and _project_name(canonical(w, cwd, home)) == DISTRIBUTION)
        for w in words
    )


# A built distribution's file name starts with the project's name (`limen-0.9.0-py3-none-any.whl`,
# `limen-0.9.0.tar.gz`), wherever it lies or is served from
_ARCHIVE = re.compile(r"(?:^|/)([A-Za-z0-9._]+?)-\d[^/]*\.(?:whl|tar\.gz|tgz|zip|tar\.bz2)$")


def _archive_name(word: str) -> str:
    found = _ARCHIVE.search(word.split("#", 1)[0].split("?", 1)[0])
    return found.group(1).lower().replace("_", "-") if found else ""


def _local_project(word: str) -> bool:
    """An installer's operand that names a folder, as pip reads one (`.`, `./x`, `vendor/x`, `/tmp/x`)."""
    return "://" not in word and not word.startswith("-") and (word.startswith((".", "~")) or "/" in word)


_PROJECT_NAME = re.compile(r"""^\s*name\s*=\s*["']?([A-Za-z0-9._-]+)""", re.MULTILINE)


def _project_name(folder: str) -> str:
    """The distribution a local project folder builds (its pyproject.toml's or setup.cfg's `name`), or ""."""
    for manifest in ("pyproject.toml", "setup.cfg"):
        try:
            with open(os.path.join(folder, manifest), encoding="utf-8", errors="replace") as handle:
                found = _PROJECT_NAME.search(handle.read(65536))
        except OSError:
            continue
        if found:
            return found.group(1).lower().replace("_", "-")
    return ""


def _daemon_pid() -> str:
    """The running daemon's pid from its lock file (the same file `limen daemon status` reads)."""
    from limen.doors.hooks.wire import run_dir

    try:
        with open(os.path.join(run_dir(), "daemon.lock")) as fh:
            return fh.read(32).strip()
    except OSError:
        return ""


def _matches_limen(pattern: str) -> bool:
    """Whether a process-name pattern (`[l]imen`, `lim.n-hook`) matches Limen's processes."""
    if len(pattern) > 200:
        return False
    try:  # and only them: a pattern matching any process (`' '`, `.`) picks nothing out
        return re.search(pattern, "limen-hook limen daemon", re.IGNORECASE) is not None and not re.search(
            pattern, "/usr/bin/python3 node nginx sshd bash 1234 ?", re.IGNORECASE
        )
    except re.error:
        return "limen" in pattern.lower()


def _finds_processes(name: str) -> bool:
    """A program whose operand is a pattern its output matches: `pgrep PATTERN`, or `grep PATTERN` over `ps`
    output. A kill given that output signals the processes the pattern matches."""
    return has(name, Role.FINDS_PROCESSES) or has(name, Role.SCRIPT_FIRST)


# Builtins and programs that set or unset a variable for the shell or what it starts
_SETS_VARIABLES = frozenset({"export", "declare", "typeset", "readonly", "local", "unset", "env", "setenv"})


def _pattern_word(word: str) -> str:
    """The pattern in a finder's word: awk's `/PATTERN/ {...}`, or the word itself."""
    match = re.match(r"\s*/((?:[^/\\]|\\.)+)/", word)
    return match.group(1) if match else word


def _signals_limen(command: Command, action: Action) -> bool:
    if not has(command.name, Role.PROCESS_KILLER):
        return False
    operands = [w for w in command.argv[1:] if not w.startswith("-")]
    if any("limen" in w.lower() for w in operands):
        return True  # pkill -f limen, killall limen-hook
    # what feeds the kill its pids: `ps ... | awk '/limen/ {print $1}' | xargs kill`
    fed = {s for v in command.via if v.startswith("stdin:") for s in v[len("stdin:") :].split(",")}
    if fed or any("$(" in w or "`" in w for w in operands):  # `kill $(ps aux | grep '[l]imen' | awk ...)`
        finders = (
            c for c in action.commands if c is not command and (_finds_processes(c.name) or c.name in fed)
        )
        words = (w for c in finders for w in c.argv[1:] if not w.startswith("-"))
        if any(_matches_limen(_pattern_word(w)) for w in words):
            return True
    pid = _daemon_pid() if command.name == "kill" else ""
    return bool(pid) and pid in operands


@rule(ReasonCode.PROTECTED_PATH_BLOCKED, needs=("acting", "write_paths", "notes"))
def installation(action: Action, ctx: Context) -> Iterator[Finding]:
    """Limen's installation changed by effect, whatever the command names: its package files, console
    scripts, virtual environment and agents' `--confined` launchers, the interpreter's start-up hooks
    (`.pth`, `sitecustomize`, `usercustomize`), `pip uninstall limen`, a `find` sweep by name that reaches
    them, or its daemon signalled: BLOCK. Quiet: reading them, and installing or removing other packages
    in other environments."""
    roots = installation_roots()
    launchers: frozenset[str] | None = None  # read only when the action changes a path
    for path in _changed_paths(action, ctx):
        if launchers is None:
            launchers = recorded_set()
        if _inside(path, roots) or _is_startup_hook(path) or _is_console_script(path) or path in launchers:
            detail = f"Limen's installation {path}"
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
            return
    swept, deletes = _swept(action, ctx) if action.notes else ("", False)
    if swept:  # a delete is BLOCK; a change (gzip, chmod, sed -i) of a protected file asks
        verb = "deletes" if deletes else "changes"
        detail = f"a sweep by name {verb} files in {swept}"
        if deletes:
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
        else:
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.AUTH, 70, detail)
        return
    if any(n.startswith("limen_module:") for n in action.notes) and any(
        ("$(" in p or "`" in p) and "limen" in p for p in _changed_paths(action, ctx)
    ):  # `sed -i ... $(python3 -c 'import limen, os; print(os.path.dirname(limen.__file__))')/model.py`
        detail = "changes a path computed from where Limen is installed"
        yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
        return
    changed = next(
        (n[len(LIMEN_VARIABLE) :] for n in action.notes if n.startswith(LIMEN_VARIABLE)), ""
    ) or next(
        (
            w.split("=", 1)[0]
            for c in action.commands
            if c.name in _SETS_VARIABLES
            for w in c.argv[1:]
            if w.startswith("LIMEN_")
        ),
        "",
    )
    if changed:  # `LIMEN_HOME=/dev/null claude -p ...`: what it starts runs with Limen elsewhere, or none
        detail = f"Limen's own setting {changed} changed for what the shell starts"
        yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
        return
    looked_up = _looked_up_scripts(action)
    if looked_up and looked_up & {os.path.basename(p) for p in action.write_paths}:
        # `printf ... > $(command -v limen-hook)`: the program found is written over
        detail = "a redirect writes over Limen's program"
        yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
        return
    for command in action.commands:
        if command.name == "alias" and any(w.split("=", 1)[0] in CONSOLE_SCRIPTS for w in command.argv[1:]):
            detail = "an alias takes the name of Limen's program"  # `alias limen=true`
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
            return
        if looked_up and looked_up & {os.path.basename(w) for w in changed_operands(command, metadata=True)}:
            detail = f"`{command.name}` changes Limen's program"
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
            return
        if _replaces_limen(command, action.cwd or ctx.workspace):
            yield Finding(
                ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, f"`{command.name}` replaces Limen"
            )
            return
        if _signals_limen(command, action):
            yield Finding(
                ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, f"`{command.name}` signals Limen"
            )
            return
