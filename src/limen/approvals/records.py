"""The approval request and the store interface every backend implements (SQLite today, Redis later).

A request is one AUTH call waiting for a human: bound to the call's keyed fingerprint (tool, normalised
arguments, working directory, session, workspace), carrying only the masked action text and the reason
codes, expiring, and usable once. Its life: `pending` -> `granted` -> `used`, or `pending` -> `denied`,
or `pending`/`granted` -> `expired`. Every transition is a single atomic statement in the store, so two
processes answering or claiming the same request cannot both succeed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

PENDING = "pending"
GRANTED = "granted"
DENIED = "denied"
EXPIRED = "expired"
USED = "used"
STATUSES = (PENDING, GRANTED, DENIED, EXPIRED, USED)

DEFAULT_EXPIRY_SECONDS = 600


class ApprovalError(Exception):
    """An answer that cannot be applied (unknown id, already answered, expired, a factor that does not
    verify). The message is Limen's own words, never an argument value."""


@dataclass(slots=True, frozen=True)
class ApprovalRequest:
    """One approval request as stored. `action` is the masked text a human reads; no raw value is kept."""

    id: str
    fingerprint: str  # keyed HMAC of the call's binding (`limen.approvals.binding.fingerprint`)
    tool: str
    action: str  # masked: secrets replaced by their kind, cut short
    reasons: tuple[str, ...]
    risk: int
    strong: bool  # risk at or above the strong threshold: granting needs the TOTP or password factor
    session: str
    workspace: str
    door: str
    decision_id: str  # the AUTH decision that created it
    created: float
    expires: float
    status: str = PENDING
    answered_at: float = 0.0
    answered_by: str = ""
    factor: str = ""  # "totp" or "password" when a strong approval was granted with it
    used_at: float = 0.0
    used_by: str = ""  # the decision id of the call that used the grant

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (what `limen pending --json` prints and the console shows)."""
        return {
            "id": self.id,
            "status": self.status,
            "tool": self.tool,
            "action": self.action,
            "reasons": list(self.reasons),
            "risk": self.risk,
            "strong": self.strong,
            "session": self.session,
            "workspace": self.workspace,
            "door": self.door,
            "decision_id": self.decision_id,
            "created": self.created,
            "expires": self.expires,
            "answered_at": self.answered_at or None,
            "answered_by": self.answered_by or None,
            "factor": self.factor or None,
            "used_at": self.used_at or None,
            "used_by": self.used_by or None,
        }


class ApprovalStore(Protocol):
    """What Limen needs of an approval backend. Every method is safe to call from several threads and
    processes at once; `grant`, `deny`, `claim` and `expire` are atomic compare-and-set operations."""

    def create(self, request: ApprovalRequest) -> None:
        """Store a new pending request (its id is fresh)."""
        ...

    def get(self, request_id: str) -> ApprovalRequest | None: ...

    def open_for(self, fingerprint: str, now: float) -> list[ApprovalRequest]:
        """The pending or granted, unexpired requests bound to `fingerprint`, oldest first."""
        ...

    def pending(self, now: float) -> list[ApprovalRequest]:
        """Unexpired requests waiting for an answer, oldest first."""
        ...

    def recent(self, limit: int = 100) -> list[ApprovalRequest]:
        """The latest requests in any status, newest first."""
        ...

    def grant(self, request_id: str, *, by: str, factor: str, now: float) -> ApprovalRequest:
        """pending -> granted; raises ApprovalError when the request is not pending or has expired."""
        ...

    def deny(self, request_id: str, *, by: str, now: float, revoke: bool = True) -> ApprovalRequest:
        """pending (or, with `revoke`, granted and not yet used) -> denied; raises ApprovalError otherwise
        or when it has expired."""
        ...

    def claim(self, request_id: str, *, decision_id: str, now: float) -> ApprovalRequest | None:
        """granted -> used, unless it expired; None when it is not (or no longer) a usable grant. Of any
        number of concurrent claims of one grant, exactly one succeeds."""
        ...

    def expire(self, now: float) -> list[ApprovalRequest]:
        """pending/granted past their expiry -> expired; returns the requests this call expired."""
        ...

    def close(self) -> None: ...
