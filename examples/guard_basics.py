"""limen.Guard on its own: controlled executors as tools, one passed, one blocked and one approved call.

python examples/guard_basics.py
"""

from __future__ import annotations

import _demo

from limen.audit.verify import verify
from limen.sdk import Denied, ExecutionFailed, FilesystemExecutor, Guard, ShellExecutor

project = _demo.workspace()
audit = project.parent / "audit"
guard = Guard(project, approver=_demo.approver, audit=audit)
files = FilesystemExecutor(project)
guard.register(files.read_text, name="read_file")
guard.register(files.write_text, name="write_file")
guard.register(ShellExecutor(project, timeout=10).run, name="run")

_demo.report("passed", guard.call("read_file", {"path": "docs/plan.md"}))
try:
    guard.call("run", {"argv": ["rm", "-rf", str(project)]})
except Denied as denied:
    _demo.report("blocked", denied.message)
_demo.report("approved", guard.call("read_file", {"path": ".env"}))
writer = guard.new_session(agent_id="writer")  # a failed execution halts its session, so give it its own
try:
    writer.call("write_file", {"path": "../outside.txt", "content": "x"})
except ExecutionFailed as failed:  # the decision let it through; the executor stays inside the project
    _demo.report("confined", failed.message)
chain = verify(str(audit))
print(f"audit: {chain.records} records, chain {'verifies' if chain.ok else 'BROKEN'}")
