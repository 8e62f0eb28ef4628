"""Single-use approvals: what the runtime, the CLI, the channels and the console call.

`Approvals` wraps a store with the rules a request lives by, and audits every step in the hash chain:
- `settle(decision, ...)` (the runtime, for an AUTH decision): a granted, unexpired, unused approval bound
  to this exact call is claimed and the call passes once; otherwise a pending request is opened (or the one
  already open for this call reused) and its id set on `decision.approval_id`. Floors never get one.
- `grant` / `deny` (the CLI, the terminal, the signed links, the console): a human's answer; above the
  strong threshold granting needs the TOTP or password factor of the drift gate.
- `offer` / `wait` (the doors that hold a call): put the request to the configured channels, then wait for
  the answer in the store until the door's deadline.
Audit events: `approval_request`, `approval_grant`, `approval_deny`, `approval_expire`, `approval_use`.
"""

from __future__ import annotations

import getpass
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from limen.approvals.binding import UNASKED_DOORS, masked_action, never_approvable
from limen.approvals.binding import fingerprint as bind
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
from limen.model import Decision, StageResult, Verdict

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig

Audit = Callable[..., bool]
POLL_SECONDS = 0.1


def who() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return f"uid:{os.getuid()}"


def _no_audit(event: str, **fields: Any) -> bool:
    return False


