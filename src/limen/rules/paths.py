"""Objective rules over the paths an action touches.

- `protected_path_blocked` (BLOCK): Limen's own control plane (policy, state, audit, the agents' hook
  configuration) and any name the policy protects. An agent must not be able to switch Limen off.
- `sensitive_secret_access` (AUTH): files that hold secrets (`.env*`, private keys, cloud credentials,
  keychains, browser profiles). Example files (`.env.example`) are not secrets.
- `sensitive_path_access` (AUTH): system locations written (or, for a few, read) outside the workspace.
- `persistence_write` (AUTH; BLOCK in strict/paranoid): files that run later without the user asking.

A glob operand (`cat ./.e*`) counts as touching every sensitive name it could match.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from bisect import bisect_left
from collections.abc import Callable, Iterator
from fnmatch import fnmatchcase
from functools import lru_cache

from limen.context import AGENT_CONTROL_FILES, Context
from limen.facts import secrets as secret_facts
from limen.facts.paths import (
    CACHE_FOLDER,
    MANIFEST,
    MEMORY_STORE,
    PROGRAMS,
    SERVED_FOLDER,
    TRANSCRIPT_OR_DOCUMENT,
    UNLISTED,
    as_own_home,
    by_shebang,
    describe,
    unlisted,
)
from limen.facts.programs import NOT_PRODUCTION, PRODUCTION, STDIN_WRITERS, Role, program
from limen.model import Action, Command, Finding, ReasonCode, Verdict
from limen.normalize import NAMES_ONLY, SEARCHES
from limen.normalize.paths import absolute, canonical, is_within, read_text
from limen.normalize.tools import words_of
from limen.rules import rule
from limen.rules.derived import GLOBAL_VALUE_OPTIONS, changed_operands, edited_texts, kept_from_model
from limen.rules.written import applied_manifests, committed_over, judge, judge_text, written_text

_GLOB_CHARS = frozenset("*?[")

# What holds secrets (names, tools' and agents' credential stores) is `limen.facts.secrets`' table.
_SECRET_NAMES = secret_facts.SECRET_NAMES
_NOT_SECRET_NAMES = secret_facts.NOT_SECRET_NAMES
_NOT_SECRET_PATHS = secret_facts.NOT_SECRET_PATHS
_SECRET_DIRS = secret_facts.STORE_DIRS
_SECRET_STORE_FILES = re.compile("/(?:" + "|".join(re.escape(f) for f in secret_facts.STORE_FILES) + ")$")
_GLOB_PROBES = secret_facts.GLOB_PROBES

_SYSTEM_WRITE_DIRS = (
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/boot",
    "/opt",
    "/var/lib",
    "/proc",  # `/proc/sys/...`: kernel settings (ASLR, ptrace scope)
    "/sys",
    "/System",
    "/Library",
    "/root",
    # what the machine serves
    "/srv",
)
# File systems mounted on the machine (shared volumes, other machines' and removable disks): what is deleted
# or overwritten there is asked about (`rsync -a --delete /tmp/empty/ /mnt/nfs/datasets/`); a copy onto one
# is ordinary. A Windows drive under WSL (`/mnt/c/`) is the user's own. A cluster's shared file systems
# (Lustre, GPFS, a group's project space, automounted NFS) are such mounts.
_MOUNTS = ("/mnt/", "/media/", "/lustre/", "/gpfs/", "/project/", "/projects/", "/nfs/", "/net/", "/shared/")
_EMPTIES_OR_MOVES = frozenset({"rmdir", "mv", "truncate"})
_WSL_DRIVE = re.compile(r"^/mnt/[a-z](?:/|$)")
_SHARED_ROOTS = ("/srv/", *_MOUNTS)
_SCRATCH_PARTS = frozenset({"scratch", "tmp", "temp", "$USER", "${USER}"})


def _destroys_there(action: Action) -> bool:
    """The call deletes or overwrites what it writes to on a mount: a file tool's write, or a command the
    analysis recorded that deletes (`rm`, also as a program's `file.remove(...)` or `find -exec rm`), moves,
    syncs with deletion (`rsync --delete`, `find -delete`) or redirects its output over a file there that
    exists."""
    if not action.commands:
        return action.tool in ("Write", "Edit", "MultiEdit", "NotebookEdit")
    return any(_destroys(command) for command in action.commands)


def _destroys(command: Command) -> bool:
    entry = program(command.name)
    return (
        command.name in _EMPTIES_OR_MOVES
        or command.name == "dd"  # (what it writes lands over what its `of=` held)
        or (entry is not None and Role.DELETES in entry.roles)
        or any(w.startswith("--delete") or w == "-delete" for w in command.argv[1:])
        # (a file the redirection creates replaces nothing)
        or any(target.startswith(_MOUNTS) and os.path.lexists(target) for target in command.redirects)
    )


def _own_corner(path: str, home: str) -> bool:
    """A place of the user's own on a mounted or served file system: a scratch folder, or one named for the
    user (`/mnt/nfs/scratch/$USER/proj`, `/media/dev/usb`)."""
    if not path.startswith(_SHARED_ROOTS):
        return False
    user = home.rstrip("/").rsplit("/", 1)[-1]
    return any(part in _SCRATCH_PARTS or part == user for part in path.split("/")[2:])


_SYSTEM_SECRET_FILES = secret_facts.SYSTEM_SECRET_FILES
_PROCESS_MEMORY = secret_facts.PROCESS_MEMORY


def _basename(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _has_glob(path: str) -> bool:
    return not _GLOB_CHARS.isdisjoint(path)


def _below_any(directories: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for "the path is, or lies in, a directory named like one of these" (one scan per path)."""
    return re.compile("/(?:" + "|".join(re.escape(d) for d in directories) + ")(?:/|$)")


_IN_SECRET_DIR = _below_any(_SECRET_DIRS)


# macOS volumes ignore case by default: `.CLAUDE/settings.json` is the protected file there.
_FOLD_CASE = sys.platform == "darwin"


def _folded(path: str) -> str:
    return path.lower() if _FOLD_CASE else path


@lru_cache(maxsize=32)
def _protected_index(protected: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The protected paths as an exact set and a prefix tuple, so a path is checked in two operations."""
    roots = [_folded(p.rstrip("/") or "/") for p in protected]
    return frozenset(roots), tuple(r + "/" for r in roots)


def is_secret_file(path: str) -> bool:
    """Whether a canonical path (or a glob that could match one) names a file that holds secrets."""
    return (
        path in _SYSTEM_SECRET_FILES
        or _secret_by_name(path)
        or _PROCESS_MEMORY.match(path) is not None
        or secret_facts.SERVICE_PASSWORD_FILE.match(path) is not None
        or secret_facts.WINDOWS_PASSWORD_FILE.search(path) is not None
        # (a login file lies in a folder, or under a name, of the home's that starts with a dot)
        or (
            "/." in path
            and secret_facts.TOOL_LOGIN_FILE.match(_in_home(path)) is not None
            and not CACHE_FOLDER.search(path)
        )
        or ("$" in path and _secret_when_filled(path))
    )


def _in_home(path: str) -> str:
    """`path` under the running user's home written as under `/home/user` (`/var/lib/jenkins/.p4tickets` is
    `/home/user/.p4tickets` for the user whose home is /var/lib/jenkins): the home-anchored facts then hold
    wherever the home is. Other paths are returned as they are."""
    home = os.environ.get("HOME", "").rstrip("/")
    if len(home) > 1 and path.startswith(home) and path[len(home) : len(home) + 1] == "/":
        return "/home/user" + path[len(home) :]
    return path


# A part of a path known only when the line runs: a substitution, a variable
_RUN_TIME_PART = re.compile(r"\$\([^()]*\)|\$\{[^{}]*\}|\$\w+")


def _secret_when_filled(path: str) -> bool:
    """A path with parts known only at run time (`/tmp/krb5cc_$(id -u)`, `~/.ssh/id_$KIND`): secret when those
    parts, filled by a number or by any name, make it one. A name that is nothing but such a part (`cat $f`,
    `~/.ssh/$KEY`) is any file: only a folder of secrets makes it one."""
    numbered = _RUN_TIME_PART.sub("0", path)
    if "$" in numbered:
        return False
    if not _has_glob(_basename(numbered)) and is_secret_file(numbered):
        return True  # (a glob in a folder only known at run time says nothing of what it matches)
    starred = _RUN_TIME_PART.sub("*", path)
    return len(re.sub(r"[*?.]", "", _basename(starred))) >= 2 and _secret_by_name(starred)


def _store_or_share(path: str, name: str) -> bool:
    """A key store, a share of a key or a tool's credentials file by its name, or a file right in a folder of
    key stores or shares (program code and pages aside); looked at only when a word of them is in the path."""
    lowered = path.lower()
    if not any(word in lowered for word in secret_facts.STORE_AND_SHARE_WORDS):
        return False
    if secret_facts.STORE_AND_SHARE_NAMES.match(name):
        return True
    return (
        secret_facts.KEYSTORE_FOLDER.search(path) is not None
        and os.path.splitext(name)[1].lower() not in PROGRAMS
        and not TRANSCRIPT_OR_DOCUMENT.search(name)
    )


def _secret_by_name(path: str) -> bool:
    name = _basename(path)
    if (
        _SECRET_NAMES.match(name)
        or _IN_SECRET_DIR.search(path)
        or _SECRET_STORE_FILES.search(path)
        or _store_or_share(path, name)
    ):
        # the public material that lives beside secrets is asked about only here (most paths are neither)
        return not (_NOT_SECRET_NAMES.match(name) or _NOT_SECRET_PATHS.search(path))
    if _has_glob(name):
        parent = path[: -len(name)]
        if "**/" in parent and not _has_glob(parent.replace("**/", "")):
            parent = parent.replace("**/", "")  # `~/.config/**/*token*`: the names searched for at any depth
        if _has_glob(parent):  # `./fs*/*`: a name guessed in a folder guessed too says nothing of either
            return False
        if CACHE_FOLDER.search(parent):  # `~/.cache/sccache/*`: copies of what tools fetched or built
            return False
        return any(
            fnmatchcase(probe, name) and _secret_by_name(parent + probe)
            for probe in _GLOB_PROBES
            if name.startswith(".") or not probe.startswith(".")  # as in bash, `*` does not match dotfiles
        )
    return False


def _matches_protected(path: str, ctx: Context) -> bool:
    exact, prefixes = _protected_index(ctx.protected_paths)
    folded = _folded(path)
    if folded in exact or folded.startswith(prefixes) or folded.endswith(AGENT_CONTROL_FILES):
        return True
    own = as_own_home(path, ctx.home)  # another user's `~/.claude/settings.json` wires their agents' hooks
    if own != path:
        folded = _folded(own)
        if folded in exact or folded.startswith(prefixes):
            return True
    name = _basename(path)
    if ctx.protected_names:
        if name in ctx.protected_names:
            return True
        if _has_glob(name):
            return any(fnmatchcase(protected, name) for protected in ctx.protected_names)
    return False


def _named_to_non_readers(action: Action, ctx: Context) -> frozenset[str]:
    """Paths the line names only to commands that return none of their content (`ls`, `stat`, `chmod`)."""
    if not action.commands:
        return frozenset()
    cwd = action.cwd or ctx.workspace or "/"
    named: set[str] = set()
    other: set[str] = set()
    for command in action.commands:
        target = named if command.name in secret_facts.NON_READERS else other
        target.update(canonical(w, cwd, ctx.home) for w in command.argv[1:] if w and not w.startswith("-"))
    return frozenset(named - other)


def _opens_nothing(command: Command) -> bool:
    """`chmod 644 f`, `chmod u+x f`, `chmod go-w f`: a mode that lets no one but the owner write, and takes
    nothing away from the owner (the owner is the user Limen and the agent run as)."""
    modes = [w for w in command.argv[1:] if not w.startswith("-") or re.fullmatch(r"-[rwxXst]+", w)][:1]
    if not modes:
        return False
    mode = modes[0]
    if re.fullmatch(r"[0-7]{3,4}", mode):
        digits = mode[-3:]
        return int(digits[1]) & 2 == 0 and int(digits[2]) & 2 == 0 and int(digits[0]) & 6 == 6
    clauses = mode.split(",")
    return all(re.fullmatch(r"[ugoa]*[-+=][rwxXst]*", c) for c in clauses) and not any(
        ("w" in c.split("+", 1)[-1] and re.match(r"[goa]|[-+=]", c) and "+" in c)
        or c.startswith(("u-", "a-", "-"))
        or "=" in c
        for c in clauses
    )


def _glob_reaches(pattern: str, path: str) -> bool:
    """A shell glob matches `path` as bash would: part by part, a `*` or `?` never matching a leading dot
    (`rm -rf ~/*` leaves `~/.limen`)."""
    wanted, parts = pattern.rstrip("/").split("/"), path.split("/")
    return len(wanted) == len(parts) and all(
        fnmatchcase(part, glob) and (glob.startswith(".") or not part.startswith("."))
        for glob, part in zip(wanted, parts, strict=True)
    )


# The agents' and MCP clients' own configuration files and hook scripts (protected so that their hooks stay
# wired and running): reading
# one shows the agent how it is configured; only a credential in it makes the read a secret read
_AGENT_CONFIGS = re.compile(
    r"/\.(?:claude|cursor|gemini|codex)/(?:settings(?:\.local)?\.json|hooks\.json|mcp\.json|config\.toml"
    r"|trustedFolders\.json)$|/\.mcp\.json$|/\.claude\.json$|/claude_desktop_config\.json$"
    r"|/\.(?:claude|cursor|gemini)/hooks(?:/|$)"  # (and the hook scripts that wiring runs)
)


def _agent_config(path: str) -> bool:
    return _AGENT_CONFIGS.search(path) is not None and "/.limen/" not in path


_CREDENTIAL_PEEK = 256 * 1024  # bytes of an agent's settings file looked at for credentials


def _holds_credentials(path: str) -> bool:
    """The file holds a credential by its shape (an agent's or MCP server's `env` block with a token): then
    reading it is reading a secret. Hook wiring and permissions alone are no secret to the agent they
    configure. A file that cannot be read returns nothing to the agent either."""
    from limen.rules.secrets import KEYWORD, find_secrets

    text = read_text(path, _CREDENTIAL_PEEK)
    if text is None:
        return False
    if _CREDENTIAL_SETTING.search(text):  # `"GITHUB_TOKEN": "ghp_..."` in an env block
        return True
    return any(h.confidence >= KEYWORD for h in find_secrets(text, decode=False, weak=False))


# A setting named for a credential with a literal value (not `${VAR}` or `$VAR`, which name one elsewhere)
_CREDENTIAL_SETTING = re.compile(
    r"""(?<!\w)["']?\w*(?:TOKEN|API_?KEY|SECRET|PASSWORD|PASSWD|PAT|CREDENTIALS?)\w*["']?\s*[:=]\s*["'](?!\$)[^"'\s]{8,}["']""",
    re.IGNORECASE,
)


def _is_policy(path: str) -> bool:
    """A policy file (`limen.yaml`, the user-level `~/.config/limen/...`): the agent may read the rules it
    is held to, and a glob that lists or reads beside one (`ls *`) touches nothing else of Limen's."""
    return _basename(path) in ("limen.yaml", "limen.yml") or "/.config/limen/" in path


def _all_paths(action: Action) -> Iterator[str]:
    yield from action.paths
    for path in action.write_paths:
        if path not in action.paths:
            yield path


# Commands that remove, move away or re-permission their operands (the first operand of the chmod family
# is the mode or owner; the last operand of mv is where things go, not what goes).
_DISPOSERS = frozenset({"rm", "rmdir", "unlink", "shred", "mv", "chmod", "chown", "chgrp"})


def _disposed(command: Command, action: Action, ctx: Context) -> Iterator[str]:
    argv = command.argv
    target = argv[argv.index("-t") + 1] if command.name == "mv" and "-t" in argv[:-1] else None
    operands = [w for w in argv[1:] if not w.startswith("-") and w != target]
    if command.name in ("chmod", "chown", "chgrp"):
        operands = operands[1:]
    elif command.name == "mv" and target is None:
        operands = operands[:-1]
    for word in operands:
        # As written: a symlinked operand already reached the exact-path check through `write_paths`.
        yield absolute(word, action.cwd or ctx.workspace, ctx.home)


def _holds_protected(path: str, ctx: Context) -> bool:
    """`rm -rf .claude`: the directory holds a protected path. The workspace and the home themselves are
    the destructive-command rules' (wiping them is a BLOCK there)."""
    if path in (ctx.workspace, ctx.home, "/"):
        return False
    below = _folded(path.rstrip("/")) + "/"
    ordered = _protected_sorted(ctx.protected_paths)
    # The paths that start with `below` sort together, from the first one not less than it: one look.
    i = bisect_left(ordered, below)
    return i < len(ordered) and ordered[i].startswith(below)


@lru_cache(maxsize=32)
def _protected_sorted(protected: tuple[str, ...]) -> tuple[str, ...]:
    """The protected paths' prefixes (`_protected_index`), sorted."""
    return tuple(sorted(_protected_index(protected)[1]))


@rule(ReasonCode.PROTECTED_PATH_BLOCKED, needs=("paths", "write_paths", "acting"))
def protected_paths(action: Action, ctx: Context) -> Iterator[Finding]:
    """Paths Limen must keep: its policy files, state, audit, keys and every agent's hook wiring
    (`limen.yaml`, `.claude/settings.json`, `~/.codex/hooks.json`, `.limen/`), read from the policy's
    protected list and reached by any spelling (`src/../limen.yaml`, a glob, a folder moved or deleted
    with them inside), or read (keys, approvals, the agents' settings with the credentials their `env`
    blocks hold): BLOCK. Quiet: reading the policy file, reading or listing beside them by a glob (`ls *`,
    `cp * /tmp/`), and look-alikes (`src/limen.yaml.md`, `.claude/commands/review.md`)."""
    cwd = action.cwd or ctx.workspace
    moded: list[str] = []  # what a chmod that loosens nothing touches (`chmod 644 *`): no change to guard
    globbed: list[str] = []  # what changes by a pattern (`rm *`, `sed -i ... *`), as written
    for command in action.commands:
        harmless = command.name == "chmod" and _opens_nothing(command)
        if harmless or any(_has_glob(w) for w in command.argv[1:]):
            for word in changed_operands(command, metadata=True):
                if harmless:
                    moded.append(absolute(word, cwd, ctx.home))
                elif _has_glob(word):
                    globbed.append(absolute(word, cwd, ctx.home))
    changed = [p for p in action.write_paths if not any(m == p or _glob_reaches(m, p) for m in moded)]
    changed += globbed
    for path in changed:
        if _matches_protected(path, ctx) or (  # a glob reaches the protected files that are there
            _has_glob(path)
            and any(_glob_reaches(path, p) and os.path.lexists(p) for p in ctx.protected_paths)
        ):
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, f"protected path {path}")
            return
    # read: Limen's state and keys, agents' settings (credentials in their `env` blocks); not a path only
    # named to a command that returns none of it (`ls ~/.limen`, `chmod 600 .claude/settings.json`)
    read = [p for p in action.paths if not _has_glob(p) and not _is_policy(p) and _matches_protected(p, ctx)]
    if read:
        named_only = _named_to_non_readers(action, ctx)
        for path in read:
            if path in named_only:
                continue
            if not _agent_config(path):  # Limen's keys, approvals and audit; what the policy protects
                yield Finding(
                    ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, f"protected path {path} read"
                )
                return
            if _holds_credentials(path):  # an agent's settings with tokens in its `env` block
                detail = f"protected path {path} read: it holds credentials"
                yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.AUTH, 75, detail)
                return
    for command in action.commands:
        if command.name in _DISPOSERS and not (command.name == "chmod" and _opens_nothing(command)):
            for path in _disposed(command, action, ctx):
                if _holds_protected(path, ctx):
                    yield Finding(
                        ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, f"{path} holds a protected path"
                    )
                    return


