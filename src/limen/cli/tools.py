"""`limen tools`: the MCP tools whose contract changed since they were pinned, and their re-approval.

limen tools list                  tools awaiting re-approval (server/tool)
limen tools approve SERVER TOOL   accept the tool's new name, description and input schema
"""

from __future__ import annotations

import argparse


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen tools",
        description=(
            "List and re-approve the pinned MCP tools whose name, description or input schema changed "
            "since they were first seen."
        ),
    )
    sub = parser.add_subparsers(dest="action", required=True)
    listed = sub.add_parser("list", help="List the tools whose contract changed and await re-approval.")
    listed.add_argument("--json", action="store_true", help="Print the tools as one JSON document.")
    approve = sub.add_parser("approve", help="Accept a changed tool's new contract.")
    approve.add_argument("server", help="The server's name (limen mcp --name, or the derived one).")
    approve.add_argument("tool", help="The tool's name as the server lists it.")
    ns = parser.parse_args(argv)

    from limen.floors import toolpin

    if ns.action == "list":
        waiting = toolpin.pending()
        if ns.json:
            from limen.cli.output import print_json

            print_json([{"server": k.split("/", 1)[0], "tool": k.split("/", 1)[-1]} for k in waiting])
            return 0
        if not waiting:
            print("no tool awaits re-approval")
            return 0
        from limen.cli.output import table

        rows = [
            (key, "changed since pinned", f"limen tools approve {key.replace('/', ' ', 1)}")
            for key in waiting
        ]
        table(("TOOL", "STATE", "APPROVE WITH"), rows)
        return 0
    if toolpin.approve(ns.server, ns.tool):
        _record(ns.server, ns.tool)
        print(f"approved the new contract of {ns.server}/{ns.tool}")
        return 0
    print(f"limen tools: nothing awaits approval for {ns.server}/{ns.tool}")
    return 1


def _record(server: str, tool: str) -> None:
    """An approval loosens a floor, so it goes into the audit log like a decision."""
    import os

    from limen.runtime import Runtime

    runtime = Runtime(workspace=os.getcwd())
    try:
        if not runtime.audit_event("tool_pin_approved", server=server, tool=tool):
            print("limen tools: the approval could not be recorded in the audit log")
    finally:
        runtime.close()
