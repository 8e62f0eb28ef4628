"""`limen audit verify`: check the audit log's hash chain, checkpoints and signed head.
`limen audit verify --postgres DSN` checks the chain `limen serve` keeps in PostgreSQL
(`limen.audit.postgres`); without `--dir` or `--postgres`, the database `limen serve`'s configuration
(`LIMEN_HOME/serve.yaml`, `audit:`) names is the log when it names one. `limen audit export --postgres DSN
[--dir DIR]` appends a verified file log to it.

Exit 0 when the log is intact, 1 when it was edited, truncated, reordered or rewritten.
"""

from __future__ import annotations

import argparse
import json
import sys


class AuditSourceError(Exception):
    """The configuration that names the audit database cannot be read (file, line and key)."""


def configured_postgres(directory: str | None, postgres: str | None) -> str | None:
    """The PostgreSQL audit to read: `--postgres`, else (without `--dir`) the one `limen serve`'s
    configuration names; None for the file log. Raises AuditSourceError on a configuration it cannot read."""
    if postgres:
        return postgres
    if directory:
        return None
    from limen.audit.postgres import is_dsn
    from limen.serve.config import ServeConfigError, load

    try:
        sink = load().audit
    except ServeConfigError as exc:
        raise AuditSourceError(str(exc)) from None
    return sink if is_dsn(sink) else None


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
    try:
        dsn = configured_postgres(args.dir, args.postgres)
    except AuditSourceError as exc:
        print(f"limen audit: {exc}", file=sys.stderr)
        return 2
    if dsn:
        from limen.audit.postgres import verify_postgres

        try:
            report = verify_postgres(dsn)
        except Exception as exc:  # unreachable, refused: say so, never a traceback with the DSN in it
            print(f"limen audit: the audit database cannot be read ({type(exc).__name__})", file=sys.stderr)
            return 2
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
