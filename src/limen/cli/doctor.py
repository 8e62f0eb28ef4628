"""`limen doctor [agent ...] [--json]`: prove the wiring end to end, through what the agent will really run.
(`limen doctor proxy` checks the egress proxy instead: `limen.proxy.doctor`.)

A hook in a settings file protects nothing if the agent never runs it, and agents drop hooks silently. So
the doctor reads each agent's settings the way the agent does: every file it takes hooks from, Limen's
handlers in them (event, matcher, command line, timeout), the switches that turn every hook off, and the
trust the agent requires before it runs one (Codex's recorded hashes and trusted projects, Gemini CLI's
trusted folders). Then it runs each configured command line exactly as the agent would (`sh -c`, from this
folder, with the agent's environment variables) on synthetic events that must be denied: a shell call
`rm -rf ~` on the event whose matcher selects the agent's shell tool, a write to the agent's own hook file,
and an unreadable event. Only the agent's blocking answer counts (exit 2, or its deny JSON). A hook that is
untrusted, ignored, switched off, unmatched or slow is a failure, never OK.

It also breaks the installation on purpose, in the command line only: the same wiring is run with
`limen-hook` replaced by a path that does not exist (as after `pip uninstall limen`) and by a stand-in that
fails as an import error does (exit 1, a traceback on stderr), with no `limen-hook` on PATH. The shell call
must still get the agent's blocking answer; a wiring that lets it through fails open, and is a failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from typing import Any

SESSION = "limen-doctor"
SHELL_LINE = "rm -rf ~"
# (event, tool name the matcher is tested against; None: the event has no tool) that gate a shell command
SHELL_EVENTS = {
    "claude-code": (("PreToolUse", "Bash"),),
    "codex": (("PreToolUse", "Bash"),),
    "gemini": (("BeforeTool", "run_shell_command"),),
    "cursor": (("beforeShellExecution", None), ("preToolUse", "Shell")),
}
DEFAULT_TIMEOUT_MS = {"claude-code": 600_000.0, "codex": 600_000.0, "gemini": 60_000.0, "cursor": 30_000.0}
MAX_WAIT_SECONDS = 30.0
NAMES = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "cursor": "Cursor"}
# A console script whose package is gone: what `limen-hook` does after a broken install or upgrade.
IMPORT_ERROR = (
    "#!/bin/sh\n"
    "cat >/dev/null\n"
    "echo 'Traceback (most recent call last):' >&2\n"
    "echo \"ModuleNotFoundError: No module named 'limen'\" >&2\n"
    "exit 1\n"
)


@dataclass(slots=True)
class Check:
    ok: bool
    check: str


@dataclass(slots=True)
class FileReport:
    """Limen's hooks in one settings file, and whether the agent runs them and they deny."""

    scope: str
    path: str
    commands: list[str]
    checks: list[Check] = field(default_factory=list)


@dataclass(slots=True)
class AgentReport:
    agent: str
    checks: list[Check] = field(default_factory=list)  # what holds for every file of the agent
    files: list[FileReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks) and all(c.ok for f in self.files for c in f.checks)


def protected_write(agent: str, config_path: str, cwd: str) -> dict[str, Any]:
    """An event that tries to overwrite the agent's hook file: Limen must deny it."""
    base = {"session_id": SESSION, "cwd": cwd}
    if agent == "claude-code":
        return {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": config_path, "content": "{}"},
            "tool_use_id": "doctor",
        }
    if agent == "codex":
        patch = f"*** Begin Patch\n*** Update File: {config_path}\n@@\n-x\n+{{}}\n*** End Patch"
        return {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
            "tool_use_id": "doctor",
            "turn_id": "doctor",
        }
    if agent == "gemini":
        return {
            **base,
            "hook_event_name": "BeforeTool",
            "tool_name": "write_file",
            "tool_input": {"file_path": config_path, "content": "{}"},
        }
    return {
        "conversation_id": SESSION,
        "generation_id": SESSION,
        "hook_event_name": "preToolUse",
        "workspace_roots": [cwd],
        "cwd": cwd,
        "tool_name": "Write",
        "tool_input": {"file_path": config_path, "content": "{}"},
    }


