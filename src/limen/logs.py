"""The operator log of Limen's long-running processes (the decision daemon, the MCP proxy): `logging`
records with a timestamp, a level and the component, on standard error.

Standard error is where each of them is read: the daemon's is `LIMEN_HOME/daemon.log` (the hook client
starts it with stderr there), the MCP proxy's is the MCP client's server log. Nothing here writes what an
agent reads: answers, denials and the protocol stream are unchanged. Short-lived commands and the hook path
do not import this module.
"""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%dT%H:%M:%S%z"


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stderr` is when a record is emitted (a test or a server may replace it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        del value


def logger(component: str) -> logging.Logger:
    """The logger `limen.COMPONENT`, set up once: INFO and above to stderr, not passed to the root logger
    (an embedding application's logging configuration neither silences nor duplicates it)."""
    log = logging.getLogger(f"limen.{component}")
    if not log.handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    return log