# `limen` sub-commands that loosen Limen or rewrite its control plane: an agent running them through a
# shell would switch Limen off without touching a protected file itself. Reading commands stay open.
_CONTROL_COMMANDS = frozenset({"uninstall", "approve", "clear", "waive", "stop", "console"})
# Limen's modules that grant, loosen, clear or rewrite what it keeps: code that imports them does what the
# control commands do (`from limen.approvals import open_approvals; ...grant(...)`).
_CONTROL_MODULES = tuple(
    f"limen.{m}"
    for m in (
        "approvals",
        "policy",
        "state",
        "audit",
        "install",
        "daemon",
        "cli",
        "console",
        "launchers",
        "confine",
        "home",
    )
)


def _limen_subcommands(command: Command) -> tuple[str, ...]:
    argv = command.argv
    if command.name in ("limen", "limen-hook"):
        return argv[1:]
    if command.name.startswith("python"):
        for i in range(1, len(argv) - 1):
            if argv[i] == "-m" and argv[i + 1].split(".")[0] == "limen":
                return argv[i + 2 :]
    return ()


@rule(ReasonCode.PROTECTED_PATH_BLOCKED, needs="acting")
def control_commands(action: Action, ctx: Context) -> Iterator[Finding]:
    """Limen's own commands that loosen or remove it, run by the agent (`limen uninstall`, `limen policy
    approve`, `limen session clear`, `limen tools approve`, `limen daemon stop`...), and code that imports
    the modules behind them: BLOCK, since only the person should. Quiet: commands that only read or
    explain (`limen explain`, `limen log`, `limen audit verify`), and code that asks Limen for a decision
    (`limen.evaluate`, `limen.Guard`)."""
    for note in action.notes:
        module = note.removeprefix("limen_module:")
        if module != note and module.startswith(_CONTROL_MODULES):
            detail = f"Limen's own control code run by the agent ({module})"
            yield Finding(ReasonCode.PROTECTED_PATH_BLOCKED, Verdict.BLOCK, 95, detail)
            return
    for command in action.commands:
        words = _limen_subcommands(command)
        loosening = [w for w in words[:2] if w in _CONTROL_COMMANDS]
        if loosening:
            yield Finding(
                ReasonCode.PROTECTED_PATH_BLOCKED,
                Verdict.BLOCK,
                95,
                f"Limen control command `limen {loosening[0]}`",
            )
            return


