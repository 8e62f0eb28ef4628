"""`limen daemon start|stop|status`: the per-user decision daemon behind `limen-hook`."""

from __future__ import annotations

import argparse
import json


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="limen daemon",
        description=(
            "Start, stop or inspect the per-user decision daemon. A hook starts it by itself when it is "
            "not running, so starting it by hand is never required."
        ),
    )
    sub = p.add_subparsers(dest="command", metavar="{start,stop,status}")
    sub.add_parser("start", help="Start the daemon in the background and print its pid and socket.")
    sub.add_parser("stop", help="Stop the running daemon.")
    status = sub.add_parser(
        "status", help="Print the running daemon's status as JSON, or say it is not running (exit 3)."
    )
    status.add_argument("--json", action="store_true", help="Print the status as one JSON document.")
    sub.add_parser("serve")  # the daemon itself, in the foreground: what `start` runs (no help: internal)
    return p


def main(argv: list[str]) -> int:
    from limen import daemon

    args = parser().parse_args(argv)
    command = args.command or "status"
    if command == "serve":
        return daemon.serve()
    if command == "start":
        current = daemon.start()
        print(json.dumps(current) if current else "limen daemon: did not start (see daemon.log)")
        return 0 if current else 1
    if command == "stop":
        stopped = daemon.stop()
        print("limen daemon: stopped" if stopped else "limen daemon: still running")
        return 0 if stopped else 1
    current = daemon.status()
    if getattr(args, "json", False):
        print(json.dumps({"running": bool(current), **(current or {})}))
    else:  # the daemon's own status object, as scripts have read it since the first release
        print(json.dumps(current) if current else "limen daemon: not running")
    return 0 if current else 3
