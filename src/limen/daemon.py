"""`limen daemon`: one long-lived decision process per user, so a hook event costs a socket round trip.

The hook client (`limen-hook`) starts it on demand. A lock file makes it one per user (per Limen home); the
socket is 0600 in a 0700 directory and the peer's uid is checked where the platform reports it. Each
connection is served on its own thread, so many agents and sessions are answered at once; a request that
fails closes the connection and the client decides in-process instead. It exits after a long idle spell,
and within seconds of its own code changing on disk (an upgrade, an edited checkout), so the next event
starts a daemon that decides with the code the user installed, never with the version it replaced.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import socket
import struct
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from limen.doors.hooks import wire
from limen.doors.hooks.handler import Superseded

if TYPE_CHECKING:
    from limen.audit.writer import AuditWriter

IDLE_EXIT_SECONDS = 1800.0
CODE_CHECK_SECONDS = 2.0  # how stale the decision code may be after an upgrade
READ_TIMEOUT_SECONDS = 10.0
STOP_PROOF_SECONDS = 30.0  # how old a signed stop request may be


class Daemon:
    """The accept loop, the shared runtimes and the counters `status` reports."""

    def __init__(self, listener: socket.socket) -> None:
        from limen.doors.hooks.handler import RuntimePool

        self.listener = listener
        self.pool = RuntimePool()
        self.started = time.time()
        self.last_active = time.monotonic()
        self.served = 0
        self.dropped = 0  # events whose client gave up and decided them itself
        self._count = threading.Lock()
        self.stopping = threading.Event()
        self.writer: AuditWriter | None = None  # appends the records its clients settle on
        from limen.state.keys import installation_key

        self.key = installation_key(wire.DAEMON_KEY)  # authenticates its answers to the hook clients

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "uptime_s": round(time.time() - self.started, 1),
            "served": self.served,
            "dropped": self.dropped,
            "socket": wire.socket_path(),
        }

    def serve_forever(self) -> None:
        code = CodeOnDisk()
        self.listener.settimeout(CODE_CHECK_SECONDS)
        while not self.stopping.is_set():
            if code.changed():
                _log().info("Limen's code changed on disk; stopping so the next event starts the new code")
                break
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                if time.monotonic() - self.last_active > IDLE_EXIT_SECONDS:
                    break
                continue
            except OSError:
                break
            if self.stopping.is_set():  # the wake-up connection of stop()
                conn.close()
                break
            self.last_active = time.monotonic()
            threading.Thread(target=self.serve_one, args=(conn,), daemon=True).start()

    def serve_one(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(READ_TIMEOUT_SECONDS)
                if not same_user(conn):
                    return
                message = wire.read_line(conn)
                reply = self.reply(message, conn)
                conn.settimeout(None)
                conn.sendall(wire.encode(self.signed(reply, message.get("nonce"))))
                if isinstance(reply.get("record"), dict):
                    self.record_when_asked(conn, reply["record"], reply.get("since", 0))
            except Superseded:
                with self._count:
                    self.dropped += 1
            except Exception as exc:  # the client falls back to deciding in-process
                _log().error("request failed: %s", type(exc).__name__)

    def reply(self, message: dict[str, Any], conn: socket.socket) -> dict[str, Any]:
        op = message.get("op")
        if op == "hook":
            from limen.doors.hooks.handler import handle

            agent, event, env = message["agent"], message["event"], message.get("env") or {}
            if not (isinstance(agent, str) and isinstance(event, str) and isinstance(env, dict)):
                raise ValueError("malformed hook request")
            env = {str(k): str(v) for k, v in env.items()}
            answer = handle(agent, event, env, self.pool, lambda: claim(conn))
            with self._count:
                self.served += 1
            return answer.to_wire()
        if op == "status":
            return self.status()
        if op == "stop":
            if not self.may_stop(message):
                raise ValueError("a stop request not signed with the daemon key")
            self.stop()
            return {"stopping": True}
        raise ValueError("unknown op")

    def may_stop(self, message: dict[str, Any]) -> bool:
        """Only a holder of the daemon key (`limen daemon stop`, run by the user) stops the daemon over
        the socket: an agent reaches the socket, but Limen refuses it the key."""
        import hmac

        stamp, proof = message.get("ts"), message.get("proof")
        if not (isinstance(stamp, int | float) and isinstance(proof, str)):
            return False
        fresh = abs(time.time() - stamp) < STOP_PROOF_SECONDS
        return fresh and hmac.compare_digest(proof, wire.sign(self.key, "stop", repr(stamp)))

    def signed(self, reply: dict[str, Any], nonce: Any) -> dict[str, Any]:
        """A hook answer as a body with its MAC over the client's nonce (see `wire`); other replies as is."""
        if not isinstance(nonce, str) or "stdout" not in reply:
            return reply
        body = json.dumps(reply, separators=(",", ":"))
        return {"body": body, "mac": wire.sign(self.key, nonce, body)}

    def record_when_asked(self, conn: socket.socket, record: dict[str, Any], since: int) -> None:
        """Append the answer's record once its client has settled on giving that answer (it asks), and
        confirm. A client that stops waiting records its own answer (and `append_once` keeps a late one of
        ours out), so a verdict the agent never got is never in the log."""
        conn.settimeout(READ_TIMEOUT_SECONDS)
        if wire.read_line(conn).get("record") is not True:
            return
        with self._count:
            if self.writer is None:
                from limen.audit.writer import AuditWriter

                self.writer = AuditWriter()
        self.writer.append_once(record, since=since if isinstance(since, int) else 0)
        conn.sendall(wire.encode({"recorded": True}))

    def stop(self) -> None:
        """Stop accepting: set the flag, then wake the accept loop with a connection of our own."""
        self.stopping.set()
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as wake:
            wake.settimeout(1.0)
            wake.connect(wire.socket_path())


