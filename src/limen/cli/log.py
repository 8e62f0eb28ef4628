"""`limen log`: recent decisions from the audit log (redacted: structure and fingerprints only).

limen log [-n 20] [--session S] [--verdict PASS|AUTH|BLOCK] [--tool T] [--reason CODE] [--jsonl]
limen log --why DECISION_ID
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any


def _line(record: dict[str, Any]) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(record.get("ts", 0))))
    reasons = ",".join(record.get("reasons", [])) or "-"
    where = " ".join([*record.get("hosts", []), *record.get("cmds", [])][:4])
    return (
        f"{when} {record.get('id', ''):16} {record.get('verdict', ''):5} {record.get('risk', 0):>3} "
        f"{record.get('kind', '')[:3]} {record.get('tool', '')[:28]:28} {record.get('session', '')[:16]:16} "
        f"{reasons} {where}"
    ).rstrip()


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
    from limen.audit.index import Index

    parser = argparse.ArgumentParser(prog="limen log", description="Recent decisions from the audit log.")
    parser.add_argument("-n", "--limit", type=int, default=20)
    parser.add_argument("--session")
    parser.add_argument("--verdict", choices=["PASS", "AUTH", "BLOCK"])
    parser.add_argument("--tool")
    parser.add_argument("--reason")
    parser.add_argument("--jsonl", action="store_true", help="one JSON record per line")
    parser.add_argument("--why", metavar="ID", help="the full redacted record of one decision")
    parser.add_argument("--dir", help="audit directory (default LIMEN_HOME/audit)")
    args = parser.parse_args(argv)
    index = Index(args.dir)
    try:
        index.sync()
        if args.why:
            record = index.by_id(args.why)
            if record is None:
                print(f"limen log: no decision {args.why!r} in the log")
                return 1
            print(json.dumps(record, sort_keys=True) if args.jsonl else why(record))
            return 0
        records = index.query(
            limit=args.limit, session=args.session, verdict=args.verdict, tool=args.tool, reason=args.reason
        )
        for record in reversed(records):
            print(json.dumps(record, sort_keys=True) if args.jsonl else _line(record))
    finally:
        index.close()
    return 0
