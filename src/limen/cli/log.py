"""`limen log`: recent decisions from the audit log (redacted: structure and fingerprints only).

limen log [-n 20] [--session S] [--verdict PASS|AUTH|BLOCK] [--tool T] [--reason CODE] [--json]
limen log --why DECISION_ID [--json]

The log read is the file log (`--dir`, default LIMEN_HOME/audit), or the chain `limen serve` keeps in
PostgreSQL: `--postgres DSN`, or the database `LIMEN_HOME/serve.yaml` names (`audit:`) when it names one.

`--json` prints one JSON document (a list of records, or the one record of `--why`). `--jsonl`, the older
flag, still prints one record per line for streaming into other tools; it is deprecated in favour of
`--json` and kept working.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from limen.audit.index import Index
    from limen.audit.postgres import PostgresIndex

HEADERS = ("TIME", "DECISION", "VERDICT", "RISK", "KIND", "TOOL", "SESSION", "REASONS", "TARGETS")


def row(record: dict[str, Any]) -> list[str]:
    """One decision as table cells, in the order of HEADERS (targets: hosts, then commands)."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(record.get("ts", 0))))
    where = " ".join([*record.get("hosts", []), *record.get("cmds", [])][:4])
    return [
        when,
        str(record.get("id", "")),
        str(record.get("verdict", "")),
        str(record.get("risk", 0)),
        str(record.get("kind", "")),
        str(record.get("tool", ""))[:40],
        str(record.get("session", ""))[:24],
        ", ".join(record.get("reasons", [])) or "-",
        where or "-",
    ]


def why(record: dict[str, Any]) -> str:
    lines = [
        f"{record.get('verdict')}  risk {record.get('risk')}  {', '.join(record.get('reasons', [])) or '-'}",
        f"  {record.get('expl', '')}",
        f"  decision {record.get('id')}  seq {record.get('seq')}  {record.get('kind')}"
        f"  door {record.get('door')}  session {record.get('session')}",
        f"  tool {record.get('tool')}  capability {record.get('cap')}  arguments {record.get('keys', [])}"
        f"  (fingerprint {record.get('args')})",
    ]
    for key, label in (("paths", "path classes"), ("hosts", "hosts"), ("cmds", "commands")):
        if record.get(key):
            lines.append(f"  {label}: {', '.join(record[key])}")
    lines.append("  evidence:")
    for stage in record.get("stages", []):
        lines.append(
            f"    {stage['stage']:<12} {stage['verdict']:<5} risk {stage['risk']:>3} {stage['us']:>9} us  "
            f"{', '.join(stage['reasons'])}"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen log",
        description="Show recent decisions from the audit log, oldest first, without any secret value.",
    )
    parser.add_argument(
        "-n", "--limit", type=int, default=20, help="How many decisions to show (default 20)."
    )
    parser.add_argument("--session", help="Show only this session's decisions.")
    parser.add_argument("--verdict", choices=["PASS", "AUTH", "BLOCK"], help="Show only this verdict.")
    parser.add_argument("--tool", help="Show only calls of this tool.")
    parser.add_argument("--reason", help="Show only decisions with this reason code.")
    parser.add_argument("--json", action="store_true", help="Print the records as one JSON document.")
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="Print one JSON record per line (deprecated: use --json; still supported).",
    )
    parser.add_argument("--why", metavar="ID", help="Show the full redacted record of one decision.")
    parser.add_argument("--dir", help="The audit directory (default: LIMEN_HOME/audit).")
    parser.add_argument(
        "--postgres",
        metavar="DSN",
        help="Read the chain limen serve keeps in this PostgreSQL database (default: serve.yaml's audit).",
    )
    args = parser.parse_args(argv)
    from limen.cli.audit import AuditSourceError, configured_postgres

    try:
        dsn = configured_postgres(args.dir, args.postgres)
    except AuditSourceError as exc:
        print(f"limen log: {exc}", file=sys.stderr)
        return 2
    try:
        return _show(args, dsn)
    except Exception as exc:
        if not dsn:
            raise
        # unreachable, refused, or a row that is not a record: never a traceback (the DSN may hold a password)
        print(
            f"limen log: the audit database cannot be read ({type(exc).__name__}); "
            "`limen audit verify` checks its chain",
            file=sys.stderr,
        )
        return 2


def _show(args: argparse.Namespace, dsn: str | None) -> int:
    from limen.cli.output import print_json, table

    if dsn:
        from limen.audit.postgres import PostgresIndex

        index: Index | PostgresIndex = PostgresIndex(dsn)
    else:
        from limen.audit.index import Index

        index = Index(args.dir)
    try:
        index.sync()
        if args.why:
            record = index.by_id(args.why)
            if record is None:
                print(f"limen log: no decision {args.why!r} in the log", file=sys.stderr)
                return 1
            if args.json:
                print_json(record)
            else:
                print(json.dumps(record, sort_keys=True) if args.jsonl else why(record))
            return 0
        records = index.query(
            limit=args.limit, session=args.session, verdict=args.verdict, tool=args.tool, reason=args.reason
        )
    finally:
        index.close()
    records.reverse()
    if args.json:
        print_json(records)
    elif args.jsonl:
        for record in records:
            print(json.dumps(record, sort_keys=True))
    elif not records:
        print("no decisions in the audit log match")
    else:
        table(HEADERS, [row(r) for r in records], right={3})
    return 0
