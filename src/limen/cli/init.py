"""`limen init`: write a commented default `limen.yaml` into the project."""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen init", description="Write a commented default limen.yaml into the project."
    )
    parser.add_argument("--workspace", default=os.getcwd(), help="Project directory (default: here).")
    parser.add_argument("--force", action="store_true", help="Overwrite an existing limen.yaml.")
    parser.add_argument("--json", action="store_true", help="Print the written file's path as JSON.")
    args = parser.parse_args(argv)

    from limen.policy.defaults import TEMPLATE

    path = os.path.join(os.path.abspath(args.workspace), "limen.yaml")
    if os.path.exists(path) and not args.force:
        print(f"limen init: {path} exists (use --force to overwrite)", file=sys.stderr)
        return 1
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(TEMPLATE)
    except OSError as exc:
        print(f"limen init: cannot write {path} ({exc.strerror})", file=sys.stderr)
        return 1
    if args.json:
        import json

        print(json.dumps({"wrote": path}))
        return 0
    print(f"wrote {path}; check it with `limen config check`")
    print(
        "default_action: by_door: limen.evaluate() calls no rule allows are denied (see the file's comment)"
    )
    return 0
