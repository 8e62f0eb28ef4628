"""`python -m limen.audit.handoff`: append one record handed over on stdin, once.

A hook process that must answer its agent before the agent's own timeout, on a machine too loaded to finish
writing the answer's audit record in time, leaves the record to this detached process (see
`limen.doors.hooks.wire.handoff`). `append_once` keeps a single copy when the hook's own attempt lands too.
"""

from __future__ import annotations

import json
import sys

from limen.audit.writer import AuditWriter

LOCK_TIMEOUT = 60.0  # nobody waits on this process; a writer stopped while holding the lock may resume


def main() -> int:
    message = json.loads(sys.stdin.buffer.read())
    record, since = message["record"], message["since"]
    if not isinstance(record, dict) or not isinstance(since, int):
        return 2
    writer = AuditWriter(fsync_every=1)
    try:
        writer.append_once(record, since=since, timeout=LOCK_TIMEOUT)
    finally:
        writer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