class Approvals:
    """The approval rules over one store. Safe to share between threads (the store is)."""

    def __init__(
        self,
        store: ApprovalStore | None = None,
        *,
        audit: Audit | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self.audit = audit or _no_audit
        self.clock = clock

    @property
    def store(self) -> ApprovalStore:
        if self._store is None:
            from limen.approvals.sqlite import SqliteApprovalStore

            self._store = SqliteApprovalStore()
        return self._store

    def close(self) -> None:
        callback = sys.modules.get("limen.approvals.channels.callback")
        if callback is not None:  # loaded only once a link was sent
            callback.release(self)
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- the decision path -----------------------------------------------------------------------------
    def settle(
        self,
        decision: Decision,
        *,
        tool: str,
        arguments: Any,
        cwd: str,
        session: str,
        workspace: str,
        door: str,
        fingerprinter: Callable[[str], str],
        strong_threshold: int,
        config: ApprovalConfig,
    ) -> Decision:
        """Apply a matching grant to an AUTH decision (it passes once) or open a request for it."""
        from limen.audit.redact import safe_name

        if decision.verdict is not Verdict.AUTH or door in UNASKED_DOORS:
            return decision
        floors = never_approvable(decision.reasons)
        if floors:
            decision.explanation += (
                f"; no approval can allow it ({', '.join(c.value for c in floors)} is a hard floor)"
            )
            return decision
        now = self.clock()
        self.sweep(now)
        fp = bind(
            fingerprinter, tool=tool, arguments=arguments, cwd=cwd, session=session, workspace=workspace
        )
        strong = decision.risk >= strong_threshold
        reasons = tuple(r.value for r in decision.reasons)
        pending: ApprovalRequest | None = None
        for request in self.store.open_for(fp, now):
            if request.status == PENDING:
                pending = pending or request
            elif covers(request, reasons, strong):
                used = self.store.claim(request.id, decision_id=decision.decision_id, now=now)
                if used is not None:
                    self.audit(
                        "approval_use", approval=used.id, decision=decision.decision_id, fp=used.fingerprint
                    )
                    return approved(decision, used)
        if pending is None:
            pending = self._open(decision, fp, tool, arguments, session, workspace, door, strong, config)
            self.audit(
                "approval_request",
                approval=pending.id,
                decision=decision.decision_id,
                fp=fp,
                tool=safe_name(tool, fingerprinter),
                reasons=list(pending.reasons),
                risk=pending.risk,
                strong=strong,
                session=session,
                door=door,
                expires=round(pending.expires, 3),
            )
        decision.approval_id = pending.id
        return decision

    def _open(
        self,
        decision: Decision,
        fp: str,
        tool: str,
        arguments: Any,
        session: str,
        workspace: str,
        door: str,
        strong: bool,
        config: ApprovalConfig,
    ) -> ApprovalRequest:
        now = self.clock()
        request = ApprovalRequest(
            id=os.urandom(5).hex(),
            fingerprint=fp,
            tool=tool[:200],
            action=masked_action(tool, arguments),
            reasons=tuple(r.value for r in decision.reasons),
            risk=decision.risk,
            strong=strong,
            session=session,
            workspace=workspace,
            door=door,
            decision_id=decision.decision_id,
            created=now,
            expires=now + config.expiry_seconds,
        )
        self.store.create(request)
        return request

    # -- answers ---------------------------------------------------------------------------------------
    def get(self, request_id: str) -> ApprovalRequest | None:
        return self.store.get(request_id) if _valid_id(request_id) else None

    def pending(self) -> list[ApprovalRequest]:
        """Open requests, oldest first (expired ones are swept and audited first)."""
        now = self.clock()
        self.sweep(now)
        return self.store.pending(now)

    def recent(self, limit: int = 100) -> list[ApprovalRequest]:
        """The latest requests in any status, newest first (what a console lists)."""
        return self.store.recent(limit)

    def grant(
        self, request_id: str, *, by: str, code: str | None = None, password: str | None = None
    ) -> ApprovalRequest:
        """A human's yes. A strong request needs the possession factor; without an audit record there is no
        grant (it is withdrawn again)."""
        request = self._answerable(request_id)
        factor = ""
        if request.strong:
            factor = verify_factor(code, password, request)
        granted = self.store.grant(request.id, by=by, factor=factor, now=self.clock())
        if not self.audit(
            "approval_grant", approval=granted.id, by=by, factor=factor, fp=granted.fingerprint
        ):
            self.store.deny(granted.id, by="limen: the grant could not be audited", now=self.clock())
            raise ApprovalError("the audit log cannot be written, so the approval was not granted")
        return granted

    def use(self, request_id: str, *, decision_id: str) -> ApprovalRequest:
        """Spend a grant on the call `decision_id` that a door let through on it (an answer given in the
        agent's own prompt for this very call); raises ApprovalError when it is not a usable grant."""
        used = self.store.claim(request_id, decision_id=decision_id, now=self.clock())
        if used is None:
            raise ApprovalError(f"approval request {request_id} is not a usable grant")
        self.audit("approval_use", approval=used.id, decision=decision_id, fp=used.fingerprint)
        return used

    def deny(self, request_id: str, *, by: str, revoke: bool = True) -> ApprovalRequest:
        """A human's no (or, with `revoke`, taking back a grant not yet used)."""
        request = self._answerable(request_id)
        denied = self.store.deny(request.id, by=by, now=self.clock(), revoke=revoke)
        self.audit("approval_deny", approval=denied.id, by=by, fp=denied.fingerprint)
        return denied

    def _answerable(self, request_id: str) -> ApprovalRequest:
        self.sweep(self.clock())
        request = self.get(request_id)
        if request is None:
            raise ApprovalError(f"no approval request {request_id[:40]!r}")
        return request

    def sweep(self, now: float) -> None:
        """Expire what is past its time, with an audit record each."""
        for request in self.store.expire(now):
            self.audit("approval_expire", approval=request.id, fp=request.fingerprint, was=request.status)

    # -- holding a call --------------------------------------------------------------------------------
    def offer(self, request_id: str, config: ApprovalConfig, *, door: str, until: float) -> tuple[str, ...]:
        """Put the request to the configured channels in order; the channels that reached a human."""
        from limen.approvals.channels import deliver

        request = self.get(request_id)
        if request is None or request.status != PENDING:
            return ()
        return deliver(self, request, config, door=door, until=until)

    def wait(self, request_id: str, until: float) -> str:
        """Wait for the answer until `until` (epoch seconds): the request's status then (`pending` when
        nobody answered in time). Only a `granted` status lets a call through. A channel still talking to
        the person finishes its last line first."""
        from limen.approvals.channels import finish

        try:
            return self._answer(request_id, until)
        finally:
            finish(request_id)

    def _answer(self, request_id: str, until: float) -> str:
        while True:
            request = self.get(request_id)
            if request is None:
                return DENIED
            if request.status != PENDING:
                return request.status
            now = self.clock()
            if now >= request.expires:
                self.sweep(now)
                return EXPIRED
            if now >= until:
                return PENDING
            time.sleep(min(POLL_SECONDS, max(until - now, 0.0)))


def covers(request: ApprovalRequest, reasons: tuple[str, ...], strong: bool) -> bool:
    """Whether a grant may let this decision through: it was granted, the call raises no reason the human
    did not see, and a call that needs strong approval now was granted with the factor."""
    return (
        request.status == GRANTED
        and set(reasons) <= set(request.reasons)
        and (not strong or bool(request.factor))
    )


def approved(decision: Decision, request: ApprovalRequest) -> Decision:
    """The AUTH decision turned PASS by one use of `request`, with the approval in its evidence trail."""
    detail = f"approved once by {request.answered_by} (approval {request.id})"
    decision.evidence.append(
        StageResult("approval", Verdict.PASS, decision.risk, decision.reasons, (detail,))
    )
    decision.verdict = Verdict.PASS
    decision.approval_id = request.id
    decision.explanation = f"PASS: {detail}; it needed approval: {decision.explanation}"
    return decision


def verify_factor(code: str | None, password: str | None, request: ApprovalRequest) -> str:
    """The drift gate's TOTP or password check for a strong request; its kind, or ApprovalError."""
    from limen.policy import drift

    if not drift.has_factor():
        raise ApprovalError(
            f"approval {request.id} needs the TOTP or password factor (risk {request.risk}), and none is set "
            "up: run `limen policy factor totp` (or `password`) first"
        )
    if not code and not password:
        raise ApprovalError(
            f"approval {request.id} needs the TOTP code or password (risk {request.risk}): "
            f"`limen approve {request.id} --code CODE` or `--password-stdin`"
        )
    try:
        return drift.verify_factor(code=code, password=password)
    except drift.DriftError as exc:
        raise ApprovalError(str(exc)) from None


def _valid_id(request_id: str) -> bool:
    return 0 < len(request_id) <= 40 and request_id.isalnum()


__all__ = [
    "DENIED",
    "EXPIRED",
    "GRANTED",
    "PENDING",
    "USED",
    "Approvals",
    "approved",
    "covers",
    "who",
]
