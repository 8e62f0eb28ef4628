"""Launchers that start a coding agent confined: `limen install <agent> --confined`.

A launcher is a small script with the agent program's own name (`claude`, `gemini`, `codex`,
`cursor-agent`) in a folder that comes before the real program on `PATH` (default `~/.local/bin`). It runs
`limen run --guard-agent-dir --guard-project --agent <agent> -- <real program> "$@"`, so typing the agent's
name starts it under Landlock with the decision daemon outside (docs/confinement.md). The guards keep the
agent usable: the kernel still refuses Limen's code, home and keys, and the agent's hook wiring is put back
from outside whenever it changes.

Written through the install ledger (`limen.install_ledger`), so `limen uninstall <agent> --confined` gives
back whatever file stood there before. Every launcher written is listed in `LIMEN_HOME/install/
launchers.json`, which `limen.confine` and the installation rule read: a launcher is part of Limen's
installation, and rewriting it to drop the confinement is refused like rewriting Limen's code.
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass, field

from limen.home import limen_home

MARK = "# limen-launcher"
OWNER = "launcher"


def programs() -> dict[str, str]:
    """agent -> the program name its launcher takes (the confinement's own table, read the other way)."""
    from limen.confine import COMMAND_AGENTS

    return {agent: name for name, agent in COMMAND_AGENTS.items()}


def default_bin_dir(home: str | None = None) -> str:
    return os.path.join(home or os.path.expanduser("~"), ".local", "bin")


def _index_path() -> str:
    return os.path.join(limen_home(), "install", "launchers.json")


def recorded() -> list[str]:
    """Every launcher path written and not yet removed (empty when there is none or the index is unreadable:
    the launchers then lose only this extra protection, never the confinement they start)."""
    try:
        with open(_index_path(), encoding="utf-8") as handle:
            paths = json.load(handle)
    except (OSError, ValueError):
        return []
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []


_CACHED: tuple[tuple[str, int, int], frozenset[str]] | None = None
_LOOKED_AT = -1.0
LOOK_EVERY = 1.0  # seconds between looks at the index: the rules ask on every call, it changes on installs


def recorded_set() -> frozenset[str]:
    """`recorded()` as a set, read again only when the index file changes, which is looked at no more than
    once a `LOOK_EVERY` (a launcher written by `limen install` is protected from the next second on)."""
    global _CACHED, _LOOKED_AT
    now, path = time.monotonic(), _index_path()
    if _CACHED is not None and _CACHED[0][0] == path and now - _LOOKED_AT < LOOK_EVERY:
        return _CACHED[1]
    _LOOKED_AT = now
    try:
        info = os.stat(path)
    except OSError:
        _CACHED = ((path, -1, -1), frozenset())
        return _CACHED[1]
    key = (path, info.st_mtime_ns, info.st_size)
    if _CACHED is None or _CACHED[0] != key:
        _CACHED = (key, frozenset(recorded()))
    return _CACHED[1]


def _set_recorded(paths: list[str]) -> None:
    from limen import install_ledger as ledger

    data = (json.dumps(sorted(set(paths)), indent=1) + "\n").encode()
    ledger.write_atomically(_index_path(), data, 0o600)


def is_launcher(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return MARK.encode() in handle.read(4096)
    except OSError:
        return False


def text(limen: str, agent: str, real: str) -> str:
    import shlex

    run = [limen, "run", "--guard-agent-dir", "--guard-project", "--agent", agent, "--", real]
    return (
        "#!/bin/sh\n"
        f"{MARK}: written by `limen install {agent} --confined`;\n"
        f"# `limen uninstall {agent} --confined` removes it.\n"
        "# Starts the agent confined by the kernel (limen run), Limen's decision daemon outside.\n"
        f'exec {shlex.join(run)} "$@"\n'
    )


@dataclass
class Launch:
    """What installing or removing a launcher did or would do."""

    path: str
    how: str = ""  # "written", "unchanged", "restored", "deleted", "changed", "missing"
    real: str = ""
    problems: list[str] = field(default_factory=list)


def _real_program(name: str, bin_dir: str) -> str | None:
    """The agent's own program: the first on PATH that is not in the launcher's folder nor a launcher."""
    import shutil

    skip = os.path.realpath(bin_dir)
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or os.path.realpath(folder) == skip:
            continue
        found = shutil.which(name, path=folder)
        if found and not is_launcher(found):
            return os.path.abspath(found)
    return None


def _shadowed(name: str, bin_dir: str) -> str | None:
    """The folder whose `name` PATH finds before the launcher's, or None when the launcher comes first."""
    import shutil

    found = shutil.which(name)
    if found is None or os.path.realpath(os.path.dirname(found)) == os.path.realpath(bin_dir):
        return None
    return os.path.dirname(found)


def install(agent: str, bin_dir: str, limen: str, *, dry_run: bool) -> Launch:
    from limen import install_ledger as ledger

    name = programs().get(agent)
    if name is None:
        return Launch("", problems=[f"{agent} has no program of its own to start confined"])
    path = os.path.join(bin_dir, name)
    real = _real_program(name, bin_dir)
    if real is None:
        return Launch(path, problems=[f"`{name}` is not on PATH: install {agent} first"])
    launch = Launch(path, real=real)
    new = text(limen, agent, real).encode()
    old = ledger.read_bytes(path)
    if old is not None and not is_launcher(path) and os.path.realpath(path) == os.path.realpath(real):
        launch.problems.append(f"{path} is {agent}'s own program: choose another --bin-dir")
        return launch
    launch.how = "unchanged" if old == new else "written"
    if not dry_run and old != new:
        ledger.write(path, old, new, OWNER, [name], limen_free=old is None or not is_launcher(path))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        _set_recorded([*recorded(), path, os.path.realpath(path)])
    shadow = _shadowed(name, bin_dir) if not dry_run else None
    if shadow is not None:
        launch.problems.append(
            f"`{name}` still starts {os.path.join(shadow, name)} unconfined: put {bin_dir} before {shadow} "
            "in PATH"
        )
    return launch


def remove(agent: str, bin_dir: str, *, dry_run: bool) -> Launch:
    from limen import install_ledger as ledger

    name = programs().get(agent)
    if name is None:
        return Launch("", problems=[f"{agent} has no program of its own to start confined"])
    path = os.path.join(bin_dir, name)
    current = ledger.read_bytes(path)
    if current is None or not is_launcher(path):
        return Launch(path, how="missing")
    if dry_run:
        how, _ = ledger.release_outcome(os.path.realpath(path), OWNER, current, b"")
        return Launch(path, how=how)
    real = os.path.realpath(path)
    how = ledger.release(real, OWNER, current, b"")
    if how in ("removed", "changed") and ledger.read_bytes(real) == b"":
        os.unlink(real)  # nothing of the file was anyone else's: an empty launcher is no launcher
        how = "deleted"
    _set_recorded([p for p in recorded() if p not in (path, real)])
    return Launch(path, how=how)
