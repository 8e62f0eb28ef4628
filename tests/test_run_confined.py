"""`limen run`: a real agent stand-in under real Landlock confinement tries to switch Limen off, and the
kernel refuses each attempt (EACCES for files and connections, EPERM for signals); ordinary work still goes
through, and so does the hook client's round trip to the daemon outside.

Every run has its own HOME, LIMEN_HOME and project under /var/tmp (not /tmp: a protected path under /tmp
would make /tmp itself an ancestor, where nothing new can be created, and the tests check /tmp stays
writable). Attempts on Limen's real code (this checkout's package and venv) are harmless if they succeed:
an open for append that writes nothing, a new empty file that is removed, a `sed` that matches nothing.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import limen
from limen.confine import Guard, agent_of, landlock, protected_paths, split_guarded, support

BIN = Path(sys.executable).parent
HOOK, LIMEN = BIN / "limen-hook", BIN / "limen"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks" / "claude-code"
ABI = landlock.abi_version()
needs_landlock = pytest.mark.skipif(
    ABI < landlock.ABI_SCOPE,
    reason=f"Landlock ABI >= {landlock.ABI_SCOPE} needed (this kernel offers {ABI or 'no Landlock'})",
)
ALLOWED_ERRNOS = {"EACCES", "EPERM"}


def _limen_lives_under(directory: str) -> bool:
    """Limen's own code (this checkout's package, its environment) lies below `directory`: then Landlock can
    allow no new file directly in it (docs/confinement.md), which a clone under /tmp makes true of /tmp."""
    below = os.path.realpath(directory).rstrip("/") + "/"
    roots = (os.path.dirname(limen.__file__), sys.prefix)
    return any(os.path.realpath(root).startswith(below) for root in roots)


TMP_HOLDS_LIMEN = _limen_lives_under(tempfile.gettempdir())
TMP_HOLDS_LIMEN_WHY = (
    "Limen is installed under the temporary directory: Landlock cannot allow new files directly in an "
    "ancestor of a protected path (a documented limit of `limen run`)"
)
GEMINI_SETTINGS = '{"hooks": {"BeforeTool": [{"hooks": [{"command": "limen-hook gemini"}]}]}}\n'

# Runs inside the confinement: each named attempt, as {"name": "ok" | errno name | "exit N"}.
PROBE = r"""
import errno, json, os, signal, socket, subprocess, sys

cfg = json.loads(sys.argv[1])
H, LH, P, PKG, SITE, STDLIB, SCRIPTS = (cfg[k] for k in ("home", "limen_home", "project", "package", "site",
                                                         "stdlib", "scripts"))
AUDIT = os.path.join(LH, "audit", "decisions.jsonl")


def create(path):
    with open(path, "x"):
        pass
    os.remove(path)  # it was allowed: leave nothing behind


def append(path):
    with open(path, "a"):
        pass


def run(*argv, **kw):
    proc = subprocess.run(list(argv), capture_output=True, timeout=60, **kw)
    if proc.returncode:
        raise SystemExit(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    return proc


def hook(event, **env):
    data = open(os.path.join(cfg["fixtures"], event), "rb").read()
    proc = subprocess.run([cfg["hook"], "claude-code"], input=data, capture_output=True, timeout=60,
                          env={**os.environ, **env})
    return {"code": proc.returncode, "stdout": proc.stdout.decode(), "stderr": proc.stderr.decode()[-500:]}


def connect_unix(path):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)


def connect_tcp(port):
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass


def bind_unix(path):
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(path)


def in_project():
    d = os.path.join(P, "src")
    with open(os.path.join(d, "new.py"), "w") as f:
        f.write("x = 1\n")
    os.rename(os.path.join(d, "new.py"), os.path.join(d, "moved.py"))
    os.makedirs(os.path.join(d, "pkg", "deep"))
    os.remove(os.path.join(d, "moved.py"))
    with open(os.path.join(P, "README.md"), "a") as f:  # a file at the top that existed at start
        f.write("more\n")


def in_tmp():
    d = os.path.join("/tmp", f"limen-run-probe-{os.getpid()}")
    os.mkdir(d)
    with open(os.path.join(d, "f"), "w") as f:
        f.write("x")
    os.remove(os.path.join(d, "f"))
    os.rmdir(d)


