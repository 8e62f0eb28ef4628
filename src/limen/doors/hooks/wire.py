"""Where the decision daemon listens and how a request travels: standard library only.

One JSON object per line each way over a Unix socket that only its user can reach: the socket lives in a
0700 directory under Limen's home (a protected path) and is itself 0600; the daemon also checks the peer's
uid where the platform reports it.

A hook event is one exchange with a claim in the middle: the client sends the event; the daemon, just
before it records anything (audit, session), sends `{"claim": true}`; the client answers `{"go": true}`
only if it is still waiting, and the daemon then sends the answer. A client that stopped waiting has closed
the socket and decides the event itself, so the daemon drops the work: one event is never recorded twice.

The answer is authenticated: the client sends a fresh nonce with the event, and the daemon sends the answer
as a string `body` with `mac`, a keyed BLAKE2b of nonce and body under the daemon key (`LIMEN_HOME/keys/
daemon.key`, 0600, a protected path an agent cannot read through Limen). Whatever else listens on the socket
(a process that removed and re-bound it, or one started after stopping the daemon) cannot answer for the
daemon: the client then decides the event itself.
"""

from __future__ import annotations

# `_socket`, not `socket`: the Python layer imports `enum` and `selectors`, milliseconds per hook process.
# The daemon passes its own `socket.socket` objects (a subclass) to the same functions.
import _socket
import os
import stat
import sys

from limen.doors.hooks import cjson
from limen.home import limen_home

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from typing import Any

MAX_EVENT_BYTES = 8 * 1024 * 1024
# Environment the agent gives its hook that the daemon, started elsewhere, does not have.
# `limen run` names its session in LIMEN_SESSION: the hooks inside decide in it, as its egress proxy does.
RUN_SESSION = "LIMEN_SESSION"
FORWARDED_ENV = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", RUN_SESSION)
# The hook process's own directory, sent with the event: a relative `cwd` in an event means relative to it,
# wherever the event is decided (the daemon runs elsewhere).
HOOK_CWD = "LIMEN_HOOK_CWD"
# Until when (epoch seconds) the hook process can wait for an answer, sent with the event: an AUTH is held
# for a human's approval no longer than that (`limen.doors.hooks.handler.held`).
HOLD_UNTIL = "LIMEN_HOOK_HOLD_UNTIL"
_SUN_PATH_MAX = 100  # sockaddr_un holds 104-108 bytes depending on the platform


def run_dir() -> str:
    """The daemon's directory: under Limen's home, or a per-user runtime dir when that path is too long."""
    home = os.path.abspath(limen_home())
    path = os.path.join(home, "run")
    if len(os.path.join(path, "daemon.sock").encode()) <= _SUN_PATH_MAX:
        return path
    import hashlib

    base = os.environ.get("XDG_RUNTIME_DIR") or os.path.join("/tmp", f"limen-{os.getuid()}")
    return os.path.join(base, "limen-" + hashlib.sha256(home.encode()).hexdigest()[:16])


def socket_path() -> str:
    return os.path.join(run_dir(), "daemon.sock")


def ensure_run_dir() -> str:
    """Create the directory 0700; refuse one (or a parent) that another user owns or that is a symlink."""
    path = run_dir()
    os.makedirs(path, mode=0o700, exist_ok=True)
    check_run_dir(path)
    os.chmod(path, 0o700)
    return path


def check_run_dir(path: str) -> None:
    """Raise unless the directory and its parent belong to this user and are not symlinks: a socket in a
    directory someone else controls could be their daemon answering for ours."""
    for directory in (path, os.path.dirname(path)):
        info = os.lstat(directory)
        if info.st_uid != os.getuid() or stat.S_ISLNK(info.st_mode):
            raise PermissionError(f"{directory} is not a directory of this user")


DAEMON_KEY = "daemon"


def audit_size() -> int:
    """The size of the hook doors' audit log now (`limen.audit.default_dir()`), 0 while there is none: a
    record made from here on lies past it (see `AuditWriter.append_once`)."""
    try:
        return os.stat(os.path.join(limen_home(), "audit", "decisions.jsonl")).st_size
    except OSError:
        return 0


def handoff(record: dict[str, Any], since: int) -> None:
    """Leave a record to a detached process that appends it once (`python -m limen.audit.handoff`): the
    hook must answer and exit before the agent's own timeout even when the machine is too loaded for the
    record to be written in time, and the record must still land."""
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-I", "-m", "limen.audit.handoff"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "LIMEN_HOME": os.path.abspath(limen_home())},
    )
    assert proc.stdin is not None
    proc.stdin.write(cjson.dumps({"record": record, "since": since}).encode())
    proc.stdin.close()


def daemon_key_path() -> str:
    """Same place as `limen.state.keys.key_path("daemon")`, without importing hashlib's OpenSSL binding."""
    return os.path.join(limen_home(), "keys", f"{DAEMON_KEY}.key")


def daemon_key() -> bytes | None:
    """The daemon key, or None while no daemon has made one (then no answer can be trusted)."""
    try:
        with open(daemon_key_path(), "rb") as fh:
            raw = fh.read(80).strip()
        return bytes.fromhex(raw.decode()) if len(raw) == 64 else None
    except (OSError, ValueError):
        return None


def sign(key: bytes, nonce: str, body: str) -> str:
    """The answer's MAC: keyed BLAKE2b over the client's nonce and the exact body sent."""
    try:
        from _blake2 import blake2b  # hashlib would load OpenSSL's binding first: 4 ms per hook process
    except ImportError:  # pragma: no cover - an interpreter without the builtin module
        from hashlib import blake2b
    return blake2b(nonce.encode() + b"\0" + body.encode(), key=key, digest_size=32).hexdigest()


def encode(message: dict[str, Any]) -> bytes:
    return cjson.dumps(message).encode() + b"\n"


def read_line(sock: _socket.socket, limit: int = MAX_EVENT_BYTES + 65536) -> dict[str, Any]:
    """One newline-terminated JSON object; raises on EOF before the newline, oversize or bad JSON."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("peer closed before answering")
        chunks.append(chunk)
        size += len(chunk)
        if b"\n" in chunk:
            break
        if size > limit:
            raise ValueError("message too large")
    message = cjson.loads(b"".join(chunks).split(b"\n", 1)[0])
    if not isinstance(message, dict):
        raise ValueError("message is not an object")
    return message


def connect(timeout: float) -> _socket.socket:
    """A connection to this user's daemon, each read on it bounded by `timeout` seconds."""
    check_run_dir(run_dir())
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(socket_path())
    except BaseException:
        sock.close()
        raise
    return sock


def request(message: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Send one request to the daemon and wait up to `timeout` seconds for its answer."""
    sock = connect(timeout)
    try:
        sock.sendall(encode(message))
        return read_line(sock)
    finally:
        sock.close()


def spawn_daemon() -> int:
    """Start `limen daemon` in the background, detached from the agent's session and pipes.

    The agent's working directory is a project the agent writes to: `python -m` would put it first on
    `sys.path`, so a `fcntl.py` there would run inside the decision process. The daemon therefore runs
    isolated (`-I`: no cwd or script dir on the path, no PYTHON* variables, no user site; the venv's own
    site-packages still load) and from Limen's own run directory.
    """
    import subprocess

    directory = ensure_run_dir()
    fd = os.open(os.path.join(directory, "daemon.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-m", "limen.daemon", "serve"],
            cwd=directory,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=fd,
            start_new_session=True,
        )
    finally:
        os.close(fd)
    return proc.pid
