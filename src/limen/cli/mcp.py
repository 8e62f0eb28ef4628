"""`limen mcp`: run an MCP server behind Limen's proxy.

limen mcp [options] <server command...>                agent and server on stdio
limen mcp [options] --url URL                          agent on stdio, server over Streamable HTTP
limen mcp serve --listen 127.0.0.1:PORT [options] <server command...>
                                                       agent over Streamable HTTP, server on stdio

The server command starts at the first word that is not an option of Limen's; everything from there on is
the server's, its own options included. A `--` before it is accepted and needed by nothing: some MCP
clients drop a `--` from the arguments they were configured with, which must not change what runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

USAGE = {
    False: (
        "limen mcp [options] [--] CMD [ARG...]\n"
        "       limen mcp [options] --url URL\n"
        "       limen mcp serve --listen HOST:PORT [options] [--] CMD [ARG...]"
    ),
    True: "limen mcp serve --listen HOST:PORT [options] [--] CMD [ARG...]",
}


def _parser(serve: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="limen mcp serve" if serve else "limen mcp",
        usage=USAGE[serve],
        description=(
            "Run an MCP server behind Limen: every tools/call, resources/read and prompts/get decided, "
            "their results and the server's errors screened."
        ),
        epilog=(
            (
                ""
                if serve
                else "limen mcp serve serves the agent over Streamable HTTP instead of stdio; "
                "limen mcp serve --help lists its options. "
            )
            + "The server command (CMD and its ARGs) starts at the first word that is not one of these "
            "options; the rest is the server's, its own options included (a -- before it is optional). "
            "An AUTH a human may allow is asked through the client's elicitation form (the call, the "
            "reason codes and the argument names with secret-masked values); the answer is trusted as "
            "the human's. See --no-ask. SIGTERM, SIGINT and SIGHUP stop the proxy and the server's "
            "whole process group."
        ),
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    if serve:
        parser.add_argument(
            "--listen", required=True, help="HOST:PORT to serve Streamable HTTP on (loopback)."
        )
        parser.add_argument("--path", default="/mcp", help="Endpoint path (default /mcp).")
        parser.add_argument(
            "--max-sessions",
            type=int,
            default=64,
            help=(
                "Sessions held at once, each with its own server process (default 64); at the limit a new "
                "session is refused (HTTP 503) and live ones are never closed."
            ),
        )
        parser.add_argument(
            "--session-idle",
            type=float,
            default=3600.0,
            help=(
                "At the limit, a session idle this many seconds (nothing in flight, no open stream) is "
                "closed to make room (default 3600; 0: never)."
            ),
        )
    else:
        parser.add_argument("--url", default="", help="The server's Streamable HTTP endpoint.")
        parser.add_argument(
            "--header",
            action="append",
            default=[],
            metavar="NAME:VALUE",
            help="Extra HTTP header for the server (repeatable).",
        )
    parser.add_argument("--name", default="", help="Server name for tool names and pins (default: derived).")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="Seconds a request may take (default 60)."
    )
    parser.add_argument(
        "--startup-timeout",
        type=float,
        default=30.0,
        help="Extra seconds for a server still starting (default 30).",
    )
    parser.add_argument("--restart", action="store_true", help="Restart the server when it exits.")
    parser.add_argument(
        "--no-ask",
        action="store_true",
        help=(
            "Never ask through the client's elicitation form: every AUTH is refused. The form is shown "
            "and answered by the MCP client, so asking trusts that a human reads it; use this flag with "
            "clients that let the model answer forms or accept them by themselves."
        ),
    )
    parser.add_argument(
        "--mode",
        default=None,
        choices=["light", "balanced", "strict", "paranoid"],
        help="A mode stricter than the policy's (a looser one is ignored).",
    )
    if not serve:  # served over HTTP, each client session is a Limen session of its own
        parser.add_argument(
            "--session", default="", help="Session id (default: $LIMEN_SESSION_ID or a new one)."
        )
    parser.add_argument("--workspace", default="", help="Workspace for path decisions (default: cwd).")
    parser.add_argument("--artifact-pins", default="", help="JSON file {tool: {locator: sha256}}.")
    return parser


def _env_headers(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Headers from `LIMEN_MCP_HEADERS` (JSON), where `limen install` puts them: never on the command line."""
    import json
    import os

    from limen.doors.mcp.install import HEADERS_ENV

    raw = os.environ.get(HEADERS_ENV)
    if not raw:
        return {}
    try:
        headers = json.loads(raw)
    except ValueError:
        headers = None
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        parser.error(f"{HEADERS_ENV} must be a JSON object of strings")
    return {str(k): v for k, v in headers.items()}


def main(argv: list[str]) -> int:
    from limen.doors.mcp.app import Options, run_stdio

    serve = bool(argv) and argv[0] == "serve"
    args = argv[1:] if serve else argv
    after: list[str] | None = None  # what follows the first `--`
    if "--" in args:
        split = args.index("--")
        args, after = args[:split], args[split + 1 :]
    parser = _parser(serve)
    ns = parser.parse_args(args)
    if after is None:
        command: list[str] = ns.command
    else:  # `--` before the command ends Limen's options; inside it, it is the server's own argument
        command = [*ns.command, "--", *after] if ns.command else after
    url = getattr(ns, "url", "")
    if bool(url) == bool(command):
        parser.error(
            "give either the server command or --url URL" if not serve else "give the server command"
        )
    if ns.timeout <= 0 or ns.startup_timeout < 0:
        parser.error("--timeout must be positive and --startup-timeout not negative")
    if serve and (ns.max_sessions < 1 or ns.session_idle < 0):
        parser.error("--max-sessions must be at least 1 and --session-idle not negative")
    needed = "uvicorn" if serve else "httpx2" if url else None
    if needed is not None and importlib.util.find_spec(needed) is None:
        what = "limen mcp serve" if serve else "limen mcp --url"
        print(f"limen mcp: {what} needs the http extra: pip install 'limen[http]'", file=sys.stderr)
        return 2
    headers = _env_headers(parser)
    for item in getattr(ns, "header", []):
        key, sep, value = item.partition(":")
        if not sep:
            parser.error(f"--header {item!r}: expected NAME:VALUE")
        headers[key.strip()] = value.strip()
    options = Options(
        command=command,
        url=url,
        name=ns.name,
        timeout=ns.timeout,
        startup_timeout=ns.startup_timeout,
        restart=ns.restart,
        ask=not ns.no_ask,
        mode=ns.mode,
        session_id=getattr(ns, "session", ""),
        workspace=ns.workspace,
        artifact_pins=ns.artifact_pins,
        headers=headers,
        max_sessions=getattr(ns, "max_sessions", 64),
        session_idle=getattr(ns, "session_idle", 3600.0),
    )
    try:
        if serve:
            from limen.doors.mcp.serve import run_http

            return run_http(options, ns.listen, ns.path)
        return run_stdio(options)
    except KeyboardInterrupt:
        return 130
    except (OSError, ValueError) as exc:
        print(f"limen mcp: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