def ptrace_attach(pid):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    libc.ptrace(17, pid, None, None)  # PTRACE_DETACH


def stop_by_request():
    import time

    run(cfg["limen"], "daemon", "stop")
    end = time.monotonic() + 20
    while time.monotonic() < end:  # limen run, outside, starts it again
        status = subprocess.run([cfg["limen"], "daemon", "status"], capture_output=True, text=True)
        if status.returncode == 0 and json.loads(status.stdout)["pid"] != cfg["daemon_pid"]:
            return
        time.sleep(0.1)
    raise SystemExit("exit 1: the daemon did not come back")


def project_wiring_written():
    with open(os.path.join(P, "limen.yaml"), "w") as f:
        f.write("mode: off\n")
    os.mkdir(os.path.join(P, ".codex"))
    with open(os.path.join(P, ".codex", "config.toml"), "w") as f:
        f.write("[features]\ncodex_hooks = false\n")
    os.remove(os.path.join(P, ".claude", "settings.json"))


def project_wiring_restored():
    restored(os.path.join(P, "limen.yaml"), "mode: balanced\n")
    restored(os.path.join(P, ".claude", "settings.json"), '{"hooks": {}}\n')
    import time

    end = time.monotonic() + 5
    while os.path.exists(os.path.join(P, ".codex")):
        if time.monotonic() > end:
            raise SystemExit("exit 1: .codex was not removed")
        time.sleep(0.05)


def agent_state():
    folder = os.path.join(H, ".gemini")
    with open(os.path.join(folder, "projects.json.tmp"), "w") as f:
        f.write("{}")
    os.replace(os.path.join(folder, "projects.json.tmp"), os.path.join(folder, "projects.json"))
    os.mkdir(os.path.join(folder, "tmp"))


def restored(path, original, wait=5.0):
    import time

    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            with open(path) as f:
                if f.read() == original:
                    return
        except FileNotFoundError:
            pass  # deleted by the attempt, not put back yet: the watcher restores it from outside
        time.sleep(0.05)
    raise SystemExit("exit 1: not put back")