class CodeOnDisk:
    """The files of the Limen modules this process has loaded, as they were when it loaded them.

    `changed()` is cheap enough to ask on every accepted connection (it looks at the disk at most every
    `CODE_CHECK_SECONDS`): a module file replaced, edited or removed means this process no longer runs what
    is installed. A module imported later is remembered as it is on first sight.
    """

    def __init__(self) -> None:
        self.seen: dict[str, tuple[int, int, int]] = {}
        self.next_check = 0.0

    def changed(self) -> bool:
        now = time.monotonic()
        if now < self.next_check:
            return False
        self.next_check = now + CODE_CHECK_SECONDS
        for name, module in list(sys.modules.items()):
            if name != "limen" and not name.startswith("limen."):
                continue
            path = getattr(module, "__file__", None)
            if not isinstance(path, str):
                continue
            try:
                info = os.stat(path)
            except OSError:
                return True
            current = (info.st_mtime_ns, info.st_size, info.st_ino)
            if self.seen.setdefault(path, current) != current:
                return True
        return False


def claim(conn: socket.socket) -> bool:
    """Whether the client still waits for this event (see `wire`): False once it has closed the socket."""
    try:
        conn.sendall(wire.encode({"claim": True}))
        return wire.read_line(conn).get("go") is True
    except (OSError, ValueError):
        return False


def same_user(conn: socket.socket) -> bool:
    """The peer runs as our uid (Linux SO_PEERCRED); elsewhere the 0600 socket is the whole check."""
    if not hasattr(socket, "SO_PEERCRED"):
        return True
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return bool(uid == os.getuid())


