"""`limen proxy [--listen 127.0.0.1:8877]`: the egress door (HTTP and HTTPS through CONNECT, TLS intercepted
with Limen's CA). `limen proxy credential SESSION` prints the proxy URL that joins a session.

Every request is decided by `Runtime.decide` (door `proxy`) in the session its Proxy-Authorization names;
see `limen.proxy`. The token of a dedicated proxy (`--session ID`, started by `limen run --egress`) comes in
the `LIMEN_PROXY_TOKEN` variable, never on the command line, and is removed from the environment at once.
"""

from __future__ import annotations

import argparse
import os
import sys

TOKEN_VARIABLE = "LIMEN_PROXY_TOKEN"
MAX_BODY_LIMIT = 900_000  # limen.proxy.translate.MAX_BODY_LIMIT (not imported: it would import the proxy)
DEFAULT_LISTEN = "127.0.0.1:8877"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="limen proxy",
        description="Run the egress proxy: every HTTP(S) request is decided before it leaves.",
    )
    p.add_argument(
        "--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT", help="Where to listen (port 0: any)."
    )
    p.add_argument("--project", metavar="DIR", help="The project whose limen.yaml decides (default: here).")
    p.add_argument("--mode", choices=("light", "balanced", "strict", "paranoid"), help="Override the mode.")
    p.add_argument(
        "--pass-through",
        action="append",
        default=[],
        metavar="HOST",
        help="A host (glob) whose TLS is not intercepted; adds to proxy.yaml's pass_through.",
    )
    p.add_argument(
        "--max-body", type=int, metavar="BYTES", help="Bytes of a request body the detectors read."
    )
    p.add_argument(
        "--session",
        metavar="ID",
        help="The session of requests without a credential "
        f"(with {TOKEN_VARIABLE}: the only session, its token required).",
    )
    p.add_argument(
        "--require-credential",
        action="store_true",
        help="Refuse (407) requests that carry no session credential.",
    )
    p.add_argument(
        "--resolve",
        action="append",
        default=[],
        metavar="HOST:PORT:ADDR",
        help="Connect to ADDR for HOST:PORT (certificates still verified for HOST), as curl's --resolve.",
    )
    p.add_argument(
        "--upstream-ca", metavar="FILE", help="Verify servers against these roots instead of the system's."
    )
    p.add_argument("--ready-fd", type=int, metavar="FD", help=argparse.SUPPRESS)
    p.add_argument("--config", metavar="FILE", help="The settings file (default: LIMEN_HOME/proxy.yaml).")
    return p


def parse_listen(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"--listen wants HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def parse_resolve(values: list[str]) -> dict[tuple[str, int], tuple[str, int]]:
    found: dict[tuple[str, int], tuple[str, int]] = {}
    for value in values:
        parts = value.rsplit(":", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            raise ValueError(f"--resolve wants HOST:PORT:ADDR, got {value!r}")
        found[(parts[0].lower(), int(parts[1]))] = (parts[2].strip("[]"), int(parts[1]))
    return found


def proxy_url(host: str, port: int, session: str = "", token: str = "") -> str:
    from urllib.parse import quote

    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if not session:
        return f"http://{where}"
    return f"http://{quote(session, safe='')}:{quote(token, safe='')}@{where}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["credential"]:
        return credential(argv[1:])
    args = parser().parse_args(argv)
    token = os.environ.pop(TOKEN_VARIABLE, "")
    try:
        host, port = parse_listen(args.listen)
        resolve = parse_resolve(args.resolve)
    except ValueError as exc:
        print(f"limen proxy: {exc}", file=sys.stderr)
        return 2
    if args.max_body is not None and not 1024 <= args.max_body <= MAX_BODY_LIMIT:
        print(f"limen proxy: --max-body must be between 1024 and {MAX_BODY_LIMIT}", file=sys.stderr)
        return 2
    if token and not args.session:
        print(f"limen proxy: {TOKEN_VARIABLE} needs --session", file=sys.stderr)
        return 2
    try:
        import mitmproxy  # noqa: F401
    except ImportError:
        print("limen proxy: mitmproxy is not installed (pip install 'limen[proxy]')", file=sys.stderr)
        return 1
    from limen.policy.paths import project_root
    from limen.proxy.addon import ProxyConfig
    from limen.proxy.ca import ensure_ca
    from limen.proxy.config import ProxyConfigError, load
    from limen.proxy.server import serve
    from limen.proxy.sessions import PROXY_KEY, Sessions
    from limen.state.keys import installation_key

    try:
        settings = load(args.config)
    except (ProxyConfigError, OSError) as exc:
        print(f"limen proxy: {exc}", file=sys.stderr)
        return 2
    files, created = ensure_ca()
    if created:
        print(
            f"limen proxy: created the CA {files.cert} (`limen ca show` says how to trust it)",
            file=sys.stderr,
        )
    project = os.path.abspath(args.project) if args.project else project_root(os.getcwd())
    default_session = args.session or f"proxy:{host}:{port}"
    sessions = Sessions(
        default_session,
        require_credential=args.require_credential or bool(token),
        fixed_token=token,
        fixed_session=args.session if token else "",
        key=None if token else installation_key(PROXY_KEY),
    )
    config = ProxyConfig(
        sessions,
        pass_through=tuple(dict.fromkeys((*settings.pass_through, *(h.lower() for h in args.pass_through)))),
        max_body=args.max_body or settings.max_body,
        resolve=resolve,
        inject=settings.inject,
        cwd=project,
    )

    def ready(bound: int) -> None:
        print(
            f"limen proxy: listening on {proxy_url(host, bound)} (project {project})",
            file=sys.stderr,
            flush=True,
        )
        if args.ready_fd is not None:
            try:
                os.write(args.ready_fd, f"{bound}\n".encode())
                os.close(args.ready_fd)
            except OSError:
                pass

    try:
        serve(project, args.mode, host, port, config, files, args.upstream_ca, ready)
    except OSError as exc:
        print(f"limen proxy: {exc}", file=sys.stderr)
        return 1
    return 0


def credential(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="limen proxy credential", description="Print the proxy URL, with its credential, for a session."
    )
    p.add_argument("session", help="The session whose proxy URL to print.")
    p.add_argument("--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT", help="Where the proxy listens.")
    args = p.parse_args(argv)
    from limen.proxy.sessions import keyed_token

    try:
        host, port = parse_listen(args.listen)
    except ValueError as exc:
        print(f"limen proxy: {exc}", file=sys.stderr)
        return 2
    print(proxy_url(host, port, args.session, keyed_token(args.session)))
    return 0
