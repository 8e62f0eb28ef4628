"""The fast path: `limen-hook` through a real `limen daemon` on a real Unix socket, and every way it can fail.

Each test has its own LIMEN_HOME (so its own socket and lock) and stops the daemons it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
HOOK, LIMEN = BIN / "limen-hook", BIN / "limen"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
PRE_TOOL_USE = (FIXTURES / "claude-code" / "pre_bash_ls.json").read_bytes()
ALLOW = b"{}"  # PASS: no objection, and no `allow` that would switch off the agent's own prompt
HANG = """
import os, time
if os.environ.get("LIMEN_TEST_FAULT") == "hang":
    import limen.engine

    def hang(action, ctx):
        # Stuck until the test creates the release file (never, for a hung daemon), then decides for real.
        release = os.environ["LIMEN_TEST_RELEASE"]
        open(os.environ["LIMEN_TEST_MARKER"], "w").close()
        end = time.monotonic() + 120
        while not os.path.exists(release) and time.monotonic() < end:
            time.sleep(0.02)
        return real(action, ctx)

    real = limen.engine.decide
    limen.engine.decide = hang
"""
DEADLINE_MS = 60000
# A client the daemon must claim before it gives up on it (40% of this), yet whose deny-at-the-deadline a
# test waits for.
CLAIMED_DEADLINE_MS = "8000"
CASES = [
    ("claude-code", "pre_read_ssh_key.json"),
    ("claude-code", "pre_write_settings.json"),
    ("claude-code", "prompt_injection.json"),
    ("codex", "pre_bash_read_key.json"),
    ("cursor", "before_shell.json"),
    ("gemini", "before_tool_mcp.json"),
]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": "/home/dev",
        "LIMEN_HOME": str(tmp_path / "limen"),
        # Generous: 24 s waited on the daemon (40%), so a loaded 2-core CI machine running many hooks at once
        # does not push an event to the in-process fallback, which the `served` counts would then miss.
        "LIMEN_HOOK_DEADLINE_MS": str(DEADLINE_MS),
    }
    yield environment
    subprocess.run([str(LIMEN), "daemon", "stop"], env=environment, capture_output=True, timeout=30)


def hook(agent: str, data: bytes, env: dict[str, str]) -> tuple[bytes, int]:
    limit = 2 * int(env["LIMEN_HOOK_DEADLINE_MS"]) / 1000  # only a guard: the hook answers by its deadline
    proc = subprocess.run([str(HOOK), agent], input=data, capture_output=True, env=env, timeout=limit)
    return proc.stdout, proc.returncode


def daemon(command: str, env: dict[str, str]) -> tuple[dict[str, object] | None, int]:
    proc = subprocess.run(
        [str(LIMEN), "daemon", command], capture_output=True, env=env, timeout=30, text=True
    )
    try:
        return json.loads(proc.stdout), proc.returncode
    except ValueError:
        return None, proc.returncode


def wait_for_daemon(env: dict[str, str]) -> dict[str, object]:
    for _ in range(200):
        status, _ = daemon("status", env)
        if status is not None:
            return status
        time.sleep(0.05)
    raise AssertionError("no daemon came up")


def without_ids(answer: bytes) -> str:
    text = re.sub(r" \(decision [0-9a-f]{16}\)", "", answer.decode())
    return re.sub(r"(approval request |limen approve )[0-9a-f]{10}", r"\1ID", text)  # one per request


@pytest.fixture
def hung_daemon(env: dict[str, str], tmp_path: Path) -> Iterator[dict[str, object]]:
    """A daemon that hangs inside the engine. A spawned daemon runs isolated (`-I` ignores PYTHONPATH), so
    this one is started in the foreground as `limen daemon serve`, with the fault on its PYTHONPATH."""
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(HANG)
    fault = {
        **env,
        "PYTHONPATH": str(inject),
        "LIMEN_TEST_FAULT": "hang",
        "LIMEN_TEST_MARKER": str(tmp_path / "entered"),
        "LIMEN_TEST_RELEASE": str(tmp_path / "release"),
    }
    with foreground_daemon([str(LIMEN), "daemon", "serve"], fault, tmp_path):
        yield wait_for_daemon(env)


@contextlib.contextmanager
def foreground_daemon(argv: list[str], env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A daemon started in the foreground (not spawned isolated: its PYTHONPATH counts), killed at the end."""
    with subprocess.Popen(
        argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ) as proc:
        try:
            yield proc
        finally:
            proc.kill()


