"""`limen pending [--json]`: the approval requests waiting for an answer (see `limen.cli.approve`)."""

from __future__ import annotations

from limen.cli.approve import pending_main as main

__all__ = ["main"]
