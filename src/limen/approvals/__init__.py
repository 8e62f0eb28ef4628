"""Single-use approvals of AUTH calls: requests, answers, channels (issue 13).

Public API (what the doors, the CLI and the console build on):

- `ApprovalRequest`: one request as stored (`to_dict()` for JSON); statuses `PENDING`, `GRANTED`, `DENIED`,
  `EXPIRED`, `USED`.
- `ApprovalStore`: the backend interface (`create`, `get`, `open_for`, `pending`, `recent`, `grant`, `deny`,
  `claim`, `expire`, `close`); `SqliteApprovalStore` implements it on `LIMEN_HOME/approvals.sqlite`.
- `Approvals(store, audit=...)`: the rules over a store: `settle` (the runtime), `pending`, `recent`, `get`,
  `grant(id, by=, code=, password=)` (raises `ApprovalError` when a strong request lacks the factor),
  `deny(id, by=)`, `use` (a door's own prompt said yes), `offer` and `wait` (doors that hold a call).
  Every step is an audit event in the hash chain (`approval_request|grant|deny|expire|use`, field
  `approval`). A request's `decision_id` is the AUTH decision's audit record id (`limen log --why ID`
  shows its evidence); `strong` says the factor is needed; `action` is the masked call to show.
- `open_approvals()`: an `Approvals` on the default store that audits to the default log (what the CLI and
  the console use).
- `ApprovalError`: an answer that cannot be applied; its message is safe to show.
- `load_config(workspace)`: the merged `approvals:` section of the policy files.

The modules are imported lazily: importing `limen.approvals` costs nothing on the decision path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from limen.approvals.records import (
    DENIED,
    EXPIRED,
    GRANTED,
    PENDING,
    USED,
    ApprovalError,
    ApprovalRequest,
    ApprovalStore,
)

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig
    from limen.approvals.service import Approvals
    from limen.approvals.sqlite import SqliteApprovalStore

__all__ = [
    "DENIED",
    "EXPIRED",
    "GRANTED",
    "PENDING",
    "USED",
    "ApprovalConfig",
    "ApprovalError",
    "ApprovalRequest",
    "ApprovalStore",
    "Approvals",
    "SqliteApprovalStore",
    "load_config",
    "open_approvals",
]


def open_approvals(path: str | None = None, audit_dir: str | None = None) -> Approvals:
    """Approvals on the store at `path` (default `LIMEN_HOME/approvals.sqlite`), audited to the log in
    `audit_dir` (default: the one every door writes)."""
    from limen.approvals.service import Approvals
    from limen.approvals.sqlite import SqliteApprovalStore

    writer: list[Any] = []

    def audit(event: str, **fields: Any) -> bool:
        import time

        try:
            if not writer:
                from limen.audit.writer import AuditWriter

                writer.append(AuditWriter(audit_dir, fsync_every=1))
            writer[0].append({"kind": "event", "event": event, "ts": round(time.time(), 3), **fields})
            return True
        except Exception:
            return False

    return Approvals(SqliteApprovalStore(path), audit=audit)


def load_config(workspace: str) -> ApprovalConfig:
    from limen.approvals.config import load

    return load(workspace)


def __getattr__(name: str) -> Any:
    if name == "Approvals":
        from limen.approvals.service import Approvals

        return Approvals
    if name == "SqliteApprovalStore":
        from limen.approvals.sqlite import SqliteApprovalStore

        return SqliteApprovalStore
    if name == "ApprovalConfig":
        from limen.approvals.config import ApprovalConfig

        return ApprovalConfig
    raise AttributeError(name)
