"""Hard floors: checks that run after combine() and that no approval, waiver or familiarity can mute.

Each floor is a function `(action, ctx, decision) -> list[Finding]` that reads only the action, the mode and
the session (never `ctx.waived`). The engine runs them all; one that raises turns the call into BLOCK
(`objective_guardrail_error`).
"""

from __future__ import annotations

from collections.abc import Callable

from limen.context import Context
from limen.floors import correlator, halt, provenance, steered, taint, toolpin, trifecta
from limen.model import Action, Decision, Finding, ReasonCode

Floor = Callable[[Action, Context, Decision], list[Finding]]

FLOORS: tuple[Floor, ...] = (
    halt.floor,
    taint.floor,
    trifecta.floor,
    correlator.floor,
    provenance.floor,
    steered.floor,
    toolpin.floor,
)


# Every code a floor raises: no waiver, approval or familiarity mutes them (`limen.policy.unmutable`).
FLOOR_CODES = frozenset(
    {
        ReasonCode.SESSION_HALTED,
        ReasonCode.CONFIRMED_EXFIL,
        ReasonCode.MULTI_STEP_EXFIL,
        ReasonCode.LETHAL_TRIFECTA,
        ReasonCode.CORRELATED_TRIFECTA,
        ReasonCode.CORRELATED_DESTRUCTIVE_FLOW,
        ReasonCode.UNTRUSTED_VALUE_ECHO,
        ReasonCode.STEERED_ACTION,
        ReasonCode.TOOL_SCHEMA_CHANGED,
    }
)


def run_floors(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    findings: list[Finding] = []
    for floor in FLOORS:
        findings.extend(floor(action, ctx, decision))
    return findings
