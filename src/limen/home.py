"""Where Limen keeps its user-level policy, state, keys and audit log.

Standard library only and nothing else imported: the hook client and the audit writer it uses need this
one fact on every tool call, and `limen.context` costs tens of milliseconds to import.
"""

from __future__ import annotations

import os


def limen_home() -> str:
    """`LIMEN_HOME`, else `~/.limen`."""
    return os.environ.get("LIMEN_HOME") or os.path.join(os.path.expanduser("~"), ".limen")
