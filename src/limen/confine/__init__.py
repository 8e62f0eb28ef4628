"""Confinement for `limen run`: what an agent started under Limen may not touch, and what the kernel can
enforce of it. The mechanism is Landlock on Linux (`limen.confine.landlock`); elsewhere there is none yet.

The agent and every process it starts may not write, remove, rename over or create:
- Limen's code: the package directory, the interpreter environment it runs from (the venv, or the base
  installation's library directories), the console scripts `limen` and `limen-hook`;
- Limen's home (`LIMEN_HOME`: policy, state, keys, audit, the daemon's run directory);
- every coding agent's hook wiring, user-level and in the project, and the project's `limen.yaml`.
It may not signal processes outside its confinement (the daemon, `limen run` itself) nor connect to their
abstract Unix sockets, and with an egress port it may open TCP connections to that port only.
See docs/confinement.md for the limits.
"""

from __future__ import annotations

import os
import shutil
import site
import sys
import sysconfig
from dataclasses import dataclass, field
from typing import Any

from limen.confine import landlock

ABI_FILES = 3  # writes, removes, makes, renames and truncation all handled
SCRIPTS = ("limen", "limen-hook")


@dataclass(frozen=True)
class Protected:
    path: str
    why: str
    kind: str = "wiring"  # "code", "home" or "wiring": only wiring may be guarded instead of refused


