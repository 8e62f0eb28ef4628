"""Halt floor: a halted session answers BLOCK (`session_halted`) to every call until it is cleared."""

from __future__ import annotations

from limen.context import Context
from limen.model import Action, Decision, Finding, ReasonCode, Verdict


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    if ctx.session is None or not ctx.session.is_halted():
        return []
    return [Finding(ReasonCode.SESSION_HALTED, Verdict.BLOCK, 100, "this session was halted")]
