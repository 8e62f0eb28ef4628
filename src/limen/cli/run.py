"""`limen run [options] -- <agent command>`: start a coding agent confined, its decision daemon outside.

The daemon is started first (outside: it must write the audit log and state, and the agent must not be
able to stop it); then a forked child sets no_new_privs, enters a Landlock domain that refuses writes to
Limen's code, home and every agent's hook wiring, scopes signals and abstract sockets, and (with
`--egress HOST:PORT`) allows TCP connections to that port only; then it becomes the agent. `--egress` alone
starts a dedicated `limen proxy` outside the confinement (a free loopback port, a random token only the
agent is given); either way the agent's proxy variables carry the run's session credential and its CA
variables trust Limen's egress CA, and `LIMEN_SESSION` makes its hooks decide in the same session.
This process stays outside, forwards SIGTERM and SIGHUP to the agent, keeps the daemon running (it would
otherwise exit after an idle spell, and a daemon started from inside could not write anything), and exits
with the agent's status. Without the kernel support asked for it refuses, unless `--unconfined`.

`limen run --check [--json] [--egress HOST:PORT]` says what the kernel offers and what would be enforced.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from typing import Any

from limen.confine import (
    COMMAND_AGENTS,
    Guard,
    Protected,
    agent_dir,
    agent_of,
    landlock,
    protected_paths,
    split_guarded,
    support,
)

# How often the daemon is pinged (which also keeps it from its idle exit). Short: the agent can ask the daemon
# to stop over its socket (the hooks must reach it), and until it is back every hook inside denies.
SUPERVISE_SECONDS = 2.0
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")
NO_PROXY_VARIABLES = ("NO_PROXY", "no_proxy")
CONFINED_VARIABLE = "LIMEN_CONFINED"  # set in the agent's environment: "landlock:<abi>" or "none"
SESSION_VARIABLE = "LIMEN_SESSION"  # the run's session: the hooks inside and the proxy decide in it
START_PROXY = "start"  # `--egress` without an address: start a dedicated proxy


class Egress:
    """Where the agent's traffic goes: the proxy's address, the run's session and its proxy credential."""

    def __init__(self, host: str, port: int, session: str, token: str) -> None:
        self.host, self.port, self.session, self.token = host, port, session, token
        self.process: subprocess.Popen[bytes] | None = None

    def url(self) -> str:
        from limen.cli.proxy import proxy_url as credential_url

        return credential_url(self.host, self.port, self.session, self.token)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start_proxy(project: str, session: str) -> Egress:
    """A dedicated `limen proxy` for this run, started outside the confinement, on a free loopback port,
    accepting only this session with a token it gets through its environment (never its command line)."""
    import secrets

    from limen.cli.proxy import TOKEN_VARIABLE

    token = secrets.token_hex(16)
    read, write = os.pipe()
    argv = [sys.executable, "-m", "limen", "proxy", "--listen", "127.0.0.1:0", "--project", project]
    argv += ["--session", session, "--ready-fd", str(write)]
    process = subprocess.Popen(  # its own session: a Ctrl-C meant for the agent does not stop it
        argv, env={**os.environ, TOKEN_VARIABLE: token}, pass_fds=(write,), start_new_session=True
    )
    os.close(write)
    data = b""
    with os.fdopen(read, "rb") as ready:
        data = ready.readline()
    if not data.strip().isdigit():
        process.kill()
        raise RuntimeError("the egress proxy did not start (see its messages above)")
    egress = Egress("127.0.0.1", int(data), session, token)
    egress.process = process
    return egress


def session_egress(host: str, port: int, session: str) -> Egress:
    """A running `limen proxy` at HOST:PORT: the credential is the installation's keyed token. Warns when
    the proxy does not answer, or accepts requests that name no session (an agent that drops its
    credential would leave the run's session, and its taint, behind)."""
    from limen.proxy.sessions import keyed_token

    found = probe_proxy(host, port)
    if found == "unreachable":
        print(
            f"limen run: nothing answers at {host}:{port} yet: the agent's requests fail until it does",
            file=sys.stderr,
        )
    elif found != "requires":
        print(
            f"limen run: the proxy at {host}:{port} accepts requests without a credential; start it with "
            "`limen proxy --require-credential` so the agent cannot leave the run's session",
            file=sys.stderr,
        )
    return Egress(host, port, session, keyed_token(session))


