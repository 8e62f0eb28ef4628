"""`limen ca init|show`: the egress proxy's local CA (under LIMEN_HOME/proxy/ca) and how to trust it."""

from __future__ import annotations

import argparse
import sys


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="limen ca",
        description=(
            "Create or show the egress proxy's local certificate authority (under LIMEN_HOME/proxy/ca) "
            "and how to make each runtime trust it. It needs the proxy extra."
        ),
    )
    sub = p.add_subparsers(dest="verb", required=True)
    for verb, help_ in (
        ("init", "Create the CA unless it exists, then show how to trust it."),
        ("show", "Show the CA's files and how to trust it."),
    ):
        sub.add_parser(verb, help=help_).add_argument(
            "--json", action="store_true", help="Print the CA's files and trust variables as JSON."
        )
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        from limen.proxy.ca import ca_files, ensure_ca, instructions, trust_environment
    except ImportError:
        print("limen ca: mitmproxy is not installed (pip install 'limen[proxy]')", file=sys.stderr)
        return 1
    created = False
    if args.verb == "show":
        files = ca_files()
        if not files.exists:
            print("limen ca: no CA yet (`limen ca init` creates it)", file=sys.stderr)
            return 1
    else:
        files, created = ensure_ca()
    if args.json:
        import json

        shown = {"cert": str(files.cert), "bundle": str(files.bundle), "created": created}
        print(json.dumps({**shown, "environment": trust_environment(files)}))
        return 0
    if args.verb == "init":
        print("created a new CA" if created else "the CA already exists (kept)")
    print(instructions(files))
    return 0