# How much of a file a read tool is about to return is looked at for credentials before it runs: past this
# the output scan still withholds what comes back (where the agent allows it).
CONTENT_PROBE_BYTES = 256 * 1024
CONTENT_PROBE_PATHS = 4


# What the probe found per file identity (device, inode, size, modification and change times): a file read
# again unchanged is not read again. Bounded; a changed file has a new identity.
_PROBED: dict[tuple[int, int, int, int, int], tuple[bool, bool]] = {}
_PROBED_MAX = 512


def _probe(path: str) -> tuple[bool, bool]:
    """(holds a credential, holds only certificates or public keys) for a regular file's first
    `CONTENT_PROBE_BYTES`, read once per file identity. Not a regular file, unreadable or absent: neither."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return False, False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return False, False  # a FIFO or a device could block or never end
        identity = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = _PROBED.get(identity)
        if known is not None:
            return known
        data = os.read(fd, CONTENT_PROBE_BYTES)
    except OSError:
        return False, False
    finally:
        os.close(fd)
    from limen.scan import secret_values

    text = data.decode("utf-8", errors="replace")
    secret = bool(text) and bool(secret_values(text))
    public = (
        not secret
        and bool(secret_facts.PUBLIC_MATERIAL.search(text))
        and not secret_facts.PRIVATE_MATERIAL.search(secret_facts.PUBLIC_MATERIAL.sub("", text))
    )
    if len(_PROBED) >= _PROBED_MAX:
        _PROBED.clear()
    _PROBED[identity] = (secret, public)
    return secret, public


def holds_secret(path: str) -> bool:
    """Whether a regular file's first `CONTENT_PROBE_BYTES` hold a credential (a known shape or a value
    assigned to a secret-named key). Not a regular file, unreadable or absent: False (nothing to return)."""
    return _probe(path)[0]


def _settings_without_token(path: str, ctx: Context) -> bool:
    """A project's package-manager settings file (`.npmrc`, `.pypirc`, `settings.xml`) that exists and holds
    no credential (its tokens are variables' names: `_authToken=${NPM_TOKEN}`): nothing secret to read."""
    return (
        bool(ctx.workspace)
        and is_within(path, ctx.workspace)
        and secret_facts.SETTINGS_WITH_TOKENS.search(path) is not None
        and os.path.isfile(path)
        and not holds_secret(path)
    )


def holds_public_material_only(path: str) -> bool:
    """Whether a file whose name fits a key and a certificate alike (`server.pem`) exists and holds only
    certificates or public keys: nothing secret to read. Unreadable, absent, or anything else: False."""
    return bool(secret_facts.EITHER_MATERIAL_NAMES.match(_basename(path))) and _probe(path)[1]


def _execs_only_non_readers(action: Action) -> bool:
    """`find . -name '*' -exec file {} +`: every command find runs on its matches gives no content back
    (`file`, `ls -l`, `basename`, `chmod`), so the matches are named, not read."""
    run = [c for c in action.commands if any(v.startswith(("find -exec", "find -ok")) for v in c.via)]
    return bool(run) and all(c.name in secret_facts.NON_READERS for c in run)


def secret_paths_read(action: Action, ctx: Context) -> Iterator[str]:
    """Secret files a shell line reads or sends: every secret path but those only named to a command that
    does not return content (`chmod 600 key`, `stat .env`, `ssh-add key`), given as a credential the
    command authenticates with (`ssh -i key`), or only written (`cp .env.example .env`, `>> .env`). A path
    no command names as an operand (`< file`, a glob's representative) counts as read."""
    secret = [p for p in _all_paths(action) if is_secret_file(p) and not holds_public_material_only(p)]
    if action.commands:  # a tool's settings file whose name says nothing (`~/.ngc/config`) but holds a key
        secret += _credential_by_content(action, ctx, secret)
    if not secret:
        return
    if not action.commands:
        yield from secret  # not analysed: every secret path counts
        return
    cwd = action.cwd or ctx.workspace or "/"
    # where a relative word may lie: the line's folder, and each the line changes into (`cd fw && west sign
    # -- --key keys/k.pem` names fw/keys/k.pem)
    folders = (cwd, *(n[3:] for n in action.notes if n.startswith("cd:")))
    read: set[str] = set()
    kept: set[str] = set()
    fresh: set[str] = set()  # copied from public material earlier in the line (`cp .env.example .env && ...`)
    # only written, unless an operand reads it too (`... | sops -e > .env.enc`)
    kept.update(action.write_paths)
    for command in action.commands:
        kept.update(command.redirects)
        # `sudo chmod 600 key`, `ssh -i key host uptime`: the words of the command a wrapper runs are that
        # command's, judged as it (the wrapper's own options stay the wrapper's)
        args = command.argv[1 : len(command.argv) - _wrapped_words(command, action.commands)]
        operands: list[str] = []
        skip = False
        for i, word in enumerate(args):
            if skip:
                skip = False
                continue
            if word in secret_facts.READING_OPTIONS.get(command.name, ()) and i + 1 < len(args):
                read.add(canonical(args[i + 1], cwd, ctx.home))  # `file -f /etc/shadow` prints its lines
                skip = True
            elif (
                (
                    secret_facts.credential_option(word)
                    or word in secret_facts.OUTPUT_OPTIONS
                    or word in secret_facts.PROGRAM_CREDENTIAL_OPTIONS.get(command.name, ())
                )
                and i + 1 < len(args)
                and not args[i + 1].startswith("-")
            ):  # (`kinit -k -t F`: `-k` takes none)
                kept.update(canonical(args[i + 1], folder, ctx.home) for folder in folders)
                skip = True
            elif word.startswith("--") and secret_facts.credential_option(word.partition("=")[0]):
                value = word.partition("=")[2]  # `--env-file=.env`
                kept.update(canonical(value, folder, ctx.home) for folder in folders)
            elif word.partition("=")[0] in _pattern_options(command):
                # `rsync --exclude .env`, `tar --exclude=.env`: a pattern of what to leave out, no file read
                value = word.partition("=")[2] if "=" in word else (args[i + 1] if i + 1 < len(args) else "")
                kept.add(canonical(value, cwd, ctx.home))
                skip = "=" not in word
            elif word and not word.startswith("-"):
                operands.append(word)
        paths = [canonical(w, cwd, ctx.home) for w in operands]
        if command.output_hidden:  # `cat .env | wc -l`: read, and only counted down the pipeline
            kept.update(paths)  # (and what its options name: `--from-env-file=.env ... | kubeseal`)
            kept.update(canonical(w.partition("=")[2], cwd, ctx.home) for w in args if w[:2] == "--")
            continue
        counting = secret_facts.COUNTING_OPTIONS.get(command.name, frozenset())
        if counting and (set(args) & counting or any(_short_cluster_has(w, counting) for w in args)):
            kept.update(paths)  # `grep -c '' .env`: a count, no line of the file
            continue
        if set(args) & secret_facts.PUBLIC_HALF_OPTIONS.get(command.name, frozenset()):
            kept.update(paths)  # `openssl rsa -in key.p8 -pubout`: the public half only
            continue
        if (
            secret_facts.names_only(command.argv) or secret_facts.plain_variables_only(command.argv)
        ) and not any(is_secret_file(p) and not secret_facts.holds_assignments(p) for p in paths):
            # `cut -d= -f1 .env`: the variables' names; `grep '^PORT=' .env`: no credential
            kept.update(paths)
            continue
        if kept_from_model(command, action):
            kept.update(paths)  # `psql "$(grep DATABASE_URL .env | cut -d= -f2-)"`: handed on, never shown
            continue
        if _words_only(command) or _writes_only(command):
            # `echo '.env' >> .gitignore`: a name printed, no file opened; `... | tee key`: the file written
            kept.update(paths)
            continue
        if (
            command.name in secret_facts.NON_READERS
            or _non_reading_subcommand(command)
            or (
                command.name == "find"
                and (not any(w.startswith(("-exec", "-ok")) for w in args) or _execs_only_non_readers(action))
            )
        ):
            kept.update(paths)
            continue
        if command.name in secret_facts.COPIERS and paths:
            target = args[args.index("-t") + 1] if "-t" in args[:-1] else None
            written = canonical(target, cwd, ctx.home) if target is not None else paths.pop()
            kept.add(written)
            if paths and not any(is_secret_file(p) and not holds_public_material_only(p) for p in paths):
                fresh.add(written)
        read.update(p for p in paths if p not in fresh)
    read_globs = [p for p in read if _has_glob(p)]
    kept_globs = [p for p in kept if _has_glob(p)]
    for path in secret:
        if path in fresh and path not in read:
            continue
        named_as_read = path in read or any(fnmatchcase(path, g) for g in read_globs)
        if named_as_read or (path not in kept and not any(fnmatchcase(path, g) for g in kept_globs)):
            yield path


def _credential_by_content(action: Action, ctx: Context, named: list[str]) -> list[str]:
    """Files outside the workspace that a shell line names and whose content holds a credential (`cat
    ~/.basespace/default.cfg`): what a Read of them is asked about, whatever their name. Files of the
    project are left to their names: a shell line that reads one (`cat config/dev.yml`) is ordinary work
    that asks only when the name is a secret's."""
    found = []
    for path in action.paths[:CONTENT_PROBE_PATHS]:
        if (
            path not in named
            and not (ctx.workspace and is_within(path, ctx.workspace))
            and not _has_glob(path)
            and holds_secret(path)
        ):
            found.append(path)
    return found


def _wrapped_words(command: Command, commands: tuple[Command, ...]) -> int:
    """How many of a wrapper's last words (`sudo`, `timeout 5`, `ssh host`) are a command the line also
    analyses as its own (that command's `via` names the wrapper): 0 for none."""
    size = len(command.argv)
    return max(
        (
            len(other.argv)
            for other in commands
            if other is not command
            and command.name in other.via
            and 0 < len(other.argv) < size
            and command.argv[size - len(other.argv) :] == other.argv
        ),
        default=0,
    )


def _words_only(command: Command) -> bool:
    """A program whose operands are text it prints or tests, never files it opens (`echo`, `printf`)."""
    entry = program(command.name)
    return (
        entry is not None
        and Role.TEXT_ONLY in entry.roles
        and Role.READS not in entry.roles
        and Role.INTERPRETER not in entry.roles
        and entry.files is None
    )


def _writes_only(command: Command) -> bool:
    """A program that writes what reaches it on its input into the files it names, reading none of them
    (`tee`, `sponge`)."""
    return command.name in STDIN_WRITERS


def _non_reading_subcommand(command: Command) -> bool:
    """The command's sub-command (one word or two) names files without printing them (`git check-ignore -v
    .env`, `vercel env pull .env.local`)."""
    subcommands = secret_facts.NON_READING_SUBCOMMANDS.get(command.name)
    if not subcommands:
        return False
    args = command.argv[1:]
    if set(args) & secret_facts.CONTENT_OPTIONS.get(command.name, frozenset()):
        return False  # `git log -p -- .env`: every change to it, printed
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in GLOBAL_VALUE_OPTIONS else 1
    return i < len(args) and (args[i] in subcommands or " ".join(args[i : i + 2]) in subcommands)


# Options whose value is a name pattern to leave out or take in, never a file read (the program table's
# value-taking options, narrowed to these by name)
_PATTERN_OPTIONS = frozenset({"--exclude", "--include", "--filter", "-f", "--ignore", "-I", "--exclude-dir"})


def _pattern_options(command: Command) -> frozenset[str]:
    entry = program(command.name)
    options = _PATTERN_OPTIONS & frozenset(entry.options) if entry is not None else frozenset()
    if command.name == "git" and "clean" in command.argv[1:4]:  # `git clean -fdx -e .env`: kept, not read
        options |= {"-e", "--exclude"}
    return options


def secret_paths_changed(action: Action, ctx: Context) -> Iterator[str]:
    """Secret files outside the workspace that a shell line overwrites, truncates, replaces or deletes
    (`> ~/.ssh/id_rsa`, `rm ~/.aws/credentials`, `rm ~/.ssh/*`, `cp /dev/null KEY`, `ln -sf X KEY`), as
    a Write tool would: a credential store changed is a credential lost or replaced. Metadata (`chmod 600
    key`, `touch`) changes nothing a credential holds."""
    cwd = action.cwd or ctx.workspace or "/"
    named: dict[str, None] = dict.fromkeys(action.write_paths if not action.commands else ())
    fresh: set[str] = set()  # (a new key written where there was none: no credential changed)
    for command in action.commands:
        named.update(dict.fromkeys(command.redirects))
        words = changed_operands(command, metadata=False)
        paths = [canonical(w, cwd, ctx.home) for w in words]
        named.update(dict.fromkeys(paths))
        if _writes_only(command) and any(secret_facts.generates_key(c.argv) for c in action.commands):
            fresh.update(paths)  # `wg genkey | tee ~/.config/wireguard/laptop.key`: a new key's file
    for path in named:
        if path in fresh and not _has_glob(path) and not os.path.lexists(path):
            continue
        scratch = path.startswith(("/tmp/", "/var/tmp/")) and not is_within(path, ctx.home)  # a test's key
        if is_secret_file(path) and not scratch and not (ctx.workspace and is_within(path, ctx.workspace)):
            yield path


def _short_cluster_has(word: str, options: frozenset[str]) -> bool:
    """`-ic` holds `-c`: a cluster of short flags naming one of `options`."""
    return word.startswith("-") and not word.startswith("--") and any(f"-{c}" in options for c in word[1:])


def _secret_reads() -> Callable[[Action, Context], list[str]]:
    """`limen.rules.secrets.secret_reads`, imported once (the secret rules import this module)."""
    global _SECRET_READS
    if _SECRET_READS is None:
        from limen.rules.secrets import secret_reads

        _SECRET_READS = secret_reads
    return _SECRET_READS


_SECRET_READS: Callable[[Action, Context], list[str]] | None = None

# Arguments of tools that edit part of a file (and show it back) rather than write all of it.
_EDIT_KEYS = frozenset({"old_string", "old_str", "edits", "patch", "input", "diff"})


_SOURCE_KEYS = frozenset({"source", "src", "from", "from_path", "old_path", "source_path"})


def _moved_sources(action: Action, ctx: Context) -> frozenset[str]:
    """The files a tool moves or copies elsewhere (`move_file(source=.env, destination=public/.env)`): what
    they hold goes where the destination is, so they are read, whatever the tool writes."""
    return frozenset(
        canonical(value, action.cwd or ctx.workspace, ctx.home)
        for key, value in action.arguments.items()
        if words_of(key) in _SOURCE_KEYS and isinstance(value, str) and value
    )


# What a key naming a destination has in it, whatever its spelling (`destination`, `dst`, `targetPath`, `to`)
_TARGET_HINT = re.compile(r"(?i)dest|dst|target|^to(?:_|[A-Z]|$)|new_?path")
_TARGET_KEYS = frozenset({"destination", "dest", "dst", "to", "to_path", "new_path", "target", "target_path"})


def _published_by_serving(action: Action, ctx: Context) -> str:
    """What a call puts into a folder a web site serves that the next visitor should not read, described
    ("" for nothing): a file holding a credential (by its name or its content) copied there (`cp
    app/etc/env.php pub/media/x.txt`, `copy_file(source=.., destination=public/..)`), or a database's rows
    a client's output writes there (`pg_dump db > public/db.sql`)."""
    if action.commands and not action.write_paths:  # (what a line puts in a folder, it writes there)
        return ""
    if not action.commands and not any(_TARGET_HINT.search(key) for key in action.arguments):
        return ""  # (a tool with no destination to name: `Read`, `WebFetch`; checked on every call)
    cwd = action.cwd or ctx.workspace
    pairs: list[tuple[str, str]] = []
    for command in action.commands:
        entry = program(command.name)
        if entry is None:
            continue
        if {Role.DATABASE_CLIENT, Role.SERVER_CLIENT} & entry.roles:
            for target in command.redirects:  # `mysql -e "SELECT email, phone ..." > pub/media/x.tsv`
                if SERVED_FOLDER.search(target):
                    return f"what {command.name} reads from its database is written into {target}"
        if Role.COPIES in entry.roles and command.name != "ln":
            named = [w for w in command.argv[1:] if not w.startswith("-")]
            pairs += [(source, named[-1]) for source in named[:-1]]
    sources = [v for k, v in action.arguments.items() if words_of(k) in _SOURCE_KEYS and isinstance(v, str)]
    targets = [v for k, v in action.arguments.items() if words_of(k) in _TARGET_KEYS and isinstance(v, str)]
    if len(targets) == 1:
        pairs += [(source, targets[0]) for source in sources]
    for source, target in pairs[:8]:
        into = canonical(target, cwd, ctx.home)
        if not SERVED_FOLDER.search(into.rstrip("/") + "/x"):
            continue
        path = canonical(source, cwd, ctx.home)
        if (is_secret_file(path) and not holds_public_material_only(path)) or (
            not _has_glob(path) and holds_secret(path)
        ):
            return f"{path} holds a credential and is copied into {into}"
    return ""


@rule(ReasonCode.SENSITIVE_SECRET_ACCESS)
def secret_files(action: Action, ctx: Context) -> Iterator[Finding]:
    """Reads of a secret: a secret file read or sent (not `chmod 600 key`, `ssh -i key`, `ls ~/.ssh`,
    `cp .env.example .env`), a command that prints a credential (`gh auth token`, `kubectl config view
    --raw`, a password manager's CLI) or a process's memory (`gcore PID`, `/proc/PID/mem`), a sweep for
    key material outside the workspace (`grep -r "BEGIN RSA PRIVATE KEY" ~`, `find / -name "*.pem"`,
    `trufflehog filesystem /`); and, for a file-read tool (whose
    output goes straight into the model's context), any file whose content holds a credential: decided
    before the read, since an agent may not let Limen take an output back once the tool ran. A credential
    store outside the workspace overwritten, replaced or deleted by a shell line (`rm ~/.aws/credentials`,
    `> ~/.ssh/id_rsa`) asks, as a Write to it does; so does another session's ssh agent socket put to use
    (`SSH_AUTH_SOCK=$(ls /tmp/ssh-*/agent.*) ssh host`)."""
    if published := _published_by_serving(action, ctx):
        yield Finding(
            ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 80, f"{published}, which a web site serves"
        )
        return
    if "SSH_AUTH_SOCK=" in action.command_line and any(
        secret_facts.AGENT_SOCKET.search(p) for p in action.paths
    ):  # `SSH_AUTH_SOCK=$(ls -t /tmp/ssh-*/agent.* | head -1) ssh host`: another session's keys used
        yield Finding(
            ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, "an ssh agent found on the machine used"
        )
        return
    if action.commands or action.capability == "shell.execute":
        for path in secret_paths_read(action, ctx):
            yield Finding(ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, f"secret file {path}")
            return
        if action.commands:
            for what in _secret_reads()(action, ctx):
                yield Finding(ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, what)
                return
        for path in secret_paths_changed(action, ctx):
            yield Finding(ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, f"secret file {path} changed")
            return
        return
    # A whole-file write (Write, write_file) returns nothing of the file: inside the workspace it is what a
    # shell's `> .env` is. An edit shows the lines it changed, so it reads.
    whole_write = action.capability == "filesystem.write" and not _EDIT_KEYS.intersection(action.arguments)
    names_only = NAMES_ONLY in action.notes and not action.write_paths
    moved = _moved_sources(action, ctx) if whole_write else frozenset()
    for path in _all_paths(action):
        if (
            is_secret_file(path)
            and not (whole_write and path not in moved and ctx.workspace and is_within(path, ctx.workspace))
            and (action.write_paths or not holds_public_material_only(path))
            and (action.write_paths or not _settings_without_token(path, ctx))
        ):
            if names_only:  # a listing gives names, not content (`ls ~/.ssh`); a look for them elsewhere asks
                if _has_glob(path) and not is_within(path, ctx.workspace):
                    yield Finding(
                        ReasonCode.SENSITIVE_SECRET_ACCESS,
                        Verdict.AUTH,
                        75,
                        "looks for secret files outside the workspace",
                    )
                    return
                continue
            yield Finding(ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, f"secret file {path}")
            return
    searched = [n[len(SEARCHES) :] for n in action.notes if n.startswith(SEARCHES)]
    if searched and any(secret_facts.names_key_material(text) for text in searched):
        roots = action.paths or (action.cwd or ctx.workspace,)
        if any(not is_within(root, ctx.workspace) for root in roots):  # `grep -r "PRIVATE KEY" ~`, as a tool
            yield Finding(
                ReasonCode.SENSITIVE_SECRET_ACCESS,
                Verdict.AUTH,
                75,
                "searches for key material outside the workspace",
            )
            return
    if action.capability == "filesystem.read" and not action.write_paths:
        for path in action.paths[:CONTENT_PROBE_PATHS]:
            if not _has_glob(path) and holds_secret(path):
                yield Finding(
                    ReasonCode.SENSITIVE_SECRET_ACCESS, Verdict.AUTH, 75, f"file {path} holds a credential"
                )
                return


@rule(ReasonCode.SENSITIVE_PATH_ACCESS, needs=("paths", "write_paths"))
def system_writes(action: Action, ctx: Context) -> Iterator[Finding]:
    """System locations written outside the workspace, and any access (read or write) to what the policy
    names in `sensitive_paths` (a directory covers everything below it)."""
    if ctx.extra_sensitive_paths:
        exact, prefixes = _protected_index(ctx.extra_sensitive_paths)
        for path in _all_paths(action):
            folded = _folded(path)
            if folded in exact or folded.startswith(prefixes):
                yield Finding(
                    ReasonCode.SENSITIVE_PATH_ACCESS, Verdict.AUTH, 65, f"policy sensitive path {path}"
                )
                return
    modes_only = _modes_only(action, ctx)
    for path in action.write_paths:
        if (
            is_within(path, ctx.workspace)
            or is_within(path, ctx.home)  # the user's own files (root's home is /root)
            or path.startswith(("/tmp/", "/var/tmp/", "/dev/null"))
            or path in modes_only
            or _WSL_DRIVE.match(path)
            or _own_corner(path, ctx.home)
        ):
            continue
        if (
            any(is_within(path, d) for d in _SYSTEM_WRITE_DIRS)
            or (ctx.mode.strict_or_above and not is_within(path, ctx.home))
            or (path.startswith(_MOUNTS) and _destroys_there(action))
        ):
            yield Finding(
                ReasonCode.SENSITIVE_PATH_ACCESS, Verdict.AUTH, 65, f"write outside workspace {path}"
            )
            return


@rule(ReasonCode.SENSITIVE_PATH_ACCESS, needs="notes")
def served_folders(action: Action, ctx: Context) -> Iterator[Finding]:
    """A folder outside the workspace served to the network (`python3 -m http.server --directory /`, `php -S
    0.0.0.0:80 -t ~`, `npx http-server ~`): every file in it, keys included, is handed to whoever asks.
    Quiet: serving the workspace or a folder in it (`python3 -m http.server`, `npx serve dist`), or /tmp."""
    for note in action.notes:
        if not note.startswith("serves:"):
            continue
        folder = note[len("serves:") :]
        scratch = folder.startswith(("/tmp/", "/var/tmp/")) and not (
            ctx.home and (is_within(folder, ctx.home) or is_within(ctx.home, folder))
        )  # a home folder kept under /tmp (a sandbox's) is still a home
        if (ctx.workspace and is_within(folder, ctx.workspace)) or scratch:
            continue
        yield Finding(ReasonCode.SENSITIVE_PATH_ACCESS, Verdict.AUTH, 75, f"serves {folder} to the network")
        return


def _modes_only(action: Action, ctx: Context) -> frozenset[str]:
    """Paths a shell line only re-permissions with chmod (`sudo chmod 755 $(which node)`): their content and
    owner stay; a mode that opens them to others or sets setuid is `unsafe_permissions`' to judge."""
    if not action.commands:
        return frozenset()
    cwd = action.cwd or ctx.workspace or "/"
    chmodded: set[str] = set()
    changed: set[str] = set()
    for command in action.commands:
        changed.update(command.redirects)
        words = changed_operands(command, metadata=True)
        target = chmodded if command.name == "chmod" else changed
        target.update(canonical(w, cwd, ctx.home) for w in words)
    return frozenset(chmodded - changed)


def _is_persistence(path: str, ctx: Context) -> bool:
    """Whether writing `path` plants something that runs, or is read as instructions, later (the fact
    table `limen.facts.paths`)."""
    return describe(path, home=ctx.home) is not None


_FORGE_WRITES = frozenset({"own_remote", "foreign_remote"})
_FILE_KEYS = ("path", "file_path", "filePath", "name")  # what forge and deploy tools call a file's path
_SCRIPT_KEYS = ("scriptName", "script_name", "functionName", "function_name", "workerName", "worker_name")
# A tool that deploys the files it is handed (`deploy_edge_function(files=[{name, content}])`): they run on
# the service from then on, as a committed file runs where the repository runs
_DEPLOYS = re.compile(r"(?:^|_)(?:deploy|publish)(?:_|$)")
# An MCP server or tool that stores what later sessions are told (memory, knowledge graphs, mem0), writing
_MEMORY_TOOL = re.compile(
    r"^mcp__[^_]*(?:memory|mem0|knowledge)[^_]*__.*(?:create|add|save|store|write|update|remember|observ)"
)
MAX_MEMORY_TEXT = 64 * 1024


def _strings_in(value: object, depth: int = 0) -> list[str]:
    """Every string in a tool's arguments, however nested (entities, observations...)."""
    if isinstance(value, str):
        return [value]
    if depth > 8:
        return []
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings_in(v, depth + 1)]
    if isinstance(value, (list, tuple)):
        return [s for v in value[:256] for s in _strings_in(v, depth + 1)]
    return []


