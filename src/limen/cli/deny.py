"""`limen deny ID`: refuse one approval request (see `limen.cli.approve`)."""

from __future__ import annotations

from limen.cli.approve import deny_main as main

__all__ = ["main"]
