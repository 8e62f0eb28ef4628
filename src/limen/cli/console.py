"""`limen console`: the local web console, served until interrupted; prints a one-time login URL.

limen console [--port N] [--workspace DIR] [--open]
limen console --host ADDR --tls-cert CERT --tls-key KEY --password-stdin   (beyond loopback)
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen console",
        description=(
            "Serve the web console (pending approvals, the decision log, sessions, tool pins, the policy "
            "ledger) and print a login URL that works once. It listens on loopback unless given TLS and a "
            "password."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="The address to listen on (default 127.0.0.1).")
    parser.add_argument("--port", type=int, default=0, help="The port to listen on (default: a free one).")
    parser.add_argument(
        "--workspace", default=os.getcwd(), help="The project whose policy ledger is shown (default: here)."
    )
    parser.add_argument("--tls-cert", help="A PEM certificate (needed to listen beyond loopback).")
    parser.add_argument("--tls-key", help="The PEM private key of the certificate.")
    parser.add_argument(
        "--password-stdin",
        action="store_true",
        help="Read the console password from standard input (needed to listen beyond loopback).",
    )
    parser.add_argument("--open", action="store_true", help="Open the login URL in the default browser.")
    parser.add_argument(
        "--postgres",
        metavar="DSN",
        help="Show the decision log of this PostgreSQL audit chain (default: the one limen serve's "
        "configuration names, else this machine's file log).",
    )
    args = parser.parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")

    from limen.console.app import Console
    from limen.console.auth import Gate, Password
    from limen.console.server import ConsoleError, ConsoleServer

    try:
        password = Password(sys.stdin.readline().rstrip("\n")) if args.password_stdin else None
    except ValueError as exc:
        print(f"limen console: {exc}", file=sys.stderr)
        return 2
    from limen.cli.audit import AuditSourceError, configured_postgres

    try:
        dsn = configured_postgres(None, args.postgres)
    except AuditSourceError as exc:
        print(f"limen console: {exc}", file=sys.stderr)
        return 2
    reader = None
    if dsn:
        from limen.audit.postgres import PostgresLogReader

        reader = PostgresLogReader(dsn)
        try:
            reader.size()
        except Exception as exc:  # an unreachable or unreadable database: said, never a traceback
            print(
                f"limen console: the PostgreSQL audit cannot be read ({type(exc).__name__})", file=sys.stderr
            )
            return 2
    console = Console(
        workspace=os.path.abspath(args.workspace),
        gate=Gate(password),
        secure=bool(args.tls_cert),
        reader=reader,
    )
    try:
        server = ConsoleServer(
            console, args.host, args.port, tls=(args.tls_cert, args.tls_key) if args.tls_cert else None
        )
    except (ConsoleError, OSError) as exc:
        console.close()
        print(f"limen console: {exc}", file=sys.stderr)
        return 1
    url = server.login_url()
    print(f"Limen console: {url}", flush=True)
    print("The link works once, within 10 minutes. Stop the console with Ctrl-C.", flush=True)
    if args.open:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        console.close()
    return 0
