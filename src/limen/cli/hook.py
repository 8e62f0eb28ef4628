"""`limen hook <agent>`: the same process as `limen-hook <agent>`, reachable through the main command."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from limen.doors.hooks.client import main as hook_main

    return hook_main(argv)