def shell_call(agent: str, event: str, tool: str | None, cwd: str) -> dict[str, Any]:
    """The event the agent sends before it runs `rm -rf ~` in its shell tool."""
    if agent == "cursor":
        base = {
            "conversation_id": SESSION,
            "generation_id": SESSION,
            "hook_event_name": event,
            "workspace_roots": [cwd],
        }
        if tool is None:
            return {**base, "command": SHELL_LINE, "cwd": cwd}
        return {**base, "tool_name": tool, "tool_input": {"command": SHELL_LINE}}
    event_data: dict[str, Any] = {
        "session_id": SESSION,
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": {"command": SHELL_LINE},
    }
    if agent == "gemini":
        return {**event_data, "timestamp": "2026-01-01T00:00:00.000Z"}
    event_data.update(tool_use_id="doctor", permission_mode="default")
    if agent == "codex":
        event_data.update(turn_id="doctor", model="doctor", transcript_path=None)
    return event_data


def matches(agent: str, matcher: Any, tool: str | None) -> bool:
    """Whether the agent runs a handler with this matcher for this tool, by the agent's own rules."""
    if matcher is None or tool is None:
        return True
    if not isinstance(matcher, str):
        return False
    matcher = matcher.strip() if agent == "gemini" else matcher
    if matcher in ("", "*"):
        return True
    exact = {"claude-code": r"[A-Za-z0-9_\-, |]+", "codex": r"[A-Za-z0-9_|]+"}.get(agent)
    if exact and re.fullmatch(exact, matcher):
        return tool in {name.strip() for name in re.split(r"[|,]", matcher)}
    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return agent == "gemini" and matcher == tool  # Gemini CLI falls back to an exact comparison


def blocks(agent: str, answer: Any, code: int | None, stderr: str = "", stdout: str = "") -> bool:
    """The agent's blocking answer, by its own rules: exit 2 (Codex: with a reason on stderr, else it counts
    the hook as failed and goes ahead), or its deny JSON on stdout (`answer`; Claude Code and Gemini CLI
    read it whatever the exit code, Codex and Cursor on exit 0). Gemini CLI reads stdout, else stderr: JSON
    is its answer, plain text with an exit code other than 0 and 1 is a deny with that text as the reason."""
    if agent == "gemini":
        text = stdout.strip() or stderr.strip()
        try:
            parsed = json.loads(text) if text else None
            parsed = json.loads(parsed) if isinstance(parsed, str) else parsed
        except ValueError:
            return code not in (0, 1, None)
        if isinstance(parsed, dict):
            return parsed.get("decision") in ("deny", "block")
        return bool(text) and code not in (0, 1, None)
    if code == 2:
        return agent != "codex" or bool(stderr.strip())
    if not isinstance(answer, dict) or (code != 0 and agent in ("codex", "cursor")):
        return False
    if agent == "cursor":
        return answer.get("permission") == "deny"
    specific = answer.get("hookSpecificOutput")
    return answer.get("decision") == "block" or (
        isinstance(specific, dict) and specific.get("permissionDecision") == "deny"
    )


def interpreter_problem(executable: str) -> str | None:
    """Why the hook's executable cannot run fast and for sure, or None."""
    if not os.access(executable, os.X_OK):
        return f"{executable} is missing or not executable"
    with open(executable, "rb") as handle:
        first = handle.readline().decode(errors="replace").strip()
    if not first.startswith("#!"):
        return None
    interpreter = shlex.split(first[2:])[0]
    real = os.path.realpath(interpreter)
    if not os.access(real, os.X_OK):
        return f"its interpreter {interpreter} is missing"
    if "/shims/" in real or os.path.basename(real) == "env":
        return f"its interpreter {interpreter} is a shim or env lookup (slow, and may change under you)"
    return None


def agent_shell(agent: str) -> list[str]:
    """How the agent runs a hook's command line: Claude Code through Node's `shell: true` (`/bin/sh -c`),
    Gemini CLI `bash -c`, Codex the user's login shell (`$SHELL -lc`, else `/bin/sh`); Cursor as `sh -c`."""
    if agent == "gemini":
        return [shutil.which("bash") or "/bin/sh", "-c"]
    if agent == "codex":
        return [os.environ.get("SHELL") or "/bin/sh", "-lc"]
    return ["/bin/sh", "-c"]