def _committed_files(action: Action) -> list[tuple[str, str]]:
    """(path in the repository, content) of what a forge tool commits (`create_or_update_file(path,
    content)`, `push_files(files=[{path, content}])`) or a deploy tool deploys, as `/`-rooted paths the path
    table can describe; a file it deletes (`delete_file(path)`) is committed empty."""
    deploys = action.tool.startswith("mcp__") and bool(_DEPLOYS.search(words_of(action.tool)))
    if not deploys and not any(_FORGE_WRITES & set(d.flags) for d in action.destinations):
        return []
    args = action.arguments
    entries = [args, *(f for f in args.get("files") or () if isinstance(f, dict))]
    deletes = action.capability == "filesystem.delete"
    found = []
    for entry in entries[:64]:
        path = next((entry[k] for k in _FILE_KEYS if isinstance(entry.get(k), str)), None)
        if path is None and deploys:  # `worker_deploy(scriptName="edge", content=...)`: a worker's script, a
            # function's code, which the platforms run as JavaScript unless named otherwise
            named = next((entry[k] for k in _SCRIPT_KEYS if isinstance(entry.get(k), str)), None)
            path = named if named is None or "." in named.rsplit("/", 1)[-1] else named + ".js"
        content = entry.get("content")
        if path is not None and (isinstance(content, str) or (deletes and content is None)):
            found.append(("/" + path.lstrip("/"), content or ""))
    return found


