"""`limen config check`: validate the policy files and print each problem with file, line and key.

With no path it checks what Limen would load for the workspace (organisation, user and project files,
their merge and the drift gate). With paths (files or directories of `*.yaml`) it checks each file on
its own. Exit status 1 when any error is found.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def _any_policy_file(workspace: str) -> bool:
    from limen.policy.paths import policy_paths

    return any(os.path.exists(path) for _, path, _ in policy_paths(workspace))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="limen config", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate the policy files")
    check.add_argument("paths", nargs="*", help="policy files or directories to check on their own")
    check.add_argument("--workspace", default=os.getcwd(), help="project directory (default: here)")
    check.add_argument("--json", action="store_true", help="print the problems as JSON")
    args = parser.parse_args(argv)

    from limen.policy.check import check_file, check_workspace, files_in

    if args.paths:
        problems = [p for f in files_in(args.paths) for p in check_file(f)]
    else:
        problems = check_workspace(os.path.abspath(args.workspace))
    errors = sum(p.severity == "error" for p in problems)
    if args.json:
        json.dump({"ok": errors == 0, "problems": [p.to_dict() for p in problems]}, sys.stdout, indent=2)
        print()
    else:
        for problem in problems:
            print(problem)
        warnings = len(problems) - errors
        if problems:
            print(f"{errors} error(s), {warnings} warning(s)")
        elif not args.paths and not _any_policy_file(os.path.abspath(args.workspace)):
            print("no policy files: the built-in defaults apply")
        else:
            print("policy OK")
    return 1 if errors else 0