def probe_proxy(host: str, port: int, timeout: float = 1.0) -> str:
    """`requires` (it answers 407 to a CONNECT with no credential), `accepts` (anything else) or
    `unreachable`. The CONNECT names a reserved host; nothing is sent through it."""
    import socket

    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(b"CONNECT limen-probe.invalid:443 HTTP/1.1\r\nHost: limen-probe.invalid:443\r\n\r\n")
            status = conn.recv(64).split(b"\r\n", 1)[0]
    except OSError:
        return "unreachable"
    return "requires" if b" 407" in status else "accepts"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="limen run",
        description="Start a coding agent confined by the kernel, with Limen's decision daemon outside it.",
        usage="limen run [--egress HOST:PORT] [--guard-agent-dir] [--guard-project] [--agent NAME]\n"
        "                 [--project DIR] [--unconfined] -- <command> [args...]\n"
        "       limen run --check [--json] [--egress HOST:PORT]",
    )
    p.add_argument(
        "--check", action="store_true", help="Say what the kernel offers and would enforce; run nothing."
    )
    p.add_argument("--json", action="store_true", help="With --check: as JSON.")
    p.add_argument(
        "--egress",
        metavar="HOST:PORT",
        nargs="?",
        const=START_PROXY,
        help="Allow TCP connections to this port only (a limen proxy); alone, start a dedicated proxy.",
    )
    p.add_argument("--unconfined", action="store_true", help="Run without confinement (said on stderr).")
    p.add_argument("--project", metavar="DIR", help="The project whose wiring and limen.yaml to protect.")
    p.add_argument(
        "--agent",
        choices=sorted(set(COMMAND_AGENTS.values())),
        help="The agent the command starts (default: from the program's name).",
    )
    p.add_argument(
        "--guard-agent-dir",
        action="store_true",
        help="Leave the agent's own folder (~/.gemini, ~/.codex, ~/.claude) writable and put its hook wiring "
        "back from outside whenever it changes, instead of refusing writes there.",
    )
    p.add_argument(
        "--guard-project",
        action="store_true",
        help="Leave the project's top folder writable (new files there) and put the project's hook wiring "
        "and limen.yaml back from outside whenever they change, instead of refusing writes there.",
    )
    p.add_argument("command", nargs=argparse.REMAINDER, help="The agent command, after --.")
    return p


