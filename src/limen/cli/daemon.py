"""`limen daemon start|stop|status`: the per-user decision daemon behind `limen-hook`."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from limen.daemon import main as daemon_main

    return daemon_main(argv)