ATTEMPTS = {
    # tampering: each must be refused
    "write_limen_home": lambda: create(os.path.join(LH, "policy.yaml")),
    "append_audit": lambda: append(AUDIT),
    "delete_audit": lambda: os.remove(AUDIT),
    "truncate_audit": lambda: os.truncate(AUDIT, 0),
    "rename_audit": lambda: os.rename(AUDIT, AUDIT + ".old"),
    "find_delete_audit": lambda: run("find", LH, "-name", "decisions.jsonl", "-delete"),
    "delete_key": lambda: os.remove(os.path.join(LH, "keys", "daemon.key")),
    "delete_socket": lambda: os.remove(cfg["socket"]),
    "bind_impostor": lambda: bind_unix(os.path.join(os.path.dirname(cfg["socket"]), "impostor.sock")),
    "pth_in_site_packages": lambda: create(os.path.join(SITE, "zz-limen-probe.pth")),
    "sitecustomize_in_stdlib": lambda: create(os.path.join(STDLIB, "sitecustomize.py")),
    "edit_package": lambda: append(os.path.join(PKG, "__init__.py")),
    "sed_package": lambda: run("sed", "-i", "s/NEVER-MATCHES-limen-probe//", os.path.join(PKG, "home.py")),
    "new_module_in_package": lambda: create(os.path.join(PKG, "zz_probe.py")),
    "edit_hook_script": lambda: append(os.path.join(SCRIPTS, "limen-hook")),
    "user_claude_settings": lambda: append(os.path.join(H, ".claude", "settings.json")),
    "user_claude_local_settings": lambda: create(os.path.join(H, ".claude", "settings.local.json")),
    "delete_user_claude_settings": lambda: os.remove(os.path.join(H, ".claude", "settings.json")),
    "project_claude_settings": lambda: append(os.path.join(P, ".claude", "settings.json")),
    "gemini_settings": lambda: append(os.path.join(H, ".gemini", "settings.json")),
    "gemini_trusted_folders": lambda: create(os.path.join(H, ".gemini", "trustedFolders.json")),
    "gemini_new_file": lambda: create(os.path.join(H, ".gemini", "projects.json.tmp")),
    "codex_hooks": lambda: create(os.path.join(H, ".codex", "hooks.json")),
    "project_codex": lambda: os.mkdir(os.path.join(P, ".codex")),
    "cursor_hooks": lambda: create(os.path.join(H, ".cursor", "hooks.json")),
    "project_limen_yaml": lambda: append(os.path.join(P, "limen.yaml")),
    "delete_project_limen_yaml": lambda: os.remove(os.path.join(P, "limen.yaml")),
    "shell_startup_file": lambda: append(os.path.join(H, ".bashrc")),
    "new_shell_startup_file": lambda: create(os.path.join(H, ".zshrc")),
    "child_shell_writes_home": lambda: run("sh", "-c", f"echo x >> {LH}/policy.yaml"),
    "stop_daemon": lambda: os.kill(cfg["daemon_pid"], signal.SIGSTOP),
    "kill_daemon": lambda: os.kill(cfg["daemon_pid"], signal.SIGTERM),
    "kill_limen_run": lambda: os.kill(os.getppid(), signal.SIGTERM),
    "kill_command_daemon": lambda: run("kill", "-STOP", str(cfg["daemon_pid"])),
    "write_daemon_memory": lambda: open(f"/proc/{cfg['daemon_pid']}/mem", "wb"),
    "ptrace_attach_daemon": lambda: ptrace_attach(cfg["daemon_pid"]),
    # ordinary work: each must go through
    "write_in_project": in_project,
    "write_in_tmp": in_tmp,
    "git_init": lambda: run("git", "init", "-q", os.path.join(P, "src", "repo")),
    "child_process": lambda: run("sh", "-c", f"echo hi > {P}/src/child.txt && cat {P}/src/child.txt"),
    "connect_daemon_socket": lambda: connect_unix(cfg["socket"]),
    "signal_own_child": lambda: subprocess.Popen(["sleep", "30"]).kill(),
    # --guard-agent-dir --agent gemini: the agent's folder is writable, its wiring put back from outside
    "stop_by_request": stop_by_request,
    # --guard-project: the project's top folder is writable, its wiring and limen.yaml put back from outside
    "new_file_at_project_top": lambda: open(os.path.join(P, "NEW.md"), "w").write("new\n"),
    "project_wiring_written": project_wiring_written,
    "project_wiring_restored": project_wiring_restored,
    "guarded_write": lambda: open(os.path.join(H, ".gemini", "settings.json"), "w").write('{"hooks": {}}'),
    "agent_state_replaced": agent_state,
    "guarded_restored": lambda: restored(os.path.join(H, ".gemini", "settings.json"), cfg["gemini_settings"]),
}

out = {}
for name in cfg["attempts"]:
    try:
        result = ATTEMPTS[name]()
        out[name] = "ok"
    except OSError as exc:
        out[name] = errno.errorcode.get(exc.errno, str(exc.errno))
    except SystemExit as exc:
        out[name] = str(exc)
for name, port in cfg.get("tcp", {}).items():
    try:
        connect_tcp(port)
        out[name] = "ok"
    except OSError as exc:
        out[name] = errno.errorcode.get(exc.errno, str(exc.errno))
for name, spec in cfg.get("hooks", {}).items():
    out[name] = hook(spec["event"], **spec.get("env", {}))
