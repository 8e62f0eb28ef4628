"""`limen serve`: the decision core as an HTTP service for a fleet of agents (`limen.serve`).

    limen serve [--listen 127.0.0.1:8787] [--config serve.yaml] [--workspace DIR] [--mode MODE]
                [--state redis://...] [--audit postgresql://...|DIR] [--tls-cert F --tls-key F]
                [--policy postgresql://...|FILE]
    limen serve token add NAME | list | remove NAME
    limen serve policy publish FILE | versions     [--config F] [--to postgresql://...]
    limen serve policy status | propose | pending | approve ID | history   [--workspace DIR]
    limen serve tools list | approve SERVER TOOL     [--config F] [--state URL] [--audit SINK]
    limen serve pending | approve ID [--code C] | deny ID      [--config F] [--state URL] [--audit SINK]

Any number of replicas may serve the same `--state` and `--audit` behind a load balancer. A non-loopback
address needs TLS (`--tls-cert/--tls-key`), or `--plain-http` when a proxy in front terminates it: bearer
tokens must not cross a network in clear by accident.

`--policy` (serve.yaml `policy:`) is the organisation policy every replica follows (`limen.serve.policy`):
a file, or a database `limen serve policy publish` appends versions to. A change applies without a restart;
a loosening waits for the drift gate: `limen serve policy propose`, then `approve ID` with the possession
factor (the `limen policy` commands on the policy the replicas apply, run with their LIMEN_HOME).

`tools` lists and approves the MCP tools whose contract changed since they were pinned in the fleet's store
(the MCP doors pin through `limen serve`, so `limen tools`, which reads this machine's store, does not see
them); an approval is audited into the configured sink.

`pending`, `approve` and `deny` answer the approval requests the fleet opened: on a Redis state they live
in Redis (any replica's request, answered once, used once), audited into the configured sink.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.serve.config import Identities, ServeConfig
    from limen.serve.policy import PolicyFollower

_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


_CONFIG_HELP = "Configuration file (default LIMEN_HOME/serve.yaml)."
_STATE_HELP = "Session store: redis://HOST:PORT/DB or a SQLite file."
_AUDIT_HELP = "Audit sink: postgresql://... or an audit directory."


def _backend_options(parser: argparse.ArgumentParser) -> None:
    """The options every fleet command takes to find its configuration, session store and audit sink."""
    parser.add_argument("--config", help=_CONFIG_HELP)
    parser.add_argument("--state", help=_STATE_HELP)
    parser.add_argument("--audit", help=_AUDIT_HELP)


def _configured(
    args: argparse.Namespace, keys: tuple[str, ...], prog: str = "limen serve"
) -> ServeConfig | None:
    """serve.yaml (or --config), with the values the command line gives for `keys` over it (a workspace made
    absolute); None once the reason it cannot be read is said."""
    from limen.serve.config import ServeConfigError, load

    try:
        config = load(args.config)
    except ServeConfigError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    for key in keys:
        value = getattr(args, key, None)
        if value:
            setattr(config, key, os.path.abspath(value) if key == "workspace" else value)
    return config


def main(argv: list[str]) -> int:
    if argv[:1] == ["token"]:
        return _tokens(argv[1:])
    if argv[:1] == ["policy"]:
        return _policy(argv[1:])
    if argv[:1] == ["tools"]:
        return _tools(argv[1:])
    if argv[:1] in (["pending"], ["approve"], ["deny"]):
        return _approvals(argv[0], argv[1:])
    parser = argparse.ArgumentParser(prog="limen serve", description="Serve decisions over HTTP.")
    parser.add_argument("--listen", default="127.0.0.1:8787", help="HOST:PORT (default 127.0.0.1:8787).")
    parser.add_argument("--config", help=_CONFIG_HELP)
    parser.add_argument(
        "--workspace", help="Whose policy files decide (default: the configuration's, or cwd)."
    )
    parser.add_argument("--mode", help="Mode override (light, balanced, strict, paranoid).")
    parser.add_argument("--state", help=_STATE_HELP)
    parser.add_argument("--audit", help=_AUDIT_HELP)
    parser.add_argument(
        "--policy", help="The organisation policy: postgresql://... (published versions) or a file."
    )
    parser.add_argument("--tls-cert", help="Certificate (PEM) to serve https.")
    parser.add_argument("--tls-key", help="Private key (PEM) of --tls-cert.")
    parser.add_argument(
        "--plain-http", action="store_true", help="Allow plain http on a non-loopback address."
    )
    args = parser.parse_args(argv)

    from limen.serve.config import Identities

    config = _configured(args, ("workspace", "mode", "state", "audit", "policy"))
    if config is None:
        return 2
    if config.mode is not None:
        from limen.model import Mode

        if config.mode not in Mode.__members__.values():
            print(f"limen serve: --mode {config.mode!r} is not a mode", file=sys.stderr)
            return 2
    host, _, port = args.listen.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit():
        print(f"limen serve: --listen {args.listen!r}: expected HOST:PORT", file=sys.stderr)
        return 2
    if bool(args.tls_cert) != bool(args.tls_key):
        print("limen serve: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    if host not in _LOOPBACK and not args.tls_cert and not args.plain_http:
        print(
            f"limen serve: {host} is not a loopback address: serve https (--tls-cert, --tls-key), or pass "
            "--plain-http when a proxy in front terminates TLS",
            file=sys.stderr,
        )
        return 2
    if not config.tokens:
        print(
            "limen serve: note: no agent identity is configured yet (limen serve token add NAME)",
            file=sys.stderr,
        )
    return _run(config, args, host, int(port), Identities(args.config, config))


def _run(config: ServeConfig, args: argparse.Namespace, host: str, port: int, identities: Identities) -> int:
    try:
        import uvicorn
    except ImportError:
        print("limen serve: it needs the http extra: pip install 'limen[http]'", file=sys.stderr)
        return 1
    from limen.serve.app import DecisionService, build

    follower = _follow_policy(config.policy)
    try:
        runtime, owners = build(config)
    except Exception as exc:
        print(f"limen serve: cannot open the session store ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 1
    app = DecisionService(runtime, owners, identities)
    try:
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host=host,
                port=port,
                log_level="warning",
                lifespan="on",
                access_log=False,
                ssl_certfile=args.tls_cert,
                ssl_keyfile=args.tls_key,
                timeout_graceful_shutdown=5,
            )
        )
        signal.signal(signal.SIGHUP, server.handle_exit)  # uvicorn handles SIGINT and SIGTERM itself
        print(
            f"limen serve: listening on {'https' if args.tls_cert else 'http'}://{host}:{port}",
            file=sys.stderr,
        )
        server.run()
    finally:
        if follower is not None:
            follower.stop()
        runtime.close()
        from limen.serve.owners import SqliteOwners

        if isinstance(owners, SqliteOwners):  # a Redis store is its own owners, closed with the runtime
            owners.close()
    return 0


def _follow_policy(source: str) -> PolicyFollower | None:
    """Point this process's organisation policy at `source` (before any policy is loaded); for a database,
    start following its newest version."""
    if not source:
        return None
    from limen.audit.postgres import is_dsn
    from limen.serve.policy import PolicyFollower, org_policy_file

    os.environ["LIMEN_ORG_POLICY"] = org_policy_file(source)
    if not is_dsn(source):
        return None
    follower = PolicyFollower(source)
    follower.start()
    return follower


# The drift gate's commands, run on the organisation policy the replicas apply (`limen policy ...` with
# LIMEN_ORG_POLICY and --workspace set as `limen serve` sets them).
GATE = ("status", "propose", "pending", "approve", "history")


def _gate(args: argparse.Namespace, source: str, workspace: str) -> int:
    from limen.cli import policy
    from limen.serve.policy import org_policy_file

    if not source or not workspace:
        print("limen serve policy: name the policy (--to or policy: in serve.yaml) and the fleet's "
              "--workspace (or workspace: in serve.yaml)", file=sys.stderr)  # fmt: skip
        return 2
    os.environ["LIMEN_ORG_POLICY"] = org_policy_file(source)
    forwarded = ["--workspace", workspace, args.command]
    if args.command == "approve":
        forwarded += [args.id, *(["--code", args.code] if args.code else [])]
        forwarded += ["--password-stdin"] if args.password_stdin else []
    elif getattr(args, "json", False):
        forwarded.append("--json")
    return policy.main(forwarded)


def _policy(argv: list[str]) -> int:
    import getpass

    from limen.audit.postgres import is_dsn
    from limen.serve.policy import CentralPolicyError, publish, versions

    parser = argparse.ArgumentParser(
        prog="limen serve policy", description="The organisation policy the fleet follows from PostgreSQL."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    put = sub.add_parser("publish", help="Check a policy file and append it as the newest version.")
    put.add_argument("file", help="The organisation policy (YAML, as /etc/limen/policy.yaml).")
    listed = sub.add_parser("versions", help="List the published versions.")
    listed.add_argument("--json", action="store_true", help="Print the versions as one JSON document.")
    gate = [
        sub.add_parser(name, help=f"The drift gate's {name} on the policy the replicas apply (limen policy).")
        for name in GATE
    ]
    gate[GATE.index("approve")].add_argument("id", help="The pending change's id.")
    gate[GATE.index("approve")].add_argument("--code", help="The current TOTP code.")
    gate[GATE.index("approve")].add_argument(
        "--password-stdin", action="store_true", help="Read the approval password from stdin."
    )
    for command in (put, listed, *gate):
        command.add_argument("--config", help=_CONFIG_HELP)
        command.add_argument("--to", metavar="DSN", help="The database (default: serve.yaml's policy).")
    for command in gate:
        command.add_argument("--workspace", help="The fleet's policy folder (default: serve.yaml's).")
    for name in ("status", "pending", "history"):
        gate[GATE.index(name)].add_argument("--json", action="store_true", help="Print one JSON document.")
    args = parser.parse_args(argv)
    config = _configured(args, ("workspace",), "limen serve policy")
    if config is None:
        return 2
    dsn = args.to or config.policy
    if args.command in GATE:
        return _gate(args, dsn, config.workspace)
    if not is_dsn(dsn):
        print("limen serve policy: no database: pass --to postgresql://... or set policy: in serve.yaml",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        if args.command == "publish":
            try:
                with open(args.file, encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError) as exc:
                print(
                    f"limen serve policy: {args.file}: cannot be read ({type(exc).__name__})", file=sys.stderr
                )
                return 2
            version = publish(dsn, text, name=args.file, by=getpass.getuser())
            print(f"published version {version}; replicas follow it within seconds (a loosening waits for "
                  "`limen serve policy approve`)")  # fmt: skip
            return 0
        found = versions(dsn)
    except CentralPolicyError as exc:
        print(f"limen serve policy: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # unreachable, refused: never a traceback (the DSN may hold a password)
        print(f"limen serve policy: the database cannot be used ({type(exc).__name__})", file=sys.stderr)
        return 1
    if args.json:
        from limen.cli.output import print_json

        print_json(found)
    elif not found:
        print("no policy has been published")
    for entry in [] if args.json else found:
        when, who, digest = entry["published_at"], entry["published_by"], entry["sha256"][:12]
        print(f"#{entry['version']}  {when}  by {who}  {digest}")
    return 0


def _tools(argv: list[str]) -> int:
    from limen.floors import toolpin
    from limen.serve.app import build

    parser = argparse.ArgumentParser(
        prog="limen serve tools", description="MCP tools whose contract changed, in the fleet's store."
    )
    sub = parser.add_subparsers(dest="action", required=True)
    listed = sub.add_parser("list", help="List the tools that await re-approval.")
    listed.add_argument("--json", action="store_true", help="Print the tools as one JSON document.")
    approve = sub.add_parser("approve", help="Accept a changed tool's new contract, fleet-wide.")
    approve.add_argument("server", help="The server's name (limen mcp --name, or the derived one).")
    approve.add_argument("tool", help="The tool's name as the server lists it.")
    for command in (listed, approve):
        _backend_options(command)
    args = parser.parse_args(argv)
    config = _configured(args, ("state", "audit"))
    if config is None:
        return 2
    runtime, _ = build(config)
    try:
        if args.action == "list":
            waiting = toolpin.pending(runtime.store)
            if args.json:
                from limen.cli.output import print_json

                print_json([{"server": k.split("/", 1)[0], "tool": k.split("/", 1)[-1]} for k in waiting])
            elif not waiting:
                print("no tool awaits re-approval")
            for key in [] if args.json else waiting:
                print(f"{key}\tlimen serve tools approve {key.replace('/', ' ', 1)}")
            return 0
        if not toolpin.approve(args.server, args.tool, store=runtime.store):
            print(
                f"limen serve tools: nothing awaits approval for {args.server}/{args.tool}", file=sys.stderr
            )
            return 1
        from limen.approvals.service import who

        recorded = runtime.audit_event(
            "tool_pin_approved", server=args.server, tool=args.tool, by=f"cli:{who()}"
        )
        print(f"approved the new contract of {args.server}/{args.tool} for every replica")
        if not recorded:
            print("limen serve tools: the audit sink did not record the approval", file=sys.stderr)
            return 1
        return 0
    finally:
        runtime.close()


def _tokens(argv: list[str]) -> int:
    from limen.serve.config import ServeConfigError, add_token, load, remove_identity, tokens_path

    parser = argparse.ArgumentParser(prog="limen serve token", description="Manage agent identities.")
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add", help="Create a bearer token for an agent identity (printed once).")
    add.add_argument("identity", help="The agent identity the token stands for.")
    listed = sub.add_parser("list", help="List the configured identities.")
    listed.add_argument("--json", action="store_true", help="Print the identities as one JSON document.")
    remove = sub.add_parser("remove", help="Revoke every token of an identity.")
    remove.add_argument("identity", help="The agent identity whose tokens to revoke.")
    args = parser.parse_args(argv)
    try:
        if args.command == "add":
            token = add_token(args.identity)
            print(token)
            print(
                f"limen serve: token for {args.identity} saved (hashed) in {tokens_path()}; "
                "it is shown only now: give it to the agent as LIMEN_SERVER_TOKEN",
                file=sys.stderr,
            )
            return 0
        if args.command == "remove":
            removed = remove_identity(args.identity)
            print(f"removed {removed} token(s) of {args.identity}")
            return 0 if removed else 1
        config = load()
        counts = Counter(config.tokens.values())  # identity -> how many tokens it has
        if args.json:
            from limen.cli.output import print_json

            print_json([{"identity": who, "tokens": counts[who]} for who in sorted(counts)])
            return 0
        for identity in sorted(counts):
            print(f"{identity}\t{counts[identity]} token(s)")
        return 0
    except ServeConfigError as exc:
        print(f"limen serve: {exc}", file=sys.stderr)
        return 2


def _approvals(command: str, argv: list[str]) -> int:
    import json

    from limen.approvals import ApprovalError
    from limen.approvals.service import who
    from limen.serve.app import build

    parser = argparse.ArgumentParser(prog=f"limen serve {command}", description="The fleet's approvals.")
    if command != "pending":
        parser.add_argument("id", help="The request's id, as limen serve pending lists it.")
    if command == "approve":
        parser.add_argument(
            "--code", help="The current TOTP code (requests at or above the strong threshold)."
        )
        parser.add_argument("--password-stdin", action="store_true", help="Read the approval password.")
    parser.add_argument("--json", action="store_true", help="Print JSON.")
    parser.add_argument("--workspace", help="The fleet's policy folder.")
    _backend_options(parser)
    args = parser.parse_args(argv)
    config = _configured(args, ("workspace", "state", "audit"))
    if config is None:
        return 2
    runtime, _ = build(config)
    try:
        approvals = runtime.approvals
        if command == "pending":
            requests = approvals.pending()
            if args.json:
                print(json.dumps([r.to_dict() for r in requests], indent=2))
            for r in [] if args.json else requests:
                strong = " strong" if r.strong else ""
                print(f"{r.id}  {r.door:<5} risk {r.risk}{strong}  [{', '.join(r.reasons)}]")
                print(f"    {r.action}")
            if not requests and not args.json:
                print("no approval requests are waiting")
            return 0
        if command == "approve":
            password = sys.stdin.readline().rstrip("\n") if args.password_stdin else None
            request = approvals.grant(args.id, by=f"cli:{who()}", code=args.code, password=password)
            print(f"approved once: {request.id} ({request.tool}); the identical call may run once")
        else:
            request = approvals.deny(args.id, by=f"cli:{who()}")
            print(f"denied: {request.id} ({request.tool})")
        return 0
    except ApprovalError as exc:
        print(f"limen serve {command}: {exc}", file=sys.stderr)
        return 1
    finally:
        runtime.close()