# A tool that makes or changes what it is given (`resources_create_or_update`, `apply_manifest`), and a
# Kubernetes manifest's lines
_APPLIES = re.compile(r"(?:^|_)(?:create|apply|update|patch|replace|deploy|upsert)(?:_|$)")
_MANIFEST_LINES = re.compile(
    r"(?m)^[ \t]*apiVersion[ \t]*:[\s\S]*?^[ \t]*kind[ \t]*:"
    r"|^[ \t]*kind[ \t]*:[\s\S]*?^[ \t]*apiVersion[ \t]*:"
)


def _tool_manifests(action: Action) -> list[str]:
    """The Kubernetes manifests an MCP tool that applies what it is given is handed: deployed at once, as
    `kubectl apply -f -` deploys them."""
    if not action.tool.startswith("mcp__") or not _APPLIES.search(words_of(action.tool)):
        return []
    return [
        t
        for t in _strings_in(action.arguments)[:16]
        if "apiVersion" in t and _MANIFEST_LINES.search(t[:4096])
    ]


def _first_line(action: Action, path: str) -> str:
    """The `#!` line of what lands in `path`: the written text's, else the file's own (an Edit keeps it)."""
    text = written_text(action, path) or ""
    if text.startswith("#!") or "." in path.rsplit("/", 1)[-1]:
        return text
    return (read_text(path, 256) or "").split("\n", 1)[0]