out["env"] = {k: os.environ.get(k) for k in ("LIMEN_CONFINED", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")}
print(json.dumps(out))
"""

TAMPERS = [
    "write_limen_home",
    "append_audit",
    "delete_audit",
    "truncate_audit",
    "rename_audit",
    "delete_key",
    "delete_socket",
    "bind_impostor",
    "pth_in_site_packages",
    "sitecustomize_in_stdlib",
    "edit_package",
    "new_module_in_package",
    "edit_hook_script",
    "user_claude_settings",
    "user_claude_local_settings",
    "delete_user_claude_settings",
    "project_claude_settings",
    "gemini_settings",
    "gemini_trusted_folders",
    "codex_hooks",
    "project_codex",
    "cursor_hooks",
    "project_limen_yaml",
    "delete_project_limen_yaml",
    "shell_startup_file",
    "new_shell_startup_file",
    "stop_daemon",
    "kill_daemon",
    "kill_limen_run",
    "write_daemon_memory",
    "ptrace_attach_daemon",
]
TAMPER_COMMANDS = ["find_delete_audit", "sed_package", "child_shell_writes_home", "kill_command_daemon"]
ORDINARY = [
    "write_in_project",
    "write_in_tmp",
    "git_init",
    "child_process",
    "connect_daemon_socket",
    "signal_own_child",
]


@dataclass
class Sandbox:
    base: Path
    home: Path
    limen_home: Path
    project: Path
    env: dict[str, str]

    def limen(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LIMEN), *args],
            env=self.env,
            cwd=self.project,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def daemon_status(self) -> dict[str, Any]:
        proc = self.limen("daemon", "status", timeout=30)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        status: dict[str, Any] = json.loads(proc.stdout)
        return status

    def probe(
        self,
        attempts: list[str],
        *,
        egress: str | None = None,
        options: tuple[str, ...] = (),
        tcp: dict[str, int] | None = None,
        hooks: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], str]:
        """Run PROBE confined by `limen run` and return its results and `limen run`'s stderr."""
        config = {
            "home": str(self.home),
            "limen_home": str(self.limen_home),
            "project": str(self.project),
            "package": os.path.dirname(limen.__file__),
            "site": sysconfig.get_paths()["purelib"],
            "stdlib": sysconfig.get_paths()["stdlib"],
            "scripts": str(BIN),
            "socket": self.socket,
            "daemon_pid": self.daemon_status()["pid"],
            "fixtures": str(FIXTURES),
            "hook": str(HOOK),
            "limen": str(LIMEN),
            "attempts": attempts,
            "tcp": tcp or {},
            "hooks": hooks or {},
        }
        config["gemini_settings"] = GEMINI_SETTINGS
        flags = [*options, *(["--egress", egress] if egress else [])]
        proc = self.limen("run", *flags, "--", sys.executable, "-c", PROBE, json.dumps(config))
        assert proc.returncode == 0, proc.stderr
        results: dict[str, Any] = json.loads(proc.stdout)
        return results, proc.stderr

    @property
    def socket(self) -> str:
        return str(self.limen_home / "run" / "daemon.sock")


def make_sandbox() -> Sandbox:
    base = Path(tempfile.mkdtemp(prefix="limen-run-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    home, project = base / "home", base / "proj"
    limen_home = home / ".limen"
    for folder in (home / ".claude", home / ".codex", home / ".cursor", project / ".claude", project / "src"):
        folder.mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(GEMINI_SETTINGS)
    (project / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (project / "limen.yaml").write_text("mode: balanced\n")
    (project / "README.md").write_text("# a project\n")
    (home / ".bashrc").write_text("# the user's\n")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LIMEN_HOME": str(limen_home),
        "LIMEN_HOOK_DEADLINE_MS": "20000",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return Sandbox(base, home, limen_home, project, env)


@contextlib.contextmanager
def running_sandbox() -> Iterator[Sandbox]:
    """A fresh HOME, LIMEN_HOME and project, its daemon running and one decision already recorded."""
    box = make_sandbox()
    try:
        started = box.limen("daemon", "start", timeout=60)
        assert started.returncode == 0, started.stdout + started.stderr
        # One decision outside, so the audit log, the key and the state exist before the agent starts.
        event = (FIXTURES / "pre_bash_ls.json").read_bytes()
        subprocess.run([str(HOOK), "claude-code"], input=event, env=box.env, capture_output=True, timeout=60)
        assert (box.limen_home / "audit" / "decisions.jsonl").exists()
        yield box
    finally:
        box.limen("daemon", "stop", timeout=60)
        shutil.rmtree(box.base, ignore_errors=True)


@pytest.fixture(scope="module")
def shared() -> Iterator[Sandbox]:
    """One sandbox for the one confined run every tamper and look-alike attempt is made in."""
    with running_sandbox() as box:
        yield box


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    """A sandbox of the test's own, for the tests that change what they run in."""
    if ABI < landlock.ABI_SCOPE:
        pytest.skip(f"Landlock ABI >= {landlock.ABI_SCOPE} needed")
    with running_sandbox() as box:
        yield box


@pytest.fixture(scope="module")
def tampered(shared: Sandbox) -> tuple[dict[str, Any], str]:
    sandbox = shared
    hooks = {
        "hook_denied": {"event": "pre_bash_rm_hook_config.json"},
        "hook_passed": {"event": "pre_bash_ls.json"},
        "hook_without_daemon": {"event": "pre_bash_ls.json", "env": {"LIMEN_HOOK_DAEMON": "0"}},
    }
    before = sandbox.daemon_status()["served"]
    results, stderr = sandbox.probe([*TAMPERS, *TAMPER_COMMANDS, *ORDINARY], hooks=hooks)
    results["served_by_daemon"] = sandbox.daemon_status()["served"] - before
    return results, stderr


@needs_landlock
@pytest.mark.parametrize("attempt", TAMPERS)
def test_tamper_is_refused_by_the_kernel(tampered: tuple[dict[str, Any], str], attempt: str) -> None:
    assert tampered[0][attempt] in ALLOWED_ERRNOS


@needs_landlock
@pytest.mark.parametrize("attempt", TAMPER_COMMANDS)
def test_tamper_by_a_command_fails(tampered: tuple[dict[str, Any], str], attempt: str) -> None:
    assert tampered[0][attempt].startswith("exit "), tampered[0][attempt]
    assert "ermission denied" in tampered[0][attempt] or "not permitted" in tampered[0][attempt]


@needs_landlock
def test_signals_are_refused_with_eperm(tampered: tuple[dict[str, Any], str]) -> None:
    assert {tampered[0][name] for name in ("stop_daemon", "kill_daemon", "kill_limen_run")} == {"EPERM"}


@needs_landlock
def test_what_was_attacked_is_intact(shared: Sandbox, tampered: tuple[dict[str, Any], str]) -> None:
    sandbox = shared
    assert (sandbox.limen_home / "audit" / "decisions.jsonl").stat().st_size > 0
    assert (sandbox.limen_home / "keys" / "daemon.key").exists()
    assert not (sandbox.limen_home / "policy.yaml").exists()
    assert (sandbox.project / "limen.yaml").read_text() == "mode: balanced\n"
    assert (sandbox.home / ".gemini" / "settings.json").read_text() == GEMINI_SETTINGS
    assert (sandbox.home / ".bashrc").read_text() == "# the user's\n"
    assert not Path(sysconfig.get_paths()["purelib"], "zz-limen-probe.pth").exists()
    assert sandbox.daemon_status()["pid"]  # still answering: neither stopped nor killed


@needs_landlock
@pytest.mark.parametrize("attempt", ORDINARY)
def test_ordinary_work_goes_through(tampered: tuple[dict[str, Any], str], attempt: str) -> None:
    if attempt == "write_in_tmp" and TMP_HOLDS_LIMEN:
        assert tampered[0][attempt] in ALLOWED_ERRNOS  # refused by the kernel, as documented
        pytest.skip(TMP_HOLDS_LIMEN_WHY)
    assert tampered[0][attempt] == "ok"


@needs_landlock
def test_the_hook_inside_reaches_the_daemon(tampered: tuple[dict[str, Any], str]) -> None:
    results = tampered[0]
    denied, passed = results["hook_denied"], results["hook_passed"]
    assert denied["code"] == 2  # Claude Code's blocking exit, with the deny on stdout
    assert json.loads(denied["stdout"])["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "protected_path_blocked" in denied["stdout"]
    assert passed["code"] == 0 and json.loads(passed["stdout"]) == {}
    assert results["served_by_daemon"] >= 2  # both decided by the daemon outside, not in-process


@needs_landlock
def test_the_hook_inside_without_the_daemon_fails_closed(tampered: tuple[dict[str, Any], str]) -> None:
    """In-process, the hook cannot write the audit record or the session state: the harmless `ls` is then
    denied (or blocked by exit 2), never let through unrecorded."""
    answer = tampered[0]["hook_without_daemon"]
    assert answer["code"] == 2, answer
    assert json.loads(answer["stdout"])["hookSpecificOutput"]["permissionDecision"] == "deny", answer
    assert "PermissionError" in answer["stderr"]


@needs_landlock
def test_the_agent_is_told_it_is_confined(tampered: tuple[dict[str, Any], str]) -> None:
    results, stderr = tampered
    assert results["env"]["LIMEN_CONFINED"] == f"landlock:{ABI}"
    assert stderr.count("limen run: confined by Landlock ABI") == 1
    assert "not enforced:" in stderr


@needs_landlock
def test_egress_allows_one_tcp_port(sandbox: Sandbox) -> None:
    with socket.socket() as allowed, socket.socket() as other:
        for listener in (allowed, other):
            listener.bind(("127.0.0.1", 0))
            listener.listen(8)
        port, other_port = allowed.getsockname()[1], other.getsockname()[1]
        results, _ = sandbox.probe(
            ["write_in_tmp"], egress=f"127.0.0.1:{port}", tcp={"proxy": port, "elsewhere": other_port}
        )
    assert results["proxy"] == "ok"
    assert results["elsewhere"] == "EACCES"
    # the proxy URL carries the run's session credential (`limen.proxy.sessions`)
    assert results["env"]["HTTPS_PROXY"] == results["env"]["HTTP_PROXY"]
    assert results["env"]["HTTPS_PROXY"].startswith("http://run%3A")
    assert results["env"]["HTTPS_PROXY"].endswith(f"@127.0.0.1:{port}")
    assert results["env"]["NO_PROXY"] is None


@needs_landlock
def test_guard_agent_dir_leaves_the_agents_folder_writable_and_puts_its_wiring_back(sandbox: Sandbox) -> None:
    """Gemini CLI replaces ~/.gemini/projects.json through a temporary file beside it: with the kernel
    refusing ~/.gemini it cannot start. With --guard-agent-dir the folder is writable and its hook wiring
    is put back from outside; every other protected path stays refused by the kernel."""
    attempts = [
        "guarded_write",
        "agent_state_replaced",
        "guarded_restored",
        "user_claude_settings",
        "append_audit",
    ]
    try:
        results, stderr = sandbox.probe(attempts, options=("--guard-agent-dir", "--agent", "gemini"))
        assert results["guarded_write"] == results["agent_state_replaced"] == "ok"
        assert results["guarded_restored"] == "ok"
        assert results["user_claude_settings"] == results["append_audit"] == "EACCES"
        assert "was changed from inside: put back" in stderr
        assert (sandbox.home / ".gemini" / "settings.json").read_text() == GEMINI_SETTINGS
    finally:
        for leftover in ("projects.json", "tmp"):
            path = sandbox.home / ".gemini" / leftover
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


@needs_landlock
def test_guard_project_leaves_the_top_folder_writable_and_puts_its_wiring_back(sandbox: Sandbox) -> None:
    attempts = [
        "new_file_at_project_top",
        "project_wiring_written",
        "project_wiring_restored",
        "user_claude_settings",
        "write_limen_home",
    ]
    try:
        results, stderr = sandbox.probe(attempts, options=("--guard-project",))
        assert "stay writable" in stderr
        assert results["new_file_at_project_top"] == results["project_wiring_written"] == "ok"
        assert results["project_wiring_restored"] == "ok"
        assert results["user_claude_settings"] == results["write_limen_home"] == "EACCES"
        assert (sandbox.project / "limen.yaml").read_text() == "mode: balanced\n"
        assert not (sandbox.project / ".codex").exists()
    finally:
        (sandbox.project / "NEW.md").unlink(missing_ok=True)


def test_guard_puts_back_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / ".codex"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "hooks.json").write_text("{}")
    guard = Guard([str(folder), str(tmp_path / "absent")])
    (folder / "sub" / "hooks.json").write_text('{"off": true}')
    (folder / "extra.toml").write_text("x")
    (tmp_path / "absent").mkdir()
    (tmp_path / "absent" / "f").write_text("x")
    assert len(guard.check()) == 2
    assert (folder / "sub" / "hooks.json").read_text() == "{}" and not (folder / "extra.toml").exists()
    assert not (tmp_path / "absent").exists()
    assert guard.check() == []


def test_guard_puts_back_what_changed(tmp_path: Path) -> None:
    kept, absent, gone, swapped = (
        tmp_path / n for n in ("kept.json", "absent.json", "gone.json", "swap.json")
    )
    for path in (kept, gone, swapped):
        path.write_text(path.name)
    kept.chmod(0o640)
    guard = Guard([str(p) for p in (kept, absent, gone, swapped)])
    assert guard.check() == []
    kept.write_text("{}")
    absent.mkdir()
    gone.unlink()
    swapped.unlink()
    swapped.symlink_to(kept)
    assert sorted(guard.check()) == sorted(str(p) for p in (kept, absent, gone, swapped))
    assert kept.read_text() == "kept.json" and kept.stat().st_mode & 0o777 == 0o640
    assert not absent.exists() and gone.read_text() == "gone.json"
    assert not swapped.is_symlink() and swapped.read_text() == "swap.json"
    assert guard.check() == []


def test_agent_of_the_command() -> None:
    assert agent_of(["/usr/local/bin/claude", "-p", "x"]) == "claude-code"
    assert agent_of(["codex", "exec"]) == "codex" and agent_of(["python3"]) is None
    kernel, guarded = split_guarded(protected_paths("/nonexistent/project", "/home/u"), "/home/u/.gemini")
    assert {p.path for p in guarded} == {
        "/home/u/.gemini/settings.json",
        "/home/u/.gemini/trustedFolders.json",
    }
    assert any(p.path == "/home/u/.claude/settings.json" for p in kernel)


@needs_landlock
def test_a_daemon_stopped_by_request_comes_back(sandbox: Sandbox) -> None:
    """The hooks must reach the daemon's socket, so the agent can also ask it to stop (its signals are
    refused); `limen run` starts it again, from outside, within seconds; meanwhile the hooks inside deny."""
    before = sandbox.daemon_status()["pid"]
    results, _ = sandbox.probe(["stop_by_request"])
    assert results["stop_by_request"] == "ok"
    assert sandbox.daemon_status()["pid"] != before


@needs_landlock
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.xfail(
    strict=True,
    reason="known hole: Landlock (ABI <= 7) cannot refuse connecting to a path-name Unix socket, so a "
    "service started outside that runs commands on request (here a tmux server) acts outside the confinement",
)
def test_a_service_outside_is_not_a_way_out(sandbox: Sandbox) -> None:
    server = str(sandbox.base / "tmux.sock")
    subprocess.run(
        ["tmux", "-S", server, "new-session", "-d", "sleep 60"], env=sandbox.env, check=True, timeout=30
    )
    try:
        target = sandbox.limen_home / "via-tmux"
        command = f"tmux -S {server} new-window -d 'echo pwned > {target}'"
        sandbox.limen("run", "--", "sh", "-c", command)
        for _ in range(40):
            if target.exists():
                break
            time.sleep(0.05)
        assert not target.exists()
    finally:
        subprocess.run(
            ["tmux", "-S", server, "kill-server"], env=sandbox.env, capture_output=True, timeout=30
        )


@needs_landlock
def test_exit_status_is_the_agents(sandbox: Sandbox) -> None:
    assert sandbox.limen("run", "--", "sh", "-c", "exit 7").returncode == 7
    assert sandbox.limen("run", "--", "no-such-agent-limen").returncode == 127


@needs_landlock
def test_check_reports_the_abi_as_text_and_json(sandbox: Sandbox) -> None:
    text = sandbox.limen("run", "--check")
    assert text.returncode == 0 and f"Landlock ABI: {ABI}" in text.stdout
    assert str(sandbox.limen_home) in text.stdout
    report = json.loads(sandbox.limen("run", "--check", "--json", "--egress", "127.0.0.1:3128").stdout)
    assert report["landlock_abi"] == ABI and report["confinable"] is True
    assert any("port 3128" in item for item in report["enforced"])
    assert any(p["path"] == str(sandbox.project / "limen.yaml") for p in report["protected"])


def test_without_landlock_the_run_is_refused_unless_unconfined(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from limen.cli import run

    monkeypatch.setattr(landlock, "abi_version", lambda: 0)
    monkeypatch.setattr(
        run, "supervise", lambda command, env, ruleset, guard=None: 0 if ruleset is None else 99
    )
    monkeypatch.setattr(run, "start_daemon", lambda: True)
    assert run.main(["--", "true"]) == 1
    assert "refusing to start the agent unconfined" in capsys.readouterr().err
    assert run.main(["--unconfined", "--", "true"]) == 0
    assert "UNCONFINED" in capsys.readouterr().err
    assert run.main(["--check"]) == 1


@pytest.mark.parametrize(
    ("abi", "egress", "missing"),
    [(0, None, "not available"), (3, None, "scoped signals"), (5, None, "scoped signals"), (6, 8080, None)],
)
def test_support_per_abi(abi: int, egress: int | None, missing: str | None) -> None:
    found = support(abi, egress)
    assert found.confinable is (missing is None)
    if missing:
        assert any(missing in item for item in found.missing)
    if abi == 3 and egress is None:
        assert not any("truncat" in item for item in found.missing)


def test_support_needs_abi_4_for_a_port_and_3_for_truncation() -> None:
    assert any("ABI 4" in item for item in support(3, 8080).missing)
    assert any("truncation" in item for item in support(2).missing)


def test_plan_walks_only_the_ancestors(tmp_path: Path) -> None:
    (tmp_path / "a" / "protected").mkdir(parents=True)
    (tmp_path / "a" / "sibling").mkdir()
    (tmp_path / "a" / "file.txt").write_text("x")
    (tmp_path / "a" / "link").symlink_to(tmp_path / "a" / "protected")
    (tmp_path / "b").mkdir()
    grants = landlock.plan([str(tmp_path / "a" / "protected"), str(tmp_path / "a" / "protected" / "inner")])
    assert str(tmp_path / "a" / "sibling") in grants.directories
    assert str(tmp_path / "b") in grants.directories
    assert str(tmp_path / "a" / "file.txt") in grants.files
    assert not any(p.startswith(str(tmp_path / "a" / "protected")) for p in grants.directories + grants.files)
    assert str(tmp_path / "a" / "link") not in grants.files  # symlinks: the target's own path decides
    assert str(tmp_path / "a") in grants.ancestors and "/" in grants.ancestors


def test_run_needs_a_command() -> None:
    from limen.cli import run

    assert run.main([]) == 2
    assert run.main(["--egress", "nope", "--", "true"]) == 2


def test_errno_names_are_what_the_probe_reports() -> None:
    assert errno.errorcode[errno.EACCES] == "EACCES" and errno.errorcode[errno.EPERM] == "EPERM"


E2E = Path(__file__).parent / "e2e"


@needs_landlock
@pytest.mark.e2e
@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini"])
def test_real_agent_runs_confined(agent: str) -> None:
    """The real agent CLI (tests/e2e, against the scripted model on loopback) in a fresh home folder under
    `limen run --guard-agent-dir --guard-project`: its hooks still decide inside (the destructive call is
    refused), ordinary work goes through (a new file at the project's top), and it exits normally."""
    if not (E2E / "node_modules").is_dir() or shutil.which("node") is None:
        pytest.skip("tests/e2e/node_modules is missing: `npm ci --prefix tests/e2e` installs the agent CLIs")
    if agent == "gemini" and TMP_HOLDS_LIMEN:  # Gemini CLI writes its scratch files in the temp directory
        pytest.skip(TMP_HOLDS_LIMEN_WHY)
    sys.path.insert(0, str(E2E))
    try:
        clis = importlib.import_module("test_agent_clis")
        scripted = importlib.import_module("model_server")
    finally:
        sys.path.remove(str(E2E))
    ScriptedModel, Step, serve = scripted.ScriptedModel, scripted.Step, scripted.serve
    base = Path(
        tempfile.mkdtemp(prefix="limen-run-e2e-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    )
    home, project = base / "home", base / "home" / "proj"
    project.mkdir(parents=True)
    keep = home / "important" / "keep.txt"
    keep.parent.mkdir()
    keep.write_text("do not delete\n")
    env = clis.base_env(home)
    subprocess.run(["git", "init", "-q", str(project)], env=env, check=True, timeout=60)
    model = ScriptedModel([Step("shell", "rm -rf ~/important"), Step("shell", "echo ok > NOTES.md")])
    try:
        with serve(model) as server:
            env.update(clis.AGENTS[agent].configure(home, server.url))
            install = subprocess.run(
                [str(LIMEN), "install", agent, "--project"],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
            )
            assert install.returncode == 0, install.stderr
            command = [
                str(LIMEN),
                "run",
                "--guard-agent-dir",
                "--guard-project",
                "--",
                *clis.AGENTS[agent].command(),
            ]
            code, out, err, _seconds = clis.run_cli(command, project, env)
        assert code == 0, f"{out[-1500:]}\n{err[-3000:]}\n{model.summary()}"
        assert "confined by Landlock" in err
        assert "destructive_command" in (model.result_of(0) or ""), model.summary()
        assert keep.exists()
        assert (project / "NOTES.md").read_text().strip() == "ok", model.summary()
        assert (home / ".limen" / "audit" / "decisions.jsonl").stat().st_size > 0
    finally:
        subprocess.run([str(LIMEN), "daemon", "stop"], cwd=project, env=env, capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)
