"""`limen ca init|show`: the egress proxy's local CA (under LIMEN_HOME/proxy/ca) and how to trust it."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    verb = argv[0] if argv else ""
    if verb not in ("init", "show"):
        print("usage: limen ca init|show", file=sys.stderr)
        return 2
    try:
        from limen.proxy.ca import ca_files, ensure_ca, instructions
    except ImportError:
        print("limen ca: mitmproxy is not installed (pip install 'limen[proxy]')", file=sys.stderr)
        return 1
    if verb == "show":
        files = ca_files()
        if not files.exists:
            print("limen ca: no CA yet (`limen ca init` creates it)", file=sys.stderr)
            return 1
    else:
        files, created = ensure_ca()
        print("created a new CA" if created else "the CA already exists (kept)")
    print(instructions(files))
    return 0
