"""`limen policy`: the drift gate. Loosening the policy is proposed, then approved with a possession
factor (a TOTP code or a local password), and recorded in an append-only ledger.

  limen policy status                  what applies, and what waits for approval
  limen policy propose                 record the files' loosening as a pending change
  limen policy pending                 list pending changes
  limen policy approve ID --code 123456   (or --password-stdin)
  limen policy history [--json]        the ledger: who, when, what changed
  limen policy factor totp|password    set up the possession factor
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="limen policy",
        description=(
            "The drift gate: a loosening of the policy is proposed, then approved with a possession factor."
        ),
    )
    parser.add_argument("--workspace", default=os.getcwd(), help="Project directory (default: here).")
    sub = parser.add_subparsers(dest="command", required=True)
    status = sub.add_parser("status", help="Show what applies and what waits for approval.")
    status.add_argument("--json", action="store_true", help="Print the status as one JSON document.")
    sub.add_parser("propose", help="Record the files' loosening as a pending change.")
    pending = sub.add_parser("pending", help="List the pending changes.")
    pending.add_argument("--json", action="store_true", help="Print the changes as one JSON document.")
    approve = sub.add_parser("approve", help="Approve a pending change.")
    approve.add_argument("id", help="The pending change's id, as limen policy pending lists it.")
    _factor_args(approve)
    history = sub.add_parser("history", help="Show the ledger of approved and tightened policies.")
    history.add_argument("--json", action="store_true", help="Print the ledger as one JSON document.")
    factor = sub.add_parser("factor", help="Set up the possession factor (a TOTP secret or a password).")
    factor.add_argument("kind", choices=["totp", "password"], help="A TOTP secret or a local password.")
    factor.add_argument("--new-password-stdin", action="store_true", help="Read the new password from stdin.")
    _factor_args(factor)
    return parser


def _factor_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--code", help="The current TOTP code.")
    parser.add_argument(
        "--password-stdin", action="store_true", help="Read the approval password from stdin."
    )


def _password(args: argparse.Namespace) -> str | None:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    return None


def _print_change(record: dict[str, Any]) -> None:
    print(f"{record['id']}  proposed {record['at']} by {record['who']}")
    for change in record["diff"]:
        print(f"  - {change}")


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from limen.policy import PolicyError, drift

    workspace = os.path.abspath(args.workspace)
    try:
        return _run(args, workspace)
    except PolicyError as exc:
        print(f"limen policy: the policy files have errors:\n{exc}", file=sys.stderr)
        return 1
    except drift.DriftError as exc:
        print(f"limen policy: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, workspace: str) -> int:
    from limen.policy import drift, effective

    if args.command == "history":
        entries = drift.history(workspace)
        if args.json:
            json.dump([{k: v for k, v in e.items() if k != "policy"} for e in entries], sys.stdout, indent=2)
            print()
        if not entries and not args.json:
            print("the ledger is empty: no policy has been approved or tightened yet")
        for e in [] if args.json else entries:
            factor = f" with {e['factor']}" if e["factor"] else ""
            print(f"#{e['seq']} {e['at']} {e['kind']} by {e['who']}{factor}  {e['fingerprint'][:12]}")
            for change in e["diff"]:
                print(f"    {change}")
        return 0
    if args.command == "factor":
        return _factor(args)
    if args.command == "pending":
        records = drift.pending(workspace)
        if args.json:
            json.dump(records, sys.stdout, indent=2)
            print()
        if not records and not args.json:
            print("no policy change waits for approval")
        for record in [] if args.json else records:
            _print_change(record)
        return 0
    current, fp, default = effective.from_files(workspace)
    if args.command == "status":
        base, note = drift.approved(workspace, default)
        diff = drift.loosenings(base, current)
        if args.json:
            status = {
                "files": fp,
                "approved": effective.fingerprint(base),
                "note": note or None,
                "waiting_for_approval": diff,
            }
            json.dump(status, sys.stdout, indent=2)
            print()
            return 0
        print(f"files {fp[:12]}  approved {effective.fingerprint(base)[:12]}")
        for line in ([note] if note else []) + [f"waiting for approval: {d}" for d in diff]:
            print(f"  {line}")
        return 0
    if args.command == "propose":
        _print_change(drift.propose(workspace, current, fp, default))
        print("approve with: limen policy approve ID --code CODE (or --password-stdin)")
        return 0
    entry = drift.approve(
        workspace,
        args.id,
        current=current,
        current_fp=fp,
        default=default,
        code=args.code,
        password=_password(args),
    )
    print(f"approved #{entry['seq']} by {entry['who']} with {entry['factor']}:")
    for change in entry["diff"]:
        print(f"  - {change}")
    return 0


def _factor(args: argparse.Namespace) -> int:
    from limen.policy import drift

    if drift.has_factor():  # replacing the factor needs the current one
        drift.verify_factor(code=args.code, password=_password(args))
    if args.kind == "totp":
        print("scan or type this into your authenticator app:")
        print(drift.setup_totp())
        return 0
    new = sys.stdin.readline().rstrip("\n") if args.new_password_stdin else getpass.getpass("new password: ")
    drift.setup_password(new)
    print("approval password set")
    return 0