@rule(ReasonCode.PERSISTENCE_WRITE, needs=("write_paths", "acting", "served"))
def persistence(action: Action, ctx: Context) -> Iterator[Finding]:
    """Files that run later (shell start-up files, git hooks and config, package scripts, test configs,
    editor tasks, ssh config, schedulers, `.pth`) and agent instruction files, judged by what is written:
    the commands the new text will run meet the objective rules as a shell line would (`curl ... | sh` in
    a postinstall script is what it is in a shell), instruction text meets the turn gate. Harmless
    content in an ordinary project file (dependencies in `package.json`, a fixture in `conftest.py`) is
    quiet; a place outside ordinary project work (`~/.bashrc`, `.git/hooks/*`, `authorized_keys`, cron,
    systemd, launchd) asks whatever the content. Program code (`.py`, `.sh`, `.js`, `.rb`, `.pl`, `.php`)
    meets only what the rules would BLOCK in it (an implant: `curl | sh`, a reverse shell). Strict and
    paranoid block what asks."""
    deploys = [c for c in action.commands if c.name in ("kubectl", "oc")]
    if not (action.write_paths or action.destinations or deploys or action.tool.startswith("mcp__")):
        return  # nothing written, committed, deployed or remembered
    worst: tuple[Verdict, str] | None = None
    for path in action.write_paths:
        fact = describe(path, home=ctx.home)
        if fact is None:
            fact = by_shebang(_first_line(action, path))  # `bin/docker-entrypoint`: a script by its `#!` line
        if fact is None and _prints_into(action, path):
            fact = unlisted(path)
        if fact is None:
            continue
        judged = judge(fact, path, action, ctx)
        if (
            judged is not None and fact is UNLISTED
        ):  # (what reads it, if anything does, is not known: it asks)
            judged = (min(judged[0], Verdict.AUTH), judged[1])
        if judged is not None and (worst is None or judged[0] > worst[0]):
            worst = judged
    if _MEMORY_TOOL.search(action.tool.lower()):  # a memory server's entries: read back as instructions
        text = "\n".join(_strings_in(action.arguments))[:MAX_MEMORY_TEXT]
        judged = judge_text(MEMORY_STORE, action.tool, text, action, ctx) if text.strip() else None
        if judged is not None and (worst is None or judged[0] > worst[0]):
            worst = judged
    own = any("own_remote" in d.flags for d in action.destinations)
    for path, text in _committed_files(action):  # a forge tool's files: they run where the repository runs
        fact = describe(path, home="/nonexistent-home")
        judged = judge_text(fact, path, text, action, ctx) if fact is not None else None
        if judged is None and fact is not None and own:  # the project's own file: what the commit drops
            local = os.path.join(ctx.workspace or action.cwd or "/", path.lstrip("/"))
            judged = committed_over(fact, local, text)
        if judged is not None and (worst is None or judged[0] > worst[0]):
            worst = judged
    for command in deploys:  # `kubectl apply -f -`: the manifest deployed at once, as if written
        for text in applied_manifests(command, action):
            judged = judge_text(MANIFEST, f"the manifest {command.name} applies", text, action, ctx)
            if judged is not None and (worst is None or judged[0] > worst[0]):
                worst = judged
    for text in _tool_manifests(action):  # `resources_create_or_update(resource="apiVersion: v1 ...")`
        judged = judge_text(MANIFEST, f"the manifest {action.tool} applies", text, action, ctx)
        if judged is not None and (worst is None or judged[0] > worst[0]):
            worst = judged
    if worst is None or worst[0] is Verdict.PASS:
        return
    verdict = worst[0]
    if ctx.mode.strict_or_above:
        verdict = Verdict.BLOCK
    yield Finding(
        ReasonCode.PERSISTENCE_WRITE,
        verdict,
        92 if verdict is Verdict.BLOCK else 70,
        f"runs later without asking: {_TOKENISH.sub('…', worst[1])}",
    )


