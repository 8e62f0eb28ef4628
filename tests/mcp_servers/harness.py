"""Drive MCP processes from tests: a raw newline-JSON client, paths to the servers, a temp environment."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
FS = os.path.join(HERE, "fs_server.py")
SHELL = os.path.join(HERE, "shell_server.py")
FAULTY = os.path.join(HERE, "faulty_server.py")
MANGLE = os.path.join(HERE, "mangle.py")
TINY = os.path.join(HERE, "tiny_server.py")
PY = sys.executable
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
ANSWER_WAIT = 30.0  # a bound on waiting for any answer, far above every configured timeout


@dataclass
class Env:
    """A throwaway LIMEN_HOME, HOME and workspace."""

    root: str
    home: str
    limen_home: str
    workspace: str

    def vars(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ, HOME=self.home, LIMEN_HOME=self.limen_home, **extra)
        env.pop("LIMEN_SESSION_ID", None)
        return env


def make_env(root: str | None = None) -> Env:
    root = root or tempfile.mkdtemp(prefix="limen-mcp-")
    env = Env(root, os.path.join(root, "home"), os.path.join(root, "limen"), os.path.join(root, "ws"))
    for path in (env.home, env.limen_home, env.workspace):
        os.makedirs(path, exist_ok=True)
    return env


def proxy_argv(server: str, *options: str, name: str = "") -> list[str]:
    named = ["--name", name] if name else []
    return [PY, "-m", "limen", "mcp", *named, *options, "--", PY, server]


class LineClient:
    """An MCP client at the wire level: writes JSON lines, returns each answer and its exact bytes."""

    def __init__(self, argv: list[str], env: Env, **extra_env: str) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=env.vars(**extra_env),
            cwd=env.workspace,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.others: list[dict[str, Any]] = []
        self._next = 0
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip(b"\n"))
        self.lines.put(b"")

    def send_raw(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message).encode())

    def answer(self, message_id: Any) -> tuple[dict[str, Any], bytes]:
        deadline = time.monotonic() + ANSWER_WAIT
        while True:
            raw = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if raw == b"":
                raise EOFError("the process closed its output")
            message = json.loads(raw)
            if message.get("id") == message_id and "method" not in message:
                return message, raw
            self.others.append(message)

    def request(
        self, method: str, params: dict[str, Any] | None = None, *, modern: bool = False
    ) -> tuple[dict[str, Any], bytes]:
        self._next += 1
        params = dict(params or {})
        if modern:
            params["_meta"] = {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
            }
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params:
            message["params"] = params
        self.send(message)
        return self.answer(self._next)

    def initialize(self) -> dict[str, Any]:
        answer, _ = self.request(
            "initialize",
            {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def tools(self, **kw: Any) -> dict[str, dict[str, Any]]:
        answer, _ = self.request("tools/list", **kw)
        return {tool["name"]: tool for tool in answer["result"]["tools"]}

    def call(self, name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        answer, _ = self.request("tools/call", {"name": name, "arguments": arguments or {}}, **kw)
        result: dict[str, Any] = answer["result"]
        return result

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()

    def __enter__(self) -> LineClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def beyond_probe(secret_line: str) -> str:
    """File content whose secret sits past what the path rules read before a file-read call runs, so only
    the screening of the result can catch it (and the result is large: screened off the event loop)."""
    from limen.rules.paths import CONTENT_PROBE_BYTES

    filler = "".join(f"line {i:06d}: nothing to see here\n" for i in range(CONTENT_PROBE_BYTES // 30 + 1))
    return filler + secret_line + "\n"


def text(result: dict[str, Any]) -> str:
    return "\n".join(block.get("text", "") for block in result.get("content", []))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_http(argv: list[str], env: Env, port: int, **extra_env: str) -> subprocess.Popen[bytes]:
    """Start an HTTP MCP endpoint on `port` and wait until it accepts connections."""
    proc = subprocess.Popen(
        argv,
        env=env.vars(**extra_env),
        cwd=env.workspace,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + ANSWER_WAIT
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/mcp", timeout=1)
        except urllib.error.HTTPError:
            return proc  # any HTTP answer means it is up
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the HTTP endpoint exited") from None
            time.sleep(0.1)
        else:
            return proc
    proc.kill()
    raise RuntimeError("the HTTP endpoint did not come up")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