def take_lock() -> int | None:
    """The per-user lock (its file holds our pid), or None when another daemon holds it."""
    fd = os.open(os.path.join(wire.ensure_run_dir(), "daemon.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


def listen() -> socket.socket:
    path = wire.socket_path()
    if os.path.exists(path):
        os.unlink(path)  # stale: we hold the lock, so nobody else serves it
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        listener.bind(path)
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    listener.listen(128)
    return listener


def warm() -> None:
    """Import the whole decision path now (rules, shell parser, policy, state, audit, turn gate and the
    weights of its learned screens), so the first event is as fast as the next. Nothing is decided or
    written."""
    import limen.audit.writer
    import limen.normalize.shell
    import limen.scan
    import limen.state
    import limen.turngate
    import limen.turngate.repeat  # noqa: F401
    from limen.rules import objective_rules
    from limen.runtime import Runtime
    from limen.turngate import drift, tier2

    objective_rules()
    Runtime(workspace=os.getcwd()).context  # noqa: B018  (loads the policy stack)
    if tier2.enabled():  # the learned screens' weights: tens of milliseconds to read, once
        tier2.model()
    if drift.enabled():
        drift.model()


def serve() -> int:
    lock = take_lock()
    if lock is None:
        return 0  # another daemon already serves this user
    os.chdir(wire.run_dir())  # never pin the directory of the agent that happened to start us
    listener = listen()
    daemon = Daemon(listener)
    signal.signal(signal.SIGTERM, lambda *_: daemon.stop())
    _log().info("serving on %s, pid %d", wire.socket_path(), os.getpid())
    try:
        warm()
    except Exception as exc:  # a broken engine still gets served: every answer will be a deny
        _log().error("warm-up failed: %s; every answer will be a deny", type(exc).__name__)
    try:
        daemon.serve_forever()
    finally:
        with contextlib.suppress(OSError):
            os.unlink(wire.socket_path())
        listener.close()
        daemon.pool.close()
        if daemon.writer is not None:
            daemon.writer.close()
        os.close(lock)
        _log().info("stopped, pid %d", os.getpid())
    return 0


def _log() -> logging.Logger:
    """The daemon's log (its stderr is LIMEN_HOME/daemon.log), set up on first use."""
    from limen.logs import logger

    return logger("daemon")


def running_pid() -> int | None:
    """The pid in the lock file while a daemon holds the lock."""
    path = os.path.join(wire.run_dir(), "daemon.lock")
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        with open(path) as handle:
            text = handle.read().strip()
        return int(text) if text.isdigit() else None
    finally:
        os.close(fd)
    return None


def status(timeout: float = 2.0) -> dict[str, Any] | None:
    try:
        return wire.request({"op": "status"}, timeout)
    except (OSError, ValueError):
        return None


def start(timeout: float = 10.0) -> dict[str, Any] | None:
    """Start a daemon unless one answers; wait until it does."""
    current = status()
    if current is not None:
        return current
    wire.spawn_daemon()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        current = status(0.5)
        if current is not None:
            return current
        time.sleep(0.05)
    return None


def stop(timeout: float = 3.0) -> bool:
    """Ask the daemon to stop, then SIGTERM, then SIGKILL, each after `timeout`; True once it is gone."""
    pid = running_pid()
    from limen.state.keys import installation_key

    stamp = time.time()
    proof = wire.sign(installation_key(wire.DAEMON_KEY), "stop", repr(stamp))
    with contextlib.suppress(OSError, ValueError):
        wire.request({"op": "stop", "ts": stamp, "proof": proof}, 1.0)
    for sig in (signal.SIGTERM, signal.SIGKILL, None):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if running_pid() is None:
                return True
            time.sleep(0.05)
        if pid is None or sig is None:
            break
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
    return running_pid() is None


def main(argv: list[str]) -> int:
    """`limen daemon start|stop|status|serve`."""
    command = argv[0] if argv else "status"
    if command == "serve":
        return serve()
    if command == "start":
        current = start()
        print(json.dumps(current) if current else "limen daemon: did not start (see daemon.log)")
        return 0 if current else 1
    if command == "stop":
        stopped = stop()
        print("limen daemon: stopped" if stopped else "limen daemon: still running")
        return 0 if stopped else 1
    if command == "status":
        current = status()
        print(json.dumps(current) if current else "limen daemon: not running")
        return 0 if current else 3
    print("usage: limen daemon start|stop|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
