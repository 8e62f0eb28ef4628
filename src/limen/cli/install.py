"""`limen install <agent> [--project|--user] [--dry-run]`: wire `limen-hook` into a coding agent."""

from __future__ import annotations

import argparse
import os
import sys

NOTES = {
    "codex": "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and approve it.",
    "gemini": "Gemini CLI warns about changed project hooks until you accept them.",
    "cursor": "Cursor reads hooks.json at start: restart Cursor.",
    "claude-code": "Claude Code reloads settings by itself; /hooks shows what is wired.",
}


def parser(prog: str, verb: str) -> argparse.ArgumentParser:
    from limen.install import AGENTS

    p = argparse.ArgumentParser(prog=prog, description=f"{verb} Limen's hook for a coding agent.")
    p.add_argument("agent", choices=AGENTS)
    scope = p.add_mutually_exclusive_group()
    scope.add_argument(
        "--user", dest="scope", action="store_const", const="user", help="your user settings (default)"
    )
    scope.add_argument(
        "--project",
        dest="scope",
        action="store_const",
        const="project",
        help="this directory's project settings",
    )
    p.add_argument("--dry-run", action="store_true", help="show the change as a diff, write nothing")
    p.set_defaults(scope="user")
    return p


def run(argv: list[str], *, remove: bool) -> int:
    from limen.install import change

    verb = "uninstall" if remove else "install"
    args = parser(f"limen {verb}", verb.capitalize()).parse_args(argv)
    try:
        path, delta = change(args.agent, args.scope, os.getcwd(), remove=remove, dry_run=args.dry_run)
    except (OSError, ValueError) as exc:
        print(f"limen {verb}: {exc}; nothing was written", file=sys.stderr)
        return 1
    if not delta:
        print(f"limen {verb}: {path} already {'has no' if remove else 'has'} Limen's hooks")
        return 0
    print(delta, end="")
    if args.dry_run:
        print(f"limen {verb}: dry run, {path} unchanged")
    else:
        print(f"limen {verb}: updated {path}")
        if not remove:
            print(NOTES[args.agent])
    return 0


def main(argv: list[str]) -> int:
    return run(argv, remove=False)
