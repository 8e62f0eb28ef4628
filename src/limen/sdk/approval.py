"""Approval for AUTH decisions: the application's approver is asked once per call, and anything but a
clear yes is a no.

An approver is a callable `approver(request) -> bool | Approval` (or a coroutine function giving one).
No approver, an exception, a timeout, an answer of any other type, or a plain `True` where the risk needs
strong approval (at or above the policy's `strong` threshold) all deny. Approval never turns a BLOCK
into a run: approvers are asked about AUTH decisions only.

Limen's own single-use approvals (`limen.approvals`, issue 13) stay in step: the runtime opens a request
for every AUTH; the guard grants it on the approver's yes (and uses the grant up at once, by deciding the
call again) or denies it on a no. A guard without an approver asks Limen's configured channels instead
(`Session._hold`), as the other doors do.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from limen.model import Decision


@dataclass(slots=True, frozen=True)
class ApprovalRequest:
    """What an approver sees. `arguments` are the validated arguments of the call (the application's own
    data: show them to the person deciding, never to a log)."""

    tool: str
    capability: str
    arguments: dict[str, Any]
    risk: int
    reasons: tuple[str, ...]
    explanation: str
    decision_id: str
    session_id: str
    agent_id: str
    strong: bool  # the risk is at or above the strong threshold: only `Approval(strong=True)` approves


@dataclass(slots=True, frozen=True)
class Approval:
    """An approver's answer. `strong=True` says the person passed a strong check (a second factor)."""

    approved: bool
    by: str = ""
    strong: bool = False
    note: str = field(default="", repr=False)


Approver = Callable[[ApprovalRequest], bool | Approval | Awaitable[bool | Approval]]


@dataclass(slots=True, frozen=True)
class Answer:
    """What the guard records: granted or not, why, and by whom."""

    granted: bool
    why: str
    by: str = ""


def request_for(
    decision: Decision,
    *,
    tool: str,
    capability: str,
    arguments: dict[str, Any],
    session_id: str,
    agent_id: str,
    strong_threshold: int,
) -> ApprovalRequest:
    return ApprovalRequest(
        tool=tool,
        capability=capability,
        arguments=arguments,
        risk=decision.risk,
        reasons=tuple(r.value for r in decision.reasons),
        explanation=decision.explanation,
        decision_id=decision.decision_id,
        session_id=session_id,
        agent_id=agent_id,
        strong=decision.risk >= strong_threshold,
    )


def judge(request: ApprovalRequest, answer: object) -> Answer:
    """Read an approver's answer strictly: only `True` or an `Approval` with `approved=True` (and
    `strong=True` where the request needs it) grant."""
    if isinstance(answer, Approval):
        if answer.approved is not True:
            return Answer(False, "denied by the approver", answer.by)
        if request.strong and answer.strong is not True:
            return Answer(False, "strong approval required, the approval was not strong", answer.by)
        return Answer(True, "approved (strong)" if answer.strong else "approved", answer.by)
    if answer is True:
        if request.strong:
            return Answer(False, "strong approval required; answer with Approval(approved=True, strong=True)")
        return Answer(True, "approved")
    if answer is False:
        return Answer(False, "denied by the approver")
    return Answer(False, f"the approver answered a {type(answer).__name__}, not a bool or Approval")


def ask(approver: Approver | None, request: ApprovalRequest) -> Answer:
    """Ask a synchronous approver. A coroutine approver is run to completion when no event loop runs in
    this thread; inside a running loop use `ask_async` (the guard's `acall` does)."""
    if approver is None:
        return Answer(False, "no approver is configured")
    try:
        answer = approver(request)
        if inspect.isawaitable(answer):
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                answer = asyncio.run(_awaited(answer))
            else:
                _discard(answer)
                return Answer(
                    False, "an async approver cannot answer a synchronous call inside an event loop"
                )
    except Exception as exc:
        return Answer(False, f"the approver raised {type(exc).__name__}")
    return judge(request, answer)


async def ask_async(approver: Approver | None, request: ApprovalRequest, timeout: float) -> Answer:
    """Ask an approver from a coroutine: a synchronous one runs in a worker thread, so the loop (and the
    other sessions) go on; an answer later than `timeout` seconds is a denial."""
    if approver is None:
        return Answer(False, "no approver is configured")
    try:
        if inspect.iscoroutinefunction(approver):
            answer: object = await asyncio.wait_for(_awaited(approver(request)), timeout)
        else:
            answer = await asyncio.wait_for(asyncio.to_thread(approver, request), timeout)
            if inspect.isawaitable(answer):
                answer = await asyncio.wait_for(_awaited(answer), timeout)
    except TimeoutError:
        return Answer(False, f"the approver did not answer within {timeout:g} s")
    except Exception as exc:
        return Answer(False, f"the approver raised {type(exc).__name__}")
    return judge(request, answer)


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def _discard(awaitable: object) -> None:
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()
