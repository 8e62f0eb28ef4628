"""`limen tune`: which reason codes cause the most friction, and the waiver that would remove each.

A waiver is a loosening: it takes effect only through the drift gate (`limen policy`), scoped and expiring.
Hard floors and error signals have no waiver.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from datetime import date, timedelta
from typing import Any


def suggestions(records: list[dict[str, Any]], expires: date) -> list[dict[str, Any]]:
    """Reason codes by AUTH+BLOCK count, each with the narrowest waiver covering what it stopped."""
    from limen.policy.unmutable import UNWAIVABLE

    by_code: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("verdict") in ("AUTH", "BLOCK"):
            for code in record.get("reasons", []):
                by_code.setdefault(code, []).append(record)
    out = []
    for code, hits in sorted(by_code.items(), key=lambda kv: -len(kv[1])):
        entry: dict[str, Any] = {
            "code": code,
            "auth": sum(r["verdict"] == "AUTH" for r in hits),
            "block": sum(r["verdict"] == "BLOCK" for r in hits),
            "tools": [t for t, _ in Counter(r.get("tool", "") for r in hits).most_common(5)],
        }
        if code in UNWAIVABLE:
            entry["waiver"] = None
            entry["note"] = "a hard floor, error signal, protection or policy code: it cannot be waived"
        else:
            waiver: dict[str, Any] = {"code": code}
            for key, field in (("hosts", "hosts"), ("cmds", "commands")):
                seen = Counter(v for r in hits for v in r.get(key, []))
                if seen:
                    waiver[field] = [v for v, _ in seen.most_common(5)]
            waiver["expires"] = expires.isoformat()
            waiver["reason"] = f"friction: {len(hits)} decisions"
            entry["waiver"] = waiver
        out.append(entry)
    return out


def main(argv: list[str]) -> int:
    from limen.audit.index import Index

    parser = argparse.ArgumentParser(
        prog="limen tune",
        description="Show which reason codes cause the most friction, and the waiver that would remove each.",
    )
    parser.add_argument("--json", action="store_true", help="Print the suggestions as one JSON document.")
    parser.add_argument(
        "--days", type=int, default=30, help="How many days a suggested waiver lasts (default 30)."
    )
    parser.add_argument("-n", "--limit", type=int, default=5000, help="How many recent decisions to read.")
    parser.add_argument("--dir", help="Audit directory (default LIMEN_HOME/audit).")
    args = parser.parse_args(argv)
    index = Index(args.dir)
    try:
        index.sync()
        records = index.query(limit=args.limit)
    finally:
        index.close()
    result = suggestions(records, date.today() + timedelta(days=args.days))
    if args.json:
        print(json.dumps({"decisions": len(records), "codes": result}, indent=1))
        return 0
    print(f"{len(records)} recent decisions; friction by reason code:")
    for entry in result:
        print(
            f"  {entry['code']:<32} AUTH {entry['auth']:>5}  BLOCK {entry['block']:>5}  "
            f"{', '.join(entry['tools'][:3])}"
        )
        if entry["waiver"] is None:
            print(f"      {entry['note']}")
        else:
            print(f"      waiver (through the drift gate): {json.dumps(entry['waiver'])}")
    return 0