def parse_egress(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--egress wants HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def proxy_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """Limen's options and the agent command: everything after the first `--` is the agent's."""
    if "--" in argv:
        at = argv.index("--")
        return argv[:at], argv[at + 1 :]
    return argv, []


def main(argv: list[str]) -> int:
    options, command = split_argv(argv)
    args = parser().parse_args(options)
    command = command or list(args.command)
    egress: tuple[str, int] | None = None
    if args.egress == START_PROXY:
        egress = ("127.0.0.1", 0)  # the port is known once the proxy listens
    elif args.egress:
        try:
            egress = parse_egress(args.egress)
        except ValueError as exc:
            print(f"limen run: {exc}", file=sys.stderr)
            return 2
    from limen.policy.paths import project_root

    project = os.path.abspath(args.project) if args.project else project_root(os.getcwd())
    if args.check:
        return check(project, egress, args.json)
    if not command:
        print(parser().format_usage().rstrip(), file=sys.stderr)
        return 2
    agent = args.agent or agent_of(command)
    if args.guard_agent_dir and agent is None:
        print("limen run: --guard-agent-dir needs to know the agent: give --agent", file=sys.stderr)
        return 2
    return run(command, project, egress, args.unconfined, agent, args.guard_agent_dir, args.guard_project)


def check(project: str, egress: tuple[str, int] | None, as_json: bool) -> int:
    found = support(egress_port=egress[1] if egress else None)
    protected = protected_paths(project)
    grants = landlock.plan(p.path for p in protected) if found.abi else landlock.Grants()
    report: dict[str, Any] = {
        **found.as_dict(),
        "project": project,
        "protected": [{"path": p.path, "why": p.why, "kind": p.kind} for p in protected],
        "rules": {"directories": len(grants.directories), "files": len(grants.files)},
    }
    if egress is not None and egress[1] == 0:  # `--egress` alone: the port is the proxy's, known at start
        report["enforced"] = [
            line.replace("port 0 (any address)", "the port of the proxy `--egress` starts (any address)")
            for line in report["enforced"]
        ]
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        print(describe(report))
    return 0 if found.confinable else 1


def describe(report: dict[str, Any]) -> str:
    abi = report["landlock_abi"]
    lines = [
        f"Landlock ABI: {abi}" if abi else "Landlock: not available",
        "limen run would: "
        + ("run the agent confined" if report["confinable"] else "refuse (or --unconfined)"),
        f"project: {report['project']}",
    ]
    for title, key in (
        ("enforced", "enforced"),
        ("not enforced", "not_enforced"),
        ("missing (the run is refused)", "missing"),
        ("limits", "limits"),
    ):
        if report[key]:
            lines.append(f"{title}:")
            lines += [f"  - {item}" for item in report[key]]
    lines.append("protected paths:")
    lines += [f"  {item['path']}  ({item['why']})" for item in report["protected"]]
    rules = report["rules"]
    lines.append(f"rules: {rules['directories']} directories, {rules['files']} files writable")
    return "\n".join(lines)


def child_environment(
    egress: tuple[str, int] | None, confined: str, route: Egress | None = None
) -> dict[str, str]:
    env = dict(os.environ)
    env[CONFINED_VARIABLE] = confined
    if egress is not None:
        url = route.url() if route is not None else proxy_url(*egress)
        env.update({name: url for name in PROXY_VARIABLES})
        for name in NO_PROXY_VARIABLES:  # a direct connection would be refused anyway
            env.pop(name, None)
    if route is not None:
        from limen.proxy.ca import ca_files, trust_environment
        from limen.proxy.config import ProxyConfigError, load

        env[SESSION_VARIABLE] = route.session
        with contextlib.suppress(ProxyConfigError, OSError):  # the proxy itself refuses a bad file
            for injection in load().inject:  # credentials the proxy adds: never the agent's to hold
                env.pop(injection.value_env, None)
        files = ca_files()
        if files.exists:
            env.update(trust_environment(files))
    return env


def open_egress(project: str, egress: tuple[str, int]) -> Egress | None:
    """The run's route to the proxy: a dedicated one started now (port 0), or the one at the address.
    None (after saying why) when the proxy cannot be used."""
    import secrets

    session = f"run:{secrets.token_hex(8)}"
    try:
        from limen.proxy.ca import ensure_ca

        ensure_ca()
        if egress[1] == 0:
            return start_proxy(project, session)
        return session_egress(egress[0], egress[1], session)
    except ImportError:
        print("limen run: --egress needs the proxy extra (pip install 'limen[proxy]')", file=sys.stderr)
    except (OSError, RuntimeError) as exc:
        print(f"limen run: {exc}", file=sys.stderr)
    return None


def start_daemon() -> bool:
    from limen.daemon import start

    return start() is not None


def prepare_agent_dir(agent: str | None) -> str | None:
    """Create the agent's own folder (0700) if it is missing: in the home folder, which lies above protected
    paths, nothing new can be created from inside, and an agent cannot start without its folder."""
    folder = agent_dir(agent, os.path.expanduser("~")) if agent else None
    if folder is not None:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError as exc:
            print(f"limen run: could not create {folder}: {exc}", file=sys.stderr)
    return folder


def run(
    command: list[str],
    project: str,
    egress: tuple[str, int] | None,
    unconfined: bool,
    agent: str | None = None,
    guard_agent_dir: bool = False,
    guard_project: bool = False,
) -> int:
    route: Egress | None = None
    if egress is not None:
        route = open_egress(project, egress)
        if route is None:
            return 1
        egress = (route.host, route.port)
    try:
        return _run(command, project, egress, unconfined, agent, guard_agent_dir, guard_project, route)
    finally:
        if route is not None:
            route.stop()


def _run(
    command: list[str],
    project: str,
    egress: tuple[str, int] | None,
    unconfined: bool,
    agent: str | None,
    guard_agent_dir: bool,
    guard_project: bool,
    route: Egress | None,
) -> int:
    found = support(egress_port=egress[1] if egress else None)
    if not unconfined and not found.confinable:
        print("limen run: refusing to start the agent unconfined:", file=sys.stderr)
        for item in found.missing:
            print(f"  - {item}", file=sys.stderr)
        print("  (`limen run --unconfined -- ...` runs it without confinement)", file=sys.stderr)
        return 1
    if not start_daemon():
        print(
            "limen run: the decision daemon did not start (see the daemon.log in its run directory)",
            file=sys.stderr,
        )
        return 1
    ruleset: landlock.Ruleset | None = None
    guard: Guard | None = None
    folder = prepare_agent_dir(agent)
    if unconfined:
        print(
            "limen run: running UNCONFINED: the agent can write Limen's files and stop its daemon",
            file=sys.stderr,
        )
        confined = "none"
    else:
        protected, guarded = split_guarded(
            protected_paths(project), folder if guard_agent_dir else None, project if guard_project else None
        )
        if guarded:
            guard = Guard([p.path for p in guarded])
        try:
            ruleset = landlock.build(
                landlock.plan(p.path for p in protected), found.abi, egress[1] if egress else None
            )
        except OSError as exc:
            print(f"limen run: could not build the Landlock ruleset: {exc}", file=sys.stderr)
            return 1
        announce(found.abi, found.enforced, found.not_enforced, protected, ruleset.rules)
        if guard is not None:
            where = [f for f, on in ((folder, guard_agent_dir), (project, guard_project)) if on and f]
            print(
                f"limen run: {' and '.join(where)} stay writable; the hook wiring there is put back from "
                f"outside when it changes (not refused by the kernel): {', '.join(guard.saved)}",
                file=sys.stderr,
                flush=True,
            )
        confined = f"landlock:{found.abi}"
    return supervise(command, child_environment(egress, confined, route), ruleset, guard)


def announce(abi: int, enforced: list[str], open_: list[str], protected: list[Protected], rules: int) -> None:
    print(
        f"limen run: confined by Landlock ABI {abi} ({len(protected)} protected paths, {rules} rules).\n"
        "  refused inside: " + "; ".join(enforced) + ".\n"
        "  not enforced: " + "; ".join(open_) + ".\n"
        "  limits: nothing new can be created in a folder above a protected path (the home folder, the "
        "project's top folder, ~/.claude...): see `limen run --check`, --guard-agent-dir, --guard-project.",
        file=sys.stderr,
        flush=True,
    )


def supervise(
    command: list[str], env: dict[str, str], ruleset: landlock.Ruleset | None, guard: Guard | None = None
) -> int:
    """Fork the agent (confining it first), keep the daemon up, forward signals, return its exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # never returns
        become(command, env, ruleset)
    if ruleset is not None:
        ruleset.close()
    forwarded = (signal.SIGTERM, signal.SIGHUP)
    for sig in forwarded:
        signal.signal(sig, lambda number, _frame: _forward(pid, number))
    for sig in (signal.SIGINT, signal.SIGQUIT):  # the terminal sends them to the agent as well
        signal.signal(sig, signal.SIG_IGN)
    done = threading.Event()
    keeper = threading.Thread(target=keep_daemon, args=(done,), daemon=True)
    keeper.start()
    if guard is not None:
        threading.Thread(target=guard.run, args=(done,), daemon=True).start()
    try:
        _, status = os.waitpid(pid, 0)
    finally:
        done.set()
        if guard is not None:
            with contextlib.suppress(OSError):
                guard.check()
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def _forward(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, number)


def keep_daemon(done: threading.Event) -> None:
    """Ping the daemon now and then (activity keeps it from its idle exit); start it again when it is gone,
    from out here: one started by a hook inside the confinement could write nothing."""
    from limen.daemon import start, status

    while not done.wait(SUPERVISE_SECONDS):
        try:
            if status() is None:
                start()
        except Exception as exc:  # the hooks inside then deny; say why once per attempt
            print(f"limen run: could not restart the daemon: {type(exc).__name__}", file=sys.stderr)


def become(command: list[str], env: dict[str, str], ruleset: landlock.Ruleset | None) -> None:
    """In the forked child: confine, then exec the agent. Any failure ends the child without running it."""
    code = 126
    try:
        for sig in (signal.SIGPIPE, signal.SIGXFSZ):  # Python ignores them; the agent must not inherit that
            signal.signal(sig, signal.SIG_DFL)
        if ruleset is not None:
            landlock.restrict_self(ruleset)
            ruleset.close()
        try:
            os.execvpe(command[0], command, env)
        except FileNotFoundError:
            code = 127
            raise
    except BaseException as exc:
        what = "command not found" if code == 127 else f"{type(exc).__name__}: {exc}"
        try:
            os.write(2, f"limen run: {command[0]}: {what}\n".encode())
        finally:
            os._exit(code)
    os._exit(code)  # pragma: no cover - execvpe does not return