def test_start_status_stop_and_a_socket_only_its_user_can_reach(env: dict[str, str]) -> None:
    assert daemon("status", env) == (None, 3)
    started, code = daemon("start", env)
    assert code == 0 and started is not None
    sock = Path(str(started["socket"]))
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    assert sock.parent == Path(env["LIMEN_HOME"]) / "run"
    again, _ = daemon("start", env)  # one per user: a second start finds the first
    assert again is not None and again["pid"] == started["pid"]
    assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)
    status, _ = daemon("status", env)
    assert status is not None and status["served"] == 1 and status["pid"] == started["pid"]
    assert daemon("stop", env)[1] == 0
    assert daemon("status", env) == (None, 3)
    assert not sock.exists()


def test_daemon_absent_the_hook_decides_itself_and_starts_one(env: dict[str, str]) -> None:
    assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)
    wait_for_daemon(env)
    assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)
    status, _ = daemon("status", env)
    assert status is not None and status["served"] == 1


def test_the_same_answer_with_or_without_the_daemon(env: dict[str, str], tmp_path: Path) -> None:
    alone = {**env, "LIMEN_HOOK_DAEMON": "0", "LIMEN_HOME": str(tmp_path / "alone")}  # same fresh state
    expected = [hook(agent, (FIXTURES / agent / name).read_bytes(), alone) for agent, name in CASES]
    daemon("start", env)
    served = [hook(agent, (FIXTURES / agent / name).read_bytes(), env) for agent, name in CASES]
    assert [(without_ids(o), c) for o, c in served] == [(without_ids(o), c) for o, c in expected]
    status, _ = daemon("status", env)
    assert status is not None and status["served"] == len(CASES)


def test_a_relative_cwd_means_the_same_to_the_daemon_and_to_the_fallback(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A relative `cwd` in an event is relative to the hook process, not to the daemon's run directory:
    both deciders read the same file (one holding a credential, so the Read asks)."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "notes.md").write_text("AWS_ACCESS_KEY_ID=AKIAZ7QWERTYUIOP2345\n")
    event = {
        "session_id": "s-rel",
        "cwd": "proj",
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "notes.md"},
        "tool_use_id": "toolu_rel",
    }
    data = json.dumps(event).encode()
    answers = []
    for daemon_on in ("1", "0"):
        if daemon_on == "1":
            subprocess.run([str(LIMEN), "daemon", "start"], env=env, capture_output=True, timeout=30)
            wait_for_daemon(env)
        run_env = {**env, "LIMEN_HOOK_DAEMON": daemon_on}
        proc = subprocess.run(
            [str(HOOK), "claude-code"], input=data, capture_output=True, env=run_env, cwd=tmp_path, timeout=99
        )
        answers.append((without_ids(proc.stdout), proc.returncode))
    assert answers[0] == answers[1]
    assert json.loads(answers[0][0])["hookSpecificOutput"]["permissionDecision"] == "ask"


def test_many_agents_and_sessions_at_once(env: dict[str, str], tmp_path: Path) -> None:
    alone = {**env, "LIMEN_HOOK_DAEMON": "0", "LIMEN_HOME": str(tmp_path / "alone")}
    expected = {case: without_ids(hook(*case_data(case), alone)[0]) for case in CASES}
    daemon("start", env)
    copies = [(case, n) for n in range(3) for case in CASES]  # each copy its own session: no repeats
    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(lambda copy: (copy[0], hook(*case_data(*copy), env)), copies))
    assert all(without_ids(out) == expected[case] for case, (out, _) in answers)
    status, _ = daemon("status", env)
    assert status is not None and status["served"] == len(CASES) * 3


def case_data(case: tuple[str, str], copy: int = 0) -> tuple[str, bytes]:
    event = json.loads((FIXTURES / case[0] / case[1]).read_text())
    key = "conversation_id" if case[0] == "cursor" else "session_id"
    event[key] = f"{event[key]}-{copy}"
    return case[0], json.dumps(event).encode()