def _prints_into(action: Action, path: str) -> bool:
    """The call's text is what lands in `path`: a tool's write, or a line that prints into it (a redirect,
    `tee`, an in-place edit), not a program that computes what it writes (`python -c "json.dump(...)"`)."""
    return not action.commands or any(
        path in command.redirects or command.name in _TEXT_WRITERS for command in action.commands
    )


_TEXT_WRITERS = frozenset({"tee", "sed", "gsed", "perl"})


# A long run of letters and digits in a path the explanation names (`~/.local/bin/ghp_Zq8v...`): a value the
# agent chose, maybe a secret, which the explanation (read by the agent, kept in the log) leaves out.
_TOKENISH = re.compile(r"(?=[\w+=-]*\d)(?=[\w+=-]*[A-Za-z])[\w+=-]{16,}")


# An SSH public key as it is given to an account, by its encoding, which starts with its type's name
# (`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5...`, or the blob alone: Puppet's `key => 'AAAAC3Nza...'`)
_SSH_PUBLIC_KEY = re.compile(
    r"\bAAAA(?:C3NzaC1lZDI1NTE5|B3NzaC1yc2E|E2VjZHNhLXNoYTIt|B3NzaC1kc3M|GnNrLXNzaC1lZDI1NTE5)[A-Za-z0-9+/=]{8,}"
)
# Files of keys that identify machines or that only hold a public half: they let no one in
_KEY_LISTS_NOT_ACCESS = re.compile(r"(?:^|/)(?:known_hosts\d?|ssh_known_hosts|[^/]+\.pub)$")
_KNOWN_HOSTS_CONTEXT = re.compile(r"(?i)known_?hosts|host_?keys?|fingerprint")
_HOST_BEFORE_KEY = re.compile(r"(?:[\w-]+\.[A-Za-z]{2,}|\d+(?:\.\d+){3}|\])(?:,\S+)?\s+(?:[\w@.-]+\s+)?$")


