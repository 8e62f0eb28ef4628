"""`limen uninstall <agent> [--mcp] [--project|--user] [--dry-run]`: take Limen out, keep everything else.

Without --mcp, Limen's hooks are removed; with --mcp, every MCP server entry run through `limen mcp` gets
its original entry back.
"""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from limen.cli.install import run

    return run(argv, remove=True)
