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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.policy.errors import Problem


def _any_policy_file(workspace: str) -> bool:
    from limen.policy.paths import policy_paths

    return any(os.path.exists(path) for _, path, _ in policy_paths(workspace))


def by_line(problems: list[Problem]) -> list[Problem]:
    """Each file's problems in the order of its lines (a whole-file problem first); the files keep the order
    they were checked in (organisation, user, project), so the output reads like the files."""
    order = {file: i for i, file in reversed(list(enumerate(p.file for p in problems)))}
    return sorted(problems, key=lambda p: (order[p.file], p.line))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen config", description="Check the policy files (limen config check)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser(
        "check",
        help="Validate the policy files.",
        description="Validate the policy files and print each problem with its file, line and key, by line.",
    )
    check.add_argument("paths", nargs="*", help="Policy files or directories to check on their own.")
    check.add_argument("--workspace", default=os.getcwd(), help="The project directory (default: here).")
    check.add_argument("--json", action="store_true", help="Print the problems as one JSON document.")
    args = parser.parse_args(argv)

    from limen.policy.check import check_file, check_workspace, files_in

    if args.paths:
        problems = [p for f in files_in(args.paths) for p in check_file(f)]
    else:
        problems = check_workspace(os.path.abspath(args.workspace))
    problems = by_line(problems)
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