def test_the_daemon_killed_mid_request(
    env: dict[str, str], tmp_path: Path, hung_daemon: dict[str, object]
) -> None:
    started = hung_daemon
    with subprocess.Popen(
        [str(HOOK), "claude-code"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as client:
        assert client.stdin is not None
        assert client.stdout is not None
        client.stdin.write(PRE_TOOL_USE)
        client.stdin.close()
        wait_entered(tmp_path)
        os.kill(int(str(started["pid"])), signal.SIGKILL)
        out = client.stdout.read()
        client.wait(timeout=60)
    assert (out, client.returncode) == (ALLOW, 0)  # decided in-process, not a silent pass
    # The killed daemon left its socket behind: the next event still gets an answer and a fresh daemon.
    assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)
    assert wait_for_daemon(env)["pid"] != started["pid"]


def deny_at_deadline() -> bytes:
    why = (
        "Limen denied this because it could not decide it safely (no answer before the deadline). "
        "Next step: retry once; if it persists, ask the user to run `limen doctor`."
    )
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": why,
            }
        },
        separators=(",", ":"),
    ).encode()


def wait_entered(tmp_path: Path) -> None:
    for _ in range(2400):
        if (tmp_path / "entered").exists():
            return
        time.sleep(0.025)
    raise AssertionError("the request never reached the daemon's engine")


def test_a_hung_daemon_is_passed_over(
    env: dict[str, str], tmp_path: Path, hung_daemon: dict[str, object]
) -> None:
    """The event the daemon claimed and hangs on is denied at the deadline (deciding it here as well would
    record it twice); the next event, queued behind it, is decided in-process."""
    with subprocess.Popen(
        [str(HOOK), "claude-code"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**env, "LIMEN_HOOK_DEADLINE_MS": CLAIMED_DEADLINE_MS},
    ) as stuck:
        assert stuck.stdin is not None and stuck.stdout is not None
        stuck.stdin.write(PRE_TOOL_USE)
        stuck.stdin.close()
        wait_entered(tmp_path)
        # 40% of the deadline on the daemon, which never claims it, then 6 s to decide in-process
        assert hook("claude-code", PRE_TOOL_USE, {**env, "LIMEN_HOOK_DEADLINE_MS": "10000"}) == (ALLOW, 0)
        out = stuck.stdout.read()
        stuck.wait(timeout=60)
    assert (out, stuck.returncode) == (deny_at_deadline(), 2)


def records(env: dict[str, str]) -> list[dict[str, object]]:
    log = subprocess.run([str(LIMEN), "log", "--jsonl"], capture_output=True, text=True, env=env, timeout=30)
    return [json.loads(line) for line in log.stdout.splitlines()]


def test_a_slow_daemon_and_the_fallback_never_both_record_an_event(
    env: dict[str, str], tmp_path: Path, hung_daemon: dict[str, object]
) -> None:
    """A slow call holds the daemon's workspace; an event queued behind it is decided in-process by its
    client, and the daemon, when it gets to it, finds the client gone and drops it: one record each."""
    read = (FIXTURES / "claude-code" / "pre_read_readme.json").read_bytes()
    with subprocess.Popen(
        [str(HOOK), "claude-code"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**env, "LIMEN_HOOK_DEADLINE_MS": CLAIMED_DEADLINE_MS},
    ) as slow:
        assert slow.stdin is not None
        slow.stdin.write(PRE_TOOL_USE)  # Bash: the daemon claims it, then is slow inside the engine
        slow.stdin.close()
        wait_entered(tmp_path)
        assert hook("claude-code", read, {**env, "LIMEN_HOOK_DEADLINE_MS": "10000"}) == (ALLOW, 0)
        slow.wait(timeout=60)
    (tmp_path / "release").touch()  # the slow call finishes; the queued Read is next
    for _ in range(1200):
        status, _ = daemon("status", env)
        if status is not None and status["dropped"] == 1:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the daemon never dropped the event its client decided")
    # One record per answer, equal to it: the Bash the agent was denied at the deadline is recorded as
    # that deny (not as the PASS the daemon decided too late), the Read as the PASS it got.
    answered = sorted((str(r.get("tool", "")), r["verdict"]) for r in records(env) if r.get("door") == "hook")
    assert answered == [("", "BLOCK"), ("Read", "PASS")]


def test_the_same_audit_record_either_way(env: dict[str, str]) -> None:
    data = (FIXTURES / "claude-code" / "pre_write_settings.json").read_bytes()
    assert hook("claude-code", data, {**env, "LIMEN_HOOK_DAEMON": "0"})[1] == 2
    daemon("start", env)
    assert hook("claude-code", data, env)[1] == 2
    log = subprocess.run([str(LIMEN), "log", "--jsonl"], capture_output=True, text=True, env=env, timeout=30)
    records = [json.loads(line) for line in log.stdout.splitlines()]
    volatile = {"id", "ts", "us", "seq", "prev", "h"}
    same = [
        {k: v for k, v in r.items() if k not in volatile}
        | {"stages": [{k: v for k, v in s.items() if k != "us"} for s in r["stages"]]}
        for r in records
    ]
    assert len(same) == 2 and same[0] == same[1]
    assert same[0]["door"] == "hook" and same[0]["verdict"] == "BLOCK"