@rule(ReasonCode.PERSISTENCE_WRITE, needs="write_paths")
def key_let_in(action: Action, ctx: Context) -> Iterator[Finding]:
    """A file changed so that it gives an SSH key to an account, whatever the tool that applies it (a Puppet
    `ssh_authorized_key`, an Ansible `authorized_key` task, cloud-init's `ssh_authorized_keys`, a Packer
    provisioner, a Salt state): whoever holds the private half logs in on every machine it reaches, for good.
    AUTH. Quiet: a key the file already held; the user's own key (one of `~/.ssh/*.pub`); a file for a
    development or test machine (`cloud-init/dev/`, `molecule/`); host keys (`known_hosts`, a
    `ssh_known_hosts` list); a `.pub` file; documents."""
    if action.commands or not action.write_paths:
        return
    path = action.write_paths[0]
    if _KEY_LISTS_NOT_ACCESS.search(path) or path.lower().endswith((".md", ".rst", ".txt", ".adoc")):
        return
    inside = path[len(ctx.workspace) :] if ctx.workspace and path.startswith(ctx.workspace) else path
    if (
        NOT_PRODUCTION.search(inside) or "molecule/" in inside or "fixtures/" in inside
    ) and not PRODUCTION.search(inside):
        return  # (a test's fixture, a development machine's file)
    own: frozenset[str] | None = None  # read only once a new key is found
    for _, before, after in edited_texts(action):
        had = set(_SSH_PUBLIC_KEY.findall(before))
        for found in _SSH_PUBLIC_KEY.finditer(after[:256_000]):
            if found.group(0) in had:
                continue
            own = _own_public_keys(ctx.home) if own is None else own
            if found.group(0) in own:
                continue
            lead = after[max(0, found.start() - 300) : found.start()].split("\n")
            if _KNOWN_HOSTS_CONTEXT.search("\n".join(lead[-3:])) or _HOST_BEFORE_KEY.search(lead[-1]):
                continue  # a machine's key (`github.com ssh-ed25519 AAAA...`, a `known_hosts:` list)
            yield Finding(
                ReasonCode.PERSISTENCE_WRITE,
                Verdict.AUTH,
                70,
                f"an SSH key is let into an account: ...{found.group(0)[-16:]} in {path}",
            )
            return


def _own_public_keys(home: str) -> frozenset[str]:
    """The key blobs of the user's own public keys (`~/.ssh/*.pub`): giving one of them to an account lets
    in no one but the user."""
    import glob

    found: set[str] = set()
    for name in sorted(glob.glob(os.path.join(home, ".ssh", "*.pub")))[:16]:
        found.update(_SSH_PUBLIC_KEY.findall(read_text(name, 16_384) or ""))
    return frozenset(found)