def agent_environment(agent: str, cwd: str) -> dict[str, str]:
    """The environment the agent gives a hook process."""
    env = dict(os.environ)
    if agent in ("claude-code", "gemini"):
        env["CLAUDE_PROJECT_DIR"] = cwd
    if agent == "gemini":
        env.update(GEMINI_PROJECT_DIR=cwd, GEMINI_CWD=cwd, GEMINI_SESSION_ID=SESSION)
    return env


def send(
    agent: str, command: str, data: bytes, cwd: str, wait: float, env: dict[str, str] | None = None
) -> tuple[Any, int | None, str, str]:
    """Run the configured command line as the agent does; (parsed stdout, exit code, stdout, stderr; exit
    code None: no answer in time, which the agent treats as go-ahead)."""
    try:
        proc = subprocess.run(
            [*agent_shell(agent), command],
            input=data,
            capture_output=True,
            cwd=cwd,
            env=env or agent_environment(agent, cwd),
            timeout=wait,
        )
    except subprocess.TimeoutExpired:
        return None, None, "", ""
    out, err = proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")
    try:
        return json.loads(proc.stdout), proc.returncode, out, err
    except ValueError:
        return None, proc.returncode, out, err


def how_denied(agent: str, code: int | None) -> str:
    if code in (0, 2):
        return "exit 2" if code == 2 else "a deny answer"
    return f"exit {code} with a reason, which {NAMES[agent]} takes as a deny"


def denied(agent: str, label: str, command: str, event: Any, cwd: str, wait: float) -> Check:
    data = event if isinstance(event, bytes) else json.dumps(event).encode()
    answer, code, out, err = send(agent, command, data, cwd, wait)
    if code is None:
        return Check(False, f"{label} got no answer within {wait:.0f} s, and the agent lets the call through")
    if blocks(agent, answer, code, err, out):
        return Check(True, f"{label} is denied ({how_denied(agent, code)})")
    return Check(False, f"{label} is NOT denied: exit {code}, {answer!r}")


def with_executable(command: str, standin: str) -> str | None:
    """The command line with Limen's hook executable replaced by `standin`, or None when it does not name
    one where Limen writes it (first, or after the guard's `sh -c GUARD limen-hook`)."""
    from limen.install import hook_words

    hook = hook_words(command)
    if hook is None:
        return None
    words = shlex.split(command)
    if words[0] != hook[0]:  # guarded: sh -c GUARD name <executable> <args>
        return shlex.join([*words[:4], standin, *hook[1:]])
    text = command.lstrip()
    for form in (shlex.quote(hook[0]), f'"{hook[0]}"', f"'{hook[0]}'", hook[0]):
        if text.startswith(form):
            return shlex.quote(standin) + text[len(form) :]
    return None


def without_hook_on_path(env: dict[str, str]) -> dict[str, str]:
    """The environment with no folder on PATH that holds a `limen-hook` or `limen`."""
    folders = env.get("PATH", "").split(os.pathsep)
    kept = [
        d for d in folders if not any(os.path.exists(os.path.join(d, n)) for n in ("limen-hook", "limen"))
    ]
    return {**env, "PATH": os.pathsep.join(kept)}


