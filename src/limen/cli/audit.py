"""`limen audit verify`: check the audit log's hash chain, checkpoints and signed head.

Exit 0 when the log is intact, 1 when it was edited, truncated, reordered or rewritten.
"""

from __future__ import annotations

import argparse
import json


def main(argv: list[str]) -> int:
    from limen.audit.verify import verify

    parser = argparse.ArgumentParser(prog="limen audit", description="Verify the audit log.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("verify", help="verify the hash chain, checkpoints and signed head")
    check.add_argument("--dir", help="audit directory (default LIMEN_HOME/audit)")
    check.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = verify(args.dir)
    if args.json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "records": report.records,
                    "checkpoints": report.checkpoints,
                    "problems": report.problems,
                    "notes": report.notes,
                }
            )
        )
    else:
        state = "OK" if report.ok else "TAMPERED"
        print(f"audit log {state}: {report.records} records, {report.checkpoints} signed checkpoints")
        for problem in report.problems:
            print(f"  problem: {problem}")
        for note in report.notes:
            print(f"  note: {note}")
    return 0 if report.ok else 1
