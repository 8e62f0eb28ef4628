"""Real Redis and PostgreSQL servers for the fleet tests and the fleet benchmark, each started in a temp
directory on a Unix socket (no port to collide with), and stopped afterwards.

PostgreSQL refuses to run as root: as root, its directory is handed to the `postgres` user (or `nobody`)
and the server runs as that user. Tests skip with the reason when the server binaries are missing (`.ci/run`
installs them: `apt-get install -y redis-server postgresql`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass


def redis_binary() -> str | None:
    return shutil.which("redis-server")


def postgres_bindir() -> str | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(candidate, "postgres")):
            return candidate
    found = shutil.which("pg_ctl")
    return os.path.dirname(os.path.realpath(found)) if found else None


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A `redis-server` on a Unix socket in a temp dir, no persistence; yields its `unix://` URL."""
    binary = redis_binary()
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
    directory = tempfile.mkdtemp(prefix="limen-redis-")
    sock = os.path.join(directory, "redis.sock")
    proc = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700", "--save", "",
         "--appendonly", "no", "--dir", directory, "--maxmemory-policy", "noeviction"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for(lambda: os.path.exists(sock), proc, "redis-server")
        yield f"unix://{sock}"
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A PostgreSQL cluster made by `initdb` in a temp dir, listening on a Unix socket only; yields a
    conninfo string for its `postgres` database."""
    bindir = postgres_bindir()
    if bindir is None:
        raise RuntimeError("the PostgreSQL server is not installed (apt-get install -y postgresql)")
    directory = tempfile.mkdtemp(prefix="limen-pg-")
    data, sock = os.path.join(directory, "data"), directory
    prefix: list[str] = []
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:  # postgres will not run as root
        user = "postgres" if _has_user("postgres") else "nobody"
        info = pwd.getpwnam(user)
        os.chown(directory, info.pw_uid, info.pw_gid)
        prefix = ["runuser", "-u", user, "--"]
    os.chmod(directory, 0o755)
    port = str(20000 + os.getpid() % 20000)  # names the socket file only: nothing listens on TCP
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    subprocess.run([*prefix, f"{bindir}/initdb", "-D", data, "-U", user, "-A", "trust", "--no-sync"], **run)  # type: ignore[call-overload]
    options = f"-c listen_addresses='' -c unix_socket_directories={sock} -p {port} -c fsync=off"
    subprocess.run(
        [*prefix, f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(directory, "log"), "-o", options,
         "-w", "start"],
        **run,
    )  # type: ignore[call-overload]  # fmt: skip
    try:
        yield f"host={sock} port={port} user={user} dbname=postgres"
    finally:
        subprocess.run(
            [*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(directory, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _wait_for(ready: object, proc: subprocess.Popen[bytes], name: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with status {proc.returncode}")
        if time.monotonic() > end:
            raise RuntimeError(f"{name} did not start within {timeout} s")
        time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_replica(
    home: str,
    workspace: str,
    *,
    state: str,
    audit: str,
    port: int | None = None,
    tls: tuple[str, str] | None = None,
    extra: tuple[str, ...] = (),
) -> tuple[subprocess.Popen[bytes], str]:
    """One `limen serve` process on loopback sharing `home` (keys, tokens), `state` and `audit` (https with
    `tls` = (certificate, key)); returns it and its URL once /healthz answers."""
    import ssl
    import sys
    import urllib.request

    port = port or free_port()
    env = {**os.environ, "LIMEN_HOME": home}
    env.pop("LIMEN_SERVER", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "limen", "serve", "--listen", f"127.0.0.1:{port}", "--workspace", workspace,
         "--state", state, "--audit", audit, *(["--tls-cert", tls[0], "--tls-key", tls[1]] if tls else []),
         *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    context = ssl.create_default_context(cafile=tls[0]) if tls else None

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1, context=context) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    try:
        _wait_for(answers, proc, "limen serve", timeout=30.0)
    except RuntimeError:
        proc.kill()
        stderr = proc.communicate()[1].decode(errors="replace")
        raise RuntimeError(f"limen serve did not start: {stderr[-2000:]}") from None
    return proc, url


@dataclass
class Replica:
    """One `limen serve` on loopback with one agent identity; what a door needs to point at it."""

    url: str
    token: str
    home: str
    workspace: str
    audit: str  # the replica's audit directory
    state: str  # its session store (SQLite), where `limen serve pending|approve` finds its requests

    def door_env(self, **extra: str) -> dict[str, str]:
        """The variables that make a door decide through this replica."""
        return {"LIMEN_SERVER": self.url, "LIMEN_SERVER_TOKEN": self.token, **extra}


@contextlib.contextmanager
def one_replica(root: str, workspace: str, identity: str = "agent-a") -> Iterator[Replica]:
    """A single replica on SQLite state and a file audit under `root` (no Redis or PostgreSQL needed):
    enough for the doors' tests, which are about the client side."""
    import sys

    home = os.path.join(root, "serve-home")
    os.makedirs(home, exist_ok=True)
    token = subprocess.run(
        [sys.executable, "-m", "limen", "serve", "token", "add", identity],
        env={**os.environ, "LIMEN_HOME": home},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    audit, state = os.path.join(root, "serve-audit"), os.path.join(root, "serve-state.sqlite")
    proc, url = start_replica(home, workspace, state=state, audit=audit)
    try:
        yield Replica(url, token, home, workspace, audit, state)
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


def self_signed(directory: str) -> tuple[str, str]:
    """A certificate for 127.0.0.1 (its own CA) and its key, made by the openssl command."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


# -- pytest fixtures (import them into a test module to use them) ------------------------------------------
import itertools  # noqa: E402

import pytest  # noqa: E402

_names = itertools.count()


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    if redis_binary() is None:
        pytest.skip("redis-server is not installed (.ci/run installs it: apt-get install -y redis-server)")
    with redis_server() as url:
        yield url


@pytest.fixture
def redis_url(redis_server_url: str) -> Iterator[str]:
    """The session's Redis, emptied for each test."""
    import redis

    client = redis.Redis.from_url(redis_server_url)
    client.flushall()
    client.close()
    yield redis_server_url


@pytest.fixture(scope="session")
def postgres_server_dsn() -> Iterator[str]:
    if postgres_bindir() is None:
        pytest.skip(
            "the PostgreSQL server is not installed (.ci/run installs it: apt-get install -y postgresql)"
        )
    with postgres_server() as dsn:
        yield dsn


@pytest.fixture
def postgres_dsn(postgres_server_dsn: str) -> Iterator[str]:
    """A fresh database in the session's cluster for each test."""
    import psycopg

    name = f"limen_t{os.getpid()}_{next(_names)}"
    with psycopg.connect(postgres_server_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield postgres_server_dsn.replace("dbname=postgres", f"dbname={name}")