def fails_closed(
    agent: str, handler: dict[str, Any], event: dict[str, Any], cwd: str, wait: float, scratch: str
) -> list[Check]:
    """Whether the wiring still denies the shell call when Limen is missing or broken."""
    crash = os.path.join(scratch, "broken", "limen-hook")
    if not os.path.exists(crash):
        os.makedirs(os.path.dirname(crash))
        with open(crash, "w", encoding="utf-8") as handle:
            handle.write(IMPORT_ERROR)
        os.chmod(crash, 0o755)
    cases = (
        (
            "with limen-hook missing (as after `pip uninstall limen`)",
            os.path.join(scratch, "gone", "limen-hook"),
        ),
        ("with limen-hook failing on an import error (a broken install)", crash),
    )
    env = without_hook_on_path(agent_environment(agent, cwd))
    command = handler["command"]
    checks = []
    for how, standin in cases:
        broken = with_executable(command, standin)
        if broken is None:
            checks.append(Check(False, f"{how}: cannot tell, {command!r} does not run limen-hook plainly"))
            continue
        answer, code, out, err = send(agent, broken, json.dumps(event).encode(), cwd, wait, env)
        closed = agent == "cursor" and handler.get("failClosed") is True and code not in (0, None)
        if blocks(agent, answer, code, err, out) or closed:
            done = f"exit {code}, failClosed" if closed else how_denied(agent, code)
            checks.append(Check(True, f"{how}, a shell call `{SHELL_LINE}` is still denied ({done})"))
            continue
        got = f"no answer within {wait:.0f} s" if code is None else f"exit {code}"
        checks.append(
            Check(
                False,
                f"{how}, a shell call `{SHELL_LINE}` is NOT denied ({got}): {NAMES[agent]} lets it "
                f"through, so with Limen gone every call would go unchecked: this wiring fails open "
                f"(`limen install {agent}` writes one that fails closed)",
            )
        )
    return checks


def check_file(agent: str, scope: str, path: str, config: dict[str, Any], cwd: str) -> FileReport:
    from limen import agent_trust
    from limen.doors.hooks.client import deadline_seconds
    from limen.install import hook_words, timeout_ms, wired

    handlers = wired(agent, config)
    commands = list(dict.fromkeys(h.handler["command"] for h in handlers))
    report = FileReport(scope, path, commands)
    checks = report.checks
    for command in commands:
        executable = (hook_words(command) or shlex.split(command))[0]
        problem = interpreter_problem(executable)
        checks.append(Check(not problem, problem or f"{executable} runs on a real interpreter"))
    gating = [
        (h, tool)
        for event, tool in SHELL_EVENTS[agent]
        for h in handlers
        if h.event == event and matches(agent, h.matcher, tool)
    ]
    with tempfile.TemporaryDirectory(prefix="limen-doctor-") as scratch:
        for h, tool in {h.handler["command"]: (h, tool) for h, tool in gating}.values():
            wait = min((timeout_ms(agent, h.handler) or DEFAULT_TIMEOUT_MS[agent]) / 1000, MAX_WAIT_SECONDS)
            event = shell_call(agent, h.event, tool, cwd)
            checks.extend(fails_closed(agent, h.handler, event, cwd, wait, scratch))
    if not all(c.ok for c in checks[: len(commands)]):
        return report
    deadline = deadline_seconds() * 1000
    timeouts = [timeout_ms(agent, h.handler) for h in handlers]
    short = [t for t in timeouts if t is not None and t < deadline + 1000]
    checks.append(
        Check(True, f"the agent's timeout leaves the hook's {deadline:.0f} ms deadline room")
        if not short
        else Check(
            False,
            f"a timeout of {min(short):.0f} ms would expire before the hook's {deadline:.0f} ms deadline, "
            f"and an expired hook lets the call through",
        )
    )
    checks.extend(Check(ok, line) for ok, line in agent_trust.checks(agent, scope, cwd, path, config))
    if not gating:
        events = " or ".join(f"{e} ({t})" if t else e for e, t in SHELL_EVENTS[agent])
        checks.append(Check(False, f"no Limen hook here sees a shell command: none on {events} matches it"))
        return report
    for h, tool in {(h.event, h.handler["command"]): (h, tool) for h, tool in gating}.values():
        wait = min((timeout_ms(agent, h.handler) or DEFAULT_TIMEOUT_MS[agent]) / 1000, MAX_WAIT_SECONDS)
        selects = "every tool" if h.matcher is None else f"matcher {json.dumps(h.matcher)} selects {tool}"
        label = f"a shell call `{SHELL_LINE}` on {h.event}" + ("" if tool is None else f" ({selects})")
        event = shell_call(agent, h.event, tool, cwd)
        checks.append(denied(agent, label, h.handler["command"], event, cwd, wait))
    command = gating[0][0].handler["command"]
    wait = min(
        (timeout_ms(agent, gating[0][0].handler) or DEFAULT_TIMEOUT_MS[agent]) / 1000, MAX_WAIT_SECONDS
    )
    write = protected_write(agent, path, cwd)
    checks.append(denied(agent, "a write to its own hook file", command, write, cwd, wait))
    checks.append(denied(agent, "an unreadable event", command, b"{garbage", cwd, wait))
    return report