def test_the_hook_client_imports_only_the_standard_library(env: dict[str, str]) -> None:
    """What `python -X importtime` shows the client importing when the daemon answers."""
    daemon("start", env)
    proc = subprocess.run(
        [str(HOOK), "claude-code"],
        input=PRE_TOOL_USE,
        capture_output=True,
        timeout=60,
        env={**env, "PYTHONPROFILEIMPORTTIME": "1"},
    )
    assert proc.stdout == ALLOW
    imported = {
        line.split("|")[-1].strip()
        for line in proc.stderr.decode().splitlines()
        if line.startswith("import time:") and not line.endswith("| imported package")
    }
    ours = {
        "limen",
        "limen.doors",
        "limen.doors.hooks",
        "limen.doors.hooks.client",
        "limen.doors.hooks.cjson",
        "limen.doors.hooks.events",
        "limen.doors.hooks.wire",
        "limen.doors.hooks.claude_code",
        "limen.home",
    }
    site_hooks = {
        "sitecustomize",
        "usercustomize",
        "_distutils_hack",
    }  # what the interpreter's .pth files load
    foreign = {
        m
        for m in imported - ours - site_hooks
        if m.split(".")[0] not in sys.stdlib_module_names and not m.startswith("__editable__")
    }
    assert "limen.doors.hooks.claude_code" in imported and foreign == set()
    assert "typing" not in imported  # a few milliseconds on every tool call: annotations stay strings
    # Each of these pulls in `re`, `enum`, `functools` or `collections`: milliseconds on every tool call.
    assert imported.isdisjoint({"json", "socket", "threading", "contextlib", "re", "enum", "collections"})
    status, _ = daemon("status", env)
    assert status is not None and status["served"] == 1


