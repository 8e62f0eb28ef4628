"""`limen tools`: the MCP tools whose contract changed since they were pinned, and their re-approval.

limen tools list                  tools awaiting re-approval (server/tool)
limen tools approve SERVER TOOL   accept the tool's new name, description and input schema
"""

from __future__ import annotations

import argparse


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="limen tools", description="List and re-approve pinned MCP tools.")
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("list", help="tools whose contract changed and await re-approval")
    approve = sub.add_parser("approve", help="accept a changed tool's new contract")
    approve.add_argument("server", help="the server name (`limen mcp --name`, or the derived one)")
    approve.add_argument("tool", help="the tool's name as the server lists it")
    ns = parser.parse_args(argv)

    from limen.floors import toolpin

    if ns.action == "list":
        waiting = toolpin.pending()
        for key in waiting:
            print(
                f"{key}\tchanged since pinned: approve with `limen tools approve {key.replace('/', ' ', 1)}`"
            )
        if not waiting:
            print("no tool awaits re-approval")
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