def check_agent(agent: str, cwd: str) -> AgentReport | None:
    """The agent's report, or None when no file of it is wired to Limen."""
    from limen import agent_trust
    from limen.install import read_config, settings_files, wired

    report = AgentReport(agent)
    for scope, path in settings_files(agent, cwd):
        try:
            _, config = read_config(path)
        except (OSError, ValueError) as exc:
            report.checks.append(Check(False, f"the agent cannot read its settings: {exc}"))
            continue
        if wired(agent, config):
            report.files.append(check_file(agent, scope, path, config, cwd))
    if not report.files and not report.checks:
        return None
    report.checks.extend(Check(ok, line) for ok, line in agent_trust.gates(agent, cwd))
    return report


def print_text(reports: list[AgentReport], daemon: dict[str, Any] | None) -> None:
    from limen.cli.output import print_check

    for report in reports:
        if report.checks:
            print(f"{report.agent}:")
        for check in report.checks:
            print_check("  ", check.ok, check.check)
        for file in report.files:
            print(f"{report.agent}: {file.path} ({file.scope})")
            for check in file.checks:
                print_check("  ", check.ok, check.check)
    print(f"daemon: running, pid {daemon['pid']}" if daemon else "daemon: not running (a hook starts it)")


def state_checks() -> list[Check]:
    """The session state file: a damaged one, or one whose loss no person has acknowledged yet, means every
    session counts as tainted, which a person should hear from the doctor rather than from a denied call."""
    from limen.home import limen_home
    from limen.state.sqlite import health

    path = os.path.join(limen_home(), "state.sqlite")
    return [Check(False, problem) for problem in health(path)] or [Check(True, f"{path} is sound")]


def main(argv: list[str]) -> int:
    if argv[:1] == ["proxy"]:  # the egress proxy: CA trust and the path per runtime (limen.proxy.doctor)
        from limen.proxy.doctor import main as proxy_doctor

        return proxy_doctor(argv[1:])
    from limen.daemon import status
    from limen.install import AGENTS

    p = argparse.ArgumentParser(prog="limen doctor", description="Prove each agent runs Limen's hooks.")
    p.add_argument("agents", nargs="*", metavar="agent", help=f"Any of {', '.join(AGENTS)} (default: all).")
    p.add_argument("--json", action="store_true", help="Print the report as one JSON object.")
    args = p.parse_args(argv)
    unknown = [a for a in args.agents if a not in AGENTS]
    if unknown:
        print(
            f"limen doctor: unknown agent(s) {', '.join(unknown)}; choose from {', '.join(AGENTS)}",
            file=sys.stderr,
        )
        return 2
    cwd = os.getcwd()
    reports = []
    for agent in args.agents or AGENTS:
        report = check_agent(agent, cwd)
        if report is None and args.agents:
            report = AgentReport(
                agent, [Check(False, f"not wired to Limen here: run `limen install {agent}`")]
            )
        if report is not None:
            reports.append(report)
    daemon = status()
    state = state_checks()
    healthy = bool(reports) and all(r.ok for r in reports) and all(c.ok for c in state)
    if args.json:
        agents = [
            {
                "agent": r.agent,
                "ok": r.ok,
                "checks": [asdict(c) for c in r.checks],
                "files": [asdict(f) for f in r.files],
            }
            for r in reports
        ]
        print(
            json.dumps(
                {
                    "ok": healthy,
                    "workspace": cwd,
                    "agents": agents,
                    "daemon": {"running": bool(daemon), "pid": daemon["pid"] if daemon else None},
                    "state": [asdict(c) for c in state],
                }
            )
        )
    else:
        from limen.cli.output import print_check

        if not reports:
            print("limen doctor: no agent is wired to Limen here; run `limen install <agent>`")
        print_text(reports, daemon)
        for check in state:
            print_check("state: ", check.ok, check.check)
    return 0 if healthy else 1