def test_a_socket_in_a_directory_it_does_not_own_is_never_asked(env: dict[str, str], tmp_path: Path) -> None:
    """Someone else's daemon (here: one that allows everything) behind a symlinked run directory."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    Path(env["LIMEN_HOME"]).mkdir()
    (Path(env["LIMEN_HOME"]) / "run").symlink_to(elsewhere)
    asked = threading.Event()

    def allow_everything(listener: socket.socket) -> None:
        while True:
            conn, _ = listener.accept()
            with conn:
                asked.set()
                conn.sendall(json.dumps({"stdout": ALLOW.decode(), "exit": 0, "stderr": ""}).encode() + b"\n")

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(elsewhere / "daemon.sock"))
        listener.listen(8)
        threading.Thread(target=allow_everything, args=(listener,), daemon=True).start()
        out, code = hook(
            "claude-code", (FIXTURES / "claude-code" / "pre_write_settings.json").read_bytes(), env
        )
    assert code == 2 and json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not asked.is_set()


def test_project_code_in_the_working_directory_never_runs_in_the_daemon(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A project the agent writes to holds a module named like one the daemon imports (`fcntl`): neither
    the daemon a hook starts nor `limen daemon start` run from there may import it."""
    project = tmp_path / "project"
    project.mkdir()
    marker = tmp_path / "project-code-ran"
    for name in ("fcntl", "json", "socket", "limen"):
        (project / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    event = json.loads(PRE_TOOL_USE)
    event["cwd"] = str(project)
    proc = subprocess.run(
        [str(HOOK), "claude-code"],
        input=json.dumps(event).encode(),
        capture_output=True,
        env=env,
        cwd=project,
        timeout=60,
    )
    assert (proc.stdout, proc.returncode) == (ALLOW, 0)
    try:
        started = wait_for_daemon(env)  # the hook found no daemon and started one from the project
    finally:
        assert not marker.exists(), "project code ran in the daemon"
    subprocess.run([str(LIMEN), "daemon", "stop"], env=env, capture_output=True, timeout=30)
    subprocess.run(
        [str(LIMEN), "daemon", "start"], env=env, cwd=project, capture_output=True, timeout=30, check=True
    )
    assert wait_for_daemon(env)["pid"] != started["pid"]
    assert not marker.exists()


IMPOSTOR = """
import json, os, socket, sys
path = sys.argv[1]
forged = sys.argv[2] == "forged"
try:
    os.unlink(path)
except FileNotFoundError:
    pass
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(16)
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    with conn:
        request = json.loads(conn.makefile().readline())
        allow = {"stdout": "{}", "exit": 0, "stderr": ""}
        if forged:  # a MAC under a key of its own: it cannot read the daemon's
            import hashlib
            body = json.dumps(allow)
            mac = hashlib.blake2b((request.get("nonce", "") + "\\0" + body).encode(),
                                  key=b"k" * 32, digest_size=32).hexdigest()
            reply = {"body": body, "mac": mac}
        else:
            reply = allow
        conn.sendall((json.dumps(reply) + "\\n").encode())
"""


@pytest.mark.parametrize("kind", ["plain", "forged"])
def test_an_impostor_on_the_daemon_socket_is_not_believed(
    kind: str, env: dict[str, str], tmp_path: Path
) -> None:
    """A process of the same user removes the socket and binds its own, answering "no objection" to
    everything (or with a MAC under a key of its own): the hook decides in-process, and a call that must be
    denied is denied."""
    from limen.doors.hooks import wire

    daemon("start", env)
    wait_for_daemon(env)  # the real daemon runs (and made its key); the impostor takes its socket
    script = tmp_path / "impostor.py"
    script.write_text(IMPOSTOR)
    old = os.environ.get("LIMEN_HOME")
    os.environ["LIMEN_HOME"] = env["LIMEN_HOME"]
    try:
        path = wire.socket_path()
    finally:
        if old is not None:
            os.environ["LIMEN_HOME"] = old
    with subprocess.Popen(
        [sys.executable, str(script), path, kind], stdout=subprocess.PIPE, text=True
    ) as impostor:
        try:
            assert impostor.stdout is not None and impostor.stdout.readline().strip() == "ready"
            data = (FIXTURES / "claude-code" / "pre_write_settings.json").read_bytes()
            out, code = hook("claude-code", data, env)
            assert code == 2
            assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
        finally:
            impostor.kill()


def test_only_a_holder_of_the_daemon_key_stops_it_over_the_socket(env: dict[str, str]) -> None:
    """An agent can reach the socket; a stop request it writes itself (unsigned, or signed with a guessed
    key) is refused and the daemon keeps serving. `limen daemon stop` (the user, who has the key) works."""
    from limen.doors.hooks import wire

    daemon("start", env)
    wait_for_daemon(env)
    old = os.environ.get("LIMEN_HOME")
    os.environ["LIMEN_HOME"] = env["LIMEN_HOME"]
    try:
        for forged in ({"op": "stop"}, {"op": "stop", "ts": time.time(), "proof": "0" * 64}):
            with pytest.raises((OSError, ValueError)):
                wire.request(forged, 5.0)
            assert daemon("status", env)[0] is not None
    finally:
        if old is not None:
            os.environ["LIMEN_HOME"] = old
    assert daemon("stop", env)[1] == 0
    assert daemon("status", env)[0] is None


def test_a_daemon_whose_code_changes_on_disk_stops_and_the_next_event_gets_the_new_code(
    env: dict[str, str], tmp_path: Path
) -> None:
    """After an upgrade (or an edit of a checkout) the running daemon would go on deciding with the code it
    loaded, holes and all, until it idles out. It runs from a copy of the package here, so the test can change
    that copy's files without touching the installation other tests use."""
    import shutil

    import limen
    from limen import daemon as daemon_module

    copy = tmp_path / "installed"
    shutil.copytree(Path(limen.__file__).parent, copy / "limen", ignore=shutil.ignore_patterns("__pycache__"))
    argv = [sys.executable, "-m", "limen.daemon", "serve"]
    with foreground_daemon(argv, {**env, "PYTHONPATH": str(copy)}, tmp_path) as proc:
        status = wait_for_daemon(env)
        assert status["pid"] == proc.pid
        time.sleep(3 * daemon_module.CODE_CHECK_SECONDS)
        assert proc.poll() is None  # unchanged code: it keeps serving
        assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)
        rules = copy / "limen" / "rules" / "__init__.py"
        rules.write_text(rules.read_text() + "\n# upgraded\n")
        assert proc.wait(timeout=30) == 0
    assert daemon("status", env) == (None, 3)
    assert hook("claude-code", PRE_TOOL_USE, env) == (ALLOW, 0)  # a new daemon, or in-process meanwhile
