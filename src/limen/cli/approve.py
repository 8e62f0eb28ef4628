"""`limen approve ID`, `limen deny ID` and `limen pending`: answer single-use approval requests.

An AUTH call opens a request (`limen pending` lists it); `limen approve ID` lets the identical call through
once, within the request's expiry; `limen deny ID` refuses it (or takes back a grant not yet used). A
request at or above the strong threshold needs the TOTP code (`--code`) or the password
(`--password-stdin`) set up with `limen policy factor`. Every answer is recorded in the audit log.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.approvals import ApprovalRequest


def _when(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


def _line(request: ApprovalRequest) -> str:
    left = max(int(request.expires - time.time()), 0)
    strong = ", needs the factor" if request.strong else ""
    expiry = f"expires in {left // 60}m{left % 60:02d}s"
    return (
        f"{request.id}  {request.door:<5} risk {request.risk}{strong}, {expiry}"
        f"  [{', '.join(request.reasons)}]\n    {request.action}"
    )


def main(argv: list[str]) -> int:
    """`limen approve ID [--code CODE | --password-stdin]`."""
    parser = argparse.ArgumentParser(
        prog="limen approve",
        description="Approve one pending request: the identical call may then run once, before it expires.",
    )
    parser.add_argument("id", help="The request's id, as limen pending lists it.")
    parser.add_argument("--code", help="The current TOTP code (requests at or above the strong threshold).")
    parser.add_argument(
        "--password-stdin", action="store_true", help="Read the approval password from standard input."
    )
    parser.add_argument("--json", action="store_true", help="Print the answered request as JSON.")
    args = parser.parse_args(argv)
    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else None
    return _answer(args.id, approve=True, code=args.code, password=password, as_json=args.json)


def deny_main(argv: list[str]) -> int:
    """`limen deny ID`."""
    parser = argparse.ArgumentParser(
        prog="limen deny", description="Deny one pending request, or take back a grant not used yet."
    )
    parser.add_argument("id", help="The request's id, as limen pending lists it.")
    parser.add_argument("--json", action="store_true", help="Print the answered request as JSON.")
    args = parser.parse_args(argv)
    return _answer(args.id, approve=False, as_json=args.json)


def _answer(
    request_id: str,
    *,
    approve: bool,
    code: str | None = None,
    password: str | None = None,
    as_json: bool = False,
) -> int:
    from limen.approvals import ApprovalError, open_approvals
    from limen.approvals.service import who

    approvals = open_approvals()
    verb = "approve" if approve else "deny"
    try:
        if approve:
            request = approvals.grant(request_id, by=f"cli:{who()}", code=code, password=password)
            said = (
                f"approved once: {request.id} ({request.tool}); the identical call may run once "
                f"until {_when(request.expires)}"
            )
        else:
            request = approvals.deny(request_id, by=f"cli:{who()}")
            said = f"denied: {request.id} ({request.tool})"
        if as_json:
            answer = {"id": request.id, "tool": request.tool, "answer": verb, "expires": request.expires}
            print(json.dumps(answer))
        else:
            print(said)
    except ApprovalError as exc:
        print(f"limen {verb}: {exc}", file=sys.stderr)
        return 1
    finally:
        approvals.close()
    return 0


def pending_main(argv: list[str]) -> int:
    """`limen pending [--json]`."""
    parser = argparse.ArgumentParser(
        prog="limen pending", description="List the approval requests waiting for an answer, oldest first."
    )
    parser.add_argument("--json", action="store_true", help="Print a JSON list of the requests.")
    args = parser.parse_args(argv)
    from limen.approvals import open_approvals

    approvals = open_approvals()
    try:
        requests = approvals.pending()
    finally:
        approvals.close()
    if args.json:
        json.dump([r.to_dict() for r in requests], sys.stdout, indent=2)
        print()
        return 0
    if not requests:
        print("no approval requests are waiting")
    for request in requests:
        print(_line(request))
    if requests:
        print("answer with: limen approve ID (add --code CODE where the factor is needed) | limen deny ID")
    return 0