def _variants(path: str) -> list[str]:
    """The path as written (absolute) and as the kernel resolves it, when they differ."""
    absolute = os.path.normpath(os.path.abspath(path))
    real = os.path.realpath(absolute)
    return [absolute] if real == absolute else [absolute, real]


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def code_paths(keep_writable: list[str]) -> list[Protected]:
    """Limen's package, its interpreter environment and its console scripts. A directory that holds one of
    `keep_writable` (the project, the home folder) is never protected whole: its library directories are,
    instead."""
    import limen

    found = [Protected(os.path.dirname(os.path.abspath(limen.__file__)), "Limen's package", "code")]
    libraries = {sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    for prefix, why in (
        (sys.prefix, "Limen's interpreter environment"),
        (sys.base_prefix, "Limen's interpreter"),
    ):
        real = os.path.realpath(prefix)
        if real != "/" and not any(_inside(os.path.realpath(k), real) for k in keep_writable):
            found.append(Protected(prefix, why, "code"))
    found += [
        Protected(p, "Limen's interpreter libraries (.pth, sitecustomize)", "code")
        for p in sorted(libraries)
        if p
    ]
    if site.ENABLE_USER_SITE:  # loaded by Limen's interpreter: a .pth there runs in every hook
        found.append(
            Protected(site.getusersitepackages(), "the user site-packages Limen's interpreter loads", "code")
        )
    found.append(Protected(os.path.realpath(sys.executable), "Limen's interpreter", "code"))
    from limen.launchers import recorded as launchers

    found += [Protected(p, "an agent's --confined launcher", "code") for p in launchers()]
    scripts_dir = sysconfig.get_paths().get("scripts", "")
    for name in SCRIPTS:
        for candidate in {shutil.which(name), os.path.join(scripts_dir, name) if scripts_dir else None}:
            if candidate:
                found.append(Protected(candidate, f"the `{name}` console script", "code"))
    return found


def wiring_paths(home: str, project: str) -> list[Protected]:
    """Every place a supported agent reads hooks (or trust) from, and the project's policy file."""
    claude = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    codex = os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
    user = [
        (os.path.join(home, ".claude", "settings.json"), "Claude Code settings"),
        (os.path.join(home, ".claude", "settings.local.json"), "Claude Code settings"),
        (os.path.join(claude, "settings.json"), "Claude Code settings"),
        (os.path.join(claude, "settings.local.json"), "Claude Code settings"),
        (os.path.join(home, ".gemini", "settings.json"), "Gemini CLI settings"),
        (os.path.join(home, ".gemini", "trustedFolders.json"), "Gemini CLI trusted folders"),
        (os.path.join(codex, "config.toml"), "Codex config"),
        (os.path.join(codex, "hooks.json"), "Codex hooks"),
        (os.path.join(home, ".cursor", "hooks.json"), "Cursor hooks"),
    ]
    in_project = [
        (os.path.join(project, ".claude", "settings.json"), "the project's Claude Code settings"),
        (os.path.join(project, ".claude", "settings.local.json"), "the project's Claude Code settings"),
        (os.path.join(project, ".gemini", "settings.json"), "the project's Gemini CLI settings"),
        (os.path.join(project, ".codex"), "the project's Codex configuration"),
        (os.path.join(project, ".cursor", "hooks.json"), "the project's Cursor hooks"),
        (os.path.join(project, "limen.yaml"), "the project's Limen policy"),
    ]
    from limen.policy.paths import ORG_POLICY

    return [
        Protected(p, why) for p, why in [*user, *in_project, (ORG_POLICY, "the organisation's Limen policy")]
    ]


# Files the user's next shell runs, outside the confinement: planting a command there would switch Limen off
# later. They sit directly in the home folder, which is walked anyway, so refusing them costs nothing else.
STARTUP_FILES = (
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".kshrc",
    ".xprofile",
    ".xsessionrc",
)


# The folder where each agent keeps its own state, next to its user-level hook wiring (`--guard-agent-dir`).
COMMAND_AGENTS = {"claude": "claude-code", "gemini": "gemini", "codex": "codex", "cursor-agent": "cursor"}


def agent_dir(agent: str, home: str) -> str | None:
    """The user-level folder an agent writes its own state to (and reads its hooks from)."""
    if agent == "claude-code":
        return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    if agent == "codex":
        return os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
    if agent in ("gemini", "cursor"):
        return os.path.join(home, f".{agent}")
    return None


def agent_of(command: list[str]) -> str | None:
    """The agent a command line starts, by its program name (`claude`, `gemini`, `codex`, `cursor-agent`)."""
    return COMMAND_AGENTS.get(os.path.basename(command[0])) if command else None


def split_guarded(
    protected: list[Protected], *writable: str | None
) -> tuple[list[Protected], list[Protected]]:
    """(refused by the kernel, guarded instead): the hook wiring inside a `writable` folder is guarded;
    everything else (Limen's code and home, wherever they are) stays refused."""
    folders = {v for w in writable if w for v in (os.path.normpath(os.path.abspath(w)), os.path.realpath(w))}
    moved = [p for p in protected if p.kind == "wiring" and any(_inside(p.path, f) for f in folders)]
    return [p for p in protected if p not in moved], moved


# What the guard saw at a path: None (absent), ("file", bytes, mode), ("dir", mode, ((name, state), ...)), or
# ("other",) for a symlink, device or anything it never puts back as such.
State = tuple[Any, ...] | None
GUARD_MAX_ENTRIES = 2000  # a guarded folder larger than this is compared by its top level only


class Guard:
    """Keeps hook wiring as it was when the agent started, from outside the confinement: each path (a file,
    or a folder such as `<project>/.codex` and everything in it) is compared every `interval` seconds and,
    once changed, put back (bytes and modes; what was absent is removed again), and said on stderr. For the
    wiring the kernel cannot refuse without also refusing what the agent must write beside it: the agent's
    own folder (`--guard-agent-dir`), the project's top folder (`--guard-project`); see docs/confinement.md.
    """

    def __init__(self, paths: list[str], interval: float = 0.2) -> None:
        self.interval = interval
        self.saved: dict[str, State] = {p: self.read(p) for p in paths}
        self.restored = 0

    @classmethod
    def read(cls, path: str, budget: list[int] | None = None) -> State:
        import stat

        budget = [GUARD_MAX_ENTRIES] if budget is None else budget
        try:
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISREG(info.st_mode):
                with open(path, "rb") as fh:
                    return ("file", fh.read(), mode)
            if stat.S_ISDIR(info.st_mode):
                names = sorted(os.listdir(path))
                budget[0] -= len(names)
                if budget[0] < 0:
                    return ("dir", mode, tuple((n, ("?",)) for n in names))
                return ("dir", mode, tuple((n, cls.read(os.path.join(path, n), budget)) for n in names))
            return ("other",)
        except FileNotFoundError:
            return None
        except OSError:
            return ("other",)

    def check(self) -> list[str]:
        """Put back every path that changed; the paths put back."""
        changed = [p for p, saved in self.saved.items() if self.read(p) != saved]
        for path in changed:
            self.restore(path, self.saved[path])
        self.restored += len(changed)
        return changed

    @classmethod
    def restore(cls, path: str, saved: State) -> None:
        import contextlib

        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.lexists(path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        if saved is None or saved[0] not in ("file", "dir"):
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if saved[0] == "dir":
            os.mkdir(path, saved[1])
            for name, state in saved[2]:
                cls.restore(os.path.join(path, name), state)
            return
        _kind, data, mode = saved
        temporary = f"{path}.limen-restore-{os.getpid()}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(temporary, path)

    def run(self, done: Any) -> None:
        """Check until `done` (a threading.Event) is set."""
        while not done.wait(self.interval):
            try:
                changed = self.check()
            except OSError as exc:
                print(f"limen run: could not restore the hook wiring: {exc}", file=sys.stderr, flush=True)
                continue
            for path in changed:
                print(f"limen run: {path} was changed from inside: put back", file=sys.stderr, flush=True)


def protected_paths(project: str, home: str | None = None) -> list[Protected]:
    """Everything a confined agent may not write, each path as written and as resolved."""
    from limen.doors.hooks import wire
    from limen.home import limen_home

    home = home or os.path.expanduser("~")
    found = [
        Protected(limen_home(), "Limen's home (policy, state, keys, audit)", "home"),
        Protected(wire.run_dir(), "the decision daemon's socket and lock", "home"),
    ]
    found += code_paths([project, home])
    found += wiring_paths(home, project)
    found += [
        Protected(os.path.join(home, name), "a shell start-up file (runs outside, later)", "startup")
        for name in STARTUP_FILES
    ]
    out: list[Protected] = []
    seen: set[str] = set()
    for item in found:
        for path in _variants(item.path):
            if path not in seen:
                seen.add(path)
                out.append(Protected(path, item.why, item.kind))
    return out


@dataclass
class Support:
    """What confinement the kernel offers, and what a run would enforce with it."""

    mechanism: str
    abi: int
    egress_port: int | None = None
    enforced: list[str] = field(default_factory=list)
    not_enforced: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # requested but not offered: the run is refused
    limits: list[str] = field(default_factory=list)  # what the confinement costs the agent

    @property
    def confinable(self) -> bool:
        return self.abi > 0 and not self.missing

    def as_dict(self) -> dict[str, Any]:
        return {
            "mechanism": self.mechanism,
            "landlock_abi": self.abi,
            "confinable": self.confinable,
            "egress_port": self.egress_port,
            "enforced": self.enforced,
            "not_enforced": self.not_enforced,
            "missing": self.missing,
            "limits": self.limits,
        }


ALWAYS_OPEN = [
    "connecting to path-name Unix sockets: a service outside that runs commands on request (a tmux or "
    "screen server, systemd --user, docker, an IDE server) acts outside the confinement",
    "reading files (Limen's keys and every secret stay readable: the decision rules guard reads)",
    "chmod, chown, utimes and extended attributes on protected files (at worst a denial of service)",
    "UDP, ICMP and raw sockets (DNS included)",
    "ptrace of processes inside the confinement (Landlock forbids it outward)",
]


LIMITS = [
    "in a directory above a protected path (/, the home folder, the project's top folder, ~/.claude...) "
    "nothing can be created, removed or renamed; its files that existed at start stay writable in place, "
    "its sub-folders stay fully writable",
    "a file or folder created there later (outside the confinement) is not writable from inside",
]


def legacy_tiocsti() -> bool:
    """Whether a process may push input into its controlling terminal (Linux < 6.2, or the sysctl on)."""
    try:
        with open("/proc/sys/dev/tty/legacy_tiocsti") as fh:
            return fh.read().strip() != "0"
    except OSError:
        return sys.platform.startswith("linux") and os.path.exists("/proc/sys/dev/tty")


def support(abi: int | None = None, egress_port: int | None = None) -> Support:
    """What a run at this ABI (the kernel's when None) enforces, leaves open, and lacks of what is asked."""
    abi = landlock.abi_version() if abi is None else abi
    result = Support("landlock" if abi else "none", abi, egress_port)
    if abi <= 0:
        reason = "Landlock is not available (not Linux, or a kernel without it or with it disabled)"
        result.missing.append(reason)
        result.not_enforced.append("everything: no confinement mechanism")
        return result
    files = "writing, creating, removing and renaming Limen's code, home and every agent's hook wiring"
    result.enforced.append(files if abi >= 2 else files + " (renames and links across directories: refused)")
    if abi >= ABI_FILES:
        result.enforced.append("truncating those files")
    else:
        result.missing.append(f"truncation of protected files is not controlled below ABI {ABI_FILES}")
    if abi >= landlock.ABI_SCOPE:
        result.enforced.append("signals to processes outside the confinement (the daemon, limen run)")
        result.enforced.append("connecting to abstract Unix sockets outside the confinement")
    else:
        result.missing.append(
            f"scoped signals need ABI {landlock.ABI_SCOPE}: the agent could stop the daemon"
        )
    if egress_port is not None:
        if abi >= landlock.ABI_NET:
            result.enforced.append(f"TCP connections only to port {egress_port} (any address)")
        else:
            result.missing.append(f"TCP port rules need ABI {landlock.ABI_NET}")
    else:
        result.not_enforced.append("network: no --egress port given, every connection is open")
    result.not_enforced += ALWAYS_OPEN
    if legacy_tiocsti():
        result.not_enforced.append(
            "typing into the terminal (TIOCSTI, dev.tty.legacy_tiocsti is on: the shell would run it once "
            "the agent exits): set the sysctl to 0"
        )
    result.limits += LIMITS
    return result
