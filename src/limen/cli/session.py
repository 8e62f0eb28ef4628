"""`limen session show|clear|halt`: what a session holds (flags, taint size, recent history), forget it, or
stop it.

Clearing taint is a loosening: with a drift-gate possession factor configured it needs the TOTP code or
password; without one it needs `--yes`. Either way the clearing is written to the audit log. So is
`clear --state-lost`, which accepts that the stored state was lost (a damaged state file was rebuilt): until
then every session counts as tainted, and `show` says so. A state that cannot be opened at all is one line
on stderr and exit 1, never a traceback.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any


def show(store: Any, session_id: str) -> dict[str, Any]:
    return {
        "session": session_id,
        "flags": sorted(store.flags(session_id)),
        # one per secret read (its value's fingerprint); its normalised forms and windows are not counted
        "taint_fingerprints": sum(1 for length in store.taint(session_id).values() if length > 0),
        "recent": store.history(session_id, 10),
    }


def render(shown: dict[str, Any]) -> str:
    """`show`'s data for a person: the flags, the taint count and the recent calls, one per line."""
    lines = [
        f"session {shown['session']}",
        f"flags: {', '.join(shown['flags']) or 'none'}",
        f"secrets read (taint fingerprints): {shown['taint_fingerprints']}",
        "recent calls:" if shown["recent"] else "recent calls: none",
    ]
    lines += [f"  {json.dumps(call, sort_keys=True)}" for call in shown["recent"]]
    return "\n".join(lines)


def _gate(args: argparse.Namespace) -> str | None:
    """How the human proved it ("totp", "password", "confirmed"), or None when they did not."""
    from limen.policy import drift

    if drift.has_factor():
        code, password = args.code, None
        if code is None and sys.stdin.isatty():
            password = getpass.getpass("approval code or password: ")
            code, password = (password, None) if password.isdigit() else (None, password)
        try:
            return str(drift.verify_factor(code=code, password=password))
        except drift.DriftError as exc:
            print(f"limen session: {exc}", file=sys.stderr)
            return None
    return "confirmed" if args.yes else None


def main(argv: list[str]) -> int:
    from limen.runtime import Runtime

    parser = argparse.ArgumentParser(prog="limen session", description="Show or clear a session's state.")
    sub = parser.add_subparsers(dest="command", required=True)
    shown = sub.add_parser("show", help="Show what a session holds, or list the sessions.")
    shown.add_argument("session", nargs="?", help="The session to show; leave it out to list the sessions.")
    shown.add_argument("--json", action="store_true", help="Print the data as one JSON document.")
    cleared = sub.add_parser(
        "clear", help="Forget a session's taint (or everything); a loosening, confirmed and audited."
    )
    cleared.add_argument("session", nargs="?", help="Omit with --state-lost.")
    cleared.add_argument("--all", action="store_true", help="Forget everything, not only the taint.")
    cleared.add_argument(
        "--state-lost", action="store_true", help="Accept a lost state: sessions stop counting as tainted."
    )
    cleared.add_argument("--yes", action="store_true", help="Confirm (when no possession factor is set up).")
    cleared.add_argument("--code", help="TOTP code of the drift gate's possession factor.")
    halted = sub.add_parser("halt", help="Deny every further call of a session.")
    halted.add_argument("session", help="The session to halt.")
    halted.add_argument(
        "--reason", default="halted by a person", help="Why, as the audit log and the denials will say."
    )
    for p in (shown, cleared, halted):
        p.add_argument("--state", help="State database (default LIMEN_HOME/state.sqlite).")
    args = parser.parse_args(argv)
    if args.command == "clear" and not (args.session or args.state_lost):
        parser.error("clear needs a session, or --state-lost")
    runtime = Runtime(workspace=os.getcwd(), state_path=args.state)
    try:
        return _run(runtime, args)
    except BrokenPipeError:  # the reader went away (`| head`): limen.cli.main ends quietly
        raise
    except Exception as exc:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"limen session: {detail}", file=sys.stderr)
        return 1
    finally:
        runtime.close()


def _run(runtime: Any, args: argparse.Namespace) -> int:
    from limen.state.sqlite import RECOVERY

    store = runtime.store
    if args.command == "show":
        data: Any = show(store, args.session) if args.session else store.sessions()
        if args.json:
            print(json.dumps(data, indent=1))
        elif args.session:
            print(render(data))
        else:
            print("\n".join(data) if data else "no session has any state")
        lost = store.state_lost()
        if lost:
            print(f"limen session: {lost}; {RECOVERY}", file=sys.stderr)
        return 0
    if args.command == "halt":  # tightening: no confirmation needed
        return 0 if runtime.halt(args.session, reason=args.reason) else 1
    how = _gate(args)
    if how is None:
        print(
            "limen session: clearing a session's taint is a loosening; confirm it (--yes, or the "
            "drift gate's code)",
            file=sys.stderr,
        )
        return 2
    scope = "state_lost" if args.state_lost else "all" if args.all else "taint"
    if not runtime.audit_event("session_clear", session=args.session or "*", scope=scope, approved_by=how):
        print("limen session: the audit log is unavailable; nothing was cleared", file=sys.stderr)
        return 1
    if args.state_lost:
        store.acknowledge_state_loss()
        print(f"accepted the lost session state; sessions count by what was recorded since ({how})")
    if args.session:
        store.clear(args.session, taint_only=not args.all)
        print(f"cleared {'everything' if args.all else 'the taint'} of session {args.session} ({how})")
    return 0
