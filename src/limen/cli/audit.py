"""`limen audit verify`: check the audit log's hash chain, checkpoints and signed head.
`limen audit verify --postgres DSN` checks the chain `limen serve` keeps in PostgreSQL
(`limen.audit.postgres`); `limen audit export --postgres DSN [--dir DIR]` appends a verified file log to it.

Exit 0 when the log is intact, 1 when it was edited, truncated, reordered or rewritten.
"""

from __future__ import annotations

import argparse
import json


def main(argv: list[str]) -> int:
    from limen.audit.verify import verify

    parser = argparse.ArgumentParser(prog="limen audit", description="Verify the audit log.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("verify", help="Verify the hash chain, checkpoints and signed head.")
    check.add_argument("--dir", help="Audit directory (default LIMEN_HOME/audit).")
    check.add_argument(
        "--postgres", metavar="DSN", help="Verify the chain in this PostgreSQL database instead."
    )
    check.add_argument("--json", action="store_true", help="Print the report as one JSON document.")
    export = sub.add_parser("export", help="Append the (verified) file log to the chain in PostgreSQL.")
    export.add_argument("--dir", help="Audit directory (default LIMEN_HOME/audit).")
    export.add_argument(
        "--postgres", metavar="DSN", required=True, help="The PostgreSQL database to append the log to."
    )
    args = parser.parse_args(argv)
    if args.command == "export":
        from limen.audit.postgres import export_file_log

        imported, source = export_file_log(args.dir, args.postgres)
        for problem in source.problems:
            print(f"  problem: {problem}")
        print(
            f"exported {imported} records" if source.ok else "nothing exported: the file log does not verify"
        )
        return 0 if source.ok else 1
    if args.postgres:
        from limen.audit.postgres import verify_postgres

        report = verify_postgres(args.postgres)
    else:
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
