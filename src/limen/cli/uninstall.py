"""`limen uninstall <agent> [--project|--user] [--dry-run]`: remove Limen's hooks, keep everything else."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from limen.cli.install import run

    return run(argv, remove=True)
